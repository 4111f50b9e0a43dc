//! The table of builtins guards its copies: every builtin is documented in docs/language.md
//! as the table says, used by a case file and by a rendering; and the compiled evaluator and
//! the interpreter agree on every builtin over generated arguments, so that removing a
//! builtin's implementation from either path fails here.

use conditions::cases::{CaseFile, find_cases};
use conditions::check::builtins_table::{Docs, Kind, docs_table};
use conditions::check::program::{Builtin, DefId, IrKind, Program};
use conditions::syntax::ast::DecisionKind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The builtins a definition reaches: those its rules, tables and the definitions they call
/// use.
fn reached(p: &Program, def: DefId, seen: &mut BTreeSet<DefId>, out: &mut BTreeSet<&'static str>) {
    if !seen.insert(def) {
        return;
    }
    let d = &p.defs[def as usize];
    let mut calls = Vec::new();
    let mut look = |ir: &conditions::check::program::Ir| {
        ir.visit(&mut |x| match &x.kind {
            IrKind::Builtin(b, ..) => {
                out.insert(b.name());
            }
            IrKind::Draw(lot, ..) => {
                let b = match p.decisions[*lot as usize].kind {
                    DecisionKind::Lot => Builtin::Draw,
                    _ => Builtin::Choose,
                };
                out.insert(b.name());
            }
            IrKind::Call(c, _) => calls.push(*c),
            _ => {}
        })
    };
    for &r in &d.rules {
        let rule = &p.rules[r as usize];
        if let Some(g) = &rule.guard {
            look(g);
        }
        look(&rule.value);
    }
    if let Some(t) = &d.table {
        for row in &t.rows {
            look(&row.value);
        }
    }
    for c in calls {
        reached(p, c, seen, out);
    }
}

fn all_names() -> BTreeSet<&'static str> {
    Builtin::ALL.iter().map(|b| b.name()).collect()
}

fn missing(used: &BTreeSet<&'static str>) -> Vec<&'static str> {
    all_names().difference(used).copied().collect()
}

fn rulebook_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for root in ["conditions", "tests/rulebooks"] {
        for e in std::fs::read_dir(root).expect("a folder of rulebooks").flatten() {
            if e.path().join("cases").is_dir() {
                dirs.push(e.path());
            }
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn every_builtin_is_documented_as_the_table_says() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let table = docs_table();
    assert!(
        doc.contains(&table),
        "docs/language.md's builtins table differs from the table of builtins; it should read:\n\n{table}"
    );
    for &b in Builtin::ALL {
        let row = match b.docs() {
            Docs::Row(r) => r,
            Docs::With(w) => match w.docs() {
                Docs::Row(r) => r,
                Docs::With(_) => {
                    panic!("`{}` is documented with `{}`, itself documented with another", b.name(), w.name())
                }
            },
        };
        let (call, _) = row.split_once(" | ").unwrap_or((row, ""));
        assert!(call.contains(&format!("`{}(", b.name())), "`{}` is not shown in its row: {row}", b.name());
    }
}

#[test]
fn every_builtin_is_used_by_a_case_file() {
    let mut used = BTreeSet::new();
    for dir in rulebook_dirs() {
        let book = conditions::loader::load(&dir.display().to_string())
            .unwrap_or_else(|e| panic!("{}: {:?}", dir.display(), e.diagnostics));
        let p = &book.program;
        let mut seen = BTreeSet::new();
        for case in find_cases(&dir.join("cases")) {
            let text = std::fs::read_to_string(&case).expect("a readable case file");
            let file: CaseFile =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: not a case file: {e}", case.display()));
            for e in &file.expect {
                if let Some(d) = p.def_by_name(&e.ruling) {
                    reached(p, d, &mut seen, &mut used);
                }
            }
        }
    }
    assert_eq!(missing(&used), Vec::<&str>::new(), "builtins no case file's ruling uses");
}

#[derive(serde::Deserialize)]
struct Rendering {
    rulebook: String,
    ruling: String,
}

#[test]
fn every_builtin_is_used_by_a_rendering() {
    let mut used = BTreeSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/renderings")
        .expect("tests/renderings")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for path in files {
        let r: Rendering = toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("a rendering");
        let book =
            conditions::loader::load(&r.rulebook).unwrap_or_else(|e| panic!("{}: {:?}", r.rulebook, e.diagnostics));
        let p = &book.program;
        let d = p.def_by_name(&r.ruling).unwrap_or_else(|| panic!("{}: no ruling {}", path.display(), r.ruling));
        reached(p, d, &mut BTreeSet::new(), &mut used);
    }
    assert_eq!(missing(&used), Vec::<&str>::new(), "builtins no rendering's ruling uses");
}

#[test]
fn the_table_is_consistent() {
    for (i, &b) in Builtin::ALL.iter().enumerate() {
        assert_eq!(Builtin::from_name(b.name()), Some(b));
        assert!(!Builtin::ALL[..i].contains(&b), "`{}` twice", b.name());
        assert!(b.usage().starts_with(&format!("{}(", b.name())), "`{}`'s usage: {}", b.name(), b.usage());
        // A builtin the working words has its message in every message file.
        if let Some(id) = b.message() {
            for lang in ["en", "da", "sv", "nb"] {
                let path = Path::new("messages").join(format!("{lang}.ftl"));
                if let Ok(text) = std::fs::read_to_string(&path) {
                    assert!(
                        text.contains(&format!("{id} =")),
                        "{}: no message `{id}` for `{}`",
                        path.display(),
                        b.name()
                    );
                }
            }
        }
        // A builtin of one number to a number is one of the rounding builtins' kind.
        if let Kind::Number(f) = b.kind() {
            let seven = conditions::eval::num::Num::int(7);
            assert_eq!(f(seven).ok(), Some(seven), "`{}` of a whole number", b.name());
        }
    }
}

// ------------------------------------------------------------------ the two evaluators

use conditions::eval::fast::{self, Scratch, Stop};
use conditions::eval::{Outcome, rule};
use proptest::prelude::*;
use serde_json::{Value as J, json};

/// The builtins the compiled evaluator hands over to the interpreter, one by one and why.
const HANDED_OVER: &[(Builtin, &str)] = &[(Builtin::Apportion, "its ties, lots and their wording")];

fn test_book() -> &'static conditions::check::Checked {
    static BOOK: std::sync::OnceLock<conditions::check::Checked> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        conditions::loader::load("tests/rulebooks/builtins").unwrap_or_else(|e| panic!("{:?}", e.diagnostics))
    })
}

