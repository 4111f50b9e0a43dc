//! Ratios against native code, measured in one run (`cargo bench --bench ratios`; figures
//! and method in docs/performance.md).
//!
//! Each contender is timed in rounds of a fixed number of calls; the rounds of all
//! contenders are interleaved (A B C A B C …) so that a busy moment on a shared machine
//! slows them alike, and each one's figure is the median over its rounds. Ratios divide
//! those medians. Nothing here asserts a time.
//!
//! - in memory, GNT flights (Stage 1 D): the interpreter and the compiled evaluator beside
//!   a plain Rust function on an exact decimal (`rust_decimal`) and on `i64`;
//! - in memory, DBF § 304B1 transport reimbursement beside a plain function on decimals;
//! - one ruling with the brief text explanation, GNT flights and § 304B1, written straight
//!   from the trace and, beside it, through the report of owned strings.
//!
//! Cedar on the flights question is a crate of its own, `benches/cedar/` (so that the tests
//! never build it): `cargo run --release --manifest-path benches/cedar/Cargo.toml`.
//!
//! `RATIO_ROUNDS` (default 31) sets the number of rounds; `RATIO_ONLY=gnt`, `dbf`, `brief` or `facade`
//! runs one group only; with `RATIO_CONTENDER=compiled` (a contender's name) only that
//! contender runs, untimed (for profiling). `RATIO_COUNT=flights:N` (or `304:N`) times nothing:
//! it rules and explains N times with the brief text and stops, for counting instructions
//! (`valgrind --tool=callgrind`; the difference between two N divided by their difference);
//! `flights-report:N` and `304-report:N` do the same through the report.

use conditions::check::Checked;
use conditions::eval::interp::Inputs;
use conditions::explain::Explainer;
use rust_decimal::Decimal;
use std::hint::black_box;
use std::str::FromStr;
use std::time::Instant;

#[path = "support/fixtures.rs"]
mod fixtures;
use fixtures::{DBF_304, GNT_PLAYER, book, inputs};

/// Stage 1 D's flight limits by hand, on an exact decimal.
fn native_flights(mp: Decimal, life_master: bool) -> Vec<&'static str> {
    let mut out = vec!["Championship"];
    if mp < Decimal::from(5000) {
        out.push("A");
    }
    if mp < Decimal::from(2000) {
        out.push("B");
    }
    if !life_master && mp < Decimal::from(500) {
        out.push("C");
    }
    out
}

/// The same on `i64`.
fn native_flights_i64(mp: i64, life_master: bool) -> Vec<&'static str> {
    let mut out = vec!["Championship"];
    if mp < 5000 {
        out.push("A");
    }
    if mp < 2000 {
        out.push("B");
    }
    if !life_master && mp < 500 {
        out.push("C");
    }
    out
}

struct Team {
    towns: Vec<String>,
    distances: Vec<(String, Decimal)>,
    rate: Decimal,
    toll: Decimal,
}

/// § 304A2a and § 304B1 by hand: the home town by majority, 2 × km × rate + toll − 200 km
/// × rate, never below zero; `None` on a tie for the home town.
fn native_304(t: &Team) -> Option<Decimal> {
    let mut towns: Vec<(&str, usize)> = Vec::new();
    for s in &t.towns {
        match towns.iter_mut().find(|(x, _)| *x == s) {
            Some(x) => x.1 += 1,
            None => towns.push((s, 1)),
        }
    }
    let best = towns.iter().map(|t| t.1).max()?;
    let mut winners = towns.iter().filter(|t| t.1 == best);
    let home = winners.next()?.0;
    if winners.next().is_some() {
        return None;
    }
    let km = t.distances.iter().find(|(by, _)| by == home)?.1;
    Some((Decimal::from(2) * km * t.rate + t.toll - Decimal::from(200) * t.rate).max(Decimal::ZERO))
}

