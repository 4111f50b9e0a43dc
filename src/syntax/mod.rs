//! Syntax: the pest grammar, the syntax tree, the parser and the printer.
//!
//! Owns everything about how condition files are written; nothing here knows
//! what a name means (that is `check`).

pub mod ast;
pub mod parser;
pub mod printer;

pub use parser::{fold_whitespace, parse_file};
pub use printer::print_file;
