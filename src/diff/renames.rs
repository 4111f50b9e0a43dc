//! Renames between two versions of a rulebook, and the translation of facts written for
//! the new version back into the old one's names.
//!
//! A fact, decision, ruling, definition or record field counts as renamed when (in this
//! order) the command line says so (`--rename old=new`), the new version notes it
//! (`fact present renamed from member: …`), or — only when unambiguous — the heuristic finds
//! it: a name gone from the old version and a name new in the new one, of the same kind, in
//! the same clause (a field: in the same record), of the same type, with a similar
//! description (most of their words shared). A heuristic rename is reported as "probably
//! renamed"; a name with several candidates is reported and not renamed.

use crate::check::Checked;
use crate::check::program::{Program, TypeKind};
use crate::check::resolve::full_name;
use crate::check::types::Type;
use crate::syntax::ast::{Decl, DefKind, Item, TypeBody};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// How a rename was found.
pub const BY_COMMAND: &str = "command line";
pub const BY_NOTE: &str = "renamed from";
pub const BY_HEURISTIC: &str = "probably";

/// One name renamed between the versions.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Rename {
    /// `fact`, `decision`, `ruling`, `definition` or `field`.
    pub what: &'static str,
    pub old: String,
    pub new: String,
    /// For a field: the record type it belongs to.
    pub record: Option<String>,
    /// `command line` (`--rename`), `renamed from` (a note in the new version) or `probably`
    /// (same clause, same type, similar description).
    pub how: &'static str,
}

impl Rename {
    /// `Player.points` for a field, the name otherwise.
    pub fn shown(&self, name: &str) -> String {
        match &self.record {
            Some(r) => format!("{r}.{name}"),
            None => name.to_string(),
        }
    }
}

/// Names that the heuristic could pair in more than one way: none of them is renamed.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ambiguous {
    pub what: &'static str,
    pub record: Option<String>,
    /// Names of the old version gone from the new one.
    pub old: Vec<String>,
    /// Names new in the new version.
    pub new: Vec<String>,
}

/// What was found, and what could not be used.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Renames {
    pub renames: Vec<Rename>,
    pub ambiguous: Vec<Ambiguous>,
    /// `renamed from` notes that name nothing renamed between these two versions, in words.
    pub unused_notes: Vec<String>,
}

/// One name of a version, with what the heuristic compares.
#[derive(Clone, Debug)]
struct Name {
    what: &'static str,
    name: String,
    record: Option<String>,
    clause: Option<String>,
    ty: String,
    words: BTreeSet<String>,
}

impl Name {
    fn group(&self) -> &'static str {
        match self.what {
            "ruling" | "definition" => "def",
            w => w,
        }
    }
    fn same_slot(&self, other: &Name) -> bool {
        self.group() == other.group() && self.record == other.record
    }
}

