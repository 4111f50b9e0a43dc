//! Truth values and numbers of compiled code: conditions, comparisons, `and`/`or`/`not`
//! with the interpreter's three-valued logic, sums, differences and products of numbers.
//!
//! What it owns: [`Lower::boolean`] and [`Lower::num`], which give a truth value or a
//! number as itself rather than as a [`Value`]; comparisons of two held operands read both
//! in place and compare them as their types say (numbers by their order, texts by their
//! bytes, enums by their variant); and [`combine`], the other binary operations on values.

use super::arith::{self, Arith};
use super::code::{self, Bool, NumC, boolean, both, number, truth};
use super::cx::{R, Stop};
use super::lower::{Lower, numeric};
use crate::base::datetime::DateTime;
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::builtins_table::Kind;
use crate::check::program::{Builtin, Ir, IrKind};
use crate::check::types::Type;
use crate::eval::interp::{compare, in_range};
use crate::syntax::ast::BinaryOp;
use std::cmp::Ordering;

impl Lower<'_> {
    /// Code giving the truth value of `ir`.
    pub(crate) fn boolean(&self, ir: &Ir) -> Bool {
        use BinaryOp::*;
        match &ir.kind {
            IrKind::Const(Value::Bool(b)) => {
                let b = *b;
                boolean(move |_| Ok(b))
            }
            IrKind::Binary(op @ (And | Or), ..) => {
                // A chain `a and b and c` as one: the operands in order, stopping at the one
                // that decides on its own (false for `and`, true for `or`); otherwise a halt
                // before a missing input (the interpreter prefers an error to a missing input
                // and a missing input to silence: any halt is left to it). Exactly what the
                // nested operations give.
                let mut operands = Vec::new();
                chain(ir, *op, &mut operands);
                let operands: Box<[BoolOperand]> = operands.into_iter().map(|x| self.bool_operand(x)).collect();
                let short = *op == Or;
                boolean(move |cx| {
                    // The first operand alone often decides (a guard false at its first
                    // read): the rest is out of line.
                    match operands[0].get(cx) {
                        Ok(v) if v == short => Ok(short),
                        first => chain_rest(cx, first, &operands[1..], short),
                    }
                })
            }
            IrKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) => self.compare(*op, a, b),
            IrKind::Not(x) => {
                let x = self.bool_operand(x);
                boolean(move |cx| Ok(!x.get(cx)?))
            }
            IrKind::Call(d, args) if args.len() == 1 && self.alias(*d).is_none() => match self.dispatch(*d) {
                Some(by) => {
                    let pick = self.variant(&args[0], by);
                    boolean(move |cx| {
                        let r = pick(cx)?;
                        let c: &super::Compiled = cx.c;
                        cx.in_place_bool(&c.rules[r as usize])
                    })
                }
                None => super::lower::as_truth(self.val(ir)),
            },
            IrKind::InRange { x, lo, hi, inclusive } => {
                let (x, inclusive) = (self.val(x), *inclusive);
                let lo = lo.as_ref().map(|l| self.val(l));
                let hi = hi.as_ref().map(|h| self.val(h));
                boolean(move |cx| {
                    let v = x(cx)?;
                    let lo = match &lo {
                        Some(l) => Some(l(cx)?),
                        None => None,
                    };
                    let hi = match &hi {
                        Some(h) => Some(h(cx)?),
                        None => None,
                    };
                    Ok(in_range(v, lo, hi, inclusive))
                })
            }
            IrKind::InList(x, list) if let Some((t, mask, items)) = variants(list) => {
                // `x in [A, B]` of an enum's variants: the variant looked up in a set of bits.
                let x = self.operand(x);
                boolean(move |cx| match x.get(cx)? {
                    Value::Enum(u, v) if *u == t && *v < 64 => Ok(mask >> v & 1 == 1),
                    other => Ok(items.contains(other)),
                })
            }
            IrKind::InList(x, list) => {
                let (x, list) = (self.val(x), self.val(list));
                boolean(move |cx| {
                    let v = x(cx)?;
                    match list(cx)? {
                        Value::List(items) => Ok(items.contains(v)),
                        _ => Err(Stop::Halt),
                    }
                })
            }
            IrKind::If(c, t, e) => {
                let (c, t, e) = (self.boolean(c), self.boolean(t), self.boolean(e));
                boolean(move |cx| if c(cx)? { t(cx) } else { e(cx) })
            }
            IrKind::Builtin(b @ (Builtin::All | Builtin::Any), args, Some(lam)) => self.all_any(*b, &args[0], lam),
            _ => match self.place(ir) {
                Some(p) if p.is_plain() => boolean(move |cx| truth(p.read(cx)?)),
                Some(p) => boolean(move |cx| truth(p.get(cx)?)),
                None => super::lower::as_truth(self.val(ir)),
            },
        }
    }

    /// Code giving the number `ir` is.
    pub(crate) fn num(&self, ir: &Ir) -> NumC {
        use BinaryOp::*;
        match &ir.kind {
            IrKind::Const(Value::Num(n)) => {
                let n = *n;
                code::num(move |_| Ok(n))
            }
            IrKind::Binary(op @ (Add | Sub | Mul), a, b) if numeric(&a.ty) && numeric(&b.ty) => {
                let op = match op {
                    Add => Arith::Add,
                    Sub => Arith::Sub,
                    _ => Arith::Mul,
                };
                arith::binary(op, self.num_operand(a), self.num_operand(b))
            }
            IrKind::Neg(x) => {
                let x = self.num(x);
                code::num(move |cx| x(cx)?.neg().ok_or(Stop::Halt))
            }
            IrKind::Builtin(Builtin::Count, args, lam) => self.count(&args[0], lam.as_ref()),
            IrKind::Builtin(b, args, None) if let Kind::Number(f) = b.kind() => self.plain_number(f, args),
            IrKind::Builtin(b @ (Builtin::Min | Builtin::Max), args, None)
                if let [list] = args.as_slice()
                    && let Type::List(item) = &list.ty
                    && numeric(item) =>
            {
                self.min_max_num(*b, list)
            }
            IrKind::Builtin(b @ (Builtin::Min | Builtin::Max), args, None)
                if args.len() >= 2 && args.iter().all(|a| numeric(&a.ty)) =>
            {
                // `max(0 DKK, …)`: every operand evaluated (a halt at once, a missing one
                // after all), the best kept as they come, as numbers.
                let xs: Box<[NumOperand]> = args.iter().map(|a| self.num_operand(a)).collect();
                let want = if *b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
                code::num(move |cx| super::builtins::best_of(cx, &xs, |x, cx| x.get(cx), |c, a| c.cmp(&a) == want))
            }
            IrKind::Call(d, args)
                if !args.is_empty()
                    && let Some(n) = self.inlined_num(*d, args) =>
            {
                n
            }
            _ => match self.place(ir) {
                Some(super::code::Place::Memo(d, path)) if path.is_empty() => code::num(move |cx| cx.result_num(d)),
                Some(super::code::Place::Once(d, path)) if path.is_empty() => code::num(move |cx| cx.once_num(d)),
                Some(p) if p.is_plain() => code::num(move |cx| number(p.read(cx)?)),
                Some(p) => code::num(move |cx| number(p.get(cx)?)),
                None => {
                    let v = self.val(ir);
                    code::num(move |cx| number(v(cx)?))
                }
            },
        }
    }

    /// `a op b` for a comparison operator: both operands evaluated (a halt before an
    /// unknown), held ones read in place, numbers compared as numbers.
    fn compare(&self, op: BinaryOp, a: &Ir, b: &Ir) -> Bool {
        if numeric(&a.ty) && numeric(&b.ty) {
            let (x, y) = (self.num_operand(a), self.num_operand(b));
            // A number compared with a constant (`x > 0 km`): only the other operand read.
            let with_const = match (x, y) {
                (x, NumOperand::Const(c)) => Ok((x, c, op)),
                (NumOperand::Const(c), y) => Ok((y, c, flipped(op))),
                other => Err(other),
            };
            let (x, y) = match with_const {
                Ok((x, c, op)) => return arith::against(op, x, c),
                Err(pair) => pair,
            };
            return boolean(move |cx| {
                let (m, n) = both(x.get(cx), y.get(cx))?;
                Ok(holds(op, m.cmp(&n)))
            });
        }
        let text = matches!(a.ty, Type::Text) && matches!(op, BinaryOp::Eq | BinaryOp::Ne);
        let variant = matches!(a.ty, Type::Enum(_)) && matches!(op, BinaryOp::Eq | BinaryOp::Ne);
        let (x, y) = (self.operand(a), self.operand(b));
        let eq = op == BinaryOp::Eq;
        if text {
            return boolean(move |cx| {
                let (v, w) = both(x.get(cx), y.get(cx))?;
                Ok(same_text(v, w)? == eq)
            });
        }
        if variant {
            return boolean(move |cx| {
                let (v, w) = both(x.get(cx), y.get(cx))?;
                match (v, w) {
                    (Value::Enum(a, i), Value::Enum(b, j)) => Ok((a == b && i == j) == eq),
                    _ => values(op, v, w),
                }
            });
        }
        boolean(move |cx| {
            let (v, w) = both(x.get(cx), y.get(cx))?;
            values(op, v, w)
        })
    }

    /// A truth value operand: read in place when it is held.
    fn bool_operand(&self, ir: &Ir) -> BoolOperand {
        match self.place(ir) {
            Some(super::code::Place::Fact(f, path)) if path.is_empty() => BoolOperand::Fact(f),
            Some(p) if p.is_plain() => BoolOperand::Held(p),
            Some(p) => BoolOperand::Worked(p),
            None => BoolOperand::Code(self.boolean(ir)),
        }
    }

    /// A number operand: a constant, or read in place when it is held.
    fn num_operand(&self, ir: &Ir) -> NumOperand {
        if let IrKind::Builtin(Builtin::Count, args, None) = &ir.kind
            && let Some(p) = self.place(&args[0])
        {
            // As `Lower::count` reads a held list: its length, nothing evaluated item by item.
            return NumOperand::Len(p);
        }
        match (&ir.kind, self.place(ir)) {
            (IrKind::Const(Value::Num(n)), _) => NumOperand::Const(*n),
            (_, Some(super::code::Place::Fact(f, path))) if path.is_empty() => NumOperand::Fact(f),
            (_, Some(super::code::Place::Memo(d, path))) if path.is_empty() => NumOperand::Memo(d),
            (_, Some(super::code::Place::Once(d, path))) if path.is_empty() => NumOperand::Once(d),
            (_, Some(p)) if p.is_plain() => NumOperand::Held(p),
            (_, Some(p)) => NumOperand::Worked(p),
            (_, None) => NumOperand::Code(self.num(ir)),
        }
    }

    /// An operand of a comparison: read in place when it is held.
    pub(crate) fn operand(&self, ir: &Ir) -> Operand {
        match self.place(ir) {
            Some(p) if p.is_plain() => Operand::Held(p),
            Some(p) => Operand::Worked(p),
            None => Operand::Code(self.val(ir)),
        }
    }
}

