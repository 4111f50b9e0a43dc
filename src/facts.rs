//! Facts files (JSON, TOML or YAML), validated against the rulebook's
//! declarations. Every problem is reported with its path in the file
//! (`team.players[2].masterpoints`), the expected type and the declaring clause;
//! nothing is defaulted silently.

use crate::check::program::{ClauseId, PatIr, Program, Symbol, TypeKind};
use crate::check::types::Type;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::eval::date::Date;
use crate::eval::interp::Inputs;
use crate::eval::num::Num;
use crate::eval::show::visible;
use crate::eval::time::Time;
use crate::eval::value::Value;
use serde_json::Value as J;

pub mod printed;
pub mod read;

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
    let mut errors = Vec::new();
    let J::Object(map) = tree else {
        return Err(vec![err(
            "conditions::facts_not_object",
            origin,
            format!("the facts must be an object of named facts, found {}", kind(tree)),
            "write {\"fact_name\": value, …}".into(),
        )]);
    };
    for (key, value) in &in_sections(p, map) {
        let v = Validator { p, origin, errors: &mut errors, open };
        match p.symbols.get(key) {
            Some(Symbol::Fact(f)) => {
                let info = &p.facts[*f as usize];
                if open && value.is_null() {
                    continue; // not yet known
                }
                if let Some(x) = v.convert(value, &info.ty, key.clone(), info.clause) {
                    match out_of_bound(p, &x, &info.ty, info.bound.as_ref(), key, info.clause, origin) {
                        Some(e) => errors.push(e),
                        None => inputs.facts[*f as usize] = Some(x),
                    }
                }
            }
            Some(Symbol::Decision(d)) => {
                let info = &p.decisions[*d as usize];
                if value.is_null() {
                    continue; // explicitly not decided yet
                }
                if let Some(x) = v.convert(value, &info.ty, key.clone(), info.clause) {
                    match out_of_bound(p, &x, &info.ty, info.bound.as_ref(), key, info.clause, origin) {
                        Some(e) => errors.push(e),
                        None => inputs.decisions[*d as usize] = Some(x),
                    }
                }
            }
            _ => {
                let key = &visible(key);
                let names: Vec<&str> = p
                    .facts
                    .iter()
                    .map(|f| f.name.as_str())
                    .chain(p.decisions.iter().map(|d| d.name.as_str()))
                    .collect();
                errors.push(err(
                    "conditions::unknown_fact",
                    &format!("{origin}: {key}"),
                    format!("`{key}` is not a fact or decision of this rulebook"),
                    did_you_mean(key, names.iter().copied())
                        .unwrap_or_else(|| "`conditions list RULEBOOK --all` lists the facts a rulebook reads".into()),
                ));
            }
        }
    }
    if errors.is_empty() { Ok(inputs) } else { Err(errors) }
}

