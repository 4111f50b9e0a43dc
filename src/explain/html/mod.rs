//! The page a director hands to a player: one self-contained HTML5 document (or a
//! fragment for embedding) for any number of rulings. For each ruling the answer comes
//! first in plain words, then the working, the facts used and the clauses quoted as printed
//! (with their glosses); rule names and the full derivation wait behind a toggle. No
//! scripts, no external assets; every value is escaped; every id is unique on the page.
//!
//! [`document`] and [`fragment`] are the entry points (the server and `conditions rule
//! --format html` use them); [`STYLE`] is the stylesheet a fragment needs.

mod style;
mod table;
mod tree;

pub use style::STYLE;

use super::Report;
use super::messages::{Arg, msg, word};
use super::{FactView, NeedView, Step};
use crate::show::Lang;
use std::fmt::Write;

/// Glosses are English by the language's definition of `gloss`.
const GLOSS_LANG: &str = "en";

/// What the page says around its rulings: an optional header, and a prefix for its ids.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The event the rulings are for, shown as the page's title.
    pub event: Option<String>,
    /// The date of the event or of the rulings, as it should be read.
    pub date: Option<String>,
    /// The tournament director who gives the rulings.
    pub director: Option<String>,
    /// Put before every id, so that several fragments can share one page
    /// (letters, digits, `-` and `_`; anything else becomes `-`).
    pub id_prefix: String,
    /// Show the full derivation open, not behind its toggle (as `--explain full` does).
    pub full_open: bool,
}

impl Page {
    /// A page with a header naming the event, the date and the director (each optional).
    pub fn with_header(event: Option<String>, date: Option<String>, director: Option<String>) -> Page {
        Page { event, date, director, ..Page::default() }
    }
}

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes, then shows `code` spans.
fn rich(s: &str) -> String {
    let e = escape(s);
    let mut out = String::new();
    for (i, part) in e.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

fn lang_of(code: &str) -> Lang {
    Lang::parse(code).unwrap_or(Lang::En)
}

/// ` lang="…"`, or nothing when the language is not known.
fn lang_attr(code: &str) -> String {
    if code.is_empty() { String::new() } else { format!(" lang=\"{}\"", escape(code)) }
}

fn id_safe(prefix: &str) -> String {
    prefix.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect()
}

/// The steps already shown, by definition and arguments.
type Seen<'s> = std::collections::HashSet<(&'s String, &'s Vec<String>)>;

/// One ruling's section as it is being written: its language, its id and the ids of its clauses.
pub(super) struct Ctx {
    lang: Lang,
    id: String,
    clauses: Vec<(String, String)>,
    /// The clauses that decided a step ([`Report::deciding`]).
    deciding: Vec<super::Shared>,
}

impl Ctx {
    /// A citation, linked to its quoted clause when the clause is on the page.
    fn cite(&self, citation: Option<&str>) -> String {
        let Some(c) = citation else { return String::new() };
        match self.clauses.iter().find(|(cit, _)| cit == c) {
            Some((_, id)) => format!(" <a class=\"cite\" href=\"#{id}\">{}</a>", escape(c)),
            None => format!(" <span class=\"cite\">{}</span>", escape(c)),
        }
    }
}

/// A ruling's title: its question, or its name made readable, with a capital first letter.
fn title(r: &Report) -> String {
    let t = r.question.clone().unwrap_or_else(|| r.ruling.replace('_', " "));
    let mut chars = t.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => t,
    }
}

/// An answer short enough for the contents list: cut at a word after about 80 characters.
fn summary(answer: &str) -> String {
    const ROOM: usize = 80;
    if answer.chars().count() <= ROOM {
        return answer.to_string();
    }
    let cut: String = answer.chars().take(ROOM).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head).trim_end_matches([',', ';', ' ']);
    format!("{cut} …")
}

