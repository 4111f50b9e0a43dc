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
fn session_output(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writes");
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
