//! The adversarial corpus: every hostile input once found to give a silently wrong
//! value, a panic, an abort, lost data or a hang, kept as a regression test with its
//! exact expected answer worked out by hand (or an independent big-rational reference).

mod batch;
mod cli_props;
mod common;
mod files;
mod inputs;
mod limits;
mod numbers;
mod output;
mod props;
mod slow;