struct Contender<'a> {
    name: &'static str,
    calls: u32,
    f: Box<dyn FnMut() + 'a>,
    rounds: Vec<f64>,
}

impl<'a> Contender<'a> {
    fn new(name: &'static str, calls: u32, f: impl FnMut() + 'a) -> Self {
        Contender { name, calls, f: Box::new(f), rounds: Vec::new() }
    }
    fn median_ns(&self) -> f64 {
        let mut r = self.rounds.clone();
        r.sort_by(f64::total_cmp);
        r[r.len() / 2]
    }
}

/// Times the contenders in interleaved rounds; the median nanoseconds per call of each.
fn race(title: &str, contenders: &mut [Contender]) {
    let rounds: usize = std::env::var("RATIO_ROUNDS").ok().and_then(|s| s.parse().ok()).unwrap_or(31);
    if let Ok(name) = std::env::var("RATIO_CONTENDER") {
        // Profiling one contender: the others are not run, and no ratio is printed.
        let c = contenders.iter_mut().find(|c| c.name == name).expect("RATIO_CONTENDER names a contender");
        for _ in 0..rounds {
            for _ in 0..c.calls {
                (c.f)();
            }
        }
        std::process::exit(0);
    }
    for c in contenders.iter_mut() {
        for _ in 0..c.calls {
            (c.f)(); // warm up
        }
    }
    for _ in 0..rounds {
        for c in contenders.iter_mut() {
            let start = Instant::now();
            for _ in 0..c.calls {
                (c.f)();
            }
            c.rounds.push(start.elapsed().as_nanos() as f64 / f64::from(c.calls));
        }
    }
    println!("\n{title}");
    for c in contenders.iter() {
        println!("  {:<40} {:>10}", c.name, show(c.median_ns()));
    }
}

fn show(ns: f64) -> String {
    if ns >= 1000.0 { format!("{:.2} µs", ns / 1000.0) } else { format!("{ns:.1} ns") }
}