/// Every definition without parameters of the test rulebook, with the builtins it reaches.
fn compared() -> Vec<(DefId, BTreeSet<&'static str>)> {
    let p = &test_book().program;
    (0..p.defs.len() as DefId)
        .filter(|&d| p.defs[d as usize].params.is_empty())
        .map(|d| {
            let mut used = BTreeSet::new();
            reached(p, d, &mut BTreeSet::new(), &mut used);
            (d, used)
        })
        .collect()
}

#[test]
fn the_test_rulebook_reaches_every_builtin() {
    let mut all = BTreeSet::new();
    for (_, used) in compared() {
        all.extend(used);
    }
    assert_eq!(missing(&all), Vec::<&str>::new(), "builtins tests/rulebooks/builtins does not call");
}

const NAMES: [&str; 5] = ["Ash", "Birch", "Cedar", "Dogwood", "Elm"];

fn a_date() -> impl Strategy<Value = J> {
    (1896i64..2104, 1u32..=12, 1u32..=31).prop_map(|(y, m, d)| {
        let d = d.min(match m {
            2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        });
        json!(format!("{y:04}-{m:02}-{d:02}"))
    })
}

fn a_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(NAMES.to_vec())
}

/// `q` quarters, written as a decimal.
fn quarter(q: i64) -> String {
    let sign = if q < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", q.abs() / 4, (q.abs() % 4) * 25)
}

prop_compose! {
    fn facts()(
        start in a_date(),
        born in a_date(),
        meeting_day in -1i64..9,
        months_on in -40i64..40,
        scores in prop::collection::vec(-5i64..20, 0..7),
        par in -3i64..15,
        places in -1i64..6,
        quarters in -41i64..41,
        members in prop::collection::vec(0i64..6, 0..5),
        seats in -1i64..7,
        guests in prop::collection::vec(a_name(), 0..3),
        at_place in -1i64..6,
        team in a_name(),
        host in prop::option::of(a_name()),
        opening in prop::option::of(a_name()),
        tie in prop::option::of(prop::collection::vec(0usize..5, 0..3)),
        doors in (0u32..24, 0u32..60),
        start_hour in -1i64..26,
    ) -> J {
        let teams: Vec<J> = members.iter().zip(NAMES).map(|(m, n)| json!({ "name": n, "members": m })).collect();
        let mut f = json!({
            "start": start, "born": born, "meeting_day": meeting_day, "months_on": months_on,
            "scores": scores, "par": par, "places": places,
            "amount": quarter(quarters),
            "teams": teams.clone(), "seats": seats, "guests": guests, "at_place": at_place, "team": team,
            "doors": format!("{:02}:{:02}", doors.0, doors.1), "start_hour": start_hour,
        });
        if let Some(h) = host {
            f["host_lot"] = json!(h);
        }
        if let Some(o) = opening {
            f["opening"] = json!(o);
        }
        if let Some(t) = tie {
            let won: Vec<J> = t.iter().filter_map(|&i| teams.get(i).cloned()).collect();
            f["seat_tie"] = json!(won);
        }
        f
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// On generated facts, the compiled evaluator decides every definition of the test
    /// rulebook the interpreter decides, with the same value (but those that reach a builtin
    /// it hands over), and stops where the interpreter does not decide; ruled through the
    /// compiled evaluator, the outcome is the interpreter's.
    #[test]
    fn the_compiled_evaluator_agrees_with_the_interpreter_on_every_builtin(tree in facts()) {
        let p = &test_book().program;
        let inputs = conditions::facts::validate(p, &tree, "generated")
            .unwrap_or_else(|e| panic!("generated facts are valid: {e:?}\n{tree}"));
        let mut scratch = Scratch::default();
        for (def, used) in compared() {
            let name = &p.defs[def as usize].name;
            let handed = HANDED_OVER.iter().any(|(b, _)| used.contains(b.name()));
            let slow = rule(p, &inputs, def, false).outcome;
            let own = fast::evaluate(p, &inputs, def, &mut scratch);
            match (&own, &slow) {
                (Ok(v), Outcome::Decided(w)) => prop_assert_eq!(v, w, "`{}` on {}", name, tree),
                (Err(Stop::Halt), Outcome::Decided(_)) if handed => {}
                (Err(Stop::Unknown), Outcome::Undetermined(_)) => {}
                (Err(Stop::Halt), Outcome::Error(_) | Outcome::Undetermined(_)) => {}
                (own, slow) => prop_assert!(false, "`{}` on {}: compiled {:?}, interpreter {:?}", name, tree, own, slow),
            }
            let both = fast::rule(p, &inputs, def, &mut scratch).outcome;
            prop_assert_eq!(format!("{both:?}"), format!("{slow:?}"), "`{}` on {}", name, tree);
        }
    }
}
