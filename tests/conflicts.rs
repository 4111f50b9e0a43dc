//! Conflicts as the evaluator meets them: `check` finds them before a ruling does.
//! Small rulebooks in `tests/conflicts/`, and an edit of the bundled GNT rulebook.

#[path = "support/scratch.rs"]
mod scratch;

use conditions::check::check_read;
use conditions::diagnostic::{Diagnostic, Severity};
use conditions::loader::{find_rulebooks, read_rulebook};
use scratch::{Scratch, copy_dir};
use std::path::Path;
use std::process::Command;

fn lint(path: &Path) -> Vec<Diagnostic> {
    let book = find_rulebooks(path).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    assert!(!checked.has_errors(), "{} does not check: {:?}", path.display(), checked.diagnostics);
    conditions::lint::for_rulebook(&book.root, &checked, None)
}

fn conflicts(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags.iter().filter(|d| d.code == "lint::conflict" || d.code == "lint::possible_conflict").collect()
}

#[test]
fn a_def_keyed_on_a_record_parameter_is_separated_by_its_other_patterns() {
    let diags = lint(Path::new("tests/conflicts/record_parameter.cond"));
    assert!(conflicts(&diags).is_empty(), "{:#?}", conflicts(&diags));
}

#[test]
fn conditions_are_read_through_definitions() {
    let diags = lint(Path::new("tests/conflicts/look_through.cond"));
    assert!(conflicts(&diags).is_empty(), "{:#?}", conflicts(&diags));
}

#[test]
fn implied_conditions_are_certain_conflicts() {
    let diags = lint(Path::new("tests/conflicts/certain.cond"));
    let found: Vec<(&str, Severity, &str)> =
        conflicts(&diags).iter().map(|d| (d.code, d.severity, d.message.as_str())).collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found.iter().all(|(c, s, _)| *c == "lint::conflict" && *s == Severity::Error), "{found:#?}");
    assert!(found[0].2.contains("`closed_in_final`") && found[0].2.contains("`open_always`"), "{found:#?}");
    assert!(found[1].2.contains("`fee_final_low`") && found[1].2.contains("`fee_final`"), "{found:#?}");
}

fn scratch_copy(name: &str, tag: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("conditions-{tag}-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions").join(name), &dir);
    Scratch(dir)
}

#[test]
fn a_flat_rate_beside_the_unit_373_exception_is_an_error_naming_both_rules() {
    let book = scratch_copy("gnt", "flat-rate");
    let file = book.0.join("rules-of-play.cond");
    let text = std::fs::read_to_string(&file).expect("rules-of-play.cond");
    let anchor = "  rule no_reimbursement_for_unit373:";
    assert!(text.contains(anchor));
    let edited = text.replacen(
        anchor,
        &format!("  rule flat_rate: mileage_reimbursement = 150 USD when team_local_unit373\n{anchor}"),
        1,
    );
    std::fs::write(&file, edited).expect("write the edit");
    let out = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["check", "--format", "json"])
        .arg(&book.0)
        .output()
        .expect("conditions runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json output");
    let errors: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "lint::conflict")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert!(
        errors.iter().any(|m| m.contains("`flat_rate`") && m.contains("`no_reimbursement_for_unit373`")),
        "{stdout}"
    );
}

#[test]
fn tables_keyed_on_records_and_impossible_conditions_are_analysed() {
    let diags = lint(Path::new("tests/conflicts/shapes.cond"));
    let found: Vec<(&str, &str)> = diags.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert!(found.contains(&("lint::table_gap", "no row of table `fee_table` covers (any value, C)")), "{found:#?}");
    assert!(!found.iter().any(|(c, _)| *c == "lint::table_not_analysed"), "{found:#?}");
    assert!(found.contains(&("lint::dead_rule", "rule `open_mid` can never apply")), "{found:#?}");
    assert!(conflicts(&diags).is_empty(), "a dead rule conflicts with nothing: {found:#?}");
}

fn lint_folder(path: &Path) -> Vec<Diagnostic> {
    let book = find_rulebooks(path).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    assert!(!checked.has_errors(), "{} does not check: {:?}", path.display(), checked.diagnostics);
    conditions::lint::for_rulebook(&book.root, &checked, None)
}

#[test]
fn a_case_file_witnesses_a_conflict_of_a_definition_with_parameters() {
    let diags = lint_folder(Path::new("tests/conflicts/parameter_witness"));
    let found = conflicts(&diags);
    assert_eq!(found.len(), 1, "{found:#?}");
    let d = found[0];
    assert_eq!((d.code, d.severity), ("lint::conflict", Severity::Error), "{d:#?}");
    for part in
        ["`local_free`", "`crowded`", "`fee`", "(0 and 20)", "local-crowded.toml", "tables = 6", "(an argument)"]
    {
        assert!(d.message.contains(part), "{part} missing: {}", d.message);
    }
    // Both rules are shown, each with its value.
    let labels: Vec<String> = d.labels.iter().filter_map(|l| l.message.clone()).collect();
    assert!(labels.contains(&"gives 0".to_string()) && labels.contains(&"gives 20".to_string()), "{labels:?}");
}

