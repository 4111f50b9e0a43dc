//! Witnesses of conflicts: facts a case can state for which two rules of one question
//! both give their values, different ones — found by the analysis (a world of free
//! inputs, [`super::logic::Space::witness`]) or in the rulebook's case files, whose facts
//! are ruled on for every definition with a conflict that the analysis could not settle.
//! A witnessed conflict is certain; only one with no witness stays a possibility.

use super::logic::Var;
use crate::base::value::Value;
use crate::cases::CaseFacts;
use crate::check::program::*;
use crate::check::types::Type;
use crate::eval::interp::Interp;
use crate::show;
use std::collections::{BTreeMap, BTreeSet};

/// Longest a value is shown in a witness before it is cut.
const MAX_SHOWN: usize = 80;

/// Facts for which two rules both give their values, and where they come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// Where the facts come from: the analysis, or a case file.
    pub from: String,
    /// The facts, each as `name = value`.
    pub facts: Vec<String>,
    /// The two rules' values, shown.
    pub values: (String, String),
}

impl Witness {
    /// The witness in words, for a message.
    pub fn describe(&self) -> String {
        if self.facts.is_empty() {
            return self.from.clone();
        }
        format!("{}: {}", self.from, self.facts.join(", "))
    }
}

fn cut(mut s: String) -> String {
    if s.chars().count() > MAX_SHOWN {
        s = s.chars().take(MAX_SHOWN).collect::<String>() + "…";
    }
    s
}

/// A value as a witness shows it; the analysis's stand-in for "any other text" in words.
fn shown(p: &Program, v: &Value, ty: &Type) -> String {
    match v {
        Value::Text(t) if t.starts_with('\u{0}') => "any other text".into(),
        _ => cut(show::plain(p, v, ty)),
    }
}

/// A variable of the analysis (`fact s303.hold.1`) cut into the fact or decision it reads
/// and the fields it reads of it: the longest declared name the key starts with (names of
/// a section hold a dot themselves), then field indices.
pub(crate) fn split_key<'p>(p: &'p Program, key: &str) -> Option<(&'p str, Option<Type>, Vec<usize>)> {
    let (rest, fact) = match key.strip_prefix("fact ") {
        Some(r) => (r, true),
        None => (key.strip_prefix("decision ")?, false),
    };
    let names: Vec<(&str, &Type)> = if fact {
        p.facts.iter().map(|f| (f.name.as_str(), &f.ty)).collect()
    } else {
        p.decisions.iter().map(|d| (d.name.as_str(), &d.ty)).collect()
    };
    let (name, ty) = names
        .into_iter()
        .filter(|(n, _)| rest == *n || rest.strip_prefix(n).is_some_and(|r| r.starts_with('.')))
        .max_by_key(|(n, _)| n.len())?;
    let fields = rest[name.len()..].split('.').skip(1).map(|i| i.parse().ok()).collect::<Option<Vec<usize>>>()?;
    Some((name, Some(ty.clone()), fields))
}

/// The name of a variable of the analysis (`fact player.2`) as a case file writes it
/// (`player.masterpoints`).
pub(crate) fn var_name(p: &Program, key: &str) -> String {
    let Some((name, mut ty, fields)) = split_key(p, key) else { return key.to_string() };
    let mut out = name.to_string();
    for i in fields {
        let field = match &ty {
            Some(Type::Record(t)) => match &p.types[*t as usize].kind {
                TypeKind::Record(fs) => fs.get(i),
                TypeKind::Enum(_) => None,
            },
            _ => None,
        };
        match field {
            Some(f) => {
                out = format!("{out}.{}", f.name);
                ty = Some(f.ty.clone());
            }
            None => {
                out = format!("{out}.{i}");
                ty = None;
            }
        }
    }
    out
}

/// A witness from a world of the analysis.
pub fn from_analysis(p: &Program, world: &[(&Var, Value)], values: (String, String)) -> Witness {
    let facts = world.iter().map(|(v, x)| format!("{} = {}", var_name(p, &v.key), shown(p, x, &v.ty))).collect();
    Witness { from: "facts the analysis found".into(), facts, values }
}

