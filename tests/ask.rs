//! Scripted `ask` sessions: for three rulings of each rulebook, a session started from
//! nothing and answered from a case file's facts reaches the case's ruling, and every
//! question it asks is one whose answer can change the ruling (checked by trying the
//! values, for inputs of finite domain). Snapshots of one session in each language.

use conditions::ask::{Next, Session};
use conditions::cases::{CaseFile, find_cases};
use conditions::eval::interp::Inputs;
use conditions::eval::needed::{self, Key};
use conditions::eval::rule;
use conditions::eval::show::Lang;
use serde_json::Value as J;
use std::path::Path;

/// The value at a facts-file path (`s304.rejsehold.spillere[2].bopæl`) in a facts tree.
fn at<'a>(tree: &'a J, path: &str) -> Option<&'a J> {
    let mut v = tree;
    // A fact of a section is one key of the facts (`"s304.rejsehold"`).
    let mut parts: Vec<String> = path.split('.').map(String::from).collect();
    if parts.len() > 1 && tree.get(&parts[0]).is_none() {
        let first = parts.remove(0);
        parts[0] = format!("{first}.{}", parts[0]);
    }
    for part in &parts {
        let part = part.as_str();
        let (name, rest) = part.split_once('[').map_or((part, ""), |(a, b)| (a, b));
        v = v.get(name)?;
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            v = v.get(idx.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    (!v.is_null()).then_some(v)
}

use conditions::eval::needed::key;

/// The ruling with these inputs, or what every missing input leaves it at.
fn settled(p: &conditions::check::Program, inputs: &Inputs, def: u32) -> Key {
    match needed::needed(p, inputs, def) {
        None => key(&rule(p, inputs, def, false).outcome),
        Some(n) => n.settled.unwrap_or(Key::Open),
    }
}

/// Runs a session answering from `facts`; `None` when it asks for something the case
/// does not give (the case file's ruling then needed less than this order of questions).
fn session(book: &conditions::check::Checked, def: u32, facts: &J) -> Option<(Key, Vec<String>)> {
    let p = &book.program;
    let mut s = Session::new(p, def, Inputs::empty(p), J::Object(Default::default()), Lang::En);
    let mut asked = Vec::new();
    loop {
        match s.step() {
            Next::Done { ruling, settled } => return Some((settled.unwrap_or_else(|| key(&ruling.outcome)), asked)),
            Next::Ask(q) => {
                // The question can change the ruling: its values do not all give one ruling.
                if let Some(values) = &q.hole.domain {
                    let keys: Vec<Key> =
                        values.iter().map(|v| settled(p, &needed::fill(&s.inputs, &q.hole, v.clone()), def)).collect();
                    assert!(
                        keys.iter().any(|k| *k == Key::Open || *k != keys[0]),
                        "`{}`: every answer gives the same ruling",
                        q.path
                    );
                }
                let answer = at(facts, &q.path)?;
                let line = match answer {
                    J::String(t) => t.clone(),
                    other => other.to_string(),
                };
                s.answer(&q, &line).unwrap_or_else(|e| panic!("`{}` = {line}: {e}", q.path));
                asked.push(q.path.clone());
                assert!(asked.len() < 200, "too many questions");
            }
        }
    }
}

#[test]
fn scripted_sessions_reach_the_case_files_rulings() {
    let plan = [
        ("gnt", ["flights", "substitute_permitted", "qualifiers"]),
        ("dbf", ["s305.substitution_tilladt", "s304.transportgodtgørelse", "s305.rettighedshavere"]),
    ];
    let mut total = 0;
    for (name, rulings) in plan {
        let book = conditions::loader::load(name).unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
        let p = &book.program;
        for ruling in rulings {
            let def = p.def_by_name(ruling).expect("ruling");
            let (mut complete, mut tried) = (0, 0);
            for path in find_cases(Path::new(&format!("conditions/{name}/cases"))) {
                let text = std::fs::read_to_string(&path).expect("readable");
                let case: CaseFile = toml::from_str(&text).expect("case file");
                if !case.expect.iter().any(|e| e.ruling == ruling) {
                    continue;
                }
                let facts =
                    conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts)).expect("json"));
                let inputs = conditions::facts::validate(p, &facts, "case").expect("facts fit");
                let want = key(&rule(p, &inputs, def, false).outcome);
                if want == Key::Open {
                    continue;
                }
                tried += 1;
                if let Some((got, asked)) = session(&book, def, &facts) {
                    assert_eq!(got, want, "{}: `{ruling}` after asking {asked:?}", path.display());
                    complete += 1;
                }
            }
            eprintln!("{name} `{ruling}`: {complete} of {tried} case files answered to the end");
            assert!(complete >= 1, "{name}: no complete session for `{ruling}`");
            total += complete;
        }
    }
    assert!(total >= 6, "{total} sessions");
}

