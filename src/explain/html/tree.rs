//! The full derivation behind the page's toggle: every step with its definition's name,
//! the rule that decided it, the exceptions and the rules that did not apply.

use super::{Ctx, Seen, escape, rich};
use crate::explain::Step;
use crate::explain::i18n::words;
use std::fmt::Write;

fn rule(ctx: &Ctx, label: &str, citation: Option<&str>) -> String {
    format!("<code>{}</code>{}", escape(label), ctx.cite(citation))
}

/// One step and its sub-steps, as a nested list item; a step shown before (the same
/// definition on the same arguments) is only named, with its value.
pub(super) fn step<'s>(out: &mut String, ctx: &Ctx, s: &'s Step, seen: &mut Seen<'s>) {
    let w = words(ctx.lang);
    let head = if s.args.is_empty() { s.name.clone() } else { format!("{}({})", s.name, s.args.join(", ")) };
    if !seen.insert((&s.name, &s.args)) {
        let _ = writeln!(out, "<li><code>{}</code> = <strong>{}</strong></li>", escape(&head), escape(&s.answer));
        return;
    }
    let by = match (&s.decided_by, s.row) {
        (Some(r), _) => format!(" — {} {}", w.rule, rule(ctx, &r.label, r.citation.as_deref())),
        (None, Some(row)) => format!(" — {} {}{}", w.row, row + 1, ctx.cite(s.citation.as_deref())),
        _ => String::new(),
    };
    let _ = write!(out, "<li><code>{}</code> = <strong>{}</strong>{by}", escape(&head), escape(&s.answer));
    let mut inner = String::new();
    for o in &s.overridden {
        let _ = write!(inner, "<li>{} {}</li>", w.overrides, rule(ctx, &o.label, o.citation.as_deref()));
    }
    for a in &s.also {
        let _ = write!(inner, "<li>{} {}</li>", w.also, rule(ctx, &a.label, a.citation.as_deref()));
    }
    for b in s.working.iter().chain(&s.because) {
        let _ = write!(inner, "<li>{}</li>", rich(b));
    }
    for t in &s.tables {
        inner.push_str("<li class=\"table\">");
        super::table::render(&mut inner, ctx.lang, t);
        inner.push_str("</li>");
    }
    for n in &s.not_applied {
        let _ = write!(
            inner,
            "<li class=\"no\">✗ {}: {}</li>",
            rule(ctx, &n.rule.label, n.rule.citation.as_deref()),
            rich(&n.reason)
        );
    }
    for c in &s.children {
        step(&mut inner, ctx, c, seen);
    }
    if !inner.is_empty() {
        let _ = write!(out, "<ul>{inner}</ul>");
    }
    out.push_str("</li>\n");
}
