//! The compiled evaluator's own shapes, ruled on small rulebooks over every combination of
//! their inputs and compared with answers worked out by hand and with the interpreter:
//! chains of `and` / `or` (compiled as one, with three-valued logic where an operand is
//! missing or silent), comparison lambdas scanned without a call for each item (an empty
//! list, a missing field, a missing value compared with), `map` of a field, `most` with a
//! tie, definitions worked out once or kept, exceptions judged together or alone (guards
//! beginning with the same read, or with `not`), sums, differences, products and
//! comparisons with a constant over every kind of number operand, and more values built
//! in one ruling than the pile kept from ruling to ruling holds.

use conditions::check::{Checked, check_sources};
use conditions::eval::fast::{self, Scratch, Stop};
use conditions::eval::value::Value;
use conditions::eval::{Outcome, rule};
use conditions::source::SourceMap;
use serde_json::{Value as J, json};

fn book(clauses: &str) -> Checked {
    let text = format!("rulebook \"t\" {{ title \"t\" language \"en\" }}\n{clauses}");
    let mut map = SourceMap::new();
    map.add("t.cond", text);
    let c = check_sources(map);
    assert!(!c.has_errors(), "the test rulebook checks: {:?}", c.diagnostics);
    c
}

/// Rules `name` both ways on `facts`: the compiled evaluator's own result, after checking
/// that what it says is what the interpreter says (a value is the interpreter's value, an
/// unknown an undetermined ruling).
fn both(c: &Checked, name: &str, facts: &J, scratch: &mut Scratch) -> Result<Value, Stop> {
    let p = &c.program;
    let def = p.def_by_name(name).expect("the definition");
    let inputs = conditions::facts::validate(p, facts, "test").expect("the facts fit");
    let own = fast::evaluate(p, &inputs, def, scratch);
    let slow = rule(p, &inputs, def, false).outcome;
    match (&own, &slow) {
        (Ok(v), Outcome::Decided(w)) => assert_eq!(v, w, "{name} on {facts}"),
        (Ok(v), other) => panic!("{name} on {facts}: compiled {v:?}, interpreter {other:?}"),
        (Err(Stop::Unknown), Outcome::Undetermined(_)) | (Err(Stop::Halt), _) => {}
        (Err(Stop::Unknown), other) => panic!("{name} on {facts}: compiled unknown, interpreter {other:?}"),
    }
    own
}

/// An operand of the logic test: true, false, missing, or silent (a definition no rule of
/// which applies).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Three {
    T,
    F,
    Missing,
    Silent,
}

const ALL: [Three; 4] = [Three::T, Three::F, Three::Missing, Three::Silent];

/// Facts making `x_<i>` come to each operand: `given_<i>` is the fact, `on_<i>` says
/// whether the rule of `x_<i>` applies at all (silence when it does not).
fn operands(xs: &[Three]) -> J {
    let mut m = serde_json::Map::new();
    for (i, x) in xs.iter().enumerate() {
        match x {
            Three::T => {
                m.insert(format!("given_{i}"), json!(true));
                m.insert(format!("on_{i}"), json!(true));
            }
            Three::F => {
                m.insert(format!("given_{i}"), json!(false));
                m.insert(format!("on_{i}"), json!(true));
            }
            Three::Missing => {
                m.insert(format!("on_{i}"), json!(true));
            }
            Three::Silent => {
                m.insert(format!("given_{i}"), json!(true));
                m.insert(format!("on_{i}"), json!(false));
            }
        }
    }
    J::Object(m)
}

/// Three-valued `and` (or `or`, with `short` true) of operands in order, by hand: an operand
/// that decides on its own decides; otherwise silence or a missing input leaves it open.
fn by_hand(xs: &[Three], short: bool) -> Option<bool> {
    let decides = if short { Three::T } else { Three::F };
    if xs.contains(&decides) {
        return Some(short);
    }
    if xs.iter().all(|x| matches!(x, Three::T | Three::F)) { Some(!short) } else { None }
}