/// One step of the brief explanation: what it is, its value, and how it was reached.
/// A step repeated under another (the same definition on the same arguments) is shown once.
fn brief_step<'s>(out: &mut String, ctx: &Ctx, s: &'s Step, depth: usize, seen: &mut Seen<'s>) {
    if s.hidden || !seen.insert((&s.name, &s.args)) {
        return;
    }
    let mut lines: Vec<String> = s.brief_lines().map(|l| format!("<li>{}</li>", rich(l))).collect();
    for t in &s.tables {
        let mut li = String::from("<li class=\"table\">");
        table::render(&mut li, ctx.lang, t);
        li.push_str("</li>");
        lines.push(li);
    }
    // Where nothing decided, the rules considered are the explanation; where a rule decided
    // the answer, the exceptions that did not apply come after the working that gave it.
    let decided = s.decided_by.is_some() || s.row.is_some();
    let mut after = Vec::new();
    if depth == 0 || !decided {
        let lines = if depth == 0 && decided { &mut after } else { &mut lines };
        for n in s.brief_not_applied(&ctx.deciding) {
            let clause = ctx.cite(n.rule.citation.as_deref());
            // One that waits for an input is said to wait, never not to apply.
            let (id, mark, reason) = n.brief_said(&ctx.deciding);
            let class = match id {
                "condition-held" => "held",
                _ if n.kind == "unknown" => "waits",
                _ => "no",
            };
            let line =
                msg(ctx.lang, id, &[("clause", Arg::Text(clause.trim_start())), ("reason", Arg::Text(&rich(reason)))]);
            lines.push(format!("<li class=\"{class}\">{mark} {line}</li>"));
        }
    }
    if depth == 0 || !lines.is_empty() || s.cites_new {
        let args = s.args_shown();
        let at = s.decided_by.as_ref().and_then(|r| r.citation.clone()).or_else(|| s.row.and(s.citation.clone()));
        // The ruling's own step is the question above: its answer and the clause that decided.
        if depth == 0 {
            let cite = ctx.cite(at.as_deref());
            if super::brevity::root_answer(&s.answer) {
                let _ = write!(out, "<li><span class=\"value\">{}</span>{cite}", escape(&s.answer));
            } else {
                let _ = write!(out, "<li>{}{cite}", escape(&word(ctx.lang, "answer-above")));
            }
        } else {
            let _ = write!(
                out,
                "<li><span class=\"what\">{}{}</span>: <span class=\"value\">{}</span>{}",
                escape(&s.label),
                escape(&args),
                escape(&s.answer),
                ctx.cite(at.as_deref())
            );
        }
        if !lines.is_empty() {
            let _ = write!(out, "<ul>{}</ul>", lines.concat());
        }
        out.push_str("</li>\n");
    }
    for c in &s.children {
        brief_step(out, ctx, c, depth + 1, seen);
    }
    for line in after {
        let _ = writeln!(out, "{line}");
    }
}

/// The answer as a person reads it: the report's, or "none" for an empty one.
pub(crate) fn answer(r: &Report) -> String {
    if r.answer.is_empty() { word(lang_of(r.lang), "none") } else { r.answer.clone() }
}

fn needs(out: &mut String, ns: &[NeedView]) {
    if ns.is_empty() {
        return;
    }
    out.push_str("<ul class=\"needs\">\n");
    for n in ns {
        let _ = writeln!(out, "<li>{}</li>", rich(&n.sentence));
    }
    out.push_str("</ul>\n");
}

/// What a section shows besides its working, facts and clauses: its title and answer
/// (`head`) and what it still needs (`needs`); a page around it may show them itself.
#[derive(Clone, Copy)]
pub(crate) struct Shown {
    pub head: bool,
    pub needs: bool,
}

