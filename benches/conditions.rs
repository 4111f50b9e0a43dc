//! Benchmarks (`cargo bench`); figures and how to read them in docs/performance.md.
//!
//! (a) `check` of both rulebooks beside parse-only; (b) single-ruling latency, with and
//! without a brief explanation; (c) batches of fact sets end to end as `--batch` does
//! it, beside a hand-written native program, and in-memory evaluation beside a plain
//! function; (d) `check` of generated rulebooks, 1× and 10× the size of both together.

use conditions::check::{Checked, check_sources};
use conditions::explain::Explainer;
use conditions::source::SourceMap;
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::str::FromStr;

#[path = "support/fixtures.rs"]
mod fixtures;
use fixtures::{DBF_304, GNT_PLAYER, book, inputs};

// ------------------------------------------------------------------ (a) check

fn bench_check(cr: &mut Criterion) {
    let mut g = cr.benchmark_group("check");
    for name in ["gnt", "dbf"] {
        let sources = conditions::loader::bundled(name).expect("bundled");
        g.bench_function(BenchmarkId::new("parse_only", name), |b| {
            b.iter(|| {
                for (id, f) in sources.files() {
                    black_box(conditions::syntax::parse_file(&f.text, id).ok());
                }
            })
        });
        g.bench_function(BenchmarkId::new("check", name), |b| b.iter(|| black_box(check_sources(sources.clone()))));
    }
    g.finish();
}

// ------------------------------------------------------------------ (b) single rulings

const GNT_TEAMS: &str = r#"{"teams_entered": [{"name":"North","victory_points":80},{"name":"South","victory_points":75},{"name":"East","victory_points":70},{"name":"West","victory_points":66},{"name":"Aces","victory_points":60},{"name":"Kings","victory_points":60},{"name":"Queens","victory_points":55},{"name":"Jacks","victory_points":50},{"name":"Tens","victory_points":40}]}"#;

/// Case files hold the facts of the other benchmarked rulings; the first expectation
/// naming the ruling is used.
fn case_facts(book: &str, ruling: &str) -> Option<String> {
    let dir = format!("{}/conditions/{book}/cases", env!("CARGO_MANIFEST_DIR"));
    for path in conditions::cases::find_cases(std::path::Path::new(&dir)) {
        let text = std::fs::read_to_string(&path).ok()?;
        let t: toml::Table = toml::from_str(&text).ok()?;
        let asks = t.get("expect").and_then(|e| e.as_array()).is_some_and(|es| {
            es.iter().any(|e| e.get("ruling").and_then(|r| r.as_str()) == Some(ruling) && e.get("value").is_some())
        });
        if asks {
            let facts = t.get("facts")?.clone();
            return serde_json::to_string(&serde_json::to_value(facts).ok()?).ok();
        }
    }
    None
}

fn bench_single(cr: &mut Criterion) {
    let gnt = book("gnt");
    let dbf = book("dbf");
    let mut cases: Vec<(&str, &Checked, String, String)> = vec![
        ("gnt_flights", &gnt, "flights".into(), GNT_PLAYER.into()),
        ("gnt_qualifiers", &gnt, "qualifiers".into(), GNT_TEAMS.into()),
        ("dbf_304B1", &dbf, "s304.transportgodtgørelse".into(), DBF_304.into()),
    ];
    for (label, ruling) in [("dbf_323C", "s323.overførsel_hold1"), ("dbf_351C2", "s351.medlemstalsfordeling")] {
        if let Some(f) = case_facts("dbf", ruling) {
            cases.push((label, &dbf, ruling.into(), f));
        }
    }
    let mut g = cr.benchmark_group("single_ruling");
    for (label, c, ruling, facts) in &cases {
        let Some(def) = c.program.def_by_name(ruling) else { continue };
        let inp = inputs(c, facts);
        g.bench_function(BenchmarkId::new("no_explanation", label), |b| {
            b.iter(|| black_box(conditions::eval::rule(&c.program, &inp, def, false)))
        });
        g.bench_function(BenchmarkId::new("brief_explanation", label), |b| {
            b.iter(|| {
                let r = conditions::eval::rule(&c.program, &inp, def, true);
                let e = Explainer {
                    p: &c.program,
                    sources: &c.sources,
                    lang: conditions::eval::show::Lang::En,
                    inputs: &inp,
                };
                black_box(conditions::explain::text::render(&e.report(&r, false), false))
            })
        });
        // What the server answers a ruling request with: the brief report as (pretty) JSON.
        g.bench_function(BenchmarkId::new("brief_json", label), |b| {
            b.iter(|| {
                let r = conditions::eval::rule(&c.program, &inp, def, true);
                let e = Explainer {
                    p: &c.program,
                    sources: &c.sources,
                    lang: conditions::eval::show::Lang::En,
                    inputs: &inp,
                };
                black_box(serde_json::to_string_pretty(&e.report(&r, false)).expect("json"))
            })
        });
    }
    g.finish();
}

