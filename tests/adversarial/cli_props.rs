//! Crash-freedom of every command through the real binary: `check`, `rule`, `rule --batch`,
//! `test`, `coverage` and `fmt --check` on a small rulebook folder whose rulebook, facts,
//! case file, published document and batch input are mutated at random. Whatever the
//! input, each command answers with an exit code (never 101, never a signal), prints
//! no panic message, and finishes.

use proptest::prelude::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RULEBOOK: &str = r#"rulebook "t" {
  title "Crash test"
  language "en"
  source "doc.txt"
}

clause "1" {
  text "Players with fewer than 500 points play in Flight C; others in Flight A."
  type Flight = enum { A, C }
  type Player = record { name: text, points: number, master: bool }
  fact player: Player "the player"
  fact teams: list of Player "the teams"
  ruling flight: Flight = if player.points < 500 then C else A
  ruling strong: int = count(filter(teams, t => t.points >= 500))
  ruling size: text = size_table(count(teams))
  table size_table(n: int): text pick first {
    0 => "none",
    1..=8 => "few",
    9.. => "many",
  }
}
"#;

const FACTS: &str = r#"{"player": {"name": "Robin", "points": 2150, "master": true}, "teams": [{"name": "A", "points": "1/3", "master": false}]}"#;

const CASE: &str = r#"description = "Robin plays in Flight A."
[facts]
player = { name = "Robin", points = 2150, master = true }
teams = []
[[expect]]
ruling = "flight"
value = "A"
"#;

const DOC: &str = "Players with fewer than 500 points play in Flight C; others in Flight A.\n";

/// Pieces inserted by the mutations: the language's tokens and the values that once broke the readers.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "=>",
    "..=",
    "..",
    " or ",
    " and ",
    " not ",
    " if ",
    " then ",
    " else ",
    "ruling ",
    "table ",
    "fact ",
    "clause ",
    "overrides ",
    "pick unique",
    "_",
    "\n",
    "\u{feff}",
    "\u{0}",
    "\u{1b}[31m",
    "é",
    "1e400",
    "4999.9999999999999999999999999999",
    "1/2/3",
    "-0",
    "10^40",
    "null",
    "true",
    "[[expect]]",
    "value = ",
    "\"points\": 1, \"points\": 2",
    "9999999999999999999999999999999999999999",
    "\t",
    "\r\n",
    "#",
    "//",
    "§",
    "round(",
    "count(",
    "sum(",
    "top(",
    "x => ",
];

#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, &'static str),
    Delete(prop::sample::Index, usize),
    Repeat(prop::sample::Index, usize, usize),
    Char(prop::sample::Index, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<prop::sample::Index>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<prop::sample::Index>(), 1usize..12).prop_map(|(i, n)| Edit::Delete(i, n)),
        (any::<prop::sample::Index>(), 1usize..20, 2usize..40).prop_map(|(i, n, k)| Edit::Repeat(i, n, k)),
        (any::<prop::sample::Index>(), any::<char>()).prop_map(|(i, c)| Edit::Char(i, c)),
    ]
}

fn mutate(base: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = base.chars().collect();
    for e in edits {
        let at = |i: &prop::sample::Index, s: &Vec<char>| i.index(s.len() + 1);
        match e {
            Edit::Insert(i, t) => {
                let k = at(i, &s);
                s.splice(k..k, t.chars());
            }
            Edit::Delete(i, n) => {
                let k = at(i, &s);
                let end = (k + n).min(s.len());
                s.drain(k..end);
            }
            Edit::Repeat(i, n, times) => {
                let k = at(i, &s);
                let piece: Vec<char> = s[k..(k + n).min(s.len())].to_vec();
                for _ in 0..*times {
                    s.splice(k..k, piece.iter().copied());
                }
            }
            Edit::Char(i, c) => {
                let k = at(i, &s);
                s.insert(k, *c);
            }
        }
    }
    s.into_iter().collect()
}

/// Runs the binary; fails on a panic, an abort, a signal, or a run of over a minute.
fn run_ok(dir: &Path, args: &[&str]) -> Result<(), TestCaseError> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!("`conditions {}` ran for over a minute", args.join(" "))));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let shown =
        || format!("`conditions {}` in {}: {status}\n{}", args.join(" "), dir.display(), &err[..err.len().min(2000)]);
    prop_assert!(status.code().is_some(), "killed by a signal: {}", shown());
    prop_assert_ne!(status.code(), Some(101), "{}", shown());
    prop_assert!(!err.contains("panicked"), "{}", shown());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn no_command_crashes_on_mutated_input(
        book in prop::collection::vec(edit(), 0..5),
        facts in prop::collection::vec(edit(), 0..5),
        facts_format in 0usize..3,
        case in prop::collection::vec(edit(), 0..4),
        doc in prop::collection::vec(edit(), 0..3),
        batch in prop::collection::vec(prop::collection::vec(edit(), 0..4), 0..6),
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        json in any::<bool>(),
    ) {
        let dir = std::env::temp_dir().join(format!("conditions-cli-props-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("cases")).unwrap();
        std::fs::write(dir.join("rulebook.cond"), mutate(RULEBOOK, &book)).unwrap();
        std::fs::write(dir.join("doc.txt"), mutate(DOC, &doc)).unwrap();
        std::fs::write(dir.join("cases/one.toml"), mutate(CASE, &case)).unwrap();
        let facts_text = mutate(FACTS, &facts);
        let facts_file = match facts_format {
            0 => "facts.json".to_string(),
            // The same text under another reader: mostly refused, never a crash.
            1 => "facts.toml".to_string(),
            _ => "facts.yaml".to_string(),
        };
        std::fs::write(dir.join(&facts_file), &facts_text).unwrap();
        let mut lines: Vec<u8> = Vec::new();
        for b in &batch {
            lines.extend(mutate(FACTS, b).replace('\n', " ").bytes());
            lines.push(b'\n');
        }
        lines.extend(&bytes);
        std::fs::write(dir.join("batch.jsonl"), lines).unwrap();
        let format = if json { "json" } else { "human" };
        run_ok(&dir, &["check", ".", "--format", format])?;
        run_ok(&dir, &["rule", ".", "--facts", &facts_file, "--format", if json { "json" } else { "text" }])?;
        run_ok(&dir, &["rule", ".", "--facts", &facts_file, "--format", if json { "html" } else { "markdown" }, "--explain", "full"])?;
        run_ok(&dir, &["rule", ".", "--batch", "batch.jsonl"])?;
        run_ok(&dir, &["test", ".", "--coverage"])?;
        run_ok(&dir, &["coverage", ".", "--format", format])?;
        run_ok(&dir, &["fmt", "--check", "."])?;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