fn ratio(what: &str, a: &Contender, b: &Contender, target: Option<f64>) {
    let r = a.median_ns() / b.median_ns();
    let verdict = match target {
        Some(t) if r <= t => format!("(target ≤ {t}×: met)"),
        Some(t) => format!("(target ≤ {t}×: not met)"),
        None => String::new(),
    };
    println!("  ratio {what:<46} {r:>7.1}× {verdict}");
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` and `cargo test --benches` probe the harness.
    }
    let gnt = book("gnt");
    let dbf = book("dbf");
    let lang = conditions::eval::show::Lang::En;
    let only = std::env::var("RATIO_ONLY").ok();
    let counting = std::env::var("RATIO_COUNT").ok();
    let wanted = |group: &str| counting.is_none() && only.as_deref().is_none_or(|o| o == group);

    // GNT flights, in memory.
    let gp = &gnt.program;
    let gdef = gp.def_by_name("flights").expect("flights");
    let ginp = inputs(&gnt, GNT_PLAYER);
    let mut scratch = conditions::eval::fast::Scratch::default();
    assert!(conditions::eval::fast::decide(gp, &ginp, gdef, &mut scratch).is_some(), "decided without the interpreter");
    if wanted("gnt") {
        let mut c = vec![
            Contender::new("native, Decimal", 200_000, || {
                black_box(native_flights(black_box(Decimal::from(2150)), black_box(true)));
            }),
            Contender::new("native, i64", 200_000, || {
                black_box(native_flights_i64(black_box(2150), black_box(true)));
            }),
            Contender::new("interpreter", 20_000, || {
                black_box(conditions::eval::rule(gp, &ginp, gdef, false));
            }),
            Contender::new("compiled", 100_000, || {
                black_box(conditions::eval::fast::rule(gp, &ginp, gdef, &mut scratch));
            }),
        ];
        race("in memory, GNT flights (median per ruling)", &mut c);
        ratio("compiled / native Decimal", &c[3], &c[0], Some(5.0));
        ratio("compiled / native i64", &c[3], &c[1], None);
        ratio("interpreter / native Decimal", &c[2], &c[0], None);
        ratio("interpreter / compiled", &c[2], &c[3], None);
    }

    // DBF § 304B1, in memory.
    let dp = &dbf.program;
    let ddef = dp.def_by_name("s304.transportgodtgørelse").expect("s304.transportgodtgørelse");
    let dinp = inputs(&dbf, DBF_304);
    let team = Team {
        towns: ["Kolding", "Kolding", "Kolding", "Vejle"].map(String::from).into(),
        distances: vec![("Kolding".into(), Decimal::from(142)), ("Vejle".into(), Decimal::from(120))],
        rate: Decimal::from_str("2.00").expect("decimal"),
        toll: Decimal::from(125),
    };
    let mut scratch = conditions::eval::fast::Scratch::default();
    assert!(conditions::eval::fast::decide(dp, &dinp, ddef, &mut scratch).is_some(), "decided without the interpreter");
    assert_eq!(native_304(&team).map(|d| d.to_string()).as_deref(), Some("293.00"), "2 × 142 km × 2 + 125 − 400");
    if wanted("dbf") {
        let mut c = vec![
            Contender::new("native, Decimal", 100_000, || {
                black_box(native_304(black_box(&team)));
            }),
            Contender::new("interpreter", 5_000, || {
                black_box(conditions::eval::rule(dp, &dinp, ddef, false));
            }),
            Contender::new("compiled", 20_000, || {
                black_box(conditions::eval::fast::rule(dp, &dinp, ddef, &mut scratch));
            }),
        ];
        race("in memory, DBF § 304B1 (median per ruling)", &mut c);
        ratio("compiled / native Decimal", &c[2], &c[0], Some(10.0));
        ratio("interpreter / native Decimal", &c[1], &c[0], None);
        ratio("interpreter / compiled", &c[1], &c[2], None);
    }

    // One ruling with the brief explanation, rendered as text: straight from the trace
    // (`brief_text`, what `conditions rule` prints) and, beside it, through the report.
    let brief = |c: &Checked, inp: &Inputs, def| {
        let r = conditions::eval::rule_for_brief(&c.program, inp, def);
        Explainer { p: &c.program, sources: &c.sources, lang, inputs: inp }.brief_text(&r)
    };
    let brief_report = |c: &Checked, inp: &Inputs, def| {
        let r = conditions::eval::rule(&c.program, inp, def, true);
        let e = Explainer { p: &c.program, sources: &c.sources, lang, inputs: inp };
        conditions::explain::text::render(&e.report(&r, false), false)
    };
    assert_eq!(brief(&gnt, &ginp, gdef), brief_report(&gnt, &ginp, gdef), "the same text both ways");
    assert_eq!(brief(&dbf, &dinp, ddef), brief_report(&dbf, &dinp, ddef), "the same text both ways");
    if let Some(spec) = &counting {
        let (which, n) = spec.split_once(':').unwrap_or((spec, "1"));
        let n: u32 = n.parse().expect("RATIO_COUNT=flights:N");
        for _ in 0..n {
            match which {
                "flights" => black_box(brief(&gnt, &ginp, gdef)),
                "flights-report" => black_box(brief_report(&gnt, &ginp, gdef)),
                "304-report" => black_box(brief_report(&dbf, &dinp, ddef)),
                _ => black_box(brief(&dbf, &dinp, ddef)),
            };
        }
        return;
    }
    if wanted("facade") {
        facade(&team);
    }
    if wanted("brief") {
        let mut c = vec![
            Contender::new("GNT flights", 2_000, || {
                black_box(brief(&gnt, &ginp, gdef));
            }),
            Contender::new("DBF § 304B1", 1_000, || {
                black_box(brief(&dbf, &dinp, ddef));
            }),
            Contender::new("GNT flights, through the report", 2_000, || {
                black_box(brief_report(&gnt, &ginp, gdef));
            }),
            Contender::new("DBF § 304B1, through the report", 1_000, || {
                black_box(brief_report(&dbf, &dinp, ddef));
            }),
        ];
        race("one ruling with the brief explanation (median)", &mut c);
        for x in &c[..2] {
            let ok = if x.median_ns() <= 10_000.0 { "met" } else { "not met" };
            println!("  {:<40} target ≤ 10 µs: {ok}", x.name);
        }
        ratio("GNT flights: from the trace / through the report", &c[0], &c[2], None);
        ratio("DBF § 304B1: from the trace / through the report", &c[1], &c[3], None);
    }
}

/// The facade's ratios (issue 35): the ruling from prebuilt facts, from a JSON facts value,
/// and with its brief text explanation, beside the native function, for both questions.
fn facade(team: &Team) {
    use conditions::api::{Format, Lang, Rulebook};
    let gnt = Rulebook::bundled("gnt").expect("bundled gnt");
    let dbf = Rulebook::bundled("dbf").expect("bundled dbf");
    let flights = gnt.ruling("flights").expect("flights");
    let s304 = dbf.ruling("s304.transportgodtgørelse").expect("s304.transportgodtgørelse");
    let gtree: serde_json::Value = serde_json::from_str(GNT_PLAYER).expect("json");
    let dtree: serde_json::Value = serde_json::from_str(DBF_304).expect("json");
    let gfacts = gnt.facts_from_json(&gtree).expect("facts fit");
    let dfacts = dbf.facts_from_json(&dtree).expect("facts fit");
    let gout = flights.rule(&gfacts).expect("rule");
    assert_eq!(gout.answer().expect("decided").to_json(), serde_json::json!(["Championship", "A"]));
    assert_eq!(s304.rule(&dfacts).expect("rule").status(), conditions::api::Status::Decided);
    let mut c = vec![
        Contender::new("GNT native, Decimal", 200_000, || {
            black_box(native_flights(black_box(Decimal::from(2150)), black_box(true)));
        }),
        Contender::new("GNT facade, prebuilt facts", 50_000, || {
            black_box(flights.rule(black_box(&gfacts)).expect("rule"));
        }),
        Contender::new("GNT facade, from a JSON value", 20_000, || {
            let f = gnt.facts_from_json(black_box(&gtree)).expect("facts fit");
            black_box(flights.rule(&f).expect("rule").status());
        }),
        Contender::new("GNT facade, with the brief text", 2_000, || {
            black_box(flights.rule(black_box(&gfacts)).expect("rule").explain(Lang::En, Format::Text));
        }),
        Contender::new("DBF native, Decimal", 100_000, || {
            black_box(native_304(black_box(team)));
        }),
        Contender::new("DBF facade, prebuilt facts", 10_000, || {
            black_box(s304.rule(black_box(&dfacts)).expect("rule"));
        }),
        Contender::new("DBF facade, from a JSON value", 5_000, || {
            let f = dbf.facts_from_json(black_box(&dtree)).expect("facts fit");
            black_box(s304.rule(&f).expect("rule").status());
        }),
        Contender::new("DBF facade, with the brief text", 1_000, || {
            black_box(s304.rule(black_box(&dfacts)).expect("rule").explain(Lang::En, Format::Text));
        }),
    ];
    race("through the facade, `conditions::api` (median per ruling)", &mut c);
    for (name, k) in [("GNT flights", 0), ("DBF § 304B1", 4)] {
        ratio(&format!("{name}: brief text / ruling alone"), &c[k + 3], &c[k + 1], Some(5.0));
        ratio(&format!("{name}: from a JSON value / native"), &c[k + 2], &c[k], Some(8.0));
        ratio(&format!("{name}: prebuilt facts / native"), &c[k + 1], &c[k], Some(3.0));
    }
}
