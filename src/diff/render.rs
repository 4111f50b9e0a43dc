//! Rendering a [`Report`]: plain text for a terminal (explanations side by side),
//! Markdown for a pull-request comment, JSON, and GitHub workflow annotations.

use super::renames::{Ambiguous, BY_COMMAND, BY_HEURISTIC, BY_NOTE, Rename};
use super::words::{Run, context};
use super::{ClauseChange, DeclChange, Report, RulingChange};
use std::fmt::Write;

const CONTEXT: usize = 6;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Where the rulings changed, out of what was compared: `4 of 289 case files`, `2 of 8 facts
/// lines`, or both joined by `and`.
fn compared(r: &Report) -> String {
    let (cases, lines) = r.changed_counts();
    let case_part = format!("{cases} of {}", plural(r.cases_compared, "case file", "case files"));
    let line_part = format!("{lines} of {}", plural(r.facts_lines_compared, "facts line", "facts lines"));
    match (r.cases_compared > 0, r.facts_lines_compared > 0) {
        (true, true) => format!("{case_part} and {line_part}"),
        (false, true) => line_part,
        _ => case_part,
    }
}

fn summary(r: &Report) -> String {
    let mut s = format!(
        "{} changed; {} in {}",
        plural(r.clauses.len(), "clause", "clauses"),
        plural(r.rulings.len(), "ruling changes", "rulings change"),
        compared(r)
    );
    let _ = write!(s, "; {} broken", plural(r.broken.len(), "case expectation", "case expectations"));
    if !r.renames.is_empty() {
        let _ = write!(s, "; {}", plural(r.renames.len(), "name renamed", "names renamed"));
    }
    if !r.not_compared.is_empty() {
        let _ = write!(
            s,
            "; {} not compared (facts that fit only one version)",
            plural(r.not_compared.len(), "case file or facts line", "case files or facts lines")
        );
    }
    s
}

/// `fact `member` → `present``, and how the rename was found.
fn rename_line(r: &Rename) -> String {
    let how = match r.how {
        BY_COMMAND => "given by `--rename`".to_string(),
        BY_NOTE => "noted `renamed from` in the new version".to_string(),
        BY_HEURISTIC => {
            let place = if r.record.is_some() { "same record" } else { "same clause" };
            format!("probably renamed: {place}, same type, similar description")
        }
        other => other.to_string(),
    };
    format!("{} `{}` → `{}` ({how})", r.what, r.shown(&r.old), r.shown(&r.new))
}

fn ambiguous_line(a: &Ambiguous) -> String {
    let names = |xs: &[String]| {
        xs.iter()
            .map(|x| format!("`{}`", a.record.as_ref().map_or_else(|| x.clone(), |r| format!("{r}.{x}"))))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{} {} → {}: more than one way to pair these names, so none is taken as renamed; say which with `--rename OLD=NEW` or a `renamed from` note",
        a.what,
        names(&a.old),
        names(&a.new)
    )
}

/// The lines about renames: those taken, those not taken and why.
fn rename_lines(r: &Report) -> Vec<String> {
    let mut out: Vec<String> = r.renames.iter().map(rename_line).collect();
    out.extend(r.ambiguous_renames.iter().map(|a| format!("not renamed: {}", ambiguous_line(a))));
    out.extend(r.unused_rename_notes.iter().map(|n| format!("not renamed: {n}")));
    out
}

/// `fact changed `x`` (`fact `x` changed` with `kind_last`), or `fact renamed `old` → `new``.
fn decl_title(d: &DeclChange, kind_last: bool) -> String {
    match &d.old_name {
        Some(o) if d.kind == "renamed" => format!("{} renamed `{o}` → `{}`", d.what, d.name),
        Some(o) => format!("{} {} `{}` (renamed from `{o}`)", d.what, d.kind, d.name),
        None if kind_last => format!("{} `{}` {}", d.what, d.name, d.kind),
        None => format!("{} {} `{}`", d.what, d.kind, d.name),
    }
}