#[test]
fn chains_of_and_and_or_as_three_valued_logic() {
    let c = book(
        r#"
        clause "1" {
          text "t"
          fact given_0: bool "a"
          fact given_1: bool "b"
          fact given_2: bool "c"
          fact on_0: bool "whether a applies"
          fact on_1: bool "whether b applies"
          fact on_2: bool "whether c applies"
          def x_0: bool "a"
          rule r0: x_0 = given_0 when on_0
          def x_1: bool "b"
          rule r1: x_1 = given_1 when on_1
          def x_2: bool "c"
          rule r2: x_2 = given_2 when on_2
          ruling all_left: bool "a and b and c" = x_0 and x_1 and x_2
          ruling all_right: bool "a and (b and c)" = x_0 and (x_1 and x_2)
          ruling any_left: bool "a or b or c" = x_0 or x_1 or x_2
          ruling any_right: bool "a or (b or c)" = x_0 or (x_1 or x_2)
          ruling mixed: bool "(a and b) or c" = x_0 and x_1 or x_2
          ruling negated: bool "not a and not b" = not x_0 and not x_1
        }
        "#,
    );
    let mut scratch = Scratch::default();
    let mut decided = 0;
    for a in ALL {
        for b in ALL {
            for x in ALL {
                let xs = [a, b, x];
                let facts = operands(&xs);
                for (name, short) in
                    [("all_left", false), ("all_right", false), ("any_left", true), ("any_right", true)]
                {
                    let got = both(&c, name, &facts, &mut scratch);
                    match by_hand(&xs, short) {
                        Some(v) => {
                            assert_eq!(got, Ok(Value::Bool(v)), "{name} of {xs:?}");
                            decided += 1;
                        }
                        // Open: a missing input without silence is unknown; silence is a halt.
                        None if xs.contains(&Three::Silent) => assert_eq!(got, Err(Stop::Halt), "{name} of {xs:?}"),
                        None => assert_eq!(got, Err(Stop::Unknown), "{name} of {xs:?}"),
                    }
                }
                both(&c, "mixed", &facts, &mut scratch).ok();
                both(&c, "negated", &facts, &mut scratch).ok();
            }
        }
    }
    // 4 × 64 rulings; by hand, those decided: the 64 − 27 with an operand that decides on its
    // own (27 have none of the 3 others), and the one with all three the other value.
    assert_eq!(decided, 4 * (64 - 27 + 1));
}

const TEAM: &str = r#"
    clause "1" {
      text "t"
      type Player = record {
        name: text,
        town?: text "where the player lives",
        points?: int "the player's points",
      }
      fact players: list of Player "the team's players"
      fact town: text "the town asked about"
      ruling living_in: int "how many live in the town" = count(players, p => p.town == town)
      ruling living_elsewhere: list of Player "those who live elsewhere" = filter(players, p => p.town != town)
      ruling all_there: bool "whether all live there" = all(players, p => town == p.town)
      ruling any_there: bool "whether any lives there" = any(players, p => p.town == town)
      ruling towns: list of text "the players' towns" = map(players, p => p.town)
      ruling home: list of text "the towns most players live in" =
          most(distinct(map(players, p => p.town)), t => count(players, p => p.town == t))
      ruling doubled: list of int "each player's points, doubled" = map(players, p => p.points * 2)
      ruling total: int "the points doubled, added" = sum(doubled)
      ruling top_points: int "the most points" = max(map(players, p => p.points))
      def twice(p: Player): int "the player's points, doubled" = p.points * 2
      def living(t: text): int "how many live in the town" = count(players, p => p.town == t)
      ruling total_twice: int "the points doubled through a definition, added" = sum(players, p => twice(p))
      ruling crowded: list of text "the towns where two or more live" =
          filter(distinct(map(players, p => p.town)), t => living(t) >= 2)
    }
"#;

fn player(name: &str, town: Option<&str>, points: Option<i64>) -> J {
    let mut m = serde_json::Map::new();
    m.insert("name".into(), json!(name));
    if let Some(t) = town {
        m.insert("town".into(), json!(t));
    }
    if let Some(p) = points {
        m.insert("points".into(), json!(p));
    }
    J::Object(m)
}

fn texts(xs: &[&str]) -> Value {
    Value::list(xs.iter().map(|t| Value::Text((*t).into())).collect())
}

