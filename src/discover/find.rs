//! Find a ruling from the printed words: a small search index over every ruling and
//! definition of a rulebook, ranked BM25-like. Each entry holds the words of its name, its
//! question and the question's English gloss, the clause that declares it, every clause
//! whose rules decide it, and the clauses that decide the definitions it reads (with their
//! citations, so that `328A1` finds what § 328A1 decides), each part weighted by how near
//! it is to the entry. Words are cut and stemmed by [`super::words`]: the rulebook's
//! language for its texts and names, English for the glosses; a query word is looked up
//! stemmed both ways, and also inside longer words (compounds) at half weight.
//!
//! Used by `conditions find`, the server's search, and the "did you mean" of an unknown
//! ruling name. The index of a program is built on first use ([`get`]).

use super::words::{Language, citation_terms, tokens};
use crate::check::program::{ClauseId, DefId, Ir, IrKind, Program};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap, HashSet};

/// BM25's saturation of a word's count.
const K1: f64 = 1.2;
/// BM25's share of length normalisation.
const B: f64 = 0.75;
/// A definition ranks a little below a ruling of the same score: a director rules on rulings.
const DEFINITION_FACTOR: f64 = 0.9;
/// A query word found only inside a longer word counts this much.
const INSIDE_FACTOR: f64 = 0.5;
/// Shortest query word looked for inside longer words.
const INSIDE_MIN_CHARS: usize = 4;
/// At most this many clauses are shown for one result.
const MAX_MATCHES: usize = 3;
/// Words either side of the first matching word in a snippet.
const SNIPPET_BEFORE: usize = 6;
const SNIPPET_WORDS: usize = 18;

/// How a clause belongs to an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The clause declares it.
    Declares,
    /// The clause's rules (or table) decide it.
    Decides,
    /// The clause decides a definition it reads.
    Reads,
    /// The clause heads its section.
    Section,
}

impl Role {
    fn weight(self) -> f64 {
        match self {
            Role::Declares | Role::Decides => 2.0,
            Role::Reads | Role::Section => 1.0,
        }
    }
}

/// The index words of one clause.
struct ClauseWords {
    citation: HashSet<String>,
    heading: HashSet<String>,
    text: HashSet<String>,
    gloss: HashSet<String>,
}

/// One ruling or definition in the index.
struct Doc {
    def: DefId,
    /// Each word and its weighted count.
    terms: HashMap<String, f64>,
    len: f64,
    clauses: Vec<(ClauseId, Role)>,
}

/// The find index of a rulebook.
pub struct Index {
    lang: Language,
    en: Language,
    docs: Vec<Doc>,
    clauses: Vec<ClauseWords>,
    /// In how many entries each word occurs.
    df: HashMap<String, u32>,
    /// Every word, for looking a query word up inside longer ones.
    vocab: Vec<String>,
    avg_len: f64,
}

/// A clause that matched, with the words around the match.
#[derive(Clone, Debug, Serialize)]
pub struct Match {
    pub citation: String,
    pub role: Role,
    pub snippet: String,
}

/// One result of a search.
#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    /// 1 for the best.
    pub rank: usize,
    /// `ruling` or `definition`.
    pub kind: &'static str,
    pub name: String,
    /// The question it answers, as written.
    pub question: Option<String>,
    /// The question's English gloss, when the rulebook has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question_en: Option<String>,
    /// The clause that declares it.
    pub clause: Option<String>,
    /// The clauses whose words matched.
    pub matched: Vec<Match>,
    #[serde(skip)]
    pub def: DefId,
    #[serde(skip)]
    pub score: f64,
}

/// The find index of `p`, built on first use and kept in its caches (a copy of the program
/// starts without one).
pub fn get(p: &Program) -> &Index {
    p.caches.get_or_init(|| Index::build(p))
}

/// Every expression node of the rules (guards and values) and table rows of `d`.
pub(crate) fn visit_def(p: &Program, d: DefId, f: &mut impl FnMut(&Ir)) {
    let info = &p.defs[d as usize];
    let mut visit = |ir: &Ir| ir.visit(&mut *f);
    for &r in &info.rules {
        let r = &p.rules[r as usize];
        if let Some(g) = &r.guard {
            visit(g);
        }
        visit(&r.value);
    }
    for row in info.table.iter().flat_map(|t| &t.rows) {
        visit(&row.value);
    }
}

/// The definitions that the rules (or table) of `d` call directly.
pub fn calls(p: &Program, d: DefId) -> BTreeSet<DefId> {
    let mut out = BTreeSet::new();
    visit_def(p, d, &mut |x| {
        if let IrKind::Call(c, _) = &x.kind {
            out.insert(*c);
        }
    });
    out.remove(&d);
    out
}

