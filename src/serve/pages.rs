//! The rulebook pages: the list of rulebooks, a rulebook (its rulings by section, its
//! clauses verbatim with gloss and citation anchors, a search over rulings, clauses
//! and facts) and a clause (its text, the rulings it decides, the facts it declares,
//! the clauses it cites and that cite it). The same markup serves the live server and
//! the static site ([`super::site`]).

use super::Shelf;
use super::forms::heading_case;
use super::layout::{Ctx, error_page, lang_of, page, respond, slug_in, version_line};
use super::shelf::{Book, Broken, State};
use crate::api::Rulebook;
use crate::check::program::{ClauseId, DefId, Program};
use crate::discover::write::{how_in, variants};
use crate::show::Lang;
use axum::extract::{Path, Query, State as Ext};
use axum::http::StatusCode;
use axum::response::Response;
use maud::{Markup, html};
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, Default)]
pub struct PageQuery {
    pub lang: Option<String>,
    pub q: Option<String>,
}

/// The page shown for a rulebook that does not check: its diagnostics.
pub fn broken(ctx: &Ctx, name: &str, diags: &Broken) -> Markup {
    let w = ctx.w();
    html! {
        h1 { (w.get("diagnostics")) ": " code { (name) } }
        p { (w.get("diagnostics_help")) }
        @if diags.held_back { p { (w.get("held_back_help")) } }
        p.version {
            (w.fill("version_diagnostics", &[("hash", &diags.version.hash), ("loaded", &super::layout::utc_words(&diags.version.loaded))]))
        }
        @for d in diags.iter() {
            div.diag {
                @if let Some(f) = &d.file { code.file { (f) @if let Some(l) = d.line { ":" (l) } } ": " }
                span.message { (d.message) }
                @if let Some(h) = &d.help { br; span.hint { (h) } }
            }
        }
    }
}

/// The rulebook, or the page to show instead (not found, does not check; boxed, as the
/// rare case).
pub fn book_or_page(shelf: &Shelf, name: &str, lang: Option<&str>) -> Result<Book, Box<Response>> {
    match shelf.get(name).as_deref() {
        Some(State::Ready(b)) => Ok(b.clone()),
        Some(State::Broken(diags)) => {
            let ctx = Ctx::server(lang_of(lang, Lang::En));
            let n = name.to_string();
            Err(Box::new(respond(
                StatusCode::SERVICE_UNAVAILABLE,
                page(&ctx, ctx.w().get("diagnostics"), &|l| Ctx::server(l).rulebook(&n, l), broken(&ctx, name, diags)),
            )))
        }
        None => {
            let lang = lang_of(lang, Lang::En);
            Err(Box::new(error_page(
                StatusCode::NOT_FOUND,
                lang,
                super::words::words(lang).get("not_found"),
                &format!("no rulebook `{name}`"),
            )))
        }
    }
}

/// The list of rulebooks.
pub fn index_markup(ctx: &Ctx, books: &[(String, Arc<State>)]) -> Markup {
    let w = ctx.w();
    html! {
        h1 { (w.get("rulebooks")) }
        ul.plain {
            @for (name, state) in books {
                li {
                    @match state.as_ref() {
                        State::Ready(b) => {
                            a href=(ctx.rulebook(name, b.language())) { (b.title()) }
                            " " code { (name) } " — " (b.rulings().len()) " " (w.get("rulings").to_lowercase())
                            @if ctx.site.is_none() { br; small.version { (version_line(ctx, b.version())) } }
                        }
                        State::Broken(d) => {
                            code { (name) } ": " (w.get("diagnostics"))
                            (broken(ctx, name, d))
                        }
                    }
                }
            }
        }
    }
}

pub async fn index(Ext(shelf): Ext<Arc<Shelf>>, Query(q): Query<PageQuery>) -> Response {
    let ctx = Ctx::server(lang_of(q.lang.as_deref(), Lang::En));
    let m = page(&ctx, ctx.w().get("rulebooks"), &|l| Ctx::server(l).home(), index_markup(&ctx, &shelf.all()));
    respond(StatusCode::OK, m)
}

/// The rulings declared in or decided by a clause.
pub fn rulings_of_clause(p: &Program, c: ClauseId) -> Vec<DefId> {
    p.rulings()
        .filter(|(_, d)| d.clause == Some(c) || d.rules.iter().any(|r| p.rules[*r as usize].clause == Some(c)))
        .map(|(id, _)| id)
        .collect()
}