fn words(texts: &[&Option<String>]) -> BTreeSet<String> {
    texts
        .iter()
        .filter_map(|t| t.as_deref())
        .flat_map(|t| t.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn names(p: &Program) -> Vec<Name> {
    let mut out = Vec::new();
    let cit = |c| p.citation_of(c).map(str::to_string);
    for f in &p.facts {
        let words = words(&[&f.doc, &f.says]);
        out.push(Name {
            what: "fact",
            name: f.name.clone(),
            record: None,
            clause: cit(f.clause),
            ty: p.describe(&f.ty),
            words,
        });
    }
    for d in &p.decisions {
        let words = words(&[&d.doc, &d.says]);
        out.push(Name {
            what: "decision",
            name: d.name.clone(),
            record: None,
            clause: cit(d.clause),
            ty: p.describe(&d.ty),
            words,
        });
    }
    for d in &p.defs {
        let params: Vec<String> = d.params.iter().map(|(_, t)| p.describe(t)).collect();
        out.push(Name {
            what: if d.is_ruling() { "ruling" } else { "definition" },
            name: d.name.clone(),
            record: None,
            clause: cit(d.clause),
            ty: format!("({}) {}", params.join(", "), p.describe(&d.ty)),
            words: words(&[&d.doc, &d.says]),
        });
    }
    for t in &p.types {
        if let TypeKind::Record(fs) = &t.kind {
            for f in fs {
                out.push(Name {
                    what: "field",
                    name: f.name.clone(),
                    record: Some(t.name.clone()),
                    clause: None,
                    ty: p.describe(&f.ty),
                    words: words(&[&f.doc, &f.says]),
                });
            }
        }
    }
    out
}

/// Most of the words shared: the words both use are at least half of the words either uses.
fn similar(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    let shared = a.intersection(b).count();
    let all = a.union(b).count();
    shared > 0 && 2 * shared >= all
}

/// The `renamed from` notes of a version: (what, record of a field, old full name, new full
/// name); a note's old name is in the section of the declaration it is written on.
fn notes(c: &Checked) -> Vec<(&'static str, Option<String>, String, String)> {
    let mut out = Vec::new();
    for file in &c.files {
        let sec = file.section.as_ref().map(|s| s.name.name.as_str());
        let decls = file.items.iter().flat_map(|i| match i {
            Item::Decl(d) => vec![d],
            Item::Clause(cl) => cl.decls().collect(),
            Item::Rulebook(_) => Vec::new(),
        });
        for d in decls {
            let (what, name, from) = match d {
                Decl::Fact(f) => ("fact", &f.name, &f.renamed_from),
                Decl::Decision(d) => ("decision", &d.name, &d.renamed_from),
                Decl::Def(d) => {
                    (if d.kind == DefKind::Ruling { "ruling" } else { "definition" }, &d.name, &d.renamed_from)
                }
                Decl::Type(t) => {
                    if let TypeBody::Record(fs) = &t.body {
                        let record = full(sec, &t.name.name);
                        for f in fs {
                            if let Some(from) = &f.renamed_from {
                                out.push(("field", Some(record.clone()), from.name.clone(), f.name.name.clone()));
                            }
                        }
                    }
                    continue;
                }
                _ => continue,
            };
            if let Some(from) = from {
                out.push((what, None, full_name(sec, &from.name), full(sec, &name.name)));
            }
        }
    }
    out
}

/// A declared name in full: the checked files hold names already resolved (`final.imps`),
/// a note's old name as written (`imps`).
fn full(sec: Option<&str>, name: &str) -> String {
    match sec {
        Some(s) if name.strip_prefix(s).is_some_and(|rest| rest.starts_with('.')) => name.to_string(),
        _ => full_name(sec, name),
    }
}

fn find<'a>(names: &'a [Name], name: &str, record: Option<&str>) -> Option<&'a Name> {
    names.iter().find(|n| n.name == name && n.record.as_deref() == record)
}

/// A `--rename` side: a name of the version, or `Record.field`.
fn lookup<'a>(names: &'a [Name], written: &str, record: Option<&str>) -> Option<&'a Name> {
    if let Some(n) = find(names, written, record).filter(|n| n.record.is_none() || record.is_some()) {
        return Some(n);
    }
    let (r, f) = written.rsplit_once('.')?;
    find(names, f, Some(r)).filter(|_| record.is_none_or(|x| x == r))
}

/// The help of a name `--rename` does not find: "; did you mean `x`?" over the names
/// `keep` allows (qualified, short, and `Record.field` for a field), or nothing.
fn near(names: &[Name], written: &str, keep: impl Fn(&Name) -> bool) -> String {
    let shown: Vec<String> = names
        .iter()
        .filter(|n| keep(n))
        .map(|n| match &n.record {
            Some(r) => format!("{r}.{}", n.name),
            None => n.name.clone(),
        })
        .collect();
    crate::diagnostic::did_you_mean(written, shown.iter().map(String::as_str))
        .map(|h| format!("; {h}"))
        .unwrap_or_default()
}