/// A session with `input` typed at its prompts, however it ends.
fn session_output(args: &[&str], input: impl AsRef<[u8]>) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(input.as_ref()).expect("writes");
    child.wait_with_output().expect("ends")
}

/// What a session that reaches its ruling prints.
fn transcript(args: &[&str], input: &str) -> String {
    let out = session_output(args, input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_session_in_english() {
    let t = transcript(&["ask", "gnt", "--ruling", "flights"], "two thousand\n1999\n");
    insta::assert_snapshot!("ask_gnt_flights_en", t);
}

#[test]
fn a_session_in_danish() {
    let t = transcript(&["ask", "dbf", "--ruling", "s305.substitution_tilladt"], "nej\nnej\nmåske\nja\n");
    insta::assert_snapshot!("ask_dbf_substitution_da", t);
}

/// A Danish rulebook asked in English: every question in its English gloss
/// (conditions/dbf/glosses.cond), never the Danish description.
#[test]
fn a_danish_rulebook_asked_in_english() {
    // One answer, then the input ends: the session stops undetermined (a failure exit).
    let out = session_output(&["ask", "dbf", "--ruling", "s304.transportgodtgørelse", "--lang", "en"], "yes\n");
    let t = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(t.contains("s304.rejse_til_eller_fra_bornholm — whether the team travels to or from Bornholm"), "{t}");
    assert!(t.contains("whether the journey goes via Ystad and the Øresund Bridge"), "{t}");
    assert!(!t.contains("om holdets rejse") && !t.contains("om der rejses"), "a Danish description: {t}");
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("conditions-ask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// A `flights` session answered with 1999 masterpoints, saving onto `path`.
fn saving(path: &Path, input: &str) -> std::process::Output {
    session_output(&["ask", "gnt", "--ruling", "flights", "--save", path.to_str().expect("a path")], input)
}

/// A path where nothing can be saved (a missing folder, a folder, a full disk): the session
/// fails, says why, and gives the answers on standard error as a facts file to copy —
/// whether the session reached its ruling or its answers ran out.
#[test]
fn answers_that_cannot_be_saved_are_given_back() {
    let d = temp("unsaved");
    let unsaved = [
        (d.join("missing").join("facts.json"), "\"masterpoints\": 1999", "No such file"),
        (d.join("missing").join("facts.toml"), "masterpoints = 1999", "No such file"),
        (d.join("missing").join("facts.yaml"), "masterpoints: 1999", "No such file"),
        (d.clone(), "\"masterpoints\": 1999", "is a folder"),
        (Path::new("/dev/full").to_path_buf(), "\"masterpoints\": 1999", "No space left on device"),
    ];
    for (path, answer, why) in &unsaved {
        for (input, ruled) in [("1999\n", true), ("", false)] {
            let out = saving(path, input);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let shown = format!("`{}` with {input:?}: {:?}\n{stdout}\n{stderr}", path.display(), out.status);
            assert_eq!(out.status.code(), Some(2), "{shown}");
            assert_eq!(stdout.contains("Answer:"), ruled, "{shown}");
            assert!(stderr.contains("the facts are not saved") && stderr.contains(why), "{shown}");
            if ruled {
                assert!(stderr.contains(answer), "{shown}");
            }
            assert!(!stderr.contains("facts saved to"), "{shown}");
        }
    }
    assert!(!d.join("missing").exists());
}

/// Saving onto a facts file adds the answers to the facts it holds (an answer replacing
/// the value it had), in each format, and leaves nothing beside it.
#[test]
fn saving_onto_a_facts_file_adds_to_its_facts() {
    use conditions::facts::Format;
    let d = temp("merge");
    let files = [
        ("facts.json", Format::Json, r#"{"note": "kept", "player": {"name": "Robin", "masterpoints": 5000}}"#),
        ("facts.toml", Format::Toml, "note = \"kept\"\n[player]\nname = \"Robin\"\nmasterpoints = 5000\n"),
        ("facts.yaml", Format::Yaml, "note: kept\nplayer:\n  name: Robin\n  masterpoints: 5000\n"),
    ];
    for (name, format, before) in files {
        let path = d.join(name);
        std::fs::write(&path, before).expect("written");
        let out = saving(&path, "1999\n");
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&path).expect("saved");
        let saved = conditions::facts::parse(&text, format, name).expect("a facts file");
        assert_eq!(saved["note"], "kept", "{name}: {text}");
        assert_eq!(saved["player"]["name"], "Robin", "{name}: {text}");
        assert_eq!(saved["player"]["masterpoints"].to_string().trim_matches('"'), "1999", "{name}: {text}");
    }
    let left: Vec<_> = std::fs::read_dir(&d).expect("listed").map(|e| e.expect("an entry").file_name()).collect();
    assert_eq!(left.len(), 3, "{left:?}");
}

/// A file that holds no facts to add to (not a facts file, or a case file) is refused and
/// left as it was; the answers are given back.
#[test]
fn saving_onto_what_is_not_a_facts_file_is_refused() {
    let d = temp("refused");
    let case = std::fs::read_to_string("tests/test_command/book/cases/below.toml").expect("a case file");
    for (name, before) in [("notes.json", "these are notes {"), ("case.toml", case.as_str())] {
        let path = d.join(name);
        std::fs::write(&path, before).expect("written");
        let out = saving(&path, "1999\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains("the facts are not saved") && stderr.contains("masterpoints"), "{name}: {stderr}");
        assert_eq!(std::fs::read_to_string(&path).expect("still there"), before, "{name}");
    }
}

/// An answer line that is not UTF-8 is an error for that line, asked again; the session
/// goes on to its ruling.
#[test]
fn an_answer_that_is_not_utf8_is_asked_again() {
    let bad: [&[u8]; 5] = [b"\xff", b"19\xc3", b"\xc3\x28", b"\xed\xa0\x80", b"\xf0\x9f\x92\r"];
    for line in bad {
        let mut input = line.to_vec();
        input.extend_from_slice(b"\n1999\n");
        let out = session_output(&["ask", "gnt", "--ruling", "flights"], &input);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{line:?}: {stdout}");
        assert!(stdout.contains("not an answer: the answer is not UTF-8 text"), "{line:?}: {stdout}");
        assert!(stdout.contains("Answer: Championship Flight, Flight A, Flight B"), "{line:?}: {stdout}");
    }
}

/// A session whose missing inputs can no longer change the answer ends with that answer, as
/// `rule` gives it — never "undetermined" after saying that nothing more is needed. A
/// member who is not one plays in neither session, whether a junior or not (worked out
/// from the clause: `juniors` gives `member` = no, `seniors` gives no).
#[test]
fn a_settled_session_ends_with_its_answer() {
    let dir = std::env::temp_dir().join(format!("conditions-ask-settled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("rulebook.cond"),
        r#"rulebook "t" {
  title "Settled"
  language "en"
}

clause "C 1" {
  text "A member who is a junior plays in the morning, a member who is not in the evening; a player who is not a member plays in neither."
  fact member: bool "whether the player is a member"
  fact junior: bool "whether the player is a junior"
  ruling plays_in_the_morning: bool "whether the player plays in the morning"
  rule juniors: plays_in_the_morning = member when junior
  rule seniors: plays_in_the_morning = false when not junior
}
"#,
    )
    .expect("rulebook");
    std::fs::write(dir.join("facts.json"), r#"{"member": false}"#).expect("facts");
    let (book, facts) = (dir.display().to_string(), dir.join("facts.json").display().to_string());
    let t = transcript(&["ask", &book, "--ruling", "plays_in_the_morning", "--facts", &facts], "");
    std::fs::remove_dir_all(&dir).ok();
    assert!(t.contains("the remaining inputs cannot change the answer"), "{t}");
    assert!(t.contains("Answer: no\n"), "{t}");
    assert!(!t.contains("undetermined"), "{t}");
}
