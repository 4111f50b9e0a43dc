//! Glosses checked against the rulebook: a `gloss of "…"` must repeat, exactly, a text
//! the rulebook shows a player (a description, question, `says` phrase, enum label,
//! field description, decision maker or text answer); otherwise it glosses nothing.

use super::program::{IrKind, Program};
use crate::base::value::Value;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::ast;
use std::collections::BTreeSet;

/// Every text of the rulebook that a gloss can translate, as written.
pub fn glossable(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add = |s: Option<&String>| {
        if let Some(s) = s {
            out.insert(s.clone());
        }
    };
    for f in &p.facts {
        add(f.doc.as_ref());
        add(f.says.as_ref());
    }
    for d in &p.decisions {
        add(d.doc.as_ref());
        add(d.says.as_ref());
        add(Some(&d.by));
    }
    for d in &p.defs {
        add(d.doc.as_ref());
        add(d.says.as_ref());
        d.param_docs.iter().for_each(|x| add(x.as_ref()));
    }
    for t in &p.types {
        match &t.kind {
            super::program::TypeKind::Enum(vs) => vs.iter().for_each(|v| add(v.label.as_ref())),
            super::program::TypeKind::Record(fs) => fs.iter().for_each(|f| {
                add(f.doc.as_ref());
                add(f.says.as_ref());
            }),
        }
    }
    let mut texts = Vec::new();
    let mut visit = |ir: &super::program::Ir| {
        ir.visit(&mut |x| {
            if let IrKind::Const(Value::Text(t)) = &x.kind {
                texts.push(t.to_string());
            }
        })
    };
    for r in &p.rules {
        visit(&r.value);
    }
    for d in &p.defs {
        if let Some(t) = &d.table {
            t.rows.iter().for_each(|row| visit(&row.value));
        }
    }
    out.extend(texts);
    out
}

/// An error for each `gloss of` whose text the rulebook never shows.
pub fn check_glosses(p: &Program, files: &[ast::File], diags: &mut Vec<Diagnostic>) {
    let known = glossable(p);
    for f in files {
        let decls = f.items.iter().flat_map(|item| -> Box<dyn Iterator<Item = &ast::Decl>> {
            match item {
                ast::Item::Decl(d) => Box::new(std::iter::once(d)),
                ast::Item::Clause(c) => Box::new(c.decls()),
                ast::Item::Rulebook(_) => Box::new(std::iter::empty()),
            }
        });
        for d in decls {
            let ast::Decl::Gloss(g) = d else { continue };
            if known.contains(&g.of.value) {
                continue;
            }
            let crowded = crate::diagnostic::crowded(diags, g.of.span.file);
            let near = if crowded { None } else { did_you_mean(&g.of.value, known.iter().map(String::as_str)) };
            let help = near.unwrap_or_else(|| {
                "repeat exactly the text of a description, question, label or text answer".to_string()
            });
            diags.push(
                Diagnostic::error(
                    "conditions::gloss_of_nothing",
                    format!("`gloss of \"{}\"` glosses no text of the rulebook", g.of.value),
                )
                .at(g.of.span, "no description, question, label or text answer reads so")
                .help(help),
            );
        }
    }
}