/// Works out the renames from `old` to `new`: `--rename` pairs first (an error when one does
/// not name a rename), then the notes of the new version, then the heuristic.
pub fn find_renames(old: &Checked, new: &Checked, asked: &[(String, String)]) -> Result<Renames, String> {
    let (on, nn) = (names(&old.program), names(&new.program));
    let mut out = Renames::default();
    let taken = |out: &Renames, n: &Name, old_side: bool| {
        out.renames
            .iter()
            .any(|r| r.record == n.record && (if old_side { &r.old } else { &r.new }) == &n.name && r.what == n.what)
    };
    for (o, n) in asked {
        let written = format!("`--rename {o}={n}`");
        let Some(a) = lookup(&on, o, None) else {
            return Err(format!(
                "{written}: `{o}` is not a fact, decision, definition, ruling or field (`Record.field`) of the old version{}",
                near(&on, o, |_| true)
            ));
        };
        let Some(b) = lookup(&nn, n, a.record.as_deref()) else {
            return Err(format!(
                "{written}: `{n}` is not a {} of the new version{}{}",
                a.what,
                a.record.as_ref().map(|r| format!(" in the record `{r}`")).unwrap_or_default(),
                near(&nn, n, |x| x.same_slot(a))
            ));
        };
        if !a.same_slot(b) {
            return Err(format!("{written}: `{o}` is a {} and `{n}` a {}; a rename keeps the kind", a.what, b.what));
        }
        if find(&nn, &a.name, a.record.as_deref()).is_some_and(|x| x.same_slot(a)) {
            return Err(format!("{written}: `{o}` is still a name of the new version, so it was not renamed"));
        }
        if find(&on, &b.name, b.record.as_deref()).is_some_and(|x| x.same_slot(b)) {
            return Err(format!("{written}: `{n}` was already a name of the old version"));
        }
        if taken(&out, a, true) || taken(&out, b, false) {
            return Err(format!("{written}: one of these names is renamed twice"));
        }
        out.renames.push(Rename {
            what: b.what,
            old: a.name.clone(),
            new: b.name.clone(),
            record: b.record.clone(),
            how: BY_COMMAND,
        });
    }
    for (what, record, o, n) in notes(new) {
        let Some(b) = find(&nn, &n, record.as_deref()) else { continue };
        if taken(&out, b, false) {
            continue;
        }
        let shown = record.as_ref().map_or_else(|| n.clone(), |r| format!("{r}.{n}"));
        let note = format!("the note `renamed from {}` on the {what} `{shown}`", o.rsplit('.').next().unwrap_or(&o));
        match find(&on, &o, record.as_deref()) {
            None => out.unused_notes.push(format!("{note}: the old version has no such {what}; the note is not used")),
            Some(a) if !a.same_slot(b) => {
                out.unused_notes.push(format!("{note}: in the old version `{o}` is a {}; the note is not used", a.what))
            }
            Some(_) if find(&nn, &o, record.as_deref()).is_some() => {
                out.unused_notes.push(format!("{note}: `{o}` is still a name of the new version; the note is not used"))
            }
            Some(_) if find(&on, &n, record.as_deref()).is_some() => out
                .unused_notes
                .push(format!("{note}: `{n}` is already a name of the old version; the note is not used")),
            Some(a) if taken(&out, a, true) => {
                out.unused_notes.push(format!("{note}: `{o}` is renamed otherwise; the note is not used"))
            }
            Some(a) => out.renames.push(Rename {
                what: b.what,
                old: a.name.clone(),
                new: b.name.clone(),
                record,
                how: BY_NOTE,
            }),
        }
    }
    // The heuristic, over the names gone and the names new that no rename explains.
    let gone: Vec<&Name> =
        on.iter().filter(|a| !nn.iter().any(|b| b.name == a.name && b.same_slot(a)) && !taken(&out, a, true)).collect();
    let fresh: Vec<&Name> = nn
        .iter()
        .filter(|b| !on.iter().any(|a| a.name == b.name && a.same_slot(b)) && !taken(&out, b, false))
        .collect();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (i, a) in gone.iter().enumerate() {
        for (j, b) in fresh.iter().enumerate() {
            if a.same_slot(b) && a.clause == b.clause && a.ty == b.ty && similar(&a.words, &b.words) {
                pairs.push((i, j));
            }
        }
    }
    let mut groups: Vec<(BTreeSet<usize>, BTreeSet<usize>)> = Vec::new();
    for &(i, j) in &pairs {
        let hit: Vec<usize> =
            (0..groups.len()).filter(|&g| groups[g].0.contains(&i) || groups[g].1.contains(&j)).collect();
        let mut merged = (BTreeSet::from([i]), BTreeSet::from([j]));
        for &g in hit.iter().rev() {
            let (a, b) = groups.remove(g);
            merged.0.extend(a);
            merged.1.extend(b);
        }
        groups.push(merged);
    }
    groups.sort();
    for (is, js) in groups {
        let (a, b) = (gone[*is.first().unwrap_or(&0)], fresh[*js.first().unwrap_or(&0)]);
        if is.len() == 1 && js.len() == 1 {
            out.renames.push(Rename {
                what: b.what,
                old: a.name.clone(),
                new: b.name.clone(),
                record: b.record.clone(),
                how: BY_HEURISTIC,
            });
        } else {
            out.ambiguous.push(Ambiguous {
                what: b.what,
                record: b.record.clone(),
                old: is.iter().map(|&i| gone[i].name.clone()).collect(),
                new: js.iter().map(|&j| fresh[j].name.clone()).collect(),
            });
        }
    }
    Ok(out)
}

