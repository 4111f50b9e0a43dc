//! "Still needed" over a list: a field missing from several elements of a list is asked
//! for only of the elements whose value can change the ruling, each named by its place
//! in the facts and its name. The test rulebook `tests/rulebooks/roster` counts the
//! masterpoints of a team's players who are not juniors; the expectations are worked by
//! hand in its case files.

use conditions::ask::{Next, Session};
use conditions::eval::needed;
use conditions::eval::show::Lang;
use serde_json::{Value as J, json};
use std::process::Command;

const BOOK: &str = "tests/rulebooks/roster";

/// Four players; `missing` are those whose masterpoints are not given.
fn team(junior: [bool; 4], missing: &[usize]) -> J {
    let names = ["Hansen", "Berg", "Jensen", "Holm"];
    let mps = [1500, 900, 2000, 1200];
    let players: Vec<J> = (0..4)
        .map(|i| {
            let mut p = json!({ "name": names[i], "junior": junior[i] });
            if !missing.contains(&i) {
                p["masterpoints"] = json!(mps[i]);
            }
            p
        })
        .collect();
    json!({ "team": { "name": "Aalborg", "players": players } })
}

fn holes(facts: &J, ruling: &str) -> Vec<String> {
    let book = conditions::loader::load(BOOK).unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    let p = &book.program;
    let inputs = conditions::facts::validate(p, facts, "test").expect("facts fit");
    let def = p.def_by_name(ruling).expect("ruling");
    needed::needed(p, &inputs, def).map(|n| n.holes.into_iter().map(|h| h.path).collect()).unwrap_or_default()
}

/// Every way of leaving out two players' masterpoints, juniors or not: exactly the
/// missing players who are not juniors are asked for (a junior is never counted, so his
/// masterpoints cannot change the total, nor whether it is below 6,000).
#[test]
fn only_elements_that_count_are_needed() {
    for junior_at in 0..4 {
        for a in 0..4 {
            for b in a + 1..4 {
                let mut junior = [false; 4];
                junior[junior_at] = true;
                let facts = team(junior, &[a, b]);
                let want: Vec<String> =
                    [a, b].iter().filter(|i| !junior[**i]).map(|i| format!("team.players[{i}].masterpoints")).collect();
                for ruling in ["counted", "flight_b"] {
                    let mut got = holes(&facts, ruling);
                    got.sort();
                    assert_eq!(got, want, "{ruling}, junior {junior_at}, missing {a} and {b}");
                }
            }
        }
    }
}

fn write(name: &str, v: &J) -> String {
    let dir = std::env::temp_dir().join(format!("conditions-needed-lists-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).expect("write");
    path.display().to_string()
}

/// `rule`, as JSON and as text: the one player named, by place (the key a facts file gives it,
/// in the JSON and in the text's how-to) and by name (in the sentence a player reads).
#[test]
fn rule_names_the_one_player_by_place_and_name() {
    let facts = write("berg-jensen.json", &team([false, true, false, false], &[1, 2]));
    let out = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["rule", BOOK, "--facts", &facts, "--ruling", "flight_b", "--format", "json"])
        .output()
        .expect("runs");
    let v: J = serde_json::from_slice(&out.stdout).expect("json");
    let r = &v["rulings"][0];
    assert_eq!(r["status"], "undetermined");
    let names: Vec<&str> = r["needs"].as_array().expect("needs").iter().filter_map(|n| n["name"].as_str()).collect();
    assert_eq!(names, ["team.players[2].masterpoints"]);
    assert_eq!(r["needs"][0]["sentence"], "needs the player's masterpoints for Jensen");
    assert_eq!(r["how_to"][0]["within"], "team.players[2]");
    let text = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["rule", BOOK, "--facts", &facts, "--ruling", "flight_b"])
        .output()
        .expect("runs");
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(text.contains("needs the player's masterpoints for Jensen"), "{text}");
    assert!(text.contains("team.players[2].masterpoints"), "the how-to gives the key:\n{text}");
    assert!(!text.contains("players[1]"), "the junior is not asked for:\n{text}");
}

/// `ask` asks for Jensen's masterpoints only, and with them the ruling is decided.
#[test]
fn ask_asks_only_for_the_player_who_counts() {
    let book = conditions::loader::load(BOOK).unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    let p = &book.program;
    let facts = team([false, true, false, false], &[1, 2]);
    let inputs = conditions::facts::validate(p, &facts, "test").expect("facts fit");
    let def = p.def_by_name("flight_b").expect("ruling");
    let mut s = Session::new(p, def, inputs, facts, Lang::En);
    let mut asked = Vec::new();
    for _ in 0..5 {
        match s.step() {
            Next::Ask(q) => {
                asked.push(q.path.clone());
                s.answer(&q, "2000").expect("a whole number");
            }
            Next::Done { ruling, .. } => {
                assert_eq!(asked, ["team.players[2].masterpoints"]);
                assert_eq!(
                    needed::key(&ruling.outcome),
                    needed::Key::Value(conditions::eval::value::Value::Bool(true))
                );
                return;
            }
        }
    }
    panic!("no ruling after {asked:?}");
}

/// Many players: the needed ones in the order of the list (`players[2]` before
/// `players[10]`), the juniors among them left out, worked out in time proportional to the
/// list (each missing field is found along its path, not by searching the facts).
#[test]
fn many_players_are_named_in_list_order() {
    let players: Vec<J> = (0..2000)
        .map(|i| {
            let mut p = json!({ "name": format!("P{i}"), "junior": i % 2 == 1 });
            if i % 4 < 2 {
                p["masterpoints"] = json!(1);
            }
            p
        })
        .collect();
    let facts = json!({ "team": { "name": "Big", "players": players } });
    let started = std::time::Instant::now();
    let got = holes(&facts, "counted");
    let want: Vec<String> =
        (0..2000).filter(|i| i % 4 == 2).map(|i| format!("team.players[{i}].masterpoints")).collect();
    assert_eq!(got, want);
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
}
