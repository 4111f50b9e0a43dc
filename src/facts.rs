//! Facts files (JSON, TOML or YAML), validated against the rulebook's
//! declarations. Every problem is reported with its path in the file
//! (`team.players[2].masterpoints`), the expected type and the declaring clause;
//! nothing is defaulted silently.

use crate::base::num::Num;
use crate::base::slots::Slots;
use crate::base::value::Value;
use crate::check::program::{ClauseId, PatIr, Program, Symbol};
use crate::check::types::Type;
use crate::diagnostic::Diagnostic;
use serde_json::Value as J;

pub mod forms;
pub mod json;
pub mod printed;
pub mod read;
pub mod seed;
pub mod tree;
pub mod yaml;

/// The facts and decisions of one case, indexed like the program's declarations.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub facts: Slots,
    pub decisions: Slots,
}

impl Inputs {
    pub fn empty(p: &Program) -> Inputs {
        Inputs { facts: Slots::new(p.facts.len()), decisions: Slots::new(p.decisions.len()) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Toml,
    Yaml,
}

impl Format {
    /// The format for a file name: `.toml`, `.yaml`/`.yml`, otherwise JSON.
    pub fn for_path(path: &str) -> Format {
        if path.ends_with(".toml") {
            Format::Toml
        } else if path.ends_with(".yaml") || path.ends_with(".yml") {
            Format::Yaml
        } else {
            Format::Json
        }
    }
}

/// Largest facts file accepted, in bytes.
pub const MAX_FACTS_BYTES: usize = 64 * 1024 * 1024;

fn err(code: &'static str, path: &str, message: String, help: String) -> Diagnostic {
    Diagnostic::error(code, message).in_path(path.to_string()).help(help)
}

/// Parses text into a JSON tree, whatever the format; a leading byte-order mark is ignored.
pub fn parse(text: &str, format: Format, origin: &str) -> Result<J, Diagnostic> {
    let text = read::strip_bom(text);
    if text.len() > MAX_FACTS_BYTES {
        return Err(err(
            "conditions::facts_too_large",
            origin,
            format!("facts file is larger than {MAX_FACTS_BYTES} bytes"),
            "split the facts into several files".into(),
        ));
    }
    if text.trim().is_empty() {
        return Err(err(
            "conditions::facts_empty",
            origin,
            "the facts file is empty".into(),
            "write the facts as an object: {\"fact_name\": value, …}".into(),
        ));
    }
    let parsed = match format {
        Format::Json => read::json(text).map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column())),
        Format::Toml => read::toml(text),
        Format::Yaml => read::yaml(text),
    };
    parsed.map_err(|e| {
        err(
            "conditions::facts_syntax",
            origin,
            format!("the facts file is not valid {}: {}", format_name(format), e.trim()),
            "fix the syntax at the place named".into(),
        )
    })
}

/// TOML dates (`born = 1980-01-30`) arrive as a tagged object; they are read as text.
pub fn untoml(v: J) -> J {
    match v {
        J::Object(mut m) => {
            if m.len() == 1
                && let Some(J::String(s)) = m.get("$__toml_private_datetime")
            {
                return J::String(s.clone());
            }
            for (_, x) in m.iter_mut() {
                *x = untoml(std::mem::take(x));
            }
            J::Object(m)
        }
        J::Array(xs) => J::Array(xs.into_iter().map(untoml).collect()),
        other => other,
    }
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Json => "JSON",
        Format::Toml => "TOML",
        Format::Yaml => "YAML",
    }
}

/// Validates a facts tree against the program: every key a declared fact,
/// decision or lot; every value of its declared type. A required record field left
/// out is an error (machine feeds, `--strict`).
pub fn validate(p: &Program, tree: &J, origin: &str) -> Result<Inputs, Vec<Diagnostic>> {
    validate_with(p, tree, origin, false)
}

/// Like [`validate`], but a fact given as `null` and a record field left out (or `null`)
/// are *not yet known*: a question for the ruling, not an error.
pub fn validate_open(p: &Program, tree: &J, origin: &str) -> Result<Inputs, Vec<Diagnostic>> {
    validate_with(p, tree, origin, true)
}

fn validate_with(p: &Program, tree: &J, origin: &str, open: bool) -> Result<Inputs, Vec<Diagnostic>> {
    let mut inputs = Inputs::empty(p);
    let mut reader = seed::Reader::new(p, origin, open);
    let facts = seed::FactsSeed { reader: &mut reader, inputs: &mut inputs, touched: &mut Vec::new() };
    if let Err(e) = serde::de::DeserializeSeed::deserialize(facts, tree::Tree(tree)) {
        reader.errors.push(err(
            "conditions::facts_syntax",
            origin,
            format!("the facts are not read: {e}"),
            "fix the facts at the place named".into(),
        ));
    }
    if reader.errors.is_empty() { Ok(inputs) } else { Err(reader.errors) }
}

