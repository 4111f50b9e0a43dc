//! Properties that keep the tool unbreakable: no panic on arbitrary rulebook text or
//! arbitrary facts; rulings that do not depend on the order of files; exact
//! apportionment whose parts add up; byte-identical output from run to run; limits
//! that answer with an error rather than a crash.

use conditions::check::check_sources;
use conditions::source::SourceMap;
use proptest::prelude::*;

fn check_text(text: &str) -> conditions::check::Checked {
    let mut map = SourceMap::new();
    map.add("fuzz.cond", text.to_string());
    check_sources(map)
}

#[test]
fn a_hundred_thousand_parentheses_are_an_error_not_a_crash() {
    let text = format!(
        "rulebook \"t\" {{ title \"t\" language \"en\" }}\nruling r: int = {}1{}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let c = check_text(&text);
    assert!(c.diagnostics.iter().any(|d| d.code == "conditions::too_deep"), "{:?}", c.diagnostics.first());
}

#[test]
fn deeply_nested_facts_are_an_error_not_a_crash() {
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let r = conditions::facts::parse(&text, conditions::facts::Format::Json, "deep.json");
    assert!(r.is_err());
    let yaml = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    let _ = conditions::facts::parse(&yaml, conditions::facts::Format::Yaml, "deep.yaml");
}

fn apportion_book() -> conditions::check::Checked {
    check_text(
        r#"rulebook "t" { title "t" language "en" }
type District = record { name: text, members: int }
fact seats: int
fact districts: list of District
lot tie: list of District by "the organiser"
ruling places: list of int = apportion(seats, districts, d => d.members, tie: tie)
"#,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        let c = check_text(&text);
        let _ = conditions::format::format_text(&text);
        if !c.has_errors() {
            let _ = conditions::lint::run(&conditions::lint::Context { checked: &c, document: Some(&text), tested: None });
        }
    }

    #[test]
    fn arbitrary_condition_like_text_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        "rulebook \"t\" { title \"t\" language \"en\" }", "clause \"A\" {", "}", "text \"x\"", "fact x: int", "ruling r: int =",
        "rule a: r = 1", "when", "x", "1", "+", "(", ")", "[", "]", "table t(n: int): int pick unique {", "1 => 2,", "..=",
        "overrides a", "let y = 2 in", "\"\"\"", "//", "count(", ",", "=>", "y", "DKK", "2.5", "2007-02-30", "not", "and",
    ]), 0..40)) {
        let text = parts.join(" ");
        let c = check_text(&text);
        if !c.has_errors() {
            let _ = conditions::lint::run(&conditions::lint::Context { checked: &c, document: None, tested: None });
        }
    }

    #[test]
    fn apportionment_parts_add_up(
        seats in -3i64..120,
        members in prop::collection::vec(prop_oneof![Just(0i64), 0i64..100_000, -5i64..0], 0..12),
    ) {
        let book = apportion_book();
        prop_assert!(!book.has_errors(), "{:?}", book.diagnostics);
        let districts: Vec<serde_json::Value> = members.iter().enumerate()
            .map(|(i, m)| serde_json::json!({ "name": format!("D{i}"), "members": m })).collect();
        let facts = serde_json::json!({ "seats": seats, "districts": districts });
        let inputs = conditions::facts::validate(&book.program, &facts, "p").expect("facts fit");
        let def = book.program.def_by_name("places").expect("ruling");
        // Nothing to apportion by (no items, or every weight 0), a negative weight or a
        // negative number of seats is an error, never a share of 0 or below.
        let refused = if members.iter().any(|m| *m < 0) {
            Some("apportionment weights must not be negative")
        } else if seats < 0 {
            Some("cannot apportion a negative number of seats")
        } else if seats > 0 && members.iter().all(|m| *m == 0) {
            Some("cannot apportion")
        } else {
            None
        };
        match conditions::eval::rule(&book.program, &inputs, def, false).outcome {
            conditions::eval::Outcome::Error(e) if refused.is_some() => {
                prop_assert!(e.message.contains(refused.unwrap_or_default()), "{}", e.message);
            }
            _ if refused.is_some() => prop_assert!(false, "not refused: seats {seats}, members {members:?}"),
            conditions::eval::Outcome::Decided(v) => {
                let parts: Vec<i128> = v.as_list().expect("list").iter().map(|x| x.as_num().expect("num").numer()).collect();
                prop_assert!(parts.iter().all(|p| *p >= 0), "{parts:?}");
                prop_assert_eq!(parts.iter().sum::<i128>(), seats as i128);
            }
            conditions::eval::Outcome::Undetermined(needs) => {
                // Only a tie on the remainder at the cut may leave it open, and then by lot.
                let by_lot = needs.iter().all(|n| matches!(n, conditions::eval::trace::Need::Lot { .. }));
                prop_assert!(by_lot, "needs {:?}", needs);
            }
            conditions::eval::Outcome::Silent(s) => prop_assert!(false, "silent: {:?}", s),
            conditions::eval::Outcome::Error(e) => prop_assert!(false, "{}", e.message),
        }
    }

    #[test]
    fn arbitrary_facts_never_panic(facts in arbitrary_json()) {
        static GNT: std::sync::OnceLock<conditions::check::Checked> = std::sync::OnceLock::new();
        let book = GNT.get_or_init(|| conditions::loader::load("gnt").expect("gnt"));
        let p = &book.program;
        if let Ok(inputs) = conditions::facts::validate(p, &facts, "p") {
            for (id, _) in p.rulings().take(40) {
                let r = conditions::eval::rule(p, &inputs, id, true);
                let e = conditions::explain::Explainer { p, sources: &book.sources, lang: conditions::eval::show::Lang::En, inputs: &inputs };
                let _ = conditions::explain::text::render(&e.report(&r, true), true);
            }
        }
    }
}

