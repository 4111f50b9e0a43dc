//! The hand-written modules beside the libraries that could replace them, in one run
//! (`cargo bench --bench hand_written`; the figures and the decision are in the modules'
//! `//!` docs and docs/performance.md).
//!
//! - `json`: a real report (GNT flights, DBF § 304B1, with the full explanation) written as
//!   JSON through `conditions::json` (the report made an ordered value, then written, as
//!   `conditions rule --format json` and the server do) beside serde_json writing the
//!   `#[derive(Serialize)]` report straight to text (the same bytes), and beside
//!   `serde_json::Value` (keys sorted unless serde_json has `preserve_order`: not the same
//!   bytes).
//! - `wrap`: `conditions::explain::wrap` beside `textwrap` (first fit, words at ASCII spaces,
//!   a bracketed citation made one word so that it is kept on one line) on every text of
//!   both explanations, at 40 and 80 columns.
//!
//! Before timing, the bench prints whether each library's output is the same as the hand
//! code's.

use conditions::check::Checked;
use conditions::explain::{Explainer, Report};
use criterion::{BenchmarkId, Criterion, black_box, criterion_group, criterion_main};
use std::time::Duration;
use textwrap::core::Word;
use textwrap::{Options, WordSeparator, WrapAlgorithm};

#[path = "support/fixtures.rs"]
mod fixtures;
use fixtures::{DBF_304, GNT_PLAYER, book, inputs};

/// The full explanation of one ruling, as `conditions rule --explain full` makes it.
fn report(c: &Checked, facts: &str, ruling: &str) -> Report {
    let inp = inputs(c, facts);
    let def = c.program.def_by_name(ruling).expect("ruling");
    let r = conditions::eval::rule(&c.program, &inp, def, true);
    let lang = conditions::eval::show::Lang::En;
    Explainer { p: &c.program, sources: &c.sources, lang, inputs: &inp }.report(&r, true)
}

fn reports() -> Vec<(&'static str, Report)> {
    let gnt = book("gnt");
    let dbf = book("dbf");
    vec![
        ("GNT flights", report(&gnt, GNT_PLAYER, "flights")),
        ("DBF § 304B1", report(&dbf, DBF_304, "s304.transportgodtgørelse")),
    ]
}

/// Every text of a report that the terminal rendering wraps: clause texts and glosses, the
/// steps' workings and reasons, the facts' lines.
fn texts(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for c in &r.clauses {
        out.extend(c.text.as_deref().map(str::to_string));
        out.extend(c.gloss.as_deref().map(str::to_string));
    }
    for s in &r.steps {
        out.extend(s.working.iter().cloned());
        out.extend(s.because.iter().cloned());
        out.push(format!("{}: {}", &*s.label, s.answer));
    }
    out.retain(|t| !t.trim().is_empty());
    out
}

/// textwrap's words: split at ASCII spaces, a bracketed citation (`[Rule 12]`) one word;
/// widths in characters, as the hand code counts them.
fn words(line: &str) -> Box<dyn Iterator<Item = Word<'_>> + '_> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let mut end = b[start..].iter().position(|&c| c == b' ').map_or(b.len(), |i| start + i);
        if b[start] == b'[' && !line[start..end].contains(']') {
            if let Some(close) = line[end..].find(']') {
                end = line[end + close..].find(' ').map_or(b.len(), |i| end + close + i);
            }
        }
        let mut next = end;
        while next < b.len() && b[next] == b' ' {
            next += 1;
        }
        let word = &line[start..end];
        out.push(Word { word, whitespace: &line[end..next], penalty: "", width: word.chars().count() });
        start = next;
    }
    Box::new(out.into_iter())
}

fn textwrap_fill(text: &str, indent: &str, width: usize) -> String {
    let opts = Options::new(width)
        .initial_indent(indent)
        .subsequent_indent(indent)
        .break_words(false)
        .word_separator(WordSeparator::Custom(words))
        .wrap_algorithm(WrapAlgorithm::FirstFit);
    let mut s = textwrap::fill(text, opts);
    s.push('\n');
    s
}

fn json(c: &mut Criterion) {
    for (name, r) in reports() {
        let hand = conditions::json::to_json(&r).to_pretty();
        let derived = serde_json::to_string_pretty(&r).expect("json");
        let value = serde_json::to_string_pretty(&serde_json::to_value(&r).expect("json")).expect("json");
        println!(
            "{name}: {} bytes; derive(Serialize) straight to text: {}; through serde_json::Value: {}",
            hand.len(),
            if derived == hand { "the same bytes" } else { "DIFFERENT bytes" },
            if value == hand { "the same bytes" } else { "different bytes (keys sorted)" },
        );
        let mut g = c.benchmark_group(format!("json/{name}"));
        g.bench_function("conditions::json, pretty", |b| {
            b.iter(|| conditions::json::to_json(black_box(&r)).to_pretty())
        });
        g.bench_function("serde_json derive, pretty", |b| b.iter(|| serde_json::to_string_pretty(black_box(&r))));
        g.bench_function("serde_json::Value, pretty", |b| {
            b.iter(|| serde_json::to_string_pretty(&serde_json::to_value(black_box(&r)).expect("json")))
        });
        g.bench_function("conditions::json, compact", |b| {
            b.iter(|| conditions::json::to_json(black_box(&r)).to_text())
        });
        g.bench_function("serde_json derive, compact", |b| b.iter(|| serde_json::to_string(black_box(&r))));
        g.finish();
    }
}

fn wrap(c: &mut Criterion) {
    let all: Vec<String> = reports().iter().flat_map(|(_, r)| texts(r)).collect();
    let chars: usize = all.iter().map(|t| t.chars().count()).sum();
    for width in [40, 80] {
        let differ: Vec<&String> = all
            .iter()
            .filter(|t| conditions::explain::wrap::wrap(t, "  ", width) != textwrap_fill(t, "  ", width))
            .collect();
        println!("wrap at {width}: {} texts, {chars} characters; textwrap differs on {}", all.len(), differ.len());
        if let Some(t) = differ.first() {
            println!(
                "  e.g.\n{}  textwrap:\n{}",
                conditions::explain::wrap::wrap(t, "  ", width),
                textwrap_fill(t, "  ", width)
            );
        }
        let mut g = c.benchmark_group("wrap");
        g.bench_with_input(BenchmarkId::new("conditions::explain::wrap", width), &width, |b, &w| {
            b.iter(|| {
                for t in &all {
                    black_box(conditions::explain::wrap::wrap(black_box(t), "  ", w));
                }
            })
        });
        g.bench_with_input(BenchmarkId::new("textwrap", width), &width, |b, &w| {
            b.iter(|| {
                for t in &all {
                    black_box(textwrap_fill(black_box(t), "  ", w));
                }
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = json, wrap
}
criterion_main!(benches);
