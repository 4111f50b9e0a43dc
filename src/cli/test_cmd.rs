//! `conditions test`: runs case files on their rulebooks and ends with `N expectations in M case
//! files: N passed, N failed`.
//!
//! A path is a rulebook folder, a folder of rulebook folders, a folder of case files or one
//! case file (both run on the rulebook above them), or a bundled rulebook's name (`gnt`: its
//! folder in the checkout, or without one the case files bundled into the binary); a path with
//! no case file is an error
//! (exit 2). `--filter WORD` keeps the case files whose path or description holds WORD,
//! `-v` lists every case file, `--format junit` writes JUnit XML for CI, `--coverage`
//! reports the clauses and rules no case exercises, `--min-coverage PCT` fails below it.

use conditions::cases::{Summary, find_cases, run_case};
use conditions::check::Checked;
use conditions::diagnostic::{Diagnostic, render};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TestFormat {
    Text,
    Junit,
}

pub struct TestArgs {
    pub paths: Vec<PathBuf>,
    pub filter: Option<String>,
    pub verbose: bool,
    pub format: TestFormat,
    pub coverage: bool,
    pub min_coverage: Option<u32>,
}

/// Case files grouped by the rulebook they run on.
struct Group {
    root: PathBuf,
    cases: Vec<PathBuf>,
    /// A bundled rulebook run with the case files bundled into the binary (no checkout).
    bundled: Option<String>,
}

/// The text of a case file bundled into the binary, by its repository path.
fn bundled_case(path: &Path) -> Option<&'static str> {
    let shown = path.to_str()?;
    let name = shown.strip_prefix("conditions/")?.split('/').next()?;
    conditions::loader::bundled_cases(name).into_iter().find(|(p, _)| *p == shown).map(|(_, t)| t)
}

fn has_cond_files(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).any(|e| e.path().extension().is_some_and(|x| x == "cond")))
        .unwrap_or(false)
}

/// The rulebook folder a case file or folder of cases belongs to: the nearest folder
/// above it holding `.cond` files.
fn rulebook_of(path: &Path) -> Option<PathBuf> {
    path.ancestors().skip(1).find(|a| has_cond_files(a)).map(Path::to_path_buf)
}

fn no_cases(path: &Path, why: &str) -> Diagnostic {
    Diagnostic::error("conditions::no_case_files", format!("no case files in `{}`{why}", path.display()))
        .in_path(path.display().to_string())
        .help("point at a rulebook folder (its `cases/`), a folder of case files, or a case file (`.toml`)")
}

fn groups_of(path: &Path) -> Result<Vec<Group>, Diagnostic> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Diagnostic::error("conditions::io", format!("cannot read `{}`: {e}", path.display()))
            .in_path(path.display().to_string())
    })?;
    let orphan = |p: &Path| {
        Diagnostic::error("conditions::no_rulebook", format!("no rulebook above `{}`", p.display()))
            .in_path(p.display().to_string())
            .help("case files run on the rulebook whose folder holds them (`RULEBOOK/cases/…`)")
    };
    if meta.is_file() {
        if path.extension().is_none_or(|x| x != "toml") {
            return Err(no_cases(path, ", which is not a case file"));
        }
        let root = rulebook_of(path).ok_or_else(|| orphan(path))?;
        return Ok(vec![Group { root, cases: vec![path.to_path_buf()], bundled: None }]);
    }
    if !has_cond_files(path) && conditions::loader::find_rulebooks(path).is_err() {
        // A folder of case files: they run on the rulebook above it.
        let cases = find_cases(path);
        if cases.is_empty() {
            return Err(no_cases(path, ""));
        }
        let root = rulebook_of(path).ok_or_else(|| orphan(path))?;
        return Ok(vec![Group { root, cases, bundled: None }]);
    }
    let books = conditions::loader::find_rulebooks(path)?;
    Ok(books
        .into_iter()
        .map(|b| Group { cases: find_cases(&b.root.join("cases")), root: b.root, bundled: None })
        .collect())
}

