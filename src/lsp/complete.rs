//! Completion, read from the text before the cursor (which may not parse while it is being
//! typed) and the last analysis in which every file parsed: record fields after `.`,
//! citations inside `cites "…"`, rule labels after `overrides`, the two forms of a
//! tie-break after `among tied`, else the names in scope, the builtins and the keywords.

use super::convert::LineIndex;
use super::workspace::Loaded;
use crate::analysis::{Target, describe};
use crate::check::program::{Builtin, Symbol, TypeKind};
use crate::check::types::Type;
use lsp_types as lt;
use std::path::Path;

const KEYWORDS: &[&str] = &[
    "rulebook",
    "clause",
    "heading",
    "text",
    "excerpt",
    "paraphrase",
    "gloss",
    "informational",
    "cites",
    "type",
    "enum",
    "record",
    "fact",
    "decision",
    "lot",
    "by",
    "external",
    "ruling",
    "def",
    "says",
    "rule",
    "when",
    "overrides",
    "table",
    "pick",
    "unique",
    "first",
    "collect",
    "list",
    "of",
    "per",
    "let",
    "in",
    "if",
    "then",
    "else",
    "and",
    "or",
    "not",
    "true",
    "false",
];

const BASE_TYPES: &[&str] = &["bool", "int", "number", "text", "date", "time", "datetime", "duration"];

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the word being typed starts.
fn word_start(text: &str, offset: usize) -> usize {
    text[..offset].char_indices().rev().take_while(|(_, c)| is_name_char(*c)).last().map_or(offset, |(i, _)| i)
}

/// The names joined by `.` that end just before `end` (`player.team` in `player.team.`).
fn chain_before(text: &str, end: usize) -> Vec<String> {
    let mut names = Vec::new();
    let mut at = end;
    loop {
        let start = word_start(text, at);
        if start == at {
            break;
        }
        names.push(text[start..at].to_string());
        if start == 0 || !text[..start].ends_with('.') {
            break;
        }
        at = start - 1;
    }
    names.reverse();
    names
}

fn item(label: &str, kind: lt::CompletionItemKind, detail: Option<String>, doc: Option<String>) -> lt::CompletionItem {
    lt::CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        documentation: doc
            .map(|value| lt::Documentation::MarkupContent(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value })),
        ..Default::default()
    }
}

pub fn complete(loaded: &Loaded, path: &Path, text: &str, offset: usize) -> Vec<lt::CompletionItem> {
    let offset = offset.min(text.len());
    let start = word_start(text, offset);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..offset];
    if line.matches('"').count() % 2 == 1 {
        return citations(loaded, text, line_start, offset);
    }
    if text[..start].ends_with('.') {
        let chain = chain_before(text, start - 1);
        return fields(loaded, path, &chain, offset);
    }
    let before = text[..start].trim_end();
    if before.ends_with("overrides") || (before.ends_with(',') && statement(text, start).starts_with("rule ")) {
        let p = &loaded.analysis.checked.program;
        return p.rules.iter().map(|r| item(&r.label, lt::CompletionItemKind::EVENT, None, None)).collect();
    }
    if let Some(items) = after_among(before) {
        return items;
    }
    names(loaded, path, offset)
}

/// After `among tied` of an ordering, the two forms of a tie-break: `by` (each smaller tied
/// group ranked again from the first key) and `in turn by` (the keys applied in turn); after
/// `among tied in`, `turn by`.
fn after_among(before: &str) -> Option<Vec<lt::CompletionItem>> {
    let mut words = before.rsplit(char::is_whitespace).filter(|w| !w.is_empty());
    let (last, prev, third) = (words.next()?, words.next()?, words.next());
    let is_name = |w: &str| w.chars().all(is_name_char) && w.chars().next().is_some_and(|c| !c.is_ascii_digit());
    let kw = |label: &str, detail: &str| item(label, lt::CompletionItemKind::KEYWORD, Some(detail.into()), None);
    let again = "the tie-break keys; a smaller group still tied is ranked again from the first";
    let in_turn = "the tie-break keys in turn; a smaller group still tied goes on with the next";
    if prev == "among" && is_name(last) {
        Some(vec![kw("by", again), kw("in turn by", in_turn)])
    } else if last == "in" && is_name(prev) && third == Some("among") {
        Some(vec![kw("turn by", in_turn)])
    } else {
        None
    }
}

/// The text of the statement the cursor is in: from the last line that starts a declaration.
fn statement(text: &str, offset: usize) -> &str {
    let starts = ["rule ", "def ", "ruling ", "table ", "fact ", "type ", "clause ", "cites ", "decision ", "lot "];
    let mut at = offset;
    loop {
        let ls = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let l = text[ls..].trim_start();
        if starts.iter().any(|s| l.starts_with(s)) || ls == 0 {
            return l;
        }
        at = ls - 1;
    }
}

