//! `conditions find`: the rulings for a question in words, best first, each with its
//! question and the clauses whose words matched.

use super::InfoFormat;
use super::rule_cmd::load_rulebook;
use conditions::discover::find;
use std::process::ExitCode;

pub fn run(rulebook: &str, text: &str, format: InfoFormat, limit: u32) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let hits = find::get(p).search(p, text, limit as usize);
    if format == InfoFormat::Json {
        let v = conditions::ojson!({ "rulebook": &p.rulebook.name, "query": text, "results": &hits });
        outln!("{}", v.to_pretty());
        return if hits.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS };
    }
    if hits.is_empty() {
        errln!("nothing in `{}` matches `{text}`", p.rulebook.name);
        errln!("  help: `conditions list {rulebook}` lists every ruling");
        return ExitCode::from(1);
    }
    for h in &hits {
        let kind = if h.kind == "ruling" { String::new() } else { format!(" ({})", h.kind) };
        let clause = h.clause.as_deref().map(|c| format!("  [{c}]")).unwrap_or_default();
        outln!("{}. {}{kind}{clause}", h.rank, h.name);
        if let Some(q) = &h.question {
            outln!("     {q}");
        }
        if let Some(q) = &h.question_en {
            outln!("     {q}");
        }
        for m in &h.matched {
            let role =
                serde_json::to_value(m.role).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
            outln!("     {} ({role}): {}", m.citation, m.snippet);
        }
    }
    outln!(
        "\n`conditions describe {rulebook} NAME` tells what one reads; `conditions ask {rulebook} --ruling NAME` rules on it"
    );
    ExitCode::SUCCESS
}