// ------------------------------------------------------------------ (c) batches

#[derive(Deserialize)]
struct NativePlayer {
    #[allow(dead_code)]
    name: String,
    masterpoints: serde_json::Number,
    life_master: bool,
}

#[derive(Deserialize)]
struct NativeFlightFacts {
    player: NativePlayer,
}

/// The plain function: Stage 1 D's flight limits, by hand.
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

#[derive(Deserialize)]
struct NativeSpiller {
    #[serde(rename = "bopæl")]
    bopael: String,
}
#[derive(Deserialize)]
struct NativeHold {
    spillere: Vec<NativeSpiller>,
}
#[derive(Deserialize)]
struct NativeAfstand {
    by: String,
    afstand: String,
}
#[derive(Deserialize)]
struct Native304 {
    #[serde(rename = "s304.kilometersats")]
    kilometersats: String,
    #[serde(rename = "s304.bro_og_færgeafgift")]
    afgift: String,
    #[serde(rename = "s304.afstande_til_spillestedet")]
    afstande_til_spillestedet: Vec<NativeAfstand>,
    #[serde(rename = "s304.rejsehold")]
    rejsehold: NativeHold,
}

fn amount(s: &str) -> Decimal {
    Decimal::from_str(s.split(' ').next().unwrap_or("0")).unwrap_or_default()
}

/// The plain function: § 304A2a and § 304B1 by hand (home town by majority, km × rate + toll
/// − 200 km × rate, never below zero); `None` on a tie for the home town.
fn native_304(f: &Native304) -> Option<Decimal> {
    let mut towns: Vec<(&str, usize)> = Vec::new();
    for s in &f.rejsehold.spillere {
        match towns.iter_mut().find(|(t, _)| *t == s.bopael) {
            Some(t) => t.1 += 1,
            None => towns.push((&s.bopael, 1)),
        }
    }
    let best = towns.iter().map(|t| t.1).max()?;
    let winners: Vec<&str> = towns.iter().filter(|t| t.1 == best).map(|t| t.0).collect();
    if winners.len() != 1 {
        return None;
    }
    let km = amount(&f.afstande_til_spillestedet.iter().find(|a| a.by == winners[0])?.afstand);
    let rate = amount(&f.kilometersats);
    Some((Decimal::from(2) * km * rate + amount(&f.afgift) - Decimal::from(200) * rate).max(Decimal::ZERO))
}

/// A native ruling record: `{"status": "decided", "value": …}`.
#[derive(Serialize)]
struct NativeRuling<T> {
    status: &'static str,
    value: T,
}

/// The native program's record for a flights line, the same JSON as `--batch` writes.
#[derive(Serialize)]
struct NativeFlightsOut {
    line: usize,
    flights: NativeRuling<Vec<&'static str>>,
}

/// The native program's record for a § 304B1 line.
#[derive(Serialize)]
struct Native304Out {
    line: usize,
    #[serde(rename = "s304.transportgodtgørelse")]
    transport: NativeRuling<Option<String>>,
}

/// The native program's batch: the lines split among threads, each line deserialised by
/// `rule_line` into a struct, answered by a plain function and serialised from a typed
/// record, JSON lines out.
fn native_batch<T: Serialize>(text: &str, threads: usize, rule_line: fn(usize, &str) -> T) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let per = lines.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    let mut out = Vec::with_capacity(chunk.len() * 64);
                    for (i, l) in chunk.iter().enumerate() {
                        serde_json::to_writer(&mut out, &rule_line(i + 1, l)).expect("write");
                        out.push(b'\n');
                    }
                    out.len()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_default()).sum()
    })
}

