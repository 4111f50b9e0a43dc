//! What `conditions describe` says about an input of the rulebook — a fact, decision, lot
//! or record field (`Player.masterpoints`) — and about which rulings read a definition:
//! its type, description and clause, who decides it, the rulings that read it (through
//! the definitions they call, as [`super::reach`] finds them), the facts-file paths that
//! write it, and the rulings that may work it out instead ([`super::related`], as
//! `describe` of a ruling says them).

use super::inputs::{Decider, Origin, reach};
use crate::check::program::{DefId, Program, Symbol, TypeKind};
use crate::syntax::ast::DecisionKind;
use serde::Serialize;

/// An input (or a definition) of a rulebook, described.
#[derive(Clone, Debug, Serialize)]
pub struct About {
    pub name: String,
    /// `fact`, `decision`, `lot` or `field`.
    pub kind: &'static str,
    #[serde(rename = "type")]
    pub ty: String,
    pub description: Option<String>,
    /// The clause that declares it (a field: none, its record's meaning is its fact's).
    pub clause: Option<String>,
    /// Who decides (decisions and lots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// The facts-file paths that write it (`player.masterpoints`).
    pub paths: Vec<String>,
    /// The rulings that read it, directly or through the definitions they call.
    pub read_by: Vec<String>,
    /// Rulings or definitions that may work it out instead of a facts file saying it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub may_be_decided_by: Vec<Decider>,
}

/// What `written` names among the inputs: a fact, decision or lot by its name, or a record
/// field as `Record.field`.
pub fn input_named(p: &Program, written: &str) -> Option<Origin> {
    match p.symbols.get(written) {
        Some(Symbol::Fact(f)) => return Some(Origin::Fact(*f)),
        Some(Symbol::Decision(d)) => return Some(Origin::Decision(*d)),
        _ => {}
    }
    let (record, field) = written.rsplit_once('.')?;
    let Some(Symbol::Type(t)) = p.symbols.get(record) else { return None };
    let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return None };
    fs.iter().position(|f| f.name == field).map(|i| Origin::Field(*t, i as u32))
}

/// Whether `name` is a record type of the rulebook.
pub fn is_record(p: &Program, name: &str) -> bool {
    matches!(p.symbols.get(name), Some(Symbol::Type(t)) if matches!(p.types[*t as usize].kind, TypeKind::Record(_)))
}

/// Every name `describe` takes: rulings, definitions, facts, decisions, lots and fields.
pub fn describable(p: &Program) -> Vec<String> {
    let mut out: Vec<String> = p.defs.iter().map(|d| d.name.clone()).collect();
    out.extend(p.facts.iter().map(|f| f.name.clone()));
    out.extend(p.decisions.iter().map(|d| d.name.clone()));
    for t in &p.types {
        if let TypeKind::Record(fs) = &t.kind {
            out.extend(fs.iter().map(|f| format!("{}.{}", t.name, f.name)));
        }
    }
    out
}

/// The rulings that read `origin`, or (given a definition) that call it, in declaration order.
fn readers(p: &Program, origin: Option<Origin>, def: Option<DefId>) -> Vec<DefId> {
    p.rulings()
        .map(|(d, _)| d)
        .filter(|&d| Some(d) != def)
        .filter(|&d| {
            let r = reach(p, &[d]);
            match (origin, def) {
                (Some(Origin::Fact(f)), _) => r.facts.contains(&f),
                (Some(Origin::Decision(k)), _) => r.decisions.contains(&k),
                (Some(Origin::Field(t, i)), _) => r.fields.contains(&(t, i)),
                (None, Some(x)) => r.defs.contains(&x),
                (None, None) => false,
            }
        })
        .collect()
}

/// The rulings that call definition `def` (itself left out).
pub fn rulings_reading_def(p: &Program, def: DefId) -> Vec<String> {
    readers(p, None, Some(def)).into_iter().map(|d| p.defs[d as usize].name.clone()).collect()
}

/// Describes an input: its declaration, who decides it, what reads it and what may work it out.
pub fn about(p: &Program, origin: Origin) -> About {
    let (name, kind, ty, description, clause, decided_by) = match origin {
        Origin::Fact(f) => {
            let x = &p.facts[f as usize];
            (x.name.clone(), "fact", p.describe(&x.ty), x.doc.clone(), x.clause, None)
        }
        Origin::Decision(d) => {
            let x = &p.decisions[d as usize];
            let kind = if x.kind == DecisionKind::Lot { "lot" } else { "decision" };
            (x.name.clone(), kind, p.describe(&x.ty), x.doc.clone(), x.clause, Some(x.by.clone()))
        }
        Origin::Field(t, i) => {
            let ty = &p.types[t as usize];
            let field = match &ty.kind {
                TypeKind::Record(fs) => fs.get(i as usize),
                TypeKind::Enum(_) => None,
            };
            let name = format!("{}.{}", ty.name, field.map_or("?", |f| f.name.as_str()));
            let described = field.map(|f| p.describe(&f.ty)).unwrap_or_default();
            (name, "field", described, field.and_then(|f| f.doc.clone()), None, None)
        }
    };
    let read_by = readers(p, Some(origin), None);
    // What `describe` of a ruling that reads it says of it: its paths and its deciders.
    let mut paths = Vec::new();
    let mut may_be_decided_by = Vec::new();
    if let Some(&first) = read_by.first() {
        let d = super::describe(p, first);
        for i in d.inputs.iter().filter(|i| i.origin == origin) {
            paths.push(i.path.clone());
            if may_be_decided_by.is_empty() {
                may_be_decided_by = i.may_be_decided_by.clone();
            }
        }
    }
    if paths.is_empty() && !matches!(origin, Origin::Field(..)) {
        paths.push(name.clone());
    }
    About {
        name,
        kind,
        ty,
        description,
        clause: p.citation_of(clause).map(str::to_string),
        decided_by,
        paths,
        read_by: read_by.into_iter().map(|d| p.defs[d as usize].name.clone()).collect(),
        may_be_decided_by,
    }
}
