//! Discovery: `list` shows every ruling; `describe` names every input a ruling reads
//! with its facts-file path and type (checked against the facts the case files'
//! rulings actually read); the JSON Schema of each rulebook validates every case file's
//! facts and rejects a value of the wrong type.

use conditions::cases::{CaseFile, find_cases};
use conditions::check::Checked;
use conditions::discover;
use serde_json::Value as J;
use std::collections::BTreeSet;
use std::path::Path;

fn load(name: &str) -> Checked {
    conditions::loader::load(name).unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostics))
}

fn case_facts(path: &Path) -> (CaseFile, J) {
    let text = std::fs::read_to_string(path).expect("readable");
    let case: CaseFile = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tree = conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts.clone())).expect("json"));
    (case, tree)
}

const GNT: &[&str] = &[
    "flights",
    "qualifiers",
    "qualifying_places",
    "substitute_permitted",
    "district_challenge_allowed",
    "residence_permits_play",
    "qualifies_without_playing",
    "national_finals_subsidy",
    "flights_throughout_season",
    "substitute_becomes_contestant_of_record",
];

const DBF: &[&str] = &[
    "s304.transportgodtgørelse",
    "s305.rettighedshavere",
    "s351.medlemstalsfordeling",
    "s305.substitution_tilladt",
    "s304.transportmidlet_giver_ret_til_godtgørelse",
    "s303.tilmeldingen_er_gyldig",
    "s303.holdets_spillerantal_tilladt",
    "s307.telefonstraf",
    "s304.overnatningsberettigede_spillere",
    "s321.spilleret_overtages_af",
];

#[test]
fn list_shows_every_ruling() {
    for name in ["gnt", "dbf"] {
        let book = load(name);
        let p = &book.program;
        let listed: BTreeSet<String> =
            discover::list(p, None, false).into_iter().filter(|e| e.kind == "ruling").map(|e| e.name).collect();
        let rulings: BTreeSet<String> = p.rulings().map(|(_, d)| d.name.clone()).collect();
        assert_eq!(listed, rulings, "{name}");
        assert!(rulings.len() > 50, "{name}: {} rulings", rulings.len());
        let all = discover::list(p, None, true);
        assert!(all.iter().any(|e| e.kind == "fact") && all.iter().any(|e| e.kind == "decision"), "{name}");
        let word = discover::list(p, Some("TRANSPORT"), false);
        assert!(word.iter().all(|e| e.name.contains("transport")
            || e.question.as_deref().unwrap_or_default().to_lowercase().contains("transport")));
    }
}

/// `team.players[2].masterpoints` → `team.players[].masterpoints`.
fn unindexed(path: &str) -> String {
    let mut out = String::new();
    let mut skip = false;
    for c in path.chars() {
        match c {
            '[' => {
                out.push('[');
                skip = true;
            }
            ']' => {
                out.push(']');
                skip = false;
            }
            _ if skip => {}
            _ => out.push(c),
        }
    }
    out
}

#[test]
fn describe_names_every_input_with_path_and_type() {
    for (name, wanted) in [("gnt", GNT), ("dbf", DBF)] {
        let book = load(name);
        let p = &book.program;
        for ruling in wanted.iter() {
            let def = p.def_by_name(ruling).unwrap_or_else(|| panic!("{name}: no ruling {ruling}"));
            let d = discover::describe(p, def);
            assert!(!d.inputs.is_empty(), "{ruling} reads nothing");
            assert!(!d.decided_by.is_empty(), "{ruling}: no deciding clause");
            for i in &d.inputs {
                assert!(!i.path.is_empty() && !i.ty.is_empty() && !i.write.is_empty(), "{ruling}: {i:?}");
            }
        }
        // Every fact a case's ruling reads is among the inputs `describe` names.
        let mut checked = 0;
        for path in find_cases(Path::new(&format!("conditions/{name}/cases"))) {
            let (case, tree) = case_facts(&path);
            let inputs = conditions::facts::validate(p, &tree, "case").expect("case facts fit");
            for exp in &case.expect {
                let Some(def) = p.def_by_name(&exp.ruling) else { continue };
                let described: BTreeSet<String> =
                    discover::describe(p, def).inputs.into_iter().map(|i| i.path).collect();
                let ruling = conditions::eval::rule(p, &inputs, def, true);
                for node in &ruling.trace.expect("traced").nodes {
                    for u in &node.facts {
                        let path = unindexed(u.path(p));
                        let named = described.iter().any(|d| {
                            *d == path || d.starts_with(&format!("{path}.")) || d.starts_with(&format!("{path}[]"))
                        });
                        assert!(named, "{}: `{}` reads `{path}`, not named by describe", name, exp.ruling);
                        checked += 1;
                    }
                    for d in &node.decisions {
                        let key = &p.decisions[*d as usize].name;
                        assert!(described.contains(key), "{}: `{}` reads `{key}`", name, exp.ruling);
                    }
                }
            }
        }
        assert!(checked > 100, "{name}: only {checked} facts read");
    }
}

