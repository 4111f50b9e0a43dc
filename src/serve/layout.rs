//! The frame of every page: the head, the stylesheet, the language switch, the
//! version of the rulebook served (in the footer, on the server), and the links
//! between pages, both as server routes and as the relative paths of a static site.
//! Every text is escaped by maud.

use super::shelf::Version;
use super::words::{Words, words};
use crate::check::program::Program;
use crate::show::Lang;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};
use std::sync::Arc;

/// Where links point: the live server, or the files of a static site `depth` folders
/// below its root.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub lang: Lang,
    pub site: Option<usize>,
    /// The version of the rulebook the page shows, said in its footer.
    pub version: Option<Arc<Version>>,
}

impl Ctx {
    pub fn server(lang: Lang) -> Ctx {
        Ctx { lang, site: None, version: None }
    }

    /// A page of a static site, `depth` folders below its root.
    pub fn site(lang: Lang, depth: usize) -> Ctx {
        Ctx { lang, site: Some(depth), version: None }
    }

    /// The same, showing a rulebook of that version.
    pub fn serving(self, version: &Arc<Version>) -> Ctx {
        Ctx { version: Some(version.clone()), ..self }
    }

    pub fn w(&self) -> &'static Words {
        words(self.lang)
    }

    /// The path from the page to the site's root (`/` on the server).
    pub fn root(&self) -> String {
        match self.site {
            Some(d) => "../".repeat(d),
            None => "/".into(),
        }
    }

    pub fn home(&self) -> String {
        match self.site {
            Some(_) => format!("{}index.html", self.root()),
            None => format!("/?lang={}", self.lang.code()),
        }
    }

    pub fn style(&self) -> String {
        format!("{}style.css", self.root())
    }

    pub fn icon(&self) -> String {
        format!("{}icon.svg", self.root())
    }

    pub fn rulebook(&self, book: &str, lang: Lang) -> String {
        match self.site {
            Some(_) => format!("{}{}/{}/index.html", self.root(), enc(book), lang.code()),
            None => format!("/{}?lang={}", enc(book), lang.code()),
        }
    }

    pub fn clause(&self, p: &Program, citation: &str, lang: Lang) -> String {
        let book = &p.rulebook.name;
        let s = slug_in(p, citation);
        match self.site {
            Some(_) => format!("{}{}/{}/clause/{}.html", self.root(), enc(book), lang.code(), s),
            None => format!("/{}/clause/{}?lang={}", enc(book), s, lang.code()),
        }
    }

    /// The ruling page; a static site has none (it needs the server to rule).
    pub fn ruling(&self, book: &str, ruling: &str) -> Option<String> {
        match self.site {
            Some(_) => None,
            None => Some(format!("/{}/ruling/{}?lang={}", enc(book), enc(ruling), self.lang.code())),
        }
    }
}

/// A clause's citation as a file and URL name: letters and digits, the rest `-`.
pub fn slug(citation: &str) -> String {
    let mut out = String::new();
    for c in citation.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if c.is_alphanumeric() {
            for l in c.to_lowercase() {
                out.push(l);
            }
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let t = out.trim_matches('-').to_string();
    if t.is_empty() { "clause".into() } else { t }
}

/// The page name of a clause in its rulebook: its [`slug`], numbered from the second
/// clause whose citation gives the same slug (`-2`, `-3`).
pub fn slug_in(p: &Program, citation: &str) -> String {
    let base = slug(citation);
    let same: Vec<&str> = p.clauses.iter().map(|c| c.citation.as_str()).filter(|c| slug(c) == base).collect();
    match same.iter().position(|c| *c == citation) {
        Some(0) | None => base,
        Some(i) => format!("{base}-{}", i + 1),
    }
}

/// Percent-encodes a path segment or query value.
pub fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The language asked for (`?lang=da`), else the rulebook's.
pub fn lang_of(asked: Option<&str>, default: Lang) -> Lang {
    asked.and_then(Lang::parse).unwrap_or(default)
}

/// A whole page: `title`, the language switch (`switch(lang)` gives this page in the
/// other language), and the body.
pub fn page(ctx: &Ctx, title: &str, switch: &dyn Fn(Lang) -> String, body: Markup) -> Markup {
    let w = ctx.w();
    html! {
        (DOCTYPE)
        html lang=(ctx.lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href=(ctx.style());
                link rel="icon" type="image/svg+xml" href=(ctx.icon());
            }
            body {
                header.top {
                    a.home href=(ctx.home()) { (w.get("rulebooks")) }
                    nav.lang {
                        @for l in Lang::framed() {
                            @if l == ctx.lang {
                                strong lang=(l.code()) { (words(l).get("language")) }
                            } @else {
                                a lang=(l.code()) hreflang=(l.code()) href=(switch(l)) { (words(l).get("language")) }
                            }
                            " "
                        }
                    }
                }
                main { (body) }
                @if let Some(v) = &ctx.version {
                    footer.version { (version_line(ctx, v)) }
                }
            }
        }
    }
}

/// Which version of a rulebook is served, in words: its hash and when it was loaded,
/// and a newer state held back with its new warnings.
pub fn version_line(ctx: &Ctx, v: &Version) -> Markup {
    let w = ctx.w();
    let time = utc_words;
    html! {
        span.version { (w.fill("version_served", &[("hash", &v.hash), ("loaded", &time(&v.loaded))])) }
        @if let Some(h) = &v.held_back {
            br;
            span.held { (w.fill("version_held_back", &[("hash", &h.hash), ("seen", &time(&h.seen)), ("count", &h.problems.len().to_string())])) }
            ul.plain {
                @for d in &h.problems {
                    li.diag {
                        @if let Some(f) = &d.file { code.file { (f) @if let Some(l) = d.line { ":" (l) } } ": " }
                        span.message { (d.message) }
                    }
                }
            }
        }
    }
}

/// A time as the API writes it (`2026-05-01T12:00:00Z`) as pages write it
/// (`2026-05-01 12:00:00 UTC`).
pub fn utc_words(t: &str) -> String {
    t.replace('T', " ").replace('Z', " UTC")
}

/// An HTML response.
pub fn respond(status: StatusCode, m: Markup) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], m.into_string()).into_response()
}

/// A page saying what went wrong, the reason escaped.
pub fn error_page(status: StatusCode, lang: Lang, title: &str, message: &str) -> Response {
    let ctx = Ctx::server(lang);
    let m = page(
        &ctx,
        title,
        &|l| Ctx::server(l).home(),
        html! {
            h1 { (title) }
            p.error { (message) }
        },
    );
    respond(status, m)
}

/// The stylesheet: readable at 360 px, nothing wider than the screen.
pub const STYLE: &str = include_str!("style.css");

/// The whole stylesheet: the pages', then the explanation's (`api::HTML_STYLE`).
pub fn stylesheet() -> String {
    format!("{STYLE}\n{}", crate::api::HTML_STYLE)
}

pub async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "max-age=300")], stylesheet())
        .into_response()
}

/// The pages' icon (a spade), so that a browser does not ask for a `/favicon.ico` in vain.
pub const ICON: &str = include_str!("icon.svg");

pub async fn icon() -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "max-age=86400")], ICON).into_response()
}

/// Text with `code` spans, escaped.
pub fn rich(s: &str) -> Markup {
    html! {
        @for (i, part) in s.split('`').enumerate() {
            @if i % 2 == 1 { code { (part) } } @else { (part) }
        }
    }
}

/// Raw HTML made by the library's own renderers (already escaped there).
pub fn trusted(s: String) -> PreEscaped<String> {
    PreEscaped(s)
}
