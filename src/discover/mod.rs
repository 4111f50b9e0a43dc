//! Discovery: what a rulebook can be asked and what each ruling reads. Owns the
//! listing of rulings (grouped by section), the transitive inputs of a ruling with
//! their facts-file paths and types ([`inputs`]), how a facts file writes each type
//! ([`mod@write`]), the JSON Schema of a facts file ([`schema`]) and facts templates
//! ([`template`]), how to give an input a ruling still needs ([`how_to`]), finding a
//! ruling from the printed words ([`find`], [`words`]), the "did you mean" of an unknown
//! ruling name ([`suggest`]), what else bears on a ruling's inputs ([`related`]), and
//! what a fact, decision or record field is and which rulings read it ([`about`]).

pub mod about;
pub mod ask_words;
pub mod find;
pub mod how_to;
pub mod inputs;
pub mod related;
pub mod schema;
pub mod suggest;
pub mod template;
pub mod words;
pub mod write;

use crate::check::program::{ClauseId, DefId, Program};
use crate::syntax::ast::DecisionKind;
use serde::Serialize;

pub use inputs::{Decider, Input, InputKind, Origin, Reach, inputs_of, reach};

/// One entry of `conditions list`.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// `ruling`, `definition`, `fact`, `decision`, `lot` or `field`.
    pub kind: &'static str,
    pub name: String,
    /// The question it answers (its description).
    pub question: Option<String>,
    /// The clause that declares it.
    pub clause: Option<String>,
    /// The section it belongs to: the outermost clause with a heading above its clause.
    pub section: Option<String>,
    #[serde(rename = "type")]
    pub ty: String,
}

/// The outermost clause with a heading whose citation begins the citation of `clause`.
pub fn section_of(p: &Program, clause: Option<ClauseId>) -> Option<String> {
    let own = p.clause(clause?);
    let best = p
        .clauses
        .iter()
        .filter(|c| c.heading.is_some() && own.citation.starts_with(c.citation.as_str()))
        .min_by_key(|c| c.citation.len())
        .unwrap_or(own);
    Some(match &best.heading {
        Some(h) if h.to_lowercase().starts_with(&best.citation.to_lowercase()) => h.clone(),
        Some(h) => format!("{} {h}", best.citation),
        None => best.citation.clone(),
    })
}

fn entry(
    p: &Program,
    kind: &'static str,
    name: &str,
    doc: &Option<String>,
    clause: Option<ClauseId>,
    ty: String,
) -> Entry {
    Entry {
        kind,
        name: name.to_string(),
        question: doc.clone(),
        clause: p.citation_of(clause).map(str::to_string),
        section: section_of(p, clause),
        ty,
    }
}

/// Every ruling (with `all`, also definitions, facts, decisions and lots), filtered by
/// a word in the name, question or clause (case-insensitive), in declaration order.
pub fn list(p: &Program, word: Option<&str>, all: bool) -> Vec<Entry> {
    let mut out = Vec::new();
    for d in &p.defs {
        if d.is_ruling() || all {
            let kind = if d.is_ruling() { "ruling" } else { "definition" };
            out.push(entry(p, kind, &d.name, &d.doc, d.clause, p.describe(&d.ty)));
        }
    }
    if all {
        for f in &p.facts {
            out.push(entry(p, "fact", &f.name, &f.doc, f.clause, p.describe(&f.ty)));
        }
        for d in &p.decisions {
            let kind = if d.kind == DecisionKind::Lot { "lot" } else { "decision" };
            out.push(entry(p, kind, &d.name, &d.doc, d.clause, p.describe(&d.ty)));
        }
    }
    if let Some(w) = word {
        let w = w.to_lowercase();
        let has = |s: &Option<String>| s.as_ref().is_some_and(|s| s.to_lowercase().contains(&w));
        out.retain(|e| e.name.to_lowercase().contains(&w) || has(&e.question) || has(&e.clause));
    }
    out
}

/// The fields of the record types, as `Record.field`, filtered like [`list`] (`conditions
/// list --all` shows them after the facts).
pub fn fields(p: &Program, word: Option<&str>) -> Vec<Entry> {
    let mut out = Vec::new();
    for t in &p.types {
        if let crate::check::program::TypeKind::Record(fs) = &t.kind {
            for f in fs {
                let name = format!("{}.{}", t.name, f.name);
                out.push(entry(p, "field", &name, &f.doc, None, p.describe(&f.ty)));
            }
        }
    }
    if let Some(w) = word {
        let w = w.to_lowercase();
        let has = |s: &Option<String>| s.as_ref().is_some_and(|s| s.to_lowercase().contains(&w));
        out.retain(|e| e.name.to_lowercase().contains(&w) || has(&e.question));
    }
    out
}

/// What `conditions describe` says about one ruling or definition.
#[derive(Clone, Debug, Serialize)]
pub struct Description {
    pub name: String,
    pub kind: &'static str,
    pub question: Option<String>,
    /// The type of the answer.
    #[serde(rename = "type")]
    pub ty: String,
    pub clause: Option<String>,
    /// The clauses whose rules decide it.
    pub decided_by: Vec<String>,
    /// The definitions it reads (transitively) that rules decide, each with the clauses
    /// whose rules decide it, ordered by their first clause in the rulebook.
    pub decided_through: Vec<Through>,
    /// Every fact, field, decision and lot it can read, transitively, each with the
    /// definitions that may work it out and the other rulings that read it.
    pub inputs: Vec<Input>,
}

/// A definition a ruling reads, and the clauses whose rules decide it.
#[derive(Clone, Debug, Serialize)]
pub struct Through {
    pub definition: String,
    /// What it answers (its description).
    pub question: Option<String>,
    pub clauses: Vec<String>,
}

/// The clauses whose rules (or table) decide definition `d`, in the rulebook's order.
fn deciding_clauses(p: &Program, d: DefId) -> Vec<ClauseId> {
    let info = &p.defs[d as usize];
    let mut out: Vec<ClauseId> = Vec::new();
    if info.table.is_some() {
        out.extend(info.clause);
    }
    out.extend(info.rules.iter().filter_map(|&r| p.rules[r as usize].clause));
    out.sort();
    out.dedup();
    out
}

/// Describes a definition: its question, answer type, deciding clauses and inputs.
pub fn describe(p: &Program, def: DefId) -> Description {
    let d = &p.defs[def as usize];
    let own = deciding_clauses(p, def);
    let decided_by: Vec<String> = own.iter().map(|&c| p.clause(c).citation.clone()).collect();
    let reached = reach(p, &[def]);
    let mut through: Vec<(Vec<ClauseId>, DefId)> = reached
        .defs
        .iter()
        .filter(|&&x| x != def)
        .map(|&x| (deciding_clauses(p, x), x))
        .filter(|(cs, _)| !cs.is_empty())
        .collect();
    through.sort();
    let decided_through = through
        .into_iter()
        .map(|(cs, x)| Through {
            definition: p.defs[x as usize].name.clone(),
            question: p.defs[x as usize].doc.clone(),
            clauses: cs.iter().map(|&c| p.clause(c).citation.clone()).collect(),
        })
        .collect();
    let mut inputs = inputs_of(p, &reached);
    related::relate(p, def, &reached, &mut inputs);
    Description {
        name: d.name.clone(),
        kind: if d.is_ruling() { "ruling" } else { "definition" },
        question: d.doc.clone(),
        ty: p.describe(&d.ty),
        clause: p.citation_of(d.clause).map(str::to_string),
        decided_by,
        decided_through,
        inputs,
    }
}
