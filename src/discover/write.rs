//! How a facts file writes a value of each type: the hint shown by `describe` and
//! `ask`, and an example value for templates.

use crate::check::program::{Program, TypeKind};
use crate::check::types::{Type, Unit};
use crate::json::Json as J;
use crate::ojson as json;
use crate::show::Lang;

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

/// The hint for writing a value of `ty`, in English.
pub fn how(p: &Program, ty: &Type) -> String {
    how_in(p, ty, Lang::En)
}

/// The hint for writing a value of `ty`, in the words of `lang` (`messages/ask.*.toml`).
pub fn how_in(p: &Program, ty: &Type, lang: Lang) -> String {
    let words = crate::discover::ask_words::words(lang);
    let h = &words.hints;
    match ty {
        Type::Bool => h.bool.clone(),
        Type::Int => h.int.clone(),
        Type::Quantity(u) if u.is_none() => h.number.clone(),
        Type::Quantity(u) if u.is_time() => h.duration.clone(),
        Type::Quantity(u) => words.fill(&h.amount, &[("example", quantity_example(u))]),
        Type::Text => h.text.clone(),
        Type::Date => h.date.clone(),
        Type::Time => h.time.clone(),
        Type::DateTime => h.datetime.clone(),
        Type::Enum(_) => {
            let shown: Vec<String> = variants(p, ty)
                .iter()
                .map(|(n, l)| match l {
                    Some(l) => format!("{n} (“{l}”)"),
                    None => n.clone(),
                })
                .collect();
            words.fill(&h.variants, &[("values", shown.join(", "))])
        }
        Type::Record(t) => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => {
                let names: Vec<String> =
                    fs.iter().map(|f| format!("{}{}", f.name, if f.optional { "?" } else { "" })).collect();
                words.fill(&h.record, &[("fields", names.join(", "))])
            }
            TypeKind::Enum(_) => String::new(),
        },
        Type::List(e) => words.fill(&h.list, &[("each", how_in(p, e, lang))]),
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
        Type::Time => json!("18:15"),
        Type::DateTime => json!("2008-09-06 18:15"),
        Type::Enum(_) => variants(p, ty).first().map_or(J::Null, |(n, _)| json!(n.as_str())),
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
