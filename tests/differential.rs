//! The differential test: every conflict the evaluator meets must have been reported by
//! `check` (`lint::conflict` or `lint::possible_conflict`) for that pair of rules — over
//! every case file and over facts generated from the rulebook's declarations, on both
//! bundled rulebooks and on the seeded mutations of `tests/mutations/`, each of which
//! `check` must flag as stated.

use conditions::cases::find_cases;
use conditions::check::program::Program;
use conditions::check::{Checked, check_read};
use conditions::diagnostic::Diagnostic;
use conditions::eval::interp::Inputs;
use conditions::eval::{Outcome, rule};
use conditions::loader::{find_rulebooks, read_rulebook};
use conditions::source::SourceMap;
use proptest::prelude::*;
#[path = "support/generate.rs"]
mod generate;
use generate::{Constants, constants, generated};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn book_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions").join(name)
}

fn sources_of(name: &str) -> SourceMap {
    let book = find_rulebooks(&book_dir(name)).expect("rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    assert!(problems.is_empty());
    sources
}

fn lints(c: &Checked, name: &str) -> Vec<Diagnostic> {
    conditions::lint::for_rulebook(&book_dir(name), c, None)
}

/// The words in backticks of a message, in order.
fn quoted(message: &str) -> Vec<&str> {
    message.split('`').skip(1).step_by(2).collect()
}

/// The pairs of rules `check` reported as (possibly) conflicting.
fn reported_pairs(diags: &[Diagnostic]) -> BTreeSet<(String, String)> {
    diags
        .iter()
        .filter(|d| d.code == "lint::conflict" || d.code == "lint::possible_conflict")
        .filter_map(|d| {
            let q = quoted(&d.message);
            let (a, b) = (q.first()?.to_string(), q.get(1)?.to_string());
            Some(if a <= b { (a, b) } else { (b, a) })
        })
        .collect()
}

/// The pair of rules an evaluator error names, when it is a conflict.
fn evaluator_conflict(message: &str) -> Option<(String, String)> {
    if !message.contains("both apply to") {
        return None;
    }
    let q = quoted(message);
    let (a, b) = (q.first()?.to_string(), q.get(1)?.to_string());
    Some(if a <= b { (a, b) } else { (b, a) })
}

/// Rules the given rulings (all when `None`) on these inputs; the conflicts met, with the
/// ruling that met them.
fn conflicts_met(p: &Program, inputs: &Inputs, only: Option<&[String]>) -> Vec<((String, String), String)> {
    let mut out = Vec::new();
    for (def, info) in p.rulings().filter(|(_, d)| only.is_none_or(|o| o.contains(&d.name))) {
        if let Outcome::Error(e) = rule(p, inputs, def, false).outcome
            && let Some(pair) = evaluator_conflict(&e.message)
        {
            out.push((pair, info.name.clone()));
        }
    }
    out
}

/// A case file's facts and the rulings it asks for.
fn case_inputs(p: &Program, case: &Path) -> Option<(Inputs, Vec<String>)> {
    let text = std::fs::read_to_string(case).ok()?;
    let raw = conditions::facts::read::toml(&text).ok()?;
    let tree = raw.get("facts").cloned().unwrap_or_else(|| serde_json::json!({}));
    let asked = raw.get("expect")?.as_array()?.iter().filter_map(|e| Some(e.get("ruling")?.as_str()?.to_string()));
    Some((conditions::facts::validate(p, &tree, "case").ok()?, asked.collect()))
}

/// Every conflict met over the case files was reported; returns the number of rulings made
/// and of conflicts met.
fn check_cases(c: &Checked, name: &str, reported: &BTreeSet<(String, String)>) -> (usize, usize) {
    let (mut ruled, mut met) = (0, 0);
    for case in find_cases(&book_dir(name).join("cases")) {
        let Some((inputs, asked)) = case_inputs(&c.program, &case) else { continue };
        for (pair, ruling) in conflicts_met(&c.program, &inputs, Some(&asked)) {
            assert!(reported.contains(&pair), "{}: `{ruling}` meets an unreported conflict {pair:?}", case.display());
            met += 1;
        }
        ruled += asked.len();
    }
    (ruled, met)
}

/// A bundled rulebook checked, the (ruling, fact) pairs it reads, and its constants.
type Bundled = (Checked, BTreeSet<(String, String)>, Constants);

fn bundled(name: &str) -> &'static Bundled {
    static BOOKS: std::sync::OnceLock<Vec<(String, Bundled)>> = std::sync::OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        ["gnt", "dbf"]
            .into_iter()
            .map(|n| {
                let c = check_read(sources_of(n), Vec::new());
                assert!(!c.has_errors(), "{n} does not check");
                let reported = reported_pairs(&lints(&c, n));
                let k = constants(&c.program, &[]);
                (n.to_string(), (c, reported, k))
            })
            .collect()
    });
    &books.iter().find(|(n, _)| n == name).expect("a bundled rulebook").1
}

