//! The lint `lint::tie_group_unread`: an ordering whose tie-break (`among tied by …`) never
//! reads the tied group. The bridge tie-break counts only the matches between the tied teams;
//! keys that ignore the group rank every tied group as the plain keys after `by` would, and
//! the group's name was most likely meant to be passed on (`vp_among(t, tied)`).

use crate::check::program::{Ir, IrKind, Program};
use crate::diagnostic::Diagnostic;

const CODE: &str = "lint::tie_group_unread";

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut check = |ir: &Ir| {
        ir.visit(&mut |x| {
            if let IrKind::Order(o) = &x.kind
                && let Some((slot, keys)) = &o.among
            {
                let mut read = false;
                for k in keys {
                    k.key.visit(&mut |y| read |= matches!(y.kind, IrKind::Local(s) if s == *slot));
                }
                if !read {
                    out.push(
                        Diagnostic::warning(CODE, "the tie-break never reads the tied group")
                            .at(x.span, "no key reads the group named after `among`")
                            .help(
                                "pass the group to the keys that count only the matches between the tied \
                                 (`vp_among(t, tied)`), or write the keys after `by`",
                            ),
                    );
                }
            }
        })
    };
    for r in &p.rules {
        check(&r.value);
        if let Some(g) = &r.guard {
            check(g);
        }
    }
    for d in &p.defs {
        for row in d.table.iter().flat_map(|t| &t.rows) {
            check(&row.value);
        }
    }
    out
}
