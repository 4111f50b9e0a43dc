//! Sums, differences and products of numbers, and numbers compared with a constant, as
//! code picked for their operands' kinds when the program is compiled.
//!
//! What it owns: [`binary`] and [`against`]. A number operand ([`NumOperand`]) is a
//! constant, a fact, a definition's result or code; read through its enum, each read would
//! choose among the kinds again, in code shared by every operation of the program, so that
//! the processor could not foresee which. Here each kind the rulebooks use most has a
//! reader of its own ([`Read`]), and each operation is compiled for its two operands'
//! readers: a read is then the kind's few instructions, chosen once. Anything else is read
//! through the enum, as before. The operands are read in the same order, their stops
//! combined the same way ([`both`]) and the same exact arithmetic done as by
//! `Lower::num` before it, so nothing but the cost changes.

use super::code::{self, Bool, NumC, both};
use super::cx::{Cx, R, Stop};
use super::logic::NumOperand;
use crate::base::num::Num;
use crate::check::program::DefId;
use crate::syntax::ast::BinaryOp;

/// A number operand of one kind, read without choosing among kinds.
trait Read: Send + Sync + 'static {
    fn read(&self, cx: &mut Cx<'_>) -> R<Num>;
}

struct Const(Num);
struct Memo(DefId);
struct Once(DefId);
struct Fact(u32);
struct Code(NumC);
/// Any other kind, read through [`NumOperand`].
struct Other(NumOperand);

impl Read for Const {
    #[inline(always)]
    fn read(&self, _: &mut Cx<'_>) -> R<Num> {
        Ok(self.0)
    }
}

impl Read for Memo {
    #[inline(always)]
    fn read(&self, cx: &mut Cx<'_>) -> R<Num> {
        cx.result_num(self.0)
    }
}

impl Read for Once {
    #[inline(always)]
    fn read(&self, cx: &mut Cx<'_>) -> R<Num> {
        cx.once_num(self.0)
    }
}

impl Read for Fact {
    #[inline(always)]
    fn read(&self, cx: &mut Cx<'_>) -> R<Num> {
        match cx.fact(self.0) {
            Some(v) => code::number(v),
            None => Err(Stop::Unknown),
        }
    }
}

impl Read for Code {
    #[inline(always)]
    fn read(&self, cx: &mut Cx<'_>) -> R<Num> {
        (self.0)(cx)
    }
}

impl Read for Other {
    #[inline(always)]
    fn read(&self, cx: &mut Cx<'_>) -> R<Num> {
        self.0.get(cx)
    }
}

/// An operation on two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
}

/// Calls `k` with `x`'s reader.
macro_rules! with_reader {
    ($x:expr, $k:ident ( $($arg:expr),* )) => {
        match $x {
            NumOperand::Const(n) => $k($($arg,)* Const(n)),
            NumOperand::Memo(d) => $k($($arg,)* Memo(d)),
            NumOperand::Once(d) => $k($($arg,)* Once(d)),
            NumOperand::Fact(f) => $k($($arg,)* Fact(f)),
            NumOperand::Code(c) => $k($($arg,)* Code(c)),
            other => $k($($arg,)* Other(other)),
        }
    };
}

/// `a op b`: `a` read first, then `b`; a halt before an unknown; overflow a halt.
pub(crate) fn binary(op: Arith, a: NumOperand, b: NumOperand) -> NumC {
    with_reader!(a, left(op, b))
}

fn left<A: Read>(op: Arith, b: NumOperand, a: A) -> NumC {
    with_reader!(b, operation(op, a))
}

fn operation<A: Read, B: Read>(op: Arith, a: A, b: B) -> NumC {
    match op {
        Arith::Add => code::num(move |cx| {
            let (m, n) = both(a.read(cx), b.read(cx))?;
            m.add(n).ok_or(Stop::Halt)
        }),
        Arith::Sub => code::num(move |cx| {
            let (m, n) = both(a.read(cx), b.read(cx))?;
            m.sub(n).ok_or(Stop::Halt)
        }),
        Arith::Mul => code::num(move |cx| {
            let (m, n) = both(a.read(cx), b.read(cx))?;
            m.mul(n).ok_or(Stop::Halt)
        }),
    }
}

/// `x op c` for a comparison operator and a constant `c`: only `x` read.
pub(crate) fn against(op: BinaryOp, x: NumOperand, c: Num) -> Bool {
    with_reader!(x, compared(op, c))
}

fn compared<X: Read>(op: BinaryOp, c: Num, x: X) -> Bool {
    match op {
        BinaryOp::Eq => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_eq())),
        BinaryOp::Ne => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_ne())),
        BinaryOp::Lt => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_lt())),
        BinaryOp::Le => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_le())),
        BinaryOp::Gt => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_gt())),
        _ => code::boolean(move |cx| Ok(x.read(cx)?.cmp(&c).is_ge())),
    }
}