#[test]
fn scans_and_projections_worked_out_by_hand() {
    let c = book(TEAM);
    let mut s = Scratch::default();
    let team = json!([
        player("Anne", Some("Kolding"), Some(3)),
        player("Bent", Some("Vejle"), Some(5)),
        player("Carl", Some("Kolding"), Some(1)),
    ]);
    let facts = json!({"players": team, "town": "Kolding"});
    assert_eq!(both(&c, "living_in", &facts, &mut s), Ok(Value::int(2)));
    // The interpreter's steps, by hand: `count` 1 and `players` 1, then for each of the three
    // players the comparison 1, `p.town` 2 (the field and `p`) and `town` 1; with a trace too.
    let inputs = conditions::facts::validate(&c.program, &facts, "test").expect("the facts fit");
    let def = c.program.def_by_name("living_in").expect("the ruling");
    for traced in [false, true] {
        assert_eq!(rule(&c.program, &inputs, def, traced).steps, 2 + 3 * 4, "traced: {traced}");
    }
    let elsewhere = both(&c, "living_elsewhere", &facts, &mut s).expect("decided");
    assert_eq!(elsewhere.as_list().map(<[Value]>::len), Some(1));
    assert_eq!(both(&c, "all_there", &facts, &mut s), Ok(Value::Bool(false)));
    assert_eq!(both(&c, "any_there", &facts, &mut s), Ok(Value::Bool(true)));
    assert_eq!(both(&c, "towns", &facts, &mut s), Ok(texts(&["Kolding", "Vejle", "Kolding"])));
    assert_eq!(both(&c, "home", &facts, &mut s), Ok(texts(&["Kolding"])));
    assert_eq!(both(&c, "total", &facts, &mut s), Ok(Value::int(18)));
    assert_eq!(both(&c, "top_points", &facts, &mut s), Ok(Value::int(5)));
    // Definitions with a parameter, called from lambdas (compiled into the caller).
    assert_eq!(both(&c, "total_twice", &facts, &mut s), Ok(Value::int(18)));
    assert_eq!(both(&c, "crowded", &facts, &mut s), Ok(texts(&["Kolding"])));

    // A tie for the home town: both towns, in the order first met.
    let tie = json!({"players": [player("A", Some("Vejle"), Some(1)), player("B", Some("Odense"), Some(1))], "town": "Vejle"});
    assert_eq!(both(&c, "home", &tie, &mut s), Ok(texts(&["Vejle", "Odense"])));

    // An empty team: nothing compared, so the missing town does not matter.
    let empty = json!({"players": []});
    assert_eq!(both(&c, "living_in", &empty, &mut s), Ok(Value::int(0)));
    assert_eq!(both(&c, "all_there", &empty, &mut s), Ok(Value::Bool(true)));
    assert_eq!(both(&c, "any_there", &empty, &mut s), Ok(Value::Bool(false)));

    // The town missing: every comparison open.
    let no_town = json!({"players": team});
    assert_eq!(both(&c, "living_in", &no_town, &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "any_there", &no_town, &mut s), Err(Stop::Unknown));

    // One player's town missing: a count is open; `any` is decided by the one who lives
    // there, `all` by the one who does not.
    let gap = json!({"players": [player("A", None, Some(1)), player("B", Some("Vejle"), Some(2)), player("C", Some("Kolding"), Some(3))], "town": "Kolding"});
    assert_eq!(both(&c, "living_in", &gap, &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "any_there", &gap, &mut s), Ok(Value::Bool(true)));
    assert_eq!(both(&c, "all_there", &gap, &mut s), Ok(Value::Bool(false)));
    assert_eq!(both(&c, "towns", &gap, &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "total", &gap, &mut s), Ok(Value::int(12)));
    assert_eq!(both(&c, "total_twice", &gap, &mut s), Ok(Value::int(12)));
    // A's town missing: `map` of the towns is open, so is the list of crowded towns.
    assert_eq!(both(&c, "crowded", &gap, &mut s), Err(Stop::Unknown));
    let no_points =
        json!({"players": [player("A", Some("Vejle"), None), player("B", Some("Vejle"), Some(2))], "town": "Vejle"});
    assert_eq!(both(&c, "total_twice", &no_points, &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "crowded", &no_points, &mut s), Ok(texts(&["Vejle"])));
}

