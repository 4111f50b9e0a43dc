//! `most` / `least` of a list's distinct values of a field, ranked by how many items have
//! each (`most(distinct(map(L, s => s.town)), t => count(L, s => s.town == t))`, or with
//! the count behind a small definition of one parameter), worked out in one pass over the
//! list: each item's field tallied against the values seen so far.
//!
//! What it owns: recognising that shape ([`Lower::tally`]) and the pass itself. The pass
//! keeps the interpreter's result and steps: the values in the order they first appear,
//! those with the best count kept, and as many steps as the nested form counts (the
//! projection for each item, the ranking's lambda and the count's for each value and
//! item). Anything the pass does not decide plainly (the list or a field missing, a field
//! that is not a text, more values than it keeps) is left to the nested form, compiled
//! beside it, which words nothing and decides as before.

use super::code::{Place, Val, follow, val};
use super::cx::{Cx, R, UNSET};
use super::lower::Lower;
use crate::base::value::Value;
use crate::check::program::{Builtin, Ir, IrKind, Lambda};
use crate::check::types::Type;
use crate::syntax::ast::BinaryOp;
use std::cmp::Ordering;

/// How many distinct values the pass keeps on the Rust stack; a list with more is left to
/// the nested form.
const VALUES: usize = 8;

/// The shape recognised, resolved when compiled.
struct Tally {
    /// The list, read where it is held.
    list: Place,
    /// The field of each item tallied.
    path: Box<[u32]>,
    /// Steps of the projection's body, counted for each item.
    each_item: u64,
    /// Steps counted for each distinct value before its count's items: the ranking
    /// lambda's body and, when the count is behind a definition, its rule.
    each_value: u64,
    /// Steps of the count's lambda, counted for each value and item.
    each_pair: u64,
    want: Ordering,
}

impl Lower<'_> {
    /// `most` / `least` over `list` by `lam` in one pass, when it has the shape of the
    /// module documentation; `general` is the nested form, used for anything else.
    pub(crate) fn tally(&self, b: Builtin, list: &Ir, lam: &Lambda, general: Val) -> Result<Val, Val> {
        let Some(t) = self.tally_shape(b, list, lam) else { return Err(general) };
        Ok(val(move |cx| match t.run(cx) {
            Some(r) => r,
            None => general(cx),
        }))
    }

    fn tally_shape(&self, b: Builtin, list: &Ir, lam: &Lambda) -> Option<Tally> {
        let want = match b {
            Builtin::Most => Ordering::Greater,
            Builtin::Least => Ordering::Less,
            _ => return None,
        };
        // distinct(map(L, s => s.f)), the field a text.
        let IrKind::Builtin(Builtin::Distinct, args, None) = &list.kind else { return None };
        let [mapped] = args.as_slice() else { return None };
        let IrKind::Builtin(Builtin::Map, args, Some(proj)) = &mapped.kind else { return None };
        let [source] = args.as_slice() else { return None };
        if !matches!(proj.body.ty, Type::Text) {
            return None;
        }
        let path = match self.place(&proj.body)? {
            Place::Local(s, path) if s == proj.slot && !path.is_empty() => path,
            _ => return None,
        };
        // v => count(L, s => s.f == v), or v => d(v) with d's one rule that count.
        let (count, value_slot, behind) = match &lam.body.kind {
            IrKind::Builtin(Builtin::Count, ..) => (&*lam.body, lam.slot, 0),
            IrKind::Call(d, args) if matches!(args.as_slice(), [a] if matches!(a.kind, IrKind::Local(s) if s == lam.slot)) =>
            {
                let rule = self.inlinable(*d)?;
                if rule.guard.is_some() {
                    return None;
                }
                (&rule.value, 0, self.cost(&rule.value))
            }
            _ => return None,
        };
        let IrKind::Builtin(Builtin::Count, args, Some(test)) = &count.kind else { return None };
        let [counted] = args.as_slice() else { return None };
        if !held_alike(source, counted) {
            return None;
        }
        let IrKind::Binary(BinaryOp::Eq, x, y) = &test.body.kind else { return None };
        let field_of_item = |ir: &Ir| matches!(self.place(ir), Some(Place::Local(s, p)) if s == test.slot && p == path);
        let the_value = |ir: &Ir| matches!(ir.kind, IrKind::Local(s) if s == value_slot);
        if !(field_of_item(x) && the_value(y) || the_value(x) && field_of_item(y)) {
            return None;
        }
        let list = self.place(source)?;
        if !list.is_plain() && !matches!(list, Place::Memo(..)) {
            return None;
        }
        Some(Tally {
            list,
            path,
            each_item: self.cost(&proj.body),
            each_value: self.cost(&lam.body) + behind,
            each_pair: self.cost(&test.body),
            want,
        })
    }
}

/// Whether two expressions read the same held value whatever frame they stand in: the same
/// fact, or the same definition without parameters, or the same field of one.
fn held_alike(a: &Ir, b: &Ir) -> bool {
    match (&a.kind, &b.kind) {
        (IrKind::Fact(f), IrKind::Fact(g)) => f == g,
        (IrKind::Call(d, xs), IrKind::Call(e, ys)) => d == e && xs.is_empty() && ys.is_empty(),
        (IrKind::Field(x, i), IrKind::Field(y, j)) => i == j && held_alike(x, y),
        _ => false,
    }
}

impl Tally {
    /// The pass; `None` when the nested form is to decide.
    fn run<'r>(&self, cx: &mut Cx<'r>) -> Option<R<&'r Value>> {
        let Ok(Value::List(items)) = self.list.get(cx) else { return None };
        let n = items.len();
        if n == 0 {
            return None;
        }
        // Each distinct value: the first item's field holding it, and how many have it.
        let mut seen: [(&'r str, &'r Value, u64); VALUES] = [("", &UNSET, 0); VALUES];
        let mut k = 0;
        for item in items.iter() {
            let Ok(field @ Value::Text(t)) = follow(item, &self.path) else { return None };
            let t: &'r str = t;
            match seen[..k].iter_mut().find(|(u, ..)| *u == t) {
                Some((.., c)) => *c += 1,
                None if k < VALUES => {
                    seen[k] = (t, field, 1);
                    k += 1;
                }
                None => return None,
            }
        }
        let (n, k64) = (n as u64, k as u64);
        if let Err(e) = cx.count(n * self.each_item + k64 * (self.each_value + n * self.each_pair)) {
            return Some(Err(e));
        }
        let seen = &seen[..k];
        let mut best = seen[0].2;
        for &(.., c) in &seen[1..] {
            if c.cmp(&best) == self.want {
                best = c;
            }
        }
        let kept = seen.iter().filter(|(.., c)| *c == best).count();
        let mut picked = seen.iter().filter(|(.., c)| *c == best).map(|(_, v, _)| (*v).clone());
        let list = cx.list_of(kept, &mut picked);
        Some(Ok(cx.keep_value(list)))
    }
}