fn clause_id(p: &Program, s: &str) -> Option<ClauseId> {
    p.clauses.iter().position(|c| slug_in(p, &c.citation) == s).map(|i| i as ClauseId)
}

fn clause_block(ctx: &Ctx, b: &Rulebook, c: ClauseId, link: bool) -> Markup {
    let p = &b.checked().program;
    let info = p.clause(c);
    let w = ctx.w();
    html! {
        section.clause id=(slug_in(p, &info.citation)) {
            h3 {
                @if link { a href=(ctx.clause(p, &info.citation, ctx.lang)) { (info.citation) } } @else { (info.citation) }
                @if let Some(h) = &info.heading { " — " (h) }
            }
            (clause_text(ctx, b, info))
            @if let Some(g) = &info.gloss { p.gloss lang="en" { (w.get("gloss")) ": " (g) } }
            @if info.informational.is_some() { p.hint { "(" (w.get("informational")) ")" } }
        }
    }
}

/// A clause's text: quoted as printed (or its excerpt), or a paraphrase marked as one.
fn clause_text(ctx: &Ctx, b: &Rulebook, info: &crate::check::program::ClauseInfo) -> Markup {
    let paraphrase = info.text_kind == crate::check::program::TextKind::Paraphrase;
    html! {
        @if let Some(t) = &info.text {
            @if paraphrase {
                p.paraphrase { (crate::base::messages::word(ctx.lang, "paraphrase")) ": " span lang=(b.language().code()) { (t) } }
            } @else {
                blockquote lang=(b.language().code()) { (t) }
            }
        }
    }
}

/// A ruling as the pages name it: the question it answers in the page's language (its
/// gloss when the rulebook is in another), begun with a capital as a title is; a ruling
/// without one by its name in words. Its name (what programs call it by) is never shown.
pub(super) fn ruling_title(ctx: &Ctx, p: &Program, name: &str) -> String {
    match p.defs.iter().find(|d| d.name == name).and_then(|d| d.doc.as_deref()) {
        Some(q) => heading_case(p.gloss(q, ctx.lang.code())),
        None => heading_case(&name.replace('_', " ")),
    }
}

/// A ruling by its title, linked to its page on the server (a static site has none).
fn ruling_link(ctx: &Ctx, b: &Rulebook, name: &str) -> Markup {
    let title = ruling_title(ctx, &b.checked().program, name);
    html! {
        @match ctx.ruling(b.name(), name) {
            Some(href) => a.ruling href=(href) { (title) },
            None => span.ruling { (title) },
        }
    }
}

/// The rulebook page; with a search word, its results first.
pub fn rulebook_markup(ctx: &Ctx, b: &Rulebook, word: Option<&str>) -> Markup {
    let p = &b.checked().program;
    let w = ctx.w();
    let word = word.map(str::trim).filter(|s| !s.is_empty());
    let entries = crate::discover::list(p, None, false);
    html! {
        h1 { (b.title()) }
        @if let Some(e) = &p.rulebook.edition { p { (w.get("edition")) ": " (e) } }
        @if ctx.site.is_none() {
            form.search method="get" action=(format!("/{}", super::layout::enc(b.name()))) role="search" {
                input type="hidden" name="lang" value=(ctx.lang.code());
                input type="search" name="q" value=(word.unwrap_or("")) aria-label=(w.get("search")) placeholder=(w.get("search"));
                button type="submit" { (w.get("search_button")) }
            }
        }
        @if ctx.site.is_some() {
            // The static site's search: hidden until its script has the index.
            form.search #site-search role="search" hidden {
                input #site-q type="search" aria-label=(w.get("search")) placeholder=(w.get("search"));
                button type="submit" { (w.get("search_button")) }
            }
            // The heading stays hidden until a search fills it (an empty heading reads as nothing).
            section.results aria-live="polite" { h2 #site-results-heading hidden {} ul.plain #site-results {} }
            script src="search-index.js" defer {}
            script src=(format!("{}search.js", ctx.root())) defer {}
        }
        @if let Some(q) = word { (search_results(ctx, b, q)) }
        h2 { (w.get("rulings")) }
        @for (i, e) in entries.iter().enumerate() {
            @if i == 0 || entries[i - 1].section != e.section {
                h3.section { (e.section.as_deref().unwrap_or(w.get("no_section"))) }
            }
            p.entry {
                (ruling_link(ctx, b, &e.name))
                @if let Some(c) = &e.clause { " " a.cite href=(format!("#{}", slug_in(p, c))) { "[" (c) "]" } }
            }
        }
        h2 { (w.get("clauses")) }
        @for c in 0..p.clauses.len() { (clause_block(ctx, b, c as ClauseId, true)) }
    }
}

