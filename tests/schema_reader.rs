//! The facts schema and the facts reader agree: facts of every declared type, in every
//! accepted written form and in many refused ones, get the same verdict from the JSON
//! Schema (checked with the `jsonschema` crate) and from the reader (`rule --facts`'s
//! open reading), for both bundled rulebooks. Templates are valid against the schema in
//! every format and never empty; JSON numbers in exponent form are read exactly.

use conditions::check::Checked;
use conditions::check::program::{Program, TypeKind};
use conditions::check::types::Type;
use conditions::discover;
use conditions::facts::{self, Format};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value as J;

fn load(name: &str) -> Checked {
    conditions::loader::load(name).unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostics))
}

fn validator(p: &Program) -> jsonschema::Validator {
    let schema = discover::schema::schema(p, &[]).to_value();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .unwrap_or_else(|e| panic!("not a valid schema: {e}"))
}

/// The reader's verdict on a facts file's JSON text, and its messages; a value outside
/// its declared bound counts as read (the schema leaves bounds to the reader).
fn reader(p: &Program, text: &str) -> Result<(), String> {
    let tree = facts::parse(text, Format::Json, "facts.json").map_err(|d| d.message)?;
    match facts::validate_open(p, &tree, "facts.json") {
        Ok(_) => Ok(()),
        Err(e) if e.iter().all(|d| d.code == "conditions::fact_out_of_range") => Ok(()),
        Err(e) => Err(e.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; ")),
    }
}

/// The schema's verdict on the same text.
fn schema_ok(v: &jsonschema::Validator, text: &str) -> Result<(), String> {
    let tree: J = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let errors: Vec<String> = v.iter_errors(&tree).map(|e| format!("{e} at {}", e.instance_path())).collect();
    if errors.is_empty() { Ok(()) } else { Err(errors.join("; ")) }
}

/// A JSON value as text; numbers keep the text they are generated with (`1e3`).
fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

/// JSON numbers in their written forms: whole, decimal, exponent.
fn json_number() -> BoxedStrategy<String> {
    prop_oneof![
        (-3000i64..3000).prop_map(|n| n.to_string()),
        "-?[0-9]{1,4}\\.[0-9]{1,3}",
        "-?[1-9](\\.[0-9]{1,2})?[eE][+-]?[0-5]",
        Just("0".to_string()),
    ]
    .boxed()
}

/// Texts near the written forms of numbers, amounts, durations, dates and times, valid
/// and not: separators of every language, percent signs, fractions, unit words of the
/// facts file and of the printed forms, prefixes, and junk.
fn number_text() -> BoxedStrategy<String> {
    let unit = prop_oneof![
        Just(""),
        Just(" DKK"),
        Just(" USD"),
        Just(" kr."),
        Just(" minutes"),
        Just(" minute"),
        Just(" min"),
        Just(" minutter"),
        Just(" timer"),
        Just(" hours"),
        Just(" dage"),
        Just(" days"),
        Just(" weeks"),
        Just(" uger"),
        Just(" km"),
        Just(" DKK per km"),
        Just(" kr. pr. km"),
        Just(" lots"),
        Just(" EUR"),
    ];
    let prefix = prop_oneof![Just(""), Just(""), Just(""), Just("$"), Just("DKK "), Just("-")];
    let body = prop_oneof![
        "[0-9]{1,4}",
        "[0-9]{1,3}[.,\u{a0}][0-9]{3}([.,][0-9]{1,2})?",
        "[0-9]{1,4}[.,][0-9]{1,3}",
        "[0-9]{1,3}/[0-9]{1,2}",
        "[0-9]{1,3}%",
        "[0-9]{1,2}\\.0{1,2}",
        "(lots|many|)",
        "1e3",
    ];
    (prefix, body, unit).prop_map(|(a, b, c)| format!("{a}{b}{c}")).boxed()
}

fn moment_text() -> BoxedStrategy<String> {
    let date = (0u32..10000, 0u32..14, 0u32..33).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"));
    let time = (0u32..26, 0u32..62, prop_oneof![Just(""), Just(":00"), Just(":30")])
        .prop_map(|(h, m, s)| format!("{h}:{m:02}{s}"));
    let time2 = (0u32..26, 0u32..62).prop_map(|(h, m)| format!("{h:02}:{m:02}"));
    prop_oneof![
        date.clone(),
        (2000u32..2010, 1u32..13, 1u32..32).prop_map(|(y, m, d)| format!("{y}-{m:02}-{d:02}")),
        prop_oneof![Just(1900u32), Just(2000), Just(2008), Just(2009), Just(2100)].prop_map(|y| format!("{y}-02-29")),
        time.clone(),
        time2.clone(),
        (date, prop_oneof![Just(" "), Just("T"), Just("  "), Just("x")], time2)
            .prop_map(|(d, s, t)| format!("{d}{s}{t}")),
        (2000u32..2010, 1u32..13, 1u32..29, time).prop_map(|(y, m, d, t)| format!("{y}-{m:02}-{d:02} {t}")),
    ]
    .boxed()
}

/// Any scalar, as JSON text: the names of `p`'s enum variants among the texts.
fn scalar(p: &Program) -> BoxedStrategy<String> {
    let mut names: Vec<String> = vec!["lots".into(), String::new()];
    for t in &p.types {
        if let TypeKind::Enum(vs) = &t.kind {
            names.extend(vs.iter().map(|v| v.name.clone()));
            names.extend(vs.iter().filter_map(|v| v.label.clone()));
        }
    }
    prop_oneof![
        Just("null".to_string()),
        any::<bool>().prop_map(|b| b.to_string()),
        json_number(),
        json_number(),
        number_text().prop_map(|s| quote(&s)),
        number_text().prop_map(|s| quote(&s)),
        number_text().prop_map(|s| quote(&format!(" {s} "))),
        moment_text().prop_map(|s| quote(&s)),
        proptest::sample::select(names).prop_map(|s| quote(&s)),
    ]
    .boxed()
}

/// A value for a slot of type `ty`: mostly shaped like it (a record's fields, a list's
/// items), its leaves any scalar.
fn value(p: &'static Program, ty: &Type, depth: usize) -> BoxedStrategy<String> {
    match ty {
        Type::Record(t) if depth < 3 => {
            let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return scalar(p) };
            let fields: Vec<BoxedStrategy<Option<(String, String)>>> = fs
                .iter()
                .map(|f| {
                    let name = f.name.clone();
                    proptest::option::of(value(p, &f.ty, depth + 1).prop_map(move |v| (name.clone(), v))).boxed()
                })
                .collect();
            let extra = proptest::option::weighted(0.05, scalar(p).prop_map(|v| ("no_such_field".to_string(), v)));
            prop_oneof![
                9 => (fields, extra).prop_map(|(fs, extra)| {
                    let parts: Vec<String> =
                        fs.into_iter().flatten().chain(extra).map(|(k, v)| format!("{}: {v}", quote(&k))).collect();
                    format!("{{{}}}", parts.join(", "))
                }),
                1 => scalar(p),
            ]
            .boxed()
        }
        Type::List(e) if depth < 3 => prop_oneof![
            9 => proptest::collection::vec(value(p, e, depth + 1), 0..3).prop_map(|xs| format!("[{}]", xs.join(", "))),
            1 => scalar(p),
        ]
        .boxed(),
        _ => scalar(p),
    }
}

