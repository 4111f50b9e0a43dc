//! Terminal text: the answer first, then the derivation, what is still needed,
//! the facts used and the clauses cited with their verbatim text.

use super::i18n::{Words, words};
use super::wrap::{wrap, wrap_into};
use super::{ClauseView, FactView, Report, Step};
use crate::base::messages::{Arg, msg, word_ref as word};
use crate::check::program::TextKind;
use crate::show::Lang;
use std::fmt::Write;

fn step_head(s: &Step) -> String {
    if s.args.is_empty() { s.name.clone() } else { format!("{}({})", s.name, s.args.join(", ")) }
}

fn rule_at(w: &Words, label: &str, citation: Option<&str>) -> String {
    match citation {
        Some(c) => format!("{} `{label}`, {c}", w.rule),
        None => format!("{} `{label}`", w.rule),
    }
}

fn step(out: &mut String, w: &Words, s: &Step, depth: usize, full: bool) {
    let pad = "  ".repeat(depth + 1);
    let mut head = format!("{pad}{} = {}", step_head(s), s.answer);
    if let Some(r) = &s.decided_by {
        let _ = write!(head, "  [{}]", rule_at(w, &r.label, r.citation.as_deref()));
    } else if let Some(row) = s.row {
        let _ = write!(
            head,
            "  [{} {}{}]",
            w.row,
            row + 1,
            s.citation.as_ref().map(|c| format!(", {c}")).unwrap_or_default()
        );
    }
    let _ = writeln!(out, "{head}");
    for o in &s.overridden {
        let _ = writeln!(out, "{pad}    {} {}", w.overrides, rule_at(w, &o.label, o.citation.as_deref()));
    }
    for a in &s.also {
        let _ = writeln!(out, "{pad}    {} {}", w.also, rule_at(w, &a.label, a.citation.as_deref()));
    }
    for b in s.working.iter().chain(&s.because) {
        out.push_str(&wrap(&format!("· {b}"), &format!("{pad}    "), 100));
    }
    for t in &s.tables {
        super::table::text_into(out, w.lang, t, &format!("{pad}    "), 100);
    }
    // Where nothing decided, the rules considered are the explanation.
    if full || depth == 0 || (s.decided_by.is_none() && s.row.is_none()) {
        for n in &s.not_applied {
            out.push_str(&wrap(
                &format!("✗ {}: {}", rule_at(w, &n.rule.label, n.rule.citation.as_deref()), n.reason),
                &format!("{pad}    "),
                100,
            ));
        }
    }
    for c in &s.children {
        step(out, w, c, depth + 1, full);
    }
}

/// One step of the brief explanation: what it is, its value, and how it was reached.
fn brief_step<'s>(
    out: &mut String,
    lang: Lang,
    s: &'s Step,
    depth: usize,
    seen: &mut Vec<(&'s str, &'s [String])>,
    deciding: &[super::Shared],
) {
    // A step repeated under another (the same definition on the same arguments) is shown once.
    if s.hidden || seen.contains(&(s.name.as_str(), s.args.as_slice())) {
        return;
    }
    seen.push((s.name.as_str(), s.args.as_slice()));
    if s.brief_shown(depth) {
        // "label (args): answer  [citation]"
        // (Wrapping puts one space between words: the head is written with single spaces.)
        let at = s.decided_by.as_ref().and_then(|r| r.citation.as_ref()).or(s.row.and(s.citation.as_ref()));
        // The ruling's own step is the question above: its answer and the clause that decided.
        if depth == 0 {
            let head = super::brevity::root_head(lang, &s.answer, at.map(|c| &**c));
            if !head.is_empty() {
                wrap_into(out, &head, "  ", 100);
            }
        } else {
            let mut head = String::with_capacity(s.label.len() + s.answer.len() + 64);
            head.push_str(&s.label);
            let mut shown = s.args.iter().enumerate().filter(|(i, a)| s.arg_shown(*i, a));
            if let Some((_, first)) = shown.next() {
                head.push_str(" (");
                head.push_str(first);
                for (_, a) in shown {
                    head.push_str(", ");
                    head.push_str(a);
                }
                head.push(')');
            }
            head.push_str(": ");
            head.push_str(&s.answer);
            if let Some(c) = at {
                head.push_str(" [");
                head.push_str(c);
                head.push(']');
            }
            wrap_into(out, &head, "  ", 100);
        }
        for line in s.brief_lines() {
            wrap_into(out, line, "      ", 100);
        }
        for t in &s.tables {
            super::table::text_into(out, lang, t, "      ", 100);
        }
    }
    // Where nothing decided, the rules considered are the explanation; where a rule decided
    // the answer, the exceptions that did not apply come after the working that gave it.
    let decided = s.decided_by.is_some() || s.row.is_some();
    if depth == 0 && decided {
        for c in &s.children {
            brief_step(out, lang, c, depth + 1, seen, deciding);
        }
        not_applied(out, lang, s, "  ", deciding);
        return;
    }
    if depth == 0 || !decided {
        not_applied(out, lang, s, "      ", deciding);
    }
    for c in &s.children {
        brief_step(out, lang, c, depth + 1, seen, deciding);
    }
}