fn description(case: &Path) -> String {
    conditions::cases::read_case(case)
        .ok()
        .or_else(|| bundled_case(case).map(str::to_string))
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("description").and_then(|d| d.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// One case file's outcome.
struct CaseResult {
    case: PathBuf,
    passed: usize,
    failures: Vec<conditions::cases::Failure>,
    /// How long the case file took to run.
    time: std::time::Duration,
}

/// A rulebook's results.
struct BookResult {
    name: String,
    checked: Option<Checked>,
    cases: Vec<CaseResult>,
    summary: Summary,
    /// How long loading the rulebook and running its case files took.
    time: std::time::Duration,
}

pub fn run(args: TestArgs) -> ExitCode {
    let mut groups: Vec<Group> = Vec::new();
    for path in &args.paths {
        // A bundled rulebook's name stands for its folder in the checkout, or without a
        // checkout for the rulebook and case files bundled into the binary.
        let bundled = PathBuf::from("conditions").join(path);
        let name = path.to_str().filter(|n| conditions::loader::bundled_names().contains(n));
        let a_path = path.to_str().is_none_or(conditions::loader::names_a_path);
        if let Some(name) = name
            && !a_path
            && !bundled.is_dir()
        {
            let cases: Vec<PathBuf> =
                conditions::loader::bundled_cases(name).into_iter().map(|(p, _)| PathBuf::from(p)).collect();
            if !groups.iter().any(|g| g.root == bundled) {
                groups.push(Group { root: bundled, cases, bundled: Some(name.to_string()) });
            }
            continue;
        }
        let path = if name.is_some() && !a_path && bundled.is_dir() { &bundled } else { path };
        match groups_of(path) {
            Ok(gs) => {
                for g in gs {
                    match groups.iter_mut().find(|x| x.root == g.root) {
                        Some(x) => x.cases.extend(g.cases),
                        None => groups.push(g),
                    }
                }
            }
            Err(d) => {
                err!("{}", render(&[d], &Default::default(), true));
                return ExitCode::from(2);
            }
        }
    }
    for g in &mut groups {
        g.cases.sort();
        g.cases.dedup();
        if let Some(word) = &args.filter {
            g.cases
                .retain(|c| c.display().to_string().contains(word.as_str()) || description(c).contains(word.as_str()));
        }
    }
    groups.retain(|g| !g.cases.is_empty());
    if groups.is_empty() {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        let why = args.filter.as_ref().map(|w| format!(" whose path or description holds `{w}`")).unwrap_or_default();
        err!("{}", render(&[no_cases(Path::new(&shown.join("`, `")), &why)], &Default::default(), true));
        return ExitCode::from(2);
    }
    let books: Vec<BookResult> = groups.into_iter().map(run_group).collect();
    let passed: usize = books.iter().map(|b| b.summary.passed).sum();
    let failed: usize = books.iter().filter(|b| b.checked.is_some()).map(|b| b.summary.failed.len()).sum();
    let case_files: usize = books.iter().map(|b| b.cases.len()).sum();
    // Case files whose rulebook does not check: none of their expectations ran.
    let not_run: usize = books.iter().filter(|b| b.checked.is_none()).map(|b| b.cases.len()).sum();
    match args.format {
        TestFormat::Junit => outln!("{}", junit(&books)),
        TestFormat::Text => {
            for b in &books {
                report_text(b, args.verbose);
            }
        }
    }
    let mut below = false;
    if args.coverage || args.min_coverage.is_some() {
        for b in &books {
            if let Some(c) = &b.checked {
                below |= coverage(b, c, args.coverage, args.min_coverage, args.format == TestFormat::Text);
            }
        }
    }
    if args.format == TestFormat::Text {
        outln!("{}", totals(passed, failed, case_files, not_run));
    }
    if failed > 0 || not_run > 0 || below { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The last line: `430 expectations in 289 case files: 430 passed, 0 failed`, and the case
/// files not run when a rulebook does not check.
fn totals(passed: usize, failed: usize, case_files: usize, not_run: usize) -> String {
    let mut s = format!(
        "{} in {}: {passed} passed, {failed} failed",
        plural(passed + failed, "expectation", "expectations"),
        plural(case_files, "case file", "case files")
    );
    if not_run > 0 {
        s.push_str(&format!("; {} not run (the rulebook does not check)", plural(not_run, "case file", "case files")));
    }
    s
}

fn run_group(g: Group) -> BookResult {
    let start = std::time::Instant::now();
    let spec = g.bundled.clone().unwrap_or_else(|| g.root.display().to_string());
    let checked = match conditions::loader::load(&spec) {
        Ok(c) => c,
        Err(e) => {
            err!("{}", render(&e.diagnostics, &e.sources, super::plain_stderr()));
            let cases = g
                .cases
                .into_iter()
                .map(|case| CaseResult { case, passed: 0, failures: Vec::new(), time: Default::default() })
                .collect();
            return BookResult { name: spec, checked: None, cases, summary: Summary::default(), time: start.elapsed() };
        }
    };
    let mut summary = Summary::default();
    let mut cases = Vec::new();
    for case in g.cases {
        let mut one = Summary::default();
        let case_start = std::time::Instant::now();
        match g.bundled.as_ref().and(bundled_case(&case)) {
            Some(text) => conditions::cases::run_case_text(&checked, &case, text, &mut one),
            None => run_case(&checked, &case, &mut one),
        }
        summary.passed += one.passed;
        summary.rules_exercised.extend(one.rules_exercised);
        summary.defs_evaluated.extend(one.defs_evaluated);
        let failures: Vec<_> = one.failed.iter().map(clone_failure).collect();
        summary.failed.extend(one.failed);
        cases.push(CaseResult { case, passed: one.passed, failures, time: case_start.elapsed() });
    }
    let name = checked.program.rulebook.name.clone();
    BookResult { name, checked: Some(checked), cases, summary, time: start.elapsed() }
}

fn clone_failure(f: &conditions::cases::Failure) -> conditions::cases::Failure {
    conditions::cases::Failure {
        case: f.case.clone(),
        ruling: f.ruling.clone(),
        message: f.message.clone(),
        explanation: f.explanation.clone(),
    }
}

fn report_text(b: &BookResult, verbose: bool) {
    if b.checked.is_none() {
        for c in &b.cases {
            outln!("FAIL {} — the rulebook `{}` does not check", c.case.display(), b.name);
        }
        return;
    }
    for c in &b.cases {
        if verbose {
            let word = if c.failures.is_empty() { "ok  " } else { "FAIL" };
            outln!("{word} {} ({} passed, {} failed)", c.case.display(), c.passed, c.failures.len());
        }
        for f in &c.failures {
            outln!("FAIL {}{}", f.case.display(), f.ruling.as_ref().map(|r| format!(" — {r}")).unwrap_or_default());
            for line in f.message.lines() {
                outln!("  {line}");
            }
            if let Some(e) = &f.explanation {
                outln!("  explanation:");
                for line in e.lines() {
                    outln!("    {line}");
                }
            }
        }
    }
}

fn xml(s: &str) -> String {
    // XML 1.0 allows no control character but tab, line feed and carriage return, even escaped.
    s.chars()
        .filter(|&c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Seconds with millisecond precision, as JUnit's `time` attributes write them (`0.012`).
fn seconds(d: std::time::Duration) -> String {
    format!("{}.{:03}", d.as_secs(), d.subsec_millis())
}

/// JUnit XML valid against the common `junit-10.xsd` (Jenkins, GitLab, Ant): one test suite per
/// rulebook, one test case per case file. A case file's path is its test case's `system-out`
/// (the schema has no `file` attribute on a test case); a rulebook that does not check makes an
/// `error` of each of its case files, a wrong expectation a `failure`.
fn junit(books: &[BookResult]) -> String {
    let tests: usize = books.iter().map(|b| b.cases.len()).sum();
    let failing = |b: &BookResult| {
        if b.checked.is_none() { 0 } else { b.cases.iter().filter(|c| !c.failures.is_empty()).count() }
    };
    let erring = |b: &BookResult| if b.checked.is_none() { b.cases.len() } else { 0 };
    let failures: usize = books.iter().map(failing).sum();
    let errors: usize = books.iter().map(erring).sum();
    let time = seconds(books.iter().map(|b| b.time).sum());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"conditions\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{time}\">\n"
    ));
    for b in books {
        out.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{}\">\n",
            xml(&b.name),
            b.cases.len(),
            failing(b),
            erring(b),
            seconds(b.time)
        ));
        for c in &b.cases {
            let name = c.case.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            out.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">\n",
                xml(&b.name),
                xml(&name),
                seconds(c.time)
            ));
            if b.checked.is_none() {
                out.push_str("      <error message=\"the rulebook does not check\"/>\n");
            }
            for f in &c.failures {
                let first = f.message.lines().next().unwrap_or_default();
                let head = f.ruling.as_ref().map(|r| format!("{r}: ")).unwrap_or_default();
                out.push_str(&format!(
                    "      <failure message=\"{}\">{}</failure>\n",
                    xml(&format!("{head}{first}")),
                    xml(&f.message)
                ));
            }
            out.push_str(&format!("      <system-out>{}</system-out>\n", xml(&c.case.display().to_string())));
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>");
    out
}

/// Prints which clauses and rules no case exercises; whether rule coverage is below the threshold.
fn coverage(b: &BookResult, c: &Checked, report: bool, min: Option<u32>, text: bool) -> bool {
    let cov = conditions::cases::clause_coverage(&c.program, &b.summary);
    let show = |out: &mut dyn FnMut(String)| {
        out(format!(
            "coverage of `{}`: {} of {} executable clauses, {} of {} rules exercised ({}%)",
            b.name,
            cov.clauses_exercised,
            cov.clauses_executable,
            cov.rules_exercised,
            cov.rules_total,
            cov.rule_percent()
        ));
        if !cov.clauses_missed.is_empty() {
            out(format!("  clauses no case exercises: {}", cov.clauses_missed.join(", ")));
        }
        if !cov.rules_missed.is_empty() {
            out(format!("  rules no case exercises: {}", cov.rules_missed.join(", ")));
        }
    };
    if report {
        if text {
            show(&mut |l| outln!("{l}"));
        } else {
            show(&mut |l| errln!("{l}"));
        }
    }
    match min {
        Some(m) if cov.rule_percent() < m => {
            errln!("error: rule coverage of `{}` is {}%, below --min-coverage {m}", b.name, cov.rule_percent());
            true
        }
        _ => false,
    }
}