/// The facts and decisions a facts file may give, by name and type.
fn slots(p: &Program) -> Vec<(String, Type)> {
    let facts = p.facts.iter().map(|f| (f.name.clone(), f.ty.clone()));
    let decisions = p.decisions.iter().map(|d| (d.name.clone(), d.ty.clone()));
    facts.chain(decisions).collect()
}

/// One facts file: one or two slots, a dotted name sometimes under its section's key.
fn facts_file(p: &'static Program) -> BoxedStrategy<String> {
    let slots = slots(p);
    proptest::sample::select(slots)
        .prop_flat_map(move |(name, ty)| {
            (Just(name), value(p, &ty, 0), any::<bool>()).prop_map(|(name, v, nest)| match name.split_once('.') {
                Some((section, short)) if nest && p.sections.sections.contains_key(section) => {
                    format!("{{{}: {{{}: {v}}}}}", quote(section), quote(short))
                }
                _ => format!("{{{}: {v}}}", quote(&name)),
            })
        })
        .boxed()
}

fn agree(name: &str, cases: u32) -> (usize, usize) {
    agree_on(name, load(name), cases)
}

fn agree_on(name: &str, book: Checked, cases: u32) -> (usize, usize) {
    let book: &'static Checked = Box::leak(Box::new(book));
    let p = &book.program;
    let v = validator(p);
    // The schema of one ruling's inputs takes the rest of the rulebook's facts too.
    let ruling = p.rulings().map(|(d, _)| d).next().expect("a ruling");
    let narrow = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&discover::schema::schema(p, &[ruling]).to_value())
        .expect("a valid schema");
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let (accepted, refused) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    runner
        .run(&facts_file(p), |text| {
            let (r, s) = (reader(p, &text), schema_ok(&v, &text));
            prop_assert_eq!(r.is_ok(), s.is_ok(), "{}\nreader: {:?}\nschema: {:?}", text, r, s);
            let n = schema_ok(&narrow, &text);
            prop_assert_eq!(r.is_ok(), n.is_ok(), "{}\nreader: {:?}\none ruling's schema: {:?}", text, r, n);
            if r.is_ok() {
                accepted.set(accepted.get() + 1);
            } else {
                refused.set(refused.get() + 1);
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    (accepted.get(), refused.get())
}

#[test]
fn schema_and_reader_agree_on_gnt_facts() {
    let (a, r) = agree("gnt", 3000);
    assert!(a > 300 && r > 300, "gnt: {a} accepted, {r} refused");
}

#[test]
fn schema_and_reader_agree_on_test_rulebooks() {
    for name in ["tests/rulebooks/round_robin", "tests/rulebooks/fares"] {
        let (a, r) = agree(name, 1500);
        assert!(a > 100 && r > 100, "{name}: {a} accepted, {r} refused");
    }
}

#[test]
fn schema_and_reader_agree_on_dbf_facts() {
    let (a, r) = agree("dbf", 3000);
    assert!(a > 300 && r > 300, "dbf: {a} accepted, {r} refused");
}

/// A rulebook with a fact of every value type, times and moments among them.
#[test]
fn schema_and_reader_agree_on_every_type() {
    let text = "rulebook \"t\" { title \"t\" language \"en\" }\n\
        type K = enum { Open \"open\", Closed \"closed for now\" }\n\
        type R = record { n: int \"n\", q?: number \"q\", at?: time \"at\", k?: K \"k\" }\n\
        clause \"1\" {\n  text \"t\"\n\
          fact i: int \"i\"\n  fact ib: int in 0..=10 \"ib\"\n  fact x: number \"x\"\n\
          fact money: DKK \"money\"\n  fact usd: USD \"usd\"\n  fact dist: km \"dist\"\n\
          fact rate: DKK per km \"rate\"\n  fact d: duration \"d\"\n  fact day: date \"day\"\n\
          fact clock: time \"clock\"\n  fact moment: datetime \"moment\"\n  fact k: K \"k\"\n\
          fact name: text \"name\"\n  fact yes: bool \"yes\"\n  fact r: R \"r\"\n  fact rs: list of R \"rs\"\n\
          fact ds: list of duration \"ds\"\n\
          ruling any: bool \"any\" = yes\n}\n";
    let mut map = conditions::source::SourceMap::new();
    map.add("t.cond", text.to_string());
    let book = conditions::check::check_sources(map);
    let errors: Vec<_> = book.diagnostics.iter().filter(|d| d.is_error()).map(|d| &d.message).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let (a, r) = agree_on("every type", book, 4000);
    assert!(a > 300 && r > 300, "every type: {a} accepted, {r} refused");
}

/// The crafted facts of the issue, each with the verdict both must give.
#[test]
fn crafted_facts_get_one_verdict() {
    let book = load("gnt");
    let p = &book.program;
    let v = validator(p);
    let player = |field: &str, value: &str| format!(r#"{{"player": {{"{field}": {value}}}}}"#);
    // A key that names nothing of the rulebook, in the schema of any ruling.
    let lots = r#"{"masterpoints": "lots"}"#;
    assert!(reader(p, lots).is_err());
    for (def, info) in p.rulings().step_by(20) {
        let schema = discover::schema::schema(p, &[def]).to_value();
        let v = jsonschema::validator_for(&schema).expect("valid");
        assert!(!v.is_valid(&serde_json::from_str(lots).expect("json")), "{}", info.name);
    }
    for (text, ok) in [
        (player("masterpoints", r#""lots""#), false),
        (player("masterpoints", r#""2,150""#), false),
        (player("masterpoints", "1e3"), true),
        (player("masterpoints", r#""2150.5""#), true),
        (player("masterpoints", "null"), true),
        (player("residence_district", r#""3.5""#), false),
        (player("residence_district", "3.5"), false),
        (player("residence_district", r#""17""#), true),
        (player("residence_district", "1.7e1"), true),
        (r#"{"player": {}}"#.to_string(), true),
        (r#"{"player": null}"#.to_string(), true),
    ] {
        assert_eq!(reader(p, &text).is_ok(), ok, "reader on {text}: {:?}", reader(p, &text));
        assert_eq!(schema_ok(&v, &text).is_ok(), ok, "schema on {text}: {:?}", schema_ok(&v, &text));
    }
}

/// A JSON number in exponent form is the exact number it writes; an absurd exponent is
/// refused with its reason.
#[test]
fn exponent_numbers_are_read_exactly() {
    let book = load("gnt");
    let p = &book.program;
    let fact = |value: &str| {
        let tree =
            facts::parse(&format!(r#"{{"player": {{"masterpoints": {value}}}}}"#), Format::Json, "f").expect("parses");
        facts::validate_open(p, &tree, "f")
    };
    for (text, want) in [("1e3", "1000"), ("2.5e-1", "1/4"), ("25E-2", "1/4"), ("-1.5e+2", "-150")] {
        let inputs = fact(text).unwrap_or_else(|e| panic!("{text}: {:?}", e[0].message));
        let shown = format!("{:?}", inputs.facts.iter().flatten().next().expect("the player"));
        let want = conditions::eval::num::Num::parse(want).expect("a number");
        assert!(shown.contains(&format!("{want:?}")), "{text}: {shown}, not {want:?}");
    }
    for text in ["1e999", "1e-999", "1e401"] {
        let e = fact(text).expect_err(text);
        let help = e[0].help.clone().unwrap_or_default();
        assert!(help.contains("exponent") || help.contains("too large"), "{text}: {} ({help})", e[0].message);
    }
}

/// Every ruling's template, in every format, is a facts file the reader takes and the
/// schema of those rulings accepts, and is never empty.
#[test]
fn templates_are_valid_against_the_schema() {
    for name in ["gnt", "dbf"] {
        let book = load(name);
        let p = &book.program;
        let mut checked = 0;
        // The schema of some rulings checks every key as the whole rulebook's does (the
        // agreement tests check one); building one for each of the 200 rulings is slow.
        let v = validator(p);
        for (def, info) in p.rulings() {
            for format in [Format::Json, Format::Toml, Format::Yaml] {
                let text = discover::template::template(p, &[def], format);
                let what = format!("{name} {} {format:?}", info.name);
                assert!(!text.trim().is_empty(), "{what}: an empty template");
                let tree = facts::parse(&text, format, "t").unwrap_or_else(|d| panic!("{what}: {}\n{text}", d.message));
                if let Err(e) = facts::validate_open(p, &tree, "t") {
                    panic!("{what}: {:?}\n{text}", e.iter().map(|d| &d.message).collect::<Vec<_>>());
                }
                let errors: Vec<String> =
                    v.iter_errors(&tree).map(|e| format!("{e} at {}", e.instance_path())).collect();
                assert!(errors.is_empty(), "{what}: {}\n{text}", errors.join("; "));
                checked += 1;
            }
        }
        assert!(checked > 100, "{name}: {checked} templates");
    }
}