fn flight_lines(n: usize) -> String {
    let mut s = String::with_capacity(n * 80);
    for i in 0..n {
        let mp = (i * 7919) % 8000;
        let _ = writeln!(s, r#"{{"player": {{"name": "P{i}", "masterpoints": {mp}, "life_master": {}}}}}"#, i % 3 == 0);
    }
    s
}

fn dbf_lines(n: usize) -> String {
    let mut s = String::with_capacity(n * 420);
    for i in 0..n {
        let km = 20 + (i * 37) % 300;
        let line = DBF_304.replace("142 km", &format!("{km} km"));
        s.push_str(&line);
        s.push('\n');
    }
    s
}

fn bench_batch(cr: &mut Criterion) {
    let n: usize = std::env::var("BATCH_LINES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let gnt = book("gnt");
    let dbf = book("dbf");
    let flights = flight_lines(n);
    let gdef = gnt.program.def_by_name("flights").expect("flights");
    if let Some(rounds) = std::env::var("BATCH_ROUNDS").ok().and_then(|s| s.parse::<usize>().ok()) {
        batch_rounds(rounds, n, threads, &gnt, &flights, gdef);
    }
    let mut g = cr.benchmark_group("batch");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n as u64));
    let dbf_text = dbf_lines(n);
    let ddef = dbf.program.def_by_name("s304.transportgodtgørelse").expect("s304.transportgodtgørelse");
    // `conditions_1` on one worker, `conditions` and `native` on every core.
    for (label, t) in [("conditions_1", 1), ("conditions", threads)] {
        g.bench_function(format!("gnt_flights/{label}"), |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(n * 64);
                conditions::batch::run(&gnt.program, &[gdef], flights.as_bytes(), &mut out, t, |_| {}).expect("runs");
                black_box(out.len())
            })
        });
    }
    g.bench_function("gnt_flights/native", |b| {
        b.iter(|| {
            black_box(native_batch(&flights, threads, |line, l| {
                let f: NativeFlightFacts = serde_json::from_str(l).expect("json");
                let mp = Decimal::from_str(&f.player.masterpoints.to_string()).unwrap_or_default();
                let value = native_flights(mp, f.player.life_master);
                NativeFlightsOut { line, flights: NativeRuling { status: "decided", value } }
            }))
        })
    });
    for (label, t) in [("conditions_1", 1), ("conditions", threads)] {
        g.bench_function(format!("dbf_304B1/{label}"), |b| {
            b.iter(|| {
                let mut out = Vec::with_capacity(n * 64);
                conditions::batch::run(&dbf.program, &[ddef], dbf_text.as_bytes(), &mut out, t, |_| {}).expect("runs");
                black_box(out.len())
            })
        });
    }
    g.bench_function("dbf_304B1/native", |b| {
        b.iter(|| {
            black_box(native_batch(&dbf_text, threads, |line, l| {
                let f: Native304 = serde_json::from_str(l).expect("json");
                let value = native_304(&f).map(|d| format!("{d} DKK"));
                Native304Out { line, transport: NativeRuling { status: "decided", value } }
            }))
        })
    });
    g.finish();

    // In-memory evaluation alone, beside the plain function.
    let mut g = cr.benchmark_group("in_memory");
    let inp = inputs(&gnt, GNT_PLAYER);
    g.bench_function("gnt_flights/conditions", |b| {
        b.iter(|| black_box(conditions::eval::rule(&gnt.program, &inp, gdef, false)))
    });
    let mut scratch = conditions::eval::fast::Scratch::default();
    g.bench_function("gnt_flights/compiled", |b| {
        b.iter(|| black_box(conditions::eval::fast::rule(&gnt.program, &inp, gdef, &mut scratch)))
    });
    g.bench_function("gnt_flights/native", |b| {
        b.iter(|| black_box(native_flights(black_box(Decimal::from(2150)), black_box(true))))
    });
    let inp = inputs(&dbf, DBF_304);
    let native: Native304 = serde_json::from_str(DBF_304).expect("json");
    g.bench_function("dbf_304B1/conditions", |b| {
        b.iter(|| black_box(conditions::eval::rule(&dbf.program, &inp, ddef, false)))
    });
    g.bench_function("dbf_304B1/compiled", |b| {
        b.iter(|| black_box(conditions::eval::fast::rule(&dbf.program, &inp, ddef, &mut scratch)))
    });
    g.bench_function("dbf_304B1/native", |b| b.iter(|| black_box(native_304(black_box(&native)))));
    g.finish();
}

