//! Helpers: check a rulebook from text, rule on facts text, show the answer plainly.

use conditions::check::{Checked, check_sources};
use conditions::eval::value::Value;
use conditions::eval::{self, Outcome};
use conditions::facts::{Format, parse, validate};
use conditions::source::SourceMap;

pub fn book(decls: &str) -> Checked {
    let mut map = SourceMap::new();
    map.add("t.cond", format!("rulebook \"t\" {{ title \"t\" language \"en\" }}\n{decls}\n"));
    check_sources(map)
}

pub fn checked_ok(decls: &str) -> Checked {
    let c = book(decls);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    c
}

/// The ruling `r` on the facts `text` (in `format`): its plain value, `undetermined`,
/// `error: …`, or `facts: …` when the facts are refused.
pub fn rule_as(c: &Checked, format: Format, text: &str) -> String {
    let p = &c.program;
    let tree = match parse(text, format, "facts") {
        Ok(t) => t,
        Err(d) => return format!("facts: {}", d.message),
    };
    let inputs = match validate(p, &tree, "facts") {
        Ok(i) => i,
        Err(ds) => {
            return format!(
                "facts: {}",
                ds.iter()
                    .map(|d| format!("{} ({})", d.message, d.help.clone().unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    };
    let def = p.def_by_name("r").expect("a ruling `r`");
    match eval::rule(p, &inputs, def, false).outcome {
        Outcome::Decided(v) => exact(c, &v, &p.defs[def as usize].ty),
        Outcome::Undetermined(_) => "undetermined".into(),
        Outcome::Error(e) => format!("error: {}", e.message),
        Outcome::Silent(_) => "silent".into(),
    }
}

pub fn rule(c: &Checked, json: &str) -> String {
    rule_as(c, Format::Json, json)
}

/// Numbers in their exact plain form (`-2`, `0.25`, `1/3`), lists joined by `, `.
fn exact(c: &Checked, v: &Value, ty: &conditions::check::types::Type) -> String {
    match v {
        Value::Num(n) => n.to_string(),
        Value::List(xs) => xs.iter().map(|x| exact(c, x, ty)).collect::<Vec<_>>().join(", "),
        _ => conditions::eval::show::plain(&c.program, v, ty),
    }
}