#[test]
fn more_values_built_than_the_pile_holds() {
    // 200 players' doubled points: 200 numbers built in one ruling, past the cells kept
    // from ruling to ruling; by hand, 2 × (1 + 2 + … + 200) = 40,200.
    let c = book(TEAM);
    let mut s = Scratch::default();
    let team: Vec<J> = (1..=200).map(|i| player(&format!("P{i}"), Some("Kolding"), Some(i))).collect();
    let facts = json!({"players": team, "town": "Kolding"});
    for _ in 0..3 {
        assert_eq!(both(&c, "total", &facts, &mut s), Ok(Value::int(40_200)));
        let doubled = both(&c, "doubled", &facts, &mut s).expect("decided");
        assert_eq!(doubled.as_list().and_then(|l| l.last()).cloned(), Some(Value::int(400)));
        assert_eq!(both(&c, "living_in", &facts, &mut s), Ok(Value::int(200)));
    }
}

#[test]
fn a_result_kept_in_one_ruling_is_not_read_in_the_next() {
    // The same scratch for rulings on different facts, one after the other: each ruling's
    // results worked out anew (an earlier ruling's kept result would give the wrong town).
    let c = book(TEAM);
    let mut s = Scratch::default();
    for (town, expected) in [("Kolding", 2), ("Vejle", 1), ("Odense", 0), ("Kolding", 2)] {
        let facts = json!({"players": [
            player("Anne", Some("Kolding"), Some(3)),
            player("Bent", Some("Vejle"), Some(5)),
            player("Carl", Some("Kolding"), Some(1)),
        ], "town": town});
        assert_eq!(both(&c, "living_in", &facts, &mut s), Ok(Value::int(expected)), "{town}");
        assert_eq!(both(&c, "home", &facts, &mut s), Ok(texts(&["Kolding"])));
    }
}

/// Three-valued `and` by hand: false if any is false, else open if any is missing.
fn and3(xs: &[Option<bool>]) -> Option<bool> {
    if xs.contains(&Some(false)) {
        Some(false)
    } else if xs.contains(&None) {
        None
    } else {
        Some(true)
    }
}

/// A clause with the facts `l`, `a`, `b` and `n`, the definition `lead` (`l and n > 0`),
/// and `rules`.
fn with_lab(rules: &str) -> String {
    format!(
        r#"
        clause "1" {{
          text "t"
          fact l: bool "the lead"
          fact a: bool "a"
          fact b: bool "b"
          fact n: int "n"
          def lead: bool "the lead, worked out" = l and n > 0
          {rules}
        }}
        "#
    )
}

/// The facts `n = 10` and `l`, `a`, `b` as given (one that is `None` left out).
fn lab(l: Option<bool>, a: Option<bool>, b: Option<bool>) -> J {
    let mut facts = serde_json::Map::new();
    facts.insert("n".into(), json!(10));
    for (k, v) in [("l", l), ("a", a), ("b", b)] {
        if let Some(v) = v {
            facts.insert(k.into(), json!(v));
        }
    }
    J::Object(facts)
}

/// What a rule `n + 1` (n = 10) comes to beside exceptions whose guards come to `guards`,
/// each with its value: the exception that applies wins (at most one can); else one that
/// may apply leaves the ruling open (`None`); else the rule, 11.
fn beside_exceptions(guards: &[(Option<bool>, i128)]) -> Option<i128> {
    let applies = guards.iter().find(|(g, _)| *g == Some(true)).map(|(_, v)| *v);
    let open = guards.iter().any(|(g, _)| g.is_none());
    applies.or(if open { None } else { Some(11) })
}

/// Rules `name` both ways and checks it against `expected`; which outcome it was (0 the
/// rule, 1 an exception, 2 left open).
fn ruled_as(c: &Checked, name: &str, facts: &J, expected: Option<i128>, scratch: &mut Scratch) -> usize {
    let got = both(c, name, facts, scratch);
    match expected {
        Some(v) => assert_eq!(got, Ok(Value::int(v)), "{name} on {facts}"),
        None => assert_eq!(got, Err(Stop::Unknown), "{name} on {facts}"),
    }
    match expected {
        Some(11) => 0,
        Some(_) => 1,
        None => 2,
    }
}

