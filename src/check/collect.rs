//! First pass of checking: the rulebook header, clauses and citations, and every
//! declared name (types, variants, facts, decisions, externals, definitions),
//! with duplicates reported. Types are resolved here too.

use super::program::*;
use super::types::{Type, Unit, is_currency, unit_word};
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::ast::{self, Clause, ClausePart, Decl, Item, Span, TypeBody, TypeExpr};

/// A declaration and the clause it stands in.
pub struct Located<'a> {
    pub decl: &'a Decl,
    pub clause: Option<ClauseId>,
}

pub struct Collected<'a> {
    pub program: Program,
    pub decls: Vec<Located<'a>>,
    /// For each def (by id), its declaration when it came from `def`/`ruling`.
    pub def_decls: Vec<DefSource<'a>>,
}

pub enum DefSource<'a> {
    Def(&'a ast::DefDecl),
    Table(&'a ast::TableDecl),
}

const SETTINGS: &[&str] = &["title", "edition", "language", "source"];

pub fn collect<'a>(files: &'a [ast::File], diags: &mut Vec<Diagnostic>) -> Collected<'a> {
    let mut program = Program::default();
    let mut decls = Vec::new();
    let mut header: Option<&ast::RulebookDecl> = None;
    for file in files {
        for item in &file.items {
            match item {
                Item::Rulebook(r) => {
                    if let Some(first) = header {
                        diags.push(
                            Diagnostic::error("conditions::duplicate_rulebook", "a rulebook has one `rulebook` header")
                                .at(r.span, "second header")
                                .at(first.span, "first header")
                                .help("keep one `rulebook` block, in `rulebook.cond`"),
                        );
                    } else {
                        header = Some(r);
                    }
                }
                Item::Clause(c) => {
                    let id = add_clause(&mut program, c, diags);
                    decls.extend(c.decls().map(|d| Located { decl: d, clause: id }));
                }
                Item::Decl(d) => decls.push(Located { decl: d, clause: None }),
            }
        }
    }
    match header {
        Some(h) => program.rulebook = rulebook_info(h, diags),
        None => {
            let span = files
                .iter()
                .flat_map(|f| f.items.first())
                .map(|i| match i {
                    Item::Clause(c) => c.span,
                    Item::Decl(d) => d.span(),
                    Item::Rulebook(r) => r.span,
                })
                .next();
            let d = Diagnostic::error("conditions::no_rulebook", "no `rulebook` header in this rulebook")
                .help("add a file `rulebook.cond` with `rulebook \"name\" { title \"…\" language \"en\" }`");
            diags.push(match span {
                Some(s) => d.at(Span { end: s.start, ..s }, "the rulebook starts here"),
                None => d,
            });
        }
    }
    let def_decls = register_names(&mut program, &decls, diags);
    resolve_types(&mut program, &decls, diags);
    Collected { program, decls, def_decls }
}

fn rulebook_info(h: &ast::RulebookDecl, diags: &mut Vec<Diagnostic>) -> RulebookInfo {
    let mut info = RulebookInfo { name: h.name.value.clone(), span: h.span, ..Default::default() };
    for (k, v) in &h.settings {
        match k.name.as_str() {
            "title" => info.title = v.value.clone(),
            "edition" => info.edition = Some(v.value.clone()),
            "language" => info.language = v.value.clone(),
            "source" => info.source = Some(v.value.clone()),
            other => diags.push(
                Diagnostic::error("conditions::unknown_setting", format!("unknown rulebook setting `{other}`"))
                    .at(k.span, "not a setting")
                    .help(format!(
                        "{}the settings are {}",
                        did_you_mean(other, SETTINGS.iter().copied()).map(|h| format!("{h} ")).unwrap_or_default(),
                        SETTINGS.join(", ")
                    )),
            ),
        }
    }
    let span = h.settings.iter().find(|(k, _)| k.name == "language").map_or(h.name.span, |(_, v)| v.span);
    match crate::base::lang::Lang::tag(&info.language) {
        Ok(l) => {
            info.language = l.code().to_string();
            // A language without message files is explained in English words.
            for w in crate::base::messages::warnings(l).into_iter().take(1) {
                diags.push(
                    Diagnostic::warning("conditions::language_without_frame", w)
                        .at(span, "language of the clause texts")
                        .help(format!(
                            "add the message files of `{}` under `messages/` (copies of the `en` ones, translated)",
                            l.code()
                        )),
                );
            }
        }
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "conditions::bad_language",
                    format!("the rulebook's language is not a language tag: {e}"),
                )
                .at(span, "language of the clause texts")
                .help(crate::base::lang::TAG_HELP),
            );
            info.language = "en".into();
        }
    }
    if info.title.is_empty() {
        info.title = info.name.clone();
    }
    info
}

