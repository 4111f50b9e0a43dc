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
