//! Markdown: the same report as the terminal text, for a web page or an e-mail.

use super::i18n::words;
use super::{FactView, Report, Step};
use crate::base::messages::{Arg, msg};
use crate::check::program::TextKind;
use crate::show::Lang;
use std::fmt::Write;

/// Text made inert in Markdown: `<`, `>` and `&` as entities, so no raw HTML from a
/// facts file reaches the page.
pub(crate) fn escape(s: &str) -> String {
    if !s.contains(['<', '>', '&']) {
        return s.to_string();
    }
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn step(out: &mut String, s: &Step, depth: usize, full: bool, lang: Lang) {
    let w = words(lang);
    let pad = "  ".repeat(depth);
    let head = if s.args.is_empty() { s.name.clone() } else { format!("{}({})", s.name, escape(&s.args.join(", "))) };
    let by = match (&s.decided_by, s.row) {
        (Some(r), _) => format!(
            " — {} `{}`{}",
            w.rule,
            r.label,
            r.citation.as_ref().map(|c| format!(", **{c}**")).unwrap_or_default()
        ),
        (None, Some(row)) => {
            format!(" — {} {}{}", w.row, row + 1, s.citation.as_ref().map(|c| format!(", **{c}**")).unwrap_or_default())
        }
        _ => String::new(),
    };
    let _ = writeln!(out, "{pad}- `{head}` = **{}**{by}", escape(&s.answer).replace('*', "\\*"));
    for o in &s.overridden {
        let _ = writeln!(
            out,
            "{pad}  - {} `{}`{}",
            w.overrides,
            o.label,
            o.citation.as_ref().map(|c| format!(", {c}")).unwrap_or_default()
        );
    }
    for a in &s.also {
        let _ = writeln!(
            out,
            "{pad}  - {} `{}`{}",
            w.also,
            a.label,
            a.citation.as_ref().map(|c| format!(", {c}")).unwrap_or_default()
        );
    }
    for b in s.working.iter().chain(&s.because) {
        let _ = writeln!(out, "{pad}  - {}", escape(b));
    }
    for t in &s.tables {
        super::table::markdown_into(out, lang, t, &format!("{pad}  "));
    }
    if full || depth == 0 || (s.decided_by.is_none() && s.row.is_none()) {
        for n in &s.not_applied {
            let _ = writeln!(
                out,
                "{pad}  - ✗ `{}`{}: {}",
                n.rule.label,
                n.rule.citation.as_ref().map(|c| format!(" ({c})")).unwrap_or_default(),
                escape(&n.reason)
            );
        }
    }
    for c in &s.children {
        step(out, c, depth + 1, full, lang);
    }
}

/// One step of the brief explanation: what it is, its value, and the working beneath.
fn brief_step<'s>(
    out: &mut String,
    s: &'s Step,
    depth: usize,
    lang: Lang,
    seen: &mut Vec<(&'s str, &'s [String])>,
    deciding: &[super::Shared],
) {
    // A step repeated under another (the same definition on the same arguments) is shown once.
    if s.hidden || seen.contains(&(s.name.as_str(), s.args.as_slice())) {
        return;
    }
    seen.push((s.name.as_str(), s.args.as_slice()));
    let args = s.args_shown();
    let at = s.decided_by.as_ref().and_then(|r| r.citation.clone()).or_else(|| s.row.and(s.citation.clone()));
    let at = at.map(|c| format!(" — **{c}**")).unwrap_or_default();
    if s.brief_shown(depth) {
        // The ruling's own step is the question above: its answer and the clause that decided.
        if depth == 0 {
            match (super::brevity::root_answer(&s.answer), at.is_empty()) {
                (true, _) => writeln!(out, "- **{}**{at}", escape(&s.answer)).unwrap_or_default(),
                (false, false) => writeln!(out, "- {}{at}", escape(&crate::base::messages::word(lang, "answer-above")))
                    .unwrap_or_default(),
                (false, true) => {}
            }
        } else {
            let _ = writeln!(out, "- {}{}: **{}**{at}", escape(&s.label), escape(&args), escape(&s.answer));
        }
        for line in s.brief_lines() {
            let _ = writeln!(out, "  - {}", escape(line));
        }
        for t in &s.tables {
            super::table::markdown_into(out, lang, t, "  ");
        }
    }
    // Where nothing decided, the rules considered are the explanation; where a rule decided
    // the answer, the exceptions that did not apply come after the working that gave it.
    let decided = s.decided_by.is_some() || s.row.is_some();
    if depth == 0 && decided {
        for c in &s.children {
            brief_step(out, c, depth + 1, lang, seen, deciding);
        }
        not_applied(out, s, lang, "- ", deciding);
        return;
    }
    if depth == 0 || !decided {
        not_applied(out, s, lang, "  - ", deciding);
    }
    for c in &s.children {
        brief_step(out, c, depth + 1, lang, seen, deciding);
    }
}

