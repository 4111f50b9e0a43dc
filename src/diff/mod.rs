//! `conditions diff`: what an edit of a rulebook changes. Two checked versions are
//! compared clause by clause (word-level differences of texts and glosses; rules,
//! definitions, facts and decisions added, removed or changed), then every case file
//! and every facts line is ruled by both: the rulings whose answer, status or cited
//! clauses change, with both explanations, and the case files whose expectations the
//! new version breaks. Names renamed between the versions ([`renames`]) are reported as
//! renames, and the old version rules on the facts translated back into its names, so
//! that only real changes of answer show; facts that no rename translates are counted apart.
//! Rendering is in [`render`].

pub mod renames;
pub mod render;
pub mod words;

use crate::cases::{CaseFile, Summary, run_case};
use crate::check::Checked;
use crate::check::program::Program;
use crate::explain::Explainer;
use crate::show::Lang;
use crate::source::SourceMap;
use crate::syntax::ast::Span;
use indexmap::IndexMap;
use renames::{Ambiguous, Rename, Renames};
use serde::Serialize;
use std::path::{Path, PathBuf};
use words::Run;

/// One version of a rulebook, as shown to the reader (`conditions/gnt`, `HEAD~1:conditions/gnt`).
pub struct Version {
    pub label: String,
    pub checked: Checked,
}

/// Where the rulings are compared.
#[derive(Default)]
pub struct Inputs {
    /// Case files, each with the name it is shown by.
    pub cases: Vec<(String, PathBuf)>,
    /// Facts files of JSON lines, each with the name it is shown by.
    pub facts: Vec<(String, PathBuf)>,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub old: String,
    pub new: String,
    pub clauses: Vec<ClauseChange>,
    pub rulings: Vec<RulingChange>,
    /// Case file expectations the new version breaks (that the old one met).
    pub broken: Vec<Broken>,
    pub cases_compared: usize,
    pub facts_lines_compared: usize,
    /// Inputs that could not be compared: unreadable case files, facts lines that are not JSON.
    pub problems: Vec<String>,
    /// Names renamed between the versions.
    pub renames: Vec<Rename>,
    /// Names the heuristic could pair in more than one way: not renamed.
    pub ambiguous_renames: Vec<Ambiguous>,
    /// `renamed from` notes of the new version that name no rename between these versions.
    pub unused_rename_notes: Vec<String>,
    /// Case files and facts lines whose facts do not fit a version (no rename translates
    /// them): not ruled, and not counted as changes.
    pub not_compared: Vec<NotCompared>,
}

impl Report {
    pub fn changed(&self) -> bool {
        !self.clauses.is_empty() || !self.rulings.is_empty() || !self.broken.is_empty() || !self.renames.is_empty()
    }
    /// How many case files, and how many facts lines, have a changed ruling.
    pub fn changed_counts(&self) -> (usize, usize) {
        let mut seen: Vec<&str> = Vec::new();
        let (mut cases, mut lines) = (0, 0);
        for r in &self.rulings {
            if !seen.contains(&r.source.as_str()) {
                seen.push(&r.source);
                if r.facts_line {
                    lines += 1;
                } else {
                    cases += 1;
                }
            }
        }
        (cases, lines)
    }

    /// The case files and facts lines with a changed ruling, in order, without repeats.
    pub fn changed_sources(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rulings {
            if !out.contains(&r.source.as_str()) {
                out.push(&r.source);
            }
        }
        out
    }
}

#[derive(Debug, Serialize)]
pub struct ClauseChange {
    pub citation: String,
    /// `added`, `removed` or `changed`.
    pub kind: &'static str,
    pub parts: Vec<PartChange>,
    pub declarations: Vec<DeclChange>,
    /// Where the clause stands in the new version (the old one when removed).
    pub file: Option<String>,
    pub line: Option<usize>,
}

#[derive(Debug, Serialize)]
pub struct PartChange {
    /// `heading`, `text`, `gloss` or `informational`.
    pub part: &'static str,
    pub runs: Vec<Run>,
}

#[derive(Debug, Serialize)]
pub struct NotCompared {
    /// The case file or facts line.
    pub source: String,
    /// Why, in words: which version the facts do not fit, and the first problems.
    pub reason: String,
}