#[test]
fn every_conflict_met_in_the_case_files_was_reported() {
    for name in ["gnt", "dbf"] {
        let (c, reported, _) = bundled(name);
        let (ruled, met) = check_cases(c, name, reported);
        assert!(ruled > 200 && met == 0, "{name}: {ruled} rulings, {met} conflicts");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn every_conflict_met_on_generated_facts_was_reported(seed in any::<u64>()) {
        for name in ["gnt", "dbf"] {
            let (c, reported, k) = bundled(name);
            let inputs = generated(&c.program, k, seed, 8);
            for (pair, ruling) in conflicts_met(&c.program, &inputs, None) {
                prop_assert!(reported.contains(&pair), "{name}: `{ruling}` meets an unreported conflict {pair:?}");
            }
        }
    }
}

// ---- Seeded mutations ----

/// Generated fact sets tried on each mutated rulebook.
const GENERATED_PER_MUTATION: u64 = 8;

#[derive(serde::Deserialize)]
struct Corpus {
    mutation: Vec<Mutation>,
}

#[derive(serde::Deserialize)]
struct Mutation {
    rulebook: String,
    /// `drop_overrides`, `set_value` or `duplicate`.
    op: String,
    rule: String,
    /// The new value (`set_value`), or the copy's value (`duplicate`).
    value: Option<String>,
    /// The lint `check` must report, naming both rules of `pair`.
    expect: String,
    pair: [String; 2],
    why: String,
}

/// The rulebook's sources with the mutation applied to the text of its rule.
fn mutate(m: &Mutation) -> SourceMap {
    let sources = sources_of(&m.rulebook);
    let c = check_read(sources.clone(), Vec::new());
    let p = &c.program;
    let r = p.rules.iter().find(|r| r.label == m.rule).unwrap_or_else(|| panic!("no rule `{}`", m.rule));
    let file = r.span.file;
    let text = sources.get(file).expect("file").text.to_string();
    let (start, end) = (r.span.start as usize, r.span.end as usize);
    let rule_text = &text[start..end];
    let (vs, ve) = (r.value.span.start as usize - start, r.value.span.end as usize - start);
    let new_rule = match m.op.as_str() {
        "drop_overrides" => {
            let at = rule_text.rfind("overrides").expect("the rule overrides");
            rule_text[..at].trim_end().to_string()
        }
        "set_value" => format!("{}{}{}", &rule_text[..vs], m.value.as_deref().expect("value"), &rule_text[ve..]),
        "duplicate" => {
            let copy = format!("{}{}{}", &rule_text[..vs], m.value.as_deref().expect("value"), &rule_text[ve..]);
            // The label as written in its file: short in its own section.
            let short = m.rule.rsplit_once('.').map_or(m.rule.as_str(), |(_, s)| s);
            let copy = copy.replacen(&format!("rule {short}:"), &format!("rule {short}_copy:"), 1);
            let copy = match copy.rfind("overrides") {
                Some(at) => copy[..at].trim_end().to_string(),
                None => copy,
            };
            format!("{rule_text}\n  {copy}")
        }
        other => panic!("unknown mutation `{other}`"),
    };
    let mut out = SourceMap::new();
    for (id, f) in sources.files() {
        let t = if id == file { format!("{}{new_rule}{}", &text[..start], &text[end..]) } else { f.text.to_string() };
        out.add(f.name.clone(), t);
    }
    out
}

#[test]
fn every_seeded_mutation_is_flagged_and_its_conflicts_were_reported() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mutations");
    let (mut count, mut met, mut met_generated) = (0, 0, 0);
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/mutations").flatten() {
        let text = std::fs::read_to_string(entry.path()).expect("readable");
        let corpus: Corpus = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        for m in &corpus.mutation {
            let c = check_read(mutate(m), Vec::new());
            let label = format!("{} `{}` {}", m.op, m.rule, m.value.as_deref().unwrap_or(""));
            assert!(!c.has_errors(), "{label}: the mutated rulebook does not check: {:?}", c.diagnostics);
            let diags = lints(&c, &m.rulebook);
            let code = format!("lint::{}", m.expect);
            let named = diags.iter().any(|d| {
                let q = quoted(&d.message);
                d.code == code && q.contains(&m.pair[0].as_str()) && q.contains(&m.pair[1].as_str())
            });
            let found: Vec<String> = diags
                .iter()
                .filter(|d| d.code.contains("conflict"))
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            if !named {
                failures.push(format!(
                    "{label} ({}): expected {code} naming `{}` and `{}`, got {found:#?}",
                    m.why, m.pair[0], m.pair[1]
                ));
            }
            let reported = reported_pairs(&diags);
            met += check_cases(&c, &m.rulebook, &reported).1;
            let k = constants(&c.program, &[]);
            for seed in 1..=GENERATED_PER_MUTATION {
                for (pair, ruling) in conflicts_met(&c.program, &generated(&c.program, &k, seed * 7919, 8), None) {
                    assert!(
                        reported.contains(&pair),
                        "{label}: `{ruling}` meets an unreported conflict {pair:?} on generated facts"
                    );
                    met_generated += 1;
                }
            }
            count += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} mutations not flagged as stated:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 30, "only {count} mutations");
    // The case files meet some of the seeded conflicts at run time, and `check` had them all.
    assert!(met > 0, "no seeded conflict was met by a case file");
    eprintln!(
        "{count} mutations flagged; {met} conflicts met in case files and {met_generated} on generated facts, each reported"
    );
}
