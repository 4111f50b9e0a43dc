//! Cedar beside `conditions` on the same question: which GNT flights (Stage 1 D) may a
//! player enter? Both rule on the same generated players; the number of (player, flight)
//! pairs allowed is compared before anything is timed. Figures and method in
//! docs/performance.md.
//!
//! Cedar: one `permit` per flight, one request per flight (4 a player), entities and
//! requests built before timing, so only `Authorizer::is_authorized` is timed.
//! `conditions`: the bundled GNT rulebook through the library facade, facts read before
//! timing, so only `Ruling::rule` is timed. The rounds of the two are interleaved and the
//! medians divided, as in `benches/ratios.rs`.
//!
//! `CEDAR_PLAYERS` (default 2,000) and `CEDAR_ROUNDS` (default 11) size the run.

use cedar_policy::{
    Authorizer, Context, Decision, Entities, Entity, EntityId, EntityTypeName, EntityUid, PolicySet, Request,
    RestrictedExpression,
};
use std::collections::{HashMap, HashSet};
use std::hint::black_box;
use std::str::FromStr;
use std::time::Instant;

/// Stage 1 D's limits as Cedar policies: masterpoints are whole numbers here.
const POLICIES: &str = r#"
permit(principal, action == Action::"enter", resource == Flight::"Championship");
permit(principal, action == Action::"enter", resource == Flight::"A")
    when { principal.masterpoints < 5000 };
permit(principal, action == Action::"enter", resource == Flight::"B")
    when { principal.masterpoints < 2000 };
permit(principal, action == Action::"enter", resource == Flight::"C")
    when { !principal.life_master && principal.masterpoints < 500 };
"#;

const FLIGHTS: [&str; 4] = ["Championship", "A", "B", "C"];

struct Player {
    masterpoints: i64,
    life_master: bool,
}

/// Players from a fixed-seed generator: masterpoints spread over 0–9,999 so that every
/// limit is met by some and missed by others.
fn players(n: usize) -> Vec<Player> {
    let mut state: u64 = 0x2007_2008;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        state >> 33
    };
    (0..n).map(|_| Player { masterpoints: (next() % 10_000) as i64, life_master: next() % 3 == 0 }).collect()
}

fn uid(ty: &str, id: &str) -> EntityUid {
    EntityUid::from_type_name_and_id(EntityTypeName::from_str(ty).expect("type name"), EntityId::new(id))
}

struct CedarCase {
    entities: Entities,
    requests: Vec<Request>,
}

fn cedar_cases(players: &[Player]) -> Vec<CedarCase> {
    let action = uid("Action", "enter");
    players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let me = uid("Player", &format!("p{i}"));
            let attrs = HashMap::from([
                ("masterpoints".to_string(), RestrictedExpression::new_long(p.masterpoints)),
                ("life_master".to_string(), RestrictedExpression::new_bool(p.life_master)),
            ]);
            let entity = Entity::new(me.clone(), attrs, HashSet::new()).expect("entity");
            let entities = Entities::from_entities([entity], None).expect("entities");
            let requests = FLIGHTS
                .iter()
                .map(|f| {
                    Request::new(me.clone(), action.clone(), uid("Flight", f), Context::empty(), None).expect("request")
                })
                .collect();
            CedarCase { entities, requests }
        })
        .collect()
}

fn cedar_allowed(auth: &Authorizer, policies: &PolicySet, case: &CedarCase) -> usize {
    case.requests
        .iter()
        .filter(|r| auth.is_authorized(r, policies, &case.entities).decision() == Decision::Allow)
        .count()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn main() {
    let n = env("CEDAR_PLAYERS", 2_000);
    let rounds = env("CEDAR_ROUNDS", 11);
    let players = players(n);

    let policies = PolicySet::from_str(POLICIES).expect("policies");
    let auth = Authorizer::new();
    let cases = cedar_cases(&players);

    let gnt = conditions::api::Rulebook::bundled("gnt").expect("bundled gnt");
    let flights = gnt.ruling("flights").expect("flights");
    let facts: Vec<conditions::api::Facts> = players
        .iter()
        .map(|p| {
            let json = serde_json::json!({"player": {"masterpoints": p.masterpoints, "life_master": p.life_master}});
            gnt.facts(&json).expect("facts")
        })
        .collect();

    // The same answers first: (player, flight) pairs allowed.
    let cedar_sum: usize = cases.iter().map(|c| cedar_allowed(&auth, &policies, c)).sum();
    let ours_sum: usize = facts
        .iter()
        .map(|f| {
            let outcome = flights.rule(f).expect("rule");
            let answer = outcome.answer().expect("decided");
            answer.to_json().as_array().map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(cedar_sum, ours_sum, "Cedar and conditions disagree");

    let (mut cedar, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        for c in &cases {
            black_box(cedar_allowed(&auth, &policies, black_box(c)));
        }
        cedar.push(t.elapsed().as_nanos() as f64 / n as f64);
        let t = Instant::now();
        for f in &facts {
            black_box(flights.rule(black_box(f)).expect("rule"));
        }
        ours.push(t.elapsed().as_nanos() as f64 / n as f64);
    }
    let (cedar, ours) = (median(cedar), median(ours));
    println!("GNT flights, {n} generated players, {cedar_sum} (player, flight) pairs allowed by both");
    println!("  Cedar (4 requests a player)        {:>10.1} ns a player", cedar);
    println!("  conditions (one ruling a player)   {:>10.1} ns a player", ours);
    let ratio = cedar / ours;
    let verdict = if ratio >= 100.0 { "met" } else { "not met" };
    println!("  throughput, conditions / Cedar     {ratio:>10.1}× (target ≥ 100×: {verdict})");
}