/// A step into a facts tree.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// A value to move: from a path written in the new version's names to one in the old's.
#[derive(Clone, Debug)]
struct Move {
    from: Vec<Step>,
    to: Vec<Step>,
}

impl Renames {
    pub fn is_empty(&self) -> bool {
        self.renames.is_empty()
    }

    /// The old name of a ruling or definition of the new version.
    pub fn old_def<'a>(&'a self, new: &'a str) -> &'a str {
        self.renames
            .iter()
            .find(|r| r.record.is_none() && matches!(r.what, "ruling" | "definition") && r.new == new)
            .map_or(new, |r| r.old.as_str())
    }

    /// The old name of a fact or decision of the new version.
    fn old_input<'a>(&'a self, new: &'a str) -> &'a str {
        self.renames
            .iter()
            .find(|r| r.record.is_none() && matches!(r.what, "fact" | "decision") && r.new == new)
            .map_or(new, |r| r.old.as_str())
    }

    /// The moves that write `tree` (facts in the new version's names) in the old one's names,
    /// deepest first.
    fn moves(&self, new: &Program, tree: &serde_json::Value) -> Vec<Move> {
        let fields: HashMap<(&str, &str), &str> = self
            .renames
            .iter()
            .filter_map(|r| Some(((r.record.as_deref()?, r.new.as_str()), r.old.as_str())))
            .collect();
        let mut out = Vec::new();
        let inputs = new.facts.iter().map(|f| (&f.name, &f.ty)).chain(new.decisions.iter().map(|d| (&d.name, &d.ty)));
        for (name, ty) in inputs {
            let Some((path, value)) = slot(tree, name) else { continue };
            if !fields.is_empty() {
                walk(new, ty, value, &path, &fields, &mut out);
            }
            let old = self.old_input(name);
            if old != name.as_str() {
                let to = match old.split_once('.') {
                    Some((sec, short)) if path.len() == 2 && path[0] == Step::Key(sec.into()) => {
                        vec![Step::Key(sec.into()), Step::Key(short.into())]
                    }
                    _ => vec![Step::Key(old.to_string())],
                };
                out.push(Move { from: path, to });
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.from.len()));
        out
    }

    /// Facts written in the new version's names, in the old one's (the same tree when no
    /// rename touches them).
    pub fn translate_json(&self, new: &Program, tree: &serde_json::Value) -> serde_json::Value {
        let mut t = tree.clone();
        for m in self.moves(new, tree) {
            if let Some(v) = take_json(&mut t, &m.from) {
                put_json(&mut t, &m.to, v);
            }
        }
        t
    }

