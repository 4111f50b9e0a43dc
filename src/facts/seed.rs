//! Facts read straight into values: a serde `DeserializeSeed` driven by the rulebook's
//! declared types fills an input set from any serde data source (a JSON line or file
//! read by [`super::json`], or a JSON tree through [`super::tree`]) without building a
//! generic tree first. Numbers are taken from their text (both hand a number that is
//! not a 64-bit whole number over as the bytes of its digits), never through binary
//! floating point; a key given twice
//! in one object ends the reading like a syntax error; every other problem is recorded
//! with its path (`team.players[2].masterpoints`) and the reading goes on, so that one
//! pass reports them all.

use super::Inputs;
use super::{article, err, example, example_value, number, out_of_bound};
use crate::base::date::Date;
use crate::base::datetime::DateTime;
use crate::base::num::Num;
use crate::base::time::Time;
use crate::base::value::Value;
use crate::check::program::{ClauseId, FieldInfo, Program, Symbol, TypeKind};
use crate::check::types::Type;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::show::visible;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// Deepest nesting of declared types read.
const MAX_DEPTH: usize = 64;

/// An input slot that was filled, so that a reused input set is cleared slot by slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Fact(u32),
    Decision(u32),
}

/// What became of a record's field while its object is read.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Absent,
    Null,
    Given,
    Bad,
}

/// What the reading knows besides the value at hand.
pub struct Reader<'a> {
    pub p: &'a Program,
    /// Where the facts come from (`facts.json`, `line 12`), put before every path.
    pub origin: &'a str,
    /// Whether a fact given as `null` and a record field left out are *not yet known*
    /// rather than an error.
    pub open: bool,
    pub errors: Vec<Diagnostic>,
    /// What is kept from one reading to the next.
    pub kept: Kept,
}

/// What a reader keeps from one reading to the next, for one program (a batch worker's,
/// line after line): the stack of the record fields' states, what the keys met name,
/// and the allocations of records handed back by [`clear_keeping`].
#[derive(Default)]
pub struct Kept {
    /// The fields of the records being read, innermost last.
    fields: Vec<Field>,
    /// Keys met at the top of the facts and what they name in the program (looked up
    /// there once).
    keys: Vec<(Box<str>, Option<Symbol>)>,
    /// By record type: allocations of its fields, every one `None`, held by nothing else.
    spare: Vec<Vec<Arc<[Option<Value>]>>>,
}

/// Most keys whose meaning is kept.
const MOST_KEYS: usize = 64;

/// Most record allocations kept of one type.
const MOST_SPARE: usize = 4;

impl<'a> Reader<'a> {
    pub fn new(p: &'a Program, origin: &'a str, open: bool) -> Reader<'a> {
        Reader::with(p, origin, open, Kept::default())
    }

    /// A reader with what an earlier reading of the same program kept.
    pub fn with(p: &'a Program, origin: &'a str, open: bool, kept: Kept) -> Reader<'a> {
        Reader { p, origin, open, errors: Vec::new(), kept }
    }

    /// What `key` names at the top of the facts.
    fn symbol(&mut self, key: &str) -> Option<Symbol> {
        if let Some((_, s)) = self.kept.keys.iter().find(|(k, _)| **k == *key) {
            return *s;
        }
        let s = self.p.symbols.get(key).copied();
        if self.kept.keys.len() < MOST_KEYS {
            self.kept.keys.push((key.into(), s));
        }
        s
    }

    fn fail(&mut self, path: &Path, ty: &Type, found: Found, clause: Option<ClauseId>, extra: Option<String>) {
        let path = &path.to_string();
        let want = self.p.describe(ty);
        let declared = self.p.citation_of(clause).map(|c| format!(" (declared in {c})")).unwrap_or_default();
        self.errors.push(err(
            "conditions::fact_type",
            &format!("{}: {path}", self.origin),
            format!("`{path}` must be {}{declared}, found {}", article(&want, ty), found.describe()),
            extra.unwrap_or_else(|| example(ty)),
        ));
    }
}

/// Clears the slots of `inputs` named in `touched`, leaving the set empty again.
pub fn clear(inputs: &mut Inputs, touched: &mut Vec<Slot>) {
    for s in touched.drain(..) {
        match s {
            Slot::Fact(f) => inputs.facts[f as usize] = None,
            Slot::Decision(d) => inputs.decisions[d as usize] = None,
        }
    }
}

