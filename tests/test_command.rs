//! `conditions test` as a committee uses it: paths, filters, listing, JUnit XML and
//! clause coverage, on the small rulebook in `tests/test_command/book`.

use std::process::{Command, Output};

fn test(args: &[&str]) -> (Option<i32>, String, String) {
    let Output { status, stdout, stderr } =
        Command::new(env!("CARGO_BIN_EXE_conditions")).arg("test").args(args).output().expect("conditions runs");
    (status.code(), String::from_utf8_lossy(&stdout).into_owned(), String::from_utf8_lossy(&stderr).into_owned())
}

const BOOK: &str = "tests/test_command/book";

#[test]
fn a_rulebook_runs_all_its_cases_and_a_wrong_expectation_fails() {
    let (code, out, _) = test(&[BOOK]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAIL tests/test_command/book/cases/wrong.toml — open"), "{out}");
    assert!(out.ends_with("3 expectations in 3 case files: 2 passed, 1 failed\n"), "{out}");
}

#[test]
fn a_single_case_file_runs_on_its_rulebook() {
    let (code, out, _) = test(&["tests/test_command/book/cases/below.toml"]);
    assert_eq!((code, out.as_str()), (Some(0), "1 expectation in 1 case file: 1 passed, 0 failed\n"));
}

#[test]
fn a_folder_of_cases_runs_on_its_rulebook() {
    let (code, out, _) = test(&["tests/test_command/book/cases", "--filter", "limit"]);
    assert_eq!((code, out.as_str()), (Some(0), "1 expectation in 1 case file: 1 passed, 0 failed\n"));
}

#[test]
fn a_path_with_no_case_file_is_an_error() {
    for args in [
        &["tests/test_command/book/rulebook.cond"][..],
        &["tests/test_command/empty"],
        &["tests/test_command/missing"],
        &[BOOK, "--filter", "no such case"],
    ] {
        let (code, out, err) = test(args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(!out.contains("passed"), "{args:?}: {out}");
    }
}

#[test]
fn filter_matches_the_description_too() {
    let (code, out, _) = test(&[BOOK, "--filter", "deliberately", "-v"]);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("FAIL tests/test_command/book/cases/wrong.toml (0 passed, 1 failed)\n"), "{out}");
    assert!(out.ends_with("1 expectation in 1 case file: 0 passed, 1 failed\n"), "{out}");
}

#[test]
fn verbose_lists_every_case() {
    let (_, out, _) = test(&[BOOK, "-v"]);
    let listed: Vec<&str> = out.lines().filter(|l| l.starts_with("ok ") || l.starts_with("FAIL ")).collect();
    assert_eq!(
        listed,
        [
            "ok   tests/test_command/book/cases/at-limit.toml (1 passed, 0 failed)",
            "ok   tests/test_command/book/cases/below.toml (1 passed, 0 failed)",
            "FAIL tests/test_command/book/cases/wrong.toml (0 passed, 1 failed)",
            "FAIL tests/test_command/book/cases/wrong.toml — open",
        ]
    );
}

#[test]
fn junit_has_one_test_case_per_case_file() {
    let (code, out, _) = test(&[BOOK, "--format", "junit"]);
    assert_eq!(code, Some(1));
    assert!(
        out.starts_with(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"conditions\" tests=\"3\" failures=\"1\" errors=\"0\" time=\""
        ),
        "{out}"
    );
    assert_eq!(out.matches("<testcase ").count(), 3, "{out}");
    assert_eq!(out.matches("<failure message=\"open: expected yes, got no\">").count(), 1, "{out}");
    assert!(out.trim_end().ends_with("</testsuites>"), "{out}");
}

#[test]
fn coverage_names_what_no_case_exercises() {
    let (code, out, _) = test(&["tests/test_command/book/cases/below.toml", "--coverage"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("coverage of `book`: 1 of 2 executable clauses, 1 of 3 rules exercised (33%)"), "{out}");
    assert!(out.contains("  clauses no case exercises: T 2\n"), "{out}");
    assert!(out.contains("  rules no case exercises: closed_above, fee\n"), "{out}");
    let (code, _, err) = test(&["tests/test_command/book/cases/below.toml", "--min-coverage", "50"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("rule coverage of `book` is 33%, below --min-coverage 50"), "{err}");
}

/// A folder named like a bundled rulebook but holding no rulebook does not hide it: run
/// from a folder with a `gnt/` of notes, `check gnt` and `rule gnt` still use the bundled one,
/// while a `gnt/` that holds `.cond` files is read as the folder.
#[test]
fn a_folder_without_a_rulebook_does_not_hide_a_bundled_name() {
    let dir = std::env::temp_dir().join(format!("conditions-hide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("gnt")).expect("a folder");
    std::fs::write(dir.join("gnt/notes.txt"), "notes\n").expect("a file");
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).current_dir(&dir).output().expect("runs");
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
    };
    let (code, out) = run(&["check", "gnt"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("0 error(s)"), "{out}");
    let (_, out) = run(&["list", "gnt"]);
    assert!(!out.starts_with("T 1\n") && out.contains("flights"), "the bundled rulebook is read: {out}");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/test_command/book/rulebook.cond"),
        dir.join("gnt/r.cond"),
    )
    .expect("a rulebook file");
    let (_, out) = run(&["list", "gnt"]);
    assert!(out.starts_with("T 1\n"), "the folder is read: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The last line counts expectations and case files apart: over the bundled GNT case files,
/// the expectations are the `[[expect]]` tables of its case files, counted here.
#[test]
fn the_totals_count_expectations_and_case_files_apart() {
    let cases = conditions::cases::find_cases(std::path::Path::new("conditions/gnt/cases"));
    let expectations: usize = cases
        .iter()
        .map(|c| {
            let text = std::fs::read_to_string(c).expect("readable");
            let table: toml::Table = toml::from_str(&text).expect("a case file");
            table.get("expect").and_then(|e| e.as_array()).map_or(0, Vec::len)
        })
        .sum();
    assert!(expectations > cases.len(), "some case files state more than one expectation");
    let (code, out, _) = test(&["conditions/gnt"]);
    assert_eq!(code, Some(0), "{out}");
    let want = format!("{expectations} expectations in {} case files: {expectations} passed, 0 failed", cases.len());
    assert_eq!(out.lines().last(), Some(want.as_str()), "{out}");
}

/// Case files of a rulebook that does not check are not run: said apart, not counted as
/// failed expectations, and the command fails.
#[test]
fn case_files_of_a_rulebook_that_does_not_check_are_counted_as_not_run() {
    let dir = std::env::temp_dir().join(format!("conditions-test-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases")).expect("scratch folder");
    let book = std::fs::read_to_string(format!("{BOOK}/rulebook.cond")).expect("rulebook");
    std::fs::write(dir.join("rulebook.cond"), format!("{book}\nfact broken: no_such_type\n")).expect("write");
    for case in ["at-limit", "below", "wrong"] {
        std::fs::copy(format!("{BOOK}/cases/{case}.toml"), dir.join(format!("cases/{case}.toml"))).expect("copy");
    }
    let (code, out, _) = test(&[&dir.display().to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(
        out.lines().last(),
        Some("0 expectations in 3 case files: 0 passed, 0 failed; 3 case files not run (the rulebook does not check)"),
        "{out}"
    );
}
