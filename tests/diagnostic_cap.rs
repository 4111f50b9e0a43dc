//! Many problems in one file: what is reported of a file stops at
//! `diagnostic::MAX_PER_FILE` with one note counting the rest (in `check`'s every format; the
//! language server's side is in tests/lsp.rs), and finding them costs time in proportion to
//! their number (a "did you mean" reads every name, so it is looked for only while the file's
//! problems are still shown).

use conditions::check::check_sources;
use conditions::diagnostic::{Diagnostic, MAX_PER_FILE, MORE_CODE, cap_per_file};
use conditions::source::SourceMap;
use conditions::syntax::ast::Span;
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// A rulebook of `n` rulings, each reading a name nobody declares.
fn unknown_names(n: usize) -> String {
    let mut text = String::from("rulebook \"g\" { title \"g\" language \"en\" }\n");
    for i in 0..n {
        text.push_str(&format!("ruling rule_{i}: int = missing_{i} + 1\n"));
    }
    text
}

fn check(n: usize) -> (Vec<Diagnostic>, Duration) {
    let mut map = SourceMap::new();
    map.add("g.cond", unknown_names(n));
    let start = Instant::now();
    let checked = check_sources(map);
    (checked.diagnostics, start.elapsed())
}

#[test]
fn many_unknown_names_are_all_found_and_capped_per_file() {
    // The smaller size twice, the faster run kept: a loaded machine only slows a run down.
    let (small, t1) = check(2_000);
    let (_, t2) = check(2_000);
    let (big, t_big) = check(8_000);
    assert_eq!(small.iter().filter(|d| d.code == "conditions::unknown_name").count(), 2_000);
    assert_eq!(big.iter().filter(|d| d.code == "conditions::unknown_name").count(), 8_000);
    let ratio = t_big.as_secs_f64() / t1.min(t2).as_secs_f64().max(1e-6);
    eprintln!("2,000 unknown names: {t1:?} and {t2:?}; 8,000: {t_big:?} (×{ratio:.1})");
    // Four times the names: near 4 when linear, near 16 when every name is compared with every
    // other. Printed, not asserted: a test asserts no timing; `benches/growth.rs` measures it.

    let shown = cap_per_file(big, MAX_PER_FILE);
    assert_eq!(shown.len(), MAX_PER_FILE + 1);
    let note = shown.last().unwrap();
    assert_eq!(note.code, MORE_CODE);
    assert!(note.is_error());
    assert!(note.message.contains("7800 more"), "{}", note.message);
    // The ones shown keep their help.
    assert!(shown[0].help.as_deref().is_some_and(|h| h.contains("declare it")), "{:?}", shown[0].help);
}

#[test]
fn a_near_name_is_still_suggested_among_many_problems() {
    let mut text = unknown_names(300);
    text.push_str("fact masterpoints: int\nruling late: bool = masterpoint > 5\n");
    let mut map = SourceMap::new();
    map.add("a.cond", text);
    // Another file's problem, after the first file has more than are shown.
    map.add("b.cond", "ruling other: bool = masterpoint > 6\n");
    let checked = check_sources(map);
    let in_b: Vec<_> = checked.diagnostics.iter().filter(|d| d.primary_span().is_some_and(|s| s.file == 1)).collect();
    assert_eq!(in_b.len(), 1);
    assert_eq!(in_b[0].help.as_deref(), Some("did you mean `masterpoints`?"));
}

#[test]
fn check_reports_at_most_the_bound_per_file_in_every_format() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("diagnostic_cap");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("g.cond"), unknown_names(1_000)).unwrap();
    let run = |format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_conditions"))
            .args(["check", "--format", format])
            .arg(&dir)
            .output()
            .expect("conditions runs");
        assert_eq!(out.status.code(), Some(1), "{format}: errors give exit code 1");
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (json, _) = run("json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), MAX_PER_FILE + 1);
    assert_eq!(diags.last().unwrap()["code"], MORE_CODE);
    assert_eq!(v["errors"], 1_000, "the totals count every problem");
    let (_, human) = run("human");
    assert_eq!(human.matches("conditions::unknown_name").count(), MAX_PER_FILE);
    assert!(human.contains("800 more in this file not shown (800 error(s), 0 warning(s))"), "{human}");
    assert!(human.contains("1000 error(s), 0 warning(s)"));
    let (github, _) = run("github");
    assert_eq!(github.lines().count(), MAX_PER_FILE + 1);
}

fn diag(file: Option<u32>, error: bool) -> Diagnostic {
    let d = if error { Diagnostic::error("t::x", "x") } else { Diagnostic::warning("t::x", "x") };
    match file {
        Some(f) => d.at(Span::new(f, 0, 0), "here"),
        None => d.in_path("elsewhere"),
    }
}

proptest! {
    /// Whatever the mix of files: at most the bound of each file, in their order, and one note
    /// per file with more that counts exactly the rest.
    #[test]
    fn the_cap_keeps_the_first_of_each_file_and_counts_the_rest(
        items in proptest::collection::vec((proptest::option::of(0u32..4), any::<bool>()), 0..60),
        max in 0usize..6,
    ) {
        let input: Vec<Diagnostic> = items.iter().map(|&(f, e)| diag(f, e)).collect();
        let out = cap_per_file(input.clone(), max);
        let key = |d: &Diagnostic| (d.primary_span().map(|s| s.file), d.path.clone());
        let (shown, notes): (Vec<_>, Vec<_>) = out.iter().partition(|d| d.code != MORE_CODE);
        // The shown are the input with the rest of each file taken out, in order.
        let mut seen = std::collections::HashMap::new();
        let expected: Vec<&Diagnostic> = input
            .iter()
            .filter(|d| {
                let n = seen.entry(key(d)).or_insert(0usize);
                *n += 1;
                *n <= max
            })
            .collect();
        prop_assert_eq!(shown, expected);
        for (k, total) in &seen {
            let note = notes.iter().find(|n| &key(n) == k);
            if *total > max {
                let note = note.expect("a note for a file with more");
                let rest: Vec<&Diagnostic> = input.iter().filter(|d| &key(d) == k).skip(max).collect();
                prop_assert!(note.message.starts_with(&format!("{} more", total - max)), "{}", note.message);
                prop_assert_eq!(note.is_error(), rest.iter().any(|d| d.is_error()));
            } else {
                prop_assert!(note.is_none());
            }
        }
        prop_assert_eq!(notes.len(), seen.values().filter(|&&t| t > max).count());
    }
}