fn runs_text(runs: &[Run]) -> String {
    context(runs, CONTEXT)
        .iter()
        .map(|r| match r {
            Run::Same(s) => s.clone(),
            Run::Removed(s) => format!("[-{s}-]"),
            Run::Added(s) => format!("{{+{s}+}}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn runs_markdown(runs: &[Run]) -> String {
    context(runs, CONTEXT)
        .iter()
        .map(|r| match r {
            Run::Same(s) => md_escape(s),
            Run::Removed(s) => format!("~~{}~~", md_escape(s)),
            Run::Added(s) => format!("**{}**", md_escape(s)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line whose names are in backticks: the names kept as code, the rest escaped.
fn md_code(s: &str) -> String {
    s.split('`').enumerate().map(|(i, part)| if i % 2 == 1 { format!("`{part}`") } else { md_escape(part) }).collect()
}

fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '_' | '~' | '`' | '|' | '<' | '>' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn side_line(s: &super::Side) -> String {
    if s.status == "decided" { s.answer.clone() } else { format!("{}: {}", s.status, s.answer) }
}

/// Two blocks of lines side by side, the left one padded to its widest line.
fn side_by_side(left: &str, right: &str, indent: &str) -> String {
    let (l, r): (Vec<&str>, Vec<&str>) = (left.lines().collect(), right.lines().collect());
    let width = l.iter().map(|x| x.chars().count()).max().unwrap_or(0).clamp(6, 72);
    let mut out = String::new();
    let _ = writeln!(out, "{indent}{:<width$} │ after", "before");
    for i in 0..l.len().max(r.len()) {
        let a = l.get(i).copied().unwrap_or("");
        let shown: String =
            if a.chars().count() > width { a.chars().take(width - 1).chain(['…']).collect() } else { a.into() };
        let _ = writeln!(out, "{indent}{shown:<width$} │ {}", r.get(i).copied().unwrap_or(""));
    }
    out
}

pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "conditions diff {} → {}", r.old, r.new);
    let _ = writeln!(out, "{}", summary(r));
    let renamed = rename_lines(r);
    if !renamed.is_empty() {
        let _ = writeln!(out, "\nrenames:");
        for l in renamed {
            let _ = writeln!(out, "  {l}");
        }
    }
    for c in &r.clauses {
        let _ = writeln!(out, "\n{} clause `{}`", c.kind, c.citation);
        for p in &c.parts {
            let _ = writeln!(out, "  {}: {}", p.part, runs_text(&p.runs));
        }
        for d in &c.declarations {
            let _ = writeln!(out, "  {}", decl_title(d, false));
            for o in d.old.iter().flat_map(|o| o.lines()) {
                let _ = writeln!(out, "    - {o}");
            }
            for n in d.new.iter().flat_map(|n| n.lines()) {
                let _ = writeln!(out, "    + {n}");
            }
        }
    }
    for ch in &r.rulings {
        let _ = writeln!(out, "\n{} — `{}`: {} → {}", ch.source, ch.ruling, side_line(&ch.old), side_line(&ch.new));
        out.push_str(&side_by_side(&ch.old.explanation, &ch.new.explanation, "    "));
    }
    if !r.broken.is_empty() {
        let _ = writeln!(out, "\ncase files whose expectations the new version breaks:");
        for b in &r.broken {
            let first = b.message.lines().next().unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}{}: {first}",
                b.case,
                b.ruling.as_ref().map(|x| format!(" — `{x}`")).unwrap_or_default()
            );
        }
    }
    for n in &r.not_compared {
        let _ = writeln!(out, "\nnot compared: {}: {}", n.source, n.reason);
    }
    for p in &r.problems {
        let _ = writeln!(out, "\nnot compared: {p}");
    }
    out
}

fn clause_markdown(out: &mut String, c: &ClauseChange) {
    let _ = writeln!(out, "\n#### {} ({})\n", md_escape(&c.citation), c.kind);
    for p in &c.parts {
        let _ = writeln!(out, "- {}: {}", p.part, runs_markdown(&p.runs));
    }
    for d in &c.declarations {
        let _ = writeln!(out, "- {}", decl_title(d, true));
        let _ = writeln!(out, "  ```diff");
        for o in d.old.iter().flat_map(|o| o.lines()) {
            let _ = writeln!(out, "  - {o}");
        }
        for n in d.new.iter().flat_map(|n| n.lines()) {
            let _ = writeln!(out, "  + {n}");
        }
        let _ = writeln!(out, "  ```");
    }
}

fn ruling_details(out: &mut String, ch: &RulingChange) {
    let _ = writeln!(
        out,
        "\n<details><summary>{} — {}</summary>\n\n<table><tr><th>before</th><th>after</th></tr><tr><td><pre>{}</pre></td><td><pre>{}</pre></td></tr></table>\n\n</details>",
        html(&ch.source),
        html(&ch.ruling),
        html(ch.old.explanation.trim_end()),
        html(ch.new.explanation.trim_end())
    );
}

pub fn markdown(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## `conditions diff` {} → {}\n", md_escape(&r.old), md_escape(&r.new));
    let _ = writeln!(out, "{}.", summary(r));
    let renamed = rename_lines(r);
    if !renamed.is_empty() {
        let _ = writeln!(out, "\n### Renames\n");
        for l in renamed {
            let _ = writeln!(out, "- {}", md_code(&l));
        }
    }
    if !r.clauses.is_empty() {
        let _ = writeln!(out, "\n### Clauses");
        for c in &r.clauses {
            clause_markdown(&mut out, c);
        }
    }
    if !r.rulings.is_empty() {
        let _ = writeln!(out, "\n### Rulings that change\n");
        let _ = writeln!(out, "| case file | ruling | before | after |\n|---|---|---|---|");
        for ch in &r.rulings {
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} |",
                md_escape(&ch.source),
                ch.ruling,
                md_escape(&side_line(&ch.old)),
                md_escape(&side_line(&ch.new))
            );
        }
        for ch in &r.rulings {
            ruling_details(&mut out, ch);
        }
    }
    if !r.broken.is_empty() {
        let _ = writeln!(out, "\n### Case files whose expectations the new version breaks\n");
        for b in &r.broken {
            let first = b.message.lines().next().unwrap_or_default();
            let ruling = b.ruling.as_ref().map(|x| format!(" — `{x}`")).unwrap_or_default();
            let _ = writeln!(out, "- {}{ruling}: {}", md_escape(&b.case), md_escape(first));
        }
    }
    if !r.problems.is_empty() || !r.not_compared.is_empty() {
        let _ = writeln!(out, "\n### Not compared\n");
        for n in &r.not_compared {
            let _ = writeln!(out, "- {}: {}", md_escape(&n.source), md_escape(&n.reason));
        }
        for p in &r.problems {
            let _ = writeln!(out, "- {}", md_escape(p));
        }
    }
    out
}

pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn gh(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// GitHub workflow commands: a notice per changed clause, a warning per changed ruling,
/// an error per broken expectation.
pub fn github(r: &Report) -> String {
    let mut out = String::new();
    for c in &r.clauses {
        // Properties after one space, separated by commas: `::notice file=…,line=…,title=…::`.
        let at = match (&c.file, c.line) {
            (Some(f), Some(l)) => format!("file={f},line={l},"),
            _ => String::new(),
        };
        let what: Vec<String> = c
            .parts
            .iter()
            .map(|p| format!("{}: {}", p.part, runs_text(&p.runs)))
            .chain(c.declarations.iter().map(|d| decl_title(d, true)))
            .collect();
        let _ = writeln!(out, "::notice {at}title=clause {} {}::{}", c.citation, c.kind, gh(&what.join("\n")));
    }
    for l in rename_lines(r) {
        let _ = writeln!(out, "::notice title=rename::{}", gh(&l));
    }
    for n in &r.not_compared {
        let file =
            n.source.rsplit_once(':').filter(|(_, x)| x.parse::<usize>().is_ok()).map_or(n.source.as_str(), |(f, _)| f);
        let _ = writeln!(out, "::warning file={file},title=not compared::{}", gh(&n.reason));
    }
    for ch in &r.rulings {
        let file = ch
            .source
            .rsplit_once(':')
            .filter(|(_, n)| n.parse::<usize>().is_ok())
            .map_or(ch.source.as_str(), |(f, _)| f);
        let _ = writeln!(
            out,
            "::warning file={file},title=ruling {} changes::{}",
            ch.ruling,
            gh(&format!("{} → {}", side_line(&ch.old), side_line(&ch.new)))
        );
    }
    for b in &r.broken {
        let _ = writeln!(
            out,
            "::error file={},title=expectation broken::{}",
            b.case,
            gh(&format!("{}{}", b.ruling.as_ref().map(|x| format!("{x}: ")).unwrap_or_default(), b.message))
        );
    }
    out
}
