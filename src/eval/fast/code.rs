//! Compiled code: closures, one for each expression, typed by what the expression gives
//! ([`Val`], [`Bool`], [`NumC`], [`Items`]), and [`Place`]s, values read where they are held.
//!
//! What it owns: the shapes code takes and the small helpers every closure shares
//! (following record fields, combining two operands' stops the way the interpreter does).
//! A closure is made once per rulebook by `super::lower` and called with the ruling's state
//! ([`Cx`]); a truth value or a number is given back as itself, any other value as a
//! reference to where it is held (see `super::cx`).

use super::cx::{Cx, R, Stop};
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::program::{DecisionId, DefId, FactId};

/// Code giving any value.
pub(crate) type Val = Box<dyn for<'r> Fn(&mut Cx<'r>) -> R<&'r Value> + Send + Sync>;
/// Code giving a truth value.
pub(crate) type Bool = Box<dyn for<'r> Fn(&mut Cx<'r>) -> R<bool> + Send + Sync>;
/// Code giving a number.
pub(crate) type NumC = Box<dyn for<'r> Fn(&mut Cx<'r>) -> R<Num> + Send + Sync>;
/// Code pushing a list's items on the stack of locals, above the current frame (`map`,
/// `filter`, `distinct` inside an aggregate never build a list of their own). On a stop it
/// leaves the stack as it found it.
pub(crate) type Items = Box<dyn for<'r> Fn(&mut Cx<'r>) -> R<()> + Send + Sync>;

pub(crate) fn val<F>(f: F) -> Val
where
    F: for<'r> Fn(&mut Cx<'r>) -> R<&'r Value> + Send + Sync + 'static,
{
    Box::new(f)
}

pub(crate) fn boolean<F>(f: F) -> Bool
where
    F: for<'r> Fn(&mut Cx<'r>) -> R<bool> + Send + Sync + 'static,
{
    Box::new(f)
}

pub(crate) fn num<F>(f: F) -> NumC
where
    F: for<'r> Fn(&mut Cx<'r>) -> R<Num> + Send + Sync + 'static,
{
    Box::new(f)
}

pub(crate) fn items<F>(f: F) -> Items
where
    F: for<'r> Fn(&mut Cx<'r>) -> R<()> + Send + Sync + 'static,
{
    Box::new(f)
}

/// A value read where it is held, resolved when the program is compiled.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// A constant of the program (its index among [`super::Compiled::consts`]).
    Const(u32),
    /// A fact, or a field of one (`player.masterpoints`).
    Fact(FactId, Box<[u32]>),
    /// A local of the current frame, or a field of one (`s.bopæl`).
    Local(u32, Box<[u32]>),
    /// The result of a definition without parameters, or a field of it.
    Memo(DefId, Box<[u32]>),
    /// The same, for a definition a ruling works out at most once: not kept.
    Once(DefId, Box<[u32]>),
    Decision(DecisionId),
}

impl Place {
    /// The value, the definition's result worked out first when it is one.
    #[inline(always)]
    pub(crate) fn get<'r>(&self, cx: &mut Cx<'r>) -> R<&'r Value> {
        match self {
            Place::Memo(d, path) => follow(cx.result(*d)?, path),
            Place::Once(d, path) => follow(cx.call(*d, 0)?, path),
            _ => self.read(cx),
        }
    }

    /// The value of a place that needs nothing worked out ([`Self::is_plain`]).
    #[inline(always)]
    pub(crate) fn read<'r>(&self, cx: &Cx<'r>) -> R<&'r Value> {
        match self {
            Place::Const(i) => {
                let c: &'r super::Compiled = cx.c;
                Ok(&c.consts[*i as usize])
            }
            Place::Fact(f, path) => follow(cx.fact(*f).as_ref().ok_or(Stop::Unknown)?, path),
            Place::Local(s, path) => follow(cx.local(*s), path),
            Place::Memo(d, path) => follow(cx.known(*d).unwrap_or(Err(Stop::Halt))?, path),
            Place::Decision(d) => cx.decision(*d).as_ref().ok_or(Stop::Unknown),
            Place::Once(..) => Err(Stop::Halt),
        }
    }

    /// Whether reading it needs nothing worked out first.
    pub(crate) fn is_plain(&self) -> bool {
        !matches!(self, Place::Memo(..) | Place::Once(..))
    }
}

/// Follows record fields from a value: a missing field is unknown, a field of something
/// else a halt.
#[inline(always)]
pub(crate) fn follow<'v>(start: &'v Value, path: &[u32]) -> R<&'v Value> {
    let mut v = start;
    for &i in path {
        v = match v {
            Value::Record(_, fields) => fields.get(i as usize).and_then(Option::as_ref).ok_or(Stop::Unknown)?,
            _ => return Err(Stop::Halt),
        };
    }
    Ok(v)
}

/// Both operands' values, or the stop the interpreter would report: a halt before an
/// unknown.
#[inline(always)]
pub(crate) fn both<X, Y>(x: R<X>, y: R<Y>) -> R<(X, Y)> {
    match (x, y) {
        (Ok(x), Ok(y)) => Ok((x, y)),
        (Err(Stop::Halt), _) | (_, Err(Stop::Halt)) => Err(Stop::Halt),
        _ => Err(Stop::Unknown),
    }
}

/// A truth value, or a halt for anything else.
#[inline(always)]
pub(crate) fn truth(v: &Value) -> R<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => Err(Stop::Halt),
    }
}

/// A number, or a halt for anything else.
#[inline(always)]
pub(crate) fn number(v: &Value) -> R<Num> {
    match v {
        Value::Num(n) => Ok(*n),
        _ => Err(Stop::Halt),
    }
}