fn add_clause(program: &mut Program, c: &Clause, diags: &mut Vec<Diagnostic>) -> Option<ClauseId> {
    let citation = c.citation.value.clone();
    if citation.trim().is_empty() {
        diags.push(
            Diagnostic::error("conditions::empty_citation", "a clause needs a citation")
                .at(c.citation.span, "empty citation")
                .help("write the document's own citation, e.g. `clause \"§ 12B1\"` or `clause \"Stage 1 I\"`"),
        );
    }
    if let Some(&prev) = program.citations.get(&citation) {
        let first = program.clauses[prev as usize].citation_span;
        diags.push(
            Diagnostic::error("conditions::duplicate_citation", format!("clause `{citation}` is defined twice"))
                .at(c.citation.span, "second definition")
                .at(first, "first definition")
                .help("each citation names exactly one clause; merge the two or correct the citation"),
        );
        return Some(prev);
    }
    let texts: Vec<(&str, &ast::Str, TextKind)> = c
        .parts
        .iter()
        .filter_map(|p| match p {
            ClausePart::Text(s) => Some(("text", s, TextKind::Printed)),
            ClausePart::Excerpt(s) => Some(("excerpt", s, TextKind::Excerpt)),
            ClausePart::Paraphrase(s) => Some(("paraphrase", s, TextKind::Paraphrase)),
            _ => None,
        })
        .collect();
    if c.heading().is_none() && texts.is_empty() {
        diags.push(
            Diagnostic::error("conditions::empty_clause", format!("clause `{citation}` has neither heading nor text"))
                .at(c.citation.span, "no `heading` or `text`")
                .help("quote the clause as printed: `text \"\"\"…\"\"\"`"),
        );
    }
    if let [(first, a, _), (second, b, _), ..] = texts.as_slice() {
        diags.push(
            Diagnostic::error(
                "conditions::two_texts",
                format!("clause `{citation}` has two texts: `{first}` and `{second}`"),
            )
            .at(b.span, format!("second `{second}`"))
            .at(a.span, format!("first `{first}`"))
            .help("a clause has one text: `text` as printed, an `excerpt` of it, or a `paraphrase`"),
        );
    }
    if let Some((_, s, TextKind::Excerpt)) = texts.first()
        && TextKind::fragments(&s.value).iter().any(|f| f.is_empty())
    {
        diags.push(
            Diagnostic::error(
                "conditions::empty_fragment",
                format!("the excerpt of `{citation}` has an empty fragment"),
            )
            .at(s.span, "“…” at an end, or two in a row")
            .help("write the printed fragments joined by “…”, each as printed: `excerpt \"First part … later part\"`"),
        );
    }
    let id = program.clauses.len() as ClauseId;
    program.clauses.push(ClauseInfo {
        citation: citation.clone(),
        heading: c.heading().map(|s| s.value.clone()),
        text: texts.first().map(|(_, s, _)| s.value.clone()),
        text_kind: texts.first().map_or(TextKind::Printed, |(_, _, k)| *k),
        gloss: c.gloss().map(|s| s.value.clone()),
        informational: c.informational().map(|s| s.value.clone()),
        cites: c.cites().map(|s| s.value.clone()).collect(),
        span: c.span,
        citation_span: c.citation.span,
    });
    program.citations.insert(citation, id);
    Some(id)
}

/// Notes `renamed from OLD` on the declaration of `name` (of the record `record`, for a field).
fn note_rename(program: &mut Program, from: &Option<ast::Ident>, name: &ast::Ident, record: Option<TypeId>) {
    if let Some(old) = from {
        program.renames.push(Rename { old: old.name.clone(), new: name.name.clone(), record });
    }
}