fn arbitrary_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        "[ -~]{0,12}".prop_map(serde_json::Value::String),
        prop::sample::select(vec!["2007-09-01", "24 hours", "4.00 USD", "A", "ClubQualifying", "1e400", "40/3"])
            .prop_map(|s| serde_json::Value::String(s.into())),
    ];
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec!["name", "masterpoints", "life_master", "x", "flight"]).prop_map(String::from),
                inner,
                0..4
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    });
    prop::collection::btree_map(
        prop::sample::select(vec![
            "player",
            "event_flight",
            "event_stage",
            "teams_entered",
            "district_final_teams",
            "club_game_date",
            "substitute_period",
            "nonsense",
        ])
        .prop_map(String::from),
        value,
        0..5,
    )
    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect()))
}

#[test]
fn rulings_do_not_depend_on_the_order_of_files() {
    let forward = conditions::loader::bundled("gnt").expect("gnt");
    let mut files: Vec<(String, String)> = forward.files().map(|(_, f)| (f.name.clone(), f.text.to_string())).collect();
    files.reverse();
    let mut backward = SourceMap::new();
    for (n, t) in files {
        backward.add(n, t);
    }
    let (a, b) = (check_sources(forward), check_sources(backward));
    let facts = serde_json::json!({ "player": { "name": "R", "masterpoints": 2150, "life_master": true }, "district_final_teams": 8, "event_flight": "A" });
    let ia = conditions::facts::validate(&a.program, &facts, "f").expect("fits");
    let ib = conditions::facts::validate(&b.program, &facts, "f").expect("fits");
    for (id, d) in a.program.rulings() {
        let other = b.program.def_by_name(&d.name).expect("same rulings");
        let ra = conditions::eval::rule(&a.program, &ia, id, false);
        let rb = conditions::eval::rule(&b.program, &ib, other, false);
        assert!(!format!("{:?}", ra.outcome).is_empty());
        match (&ra.outcome, &rb.outcome) {
            (conditions::eval::Outcome::Decided(x), conditions::eval::Outcome::Decided(y)) => {
                assert_eq!(
                    conditions::explain::to_json(&a.program, x, &d.ty),
                    conditions::explain::to_json(&b.program, y, &d.ty),
                    "{}",
                    d.name
                )
            }
            (x, y) => assert_eq!(std::mem::discriminant(x), std::mem::discriminant(y), "{}", d.name),
        }
    }
}

