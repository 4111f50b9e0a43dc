//! Two rulings that decide the same outcome without reading each other
//! (`lint::outcome_decided_twice`): rulings of the same truth-valued or enum type, about the
//! same subject (the same parameter types, or for rulings without parameters the same
//! record fact — the player, the team — whose fields they test), where every fact, field and
//! decision one tests (at least two) is tested by the other too, and neither reads the
//! other, directly or through other definitions. Such a pair can disagree on one case
//! with nothing in the rulebook to say which is right: one should decide and the other
//! read it.

use crate::check::program::*;
use crate::check::types::Type;
use crate::diagnostic::Diagnostic;
use std::collections::BTreeSet;

/// The least number of inputs two rulings must share.
const MIN_SHARED: usize = 2;

/// The inputs one definition tests directly: facts, their fields (`player.2`) and decisions.
fn inputs(p: &Program, d: &DefInfo) -> BTreeSet<String> {
    fn key(p: &Program, ir: &Ir) -> Option<String> {
        match &ir.kind {
            IrKind::Fact(f) => Some(format!("fact {}", p.facts[*f as usize].name)),
            IrKind::Decision(d) => Some(format!("decision {}", p.decisions[*d as usize].name)),
            IrKind::Field(x, i) => Some(format!("{}.{i}", key(p, x)?)),
            _ => None,
        }
    }
    // Inputs only handed on to a definition (`permitted(event_flight)`) are decided from there.
    let (mut all, mut handed) = (BTreeSet::new(), BTreeSet::new());
    let mut visit = |ir: &Ir| {
        ir.visit(&mut |x| {
            if let Some(k) = key(p, x) {
                all.insert(k);
            }
            if let IrKind::Call(_, args) = &x.kind {
                args.iter().for_each(|a| {
                    a.visit(&mut |y| {
                        if let Some(k) = key(p, y) {
                            handed.insert(k);
                        }
                    })
                });
            }
        })
    };
    d.each_expr(p, &mut visit);
    let mut all: BTreeSet<String> = all.difference(&handed).cloned().collect();
    // A record read field by field counts by its fields only.
    let partial: Vec<String> =
        all.iter().filter(|k| all.iter().any(|o| o.starts_with(&format!("{k}.")))).cloned().collect();
    for k in partial {
        all.remove(&k);
    }
    all
}

/// The definitions each definition calls, directly.
fn calls(p: &Program, d: &DefInfo) -> BTreeSet<DefId> {
    let mut out = BTreeSet::new();
    let mut visit = |ir: &Ir| {
        ir.visit(&mut |x| {
            if let IrKind::Call(c, _) = x.kind {
                out.insert(c);
            }
        })
    };
    d.each_expr(p, &mut visit);
    out
}

/// Every definition each definition reads, directly or through others.
fn reach(direct: &[BTreeSet<DefId>]) -> Vec<BTreeSet<DefId>> {
    (0..direct.len())
        .map(|start| {
            let mut seen = BTreeSet::new();
            let mut stack: Vec<DefId> = direct[start].iter().copied().collect();
            while let Some(d) = stack.pop() {
                if seen.insert(d) {
                    stack.extend(direct[d as usize].iter().copied());
                }
            }
            seen
        })
        .collect()
}

/// The record facts whose fields a ruling tests: its subject, when it has no parameters (a
/// ruling that tests no record's fields speaks of the case as a whole: an empty set).
fn subjects<'p>(p: &'p Program, ins: &BTreeSet<String>) -> BTreeSet<&'p str> {
    ins.iter()
        .filter_map(|k| match super::witness::split_key(p, k)? {
            (name, _, fields) if !fields.is_empty() => Some(name),
            _ => None,
        })
        .collect()
}

fn decides(ty: &Type) -> bool {
    matches!(ty, Type::Bool | Type::Enum(_))
}

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let direct: Vec<BTreeSet<DefId>> = p.defs.iter().map(|d| calls(p, d)).collect();
    let reached = reach(&direct);
    let ins: Vec<BTreeSet<String>> = p.defs.iter().map(|d| inputs(p, d)).collect();
    let mut out = Vec::new();
    let candidates: Vec<usize> =
        (0..p.defs.len()).filter(|&i| p.defs[i].is_ruling() && decides(&p.defs[i].ty)).collect();
    for (n, &i) in candidates.iter().enumerate() {
        for &j in &candidates[n + 1..] {
            let (a, b) = (&p.defs[i], &p.defs[j]);
            if a.ty != b.ty || a.params.iter().map(|x| &x.1).ne(b.params.iter().map(|x| &x.1)) {
                continue;
            }
            if reached[i].contains(&(j as DefId)) || reached[j].contains(&(i as DefId)) {
                continue;
            }
            let (sa, sb) = (subjects(p, &ins[i]), subjects(p, &ins[j]));
            if a.params.is_empty() && sa != sb && sa.is_disjoint(&sb) {
                continue;
            }
            let shared: Vec<&String> = ins[i].intersection(&ins[j]).collect();
            let smaller = ins[i].len().min(ins[j].len());
            // Every input of one is an input of the other: it decides from a part of the same facts.
            if shared.len() < MIN_SHARED || shared.len() != smaller {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    "lint::outcome_decided_twice",
                    format!(
                        "rulings `{}` and `{}` both decide a {} from the same facts ({}), and neither reads the other",
                        a.name,
                        b.name,
                        p.describe(&a.ty),
                        shared.iter().map(|k| format!("`{}`", super::witness::var_name(p, k))).collect::<Vec<_>>().join(", ")
                    ),
                )
                .at(b.span, "decides it again")
                .at(a.span, "decides it")
                .help(format!(
                    "let one decide and the other read it (`{} = {}`, or a rule `… when {}`), or say why they answer different questions with `// allow(outcome_decided_twice): <reason>`",
                    b.name, a.name, a.name
                )),
            );
        }
    }
    out
}
