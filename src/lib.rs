//! `conditions`: an interpreter for bridge conditions of contest written as data.
//!
//! Pipeline: [`syntax`] (parse `.cond` files) → [`check`] (resolve, type, lower to
//! a [`check::Program`]) → [`eval`] (rule on facts, exactly) → [`explain`] (cited,
//! quoted explanations) → `cli`. [`loader`] reads rulebooks; [`facts`] reads and
//! validates facts files. [`api`] is the facade for programs that embed the library;
//! [`serve`] puts it in a browser and behind a JSON API.

pub mod analysis;
pub mod api;
pub mod ask;
pub mod batch;
pub mod cases;
pub mod check;
pub mod coverage;
pub mod diagnostic;
pub mod diff;
pub mod discover;
pub mod eval;
pub mod explain;
pub mod facts;
pub mod format;
pub mod lang;
pub mod lint;
pub mod loader;
pub mod lsp;
pub mod sarif;
pub mod serve;
pub mod source;
pub mod syntax;
