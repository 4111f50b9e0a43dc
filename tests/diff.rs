//! `conditions diff`: the bundled GNT rulebook against a copy with Flight B raised from
//! 2,000 to 2,500 masterpoints (Stage 1 D ¶4, text and rule).
//!
//! Worked out by hand from the case files: the rulings that change are those asked of a
//! player with at least 2,000 and fewer than 2,500 masterpoints where Flight B matters —
//! `stage1-d-exactly-2000-masterpoints` (2,000: `flights` gains Flight B),
//! `flight-masterpoints-stage2-same-as-stage1` (2,000: `district_final_flights` gains Flight B)
//! and `substitution-not-eligible-for-flight` (a 2,300-point substitute for a Flight B team is
//! now eligible, so `substitute_permitted` becomes yes), and
//! `director-q2-represented-canada-2000-masterpoints` (2,000, having represented Canada:
//! `district_final_flights` goes from none to Flight B, which Further Eligibility does not
//! bar). No other case file has a player with 2,000–2,499 masterpoints; the one with 2,500
//! stays out of Flight B. All four case files state the old answers, so all four expectations
//! break.

#[path = "support/scratch.rs"]
mod scratch;

use conditions::diff::{Inputs, Version, diff, render};
use scratch::{Scratch, copy_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

fn gnt() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions/gnt")
}