/// The facts of a map by full name: a section's facts may be given under the section's
/// name (`{"s332": {"hold1": …}}`, TOML `s332.hold1 = …`) or by full name (`"s332.hold1"`).
fn in_sections<'j>(p: &Program, map: &'j serde_json::Map<String, J>) -> Vec<(String, &'j J)> {
    let mut out = Vec::new();
    for (key, value) in map {
        match value {
            J::Object(inner) if p.sections.sections.contains_key(key) && !p.symbols.contains_key(key) => {
                out.extend(inner.iter().map(|(k, v)| (format!("{key}.{k}"), v)));
            }
            _ => out.push((key.clone(), value)),
        }
    }
    out
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
    if crate::eval::interp::matches_pattern(bound, v, &mut []) {
        return None;
    }
    let PatIr::Range { lo, hi, inclusive } = bound else { return None };
    let show = |x: &Value| crate::eval::show::plain(p, x, ty);
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

fn kind(v: &J) -> String {
    match v {
        J::Null => "null".into(),
        J::Bool(b) => format!("`{b}`"),
        J::Number(n) => format!("the number `{n}`"),
        J::String(s) => format!("the text `{}`", visible(&s.chars().take(40).collect::<String>())),
        J::Array(_) => "a list".into(),
        J::Object(_) => "an object".into(),
    }
}

/// A place in the facts file, spelled out only when a problem is reported.
enum Path<'a> {
    Root(&'a str),
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root(s) => write!(f, "{s}"),
            Path::Field(p, name) => write!(f, "{p}.{name}"),
            Path::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

struct Validator<'a> {
    p: &'a Program,
    origin: &'a str,
    errors: &'a mut Vec<Diagnostic>,
    /// Whether a required record field left out is not yet known rather than an error.
    open: bool,
}

impl Validator<'_> {
    fn fail(&mut self, path: &Path, ty: &Type, found: &J, clause: Option<ClauseId>, extra: Option<String>) {
        let path = &path.to_string();
        let want = self.p.describe(ty);
        let declared = self.p.citation_of(clause).map(|c| format!(" (declared in {c})")).unwrap_or_default();
        self.errors.push(err(
            "conditions::fact_type",
            &format!("{}: {path}", self.origin),
            format!("`{path}` must be {}{declared}, found {}", article(&want, ty), kind(found)),
            extra.unwrap_or_else(|| example(ty)),
        ));
    }

    fn convert(mut self, v: &J, ty: &Type, path: String, clause: Option<ClauseId>) -> Option<Value> {
        self.conv(v, ty, &Path::Root(&path), clause, 0)
    }

    fn conv(&mut self, v: &J, ty: &Type, path: &Path, clause: Option<ClauseId>, depth: usize) -> Option<Value> {
        if depth > 64 {
            let path = path.to_string();
            self.errors.push(err(
                "conditions::facts_too_deep",
                &format!("{}: {path}", self.origin),
                "facts nested too deeply".into(),
                "facts follow the rulebook's declared types, which are not this deep".into(),
            ));
            return None;
        }
        match ty {
            Type::Error => None,
            Type::Bool => match v {
                J::Bool(b) => Some(Value::Bool(*b)),
                _ => {
                    self.fail(path, ty, v, clause, None);
                    None
                }
            },
            Type::Text => match v {
                J::String(s) => Some(Value::Text(s.as_str().into())),
                _ => {
                    self.fail(path, ty, v, clause, None);
                    None
                }
            },
            Type::Date => match v {
                J::String(s) => match Date::parse(s) {
                    Some(d) => Some(Value::Date(d)),
                    None => {
                        self.fail(path, ty, v, clause, Some(format!("`{s}` is not a calendar date; write YYYY-MM-DD")));
                        None
                    }
                },
                _ => {
                    self.fail(path, ty, v, clause, None);
                    None
                }
            },
            Type::Time => match v {
                J::String(s) => match Time::parse(s.trim()) {
                    Some(t) => Some(Value::Time(t)),
                    None => {
                        self.fail(
                            path,
                            ty,
                            v,
                            clause,
                            Some(format!("`{s}` is not a time of day; write HH:MM, e.g. \"18:15\"")),
                        );
                        None
                    }
                },
                _ => {
                    self.fail(path, ty, v, clause, Some("write a time of day as text, e.g. \"18:15\"".into()));
                    None
                }
            },
            Type::Int | Type::Quantity(_) => match number(v, ty) {
                Ok(n) => {
                    if *ty == Type::Int && !n.is_integer() {
                        self.fail(path, ty, v, clause, Some("a whole number is expected here".into()));
                        return None;
                    }
                    Some(Value::Num(n))
                }
                Err(why) => {
                    self.fail(path, ty, v, clause, Some(why));
                    None
                }
            },
            Type::Enum(t) => {
                let TypeKind::Enum(vs) = &self.p.types[*t as usize].kind else { return None };
                match v {
                    J::String(s) => match vs.iter().position(|x| x.name == *s || x.label.as_deref() == Some(s)) {
                        Some(i) => Some(Value::Enum(*t, i as u32)),
                        None => {
                            let names: Vec<&str> = vs.iter().map(|x| x.name.as_str()).collect();
                            let help = did_you_mean(s, names.iter().copied())
                                .unwrap_or_else(|| format!("one of: {}", names.join(", ")));
                            self.fail(path, ty, v, clause, Some(help));
                            None
                        }
                    },
                    _ => {
                        self.fail(path, ty, v, clause, None);
                        None
                    }
                }
            }
            Type::List(elem) => match v {
                J::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    let mut ok = true;
                    for (i, x) in items.iter().enumerate() {
                        match self.conv(x, elem, &Path::Index(path, i), clause, depth + 1) {
                            Some(x) => out.push(x),
                            None => ok = false,
                        }
                    }
                    ok.then(|| Value::list(out))
                }
                _ => {
                    self.fail(path, ty, v, clause, None);
                    None
                }
            },
            Type::Record(t) => {
                let TypeKind::Record(fields) = &self.p.types[*t as usize].kind else { return None };
                let J::Object(map) = v else {
                    self.fail(path, ty, v, clause, None);
                    return None;
                };
                let mut ok = true;
                for key in map.keys() {
                    if !fields.iter().any(|f| f.name == *key) {
                        let path = path.to_string();
                        let key = &visible(key);
                        ok = false;
                        let tname = self.p.type_name(*t);
                        self.errors.push(err(
                            "conditions::unknown_field",
                            &format!("{}: {path}.{key}", self.origin),
                            format!("`{path}.{key}`: `{tname}` has no field `{key}`"),
                            did_you_mean(key, fields.iter().map(|f| f.name.as_str())).unwrap_or_else(|| {
                                format!(
                                    "its fields are {}",
                                    fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
                                )
                            }),
                        ));
                    }
                }
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    let fpath = Path::Field(path, &f.name);
                    match map.get(&f.name) {
                        Some(J::Null) | None if f.optional || self.open => out.push(None),
                        Some(J::Null) | None => {
                            ok = false;
                            let fpath = fpath.to_string();
                            self.errors.push(err(
                                "conditions::missing_field",
                                &format!("{}: {fpath}", self.origin),
                                format!("`{fpath}` is missing ({} is required)", self.p.describe(&f.ty)),
                                format!("add `\"{}\": {}`", f.name, example_value(&f.ty)),
                            ));
                            out.push(None);
                        }
                        Some(x) => match self.conv(x, &f.ty, &fpath, clause, depth + 1) {
                            Some(x) => out.push(Some(x)),
                            None => {
                                ok = false;
                                out.push(None)
                            }
                        },
                    }
                }
                ok.then(|| Value::Record(*t, out.into()))
            }
        }
    }
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