#[test]
fn without_the_case_file_that_shows_it_the_conflict_stays_possible() {
    let dir = std::env::temp_dir().join(format!("conditions-no-witness-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(Path::new("tests/conflicts/parameter_witness"), &dir);
    let scratch = Scratch(dir);
    std::fs::remove_file(scratch.0.join("cases/local-crowded.toml")).expect("remove the witness");
    let diags = lint_folder(&scratch.0);
    let found: Vec<(&str, Severity)> = conflicts(&diags).iter().map(|d| (d.code, d.severity)).collect();
    assert_eq!(found, vec![("lint::possible_conflict", Severity::Warning)]);
}

/// Every pair the analysis finds facts for is an error naming those facts; the facts do make
/// both rules apply when ruled on.
#[test]
fn the_analysis_s_witness_makes_both_rules_apply() {
    let diags = lint(Path::new("tests/lints/conflict.fail_analysis.cond"));
    let found = conflicts(&diags);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Error);
    assert!(found[0].message.contains("facts the analysis found: x = yes, y = yes"), "{}", found[0].message);
}

#[test]
fn the_bundled_rulebooks_have_no_witnessed_or_possible_conflict() {
    for name in ["gnt", "dbf"] {
        let diags = lint_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions").join(name));
        assert!(conflicts(&diags).is_empty(), "{name}: {:#?}", conflicts(&diags));
    }
}

const OPS: [&str; 6] = ["<", "<=", ">", ">=", "==", "!="];

fn holds(v: i64, op: &str, c: i64) -> bool {
    match op {
        "<" => v < c,
        "<=" => v <= c,
        ">" => v > c,
        ">=" => v >= c,
        "==" => v == c,
        _ => v != c,
    }
}

/// The value after `name = ` in a witness, when the witness names it.
fn witnessed(message: &str, name: &str) -> Option<i64> {
    // Numbers are shown as the explanations show them, a negative one with a minus sign (−).
    let rest = message[message.find(&format!(" {name} = "))? + name.len() + 4..].replace('−', "-");
    rest.split(|c: char| c != '-' && !c.is_ascii_digit()).next()?.parse().ok()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Two rules on free facts, `a` when x compares with a constant, `b` when y does (and x
    /// another way, sometimes): `check` reports an error exactly when some facts make both
    /// apply, and the facts its witness names do make the evaluator stop on the conflict.
    #[test]
    fn an_error_exactly_when_facts_make_both_rules_apply(
        (o1, c1, o2, c2) in (0..6usize, 0..=10i64, 0..6usize, 0..=10i64),
        extra in proptest::option::of((0..6usize, 0..=10i64)),
    ) {
        let (op1, op2) = (OPS[o1], OPS[o2]);
        let more = extra.map(|(o, c)| format!(" and x {} {c}", OPS[o])).unwrap_or_default();
        let text = format!(
            "rulebook \"t\" {{\n  title \"P\"\n  language \"en\"\n}}\n\nclause \"T 1\" {{\n  text \"Text.\"\n  fact x: int \"x\"\n  fact y: int \"y\"\n  ruling open: bool \"o\"\n  rule a: open = true when x {op1} {c1}\n  rule b: open = false when y {op2} {c2}{more}\n}}\n"
        );
        let mut sources = conditions::source::SourceMap::new();
        sources.add("p.cond", text.as_str());
        let checked = check_read(sources, Vec::new());
        proptest::prop_assert!(!checked.has_errors(), "{text}: {:?}", checked.diagnostics);
        let diags = conditions::lint::run(&conditions::lint::Context { checked: &checked, document: None, tested: None });
        let found = conflicts(&diags);
        let both = |x: i64, y: i64| {
            holds(x, op1, c1) && holds(y, op2, c2) && extra.is_none_or(|(o, c)| holds(x, OPS[o], c))
        };
        let exists = (-2..=12).any(|x| (-2..=12).any(|y| both(x, y)));
        if !exists {
            proptest::prop_assert!(found.is_empty(), "{text}: {found:#?}");
            return Ok(());
        }
        proptest::prop_assert_eq!(found.len(), 1, "{}: {:#?}", text, found);
        proptest::prop_assert_eq!((found[0].code, found[0].severity), ("lint::conflict", Severity::Error), "{}", text);
        let m = &found[0].message;
        if m.contains("the analysis found") {
            let (x, y) = (witnessed(m, "x").unwrap_or(0), witnessed(m, "y").unwrap_or(0));
            let p = &checked.program;
            let inputs = conditions::facts::validate(p, &serde_json::json!({ "x": x, "y": y }), "witness").expect("facts");
            let def = p.def_by_name("open").expect("open");
            let outcome = conditions::eval::rule(p, &inputs, def, false).outcome;
            proptest::prop_assert!(
                matches!(&outcome, conditions::eval::Outcome::Error(e) if e.message.contains("disagree")),
                "{text}: witness x = {x}, y = {y} gives {outcome:?} ({m})"
            );
        }
    }
}