/// The clauses of `d`: the one that declares it, those whose rules decide it, the section's
/// heading clause, then (with `reads`) those that decide the definitions it calls.
pub fn clauses_of(p: &Program, d: DefId, reads: bool) -> Vec<(ClauseId, Role)> {
    let info = &p.defs[d as usize];
    let mut out: Vec<(ClauseId, Role)> = Vec::new();
    let add = |c: ClauseId, role: Role, out: &mut Vec<(ClauseId, Role)>| {
        if !out.iter().any(|(x, _)| *x == c) {
            out.push((c, role));
        }
    };
    if let Some(c) = info.clause {
        add(c, Role::Declares, &mut out);
    }
    for &r in &info.rules {
        if let Some(c) = p.rules[r as usize].clause {
            add(c, Role::Decides, &mut out);
        }
    }
    if let Some(c) = section_clause(p, info.clause) {
        add(c, Role::Section, &mut out);
    }
    if reads {
        for x in calls(p, d) {
            for (c, _) in clauses_of(p, x, false).into_iter().filter(|(_, r)| *r != Role::Section) {
                add(c, Role::Reads, &mut out);
            }
        }
    }
    out
}

/// The outermost clause with a heading whose citation begins that of `clause`.
fn section_clause(p: &Program, clause: Option<ClauseId>) -> Option<ClauseId> {
    let own = &p.clauses.get(clause? as usize)?.citation;
    (0..p.clauses.len() as ClauseId)
        .filter(|&c| {
            let x = p.clause(c);
            x.heading.is_some() && own.starts_with(x.citation.as_str()) && x.citation != *own
        })
        .min_by_key(|&c| p.clause(c).citation.len())
}

impl Index {
    /// Builds the index of every ruling and definition of `p`.
    pub fn build(p: &Program) -> Index {
        let lang = Language::new(&p.rulebook.language);
        let en = Language::new("en");
        let set = |l: &Language, t: &Option<String>| -> HashSet<String> {
            t.as_deref().map(|t| l.terms(t).into_iter().collect()).unwrap_or_default()
        };
        let clauses: Vec<ClauseWords> = p
            .clauses
            .iter()
            .map(|c| ClauseWords {
                citation: citation_terms(&c.citation).into_iter().collect(),
                heading: set(&lang, &c.heading),
                text: set(&lang, &c.text),
                gloss: set(&en, &c.gloss),
            })
            .collect();
        let mut docs = Vec::with_capacity(p.defs.len());
        for (i, d) in p.defs.iter().enumerate() {
            let def = i as DefId;
            let mut terms: HashMap<String, f64> = HashMap::new();
            let mut add = |words: Vec<String>, w: f64| {
                for t in words {
                    *terms.entry(t).or_default() += w;
                }
            };
            add(lang.terms(&d.name.replace('_', " ")), 3.0);
            if let Some(q) = &d.doc {
                add(lang.terms(q), 3.0);
                if let Some(g) = p.glosses.get(q) {
                    add(en.terms(g), 3.0);
                }
            }
            let cl = clauses_of(p, def, true);
            for &(c, role) in &cl {
                let info = p.clause(c);
                let w = role.weight();
                add(citation_terms(&info.citation), w);
                for t in [&info.heading, &info.text] {
                    add(t.as_deref().map(|t| lang.terms(t)).unwrap_or_default(), w);
                }
                add(info.gloss.as_deref().map(|t| en.terms(t)).unwrap_or_default(), w);
            }
            let len = terms.values().sum();
            docs.push(Doc { def, terms, len, clauses: cl });
        }
        let mut df: HashMap<String, u32> = HashMap::new();
        for d in &docs {
            for t in d.terms.keys() {
                *df.entry(t.clone()).or_default() += 1;
            }
        }
        let mut vocab: Vec<String> = df.keys().cloned().collect();
        vocab.sort();
        let avg_len = if docs.is_empty() { 1.0 } else { docs.iter().map(|d| d.len).sum::<f64>() / docs.len() as f64 };
        Index { lang, en, docs, clauses, df, vocab, avg_len: avg_len.max(1.0) }
    }

