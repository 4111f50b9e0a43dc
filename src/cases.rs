//! Case files: facts and the rulings a careful reader of the conditions expects,
//! worked out by hand. `conditions test` runs them (docs/cases.md).
//!
//! ```toml
//! description = "Nine teams, a tie for the last qualifying place"
//! reading = "…how an ambiguous text was read, and why…"   # optional
//! [facts]
//! results = [{ name = "T1", vps = 80 }, …]
//! [[expect]]
//! ruling = "qualifiers"
//! value = ["T1", "T2", …]            # or: answer = "…", undetermined = ["name"], silent = ["clause"], error = "…"
//! cites = ["Stage 1 I"]
//! steps_under = 100000               # optional: the ruling takes fewer evaluation steps
//! ```

use crate::check::Checked;
use crate::eval::{self, Outcome};
use crate::explain::Explainer;
use crate::facts;
use crate::show::Lang;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    pub description: String,
    #[serde(default)]
    pub reading: Option<String>,
    #[serde(default)]
    pub facts: toml::Table,
    pub expect: Vec<Expectation>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    pub ruling: String,
    /// The expected value, written like a fact of the ruling's type.
    #[serde(default)]
    pub value: Option<toml::Value>,
    /// The expected answer as shown to a person, in the rulebook's language.
    #[serde(default)]
    pub answer: Option<String>,
    /// The names of the facts, decisions or lots the ruling must ask for.
    #[serde(default)]
    pub undetermined: Option<Vec<String>>,
    /// The conditions do not decide the ruling; these clauses must be among the nearest named.
    #[serde(default)]
    pub silent: Option<Vec<String>>,
    /// A part of the expected error message.
    #[serde(default)]
    pub error: Option<String>,
    /// Citations that must appear among the clauses the brief explanation cites: those whose
    /// rules decided, the exceptions that changed the answer, the clauses of what is needed.
    #[serde(default)]
    pub cites: Vec<String>,
    /// Citations that must appear among the clauses of the full derivation (rules that did not
    /// apply included).
    #[serde(default)]
    pub cites_full: Vec<String>,
    /// The ruling (without its explanation) must take fewer evaluation steps than this.
    #[serde(default)]
    pub steps_under: Option<u64>,
}

/// One failed expectation, or a case that could not run.
#[derive(Debug)]
pub struct Failure {
    pub case: PathBuf,
    pub ruling: Option<String>,
    pub message: String,
    pub explanation: Option<String>,
}

#[derive(Debug, Default)]
pub struct Summary {
    pub passed: usize,
    pub failed: Vec<Failure>,
    /// Rules that gave (or agreed with) the value of a definition in some case.
    pub rules_exercised: std::collections::HashSet<crate::check::program::RuleId>,
    /// Definitions evaluated in some case.
    pub defs_evaluated: std::collections::HashSet<crate::check::program::DefId>,
}

