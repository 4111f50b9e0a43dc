//! The brief explanation of every case file's rulings, in the rulebook's language and in
//! English, reads as words: no source syntax (`=>`, `..=`, `..<`) and no internal rule name.

use conditions::eval::show::Lang;
use conditions::explain::{Explainer, text};
#[path = "support/case_rulings.rs"]
mod case_rulings;
use case_rulings::{CaseRulings, case_rulings};

#[test]
fn brief_explanations_show_no_source_syntax() {
    let mut problems = Vec::new();
    let mut rendered = 0usize;
    for book_name in ["gnt", "dbf"] {
        let book = conditions::loader::load(book_name).unwrap_or_else(|e| panic!("{book_name}: {:?}", e.diagnostics));
        let p = &book.program;
        // A fact's, decision's or lot's name may be shown: it is what a director gives.
        let given = |l: &str| p.facts.iter().any(|f| f.name == l) || p.decisions.iter().any(|d| d.name == l);
        // Rule labels that read as identifiers (`s304.beregning`, `flight_b_limit`).
        let labels: Vec<&str> = p
            .rules
            .iter()
            .map(|r| r.label.as_str())
            .filter(|l| (l.contains('_') || l.chars().any(|c| c.is_ascii_digit())) && !given(l))
            .collect();
        for CaseRulings { path, inputs, rulings, .. } in case_rulings(p, book_name) {
            for def in rulings {
                let ruling = conditions::eval::rule(p, &inputs, def, true);
                for lang in [Lang::parse(&p.rulebook.language).unwrap_or(Lang::En), Lang::En] {
                    let report = Explainer { p, sources: &book.sources, lang, inputs: &inputs }.report(&ruling, false);
                    let out = text::render(&report, false);
                    rendered += 1;
                    let mut bad: Vec<String> =
                        ["=>", "..=", "..<"].iter().filter(|s| out.contains(*s)).map(|s| s.to_string()).collect();
                    bad.extend(labels.iter().filter(|l| names_word(&out, l)).map(|l| format!("rule `{l}`")));
                    if !bad.is_empty() {
                        problems.push(format!(
                            "{} `{}` ({}): {}",
                            path.display(),
                            p.defs[def as usize].name,
                            lang.code(),
                            bad.join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(rendered > 1000, "every case file is rendered ({rendered})");
    assert!(problems.is_empty(), "{} brief explanations show source syntax:\n{}", problems.len(), problems.join("\n"));
}

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer name).
fn names_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}
