//! What the benchmarks share: the bundled rulebooks checked, facts read from JSON, and the
//! facts of the two rulings every ratio is measured on (GNT flights, DBF § 304B1).

#![allow(dead_code)]

use conditions::check::{Checked, check_sources};
use conditions::eval::interp::Inputs;

/// A bundled rulebook, checked (it has no errors).
pub fn book(name: &str) -> Checked {
    let c = check_sources(conditions::loader::bundled(name).expect("bundled"));
    assert!(!c.has_errors(), "{name} has errors");
    c
}

/// Facts given as JSON, read for the rulebook.
pub fn inputs(c: &Checked, json: &str) -> Inputs {
    let tree: serde_json::Value = serde_json::from_str(json).expect("json");
    conditions::facts::validate(&c.program, &tree, "bench").expect("facts fit")
}

/// A GNT player, for the flights he may enter.
pub const GNT_PLAYER: &str = r#"{"player": {"name": "Robin", "masterpoints": 2150, "life_master": true}}"#;
/// A DBF team's journey, for its transport reimbursement (§ 304B1).
pub const DBF_304: &str = r#"{"s304.turnering": "Anden_turnering304", "s304.propositionerne_yder_transportgodtgørelse": true, "s304.kilometersats": "2.00 DKK per km", "s304.bro_og_færgeafgift": "125 DKK", "s304.afstand_uden_for_danmark": "0 km", "s304.rejse_til_eller_fra_bornholm": false, "s304.afstande_til_spillestedet": [{"by": "Kolding", "afstand": "142 km"}, {"by": "Vejle", "afstand": "120 km"}], "s304.rejsehold": {"navn": "Kolding BK 1", "spillere": [{"navn": "Anne", "bopæl": "Kolding"}, {"navn": "Bent", "bopæl": "Kolding"}, {"navn": "Carl", "bopæl": "Kolding"}, {"navn": "Dorte", "bopæl": "Vejle"}]}}"#;