fn declare(program: &mut Program, name: &ast::Ident, sym: Symbol, diags: &mut Vec<Diagnostic>) {
    if let Some(prev) = program.symbols.get(&name.name) {
        let prev_span = symbol_span(program, *prev);
        let mut d = Diagnostic::error("conditions::duplicate_name", format!("`{}` is declared twice", name.name))
            .at(name.span, "declared again here");
        if let Some(s) = prev_span {
            d = d.at(s, "first declared here");
        }
        diags.push(d.help("every type, variant, fact, decision and definition needs its own name"));
        return;
    }
    program.symbols.insert(name.name.clone(), sym);
}

pub fn symbol_span(program: &Program, sym: Symbol) -> Option<Span> {
    Some(match sym {
        Symbol::Type(t) => program.types.get(t as usize)?.span,
        Symbol::Variant(t, v) => match &program.types.get(t as usize)?.kind {
            TypeKind::Enum(vs) => vs.get(v as usize)?.span,
            TypeKind::Record(_) => return None,
        },
        Symbol::Fact(f) => program.facts.get(f as usize)?.span,
        Symbol::Decision(d) => program.decisions.get(d as usize)?.span,
        Symbol::Def(d) => program.defs.get(d as usize)?.span,
    })
}

fn register_names<'a>(program: &mut Program, decls: &[Located<'a>], diags: &mut Vec<Diagnostic>) -> Vec<DefSource<'a>> {
    let mut def_decls = Vec::new();
    for loc in decls {
        match loc.decl {
            Decl::Type(t) => {
                let id = program.types.len() as TypeId;
                let kind = match &t.body {
                    TypeBody::Enum(vs) => TypeKind::Enum(
                        vs.iter()
                            .map(|v| VariantInfo {
                                name: v.name.name.clone(),
                                label: v.label.as_ref().map(|l| l.value.clone()),
                                span: v.name.span,
                            })
                            .collect(),
                    ),
                    TypeBody::Record(_) => TypeKind::Record(Vec::new()),
                };
                program.types.push(TypeInfo { name: t.name.name.clone(), kind, span: t.span });
                declare(program, &t.name, Symbol::Type(id), diags);
                if let TypeBody::Enum(vs) = &t.body {
                    for (i, v) in vs.iter().enumerate() {
                        declare(program, &v.name, Symbol::Variant(id, i as u32), diags);
                    }
                }
            }
            Decl::Fact(f) => {
                let id = program.facts.len() as FactId;
                program.facts.push(FactInfo {
                    name: f.name.name.clone(),
                    ty: Type::Error,
                    bound: None,
                    doc: f.doc.as_ref().map(|d| d.value.clone()),
                    says: f.says.as_ref().map(|d| d.value.clone()),
                    clause: loc.clause,
                    span: f.name.span,
                });
                note_rename(program, &f.renamed_from, &f.name, None);
                declare(program, &f.name, Symbol::Fact(id), diags);
            }
            Decl::Decision(d) => {
                let id = program.decisions.len() as DecisionId;
                program.decisions.push(DecisionInfo {
                    kind: d.kind,
                    name: d.name.name.clone(),
                    ty: Type::Error,
                    bound: None,
                    by: d.by.value.clone(),
                    doc: d.doc.as_ref().map(|x| x.value.clone()),
                    says: d.says.as_ref().map(|x| x.value.clone()),
                    clause: loc.clause,
                    span: d.name.span,
                });
                note_rename(program, &d.renamed_from, &d.name, None);
                declare(program, &d.name, Symbol::Decision(id), diags);
            }
            Decl::External(e) => {
                if let Some(prev) = program.externals.iter().find(|x| x.citation == e.citation.value) {
                    diags.push(
                        Diagnostic::error(
                            "conditions::duplicate_external",
                            format!("external reference `{}` is declared twice", e.citation.value),
                        )
                        .at(e.citation.span, "declared again here")
                        .at(prev.span, "first declared here")
                        .help("declare each outside reference once"),
                    );
                    continue;
                }
                if program.citations.contains_key(&e.citation.value) {
                    diags.push(
                        Diagnostic::error(
                            "conditions::external_is_internal",
                            format!("`{}` is a clause of this rulebook, not an external reference", e.citation.value),
                        )
                        .at(e.citation.span, "declared external here")
                        .help("remove the `external` declaration: the clause resolves by itself"),
                    );
                    continue;
                }
                program.externals.push(ExternalInfo {
                    citation: e.citation.value.clone(),
                    title: e.title.as_ref().map(|t| t.value.clone()),
                    span: e.citation.span,
                });
            }
            Decl::Def(d) => {
                let id = program.defs.len() as DefId;
                program.defs.push(DefInfo {
                    name: d.name.name.clone(),
                    kind: d.kind,
                    params: Vec::new(),
                    param_docs: Vec::new(),
                    ty: Type::Error,
                    doc: d.doc.as_ref().map(|x| x.value.clone()),
                    says: d.says.as_ref().map(|x| x.value.clone()),
                    clause: loc.clause,
                    span: d.name.span,
                    rules: Vec::new(),
                    table: None,
                });
                note_rename(program, &d.renamed_from, &d.name, None);
                def_decls.push(DefSource::Def(d));
                declare(program, &d.name, Symbol::Def(id), diags);
            }
            Decl::Table(t) => {
                let id = program.defs.len() as DefId;
                program.defs.push(DefInfo {
                    name: t.name.name.clone(),
                    kind: ast::DefKind::Def,
                    params: Vec::new(),
                    param_docs: Vec::new(),
                    ty: Type::Error,
                    doc: t.doc.as_ref().map(|x| x.value.clone()),
                    says: None,
                    clause: loc.clause,
                    span: t.name.span,
                    rules: Vec::new(),
                    table: None,
                });
                def_decls.push(DefSource::Table(t));
                declare(program, &t.name, Symbol::Def(id), diags);
            }
            Decl::Gloss(g) => match program.glosses.get(&g.of.value) {
                Some(prev) if *prev != g.gloss.value => diags.push(
                    Diagnostic::error(
                        "conditions::duplicate_gloss",
                        format!("`{}` is glossed twice, differently", g.of.value),
                    )
                    .at(g.gloss.span, "glossed again here")
                    .help("give each text one English gloss"),
                ),
                _ => {
                    program.glosses.insert(g.of.value.clone(), g.gloss.value.clone());
                }
            },
            Decl::Rule(_) => {}
        }
    }
    def_decls
}

