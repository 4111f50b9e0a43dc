//! Source fidelity and coverage: is every line of the published document present,
//! verbatim, in a clause; is every clause's text in the document; which clauses are
//! executable, which informational (and why), and which neither.
//!
//! An `excerpt` is fidelity-checked fragment by fragment: each must be printed, after the
//! one before it; the lines it spans, from its first fragment to its last, count as
//! covered. A `paraphrase` is never compared with the document: it is listed apart.
//!
//! Whether a line is in some clause, and a clause in the document, is looked up in an index of
//! the runs of eight bytes of the texts (`Runs`), by the line's rarest run, not by searching
//! every text for every line: the work grows with the rulebook, not with its square.

use crate::check::program::{Program, TextKind};
use serde::Serialize;

/// Largest published document read (a larger file is refused before it is read).
pub const MAX_DOCUMENT_BYTES: usize = 64 * 1024 * 1024;

#[derive(Clone, Debug, Serialize)]
pub struct Missing {
    /// 1-based line of the published document.
    pub line: usize,
    pub text: String,
    /// The clause that comes closest, and the first word where it differs.
    pub nearest: Option<String>,
    pub first_difference: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Stray {
    pub citation: String,
    pub first_difference: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClauseStatus {
    pub citation: String,
    /// `executable`, `informational` or `undecided`.
    pub status: &'static str,
    /// For informational clauses: why they decide nothing.
    pub reason: Option<String>,
    /// For executable clauses: the rulings, definitions and rules they hold.
    pub holds: Vec<String>,
    /// `printed`, `excerpt` or `paraphrase`: how the clause's text stands to the document.
    pub text: TextKind,
}

#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    pub document_lines: usize,
    pub covered_lines: usize,
    pub missing: Vec<Missing>,
    pub stray: Vec<Stray>,
    pub clauses: Vec<ClauseStatus>,
    /// The clauses whose text is a paraphrase: their printed text is still to be quoted.
    pub paraphrases: Vec<String>,
}

impl Coverage {
    pub fn executable(&self) -> usize {
        self.clauses.iter().filter(|c| c.status == "executable").count()
    }
    pub fn informational(&self) -> usize {
        self.clauses.iter().filter(|c| c.status == "informational").count()
    }
    pub fn undecided(&self) -> usize {
        self.clauses.iter().filter(|c| c.status == "undecided").count()
    }
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.stray.is_empty() && self.undecided() == 0 && self.paraphrases.is_empty()
    }
}

/// Where the fragments of an excerpt stand in the folded document, each after the one
/// before: the byte range from the first's start to the last's end, or the first
/// fragment not found there.
fn excerpt_range<'a>(folded_doc: &str, fragments: &[&'a str]) -> Result<(usize, usize), &'a str> {
    let mut from = 0;
    let mut start = None;
    for f in fragments {
        let f_folded = fold(f);
        match folded_doc[from..].find(f_folded.as_str()) {
            Some(at) => {
                start.get_or_insert(from + at);
                from += at + f_folded.len();
            }
            None => return Err(f),
        }
    }
    Ok((start.unwrap_or(0), from))
}

/// Bytes in a run of [`Runs`].
const RUN: usize = 8;

/// Every run of [`RUN`] bytes of some texts, with where it stands, sorted: the texts that
/// contain a phrase are found by the rarest of the phrase's runs that do not overlap.
struct Runs<'a> {
    texts: Vec<&'a str>,
    /// (the run's bytes as a number, text, offset).
    at: Vec<(u64, u32, u32)>,
    /// Where each run's places start and end in `at`.
    index: std::collections::HashMap<u64, (usize, usize)>,
}