/// As [`clear`], keeping in `kept` the allocation of a record that nothing else holds,
/// for the next record of its type read.
pub fn clear_keeping(inputs: &mut Inputs, touched: &mut Vec<Slot>, kept: &mut Kept) {
    for s in touched.drain(..) {
        let v = match s {
            Slot::Fact(f) => inputs.facts[f as usize].take(),
            Slot::Decision(d) => inputs.decisions[d as usize].take(),
        };
        if let Some(Value::Record(t, mut fields)) = v
            && let Some(slots) = Arc::get_mut(&mut fields)
        {
            slots.iter_mut().for_each(|x| *x = None);
            let t = t as usize;
            if kept.spare.len() <= t {
                kept.spare.resize_with(t + 1, Vec::new);
            }
            if kept.spare[t].len() < MOST_SPARE {
                kept.spare[t].push(fields);
            }
        }
    }
}

/// The facts object: each key a declared fact or decision, read into its slot of `inputs`
/// (which must be empty); the slots filled are pushed onto `touched`.
pub struct FactsSeed<'r, 'a> {
    pub reader: &'r mut Reader<'a>,
    pub inputs: &'r mut Inputs,
    pub touched: &'r mut Vec<Slot>,
}

impl<'de> DeserializeSeed<'de> for FactsSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl FactsSeed<'_, '_> {
    fn not_object(self, found: Found) {
        self.reader.errors.push(err(
            "conditions::facts_not_object",
            self.reader.origin,
            format!("the facts must be an object of named facts, found {}", found.describe()),
            "write {\"fact_name\": value, …}".into(),
        ));
    }
}

impl<'de> Visitor<'de> for FactsSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of named facts")
    }
    fn visit_bool<E>(self, b: bool) -> Result<(), E> {
        self.not_object(Found::Bool(b));
        Ok(())
    }
    fn visit_i64<E>(self, n: i64) -> Result<(), E> {
        self.not_object(Found::Number(&n.to_string()));
        Ok(())
    }
    fn visit_u64<E>(self, n: u64) -> Result<(), E> {
        self.not_object(Found::Number(&n.to_string()));
        Ok(())
    }
    fn visit_f64<E>(self, n: f64) -> Result<(), E> {
        self.not_object(Found::Number(&n.to_string()));
        Ok(())
    }
    fn visit_bytes<E>(self, n: &[u8]) -> Result<(), E> {
        self.not_object(Found::Number(&String::from_utf8_lossy(n)));
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        self.not_object(Found::Text(s));
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.not_object(Found::Null);
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.not_object(Found::Null);
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        self.not_object(Found::List);
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let FactsSeed { reader, inputs, touched } = self;
        let start = touched.len();
        let Some(first) = map.next_key_seed(KeySeed)? else { return Ok(()) };
        let mut st = Entries { reader, inputs, touched, start, unknown: Vec::new() };
        let mut key = Some(first);
        while let Some(k) = key {
            st.entry(k, &mut map)?;
            key = map.next_key_seed(KeySeed)?;
        }
        Ok(())
    }
}

/// The facts object's entries as they are read.
struct Entries<'r, 'a, 'de> {
    reader: &'r mut Reader<'a>,
    inputs: &'r mut Inputs,
    touched: &'r mut Vec<Slot>,
    /// Where this object's slots start in `touched` (a slot given twice is an error).
    start: usize,
    unknown: Vec<Cow<'de, str>>,
}

