//! `conditions site`: the rulebook and clause pages as static files, for a district's
//! website: `index.html`, `style.css`, and per language `BOOK/LANG/index.html` and
//! `BOOK/LANG/clause/SLUG.html`. Ruling pages need the server and are left out.

use super::layout::{Ctx, page, slug_in, stylesheet};
use super::pages::{clause_markup, index_markup, rulebook_markup};
use super::shelf::State;
use crate::api::Rulebook;
use crate::check::program::ClauseId;
use crate::eval::show::Lang;
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
    let states: Vec<(String, Arc<State>)> =
        books.iter().map(|b| (b.name().to_string(), Arc::new(State::Ready(b.clone())))).collect();
    let lang0 = books.first().map(|b| b.language()).unwrap_or(Lang::En);
    let ctx = Ctx { lang: lang0, site: Some(0) };
    let idx = page(&ctx, ctx.w().get("rulebooks"), &|_| "index.html".into(), index_markup(&ctx, &states));
    write(&out.join("index.html"), &idx.into_string())?;
    pages += 1;
    for b in books {
        let p = &b.checked().program;
        for lang in Lang::framed() {
            let ctx = Ctx { lang, site: Some(2) };
            let dir = out.join(b.name()).join(lang.code());
            let m = page(&ctx, b.title(), &|l| format!("../{}/index.html", l.code()), rulebook_markup(&ctx, b, None));
            write(&dir.join("index.html"), &m.into_string())?;
            pages += 1;
            let ctx = Ctx { lang, site: Some(3) };
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
