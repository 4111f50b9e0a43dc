//! The JSON Schema (2020-12) of a facts file: one property per fact, decision and
//! lot (restricted to what the named rulings can read), records and enums as
//! `$defs`, with descriptions, enums and formats.

use super::write;
use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
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
        "additionalProperties": !rulings.is_empty(),
        "$defs": defs,
    })
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
    match ty {
        Type::Bool => json!({ "type": "boolean" }),
        Type::Int => json!({
            "anyOf": [{ "type": "integer" }, { "type": "string", "pattern": "^\\s*[+-]?[0-9][0-9., ]*\\s*$" }],
            "description": write::how(p, ty),
        }),
        Type::Quantity(u) if u.is_none() => json!({
            "type": ["number", "string"],
            "description": write::how(p, ty),
        }),
        Type::Quantity(_) => json!({
            "type": ["string", "number"],
            "description": write::how(p, ty),
        }),
        Type::Text => json!({ "type": "string" }),
        Type::Date => json!({ "type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" }),
        // `18:15`, or `18:15:00` (a TOML local time read as text).
        Type::Time => json!({
            "type": "string",
            "pattern": "^([01]?[0-9]|2[0-3]):[0-5][0-9](:00)?$",
            "description": write::how(p, ty),
        }),
        // `2008-09-06 22:00`, or `2008-09-06T22:00:00` (a TOML local date-time read as text).
        Type::DateTime => json!({
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ]([01][0-9]|2[0-3]):[0-5][0-9](:00)?$",
            "description": write::how(p, ty),
        }),
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
            let mut props = J::object();
            let mut required = Vec::new();
            for f in fs {
                let mut s = type_schema(p, &f.ty, defs);
                if f.optional {
                    s = nullable(s);
                } else {
                    required.push(json!(f.name.as_str()));
                }
                describe(&mut s, f.doc.as_deref(), None, None);
                props.insert(f.name.clone(), s);
            }
            json!({
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": false,
            })
        }
    }
}
