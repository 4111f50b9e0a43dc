//! Renaming in case files what [`super::rename`] renames in the rulebook: the keys of the
//! `[facts]` that write a renamed fact or decision (under its full name, or its short name
//! in its section's table), the keys of a renamed record field wherever a fact, decision or
//! expected value of that record type writes it and in the paths of needed inputs
//! (`undetermined = ["player.masterpoints"]`), and the renamed ruling or input named by an
//! expectation (`ruling = "…"`, `undetermined = ["…"]`). Each edit replaces exactly the key
//! or string it renames, so the rest of the file (its description above all) stays byte for
//! byte as it was. A key written in a way the edit cannot keep (with escapes) is reported,
//! never skipped silently.

use crate::check::program::{Program, Symbol, TypeId, TypeKind};
use crate::check::types::Type;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// What is renamed, as case files write it.
#[derive(Clone, Debug)]
pub enum Renamed {
    /// A fact or decision, by its full names (`s332.seeded`).
    Input { old: String, new: String },
    /// A ruling or definition, by its full names.
    Ruling { old: String, new: String },
    /// A field of a record type.
    Field { record: TypeId, old: String, new: String },
}

/// One replacement in a case file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseEdit {
    pub range: Range<usize>,
    pub new_text: String,
}

/// The edits that rename `what` in a case file's `text`; `Err` with the places that cannot
/// be renamed exactly (or why the file cannot be read).
pub fn edits(p: &Program, what: &Renamed, text: &str) -> Result<Vec<CaseEdit>, String> {
    let doc = DeTable::parse(text).map_err(|e| format!("not a readable case file: {}", e.to_string().trim()))?;
    let mut w = Walk { p, what, text, edits: Vec::new(), problems: Vec::new() };
    let root = doc.get_ref();
    for (k, v) in root.iter() {
        match (k.get_ref().as_ref(), v.get_ref()) {
            ("facts", DeValue::Table(facts)) => w.facts(facts),
            ("expect", DeValue::Array(expects)) => {
                for e in expects.iter() {
                    if let DeValue::Table(e) = e.get_ref() {
                        w.expect(e);
                    }
                }
            }
            _ => {}
        }
    }
    if !w.problems.is_empty() {
        return Err(w.problems.join("; "));
    }
    w.edits.sort_by_key(|e| e.range.start);
    Ok(w.edits)
}

/// `text` with `edits` (sorted, not overlapping) applied.
pub fn apply(text: &str, edits: &[CaseEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for e in edits {
        out.push_str(&text[last..e.range.start]);
        out.push_str(&e.new_text);
        last = e.range.end;
    }
    out.push_str(&text[last..]);
    out
}

struct Walk<'a> {
    p: &'a Program,
    what: &'a Renamed,
    text: &'a str,
    edits: Vec<CaseEdit>,
    problems: Vec<String>,
}