/// The facts two rules read, in their conditions and values and through the definitions
/// they call: each fact with the fields read of it (none: the fact read whole).
fn facts_read(p: &Program, rules: &[RuleId]) -> BTreeMap<u32, BTreeSet<u32>> {
    let mut facts: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut seen_defs = BTreeSet::new();
    let mut stack: Vec<RuleId> = rules.to_vec();
    let mut seen_rules = BTreeSet::new();
    while let Some(r) = stack.pop() {
        if !seen_rules.insert(r) {
            continue;
        }
        let rule = &p.rules[r as usize];
        let mut calls = Vec::new();
        let mut visit = |x: &Ir| match &x.kind {
            IrKind::Fact(f) => {
                facts.entry(*f).or_default();
            }
            IrKind::Field(inner, i) => {
                if let IrKind::Fact(f) = inner.kind {
                    facts.entry(f).or_default().insert(*i);
                }
            }
            IrKind::Call(d, _) => calls.push(*d),
            _ => {}
        };
        rule.value.visit(&mut visit);
        if let Some(g) = &rule.guard {
            g.visit(&mut visit);
        }
        for d in calls {
            if seen_defs.insert(d) {
                stack.extend(&p.defs[d as usize].rules);
            }
        }
    }
    facts
}

/// A fact of a case as a witness shows it: a record by the fields the rules read.
fn shown_fact(p: &Program, f: u32, fields: &BTreeSet<u32>, v: &Value) -> Vec<String> {
    let fact = &p.facts[f as usize];
    let record = match (&fact.ty, v) {
        (Type::Record(t), Value::Record(_, values)) if !fields.is_empty() => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => Some((fs, values)),
            TypeKind::Enum(_) => None,
        },
        _ => None,
    };
    let Some((infos, values)) = record else { return vec![format!("{} = {}", fact.name, shown(p, v, &fact.ty))] };
    fields
        .iter()
        .filter_map(|&i| {
            let info = infos.get(i as usize)?;
            let shown_value = match values.get(i as usize) {
                Some(Some(x)) => shown(p, x, &info.ty),
                _ => "not given".into(),
            };
            Some(format!("{}.{} = {shown_value}", fact.name, info.name))
        })
        .collect()
}

/// A conflict the analysis could not settle: two rules of one definition.
pub struct Open {
    pub def: DefId,
    pub a: RuleId,
    pub b: RuleId,
}

/// For each open conflict, the first case file whose facts make both rules give their
/// values, different ones: for a definition without parameters, on the case's facts; for
/// one with parameters, with every argument list the rulings the case asks for call it with.
pub fn from_cases(p: &Program, open: &[Open], cases: &[CaseFacts]) -> Vec<Option<Witness>> {
    let mut found: Vec<Option<Witness>> = open.iter().map(|_| None).collect();
    let defs: BTreeSet<DefId> = open.iter().map(|o| o.def).collect();
    for case in cases {
        if found.iter().all(Option::is_some) {
            break;
        }
        let mut interp = Interp::new(p, &case.inputs, false);
        if defs.iter().any(|&d| !p.defs[d as usize].params.is_empty()) {
            for &r in case.asked.iter().filter(|&&r| p.defs[r as usize].params.is_empty()) {
                let _ = interp.call(r, Vec::new());
            }
        }
        for &d in &defs {
            let info = &p.defs[d as usize];
            let calls = if info.params.is_empty() { vec![Vec::new()] } else { interp.calls_of(d) };
            for args in calls {
                let winners = interp.winners(d, &args);
                let value_of = |r: RuleId| winners.iter().find(|(w, _)| *w == r).map(|(_, v)| v);
                for (i, o) in open.iter().enumerate() {
                    if o.def != d || found[i].is_some() {
                        continue;
                    }
                    let (Some(va), Some(vb)) = (value_of(o.a), value_of(o.b)) else { continue };
                    if va == vb {
                        continue;
                    }
                    found[i] = Some(case_witness(p, o, case, &args, (va, vb)));
                }
            }
        }
    }
    found
}

fn case_witness(p: &Program, o: &Open, case: &CaseFacts, args: &[Value], values: (&Value, &Value)) -> Witness {
    let info = &p.defs[o.def as usize];
    let mut facts: Vec<String> = info
        .params
        .iter()
        .zip(args)
        .map(|((name, ty), v)| format!("{name} = {} (an argument)", shown(p, v, ty)))
        .collect();
    for (f, fields) in facts_read(p, &[o.a, o.b]) {
        if let Some(Some(v)) = case.inputs.facts.get(f as usize) {
            facts.extend(shown_fact(p, f, &fields, v));
        }
    }
    Witness {
        from: format!("the facts of the case file `{}`", case.path.display()),
        facts,
        values: (shown(p, values.0, &info.ty), shown(p, values.1, &info.ty)),
    }
}
