//! The sample pages for players: rulings of both bundled rulebooks, built from their case
//! files through the library's page renderer (`conditions::api::html_page`), as the
//! command line and the server build them. Shared by the page tests and the browser check.

#![allow(dead_code)]

use conditions::api::{Lang, Page, Rulebook};

/// One sample page: a name (for snapshots and screenshots) and its HTML.
pub struct Sample {
    pub name: String,
    pub html: String,
}

/// A case file's facts with the rulings to show from it.
struct Case {
    file: &'static str,
    rulings: &'static [&'static str],
}

const GNT: &[Case] = &[
    Case { file: "stage1-d-1999-masterpoints", rulings: &["flights"] },
    Case { file: "stage1-i-nine-teams-tie-at-cut", rulings: &["qualifiers", "qualifying_places"] },
    Case { file: "substitution-approval-missing", rulings: &["substitute_permitted"] },
    Case { file: "national-finals-5-flight-c-thirds", rulings: &["national_first_place_award"] },
];

const DBF: &[Case] = &[
    Case { file: "s304b1-kort-tur-med-broafgift", rulings: &["s304.transportgodtgørelse"] },
    Case { file: "s304b1-kort-tur-giver-nul", rulings: &["s304.transportgodtgørelse"] },
    Case { file: "s305a4b-rettigheder-til-substitutten", rulings: &["s305.rettighedshavere"] },
    Case {
        file: "s323c2-tredjedel-uden-afrunding-afgoer",
        rulings: &["s323.overførsel_hold1", "s323.overførsel_hold2"],
    },
    Case { file: "s351c2-tre-distrikter-om-to-pladser-lodtrukket", rulings: &["s351.pladsfordeling"] },
];

/// The facts of a case file, as JSON.
pub fn case_facts(rulebook: &str, file: &str) -> serde_json::Value {
    let path = format!("{}/conditions/{rulebook}/cases/{file}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut case: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let facts = case.remove("facts").unwrap_or_else(|| panic!("{path}: no [facts]"));
    serde_json::to_value(facts).expect("facts as JSON")
}

/// A page of the rulings of several cases (each with its own facts) of one rulebook.
fn page(rulebook: &str, cases: &[Case], lang: Lang, header: &Page) -> String {
    let book = Rulebook::bundled(rulebook).expect("bundled rulebook");
    let facts: Vec<_> = cases
        .iter()
        .map(|c| book.facts_from_json(&case_facts(rulebook, c.file)).unwrap_or_else(|e| panic!("{}: {e:?}", c.file)))
        .collect();
    let mut outcomes = Vec::new();
    for (c, f) in cases.iter().zip(&facts) {
        for r in c.rulings {
            let ruling = book.ruling(r).unwrap_or_else(|e| panic!("{}: {e:?}", c.file));
            outcomes.push(ruling.rule(f).unwrap_or_else(|e| panic!("{}: {e:?}", c.file)));
        }
    }
    conditions::api::html_page(&outcomes, lang, header)
}

/// Hostile text, as a facts file might carry it.
pub const HOSTILE: &str = "<script>alert(\"x\")</script> & 'Kings' \"Q\" </p><b>";

/// The qualifiers of a club game with hostile team names, under a hostile header.
pub fn hostile() -> String {
    let book = Rulebook::bundled("gnt").expect("gnt");
    let mut facts = case_facts("gnt", "stage1-i-nine-teams-tie-at-cut");
    facts["teams_entered"][5]["name"] = serde_json::json!(HOSTILE);
    facts["teams_entered"][7]["name"] = serde_json::json!("Jacks&amp;Co <img src=x onerror=alert(1)>");
    let facts = book.facts_from_json(&facts).expect("facts");
    let outcomes = vec![
        book.ruling("qualifiers").expect("ruling").rule(&facts).expect("rules"),
        book.ruling("qualifying_places").expect("ruling").rule(&facts).expect("rules"),
    ];
    let header = Page::with_header(Some(HOSTILE.into()), Some(HOSTILE.into()), Some(HOSTILE.into()));
    conditions::api::html_page(&outcomes, Lang::En, &header)
}

/// Every sample page: GNT in English, DBF in Danish and in English, a page of one ruling,
/// and the hostile page.
pub fn samples() -> &'static [Sample] {
    static SAMPLES: std::sync::OnceLock<Vec<Sample>> = std::sync::OnceLock::new();
    SAMPLES.get_or_init(build)
}

fn build() -> Vec<Sample> {
    let header = Page::with_header(
        Some("District 17 Grand National Teams, District Finals".into()),
        Some("1 December 2026".into()),
        Some("A. Director".into()),
    );
    let dbf_header =
        Page::with_header(Some("Danmarksmesterskab for hold".into()), Some("1. december 2026".into()), None);
    vec![
        Sample { name: "gnt-en".into(), html: page("gnt", GNT, Lang::En, &header) },
        Sample { name: "gnt-flights-en".into(), html: page("gnt", &GNT[..1], Lang::En, &Page::default()) },
        Sample { name: "dbf-da".into(), html: page("dbf", DBF, Lang::Da, &dbf_header) },
        Sample { name: "dbf-en".into(), html: page("dbf", DBF, Lang::En, &dbf_header) },
        Sample { name: "dbf-304b1-en".into(), html: page("dbf", &DBF[..2], Lang::En, &Page::default()) },
        Sample { name: "hostile".into(), html: hostile() },
    ]
}
