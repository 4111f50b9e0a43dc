//! A self-contained HTML page a director can hand to a player: the answer, the
//! reasons, and each cited clause quoted as printed. No scripts, no external assets.

use super::i18n::words;
use super::{Report, Step};
use crate::eval::show::Lang;
use std::fmt::Write;

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

fn anchor(c: &str) -> String {
    c.chars().map(|ch| if ch.is_alphanumeric() { ch } else { '-' }).collect()
}

fn cite_link(c: &Option<String>) -> String {
    c.as_ref().map(|c| format!(" <a href=\"#c-{}\">{}</a>", anchor(c), escape(c))).unwrap_or_default()
}

fn step(out: &mut String, s: &Step, depth: usize, full: bool, lang: Lang) {
    let w = words(lang);
    let head = if s.args.is_empty() { s.name.clone() } else { format!("{}({})", s.name, s.args.join(", ")) };
    let by = match (&s.decided_by, s.row) {
        (Some(r), _) => format!(" — {} <code>{}</code>{}", w.rule, escape(&r.label), cite_link(&r.citation)),
        (None, Some(row)) => format!(" — {} {}{}", w.row, row + 1, cite_link(&s.citation)),
        _ => String::new(),
    };
    let _ = write!(out, "<li><code>{}</code> = <strong>{}</strong>{by}", escape(&head), escape(&s.answer));
    let mut inner = String::new();
    for o in &s.overridden {
        let _ = write!(inner, "<li>{} <code>{}</code>{}</li>", w.overrides, escape(&o.label), cite_link(&o.citation));
    }
    for a in &s.also {
        let _ = write!(inner, "<li>{} <code>{}</code>{}</li>", w.also, escape(&a.label), cite_link(&a.citation));
    }
    for b in s.working.iter().chain(&s.because) {
        let _ = write!(inner, "<li>{}</li>", rich(b));
    }
    if full || depth == 0 || (s.decided_by.is_none() && s.row.is_none()) {
        for n in &s.not_applied {
            let _ = write!(
                inner,
                "<li class=\"no\">✗ <code>{}</code>{}: {}</li>",
                escape(&n.rule.label),
                cite_link(&n.rule.citation),
                rich(&n.reason)
            );
        }
    }
    for c in &s.children {
        step(&mut inner, c, depth + 1, full, lang);
    }
    if !inner.is_empty() {
        let _ = write!(out, "<ul>{inner}</ul>");
    }
    out.push_str("</li>\n");
}

pub fn render(r: &Report, full: bool) -> String {
    let lang = if r.lang == "da" { Lang::Da } else { Lang::En };
    let w = words(lang);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} {} — {}</title>\n<style>\n\
body{{font-family:Georgia,serif;max-width:46em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}}\n\
h1{{font-size:1.4em}} .answer{{font-size:1.3em;padding:.6em 1em;border-left:4px solid #2a6;background:#f3faf5}}\n\
.undetermined .answer{{border-color:#c80;background:#fdf7ec}} .error .answer{{border-color:#c33;background:#fbeeee}}\n\
blockquote{{margin:.3em 0 1em;padding:.3em 1em;border-left:3px solid #999;background:#f7f7f7}}\n\
.gloss{{color:#555;font-style:italic}} code{{font-size:.9em;background:#eee;padding:0 .2em}} li.no{{color:#666}}\n\
</style>\n</head>\n<body class=\"{}\">\n",
        lang.code(),
        w.ruling,
        escape(&r.ruling),
        escape(&r.rulebook_title),
        r.status
    );
    let _ = writeln!(
        out,
        "<h1>{} <code>{}</code></h1>\n<p><em>{}</em></p>",
        w.ruling,
        escape(&r.ruling),
        escape(&r.rulebook_title)
    );
    if let Some(q) = &r.question {
        let _ = writeln!(out, "<p>{}</p>", escape(q));
    }
    let _ = writeln!(out, "<p class=\"answer\">{}: <strong>{}</strong></p>", w.answer, escape(&r.answer));
    if let Some(e) = &r.error {
        let _ = writeln!(out, "<p>{}: {}</p>", w.error, rich(e));
    }
    if !r.needs.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", w.needs);
        for n in &r.needs {
            let _ = writeln!(out, "<li>{}</li>", rich(&n.sentence));
        }
        out.push_str("</ul>\n");
    }
    if !r.steps.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", w.why);
        for s in &r.steps {
            step(&mut out, s, 0, full, lang);
        }
        out.push_str("</ul>\n");
    }
    if !r.facts.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul>", w.facts_used);
        for f in &r.facts {
            let desc = f.description.as_ref().map(|d| format!(" — {}", escape(d))).unwrap_or_default();
            let _ = writeln!(out, "<li><code>{}</code> = {}{desc}</li>", escape(&f.name), escape(&f.value));
        }
        out.push_str("</ul>\n");
    }
    if !r.clauses.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>", w.clauses);
        for c in &r.clauses {
            let _ = writeln!(
                out,
                "<h3 id=\"c-{}\">{}{}</h3>",
                anchor(&c.citation),
                escape(&c.citation),
                c.heading.as_ref().map(|h| format!(" — {}", escape(h))).unwrap_or_default()
            );
            if let Some(t) = &c.text {
                let _ = writeln!(out, "<blockquote>{}</blockquote>", escape(t));
            }
            if let Some(g) = &c.gloss {
                let _ = writeln!(out, "<p class=\"gloss\">{}: {}</p>", w.gloss, escape(g));
            }
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}
