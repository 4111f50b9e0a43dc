//! The batch's records, written straight from the rulings' values, are byte for byte the
//! records of docs/json.md: `line` first, then each ruling with `status` and its
//! `value`, `needs`, `not_decided`/`nearest` or `error`, the values as the JSON report
//! writes them. Every bundled case file's facts are one batch line here, ruled on one
//! and on two workers, and each record is compared with the same record assembled as a
//! JSON tree (an ordered one: the record's order is part of the format, whatever
//! serde_json's features).

use conditions::check::check_sources;
use conditions::eval::Outcome;
use conditions::explain::to_json;
use conditions::json::Json as J;
use conditions::ojson as json;
use serde_json::json as tree;

fn tree_record(p: &conditions::check::program::Program, defs: &[u32], n: usize, line: &str) -> J {
    let tree: serde_json::Value = match serde_json::from_str(line) {
        Ok(t) => t,
        Err(e) => return json!({ "line": n, "error": format!("not valid JSON: {e}") }),
    };
    let inputs = match conditions::facts::validate(p, &tree, &format!("line {n}")) {
        Ok(i) => i,
        Err(errs) => {
            let msgs: Vec<String> = errs.iter().map(|d| d.message.clone()).collect();
            return json!({ "line": n, "error": msgs.join("; ") });
        }
    };
    let mut out = J::object();
    out.insert("line", n);
    for &d in defs {
        let info = &p.defs[d as usize];
        let r = conditions::eval::rule(p, &inputs, d, false);
        let v = match r.outcome {
            Outcome::Decided(v) => json!({ "status": "decided", "value": to_json(p, &v, &info.ty) }),
            Outcome::Undetermined(needs) => {
                use conditions::eval::trace::Need;
                let names: Vec<String> = needs
                    .iter()
                    .map(|n| match n {
                        Need::Fact(f) => p.facts[*f as usize].name.clone(),
                        Need::Field { record, field } => format!("{record}.{field}"),
                        Need::Decision(d) | Need::Lot { lot: d, .. } => p.decisions[*d as usize].name.clone(),
                    })
                    .collect();
                json!({ "status": "undetermined", "needs": names })
            }
            Outcome::Silent(s) => {
                let nearest: Vec<&str> = s.nearest(p).iter().map(|&c| p.clause(c).citation.as_str()).collect();
                json!({ "status": "silent", "not_decided": &p.defs[s.def as usize].name, "nearest": nearest })
            }
            Outcome::Error(e) => json!({ "status": "error", "error": e.message }),
        };
        out.insert(info.name.clone(), v);
    }
    out
}

#[test]
fn every_case_file_as_a_batch_line_gives_the_documented_record() {
    for name in ["gnt", "dbf"] {
        let c = check_sources(conditions::loader::bundled(name).expect("bundled"));
        let p = &c.program;
        let defs: Vec<u32> = p.rulings().map(|(d, _)| d).collect();
        let mut lines = String::new();
        for (_, text) in conditions::loader::bundled_cases(name) {
            let raw = conditions::facts::read::toml(text).expect("case file");
            let facts = raw.get("facts").cloned().unwrap_or_else(|| tree!({}));
            lines.push_str(&serde_json::to_string(&facts).expect("json"));
            lines.push('\n');
        }
        assert!(lines.lines().count() > 5, "{name} has case files");
        let want: Vec<String> =
            lines.lines().enumerate().map(|(i, l)| tree_record(p, &defs, i + 1, l).to_string()).collect();
        for threads in [1, 2] {
            let mut out = Vec::new();
            let n = conditions::batch::run(p, &defs, lines.as_bytes(), &mut out, threads, |_| {}).expect("runs");
            assert_eq!(n, want.len());
            let got = String::from_utf8(out).expect("utf-8");
            for (g, w) in got.lines().zip(&want) {
                assert_eq!(g, w, "{name}, {threads} thread(s)");
            }
            assert_eq!(got.lines().count(), want.len());
        }
    }
}

#[test]
fn a_decided_ruling_and_a_bad_line_read_as_documented() {
    let mut map = conditions::source::SourceMap::new();
    map.add(
        "t.cond",
        "rulebook \"t\" { title \"t\" language \"en\" }\nfact mp: number\nfact due: EUR\n\
         ruling r: bool = mp < 5000\nruling fee: EUR = due\n",
    );
    let c = check_sources(map);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let p = &c.program;
    let defs: Vec<u32> = p.rulings().map(|(d, _)| d).collect();
    let input = "{\"mp\": 4999.99999999999999999, \"due\": \"12.50 EUR\"}\n{\"mp\": true, \"due\": \"1 EUR\"}\n{\"mp\": 1, \"mp\": 2}\n";
    let mut out = Vec::new();
    conditions::batch::run(p, &defs, input.as_bytes(), &mut out, 2, |_| {}).expect("runs");
    let out = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"line":1,"r":{"status":"decided","value":true},"fee":{"status":"decided","value":"12.5"}}"#
    );
    assert_eq!(lines[1], r#"{"line":2,"error":"`mp` must be `number`, found `true`"}"#);
    assert!(lines[2].starts_with(r#"{"line":3,"error":"not valid JSON: the key `mp` is given twice"#), "{}", lines[2]);
}

#[test]
fn a_ruling_named_twice_is_one_key_of_the_record() {
    let mut map = conditions::source::SourceMap::new();
    map.add(
        "t.cond",
        "rulebook \"t\" { title \"t\" language \"en\" }\nfact mp: number\nruling r: bool = mp < 5000\nruling s: bool = mp > 1\n",
    );
    let c = check_sources(map);
    let p = &c.program;
    let r = p.def_by_name("r").expect("r");
    let s = p.def_by_name("s").expect("s");
    let expected = r#"{"line":1,"r":{"status":"decided","value":true},"s":{"status":"decided","value":true}}"#;
    for defs in [vec![r, r, s], vec![r, s, r, s, s]] {
        for threads in [1, 2] {
            let mut out = Vec::new();
            conditions::batch::run(p, &defs, "{\"mp\": 4}\n".as_bytes(), &mut out, threads, |_| {}).expect("runs");
            assert_eq!(String::from_utf8(out).unwrap().trim_end(), expected, "{defs:?} on {threads} thread(s)");
        }
        assert_eq!(conditions::batch::rule_line(p, &defs, 1, "{\"mp\": 4}").to_string(), expected);
    }
    // And on the command line, `--ruling r --ruling r`.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("batch_twice");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lines.jsonl"), "{}\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["rule", "gnt", "--batch"])
        .arg(dir.join("lines.jsonl"))
        .args(["--ruling", "flights", "--ruling", "flights"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\"flights\"").count(), 1, "{text}");
}