/// The most rulings a search lists.
const SEARCH_RULINGS: usize = 20;

fn search_results(ctx: &Ctx, b: &Rulebook, q: &str) -> Markup {
    // A question, not a document: the words past the API's bound are not searched.
    let q: String = q.chars().take(super::find::MAX_QUERY_CHARS).collect();
    let q = q.as_str();
    let p = &b.checked().program;
    let w = ctx.w();
    let lower = q.to_lowercase();
    let has = |s: &Option<String>| s.as_ref().is_some_and(|s| s.to_lowercase().contains(&lower));
    let found = crate::discover::list(p, Some(q), true);
    // Rulings ranked by the words of their questions and clauses (`conditions find`).
    let hits: Vec<_> =
        crate::discover::find::get(p).search(p, q, SEARCH_RULINGS).into_iter().filter(|h| h.kind == "ruling").collect();
    let clauses: Vec<usize> = (0..p.clauses.len())
        .filter(|&i| {
            let c = &p.clauses[i];
            c.citation.to_lowercase().contains(&lower) || has(&c.heading) || has(&c.text) || has(&c.gloss)
        })
        .collect();
    html! {
        section.results {
            h2 { (w.fill("results", &[("word", q)])) }
            @if hits.is_empty() && found.iter().all(|e| e.kind == "ruling" || e.kind == "definition") && clauses.is_empty() {
                p { (w.fill("no_results", &[("word", q)])) }
            }
            ul.plain {
                @for h in &hits {
                    li {
                        (w.get("ruling")) ": " (ruling_link(ctx, b, &h.name))
                        @for m in &h.matched {
                            br; a.cite href=(ctx.clause(p, &m.citation, ctx.lang)) { "[" (m.citation) "]" } " " span.snippet { (m.snippet) }
                        }
                    }
                }
                @for e in found.iter().filter(|e| e.kind != "ruling" && e.kind != "definition") {
                    li {
                        (w.get("facts")) ": " code { (e.name) }
                        @if let Some(q) = &e.question { " — " (p.gloss(q, ctx.lang.code())) }
                        @if let Some(c) = &e.clause { " " a href=(ctx.clause(p, c, ctx.lang)) { "[" (c) "]" } }
                    }
                }
                @for &i in &clauses {
                    @let c = &p.clauses[i];
                    li { (w.get("clause")) ": " a href=(ctx.clause(p, &c.citation, ctx.lang)) { (c.citation) } @if let Some(h) = &c.heading { " — " (h) } }
                }
            }
        }
    }
}

pub async fn rulebook(Ext(shelf): Ext<Arc<Shelf>>, Path(name): Path<String>, Query(q): Query<PageQuery>) -> Response {
    let b = match book_or_page(&shelf, &name, q.lang.as_deref()) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let ctx = Ctx::server(lang_of(q.lang.as_deref(), b.language())).serving(b.version());
    let word = q.q.clone();
    let n = b.name().to_string();
    let m = page(
        &ctx,
        b.title(),
        &|l| match &word {
            Some(w) => format!("{}&q={}", Ctx::server(l).rulebook(&n, l), super::layout::enc(w)),
            None => Ctx::server(l).rulebook(&n, l),
        },
        rulebook_markup(&ctx, &b, q.q.as_deref()),
    );
    respond(StatusCode::OK, m)
}

/// What kind of value a fact or decision takes, in words: an enum's values by their glossed
/// labels (as the ruling page's form offers them), anything else as a facts file writes it.
fn kind_in_words(ctx: &Ctx, p: &Program, ty: &crate::check::types::Type) -> String {
    let labels: Vec<String> =
        variants(p, ty).into_iter().map(|(n, l)| l.map_or(n, |l| p.gloss(&l, ctx.lang.code()).to_string())).collect();
    if labels.is_empty() {
        return how_in(p, ty, ctx.lang);
    }
    let words = crate::discover::ask_words::words(ctx.lang);
    words.fill(&words.hints.variants, &[("values", labels.join(", "))])
}

