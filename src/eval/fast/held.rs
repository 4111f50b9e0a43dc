//! Values read where they are held, resolved when the program is compiled: comparisons
//! of two held operands ([`super::Kind::Cmp`]), calls of one-rule definitions whose held
//! arguments are lent rather than copied ([`super::Kind::CallOne`]), and lists of
//! references to held items ([`Refs`]) that `filter`, `map` and `distinct` build inside
//! an aggregate instead of lists of copies.

use super::builtins::Items;
use super::run::{MAX_DEPTH, Run, Stop, follow};
use super::{Kind, Node, Unrolled};
use std::sync::Arc;

use crate::check::program::{DefId, RuleId};
use crate::eval::interp::compare;
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

/// How many references a [`Refs`] holds before it spills to the heap.
const INLINE: usize = 8;

/// What an unused entry of a [`Refs`] points at.
static NONE: Value = Value::Bool(false);

/// A list of references to values held by the program or the inputs (or lent to a
/// lambda from them): the first [`INLINE`] on the stack, the rest on the heap.
pub(super) struct Refs<'a> {
    n: usize,
    inline: [&'a Value; INLINE],
    more: Vec<&'a Value>,
}

impl<'a> Refs<'a> {
    pub(super) fn new() -> Self {
        Refs { n: 0, inline: [&NONE; INLINE], more: Vec::new() }
    }

    pub(super) fn push(&mut self, v: &'a Value) {
        if self.n < INLINE {
            self.inline[self.n] = v;
        } else {
            if self.n == INLINE {
                self.more.extend_from_slice(&self.inline);
            }
            self.more.push(v);
        }
        self.n += 1;
    }

    pub(super) fn len(&self) -> usize {
        self.n
    }

    pub(super) fn get(&self, i: usize) -> &'a Value {
        if self.n <= INLINE { self.inline[i] } else { self.more[i] }
    }

    pub(super) fn contains(&self, v: &Value) -> bool {
        (0..self.n).any(|i| self.get(i) == v)
    }
}

impl<'a> Run<'a> {
    /// The value of a held node (a constant, a fact or a field of one, a local lent from
    /// one) with the evaluation's lifetime; `None` when the node is not held so (a local
    /// on the value stack, anything computed).
    #[inline]
    pub(super) fn held_ref(&self, n: &'a Node) -> Option<Result<&'a Value, Stop>> {
        Some(match &n.kind {
            Kind::Const(v) => Ok(v),
            Kind::Fact(f) => self.fact(*f).as_ref().ok_or(Stop::Unknown),
            Kind::FactPath(f, path) => follow(self.fact(*f).as_ref(), path),
            Kind::Local(s) => Ok(self.lent_at(*s)?),
            Kind::LocalPath(s, path) => follow(Some(self.lent_at(*s)?), path),
            _ => return None,
        })
    }

    /// The value of a node for which [`super::held`] holds, borrowed (no steps counted).
    #[inline]
    fn read(&self, n: &'a Node) -> Result<&Value, Stop> {
        match &n.kind {
            Kind::Const(v) => Ok(v),
            Kind::Fact(f) => self.fact(*f).as_ref().ok_or(Stop::Unknown),
            Kind::FactPath(f, path) => follow(self.fact(*f).as_ref(), path),
            Kind::Local(s) => Ok(self.slot(*s)),
            Kind::LocalPath(s, path) => follow(Some(self.slot(*s)), path),
            _ => Err(Stop::Halt),
        }
    }

    /// `a op b` of two held operands (counting their steps): numbers by their order, texts
    /// by their bytes, anything else as [`super::run`] compares.
    pub(super) fn cmp(&mut self, op: BinaryOp, ab: &'a (Node, Node)) -> Result<bool, Stop> {
        self.count(ab.0.cost() + ab.1.cost())?;
        let (x, y) = match (self.read(&ab.0), self.read(&ab.1)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(Stop::Halt), _) | (_, Err(Stop::Halt)) => return Err(Stop::Halt),
            _ => return Err(Stop::Unknown),
        };
        compare_held(op, x, y)
    }

