//! The lint corpus: for every lint, a rulebook that trips it (`NAME.fail`) and one that
//! does not (`NAME.pass`), in `tests/lints/`; the failing findings are kept as snapshots.

use conditions::check::check_read;
use conditions::diagnostic::render;
use conditions::loader::{find_rulebooks, read_rulebook};
use std::path::PathBuf;

fn lint(path: &std::path::Path) -> (Vec<conditions::diagnostic::Diagnostic>, String) {
    let book = find_rulebooks(path).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    assert!(!checked.has_errors(), "{} does not check: {:?}", path.display(), checked.diagnostics);
    let diags = conditions::lint::for_rulebook(&book.root, &checked, None);
    let rendered = render(&diags, &checked.sources, true);
    (diags, rendered)
}

#[test]
fn every_lint_has_a_failing_and_a_passing_example() {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir("tests/lints").expect("tests/lints").filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let mut names = std::collections::BTreeSet::new();
    for path in &entries {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let Some((name, rest)) = file.split_once('.') else { continue };
        let failing = rest.starts_with("fail");
        names.insert(name.to_string());
        let code = format!("lint::{name}");
        let (diags, rendered) = lint(path);
        let found = diags.iter().any(|d| d.code == code);
        if failing {
            assert!(found, "{file}: expected {code}, got:\n{rendered}");
            let mine: Vec<_> = diags.into_iter().filter(|d| d.code == code).collect();
            let book = find_rulebooks(path).expect("book").remove(0);
            let (sources, _) = read_rulebook(&book);
            insta::assert_snapshot!(format!("lint_{name}"), render(&mine, &sources, true));
        } else {
            assert!(!found, "{file}: {code} should not be reported, got:\n{rendered}");
        }
    }
    assert!(entries.len() >= 30, "the corpus has {} cases", entries.len());
    // Every lint that can be tripped by a rulebook has its pair (table_not_analysed aside).
    for (code, _, _) in conditions::lint::LINTS {
        let name = code.trim_start_matches("lint::");
        if name != "table_not_analysed" {
            assert!(names.contains(name), "no corpus case for {code}");
        }
    }
}
