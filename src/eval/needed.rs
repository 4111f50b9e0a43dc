//! Precise "still needed": which missing inputs can still change a ruling, and in
//! which order to ask for them.
//!
//! The interpreter names every missing input it touched. Here each one becomes a
//! [`Hole`] (a fact, a record field at its facts-file path, a decision or a lot), and
//! the holes with a finite domain (truth values, enums, a draw between candidates) are
//! tried with every value, as a decision tree, until the ruling is decided or only
//! holes of infinite domain remain. A finite hole is needed only if two of its values
//! give different rulings for the same other values; holes of infinite domain
//! (numbers, text, dates, lists) are kept when named: sound, never a wrong omission.
//! Holes are ordered so that the one whose answers settle the ruling most comes first.
//!
//! A missing number that the conditions only compare with constants is tried too, with
//! one value per region its thresholds cut the number line into ([`numbers`]).

pub mod numbers;
pub mod origin;

use super::Outcome;
use super::interp::Inputs;
use super::trace::Need;
use crate::base::value::Value;
use crate::check::program::{DecisionId, DefId, FactId, Program, Symbol, TypeKind};
use crate::check::types::Type;
use crate::syntax::ast::DecisionKind;

/// Most evaluations tried when looking for the needed inputs of one ruling.
pub const MAX_TRIES: usize = 400;

/// One step into a value: a record field or a list element.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Field(u32),
    Index(usize),
}

/// A missing input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoleKind {
    Fact(FactId),
    /// A field left out of a record inside fact `fact`, reached by `steps`.
    Field {
        fact: FactId,
        steps: Vec<Step>,
    },
    Decision(DecisionId),
    Lot(DecisionId),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hole {
    pub kind: HoleKind,
    /// The facts-file path (`player.masterpoints`, `rejsehold.spillere[2].bopæl`) or key.
    pub path: String,
    pub ty: Type,
    /// For a lot: the candidates, as the interpreter showed them.
    pub candidates: Vec<String>,
    /// The values to try, when the domain is finite.
    pub domain: Option<Vec<Value>>,
}

/// The result of a ruling, for comparing outcomes.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    Value(Value),
    Silent,
    Error(String),
    /// Still undetermined (on inputs of infinite domain, or past the budget).
    Open,
}

/// The part of an outcome that tells two rulings apart.
pub fn key(o: &Outcome) -> Key {
    match o {
        Outcome::Decided(v) => Key::Value(v.clone()),
        Outcome::Silent(_) => Key::Silent,
        Outcome::Error(e) => Key::Error(e.message.clone()),
        Outcome::Undetermined(_) => Key::Open,
    }
}

/// What a ruling still needs.
#[derive(Clone, Debug)]
pub struct Needed {
    /// The inputs whose values can change the ruling, the most settling first.
    pub holes: Vec<Hole>,
    /// When no missing input can change it: the ruling, whatever they are.
    pub settled: Option<Key>,
    /// When settled: the outcome itself (that of one way of filling the missing inputs;
    /// every way gives the same).
    pub outcome: Option<Outcome>,
    /// Every missing input met on the way, needed or not (for saying which ones a
    /// settled ruling does not depend on).
    pub met: Vec<Hole>,
}

impl Needed {
    /// The needs to report, in order, as the interpreter names them.
    pub fn needs(&self) -> Vec<Need> {
        self.holes.iter().map(hole_need).collect()
    }
}

fn hole_need(h: &Hole) -> Need {
    match &h.kind {
        HoleKind::Fact(f) => Need::Fact(*f),
        HoleKind::Field { .. } => {
            let (record, field) = h.path.rsplit_once('.').unwrap_or(("", &h.path));
            Need::Field { record: record.to_string(), field: field.to_string() }
        }
        HoleKind::Decision(d) => Need::Decision(*d),
        HoleKind::Lot(d) => Need::Lot { lot: *d, candidates: h.candidates.clone() },
    }
}

/// The finite domain of a type: truth values and enum variants.
pub fn domain(p: &Program, ty: &Type) -> Option<Vec<Value>> {
    match ty {
        Type::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
        Type::Enum(t) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => Some((0..vs.len() as u32).map(|i| Value::Enum(*t, i)).collect()),
            TypeKind::Record(_) => None,
        },
        _ => None,
    }
}

