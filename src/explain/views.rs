//! Views of a rulebook for its explanations, built once per language and kept with the
//! program in its caches ([`get`]): each clause as it is cited — citation, heading, the quoted text and
//! its gloss (shared by every report, not copied into each) — and its lines in the
//! terminal text, already wrapped — and each definition, rule, fact and field of a fact
//! the program reads as a step names it (label, description, citation). A report cites
//! and quotes from these views, read without a lock and borrowed; nothing about a clause
//! or a definition's name is worked out again for each ruling.

use super::{ClauseView, Shared};
use crate::check::program::Program;
use crate::eval::reads::ReadId;
use crate::show::Lang;
use std::sync::{Arc, OnceLock};

/// What explanations in one language need of a rulebook, worked out once.
pub struct Views {
    /// By clause id.
    pub clauses: Vec<ClauseView>,
    /// By definition id.
    pub defs: Vec<DefView>,
    /// By rule id: its label and citation.
    pub rules: Vec<super::RuleRef>,
    /// By fact id.
    pub facts: Vec<NameView>,
    /// By decision id.
    pub decisions: Vec<NameView>,
    /// The facts and fields of facts the program reads, by their number
    /// ([`crate::eval::reads::ReadId`]).
    reads: Vec<FieldNames>,
}

/// A definition as a step names it.
pub struct DefView {
    /// Its `says` phrase, else the head of its description, else its name (glossed).
    pub label: Shared,
    /// Its description, glossed.
    pub description: Option<Shared>,
    pub citation: Option<Shared>,
    /// What each parameter stands for, glossed.
    pub param_labels: Vec<Option<String>>,
}

/// A fact or a decision as the explanation names it.
pub struct NameView {
    /// Its short phrase in a sentence (`says`, else the head of its description, else its name).
    pub label: Shared,
    /// Its description, glossed.
    pub description: Option<Shared>,
    pub citation: Option<Shared>,
}

/// A field of a fact, by its path (`player.masterpoints`), as the explanation names it.
pub struct FieldNames {
    /// Its short phrase (`says`, else the head of its description, else its name; the path
    /// when it names no field).
    pub label: Shared,
    /// Its `says` phrase, glossed.
    pub says: Option<Shared>,
    /// Its description, glossed.
    pub description: Option<Shared>,
}

impl Views {
    /// The names of read `read` of the program: a fact or a field of one, by its path.
    pub fn read(&self, read: ReadId) -> Option<&FieldNames> {
        self.reads.get(read as usize)
    }

    /// The names of the field `path` of fact `fact`.
    fn field(p: &Program, lang: Lang, fact: u32, path: &str) -> FieldNames {
        let gloss = |t: &str| Shared::from(p.gloss(t, lang.code()));
        let field = p.facts.get(fact as usize).and_then(|fi| super::field_info(p, &fi.ty, path));
        match field {
            Some(fd) => FieldNames {
                label: short(p, lang, fd.says.as_deref(), fd.doc.as_deref(), &fd.name).into(),
                says: fd.says.as_deref().map(gloss),
                description: fd.doc.as_deref().map(gloss),
            },
            None => FieldNames { label: path.replace('_', " ").into(), says: None, description: None },
        }
    }

    fn new(p: &Program, lang: Lang) -> Views {
        let gloss = |t: &str| Shared::from(p.gloss(t, lang.code()));
        let short = |says: Option<&str>, doc: Option<&str>, name: &str| Shared::from(short(p, lang, says, doc, name));
        let cite = |c| p.citation_of(c).map(Shared::from);
        let defs = p
            .defs
            .iter()
            .map(|d| DefView {
                label: short(d.says.as_deref(), d.doc.as_deref(), &d.name),
                description: d.doc.as_deref().map(gloss),
                citation: cite(d.clause),
                param_labels: d
                    .param_docs
                    .iter()
                    .map(|x| x.as_deref().map(|t| p.gloss(t, lang.code()).to_string()))
                    .collect(),
            })
            .collect();
        let rules = p
            .rules
            .iter()
            .map(|r| super::RuleRef { label: Shared::from(r.label.as_str()), citation: cite(r.clause) })
            .collect();
        let facts = p
            .facts
            .iter()
            .map(|f| NameView {
                label: short(f.says.as_deref(), f.doc.as_deref(), &f.name),
                description: f.doc.as_deref().map(gloss),
                citation: cite(f.clause),
            })
            .collect();
        let decisions = p
            .decisions
            .iter()
            .map(|d| NameView {
                label: short(d.says.as_deref(), d.doc.as_deref(), &d.name),
                description: d.doc.as_deref().map(gloss),
                citation: cite(d.clause),
            })
            .collect();
        let glossed = !lang.reads(&p.rulebook.language);
        let clauses = p
            .clauses
            .iter()
            .map(|cl| {
                let mut c = ClauseView {
                    citation: cl.citation.clone(),
                    heading: cl.heading.clone(),
                    text: cl.text.as_deref().map(Arc::from),
                    text_kind: cl.text_kind,
                    gloss: if glossed { cl.gloss.as_deref().map(Arc::from) } else { None },
                    lines: Arc::from(""),
                };
                c.lines = Arc::from(super::text::clause_lines(lang, &c));
                c
            })
            .collect();
        let reads = crate::eval::reads::paths(p).all().iter().map(|r| Views::field(p, lang, r.fact, &r.path)).collect();
        Views { clauses, defs, rules, facts, decisions, reads }
    }
}

/// The short phrase naming something in a sentence: its `says` phrase, else the head of
/// its description (up to the first `: ` or `; `), else its name; glossed in `lang`.
pub(crate) fn short(p: &Program, lang: Lang, says: Option<&str>, doc: Option<&str>, name: &str) -> String {
    if let Some(s) = says {
        return p.gloss(s, lang.code()).to_string();
    }
    match doc {
        Some(d) => head_phrase(p.gloss(d, lang.code())).to_string(),
        None => name.replace('_', " "),
    }
}

/// The views of a program, one per language asked for, made on first use and read without
/// a lock; kept in the program's caches, so a copy of the program starts without any (they
/// are rebuilt if used), and a changed copy never quotes stale texts.
struct Cache(Box<[OnceLock<Box<Views>>]>);

/// The program's views in `lang`, built on first use (a language's place among the tags
/// known is below the number of tags kept; one past it is read in English).
pub fn get(p: &Program, lang: Lang) -> &Views {
    let slots = &p.caches.get_or_init(|| Cache((0..crate::base::lang::MAX_TAGS).map(|_| OnceLock::new()).collect())).0;
    let lang = if lang.index() < slots.len() { lang } else { Lang::En };
    slots[lang.index()].get_or_init(|| Box::new(Views::new(p, lang)))
}

/// The head of a description: up to its first `:` or `;` (the rest says more of it).
pub(crate) fn head_phrase(d: &str) -> &str {
    let cut = [": ", "; "].iter().filter_map(|s| d.find(s)).min();
    match cut {
        // A cut inside a parenthesis ("… (empty list: none)") drops the whole parenthesis.
        Some(i) if i > 0 => match d[..i].rfind('(').filter(|&o| !d[o..i].contains(')')) {
            Some(o) if o > 0 => d[..o].trim_end(),
            Some(_) => d,
            None => d[..i].trim_end(),
        },
        _ => d,
    }
}
