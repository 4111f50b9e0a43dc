//! `conditions diff` across renames: a corpus of old/new rulebook pairs under
//! `tests/diff/renames/`, each with the case files (in the new version's names) it is
//! compared over, the extra arguments it is run with (`args`, optional) and the report
//! expected (`expected.toml`, worked out by hand from the two versions; each says why).
//!
//! `expected.toml` lists the renames taken (`what old → new (how)`), the ambiguous pairings
//! not taken, the rulings that change (`source ruling: before → after`), the case files not
//! compared, and the expectations broken.

#[path = "support/scratch.rs"]
mod scratch;

use scratch::{copy_dir, edit};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff/renames")
}

fn run(args: &[String]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn diff_args(dir: &Path, extra: &[&str], format: &str) -> Vec<String> {
    let mut args: Vec<String> = ["diff", "old", "new"]
        .iter()
        .map(|s| match *s {
            "old" | "new" => dir.join(s).display().to_string(),
            s => s.to_string(),
        })
        .collect();
    args.extend(["--cases".to_string(), dir.join("cases").display().to_string()]);
    args.extend(["--format".to_string(), format.to_string()]);
    if let Ok(text) = std::fs::read_to_string(dir.join("args")) {
        args.extend(text.split_whitespace().map(str::to_string));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn json_report(dir: &Path, extra: &[&str]) -> Value {
    let (code, out, err) = run(&diff_args(dir, extra, "json"));
    assert_eq!(code, Some(0), "{}: {err}", dir.display());
    serde_json::from_str(&out).expect("json")
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn side(v: &Value) -> String {
    if s(&v["status"]) == "decided" {
        s(&v["answer"]).to_string()
    } else {
        format!("{}: {}", s(&v["status"]), s(&v["answer"]))
    }
}

fn named(record: &Value, name: &Value) -> String {
    match record.as_str() {
        Some(r) => format!("{r}.{}", s(name)),
        None => s(name).to_string(),
    }
}

/// The report in the words of `expected.toml`.
fn summary(r: &Value) -> toml::Table {
    let strings = |xs: Vec<String>| toml::Value::Array(xs.into_iter().map(toml::Value::String).collect());
    let mut t = toml::Table::new();
    let renames = list(&r["renames"])
        .iter()
        .map(|x| {
            format!(
                "{} {} → {} ({})",
                s(&x["what"]),
                named(&x["record"], &x["old"]),
                named(&x["record"], &x["new"]),
                s(&x["how"])
            )
        })
        .collect();
    t.insert("renames".into(), strings(renames));
    let ambiguous: Vec<String> = list(&r["ambiguous_renames"])
        .iter()
        .map(|a| {
            let names = |k: &str| list(&a[k]).iter().map(|n| named(&a["record"], n)).collect::<Vec<_>>().join(", ");
            format!("{} {} → {}", s(&a["what"]), names("old"), names("new"))
        })
        .collect();
    if !ambiguous.is_empty() {
        t.insert("ambiguous".into(), strings(ambiguous));
    }
    let changes = list(&r["rulings"])
        .iter()
        .map(|c| format!("{} {}: {} → {}", s(&c["source"]), s(&c["ruling"]), side(&c["old"]), side(&c["new"])))
        .collect();
    t.insert("changes".into(), strings(changes));
    t.insert(
        "not_compared".into(),
        strings(list(&r["not_compared"]).iter().map(|n| s(&n["source"]).to_string()).collect()),
    );
    t.insert(
        "broken".into(),
        strings(list(&r["broken"]).iter().map(|b| format!("{} {}", s(&b["case"]), s(&b["ruling"]))).collect()),
    );
    t
}

#[test]
fn every_pair_of_the_corpus_gives_the_report_worked_out_by_hand() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus()).expect("corpus").flatten().map(|e| e.path()).collect();
    dirs.sort();
    assert!(dirs.len() >= 6, "the corpus has its pairs");
    let mut failures = Vec::new();
    for dir in dirs {
        let expected: toml::Table =
            toml::from_str(&std::fs::read_to_string(dir.join("expected.toml")).expect("expected.toml")).expect("toml");
        let got = summary(&json_report(&dir, &[]));
        if got != expected {
            failures.push(format!("{}:\nexpected {expected:#?}\ngot {got:#?}", dir.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn without_the_rename_the_cases_are_not_compared_and_no_change_is_counted() {
    // `command` without its `--rename`: `club_member` is unknown to the old version, and the
    // heuristic does not pair it (the description differs), so both case files are counted
    // apart with the reason, none as a change of answer.
    let dir = corpus().join("command");
    let mut args = diff_args(&dir, &[], "json");
    let at = args.iter().position(|a| a == "--rename").expect("args has --rename");
    args.drain(at..at + 2);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    let r: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(list(&r["rulings"]).len(), 0, "{out}");
    assert_eq!(list(&r["renames"]).len(), 0, "{out}");
    let not: Vec<&str> = list(&r["not_compared"]).iter().map(|n| s(&n["source"])).collect();
    assert_eq!(not, ["member-with-12.toml", "not-member.toml"]);
    for n in list(&r["not_compared"]) {
        let reason = s(&n["reason"]);
        assert!(reason.contains("do not fit the old version, and no rename translates them"), "{reason}");
        assert!(reason.contains("`club_member`"), "{reason}");
    }
    args.retain(|a| a != "json");
    let at = args.iter().position(|a| a == "--format").expect("format");
    args.remove(at);
    let (_, text, _) = run(&args);
    assert!(text.contains("2 case files or facts lines not compared (facts that fit only one version)"), "{text}");
    assert!(text.contains("0 rulings change"), "{text}");
}

#[test]
fn the_text_report_says_each_rename_and_the_one_real_change() {
    let dir = corpus().join("threshold");
    let (code, out, err) = run(&diff_args(&dir, &["--fail-on-change"], "text"));
    assert_eq!(code, Some(1), "{err}");
    let shown = out.replace(&corpus().display().to_string(), "tests/diff/renames");
    insta::assert_snapshot!("renamed_and_threshold_text", shown);
}

#[test]
fn markdown_and_github_formats_carry_the_renames() {
    let dir = corpus().join("heuristic");
    let (_, md, _) = run(&diff_args(&dir, &[], "markdown"));
    assert!(md.contains("### Renames"), "{md}");
    assert!(
        md.contains("fact `member` → `is_member` (probably renamed: same clause, same type, similar description)"),
        "{md}"
    );
    let (_, gh, _) = run(&diff_args(&dir, &[], "github"));
    assert!(gh.contains("::notice title=rename::fact `member` → `is_member`"), "{gh}");
    let dir = corpus().join("ambiguous");
    let (_, gh, _) = run(&diff_args(&dir, &[], "github"));
    assert!(gh.contains("::warning file=tests/diff/renames/ambiguous/cases/junior.toml,title=not compared::"), "{gh}");
    assert!(gh.contains("not renamed: fact `junior`, `senior` → `is_junior`, `is_senior`"), "{gh}");
}

#[test]
fn rename_on_the_command_line_settles_an_ambiguous_pairing() {
    let dir = corpus().join("ambiguous");
    let r = json_report(&dir, &["--rename", "junior=is_junior", "--rename", "senior=is_senior"]);
    let t = summary(&r);
    assert_eq!(
        t["renames"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>()),
        Some(vec!["fact junior → is_junior (command line)", "fact senior → is_senior (command line)"])
    );
    assert!(list(&r["ambiguous_renames"]).is_empty());
    assert!(list(&r["not_compared"]).is_empty());
    assert!(list(&r["rulings"]).is_empty());
    // One of the two given: the other pair is then the only one left, found by the heuristic.
    let r = json_report(&dir, &["--rename", "junior=is_junior"]);
    let t = summary(&r);
    assert_eq!(
        t["renames"].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>()),
        Some(vec!["fact junior → is_junior (command line)", "fact senior → is_senior (probably)"])
    );
}

#[test]
fn a_rename_that_names_no_rename_is_refused_with_the_reason() {
    let dir = corpus().join("command");
    let cases: [(&[&str], &str); 7] = [
        (&["--rename", "nothing=club_member"], "`nothing` is not a fact, decision, definition, ruling or field"),
        (&["--rename", "member=nothing"], "`nothing` is not a fact of the new version"),
        (&["--rename", "points=club_member"], "`points` is still a name of the new version"),
        (&["--rename", "member=may_enter"], "`member` is a fact and `may_enter` a ruling"),
        (&["--rename", "member"], "write the old name, `=`, and the new name"),
        (&["--rename", "=club_member"], "write the old name, `=`, and the new name"),
        (&["--rename", "member=club_member", "--rename", "member=club_member"], "renamed twice"),
    ];
    for (extra, message) in cases {
        let mut args = diff_args(&dir, &[], "text");
        let at = args.iter().position(|a| a == "--rename").expect("args has --rename");
        args.drain(at..at + 2);
        args.extend(extra.iter().map(|s| s.to_string()));
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(2), "{extra:?}: {out}{err}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}: nothing is reported: {out}");
    }
}

#[test]
fn a_note_that_names_nothing_of_the_old_version_is_said_and_not_used() {
    // The new version of `note` compared with itself: `member` and `may_enter` are not names
    // of the "old" version, so neither note is used, and nothing changes.
    let dir = corpus().join("note");
    let new = dir.join("new").display().to_string();
    let (code, out, err) = run(&["diff".into(), new.clone(), new, "--format".into(), "json".into()]);
    assert_eq!(code, Some(0), "{err}");
    let r: Value = serde_json::from_str(&out).expect("json");
    assert!(list(&r["renames"]).is_empty());
    let notes: Vec<&str> = list(&r["unused_rename_notes"]).iter().map(s).collect();
    assert_eq!(
        notes,
        [
            "the note `renamed from member` on the fact `present`: the old version has no such fact; the note is not used",
            "the note `renamed from may_enter` on the ruling `may_play`: the old version has no such ruling; the note is not used",
        ]
    );
}

#[test]
fn a_season_edit_of_gnt_with_a_rename_shows_only_the_threshold_changes() {
    // The season's edit of docs/committee.md: Flight B raised from 2,000 to 2,500 masterpoints
    // (rule, printed text and published document), and `substitutes_in_play` renamed
    // `substitutes_in_use` with the note, in the rulebook and in every case file. The changes
    // of answer are those of the Flight B edit alone (worked out by hand in tests/diff.rs: four
    // case files with a player of 2,000–2,499 masterpoints); the ten case files of substitutions
    // that write the renamed fact are compared, none changes.
    let root = std::env::temp_dir().join(format!("conditions-diff-season-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let gnt = Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions/gnt");
    let next = root.join("gnt");
    copy_dir(&gnt, &next);
    let b = "open to players with fewer than 2,";
    edit(&next.join("stage1.cond"), &format!("{b}000 masterpoints"), &format!("{b}500 masterpoints"));
    edit(&next.join("stage1.cond"), "cutoff_masterpoints < 2000", "cutoff_masterpoints < 2500");
    edit(&next.join("source.txt"), &format!("{b}000 masterpoints"), &format!("{b}500 masterpoints"));
    let mut renamed = 0;
    for f in std::fs::read_dir(&next).expect("folder").chain(std::fs::read_dir(next.join("cases")).expect("cases")) {
        let path = f.expect("entry").path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if text.contains("substitutes_in_play") {
            std::fs::write(&path, text.replace("substitutes_in_play", "substitutes_in_use")).expect("write");
            renamed += 1;
        }
    }
    assert!(renamed > 2, "the fact is written in the rulebook and in case files");
    edit(
        &next.join("players.cond"),
        "fact substitutes_in_use:",
        "fact substitutes_in_use renamed from substitutes_in_play:",
    );
    let args: Vec<String> = ["diff", &gnt.display().to_string(), &next.display().to_string(), "--format", "json"]
        .map(String::from)
        .to_vec();
    let (code, out, err) = run(&args);
    let _ = std::fs::remove_dir_all(&root);
    assert_eq!(code, Some(0), "{err}");
    let r: Value = serde_json::from_str(&out).expect("json");
    let t = summary(&r);
    let strings =
        |k: &str| t[k].as_array().map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>()).unwrap_or_default();
    assert_eq!(strings("renames"), ["fact substitutes_in_play → substitutes_in_use (renamed from)"]);
    assert!(strings("not_compared").is_empty(), "{out}");
    let mut changed: Vec<&str> = list(&r["rulings"]).iter().map(|c| s(&c["source"])).collect();
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
    assert_eq!(strings("broken").len(), 4);
}