#[derive(Debug, Serialize)]
pub struct DeclChange {
    /// `rule`, `definition`, `fact`, `decision` or `type`.
    pub what: &'static str,
    pub name: String,
    /// `added`, `removed`, `changed` or `renamed`.
    pub kind: &'static str,
    /// The name in the old version, when renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    /// The source before and after, white space folded; of a changed type written over
    /// several lines (a record), only the lines that differ, one a line.
    pub old: Option<String>,
    pub new: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct RulingChange {
    /// The case file or facts line (`facts.jsonl:3`).
    pub source: String,
    /// Whether the source is a facts line (else a case file).
    #[serde(skip)]
    pub facts_line: bool,
    pub ruling: String,
    pub old: Side,
    pub new: Side,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct Side {
    pub status: String,
    pub answer: String,
    pub cites: Vec<String>,
    pub explanation: String,
}

#[derive(Debug, Serialize)]
pub struct Broken {
    pub case: String,
    pub ruling: Option<String>,
    pub message: String,
}

const OUTSIDE: &str = "(declarations outside clauses)";

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The declarations of each clause: (what, name) → source text as written.
fn declarations(c: &Checked) -> IndexMap<String, IndexMap<(&'static str, String), String>> {
    let p = &c.program;
    let mut out: IndexMap<String, IndexMap<(&'static str, String), String>> = IndexMap::new();
    let mut add = |clause: Option<u32>, what: &'static str, name: &str, span: Span| {
        let key = p.citation_of(clause).unwrap_or(OUTSIDE).to_string();
        out.entry(key).or_default().insert((what, name.to_string()), c.sources.snippet(span).to_string());
    };
    for r in &p.rules {
        add(r.clause, "rule", &r.label, r.span);
    }
    for d in &p.defs {
        add(d.clause, "definition", &d.name, d.span);
    }
    for f in &p.facts {
        add(f.clause, "fact", &f.name, f.span);
    }
    for d in &p.decisions {
        add(d.clause, "decision", &d.name, d.span);
    }
    for t in &p.types {
        add(None, "type", &t.name, t.span);
    }
    out
}

/// The lines of a changed declaration written over several lines (a record's fields) that
/// differ, before and after, one a line with white space folded; the whole declarations
/// when no line differs (lines moved, or one line rewrapped).
fn changed_lines(old: &str, new: &str, renames: &Renames) -> (String, String) {
    // Each line as written, and as compared: a line changed only by a rename is no change.
    let lines = |t: &str, norm: &dyn Fn(&str) -> String| {
        t.lines().map(squeeze).filter(|l| !l.is_empty()).map(|l| (norm(&l), l)).collect::<Vec<_>>()
    };
    let a = lines(old, &|l| renamed_text(l, renames));
    let b = lines(new, &|l| unnoted(l, renames));
    let only = |xs: &[(String, String)], ys: &[(String, String)]| {
        let mut left: Vec<&String> = ys.iter().map(|y| &y.0).collect();
        let mut out = Vec::new();
        for (norm, line) in xs {
            match left.iter().position(|y| *y == norm) {
                Some(i) => {
                    left.remove(i);
                }
                None => out.push(line.clone()),
            }
        }
        out
    };
    let (gone, came) = (only(&a, &b), only(&b, &a));
    if gone.is_empty() && came.is_empty() || a.len() < 2 {
        return (squeeze(old), squeeze(new));
    }
    (gone.join("\n"), came.join("\n"))
}

/// Whether two texts of a declaration differ only by the renames.
fn only_renamed(old: &str, new: &str, renames: &Renames) -> bool {
    !renames.renames.is_empty() && squeeze(&renamed_text(old, renames)) == squeeze(&unnoted(new, renames))
}

/// The old text of a declaration with each renamed name written new: whole names outside
/// quoted texts only (`masterpoints` in `masterpoints_now` or in a description stays).
fn renamed_text(old: &str, renames: &Renames) -> String {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let words = |t: &str, from: &str, to: &str| {
        let mut out = String::with_capacity(t.len());
        for (k, piece) in t.split('"').enumerate() {
            if k > 0 {
                out.push('"');
            }
            if k % 2 == 1 {
                out.push_str(piece);
                continue;
            }
            let mut rest = piece;
            while let Some(i) = rest.find(from) {
                let before = rest[..i].chars().next_back();
                let after = rest[i + from.len()..].chars().next();
                out.push_str(&rest[..i]);
                out.push_str(if before.is_some_and(ident) || after.is_some_and(ident) { from } else { to });
                rest = &rest[i + from.len()..];
            }
            out.push_str(rest);
        }
        out
    };
    renames.renames.iter().fold(old.to_string(), |t, r| words(&t, short_name(&r.old), short_name(&r.new)))
}

/// The new text of a declaration without its `renamed from` notes.
fn unnoted(new: &str, renames: &Renames) -> String {
    renames.renames.iter().fold(new.to_string(), |t, r| t.replace(&format!(" renamed from {}", short_name(&r.old)), ""))
}

fn short_name(n: &str) -> &str {
    n.rsplit('.').next().unwrap_or(n)
}

fn parts_of(p: &Program, citation: &str) -> [(&'static str, Option<String>); 4] {
    let c = p.citations.get(citation).map(|&id| p.clause(id));
    [
        ("heading", c.and_then(|c| c.heading.clone())),
        ("text", c.and_then(|c| c.text.clone())),
        ("gloss", c.and_then(|c| c.gloss.clone())),
        ("informational", c.and_then(|c| c.informational.clone())),
    ]
}

fn place(c: &Checked, citation: &str) -> (Option<String>, Option<usize>) {
    let p = &c.program;
    if let Some(&id) = p.citations.get(citation) {
        let span = p.clause(id).citation_span;
        let file = c.sources.get(span.file).map(|f| f.name.clone());
        return (file, Some(c.sources.line_col(span).0));
    }
    (None, None)
}

/// The clauses whose texts or declarations differ, in the new version's order (removed
/// clauses after, in the old one's).
pub fn clauses(old: &Checked, new: &Checked) -> Vec<ClauseChange> {
    clauses_renamed(old, new, &Renames::default())
}

/// [`clauses`], a renamed declaration shown as renamed (under its new name, with its old one).
pub fn clauses_renamed(old: &Checked, new: &Checked, renames: &Renames) -> Vec<ClauseChange> {
    let (mut od, nd) = (declarations(old), declarations(new));
    // The old declarations keyed by their new names; what each was called before.
    let mut was: std::collections::HashMap<(&'static str, String), String> = Default::default();
    for r in renames.renames.iter().filter(|r| r.record.is_none()) {
        let what = if matches!(r.what, "ruling" | "definition") { "definition" } else { r.what };
        for decls in od.values_mut() {
            if let Some(text) = decls.shift_remove(&(what, r.old.clone())) {
                decls.insert((what, r.new.clone()), text);
                was.insert((what, r.new.clone()), r.old.clone());
            }
        }
    }
    let mut citations: Vec<String> = new.program.clauses.iter().map(|c| c.citation.clone()).collect();
    for c in &old.program.clauses {
        if !citations.contains(&c.citation) {
            citations.push(c.citation.clone());
        }
    }
    citations.push(OUTSIDE.to_string());
    let empty = IndexMap::new();
    let mut out = Vec::new();
    for cit in citations {
        let in_old = cit == OUTSIDE || old.program.citations.contains_key(&cit);
        let in_new = cit == OUTSIDE || new.program.citations.contains_key(&cit);
        let mut parts = Vec::new();
        for ((name, a), (_, b)) in parts_of(&old.program, &cit).into_iter().zip(parts_of(&new.program, &cit)) {
            if a != b {
                parts.push(PartChange {
                    part: name,
                    runs: words::diff(a.as_deref().unwrap_or_default(), b.as_deref().unwrap_or_default()),
                });
            }
        }
        let (a, b) = (od.get(&cit).unwrap_or(&empty), nd.get(&cit).unwrap_or(&empty));
        let mut decls = Vec::new();
        for (key, text) in b {
            match a.get(key) {
                None => decls.push(DeclChange {
                    what: key.0,
                    name: key.1.clone(),
                    kind: "added",
                    old_name: was.get(key).cloned(),
                    old: None,
                    new: Some(squeeze(text)),
                }),
                // A declaration that differs only by a rename is said once, under "renames".
                Some(o) if was.contains_key(key) || squeeze(o) != squeeze(text) && !only_renamed(o, text, renames) => {
                    let (old, new) =
                        if key.0 == "type" { changed_lines(o, text, renames) } else { (squeeze(o), squeeze(text)) };
                    decls.push(DeclChange {
                        what: key.0,
                        name: key.1.clone(),
                        kind: if was.contains_key(key) { "renamed" } else { "changed" },
                        old_name: was.get(key).cloned(),
                        old: Some(old),
                        new: Some(new),
                    })
                }
                Some(_) => {}
            }
        }
        for (key, text) in a {
            if !b.contains_key(key) {
                decls.push(DeclChange {
                    what: key.0,
                    name: key.1.clone(),
                    kind: "removed",
                    old_name: was.get(key).cloned(),
                    old: Some(squeeze(text)),
                    new: None,
                });
            }
        }
        let kind = match (in_old, in_new) {
            (false, true) => "added",
            (true, false) => "removed",
            _ if parts.is_empty() && decls.is_empty() => continue,
            _ => "changed",
        };
        let (file, line) = if in_new { place(new, &cit) } else { place(old, &cit) };
        out.push(ClauseChange { citation: cit, kind, parts, declarations: decls, file, line });
    }
    out
}

fn side(c: &Checked, inputs: &crate::eval::interp::Inputs, ruling: &str) -> Side {
    let p = &c.program;
    let Some(def) = p.def_by_name(ruling) else {
        return Side {
            status: "missing".into(),
            answer: format!("no ruling `{ruling}`"),
            cites: Vec::new(),
            explanation: String::new(),
        };
    };
    let lang = Lang::parse(&p.rulebook.language).unwrap_or(Lang::En);
    let explainer = Explainer { p, sources: &c.sources, lang, inputs };
    let r = crate::eval::rule(p, inputs, def, true);
    let report = explainer.report(&r, false);
    Side {
        status: report.status.to_string(),
        answer: if report.status == "error" { report.error.clone().unwrap_or_default() } else { report.answer.clone() },
        cites: report.clauses.iter().map(|c| c.citation.clone()).collect(),
        explanation: crate::explain::text::render(&report, false),
    }
}

fn inputs_for(c: &Checked, tree: &serde_json::Value, origin: &str) -> Result<crate::eval::interp::Inputs, String> {
    crate::facts::validate(&c.program, tree, origin).map_err(|errs| {
        errs.iter()
            .map(|d| format!("{}: {}", d.path.clone().unwrap_or_default(), d.message))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// The facts of one case file or facts line: as written (the new version's names) and as
/// translated into the old version's names.
struct Facts<'a> {
    source: &'a str,
    facts_line: bool,
    old: &'a serde_json::Value,
    new: &'a serde_json::Value,
}

/// Rules the same facts by both versions; a change when status, answer or citations differ.
/// Facts that do not fit a version are not ruled: counted apart, with the reason in words.
/// Each ruling is named as in the new version, and asked of the old one by its old name.
/// Whether the facts were compared.
fn compare(
    old: &Checked,
    new: &Checked,
    facts: Facts,
    rulings: &[String],
    renames: &Renames,
    report: &mut Report,
) -> bool {
    let source = facts.source;
    let (a, b) = (inputs_for(old, facts.old, source), inputs_for(new, facts.new, source));
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            let reason = match (a.err(), b.err()) {
                (Some(e), None) => {
                    format!("the facts do not fit the old version, and no rename translates them: {e}")
                }
                (None, Some(e)) => format!("the facts do not fit the new version: {e}"),
                (x, y) => format!(
                    "the facts fit neither version: old: {}; new: {}",
                    x.unwrap_or_default(),
                    y.unwrap_or_default()
                ),
            };
            report.not_compared.push(NotCompared { source: source.to_string(), reason });
            return false;
        }
    };
    for ruling in rulings {
        let (x, y) = (side(old, &a, renames.old_def(ruling)), side(new, &b, ruling));
        if (&x.status, &x.answer, &x.cites) != (&y.status, &y.answer, &y.cites) {
            report.rulings.push(RulingChange {
                source: source.to_string(),
                facts_line: facts.facts_line,
                ruling: ruling.clone(),
                old: x,
                new: y,
            });
        }
    }
    true
}

fn failures(c: &Checked, case: &Path, text: Option<&str>) -> Vec<crate::cases::Failure> {
    let mut s = Summary::default();
    match text {
        Some(t) => crate::cases::run_case_text(c, case, t, &mut s),
        None => run_case(c, case, &mut s),
    }
    s.failed
}

/// Compares two versions over the given case files and facts lines, with the renames that
/// the new version notes and the heuristic finds.
pub fn diff(old: &Version, new: &Version, inputs: &Inputs) -> Report {
    let renames = renames::find_renames(&old.checked, &new.checked, &[]).unwrap_or_default();
    diff_renamed(old, new, inputs, &renames)
}

/// Compares two versions over the given case files and facts lines; `renames` (from
/// [`renames::find_renames`]) translate facts and rulings back into the old version's names.
pub fn diff_renamed(old: &Version, new: &Version, inputs: &Inputs, renames: &Renames) -> Report {
    let mut report = Report {
        old: old.label.clone(),
        new: new.label.clone(),
        clauses: clauses_renamed(&old.checked, &new.checked, renames),
        rulings: Vec::new(),
        broken: Vec::new(),
        cases_compared: 0,
        facts_lines_compared: 0,
        problems: Vec::new(),
        renames: renames.renames.clone(),
        ambiguous_renames: renames.ambiguous.clone(),
        unused_rename_notes: renames.unused_notes.clone(),
        not_compared: Vec::new(),
    };
    for (name, case) in &inputs.cases {
        let file = crate::cases::read_case(case)
            .map_err(|e| e.to_string())
            .and_then(|t| toml::from_str::<CaseFile>(&t).map(|f| (t, f)).map_err(|e| e.to_string().trim().to_string()));
        let (text, file) = match file {
            Ok(x) => x,
            Err(e) => {
                report.problems.push(format!("{name}: not a readable case file: {e}"));
                continue;
            }
        };
        let tree = crate::facts::read::toml(&text)
            .ok()
            .and_then(|t| t.get("facts").cloned())
            .unwrap_or_else(|| serde_json::Value::Object(Default::default()));
        let mut rulings: Vec<String> = Vec::new();
        for e in &file.expect {
            if !rulings.contains(&e.ruling) {
                rulings.push(e.ruling.clone());
            }
        }
        let old_tree = renames.translate_json(&new.checked.program, &tree);
        let facts = Facts { source: name, facts_line: false, old: &old_tree, new: &tree };
        // Facts that fit one version only are counted apart, never as broken expectations.
        report.cases_compared += 1;
        if !compare(&old.checked, &new.checked, facts, &rulings, renames, &mut report) {
            continue;
        }
        let translated = renames.translate_case(&new.checked.program, &text, &tree);
        let before = failures(&old.checked, case, translated.as_deref());
        for f in failures(&new.checked, case, None) {
            let old_ruling = f.ruling.as_deref().map(|r| renames.old_def(r));
            if !before.iter().any(|b| b.ruling.as_deref() == old_ruling) {
                report.broken.push(Broken { case: name.clone(), ruling: f.ruling, message: f.message });
            }
        }
    }
    let rulings: Vec<String> = new.checked.program.rulings().map(|(_, d)| d.name.clone()).collect();
    for (name, path) in &inputs.facts {
        let text = match crate::loader::read_text(path, crate::facts::MAX_FACTS_BYTES) {
            Ok(t) => t,
            Err(e) => {
                report.problems.push(format!("{name}: cannot read the facts file: {e}"));
                continue;
            }
        };
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let source = format!("{name}:{}", n + 1);
            let tree = match crate::facts::read::json(line) {
                Ok(t) => t,
                Err(e) => {
                    report.problems.push(format!("{source}: not valid JSON: {e}"));
                    continue;
                }
            };
            let old_tree = renames.translate_json(&new.checked.program, &tree);
            let facts = Facts { source: &source, facts_line: true, old: &old_tree, new: &tree };
            compare(&old.checked, &new.checked, facts, &rulings, renames, &mut report);
            report.facts_lines_compared += 1;
        }
    }
    report
}

/// Reads a rulebook from a map of sources: the files of a git revision, for instance.
pub fn check_sources(sources: SourceMap) -> Checked {
    crate::check::check_read(sources, Vec::new())
}
