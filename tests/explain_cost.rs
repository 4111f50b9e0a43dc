//! Explanation cost against facts size: explaining a ranking, a count, a filter, a sum or a
//! per-item definition of the bundled rulebooks takes work (evaluation steps, the workings'
//! included, and the rendering's units, as `Explainer::report_counted` and
//! `Explainer::brief_text_counted` count them) that grows near-linearly with the facts; and an
//! explanation over the step budget is refused with an error, not a panic or a hang.

use conditions::eval::show::Lang;
use conditions::explain::Explainer;
use proptest::prelude::*;
use serde_json::{Value as J, json};

/// A ruling and how to make its facts for `n` items.
struct Subject {
    book: &'static str,
    ruling: &'static str,
    facts: fn(usize) -> J,
}

/// GNT Stage 1 I: `n` teams, victory points with ties.
fn teams(n: usize) -> J {
    let teams: Vec<J> = (0..n).map(|i| json!({ "name": format!("T{i}"), "victory_points": (i * 37) % 101 })).collect();
    json!({ "teams_entered": teams, "club_team": "T3" })
}

/// DBF § 305A4b: two entered players, one under half, and `n` substitutes, one with most boards.
fn substitutes(n: usize) -> J {
    let mut players = vec![
        json!({ "navn": "Anker", "tilmeldt": true, "spil": 10 }),
        json!({ "navn": "Birte", "tilmeldt": true, "spil": 5000 }),
    ];
    players.extend((0..n).map(|i| {
        json!({ "navn": format!("S{i}"), "tilmeldt": false, "spil": 11 + i,
                "kvalifikationsdistrikter": [], "dispensation_force_majeure": false })
    }));
    json!({ "s305.spil_i_fasen": 5000, "s305.parrets_spillere": players })
}

/// DBF § 305A4c: both entered players under half, `n` substitutes ranked for two places.
fn both_under_half(n: usize) -> J {
    let mut players = vec![
        json!({ "navn": "Anker", "tilmeldt": true, "spil": 10 }),
        json!({ "navn": "Birte", "tilmeldt": true, "spil": 20 }),
    ];
    players.extend((0..n).map(|i| {
        json!({ "navn": format!("S{i}"), "tilmeldt": false, "spil": (i * 7) % 90 + 1,
                "kvalifikationsdistrikter": [], "dispensation_force_majeure": false })
    }));
    // Two clear leaders, so the ranking decides.
    players.push(json!({ "navn": "X1", "tilmeldt": false, "spil": 1000, "kvalifikationsdistrikter": [], "dispensation_force_majeure": false }));
    players.push(json!({ "navn": "X2", "tilmeldt": false, "spil": 999, "kvalifikationsdistrikter": [], "dispensation_force_majeure": false }));
    json!({ "s305.spil_i_fasen": 5000, "s305.parrets_spillere": players })
}

const SUBJECTS: &[Subject] = &[
    Subject { book: "gnt", ruling: "qualifiers", facts: teams },
    Subject { book: "gnt", ruling: "qualifying_places", facts: teams },
    Subject { book: "gnt", ruling: "club_team_place", facts: teams },
    Subject { book: "dbf", ruling: "s305.rettighedshavere", facts: substitutes },
    Subject { book: "dbf", ruling: "s305.rettighedshavere", facts: both_under_half },
];

fn book(name: &str) -> &'static conditions::check::Checked {
    use std::sync::OnceLock;
    static GNT: OnceLock<conditions::check::Checked> = OnceLock::new();
    static DBF: OnceLock<conditions::check::Checked> = OnceLock::new();
    let cell = if name == "gnt" { &GNT } else { &DBF };
    cell.get_or_init(|| conditions::loader::load(name).unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostics)))
}

