//! How a facts file writes a value of each type: the hint shown by `describe` and
//! `ask`, and an example value for templates.

use crate::check::program::{Program, TypeKind};
use crate::check::types::{Type, Unit};
use serde_json::{Value as J, json};

/// An example of a quantity with this unit as a facts file writes it: `"2.00 DKK per km"`.
fn quantity_example(u: &Unit) -> String {
    if u.is_time() {
        return "8 hours".into();
    }
    let word = |b: &str| if b == "min" { "minutes".to_string() } else { b.to_string() };
    let pos: Vec<String> = u.0.iter().filter(|(_, e)| *e > 0).map(|(b, _)| word(b)).collect();
    let neg: Vec<String> = u.0.iter().filter(|(_, e)| *e < 0).map(|(b, _)| word(b)).collect();
    let amount = if u.0.iter().any(|(b, _)| crate::check::types::is_currency(b)) { "2.00" } else { "12" };
    match (pos.as_slice(), neg.as_slice()) {
        ([p], []) => format!("{amount} {p}"),
        ([p], [n]) => format!("{amount} {p} per {n}"),
        _ => amount.to_string(),
    }
}

/// The hint for writing a value of `ty`.
pub fn how(p: &Program, ty: &Type) -> String {
    match ty {
        Type::Bool => "true or false".into(),
        Type::Int => "a whole number, e.g. 3".into(),
        Type::Quantity(u) if u.is_none() => "a number, e.g. 2150 or 2.5 or \"1/3\"".into(),
        Type::Quantity(u) if u.is_time() => {
            "a duration with its unit, e.g. \"8 hours\" (minutes, hours, days, weeks)".into()
        }
        Type::Quantity(u) => format!("an amount with its unit, e.g. \"{}\"", quantity_example(u)),
        Type::Text => "text, e.g. \"…\"".into(),
        Type::Date => "a date YYYY-MM-DD, e.g. 2008-02-15".into(),
        Type::Enum(_) => {
            let vs = variants(p, ty);
            let shown: Vec<String> = vs
                .iter()
                .map(|(n, l)| match l {
                    Some(l) => format!("{n} (“{l}”)"),
                    None => n.clone(),
                })
                .collect();
            format!("one of: {}", shown.join(", "))
        }
        Type::Record(t) => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => {
                let names: Vec<String> =
                    fs.iter().map(|f| format!("{}{}", f.name, if f.optional { "?" } else { "" })).collect();
                format!("a table with {}", names.join(", "))
            }
            TypeKind::Enum(_) => String::new(),
        },
        Type::List(e) => format!("a list, each {}", how(p, e)),
        Type::Error => String::new(),
    }
}

/// The variants of an enum type, by name and label (empty for other types).
pub fn variants(p: &Program, ty: &Type) -> Vec<(String, Option<String>)> {
    match ty {
        Type::Enum(t) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => vs.iter().map(|v| (v.name.clone(), v.label.clone())).collect(),
            TypeKind::Record(_) => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// An example value of `ty`, as JSON.
pub fn example(p: &Program, ty: &Type, depth: usize) -> J {
    match ty {
        Type::Bool => json!(true),
        Type::Int => json!(3),
        Type::Quantity(u) if u.is_none() => json!(2150),
        Type::Quantity(u) => json!(quantity_example(u)),
        Type::Text => json!("…"),
        Type::Date => json!("2008-02-15"),
        Type::Enum(_) => variants(p, ty).first().map_or(J::Null, |(n, _)| json!(n)),
        Type::Record(t) if depth < 8 => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => {
                J::Object(fs.iter().map(|f| (f.name.clone(), example(p, &f.ty, depth + 1))).collect())
            }
            TypeKind::Enum(_) => J::Null,
        },
        Type::List(e) if depth < 8 => json!([example(p, e, depth + 1)]),
        _ => J::Null,
    }
}