/// Reads one JSON text (a batch line, a request's body) straight into a reused input
/// set: `inputs` must be empty, and the slots filled are pushed onto `touched` (clear
/// them with [`seed::clear`]). The outer error is the JSON's own (syntax, a key given
/// twice); the inner ones are the facts' problems, each with its path.
pub fn read_json_into(
    p: &Program,
    text: &str,
    origin: &str,
    open: bool,
    inputs: &mut Inputs,
    touched: &mut Vec<seed::Slot>,
) -> Result<Result<(), Vec<Diagnostic>>, json::Error> {
    read_json_keeping(p, text, origin, open, inputs, touched, &mut seed::Kept::default())
}

/// As [`read_json_into`], with what an earlier reading of the same program kept
/// (clear the slots with [`seed::clear_keeping`]).
pub fn read_json_keeping(
    p: &Program,
    text: &str,
    origin: &str,
    open: bool,
    inputs: &mut Inputs,
    touched: &mut Vec<seed::Slot>,
    kept: &mut seed::Kept,
) -> Result<Result<(), Vec<Diagnostic>>, json::Error> {
    let mut reader = seed::Reader::with(p, origin, open, std::mem::take(kept));
    let mut de = json::Json::new(read::strip_bom(text));
    let read =
        serde::de::DeserializeSeed::deserialize(seed::FactsSeed { reader: &mut reader, inputs, touched }, &mut de)
            .and_then(|()| de.end());
    *kept = std::mem::take(&mut reader.kept);
    read?;
    Ok(if reader.errors.is_empty() { Ok(()) } else { Err(reader.errors) })
}

/// A value outside its declared bound (`fact n: int in 0..`), reported with its path
/// (`rounds`, `deductions[2]`); for a list, each item is checked.
fn out_of_bound(
    p: &Program,
    v: &Value,
    ty: &Type,
    bound: Option<&PatIr>,
    path: &str,
    clause: Option<ClauseId>,
    origin: &str,
) -> Option<Diagnostic> {
    let bound = bound?;
    if let (Value::List(xs), Type::List(item)) = (v, ty) {
        return xs
            .iter()
            .enumerate()
            .find_map(|(i, x)| out_of_bound(p, x, item, Some(bound), &format!("{path}[{i}]"), clause, origin));
    }
    if crate::check::patterns::matches_pattern(bound, v, &mut []) {
        return None;
    }
    let PatIr::Range { lo, hi, inclusive } = bound else { return None };
    let show = |x: &Value| crate::show::plain(p, x, ty);
    let range = match (lo, hi) {
        (Some(l), Some(h)) if *inclusive => format!("from {} to {}", show(l), show(h)),
        (Some(l), Some(h)) => format!("from {} up to but not including {}", show(l), show(h)),
        (Some(l), None) => format!("{} or more", show(l)),
        (None, Some(h)) if *inclusive => format!("{} or less", show(h)),
        (None, Some(h)) => format!("less than {}", show(h)),
        (None, None) => return None,
    };
    let declared = p.citation_of(clause).map(|c| format!(" (declared in {c})")).unwrap_or_default();
    Some(err(
        "conditions::fact_out_of_range",
        &format!("{origin}: {path}"),
        format!("`{path}` must be {range}{declared}, found {}", show(v)),
        format!("the rulebook allows only values {range} here"),
    ))
}

fn article(want: &str, ty: &Type) -> String {
    match ty {
        Type::List(_) => format!("a `{want}`"),
        _ => format!("`{want}`"),
    }
}

fn example_value(ty: &Type) -> String {
    match ty {
        Type::Bool => "true".into(),
        Type::Int => "3".into(),
        Type::Text => "\"…\"".into(),
        Type::Date => "\"2007-09-01\"".into(),
        Type::Time => "\"18:15\"".into(),
        Type::DateTime => "\"2008-09-06 18:15\"".into(),
        Type::Quantity(u) if u.is_time() => "\"24 hours\"".into(),
        Type::Quantity(u) => match u.currency() {
            Some(c) => format!("\"4.00 {c}\""),
            None => "2.5".into(),
        },
        Type::Enum(_) => "\"<variant>\"".into(),
        Type::Record(_) => "{…}".into(),
        Type::List(_) => "[…]".into(),
        Type::Error => "…".into(),
    }
}

fn example(ty: &Type) -> String {
    format!("for example {}", example_value(ty))
}