/// The page of one clause.
pub fn clause_markup(ctx: &Ctx, b: &Book, c: ClauseId) -> Markup {
    let p = &b.checked().program;
    let info = p.clause(c);
    let w = ctx.w();
    let rulings = rulings_of_clause(p, c);
    let facts: Vec<_> = p.facts.iter().filter(|f| f.clause == Some(c)).collect();
    let decisions: Vec<_> = p.decisions.iter().filter(|d| d.clause == Some(c)).collect();
    let cited_by: Vec<_> = p.clauses.iter().filter(|x| x.cites.iter().any(|y| y == &info.citation)).collect();
    let names = |ds: &[DefId]| -> Vec<&str> { ds.iter().map(|d| p.defs[*d as usize].name.as_str()).collect() };
    html! {
        p { a href=(format!("{}#{}", ctx.rulebook(b.name(), ctx.lang), slug_in(p, &info.citation))) { "← " (b.title()) } }
        h1 { (w.get("clause")) " " (info.citation) @if let Some(h) = &info.heading { " — " (h) } }
        (clause_text(ctx, b, info))
        @if let Some(g) = &info.gloss { p.gloss lang="en" { (w.get("gloss")) ": " (g) } }
        @if !rulings.is_empty() {
            h2 { (w.get("decides")) }
            ul.plain {
                @for d in &rulings {
                    li { (ruling_link(ctx, b, &p.defs[*d as usize].name)) }
                }
            }
        }
        @if !facts.is_empty() || !decisions.is_empty() {
            h2 { (w.get("declares")) }
            ul.plain {
                @for (i, f) in p.facts.iter().enumerate().filter(|(_, f)| f.clause == Some(c)) {
                    li {
                        // What the fact is, in words; its name in a facts file and how to give it below.
                        @if let Some(d) = &f.doc { span.question { (heading_case(p.gloss(d, ctx.lang.code()))) } br; }
                        code { (f.name) } " " span.how { "(" (kind_in_words(ctx, p, &f.ty)) ")" }
                        @let by = names(b.fact_readers(i));
                        @if !by.is_empty() {
                            br; span.hint { (w.get("read_by")) ": "
                                @for (k, n) in by.iter().enumerate() { @if k > 0 { " · " } (ruling_link(ctx, b, n)) } }
                        }
                    }
                }
                @for (i, d) in p.decisions.iter().enumerate().filter(|(_, d)| d.clause == Some(c)) {
                    li {
                        @if let Some(x) = &d.doc { span.question { (heading_case(p.gloss(x, ctx.lang.code()))) } br; }
                        span.who { (heading_case(&w.fill("decided_by", &[("who", p.gloss(&d.by, ctx.lang.code()))]))) } br;
                        code { (d.name) } " " span.how { "(" (kind_in_words(ctx, p, &d.ty)) ")" }
                        @let by = names(b.decision_readers(i));
                        @if !by.is_empty() {
                            br; span.hint { (w.get("read_by")) ": "
                                @for (k, n) in by.iter().enumerate() { @if k > 0 { " · " } (ruling_link(ctx, b, n)) } }
                        }
                    }
                }
            }
        }
        @if !info.cites.is_empty() {
            h2 { (w.get("cites")) }
            ul.plain {
                @for x in &info.cites {
                    @if p.citations.contains_key(x) {
                        li { a href=(ctx.clause(p, x, ctx.lang)) { (x) } }
                    } @else {
                        li { (x) }
                    }
                }
            }
        }
        @if !cited_by.is_empty() {
            h2 { (w.get("cited_by")) }
            ul.plain { @for x in &cited_by { li { a href=(ctx.clause(p, &x.citation, ctx.lang)) { (x.citation) } } } }
        }
    }
}

pub async fn clause(
    Ext(shelf): Ext<Arc<Shelf>>,
    Path((name, clause)): Path<(String, String)>,
    Query(q): Query<PageQuery>,
) -> Response {
    let b = match book_or_page(&shelf, &name, q.lang.as_deref()) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let ctx = Ctx::server(lang_of(q.lang.as_deref(), b.language())).serving(b.version());
    let p = &b.checked().program;
    let Some(c) = clause_id(p, &clause) else {
        return error_page(
            StatusCode::NOT_FOUND,
            ctx.lang,
            ctx.w().get("not_found"),
            &format!("no clause `{clause}` in `{name}`"),
        );
    };
    let cit = p.clause(c).citation.clone();
    let m = page(&ctx, &cit, &|l| Ctx::server(l).clause(p, &cit, l), clause_markup(&ctx, &b, c));
    respond(StatusCode::OK, m)
}
