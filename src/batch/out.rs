//! The batch's JSON records written straight from the rulings' values (no intermediate
//! JSON tree), in the documented key order of docs/json.md: `line` first, then each
//! ruling asked for with its `status` and `value`, `needs`, `not_decided`/`nearest` or
//! `error`.

use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
use crate::eval::trace::Need;
use crate::eval::value::Value;
use crate::eval::{Outcome, Ruling};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// A value as JSON data, as [`crate::explain::to_json`] writes it: exact numbers as
/// strings (`"40/3"`, `"3.75"`), durations in minutes, enums by name, records with the
/// fields they have in declaration order.
pub struct ValueJson<'a> {
    pub p: &'a Program,
    pub v: &'a Value,
    pub ty: &'a Type,
}

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.p;
        match (self.v, self.ty) {
            (Value::Bool(b), _) => s.serialize_bool(*b),
            (Value::Num(n), Type::Quantity(u)) if u.is_time() => s.collect_str(&format_args!("{n} minutes")),
            (Value::Num(n), _) => s.collect_str(n),
            (Value::Text(t), _) => s.serialize_str(t),
            (Value::Date(d), _) => s.collect_str(d),
            (Value::Time(t), _) => s.collect_str(t),
            (Value::Enum(t, i), _) => match &p.types[*t as usize].kind {
                TypeKind::Enum(vs) => s.serialize_str(vs.get(*i as usize).map_or("", |v| v.name.as_str())),
                _ => s.serialize_unit(),
            },
            (Value::List(xs), ty) => {
                let elem = match ty {
                    Type::List(elem) => elem,
                    _ => &Type::Error,
                };
                s.collect_seq(xs.iter().map(|v| ValueJson { p, v, ty: elem }))
            }
            (Value::Record(t, fields), _) => match &p.types[*t as usize].kind {
                TypeKind::Record(fs) => {
                    let mut m = s.serialize_map(Some(fields.iter().filter(|f| f.is_some()).count()))?;
                    for (f, v) in fs.iter().zip(fields.iter()) {
                        if let Some(v) = v {
                            m.serialize_entry(&f.name, &ValueJson { p, v, ty: &f.ty })?;
                        }
                    }
                    m.end()
                }
                _ => s.serialize_unit(),
            },
        }
    }
}

/// One line's record of rulings.
pub struct Record<'a> {
    pub p: &'a Program,
    pub line: usize,
    pub rulings: &'a [Ruling],
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.rulings.len() + 1))?;
        m.serialize_entry("line", &self.line)?;
        for r in self.rulings {
            m.serialize_entry(
                &self.p.defs[r.def as usize].name,
                &RulingJson { p: self.p, def: r.def, outcome: &r.outcome },
            )?;
        }
        m.end()
    }
}

struct RulingJson<'a> {
    p: &'a Program,
    def: DefId,
    outcome: &'a Outcome,
}

impl Serialize for RulingJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.p;
        let mut m = s.serialize_map(None)?;
        match self.outcome {
            Outcome::Decided(v) => {
                m.serialize_entry("status", "decided")?;
                m.serialize_entry("value", &ValueJson { p, v, ty: &p.defs[self.def as usize].ty })?;
            }
            Outcome::Undetermined(needs) => {
                m.serialize_entry("status", "undetermined")?;
                m.serialize_entry("needs", &Needs { p, needs })?;
            }
            Outcome::Silent(silence) => {
                m.serialize_entry("status", "silent")?;
                m.serialize_entry("not_decided", &p.defs[silence.def as usize].name)?;
                let nearest: Vec<&str> = silence.nearest(p).iter().map(|&c| p.clause(c).citation.as_str()).collect();
                m.serialize_entry("nearest", &nearest)?;
            }
            Outcome::Error(e) => {
                m.serialize_entry("status", "error")?;
                m.serialize_entry("error", &e.message)?;
            }
        }
        m.end()
    }
}

struct Needs<'a> {
    p: &'a Program,
    needs: &'a [Need],
}

impl Serialize for Needs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.p;
        s.collect_seq(self.needs.iter().map(|n| -> std::borrow::Cow<str> {
            match n {
                Need::Fact(f) => p.facts[*f as usize].name.as_str().into(),
                Need::Field { record, field } => format!("{record}.{field}").into(),
                Need::Decision(d) | Need::Lot { lot: d, .. } => p.decisions[*d as usize].name.as_str().into(),
            }
        }))
    }
}

/// A line's error record: `{"line": n, "error": "…"}`.
#[derive(Serialize)]
pub struct ErrorRecord<'a> {
    pub line: usize,
    pub error: &'a str,
}
