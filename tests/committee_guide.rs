//! The season's edit of docs/committee.md, made as the guide says, on a copy of the GNT
//! rulebook: Flight B raised to 2,500 masterpoints (rule, printed text, published document),
//! the clause `Stage 1 D ¶6` and its case file added as the guide prints them, and
//! `substitutes_in_play` renamed with `conditions rename`. What the guide says the commands
//! answer is what they answer: `check --deny warnings` is clean, `test` fails only case files
//! with a player of 2,000 to 2,499 masterpoints, and `diff`'s summary line is the one printed.

#[path = "support/scratch.rs"]
mod scratch;

use scratch::{Scratch, copy_dir, edit_first};
use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), s(&out.stdout), s(&out.stderr))
}

/// The fenced blocks of the guide, in order.
fn blocks(guide: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for line in guide.lines() {
        match (&mut open, line.starts_with("```")) {
            (None, true) => open = Some(String::new()),
            (Some(b), true) => {
                out.push(std::mem::take(b));
                open = None;
            }
            (Some(b), false) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, false) => {}
        }
    }
    out
}

#[test]
fn the_guide_s_season_edit_gives_what_the_guide_says() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(here.join("docs/committee.md")).expect("the guide");
    let blocks = blocks(&guide);
    let find = |needle: &str| blocks.iter().find(|b| b.contains(needle)).unwrap_or_else(|| panic!("{needle}")).clone();
    let root = std::env::temp_dir().join(format!("conditions-guide-{}", std::process::id()));
    let _scratch = Scratch(root.clone());
    let _ = std::fs::remove_dir_all(&root);
    let next = root.join("gnt");
    copy_dir(&here.join("conditions/gnt"), &next);
    let book = next.display().to_string();
    // 1. The threshold, in the rule, the clause's text and the published document.
    let b = "open to players with fewer than 2,";
    edit_first(&next.join("stage1.cond"), &format!("{b}000 masterpoints"), &format!("{b}500 masterpoints"));
    edit_first(&next.join("stage1.cond"), "cutoff_masterpoints < 2000", "cutoff_masterpoints < 2500");
    edit_first(&next.join("source.txt"), &format!("{b}000 masterpoints"), &format!("{b}500 masterpoints"));
    // 2. The new clause after `Stage 1 D ¶5`, its line in the document, its case file.
    let clause = find("clause \"Stage 1 D ¶6\"");
    let five = "rule flight_c_limit: eligible(C) = not cutoff_life_master and cutoff_masterpoints < 500\n}\n";
    edit_first(&next.join("stage1.cond"), five, &format!("{five}\n{clause}"));
    let line = "Players with fewer than 5 masterpoints enter free of charge.";
    let c_line = "Flight C will be open to Non-Life Masters with fewer than 500 masterpoints.\n";
    edit_first(&next.join("source.txt"), c_line, &format!("{c_line}{line}\n"));
    let case = find("ruling = \"enters_free\"");
    std::fs::write(next.join("cases/stage1-d-free-entry-4-masterpoints.toml"), case).expect("case file");
    let (code, out, err) = run(&["check", &book, "--deny", "warnings"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(format!("{out}{err}").contains("0 error(s), 0 warning(s)"), "{out}{err}");
    // 3. The rename, as the guide runs it.
    assert!(guide.contains("conditions rename next-season/gnt substitutes_in_play substitutes_in_use\n"));
    let (code, out, err) = run(&["rename", &book, "substitutes_in_play", "substitutes_in_use"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = run(&["check", &book, "--deny", "warnings"]);
    assert_eq!(code, Some(0), "{out}{err}");
    // `test` fails the case files worked out under the 2,000 limit, and those only.
    let (code, out, _) = run(&["test", &book, "-v"]);
    assert_eq!(code, Some(1), "{out}");
    for failing in out.lines().filter_map(|l| l.strip_prefix("FAIL ")).filter(|l| l.ends_with(" failed)")) {
        let path = failing.split(" (").next().unwrap_or_default();
        let text = std::fs::read_to_string(path).expect("case file");
        let points = text
            .split("masterpoints = ")
            .skip(1)
            .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse::<u32>().ok());
        assert!(points.into_iter().any(|n| (2000..2500).contains(&n)), "{path} fails, with no player of 2,000–2,499");
    }
    // 4. The summary line of `diff` is the one the guide prints.
    let shown = find("conditions diff conditions/gnt → next-season/gnt");
    let printed = shown.lines().nth(1).expect("a summary line");
    let (code, out, err) = run(&["diff", "conditions/gnt", &book]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().nth(1), Some(printed), "docs/committee.md prints another summary than `diff` gives");
}
