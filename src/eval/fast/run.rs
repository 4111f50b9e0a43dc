//! Running compiled code: calls, rules with their exceptions, tables and expressions,
//! with the interpreter's semantics on every path that can decide (see the parent
//! module for what is left to the interpreter).

use super::{Compiled, Kind, Node};
use crate::check::program::{DefId, RuleId};
use crate::eval::interp::{Inputs, MAX_STEPS, compare, in_range};
use crate::eval::num::Num;
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use std::cell::Cell;

mod rules;

pub(super) use rules::frame_to;

pub(super) const MAX_DEPTH: u32 = 200;

/// Why compiled evaluation did not produce a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// An input is missing: the interpreter's *undetermined*. Absorbed where the
    /// interpreter absorbs it (`false and ?`, an aggregate's decided items, an exception).
    Unknown,
    /// Silence, an error in the rulebook or a limit: evaluation ends and the interpreter
    /// rules instead.
    Halt,
}

pub(crate) type R = Result<Value, Stop>;

/// Buffers reused from one ruling to the next: the value stack holding every call's
/// arguments and locals, and the memo of definitions without parameters.
#[derive(Debug, Default)]
pub struct Scratch {
    pub(super) stack: Vec<Value>,
    /// Emptied buffers for lists being built, taken and given back.
    pool: Vec<Vec<Value>>,
    memo: Vec<(u32, R)>,
    /// Results of the rules kept for one ruling (`CRule::memo`): the generation, what the
    /// rule tree came to, the value when it applies and the steps it took.
    rule_memo: Vec<(u32, RuleResult, Option<Value>, u64)>,
    /// For each fact: the generation in which its place among the input set's values was
    /// found, and that place ([`crate::eval::slots::Slots::place`]). A ruling reads the same
    /// facts many times (some rulings thirty and more); each is searched for once.
    facts: Vec<Cell<(u32, u32)>>,
    generation: u32,
}

/// What a rule (with its exceptions) comes to; the value of one that applies is written
/// into the caller's slot rather than moved back through every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RuleResult {
    Applies,
    NotApplicable,
    Undetermined,
    /// An exception surely applies; its value waits for an input.
    Pending,
}

/// How many lambda items can be lent at once (nested lambdas); past it they are copied.
pub(super) const LENT: usize = 8;

/// What an unused entry of [`Run::lent`] points at.
static NOTHING: Value = Value::Bool(false);

