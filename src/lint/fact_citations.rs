//! The lint `lint::fact_cites_own_clause`: a fact whose description — or the description of a
//! field of its record — cites a clause of the same rulebook. A value that a clause decides is
//! a ruling or definition of that clause, read wherever it is needed, not a fact worked out by
//! hand; a fact that is still an input says why with `// allow(fact_cites_own_clause): reason`.
//!
//! The citations are put in a trie once, and each description is read once against it: the
//! work grows with the descriptions' length, not with their length times the citations.

use crate::check::program::{Program, TypeKind};
use crate::check::types::Type;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Span;
use std::collections::HashSet;

const CODE: &str = "lint::fact_cites_own_clause";

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen_types: HashSet<u32> = HashSet::new();
    let cites = Citations::new(p.citations.keys().map(String::as_str).filter(|c| c.chars().any(is_numbering)));
    for f in &p.facts {
        if let Some(c) = f.doc.as_deref().and_then(|d| cites.longest_in(d)) {
            out.push(finding(format!("the description of the fact `{}` cites `{c}`", f.name), f.span));
        }
        for t in records_in(p, &f.ty) {
            if !seen_types.insert(t) {
                continue;
            }
            let info = &p.types[t as usize];
            let TypeKind::Record(fields) = &info.kind else { continue };
            for field in fields {
                if let Some(c) = field.doc.as_deref().and_then(|d| cites.longest_in(d)) {
                    out.push(finding(
                        format!("the description of `{}` in the record `{}` cites `{c}`", field.name, info.name),
                        info.span,
                    ));
                }
            }
        }
    }
    out
}

fn finding(message: String, span: Span) -> Diagnostic {
    Diagnostic::warning(CODE, format!("{message}, a clause of this rulebook")).at(span, "declared here").help(
        "if that clause decides the value, give the ruling or definition there and read it instead of the fact; \
             if the value is still an input, say why: `// allow(fact_cites_own_clause): <reason>`",
    )
}