/// The holes behind the interpreter's needs, in the inputs given.
pub fn holes(p: &Program, inputs: &Inputs, needs: &[Need]) -> Vec<Hole> {
    let mut out: Vec<Hole> = Vec::new();
    for n in needs {
        match n {
            Need::Fact(f) => {
                let info = &p.facts[*f as usize];
                out.push(Hole {
                    kind: HoleKind::Fact(*f),
                    path: info.name.clone(),
                    ty: info.ty.clone(),
                    candidates: Vec::new(),
                    domain: domain(p, &info.ty),
                });
            }
            Need::Decision(d) => {
                let info = &p.decisions[*d as usize];
                out.push(Hole {
                    kind: HoleKind::Decision(*d),
                    path: info.name.clone(),
                    ty: info.ty.clone(),
                    candidates: Vec::new(),
                    domain: domain(p, &info.ty),
                });
            }
            Need::Lot { lot, candidates } => {
                let info = &p.decisions[*lot as usize];
                let kind = if info.kind == DecisionKind::Lot { HoleKind::Lot(*lot) } else { HoleKind::Decision(*lot) };
                out.push(Hole {
                    kind,
                    path: info.name.clone(),
                    ty: info.ty.clone(),
                    candidates: candidates.clone(),
                    domain: lot_domain(p, &info.ty, candidates),
                });
            }
            Need::Field { record, field } => field_holes(p, inputs, record, field, &mut out),
        }
    }
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    out.retain(|h| seen.insert(h.path.clone()));
    // Fields in the order of the facts (`players[2]` before `players[10]`), in the places
    // fields hold among the other holes.
    let slots: Vec<usize> = (0..out.len()).filter(|i| matches!(out[*i].kind, HoleKind::Field { .. })).collect();
    let mut fields: Vec<Hole> = slots.iter().map(|i| out[*i].clone()).collect();
    fields.sort_by(|a, b| match (&a.kind, &b.kind) {
        (HoleKind::Field { fact: f, steps: s }, HoleKind::Field { fact: g, steps: t }) => (f, s).cmp(&(g, t)),
        _ => std::cmp::Ordering::Equal,
    });
    for (i, h) in slots.into_iter().zip(fields) {
        out[i] = h;
    }
    out
}

/// A draw between candidates: each candidate, read back from how it was shown.
fn lot_domain(p: &Program, ty: &Type, candidates: &[String]) -> Option<Vec<Value>> {
    if matches!(ty, Type::List(_)) || candidates.is_empty() {
        return None;
    }
    candidates
        .iter()
        .map(|c| crate::facts::convert_value(p, &serde_json::Value::String(c.clone()), ty, "lot").ok())
        .collect()
}

/// The holes behind a missing field: the one field of the record at facts-file path
/// `record` (the list element it is missing from), or, when `record` names a record type
/// (a record the rulebook built, in no fact), that field of every record of the type.
fn field_holes(p: &Program, inputs: &Inputs, record: &str, field: &str, out: &mut Vec<Hole>) {
    let Some(Symbol::Type(t)) = p.symbols.get(record) else {
        // Where the record is: the one field missing there.
        let Some((fact, mut steps, Value::Record(t, fields))) = origin::locate(p, inputs, record) else { return };
        let TypeKind::Record(fs) = &p.types[t as usize].kind else { return };
        let Some(i) = fs.iter().position(|f| f.name == field) else { return };
        if matches!(fields.get(i), Some(None)) {
            steps.push(Step::Field(i as u32));
            out.push(Hole {
                kind: HoleKind::Field { fact, steps },
                path: format!("{record}.{field}"),
                ty: fs[i].ty.clone(),
                candidates: Vec::new(),
                domain: domain(p, &fs[i].ty),
            });
        }
        return;
    };
    let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return };
    let Some(i) = fs.iter().position(|f| f.name == field) else { return };
    let want = (*t, i as u32, fs[i].ty.clone());
    for (f, v) in inputs.facts.iter().enumerate() {
        if let Some(v) = v {
            let info = &p.facts[f];
            walk(p, v, &mut Vec::new(), &info.name, &want, f as FactId, out);
        }
    }
}

fn walk(
    p: &Program,
    v: &Value,
    steps: &mut Vec<Step>,
    path: &str,
    want: &(u32, u32, Type),
    fact: FactId,
    out: &mut Vec<Hole>,
) {
    match v {
        Value::Record(t, fields) => {
            let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return };
            for (i, x) in fields.iter().enumerate() {
                let name = fs.get(i).map_or("", |f| f.name.as_str());
                steps.push(Step::Field(i as u32));
                let fpath = format!("{path}.{name}");
                match x {
                    None if (*t, i as u32) == (want.0, want.1) => out.push(Hole {
                        kind: HoleKind::Field { fact, steps: steps.clone() },
                        path: fpath,
                        ty: want.2.clone(),
                        candidates: Vec::new(),
                        domain: domain(p, &want.2),
                    }),
                    Some(x) => walk(p, x, steps, &fpath, want, fact, out),
                    None => {}
                }
                steps.pop();
            }
        }
        Value::List(xs) => {
            for (i, x) in xs.iter().enumerate() {
                steps.push(Step::Index(i));
                walk(p, x, steps, &format!("{path}[{i}]"), want, fact, out);
                steps.pop();
            }
        }
        _ => {}
    }
}

