//! Conflicts as the evaluator meets them: `check` finds them before a ruling does.
//! Small rulebooks in `tests/conflicts/`, and an edit of the bundled GNT rulebook.

use conditions::check::check_read;
use conditions::diagnostic::{Diagnostic, Severity};
use conditions::loader::{find_rulebooks, read_rulebook};
use std::path::{Path, PathBuf};
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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch folder");
    for e in std::fs::read_dir(from).expect("readable folder").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A scratch copy of a bundled rulebook, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
