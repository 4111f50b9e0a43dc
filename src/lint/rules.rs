//! Rule lints: rules for one question that may both apply and disagree with no
//! exception between them (`lint::conflict` when it is certain or has a witness,
//! `lint::possible_conflict` otherwise), rules and exceptions that can never matter, and
//! declarations nothing uses.

use super::logic::{F, Space};
use super::witness::{self, Open, Witness};
use crate::base::value::Value;
use crate::check::program::*;
use crate::diagnostic::Diagnostic;
use std::collections::HashSet;

/// How two rules of one definition stand to each other, as the evaluator meets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// They can never both give the value of their trees.
    Apart,
    /// Whenever one gives its value, so does the other, with a different value.
    Certain { a_implies_b: bool, b_implies_a: bool },
    /// Facts a case can state make both give their values, different ones.
    Witnessed(Witness),
    /// They may both apply with different values; it cannot be ruled out.
    Possible,
}

fn same_constant(a: &RuleInfo, b: &RuleInfo) -> bool {
    matches!((&a.value.kind, &b.value.kind), (IrKind::Const(x), IrKind::Const(y)) if x == y)
}

fn different_constants(a: &RuleInfo, b: &RuleInfo) -> bool {
    matches!((&a.value.kind, &b.value.kind), (IrKind::Const(x), IrKind::Const(y)) if x != y)
}

/// Whether one of the two rules overrides the other, directly or through a chain of exceptions.
pub fn related(p: &Program, a: RuleId, b: RuleId) -> bool {
    let overrides = |x: RuleId, y: RuleId| {
        let mut stack = vec![x];
        let mut seen = HashSet::new();
        while let Some(r) = stack.pop() {
            if r == y {
                return true;
            }
            if seen.insert(r) {
                stack.extend(&p.rules[r as usize].overrides);
            }
        }
        false
    };
    overrides(a, b) || overrides(b, a)
}

/// Judges two rules of one definition: can both give the value of their exception
/// trees (each applies, none of its exceptions does) with different values?
pub fn judge(p: &Program, ra: RuleId, rb: RuleId) -> Verdict {
    let (a, b) = (&p.rules[ra as usize], &p.rules[rb as usize]);
    if related(p, ra, rb) || same_constant(a, b) {
        return Verdict::Apart;
    }
    let mut s = Space::new(p);
    let (wa, wb) = (s.wins(ra), s.wins(rb));
    let sat = |f: F| s.satisfiable(&f);
    match sat(F::and(wa.clone(), wb.clone())) {
        Some(false) => return Verdict::Apart,
        None => return Verdict::Possible,
        Some(true) => {}
    }
    let a_implies_b = sat(F::and(wa.clone(), F::negate(wb.clone()))) == Some(false);
    let b_implies_a = sat(F::and(wb.clone(), F::negate(wa.clone()))) == Some(false);
    if s.approximate || !different_constants(a, b) {
        return Verdict::Possible;
    }
    if a_implies_b || b_implies_a {
        return Verdict::Certain { a_implies_b, b_implies_a };
    }
    match s.witness(&F::and(wa, wb)) {
        Some(world) => {
            let shown = |r: &RuleInfo| match &r.value.kind {
                IrKind::Const(v) => crate::show::plain(p, v, &p.defs[r.def as usize].ty),
                _ => String::new(),
            };
            Verdict::Witnessed(witness::from_analysis(p, &world, (shown(a), shown(b))))
        }
        None => Verdict::Possible,
    }
}

/// Every pair of rules for one question that may give different values with neither
/// overriding the other: an error when it is certain or a witness shows it (found by the
/// analysis, or in the case files under `cases`, read only when the analysis leaves a
/// conflict open), a warning when it can be neither shown nor ruled out.
pub fn conflicts(p: &Program, cases: Option<&std::path::Path>) -> Vec<Diagnostic> {
    let mut found: Vec<(DefId, RuleId, RuleId, Verdict)> = Vec::new();
    for (d, def) in p.defs.iter().enumerate() {
        let rules = &def.rules;
        for (i, &ra) in rules.iter().enumerate() {
            for &rb in &rules[i + 1..] {
                let verdict = judge(p, ra, rb);
                if verdict != Verdict::Apart {
                    found.push((d as DefId, ra, rb, verdict));
                }
            }
        }
    }
    let open: Vec<(usize, Open)> = found
        .iter()
        .enumerate()
        .filter(|(_, f)| f.3 == Verdict::Possible)
        .map(|(i, &(def, a, b, _))| (i, Open { def, a, b }))
        .collect();
    if let Some(dir) = cases.filter(|_| !open.is_empty()) {
        let facts = crate::cases::case_facts(p, dir);
        let (at, open): (Vec<usize>, Vec<Open>) = open.into_iter().unzip();
        for (i, w) in at.into_iter().zip(witness::from_cases(p, &open, &facts)) {
            if let Some(w) = w {
                found[i].3 = Verdict::Witnessed(w);
            }
        }
    }
    found.into_iter().map(|(d, ra, rb, v)| conflict_finding(p, &p.defs[d as usize], ra, rb, v)).collect()
}