impl<'de> Entries<'_, '_, 'de> {
    /// One key and its value: a fact's or a decision's, or (under a section's name,
    /// `{"s332": {"hold1": …}}`) the facts of that section by their names in it.
    fn entry<A: MapAccess<'de>>(&mut self, key: Cow<'de, str>, map: &mut A) -> Result<(), A::Error> {
        let p = self.reader.p;
        let (slot, ty, bound, clause) = match self.reader.symbol(&key).as_ref() {
            Some(Symbol::Fact(f)) => {
                let i = &p.facts[*f as usize];
                (Slot::Fact(*f), &i.ty, i.bound.as_ref(), i.clause)
            }
            Some(Symbol::Decision(d)) => {
                let i = &p.decisions[*d as usize];
                (Slot::Decision(*d), &i.ty, i.bound.as_ref(), i.clause)
            }
            None if p.sections.sections.contains_key(key.as_ref()) => {
                return map.next_value_seed(SectionSeed { entries: self, section: &key });
            }
            _ => {
                if self.unknown.contains(&key) {
                    return Err(twice(&key));
                }
                map.next_value::<IgnoredAny>()?;
                self.unknown_key(&key);
                self.unknown.push(key);
                return Ok(());
            }
        };
        if self.touched[self.start..].contains(&slot) {
            return Err(twice(&key));
        }
        self.touched.push(slot);
        // A decision given as `null` is explicitly not decided yet; a fact, not yet
        // known when the facts are open.
        let nullable = matches!(slot, Slot::Decision(_)) || self.reader.open;
        let path = Path::Root(&key);
        let reader = &mut *self.reader;
        let got = map.next_value_seed(ValueSeed { reader, ty, path: &path, clause, nullable, depth: 0 })?;
        let Got::Value(x) = got else { return Ok(()) };
        if let Some(e) = out_of_bound(p, &x, ty, bound, &key, clause, reader.origin) {
            reader.errors.push(e);
            return Ok(());
        }
        match slot {
            Slot::Fact(f) => self.inputs.facts[f as usize] = Some(x),
            Slot::Decision(d) => self.inputs.decisions[d as usize] = Some(x),
        }
        Ok(())
    }

    fn unknown_key(&mut self, key: &str) {
        let p = self.reader.p;
        let shown = &visible(key);
        let names: Vec<&str> =
            p.facts.iter().map(|f| f.name.as_str()).chain(p.decisions.iter().map(|d| d.name.as_str())).collect();
        self.reader.errors.push(err(
            "conditions::unknown_fact",
            &format!("{}: {shown}", self.reader.origin),
            format!("`{shown}` is not a fact or decision of this rulebook"),
            p.renamed(shown, None)
                .or_else(|| did_you_mean(shown, names.iter().copied()))
                .unwrap_or_else(|| "`conditions list RULEBOOK --all` lists the facts a rulebook reads".into()),
        ));
    }
}

/// The value under a section's name: an object of that section's facts by their names
/// in it; anything else is a key that names no fact.
struct SectionSeed<'e, 'r, 'a, 'de> {
    entries: &'e mut Entries<'r, 'a, 'de>,
    section: &'e str,
}

impl<'de> DeserializeSeed<'de> for SectionSeed<'_, '_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl SectionSeed<'_, '_, '_, '_> {
    fn not_facts(self) {
        self.entries.unknown_key(self.section);
    }
}

impl<'de> Visitor<'de> for SectionSeed<'_, '_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of a section's facts")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.not_facts();
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        self.not_facts();
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key_seed(KeySeed)? {
            self.entries.entry(Cow::Owned(format!("{}.{k}", self.section)), &mut map)?;
        }
        Ok(())
    }
}

fn twice<E: de::Error>(key: &str) -> E {
    E::custom(format!("the key `{key}` is given twice in one object"))
}

/// A key, borrowed from the input when it can be.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a name")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s))
    }
}

/// A place in the facts, spelled out only when a problem is reported.
pub enum Path<'a> {
    Root(&'a str),
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(s) => write!(f, "{s}"),
            Path::Field(p, name) => write!(f, "{p}.{name}"),
            Path::Index(p, i) => write!(f, "{p}[{i}]"),
        }
    }
}

/// What was found where a value of another type was expected.
#[derive(Clone, Copy)]
enum Found<'a> {
    Null,
    Bool(bool),
    Number(&'a str),
    Text(&'a str),
    List,
    Object,
}

impl Found<'_> {
    fn describe(self) -> String {
        match self {
            Found::Null => "null".into(),
            Found::Bool(b) => format!("`{b}`"),
            Found::Number(n) => format!("the number `{n}`"),
            Found::Text(s) => format!("the text `{}`", visible(&s.chars().take(40).collect::<String>())),
            Found::List => "a list".into(),
            Found::Object => "an object".into(),
        }
    }
}

