//! What a name stands for, in Markdown: a fact's type, description and clause; a ruling's
//! question and type; a clause's verbatim text and gloss; an enum variant's label.
//! Texts from the rulebook are escaped, so that they show as written.

use super::{Analysis, Target};
use crate::check::program::*;

/// Markdown-escaped text: shown as written, never as markup.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A text and, when the rulebook glosses it, its English.
fn with_gloss(p: &Program, text: &str) -> String {
    match p.glosses.get(text) {
        Some(g) if p.rulebook.language != "en" => format!("{}\n\n*{}*", md(text), md(g)),
        _ => md(text),
    }
}

fn clause_line(p: &Program, clause: Option<ClauseId>) -> Option<String> {
    let c = p.clauses.get(clause? as usize)?;
    Some(match &c.heading {
        Some(h) => format!("Clause `{}` — {}", c.citation, md(h)),
        None => format!("Clause `{}`", c.citation),
    })
}

/// The name of a target as written: a citation for clauses, the label for rules.
pub fn name(a: &Analysis, t: Target) -> String {
    let p = &a.checked.program;
    let s = match t {
        Target::Fact(i) => p.facts.get(i as usize).map(|x| x.name.clone()),
        Target::Decision(i) => p.decisions.get(i as usize).map(|x| x.name.clone()),
        Target::Def(i) => p.defs.get(i as usize).map(|x| x.name.clone()),
        Target::Type(i) => p.types.get(i as usize).map(|x| x.name.clone()),
        Target::Variant(t, v) => match p.types.get(t as usize).map(|x| &x.kind) {
            Some(TypeKind::Enum(vs)) => vs.get(v as usize).map(|x| x.name.clone()),
            _ => None,
        },
        Target::Field(t, f) => match p.types.get(t as usize).map(|x| &x.kind) {
            Some(TypeKind::Record(fs)) => fs.get(f as usize).map(|x| x.name.clone()),
            _ => None,
        },
        Target::Rule(i) => p.rules.get(i as usize).map(|x| x.label.clone()),
        Target::Clause(i) => p.clauses.get(i as usize).map(|x| x.citation.clone()),
        Target::External(i) => p.externals.get(i as usize).map(|x| x.citation.clone()),
        Target::Local { file, start } => a.index.local_names.get(&(file, start)).cloned(),
    };
    s.unwrap_or_default()
}

/// The hover text of a target.
pub fn describe(a: &Analysis, t: Target) -> Option<String> {
    let p = &a.checked.program;
    let mut parts: Vec<String> = Vec::new();
    match t {
        Target::Fact(i) => {
            let f = p.facts.get(i as usize)?;
            parts.push(format!("**fact** `{}`: `{}`", f.name, p.describe(&f.ty)));
            parts.extend(f.doc.as_deref().map(|d| with_gloss(p, d)));
            parts.extend(clause_line(p, f.clause));
        }
        Target::Decision(i) => {
            let d = p.decisions.get(i as usize)?;
            let kind = match d.kind {
                crate::syntax::ast::DecisionKind::Decision => "decision",
                crate::syntax::ast::DecisionKind::Lot => "lot",
            };
            parts.push(format!("**{kind}** `{}`: `{}` — by {}", d.name, p.describe(&d.ty), md(&d.by)));
            parts.extend(d.doc.as_deref().map(|x| with_gloss(p, x)));
            parts.extend(clause_line(p, d.clause));
        }
        Target::Def(i) => parts.extend(def(p, i)),
        Target::Type(i) => parts.extend(type_info(p, i)),
        Target::Variant(ti, v) => {
            let ty = p.types.get(ti as usize)?;
            let TypeKind::Enum(vs) = &ty.kind else { return None };
            let var = vs.get(v as usize)?;
            parts.push(format!("**variant** `{}` of `{}`", var.name, ty.name));
            parts.extend(var.label.as_deref().map(|l| with_gloss(p, l)));
        }
        Target::Field(ti, f) => {
            let ty = p.types.get(ti as usize)?;
            let TypeKind::Record(fs) = &ty.kind else { return None };
            let field = fs.get(f as usize)?;
            let opt = if field.optional { " (optional)" } else { "" };
            parts.push(format!("**field** `{}.{}`: `{}`{opt}", ty.name, field.name, p.describe(&field.ty)));
            parts.extend(field.doc.as_deref().map(|d| with_gloss(p, d)));
        }
        Target::Rule(i) => {
            let r = p.rules.get(i as usize)?;
            let target = p.defs.get(r.def as usize).map_or("?", |d| d.name.as_str());
            parts.push(format!("**rule** `{}` for `{target}`", r.label));
            if !r.overrides.is_empty() {
                let names: Vec<String> =
                    r.overrides.iter().map(|o| format!("`{}`", p.rules[*o as usize].label)).collect();
                parts.push(format!("an exception to {}", names.join(", ")));
            }
            parts.extend(clause_line(p, r.clause));
        }
        Target::Clause(i) => parts.extend(clause(p, i)),
        Target::External(i) => {
            let e = p.externals.get(i as usize)?;
            parts.push(format!("**external** `{}`", e.citation));
            parts.extend(e.title.as_deref().map(|x| with_gloss(p, x)));
            parts.push("outside these conditions".into());
        }
        Target::Local { file, start } => {
            let name = a.index.local_names.get(&(file, start))?;
            match a.index.local_types.get(&(file, start)) {
                Some(ty) => parts.push(format!("`{name}`: `{}`", p.describe(ty))),
                None => parts.push(format!("`{name}`")),
            }
        }
    }
    Some(parts.join("\n\n"))
}