#[test]
fn output_is_byte_identical_across_runs() {
    let render = || {
        let book = conditions::loader::load("dbf").expect("dbf");
        let p = &book.program;
        let facts: serde_json::Value = serde_json::json!({
            "s304.turnering": "Anden_turnering304", "s304.propositionerne_yder_transportgodtgørelse": true, "s304.kilometersats": "2.00 DKK per km",
            "s304.bro_og_færgeafgift": "125 DKK", "s304.afstand_uden_for_danmark": "0 km", "s304.rejse_til_eller_fra_bornholm": false,
            "s304.afstande_til_spillestedet": [{"by": "Kolding", "afstand": "142 km"}],
            "s304.rejsehold": {"navn": "K", "spillere": [{"navn": "A", "bopæl": "Kolding"}, {"navn": "B", "bopæl": "Kolding"}]}
        });
        let inputs = conditions::facts::validate(p, &facts, "f").expect("fits");
        let def = p.def_by_name("s304.transportgodtgørelse").expect("ruling");
        let r = conditions::eval::rule(p, &inputs, def, true);
        let e = conditions::explain::Explainer {
            p,
            sources: &book.sources,
            lang: conditions::eval::show::Lang::Da,
            inputs: &inputs,
        };
        let report = e.report(&r, true);
        format!(
            "{}{}{}",
            conditions::explain::text::render(&report, true),
            serde_json::to_string(&report).unwrap_or_default(),
            conditions::explain::html::render(&report, true)
        )
    };
    assert_eq!(render(), render());
}

/// The `.cond` files of a rulebook folder of the repository, with their text.
fn cond_files(dir: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cond"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn a_byte_order_mark_at_the_start_is_accepted() {
    for dir in ["conditions/dbf", "tests/rulebooks/sections"] {
        let files = cond_files(dir);
        let check = |bom: &str| {
            let mut map = SourceMap::new();
            for (name, text) in &files {
                map.add(name.clone(), format!("{bom}{text}"));
            }
            check_sources(map)
        };
        let (plain, marked) = (check(""), check("\u{feff}"));
        assert!(!marked.has_errors(), "{dir}: {:?}", marked.diagnostics.iter().find(|d| d.is_error()));
        assert_eq!(plain.diagnostics.len(), marked.diagnostics.len(), "{dir}");
        for (name, text) in &files {
            let formatted = conditions::format::format_text(&format!("\u{feff}{text}"));
            assert_eq!(formatted.ok(), conditions::format::format_text(text).ok(), "{name}");
        }
    }
    // Only at the start: elsewhere it is no blank.
    let c = check_text("rulebook \"t\" { title \"t\" language \"en\" }\n\u{feff}fact x: int\n");
    assert!(c.has_errors());
}