/// An exact number from JSON (number or text), in the type's base unit.
fn number(v: &J, ty: &Type) -> Result<Num, String> {
    let unit = ty.unit().unwrap_or_default();
    let text = match v {
        J::Number(n) => n.to_string(),
        J::String(s) => {
            let s = s.trim();
            printed::normalise(s, None)?.unwrap_or_else(|| s.to_string())
        }
        _ => return Err(example(ty)),
    };
    let (num_part, unit_part) = match text.split_once(' ') {
        Some((a, b)) => (a.to_string(), Some(b.trim().to_string())),
        None => (text.clone(), None),
    };
    let (num_part, percent) = match num_part.strip_suffix('%') {
        Some(x) => (x.to_string(), true),
        None => (num_part, false),
    };
    let n = Num::parse(&num_part).map_err(|e| format!("`{text}` is not read: {e}"))?;
    let too_large = || format!("`{text}` is not read: {}", crate::eval::num::LIMIT);
    let n = if percent { n.div(Num::int(100)).ok_or_else(too_large)? } else { n };
    match unit_part {
        None if unit.is_time() => Err("write a duration with its unit, e.g. \"24 hours\", \"8 days\"".into()),
        None => Ok(n),
        Some(u) => {
            let (words, per) = match u.split_once(" per ") {
                Some((a, b)) => (a.trim(), Some(b.trim())),
                None => (u.as_str(), None),
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
    let mut errors = Vec::new();
    let out = Validator { p, origin: "", errors: &mut errors, open: false }.convert(v, ty, path.to_string(), None);
    match out {
        Some(x) if errors.is_empty() => Ok(x),
        _ => Err(errors.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; ")),
    }
}
