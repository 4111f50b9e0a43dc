//! A DBF ruling in English is English apart from the quoted clause text: every question,
//! description, label and text answer the brief explanation of a rendered ruling shows
//! carries an English gloss. `GLOSS_REPORT=1` lists, most shown first, the texts of every
//! case file's English explanations that still lack one, and the coverage of the rulebook.

use conditions::check::glosses::glossable;
use conditions::eval::show::Lang;
use conditions::explain::{Explainer, text};
use std::collections::BTreeMap;
use std::path::Path;

/// The brief English explanation without its quoted clauses (which stay verbatim).
fn english(book: &conditions::check::Checked, inputs: &conditions::eval::interp::Inputs, ruling: &str) -> String {
    let p = &book.program;
    let def = p.def_by_name(ruling).unwrap_or_else(|| panic!("no ruling {ruling}"));
    let r = conditions::eval::rule(p, inputs, def, true);
    let report = Explainer { p, sources: &book.sources, lang: Lang::En, inputs }.report(&r, false);
    let out = text::render(&report, false);
    let cut = out.find("\nClauses cited:").unwrap_or(out.len());
    // Words wrapped over lines are found again as one line.
    out[..cut].split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Danish texts of the rulebook that read as prose (a word or two of a name are left out).
fn unglossed(p: &conditions::check::program::Program) -> Vec<String> {
    glossable(p).into_iter().filter(|t| prose(p, t) && !p.glosses.contains_key(t)).collect()
}

/// A text to translate: more than one word or who decides, and no citation (`§ 304` reads
/// the same in English).
fn prose(p: &conditions::check::program::Program, t: &str) -> bool {
    (t.contains(' ') || p.decisions.iter().any(|d| d.by == t)) && !p.citations.contains_key(t)
}

fn shown_in(out: &str, texts: &[String]) -> Vec<String> {
    texts.iter().filter(|t| out.contains(&t.split_whitespace().collect::<Vec<_>>().join(" "))).cloned().collect()
}

#[test]
fn rendered_dbf_rulings_read_in_english() {
    let book = conditions::loader::load("dbf").expect("dbf loads");
    let p = &book.program;
    let missing = unglossed(p);
    let mut problems = Vec::new();
    for entry in std::fs::read_dir("tests/renderings").expect("renderings") {
        let path = entry.expect("entry").path();
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        if !name.starts_with("dbf-") || !name.ends_with(".toml") {
            continue;
        }
        let r: toml::Table = toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("toml");
        let facts = r["facts"].as_table().cloned().unwrap_or_default();
        let tree = serde_json::to_value(toml::Value::Table(facts)).expect("facts");
        let inputs = conditions::facts::validate(p, &tree, &name).expect("valid facts");
        let out = english(&book, &inputs, r["ruling"].as_str().expect("ruling"));
        for t in shown_in(&out, &missing) {
            problems.push(format!("{name}: “{t}”"));
        }
    }
    assert!(problems.is_empty(), "{} Danish texts in English renderings:\n{}", problems.len(), problems.join("\n"));
}

/// The texts still shown untranslated in the brief English explanations of the rulings of
/// every DBF case file, with how often each is shown.
fn shown_untranslated(book: &conditions::check::Checked) -> BTreeMap<String, usize> {
    let p = &book.program;
    let missing = unglossed(p);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for path in conditions::cases::find_cases(Path::new("conditions/dbf/cases")) {
        let case: conditions::cases::CaseFile =
            toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("a case file");
        let tree = conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts)).expect("facts"));
        let Ok(inputs) = conditions::facts::validate(p, &tree, "case") else { continue };
        for exp in &case.expect {
            if p.def_by_name(&exp.ruling).is_none() {
                continue;
            }
            for t in shown_in(&english(book, &inputs, &exp.ruling), &missing) {
                *seen.entry(t).or_default() += 1;
            }
        }
    }
    seen
}

/// Every case file's English explanations are English apart from the quoted clause texts.
#[test]
fn case_files_read_in_english() {
    let book = conditions::loader::load("dbf").expect("dbf loads");
    let shown: Vec<String> = shown_untranslated(&book).into_keys().collect();
    assert!(
        shown.is_empty(),
        "{} Danish texts in the case files' English explanations:\n{}",
        shown.len(),
        shown.join("\n")
    );
}

/// The share of the rulebook's prose texts glossed does not fall: all 1,264 are glossed
/// (a text added to the rulebook comes with its gloss).
#[test]
fn glossed_texts_do_not_fall_below_the_floor() {
    const FLOOR: usize = 1264;
    let book = conditions::loader::load("dbf").expect("dbf loads");
    let p = &book.program;
    let all = glossable(p).into_iter().filter(|t| prose(p, t)).count();
    let glossed = all - unglossed(p).len();
    assert!(glossed >= FLOOR, "{glossed} of {all} prose texts glossed, fewer than {FLOOR}");
}

#[test]
fn gloss_report() {
    if std::env::var_os("GLOSS_REPORT").is_none() {
        return;
    }
    let book = conditions::loader::load("dbf").expect("dbf loads");
    let p = &book.program;
    let missing = unglossed(p);
    let seen = shown_untranslated(&book);
    let mut ranked: Vec<(usize, String)> = seen.iter().map(|(t, n)| (*n, t.clone())).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    for (n, t) in &ranked {
        println!("{n}\t{t}");
    }
    // Then the texts no case file shows, in the rulebook's order.
    for t in missing.iter().filter(|t| !seen.contains_key(*t)) {
        println!("0\t{t}");
    }
    let all = glossable(p).into_iter().filter(|t| prose(p, t)).count();
    println!(
        "coverage: {} of {} prose texts glossed; {} still shown untranslated",
        all - missing.len(),
        all,
        ranked.len()
    );
}
