//! Runs every case file of every bundled rulebook (`conditions/*/cases/*.toml`).

use conditions::cases::{Summary, find_cases, run_case};
use conditions::loader::{find_rulebooks, load};
use std::path::Path;

#[test]
fn every_case_file_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions");
    let mut summary = Summary::default();
    let mut ran = 0;
    for book in find_rulebooks(&root).expect("conditions/ holds rulebooks") {
        let checked = match load(&book.root.display().to_string()) {
            Ok(c) => c,
            Err(e) => panic!("{} does not check: {:?}", book.root.display(), e.diagnostics),
        };
        for case in find_cases(&book.root.join("cases")) {
            run_case(&checked, &case, &mut summary);
            ran += 1;
        }
    }
    let report: Vec<String> = summary
        .failed
        .iter()
        .map(|f| format!("{} {}: {}", f.case.display(), f.ruling.clone().unwrap_or_default(), f.message))
        .collect();
    assert!(ran > 0, "no case files found");
    assert!(summary.failed.is_empty(), "{} case expectations failed:\n{}", report.len(), report.join("\n"));
    eprintln!("{} case expectations passed in {ran} case files", summary.passed);
}

#[test]
fn bundled_rulebooks_check_clean() {
    for name in conditions::loader::bundled_names() {
        if let Err(e) = load(name) {
            panic!("bundled `{name}` has errors: {:?}", e.diagnostics);
        }
    }
}

/// The test rulebooks under `tests/rulebooks/` (written to try constructs on documents the
/// bundled rulebooks do not hold) check clean and pass their case files.
#[test]
fn test_rulebooks_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulebooks");
    let mut summary = Summary::default();
    let mut ran = 0;
    for book in find_rulebooks(&root).expect("tests/rulebooks holds rulebooks") {
        let checked = match load(&book.root.display().to_string()) {
            Ok(c) => c,
            Err(e) => panic!("{} does not check: {:?}", book.root.display(), e.diagnostics),
        };
        let lints = conditions::lint::for_rulebook(&book.root, &checked, None);
        let warnings: Vec<String> = checked.diagnostics.iter().chain(&lints).map(|d| format!("{d:?}")).collect();
        assert!(warnings.is_empty(), "{} has warnings: {}", book.root.display(), warnings.join("\n"));
        for case in find_cases(&book.root.join("cases")) {
            run_case(&checked, &case, &mut summary);
            ran += 1;
        }
    }
    let report: Vec<String> = summary
        .failed
        .iter()
        .map(|f| format!("{} {}: {}", f.case.display(), f.ruling.clone().unwrap_or_default(), f.message))
        .collect();
    assert!(ran >= 4, "the test rulebooks' case files were not found");
    assert!(summary.failed.is_empty(), "{} case expectations failed:\n{}", report.len(), report.join("\n"));
}
