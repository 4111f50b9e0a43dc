//! `conditions rename RULEBOOK OLD NEW` on copies of rulebooks: every fact, decision,
//! ruling, definition and record field of a small rulebook with sections renamed in turn,
//! and the season's edit of GNT (`Player.masterpoints`, `substitutes_in_play`). After each
//! rename the rulebook checks as before, its case files pass as before, the new name
//! carries its `renamed from` note, and no printed text, heading, gloss, description,
//! published document or case description has changed by a byte.

#[path = "support/scratch.rs"]
mod scratch;

use conditions::check::Checked;
use scratch::{Scratch, copy_dir};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), s(&out.stdout), s(&out.stderr))
}

fn copy_of(book: &str, tag: &str) -> (Scratch, String) {
    let root = std::env::temp_dir().join(format!("conditions-rename-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("book");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(book), &dir);
    let shown = dir.display().to_string();
    (Scratch(root), shown)
}

fn load(dir: &str) -> Checked {
    conditions::loader::load(dir).unwrap_or_else(|e| panic!("{dir}: {:?}", e.diagnostics))
}

/// Every text of a rulebook a reader sees, by where it is: clause headings, texts, glosses
/// and informational notes; descriptions of facts, decisions, definitions and fields; the
/// glosses; the published document; the case files' descriptions.
fn printed(dir: &str) -> BTreeMap<String, String> {
    let c = load(dir);
    let p = &c.program;
    let mut out = BTreeMap::new();
    for (i, cl) in p.clauses.iter().enumerate() {
        for (part, t) in
            [("heading", &cl.heading), ("text", &cl.text), ("gloss", &cl.gloss), ("info", &cl.informational)]
        {
            out.insert(format!("clause {i} {part}"), format!("{t:?}"));
        }
    }
    for (i, f) in p.facts.iter().enumerate() {
        out.insert(format!("fact {i}"), format!("{:?} {:?}", f.doc, f.says));
    }
    for (i, d) in p.decisions.iter().enumerate() {
        out.insert(format!("decision {i}"), format!("{:?} {:?} {}", d.doc, d.says, d.by));
    }
    for (i, d) in p.defs.iter().enumerate() {
        out.insert(format!("def {i}"), format!("{:?} {:?}", d.doc, d.says));
    }
    for (i, t) in p.types.iter().enumerate() {
        if let conditions::check::program::TypeKind::Record(fs) = &t.kind {
            for (j, f) in fs.iter().enumerate() {
                out.insert(format!("field {i} {j}"), format!("{:?} {:?}", f.doc, f.says));
            }
        }
    }
    let mut glosses: Vec<_> = p.glosses.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    glosses.sort();
    out.insert("glosses".into(), glosses.join("\n"));
    let source = Path::new(dir).join("source.txt");
    out.insert("source.txt".into(), std::fs::read_to_string(source).unwrap_or_default());
    for case in conditions::cases::find_cases(&Path::new(dir).join("cases")) {
        let text = std::fs::read_to_string(&case).expect("case file");
        let t: toml::Table = toml::from_str(&text).expect("a case file");
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        out.insert(format!("case {name}"), format!("{:?}", t.get("description")));
    }
    out
}

/// `check` (errors and warnings) and `test` (the last line), as they end.
fn verdicts(dir: &str) -> (Option<i32>, String, Option<i32>, String) {
    let (check_code, check_out, check_err) = run(&["check", dir]);
    let (test_code, test_out, _) = run(&["test", dir]);
    let last = |s: &str| s.lines().last().unwrap_or_default().to_string();
    (check_code, last(&format!("{check_out}{check_err}")), test_code, last(&test_out))
}

/// The `.cond` files' lines that differ, before and after.
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in conditions::loader::find_rulebooks(Path::new(before)).expect("book").remove(0).files {
        let name = f.file_name().expect("a file name");
        let (a, b) = (
            std::fs::read_to_string(&f).expect("before"),
            std::fs::read_to_string(Path::new(after).join(name)).expect("after"),
        );
        assert_eq!(a.lines().count(), b.lines().count(), "{}", f.display());
        out.extend(a.lines().zip(b.lines()).filter(|(x, y)| x != y).map(|(x, y)| (x.to_string(), y.to_string())));
    }
    out
}

fn short(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |x| x.1)
}

