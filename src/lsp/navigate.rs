//! Hover, go to definition, find references, the outline of a file and the symbols of
//! the workspace, read from the name index.

use super::convert::LineIndex;
use super::place::Place;
use super::server::location;
use super::workspace::Loaded;
use crate::analysis::{Target, describe};
use crate::syntax::ast::{self, Decl, Item, Span};
use lsp_types as lt;
use std::sync::Arc;

pub fn hover(at: &Place) -> Option<lt::Hover> {
    let a = &at.loaded.analysis;
    let occ = a.at(at.file, at.offset)?;
    let text = describe::describe(a, occ.target)?;
    Some(lt::Hover {
        contents: lt::HoverContents::Markup(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value: text }),
        range: at.range(occ.span),
    })
}

pub fn definition(at: &Place) -> Option<lt::GotoDefinitionResponse> {
    let a = &at.loaded.analysis;
    let occ = a.at(at.file, at.offset)?;
    let span = a.definition(occ.target)?;
    Some(lt::GotoDefinitionResponse::Scalar(at.location(span)?))
}

pub fn references(at: &Place, include_declaration: bool) -> Option<Vec<lt::Location>> {
    let a = &at.loaded.analysis;
    let occ = a.at(at.file, at.offset)?;
    Some(
        a.index
            .references(occ.target)
            .filter(|o| include_declaration || !o.is_decl)
            .filter_map(|o| at.location(o.span))
            .collect(),
    )
}

#[allow(deprecated)]
fn symbol(
    ix: &LineIndex,
    name: String,
    detail: Option<String>,
    kind: lt::SymbolKind,
    whole: Span,
    name_span: Span,
    children: Vec<lt::DocumentSymbol>,
) -> lt::DocumentSymbol {
    let range = ix.range(whole.start as usize, whole.end as usize);
    let mut selection = ix.range(name_span.start as usize, name_span.end as usize);
    if selection.start < range.start || selection.end > range.end {
        selection = range;
    }
    lt::DocumentSymbol {
        name: if name.is_empty() { "?".into() } else { name },
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: if children.is_empty() { None } else { Some(children) },
    }
}

fn decl_symbol(ix: &LineIndex, d: &Decl) -> Option<lt::DocumentSymbol> {
    use lt::SymbolKind as K;
    Some(match d {
        Decl::Type(t) => {
            let (kind, children) = match &t.body {
                ast::TypeBody::Enum(vs) => (
                    K::ENUM,
                    vs.iter()
                        .map(|v| {
                            let label = v.label.as_ref().map(|l| l.value.clone());
                            symbol(ix, v.name.name.clone(), label, K::ENUM_MEMBER, v.name.span, v.name.span, vec![])
                        })
                        .collect(),
                ),
                ast::TypeBody::Record(fs) => (
                    K::STRUCT,
                    fs.iter()
                        .map(|f| {
                            let doc = f.doc.as_ref().map(|l| l.value.clone());
                            let whole = f.name.span.to(f.ty.span());
                            symbol(ix, f.name.name.clone(), doc, K::FIELD, whole, f.name.span, vec![])
                        })
                        .collect(),
                ),
            };
            symbol(ix, t.name.name.clone(), None, kind, t.span, t.name.span, children)
        }
        Decl::Fact(f) => {
            let doc = f.doc.as_ref().map(|s| s.value.clone());
            symbol(ix, f.name.name.clone(), doc, K::VARIABLE, f.span, f.name.span, vec![])
        }
        Decl::Decision(x) => {
            let doc = Some(format!("by {}", x.by.value));
            symbol(ix, x.name.name.clone(), doc, K::EVENT, x.span, x.name.span, vec![])
        }
        Decl::External(e) => {
            let title = e.title.as_ref().map(|s| s.value.clone());
            symbol(ix, e.citation.value.clone(), title, K::KEY, e.span, e.citation.span, vec![])
        }
        Decl::Def(x) => {
            let kind = if x.kind == ast::DefKind::Ruling { K::FUNCTION } else { K::CONSTANT };
            let doc = x.doc.as_ref().map(|s| s.value.clone());
            symbol(ix, x.name.name.clone(), doc, kind, x.span, x.name.span, vec![])
        }
        Decl::Table(t) => {
            let doc = t.doc.as_ref().map(|s| s.value.clone());
            symbol(ix, t.name.name.clone(), doc, K::ARRAY, t.span, t.name.span, vec![])
        }
        Decl::Rule(r) => {
            let detail = Some(format!("rule for {}", r.target.name));
            symbol(ix, r.label.name.clone(), detail, K::METHOD, r.span, r.label.span, vec![])
        }
        Decl::Gloss(_) => return None,
    })
}

