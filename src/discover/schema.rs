//! The JSON Schema (2020-12) of a facts file: one property per fact, decision and
//! lot (those the named rulings can read first, the others described as not read),
//! each section's name as an object of its facts, records and enums as `$defs`, with
//! descriptions. The text forms of values are the patterns of [`crate::facts::forms`],
//! the description the reader parses with, so that schema and reader agree.

use super::write;
use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
use crate::facts::forms;
use crate::json::Json as J;
use crate::ojson as json;

/// The schema of a facts file for `rulings` (every fact and decision when empty).
pub fn schema(p: &Program, rulings: &[DefId]) -> J {
    let (facts, decisions): (Vec<u32>, Vec<u32>) = if rulings.is_empty() {
        ((0..p.facts.len() as u32).collect(), (0..p.decisions.len() as u32).collect())
    } else {
        let r = super::reach(p, rulings);
        (r.facts.into_iter().collect(), r.decisions.into_iter().collect())
    };
    let mut defs = J::object();
    let mut props = J::object();
    for f in facts {
        let info = &p.facts[f as usize];
        let mut s = nullable(type_schema(p, &info.ty, &mut defs));
        describe(&mut s, info.doc.as_deref(), p.citation_of(info.clause), None);
        props.insert(info.name.clone(), s);
    }
    for d in decisions {
        let info = &p.decisions[d as usize];
        let mut s = nullable(type_schema(p, &info.ty, &mut defs));
        describe(&mut s, info.doc.as_deref(), p.citation_of(info.clause), Some(&info.by));
        props.insert(info.name.clone(), s);
    }
    // The other facts and decisions of the rulebook, which a facts file may give too (a
    // case's facts for several rulings): checked as the reader checks them, after those read.
    if !rulings.is_empty() {
        for info in &p.facts {
            if props.get(&info.name).is_none() {
                let mut s = nullable(type_schema(p, &info.ty, &mut defs));
                describe(&mut s, Some(NOT_READ), None, None);
                props.insert(info.name.clone(), s);
            }
        }
        for info in &p.decisions {
            if props.get(&info.name).is_none() {
                let mut s = nullable(type_schema(p, &info.ty, &mut defs));
                describe(&mut s, Some(NOT_READ), None, Some(&info.by));
                props.insert(info.name.clone(), s);
            }
        }
    }
    sections(p, &mut props);
    let mut title = p.rulebook.title.clone();
    if title.is_empty() {
        title = p.rulebook.name.clone();
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("facts for {title}"),
        "description": "a facts file: each key a fact, decision or lot; a value left out (or null) is not yet known",
        "type": "object",
        "properties": props,
        "additionalProperties": false,
        "$defs": defs,
    })
}

/// The description of a fact or decision the named rulings do not read.
const NOT_READ: &str = "not read by these rulings";

/// Each section's name as a key too: an object of its facts and decisions by their
/// names in it (`{"s332": {"hold1": …}}`), as the reader takes them.
fn sections(p: &Program, props: &mut J) {
    for name in p.sections.sections.keys() {
        if p.symbols.contains_key(name.as_str()) || props.get(name).is_some() {
            continue;
        }
        let prefix = format!("{name}.");
        let mut inner = J::object();
        if let J::Object(m) = &*props {
            for (k, v) in m.iter() {
                if let Some(short) = k.strip_prefix(&prefix) {
                    inner.insert(short.to_string(), v.clone());
                }
            }
        }
        if matches!(&inner, J::Object(m) if m.is_empty()) {
            continue;
        }
        let s = json!({
            "type": "object",
            "description": format!("the facts of section `{name}` by their names in it"),
            "properties": inner,
            "additionalProperties": false,
        });
        props.insert(name.clone(), s);
    }
}

fn nullable(s: J) -> J {
    json!({ "anyOf": [s, { "type": "null" }] })
}

fn describe(s: &mut J, doc: Option<&str>, clause: Option<&str>, by: Option<&str>) {
    let mut text = doc.unwrap_or_default().to_string();
    if let Some(c) = clause {
        text = if text.is_empty() { format!("({c})") } else { format!("{text} ({c})") };
    }
    if let Some(by) = by {
        text = format!("{text}; decided by {by}");
    }
    if !text.is_empty() {
        s.insert("description", text.trim());
    }
}

fn type_schema(p: &Program, ty: &Type, defs: &mut J) -> J {
    let text = |ty: &Type| json!({ "type": "string", "pattern": forms::pattern(ty).unwrap_or_default() });
    match ty {
        Type::Bool => json!({ "type": "boolean" }),
        Type::Int => json!({
            "anyOf": [{ "type": "integer" }, text(ty)],
            "description": write::how(p, ty),
        }),
        Type::Quantity(_) if forms::takes_json_number(ty) => json!({
            "anyOf": [{ "type": "number" }, text(ty)],
            "description": write::how(p, ty),
        }),
        Type::Quantity(_) | Type::Time | Type::DateTime => {
            let mut s = text(ty);
            s.insert("description", write::how(p, ty));
            s
        }
        Type::Text => json!({ "type": "string" }),
        Type::Date => {
            let mut s = text(ty);
            s.insert("format", "date");
            s
        }
        Type::Enum(t) | Type::Record(t) => {
            let name = p.type_name(*t);
            if defs.get(&name).is_none() {
                defs.insert(name.clone(), J::Null); // a placeholder against recursion
                let s = named_schema(p, *t, defs);
                defs.insert(name.clone(), s);
            }
            json!({ "$ref": format!("#/$defs/{}", pointer_escape(&name)) })
        }
        Type::List(e) => json!({ "type": "array", "items": type_schema(p, e, defs) }),
        Type::Error => json!({}),
    }
}

/// A `$defs` name as a URI fragment: JSON-pointer escapes, then non-ASCII percent-encoded.
fn pointer_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.replace('~', "~0").replace('/', "~1").chars() {
        if c.is_ascii_alphanumeric() || "-._~".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

fn named_schema(p: &Program, t: u32, defs: &mut J) -> J {
    match &p.types[t as usize].kind {
        TypeKind::Enum(vs) => {
            let mut names: Vec<J> = vs.iter().map(|v| json!(v.name.as_str())).collect();
            names.extend(vs.iter().filter_map(|v| v.label.as_deref()).map(J::from));
            json!({ "enum": names, "description": write::how(p, &Type::Enum(t)) })
        }
        TypeKind::Record(fs) => {
            // Any field may be left out or `null`: not yet known, a question for the
            // ruling (`rule --strict` asks for the required ones).
            let mut props = J::object();
            for f in fs {
                let mut s = nullable(type_schema(p, &f.ty, defs));
                let doc = match (&f.doc, f.optional) {
                    (d, true) => d.clone(),
                    (Some(d), false) => Some(format!("{d} (required by `--strict`)")),
                    (None, false) => Some("required by `--strict`".to_string()),
                };
                describe(&mut s, doc.as_deref(), None, None);
                props.insert(f.name.clone(), s);
            }
            json!({
                "type": "object",
                "properties": props,
                "additionalProperties": false,
            })
        }
    }
}