/// Renames `old` to `new` in a fresh copy of `book`, and checks what the module says.
fn renamed_safely(book: &str, old: &str, new: &str, tag: &str) {
    let (_scratch, dir) = copy_of(book, tag);
    let before = (printed(&dir), verdicts(&dir));
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join(book).display().to_string();
    let (code, out, err) = run(&["rename", &dir, old, new, "--dry-run"]);
    assert_eq!(code, Some(0), "{old} → {new}: {out}{err}");
    assert!(out.contains("would rename"), "{out}");
    assert!(changed_lines(&original, &dir).is_empty(), "--dry-run changes nothing");
    let (code, out, err) = run(&["rename", &dir, old, new]);
    assert_eq!(code, Some(0), "{old} → {new}: {out}{err}");
    let after = (printed(&dir), verdicts(&dir));
    assert_eq!(before.0, after.0, "{old} → {new}: a printed text changed");
    assert_eq!(before.1, after.1, "{old} → {new}: check or test says otherwise");
    assert_eq!(after.1.2, Some(0), "{old} → {new}: case files pass: {:?}", after.1);
    let lines = changed_lines(&original, &dir);
    let new_short = short(new);
    assert!(!lines.is_empty(), "{old} → {new}: nothing renamed");
    for (_, b) in &lines {
        assert!(b.contains(new_short), "{old} → {new}: a line changed without the new name: {b}");
    }
    let note = format!("renamed from {}", short(old));
    assert_eq!(lines.iter().filter(|(_, b)| b.contains(&note)).count(), 1, "{old} → {new}: one note: {lines:?}");
}

#[test]
fn every_name_of_a_rulebook_with_sections_renames_safely() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulebooks/sections").display().to_string();
    let c = load(&dir);
    let p = &c.program;
    let mut names: Vec<String> = p.facts.iter().map(|f| f.name.clone()).collect();
    names.extend(p.decisions.iter().map(|d| d.name.clone()));
    names.extend(p.defs.iter().filter(|d| d.table.is_none()).map(|d| d.name.clone()));
    for t in &p.types {
        if let conditions::check::program::TypeKind::Record(fs) = &t.kind {
            names.extend(fs.iter().map(|f| format!("{}.{}", t.name, f.name)));
        }
    }
    assert!(names.len() > 8, "{names:?}");
    for (i, old) in names.iter().enumerate() {
        let new = format!("{}_renamed", short(old));
        renamed_safely("tests/rulebooks/sections", old, &new, &format!("sections-{i}"));
    }
}

#[test]
fn the_season_edit_of_gnt_renames_a_field_and_a_fact_safely() {
    renamed_safely("conditions/gnt", "Player.masterpoints", "masterpoints_at_cutoff", "gnt-field");
    renamed_safely("conditions/gnt", "substitutes_in_play", "substitutes_in_use", "gnt-fact");
}

#[test]
fn a_rename_that_would_change_the_meaning_is_refused_and_nothing_written() {
    let (_scratch, dir) = copy_of("tests/rulebooks/sections", "refused");
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulebooks/sections").display().to_string();
    for (old, new, why) in [
        ("final.imps_first", "imps_second", "declared twice"),
        ("final.imps_first", "rule", "a keyword"),
        ("final.imps_first", "two words", "is not a name"),
        ("final.no_such_fact", "x", "no fact, decision, ruling, definition or field"),
        ("Standing.no_field", "x", "has no field `no_field`"),
    ] {
        let (code, out, err) = run(&["rename", &dir, old, new]);
        assert_eq!(code, Some(1), "{old} → {new}: {out}{err}");
        assert!(err.contains(why), "{old} → {new}: {err}");
        assert!(changed_lines(&original, &dir).is_empty(), "{old} → {new}: nothing written");
    }
    let (code, _, err) = run(&["rename", "gnt", "flights", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("give the rulebook's folder by path"), "{err}");
}

/// A case file naming a needed field by its facts-file path (`player.residence_district`)
/// gets the path renamed, and still passes.
#[test]
fn a_needed_field_s_path_is_renamed_in_case_files() {
    let (_scratch, dir) = copy_of("conditions/gnt", "needed-path");
    let case = Path::new(&dir).join("cases/needed-residence-unknown.toml");
    std::fs::write(
        &case,
        r#"description = "A player whose residence is not known: whether it permits play waits for it."

[facts]
player = { name = "Wes", masterpoints = 300, life_master = false, acbl_paid_up = true, district17_unit_member = false }
event_stage = "DistrictFinal"
residence_exception_sought = false

[[expect]]
ruling = "residence_permits_play"
undetermined = ["player.residence_district", "player.temporary_residence"]
"#,
    )
    .expect("case file");
    let (code, out, _) = run(&["test", &case.display().to_string()]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out, err) = run(&["rename", &dir, "Player.residence_district", "district_of_residence"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let text = std::fs::read_to_string(&case).expect("case file");
    assert!(
        text.contains(r#"undetermined = ["player.district_of_residence", "player.temporary_residence"]"#),
        "{text}"
    );
    let (code, out, _) = run(&["test", &dir]);
    assert_eq!(code, Some(0), "{out}");
}
