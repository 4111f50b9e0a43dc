//! Growth benchmarks for the paths that were once super-linear (`cargo bench --bench
//! growth`): each is timed at sizes n, 2n, 4n, 8n and the ratio of successive times is
//! printed; near 2 is linear, near 4 quadratic. The last series checks and lints DBF made
//! 1×, 2×, 5× and 10× its size and prints each time as a ratio to 1× (linear: 2, 5, 10).
//! Figures in docs/performance.md.

use conditions::check::{Checked, check_sources};
use conditions::facts::{Format, parse, validate};
use conditions::source::SourceMap;
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn book(text: &str) -> Checked {
    let mut map = SourceMap::new();
    map.add("g.cond", format!("rulebook \"g\" {{ title \"g\" language \"en\" }}\n{text}\n"));
    check_sources(map)
}

/// DBF `k` times over: the shared files once, and each sectioned file `k` times, copy `j`
/// with its sections and enum variants renamed (`s302` → `s302_j`) and its citations moved to
/// their own numbers (`§ 302A` → `§ j302A`), the published document likewise, so that every
/// copy checks and lints as the original does.
fn dbf_times(k: usize) -> (SourceMap, String) {
    let dbf = conditions::loader::bundled("dbf").expect("DBF is bundled");
    let doc = conditions::loader::bundled_document("dbf", "source.txt").expect("DBF's document is bundled");
    let one = check_sources(dbf.clone());
    let mut names: HashSet<String> = one.program.sections.sections.keys().cloned().collect();
    // Variants are the rulebook's, not their section's: rename those of sectioned files.
    for t in one.program.types.iter().filter(|t| one.program.sections.file_section.contains_key(&t.span.file)) {
        if let conditions::check::program::TypeKind::Enum(vs) = &t.kind {
            names.extend(vs.iter().map(|v| v.name.clone()));
        }
    }
    let mut map = SourceMap::new();
    let mut document = String::new();
    for j in 1..=k {
        let cite = |t: &str| if j == 1 { t.to_string() } else { renumber(t, j) };
        document.push_str(&cite(doc));
        document.push('\n');
        for (_, f) in dbf.files() {
            let sectioned = f.text.lines().any(|l| l.starts_with("section "));
            if j > 1 && !sectioned {
                continue;
            }
            let mut text = f.text.to_string();
            if j > 1 {
                // Outside references are the rulebook's, declared once (by copy 1).
                let shared = |l: &&str| l.trim_start().starts_with("external ") && !l.contains("\"§ 3");
                text = rename(&cite(&text.lines().filter(|l| !shared(l)).collect::<Vec<_>>().join("\n")), &names, j);
            }
            map.add(format!("{j}/{}", f.name), text);
        }
    }
    (map, document)
}

/// `text` with `j` put before the number of each citation of §§ 301–365, however the `§` and
/// the number are spaced (a line may break between them).
fn renumber(text: &str, j: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    let mut rest = text;
    while let Some(at) = rest.find('§') {
        let after = at + '§'.len_utf8();
        let number = after + rest[after..].len() - rest[after..].trim_start().len();
        out.push_str(&rest[..number]);
        if rest[number..].starts_with('3') {
            out.push_str(&j.to_string());
        }
        rest = &rest[number..];
    }
    out.push_str(rest);
    out
}

/// `text` with each of `names` that stands alone as a word outside strings and comments
/// followed by `_j`.
fn rename(text: &str, names: &HashSet<String>, j: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    let mut rest = text;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    while let Some(c) = rest.chars().next() {
        let skip = if rest.starts_with("\"\"\"") {
            rest[3..].find("\"\"\"").map_or(rest.len(), |e| e + 6)
        } else if c == '"' {
            rest[1..].find('"').map_or(rest.len(), |e| e + 2)
        } else if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if word(c) {
            let n = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
            out.push_str(&rest[..n]);
            if names.contains(&rest[..n]) {
                out.push_str(&format!("_{j}"));
            }
            rest = &rest[n..];
            continue;
        } else {
            c.len_utf8()
        };
        out.push_str(&rest[..skip]);
        rest = &rest[skip..];
    }
    out
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

fn wanted(name: &str) -> bool {
    // `cargo bench --bench growth -- table` runs only the series whose names contain "table".
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    filter.is_empty() || filter.iter().any(|w| name.contains(w.as_str()))
}

fn series(name: &str, sizes: &[usize], f: impl Fn(usize)) {
    if !wanted(name) {
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

/// Check and lint (with the published document) of DBF made 1×, 2×, 5× and 10× its size, each
/// time given as a ratio to 1×: linear is 2, 5 and 10.
fn dbf_series() {
    let name = "DBF k times, check and lint";
    if !wanted(name) {
        return;
    }
    let mut line = format!("{name:<44}");
    let mut one: Option<Duration> = None;
    // `DBF_TIMES=1,2 cargo bench --bench growth -- DBF` for other sizes.
    let sizes: Vec<usize> = std::env::var("DBF_TIMES")
        .map(|v| v.split(',').filter_map(|k| k.trim().parse().ok()).collect())
        .unwrap_or_else(|_| vec![1, 2, 5, 10]);
    for k in sizes {
        let (map, document) = dbf_times(k);
        let run = || {
            let c = check_sources(map.clone());
            assert!(!c.has_errors(), "DBF ×{k} checks: {:?}", c.diagnostics.iter().find(|d| d.is_error()));
            let ctx = conditions::lint::Context { checked: &c, document: Some(&document), tested: None };
            conditions::lint::run(&ctx).len()
        };
        let findings = run();
        let t = time(|| {
            run();
        });
        let ratio = one.map(|o| t.as_secs_f64() / o.as_secs_f64().max(1e-9)).unwrap_or(1.0);
        one.get_or_insert(t);
        line.push_str(&format!("  {k}×: {:.0} ms (×{ratio:.1}, {findings} findings)", t.as_secs_f64() * 1e3));
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
        dbf_series();
    }));
}