/// A truth value operand (see [`Lower::bool_operand`]).
enum BoolOperand {
    /// A fact, read without a place's dispatch.
    Fact(u32),
    Held(super::code::Place),
    Worked(super::code::Place),
    Code(Bool),
}

impl BoolOperand {
    #[inline(always)]
    fn get(&self, cx: &mut super::cx::Cx<'_>) -> R<bool> {
        match self {
            BoolOperand::Fact(f) => match cx.fact(*f) {
                Some(v) => truth(v),
                None => Err(Stop::Unknown),
            },
            BoolOperand::Held(p) => truth(p.read(cx)?),
            BoolOperand::Worked(p) => truth(p.get(cx)?),
            BoolOperand::Code(c) => c(cx),
        }
    }
}

/// A number operand (see [`Lower::num_operand`]).
pub(crate) enum NumOperand {
    Const(Num),
    /// A definition's result.
    Memo(crate::check::program::DefId),
    /// A definition worked out at most once a ruling.
    Once(crate::check::program::DefId),
    /// A fact, read without a place's dispatch.
    Fact(u32),
    /// The number of items of a list read where it is held (`count(L)`).
    Len(super::code::Place),
    Held(super::code::Place),
    Worked(super::code::Place),
    Code(NumC),
}

impl NumOperand {
    #[inline(always)]
    pub(crate) fn get(&self, cx: &mut super::cx::Cx<'_>) -> R<Num> {
        match self {
            NumOperand::Const(n) => Ok(*n),
            NumOperand::Memo(d) => cx.result_num(*d),
            NumOperand::Once(d) => cx.once_num(*d),
            NumOperand::Fact(f) => match cx.fact(*f) {
                Some(v) => number(v),
                None => Err(Stop::Unknown),
            },
            NumOperand::Len(p) => match p.get(cx)? {
                Value::List(xs) => Ok(Num::int(xs.len() as i128)),
                _ => Err(Stop::Halt),
            },
            NumOperand::Held(p) => number(p.read(cx)?),
            NumOperand::Worked(p) => number(p.get(cx)?),
            NumOperand::Code(c) => c(cx),
        }
    }
}

