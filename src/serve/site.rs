//! `conditions site`: the rulebook and clause pages as static files, for a district's
//! website: `index.html`, `style.css`, `search.js`, `icon.svg`, and per language
//! `BOOK/LANG/index.html`, `BOOK/LANG/search-index.js` (the words of its rulings,
//! clauses and facts, for the search box) and `BOOK/LANG/clause/SLUG.html`. Ruling
//! pages need the server and are left out; the pages read as well without scripts.

use super::layout::{Ctx, page, slug_in, stylesheet};
use super::pages::{clause_markup, index_markup, rulebook_markup};
use super::shelf::{Book, State};
use crate::api::Rulebook;
use crate::check::program::ClauseId;
use crate::ojson as json;
use crate::show::Lang;
use std::path::Path;
use std::sync::Arc;

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot make the folder `{}`: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

/// Writes the site of the rulebooks into `out`; returns the number of pages written.
pub fn build(books: &[Rulebook], out: &Path) -> Result<usize, String> {
    let mut pages = 0;
    write(&out.join("style.css"), &stylesheet())?;
    write(&out.join("search.js"), SEARCH_SCRIPT)?;
    write(&out.join("icon.svg"), super::layout::ICON)?;
    let books: Vec<Book> = books.iter().cloned().map(Book::new).collect();
    let states: Vec<(String, Arc<State>)> =
        books.iter().map(|b| (b.name().to_string(), Arc::new(State::Ready(b.clone())))).collect();
    let lang0 = books.first().map(|b| b.language()).unwrap_or(Lang::En);
    let ctx = Ctx::site(lang0, 0);
    let idx = page(&ctx, ctx.w().get("rulebooks"), &|_| "index.html".into(), index_markup(&ctx, &states));
    write(&out.join("index.html"), &idx.into_string())?;
    pages += 1;
    for b in &books {
        let p = &b.checked().program;
        for lang in Lang::framed() {
            let ctx = Ctx::site(lang, 2);
            let dir = out.join(b.name()).join(lang.code());
            let m = page(&ctx, b.title(), &|l| format!("../{}/index.html", l.code()), rulebook_markup(&ctx, b, None));
            write(&dir.join("index.html"), &m.into_string())?;
            write(&dir.join("search-index.js"), &search_index(b, lang))?;
            pages += 1;
            let ctx = Ctx::site(lang, 3);
            for (i, c) in p.clauses.iter().enumerate() {
                let s = slug_in(p, &c.citation);
                let m = page(
                    &ctx,
                    &c.citation,
                    &|l| format!("../../{}/clause/{s}.html", l.code()),
                    clause_markup(&ctx, b, i as ClauseId),
                );
                write(&dir.join("clause").join(format!("{s}.html")), &m.into_string())?;
                pages += 1;
            }
        }
    }
    Ok(pages)
}

/// The script of the search box.
pub const SEARCH_SCRIPT: &str = include_str!("search.js");

/// The search index of a rulebook page, as a script: every ruling, fact and clause with
/// its words (lowercase), a label and a link relative to the page.
pub fn search_index(b: &Book, lang: Lang) -> String {
    let p = &b.checked().program;
    let w = super::words::words(lang);
    let clause_page = |c: &str| format!("clause/{}.html", slug_in(p, c));
    let mut entries = Vec::new();
    for e in crate::discover::list(p, None, true).iter().filter(|e| e.kind != "definition") {
        let kind = if e.kind == "ruling" { w.get("ruling") } else { w.get("facts") };
        // The question in the page's language (its gloss), found by its words in either.
        let question = e.question.as_deref().map(|q| p.gloss(q, lang.code()));
        // Shown by what it is in words; found by its name too.
        let label = match question {
            Some(q) => super::forms::heading_case(q),
            None => e.name.clone(),
        };
        let mut text = format!("{} {}", e.name, question.unwrap_or(""));
        if let Some(own) = e.question.as_deref().filter(|q| Some(*q) != question) {
            text.push(' ');
            text.push_str(own);
        }
        let text = text.to_lowercase();
        entries
            .push(json!({ "kind": kind, "label": label, "text": text, "href": e.clause.as_deref().map(clause_page) }));
    }
    for c in &p.clauses {
        let label = match &c.heading {
            Some(h) => format!("{} — {h}", c.citation),
            None => c.citation.clone(),
        };
        let text = [Some(&c.citation), c.heading.as_ref(), c.text.as_ref(), c.gloss.as_ref()]
            .into_iter()
            .flatten()
            .map(|s| s.to_lowercase())
            .collect::<Vec<_>>()
            .join(" ");
        entries
            .push(json!({ "kind": w.get("clause"), "label": label, "text": text, "href": clause_page(&c.citation) }));
    }
    let index = json!({ "results": w.get("results"), "none": w.get("no_results"), "entries": entries });
    format!("window.conditionsSearch = {index};\n")
}
