//! Asking the rulebook: a session that asks, one at a time, only for the inputs that
//! can still change a ruling (most settling first), reads each answer as a facts file
//! would write it, and ends with the ruling. No terminal I/O here: the command feeds
//! it lines, so that a script can drive it. The facts gathered can be saved.

pub mod save;
/// The words of a session live with the descriptions of inputs, which use them too; the old
/// path stays for programs that name it.
pub use crate::discover::ask_words as words;

use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
use crate::discover::Origin;
use crate::eval::interp::Inputs;
use crate::eval::needed::{self, Hole, HoleKind, Key};
use crate::eval::{self, Ruling};
use serde_json::Value as J;
use std::collections::HashMap;

/// One question: an input that can still change the ruling.
#[derive(Clone, Debug)]
pub struct Question {
    pub hole: Hole,
    /// The facts-file path or key.
    pub path: String,
    pub description: Option<String>,
    /// Who decides, for a decision or lot.
    pub by: Option<String>,
    pub clause: Option<String>,
    /// How to write an answer.
    pub how: String,
    /// The allowed values, when there are few.
    pub allowed: Vec<String>,
    pub example: String,
    /// Other rulings or definitions that may work this input out.
    pub deciders: Vec<crate::discover::Decider>,
}

/// What the session does next.
#[derive(Debug)]
pub enum Next {
    Ask(Question),
    /// The ruling, decided (or silent, or an error); `settled` when the inputs still
    /// missing cannot change it.
    Done {
        ruling: Ruling,
        settled: Option<Key>,
    },
}

pub struct Session<'a> {
    pub p: &'a Program,
    pub def: DefId,
    pub inputs: Inputs,
    /// The facts file so far: what was given, and every answer.
    pub tree: J,
    words: &'static words::Words,
    lang: crate::show::Lang,
    /// For each input, the definitions that may work it out ([`crate::discover::related`]).
    deciders: HashMap<Origin, Vec<crate::discover::Decider>>,
}

impl<'a> Session<'a> {
    /// A session for ruling `def`, starting from `inputs` (read from `tree`).
    pub fn new(p: &'a Program, def: DefId, inputs: Inputs, tree: J, lang: crate::show::Lang) -> Self {
        let tree = if tree.is_object() { tree } else { J::Object(Default::default()) };
        let deciders = crate::discover::describe(p, def)
            .inputs
            .into_iter()
            .filter(|i| !i.may_be_decided_by.is_empty())
            .map(|i| (i.origin, i.may_be_decided_by))
            .collect();
        Session { p, def, inputs, tree, words: words::words(lang), lang, deciders }
    }

    /// The next question, or the ruling.
    pub fn step(&mut self) -> Next {
        loop {
            let Some(n) = needed::needed(self.p, &self.inputs, self.def) else {
                return Next::Done { ruling: eval::rule(self.p, &self.inputs, self.def, true), settled: None };
            };
            if n.settled.is_some() || n.holes.is_empty() {
                // A ruling the missing inputs cannot change is given settled, as `rule` gives it:
                // its answer, not "undetermined" after saying that nothing more is needed.
                let ruling = needed::refine(self.p, &self.inputs, eval::rule(self.p, &self.inputs, self.def, true));
                return Next::Done { ruling, settled: n.settled };
            }
            let first = n.holes[0].clone();
            // A record not given at all is asked field by field.
            if let HoleKind::Fact(f) = first.kind
                && let Type::Record(t) = first.ty
                && let TypeKind::Record(fs) = &self.p.types[t as usize].kind
                && !fs.is_empty()
            {
                self.inputs.facts[f as usize] = Some(crate::base::value::Value::Record(t, vec![None; fs.len()].into()));
                save::set(&mut self.tree, &first.path, J::Object(Default::default()));
                continue;
            }
            return Next::Ask(self.question(first));
        }
    }