impl<'a> Runs<'a> {
    fn new(texts: Vec<&'a str>) -> Self {
        let mut at = Vec::with_capacity(texts.iter().map(|t| t.len().saturating_sub(RUN - 1)).sum());
        for (i, t) in texts.iter().enumerate() {
            for (o, w) in t.as_bytes().windows(RUN).enumerate() {
                at.push((run(w), i as u32, o as u32));
            }
        }
        at.sort_unstable();
        let mut index = std::collections::HashMap::new();
        let mut lo = 0;
        for (i, e) in at.iter().enumerate() {
            if at.get(i + 1).is_none_or(|next| next.0 != e.0) {
                index.insert(e.0, (lo, i + 1));
                lo = i + 1;
            }
        }
        Runs { texts, at, index }
    }

    /// Where the run `r` stands.
    fn find(&self, r: u64) -> &[(u64, u32, u32)] {
        self.index.get(&r).map_or(&[], |&(lo, hi)| &self.at[lo..hi])
    }

    /// Whether some text contains `phrase`.
    fn contains(&self, phrase: &str) -> bool {
        let b = phrase.as_bytes();
        if b.len() < RUN {
            return self.texts.iter().any(|t| t.contains(phrase));
        }
        // Runs side by side, and the last: a place of the phrase holds each of them.
        let starts = (0..=b.len() - RUN).step_by(RUN).chain(std::iter::once(b.len() - RUN));
        let Some((j, places)) = starts.map(|j| (j, self.find(run(&b[j..j + RUN])))).min_by_key(|(_, p)| p.len()) else {
            return false;
        };
        places.iter().any(|&(_, t, o)| {
            let o = o as usize;
            o >= j && self.texts[t as usize].as_bytes()[o - j..].starts_with(b)
        })
    }
}

fn run(w: &[u8]) -> u64 {
    w.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b))
}

fn fold(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first word of `want` where `got` departs from it.
fn first_difference(want: &str, got: &str) -> Option<String> {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split(' ').collect(), got.split(' ').collect());
    for (i, word) in w.iter().enumerate() {
        if g.get(i) != Some(word) {
            return Some(format!("word {}: `{}` where the clause has `{}`", i + 1, word, g.get(i).unwrap_or(&"…")));
        }
    }
    None
}

/// Where a document line departs from the nearest clause text: told from the form of the
/// line, with or without its label, that differs from the text in fewer words (word by
/// word, and in length); the line as printed when both differ as much.
fn line_difference(line: &str, unlabelled: &str, text: &str) -> Option<String> {
    let apart = |a: &str| {
        let (x, y): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), text.split(' ').collect());
        x.iter().zip(&y).filter(|(p, q)| p != q).count() + x.len().abs_diff(y.len())
    };
    let form = if apart(line) <= apart(unlabelled) { line } else { unlabelled };
    first_difference(form, text)
}

fn common_prefix_words(a: &str, b: &str) -> usize {
    a.split(' ').zip(b.split(' ')).take_while(|(x, y)| x == y).count()
}