/// Case files under `dir` (`*.toml`, recursively), sorted.
pub fn find_cases(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn fail(case: &Path, ruling: Option<&str>, message: String, explanation: Option<String>) -> Failure {
    Failure { case: case.to_path_buf(), ruling: ruling.map(str::to_string), message, explanation }
}

/// Reads a case file, refusing one larger than a facts file may be before reading it.
pub fn read_case(path: &Path) -> std::io::Result<String> {
    crate::loader::read_regular_text(path, facts::MAX_FACTS_BYTES)
}

/// Runs one case file against a checked rulebook; each expectation passes or fails.
pub fn run_case(book: &Checked, path: &Path, summary: &mut Summary) {
    match read_case(path) {
        Ok(text) => run_case_text(book, path, &text, summary),
        Err(e) => summary.failed.push(fail(path, None, format!("cannot read the case file: {e}"), None)),
    }
}

/// Runs a case file given as text (read from `path`, or bundled into the binary).
pub fn run_case_text(book: &Checked, path: &Path, text: &str, summary: &mut Summary) {
    let case: CaseFile = match toml::from_str(text) {
        Ok(c) => c,
        Err(e) => {
            summary.failed.push(fail(path, None, format!("not a valid case file: {}", e.to_string().trim()), None));
            return;
        }
    };
    let p = &book.program;
    let origin = path.display().to_string();
    // The same file read again keeping every number's digits (no binary floating point).
    let raw = match facts::read::toml(text) {
        Ok(t) => t,
        Err(e) => {
            summary.failed.push(fail(path, None, format!("facts: {e}"), None));
            return;
        }
    };
    let tree = raw.get("facts").cloned().unwrap_or_else(|| serde_json::Value::Object(Default::default()));
    let inputs = match facts::validate(p, &tree, &origin) {
        Ok(i) => i,
        Err(errs) => {
            let msgs: Vec<String> =
                errs.iter().map(|d| format!("{}: {}", d.path.clone().unwrap_or_default(), d.message)).collect();
            summary.failed.push(fail(
                path,
                None,
                format!("the facts do not fit the rulebook:\n  {}", msgs.join("\n  ")),
                None,
            ));
            return;
        }
    };
    let lang = Lang::parse(&p.rulebook.language).unwrap_or(Lang::En);
    for (index, exp) in case.expect.iter().enumerate() {
        let Some(def) = p.def_by_name(&exp.ruling) else {
            let names: Vec<&str> = p.defs.iter().map(|d| d.name.as_str()).collect();
            let help = p
                .renamed(&exp.ruling, None)
                .map(|h| format!("({h})"))
                .or_else(|| crate::diagnostic::did_you_mean(&exp.ruling, names.iter().copied()))
                .unwrap_or_default();
            summary.failed.push(fail(
                path,
                Some(&exp.ruling),
                format!("no ruling or definition `{}` {help}", exp.ruling),
                None,
            ));
            continue;
        };
        let ruling = eval::needed::refine(p, &inputs, eval::rule(p, &inputs, def, true));
        if let Some(t) = &ruling.trace {
            for n in &t.nodes {
                summary.defs_evaluated.insert(n.def);
                summary.rules_exercised.extend(n.decided_by.iter().chain(&n.also));
            }
        }
        let explainer = Explainer { p, sources: &book.sources, lang, inputs: &inputs };
        let report = explainer.report(&ruling, false);
        let explanation = || Some(crate::explain::text::render(&report, false));
        let mut problems: Vec<String> = Vec::new();
        match (&ruling.outcome, exp) {
            (Outcome::Decided(v), Expectation { value: Some(_), .. }) => {
                let ty = p.defs[def as usize].ty.clone();
                let want_json = raw["expect"][index].get("value").cloned().unwrap_or(serde_json::Value::Null);
                match facts::convert_value(p, &want_json, &ty, &format!("expect.{}", exp.ruling)) {
                    Ok(w) if w == *v => {}
                    Ok(w) => problems.push(format!(
                        "expected {}, got {}",
                        crate::show::value(p, &w, &ty, lang),
                        crate::show::value(p, v, &ty, lang)
                    )),
                    Err(e) => problems.push(format!("the expected value does not fit the ruling's type: {e}")),
                }
            }
            (_, Expectation { value: Some(_), .. }) => {
                problems.push(format!("expected a value, got: {}", describe(&report)))
            }
            _ => {}
        }
        if let Some(a) = &exp.answer
            && (report.status != "decided" || report.answer != *a)
        {
            problems.push(format!("expected the answer “{a}”, got: {}", describe(&report)));
        }
        if let Some(names) = &exp.undetermined {
            if report.status != "undetermined" {
                problems.push(format!(
                    "expected undetermined (needing {}), got: {}",
                    names.join(", "),
                    describe(&report)
                ));
            } else {
                let mut got: Vec<String> = report.needs.iter().map(|n| n.name.clone()).collect();
                let mut want = names.clone();
                got.sort();
                want.sort();
                if got != want {
                    problems.push(format!("expected needs {}, got {}", want.join(", "), got.join(", ")));
                }
            }
        }
        if let Some(e) = &exp.error {
            match &report.error {
                Some(msg) if msg.contains(e.as_str()) => {}
                _ => problems.push(format!("expected an error containing “{e}”, got: {}", describe(&report))),
            }
        }
        if let Some(near) = &exp.silent {
            if report.status != "silent" {
                problems.push(format!("expected silent (nearest {}), got: {}", near.join(", "), describe(&report)));
            } else if let Some(c) = near.iter().find(|c| !report.nearest.contains(c)) {
                problems.push(format!("expected `{c}` among the nearest clauses, got: {}", report.nearest.join("; ")));
            }
        }
        if exp.value.is_none()
            && exp.answer.is_none()
            && exp.undetermined.is_none()
            && exp.silent.is_none()
            && exp.error.is_none()
        {
            problems.push("the expectation states no `value`, `answer`, `undetermined`, `silent` or `error`".into());
        }
        for c in &exp.cites {
            if !report.clauses.iter().any(|x| x.citation == *c) {
                let got: Vec<&str> = report.clauses.iter().map(|x| x.citation.as_str()).collect();
                problems.push(format!("expected `{c}` among the cited clauses, got: {}", got.join("; ")));
            }
        }
        if !exp.cites_full.is_empty() {
            let full = explainer.report(&ruling, true);
            for c in &exp.cites_full {
                if !full.clauses.iter().any(|x| x.citation == *c) {
                    let got: Vec<&str> = full.clauses.iter().map(|x| x.citation.as_str()).collect();
                    problems.push(format!("expected `{c}` in the full derivation, got: {}", got.join("; ")));
                }
            }
        }
        if let Some(limit) = exp.steps_under {
            let steps = eval::rule(p, &inputs, def, false).steps;
            if steps >= limit {
                problems.push(format!("expected fewer than {limit} evaluation steps, took {steps}"));
            }
        }
        if problems.is_empty() {
            summary.passed += 1;
        } else {
            summary.failed.push(fail(path, Some(&exp.ruling), problems.join("\n"), explanation()));
        }
    }
}

fn describe(r: &crate::explain::Report) -> String {
    match r.status {
        "decided" => format!("decided: {}", r.answer),
        "undetermined" => {
            format!("undetermined, needing {}", r.needs.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        "silent" => format!("silent: {}", r.answer),
        _ => format!("error: {}", r.error.clone().unwrap_or_default()),
    }
}

/// The rulings the case files under `dir` ask for; `None` when there are no case files.
pub fn tested_rulings(dir: &Path) -> Option<std::collections::HashSet<String>> {
    tested_rulings_read(dir).0
}

/// [`tested_rulings`], and the case files that could not be read (not a regular file,
/// unreadable, not UTF-8) with why; a file that is no valid case file is left to `test`.
pub fn tested_rulings_read(dir: &Path) -> (Option<std::collections::HashSet<String>>, Vec<(PathBuf, std::io::Error)>) {
    let files = find_cases(dir);
    if files.is_empty() {
        return (None, Vec::new());
    }
    let mut out = std::collections::HashSet::new();
    let mut unread = Vec::new();
    for f in files {
        let text = match read_case(&f) {
            Ok(t) => t,
            Err(e) => {
                unread.push((f, e));
                continue;
            }
        };
        let Ok(value) = toml::from_str::<toml::Table>(&text) else { continue };
        if let Some(toml::Value::Array(exps)) = value.get("expect") {
            for e in exps {
                if let Some(toml::Value::String(r)) = e.get("ruling") {
                    out.insert(r.clone());
                }
            }
        }
    }
    (Some(out), unread)
}

/// Which executable clauses and which rules the case files exercised.
#[derive(Debug, Default)]
pub struct Coverage {
    pub clauses_executable: usize,
    pub clauses_exercised: usize,
    pub rules_total: usize,
    pub rules_exercised: usize,
    /// Citations of executable clauses no case exercises.
    pub clauses_missed: Vec<String>,
    /// Labels of rules that decided nothing in any case.
    pub rules_missed: Vec<String>,
}

impl Coverage {
    /// Rules exercised, in whole percent (rounded down); 100 when there are no rules.
    pub fn rule_percent(&self) -> u32 {
        (self.rules_exercised * 100).checked_div(self.rules_total).map_or(100, |x| x as u32)
    }
}

/// A clause is executable when it holds rules or definitions, exercised when a case
/// evaluated one of its definitions or one of its rules decided.
pub fn clause_coverage(p: &crate::check::Program, s: &Summary) -> Coverage {
    let mut executable = vec![false; p.clauses.len()];
    let mut exercised = vec![false; p.clauses.len()];
    for (i, d) in p.defs.iter().enumerate() {
        if let Some(c) = d.clause {
            executable[c as usize] = true;
            exercised[c as usize] |= s.defs_evaluated.contains(&(i as u32));
        }
    }
    let mut cov = Coverage { rules_total: p.rules.len(), ..Coverage::default() };
    let mut in_order: Vec<(usize, &crate::check::program::RuleInfo)> = p.rules.iter().enumerate().collect();
    in_order.sort_by_key(|(_, r)| (r.span.file, r.span.start));
    for (i, r) in in_order {
        let hit = s.rules_exercised.contains(&(i as u32));
        if let Some(c) = r.clause {
            executable[c as usize] = true;
            exercised[c as usize] |= hit;
        }
        if hit {
            cov.rules_exercised += 1;
        } else {
            cov.rules_missed.push(r.label.clone());
        }
    }
    for (i, c) in p.clauses.iter().enumerate() {
        if executable[i] {
            cov.clauses_executable += 1;
            if exercised[i] {
                cov.clauses_exercised += 1;
            } else {
                cov.clauses_missed.push(c.citation.clone());
            }
        }
    }
    cov
}

/// The facts of one case file and the rulings it asks for, as `check` reads them.
#[derive(Debug)]
pub struct CaseFacts {
    /// The case file, as found.
    pub path: PathBuf,
    pub inputs: crate::eval::interp::Inputs,
    pub asked: Vec<crate::check::program::DefId>,
}

/// The facts of every case file under `dir` that fit the rulebook; those that cannot be read
/// or do not fit are left to `conditions test`, which reports them.
pub fn case_facts(p: &crate::check::Program, dir: &Path) -> Vec<CaseFacts> {
    let mut out = Vec::new();
    for path in find_cases(dir) {
        let Ok(text) = read_case(&path) else { continue };
        let Ok(raw) = facts::read::toml(&text) else { continue };
        let tree = raw.get("facts").cloned().unwrap_or_else(|| serde_json::Value::Object(Default::default()));
        let Ok(inputs) = facts::validate(p, &tree, &path.display().to_string()) else { continue };
        let asked = raw
            .get("expect")
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .filter_map(|e| p.def_by_name(e.get("ruling")?.as_str()?))
            .collect();
        out.push(CaseFacts { path, inputs, asked });
    }
    out
}
