//! The inputs a ruling can read, found statically: every definition it calls
//! (transitively), the facts, decisions and lots they read, and the record fields
//! they look at, spelled as facts-file paths (`player.masterpoints`,
//! `rejsehold.spillere[].bopæl`).

use super::write;
use crate::check::program::{DecisionId, DefId, FactId, Ir, IrKind, Program, TypeId, TypeKind};
use crate::check::types::Type;
use crate::syntax::ast::DecisionKind;
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};

/// What a set of definitions can read.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    pub defs: BTreeSet<DefId>,
    pub facts: BTreeSet<FactId>,
    pub decisions: BTreeSet<DecisionId>,
    /// Record fields looked at: the record type and the field's index.
    pub fields: HashSet<(TypeId, u32)>,
}

/// Everything the definitions `roots` can read, through the definitions they call.
pub fn reach(p: &Program, roots: &[DefId]) -> Reach {
    let mut r = Reach::default();
    let mut todo: Vec<DefId> = roots.to_vec();
    while let Some(d) = todo.pop() {
        if !r.defs.insert(d) {
            continue;
        }
        let info = &p.defs[d as usize];
        let mut visit = |ir: &Ir| {
            ir.visit(&mut |x| match &x.kind {
                IrKind::Call(c, _) => todo.push(*c),
                IrKind::Fact(f) => {
                    r.facts.insert(*f);
                }
                IrKind::Decision(k) | IrKind::Draw(k, _, _) => {
                    r.decisions.insert(*k);
                }
                IrKind::Field(inner, i) => {
                    if let Type::Record(t) = inner.ty {
                        r.fields.insert((t, *i));
                    }
                }
                _ => {}
            })
        };
        for &rule in &info.rules {
            let rule = &p.rules[rule as usize];
            if let Some(g) = &rule.guard {
                visit(g);
            }
            visit(&rule.value);
        }
        if let Some(t) = &info.table {
            for row in &t.rows {
                visit(&row.value);
            }
        }
    }
    r
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    Fact,
    Field,
    Decision,
    Lot,
}

/// What an input is in the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Fact(FactId),
    /// A record field: the record type and the field's index.
    Field(TypeId, u32),
    Decision(DecisionId),
}

/// Another ruling or definition that may work an input out ([`super::related`]).
#[derive(Clone, Debug, Serialize)]
pub struct Decider {
    pub name: String,
    /// `ruling` or `definition`.
    pub kind: &'static str,
    pub question: Option<String>,
    /// The clause that decides it.
    pub clause: Option<String>,
}

/// One input as a facts file writes it.
#[derive(Clone, Debug, Serialize)]
pub struct Input {
    pub kind: InputKind,
    /// The facts-file path: `player.masterpoints`, `rejsehold.spillere[].bopæl`, or the
    /// decision's or lot's key.
    pub path: String,
    /// The type, as the rulebook names it (`DKK per km`, `duration`, `Flight`).
    #[serde(rename = "type")]
    pub ty: String,
    /// How a facts file writes a value: `"2.00 DKK per km"`, `2008-02-15`, `true or false`.
    pub write: String,
    /// For an enum: each variant's name and label.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<(String, Option<String>)>,
    /// Whether it may be left out of a complete facts file.
    pub optional: bool,
    pub description: Option<String>,
    /// The clause that declares it.
    pub clause: Option<String>,
    /// Who decides (decisions and lots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// Other rulings or definitions that may work this input out (filled in by
    /// `describe`): the rulebook could decide what the facts file would otherwise say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may_be_decided_by: Vec<Decider>,
    /// The other rulings that read this input too (filled in by `describe`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_read_by: Vec<String>,
    /// The declared type, for schemas and templates.
    #[serde(skip)]
    pub declared: Type,
    /// What it is in the program.
    #[serde(skip)]
    pub origin: Origin,
}

/// The inputs in `reach`, facts first (in declaration order, fields expanded), then
/// decisions and lots.
pub fn inputs_of(p: &Program, reach: &Reach) -> Vec<Input> {
    let mut out = Vec::new();
    for &f in &reach.facts {
        let info = &p.facts[f as usize];
        let clause = p.citation_of(info.clause).map(str::to_string);
        expand(p, reach, &info.name, &info.ty, false, &info.doc, &clause, Origin::Fact(f), 0, &mut out);
    }
    for &d in &reach.decisions {
        let info = &p.decisions[d as usize];
        let kind = if info.kind == DecisionKind::Lot { InputKind::Lot } else { InputKind::Decision };
        let mut input = leaf(p, kind, info.name.clone(), &info.ty, true, &info.doc, Origin::Decision(d));
        input.clause = p.citation_of(info.clause).map(str::to_string);
        input.decided_by = Some(info.by.clone());
        out.push(input);
    }
    out
}

fn leaf(
    p: &Program,
    kind: InputKind,
    path: String,
    ty: &Type,
    optional: bool,
    doc: &Option<String>,
    origin: Origin,
) -> Input {
    Input {
        kind,
        path,
        ty: p.describe(ty),
        write: write::how(p, ty),
        variants: write::variants(p, ty),
        optional,
        description: doc.clone(),
        clause: None,
        decided_by: None,
        may_be_decided_by: Vec::new(),
        also_read_by: Vec::new(),
        declared: ty.clone(),
        origin,
    }
}

/// The record type a value of `ty` holds, directly or as list elements, with the path suffix.
fn record_of(ty: &Type) -> Option<(TypeId, &'static str)> {
    match ty {
        Type::Record(t) => Some((*t, "")),
        Type::List(e) => match **e {
            Type::Record(t) => Some((t, "[]")),
            _ => None,
        },
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn expand(
    p: &Program,
    reach: &Reach,
    path: &str,
    ty: &Type,
    optional: bool,
    doc: &Option<String>,
    clause: &Option<String>,
    origin: Origin,
    depth: usize,
    out: &mut Vec<Input>,
) {
    let fields = record_of(ty).and_then(|(t, suffix)| match &p.types[t as usize].kind {
        TypeKind::Record(fs) => {
            let read: Vec<_> = fs.iter().enumerate().filter(|(i, _)| reach.fields.contains(&(t, *i as u32))).collect();
            (!read.is_empty() && depth < 8).then_some((t, read, suffix))
        }
        TypeKind::Enum(_) => None,
    });
    match fields {
        None => {
            let kind = if matches!(origin, Origin::Field(..)) { InputKind::Field } else { InputKind::Fact };
            let mut input = leaf(p, kind, path.to_string(), ty, optional, doc, origin);
            input.clause = clause.clone();
            out.push(input);
        }
        Some((t, read, suffix)) => {
            for (i, f) in read {
                let fpath = format!("{path}{suffix}.{}", f.name);
                let origin = Origin::Field(t, i as u32);
                expand(p, reach, &fpath, &f.ty, f.optional, &f.doc, clause, origin, depth + 1, out);
            }
        }
    }
}