/// The work of ruling on `s` for `n` items and explaining it: the most of the brief and
/// full reports and the brief text, each counted with the ruling's steps.
fn work(s: &Subject, n: usize) -> u64 {
    let book = book(s.book);
    let p = &book.program;
    let tree = conditions::facts::untoml((s.facts)(n));
    let inputs = conditions::facts::validate(p, &tree, "generated").unwrap_or_else(|e| panic!("facts: {e:?}"));
    let def = p.def_by_name(s.ruling).unwrap_or_else(|| panic!("no ruling `{}`", s.ruling));
    let max = conditions::eval::interp::MAX_STEPS;
    let ruling = conditions::eval::rule(p, &inputs, def, true);
    assert!(
        matches!(ruling.outcome, conditions::eval::Outcome::Decided(_)),
        "`{}` for {n} items is not decided: {:?}",
        s.ruling,
        ruling.outcome
    );
    let e = Explainer { p, sources: &book.sources, lang: Lang::En, inputs: &inputs };
    let (brief, w1) = e.report_counted(&ruling, false, max);
    let (full, w2) = e.report_counted(&ruling, true, max);
    assert_eq!(brief.status, "decided", "`{}` for {n} items: {:?}", s.ruling, brief.error);
    assert_eq!(full.status, "decided", "`{}` for {n} items: {:?}", s.ruling, full.error);
    let (_, w3) = e.brief_text_counted(&conditions::eval::rule_for_brief(p, &inputs, def), max);
    w1.max(w2).max(w3)
}

/// The work for `4n` items over that for `n`: near-linear stays well under 16.
fn ratio(s: &Subject, n: usize) -> (u64, u64, f64) {
    let (a, b) = (work(s, n), work(s, 4 * n));
    (a, b, b as f64 / a.max(1) as f64)
}

#[test]
fn explaining_qualifiers_is_near_linear_in_the_teams() {
    let (a, b, r) = ratio(&SUBJECTS[0], 500);
    assert!(r <= 6.0, "500 teams took {a} units of work, 2,000 took {b}: {r:.1} times");
}

#[test]
fn explaining_a_per_item_definition_is_near_linear_in_the_items() {
    let (a, b, r) = ratio(&SUBJECTS[4], 400);
    assert!(r <= 6.0, "400 substitutes took {a} units of work, 1,600 took {b}: {r:.1} times");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// Explanation cost against facts size, for rulings of both rulebooks.
    #[test]
    fn explanation_cost_against_facts_size(k in 0..SUBJECTS.len(), n in 40usize..300) {
        let s = &SUBJECTS[k];
        let (a, b, r) = ratio(s, n);
        prop_assert!(r <= 6.0, "`{}` of {}: {n} items took {a} units of work, {} took {b}: {r:.1} times", s.ruling, s.book, 4 * n);
    }
}

#[test]
fn an_explanation_over_the_budget_is_refused_with_an_error() {
    for s in SUBJECTS {
        let book = book(s.book);
        let p = &book.program;
        let tree = conditions::facts::untoml((s.facts)(300));
        let inputs = conditions::facts::validate(p, &tree, "generated").expect("facts");
        let def = p.def_by_name(s.ruling).expect("ruling");
        let ruling = conditions::eval::rule(p, &inputs, def, true);
        let e = Explainer { p, sources: &book.sources, lang: Lang::En, inputs: &inputs };
        let max = conditions::eval::interp::MAX_STEPS;
        // Budgets below the ruling's own steps, between them and the whole work, and just short.
        let budgets = |whole: u64| {
            [ruling.steps / 2, ruling.steps - 1, ruling.steps + 1, (ruling.steps + whole) / 2, whole - 1]
                .into_iter()
                .filter(move |&b| b < whole)
        };
        let refused = |message: &str, budget: u64| {
            assert!(
                message.contains(&format!("explaining the ruling took more than {budget} evaluation steps")),
                "`{}` within {budget} steps: {message}",
                s.ruling
            );
        };
        for full in [false, true] {
            let (_, whole) = e.report_counted(&ruling, full, max);
            for budget in budgets(whole) {
                let (report, _) = e.report_counted(&ruling, full, budget);
                assert_eq!(report.status, "error", "`{}` within {budget} steps was explained", s.ruling);
                refused(&report.error.unwrap_or_default(), budget);
            }
            // Within the whole work it is explained.
            let (report, _) = e.report_counted(&ruling, full, whole);
            assert_eq!(report.status, "decided", "`{}`: {:?}", s.ruling, report.error);
        }
        let (_, whole) = e.brief_text_counted(&ruling, max);
        for budget in budgets(whole) {
            refused(&e.brief_text_counted(&ruling, budget).0, budget);
        }
        assert!(!e.brief_text_counted(&ruling, whole).0.contains("explaining the ruling took"));
    }
}
