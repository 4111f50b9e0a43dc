//! The lint `lint::tie_group_unread`: an ordering whose tie-break (`among tied by …` or
//! `among tied in turn by …`) never reads the tied group. The bridge tie-break counts only
//! the matches between the tied teams; keys that ignore the group rank every tied group as
//! the plain keys after `by` would (in either form: such a key separates a smaller group
//! exactly as it did the whole), and the group's name was most likely meant to be passed on
//! (`vp_among(t, tied)`). Keys after `by` are worked out only for the items still tied on
//! the keys before them, so moving them there never reads a key of a team already
//! separated (no quotient of a team that lost nothing).

use crate::check::Checked;
use crate::check::program::{Ir, IrKind, KeyIr, Program};
use crate::diagnostic::Diagnostic;

const CODE: &str = "lint::tie_group_unread";

/// The keys as written, each with its direction when descending: `vp(t) descending, imps(t)`.
fn written(checked: &Checked, keys: &[KeyIr]) -> String {
    let shown: Vec<String> = keys
        .iter()
        .map(|k| {
            let key = checked.sources.snippet(k.key.span).trim();
            if k.descending { format!("{key} descending") } else { key.to_string() }
        })
        .collect();
    shown.join(", ")
}

pub fn lint(checked: &Checked) -> Vec<Diagnostic> {
    let p: &Program = &checked.program;
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
                    let all = format!("{}, {}", written(checked, &o.keys), written(checked, keys));
                    out.push(
                        Diagnostic::warning(CODE, "the tie-break never reads the tied group")
                            .at(x.span, "no key reads the group named after `among`")
                            .help(format!(
                                "pass the group to the keys that count only the matches between the tied \
                                 (`vp_among(t, tied)`); or, if none should, write the keys after `by` in the \
                                 same order (`by {all}`): each key there is worked out only for the items \
                                 still tied on the keys before it, so a key with no value for an item \
                                 already separated (a division by zero) is never needed"
                            )),
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