/// One ruling: the answer, the working, the facts, the clauses, and the full derivation;
/// of the title, the answer and the needs, what `shown` says.
fn section(out: &mut String, r: &Report, id: String, back: Option<&str>, open: bool, shown: Shown) {
    let head = shown.head;
    let lang = lang_of(r.lang);
    let clauses = r.clauses.iter().enumerate().map(|(j, c)| (c.citation.clone(), format!("{id}-c{}", j + 1))).collect();
    let ctx = Ctx { lang, id, clauses, deciding: r.deciding.clone() };
    let id = &ctx.id;
    let labelled = if head { format!(" aria-labelledby=\"{id}-title\"") } else { String::new() };
    let _ = writeln!(out, "<section class=\"ruling {}\" id=\"{id}\"{labelled}{}>", escape(r.status), lang_attr(r.lang));
    if head {
        let _ = writeln!(out, "<h2 id=\"{id}-title\">{}</h2>", escape(&title(r)));
        let _ = writeln!(
            out,
            "<p class=\"answer\" id=\"{id}-answer\"><span class=\"label\">{}</span> <strong>{}</strong></p>",
            escape(&word(lang, "answer")),
            escape(&answer(r))
        );
    }
    if let Some(e) = &r.error {
        let _ = writeln!(out, "<p class=\"error-text\">{}: {}</p>", escape(&word(lang, "error")), rich(e));
    }
    if shown.needs && !r.needs.is_empty() {
        let _ = writeln!(out, "<h3>{}</h3>", escape(&word(lang, "needs")));
        needs(out, &r.needs);
    }
    if !r.steps.is_empty() {
        let _ = writeln!(out, "<h3>{}</h3>\n<ul class=\"working\">", escape(&word(lang, "why")));
        let mut seen = Seen::new();
        for s in &r.steps {
            brief_step(out, &ctx, s, 0, &mut seen);
        }
        out.push_str("</ul>\n");
    }
    if r.facts.iter().any(FactView::in_brief) {
        let _ = writeln!(out, "<h3>{}</h3>\n<ul class=\"facts\">", escape(&word(lang, "facts-used")));
        for f in r.facts.iter().filter(|f| f.in_brief()) {
            if let Some(s) = &f.sentence {
                let _ = writeln!(out, "<li>{}{}</li>", escape(s), ctx.cite(f.citation.as_deref()));
                continue;
            }
            let _ = writeln!(
                out,
                "<li>{}: <span class=\"value\">{}</span>{}</li>",
                escape(&f.label),
                escape(f.brief_value.as_deref().unwrap_or(&f.value)),
                ctx.cite(f.citation.as_deref())
            );
        }
        out.push_str("</ul>\n");
    }
    if !r.clauses.is_empty() {
        let _ = writeln!(out, "<h3>{}</h3>", escape(&word(lang, "clauses")));
        let text_lang = lang_attr(&r.rulebook_lang);
        for (c, (_, cid)) in r.clauses.iter().zip(&ctx.clauses) {
            let heading = c
                .heading
                .as_ref()
                .map(|h| format!(" — <span class=\"heading\"{text_lang}>{}</span>", escape(h)))
                .unwrap_or_default();
            let _ = writeln!(out, "<div class=\"clause\" id=\"{cid}\">\n<h4>{}{heading}</h4>", escape(&c.citation));
            match &c.text {
                // Never quoted: the clause's content in other words, marked as such.
                Some(t) if c.text_kind == crate::check::program::TextKind::Paraphrase => {
                    let _ = writeln!(
                        out,
                        "<p class=\"gloss paraphrase\"><span class=\"label\">{}:</span> <span{text_lang}>{}</span></p>",
                        escape(&word(lang, "paraphrase")),
                        escape(t.trim())
                    );
                }
                Some(t) => {
                    let _ = writeln!(out, "<blockquote{text_lang}>{}</blockquote>", escape(t.trim()));
                }
                None => {}
            }
            if let Some(g) = &c.gloss {
                let _ = writeln!(
                    out,
                    "<p class=\"gloss\"><span class=\"label\">{}:</span> <span lang=\"{GLOSS_LANG}\">{}</span></p>",
                    escape(&word(lang, "gloss")),
                    escape(g.trim())
                );
            }
            out.push_str("</div>\n");
        }
    }
    if !r.steps.is_empty() {
        let _ = writeln!(
            out,
            "<details class=\"full\"{}>\n<summary>{}</summary>\n<ul class=\"tree\">",
            if open { " open" } else { "" },
            escape(&word(lang, "page-full"))
        );
        let mut seen = Seen::new();
        for s in &r.steps {
            tree::step(out, &ctx, s, &mut seen);
        }
        out.push_str("</ul>\n</details>\n");
    }
    if let Some(back) = back {
        let _ = writeln!(out, "<p class=\"back\"><a href=\"#{back}\">{}</a></p>", escape(&word(lang, "page-back")));
    }
    out.push_str("</section>\n");
}

fn page_lang(reports: &[Report]) -> Lang {
    reports.first().map_or(Lang::En, |r| lang_of(r.lang))
}

/// The page's title: the event's name, else the one ruling's question, else the rulebook's title.
fn page_title(reports: &[Report], page: &Page) -> String {
    if let Some(e) = page.event.as_deref().filter(|e| !e.trim().is_empty()) {
        return e.to_string();
    }
    match reports {
        [one] => format!("{} — {}", title(one), one.rulebook_title),
        [first, ..] => format!("{} — {}", word(page_lang(reports), "page-rulings"), first.rulebook_title),
        [] => word(page_lang(reports), "page-rulings"),
    }
}