fn def(p: &Program, i: DefId) -> Vec<String> {
    let Some(d) = p.defs.get(i as usize) else { return Vec::new() };
    let kind = if d.is_ruling() {
        "ruling"
    } else if d.table.is_some() {
        "table"
    } else {
        "def"
    };
    let params = if d.params.is_empty() {
        String::new()
    } else {
        let ps: Vec<String> = d.params.iter().map(|(n, t)| format!("{n}: {}", p.describe(t))).collect();
        format!("({})", ps.join(", "))
    };
    let mut parts = vec![format!("**{kind}** `{}{params}`: `{}`", d.name, p.describe(&d.ty))];
    parts.extend(d.doc.as_deref().map(|x| with_gloss(p, x)));
    parts.extend(d.says.as_deref().map(|s| format!("says “{}”", md(s))));
    parts.extend(clause_line(p, d.clause));
    if !d.rules.is_empty() {
        let names: Vec<String> = d.rules.iter().map(|r| format!("`{}`", p.rules[*r as usize].label)).collect();
        parts.push(format!("rules: {}", names.join(", ")));
    }
    parts
}

fn type_info(p: &Program, i: TypeId) -> Vec<String> {
    let Some(t) = p.types.get(i as usize) else { return Vec::new() };
    match &t.kind {
        TypeKind::Enum(vs) => {
            let mut parts = vec![format!("**enum** `{}`", t.name)];
            let lines: Vec<String> = vs
                .iter()
                .map(|v| match &v.label {
                    Some(l) => format!("- `{}` — {}", v.name, md(l)),
                    None => format!("- `{}`", v.name),
                })
                .collect();
            parts.push(lines.join("\n"));
            parts
        }
        TypeKind::Record(fs) => {
            let mut parts = vec![format!("**record** `{}`", t.name)];
            let lines: Vec<String> = fs
                .iter()
                .map(|f| {
                    let opt = if f.optional { "?" } else { "" };
                    let doc = f.doc.as_deref().map(|d| format!(" — {}", md(d))).unwrap_or_default();
                    format!("- `{}{opt}`: `{}`{doc}", f.name, p.describe(&f.ty))
                })
                .collect();
            parts.push(lines.join("\n"));
            parts
        }
    }
}

fn clause(p: &Program, i: ClauseId) -> Vec<String> {
    let Some(c) = p.clauses.get(i as usize) else { return Vec::new() };
    let mut parts = vec![match &c.heading {
        Some(h) => format!("**clause** `{}` — {}", c.citation, md(h)),
        None => format!("**clause** `{}`", c.citation),
    }];
    match &c.text {
        Some(t) if c.text_kind == crate::check::program::TextKind::Paraphrase => {
            parts.push(format!("paraphrase (the printed text is not at hand): {}", md(t)))
        }
        Some(t) => parts.push(format!("> {}", md(t))),
        None => {}
    }
    if let Some(g) = &c.gloss {
        parts.push(format!("*{}*", md(g)));
    }
    if let Some(w) = &c.informational {
        parts.push(format!("informational: {}", md(w)));
    }
    if !c.cites.is_empty() {
        let cites: Vec<String> = c.cites.iter().map(|x| format!("`{x}`")).collect();
        parts.push(format!("cites {}", cites.join(", ")));
    }
    parts
}