const BUILTIN_TYPES: &[&str] = &["bool", "int", "number", "text", "date", "time", "duration", "km", "USD", "DKK"];

/// Resolves a written type.
pub fn resolve_type(program: &Program, t: &TypeExpr, diags: &mut Vec<Diagnostic>) -> Type {
    match t {
        TypeExpr::List(inner, _) => Type::List(Box::new(resolve_type(program, inner, diags))),
        TypeExpr::Named { name, per } => {
            let base = match name.name.as_str() {
                "bool" => Type::Bool,
                "int" => Type::Int,
                "number" => Type::number(),
                "text" => Type::Text,
                "date" => Type::Date,
                "time" => Type::Time,
                "datetime" => Type::DateTime,
                "duration" => Type::duration(),
                n => match program.symbols.get(n) {
                    Some(Symbol::Type(id)) => match program.types[*id as usize].kind {
                        TypeKind::Enum(_) => Type::Enum(*id),
                        TypeKind::Record(_) => Type::Record(*id),
                    },
                    _ => match unit_word(n) {
                        Some((u, _)) => Type::Quantity(u),
                        None => {
                            let candidates: Vec<&str> = if crate::diagnostic::crowded(diags, name.span.file) {
                                Vec::new() // not shown: the file has more diagnostics than are reported
                            } else {
                                BUILTIN_TYPES
                                    .iter()
                                    .copied()
                                    .chain(program.types.iter().map(|t| t.name.as_str()))
                                    .collect()
                            };
                            diags.push(
                                Diagnostic::error("conditions::unknown_type", format!("unknown type `{n}`"))
                                    .at(name.span, "not a type")
                                    .help(did_you_mean(n, candidates.iter().copied()).unwrap_or_else(|| {
                                        "types are bool, int, number, text, date, time, duration, km, a currency code \
                                         (USD, DKK), `list of T`, or a declared `type`"
                                            .into()
                                    })),
                            );
                            return Type::Error;
                        }
                    },
                },
            };
            match per {
                None => base,
                Some(p) => {
                    let num_unit = match &base {
                        Type::Quantity(u) => u.clone(),
                        Type::Int => Unit::none(),
                        _ => {
                            diags.push(
                                Diagnostic::error("conditions::bad_unit", format!("`{}` is not a unit", name.name))
                                    .at(name.span, "only units can be divided")
                                    .help("write a rate as `DKK per km`"),
                            );
                            return Type::Error;
                        }
                    };
                    match unit_word(&p.name) {
                        Some((u, _)) => Type::Quantity(num_unit.div(&u)),
                        None => {
                            diags.push(
                                Diagnostic::error("conditions::unknown_unit", format!("unknown unit `{}`", p.name))
                                    .at(p.span, "not a unit")
                                    .help(
                                        did_you_mean(&p.name, super::types::UNIT_WORDS.iter().copied()).unwrap_or_else(
                                            || "units are km, minutes, hours, days, weeks and currency codes".into(),
                                        ),
                                    ),
                            );
                            Type::Error
                        }
                    }
                }
            }
        }
    }
}