/// `BATCH_ROUNDS=R`: the GNT flights batch on one worker, on every core and the native
/// program, in R interleaved rounds (A B C A B C …, so that a busy moment on a shared
/// machine slows them alike); prints each median and the ratios of medians.
fn batch_rounds(rounds: usize, n: usize, threads: usize, gnt: &Checked, flights: &str, gdef: u32) {
    let run = |t: usize| {
        let mut out = Vec::with_capacity(n * 64);
        conditions::batch::run(&gnt.program, &[gdef], flights.as_bytes(), &mut out, t, |_| {}).expect("runs");
        out.len()
    };
    let native = || {
        native_batch(flights, threads, |line, l| {
            let f: NativeFlightFacts = serde_json::from_str(l).expect("json");
            let mp = Decimal::from_str(&f.player.masterpoints.to_string()).unwrap_or_default();
            let value = native_flights(mp, f.player.life_master);
            NativeFlightsOut { line, flights: NativeRuling { status: "decided", value } }
        })
    };
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..rounds {
        for (k, ts) in times.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            black_box(match k {
                0 => run(1),
                1 => run(threads),
                _ => native(),
            });
            ts.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    let median = |ts: &mut Vec<f64>| {
        ts.sort_by(f64::total_cmp);
        ts[ts.len() / 2]
    };
    let [one, all, nat] = times.each_mut().map(median);
    println!(
        "batch/gnt_flights, {n} lines, median of {rounds} interleaved rounds: one worker {one:.0} ms, \
         {threads} workers {all:.0} ms, native on {threads} threads {nat:.0} ms; \
         {threads} workers / native {:.2}x, one worker / {threads} workers {:.2}x",
        all / nat,
        one / all
    );
}

// ------------------------------------------------------------------ (d) scaling

/// A rulebook of `n` clauses shaped like the real ones: each with text, a fact, a table
/// with ranges, a ruling with rules and an exception, and references to its neighbours.
fn generated(n: usize) -> SourceMap {
    let mut map = SourceMap::new();
    map.add(
        "gen/rulebook.cond",
        "rulebook \"gen\" {\n  title \"Generated\"\n  language \"en\"\n}\ntype Grade = enum { Low, Mid, High }\n",
    );
    let mut file = String::new();
    for i in 0..n {
        let _ = write!(
            file,
            r#"clause "§ {i}" {{
  text """Clause {i} decides a fee for teams of a size, with an exception for high grades."""
  cites "§ {prev}"
  fact teams_{i}: int "teams entered under clause {i}"
  fact grade_{i}: Grade
  table fee_table_{i}(teams: int): USD pick unique {{
    1 => 10 USD,
    2..=4 => 20 USD,
    5..=8 => 30 USD,
    9.. => 40 USD,
  }}
  ruling fee_{i}: USD "the fee under clause {i}"
  rule base_{i}: fee_{i} = fee_table_{i}(teams_{i}) * 2 + 1.25 USD
  rule high_{i}: fee_{i} = max(0 USD, fee_table_{i}(teams_{i}) - 5 USD) when grade_{i} == High and teams_{i} >= 2 overrides base_{i}
}}
"#,
            prev = if i == 0 { 0 } else { i - 1 }
        );
        if file.len() > 512 * 1024 {
            map.add(format!("gen/part{i}.cond"), std::mem::take(&mut file));
        }
    }
    if !file.is_empty() {
        map.add("gen/last.cond", file);
    }
    map
}

fn bench_scaling(cr: &mut Criterion) {
    let base = book("gnt").program.clauses.len() + book("dbf").program.clauses.len();
    let mut g = cr.benchmark_group("check_scaling");
    g.sample_size(10);
    for factor in [1usize, 10] {
        let sources = generated(base * factor);
        let c = check_sources(sources.clone());
        assert!(!c.has_errors(), "generated rulebook checks: {:?}", c.diagnostics.first());
        g.bench_function(BenchmarkId::new("generated", format!("{factor}x_{}_clauses", base * factor)), |b| {
            b.iter(|| black_box(check_sources(sources.clone())))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_check, bench_single, bench_batch, bench_scaling);
criterion_main!(benches);