/// The rules of a step that did not apply (or wait for an input), each with its reason.
fn not_applied(out: &mut String, lang: Lang, s: &Step, indent: &str, deciding: &[super::Shared]) {
    for n in s.brief_not_applied(deciding) {
        if let Some(c) = &n.rule.citation {
            let (id, mark, reason) = n.brief_said(deciding);
            let mut line = String::with_capacity(reason.len() + c.len() + 48);
            line.push_str(mark);
            line.push(' ');
            line.push_str(&msg(lang, id, &[("clause", Arg::Text(c)), ("reason", Arg::Text(reason))]));
            wrap_into(out, &line, indent, 100);
        }
    }
}

/// Renders a report for the terminal: the answer first, then the working in words and
/// the clauses quoted. `full` shows instead the whole derivation, with rule names and every
/// rule that did not apply.
pub fn render(r: &Report, full: bool) -> String {
    let lang = Lang::parse(r.lang).unwrap_or(Lang::En);
    if full {
        return render_full(r);
    }
    let mut out = String::with_capacity(4096);
    let title = r.question.clone().unwrap_or_else(|| r.ruling.replace('_', " "));
    let _ = writeln!(out, "{title}\n{}", r.rulebook_title);
    let _ = writeln!(out, "\n{}: {}", word(lang, "answer"), r.answer);
    if let Some(e) = &r.error {
        let _ = writeln!(out, "{}: {e}", word(lang, "error"));
    }
    if !r.needs.is_empty() {
        let _ = writeln!(out, "\n{}:", word(lang, "needs"));
        for n in &r.needs {
            out.push_str(&wrap(&format!("- {}", n.sentence), "  ", 100));
        }
    }
    if !r.steps.is_empty() {
        let _ = writeln!(out, "\n{}:", word(lang, "why"));
        for s in &r.steps {
            brief_step(&mut out, lang, s, 0, &mut Vec::new(), &r.deciding);
        }
    }
    if r.facts.iter().any(FactView::in_brief) {
        let _ = writeln!(out, "\n{}:", word(lang, "facts-used"));
        let mut line = String::with_capacity(256);
        for f in r.facts.iter().filter(|f| f.in_brief()) {
            line.clear();
            line.push_str(&f.line());
            if let Some(c) = &f.citation {
                line.push_str(" [");
                line.push_str(c);
                line.push(']');
            }
            wrap_into(&mut out, &line, "  ", 100);
        }
    }
    clauses(&mut out, lang, r);
    out
}

fn clauses(out: &mut String, lang: Lang, r: &Report) {
    if r.clauses.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}:", word(lang, "clauses"));
    for c in &r.clauses {
        if c.lines.is_empty() {
            out.push_str(&clause_lines(lang, c));
        } else {
            out.push_str(&c.lines);
        }
    }
}

/// A clause as the terminal text cites it: its citation and heading, the quoted text and
/// the gloss, wrapped (worked out once per rulebook, [`super::views`]).
pub(crate) fn clause_lines(lang: Lang, c: &ClauseView) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  {}{}", c.citation, c.heading.as_ref().map(|h| format!(" — {h}")).unwrap_or_default());
    match &c.text {
        // Never quoted: the clause's content in other words, marked as such.
        Some(t) if c.text_kind == TextKind::Paraphrase => {
            out.push_str(&wrap(&format!("{}: {t}", word(lang, "paraphrase")), "    ", 100))
        }
        Some(t) => {
            out.push_str(&wrap(&format!("{}{t}{}", word(lang, "quote-open"), word(lang, "quote-close")), "    ", 100))
        }
        None => {}
    }
    if let Some(g) = &c.gloss {
        out.push_str(&wrap(&format!("{}: {g}", word(lang, "gloss")), "    ", 100));
    }
    out
}

fn render_full(r: &Report) -> String {
    let lang = Lang::parse(r.lang).unwrap_or(Lang::En);
    let w = words(lang);
    let full = true;
    let mut out = String::new();
    let _ = writeln!(out, "{} `{}` — {}", w.ruling, r.ruling, r.rulebook_title);
    if let Some(q) = &r.question {
        let _ = writeln!(out, "{q}");
    }
    let _ = writeln!(out, "\n{}: {}", w.answer, r.answer);
    if let Some(e) = &r.error {
        let _ = writeln!(out, "{}: {e}", w.error);
    }
    if !r.needs.is_empty() {
        let _ = writeln!(out, "\n{}:", w.needs);
        // The full derivation names each input by the key a facts file gives it under.
        for n in &r.needs {
            out.push_str(&wrap(&format!("- {} (`{}`)", n.sentence, n.name), "  ", 100));
        }
    }
    if !r.steps.is_empty() {
        let _ = writeln!(out, "\n{}:", w.why);
        for s in &r.steps {
            step(&mut out, w, s, 0, full);
        }
    }
    if !r.facts.is_empty() {
        let _ = writeln!(out, "\n{}:", w.facts_used);
        for f in &r.facts {
            let desc = f.description.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
            let _ = writeln!(out, "  {} = {}{desc}", f.name, f.value);
        }
    }
    clauses(&mut out, lang, r);
    out
}
