//! `conditions list`: the rulings of a rulebook, grouped by section (with `--all`, also its
//! definitions, facts, decisions, lots and record fields).

use super::InfoFormat;
use super::rule_cmd::load_rulebook;
use conditions::discover;
use std::process::ExitCode;

pub fn run(rulebook: &str, word: Option<&str>, all: bool, format: InfoFormat) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let mut entries = discover::list(p, word, all);
    if all {
        entries.extend(discover::fields(p, word));
    }
    if format == InfoFormat::Json {
        let v = conditions::ojson!({ "rulebook": &p.rulebook.name, "entries": &entries });
        outln!("{}", v.to_pretty());
        return ExitCode::SUCCESS;
    }
    let mut section: Option<&Option<String>> = None;
    for e in &entries {
        if section != Some(&e.section) {
            if section.is_some() {
                outln!();
            }
            outln!("{}", e.section.as_deref().unwrap_or("(no clause)"));
            section = Some(&e.section);
        }
        let kind = if e.kind == "ruling" { String::new() } else { format!("{} ", e.kind) };
        let clause = e.clause.as_deref().map(|c| format!("  [{c}]")).unwrap_or_default();
        outln!("  {kind}{}: {}{clause}", e.name, e.ty);
        if let Some(q) = &e.question {
            outln!("      {q}");
        }
    }
    if entries.is_empty() {
        errln!("nothing in `{}` matches{}", p.rulebook.name, word.map(|w| format!(" `{w}`")).unwrap_or_default());
        return ExitCode::from(1);
    }
    let rulings = entries.iter().filter(|e| e.kind == "ruling").count();
    outln!("\n{rulings} rulings; `conditions describe {rulebook} NAME` tells what one reads");
    ExitCode::SUCCESS
}