/// Compares a rulebook with its published document.
pub fn coverage(p: &Program, document: &str) -> Coverage {
    let mut strings: Vec<(String, String)> = Vec::new(); // (citation, folded text)
    for c in &p.clauses {
        strings.extend(c.heading.iter().map(|h| (c.citation.clone(), fold(h))));
        match (&c.text, c.text_kind) {
            (Some(t), TextKind::Printed) => strings.push((c.citation.clone(), fold(t))),
            (Some(t), TextKind::Excerpt) => {
                strings.extend(TextKind::fragments(t).into_iter().map(|f| (c.citation.clone(), fold(f))))
            }
            _ => {}
        }
    }
    for s in [Some(&p.rulebook.title), p.rulebook.edition.as_ref()].into_iter().flatten() {
        strings.push(("rulebook".into(), fold(s)));
    }
    let folded_doc = fold(document);
    let in_clauses = Runs::new(strings.iter().map(|(_, s)| s.as_str()).collect());
    let whole: std::collections::HashSet<&str> = strings.iter().map(|(_, s)| s.as_str()).collect();
    // The stretches of the document that excerpts quote in part.
    let spans: Vec<(usize, usize)> = p
        .clauses
        .iter()
        .filter(|c| c.text_kind == TextKind::Excerpt)
        .filter_map(|c| excerpt_range(&folded_doc, &TextKind::fragments(c.text.as_deref()?)).ok())
        .collect();
    let mut missing = Vec::new();
    let mut lines = 0;
    let mut covered = 0;
    // Where the line being read starts in the folded document (lines are joined by one space).
    let mut offset = 0;
    for (i, raw) in document.lines().enumerate() {
        let line = fold(raw);
        if line.is_empty() {
            continue;
        }
        lines += 1;
        let at = offset;
        offset += line.len() + 1;
        if spans.iter().any(|&(s, e)| at < e && s < at + line.len()) {
            covered += 1;
            continue;
        }
        // The line as printed, or without its label (`A.`, `1.`, `a.`, `ii.`, `•`, `*)`).
        let unlabelled = line.split_once(' ').map(|(_, rest)| rest.to_string()).unwrap_or_default();
        // Section lines carry a two-word label: `§ 12. <heading>`.
        let unlabelled2 = unlabelled.split_once(' ').map(|(_, rest)| rest.to_string()).unwrap_or_default();
        let found = in_clauses.contains(&line)
            || (!unlabelled.is_empty() && in_clauses.contains(&unlabelled))
            || (line.starts_with('§') && !unlabelled2.is_empty() && whole.contains(unlabelled2.as_str()));
        // Headings printed with their clause in one line (`STAGE 1 - …`) count when every piece is found.
        if found {
            covered += 1;
            continue;
        }
        let best =
            strings.iter().max_by_key(|(_, s)| common_prefix_words(&unlabelled, s).max(common_prefix_words(&line, s)));
        let first_difference = best.and_then(|(_, s)| line_difference(&line, &unlabelled, s));
        missing.push(Missing {
            line: i + 1,
            text: line.clone(),
            nearest: best.map(|(c, _)| c.clone()),
            first_difference,
        });
    }
    let printed = |c: &&crate::check::program::ClauseInfo| c.text_kind == TextKind::Printed;
    let in_doc = Runs::new(vec![folded_doc.as_str()]);
    let mut stray: Vec<Stray> = p
        .clauses
        .iter()
        .flat_map(|c| c.heading.iter().chain(c.text.iter().filter(move |_| printed(&c))).map(move |s| (c, fold(s))))
        .filter(|(_, s)| !in_doc.contains(s))
        .map(|(c, s)| {
            let start = s.split(' ').next().unwrap_or_default();
            let nearest = folded_doc
                .match_indices(start)
                .map(|(at, _)| &folded_doc[at..])
                .max_by_key(|rest| common_prefix_words(&s, rest));
            Stray { citation: c.citation.clone(), first_difference: nearest.and_then(|n| first_difference(n, &s)) }
        })
        .collect();
    for c in p.clauses.iter().filter(|c| c.text_kind == TextKind::Excerpt) {
        let Some(t) = &c.text else { continue };
        let fragments = TextKind::fragments(t);
        if let Err(f) = excerpt_range(&folded_doc, &fragments) {
            let n = fragments.iter().position(|x| std::ptr::eq(*x, f)).map_or(0, |i| i + 1);
            let why = if folded_doc.contains(fold(f).as_str()) {
                format!("fragment {n} “{f}”, which is printed, but not after the fragment before it")
            } else {
                format!("fragment {n} “{f}”, which is not printed")
            };
            stray.push(Stray { citation: c.citation.clone(), first_difference: Some(why) });
        }
    }
    let mut holds: Vec<Vec<String>> = vec![Vec::new(); p.clauses.len()];
    for d in &p.defs {
        if let Some(c) = d.clause {
            holds[c as usize].push(d.name.clone());
        }
    }
    for r in &p.rules {
        if let Some(c) = r.clause
            && !holds[c as usize].contains(&r.label)
        {
            holds[c as usize].push(r.label.clone());
        }
    }
    for f in &p.facts {
        if let Some(c) = f.clause {
            holds[c as usize].push(format!("fact {}", f.name));
        }
    }
    for d in &p.decisions {
        if let Some(c) = d.clause {
            holds[c as usize].push(format!("decision {}", d.name));
        }
    }
    let clauses = p
        .clauses
        .iter()
        .zip(holds)
        .map(|(c, holds)| {
            let status = if !holds.is_empty() {
                "executable"
            } else if c.informational.is_some() {
                "informational"
            } else {
                "undecided"
            };
            ClauseStatus {
                citation: c.citation.clone(),
                status,
                reason: c.informational.clone(),
                holds,
                text: c.text_kind,
            }
        })
        .collect();
    let paraphrases =
        p.clauses.iter().filter(|c| c.text_kind == TextKind::Paraphrase).map(|c| c.citation.clone()).collect();
    Coverage { document_lines: lines, covered_lines: covered, missing, stray, clauses, paraphrases }
}

