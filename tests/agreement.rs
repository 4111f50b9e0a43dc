//! The two evaluators agree: the compiled one (`eval::fast`) and the interpreter rule
//! every case file's rulings and rulings on facts generated from the declarations, and
//! give the same answer — decided values, undetermined with the same needs, silence and
//! errors. Where the compiled evaluator stops on its own, what it says must be true: a
//! value is the interpreter's value, an *unknown* is an undetermined ruling.

use conditions::cases::find_cases;
use conditions::check::program::{DefId, Program};
use conditions::check::{Checked, check_read};
use conditions::eval::fast::{self, Scratch, Stop};
use conditions::eval::interp::Inputs;
use conditions::eval::num::Num;
use conditions::eval::{Outcome, rule};
use conditions::loader::{find_rulebooks, read_rulebook};
use proptest::prelude::*;
#[path = "support/generate.rs"]
mod generate;
use generate::{Constants, constants, generated};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The rulebooks compared: both bundled ones and the test rulebooks of orderings.
const BOOKS: [&str; 4] = ["gnt", "dbf", "round_robin", "cascade"];

fn book_dir(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if matches!(name, "round_robin" | "cascade") {
        root.join("tests/rulebooks").join(name)
    } else {
        root.join("conditions").join(name)
    }
}

fn book(name: &str) -> &'static Checked {
    static BOOK: [OnceLock<Checked>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let cell = &BOOK[BOOKS.iter().position(|b| *b == name).expect("a compared rulebook")];
    cell.get_or_init(|| {
        let b = find_rulebooks(&book_dir(name)).expect("rulebook").remove(0);
        let (sources, problems) = read_rulebook(&b);
        let c = check_read(sources, problems);
        assert!(!c.has_errors(), "{name} checks");
        c
    })
}

#[derive(Default, Debug)]
struct Tally {
    ruled: usize,
    /// Decided by the interpreter, and by the compiled evaluator on its own.
    decided: usize,
    decided_fast: usize,
}

/// Rules `def` both ways and compares; panics with `what` on a disagreement.
fn agree(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch, tally: &mut Tally, what: &str) {
    let name = &p.defs[def as usize].name;
    let slow = rule(p, inputs, def, false).outcome;
    let own = fast::evaluate(p, inputs, def, scratch);
    match (&own, &slow) {
        (Ok(v), Outcome::Decided(w)) => assert_eq!(v, w, "{what}: `{name}` decided differently"),
        (Ok(v), other) => panic!("{what}: `{name}`: compiled decided {v:?}, interpreter {other:?}"),
        (Err(Stop::Unknown), Outcome::Undetermined(_)) | (Err(Stop::Halt), _) => {}
        (Err(Stop::Unknown), other) => panic!("{what}: `{name}`: compiled unknown, interpreter {other:?}"),
    }
    // The ruling as callers get it: the same outcome, needs, silence and error included.
    let both = fast::rule(p, inputs, def, scratch).outcome;
    assert_eq!(format!("{both:?}"), format!("{slow:?}"), "{what}: `{name}`");
    tally.ruled += 1;
    if matches!(slow, Outcome::Decided(_)) {
        tally.decided += 1;
        tally.decided_fast += usize::from(own.is_ok());
    }
}

fn case_inputs(p: &Program, case: &Path) -> Option<(Inputs, Vec<String>)> {
    let text = std::fs::read_to_string(case).ok()?;
    let raw = conditions::facts::read::toml(&text).ok()?;
    let tree = raw.get("facts").cloned().unwrap_or_else(|| serde_json::json!({}));
    let asked = raw.get("expect")?.as_array()?.iter().filter_map(|e| Some(e.get("ruling")?.as_str()?.to_string()));
    Some((conditions::facts::validate(p, &tree, "case").ok()?, asked.collect()))
}