fn conflict_finding(p: &Program, def: &DefInfo, ra: RuleId, rb: RuleId, verdict: Verdict) -> Diagnostic {
    let (a, b) = (&p.rules[ra as usize], &p.rules[rb as usize]);
    let cite = |r: &RuleInfo| p.citation_of(r.clause).map(|c| format!(" ({c})")).unwrap_or_default();
    let (la, lb) = (format!("`{}`{}", a.label, cite(a)), format!("`{}`{}", b.label, cite(b)));
    match verdict {
        Verdict::Witnessed(w) => Diagnostic::error(
            "lint::conflict",
            format!(
                "rules {la} and {lb} both apply to `{}` and give different values ({} and {}) for {}",
                def.name,
                w.values.0,
                w.values.1,
                w.describe()
            ),
        )
        .at(b.span, format!("gives {}", w.values.1))
        .at(a.span, format!("gives {}", w.values.0))
        .help(format!(
            "say which is the exception (`overrides {}` on `{}`, or the other way round), or narrow a condition so that these facts meet only one",
            a.label, b.label
        )),
        Verdict::Certain { a_implies_b, b_implies_a } => {
            let message = match (a_implies_b, b_implies_a) {
                (true, true) => format!("rules {la} and {lb} give `{}` different values in exactly the same cases", def.name),
                (true, false) => format!("whenever rule {la} applies, so does {lb}, with a different value for `{}`", def.name),
                _ => format!("whenever rule {lb} applies, so does {la}, with a different value for `{}`", def.name),
            };
            Diagnostic::error("lint::conflict", message)
                .at(b.span, if a_implies_b { "applies whenever the other does" } else { "applies in fewer cases" })
                .at(a.span, if b_implies_a { "applies whenever the other does" } else { "applies in fewer cases" })
                .help(format!(
                    "say which is the exception (`overrides {}` on `{}`, or the other way round), or narrow a condition",
                    a.label, b.label
                ))
        }
        _ => Diagnostic::warning(
            "lint::possible_conflict",
            format!(
                "rules {la} and {lb} for `{}` may both apply with different values; it cannot be shown that their conditions exclude each other",
                def.name
            ),
        )
        .at(b.span, "may apply together with the other")
        .at(a.span, "first rule")
        .help("write the conditions as comparisons of the same value (`x < 2000` / `x >= 2000`), or declare an exception with `overrides`"),
    }
}

/// Rules whose patterns and condition can never hold together; exceptions for other
/// arguments than the rule they override.
pub fn dead(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (id, r) in p.rules.iter().enumerate() {
        let mut s = Space::new(p);
        let own = s.applies(id as RuleId);
        if s.satisfiable(&own) == Some(false) {
            let (span, label) = match &r.guard {
                Some(g) if matches!(g.kind, IrKind::Const(Value::Bool(false))) => {
                    (g.span, "this condition is always false")
                }
                Some(g) => (g.span, "this condition never holds for the arguments the rule takes"),
                None => (r.span, "its patterns match nothing"),
            };
            out.push(
                Diagnostic::warning("lint::dead_rule", format!("rule `{}` can never apply", r.label))
                    .at(span, label)
                    .help("remove the rule, or correct its condition"),
            );
            continue;
        }
        for &base in &r.overrides {
            let b = &p.rules[base as usize];
            let (mine, theirs) = (s.matches_args(id as RuleId), s.matches_args(base));
            if s.satisfiable(&F::and(mine, theirs)) == Some(false) {
                out.push(
                    Diagnostic::warning(
                        "lint::exception_never_meets",
                        format!("`{}` overrides `{}`, but they never concern the same arguments", r.label, b.label),
                    )
                    .at(r.span, "an exception for other arguments")
                    .at(b.span, "the rule it names")
                    .help("an exception must be able to apply where its rule does"),
                );
            }
        }
    }
    out
}