    /// The question for a missing input: what it is, who decides, how to write it.
    pub fn question(&self, hole: Hole) -> Question {
        let p = self.p;
        // Descriptions and who decides in the session's language: glossed when the
        // rulebook is written in another.
        let gloss = |t: &str| p.gloss(t, self.lang.code()).to_string();
        let (description, by, clause) = match &hole.kind {
            HoleKind::Fact(f) => {
                let i = &p.facts[*f as usize];
                (i.doc.as_deref().map(gloss), None, p.citation_of(i.clause).map(str::to_string))
            }
            HoleKind::Decision(d) | HoleKind::Lot(d) => {
                let i = &p.decisions[*d as usize];
                (i.doc.as_deref().map(gloss), Some(gloss(&i.by)), p.citation_of(i.clause).map(str::to_string))
            }
            HoleKind::Field { .. } => (field_doc(p, &hole).as_deref().map(gloss), None, None),
        };
        let allowed = if !hole.candidates.is_empty() {
            hole.candidates.clone()
        } else {
            match &hole.ty {
                Type::Bool => vec![self.words.yes[0].clone(), self.words.no[0].clone()],
                ty => crate::discover::write::variants(p, ty).into_iter().map(|(n, l)| l.unwrap_or(n)).collect(),
            }
        };
        let example = crate::discover::write::example(p, &hole.ty, 0).to_string();
        let deciders = origin(p, &hole).and_then(|o| self.deciders.get(&o)).cloned().unwrap_or_default();
        Question {
            deciders,
            path: hole.path.clone(),
            how: crate::discover::write::how_in(p, &hole.ty, self.lang),
            allowed,
            example,
            description,
            by,
            clause,
            hole,
        }
    }

    /// Takes an answer to `q`, written as a facts file writes a value (quotes optional
    /// around text); on a bad answer, says why, and nothing changes.
    pub fn answer(&mut self, q: &Question, line: &str) -> Result<(), String> {
        let mut json = self.read(q, line.trim());
        // A number as the session's explanations print it (`2,150` in English, `1.095` in
        // Danish, `125 kr.`) is read in the session's language.
        if matches!(q.hole.ty, Type::Int | Type::Quantity(_))
            && let Some(canonical) = crate::facts::printed::normalise(line.trim(), Some(self.lang))?
        {
            json = J::String(canonical);
        }
        let value = crate::facts::convert_value(self.p, &json, &q.hole.ty, &q.path)?;
        if let Some(e) = crate::facts::bound_error(self.p, &q.path, &value) {
            return Err(e);
        }
        if q.hole.domain.as_ref().is_some_and(|d| !d.contains(&value)) {
            return Err(self.words.fill(&self.words.one_of, &[("values", q.allowed.join(", "))]));
        }
        self.inputs = needed::fill(&self.inputs, &q.hole, value);
        save::set(&mut self.tree, &q.path, json);
        Ok(())
    }

    /// An answer line as JSON: JSON when it parses, the words for yes and no for a truth
    /// value, otherwise the text itself.
    fn read(&self, q: &Question, line: &str) -> J {
        if q.hole.ty == Type::Bool {
            let l = line.to_lowercase();
            if self.words.yes.contains(&l) {
                return J::Bool(true);
            }
            if self.words.no.contains(&l) {
                return J::Bool(false);
            }
        }
        match crate::facts::read::json(line) {
            Ok(v) if !matches!(q.hole.ty, Type::Int | Type::Quantity(_)) => match crate::facts::tree::number_text(&v) {
                Some(n) => J::String(n),
                None => v,
            },
            Ok(v) => v,
            Err(_) => J::String(line.to_string()),
        }
    }

    pub fn words(&self) -> &'static words::Words {
        self.words
    }
}

/// What a missing input is in the program.
fn origin(p: &Program, hole: &Hole) -> Option<Origin> {
    match &hole.kind {
        HoleKind::Fact(f) => Some(Origin::Fact(*f)),
        HoleKind::Decision(d) | HoleKind::Lot(d) => Some(Origin::Decision(*d)),
        HoleKind::Field { fact, steps } => {
            let mut ty = p.facts[*fact as usize].ty.clone();
            let mut last = None;
            for s in steps {
                match (s, &ty) {
                    (needed::Step::Index(_), Type::List(e)) => ty = (**e).clone(),
                    (needed::Step::Field(i), Type::Record(t)) => {
                        let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return None };
                        last = Some(Origin::Field(*t, *i));
                        ty = fs.get(*i as usize)?.ty.clone();
                    }
                    _ => return None,
                }
            }
            last
        }
    }
}

fn field_doc(p: &Program, hole: &Hole) -> Option<String> {
    let HoleKind::Field { fact, steps } = &hole.kind else { return None };
    let mut ty = p.facts[*fact as usize].ty.clone();
    let mut doc = None;
    for s in steps {
        match (s, &ty) {
            (needed::Step::Index(_), Type::List(e)) => ty = (**e).clone(),
            (needed::Step::Field(i), Type::Record(t)) => {
                let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return None };
                let f = fs.get(*i as usize)?;
                doc = f.doc.clone();
                ty = f.ty.clone();
            }
            _ => return None,
        }
    }
    doc
}