    /// A call of a one-rule definition ([`Kind::CallOne`]): every argument evaluated (a
    /// halt at once, a missing one after all), held ones lent to the frame rather than
    /// copied; then the rule's guard (silence when false) and its value by `value`.
    pub(super) fn call_one<T>(
        &mut self,
        def: DefId,
        r: RuleId,
        args: &'a [Node],
        value: impl FnOnce(&mut Self, &'a Node) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        let start = self.s.stack.len();
        let lent_before = self.lent_n;
        let mut unknown = false;
        let mut stop = None;
        for a in args.iter() {
            let got = match self.held_ref(a) {
                Some(v) if self.lent_n < super::run::LENT => match self.count(a.cost()).and(v) {
                    Ok(v) => {
                        let at = self.s.stack.len();
                        self.s.stack.push(Value::Bool(false));
                        self.lend(at, v);
                        continue;
                    }
                    Err(e) => Err(e),
                },
                _ => self.eval(a),
            };
            match got {
                Ok(v) => self.s.stack.push(v),
                Err(Stop::Unknown) => unknown = true,
                Err(Stop::Halt) => {
                    stop = Some(Stop::Halt);
                    break;
                }
            }
        }
        if stop.is_none() && unknown {
            stop = Some(Stop::Unknown);
        }
        let result = match stop {
            Some(e) => Err(e),
            None => {
                self.depth += 1;
                let result = if self.depth > MAX_DEPTH {
                    Err(Stop::Halt)
                } else {
                    let c = self.c;
                    let frame = c.defs[def as usize].frame as usize;
                    super::run::frame_to(&mut self.s.stack, start + frame.max(args.len()));
                    let saved = std::mem::replace(&mut self.base, start);
                    let rule = &c.rules[r as usize];
                    let result = match &rule.guard {
                        Some(g) => match self.eval_bool(g) {
                            Ok(true) => value(self, &rule.value),
                            // The rule does not apply: the conditions are silent.
                            Ok(false) => Err(Stop::Halt),
                            Err(e) => Err(e),
                        },
                        None => value(self, &rule.value),
                    };
                    self.base = saved;
                    result
                };
                self.depth -= 1;
                result
            }
        };
        self.lent_n = lent_before;
        self.s.stack.truncate(start);
        result
    }

    /// [`super::Kind::FilterDispatch`]: each item's rule evaluated in turn (a halt ends it,
    /// a missing input makes it unknown once all are evaluated), the items kept in a list
    /// of their exact size, built once for each set of items kept and shared after.
    pub(super) fn filter_dispatch(&mut self, u: &'a Unrolled) -> Result<Value, Stop> {
        let mut kept = 0u64;
        let mut unknown = false;
        for (i, (_, r)) in u.items.iter().enumerate() {
            self.count(u64::from(u.each))?;
            let Some(r) = r else { return Err(Stop::Halt) };
            match self.dispatch_bool(*r) {
                Ok(true) => kept |= 1 << (i % 64),
                Ok(false) => {}
                Err(Stop::Unknown) => unknown = true,
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        if unknown {
            return Err(Stop::Unknown);
        }
        let build = || -> Arc<[Value]> {
            u.items
                .iter()
                .enumerate()
                .filter(|(i, _)| kept & (1 << (i % 64)) != 0)
                .map(|(_, (x, _))| x.clone())
                .collect()
        };
        Ok(Value::List(match u.lists.get(kept as usize) {
            Some(list) => list.get_or_init(build).clone(),
            None => build(),
        }))
    }

    /// For a lambda comparing a field of its item with a value that does not read the
    /// item (`s => s.bopæl == b`, `a => a.by == hjemby`), over at most 64 items held by
    /// the program or the inputs: the value read (or evaluated) once, each item's field
    /// compared where it is, with the lambda's steps counted for each item (and the
    /// value's, as if read again). `None` when it does not apply or the value is not
    /// decided; the caller then applies the lambda item by item.
    pub(super) fn scan(&mut self, lam: &'a (u32, Box<Node>), xs: &Items<'a>) -> Option<Result<Truths, Stop>> {
        use BinaryOp::*;
        let slot = lam.0;
        let (op, a, b) = match &lam.1.kind {
            Kind::Cmp(op, ab) => (*op, &ab.0, &ab.1),
            Kind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) => (*op, &**a, &**b),
            _ => return None,
        };
        let item_path = |n: &'a Node| -> Option<&'a [u32]> {
            match &n.kind {
                Kind::Local(s) if *s == slot => Some(&[]),
                Kind::LocalPath(s, path) if *s == slot => Some(path),
                _ => None,
            }
        };
        let (path, other, item_first) = match (item_path(a), item_path(b)) {
            (Some(path), None) => (path, b, true),
            (None, Some(path)) => (path, a, false),
            _ => return None,
        };
        let invariant = match &other.kind {
            Kind::Const(_) | Kind::Fact(_) | Kind::FactPath(..) => true,
            Kind::Local(s) | Kind::LocalPath(s, _) => *s != slot,
            Kind::Call(_, args) => args.is_empty(),
            _ => false,
        };
        if !invariant || xs.len() == 0 || xs.len() > 64 || xs.lent(0).is_none() {
            return None;
        }
        let owned;
        let v: &Value = match self.held_ref(other) {
            Some(Ok(v)) => v,
            Some(Err(_)) => return None,
            None => {
                let got = match &other.kind {
                    Kind::Local(_) | Kind::LocalPath(..) => self.read(other).cloned(),
                    // A definition without parameters: remembered once evaluated.
                    _ => self.eval(other),
                };
                match got {
                    Ok(v) => {
                        owned = v;
                        &owned
                    }
                    Err(_) => return None,
                }
            }
        };
        let step = lam.1.cost() + a.cost() + b.cost();
        let mut t = Truths { trues: 0, falses: false, unknown: false };
        for i in 0..xs.len() {
            let Some(x) = xs.lent(i) else { return Some(Err(Stop::Halt)) };
            if let Err(e) = self.count(step) {
                return Some(Err(e));
            }
            let field = match follow(Some(x), path) {
                Ok(f) => f,
                Err(Stop::Unknown) => {
                    t.unknown = true;
                    continue;
                }
                Err(Stop::Halt) => return Some(Err(Stop::Halt)),
            };
            match if item_first { compare_here(op, field, v) } else { compare_here(op, v, field) } {
                Ok(true) => t.trues |= 1 << i,
                Ok(false) => t.falses = true,
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok(t))
    }
}

/// What a comparison lambda came to on each item ([`Run::scan`]): bit `i` of `trues` for
/// item `i`.
pub(super) struct Truths {
    pub(super) trues: u64,
    pub(super) falses: bool,
    pub(super) unknown: bool,
}

/// `x op y` for a comparison operator: numbers by their order, texts by their bytes,
/// enums by their variant, anything else as the interpreter compares. Kept out of line
/// (where [`Run::cmp`] calls it, inlining made GNT flights slower).
#[inline(never)]
fn compare_held(op: BinaryOp, x: &Value, y: &Value) -> Result<bool, Stop> {
    compare_here(op, x, y)
}

/// [`compare_held`] inlined where it is called: in the loop over a scan's items.
#[inline(always)]
fn compare_here(op: BinaryOp, x: &Value, y: &Value) -> Result<bool, Stop> {
    use BinaryOp::*;
    let ord = match (x, y) {
        // Numbers in lowest terms: equal exactly when their order says so.
        (Value::Num(m), Value::Num(n)) => m.cmp(n),
        (Value::Text(s), Value::Text(t)) if matches!(op, Eq | Ne) => {
            let same = std::ptr::eq(s.as_ptr(), t.as_ptr()) && s.len() == t.len() || s.as_bytes() == t.as_bytes();
            return Ok(same == (op == Eq));
        }
        (Value::Enum(a, i), Value::Enum(b, j)) if matches!(op, Eq | Ne) => return Ok((a == b && i == j) == (op == Eq)),
        _ if matches!(op, Eq | Ne) => return Ok((x == y) == (op == Eq)),
        _ => compare(x, y).ok_or(Stop::Halt)?,
    };
    Ok(super::run::holds(op, ord))
}
