//! The broken-rulebook corpus: each file (or folder of files) in `tests/diagnostics/` is a
//! rulebook with a mistake, and its rendered diagnostics (file:line:col, the underlined span, the help
//! line) are kept as a snapshot, reviewed by hand.

use conditions::check::{check_read, check_sources};
use conditions::diagnostic::render;
use conditions::loader::{RulebookDir, read_rulebook};
use std::path::PathBuf;

fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/diagnostics")
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cond") || p.is_dir())
        .collect();
    files.sort();
    files
}

/// A `.cond` file is a rulebook of one file; a folder, a rulebook of its `.cond` files
/// (for mistakes that take several files, such as names across sections).
fn diagnose(path: &PathBuf) -> (String, usize) {
    let files = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .expect("a corpus folder is readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cond"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.clone()]
    };
    let dir = RulebookDir { root: path.clone(), files };
    let (sources, problems) = read_rulebook(&dir);
    let checked = check_read(sources, problems);
    let diags = checked.diagnostics.clone();
    let errors = diags.iter().filter(|d| d.is_error()).count();
    (render(&diags, &checked.sources, true), errors)
}

#[test]
fn every_broken_file_is_reported() {
    let files = corpus();
    assert!(files.len() >= 40, "the corpus has {} files", files.len());
    for path in files {
        let (rendered, errors) = diagnose(&path);
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        assert!(errors > 0, "{name}: no error reported");
        assert!(rendered.contains("help:"), "{name}: no help line in\n{rendered}");
        insta::assert_snapshot!(name, rendered);
    }
}

#[test]
fn diagnostics_as_json_name_the_place() {
    let (sources, _) = read_rulebook(&RulebookDir {
        root: "tests/diagnostics/unknown_field.cond".into(),
        files: vec!["tests/diagnostics/unknown_field.cond".into()],
    });
    let checked = check_sources(sources);
    let json = conditions::diagnostic::to_json(&checked.diagnostics[0], &checked.sources);
    assert_eq!(json["code"], "conditions::unknown_field");
    assert_eq!(json["labels"][0]["line"], 11);
    assert_eq!(json["labels"][0]["file"], "tests/diagnostics/unknown_field.cond");
}
