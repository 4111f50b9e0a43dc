//! "Did you mean" over section-qualified names, wherever a name is resolved: a short name
//! (`imps_first`) or a misspelled one (`imps_frist`, `finl.imps_first`) finds the qualified
//! name (`final.imps_first`) in a facts file, a case file's ruling, `--ruling`, `--rename`
//! and the rulebook itself. The test rulebook `tests/rulebooks/sections` declares
//! `final.imps_first` and `boards` in three sections.

use conditions::diagnostic::did_you_mean;
use std::process::Command;

const BOOK: &str = "tests/rulebooks/sections";

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Messages are wrapped to the terminal's width: read as one line.
    (out.status.code(), text.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" "))
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("conditions-did-you-mean-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

/// The class of inputs: the short name, a misspelled short name, a misspelled section and a
/// misspelled qualified name each find the qualified name; a name near nothing finds nothing;
/// labels such as `304.1` are not taken for qualified names.
#[test]
fn short_and_misspelled_names_find_the_qualified_name() {
    let names = ["teams", "qualifying.standings", "final.imps_first", "final.imps_second", "total.boards"];
    for written in ["imps_first", "imps_frist", "IMPS_FIRST", "finl.imps_first", "final.imps_frist", "imps.imps_first"]
    {
        assert_eq!(did_you_mean(written, names).as_deref(), Some("did you mean `final.imps_first`?"), "{written}");
    }
    assert_eq!(did_you_mean("standing", names).as_deref(), Some("did you mean `qualifying.standings`?"));
    assert_eq!(
        did_you_mean("round_1_date", ["allsvenskan.round_1_date"]).as_deref(),
        Some("did you mean `allsvenskan.round_1_date`?")
    );
    assert_eq!(did_you_mean("champion_elect", names), None);
    // One short name in several sections: each is offered.
    assert_eq!(
        did_you_mean("boards", ["qualifying.boards", "final.boards", "teams"]).as_deref(),
        Some("did you mean `final.boards` or `qualifying.boards`?")
    );
    // A clause label is no qualified name: `1` is not offered `304.1`.
    assert_eq!(did_you_mean("1", ["304.1"]), None);
    // A whole-name match is preferred to a short-name one.
    assert_eq!(did_you_mean("boards", ["boards", "final.boards"]).as_deref(), Some("did you mean `boards`?"));
}

#[test]
fn a_facts_file_key_finds_the_qualified_fact() {
    for (key, want) in
        [("imps_first", "final.imps_first"), ("imps_frist", "final.imps_first"), ("standings", "qualifying.standings")]
    {
        let facts = temp(&format!("{key}.json"), &format!("{{\"teams\": 8, \"{key}\": 3}}"));
        let (code, out) = run(&["rule", BOOK, "--facts", &facts, "--ruling", "final.boards"]);
        assert_ne!(code, Some(0), "{out}");
        assert!(out.contains(&format!("`{key}` is not a fact or decision of this rulebook")), "{out}");
        assert!(out.contains(&format!("did you mean `{want}`?")), "{key}: {out}");
    }
}

#[test]
fn ruling_option_and_case_file_find_the_qualified_ruling() {
    let facts = temp("teams.json", "{\"teams\": 8}");
    let (_, out) = run(&["rule", BOOK, "--facts", &facts, "--ruling", "champoin"]);
    assert!(out.contains("`final.champion`"), "{out}");
    // A copy of the rulebook with one case file that names a ruling by a misspelled short name.
    let dir = std::env::temp_dir().join(format!("conditions-did-you-mean-book-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("cases")).expect("temp dir");
    for f in ["rulebook.cond", "s1-qualifying.cond", "s2-final.cond", "s3-boards.cond", "source.txt"] {
        std::fs::copy(format!("{BOOK}/{f}"), dir.join(f)).expect("copy");
    }
    std::fs::write(
        dir.join("cases/short.toml"),
        "description = \"a ruling by its short name\"\n[facts]\nteams = 8\n[[expect]]\nruling = \"champoin\"\nundetermined = [\"final.imps_first\"]\n",
    )
    .expect("write");
    let (_, out) = run(&["test", &dir.display().to_string()]);
    assert!(out.contains("did you mean `final.champion`?"), "{out}");
}

#[test]
fn rename_option_finds_the_qualified_name() {
    let (code, out) = run(&["diff", BOOK, BOOK, "--rename", "imps_frist=final.imps_first"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("did you mean `final.imps_first`?"), "{out}");
    let (code, out) = run(&["diff", BOOK, BOOK, "--rename", "final.imps_first=imps_scond"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("did you mean `final.imps_second`?"), "{out}");
}

/// A copy of the test rulebook where `teams` became `entries` and the field `vp` became
/// `victory_points`, each with its `renamed from` note; `rule_code_renamed` says whether the
/// rule code was edited too.
fn renamed_book(tag: &str, rule_code_renamed: bool) -> String {
    let dir = std::env::temp_dir().join(format!("conditions-did-you-mean-renamed-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in ["s2-final.cond", "s3-boards.cond", "source.txt"] {
        std::fs::copy(format!("{BOOK}/{f}"), dir.join(f)).expect("copy");
    }
    let read = |f: &str| std::fs::read_to_string(format!("{BOOK}/{f}")).expect("read");
    let book = read("rulebook.cond").replace("fact teams: int", "fact entries renamed from teams: int");
    let mut qualifying = read("s1-qualifying.cond").replace("vp: number", "victory_points renamed from vp: number");
    if rule_code_renamed {
        qualifying = qualifying.replace("= teams - 1", "= entries - 1").replace("s.vp", "s.victory_points");
    }
    std::fs::write(dir.join("rulebook.cond"), book).expect("write");
    std::fs::write(dir.join("s1-qualifying.cond"), qualifying).expect("write");
    dir.display().to_string()
}

/// A name written as it was before a rename is answered with the new name from the
/// `renamed from` note, not with the nearest spelling: in a facts file (a fact and a record
/// field), on `--ruling`, and in rule code that `check` reads.
#[test]
fn an_old_name_is_answered_with_its_new_name() {
    let book = renamed_book("edited", true);
    let facts =
        temp("old-names.json", "{\"teams\": 3, \"qualifying\": {\"standings\": [{\"team\": \"North\", \"vp\": 40}]}}");
    let (code, out) = run(&["rule", &book, "--facts", &facts, "--ruling", "qualifying.finalists"]);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("`teams` was renamed to `entries` in this version of the rulebook"), "{out}");
    assert!(out.contains("`vp` was renamed to `victory_points` in this version of the rulebook"), "{out}");
    assert!(!out.contains("did you mean"), "{out}");

    let book = renamed_book("unedited", false);
    let (code, out) = run(&["check", &book]);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("unknown name `teams`"), "{out}");
    assert!(out.contains("`teams` was renamed to `entries` in this version of the rulebook"), "{out}");
    assert!(out.contains("`vp` was renamed to `victory_points` in this version of the rulebook"), "{out}");
}