/// Replaces the first boolean (or number) in the tree by a value of another type.
fn break_one(v: &mut J) -> bool {
    match v {
        J::Bool(_) => {
            *v = J::from(7);
            true
        }
        J::Number(_) => {
            *v = J::Bool(true);
            true
        }
        J::Object(m) => m.values_mut().any(break_one),
        J::Array(xs) => xs.iter_mut().any(break_one),
        _ => false,
    }
}

#[test]
fn schema_validates_every_case_file_and_rejects_a_wrong_type() {
    for name in ["gnt", "dbf"] {
        let book = load(name);
        let p = &book.program;
        let schema = discover::schema::schema(p, &[]).to_value();
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&schema)
            .unwrap_or_else(|e| panic!("{name}: not a valid schema: {e}"));
        let (mut valid, mut rejected) = (0, 0);
        for path in find_cases(Path::new(&format!("conditions/{name}/cases"))) {
            let (case, mut tree) = case_facts(&path);
            let errors: Vec<String> =
                validator.iter_errors(&tree).map(|e| format!("{e} at {}", e.instance_path())).collect();
            assert!(errors.is_empty(), "{}: {}", path.display(), errors.join("; "));
            valid += 1;
            // The schema for the case's rulings alone accepts it too.
            let defs: Vec<u32> = case.expect.iter().filter_map(|e| p.def_by_name(&e.ruling)).collect();
            let narrow = discover::schema::schema(p, &defs).to_value();
            assert!(jsonschema::validator_for(&narrow).expect("valid").is_valid(&tree), "{}", path.display());
            if break_one(&mut tree) {
                assert!(!validator.is_valid(&tree), "{}: a wrong type was accepted", path.display());
                rejected += 1;
            }
        }
        assert!(valid > 100 && rejected > 100, "{name}: {valid} valid, {rejected} rejected");
    }
}

#[test]
fn templates_are_facts_files() {
    for (name, rulings) in [("gnt", GNT), ("dbf", DBF)] {
        let book = load(name);
        let p = &book.program;
        for ruling in rulings.iter() {
            let def = p.def_by_name(ruling).expect("ruling");
            for format in
                [conditions::facts::Format::Json, conditions::facts::Format::Toml, conditions::facts::Format::Yaml]
            {
                let text = discover::template::template(p, &[def], format);
                let tree = conditions::facts::parse(&text, format, ruling)
                    .unwrap_or_else(|d| panic!("{ruling} {format:?}: {}\n{text}", d.message));
                if let Err(e) = conditions::facts::validate_open(p, &tree, ruling) {
                    panic!("{ruling} {format:?}: {:?}\n{text}", e.iter().map(|d| &d.message).collect::<Vec<_>>());
                }
            }
        }
    }
}

/// Stage 1 D decides `flights` ("The 2007-2008 GNT competition is divided into four
/// categories"), but which flights are open is said by ¶2 ("Championship Flight (unlimited
/// masterpoints)") to ¶5 ("Flight C will be open to Non-Life Masters with fewer than 500
/// masterpoints"), through `eligible`, and General Information 2 fixes the masterpoints and
/// rank read ("September 1, 2007 masterpoint cycle also marks the cutoff date").
#[test]
fn describe_names_the_clauses_deciding_the_definitions_read() {
    let book = conditions::loader::load("gnt").expect("loads");
    let p = &book.program;
    let d = discover::describe(p, p.def_by_name("flights").expect("ruling"));
    assert_eq!(d.decided_by, ["Stage 1 D"]);
    let through: Vec<(String, Vec<String>)> =
        d.decided_through.iter().map(|t| (t.definition.clone(), t.clauses.clone())).collect();
    let s = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert!(
        through.contains(&("eligible".into(), s(&["Stage 1 D ¶2", "Stage 1 D ¶3", "Stage 1 D ¶4", "Stage 1 D ¶5"])))
    );
    assert!(through.contains(&("cutoff_masterpoints".into(), s(&["General Information 2"]))));
    assert!(through.contains(&("cutoff_life_master".into(), s(&["General Information 2"]))));
    assert_eq!(through.len(), 3, "{through:?}");
}