fn resolve_types(program: &mut Program, decls: &[Located], diags: &mut Vec<Diagnostic>) {
    // Record fields (types may refer to each other in any order).
    let mut type_idx = 0usize;
    for loc in decls {
        if let Decl::Type(t) = loc.decl {
            if let TypeBody::Record(fields) = &t.body {
                let mut infos: Vec<FieldInfo> = Vec::new();
                for f in fields {
                    if infos.iter().any(|i| i.name == f.name.name) {
                        diags.push(
                            Diagnostic::error(
                                "conditions::duplicate_field",
                                format!("field `{}` is declared twice", f.name.name),
                            )
                            .at(f.name.span, "declared again")
                            .help("give each field of a record its own name"),
                        );
                        continue;
                    }
                    note_rename(program, &f.renamed_from, &f.name, Some(type_idx as TypeId));
                    infos.push(FieldInfo {
                        name: f.name.name.clone(),
                        optional: f.optional,
                        ty: resolve_type(program, &f.ty, diags),
                        doc: f.doc.as_ref().map(|d| d.value.clone()),
                        says: f.says.as_ref().map(|d| d.value.clone()),
                    });
                }
                program.types[type_idx].kind = TypeKind::Record(infos);
            }
            type_idx += 1;
        }
    }
    let (mut fact_idx, mut dec_idx, mut def_idx) = (0usize, 0usize, 0usize);
    for loc in decls {
        match loc.decl {
            Decl::Fact(f) => {
                let ty = resolve_type(program, &f.ty, diags);
                program.facts[fact_idx].bound =
                    f.bound.as_ref().map(|b| super::rules::lower_bound(program, diags, b, &ty));
                program.facts[fact_idx].ty = ty;
                fact_idx += 1;
            }
            Decl::Decision(d) => {
                let ty = resolve_type(program, &d.ty, diags);
                program.decisions[dec_idx].bound =
                    d.bound.as_ref().map(|b| super::rules::lower_bound(program, diags, b, &ty));
                program.decisions[dec_idx].ty = ty;
                dec_idx += 1;
            }
            Decl::Def(d) => {
                let params =
                    d.params.iter().map(|p| (p.name.name.clone(), resolve_type(program, &p.ty, diags))).collect();
                program.defs[def_idx].param_docs =
                    d.params.iter().map(|p| p.doc.as_ref().map(|x| x.value.clone())).collect();
                let ty = resolve_type(program, &d.ty, diags);
                program.defs[def_idx].params = params;
                program.defs[def_idx].ty = ty;
                def_idx += 1;
            }
            Decl::Table(t) => {
                let params =
                    t.params.iter().map(|p| (p.name.name.clone(), resolve_type(program, &p.ty, diags))).collect();
                let ty = resolve_type(program, &t.ty, diags);
                program.defs[def_idx].params = params;
                program.defs[def_idx].ty = ty;
                def_idx += 1;
            }
            _ => {}
        }
    }
    let _ = is_currency;
}