/// A copy of the GNT rulebook with Flight B open below 2,500 masterpoints.
fn flight_b_raised(tag: &str) -> Scratch {
    let root = std::env::temp_dir().join(format!("conditions-diff-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("gnt");
    copy_dir(&gnt(), &dir);
    let file = dir.join("stage1.cond");
    let text = std::fs::read_to_string(&file).expect("stage1.cond");
    let edited = text
        .replacen(
            "open to players with fewer than 2,000 masterpoints",
            "open to players with fewer than 2,500 masterpoints",
            1,
        )
        .replacen("eligible(B) = cutoff_masterpoints < 2000", "eligible(B) = cutoff_masterpoints < 2500", 1);
    assert_ne!(text, edited);
    std::fs::write(&file, edited).expect("write");
    Scratch(root)
}

fn load(path: &Path, label: &str) -> Version {
    let checked = conditions::loader::load(&path.display().to_string()).expect("checks");
    Version { label: label.to_string(), checked }
}

#[test]
fn raising_flight_b_changes_exactly_the_case_files_worked_out_by_hand() {
    let copy = flight_b_raised("lib");
    let cases_dir = copy.0.join("gnt/cases");
    let cases = conditions::cases::find_cases(&cases_dir)
        .into_iter()
        .map(|c| (c.strip_prefix(&cases_dir).expect("inside").display().to_string(), c))
        .collect();
    let report = diff(
        &load(&gnt(), "conditions/gnt"),
        &load(&copy.0.join("gnt"), "gnt, Flight B raised to 2,500"),
        &Inputs { cases, facts: Vec::new() },
    );
    assert_eq!(report.cases_compared, gnt_case_count());
    let mut changed = report.changed_sources();
    changed.sort();
    assert_eq!(
        changed,
        [
            "director-q2-represented-canada-2000-masterpoints.toml",
            "flight-masterpoints-stage2-same-as-stage1.toml",
            "stage1-d-exactly-2000-masterpoints.toml",
            "substitution-not-eligible-for-flight.toml"
        ]
    );
    let mut broken: Vec<&str> = report.broken.iter().map(|b| b.case.as_str()).collect();
    broken.sort();
    assert_eq!(broken, changed);
    assert_eq!(report.clauses.len(), 1);
    assert_eq!(report.clauses[0].citation, "Stage 1 D ¶4");
    // the number of case files is counted, not written into the snapshot
    let rendered = render::markdown(&report).replace(&format!("of {} case files", gnt_case_count()), "of N case files");
    insta::assert_snapshot!("gnt_flight_b_2500_markdown", rendered);
}

/// The number of GNT case files, counted from the folder rather than written down, so that a
/// new case file does not break the diff tests.
fn gnt_case_count() -> usize {
    let count = conditions::cases::find_cases(&gnt().join("cases")).len();
    assert!(count > 0, "the bundled GNT rulebook has case files");
    count
}

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn fail_on_change_exits_1_and_json_names_the_changes() {
    let copy = flight_b_raised("cli");
    let new = copy.0.join("gnt").display().to_string();
    let (code, out) = run(&["diff", "conditions/gnt", &new, "--format", "json", "--fail-on-change"]);
    assert_eq!(code, Some(1), "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["rulings"].as_array().map(Vec::len), Some(4));
    assert_eq!(json["clauses"][0]["parts"][0]["runs"][1], serde_json::json!({"op": "removed", "words": "2,000"}));
    let (code, out) = run(&["diff", "conditions/gnt", &new, "--format", "github"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("::notice file=") && l.contains("title=clause Stage 1 D ¶4 changed")),
        "{out}"
    );
    assert_eq!(out.lines().filter(|l| l.starts_with("::error file=")).count(), 4, "{out}");
}

#[test]
fn an_unchanged_rulebook_has_no_changes() {
    let (code, out) = run(&["diff", "conditions/gnt", "conditions/gnt", "--fail-on-change"]);
    assert_eq!(code, Some(0), "{out}");
    let expected = format!(
        "0 clauses changed; 0 rulings change in 0 of {} case files; 0 case expectations broken",
        gnt_case_count()
    );
    assert!(out.contains(&expected), "{out}");
}

#[test]
fn a_git_revision_is_read_from_the_repository() {
    let inside = Command::new("git").args(["rev-parse", "HEAD"]).output().is_ok_and(|o| o.status.success());
    if !inside {
        return;
    }
    let (code, out) = run(&["diff", "HEAD:conditions/gnt", "HEAD:conditions/gnt", "--fail-on-change"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, _) = run(&["diff", "no-such-revision:conditions/gnt", "conditions/gnt"]);
    assert_eq!(code, Some(2));
}

/// A facts file of two players beside the copy: A changes (2,100 masterpoints: Flight B opens
/// at 2,500), B does not (2,600).
fn two_players(dir: &std::path::Path) -> std::path::PathBuf {
    let facts = dir.join("players.jsonl");
    let line = |name: &str, mp: u32| {
        format!("{{\"player\": {{\"name\": \"{name}\", \"masterpoints\": {mp}, \"life_master\": false}}}}\n")
    };
    std::fs::write(&facts, line("A", 2100) + &line("B", 2600)).expect("write");
    facts
}

#[test]
fn facts_lines_are_ruled_by_both() {
    let copy = flight_b_raised("facts");
    let facts = two_players(&copy.0);
    let new = copy.0.join("gnt").display().to_string();
    let (code, out) = run(&[
        "diff",
        "conditions/gnt",
        &new,
        "--cases",
        "tests/test_command/empty",
        "--facts",
        &facts.display().to_string(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains(
            "players.jsonl:1 — `flights`: Championship Flight, Flight A → Championship Flight, Flight A, Flight B"
        ),
        "{out}"
    );
    assert!(!out.contains("players.jsonl:2 —"), "{out}");
}

#[test]
fn a_version_that_does_not_check_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["diff", "conditions/gnt", "tests/diagnostics/duplicate_name.cond"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("`tests/diagnostics/duplicate_name.cond` cannot be read or does not check; nothing compared")
    );
    assert!(out.stdout.is_empty());
}

/// The summary line with case files only, facts lines only, and both: each count of changed
/// inputs is out of the inputs of its own kind.
#[test]
fn the_summary_counts_case_files_and_facts_lines_each_apart() {
    let copy = flight_b_raised("summary");
    let facts = two_players(&copy.0);
    let new = copy.0.join("gnt").display().to_string();
    let facts = facts.display().to_string();
    let n = gnt_case_count();
    let summary = |out: &str| out.lines().nth(1).unwrap_or_default().to_string();
    let (_, out) = run(&["diff", "conditions/gnt", &new]);
    assert!(summary(&out).contains(&format!("4 rulings change in 4 of {n} case files;")), "{out}");
    let (_, out) = run(&["diff", "conditions/gnt", &new, "--cases", "tests/test_command/empty", "--facts", &facts]);
    let line = summary(&out);
    assert!(line.contains(" in 1 of 2 facts lines;"), "{line}");
    assert!(!line.contains("case file"), "{line}");
    let (_, out) = run(&["diff", "conditions/gnt", &new, "--facts", &facts]);
    let line = summary(&out);
    assert!(line.contains(&format!(" in 4 of {n} case files and 1 of 2 facts lines;")), "{line}");
    let (_, out) = run(&["diff", "conditions/gnt", "conditions/gnt", "--cases", "tests/test_command/book/cases"]);
    assert!(summary(&out).contains("0 rulings change in 0 of 3 case files;"), "{out}");
}

/// Every annotation of `--format github` names its file by a path that exists from the
/// working folder (the repository's top folder in a workflow), case files included.
#[test]
fn github_annotations_name_files_by_their_path() {
    let copy = flight_b_raised("github-paths");
    let new = copy.0.join("gnt").display().to_string();
    for old in ["conditions/gnt", "HEAD:conditions/gnt"] {
        if old.starts_with("HEAD")
            && !Command::new("git").args(["rev-parse", "HEAD"]).output().is_ok_and(|o| o.status.success())
        {
            continue;
        }
        let (_, out) = run(&["diff", old, &new, "--format", "github"]);
        let files: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once(" file=").map(|(_, rest)| rest))
            .map(|rest| rest.split([',', ':']).next().unwrap_or_default())
            .collect();
        assert!(files.len() > 4, "{out}");
        for f in files {
            assert!(Path::new(f).is_file(), "`{f}` is no file from the working folder:\n{out}");
        }
    }
}

/// A field renamed in a record is said once, as a rename: the record and the rules that read
/// the field, changed by nothing else, are no changed declarations. A real change of the
/// record beside it shows as that field's line, before and after, not as the whole record on
/// one line.
#[test]
fn a_renamed_field_shows_only_its_line() {
    let copy = flight_b_raised("field-line");
    let book = copy.0.join("gnt").display().to_string();
    let (code, out) = run(&["rename", &book, "Player.masterpoints", "masterpoints_at_cutoff"]);
    assert_eq!(code, Some(0), "{out}");
    let (_, out) = run(&["diff", "conditions/gnt", &book]);
    assert!(
        out.contains(
            "field `Player.masterpoints` → `Player.masterpoints_at_cutoff` (noted `renamed from` in the new version)"
        ),
        "{out}"
    );
    assert!(!out.contains("type changed `Player`"), "a rename only is no change of the record: {out}");
    assert!(!out.contains("rule changed `cutoff_masterpoints`"), "a rename only is no change of a rule: {out}");
    // Flight B's limit is the one clause changed.
    assert!(out.contains("1 clause changed;"), "{out}");

    let declarations = copy.0.join("gnt/declarations.cond");
    let was = "life_master: bool \"a Life Master on September 1, 2007\",";
    let now = "life_master: bool \"a Life Master on the cut-off date, September 1, 2007\",";
    scratch::edit(&declarations, was, now);
    let (_, out) = run(&["diff", "conditions/gnt", &book]);
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.trim() == "type changed `Player`").unwrap_or_else(|| panic!("{out}"));
    assert_eq!(lines[at + 1..at + 3], [format!("    - {was}"), format!("    + {now}")], "{out}");
    assert!(!lines[at + 3].starts_with("    "), "only the changed line: {out}");
}