fn body(out: &mut String, reports: &[Report], page: &Page) {
    let lang = page_lang(reports);
    let prefix = id_safe(&page.id_prefix);
    out.push_str("<header>\n");
    let event = page.event.as_deref().filter(|e| !e.trim().is_empty());
    let mut books: Vec<(&str, &str)> = Vec::new();
    for r in reports {
        if !books.iter().any(|(t, _)| *t == r.rulebook_title) {
            books.push((&r.rulebook_title, &r.rulebook_lang));
        }
    }
    // The event is the title; without one, the rulebook's title is.
    match (event, books.as_slice()) {
        (Some(e), _) => {
            let _ = writeln!(out, "<h1 id=\"{prefix}top\">{}</h1>", escape(e));
        }
        (None, [(t, l), ..]) => {
            let _ = writeln!(out, "<h1 id=\"{prefix}top\"{}>{}</h1>", lang_attr(l), escape(t));
            books.remove(0);
        }
        (None, []) => {
            let _ = writeln!(out, "<h1 id=\"{prefix}top\">{}</h1>", escape(&word(lang, "page-rulings")));
        }
    }
    for (t, l) in &books {
        let _ = writeln!(out, "<p class=\"book\"><span{}>{}</span></p>", lang_attr(l), escape(t));
    }
    let meta: Vec<(&str, &String)> = [("page-date", &page.date), ("page-director", &page.director)]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().filter(|v| !v.trim().is_empty()).map(|v| (k, v)))
        .collect();
    if !meta.is_empty() {
        out.push_str("<dl class=\"meta\">\n");
        for (k, v) in meta {
            let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(&word(lang, k)), escape(v));
        }
        out.push_str("</dl>\n");
    }
    out.push_str("</header>\n");
    if reports.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", escape(&word(lang, "page-none")));
        return;
    }
    let contents = format!("{prefix}contents");
    let many = reports.len() > 1;
    if many {
        let _ = writeln!(
            out,
            "<nav class=\"contents\" id=\"{contents}\" aria-labelledby=\"{contents}-title\">\n<h2 id=\"{contents}-title\">{}</h2>\n<ol>",
            escape(&word(lang, "page-contents"))
        );
        for (i, r) in reports.iter().enumerate() {
            let _ = writeln!(
                out,
                "<li><a href=\"#{prefix}r{}\">{}</a>: <span class=\"sum\">{}</span></li>",
                i + 1,
                escape(&title(r)),
                escape(&summary(&r.answer))
            );
        }
        out.push_str("</ol>\n</nav>\n");
    }
    for (i, r) in reports.iter().enumerate() {
        section(
            out,
            r,
            format!("{prefix}r{}", i + 1),
            many.then_some(contents.as_str()),
            page.full_open,
            Shown { head: true, needs: true },
        );
    }
}

/// The rulings as a fragment to put inside an embedder's page: one `<div
/// class="conditions">` holding the header, the contents (for two rulings or more) and
/// one `<section>` per ruling. Style it with [`STYLE`]; give each fragment of a page its
/// own [`Page::id_prefix`].
pub fn fragment(reports: &[Report], page: &Page) -> String {
    let mut out = format!("<div class=\"conditions\"{}>\n", lang_attr(page_lang(reports).code()));
    body(&mut out, reports, page);
    out.push_str("</div>\n");
    out
}

/// One ruling as a fragment for a page that shows its title and answer itself (the
/// server's ruling page): no header, title or answer, and what it still needs only when
/// `needs` (not when the page asks for it in a form).
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
pub(crate) fn fragment_within(r: &Report, page: &Page, needs: bool) -> String {
    let mut out = format!("<div class=\"conditions\"{}>\n", lang_attr(r.lang));
    let shown = Shown { head: false, needs };
    section(&mut out, r, format!("{}r1", id_safe(&page.id_prefix)), None, page.full_open, shown);
    out.push_str("</div>\n");
    out
}

/// The rulings as one self-contained HTML5 document, styled for screen, phone and print.
pub fn document(reports: &[Report], page: &Page) -> String {
    let lang = page_lang(reports);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main class=\"conditions\">\n",
        lang.code(),
        escape(&page_title(reports, page)),
    );
    body(&mut out, reports, page);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// One ruling as a page. With `full` (the report of `--explain full`) the full
/// derivation is shown open.
pub fn render(r: &Report, full: bool) -> String {
    document(std::slice::from_ref(r), &Page { full_open: full, ..Page::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(escape(r#"<script>"a" & 'b'"#), "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;");
    }

    #[test]
    fn a_long_answer_is_cut_at_a_word_in_the_contents() {
        assert_eq!(summary("5"), "5");
        let long = "district North; places 5, ".repeat(10);
        let s = summary(&long);
        assert!(s.ends_with(" …") && s.chars().count() <= 82, "{s}");
    }

    #[test]
    fn ids_keep_to_safe_characters() {
        assert_eq!(id_safe("a b\"<x>"), "a-b--x-");
    }
}
