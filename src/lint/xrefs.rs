//! The lint `lint::unread_reference`: a clause's text refers to another clause of the
//! rulebook, yet no rule of the clause reads anything declared in, or decided by, that clause
//! (directly or through the definitions it calls). Either the rules miss part of what the text
//! says, or the reference only points the reader on: then the clause says why with
//! `// allow(unread_reference): <reason>`.
//!
//! References are found by the rulebook's own clause citations, whatever its citation scheme
//! or language: at each place of the text where a word begins, the longest citation of a clause
//! that stands there as a whole phrase. A citation with a number or a numbering sign (`§ 301B`,
//! `Stage 1 E3`) counts wherever it stands; a bare heading (`Membership Requirements`) counts
//! only when quoted as a title (`see "Membership Requirements" below`), being elsewhere as
//! often the name of the thing as a reference to its clause.

use crate::check::program::{ClauseId, DefId, Ir, IrKind, Program};
use crate::diagnostic::Diagnostic;
use std::collections::{BTreeSet, HashMap, HashSet};

const CODE: &str = "lint::unread_reference";

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let finder = Finder::new(p.citations.keys().map(String::as_str));
    let mut out = Vec::new();
    let mut reads: Option<Vec<BTreeSet<ClauseId>>> = None;
    for (id, c) in p.clauses.iter().enumerate() {
        let Some(text) = &c.text else { continue };
        let refs = finder.find(text);
        let refs: Vec<&str> = refs.into_iter().filter(|r| *r != c.citation).collect();
        if refs.is_empty() {
            continue;
        }
        let reads = reads.get_or_insert_with(|| clause_reads(p));
        let read: Vec<&str> = reads[id].iter().map(|r| p.clause(*r).citation.as_str()).collect();
        for r in refs {
            if read.iter().any(|x| within(x, r)) {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    CODE,
                    format!("`{}` refers to `{r}`, but none of its rules reads anything `{r}` declares or decides", c.citation),
                )
                .at(c.citation_span, format!("its text refers to {r}"))
                .help(format!(
                    "read what `{r}` declares or decides in a rule of this clause, or say why the reference only points the reader on: `// allow(unread_reference): <reason>`"
                )),
            );
        }
    }
    out
}

/// Whether the clause cited `x` is the clause cited `r` or one of its parts (`§ 301B1` in
/// `§ 301B`, `Stage 1 E3` in `Stage 1`, but not `Part 12` in `Part 1`).
fn within(x: &str, r: &str) -> bool {
    let Some(rest) = x.strip_prefix(r) else { return false };
    match (r.chars().next_back(), rest.chars().next()) {
        (_, None) => true,
        (Some(a), Some(b)) => !(a.is_numeric() && b.is_numeric()),
        (None, Some(_)) => false,
    }
}

/// The clause citations of a rulebook, by their first character, longest first.
struct Finder<'p> {
    by_first: HashMap<char, Vec<&'p str>>,
}

impl<'p> Finder<'p> {
    fn new(citations: impl Iterator<Item = &'p str>) -> Self {
        let mut by_first: HashMap<char, Vec<&'p str>> = HashMap::new();
        for c in citations {
            if let Some(ch) = c.chars().next() {
                by_first.entry(ch).or_default().push(c);
            }
        }
        for v in by_first.values_mut() {
            v.sort_by_key(|c| std::cmp::Reverse(c.len()));
        }
        Finder { by_first }
    }

