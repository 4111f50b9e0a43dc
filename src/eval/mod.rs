//! Evaluation: exact values, dates, and the interpreter.

pub mod date;
pub mod num;
pub mod value;