fn set_in(v: &Value, steps: &[Step], new: Value) -> Value {
    match (steps.first(), v) {
        (None, _) => new,
        (Some(Step::Field(i)), Value::Record(t, fields)) => {
            let mut fs: Vec<Option<Value>> = fields.to_vec();
            let i = *i as usize;
            if i < fs.len() {
                fs[i] = Some(match &fs[i] {
                    Some(x) => set_in(x, &steps[1..], new),
                    None => new,
                });
            }
            Value::Record(*t, fs.into())
        }
        (Some(Step::Index(i)), Value::List(xs)) => {
            let mut items = xs.to_vec();
            if *i < items.len() {
                items[*i] = set_in(&items[*i], &steps[1..], new);
            }
            Value::list(items)
        }
        _ => v.clone(),
    }
}

/// The inputs with `hole` given `value`.
pub fn fill(inputs: &Inputs, hole: &Hole, value: Value) -> Inputs {
    let mut out = inputs.clone();
    match &hole.kind {
        HoleKind::Fact(f) => out.facts[*f as usize] = Some(value),
        HoleKind::Decision(d) | HoleKind::Lot(d) => out.decisions[*d as usize] = Some(value),
        HoleKind::Field { fact, steps } => {
            if let Some(v) = &inputs.facts[*fact as usize] {
                out.facts[*fact as usize] = Some(set_in(v, steps, value));
            }
        }
    }
    out
}

/// One end of the decision tree: the values given to finite holes, and the ruling then.
struct Leaf {
    given: Vec<(String, Value)>,
    key: Key,
    outcome: Option<Outcome>,
    /// For a leaf still open: the inputs it waits for.
    waits: Vec<String>,
}

struct Search<'a> {
    p: &'a Program,
    def: DefId,
    /// The values tried for missing numbers, by target (none: not to be tried).
    numbers: Vec<(numbers::Target, Option<Vec<Value>>)>,
    tries: usize,
    leaves: Vec<Leaf>,
    /// Every hole met, finite or not, in the order met.
    met: Vec<Hole>,
}

impl Search<'_> {
    /// The values to try for a hole: its finite domain, or a number's representatives.
    fn values(&mut self, h: &Hole) -> Option<Vec<Value>> {
        if h.domain.is_some() {
            return h.domain.clone();
        }
        let target = numbers::target_of(self.p, h)?;
        if let Some((_, v)) = self.numbers.iter().find(|(t, _)| *t == target) {
            return v.clone();
        }
        let v = numbers::samples(self.p, self.def, target, &h.ty);
        self.numbers.push((target, v.clone()));
        v
    }

    fn explore(&mut self, inputs: &Inputs, given: &mut Vec<(String, Value)>) {
        self.tries += 1;
        let r = super::fast::rule_here(self.p, inputs, self.def);
        let Outcome::Undetermined(needs) = &r.outcome else {
            self.leaves.push(Leaf {
                given: given.clone(),
                key: key(&r.outcome),
                outcome: Some(r.outcome),
                waits: Vec::new(),
            });
            return;
        };
        let hs = holes(self.p, inputs, needs);
        for h in &hs {
            if !self.met.iter().any(|m| m.path == h.path) {
                self.met.push(h.clone());
            }
        }
        let next = hs.iter().find_map(|h| self.values(h).map(|v| (h.clone(), v)));
        match next {
            Some((h, values)) if self.tries < MAX_TRIES => {
                for v in values {
                    given.push((h.path.clone(), v.clone()));
                    self.explore(&fill(inputs, &h, v), given);
                    given.pop();
                }
            }
            _ => self.leaves.push(Leaf {
                given: given.clone(),
                key: Key::Open,
                outcome: None,
                waits: hs.iter().map(|h| h.path.clone()).collect(),
            }),
        }
    }

    /// Whether two leaves differ only in `path` (agreeing on every other input both give).
    fn differ_only_in(a: &Leaf, b: &Leaf, path: &str) -> bool {
        let value = |l: &Leaf, p: &str| l.given.iter().find(|(q, _)| q == p).map(|(_, v)| v.clone());
        let (Some(va), Some(vb)) = (value(a, path), value(b, path)) else { return false };
        va != vb && a.given.iter().all(|(q, v)| q == path || value(b, q).is_none_or(|w| w == *v))
    }

    fn relevant(&self, path: &str) -> bool {
        // A hole never tried (past the budget) has no two leaves told apart by it.
        self.leaves.iter().any(|a| {
            self.leaves.iter().any(|b| {
                Search::differ_only_in(a, b, path) && (a.key != b.key || a.key == Key::Open || b.key == Key::Open)
            })
        })
    }
}