/// Clauses and external references, inside the quotes of a `cites` entry.
fn citations(loaded: &Loaded, text: &str, line_start: usize, offset: usize) -> Vec<lt::CompletionItem> {
    let quote = line_start + text[line_start..offset].rfind('"').unwrap_or(0);
    if !statement(text, quote).starts_with("cites ") {
        return Vec::new();
    }
    let a = &loaded.analysis;
    let p = &a.checked.program;
    let ix = LineIndex::new(text);
    let range = ix.range(quote + 1, offset);
    let with_edit = |mut it: lt::CompletionItem| {
        it.text_edit = Some(lt::CompletionTextEdit::Edit(lt::TextEdit { range, new_text: it.label.clone() }));
        it.filter_text = Some(it.label.clone());
        it
    };
    let clauses = p.clauses.iter().enumerate().map(|(i, c)| {
        let doc = describe::describe(a, Target::Clause(i as u32));
        with_edit(item(&c.citation, lt::CompletionItemKind::REFERENCE, c.heading.clone(), doc))
    });
    let externals = p.externals.iter().map(|e| {
        with_edit(item(&e.citation, lt::CompletionItemKind::REFERENCE, e.title.clone(), Some("external".into())))
    });
    clauses.chain(externals).collect()
}

/// The type of a local variable named `name` bound before `offset` in the file.
fn local_type<'a>(loaded: &'a Loaded, path: &Path, name: &str, offset: usize) -> Option<&'a Type> {
    let file = loaded.file_id(path)?;
    let ix = &loaded.analysis.index;
    ix.local_names
        .iter()
        .filter(|((f, start), n)| *f == file && (*start as usize) < offset && n.as_str() == name)
        .max_by_key(|((_, start), _)| *start)
        .and_then(|(k, _)| ix.local_types.get(k))
}

/// The fields of the record the names before the `.` stand for.
fn fields(loaded: &Loaded, path: &Path, chain: &[String], offset: usize) -> Vec<lt::CompletionItem> {
    let p = &loaded.analysis.checked.program;
    let Some(head) = chain.first() else { return Vec::new() };
    let mut ty = match local_type(loaded, path, head, offset) {
        Some(t) => t.clone(),
        None => match p.symbols.get(head.as_str()) {
            Some(Symbol::Fact(f)) => p.facts[*f as usize].ty.clone(),
            Some(Symbol::Decision(d)) => p.decisions[*d as usize].ty.clone(),
            Some(Symbol::Def(d)) => p.defs[*d as usize].ty.clone(),
            _ => return Vec::new(),
        },
    };
    for name in &chain[1..] {
        let Type::Record(t) = ty else { return Vec::new() };
        let TypeKind::Record(fs) = &p.types[t as usize].kind else { return Vec::new() };
        let Some(f) = fs.iter().find(|f| &f.name == name) else { return Vec::new() };
        ty = f.ty.clone();
    }
    let Type::Record(t) = ty else { return Vec::new() };
    let TypeKind::Record(fs) = &p.types[t as usize].kind else { return Vec::new() };
    fs.iter()
        .enumerate()
        .map(|(i, f)| {
            let doc = describe::describe(&loaded.analysis, Target::Field(t, i as u32));
            item(&f.name, lt::CompletionItemKind::FIELD, Some(p.describe(&f.ty)), doc)
        })
        .collect()
}

/// Names in scope: the locals of the declaration around the cursor, the rulebook's names,
/// the builtins, the base types and the keywords.
fn names(loaded: &Loaded, path: &Path, offset: usize) -> Vec<lt::CompletionItem> {
    use lt::CompletionItemKind as K;
    let a = &loaded.analysis;
    let p = &a.checked.program;
    let mut out = Vec::new();
    if let Some(file) = loaded.file_id(path) {
        let around = a
            .checked
            .files
            .iter()
            .flat_map(|f| &f.items)
            .flat_map(|i| match i {
                crate::syntax::ast::Item::Clause(c) => c.decls().map(|d| d.span()).collect::<Vec<_>>(),
                crate::syntax::ast::Item::Decl(d) => vec![d.span()],
                _ => vec![],
            })
            .find(|s| s.file == file && (s.start as usize) <= offset && offset <= s.end as usize);
        if let Some(decl) = around {
            for ((f, start), name) in &a.index.local_names {
                if *f == file && decl.start <= *start && *start <= decl.end {
                    let ty = a.index.local_types.get(&(*f, *start)).map(|t| p.describe(t));
                    out.push(item(name, K::VARIABLE, ty, None));
                }
            }
        }
    }
    for (name, sym) in &p.symbols {
        let (kind, target) = match *sym {
            Symbol::Fact(f) => (K::FIELD, Target::Fact(f)),
            Symbol::Decision(d) => (K::EVENT, Target::Decision(d)),
            Symbol::Def(d) => (K::FUNCTION, Target::Def(d)),
            Symbol::Type(t) => (K::CLASS, Target::Type(t)),
            Symbol::Variant(t, v) => (K::ENUM_MEMBER, Target::Variant(t, v)),
        };
        out.push(item(name, kind, None, describe::describe(a, target)));
    }
    out.extend(Builtin::ALL.iter().map(|b| item(b.name(), K::FUNCTION, Some("builtin".into()), None)));
    out.extend(BASE_TYPES.iter().map(|t| item(t, K::CLASS, Some("type".into()), None)));
    out.extend(KEYWORDS.iter().map(|k| item(k, K::KEYWORD, None, None)));
    out
}
