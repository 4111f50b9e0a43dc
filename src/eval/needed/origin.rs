//! Where a record read by a ruling sits in the facts: the facts-file path of a record
//! value (`team.players[2]`), found by identity, so that a missing field names the one
//! list element it is missing from rather than its record type.
//!
//! Values are shared, never copied, between the facts and an evaluation: a record the
//! interpreter reads from a fact (through a list, a `filter`, a `sort`, a parameter) is the
//! very record held in the facts. A record built by the rulebook itself is in no fact and
//! has no origin; the missing field is then named by its record type, as before, and every
//! record of that type in the facts is a candidate.

use super::Step;
use crate::base::value::Value;
use crate::check::program::{FactId, Program, TypeKind};
use crate::eval::interp::Inputs;
use std::collections::HashMap;
use std::sync::Arc;

/// The address of a record's fields: its identity while the facts are held.
pub fn identity(fields: &Arc<[Option<Value>]>) -> usize {
    Arc::as_ptr(fields) as *const Option<Value> as *const () as usize
}

/// The facts-file path of every record held in the facts, by identity.
pub fn origins(p: &Program, inputs: &Inputs) -> HashMap<usize, String> {
    let mut out = HashMap::new();
    for (f, v) in inputs.facts.iter().enumerate() {
        if let (Some(v), Some(info)) = (v, p.facts.get(f)) {
            each_record(p, v, &info.name, &mut |path, _, fields| {
                out.entry(identity(fields)).or_insert_with(|| path.to_string());
            });
        }
    }
    out
}

/// The record at facts-file path `path`, if one is there.
pub fn record_at(p: &Program, inputs: &Inputs, path: &str) -> Option<Value> {
    locate(p, inputs, path).map(|(_, _, v)| v).filter(|v| matches!(v, Value::Record(..)))
}

/// The value at facts-file path `path` (`team.players[2]`), with the fact it is in and the
/// steps to it from there; read along the path, never by searching the facts.
pub fn locate(p: &Program, inputs: &Inputs, path: &str) -> Option<(FactId, Vec<Step>, Value)> {
    // The fact: the longest fact name the path starts with, followed by a step or nothing
    // (a fact of a section has a dot in its name).
    let (f, rest) = p
        .facts
        .iter()
        .enumerate()
        .filter_map(|(f, info)| {
            let rest = path.strip_prefix(info.name.as_str())?;
            (rest.is_empty() || rest.starts_with(['.', '['])).then_some((f, rest, info.name.len()))
        })
        .max_by_key(|(_, _, len)| *len)
        .map(|(f, rest, _)| (f, rest))?;
    let mut v = inputs.facts.get(f)?.clone()?;
    let mut steps = Vec::new();
    let mut rest = rest;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let (i, after) = r.split_once(']')?;
            let i: usize = i.parse().ok()?;
            let Value::List(xs) = &v else { return None };
            let x = xs.get(i)?.clone();
            steps.push(Step::Index(i));
            v = x;
            rest = after;
        } else {
            let r = rest.strip_prefix('.')?;
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let (name, after) = r.split_at(end);
            let Value::Record(t, fields) = &v else { return None };
            let TypeKind::Record(fs) = &p.types.get(*t as usize)?.kind else { return None };
            let i = fs.iter().position(|x| x.name == name)?;
            let x = fields.get(i)?.clone()?;
            steps.push(Step::Field(i as u32));
            v = x;
            rest = after;
        }
    }
    Some((f as FactId, steps, v))
}

/// The name a person knows a record by (its `name` or `navn` field), if it has one.
pub fn name_of(p: &Program, record: &Value) -> Option<String> {
    let Value::Record(t, fields) = record else { return None };
    let TypeKind::Record(fs) = &p.types.get(*t as usize)?.kind else { return None };
    let i = fs.iter().position(|f| crate::show::is_name_field(&f.name))?;
    match fields.get(i) {
        Some(Some(Value::Text(s))) => Some(s.to_string()),
        _ => None,
    }
}

/// Calls `f` with the path and fields of every record within `v` (at `path`).
/// What [`each_record`] calls for each record: its path, type and fields.
type OnRecord<'f> = dyn FnMut(&str, u32, &Arc<[Option<Value>]>) + 'f;

fn each_record(p: &Program, v: &Value, path: &str, f: &mut OnRecord<'_>) {
    match v {
        Value::Record(t, fields) => {
            f(path, *t, fields);
            let Some(TypeKind::Record(fs)) = p.types.get(*t as usize).map(|t| &t.kind) else { return };
            for (x, decl) in fields.iter().zip(fs.iter()) {
                if let Some(x) = x
                    && matches!(x, Value::Record(..) | Value::List(_))
                {
                    each_record(p, x, &format!("{path}.{}", decl.name), f);
                }
            }
        }
        Value::List(xs) => {
            for (i, x) in xs.iter().enumerate() {
                if matches!(x, Value::Record(..) | Value::List(_)) {
                    each_record(p, x, &format!("{path}[{i}]"), f);
                }
            }
        }
        _ => {}
    }
}