impl Walk<'_> {
    /// Replaces the key or string at `range` (bare, or in `"` or `'` quotes) by `new`.
    fn replace(&mut self, range: Range<usize>, old: &str, new: &str) {
        let Some(written) = self.text.get(range.clone()) else { return };
        let new_text = if written == old {
            new.to_string()
        } else if let Some(q) = ['"', '\''].into_iter().find(|q| written == format!("{q}{old}{q}")) {
            format!("{q}{new}{q}")
        } else {
            let line = self.text[..range.start].matches('\n').count() + 1;
            self.problems.push(format!("line {line} writes `{old}` as `{written}`: rename it by hand"));
            return;
        };
        self.edits.push(CaseEdit { range, new_text });
    }

    fn facts(&mut self, facts: &DeTable) {
        let sections = &self.p.sections.sections;
        for (k, v) in facts.iter() {
            let key = k.get_ref().as_ref();
            match v.get_ref() {
                DeValue::Table(inner) if sections.contains_key(key) && self.p.symbols.get(key).is_none() => {
                    for (k2, v2) in inner.iter() {
                        let full = format!("{key}.{}", k2.get_ref());
                        self.input(&full, k2.span(), k2.get_ref(), v2.get_ref());
                    }
                }
                value => self.input(key, k.span(), key, value),
            }
        }
    }

    /// A fact or decision written under `full` (its key written `key` at `at`).
    fn input(&mut self, full: &str, at: Range<usize>, key: &str, v: &DeValue) {
        if let Renamed::Input { old, new } = self.what
            && full == old
        {
            let new_key = if key == full { new.as_str() } else { new.rsplit_once('.').map_or(new.as_str(), |x| x.1) };
            self.replace(at, key, new_key);
        }
        let ty = match self.p.symbols.get(full) {
            Some(Symbol::Fact(f)) => self.p.facts[*f as usize].ty.clone(),
            Some(Symbol::Decision(d)) => self.p.decisions[*d as usize].ty.clone(),
            _ => return,
        };
        self.value(&ty, v);
    }

    /// The field keys of a value of type `ty`.
    fn value(&mut self, ty: &Type, v: &DeValue) {
        let Renamed::Field { record, old, new } = self.what else { return };
        match (ty, v) {
            (Type::List(t), DeValue::Array(xs)) => xs.iter().for_each(|x| self.value(t, x.get_ref())),
            (Type::Record(id), DeValue::Table(m)) => {
                let Some(TypeKind::Record(fs)) = self.p.types.get(*id as usize).map(|t| &t.kind) else { return };
                for (k, x) in m.iter() {
                    let key = k.get_ref().as_ref();
                    if id == record && key == old {
                        self.replace(k.span(), old, new);
                    }
                    if let Some(f) = fs.iter().find(|f| f.name == key) {
                        self.value(&f.ty.clone(), x.get_ref());
                    }
                }
            }
            _ => {}
        }
    }

    /// A needed input written as a facts-file path (`player.masterpoints`,
    /// `s304.rejsehold.spillere[].bopæl`) with the renamed field renamed; `None` when the path
    /// does not go through it.
    fn field_path(&self, path: &str) -> Option<String> {
        let Renamed::Field { record, old, new } = self.what else { return None };
        let parts: Vec<&str> = path.split('.').collect();
        // The fact or decision: the longest leading parts that name one.
        let (n, mut ty) = (1..=parts.len()).rev().find_map(|n| {
            let name = parts[..n].join(".");
            let name = name.strip_suffix("[]").unwrap_or(&name);
            match self.p.symbols.get(name) {
                Some(Symbol::Fact(f)) => Some((n, self.p.facts[*f as usize].ty.clone())),
                Some(Symbol::Decision(d)) => Some((n, self.p.decisions[*d as usize].ty.clone())),
                _ => None,
            }
        })?;
        let mut out: Vec<String> = parts[..n].iter().map(|x| x.to_string()).collect();
        let mut changed = false;
        for part in &parts[n..] {
            let (name, list) = part.strip_suffix("[]").map_or((*part, ""), |x| (x, "[]"));
            while let Type::List(inner) = ty {
                ty = *inner;
            }
            let Type::Record(id) = ty else { return None };
            let Some(TypeKind::Record(fs)) = self.p.types.get(id as usize).map(|t| &t.kind) else { return None };
            let f = fs.iter().find(|f| f.name == name)?;
            if id == *record && name == old {
                out.push(format!("{new}{list}"));
                changed = true;
            } else {
                out.push(part.to_string());
            }
            ty = f.ty.clone();
        }
        changed.then(|| out.join("."))
    }

    fn expect(&mut self, e: &DeTable) {
        let mut ruling: Option<String> = None;
        for (k, v) in e.iter() {
            if let ("ruling", DeValue::String(r)) = (k.get_ref().as_ref(), v.get_ref()) {
                ruling = Some(r.to_string());
                if let Renamed::Ruling { old, new } = self.what
                    && r == old
                {
                    self.replace(v.span(), old, new);
                }
            }
        }
        for (k, v) in e.iter() {
            match (k.get_ref().as_ref(), v.get_ref()) {
                ("undetermined", DeValue::Array(names)) => {
                    for n in names.iter() {
                        let DeValue::String(s) = n.get_ref() else { continue };
                        match self.what {
                            Renamed::Input { old, new } if s == old => self.replace(n.span(), old, new),
                            Renamed::Field { .. } => {
                                if let Some(renamed) = self.field_path(s) {
                                    let s = s.to_string();
                                    self.replace(n.span(), &s, &renamed);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                ("value", value) => {
                    let def = ruling.as_deref().and_then(|r| self.p.def_by_name(r));
                    if let Some(d) = def {
                        let ty = self.p.defs[d as usize].ty.clone();
                        self.value(&ty, value);
                    }
                }
                _ => {}
            }
        }
    }
}
