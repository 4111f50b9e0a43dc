//! Finding a ruling from the printed words: questions a director would ask, phrased in
//! the published texts' own words (English, Danish, and English for the Danish rulebook's
//! glosses), find the ruling that works the answer out among the first three; a clause
//! citation finds what the clause decides; an unknown `--ruling` name gets the nearest names;
//! `describe` names, for each input, the other rulings that read it and the definitions that
//! may work it out; the server's search and `GET …/find` use the same index.

#[path = "support/http.rs"]
mod http;

use conditions::check::Checked;
use conditions::discover::{self, Origin, find, suggest};
use std::collections::HashMap;
use std::process::Command;
use std::sync::OnceLock;

fn load(name: &str) -> &'static Checked {
    static BOOKS: OnceLock<HashMap<&'static str, Checked>> = OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        ["gnt", "dbf"]
            .into_iter()
            .map(|n| (n, conditions::loader::load(n).unwrap_or_else(|e| panic!("{n}: {:?}", e.diagnostics))))
            .collect()
    });
    &books[name]
}

fn top(book: &str, query: &str, n: usize) -> Vec<String> {
    let p = &load(book).program;
    find::get(p).search(p, query, n).into_iter().map(|h| h.name).collect()
}

/// (rulebook, a director's question in the printed words, the ruling that answers it).
const QUESTIONS: &[(&str, &str, &str)] = &[
    // GNT, Stage 1 I, H; Stage 1 sanction fees; Entry fees; District Finals.
    ("gnt", "fifty percent of the teams entered qualify for the next stage", "qualifying_places"),
    ("gnt", "which teams qualify for the next stage of competition including those tied", "qualifiers"),
    ("gnt", "substitute not permitted for more than 24 hours or 50% of the boards", "substitute_permitted"),
    (
        "gnt",
        "if a substitute plays more than 50% of the boards he becomes the contestant of record",
        "substitute_becomes_contestant_of_record",
    ),
    ("gnt", "sanction fees per team per session due District 17", "district_sanction_fee"),
    ("gnt", "nominal mileage reimbursement for teams advancing to the District Finals", "mileage_reimbursement"),
    ("gnt", "Flight C open to Non-Life Masters with fewer than 500 masterpoints", "flights"),
    (
        "gnt",
        "player must play at least 50% of the boards played by the team for an overall award",
        "overall_award_play_met",
    ),
    (
        "gnt",
        "principal physical residence shall establish the district in which the member is eligible",
        "residence_permits_play",
    ),
    ("gnt", "Blue Ribbon qualification at the National Finals", "national_ribbon"),
    ("gnt", "District Sanction Fees for Fund Raiser Games per table per session", "fund_raiser_district_fee"),
    // DBF, in Danish.
    // § 304B1 declares four rulings; its first sentence asks for the kilometres, its bridge and
    // ferry charges for the whole reimbursement.
    (
        "dbf",
        "godtgørelsen beregnes som antallet af kørte kilometer ganget med en fast kilometersats",
        "s304.kilometer_efter_304B1",
    ),
    ("dbf", "godtgørelsen ganget med kilometersatsen plus bro- eller færgeafgift", "s304.transportgodtgørelse_efter"),
    ("dbf", "egenbetaling på 200 kilometer ganget med kilometersatsen", "s304.egenbetaling"),
    ("dbf", "spilles en afgørende kamp om placeringerne", "s328.afgørende_kamp"),
    ("dbf", "kampen går over 60 spil fordelt på 3 runder", "s322.divisionskampens_format"),
    (
        "dbf",
        "hvis en mobiltelefon støjer i spillelokalet straffes deltageren med et standardfradrag",
        "s307.standardfradrag_A1",
    ),
    ("dbf", "tobaksrygning i spillelokalet er forbudt", "s307.rygning_tilladt_i_spillelokalet"),
    ("dbf", "den blinde må forlade bordet under spillet for at ryge", "s307.blinde_må_forlade_bordet_for_at_ryge"),
    ("dbf", "halvdelen af imp-differencen overføres", "s323.overførsel"),
    ("dbf", "en tilmelding er ikke gyldig, før turneringsindskud er betalt", "s303.tilmeldingen_er_gyldig"),
    ("dbf", "fraskrive sig sin kvalifikationsret i alle distrikterne undtagen ét", "s301.fraskrivelsespligt_opfyldt"),
    ("dbf", "protestere over systembeskrivelsernes kvalitet", "s327.protestfrist"),
    ("dbf", "sidste dag for meddelelse af valget", "s323.valgfrist"),
    // DBF, in the words of its English glosses.
    ("dbf", "one third of the imp difference is carried over", "s323.overførsel"),
    ("dbf", "a mobile phone makes a noise in the playing room", "s307.standardfradrag_A1"),
    ("dbf", "smoking in the playing room is forbidden", "s307.rygning_tilladt_i_spillelokalet"),
];