/// An exact number from its text, in the type's base unit: a JSON number's digits, or
/// (`quoted`) text with a unit, a percent sign or a printed form (`"4,00 kr."`).
fn number(text: &str, quoted: bool, ty: &Type) -> Result<Num, String> {
    let unit = ty.unit().unwrap_or_default();
    let shown = text;
    let printed;
    let plain;
    let text: &str = if quoted {
        let s = text.trim();
        printed = printed::normalise(s, None)?;
        printed.as_deref().unwrap_or(s)
    } else if text.contains(['e', 'E']) {
        // A JSON number in exponent form (`1e3`, `2.5e-1`), written out in digits.
        plain = without_exponent(text).ok_or_else(|| {
            format!("`{text}` is not read: its exponent is beyond ±{MAX_EXPONENT}, more than any exact number holds")
        })?;
        &plain
    } else {
        text
    };
    let (num_part, unit_part) = match text.split_once(' ') {
        Some((a, b)) => (a, Some(b.trim())),
        None => (text, None),
    };
    let (num_part, percent) = match num_part.strip_suffix('%') {
        Some(x) => (x, true),
        None => (num_part, false),
    };
    // A number in exponent form is named as written (`1e400`), not its digits.
    let shown = if quoted { text } else { shown };
    let n = Num::parse(num_part).map_err(|e| format!("`{shown}` is not read: {e}"))?;
    let too_large = || format!("`{shown}` is not read: {}", crate::base::num::LIMIT);
    let n = if percent { n.div(Num::int(100)).ok_or_else(too_large)? } else { n };
    match unit_part {
        None if unit.is_time() => Err("write a duration with its unit, e.g. \"24 hours\", \"8 days\"".into()),
        None => Ok(n),
        Some(u) => {
            let (words, per) = match u.split_once(" per ") {
                Some((a, b)) => (a.trim(), Some(b.trim())),
                None => (u, None),
            };
            let (wu, wf) = crate::check::types::unit_word(words).ok_or_else(|| format!("unknown unit `{words}`"))?;
            let (mut got_unit, mut n) = (wu, n.mul(Num::int(wf)).ok_or_else(too_large)?);
            if let Some(per) = per {
                let (pu, pf) = crate::check::types::unit_word(per).ok_or_else(|| format!("unknown unit `{per}`"))?;
                got_unit = got_unit.div(&pu);
                n = n.div(Num::int(pf)).ok_or_else(too_large)?;
            }
            if got_unit != unit {
                return Err(format!("the unit `{u}` does not fit; {}", example(ty)));
            }
            Ok(n)
        }
    }
}

/// Most digits an exponent may add to a number written out (more than any exact
/// number holds, so that such a number is refused for its size, not its form).
const MAX_EXPONENT: i64 = 400;

/// A number's text with an exponent (`2.5e3`, `1E-2`: the text of a float an embedder
/// gave) in plain digits (`2500`, `0.01`); `None` when it has no exponent or one beyond
/// [`MAX_EXPONENT`]. Facts written as text take no exponent (one lexical form a type).
pub(crate) fn without_exponent(text: &str) -> Option<String> {
    let (mantissa, exp) = text.split_once(['e', 'E'])?;
    let exp: i64 = exp.strip_prefix('+').unwrap_or(exp).parse().ok()?;
    if exp.abs() > MAX_EXPONENT {
        return None;
    }
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let point = int.len() as i64 + exp;
    Some(if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{sign}{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        let (a, b) = digits.split_at(point as usize);
        format!("{sign}{a}.{b}")
    })
}

/// Why a value given for a fact or decision (by its name) is outside its declared bound, if it is.
pub fn bound_error(p: &Program, name: &str, v: &Value) -> Option<String> {
    let (ty, bound, clause) = match p.symbols.get(name)? {
        Symbol::Fact(f) => {
            let i = &p.facts[*f as usize];
            (&i.ty, i.bound.as_ref(), i.clause)
        }
        Symbol::Decision(d) => {
            let i = &p.decisions[*d as usize];
            (&i.ty, i.bound.as_ref(), i.clause)
        }
        _ => return None,
    };
    out_of_bound(p, v, ty, bound, name, clause, "").map(|d| d.message)
}

/// Converts one JSON value to a value of `ty` (used for expected values in case files).
pub fn convert_value(p: &Program, v: &J, ty: &Type, path: &str) -> Result<Value, String> {
    let mut reader = seed::Reader::new(p, "", false);
    let root = seed::Path::Root(path);
    let value = seed::ValueSeed { reader: &mut reader, ty, path: &root, clause: None, nullable: false, depth: 0 };
    let got = serde::de::DeserializeSeed::deserialize(value, tree::Tree(v)).map_err(|e| e.to_string())?;
    match got {
        seed::Got::Value(x) if reader.errors.is_empty() => Ok(x),
        _ => Err(reader.errors.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; ")),
    }
}