#[test]
fn exceptions_whose_guards_begin_alike_worked_out_by_hand() {
    // The exceptions of `x` all begin with the definition `lead`, those of `y` with the fact
    // `l`: judged together, and passed over together when that is false.
    let c = book(&with_lab(
        r#"
          ruling x: int "x"
          rule base: x = n + 1
          rule e1: x = 2 when lead and a and not b overrides base
          rule e2: x = 3 when lead and b and not a overrides base
          rule e3: x = 4 when lead and not a and not b overrides base
          ruling y: int "y"
          rule base_y: y = n + 1
          rule f1: y = 2 when l and a and not b overrides base_y
          rule f2: y = 3 when l and b and not a overrides base_y
          rule f3: y = 4 when l and not a and not b overrides base_y
            "#,
    ));
    let mut scratch = Scratch::default();
    let mut counts = [0; 3];
    every_lab(|l, a, b, facts| {
        let guards = [(and3(&[l, a, not(b)]), 2), (and3(&[l, b, not(a)]), 3), (and3(&[l, not(a), not(b)]), 4)];
        let expected = beside_exceptions(&guards);
        for name in ["x", "y"] {
            counts[ruled_as(&c, name, facts, expected, &mut scratch)] += 1;
        }
    });
    // Every outcome is seen: the rule alone, an exception, and a ruling left open.
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
}

/// Three-valued `not` by hand.
fn not(x: Option<bool>) -> Option<bool> {
    x.map(|v| !v)
}

/// `f` on every combination of `l`, `a` and `b` true, false or missing, with the facts
/// that give them ([`lab`]).
fn every_lab(mut f: impl FnMut(Option<bool>, Option<bool>, Option<bool>, &J)) {
    let three = [Some(true), Some(false), None];
    for l in three {
        for a in three {
            for b in three {
                f(l, a, b, &lab(l, a, b));
            }
        }
    }
}