/// The outcome of reading one value.
pub enum Got {
    Value(Value),
    /// `null` where the caller allows it (a record field, a fact not yet known).
    Null,
    /// A problem, recorded in the reader's errors.
    Bad,
}

/// One value of a declared type at `path`.
pub struct ValueSeed<'r, 'a, 'p> {
    pub reader: &'r mut Reader<'a>,
    pub ty: &'p Type,
    pub path: &'p Path<'p>,
    pub clause: Option<ClauseId>,
    /// Whether `null` is handed back as [`Got::Null`] rather than a type error.
    pub nullable: bool,
    pub depth: usize,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_, '_> {
    type Value = Got;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Got, D::Error> {
        d.deserialize_any(self)
    }
}

impl ValueSeed<'_, '_, '_> {
    fn fail(self, found: Found, extra: Option<String>) -> Got {
        let extra = extra.or_else(|| match self.ty {
            Type::Time => Some("write a time of day as text, e.g. \"18:15\"".into()),
            Type::DateTime => Some("write a date with a time of day as text, e.g. \"2008-09-06 18:15\"".into()),
            _ => None,
        });
        self.reader.fail(self.path, self.ty, found, self.clause, extra);
        Got::Bad
    }

    /// A number, from its text (`quoted` when it was written as text, with a unit or a
    /// percent sign, in the rulebook's or a printed form).
    fn number(self, text: &str, quoted: bool) -> Got {
        let found = if quoted { Found::Text(text) } else { Found::Number(text) };
        match self.ty {
            Type::Int | Type::Quantity(_) => match number(text, quoted, self.ty) {
                Ok(n)
                    if *self.ty == Type::Int && (!n.is_integer() || (quoted && !super::forms::is_whole_text(text))) =>
                {
                    self.fail(found, Some("a whole number is expected here".into()))
                }
                Ok(n) => Got::Value(Value::Num(n)),
                Err(why) => self.fail(found, Some(why)),
            },
            _ => self.fail(found, None),
        }
    }

    /// A whole number written as a JSON number: the value itself where a number without
    /// a unit is read (an `int`, a quantity other than a duration), otherwise read from
    /// its text as any number is, for the same outcome and the same messages.
    fn whole(self, n: i128) -> Got {
        match self.ty {
            Type::Int => Got::Value(Value::Num(Num::int(n))),
            Type::Quantity(u) if !u.is_time() => Got::Value(Value::Num(Num::int(n))),
            _ => self.number(&n.to_string(), false),
        }
    }

    fn text(self, s: &str) -> Got {
        let p = self.reader.p;
        match self.ty {
            Type::Text => Got::Value(Value::Text(s.into())),
            Type::Date => match Date::parse(s) {
                Some(d) => Got::Value(Value::Date(d)),
                None => self.fail(Found::Text(s), Some(format!("`{s}` is not a calendar date; write YYYY-MM-DD"))),
            },
            Type::Time => match Time::parse(s.trim()) {
                Some(t) => Got::Value(Value::Time(t)),
                None => {
                    self.fail(Found::Text(s), Some(format!("`{s}` is not a time of day; write HH:MM, e.g. \"18:15\"")))
                }
            },
            Type::DateTime => match DateTime::parse(s.trim()) {
                Some(t) => Got::Value(Value::DateTime(t)),
                None => self.fail(
                    Found::Text(s),
                    Some(format!(
                        "`{s}` is not a date with a time of day; write YYYY-MM-DD HH:MM, e.g. \"2008-09-06 18:15\""
                    )),
                ),
            },
            Type::Int | Type::Quantity(_) => self.number(s, true),
            Type::Enum(t) => {
                let TypeKind::Enum(vs) = &p.types[*t as usize].kind else { return Got::Bad };
                match vs.iter().position(|x| x.name == s || x.label.as_deref() == Some(s)) {
                    Some(i) => Got::Value(Value::Enum(*t, i as u32)),
                    None => {
                        let names: Vec<&str> = vs.iter().map(|x| x.name.as_str()).collect();
                        let help = did_you_mean(s, names.iter().copied())
                            .unwrap_or_else(|| format!("one of: {}", names.join(", ")));
                        self.fail(Found::Text(s), Some(help))
                    }
                }
            }
            Type::Error => Got::Bad,
            _ => self.fail(Found::Text(s), None),
        }
    }

    fn too_deep(&mut self) -> bool {
        if self.depth <= MAX_DEPTH {
            return false;
        }
        let path = self.path.to_string();
        self.reader.errors.push(err(
            "conditions::facts_too_deep",
            &format!("{}: {path}", self.reader.origin),
            "facts nested too deeply".into(),
            "facts follow the rulebook's declared types, which are not this deep".into(),
        ));
        true
    }

    /// A record's fields, the first key already read.
    fn record<'de, A: MapAccess<'de>>(mut self, t: u32, first: Cow<'de, str>, mut map: A) -> Result<Got, A::Error> {
        let p = self.reader.p;
        let TypeKind::Record(fields) = &p.types[t as usize].kind else {
            map.next_value::<IgnoredAny>()?;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(Got::Bad);
        };
        // Each field's state, on a stack kept by the reader (records nest), and the
        // values written straight into the record's own allocation.
        let kept = &mut self.reader.kept;
        let base = kept.fields.len();
        kept.fields.resize(base + fields.len(), Field::Absent);
        let spare = kept.spare.get_mut(t as usize).and_then(Vec::pop);
        let mut out: Arc<[Option<Value>]> = spare.unwrap_or_else(|| (0..fields.len()).map(|_| None).collect());
        let mut unknown: Vec<Cow<'de, str>> = Vec::new();
        let mut ok = true;
        let mut key = Some(first);
        // Fields come mostly in the order of their declaration: the one after the last is tried first.
        let mut next = 0;
        while let Some(k) = key {
            let at = match fields.get(next) {
                Some(f) if f.name == k => Some(next),
                _ => fields.iter().position(|f| f.name == k),
            };
            match at {
                Some(i) => {
                    next = i + 1;
                    if self.reader.kept.fields[base + i] != Field::Absent {
                        return Err(twice(&k));
                    }
                    let f = &fields[i];
                    let fpath = Path::Field(self.path, &f.name);
                    let seed = ValueSeed {
                        reader: &mut *self.reader,
                        ty: &f.ty,
                        path: &fpath,
                        clause: self.clause,
                        nullable: true,
                        depth: self.depth + 1,
                    };
                    let state = match map.next_value_seed(seed)? {
                        Got::Value(v) => {
                            if let Some(slot) = Arc::get_mut(&mut out) {
                                slot[i] = Some(v);
                            }
                            Field::Given
                        }
                        Got::Null => Field::Null,
                        Got::Bad => {
                            ok = false;
                            Field::Bad
                        }
                    };
                    self.reader.kept.fields[base + i] = state;
                }
                None => {
                    if unknown.contains(&k) {
                        return Err(twice(&k));
                    }
                    map.next_value::<IgnoredAny>()?;
                    let path = self.path.to_string();
                    let shown = &visible(&k);
                    ok = false;
                    let tname = p.type_name(t);
                    self.reader.errors.push(err(
                        "conditions::unknown_field",
                        &format!("{}: {path}.{shown}", self.reader.origin),
                        format!("`{path}.{shown}`: `{tname}` has no field `{shown}`"),
                        p.renamed(shown, Some(t))
                            .or_else(|| did_you_mean(shown, fields.iter().map(|f| f.name.as_str())))
                            .unwrap_or_else(|| {
                                format!(
                                    "its fields are {}",
                                    fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
                                )
                            }),
                    ));
                    unknown.push(k);
                }
            }
            key = map.next_key_seed(KeySeed)?;
        }
        let states = std::mem::take(&mut self.reader.kept.fields);
        ok &= self.missing(fields, |i| matches!(states[base + i], Field::Absent | Field::Null));
        self.reader.kept.fields = states;
        self.reader.kept.fields.truncate(base);
        Ok(if ok { Got::Value(Value::Record(t, out)) } else { Got::Bad })
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_, '_> {
    type Value = Got;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a fact's value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Got, E> {
        Ok(match self.ty {
            Type::Bool => Got::Value(Value::Bool(b)),
            Type::Error => Got::Bad,
            _ => self.fail(Found::Bool(b), None),
        })
    }
    fn visit_i64<E>(self, n: i64) -> Result<Got, E> {
        Ok(self.whole(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Got, E> {
        Ok(self.whole(n.into()))
    }
    fn visit_i128<E>(self, n: i128) -> Result<Got, E> {
        Ok(self.whole(n))
    }
    fn visit_u128<E>(self, n: u128) -> Result<Got, E> {
        Ok(self.number(&n.to_string(), false))
    }
    /// A float arrives only from a value already held in binary (JSON text gives its
    /// digits, never a float): its shortest decimal form, the one that reads back as the
    /// same float, is taken as the number meant and read exactly from then on.
    fn visit_f64<E>(self, n: f64) -> Result<Got, E> {
        if !n.is_finite() {
            return Ok(self.fail(Found::Number(&n.to_string()), None));
        }
        Ok(self.number(&n.to_string(), false))
    }
    /// A number's text, as the readers of JSON text and trees hand it over.
    fn visit_bytes<E>(self, n: &[u8]) -> Result<Got, E> {
        Ok(match std::str::from_utf8(n) {
            Ok(text) => self.number(text, false),
            Err(_) => self.fail(Found::Number(&String::from_utf8_lossy(n)), None),
        })
    }
    fn visit_str<E>(self, s: &str) -> Result<Got, E> {
        Ok(self.text(s))
    }
    fn visit_unit<E>(self) -> Result<Got, E> {
        Ok(if self.nullable { Got::Null } else { self.fail(Found::Null, None) })
    }
    fn visit_none<E>(self) -> Result<Got, E> {
        Ok(if self.nullable { Got::Null } else { self.fail(Found::Null, None) })
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Got, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Got, A::Error> {
        let Type::List(elem) = self.ty else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(if *self.ty == Type::Error { Got::Bad } else { self.fail(Found::List, None) });
        };
        if self.too_deep() {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(Got::Bad);
        }
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        let mut ok = true;
        let mut i = 0;
        loop {
            let path = Path::Index(self.path, i);
            let seed = ValueSeed {
                reader: &mut *self.reader,
                ty: elem,
                path: &path,
                clause: self.clause,
                nullable: false,
                depth: self.depth + 1,
            };
            match seq.next_element_seed(seed)? {
                None => break,
                Some(Got::Value(v)) => out.push(v),
                Some(_) => ok = false,
            }
            i += 1;
        }
        Ok(if ok { Got::Value(Value::list(out)) } else { Got::Bad })
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Got, A::Error> {
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return Ok(match self.ty {
                Type::Record(t) => self.record_empty(*t),
                Type::Error => Got::Bad,
                _ => self.fail(Found::Object, None),
            });
        };
        let ty = self.ty;
        match ty {
            Type::Record(t) if !self.too_deep() => self.record(*t, first, map),
            _ => {
                map.next_value::<IgnoredAny>()?;
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(match self.ty {
                    Type::Record(_) | Type::Error => Got::Bad,
                    _ => self.fail(Found::Object, None),
                })
            }
        }
    }
}

impl ValueSeed<'_, '_, '_> {
    /// A record given as `{}`.
    fn record_empty(mut self, t: u32) -> Got {
        let p = self.reader.p;
        let TypeKind::Record(fields) = &p.types[t as usize].kind else { return Got::Bad };
        let ok = self.missing(fields, |_| true);
        if ok { Got::Value(Value::Record(t, vec![None; fields.len()].into())) } else { Got::Bad }
    }

    /// Records every required field that `absent` says was left out (or given as
    /// `null`); whether there was none.
    fn missing(&mut self, fields: &[FieldInfo], absent: impl Fn(usize) -> bool) -> bool {
        let mut ok = true;
        for (i, f) in fields.iter().enumerate() {
            if absent(i) && !(f.optional || self.reader.open) {
                ok = false;
                let fpath = Path::Field(self.path, &f.name).to_string();
                self.reader.errors.push(err(
                    "conditions::missing_field",
                    &format!("{}: {fpath}", self.reader.origin),
                    format!("`{fpath}` is missing ({} is required)", self.reader.p.describe(&f.ty)),
                    format!("add `\"{}\": {}`", f.name, example_value(&f.ty)),
                ));
            }
        }
        ok
    }
}