#[cfg(test)]
mod tests {
    use super::{Runs, line_difference};
    use proptest::prelude::*;

    #[test]
    fn an_unlabelled_line_is_compared_from_its_first_word() {
        let line = "Flight B will be open to players with fewer than 2,000 masterpoints.";
        let (_, unlabelled) = line.split_once(' ').expect("words");
        let clause = "Flight B will be open to players with fewer than 2,500 masterpoints.";
        assert_eq!(
            line_difference(line, unlabelled, clause).as_deref(),
            Some("word 11: `2,000` where the clause has `2,500`")
        );
        let labelled = "D. Flight B will be open to players with fewer than 2,000 masterpoints.";
        let (_, rest) = labelled.split_once(' ').expect("words");
        assert_eq!(
            line_difference(labelled, rest, clause).as_deref(),
            Some("word 11: `2,000` where the clause has `2,500`")
        );
    }

    #[test]
    fn runs_find_phrases_anywhere_in_any_text() {
        let r = Runs::new(vec!["the team entered in the district", "§ 304B1 kilometer tur/retur"]);
        assert!(r.contains("entered in the"));
        assert!(r.contains("kilometer tur/retur"));
        assert!(r.contains("the district"));
        assert!(r.contains("§ 30"));
        assert!(!r.contains("entered in a district"));
        assert!(!r.contains("district §"), "not across texts");
    }

    proptest! {
        #[test]
        fn runs_agree_with_searching_every_text(
            texts in proptest::collection::vec("[ab §é]{0,30}", 0..5),
            phrase in "[ab §é]{1,12}",
        ) {
            let r = Runs::new(texts.iter().map(String::as_str).collect());
            prop_assert_eq!(r.contains(&phrase), texts.iter().any(|t| t.contains(phrase.as_str())));
        }

        /// A clause text that is a document line (with a label or without) with one word
        /// changed: the difference named is that word, counted in the line as printed
        /// without its label.
        #[test]
        fn the_difference_named_is_the_word_changed(
            words in proptest::collection::vec("[a-z]{1,6}", 2..12),
            labelled in any::<bool>(),
            at in any::<prop::sample::Index>(),
        ) {
            let k = at.index(words.len());
            let text = words.join(" ");
            let mut printed = words.clone();
            printed[k] = format!("{}9", printed[k]);
            let body = printed.join(" ");
            let line = if labelled { format!("A. {body}") } else { body.clone() };
            let unlabelled = line.split_once(' ').map(|(_, r)| r.to_string()).unwrap_or_default();
            let said = line_difference(&line, &unlabelled, &text).unwrap_or_default();
            let want = format!("word {}: `{}` where the clause has `{}`", k + 1, printed[k], words[k]);
            prop_assert_eq!(said, want);
        }
    }
}