/// A copy of the `sections` test rulebook (its `.cond` files, document and cases) in a
/// fresh temporary folder.
fn sections_copy(tag: &str) -> std::path::PathBuf {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulebooks/sections");
    let dir = std::env::temp_dir().join(format!("conditions-robustness-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    for sub in ["", "cases"] {
        for e in std::fs::read_dir(from.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, dir.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

/// Runs the tool, killing it after `limit`: its exit code and output (standard output and
/// error), or `None` when it had to be killed.
#[cfg(unix)]
fn run_within(args: &[&std::ffi::OsStr], limit: std::time::Duration) -> Option<(i32, String)> {
    use std::io::Read;
    // `CONDITIONS_BIN` runs another build.
    let bin = std::env::var("CONDITIONS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_conditions").into());
    let mut child = std::process::Command::new(bin)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let text = format!("{}{}", out.join().unwrap(), err.join().unwrap());
    Some((status.code().unwrap_or(-1), text))
}

#[cfg(unix)]
fn mkfifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let ok = std::process::Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// A FIFO, or a link to a device, where the tool reads a file of a rulebook folder (the
/// published document, a `.cond` file, a case file): `check`, `test` and `fmt` refuse it at
/// once, naming it, rather than wait on it or read it as a file.
#[cfg(unix)]
#[test]
fn files_that_are_not_regular_are_refused_at_once() {
    use std::ffi::OsStr;
    let limit = std::time::Duration::from_secs(20);
    let fifo = |p: &std::path::Path| mkfifo(p);
    let null = |p: &std::path::Path| {
        let _ = std::fs::remove_file(p);
        std::os::unix::fs::symlink("/dev/null", p).unwrap();
    };
    let cases: [(&str, &str, &dyn Fn(&std::path::Path), &[&str]); 5] = [
        ("document", "source.txt", &fifo, &["check"]),
        ("cond", "s3-boards.cond", &fifo, &["check", "fmt"]),
        ("extra-cond", "s4-more.cond", &fifo, &["check", "fmt"]),
        ("case", "cases/boards-by-section.toml", &fifo, &["check", "test"]),
        ("device", "s3-boards.cond", &null, &["check", "fmt"]),
    ];
    for (tag, file, make, commands) in cases {
        let dir = sections_copy(tag);
        make(&dir.join(file));
        for cmd in commands {
            let args = [OsStr::new(cmd), dir.as_os_str()];
            let answer = run_within(&args, limit);
            let (code, err) = answer.unwrap_or_else(|| panic!("`{cmd}` waits on the {tag} `{file}`"));
            assert_ne!(code, 0, "`{cmd}` with the {tag} `{file}`: {err}");
            let name = std::path::Path::new(file).file_name().unwrap().to_str().unwrap();
            assert!(err.contains("not a regular file") && err.contains(name), "`{cmd}` with the {tag} `{file}`: {err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `fmt` beside a program appending lines to the file it formats (each line written
/// between an open and a close, sometimes a while after the open): no line is ever lost.
/// Each round either formats the file (the lines appended meanwhile kept at its end) or
/// leaves it as it is because it changed. The outcomes are written to the log.
#[test]
fn fmt_with_a_concurrent_appender_loses_no_line() {
    use conditions::format::{RewriteError, format_text, rewrite};
    use std::io::Write;
    use std::time::Duration;
    const ROUNDS: usize = 300;
    let dir = std::env::temp_dir().join(format!("conditions-fmt-appender-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.cond");
    let unformatted = "rulebook \"t\" {  title \"t\"   language \"en\" }\nfact    x:   int\n\n\n\nfact y :int\n";
    let (mut formatted, mut changed, mut appended, mut late) = (0, 0, 0, 0);
    for round in 0..ROUNDS {
        std::fs::write(&path, unformatted).unwrap();
        let appender = {
            let path = path.clone();
            std::thread::spawn(move || {
                // Start at a different moment of the rewrite each round.
                std::thread::sleep(Duration::from_micros(300 * (round % 20) as u64));
                let mut written = Vec::new();
                for k in 0..4 {
                    let line = format!("// appended in round {round}, line {k}\n");
                    let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
                    // Now and then a writer is held up between its open and its write.
                    std::thread::sleep(Duration::from_micros([0, 50, 500, 3000][(round + k) % 4]));
                    f.write_all(line.as_bytes()).unwrap();
                    drop(f);
                    written.push(line);
                    std::thread::sleep(Duration::from_micros(300));
                }
                written
            })
        };
        std::thread::sleep(Duration::from_micros(100 * (round % 30) as u64));
        let text = std::fs::read_to_string(&path).unwrap();
        let result = format_text(&text).map(|f| rewrite(&path, &text, &f));
        let written = appender.join().unwrap();
        let now = std::fs::read_to_string(&path).unwrap();
        match result {
            Ok(Ok(())) => formatted += 1,
            Ok(Err(RewriteError::Changed)) => changed += 1,
            Ok(Err(RewriteError::Appended)) => appended += 1,
            Ok(Err(e)) => panic!("round {round}: {e}"),
            Err(d) => panic!("round {round}: {d:?}"),
        }
        // Lines written after the rewrite went to the file at its path, whatever it was.
        late += written.iter().filter(|l| !text.contains(l.as_str())).count();
        for line in &written {
            assert!(now.contains(line.as_str()), "round {round}: `{}` lost:\n{now}", line.trim_end());
        }
    }
    eprintln!(
        "fmt beside an appender, {ROUNDS} rounds: {formatted} formatted, {appended} formatted with late lines kept, \
         {changed} left as they were; {late} lines appended during a rewrite, none lost"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program that keeps the file open (a writer that has not written yet): `fmt` waits for
/// it, then leaves the file as it is rather than swap it under the writer; what the writer
/// writes afterwards is in the file.
#[cfg(target_os = "linux")]
#[test]
fn fmt_leaves_alone_a_file_another_program_keeps_open() {
    use conditions::format::{RewriteError, format_text, rewrite};
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("conditions-fmt-held-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.cond");
    let unformatted = "rulebook \"t\" {  title \"t\"   language \"en\" }\nfact    x:   int\n";
    std::fs::write(&path, unformatted).unwrap();
    let mut writer = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    let formatted = format_text(unformatted).unwrap();
    let start = std::time::Instant::now();
    let result = rewrite(&path, unformatted, &formatted);
    assert!(matches!(result, Err(RewriteError::Busy)), "{result:?}");
    eprintln!("fmt gave up on a file kept open after {} ms", start.elapsed().as_millis());
    writer.write_all(b"// written late\n").unwrap();
    drop(writer);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{unformatted}// written late\n"));
    // Closed, it is formatted.
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(rewrite(&path, &text, &format_text(&text).unwrap()).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}