#[test]
fn a_question_in_the_printed_words_finds_its_ruling_among_the_first_three() {
    let mut misses = Vec::new();
    for (book, q, want) in QUESTIONS {
        let got = top(book, q, 3);
        if !got.iter().any(|n| n == want) {
            misses.push(format!("{book}: {q:?} wants `{want}`, found {got:?}"));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

#[test]
fn a_clause_citation_finds_what_the_clause_decides() {
    // § 328A1 decides the play-off's format, a ruling declared in § 322A4.
    for q in ["328A1", "§ 328A1", "dbf 328A1"] {
        assert!(top("dbf", q, 5).iter().any(|n| n == "s322.divisionskampens_format"), "{q}");
    }
    // Every clause that decides a ruling finds it by its citation.
    for book in ["gnt", "dbf"] {
        let p = &load(book).program;
        for (d, info) in p.rulings() {
            for &r in &info.rules {
                let Some(c) = p.rules[r as usize].clause else { continue };
                let citation = &p.clause(c).citation;
                let hits = find::get(p).search(p, citation, usize::MAX);
                let hit = hits.iter().find(|h| h.def == d);
                assert!(hit.is_some(), "{book}: `{citation}` does not find `{}`", info.name);
                let hit = hit.expect("found");
                assert!(
                    hit.matched.iter().any(|m| m.citation == *citation),
                    "{book}: `{citation}` not shown for `{}`",
                    info.name
                );
            }
        }
    }
}

#[test]
fn every_ruling_is_found_first_by_its_name_and_its_question_finds_it() {
    for book in ["gnt", "dbf"] {
        let p = &load(book).program;
        for (d, info) in p.rulings() {
            let short = info.name.rsplit('.').next().expect("a name");
            for name in [info.name.as_str(), short] {
                let first = find::get(p).search(p, name, 1);
                // A short name declared in two sections finds one of them first.
                assert!(
                    first.first().is_some_and(|h| h.name == info.name || h.name.ends_with(&format!(".{short}"))),
                    "{book}: `{name}` finds {:?}",
                    first.first().map(|h| &h.name)
                );
            }
            if let Some(q) = &info.doc {
                let hits = find::get(p).search(p, q, usize::MAX);
                let at = hits.iter().position(|h| h.def == d);
                assert!(at.is_some(), "{book}: the question of `{}` does not find it", info.name);
            }
        }
    }
}

#[test]
fn results_carry_the_question_its_gloss_and_snippets_of_the_matching_clauses() {
    let p = &load("dbf").program;
    let hits = find::get(p).search(p, "afgørende kamp", 3);
    let h = hits.iter().find(|h| h.name == "s328.afgørende_kamp").expect("found");
    assert_eq!(h.kind, "ruling");
    assert_eq!(h.clause.as_deref(), Some("§ 328A"));
    assert!(h.question.as_deref().is_some_and(|q| q.contains("afgørende kamp")));
    assert!(h.question_en.as_deref().is_some_and(|q| q.contains("deciding match")));
    let m = h.matched.iter().find(|m| m.citation == "§ 328A").expect("the clause matched");
    assert!(m.snippet.contains("afgørende kamp"), "{}", m.snippet);
    // English words match the gloss, and the snippet is the gloss's.
    let hits = find::get(p).search(p, "deciding match for the places", 3);
    let h = hits.iter().find(|h| h.name == "s328.afgørende_kamp").expect("found in English");
    assert!(h.matched.iter().any(|m| m.snippet.contains("deciding match")), "{:?}", h.matched);
}

#[test]
fn stop_words_and_nothing_find_nothing_and_no_query_panics() {
    for book in ["gnt", "dbf"] {
        let p = &load(book).program;
        assert!(find::get(p).search(p, "", 10).is_empty());
        assert!(find::get(p).search(p, "  §§ ¶ … ", 10).is_empty());
        assert!(find::get(p).search(p, "zzqqxx", 10).is_empty());
        for q in ["a", "the of and", "og i at", "🃏", "§", &"x".repeat(5000)] {
            let _ = find::get(p).search(p, q, 10);
        }
    }
}

#[test]
fn an_unknown_ruling_name_suggests_the_nearest_section_qualified_or_short_name() {
    let p = &load("dbf").program;
    // The short name, exactly, and misspelt.
    assert_eq!(suggest::suggest(p, "valgfrist", false).first().map(String::as_str), Some("s323.valgfrist"));
    assert_eq!(suggest::suggest(p, "valgfrsit", false).first().map(String::as_str), Some("s323.valgfrist"));
    assert_eq!(suggest::suggest(p, "s323.valgfirst", false).first().map(String::as_str), Some("s323.valgfrist"));
    assert_eq!(suggest::suggest(p, "afgørende_kamp", false).first().map(String::as_str), Some("s328.afgørende_kamp"));
    // Nothing near by spelling: the words of the name, through the index.
    let by_words = suggest::suggest(p, "kilometersats_godtgørelse_transport", false);
    assert!(by_words.iter().any(|n| n.starts_with("s304.")), "{by_words:?}");
    // Every fifth ruling's short name, with one letter dropped, suggests it.
    for (_, d) in p.rulings().step_by(5) {
        let short = d.name.rsplit('.').next().expect("a name");
        if short.chars().count() < 6 {
            continue;
        }
        let typo: String = short.chars().take(2).chain(short.chars().skip(3)).collect();
        let s = suggest::suggest(p, &typo, false);
        assert!(s.iter().any(|n| n.rsplit('.').next() == Some(short)), "`{typo}` suggests {s:?}, not `{}`", d.name);
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("runs");
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), s(&out.stdout), s(&out.stderr))
}

#[test]
fn every_command_taking_a_ruling_says_did_you_mean() {
    let facts = std::env::temp_dir().join(format!("conditions-find-{}.json", std::process::id()));
    std::fs::write(&facts, "{}").expect("a facts file");
    for cmd in [
        vec!["describe", "dbf", "valgfrist"],
        vec!["template", "dbf", "--ruling", "valgfrist"],
        vec!["schema", "dbf", "--ruling", "valgfrist"],
        vec!["rule", "dbf", "--facts", facts.to_str().expect("a path"), "--ruling", "valgfrist"],
        vec!["ask", "dbf", "--ruling", "valgfrist"],
    ] {
        let (code, _, err) = run(&cmd);
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert!(err.contains("did you mean `s323.valgfrist`?"), "{cmd:?}: {err}");
    }
    let _ = std::fs::remove_file(&facts);
}

#[test]
fn the_find_command_ranks_and_says_why_in_text_and_json() {
    let (code, out, err) = run(&["find", "dbf", "328A1", "--limit", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("1. s322.divisionskampens_format"), "{out}");
    assert!(out.contains("§ 328A1 (decides): Kampen går over 60 spil"), "{out}");
    let (code, out, _) = run(&["find", "gnt", "entry", "fees", "--format", "json", "--limit", "2"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let results = v["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["rank"], i + 1);
        for key in ["kind", "name", "question", "clause", "matched"] {
            assert!(r.get(key).is_some(), "{key} in {r}");
        }
    }
    let (code, _, err) = run(&["find", "gnt", "zzqqxx"]);
    assert_eq!(code, 1);
    assert!(err.contains("nothing in `gnt` matches `zzqqxx`"), "{err}");
}

#[test]
fn describe_names_the_other_readers_of_each_input_and_what_may_work_it_out() {
    for book in ["gnt", "dbf"] {
        let p = &load(book).program;
        let reach: Vec<discover::Reach> = (0..p.defs.len() as u32).map(|d| discover::reach(p, &[d])).collect();
        let reads = |r: &discover::Reach, o: Origin| match o {
            Origin::Fact(f) => r.facts.contains(&f),
            Origin::Field(t, i) => r.fields.contains(&(t, i)),
            Origin::Decision(d) => r.decisions.contains(&d),
        };
        for (d, info) in p.rulings().step_by(3) {
            let desc = discover::describe(p, d);
            for input in &desc.inputs {
                // Every ruling said to read the input reads it, and the ruling itself is not one.
                for other in &input.also_read_by {
                    let o = p.def_by_name(other).expect("a ruling");
                    assert_ne!(o, d);
                    assert!(reads(&reach[o as usize], input.origin), "{book}: `{other}` said to read {}", input.path);
                }
                // Every other ruling that reads it is named.
                let n = p.rulings().filter(|(o, _)| *o != d && reads(&reach[*o as usize], input.origin)).count();
                assert_eq!(n, input.also_read_by.len(), "{book}: {} of `{}`", input.path, info.name);
                // What may work it out answers with the input's type and does not read it.
                for x in &input.may_be_decided_by {
                    let o = p.def_by_name(&x.name).expect("a definition");
                    assert_eq!(p.defs[o as usize].ty, input.declared, "{book}: `{}` for {}", x.name, input.path);
                    assert!(!reads(&reach[o as usize], input.origin));
                }
            }
        }
    }
    // The play time per round reads whether screens are used, which § 322's ruling says.
    let p = &load("dbf").program;
    let d = p.def_by_name("s307.spilletid_pr_runde").expect("ruling");
    let desc = discover::describe(p, d);
    let screens = desc.inputs.iter().find(|i| i.path == "s307.spilles_med_skærme").expect("input");
    assert!(screens.may_be_decided_by.iter().any(|x| x.name == "s322.skærme"), "{:?}", screens.may_be_decided_by);
    let (code, out, _) = run(&["describe", "dbf", "s307.spilletid_pr_runde"]);
    assert_eq!(code, 0);
    assert!(out.contains("the rulebook may work this out: `s322.skærme` under § "), "{out}");
    let (_, out, _) = run(&["describe", "gnt", "flights"]);
    assert!(out.contains("also read by `"), "{out}");
}

#[test]
fn ask_says_when_the_rulebook_may_work_an_input_out() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["ask", "dbf", "--ruling", "s307.spilletid_pr_runde", "--lang", "en"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(b"yes\nholdturnering\n16\n").expect("write");
    let out = child.wait_with_output().expect("ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("the rulebook may work this out: `s322.skærme` under § "), "{text}");
}

#[test]
fn the_server_searches_with_the_same_index() {
    let addr = http::start_bundled();
    let r = http::get(addr, "/api/rulebooks/dbf/find?q=328A1&limit=3");
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["results"][0]["name"], "s322.divisionskampens_format", "{v}");
    let r = http::get(addr, "/api/rulebooks/dbf/find");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["results"].as_array().map(Vec::len), Some(0));
    let r = http::get(addr, "/api/rulebooks/nope/find?q=x");
    assert_eq!(r.status, 404);
    // A question, not a document: a query past the bound is refused in JSON, and the page
    // searches its first words only.
    let long = "spil ".repeat(200);
    let r = http::get(addr, &format!("/api/rulebooks/dbf/find?q={}", http::enc(&long)));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.json()["error"].as_str().is_some_and(|e| e.contains("500 characters")), "{}", r.body);
    let r = http::get(addr, &format!("/dbf?q={}", http::enc(&long)));
    assert_eq!(r.status, 200);
    // The rulebook page's search lists the ruling § 328A1 decides, with the clause's words.
    let r = http::get(addr, &format!("/dbf?q={}", http::enc("328A1")));
    assert_eq!(r.status, 200);
    let page = &r.body;
    assert!(page.contains("s322.divisionskampens_format"), "the page lists the ruling");
    assert!(page.contains("Kampen går over 60 spil"), "the page shows the clause's words");
}

/// `describe` of a fact, decision, lot or record field (`Record.field`): every one of the
/// GNT rulebook is described, read by exactly the rulings whose reach holds it; the command
/// says its type, description, clause and readers, and an unknown name gets the nearest of
/// every name `describe` takes.
#[test]
fn describe_tells_what_reads_a_fact_a_decision_or_a_field() {
    use conditions::discover::about;
    let p = &load("gnt").program;
    let reaches: Vec<(String, discover::Reach)> =
        p.rulings().map(|(d, info)| (info.name.clone(), discover::reach(p, &[d]))).collect();
    let mut origins: Vec<Origin> = (0..p.facts.len() as u32).map(Origin::Fact).collect();
    origins.extend((0..p.decisions.len() as u32).map(Origin::Decision));
    for (t, ty) in p.types.iter().enumerate() {
        if let conditions::check::program::TypeKind::Record(fs) = &ty.kind {
            origins.extend((0..fs.len() as u32).map(|i| Origin::Field(t as u32, i)));
        }
    }
    for o in origins {
        let a = about::about(p, o);
        assert_eq!(about::input_named(p, &a.name), Some(o), "{}", a.name);
        let want: Vec<&str> = reaches
            .iter()
            .filter(|(_, r)| match o {
                Origin::Fact(f) => r.facts.contains(&f),
                Origin::Decision(d) => r.decisions.contains(&d),
                Origin::Field(t, i) => r.fields.contains(&(t, i)),
            })
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(a.read_by, want, "{}", a.name);
    }
    let (code, out, err) = run(&["describe", "gnt", "teams_entered"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("teams_entered (fact): list of TeamResult\n"), "{out}");
    assert!(out.contains("declared in Stage 1 I\n"), "{out}");
    assert!(out.contains("`qualifiers`"), "{out}");
    let (code, out, err) = run(&["describe", "gnt", "Player.masterpoints"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Player.masterpoints (field): number\n"), "{out}");
    assert!(out.contains("written in a facts file as `player.masterpoints`"), "{out}");
    assert!(out.contains("`flights`"), "{out}");
    let (code, out, err) = run(&["describe", "gnt", "residence_verified"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("decided by the credentials committee\n"), "{out}");
    let (code, _, err) = run(&["describe", "gnt", "Player.masterpoint"]);
    assert_eq!(code, 2);
    assert!(err.contains("no ruling, definition, fact, decision or field `Player.masterpoint`"), "{err}");
    assert!(err.contains("did you mean `Player.masterpoints`?"), "{err}");
    let (_, out, _) = run(&["list", "gnt", "--all"]);
    assert!(out.contains("  field Player.masterpoints: number"), "{out}");
}
