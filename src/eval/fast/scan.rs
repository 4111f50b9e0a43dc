//! The lambdas of `count`, `filter`, `all` and `any` applied to a list's items ([`Test`]):
//! the lambda's body for each item in turn, or, for a comparison of a field of the item
//! with a value that does not read the item (`s => s.bopæl == b`, `a => a.by == hjemby`),
//! a scan that reads that value once and compares each item's field where it is, with no
//! call for each item ([`Scan`]).
//!
//! A scan keeps the interpreter's semantics: nothing is evaluated for an empty list; the
//! value compared with is evaluated as at the first item (a halt ends it, a missing input
//! makes every item unknown); an item whose field is missing is unknown; the lambda's
//! steps are counted for each item.

use super::code::{Bool, follow, number};
use super::cx::{Cx, R, Stop};
use super::logic::{Operand, holds, same_text, values};
use super::lower::{Lower, numeric};
use crate::check::program::{Ir, IrKind, Lambda};
use crate::check::types::Type;
use crate::syntax::ast::BinaryOp;

/// How a boolean lambda is applied to a list's items.
pub(crate) enum Test {
    /// The body evaluated for each item, bound to its slot.
    Body {
        slot: u32,
        body: Bool,
        cost: u64,
    },
    Scan(Scan),
}

/// A comparison of a field of the item with a value that does not read it.
pub(crate) struct Scan {
    path: Box<[u32]>,
    other: Operand,
    op: BinaryOp,
    /// Whether the item's field is the comparison's left operand.
    item_first: bool,
    kind: Kind,
    cost: u64,
}

/// How a scan compares.
#[derive(Clone, Copy)]
enum Kind {
    /// Texts, for equality: by their bytes.
    Text,
    /// Numbers, by their order.
    Num,
    /// Anything else, as comparisons compare.
    Other,
}

impl Lower<'_> {
    /// How the boolean lambda `lam` is applied to each item.
    pub(crate) fn test(&self, lam: &Lambda) -> Test {
        self.scan(lam).map(Test::Scan).unwrap_or_else(|| Test::Body {
            slot: lam.slot,
            body: self.boolean(&lam.body),
            cost: self.cost(&lam.body),
        })
    }

    fn scan(&self, lam: &Lambda) -> Option<Scan> {
        use BinaryOp::*;
        let IrKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) = &lam.body.kind else { return None };
        let item_path = |ir: &Ir| -> Option<Box<[u32]>> {
            match self.place(ir)? {
                super::code::Place::Local(s, path) if s == lam.slot => Some(path),
                _ => None,
            }
        };
        let (path, other, item_first) = match (item_path(a), item_path(b)) {
            (Some(path), None) if !reads_slot(b, lam.slot) => (path, &**b, true),
            (None, Some(path)) if !reads_slot(a, lam.slot) => (path, &**a, false),
            _ => return None,
        };
        let kind = match (&a.ty, &b.ty) {
            (Type::Text, Type::Text) if matches!(op, Eq | Ne) => Kind::Text,
            (x, y) if numeric(x) && numeric(y) => Kind::Num,
            _ => Kind::Other,
        };
        Some(Scan { path, other: self.operand(other), op: *op, item_first, kind, cost: self.cost(&lam.body) })
    }
}

/// Whether an expression reads local `slot`.
fn reads_slot(ir: &Ir, slot: u32) -> bool {
    let mut found = false;
    ir.visit(&mut |x| {
        if matches!(x.kind, IrKind::Local(s) if s == slot) {
            found = true;
        }
    });
    found
}

impl Test {
    /// Applies the lambda to every item of the stack from `start` to its top, in turn,
    /// handing each truth and the item's place to `each`; a halt ends it, a missing value
    /// makes it unknown once all are evaluated.
    #[inline]
    pub(crate) fn each<'r>(&self, cx: &mut Cx<'r>, start: usize, each: impl FnMut(&mut Cx<'r>, usize, bool)) -> R<()> {
        match self {
            Test::Body { slot, body, cost } => {
                super::builtins::apply_each(cx, start, *slot, *cost, |cx| body(cx), each)
            }
            Test::Scan(s) => s.each(cx, start, each),
        }
    }
}

impl Scan {
    fn each<'r>(&self, cx: &mut Cx<'r>, start: usize, mut each: impl FnMut(&mut Cx<'r>, usize, bool)) -> R<()> {
        let end = cx.locals.len();
        if start == end {
            return Ok(());
        }
        let other = match self.other.get(cx) {
            Ok(v) => Some(v),
            Err(Stop::Halt) => return Err(Stop::Halt),
            Err(Stop::Unknown) => None,
        };
        let mut unknown = false;
        for at in start..end {
            cx.count(self.cost)?;
            let field = match follow(cx.locals[at], &self.path) {
                Ok(v) => v,
                Err(Stop::Unknown) => {
                    unknown = true;
                    continue;
                }
                Err(Stop::Halt) => return Err(Stop::Halt),
            };
            let Some(other) = other else {
                unknown = true;
                continue;
            };
            let (x, y) = if self.item_first { (field, other) } else { (other, field) };
            let t = match self.kind {
                Kind::Text => same_text(x, y)? == (self.op == BinaryOp::Eq),
                Kind::Num => holds(self.op, number(x)?.cmp(&number(y)?)),
                Kind::Other => values(self.op, x, y)?,
            };
            each(cx, at, t);
        }
        if unknown { Err(Stop::Unknown) } else { Ok(()) }
    }
}
