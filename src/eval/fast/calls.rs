//! What the program's calls and rule trees say about how a ruling can run, worked out once
//! when it is compiled: how deep calls can go ([`depths`]), which rules stand in several
//! rule trees ([`reached`]), and which definitions a ruling works out at most once without
//! keeping their result ([`once`]).

use crate::check::program::*;

/// For each rule, how many places of the rule trees reach it: as an exception to another
/// rule, or as a rule of its definition that is an exception to none.
pub(crate) fn reached(p: &Program) -> Vec<u32> {
    let mut reached = vec![0u32; p.rules.len()];
    for r in p.rules.iter() {
        for &e in &r.exceptions {
            reached[e as usize] += 1;
        }
    }
    for d in p.defs.iter() {
        for &r in d.rules.iter().filter(|&&r| p.rules[r as usize].overrides.is_empty()) {
            reached[r as usize] += 1;
        }
    }
    reached
}

/// The definitions each definition calls (with repeats), from its rules and table.
fn callees(p: &Program) -> Vec<Vec<DefId>> {
    p.defs
        .iter()
        .map(|d| {
            let mut out = Vec::new();
            let mut note = |ir: &Ir| {
                if let IrKind::Call(c, _) = &ir.kind {
                    out.push(*c);
                }
            };
            for &r in &d.rules {
                let rule = &p.rules[r as usize];
                rule.value.visit(&mut note);
                if let Some(g) = &rule.guard {
                    g.visit(&mut note);
                }
            }
            if let Some(t) = &d.table {
                t.rows.iter().for_each(|row| row.value.visit(&mut note));
            }
            out
        })
        .collect()
}

/// For each definition the longest chain of calls it starts, itself included (`u32::MAX`
/// for a definition on a cycle, which the checker refuses).
pub(crate) fn depths(p: &Program) -> Box<[u32]> {
    let callees = callees(p);
    // 0: not yet seen; ON_PATH: on the path being explored.
    const ON_PATH: u32 = u32::MAX - 1;
    let mut depth = vec![0u32; p.defs.len()];
    for start in 0..p.defs.len() {
        if depth[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        depth[start] = ON_PATH;
        while let Some((d, i)) = stack.last_mut() {
            let d = *d;
            match callees[d].get(*i).map(|&c| c as usize) {
                Some(c) if c < depth.len() => {
                    *i += 1;
                    match depth[c] {
                        0 => {
                            depth[c] = ON_PATH;
                            stack.push((c, 0));
                        }
                        ON_PATH => depth[d] = u32::MAX,
                        _ => {}
                    }
                }
                Some(_) => *i += 1,
                None => {
                    stack.pop();
                    let own = if depth[d] == u32::MAX {
                        u32::MAX
                    } else {
                        let deepest = callees[d].iter().filter_map(|&c| depth.get(c as usize)).copied().max();
                        deepest.unwrap_or(0).saturating_add(1)
                    };
                    depth[d] = own;
                    if own == u32::MAX
                        && let Some((caller, _)) = stack.last()
                    {
                        depth[*caller] = u32::MAX;
                    }
                }
            }
        }
    }
    depth.into()
}

/// For each definition, whether a ruling works it out at most once, so that its result
/// need not be kept: it has no parameters, and it is called from one place only, outside
/// any lambda or ordering key, in a rule of a definition without parameters that one rule
/// tree only reaches (or in that definition's table).
pub(crate) fn once(p: &Program, reached: &[u32]) -> Vec<bool> {
    let mut sites = vec![0u32; p.defs.len()];
    let mut safe = vec![true; p.defs.len()];
    let mut note = |ir: &Ir, in_once_place: bool| {
        walk(ir, false, &mut |ir, looped| {
            if let IrKind::Call(c, _) = &ir.kind
                && let Some(n) = sites.get_mut(*c as usize)
            {
                *n += 1;
                if looped || !in_once_place {
                    safe[*c as usize] = false;
                }
            }
        })
    };
    for (i, r) in p.rules.iter().enumerate() {
        let once_place = p.defs[r.def as usize].params.is_empty() && reached[i] <= 1;
        note(&r.value, once_place);
        if let Some(g) = &r.guard {
            note(g, once_place);
        }
    }
    for d in p.defs.iter() {
        if let Some(t) = &d.table {
            for row in &t.rows {
                note(&row.value, d.params.is_empty());
            }
        }
    }
    p.defs.iter().enumerate().map(|(i, d)| d.params.is_empty() && sites[i] == 1 && safe[i]).collect()
}

/// Visits `ir` and every expression in it, saying of each whether it is inside a lambda's
/// body or an ordering's key (evaluated once for each item).
fn walk(ir: &Ir, looped: bool, f: &mut impl FnMut(&Ir, bool)) {
    f(ir, looped);
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Fact(_) | IrKind::Decision(_) => {}
        IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => walk(x, looped, f),
        IrKind::Draw(_, x, n) => {
            walk(x, looped, f);
            if let Some(n) = n {
                walk(n, looped, f);
            }
        }
        IrKind::Call(_, xs) | IrKind::List(xs) => xs.iter().for_each(|x| walk(x, looped, f)),
        IrKind::Record(_, xs) => xs.iter().flatten().for_each(|x| walk(x, looped, f)),
        IrKind::Binary(_, a, b) | IrKind::InList(a, b) | IrKind::Let(_, a, b) => {
            walk(a, looped, f);
            walk(b, looped, f);
        }
        IrKind::InRange { x, lo, hi, .. } => {
            walk(x, looped, f);
            lo.iter().chain(hi.iter()).for_each(|a| walk(a, looped, f));
        }
        IrKind::If(a, b, c) => {
            walk(a, looped, f);
            walk(b, looped, f);
            walk(c, looped, f);
        }
        IrKind::Order(o) => {
            walk(&o.list, looped, f);
            o.keys.iter().chain(o.among.iter().flat_map(|(_, k)| k)).for_each(|k| walk(&k.key, true, f));
        }
        IrKind::Builtin(_, xs, lam) => {
            xs.iter().for_each(|x| walk(x, looped, f));
            if let Some(l) = lam {
                walk(&l.body, true, f);
            }
        }
    }
}