/// The outline of a file: its clauses (by citation, with their headings) and declarations.
pub fn document_symbols(loaded: &Loaded, file: u32) -> Vec<lt::DocumentSymbol> {
    let ix = LineIndex::new(loaded.text(file));
    let Some(ast) =
        loaded.analysis.checked.files.iter().find(|f| f.items.first().is_some_and(|i| i.span().file == file))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in &ast.items {
        match item {
            Item::Rulebook(r) => out.push(symbol(
                &ix,
                r.name.value.clone(),
                Some("rulebook".into()),
                lt::SymbolKind::PACKAGE,
                r.span,
                r.name.span,
                vec![],
            )),
            Item::Clause(c) => {
                let children = c.decls().filter_map(|d| decl_symbol(&ix, d)).collect();
                let mut detail: Vec<String> = c.heading().map(|h| h.value.clone()).into_iter().collect();
                let cites: Vec<&str> = c.cites().map(|s| s.value.as_str()).collect();
                if !cites.is_empty() {
                    detail.push(format!("cites {}", cites.join(", ")));
                }
                let detail = if detail.is_empty() { None } else { Some(detail.join(" · ")) };
                let kind = lt::SymbolKind::MODULE;
                out.push(symbol(&ix, c.citation.value.clone(), detail, kind, c.span, c.citation.span, children));
            }
            Item::Decl(d) => out.extend(decl_symbol(&ix, d)),
        }
    }
    out
}

/// Whether `name` holds the letters of `query` in order, ignoring case.
fn matches(name: &str, query: &str) -> bool {
    let mut chars = name.chars().flat_map(char::to_lowercase);
    query.chars().flat_map(char::to_lowercase).all(|q| chars.any(|c| c == q))
}

/// Clauses, facts, decisions, definitions, rulings, types and rules of every rulebook known.
#[allow(deprecated)]
pub fn workspace_symbols(books: &[Arc<Loaded>], query: &str) -> Vec<lt::SymbolInformation> {
    use lt::SymbolKind as K;
    let mut out = Vec::new();
    for loaded in books {
        let a = &loaded.analysis;
        let p = &a.checked.program;
        let book = p.rulebook.name.clone();
        let mut add = |name: &str, kind: K, target: Target| {
            if out.len() >= 500 || !matches(name, query) {
                return;
            }
            let Some(span) = a.definition(target) else { return };
            let Some(location) = location(loaded, span) else { return };
            out.push(lt::SymbolInformation {
                name: name.to_string(),
                kind,
                tags: None,
                deprecated: None,
                location,
                container_name: Some(book.clone()),
            });
        };
        for (i, c) in p.clauses.iter().enumerate() {
            add(&c.citation, K::MODULE, Target::Clause(i as u32));
        }
        for (i, f) in p.facts.iter().enumerate() {
            add(&f.name, K::VARIABLE, Target::Fact(i as u32));
        }
        for (i, d) in p.decisions.iter().enumerate() {
            add(&d.name, K::EVENT, Target::Decision(i as u32));
        }
        for (i, d) in p.defs.iter().enumerate() {
            add(&d.name, if d.is_ruling() { K::FUNCTION } else { K::CONSTANT }, Target::Def(i as u32));
        }
        for (i, t) in p.types.iter().enumerate() {
            add(&t.name, K::CLASS, Target::Type(i as u32));
        }
        for (i, r) in p.rules.iter().enumerate() {
            add(&r.label, K::METHOD, Target::Rule(i as u32));
        }
    }
    out
}