    /// A case file written in the new version's names, in the old one's: its facts moved as
    /// [`Renames::translate_json`] moves them, its rulings and needed names renamed. `None`
    /// when nothing is to be changed (the text is then used as it is). The facts of a
    /// translated file are written from `tree`, the facts read exactly: a number with a
    /// fraction is written as its digits in quotes, which the facts reader reads exactly.
    pub fn translate_case(&self, new: &Program, text: &str, tree: &serde_json::Value) -> Option<String> {
        let mut table: toml::Table = toml::from_str(text).ok()?;
        let moves = self.moves(new, tree);
        let mut changed = false;
        if table.contains_key("facts") && !moves.is_empty() {
            let old = self.translate_json(new, tree);
            if let Some(facts) = crate::ask::save::to_toml(&old) {
                table.insert("facts".into(), facts);
                changed = true;
            }
        }
        if let Some(toml::Value::Array(expects)) = table.get_mut("expect") {
            for e in expects.iter_mut().filter_map(toml::Value::as_table_mut) {
                if let Some(toml::Value::String(r)) = e.get_mut("ruling") {
                    let old = self.old_def(r).to_string();
                    if old != *r {
                        *r = old;
                        changed = true;
                    }
                }
                if let Some(toml::Value::Array(needed)) = e.get_mut("undetermined") {
                    for n in needed.iter_mut() {
                        if let toml::Value::String(s) = n {
                            let old = self.old_input(s).to_string();
                            if old != *s {
                                *s = old;
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            return None;
        }
        toml::to_string(&table).ok()
    }
}

/// Where the value of the fact `name` stands in a facts tree: under its full name, or under
/// its short name in its section's table.
fn slot<'a>(tree: &'a serde_json::Value, name: &str) -> Option<(Vec<Step>, &'a serde_json::Value)> {
    if let Some(v) = tree.get(name) {
        return Some((vec![Step::Key(name.into())], v));
    }
    let (sec, short) = name.split_once('.')?;
    let v = tree.get(sec)?.get(short)?;
    Some((vec![Step::Key(sec.into()), Step::Key(short.into())], v))
}

/// The field moves inside a value of type `ty` at `path`.
fn walk(
    p: &Program,
    ty: &Type,
    v: &serde_json::Value,
    path: &[Step],
    fields: &HashMap<(&str, &str), &str>,
    out: &mut Vec<Move>,
) {
    match (ty, v) {
        (Type::List(t), serde_json::Value::Array(xs)) => {
            for (i, x) in xs.iter().enumerate() {
                let mut at = path.to_vec();
                at.push(Step::Index(i));
                walk(p, t, x, &at, fields, out);
            }
        }
        (Type::Record(id), serde_json::Value::Object(m)) => {
            let Some(t) = p.types.get(*id as usize) else { return };
            let TypeKind::Record(fs) = &t.kind else { return };
            for f in fs {
                let Some(x) = m.get(&f.name) else { continue };
                let mut at = path.to_vec();
                at.push(Step::Key(f.name.clone()));
                walk(p, &f.ty, x, &at, fields, out);
                if let Some(old) = fields.get(&(t.name.as_str(), f.name.as_str())) {
                    let mut to = path.to_vec();
                    to.push(Step::Key(old.to_string()));
                    out.push(Move { from: at, to });
                }
            }
        }
        _ => {}
    }
}

fn take_json(t: &mut serde_json::Value, path: &[Step]) -> Option<serde_json::Value> {
    let (last, up) = path.split_last()?;
    let mut at = t;
    for s in up {
        at = match s {
            Step::Key(k) => at.get_mut(k.as_str())?,
            Step::Index(i) => at.get_mut(*i)?,
        };
    }
    match last {
        Step::Key(k) => at.as_object_mut()?.remove(k.as_str()),
        Step::Index(_) => None,
    }
}

fn put_json(t: &mut serde_json::Value, path: &[Step], v: serde_json::Value) {
    let Some((last, up)) = path.split_last() else { return };
    let mut at = t;
    for s in up {
        let next = match s {
            Step::Key(k) => at.as_object_mut().map(|m| m.entry(k.as_str()).or_insert_with(|| serde_json::json!({}))),
            Step::Index(i) => at.get_mut(*i),
        };
        let Some(n) = next else { return };
        at = n;
    }
    if let (Step::Key(k), Some(m)) = (last, at.as_object_mut()) {
        m.insert(k.clone(), v);
    }
}
