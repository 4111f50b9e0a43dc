//! Growth benchmarks for the paths that were once super-linear (`cargo bench --bench
//! growth`): each is timed at sizes n, 2n, 4n, 8n and the ratio of successive times is
//! printed; near 2 is linear, near 4 quadratic. Figures in docs/performance.md.

use conditions::check::{Checked, check_sources};
use conditions::facts::{Format, parse, validate};
use conditions::source::SourceMap;
use std::time::{Duration, Instant};

fn book(text: &str) -> Checked {
    let mut map = SourceMap::new();
    map.add("g.cond", format!("rulebook \"g\" {{ title \"g\" language \"en\" }}\n{text}\n"));
    check_sources(map)
}

fn time(f: impl Fn()) -> Duration {
    f();
    let runs = 3;
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    start.elapsed() / runs
}

fn series(name: &str, sizes: &[usize], f: impl Fn(usize)) {
    // `cargo bench --bench growth -- table` runs only the series whose names contain "table".
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if !filter.is_empty() && !filter.iter().any(|w| name.contains(w.as_str())) {
        return;
    }
    let mut prev: Option<Duration> = None;
    let mut line = format!("{name:<44}");
    for &n in sizes {
        let t = time(|| f(n));
        let ratio = prev.map(|p| format!(" (×{:.1})", t.as_secs_f64() / p.as_secs_f64().max(1e-9))).unwrap_or_default();
        line.push_str(&format!("  n={n}: {:.2} ms{ratio}", t.as_secs_f64() * 1e3));
        prev = Some(t);
    }
    println!("{line}");
}

fn main() {
    let on_stack = |f: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .stack_size(conditions::syntax::parser::STACK_BYTES)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    };
    on_stack(Box::new(|| {
        series("`(b in [` nested d deep, check", &[8, 16, 32, 64], |d| {
            let e = format!("{}b{}", "(b in [".repeat(d / 2), "])".repeat(d / 2));
            book(&format!("fact b: bool\nruling r: bool = {e}"));
        });
        series("YAML with n `[`, parse", &[12_500, 25_000, 50_000, 100_000], |n| {
            let _ = parse(&format!("mp: {}", "[".repeat(n)), Format::Yaml, "g.yaml");
        });
        let c = book("fact mp: number\nruling r: bool = mp < 5000");
        series("unknown key of n bytes, validate", &[12_500, 25_000, 50_000, 100_000], |n| {
            let tree = parse(&format!(r#"{{"{}": 1}}"#, "m".repeat(n)), Format::Json, "g.json").unwrap();
            let _ = validate(&c.program, &tree, "g.json");
        });
        let c = book("type T = record { s: int }\nfact ts: list of T\nruling r: int = count(top(ts, t => t.s, 3))");
        let r = c.program.def_by_name("r").unwrap();
        series("top() of n teams, rule", &[4_000, 8_000, 16_000, 32_000], |n| {
            let teams: Vec<String> = (0..n).map(|i| format!(r#"{{"s": {}}}"#, i % 1000)).collect();
            let tree = parse(&format!(r#"{{"ts": [{}]}}"#, teams.join(",")), Format::Json, "g.json").unwrap();
            let inputs = validate(&c.program, &tree, "g.json").unwrap();
            conditions::eval::rule(&c.program, &inputs, r, false);
        });
        series("table of n rows, lint", &[500, 1_000, 2_000, 4_000], |n| {
            let rows: Vec<String> = (0..n).map(|i| format!("    {i} => {i}")).collect();
            let c = book(&format!(
                "fact k: int\nruling r: int = t(k)\ntable t(k: int): int pick unique {{\n{}\n}}",
                rows.join(",\n")
            ));
            let _ = conditions::lint::run(&conditions::lint::Context { checked: &c, document: None, tested: None });
        });
        series("table of n range rows and `_`, pick first, lint", &[500, 1_000, 2_000, 4_000], |n| {
            let rows: Vec<String> = (0..n).map(|i| format!("    {}..={} => {i}", 10 * i, 10 * i + 9)).collect();
            let c = book(&format!(
                "fact k: int\nruling r: int = t(k)\ntable t(k: int): int pick first {{\n{},\n    _ => 0\n}}",
                rows.join(",\n")
            ));
            let _ = conditions::lint::run(&conditions::lint::Context { checked: &c, document: None, tested: None });
        });
        series("table of n×2 rows on two columns, lint", &[500, 1_000, 2_000, 4_000], |n| {
            let rows: Vec<String> = (0..n).map(|i| format!("    ({i}, ..=4) => {i},\n    ({i}, 5..) => {i}")).collect();
            let c = book(&format!(
                "fact k: int\nfact j: int\nruling r: int = t(k, j)\ntable t(k: int, j: int): int pick unique {{\n{}\n}}",
                rows.join(",\n")
            ));
            let _ = conditions::lint::run(&conditions::lint::Context { checked: &c, document: None, tested: None });
        });
        series("n type errors, human rendering", &[2_500, 5_000, 10_000, 20_000], |n| {
            let defs: Vec<String> = (0..n).map(|i| format!("ruling r{i}: int = true")).collect();
            let c = book(&defs.join("\n"));
            let _ = conditions::diagnostic::render(&c.diagnostics, &c.sources, true);
        });
        let sizes = [2_500, 5_000, 10_000, 20_000];
        let books: Vec<Checked> = sizes
            .iter()
            .map(|&n| book(&(0..n).map(|i| format!("ruling r{i}: int = true")).collect::<Vec<_>>().join("\n")))
            .collect();
        series("n type errors, JSON (checking not timed)", &sizes, |n| {
            let c = &books[sizes.iter().position(|&s| s == n).unwrap()];
            let json: Vec<_> = c.diagnostics.iter().map(|d| conditions::diagnostic::to_json(d, &c.sources)).collect();
            assert!(json.len() >= n);
        });
    }));
}
