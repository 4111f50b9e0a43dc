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
            // `NAME.fail_WHAT` is a further failing example of the same lint, with its own snapshot.
            let variant = rest.trim_end_matches(".cond").trim_start_matches("fail").trim_start_matches('_');
            let snapshot = if variant.is_empty() { format!("lint_{name}") } else { format!("lint_{name}_{variant}") };
            insta::assert_snapshot!(snapshot, render(&mine, &sources, true));
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

/// Copies the rulebook folder `from` (its files and `cases/`) into `to`.
fn copy_rulebook(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("the rulebook").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_rulebook(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("a copy");
        }
    }
}

/// The bundled GNT with `from` replaced by `to` in `file`, checked and linted: the findings
/// of `code`, and whether `--deny warnings` fails it.
fn gnt_edited(file: &str, from: &str, to: &str, code: &str) -> (Vec<String>, bool) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("conditions-lints-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_rulebook(std::path::Path::new("conditions/gnt"), &dir);
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).expect("the file");
    assert!(text.contains(from), "{file} no longer holds `{from}`");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("the edit");
    let book = find_rulebooks(&dir).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
    let diags = conditions::lint::for_rulebook(&book.root, &checked, None);
    let found = diags.iter().filter(|d| d.code == code).map(|d| d.message.clone()).collect();
    let denied = conditions::lint::Config { deny_warnings: true, ..Default::default() }.apply(diags);
    let _ = std::fs::remove_dir_all(&dir);
    (found, denied.iter().any(|d| d.is_error()))
}

#[test]
fn a_threshold_changed_in_the_rule_only_is_found_in_the_bundled_gnt() {
    let (clean, fails) = gnt_edited("stage1.cond", "cutoff_masterpoints < 2000", "cutoff_masterpoints < 2000", "x");
    assert!(clean.is_empty() && !fails, "the bundled GNT is clean under --deny warnings");
    for limit in ["2500", "1500", "2001.5"] {
        let (found, fails) = gnt_edited(
            "stage1.cond",
            "cutoff_masterpoints < 2000",
            &format!("cutoff_masterpoints < {limit}"),
            "lint::number_not_in_text",
        );
        assert_eq!(found.len(), 1, "{limit}: {found:?}");
        assert!(found[0].contains(limit) && found[0].contains("flight_b_limit"), "{found:?}");
        assert!(fails, "{limit}: --deny warnings must fail");
    }
}

#[test]
fn a_threshold_changed_in_the_text_only_is_found_in_the_bundled_gnt() {
    let (found, fails) = gnt_edited(
        "stage1.cond",
        "players with fewer than 2,000",
        "players with fewer than 2,500",
        "lint::number_not_in_rules",
    );
    assert!(found.iter().any(|m| m.contains("2,500")), "{found:?}");
    assert!(fails);
}

fn printed(text: &str, lang: &str) -> conditions::lint::printed::Printed {
    let mut p = conditions::lint::printed::Printed::default();
    p.read(text, lang);
    p
}

proptest::proptest! {
    /// Any whole number printed with either thousands separator, or as a percentage, reads back.
    #[test]
    fn printed_numbers_read_back(n in 0u64..10_000_000_000, pct in 1u32..=100) {
        use conditions::eval::num::Num;
        let digits = n.to_string();
        let mut groups: Vec<String> = Vec::new();
        for (i, c) in digits.chars().rev().enumerate() {
            if i % 3 == 0 {
                groups.insert(0, String::new());
            }
            groups[0].insert(0, c);
        }
        let want = Num::int(n as i128);
        for (sep, lang) in [(",", "en"), (".", "da"), ("\u{a0}", "sv")] {
            let text = format!("fewer than {} points", groups.join(sep));
            proptest::prop_assert!(printed(&text, lang).values.contains(&want), "{text}");
        }
        let half = printed(&format!("at least {pct}% of the boards"), "en");
        proptest::prop_assert!(half.values.contains(&Num::ratio(pct as i128, 100).unwrap()));
    }
}

/// A clause whose number changed while the published document's line did not: both the
/// stray clause and the missing line name the same first difference, the number (word 11),
/// not the line's first word read as a label.
#[test]
fn a_changed_number_is_the_first_difference_of_both_findings() {
    let (diags, rendered) = lint(std::path::Path::new("tests/fixtures/source_changed_number"));
    let help = |code: &str| {
        diags
            .iter()
            .find(|d| d.code == code)
            .and_then(|d| d.help.clone())
            .unwrap_or_else(|| panic!("{code}: {rendered}"))
    };
    let want = "word 11: `2,000` where the clause has `2,500`";
    assert!(help("lint::source_stray").contains(want), "{rendered}");
    assert!(help("lint::source_missing").contains(want), "{rendered}");
}

/// The English glosses of the bundled DBF rulebook use the glossary's terms: no `UP`
/// (udebanepoint, away points) read as `VP`, in a clause's gloss or a `gloss of`.
#[test]
fn the_bundled_dbf_glosses_use_the_glossarys_terms() {
    let book = find_rulebooks(std::path::Path::new("conditions/dbf")).expect("a rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
    let diags = conditions::lint::for_rulebook(&book.root, &checked, None);
    let wrong: Vec<&str> =
        diags.iter().filter(|d| d.code == conditions::lint::terms::GLOSS_TERM).map(|d| d.message.as_str()).collect();
    assert!(wrong.is_empty(), "{} wrong terms in the English glosses:\n{}", wrong.len(), wrong.join("\n"));
}