/// An operand of a comparison (see [`Lower::operand`]).
pub(crate) enum Operand {
    /// Held where it is, read without working anything out.
    Held(super::code::Place),
    /// A definition's result (or a field of it), worked out at its first read.
    Worked(super::code::Place),
    Code(super::code::Val),
}

impl Operand {
    #[inline(always)]
    pub(crate) fn get<'r>(&self, cx: &mut super::cx::Cx<'r>) -> R<&'r Value> {
        match self {
            Operand::Held(p) => p.read(cx),
            Operand::Worked(p) => p.get(cx),
            Operand::Code(v) => v(cx),
        }
    }
}

/// The operands of an `and` / `or` chain after the first, whose result is `first`: in
/// order, stopping at the one that decides on its own; otherwise a halt before a missing
/// input.
#[inline(never)]
fn chain_rest(cx: &mut super::cx::Cx<'_>, first: R<bool>, rest: &[BoolOperand], short: bool) -> R<bool> {
    let (mut halt, mut unknown) = (first == Err(Stop::Halt), first == Err(Stop::Unknown));
    for x in rest {
        match x.get(cx) {
            Ok(v) if v == short => return Ok(short),
            Ok(_) => {}
            Err(Stop::Halt) => halt = true,
            Err(Stop::Unknown) => unknown = true,
        }
    }
    match (halt, unknown) {
        (true, _) => Err(Stop::Halt),
        (false, true) => Err(Stop::Unknown),
        (false, false) => Ok(!short),
    }
}

