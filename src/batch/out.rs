//! The batch's JSON records written straight from the rulings' values (no intermediate
//! JSON tree), in the documented key order of docs/json.md: `line` first, then each
//! ruling asked for with its `status` and `value`, `needs`, `not_decided`/`nearest` or
//! `error`. [`Writer`] writes the bytes of a record itself, with the names it writes
//! (rulings, enum variants, record fields) escaped once and kept; the `Serialize`
//! types below write the same JSON through serde and are what it is checked against.

use crate::base::value::Value;
use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
use crate::eval::trace::Need;
use crate::eval::{Outcome, Ruling};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use std::io::Write as _;

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
            (Value::DateTime(t), _) => s.collect_str(t),
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

/// Writes records as bytes, keeping the JSON form of every name it has written.
#[derive(Default)]
pub struct Writer {
    /// By type: an enum's variant names as JSON strings, or a record's field names as
    /// JSON strings followed by `:`; empty until the type is first written.
    names: Vec<Vec<Box<[u8]>>>,
    /// By definition: its name as a JSON string followed by `:`.
    defs: Vec<Option<Box<[u8]>>>,
}

/// `s` as a JSON string (`suffix` after it).
fn quoted(s: &str, suffix: &str) -> Box<[u8]> {
    let mut b = serde_json::to_vec(s).unwrap_or_else(|_| b"\"\"".to_vec());
    b.extend_from_slice(suffix.as_bytes());
    b.into()
}

impl Writer {
    /// Appends the record of one line's rulings (no newline): the same JSON as
    /// [`Record`] serialised by serde_json.
    pub fn record(&mut self, p: &Program, line: usize, rulings: &[Ruling], out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"line\":");
        whole(line, out);
        for r in rulings {
            out.push(b',');
            let d = r.def as usize;
            if self.defs.len() <= d {
                self.defs.resize(d + 1, None);
            }
            out.extend_from_slice(self.defs[d].get_or_insert_with(|| quoted(&p.defs[d].name, ":")));
            match &r.outcome {
                Outcome::Decided(v) => {
                    out.extend_from_slice(b"{\"status\":\"decided\",\"value\":");
                    self.value(p, v, &p.defs[d].ty, out);
                    out.push(b'}');
                }
                outcome => {
                    if serde_json::to_writer(&mut *out, &RulingJson { p, def: r.def, outcome }).is_err() {
                        out.extend_from_slice(b"null");
                    }
                }
            }
        }
        out.push(b'}');
    }

    /// The names of type `t` (its variants or its fields), made on first use.
    fn names(&mut self, p: &Program, t: usize) -> &[Box<[u8]>] {
        if self.names.len() <= t {
            self.names.resize(t + 1, Vec::new());
        }
        if self.names[t].is_empty() {
            self.names[t] = match &p.types[t].kind {
                TypeKind::Enum(vs) => vs.iter().map(|v| quoted(&v.name, "")).collect(),
                TypeKind::Record(fs) => fs.iter().map(|f| quoted(&f.name, ":")).collect(),
            };
        }
        &self.names[t]
    }

    /// A value as [`ValueJson`] writes it.
    pub fn value(&mut self, p: &Program, v: &Value, ty: &Type, out: &mut Vec<u8>) {
        match v {
            Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Num(n) => match ty {
                Type::Quantity(u) if u.is_time() => shown(out, format_args!("{n} minutes")),
                _ => shown(out, format_args!("{n}")),
            },
            Value::Text(t) => {
                if serde_json::to_writer(&mut *out, &**t).is_err() {
                    out.extend_from_slice(b"null");
                }
            }
            Value::Date(d) => shown(out, format_args!("{d}")),
            Value::Time(t) => shown(out, format_args!("{t}")),
            Value::DateTime(t) => shown(out, format_args!("{t}")),
            Value::Enum(t, i) => match &p.types[*t as usize].kind {
                TypeKind::Enum(_) => match self.names(p, *t as usize).get(*i as usize) {
                    Some(name) => out.extend_from_slice(name),
                    None => out.extend_from_slice(b"\"\""),
                },
                _ => out.extend_from_slice(b"null"),
            },
            Value::List(xs) => {
                let elem = match ty {
                    Type::List(elem) => elem,
                    _ => &Type::Error,
                };
                out.push(b'[');
                for (k, x) in xs.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    self.value(p, x, elem, out);
                }
                out.push(b']');
            }
            Value::Record(t, fields) => match &p.types[*t as usize].kind {
                TypeKind::Record(fs) => {
                    out.push(b'{');
                    let mut first = true;
                    for (k, (f, x)) in fs.iter().zip(fields.iter()).enumerate() {
                        let Some(x) = x else { continue };
                        if !std::mem::take(&mut first) {
                            out.push(b',');
                        }
                        out.extend_from_slice(&self.names(p, *t as usize)[k]);
                        self.value(p, x, &f.ty, out);
                    }
                    out.push(b'}');
                }
                _ => out.extend_from_slice(b"null"),
            },
        }
    }
}

/// A number in decimal digits.
fn whole(n: usize, out: &mut Vec<u8>) {
    let mut digits = [0u8; 20];
    let (mut i, mut n) = (digits.len(), n);
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Displayed text as a JSON string; escaped through serde_json only when it has a
/// character that needs it (a number, date or time never has).
fn shown(out: &mut Vec<u8>, text: std::fmt::Arguments) {
    let start = out.len();
    out.push(b'"');
    let _ = out.write_fmt(text);
    if out[start + 1..].iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20) {
        let s = String::from_utf8_lossy(&out[start + 1..]).into_owned();
        out.truncate(start);
        if serde_json::to_writer(&mut *out, &s).is_err() {
            out.extend_from_slice(b"null");
        }
        return;
    }
    out.push(b'"');
}