    /// The citations `text` holds, each once, in the order they first stand. A citation counts
    /// where it begins a word and ends one; a numbering sign doubled before it marks a range
    /// (`§§ 301–365`), not a reference.
    fn find(&self, text: &str) -> Vec<&'p str> {
        let mut out: Vec<&'p str> = Vec::new();
        let mut prev: Option<char> = None;
        let mut skip_to = 0;
        for (i, ch) in text.char_indices() {
            let before = prev;
            prev = Some(ch);
            if i < skip_to || before.is_some_and(char::is_alphanumeric) || before == Some(ch) && !ch.is_alphanumeric() {
                continue;
            }
            let Some(cands) = self.by_first.get(&ch) else { continue };
            let rest = &text[i..];
            let quoted = before.is_some_and(is_quote);
            let found = cands.iter().find(|c| {
                rest.starts_with(**c)
                    && !rest[c.len()..].chars().next().is_some_and(char::is_alphanumeric)
                    && (quoted || c.chars().any(is_numbering))
            });
            if let Some(c) = found {
                skip_to = i + c.len();
                if !out.contains(c) {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// A number, or a sign such as a paragraph or section mark: neither a letter, a space nor
/// ordinary punctuation.
fn is_numbering(ch: char) -> bool {
    ch.is_numeric() || !(ch.is_alphabetic() || ch.is_whitespace() || ch.is_ascii_punctuation())
}

/// An opening quotation mark, of any script.
fn is_quote(ch: char) -> bool {
    matches!(ch, '"' | '\'' | '“' | '‘' | '„' | '‚' | '«' | '»' | '‹' | '›' | '「' | '『' | '”')
}

/// What a rule or table reads: facts, decisions, definitions called.
#[derive(Default)]
struct Reads {
    clauses: HashSet<ClauseId>,
    defs: Vec<DefId>,
}

fn walk(p: &Program, ir: &Ir, into: &mut Reads) {
    ir.visit(&mut |x| match x.kind {
        IrKind::Fact(f) => {
            into.clauses.extend(p.facts.get(f as usize).and_then(|f| f.clause));
        }
        IrKind::Decision(d) | IrKind::Draw(d, ..) => {
            into.clauses.extend(p.decisions.get(d as usize).and_then(|d| d.clause));
        }
        IrKind::Call(d, _) => into.defs.push(d),
        _ => {}
    });
}

/// What each definition reads directly, and the clauses that declare or decide it.
fn def_reads(p: &Program, d: DefId) -> Reads {
    let def = &p.defs[d as usize];
    let mut r = Reads::default();
    r.clauses.extend(def.clause);
    for &rule in &def.rules {
        let rule = &p.rules[rule as usize];
        r.clauses.extend(rule.clause);
        walk(p, &rule.value, &mut r);
        if let Some(g) = &rule.guard {
            walk(p, g, &mut r);
        }
    }
    if let Some(t) = &def.table {
        for row in &t.rows {
            walk(p, &row.value, &mut r);
        }
    }
    r
}

/// For each clause, the clauses its rules read: those declaring the facts, decisions and
/// definitions they use, those whose rules decide the definitions they call (through every
/// definition called in turn), and those holding the rules they are exceptions to or that are
/// exceptions to them.
fn clause_reads(p: &Program) -> Vec<BTreeSet<ClauseId>> {
    let defs: Vec<Reads> = (0..p.defs.len()).map(|d| def_reads(p, d as DefId)).collect();
    let mut direct: Vec<Reads> = (0..p.clauses.len()).map(|_| Reads::default()).collect();
    for rule in &p.rules {
        let Some(c) = rule.clause else { continue };
        let r = &mut direct[c as usize];
        r.clauses.extend(p.defs[rule.def as usize].clause);
        for &other in rule.overrides.iter().chain(&rule.exceptions) {
            r.clauses.extend(p.rules[other as usize].clause);
        }
        walk(p, &rule.value, r);
        if let Some(g) = &rule.guard {
            walk(p, g, r);
        }
    }
    for (d, def) in p.defs.iter().enumerate() {
        if let (Some(c), Some(_)) = (def.clause, &def.table) {
            let r = &mut direct[c as usize];
            r.defs.push(d as DefId);
        }
    }
    direct
        .into_iter()
        .map(|r| {
            let mut out: BTreeSet<ClauseId> = r.clauses.into_iter().collect();
            let mut seen: HashSet<DefId> = HashSet::new();
            let mut todo = r.defs;
            while let Some(d) = todo.pop() {
                if !seen.insert(d) {
                    continue;
                }
                let Some(dr) = defs.get(d as usize) else { continue };
                out.extend(dr.clauses.iter().copied());
                todo.extend(dr.defs.iter().copied());
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Finder, within};

    fn find(citations: &[&'static str], text: &str) -> Vec<&'static str> {
        Finder::new(citations.iter().copied()).find(text)
    }

    #[test]
    fn finds_the_longest_citation_standing_alone() {
        let c = ["§ 301", "§ 301B", "§ 301B1", "§ 30"];
        assert_eq!(find(&c, "jf. § 301B1, men se § 301B og § 301."), vec!["§ 301B1", "§ 301B", "§ 301"]);
        assert_eq!(find(&c, "§ 301B12 and §§ 301-365"), Vec::<&str>::new());
        assert_eq!(find(&c, "x§ 301B"), Vec::<&str>::new());
        assert_eq!(find(&["Part 1", "Part 12"], "Part 12 then Part 1."), vec!["Part 12", "Part 1"]);
    }

    #[test]
    fn bare_headings_count_only_quoted() {
        let c = ["Membership Requirements", "Membership Requirements 6", "Fees"];
        assert_eq!(find(&c, "see Membership Requirements below"), Vec::<&str>::new());
        assert_eq!(find(&c, "see \"Membership Requirements\" below"), vec!["Membership Requirements"]);
        assert_eq!(find(&c, "per Membership Requirements 6."), vec!["Membership Requirements 6"]);
        assert_eq!(find(&c, "se «Fees» og „Fees“"), vec!["Fees"]);
    }

    #[test]
    fn any_script() {
        assert_eq!(find(&["第3条", "第3条2"], "詳細は「第3条2」を参照"), vec!["第3条2"]);
        assert_eq!(find(&["Статья 5"], "см. Статья 5."), vec!["Статья 5"]);
        assert_eq!(find(&["Άρθρο 2α"], "βλ. Άρθρο 2α και Άρθρο 2β"), vec!["Άρθρο 2α"]);
    }

    #[test]
    fn quote_marks_are_not_numbering() {
        for q in ['"', '“', '«', '„'] {
            assert!(super::is_quote(q));
            assert!(!super::is_numbering(q) || !q.is_ascii());
        }
        assert!(super::is_numbering('§') && super::is_numbering('¶') && super::is_numbering('7'));
        assert!(!super::is_numbering('a') && !super::is_numbering(' '));
    }

    #[test]
    fn parts_of_a_clause() {
        assert!(within("§ 301B1", "§ 301B"));
        assert!(within("§ 301B", "§ 301B"));
        assert!(within("Stage 1 E3", "Stage 1"));
        assert!(!within("Part 12", "Part 1"));
        assert!(!within("§ 301C", "§ 301B"));
    }
}
