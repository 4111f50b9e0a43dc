//! `conditions schema` and `conditions template`: the JSON Schema of a facts file, and
//! a facts skeleton with each field described.

use super::rule_cmd::{load_rulebook, resolve_rulings};
use conditions::discover;
use conditions::facts::Format;
use std::process::ExitCode;

pub fn run_schema(rulebook: &str, rulings: &[String]) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let defs = match resolve_rulings(&book.program, rulings, true) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let s = discover::schema::schema(&book.program, &defs);
    outln!("{}", serde_json::to_string_pretty(&s).unwrap_or_default());
    ExitCode::SUCCESS
}

pub fn run_template(rulebook: &str, rulings: &[String], format: Format) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let defs = match resolve_rulings(&book.program, rulings, true) {
        Ok(d) => d,
        Err(code) => return code,
    };
    out!("{}", discover::template::template(&book.program, &defs, format));
    ExitCode::SUCCESS
}