/// The rules of a step that did not apply (or wait for an input), each with its reason.
fn not_applied(out: &mut String, s: &Step, lang: Lang, bullet: &str, deciding: &[super::Shared]) {
    for n in s.brief_not_applied(deciding) {
        if let Some(c) = &n.rule.citation {
            let (id, mark, reason) = n.brief_said(deciding);
            let line = msg(lang, id, &[("clause", Arg::Text(c)), ("reason", Arg::Text(reason))]);
            let _ = writeln!(out, "{bullet}{mark} {}", escape(&line));
        }
    }
}

pub fn render(r: &Report, full: bool) -> String {
    let lang = Lang::parse(r.lang).unwrap_or(Lang::En);
    let w = words(lang);
    let mut out = String::new();
    let _ = writeln!(out, "# {} `{}`\n", w.ruling, r.ruling);
    let _ = writeln!(out, "*{}*\n", r.rulebook_title);
    if let Some(q) = &r.question {
        let _ = writeln!(out, "{q}\n");
    }
    let _ = writeln!(out, "**{}: {}**\n", w.answer, escape(&r.answer));
    if let Some(e) = &r.error {
        let _ = writeln!(out, "{}: {e}\n", w.error);
    }
    if !r.needs.is_empty() {
        let _ = writeln!(out, "## {}\n", w.needs);
        // The full derivation names each input by the key a facts file gives it under.
        for n in &r.needs {
            match full {
                true => writeln!(out, "- {} (`{}`)", escape(&n.sentence), n.name),
                false => writeln!(out, "- {}", escape(&n.sentence)),
            }
            .unwrap_or_default();
        }
        out.push('\n');
    }
    if !r.steps.is_empty() {
        let _ = writeln!(out, "## {}\n", w.why);
        for s in &r.steps {
            if full {
                step(&mut out, s, 0, full, lang)
            } else {
                brief_step(&mut out, s, 0, lang, &mut Vec::new(), &r.deciding)
            }
        }
        out.push('\n');
    }
    if r.facts.iter().any(FactView::in_brief) {
        let _ = writeln!(out, "## {}\n", w.facts_used);
        for f in r.facts.iter().filter(|f| f.in_brief()) {
            if let Some(s) = &f.sentence {
                let at = f.citation.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
                let _ = writeln!(out, "- {}{at}", escape(s));
                continue;
            }
            let desc = f.description.as_ref().map(|d| format!(" — {d}")).unwrap_or_default();
            let at = f.citation.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
            let _ = writeln!(out, "- `{}` = {}{desc}{at}", f.name, escape(&f.value));
        }
        out.push('\n');
    }
    if !r.clauses.is_empty() {
        let _ = writeln!(out, "## {}\n", w.clauses);
        for c in &r.clauses {
            let _ = writeln!(
                out,
                "### {}{}\n",
                c.citation,
                c.heading.as_ref().map(|h| format!(" — {h}")).unwrap_or_default()
            );
            match &c.text {
                Some(t) if c.text_kind == TextKind::Paraphrase => {
                    let _ = writeln!(out, "*{}:* {t}\n", crate::base::messages::word(lang, "paraphrase"));
                }
                Some(t) => {
                    let _ = writeln!(out, "> {t}\n");
                }
                None => {}
            }
            if let Some(g) = &c.gloss {
                let _ = writeln!(out, "*{}:* {g}\n", w.gloss);
            }
        }
    }
    out
}