/// The record types a fact of type `ty` holds, itself or in lists and fields, without repeats.
fn records_in(p: &Program, ty: &Type) -> Vec<u32> {
    let mut out = Vec::new();
    let mut todo = vec![ty.clone()];
    while let Some(t) = todo.pop() {
        match t {
            Type::List(inner) => todo.push(*inner),
            Type::Record(id) if !out.contains(&id) => {
                out.push(id);
                if let Some(TypeKind::Record(fields)) = p.types.get(id as usize).map(|i| &i.kind) {
                    todo.extend(fields.iter().map(|f| f.ty.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

/// A number, or a sign such as a paragraph or section mark: neither a letter, a space nor
/// ordinary punctuation.
fn is_numbering(ch: char) -> bool {
    ch.is_numeric() || !(ch.is_alphabetic() || ch.is_whitespace() || ch.is_ascii_punctuation())
}

/// The numbered citations of a rulebook (those with a number or a numbering sign: a bare
/// heading is as often the name of the thing as a citation of its clause), as a trie of their
/// bytes.
struct Citations<'p> {
    /// Each node's children, by byte, sorted.
    children: Vec<Vec<(u8, usize)>>,
    /// The citation that ends at each node, with its place among the citations.
    ends: Vec<Option<(usize, &'p str)>>,
}

impl<'p> Citations<'p> {
    fn new(citations: impl Iterator<Item = &'p str>) -> Self {
        let mut t = Citations { children: vec![Vec::new()], ends: vec![None] };
        for (order, c) in citations.enumerate() {
            let mut node = 0;
            for &b in c.as_bytes() {
                node = match t.children[node].binary_search_by_key(&b, |&(k, _)| k) {
                    Ok(i) => t.children[node][i].1,
                    Err(i) => {
                        let next = t.children.len();
                        t.children.push(Vec::new());
                        t.ends.push(None);
                        t.children[node].insert(i, (b, next));
                        next
                    }
                };
            }
            if node != 0 && t.ends[node].is_none() {
                t.ends[node] = Some((order, c));
            }
        }
        t
    }

    /// The longest citation that `doc` contains as a whole phrase (no letter or digit joined
    /// to either end); of two as long, the one the rulebook declares first.
    fn longest_in(&self, doc: &str) -> Option<&'p str> {
        let bytes = doc.as_bytes();
        let mut best: Option<(usize, &'p str)> = None;
        let mut before: Option<char> = None;
        for (start, ch) in doc.char_indices() {
            if !before.is_some_and(char::is_alphanumeric) {
                let mut node = 0;
                for (i, b) in bytes[start..].iter().enumerate() {
                    let Ok(k) = self.children[node].binary_search_by_key(b, |&(k, _)| k) else { break };
                    node = self.children[node][k].1;
                    let Some((order, c)) = self.ends[node] else { continue };
                    let after = doc[start + i + 1..].chars().next();
                    let better = best.is_none_or(|(o, b)| c.len() > b.len() || (c.len() == b.len() && order < o));
                    if !after.is_some_and(char::is_alphanumeric) && better {
                        best = Some((order, c));
                    }
                }
            }
            before = Some(ch);
        }
        best.map(|(_, c)| c)
    }
}

#[cfg(test)]
/// Whether `phrase` occurs in `text` with no letter or digit joined to either end.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    // Every place the phrase starts, overlapping ones too: in `1§§§`, `§§` joined to the digit
    // at the first place still stands alone at the second.
    text.char_indices().map(|(i, _)| i).filter(|&i| text[i..].starts_with(phrase)).any(|i| {
        let before = text[..i].chars().next_back();
        let after = text[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::{Citations, contains_phrase};
    use proptest::prelude::*;

    /// The longest citation by the plain definition: every citation looked for in the text.
    fn longest_plainly<'a>(cites: &[&'a str], doc: &str) -> Option<&'a str> {
        let mut best: Option<&str> = None;
        for c in cites {
            if contains_phrase(doc, c) && best.is_none_or(|b| c.len() > b.len()) {
                best = Some(c);
            }
        }
        best
    }

    #[test]
    fn the_trie_finds_the_longest_whole_citation() {
        let cites = ["§ 304", "§ 304B", "§ 304B1", "Part Two 2", "¶ 7"];
        let t = Citations::new(cites.iter().copied());
        assert_eq!(t.longest_in("under § 304B1, read"), Some("§ 304B1"));
        assert_eq!(t.longest_in("under § 304B12"), None, "§ 304B12 cites none of them");
        assert_eq!(t.longest_in("§ 304B, § 304B1 and § 304"), Some("§ 304B1"));
        assert_eq!(t.longest_in("see ¶ 7 and Part Two 2"), Some("Part Two 2"));
        assert_eq!(t.longest_in("x§ 304"), None, "joined to a letter");
        assert_eq!(t.longest_in("nothing here"), None);
        assert_eq!(t.longest_in(""), None);
        assert_eq!(Citations::new(["§§"].into_iter()).longest_in("1§§§ "), Some("§§"));
    }

    proptest! {
        #[test]
        fn the_trie_agrees_with_the_plain_search(
            cites in proptest::collection::vec("[§¶ a1-3B]{1,5}", 0..8),
            doc in "[§¶ a1-3Bé.]{0,40}",
        ) {
            let cites: Vec<&str> = cites.iter().map(String::as_str).collect();
            let t = Citations::new(cites.iter().copied());
            prop_assert_eq!(t.longest_in(&doc), longest_plainly(&cites, &doc));
        }
    }

    #[test]
    fn phrases_stand_alone() {
        assert!(contains_phrase("read at the cut-off (Part Two 2)", "Part Two 2"));
        assert!(contains_phrase("the value under ¶ 7B1", "¶ 7B1"));
        assert!(!contains_phrase("the value under ¶ 7B12", "¶ 7B1"));
        assert!(!contains_phrase("Part 12", "Part 1"));
        assert!(!contains_phrase("anything", ""));
        assert!(contains_phrase("1§§§ ", "§§"), "the second, overlapping place stands alone");
    }
}
