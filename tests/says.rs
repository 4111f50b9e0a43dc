//! The phrases an explanation names values by: a `says` phrase on a fact or field (beside
//! its value in an equation and in a record), the head of a description where there is no
//! `says`, and a parameter named by what it stands for. Expected sentences worked out by hand.

use conditions::eval::show::Lang;
use conditions::explain::{Explainer, text};

fn brief(ruling: &str, facts: &str) -> String {
    let book = conditions::loader::load("tests/rulebooks/fares").expect("the fares rulebook loads");
    let p = &book.program;
    let tree: toml::Value = toml::from_str(facts).expect("facts");
    let tree = serde_json::to_value(tree).expect("json");
    let inputs = conditions::facts::validate(p, &tree, "facts").expect("valid facts");
    let def = p.def_by_name(ruling).expect("ruling");
    let r = conditions::eval::rule(p, &inputs, def, true);
    text::render(&Explainer { p, sources: &book.sources, lang: Lang::En, inputs: &inputs }.report(&r, false), false)
}

const FACTS: &str = r#"
rate = "2.00 DKK per km"
toll = "125 DKK"
leg = { town = "Kolding", km_one_way = "187.4 km" }
"#;

#[test]
fn an_equation_names_its_terms_by_their_phrases() {
    let out = brief("refund", FACTS);
    // 2 × 187.4 km × 2.00 = 749.60; + 125 toll; − 100 km × 2.00 = 200 own share: 674.60.
    assert!(out.contains("2 × 187.4 km (distance) × DKK 2.00 per km + DKK 125 (toll) − DKK 200 = DKK 674.60"), "{out}");
    // No `says`: the head of the description, up to its first colon.
    assert!(out.contains("  the own share: DKK 200 [1]"), "{out}");
    assert!(!out.contains("the kilometres times the rate: DKK 200"), "{out}");
}

#[test]
fn a_parameter_is_named_by_what_it_stands_for() {
    let out = brief("long_trip", FACTS);
    assert!(out.contains("the distance one way is 187.4 km, which is more than 50 km"), "{out}");
    // The described argument is left to the working, not repeated in the step's heading.
    assert!(out.contains("  whether the journey is long: yes [1]"), "{out}");
}

#[test]
fn a_record_shows_its_fields_by_their_phrases() {
    let book = conditions::loader::load("tests/rulebooks/fares").expect("loads");
    let p = &book.program;
    let tree = serde_json::to_value(toml::from_str::<toml::Value>(FACTS).expect("facts")).expect("json");
    let inputs = conditions::facts::validate(p, &tree, "facts").expect("valid facts");
    let leg = p.facts.iter().position(|f| f.name == "leg").expect("leg");
    let v = inputs.facts[leg].as_ref().expect("given");
    let shown = conditions::eval::show::value(p, v, &p.facts[leg].ty, Lang::En);
    assert_eq!(shown, "town Kolding; distance 187.4 km");
}