fn walk(ir: &Ir, facts: &mut HashSet<u32>, decisions: &mut HashSet<u32>, defs: &mut HashSet<u32>) {
    ir.visit(&mut |x| match x.kind {
        IrKind::Fact(f) => {
            facts.insert(f);
        }
        IrKind::Decision(d) | IrKind::Draw(d, ..) => {
            decisions.insert(d);
        }
        IrKind::Call(d, _) => {
            defs.insert(d);
        }
        _ => {}
    });
}

/// Facts, decisions, definitions and external references that nothing uses; rulings no
/// case file exercises (when the rulebook has case files).
pub fn unused(p: &Program, tested: Option<&HashSet<String>>) -> Vec<Diagnostic> {
    let (mut facts, mut decisions, mut defs) = (HashSet::new(), HashSet::new(), HashSet::new());
    for r in &p.rules {
        walk(&r.value, &mut facts, &mut decisions, &mut defs);
        if let Some(g) = &r.guard {
            walk(g, &mut facts, &mut decisions, &mut defs);
        }
    }
    for d in &p.defs {
        if let Some(t) = &d.table {
            for row in &t.rows {
                walk(&row.value, &mut facts, &mut decisions, &mut defs);
            }
        }
    }
    let mut out = Vec::new();
    for (i, f) in p.facts.iter().enumerate() {
        if !facts.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_fact", format!("fact `{}` is never read", f.name))
                    .at(f.span, "declared here")
                    .help("use it in a rule, or remove the declaration"),
            );
        }
    }
    for (i, d) in p.decisions.iter().enumerate() {
        if !decisions.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_decision", format!("decision `{}` is never asked for", d.name))
                    .at(d.span, "declared here")
                    .help("use it in a rule, or remove the declaration"),
            );
        }
    }
    for (i, d) in p.defs.iter().enumerate() {
        if !d.is_ruling() && !defs.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_definition", format!("`{}` is defined but never used", d.name))
                    .at(d.span, "defined here")
                    .help("use it, make it a `ruling` if a director may ask for it, or remove it"),
            );
        }
    }
    let cited: HashSet<&str> = p.clauses.iter().flat_map(|c| c.cites.iter().map(String::as_str)).collect();
    for e in &p.externals {
        if !cited.contains(e.citation.as_str()) {
            out.push(
                Diagnostic::warning(
                    "lint::unused_external",
                    format!("external reference `{}` is never cited", e.citation),
                )
                .at(e.span, "declared here")
                .help("cite it from the clause that refers to it (`cites \"…\"`), or remove it"),
            );
        }
    }
    if let Some(tested) = tested {
        for d in &p.defs {
            if d.is_ruling() && !tested.contains(&d.name) {
                out.push(
                    Diagnostic::warning(
                        "lint::untested_ruling",
                        format!("no case file asks for the ruling `{}`", d.name),
                    )
                    .at(d.span, "never exercised by the case suite")
                    .help("add a case file under cases/ with `[[expect]] ruling = \"…\"`"),
                );
            }
        }
    }
    out
}

/// Clauses that hold no rules and do not say why they decide nothing.
pub fn clauses(p: &Program) -> Vec<Diagnostic> {
    let mut holds = vec![false; p.clauses.len()];
    for c in p.defs.iter().filter_map(|d| d.clause).chain(p.rules.iter().filter_map(|r| r.clause)) {
        holds[c as usize] = true;
    }
    for c in p.facts.iter().filter_map(|f| f.clause).chain(p.decisions.iter().filter_map(|d| d.clause)) {
        holds[c as usize] = true;
    }
    let mut out = Vec::new();
    for (i, c) in p.clauses.iter().enumerate() {
        if !holds[i] && c.informational.is_none() {
            out.push(
                Diagnostic::warning(
                    "lint::undecided_clause",
                    format!("clause `{}` decides nothing and does not say why", c.citation),
                )
                .at(c.citation_span, "no rules, no `informational`")
                .help("make it executable, or add `informational \"<why it decides nothing>\"`"),
            );
        }
        if holds[i] && c.text.is_none() {
            out.push(
                Diagnostic::warning(
                    "lint::executable_without_text",
                    format!("clause `{}` has rules but no text", c.citation),
                )
                .at(c.citation_span, "nothing to quote")
                .help("quote the clause as printed: `text \"\"\"…\"\"\"`"),
            );
        }
    }
    out
}