/// A list written of variants of one enum, each among its first 64: the enum, the set of
/// their indices as bits, and the values.
fn variants(list: &Ir) -> Option<(u32, u64, Box<[Value]>)> {
    let IrKind::List(xs) = &list.kind else { return None };
    let mut mask = 0u64;
    let mut ty = None;
    let mut items = Vec::with_capacity(xs.len());
    for x in xs {
        let IrKind::Const(v @ Value::Enum(t, i)) = &x.kind else { return None };
        if *i >= 64 || ty.is_some_and(|u| u != *t) {
            return None;
        }
        ty = Some(*t);
        mask |= 1 << i;
        items.push(v.clone());
    }
    Some((ty?, mask, items.into()))
}

/// The operands of a chain of `op` (`a and b and c`), in order.
fn chain<'i>(ir: &'i Ir, op: BinaryOp, out: &mut Vec<&'i Ir>) {
    match &ir.kind {
        IrKind::Binary(o, a, b) if *o == op => {
            chain(a, op, out);
            chain(b, op, out);
        }
        _ => out.push(ir),
    }
}

/// Whether a comparison `op` holds of two values in order `ord`.
#[inline(always)]
/// The comparison that holds of `b` and `a` when `op` holds of `a` and `b`.
fn flipped(op: BinaryOp) -> BinaryOp {
    use BinaryOp::*;
    match op {
        Lt => Gt,
        Le => Ge,
        Gt => Lt,
        Ge => Le,
        other => other,
    }
}

pub(crate) fn holds(op: BinaryOp, ord: Ordering) -> bool {
    use BinaryOp::*;
    match op {
        Eq => ord.is_eq(),
        Ne => ord.is_ne(),
        Lt => ord.is_lt(),
        Le => ord.is_le(),
        Gt => ord.is_gt(),
        _ => ord.is_ge(),
    }
}