    /// The index words a query word stands for, each with how much a match counts.
    fn expand(&self, word: &str) -> Vec<(String, f64)> {
        let mut variants: Vec<String> = vec![self.lang.stem(word), self.en.stem(word), word.to_string()];
        variants.sort();
        variants.dedup();
        let mut out: HashMap<String, f64> = HashMap::new();
        for v in &variants {
            if self.df.contains_key(v) {
                out.insert(v.clone(), 1.0);
            }
            if v.chars().count() >= INSIDE_MIN_CHARS {
                for t in self.vocab.iter().filter(|t| t.len() > v.len() && t.contains(v.as_str())) {
                    out.entry(t.clone()).or_insert(INSIDE_FACTOR);
                }
            }
        }
        let mut out: Vec<(String, f64)> = out.into_iter().collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The words of a query, stop words left out (unless it has nothing else).
    fn query_words(&self, query: &str) -> Vec<String> {
        let all: Vec<String> = tokens(query).collect();
        let kept: Vec<String> = all.iter().filter(|w| !self.lang.is_stop(w) && !self.en.is_stop(w)).cloned().collect();
        let mut words = if kept.is_empty() { all } else { kept };
        words.dedup();
        words
    }

    /// The entries that match `query`, best first (ties by name), at most `limit`.
    pub fn search(&self, p: &Program, query: &str, limit: usize) -> Vec<Hit> {
        let words = self.query_words(query);
        let expanded: Vec<Vec<(String, f64)>> = words.iter().map(|w| self.expand(w)).collect();
        let n = self.docs.len() as f64;
        let lowered = query.trim().to_lowercase();
        let mut scored: Vec<(f64, &Doc, HashSet<&str>)> = Vec::new();
        for doc in &self.docs {
            let mut score = 0.0;
            let mut hit: HashSet<&str> = HashSet::new();
            for terms in &expanded {
                let mut best = 0.0f64;
                for (t, w) in terms {
                    let Some(&tf) = doc.terms.get(t) else { continue };
                    hit.insert(t.as_str());
                    let df = f64::from(self.df.get(t).copied().unwrap_or(0));
                    let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                    let norm = tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * doc.len / self.avg_len));
                    best = best.max(w * idf * norm);
                }
                score += best;
            }
            if score <= 0.0 {
                continue;
            }
            let d = &p.defs[doc.def as usize];
            if !d.is_ruling() {
                score *= DEFINITION_FACTOR;
            }
            let short = d.name.rsplit('.').next().unwrap_or(&d.name);
            if d.name.to_lowercase() == lowered || short.to_lowercase() == lowered {
                score += 1000.0;
            }
            scored.push((score, doc, hit));
        }
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0).then_with(|| p.defs[a.1.def as usize].name.cmp(&p.defs[b.1.def as usize].name))
        });
        scored.truncate(limit);
        scored.into_iter().enumerate().map(|(i, (score, doc, hit))| self.hit(p, doc, &hit, i + 1, score)).collect()
    }

    fn hit(&self, p: &Program, doc: &Doc, hit: &HashSet<&str>, rank: usize, score: f64) -> Hit {
        let d = &p.defs[doc.def as usize];
        let mut matched = Vec::new();
        for &(c, role) in &doc.clauses {
            if matched.len() == MAX_MATCHES {
                break;
            }
            let words = &self.clauses[c as usize];
            let info = p.clause(c);
            let count = |s: &HashSet<String>| s.iter().filter(|t| hit.contains(t.as_str())).count();
            let in_set = |s: &HashSet<String>| count(s) > 0;
            // The printed text, or its gloss when more of the words matched there.
            let snippet = if in_set(&words.text) && count(&words.text) >= count(&words.gloss) {
                info.text.as_deref().map(|t| snippet(&self.lang, t, hit))
            } else if in_set(&words.gloss) {
                info.gloss.as_deref().map(|t| snippet(&self.en, t, hit))
            } else if in_set(&words.citation) || in_set(&words.heading) {
                let start = info.heading.as_deref().or(info.text.as_deref()).or(info.gloss.as_deref());
                Some(start.map(|t| snippet(&self.lang, t, hit)).unwrap_or_default())
            } else {
                None
            };
            if let Some(snippet) = snippet {
                matched.push(Match { citation: info.citation.clone(), role, snippet });
            }
        }
        let question_en = d
            .doc
            .as_ref()
            .filter(|_| !crate::base::lang::reads("en", &p.rulebook.language))
            .and_then(|q| p.glosses.get(q))
            .cloned();
        Hit {
            rank,
            kind: if d.is_ruling() { "ruling" } else { "definition" },
            name: d.name.clone(),
            question: d.doc.clone(),
            question_en,
            clause: p.citation_of(d.clause).map(str::to_string),
            matched,
            def: doc.def,
            score,
        }
    }
}

/// A few words of `text` around the first word whose index word is in `hit` (from the start
/// when none is).
fn snippet(lang: &Language, text: &str, hit: &HashSet<&str>) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let matches = |w: &str| tokens(w).any(|t| hit.contains(lang.stem(&t).as_str()) || hit.contains(t.as_str()));
    let first = words.iter().position(|w| matches(w)).unwrap_or(0);
    let start = first.saturating_sub(SNIPPET_BEFORE);
    let end = (start + SNIPPET_WORDS).min(words.len());
    let mut s = words[start..end].join(" ");
    if start > 0 {
        s = format!("… {s}");
    }
    if end < words.len() {
        s.push_str(" …");
    }
    s
}