#[test]
fn every_case_file_every_ruling() {
    for name in BOOKS {
        let p = &book(name).program;
        let mut scratch = Scratch::default();
        let mut tally = Tally::default();
        let cases = find_cases(&book_dir(name).join("cases"));
        assert!(cases.len() >= 4, "{name}: case files found");
        for case in &cases {
            let Some((inputs, asked)) = case_inputs(p, case) else { continue };
            // The rulings asked for, then every ruling and definition without parameters
            // on the same facts: one scratch reused throughout, as a batch does.
            let mut defs: Vec<DefId> = asked.iter().filter_map(|a| p.def_by_name(a)).collect();
            defs.extend(p.defs.iter().enumerate().filter(|(_, d)| d.params.is_empty()).map(|(i, _)| i as DefId));
            for def in defs {
                agree(p, &inputs, def, &mut scratch, &mut tally, &case.display().to_string());
            }
        }
        eprintln!("{name}: {tally:?}");
        // On every rulebook compared the compiled evaluator decides on its own nearly
        // everything the interpreter does (the rest, apportionments, it leaves to the
        // interpreter).
        assert!(tally.decided_fast * 10 >= tally.decided * 9, "{name}: {tally:?}");
    }
}

// ------------------------------------------------------------------ generated facts

fn agree_on_generated(name: &str, seed: u64, gap: usize) {
    static CONSTANTS: OnceLock<Vec<Constants>> = OnceLock::new();
    let all = CONSTANTS.get_or_init(|| {
        BOOKS.iter().map(|b| constants(&book(b).program, &[Num::ratio(1, 3).unwrap_or(Num::ONE)])).collect()
    });
    let p = &book(name).program;
    let k = &all[BOOKS.iter().position(|b| *b == name).expect("a compared rulebook")];
    let inputs = generated(p, k, seed, gap);
    let mut scratch = Scratch::default();
    let mut tally = Tally::default();
    for (def, _) in p.rulings() {
        agree(p, &inputs, def, &mut scratch, &mut tally, &format!("{name}, seed {seed}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generated_facts_gnt(seed in any::<u64>(), gap in prop_oneof![Just(3usize), Just(8), Just(1000)]) {
        agree_on_generated("gnt", seed, gap);
    }

    #[test]
    fn generated_facts_dbf(seed in any::<u64>(), gap in prop_oneof![Just(3usize), Just(8), Just(1000)]) {
        agree_on_generated("dbf", seed, gap);
    }

    #[test]
    fn generated_facts_round_robin(seed in any::<u64>(), gap in prop_oneof![Just(3usize), Just(8), Just(1000)]) {
        agree_on_generated("round_robin", seed, gap);
    }

    #[test]
    fn generated_facts_cascade(seed in any::<u64>(), gap in prop_oneof![Just(3usize), Just(8), Just(1000)]) {
        agree_on_generated("cascade", seed, gap);
    }
}

// ------------------------------------------------------------------ lent items, shared exceptions

/// Lambdas nested over lists of the facts (whose items are read in place) and over lists
/// built while ruling (whose items are copied), an inner lambda reading the outer one's
/// item, a definition called from a lambda, a definition that only reads a fact, and an
/// exception shared by two rule trees of a definition without parameters: both evaluators
/// on facts worked out by hand.
#[test]
fn nested_lambdas_and_shared_exceptions() {
    let mut map = conditions::source::SourceMap::new();
    map.add(
        "t.cond",
        r#"rulebook "t" { title "t" language "en" }
type P = record { name: text, town: text, km: int }
fact ps: list of P
fact towns: list of text
fact limit: int
def limit_alias: int = limit
def same_town(p: P): int = count(ps, q => q.town == p.town)
ruling crowded: list of text = map(filter(ps, p => count(ps, q => q.town == p.town and q.km > p.km) > 0), p => p.name)
ruling far: list of text = map(filter(ps, p => p.km > limit_alias), p => p.name)
ruling via_call: list of int = map(ps, p => same_town(p))
ruling nested_owned: int = count(filter(ps, p => p.km > 0), p => any(map(ps, q => q.town), t => t == p.town and p.km < limit))
ruling all_towns_known: bool = all(ps, p => any(towns, t => t == p.town))
ruling shared: int
rule plain: shared = 1
rule e1: shared = 2 when limit > 10 overrides plain, e2
rule e2: shared = 3 when limit > 5 overrides plain
"#,
    );
    let c = conditions::check::check_sources(map);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let p = &c.program;
    let ps = serde_json::json!([
        {"name": "a", "town": "X", "km": 5},
        {"name": "b", "town": "X", "km": 9},
        {"name": "c", "town": "Y", "km": 3},
    ]);
    let mut scratch = Scratch::default();
    let mut tally = Tally::default();
    let texts = |xs: &[&str]| {
        conditions::eval::value::Value::list(
            xs.iter().map(|x| conditions::eval::value::Value::Text((*x).into())).collect(),
        )
    };
    let ints = |xs: &[i128]| {
        conditions::eval::value::Value::list(xs.iter().map(|&x| conditions::eval::value::Value::int(x)).collect())
    };
    let cases = [
        (serde_json::json!({"ps": ps, "towns": ["X"], "limit": 7}), Some(7)),
        (serde_json::json!({"ps": ps, "towns": ["X", "Y"], "limit": 20}), Some(20)),
        (serde_json::json!({"ps": ps, "towns": []}), None),
    ];
    for (facts, limit) in cases {
        let inputs = conditions::facts::validate(p, &facts, "case").expect("facts fit");
        for (def, _) in p.rulings() {
            agree(p, &inputs, def, &mut scratch, &mut tally, &format!("limit {limit:?}"));
        }
        let value = |name: &str| match rule(p, &inputs, p.def_by_name(name).expect("ruling"), false).outcome {
            Outcome::Decided(v) => Some(v),
            _ => None,
        };
        // a (X, 5 km) shares X with b (9 km), who is farther; c (Y) is alone.
        assert_eq!(value("crowded"), Some(texts(&["a"])));
        assert_eq!(value("via_call"), Some(ints(&[2, 2, 1])));
        match limit {
            Some(7) => {
                assert_eq!(value("far"), Some(texts(&["b"])));
                // a and c are under 7 km in a town of the list; b is not.
                assert_eq!(value("nested_owned"), Some(conditions::eval::value::Value::int(2)));
                assert_eq!(value("all_towns_known"), Some(conditions::eval::value::Value::Bool(false)));
                assert_eq!(value("shared"), Some(conditions::eval::value::Value::int(3)));
            }
            Some(_) => {
                assert_eq!(value("far"), Some(texts(&[])));
                assert_eq!(value("nested_owned"), Some(conditions::eval::value::Value::int(3)));
                assert_eq!(value("all_towns_known"), Some(conditions::eval::value::Value::Bool(true)));
                assert_eq!(value("shared"), Some(conditions::eval::value::Value::int(2)));
            }
            None => {
                assert_eq!(value("far"), None);
                assert_eq!(value("shared"), None);
            }
        }
    }
    assert_eq!(tally.decided, tally.decided_fast, "{tally:?}");
}

// ------------------------------------------------------------------ resolved when compiled

/// The paths decided when the program is compiled: comparisons of two held operands
/// (texts, numbers, enums), a one-rule definition called with a held argument (lent to
/// its frame) and with a computed one, `filter`, `map` and `distinct` inside an aggregate
/// read as references to the facts' items (`most` with a tie, `max` over an empty list),
/// and `filter` over an enum with a dispatched body unrolled; on facts worked out by hand,
/// with missing facts among them.
#[test]
fn resolved_when_compiled() {
    let mut map = conditions::source::SourceMap::new();
    map.add(
        "t.cond",
        r#"rulebook "t" { title "t" language "en" }
type P = record { name: text, town: text, km: int }
type Colour = enum {
  Red "red",
  Green "green",
  Blue "blue",
}
fact ps: list of P
fact limit: int
fact home: text
fact colour: Colour
def open(c: Colour): bool
rule red_open: open(Red) = true
rule green_open: open(Green) = limit > 5
rule blue_open: open(Blue) = home == "X" and limit < 100
ruling open_colours: list of Colour = filter(Colour, c => open(c))
def living_in(t: text): int = count(ps, p => p.town == t)
ruling busiest: list of text = most(distinct(map(ps, p => p.town)), t => living_in(t))
ruling farthest_home: int = max(map(filter(ps, p => p.town == home), p => p.km))
ruling towns: int = count(distinct(map(ps, p => p.town)))
ruling at_home: int = living_in(home)
ruling computed: int = living_in(if limit > 5 then "X" else "Y")
ruling is_red: bool = colour == Red
ruling near: list of text = map(filter(ps, p => p.km <= limit), p => p.name)
def home_or_q: text = if limit > 0 then home else "Q"
ruling at_home_or_q: int = count(ps, p => p.town == home_or_q)
ruling farthest_home_or_q: int = max(map(filter(ps, p => home_or_q == p.town), p => p.km))
"#,
    );
    let c = conditions::check::check_sources(map);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let p = &c.program;
    use conditions::eval::value::Value;
    let texts = |xs: &[&str]| Value::list(xs.iter().map(|x| Value::Text((*x).into())).collect());
    let three = serde_json::json!([
        {"name": "a", "town": "X", "km": 5},
        {"name": "b", "town": "X", "km": 9},
        {"name": "c", "town": "Y", "km": 3},
    ]);
    let tie = serde_json::json!([
        {"name": "a", "town": "X", "km": 5},
        {"name": "c", "town": "Y", "km": 3},
    ]);
    let mut scratch = Scratch::default();
    let mut tally = Tally::default();
    let cases = [
        (serde_json::json!({"ps": three, "limit": 7, "home": "X", "colour": "Red"}), 1),
        (serde_json::json!({"ps": tie, "limit": 3, "home": "Z", "colour": "Blue"}), 2),
        (serde_json::json!({"ps": []}), 3),
        (serde_json::json!({"ps": three, "home": "X"}), 4),
    ];
    for (facts, case) in cases {
        let inputs = conditions::facts::validate(p, &facts, "case").expect("facts fit");
        for (def, _) in p.rulings() {
            agree(p, &inputs, def, &mut scratch, &mut tally, &format!("case {case}"));
        }
        let value = |name: &str| match rule(p, &inputs, p.def_by_name(name).expect("ruling"), false).outcome {
            Outcome::Decided(v) => Some(v),
            _ => None,
        };
        let variants = |v: Option<Value>| match v {
            Some(Value::List(xs)) => {
                Some(xs.iter().map(|x| if let Value::Enum(_, i) = x { *i } else { 99 }).collect::<Vec<_>>())
            }
            _ => None,
        };
        match case {
            1 => {
                // Green: 7 > 5; Blue: home X and 7 < 100.
                assert_eq!(variants(value("open_colours")), Some(vec![0, 1, 2]));
                // X has two players, Y one.
                assert_eq!(value("busiest"), Some(texts(&["X"])));
                assert_eq!(value("farthest_home"), Some(Value::int(9)));
                assert_eq!(value("towns"), Some(Value::int(2)));
                assert_eq!(value("at_home"), Some(Value::int(2)));
                assert_eq!(value("computed"), Some(Value::int(2)));
                assert_eq!(value("is_red"), Some(Value::Bool(true)));
                assert_eq!(value("near"), Some(texts(&["a", "c"])));
                // limit 7 > 0: the home town X.
                assert_eq!(value("at_home_or_q"), Some(Value::int(2)));
                assert_eq!(value("farthest_home_or_q"), Some(Value::int(9)));
            }
            2 => {
                // Green: 3 > 5 is false; Blue: home is Z.
                assert_eq!(variants(value("open_colours")), Some(vec![0]));
                // One player in each town: a tie, both in list order.
                assert_eq!(value("busiest"), Some(texts(&["X", "Y"])));
                // Nobody lives in Z: the maximum of nothing is no value.
                assert_eq!(value("farthest_home"), None);
                assert_eq!(value("at_home"), Some(Value::int(0)));
                // limit 3 is not over 5: town Y, one player.
                assert_eq!(value("computed"), Some(Value::int(1)));
                assert_eq!(value("is_red"), Some(Value::Bool(false)));
                assert_eq!(value("near"), Some(texts(&["c"])));
                assert_eq!(value("at_home_or_q"), Some(Value::int(0)));
                assert_eq!(value("farthest_home_or_q"), None);
            }
            4 => {
                // Without the limit the town compared with is not known: neither is the
                // count, though everything that does not read the limit is.
                assert_eq!(value("at_home_or_q"), None);
                assert_eq!(value("farthest_home_or_q"), None);
                assert_eq!(value("busiest"), Some(texts(&["X"])));
                assert_eq!(value("at_home"), Some(Value::int(2)));
                assert_eq!(value("computed"), None);
                assert_eq!(value("near"), None);
            }
            _ => {
                // Green and Blue wait for the limit (and the home town).
                assert_eq!(variants(value("open_colours")), None);
                assert_eq!(value("towns"), Some(Value::int(0)));
                assert_eq!(value("at_home"), None);
                assert_eq!(value("computed"), None);
                assert_eq!(value("is_red"), None);
                // An empty list needs no limit.
                assert_eq!(value("near"), Some(texts(&[])));
                assert_eq!(value("at_home_or_q"), Some(Value::int(0)));
                assert_eq!(value("farthest_home_or_q"), None);
            }
        }
    }
    assert!(tally.decided_fast * 10 >= tally.decided * 9, "{tally:?}");
}
