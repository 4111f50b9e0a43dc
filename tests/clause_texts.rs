//! Clause texts other than a paragraph as printed: an `excerpt` (printed fragments, in order,
//! joined by "…") is held to the document fragment by fragment; a `paraphrase` (no printed
//! text at hand) is never compared with it, is listed by `coverage`, and is shown to the
//! player marked as a paraphrase, never in quotation marks, in text, Markdown, JSON and HTML.

use conditions::check::check_read;
use conditions::check::program::TextKind;
use conditions::eval::show::Lang;
use conditions::explain::{Explainer, html, markdown, text};
use conditions::loader::{find_rulebooks, read_rulebook};
use std::path::PathBuf;

const DOCUMENT: &str = "\
1 The first rule is printed in full.
2 The second rule, printed on one line,
continues on the next, and ends on a third line.
";

/// A rulebook in a folder of its own, with `DOCUMENT` as its published document.
fn book(name: &str, clauses: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conditions-clause-texts-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let head = "rulebook \"t\" {\n  title \"Texts\"\n  language \"en\"\n  source \"source.txt\"\n}\n\n";
    std::fs::write(dir.join("rulebook.cond"), format!("{head}{clauses}")).expect("write");
    std::fs::write(dir.join("source.txt"), DOCUMENT).expect("write");
    dir
}

fn checked(dir: &std::path::Path) -> conditions::check::Checked {
    let b = find_rulebooks(dir).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&b);
    check_read(sources, problems)
}

fn lints(dir: &std::path::Path) -> Vec<(String, String)> {
    let c = checked(dir);
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    conditions::lint::for_rulebook(dir, &c, None)
        .into_iter()
        .filter(|d| d.code.starts_with("lint::source") || d.code == "lint::paraphrase_printed")
        .map(|d| (d.code.to_string(), format!("{} {}", d.message, d.help.unwrap_or_default())))
        .collect()
}

const FIRST: &str = "clause \"1\" {\n  text \"The first rule is printed in full.\"\n  informational \"t\"\n}\n";

#[test]
fn an_excerpt_in_order_covers_the_lines_it_spans() {
    // Fragments from the first and third lines: the second line, left out, is covered too.
    let dir = book(
        "in-order",
        &format!(
            "{FIRST}clause \"2\" {{\n  excerpt \"The second rule, … and ends on a third line.\"\n  informational \"t\"\n}}\n"
        ),
    );
    assert_eq!(lints(&dir), vec![]);
    let c = checked(&dir);
    let cov = conditions::coverage::coverage(&c.program, DOCUMENT);
    assert_eq!((cov.covered_lines, cov.document_lines), (3, 3));
    assert!(cov.missing.is_empty() && cov.stray.is_empty() && cov.paraphrases.is_empty());
    assert_eq!(cov.clauses[1].text, TextKind::Excerpt);
}

#[test]
fn an_excerpt_out_of_order_or_misquoted_is_stray() {
    let dir = book(
        "out-of-order",
        &format!(
            "{FIRST}clause \"2\" {{\n  excerpt \"and ends on a third line. … The second rule,\"\n  informational \"t\"\n}}\n"
        ),
    );
    let found = lints(&dir);
    assert!(
        found.iter().any(|(code, m)| code == "lint::source_stray"
            && m.contains("fragment 2 “The second rule,”, which is printed, but not after the fragment before it")),
        "{found:?}"
    );
    let dir = book(
        "misquoted",
        &format!(
            "{FIRST}clause \"2\" {{\n  excerpt \"The second rule, … and ends on the third line.\"\n  informational \"t\"\n}}\n"
        ),
    );
    let found = lints(&dir);
    assert!(
        found.iter().any(|(code, m)| code == "lint::source_stray"
            && m.contains("fragment 2 “and ends on the third line.”, which is not printed")),
        "{found:?}"
    );
}

#[test]
fn a_paraphrase_is_listed_and_never_compared() {
    let dir = book(
        "paraphrase",
        &format!(
            "{FIRST}clause \"2\" {{\n  paraphrase \"The second rule says something in other words.\"\n  informational \"t\"\n}}\n"
        ),
    );
    // Not stray; the second rule's printed lines stay missing until quoted.
    let found = lints(&dir);
    assert!(found.iter().all(|(code, _)| code == "lint::source_missing"), "{found:?}");
    assert_eq!(found.len(), 2, "{found:?}");
    let c = checked(&dir);
    let cov = conditions::coverage::coverage(&c.program, DOCUMENT);
    assert_eq!(cov.paraphrases, vec!["2".to_string()]);
    assert!(!cov.is_complete());
}

#[test]
fn one_text_a_clause_and_no_empty_fragment() {
    let dir = book("two-texts", "clause \"1\" {\n  text \"a\"\n  paraphrase \"b\"\n  informational \"t\"\n}\n");
    let c = checked(&dir);
    assert!(c.diagnostics.iter().any(|d| d.code == "conditions::two_texts"), "{:?}", c.diagnostics);
    let dir = book("empty-fragment", "clause \"1\" {\n  excerpt \"a … … b\"\n  informational \"t\"\n}\n");
    let c = checked(&dir);
    assert!(c.diagnostics.iter().any(|d| d.code == "conditions::empty_fragment"), "{:?}", c.diagnostics);
}

/// The round robin's Appendix A is a paraphrase: every rendering marks it and none quotes it.
#[test]
fn a_paraphrase_is_shown_as_one() {
    let book = conditions::loader::load("tests/rulebooks/round_robin").expect("the test rulebook loads");
    let p = &book.program;
    let facts = serde_json::json!({
        "team": "Ash",
        "matches": [{ "home": "Ash", "away": "Birch", "home_imps": 30, "away_imps": 20, "home_vp": 12, "away_vp": 8 }],
    });
    let inputs = conditions::facts::validate(p, &facts, "facts").expect("facts fit");
    let def = p.def_by_name("matches_won").expect("ruling");
    let ruling = conditions::eval::rule(p, &inputs, def, true);
    let report = Explainer { p, sources: &book.sources, lang: Lang::En, inputs: &inputs }.report(&ruling, false);
    let words = "A team wins a match when it scores more VP in it than its opponent";
    let shown = text::render(&report, false);
    assert!(shown.contains("Paraphrase (the printed text is not at hand): A team wins a match"), "{shown}");
    assert!(!shown.contains(&format!("“{words}")), "{shown}");
    let md = markdown::render(&report, false);
    assert!(md.contains("*Paraphrase (the printed text is not at hand):* A team wins"), "{md}");
    assert!(!md.contains(&format!("> {words}")), "{md}");
    let json = serde_json::to_value(&report).expect("json");
    let clauses = json["clauses"].as_array().expect("clauses");
    let clause = clauses.iter().find(|c| c["citation"] == "Appendix A").expect("the paraphrased clause is cited");
    assert_eq!(clause["text_kind"].as_str(), Some("paraphrase"));
    let page = html::render(&report, false);
    assert!(page.contains("<p class=\"gloss paraphrase\"><span class=\"label\">Paraphrase"), "{page}");
    assert!(!page.contains(&format!("<blockquote lang=\"en\">{words}")), "{page}");
}