/// What ruling `def` still needs, given `inputs`; `None` when it is not undetermined.
pub fn needed(p: &Program, inputs: &Inputs, def: DefId) -> Option<Needed> {
    let first = super::fast::rule_here(p, inputs, def);
    let Outcome::Undetermined(needs) = &first.outcome else { return None };
    let mut search = Search { p, def, numbers: Vec::new(), tries: 0, leaves: Vec::new(), met: Vec::new() };
    search.explore(inputs, &mut Vec::new());
    let _ = needs;
    let mut keep: Vec<Hole> = Vec::new();
    for h in search.met.iter() {
        // Needed when two of its values rule differently, or when a branch still waits for it.
        let waited = search.leaves.iter().any(|l| l.waits.contains(&h.path));
        let tried = search.leaves.iter().any(|l| l.given.iter().any(|(q, _)| *q == h.path));
        if waited || (tried && search.relevant(&h.path)) {
            keep.push(h.clone());
        }
    }
    let settled = match search.leaves.first() {
        Some(l) if l.key != Key::Open && search.leaves.iter().all(|x| x.key == l.key) => Some(l.key.clone()),
        _ => None,
    };
    let outcome = settled.as_ref().and_then(|_| search.leaves.first().and_then(|l| l.outcome.clone()));
    if settled.is_some() {
        keep.clear();
    }
    let tries: Vec<Option<Vec<Value>>> = keep.iter().map(|h| search.values(h)).collect();
    order(p, inputs, def, &mut keep, &tries);
    Some(Needed { holes: keep, settled, outcome, met: search.met })
}

/// Orders holes so that the one whose answers leave least to ask comes first.
fn order(p: &Program, inputs: &Inputs, def: DefId, holes: &mut [Hole], tries: &[Option<Vec<Value>>]) {
    let score = |(h, values): (&Hole, &Option<Vec<Value>>)| -> (u32, usize) {
        let Some(values) = values else { return (u32::MAX, 0) };
        let mut total = 0usize;
        for v in values {
            total += match super::fast::rule_here(p, &fill(inputs, h, v.clone()), def).outcome {
                Outcome::Undetermined(n) => n.len() * 100,
                _ => 0,
            };
        }
        ((total / values.len().max(1)) as u32, 0)
    };
    let mut scored: Vec<((u32, usize), usize, Hole)> =
        holes.iter().zip(tries).enumerate().map(|(i, (h, t))| (score((h, t)), i, h.clone())).collect();
    scored.sort_by_key(|a| (a.0, a.1));
    for (slot, (_, _, h)) in holes.iter_mut().zip(scored) {
        *slot = h;
    }
}

/// The ruling with its needs made precise: an undetermined ruling names only the inputs
/// whose values can change it, the most settling first; one that no missing input can
/// change is the settled ruling (decided, silent or an error), as for any values of them.
pub fn refine(p: &Program, inputs: &Inputs, ruling: super::Ruling) -> super::Ruling {
    refine_with(p, inputs, ruling).0
}

/// Like [`refine`], also returning the missing inputs concerned: for a ruling still
/// undetermined, those it names, in the same order; for a settled one, those it does not
/// depend on.
pub fn refine_with(p: &Program, inputs: &Inputs, mut ruling: super::Ruling) -> (super::Ruling, Vec<Hole>) {
    let Outcome::Undetermined(needs) = &ruling.outcome else { return (ruling, Vec::new()) };
    let first = holes(p, inputs, needs);
    let Some(n) = needed(p, inputs, ruling.def) else { return (ruling, first) };
    if let Some(outcome) = n.outcome {
        // The derivation stays that of the inputs given; its head carries the settled answer.
        if let Some(head) = ruling.trace.as_mut().and_then(|t| t.nodes.first_mut()) {
            head.outcome = match &outcome {
                Outcome::Decided(v) => super::trace::Outcome::Value(v.clone()),
                Outcome::Silent(s) => super::trace::Outcome::Silent(s.clone()),
                Outcome::Error(e) => super::trace::Outcome::Error(e.message.clone()),
                Outcome::Undetermined(ns) => super::trace::Outcome::Undetermined(ns.clone()),
            };
        }
        ruling.outcome = outcome;
        return (ruling, n.met);
    }
    // Only those the ruling waits for now; those behind them are asked for later.
    let now: Vec<Hole> = n.holes.into_iter().filter(|h| first.iter().any(|f| f.path == h.path)).collect();
    if now.is_empty() {
        return (ruling, first);
    }
    ruling.outcome = Outcome::Undetermined(now.iter().map(hole_need).collect());
    (ruling, now)
}
