//! What else in the rulebook bears on a ruling's inputs: the rulings and definitions that
//! may work an input out (so that the director rules on them instead of typing it in), and
//! the other rulings that read the same input. An input may be worked out by a definition of
//! its type when its description cites a clause that declares or decides that definition
//! (`… (§ 351C1)`) and the two share some words, or when the definition's question says what the description says (the
//! same index words, stemmed, for the most part).

use super::find::{clauses_of, visit_def};
use super::inputs::{Decider, Input, Origin, Reach};
use super::words::Language;
use crate::check::program::{ClauseId, DefId, IrKind, Program};
use crate::check::types::Type;
use std::collections::{BTreeSet, HashSet};

/// At most this many definitions are named as possibly working an input out.
const MAX_DECIDERS: usize = 3;
/// How much of the words of two questions must be shared for them to say the same
/// (Dice's coefficient, in tenths), and at least how many words.
const SAME_WORDS_TENTHS: usize = 7;
const SAME_WORDS_MIN: usize = 2;
/// Under a clause the description cites, less need be shared.
const CITED_WORDS_TENTHS: usize = 3;

/// What one definition reads in its own rules, and the definitions it calls.
#[derive(Default)]
struct Direct {
    origins: HashSet<Origin>,
    calls: BTreeSet<DefId>,
}

fn direct(p: &Program, d: DefId) -> Direct {
    let mut out = Direct::default();
    visit_def(p, d, &mut |x| match &x.kind {
        IrKind::Call(c, _) => {
            out.calls.insert(*c);
        }
        IrKind::Fact(f) => {
            out.origins.insert(Origin::Fact(*f));
        }
        IrKind::Decision(k) | IrKind::Draw(k, _, _) => {
            out.origins.insert(Origin::Decision(*k));
        }
        IrKind::Field(inner, i) => {
            if let Type::Record(t) = inner.ty {
                out.origins.insert(Origin::Field(t, *i));
            }
        }
        _ => {}
    });
    out
}

/// Fills in, for each input of definition `def` (which reaches `reached`), the definitions
/// that may work it out and the other rulings that read it.
pub fn relate(p: &Program, def: DefId, reached: &Reach, inputs: &mut [Input]) {
    let direct: Vec<Direct> = (0..p.defs.len() as DefId).map(|d| direct(p, d)).collect();
    let wanted: HashSet<Origin> = inputs.iter().map(|i| i.origin).collect();
    // Each definition's reach over the wanted inputs, through the definitions it calls.
    let reads = |root: DefId| -> HashSet<Origin> {
        let mut seen = HashSet::new();
        let mut todo = vec![root];
        let mut out = HashSet::new();
        while let Some(d) = todo.pop() {
            if !seen.insert(d) {
                continue;
            }
            out.extend(direct[d as usize].origins.iter().filter(|o| wanted.contains(o)));
            todo.extend(direct[d as usize].calls.iter().copied());
        }
        out
    };
    let all_reads: Vec<HashSet<Origin>> = (0..p.defs.len() as DefId).map(reads).collect();
    let lang = Language::new(&p.rulebook.language);
    for input in inputs.iter_mut() {
        let o = input.origin;
        let mut readers: Vec<(bool, &str)> = p
            .rulings()
            .filter(|(d, _)| *d != def && all_reads[*d as usize].contains(&o))
            .map(|(d, info)| (!direct[d as usize].origins.contains(&o), info.name.as_str()))
            .collect();
        readers.sort();
        input.also_read_by = readers.into_iter().map(|(_, n)| n.to_string()).collect();
        input.may_be_decided_by = deciders(p, def, reached, input, &all_reads, &lang);
    }
}

/// The definitions that may work `input` out, those under a clause its description cites first.
fn deciders(
    p: &Program,
    def: DefId,
    reached: &Reach,
    input: &Input,
    all_reads: &[HashSet<Origin>],
    lang: &Language,
) -> Vec<Decider> {
    let Some(desc) = &input.description else { return Vec::new() };
    let cited = cited_clauses(p, desc);
    let desc_words: HashSet<String> = lang.terms(desc).into_iter().collect();
    let mut found: Vec<(u8, DefId, Option<ClauseId>)> = Vec::new();
    for (i, d) in p.defs.iter().enumerate() {
        let x = i as DefId;
        // Not the ruling itself, nor what it reads already, nor what reads the input.
        if x == def || reached.defs.contains(&x) || all_reads[i].contains(&input.origin) || d.ty != input.declared {
            continue;
        }
        let clauses = clauses_of(p, x, false);
        let q: HashSet<String> = d.doc.as_deref().map(|q| lang.terms(q).into_iter().collect()).unwrap_or_default();
        let shared = q.intersection(&desc_words).count();
        // Dice's coefficient of the two questions' words, in tenths.
        let tenths = shared * 2 * 10 / (q.len() + desc_words.len()).max(1);
        if let Some(&(c, _)) = clauses.iter().find(|(c, _)| cited.contains(c))
            && shared >= 1
            && tenths >= CITED_WORDS_TENTHS
        {
            found.push((0, x, Some(c)));
            continue;
        }
        if shared >= SAME_WORDS_MIN && tenths >= SAME_WORDS_TENTHS {
            let at = clauses.iter().find(|(_, r)| *r == super::find::Role::Decides).or(clauses.first());
            found.push((1, x, at.map(|(c, _)| *c)));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| p.defs[a.1 as usize].name.cmp(&p.defs[b.1 as usize].name)));
    found
        .into_iter()
        .take(MAX_DECIDERS)
        .map(|(_, x, c)| {
            let d = &p.defs[x as usize];
            Decider {
                name: d.name.clone(),
                kind: if d.is_ruling() { "ruling" } else { "definition" },
                question: d.doc.clone(),
                clause: p.citation_of(c).map(str::to_string),
            }
        })
        .collect()
}

/// The clauses a text cites by their citation as written (`§ 351C1`): at each place, the
/// longest citation that ends at a word's end.
fn cited_clauses(p: &Program, text: &str) -> HashSet<ClauseId> {
    let mut out = HashSet::new();
    for (start, _) in text.char_indices() {
        let rest = &text[start..];
        let at_word_start = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        if !at_word_start {
            continue;
        }
        let best = p
            .citations
            .iter()
            .filter(|(c, _)| {
                rest.starts_with(c.as_str()) && rest[c.len()..].chars().next().is_none_or(|ch| !ch.is_alphanumeric())
            })
            .max_by_key(|(c, _)| c.len());
        if let Some((_, &id)) = best {
            out.insert(id);
        }
    }
    out
}
