//! `conditions coverage`: the rulebook against its published document.

use super::CheckFormat;
use conditions::coverage::coverage;
use std::path::Path;
use std::process::ExitCode;

fn read_document(path: &Path) -> std::io::Result<String> {
    conditions::loader::read_text(path, conditions::coverage::MAX_DOCUMENT_BYTES)
}

pub fn run(rulebook: &str, source: Option<&str>, format: CheckFormat, strict: bool) -> ExitCode {
    let book = match super::rule_cmd::load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let doc_name = source.map(str::to_string).or_else(|| p.rulebook.source.clone());
    let Some(doc_name) = doc_name else {
        errln!(
            "error[conditions::no_source]: `{}` names no published document\n  help: add `source \"…\"` to its `rulebook` header, or pass --source FILE",
            p.rulebook.name
        );
        return ExitCode::from(2);
    };
    let path = Path::new(rulebook);
    let text = if source.is_some() {
        read_document(Path::new(&doc_name)).map_err(|e| format!("cannot read `{doc_name}`: {e}"))
    } else if conditions::loader::names_a_path(rulebook) {
        let root =
            if path.is_dir() { path.to_path_buf() } else { path.parent().map(Path::to_path_buf).unwrap_or_default() };
        let file = root.join(&doc_name);
        conditions::loader::read_regular_text(&file, conditions::coverage::MAX_DOCUMENT_BYTES)
            .map_err(|e| format!("cannot read `{}`: {e}", file.display()))
    } else {
        conditions::loader::bundled_document(rulebook, &doc_name)
            .map(str::to_string)
            .ok_or_else(|| format!("the bundled `{rulebook}` has no `{doc_name}`"))
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            errln!("error[conditions::io]: {e}");
            return ExitCode::from(2);
        }
    };
    let cov = coverage(p, &text);
    match format {
        CheckFormat::Json => outln!("{}", serde_json::to_string_pretty(&cov).unwrap_or_default()),
        CheckFormat::Human | CheckFormat::Sarif | CheckFormat::Github => {
            outln!("{} — {}", p.rulebook.name, p.rulebook.title);
            outln!(
                "document: {} of {} non-empty lines present verbatim in a clause",
                cov.covered_lines,
                cov.document_lines
            );
            for m in &cov.missing {
                outln!(
                    "  missing line {}: “{}”{}{}",
                    m.line,
                    m.text,
                    m.nearest.as_ref().map(|c| format!("\n    nearest clause: {c}")).unwrap_or_default(),
                    m.first_difference.as_ref().map(|d| format!(", first difference at {d}")).unwrap_or_default()
                );
            }
            for s in &cov.stray {
                outln!(
                    "  clause {} is not in the document{}",
                    s.citation,
                    s.first_difference.as_ref().map(|d| format!(": first difference at {d}")).unwrap_or_default()
                );
            }
            outln!(
                "clauses: {} in all; {} executable, {} informational, {} neither",
                cov.clauses.len(),
                cov.executable(),
                cov.informational(),
                cov.undecided()
            );
            let paraphrase = |c: &conditions::coverage::ClauseStatus| {
                if c.text == conditions::check::program::TextKind::Paraphrase { " (paraphrase)" } else { "" }
            };
            for c in &cov.clauses {
                match c.status {
                    "executable" => outln!("  ✓ {:<22} {}{}", c.citation, c.holds.join(", "), paraphrase(c)),
                    "informational" => {
                        outln!("  · {:<22} informational: {}", c.citation, c.reason.clone().unwrap_or_default())
                    }
                    _ => outln!("  ✗ {:<22} decides nothing and does not say why", c.citation),
                }
            }
            if !cov.paraphrases.is_empty() {
                outln!(
                    "paraphrases: {} clause(s) quote no printed text, their own words stand in for it: {}",
                    cov.paraphrases.len(),
                    cov.paraphrases.join(", ")
                );
            }
        }
    }
    let fidelity_ok = cov.missing.is_empty() && cov.stray.is_empty();
    if fidelity_ok && (!strict || (cov.undecided() == 0 && cov.paraphrases.is_empty())) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