/// Whether two texts are the same (a halt for anything else).
#[inline(always)]
pub(crate) fn same_text(x: &Value, y: &Value) -> R<bool> {
    match (x, y) {
        (Value::Text(s), Value::Text(t)) => {
            Ok(std::ptr::eq(s.as_ptr(), t.as_ptr()) && s.len() == t.len() || s.as_bytes() == t.as_bytes())
        }
        _ => Err(Stop::Halt),
    }
}

/// `x op y` for a comparison operator: numbers by their order, texts by their bytes,
/// enums by their variant, anything else as the interpreter compares.
pub(crate) fn values(op: BinaryOp, x: &Value, y: &Value) -> R<bool> {
    use BinaryOp::*;
    let ord = match (x, y) {
        // Numbers in lowest terms: equal exactly when their order says so.
        (Value::Num(m), Value::Num(n)) => m.cmp(n),
        (Value::Text(_), Value::Text(_)) if matches!(op, Eq | Ne) => return Ok(same_text(x, y)? == (op == Eq)),
        (Value::Enum(a, i), Value::Enum(b, j)) if matches!(op, Eq | Ne) => return Ok((a == b && i == j) == (op == Eq)),
        _ if matches!(op, Eq | Ne) => return Ok((x == y) == (op == Eq)),
        _ => compare(x, y).ok_or(Stop::Halt)?,
    };
    Ok(holds(op, ord))
}

/// A binary operation other than `and`, `or` and the comparisons on its operands' values
/// (a halt where the interpreter reports an error).
pub(crate) fn combine(op: BinaryOp, x: &Value, y: &Value) -> R<Value> {
    use BinaryOp::*;
    match op {
        Eq | Ne | Lt | Le | Gt | Ge => values(op, x, y).map(Value::Bool),
        And | Or => match (x, y) {
            (Value::Bool(a), Value::Bool(b)) => Ok(Value::Bool(if op == And { *a && *b } else { *a || *b })),
            _ => Err(Stop::Halt),
        },
        Add | Sub | Mul | Div | IntDiv | Mod => match (x, y) {
            (Value::Num(m), Value::Num(n)) => {
                let (m, n) = (*m, *n);
                let r = match op {
                    Add => m.add(n),
                    Sub => m.sub(n),
                    Mul => m.mul(n),
                    Div | IntDiv | Mod if n == Num::ZERO => return Err(Stop::Halt),
                    Div => m.div(n),
                    IntDiv => m.div(n).map(|q| q.floor()),
                    _ => m.div(n).map(|q| q.floor()).and_then(|q| q.mul(n)).and_then(|b| m.sub(b)),
                };
                r.map(Value::Num).ok_or(Stop::Halt)
            }
            (Value::Date(d), Value::Num(n)) => {
                let days = n.div(Num::int(1440)).ok_or(Stop::Halt)?;
                if !days.is_integer() {
                    return Err(Stop::Halt);
                }
                let k = days.as_i64().ok_or(Stop::Halt)?;
                let k = if op == Sub { -k } else { k };
                d.add_days(k).map(Value::Date).ok_or(Stop::Halt)
            }
            (Value::Date(d1), Value::Date(d2)) => {
                Ok(Value::Num(Num::int((d1.days() - d2.days()) as i128).mul(Num::int(1440)).ok_or(Stop::Halt)?))
            }
            // Past midnight or by part of a minute: the interpreter words the error.
            (Value::Time(t), Value::Num(n)) => t.add(*n, op == Sub).map(Value::Time).map_err(|_| Stop::Halt),
            (Value::Time(t1), Value::Time(t2)) => Ok(Value::Num(t1.since(*t2))),
            (Value::Date(d), Value::Time(t)) if op == Add => Ok(Value::DateTime(DateTime::new(*d, *t))),
            (Value::DateTime(t), Value::Num(n)) => t.add(*n, op == Sub).map(Value::DateTime).map_err(|_| Stop::Halt),
            (Value::DateTime(t1), Value::DateTime(t2)) if op == Sub => Ok(Value::Num(t1.since(*t2))),
            _ => Err(Stop::Halt),
        },
    }
}
