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