/// A ruling's name, and each of its exceptions' guard as worked out by hand with the value
/// it gives.
type Guarded = (&'static str, Vec<(Option<bool>, i128)>);

#[test]
fn single_exceptions_and_negated_first_reads_worked_out_by_hand() {
    // Exceptions alone in their rule's tree, and guards beginning with `not x`: a guard is
    // false when its first read makes it so, whatever follows (`not x and …` when `x` is
    // true), and the steps counted are never fewer than the interpreter's.
    let c = book(&with_lab(
        r#"
          ruling z: int "z"
          rule base_z: z = n + 1
          rule g1: z = 2 when l and a overrides base_z
          ruling w: int "w"
          rule base_w: w = n + 1
          rule h1: w = 3 when not l and a overrides base_w
          ruling v: int "v"
          rule base_v: v = n + 1
          rule k1: v = 4 when not lead and b and not a overrides base_v
          rule k2: v = 5 when not lead and a and not b overrides base_v
          ruling u: int "u"
          rule base_u: u = n + 1
          rule m1: u = 6 when not lead overrides base_u
            "#,
    ));
    let mut scratch = Scratch::default();
    let mut seen = [0; 3];
    every_lab(|l, a, b, facts| {
        // With n = 10, `lead` is `l`.
        let cases: [Guarded; 4] = [
            ("z", vec![(and3(&[l, a]), 2)]),
            ("w", vec![(and3(&[not(l), a]), 3)]),
            ("v", vec![(and3(&[not(l), b, not(a)]), 4), (and3(&[not(l), a, not(b)]), 5)]),
            ("u", vec![(not(l), 6)]),
        ];
        for (name, guards) in cases {
            let expected = beside_exceptions(&guards);
            seen[ruled_as(&c, name, facts, expected, &mut scratch)] += 1;
            // The steps counted are at least the interpreter's.
            if expected.is_some() {
                let p = &c.program;
                let def = p.def_by_name(name).expect("the ruling");
                let inputs = conditions::facts::validate(p, facts, "test").expect("the facts fit");
                let own = fast::rule(p, &inputs, def, &mut scratch).steps;
                let slow = rule(p, &inputs, def, false).steps;
                assert!(own >= slow, "{name} on {facts}: {own} steps against {slow}");
            }
        }
    });
    // Every outcome is seen: the rule alone, an exception, and a ruling left open.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// `most` / `least` of the distinct towns by how many players live in each, worked out in
/// one pass (`tally`), beside the same question asked through a filter the pass does not
/// take, the interpreter, and the answer by hand.
const TOWNS: &str = r#"
    clause "1" {
      text "t"
      type Player = record { name: text, town?: text "where the player lives" }
      fact players: list of Player "the team's players"
      def living(t: text): int "how many live in the town" = count(players, p => p.town == t)
      ruling home: list of text "the towns most players live in" =
          most(distinct(map(players, p => p.town)), t => living(t))
      ruling home_direct: list of text "the same, the count written out" =
          most(distinct(map(players, p => p.town)), t => count(players, p => t == p.town))
      ruling rarest: list of text "the towns fewest players live in" =
          least(distinct(map(players, p => p.town)), t => living(t))
      ruling crowded: list of text "the towns two or more live in" =
          filter(distinct(map(players, p => p.town)), t => living(t) >= 2)
    }
"#;

#[test]
fn most_and_least_by_a_count_of_the_same_list_worked_out_by_hand() {
    let c = book(TOWNS);
    let mut s = Scratch::default();
    let team = |towns: &[Option<&str>]| {
        let players: Vec<J> = towns.iter().enumerate().map(|(i, t)| player(&format!("P{i}"), *t, None)).collect();
        json!({ "players": players })
    };
    let k = Some("Kolding");
    let v = Some("Vejle");
    let o = Some("Odense");
    // Kolding 3, Vejle 1: Kolding most, Vejle least.
    let f = team(&[k, k, v, k]);
    assert_eq!(both(&c, "home", &f, &mut s), Ok(texts(&["Kolding"])));
    assert_eq!(both(&c, "home_direct", &f, &mut s), Ok(texts(&["Kolding"])));
    assert_eq!(both(&c, "rarest", &f, &mut s), Ok(texts(&["Vejle"])));
    // Vejle 2, Odense 2, Kolding 1: a tie, in the order first met.
    let f = team(&[v, o, k, o, v]);
    assert_eq!(both(&c, "home", &f, &mut s), Ok(texts(&["Vejle", "Odense"])));
    assert_eq!(both(&c, "home_direct", &f, &mut s), Ok(texts(&["Vejle", "Odense"])));
    assert_eq!(both(&c, "rarest", &f, &mut s), Ok(texts(&["Kolding"])));
    assert_eq!(both(&c, "crowded", &f, &mut s), Ok(texts(&["Vejle", "Odense"])));
    // One player: one town.
    let f = team(&[o]);
    assert_eq!(both(&c, "home", &f, &mut s), Ok(texts(&["Odense"])));
    // No players: no towns.
    let f = team(&[]);
    assert_eq!(both(&c, "home", &f, &mut s), Ok(texts(&[])));
    assert_eq!(both(&c, "rarest", &f, &mut s), Ok(texts(&[])));
    // A town missing: the towns are open.
    let f = team(&[k, None, v]);
    assert_eq!(both(&c, "home", &f, &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "home_direct", &f, &mut s), Err(Stop::Unknown));
    // Twelve towns, more than the pass keeps: T3 twice, every other once.
    let names: Vec<String> = (0..12).map(|i| format!("T{i}")).collect();
    let mut towns: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
    towns.push(Some("T3"));
    let f = team(&towns);
    assert_eq!(both(&c, "home", &f, &mut s), Ok(texts(&["T3"])));
    let rarest: Vec<&str> = names.iter().map(String::as_str).filter(|n| *n != "T3").collect();
    assert_eq!(both(&c, "rarest", &f, &mut s), Ok(texts(&rarest)));
    // Never fewer steps than the interpreter counts.
    let p = &c.program;
    for facts in [team(&[k, k, v, k]), team(&[v, o, k, o, v]), f] {
        let inputs = conditions::facts::validate(p, &facts, "test").expect("the facts fit");
        for name in ["home", "home_direct", "rarest"] {
            let def = p.def_by_name(name).expect("the definition");
            let (fast, slow) = (fast::rule(p, &inputs, def, &mut s), rule(p, &inputs, def, false));
            assert!(fast.steps >= slow.steps, "{name}: {} steps against {}", fast.steps, slow.steps);
        }
    }
}

#[test]
fn membership_in_a_list_of_variants_worked_out_by_hand() {
    let c = book(
        r#"
        clause "1" {
          text "t"
          type Event = enum { League "the league", Cup "the cup", Pairs "the pairs", Teams "the teams" }
          fact event: Event "the event"
          ruling team_event: bool "whether it is a team event" = event in [League, Cup, Teams]
        }
        "#,
    );
    let mut s = Scratch::default();
    for (event, expected) in [("League", true), ("Cup", true), ("Pairs", false), ("Teams", true)] {
        assert_eq!(both(&c, "team_event", &json!({ "event": event }), &mut s), Ok(Value::Bool(expected)), "{event}");
    }
    assert_eq!(both(&c, "team_event", &json!({}), &mut s), Err(Stop::Unknown));
}

#[test]
fn numbers_compared_with_a_constant_on_either_side_worked_out_by_hand() {
    let c = book(
        r#"
        clause "1" {
          text "t"
          fact n: int "n"
          fact xs: list of int "some numbers"
          ruling above: bool "5 below n" = 5 < n
          ruling at_least: bool "n at least 5" = n >= 5
          ruling many: bool "more than one number" = count(xs) > 1
          ruling not_above: bool "n at most 5, written the other way" = 5 >= n
          ruling over_ten: int "how far n is over 10, never below 0" = max(0, n - 10)
          ruling capped: int "n, at most 7" = min(n, 7, 9)
        }
        "#,
    );
    let mut s = Scratch::default();
    for n in [4, 5, 6] {
        let f = json!({ "n": n, "xs": [] });
        assert_eq!(both(&c, "above", &f, &mut s), Ok(Value::Bool(n > 5)), "5 < {n}");
        assert_eq!(both(&c, "at_least", &f, &mut s), Ok(Value::Bool(n >= 5)), "{n} >= 5");
        assert_eq!(both(&c, "not_above", &f, &mut s), Ok(Value::Bool(n <= 5)), "5 >= {n}");
    }
    // By hand: max(0, n − 10) and min(n, 7, 9).
    for (n, over, cap) in [(4, 0, 4), (12, 2, 7), (7, 0, 7)] {
        let f = json!({ "n": n, "xs": [] });
        assert_eq!(both(&c, "over_ten", &f, &mut s), Ok(Value::int(over)), "max(0, {n} - 10)");
        assert_eq!(both(&c, "capped", &f, &mut s), Ok(Value::int(cap)), "min({n}, 7, 9)");
    }
    assert_eq!(both(&c, "over_ten", &json!({}), &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "capped", &json!({}), &mut s), Err(Stop::Unknown));
    for (xs, expected) in [(json!([]), false), (json!([7]), false), (json!([7, 7]), true)] {
        assert_eq!(both(&c, "many", &json!({ "xs": xs }), &mut s), Ok(Value::Bool(expected)), "{xs}");
    }
    assert_eq!(both(&c, "above", &json!({}), &mut s), Err(Stop::Unknown));
    assert_eq!(both(&c, "many", &json!({}), &mut s), Err(Stop::Unknown));
}

#[test]
fn lists_built_again_in_later_rulings_keep_what_was_given_out() {
    // A list a ruling built and no one holds any more is filled again by a later ruling;
    // one still held (the answer given out) is never touched.
    let c = book(TOWNS);
    let mut s = Scratch::default();
    let team = |towns: &[&str]| {
        let players: Vec<J> = towns.iter().enumerate().map(|(i, t)| player(&format!("P{i}"), Some(t), None)).collect();
        json!({ "players": players })
    };
    let first = both(&c, "home", &team(&["Kolding", "Kolding", "Vejle"]), &mut s);
    assert_eq!(first, Ok(texts(&["Kolding"])));
    for _ in 0..3 {
        assert_eq!(both(&c, "home", &team(&["Vejle", "Odense", "Vejle"]), &mut s), Ok(texts(&["Vejle"])));
        assert_eq!(both(&c, "home", &team(&["Odense"]), &mut s), Ok(texts(&["Odense"])));
        assert_eq!(both(&c, "home", &team(&["Vejle", "Odense"]), &mut s), Ok(texts(&["Vejle", "Odense"])));
        assert_eq!(
            both(&c, "crowded", &team(&["Aarhus", "Aarhus", "Vejle", "Vejle"]), &mut s),
            Ok(texts(&["Aarhus", "Vejle"]))
        );
        // Dropped at once: its list may be filled again by the next ruling.
        let _ = both(&c, "home", &team(&["Aabenraa"]), &mut s);
    }
    // The first answer is as it was given.
    assert_eq!(first, Ok(texts(&["Kolding"])));
}

/// The operand kinds of a sum, difference or product, each with its value by hand when
/// `a` = 7, `b` = 5 and `xs` = [1, 2] are given: a constant, a fact, a definition read in
/// many places (kept), one read in one place only (not kept; a definition of its own for
/// each use), an operation, and the length of a list; and whether it is known when `a` is
/// not given.
fn operand_kinds(use_no: &mut usize, defs: &mut String) -> Vec<(String, i128, bool)> {
    *use_no += 1;
    let once = format!("once_{use_no}");
    defs.push_str(&format!("def {once}: int \"b plus 4, read once\" = b + 4\n"));
    vec![
        ("3".into(), 3, true),
        ("a".into(), 7, false),
        ("kept".into(), 10, true),
        (once, 9, true),
        ("(a - 1)".into(), 6, false),
        ("count(xs)".into(), 2, true),
    ]
}

/// An operation by hand, and a comparison with 7 by hand.
type Op = fn(i128, i128) -> i128;
type Holds = fn(i128) -> bool;

#[test]
fn arithmetic_and_comparisons_over_every_kind_of_operand_worked_out_by_hand() {
    // Each pair of operand kinds under each operation, and each kind against a constant
    // under each comparison: the value by hand, or unknown when an operand reads `a` and
    // `a` is not given.
    let mut defs = String::new();
    let mut uses = 0;
    let mut cases: Vec<(String, Option<Value>, Option<Value>)> = Vec::new();
    let ops: [(&str, Op); 3] = [("+", |x, y| x + y), ("-", |x, y| x - y), ("*", |x, y| x * y)];
    for (i, (sym, f)) in ops.iter().enumerate() {
        for (j, (x, xv, x_without_a)) in operand_kinds(&mut uses, &mut defs).into_iter().enumerate() {
            for (k, (y, yv, y_without_a)) in operand_kinds(&mut uses, &mut defs).into_iter().enumerate() {
                let name = format!("op_{i}_{j}_{k}");
                defs.push_str(&format!("ruling {name}: int \"{x} {sym} {y}\" = {x} {sym} {y}\n"));
                let without_a = (x_without_a && y_without_a).then(|| Value::int(f(xv, yv)));
                cases.push((name, Some(Value::int(f(xv, yv))), without_a));
            }
        }
    }
    let cmps: [(&str, Holds); 6] = [
        ("==", |v| v == 7),
        ("!=", |v| v != 7),
        ("<", |v| v < 7),
        ("<=", |v| v <= 7),
        (">", |v| v > 7),
        (">=", |v| v >= 7),
    ];
    for (i, (sym, holds)) in cmps.iter().enumerate() {
        for (j, (x, xv, x_without_a)) in operand_kinds(&mut uses, &mut defs).into_iter().enumerate() {
            let name = format!("cmp_{i}_{j}");
            defs.push_str(&format!("ruling {name}: bool \"{x} {sym} 7\" = {x} {sym} 7\n"));
            cases.push((name, Some(Value::Bool(holds(xv))), x_without_a.then(|| Value::Bool(holds(xv)))));
        }
    }
    let c = book(&format!(
        "clause \"1\" {{\n text \"t\"\n fact a: int \"a\"\n fact b: int \"b\"\n fact xs: list of int \"xs\"\n \
         def kept: int \"b doubled, read in many places\" = b * 2\n{defs}}}"
    ));
    let mut s = Scratch::default();
    let given = json!({ "a": 7, "b": 5, "xs": [1, 2] });
    let without_a = json!({ "b": 5, "xs": [1, 2] });
    for (name, expected, expected_without_a) in &cases {
        assert_eq!(both(&c, name, &given, &mut s).ok(), *expected, "{name}");
        match expected_without_a {
            Some(v) => assert_eq!(both(&c, name, &without_a, &mut s), Ok(v.clone()), "{name} without a"),
            None => assert_eq!(both(&c, name, &without_a, &mut s), Err(Stop::Unknown), "{name} without a"),
        }
    }
    assert_eq!(cases.len(), 3 * 36 + 6 * 6);
}
