//! The lint `lint::fact_cites_own_clause`: a fact whose description — or the description of a
//! field of its record — cites a clause of the same rulebook. A value that a clause decides is
//! a ruling or definition of that clause, read wherever it is needed, not a fact worked out by
//! hand; a fact that is still an input says why with `// allow(fact_cites_own_clause): reason`.

use crate::check::program::{Program, TypeKind};
use crate::check::types::Type;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Span;

const CODE: &str = "lint::fact_cites_own_clause";

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen_types: Vec<u32> = Vec::new();
    for f in &p.facts {
        if let Some(c) = f.doc.as_deref().and_then(|d| cited_clause(p, d)) {
            out.push(finding(format!("the description of the fact `{}` cites `{c}`", f.name), f.span));
        }
        for t in records_in(p, &f.ty) {
            if seen_types.contains(&t) {
                continue;
            }
            seen_types.push(t);
            let info = &p.types[t as usize];
            let TypeKind::Record(fields) = &info.kind else { continue };
            for field in fields {
                if let Some(c) = field.doc.as_deref().and_then(|d| cited_clause(p, d)) {
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

/// The longest citation of a clause of `p` that `doc` contains as a whole phrase. Only numbered
/// citations count (those with a number or a numbering sign): a bare heading is
/// as often the name of the thing as a citation of its clause.
fn cited_clause<'p>(p: &'p Program, doc: &str) -> Option<&'p str> {
    let mut best: Option<&str> = None;
    for c in p.citations.keys() {
        if c.chars().any(is_numbering) && contains_phrase(doc, c) && best.is_none_or(|b| c.len() > b.len()) {
            best = Some(c.as_str());
        }
    }
    best
}

/// Whether `phrase` occurs in `text` with no letter or digit joined to either end.
fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    text.match_indices(phrase).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::contains_phrase;

    #[test]
    fn phrases_stand_alone() {
        assert!(contains_phrase("read at the cut-off (Part Two 2)", "Part Two 2"));
        assert!(contains_phrase("the value under ¶ 7B1", "¶ 7B1"));
        assert!(!contains_phrase("the value under ¶ 7B12", "¶ 7B1"));
        assert!(!contains_phrase("Part 12", "Part 1"));
        assert!(!contains_phrase("anything", ""));
    }
}
