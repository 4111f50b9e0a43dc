//! `conditions describe`: what a ruling answers, which clauses decide it, and every
//! input it can read with its facts-file path and how to write it; or what a fact,
//! decision, lot or record field is, and the rulings that read it.

use super::InfoFormat;
use super::rule_cmd::{load_rulebook, resolve_rulings};
use conditions::discover::{self, Input, Origin, about};
use std::process::ExitCode;

pub fn run(rulebook: &str, name: &str, format: InfoFormat) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    if let Some(origin) = about::input_named(p, name) {
        return describe_input(rulebook, p, origin, format);
    }
    if p.def_by_name(name).is_none() {
        errln!(
            "error[conditions::unknown_name]: no ruling, definition, fact, decision or field `{name}` in `{}`\n  help: {}",
            p.rulebook.name,
            if let Some(renamed) = p.renamed(name, None) {
                Some(renamed)
            } else if name.rsplit_once('.').is_some_and(|(r, _)| about::is_record(p, r)) {
                conditions::diagnostic::did_you_mean(name, about::describable(p).iter().map(String::as_str))
            } else {
                discover::suggest::did_you_mean(p, name, true)
                    .or_else(|| conditions::diagnostic::did_you_mean(name, about::describable(p).iter().map(String::as_str)))
            }
                .unwrap_or_else(|| format!(
                    "`conditions list {rulebook} --all` lists every name; `conditions find {rulebook} WORDS…` finds a ruling by its words"
                ))
        );
        return ExitCode::from(2);
    }
    let def = match resolve_rulings(p, &[name.to_string()], true) {
        Ok(d) => d[0],
        Err(code) => return code,
    };
    let d = discover::describe(p, def);
    if format == InfoFormat::Json {
        outln!("{}", serde_json::to_string_pretty(&d).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    outln!("{} ({}): {}", d.name, d.kind, d.ty);
    if let Some(q) = &d.question {
        outln!("  {q}");
    }
    if let Some(c) = &d.clause {
        outln!("declared in {c}");
    }
    if !d.decided_by.is_empty() {
        outln!("decided by the rules of {}", d.decided_by.join(", "));
    }
    if d.kind != "ruling" {
        let readers = about::rulings_reading_def(p, def);
        match readers.len() {
            0 => outln!("read by no ruling"),
            n => outln!("read by {n} ruling{}: {}", if n == 1 { "" } else { "s" }, names_in_full(&readers)),
        }
    }
    if !d.decided_through.is_empty() {
        outln!("and through the definitions it reads:");
        for t in &d.decided_through {
            outln!("  {}: the rules of {}", t.definition, t.clauses.join(", "));
        }
    }
    outln!("\nreads {} inputs:", d.inputs.len());
    for i in &d.inputs {
        show_input(i);
    }
    outln!("\n`conditions ask {rulebook} --ruling {}` asks only for the inputs that matter", d.name);
    ExitCode::SUCCESS
}

fn show_input(i: &Input) {
    let kind = serde_json::to_value(i.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    let optional = if i.optional { ", optional" } else { "" };
    let clause = i.clause.as_deref().map(|c| format!("  [{c}]")).unwrap_or_default();
    outln!("  {}: {} ({kind}{optional}){clause}", i.path, i.ty);
    if let Some(doc) = &i.description {
        outln!("      {doc}");
    }
    if let Some(by) = &i.decided_by {
        outln!("      decided by {by}");
    }
    for d in &i.may_be_decided_by {
        let under = d.clause.as_deref().map(|c| format!(" under {c}")).unwrap_or_default();
        let question = d.question.as_deref().map(|q| format!(" ({q})")).unwrap_or_default();
        outln!("      the rulebook may work this out: `{}`{under}{question} — rule that instead", d.name);
    }
    if !i.also_read_by.is_empty() {
        outln!("      also read by {}", names_in_short(&i.also_read_by));
    }
    outln!("      write {}", i.write);
}

/// At most [`SHOWN_READERS`] names, then how many more.
fn names_in_short(names: &[String]) -> String {
    let shown: Vec<String> = names.iter().take(SHOWN_READERS).map(|n| format!("`{n}`")).collect();
    match names.len().saturating_sub(SHOWN_READERS) {
        0 => shown.join(", "),
        1 => format!("{} and 1 other ruling", shown.join(", ")),
        more => format!("{} and {more} other rulings", shown.join(", ")),
    }
}

/// How many of the other rulings that read an input are named.
const SHOWN_READERS: usize = 4;

fn names_in_full(names: &[String]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// A fact, decision, lot or record field: its type, description, clause, who decides it,
/// the rulings that read it and those that may work it out.
fn describe_input(rulebook: &str, p: &conditions::check::Program, origin: Origin, format: InfoFormat) -> ExitCode {
    let a = about::about(p, origin);
    if format == InfoFormat::Json {
        outln!("{}", serde_json::to_string_pretty(&a).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    outln!("{} ({}): {}", a.name, a.kind, a.ty);
    if let Some(q) = &a.description {
        outln!("  {q}");
    }
    if let Some(c) = &a.clause {
        outln!("declared in {c}");
    }
    if let Some(by) = &a.decided_by {
        outln!("decided by {by}");
    }
    if !a.paths.is_empty() {
        outln!("written in a facts file as {}", names_in_full(&a.paths));
    }
    match a.read_by.len() {
        0 => outln!("read by no ruling"),
        n => outln!("read by {n} ruling{}: {}", if n == 1 { "" } else { "s" }, names_in_full(&a.read_by)),
    }
    for d in &a.may_be_decided_by {
        let under = d.clause.as_deref().map(|c| format!(" under {c}")).unwrap_or_default();
        let question = d.question.as_deref().map(|q| format!(" ({q})")).unwrap_or_default();
        outln!("the rulebook may work this out: `{}`{under}{question}", d.name);
    }
    if let Some(first) = a.read_by.first() {
        outln!("\n`conditions describe {rulebook} {first}` tells what else that ruling reads");
    }
    ExitCode::SUCCESS
}