pub(crate) struct Run<'a> {
    pub(super) c: &'a Compiled,
    pub(super) inputs: &'a Inputs,
    pub(super) s: &'a mut Scratch,
    /// Where the current call's frame starts on the stack.
    pub(super) base: usize,
    steps: u64,
    pub(super) depth: u32,
    /// Lambda items lent rather than copied into their slot: the item of a list held by the
    /// program or the inputs (a constant, a fact) is read where it is, by its slot's place
    /// on the stack; the first `lent_n` entries are in use, the innermost last.
    lent: [(usize, &'a Value); LENT],
    pub(super) lent_n: usize,
}

impl<'a> Run<'a> {
    pub(crate) fn new(c: &'a Compiled, inputs: &'a Inputs, s: &'a mut Scratch) -> Self {
        s.stack.clear();
        if s.memo.len() != c.defs.len() {
            s.memo.clear();
            s.memo.resize(c.defs.len(), (0, Err(Stop::Halt)));
            s.generation = 0;
        }
        if s.rule_memo.len() != c.rule_memos as usize {
            s.rule_memo.clear();
            s.rule_memo.resize(c.rule_memos as usize, (0, RuleResult::NotApplicable, None, 0));
        }
        if s.facts.len() != inputs.facts.len() {
            s.facts.clear();
            s.facts.resize(inputs.facts.len(), Cell::new((0, 0)));
        }
        s.generation = s.generation.wrapping_add(1);
        if s.generation == 0 {
            // Wrapped: forget every entry rather than mistake an old one for new.
            s.memo.iter_mut().for_each(|m| *m = (0, Err(Stop::Halt)));
            s.rule_memo.iter_mut().for_each(|m| *m = (0, RuleResult::NotApplicable, None, 0));
            s.facts.iter().for_each(|f| f.set((0, 0)));
            s.generation = 1;
        }
        Run { c, inputs, s, base: 0, steps: 0, depth: 0, lent: [(usize::MAX, &NOTHING); LENT], lent_n: 0 }
    }

    /// The value of fact `f`, its place in the input set found at its first read in this
    /// ruling and kept ([`Scratch::facts`]).
    #[inline]
    pub(super) fn fact(&self, f: u32) -> &'a Option<Value> {
        let inputs: &'a Inputs = self.inputs;
        let facts = &inputs.facts;
        let Some(known) = self.s.facts.get(f as usize) else { return facts.at(facts.place(f as usize)) };
        let (generation, place) = known.get();
        if generation == self.s.generation {
            return facts.at(place);
        }
        let place = facts.place(f as usize);
        known.set((self.s.generation, place));
        facts.at(place)
    }

    /// The value of local `slot` of the current frame: a lent item, or the stack's.
    #[inline]
    pub(super) fn slot(&self, slot: u32) -> &Value {
        let at = self.base + slot as usize;
        for &(i, v) in self.lent[..self.lent_n].iter().rev() {
            if i == at {
                return v;
            }
        }
        &self.s.stack[at]
    }

    /// The value lent to local `slot` of the current frame, if it is lent.
    #[inline]
    pub(super) fn lent_at(&self, slot: u32) -> Option<&'a Value> {
        let at = self.base + slot as usize;
        self.lent[..self.lent_n].iter().rev().find(|(i, _)| *i == at).map(|&(_, v)| v)
    }

    /// Lends `v` to the stack's place `at` (the caller checks there is room, and takes it
    /// back by restoring [`Self::lent_n`]).
    #[inline]
    pub(super) fn lend(&mut self, at: usize, v: &'a Value) {
        self.lent[self.lent_n] = (at, v);
        self.lent_n += 1;
    }

    /// Evaluates `body` with local `slot` bound to `item`: lent when it is held by the
    /// program or the inputs (`lent`), copied into the slot otherwise.
    pub(super) fn with_item<T>(
        &mut self,
        slot: u32,
        item: &Value,
        lent: Option<&'a Value>,
        body: impl FnOnce(&mut Self) -> T,
    ) -> T {
        match lent {
            Some(v) if self.lent_n < LENT => {
                self.lent[self.lent_n] = (self.base + slot as usize, v);
                self.lent_n += 1;
                let r = body(self);
                self.lent_n -= 1;
                r
            }
            _ => {
                *self.local(slot) = item.clone();
                body(self)
            }
        }
    }

    /// The evaluation steps taken so far (the interpreter's count, or more: results of
    /// definitions with parameters are not remembered here).
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    pub(crate) fn ruling(&mut self, def: DefId) -> R {
        // Nothing reads the ruling's own result after it: it is not remembered.
        self.enter(def, 0)
    }

    /// An empty buffer from the pool.
    pub(super) fn buffer(&mut self) -> Vec<Value> {
        self.s.pool.pop().unwrap_or_default()
    }

    /// Gives a buffer back to the pool, emptied.
    pub(super) fn give_back(&mut self, mut b: Vec<Value>) {
        b.clear();
        self.s.pool.push(b);
    }

    pub(super) fn local(&mut self, slot: u32) -> &mut Value {
        &mut self.s.stack[self.base + slot as usize]
    }

    /// Whether a node names a value already held (a constant, a local, a fact, a field of
    /// one, a definition without parameters already ruled on): [`Self::peek`] borrows it
    /// rather than copying it.
    pub(super) fn is_place(&self, node: &Node) -> bool {
        match &node.kind {
            Kind::Const(_)
            | Kind::Local(_)
            | Kind::Fact(_)
            | Kind::FactPath(..)
            | Kind::LocalPath(..)
            | Kind::Decision(_) => true,
            Kind::Call(d, args) => args.is_empty() && self.s.memo[*d as usize].0 == self.s.generation,
            _ => false,
        }
    }

    /// The value of a node for which [`Self::is_place`] holds, borrowed. Counts no steps:
    /// the caller counts the node's [`Node::cost`].
    pub(super) fn peek<'s>(&'s self, node: &'s Node) -> Result<&'s Value, Stop> {
        match &node.kind {
            Kind::Const(v) => Ok(v),
            Kind::Local(s) => Ok(self.slot(*s)),
            Kind::Fact(f) => self.fact(*f).as_ref().ok_or(Stop::Unknown),
            Kind::FactPath(f, path) => follow(self.fact(*f).as_ref(), path),
            Kind::LocalPath(s, path) => follow(Some(self.slot(*s)), path),
            Kind::Decision(d) => self.inputs.decisions[*d as usize].as_ref().ok_or(Stop::Unknown),
            Kind::Call(d, _) => self.s.memo[*d as usize].1.as_ref().map_err(|e| *e),
            _ => Err(Stop::Halt),
        }
    }

    /// Counts `n` steps; a halt past the limit.
    pub(super) fn count(&mut self, n: u64) -> Result<(), Stop> {
        self.steps += n;
        if self.steps > MAX_STEPS { Err(Stop::Halt) } else { Ok(()) }
    }

    pub(super) fn eval(&mut self, node: &'a Node) -> R {
        self.steps += node.cost();
        if self.steps > MAX_STEPS {
            return Err(Stop::Halt);
        }
        match &node.kind {
            Kind::Const(v) => Ok(v.clone()),
            Kind::Local(s) => Ok(self.slot(*s).clone()),
            Kind::Fact(f) => self.fact(*f).clone().ok_or(Stop::Unknown),
            Kind::FactPath(f, path) => follow(self.fact(*f).as_ref(), path).cloned(),
            Kind::LocalPath(s, path) => follow(Some(self.slot(*s)), path).cloned(),
            Kind::Decision(d) => self.inputs.decisions[*d as usize].clone().ok_or(Stop::Unknown),
            Kind::Call(d, args) if args.is_empty() => self.call(*d, 0),
            Kind::Call(d, args) => {
                let start = self.s.stack.len();
                let mut unknown = false;
                for a in args.iter() {
                    match self.eval(a) {
                        Ok(v) => self.s.stack.push(v),
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => {
                            self.s.stack.truncate(start);
                            return Err(Stop::Halt);
                        }
                    }
                }
                if unknown {
                    self.s.stack.truncate(start);
                    return Err(Stop::Unknown);
                }
                self.call(*d, args.len())
            }
            Kind::Dispatch(arg, by) => {
                let r = self.dispatched(arg, by)?;
                self.depth += 1;
                let result = if self.depth > MAX_DEPTH { Err(Stop::Halt) } else { self.rule_in_place(r) };
                self.depth -= 1;
                result
            }
            Kind::CallOne(d, r, args) => self.call_one(*d, *r, args, |me, n| me.eval(n)),
            Kind::FilterDispatch(u) => self.filter_dispatch(u),
            Kind::Cmp(op, ab) => self.cmp(*op, ab).map(Value::Bool),
            Kind::Field(x, i) => match self.eval(x)? {
                Value::Record(_, fields) => fields.get(*i as usize).cloned().flatten().ok_or(Stop::Unknown),
                _ => Err(Stop::Halt),
            },
            Kind::List(xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    out.push(self.eval(x)?);
                }
                Ok(Value::list(out))
            }
            Kind::Record(t, xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    out.push(match x {
                        Some(x) => Some(self.eval(x)?),
                        None => None,
                    });
                }
                Ok(Value::Record(*t, out.into()))
            }
            Kind::Not(x) => match self.eval(x)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                _ => Err(Stop::Halt),
            },
            Kind::Neg(x) => match self.eval(x)? {
                Value::Num(n) => n.neg().map(Value::Num).ok_or(Stop::Halt),
                _ => Err(Stop::Halt),
            },
            Kind::Binary(op, a, b) => self.binary(*op, a, b),
            Kind::Arith(op, a, b) => self.arith(*op, a, b).map(Value::Num),
            Kind::InRange { x, lo, hi, inclusive } => {
                let v = self.eval(x)?;
                let lo = match lo {
                    Some(l) => Some(self.eval(l)?),
                    None => None,
                };
                let hi = match hi {
                    Some(h) => Some(self.eval(h)?),
                    None => None,
                };
                Ok(Value::Bool(in_range(&v, lo.as_ref(), hi.as_ref(), *inclusive)))
            }
            Kind::InList(x, list) => {
                let v = self.eval(x)?;
                if self.is_place(list) {
                    self.count(list.cost())?;
                    return match self.peek(list)? {
                        Value::List(items) => Ok(Value::Bool(items.contains(&v))),
                        _ => Err(Stop::Halt),
                    };
                }
                match self.eval(list)? {
                    Value::List(items) => Ok(Value::Bool(items.contains(&v))),
                    _ => Err(Stop::Halt),
                }
            }
            Kind::If(c, t, e) => {
                if self.eval_bool(c)? {
                    self.eval(t)
                } else {
                    self.eval(e)
                }
            }
            Kind::Let(slot, v, body) => {
                let value = self.eval(v)?;
                *self.local(*slot) = value;
                self.eval(body)
            }
            Kind::Builtin(b, args, lam) => self.builtin(*b, args, lam.as_ref()),
            Kind::Draw(lot, cands, count) => self.draw(*lot, cands, count.as_deref()),
            Kind::Order(o) => self.order(o),
        }
    }

    fn draw(&mut self, lot: u32, cands: &'a Node, count: Option<&'a Node>) -> R {
        let Value::List(cands) = self.eval(cands)? else { return Err(Stop::Halt) };
        let n = match count {
            Some(c) => match self.eval(c)?.as_num().and_then(|n| n.as_i64()) {
                Some(n) if n >= 0 => Some(n as usize),
                _ => return Err(Stop::Halt),
            },
            None => None,
        };
        match n {
            Some(n) if n >= cands.len() => return Ok(Value::List(cands)),
            None if cands.len() == 1 => return Ok(cands[0].clone()),
            None if cands.is_empty() => return Err(Stop::Halt),
            _ => {}
        }
        match (&self.inputs.decisions[lot as usize], n) {
            (Some(v), None) if cands.contains(v) => Ok(v.clone()),
            (Some(Value::List(picked)), Some(n)) => {
                let distinct = picked.iter().enumerate().all(|(i, x)| !picked[..i].contains(x));
                if picked.len() == n && distinct && picked.iter().all(|x| cands.contains(x)) {
                    Ok(Value::List(picked.clone()))
                } else {
                    Err(Stop::Halt)
                }
            }
            (Some(_), _) => Err(Stop::Halt),
            (None, _) => Err(Stop::Unknown),
        }
    }

    /// The value of a boolean node (a guard, a condition, a lambda of `filter`, `count`,
    /// `all`, `any`) without building a [`Value`]: comparisons, `and`, `or`, `not` and
    /// dispatched calls are decided here, anything else is evaluated and read.
    pub(super) fn eval_bool(&mut self, node: &'a Node) -> Result<bool, Stop> {
        use BinaryOp::*;
        match &node.kind {
            Kind::Const(Value::Bool(b)) => {
                self.count(node.cost())?;
                Ok(*b)
            }
            Kind::Cmp(op, ab) => {
                self.count(node.cost())?;
                self.cmp(*op, ab)
            }
            Kind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), a, b) => {
                self.count(node.cost())?;
                self.compare_op(*op, a, b)
            }
            Kind::CallOne(d, r, args) => {
                self.count(node.cost())?;
                self.call_one(*d, *r, args, |me, n| me.eval_bool(n))
            }
            Kind::Binary(op @ (And | Or), a, b) => {
                self.count(node.cost())?;
                self.and_or(*op, a, b)
            }
            Kind::Not(x) => {
                self.count(node.cost())?;
                self.eval_bool(x).map(|b| !b)
            }
            Kind::Dispatch(arg, by) => {
                self.count(node.cost())?;
                let r = self.dispatched(arg, by)?;
                self.dispatch_bool(r)
            }
            _ if self.is_place(node) => {
                self.count(node.cost())?;
                match self.peek(node)? {
                    Value::Bool(b) => Ok(*b),
                    _ => Err(Stop::Halt),
                }
            }
            _ => match self.eval(node)? {
                Value::Bool(b) => Ok(b),
                _ => Err(Stop::Halt),
            },
        }
    }

    /// A dispatched boolean rule, one call deeper.
    pub(super) fn dispatch_bool(&mut self, r: RuleId) -> Result<bool, Stop> {
        self.depth += 1;
        let result = if self.depth > MAX_DEPTH { Err(Stop::Halt) } else { self.rule_in_place_bool(r) };
        self.depth -= 1;
        result
    }

    /// The rule a dispatched call picks by its argument's variant (counting the argument's
    /// steps), read in place when the argument is held.
    fn dispatched(&mut self, arg: &'a Node, by: &[Option<RuleId>]) -> Result<RuleId, Stop> {
        let i = if self.is_place(arg) {
            self.count(arg.cost())?;
            match self.peek(arg)? {
                Value::Enum(_, i) => *i,
                _ => return Err(Stop::Halt),
            }
        } else {
            match self.eval(arg)? {
                Value::Enum(_, i) => i,
                _ => return Err(Stop::Halt),
            }
        };
        match by.get(i as usize) {
            Some(&Some(r)) => Ok(r),
            _ => Err(Stop::Halt),
        }
    }

    /// The value of a numeric node without building a [`Value`] (an operand of
    /// [`Kind::Arith`]): held values read in place, sums and products computed here.
    fn eval_num(&mut self, node: &'a Node) -> Result<Num, Stop> {
        match &node.kind {
            Kind::Arith(op, a, b) => {
                self.count(node.cost())?;
                self.arith(*op, a, b)
            }
            Kind::CallOne(d, r, args) => {
                self.count(node.cost())?;
                self.call_one(*d, *r, args, |me, n| me.eval_num(n))
            }
            _ if self.is_place(node) => {
                self.count(node.cost())?;
                match self.peek(node)? {
                    Value::Num(n) => Ok(*n),
                    _ => Err(Stop::Halt),
                }
            }
            _ => match self.eval(node)? {
                Value::Num(n) => Ok(n),
                _ => Err(Stop::Halt),
            },
        }
    }

    /// `a op b` on two numbers, both evaluated (a halt before an unknown, as in
    /// [`Self::binary`]); overflow is a halt.
    fn arith(&mut self, op: BinaryOp, a: &'a Node, b: &'a Node) -> Result<Num, Stop> {
        let (m, n) = both(self.eval_num(a), self.eval_num(b))?;
        match op {
            BinaryOp::Add => m.add(n),
            BinaryOp::Sub => m.sub(n),
            BinaryOp::Mul => m.mul(n),
            _ => None,
        }
        .ok_or(Stop::Halt)
    }

    /// `a and b`, `a or b` with the interpreter's three-valued logic.
    fn and_or(&mut self, op: BinaryOp, a: &'a Node, b: &'a Node) -> Result<bool, Stop> {
        let short = op == BinaryOp::Or; // the value that decides on its own
        let left = self.eval_bool(a);
        if left == Ok(short) {
            return Ok(short);
        }
        let right = self.eval_bool(b);
        match (left, right) {
            (_, Ok(y)) if y == short => Ok(short),
            (Ok(_), Ok(_)) => Ok(!short),
            // The interpreter prefers an error to a missing input, and a missing input
            // to silence: any halt here is left to it.
            (Err(Stop::Halt), _) | (_, Err(Stop::Halt)) => Err(Stop::Halt),
            _ => Err(Stop::Unknown),
        }
    }

    /// `a op b` for a comparison operator. Operands already held (constants, locals,
    /// facts and their fields, definitions already ruled on) are read in place: no copies.
    fn compare_op(&mut self, op: BinaryOp, a: &'a Node, b: &'a Node) -> Result<bool, Stop> {
        match (self.is_place(a), self.is_place(b)) {
            (true, true) => {
                self.count(a.cost() + b.cost())?;
                both(self.peek(a), self.peek(b)).and_then(|(x, y)| comparison(op, x, y))
            }
            (false, true) => {
                let x = self.eval(a);
                self.count(b.cost())?;
                both(x.as_ref().map_err(|e| *e), self.peek(b)).and_then(|(x, y)| comparison(op, x, y))
            }
            (true, false) => {
                // `b` first: evaluating it may rule on a definition `a` borrows.
                let y = self.eval(b);
                if !self.is_place(a) {
                    let x = self.eval(a);
                    return both(x.as_ref().map_err(|e| *e), y.as_ref().map_err(|e| *e))
                        .and_then(|(x, y)| comparison(op, x, y));
                }
                self.count(a.cost())?;
                both(self.peek(a), y.as_ref().map_err(|e| *e)).and_then(|(x, y)| comparison(op, x, y))
            }
            (false, false) => {
                let x = self.eval(a);
                let y = self.eval(b);
                both(x.as_ref().map_err(|e| *e), y.as_ref().map_err(|e| *e)).and_then(|(x, y)| comparison(op, x, y))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &'a Node, b: &'a Node) -> R {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            return self.and_or(op, a, b).map(Value::Bool);
        }
        if matches!(op, Eq | Ne | Lt | Le | Gt | Ge) {
            return self.compare_op(op, a, b).map(Value::Bool);
        }
        let (x, y) = both(self.eval(a), self.eval(b))?;
        match op {
            Eq | Ne | Lt | Le | Gt | Ge => comparison(op, &x, &y).map(Value::Bool),
            Add | Sub | Mul | Div | IntDiv | Mod => match (x, y) {
                (Value::Num(m), Value::Num(n)) => {
                    let r = match op {
                        Add => m.add(n),
                        Sub => m.sub(n),
                        Mul => m.mul(n),
                        Div | IntDiv | Mod if n == Num::ZERO => return Err(Stop::Halt),
                        Div => m.div(n),
                        IntDiv => m.div(n).map(|q| q.floor()),
                        Mod => m.div(n).map(|q| q.floor()).and_then(|q| q.mul(n)).and_then(|b| m.sub(b)),
                        Eq | Ne | Lt | Le | Gt | Ge | And | Or => return Err(Stop::Halt),
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
                (Value::Time(t), Value::Num(n)) => t.add(n, op == Sub).map(Value::Time).map_err(|_| Stop::Halt),
                (Value::Time(t1), Value::Time(t2)) => Ok(Value::Num(t1.since(t2))),
                _ => Err(Stop::Halt),
            },
            And | Or => Err(Stop::Halt),
        }
    }
}

/// Whether a comparison `op` holds of two values in order `ord`.
#[inline(always)]
pub(super) fn holds(op: BinaryOp, ord: std::cmp::Ordering) -> bool {
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

/// Follows record fields from a value: a missing value or field is unknown, a field of
/// something else a halt.
pub(super) fn follow<'v>(start: Option<&'v Value>, path: &[u32]) -> Result<&'v Value, Stop> {
    let mut v = start.ok_or(Stop::Unknown)?;
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
fn both<X, Y>(x: Result<X, Stop>, y: Result<Y, Stop>) -> Result<(X, Y), Stop> {
    match (x, y) {
        (Ok(x), Ok(y)) => Ok((x, y)),
        (Err(Stop::Halt), _) | (_, Err(Stop::Halt)) => Err(Stop::Halt),
        _ => Err(Stop::Unknown),
    }
}

/// `x op y` for a comparison operator.
fn comparison(op: BinaryOp, x: &Value, y: &Value) -> Result<bool, Stop> {
    use BinaryOp::*;
    if let (Value::Num(m), Value::Num(n)) = (x, y) {
        // Numbers in lowest terms: equal exactly when their order says so.
        return Ok(holds(op, m.cmp(n)));
    }
    Ok(match op {
        Eq => x == y,
        Ne => x != y,
        _ => {
            let ord = compare(x, y).ok_or(Stop::Halt)?;
            match op {
                Lt => ord.is_lt(),
                Le => ord.is_le(),
                Gt => ord.is_gt(),
                _ => ord.is_ge(),
            }
        }
    })
}
