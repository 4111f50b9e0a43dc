//! The builtin functions on compiled code, with the interpreter's semantics
//! (`super::super::builtins`): aggregates absorb missing items where one decided item
//! settles the answer (`all` with a false item, `any` with a true one).

use super::held::Refs;
use super::run::{LENT, R, Run, Stop};
use super::{Kind, Node};
use crate::check::program::Builtin;
use crate::eval::interp::compare;
use crate::eval::num::Num;
use crate::eval::value::Value;
use std::cmp::Ordering;
use std::sync::Arc;

type Lam<'n> = Option<&'n (u32, Box<Node>)>;

fn num(v: &Value) -> Result<Num, Stop> {
    v.as_num().ok_or(Stop::Halt)
}

/// A list's items while an aggregate reads them: shared with the list's value, built
/// in one of the scratch buffers (an inner `map`, `filter` or `distinct`, never made a
/// list of its own), or references to items held by the program or the inputs (the same
/// inner builtins over such items). Give a buffer back with [`Run::release`].
pub(super) enum Items<'a> {
    /// A list held by the program (a constant) or the inputs (a fact), read in place.
    Borrowed(&'a [Value]),
    /// Items held by the program or the inputs, picked by an inner `filter`, `map` or
    /// `distinct`: read in place, lent to lambdas.
    Refs(Refs<'a>),
    Shared(Arc<[Value]>),
    Owned(Vec<Value>),
}

impl<'a> Items<'a> {
    /// Item `i` when the list is held by the program or the inputs: lent to a lambda
    /// rather than copied (see [`Run::with_item`]).
    pub(super) fn lent(&self, i: usize) -> Option<&'a Value> {
        match self {
            Items::Borrowed(xs) => {
                let xs: &'a [Value] = xs;
                xs.get(i)
            }
            Items::Refs(r) => (i < r.len()).then(|| r.get(i)),
            Items::Shared(_) | Items::Owned(_) => None,
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Items::Borrowed(xs) => xs.len(),
            Items::Refs(r) => r.len(),
            Items::Shared(xs) => xs.len(),
            Items::Owned(xs) => xs.len(),
        }
    }

    /// Item `i` (which must exist).
    #[inline]
    pub(super) fn at(&self, i: usize) -> &Value {
        match self {
            Items::Borrowed(xs) => &xs[i],
            Items::Refs(r) => r.get(i),
            Items::Shared(xs) => &xs[i],
            Items::Owned(xs) => &xs[i],
        }
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Value> + '_ {
        (0..self.len()).map(move |i| self.at(i))
    }

    pub(super) fn contains(&self, v: &Value) -> bool {
        self.iter().any(|x| x == v)
    }
}

/// Whether a builtin can write its items into a buffer ([`Run::items_into`]).
fn streams(b: Builtin, lam: Lam) -> bool {
    matches!((b, lam), (Builtin::Map | Builtin::Filter, Some(_)) | (Builtin::Distinct, None))
}

impl<'a> Run<'a> {
    /// The items of a list-valued node.
    pub(super) fn list(&mut self, n: &'a Node) -> Result<Items<'a>, Stop> {
        if let Kind::Builtin(b, args, lam) = &n.kind
            && streams(*b, lam.as_ref())
        {
            if n.refs && self.lent_n < LENT {
                self.count(n.cost())?;
                let mut out = Refs::new();
                self.refs_into(*b, args, lam.as_ref(), &mut out)?;
                return Ok(Items::Refs(out));
            }
            self.count(n.cost())?;
            let mut out = self.buffer();
            return match self.items_into(*b, args, lam.as_ref(), &mut out) {
                Ok(()) => Ok(Items::Owned(out)),
                Err(e) => {
                    self.give_back(out);
                    Err(e)
                }
            };
        }
        let held = match &n.kind {
            Kind::Const(v) => Some(Ok(v)),
            Kind::Fact(f) => Some(self.fact(*f).as_ref().ok_or(Stop::Unknown)),
            Kind::FactPath(f, path) => Some(super::run::follow(self.fact(*f).as_ref(), path)),
            _ => None,
        };
        if let Some(v) = held {
            self.count(n.cost())?;
            return match v? {
                Value::List(xs) => Ok(Items::Borrowed(xs)),
                _ => Err(Stop::Halt),
            };
        }
        match self.eval(n)? {
            Value::List(xs) => Ok(Items::Shared(xs)),
            _ => Err(Stop::Halt),
        }
    }

    /// [`Self::items_into`] when the items are held by the program or the inputs
    /// ([`Node::refs`]): references to them, not copies; `map` reads its body in place with
    /// the item lent.
    fn refs_into(&mut self, b: Builtin, args: &'a [Node], lam: Lam<'a>, out: &mut Refs<'a>) -> Result<(), Stop> {
        let xs = self.list(&args[0])?;
        if let (Builtin::Filter, Some(lam)) = (b, lam)
            && let Some(t) = self.scan(lam, &xs)
        {
            let t = t?;
            for i in 0..xs.len() {
                if t.trues & (1 << i) != 0 {
                    out.push(xs.lent(i).ok_or(Stop::Halt)?);
                }
            }
            return if t.unknown { Err(Stop::Unknown) } else { Ok(()) };
        }
        let mut unknown = false;
        for i in 0..xs.len() {
            // Held by `Node::refs`; anything else is left to the interpreter.
            let Some(x) = xs.lent(i) else { return Err(Stop::Halt) };
            match (b, lam) {
                (Builtin::Map, Some(lam)) => {
                    if self.lent_n >= LENT {
                        return Err(Stop::Halt);
                    }
                    let body: &'a Node = &lam.1;
                    let got = self.with_item(lam.0, x, Some(x), |me| {
                        me.count(body.cost())?;
                        me.held_ref(body).unwrap_or(Err(Stop::Halt))
                    });
                    match got {
                        Ok(v) => out.push(v),
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
                (Builtin::Filter, Some(lam)) => match self.apply_bool(lam, x, Some(x)) {
                    Ok(true) => out.push(x),
                    Ok(false) => {}
                    Err(Stop::Unknown) => unknown = true,
                    Err(Stop::Halt) => return Err(Stop::Halt),
                },
                _ => {
                    if !out.contains(x) {
                        out.push(x);
                    }
                }
            }
        }
        if unknown { Err(Stop::Unknown) } else { Ok(()) }
    }

    /// Gives a list's buffer back for reuse.
    pub(super) fn release(&mut self, xs: Items<'a>) {
        if let Items::Owned(b) = xs {
            self.give_back(b);
        }
    }

    /// `map`, `filter` (with a lambda) or `distinct`, its items appended to `out`, with the
    /// interpreter's semantics: every item is evaluated, a halt ends it at once, a missing
    /// item makes it unknown once all are evaluated.
    fn items_into(&mut self, b: Builtin, args: &'a [Node], lam: Lam<'a>, out: &mut Vec<Value>) -> Result<(), Stop> {
        let xs = self.list(&args[0])?;
        let mut unknown = false;
        match (b, lam) {
            (Builtin::Map, Some(lam)) => {
                for (i, x) in xs.iter().enumerate() {
                    match self.apply(lam, x, xs.lent(i)) {
                        Ok(v) => out.push(v),
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
            }
            (Builtin::Filter, Some(lam)) => {
                for (i, x) in xs.iter().enumerate() {
                    match self.apply_bool(lam, x, xs.lent(i)) {
                        Ok(true) => out.push(x.clone()),
                        Ok(false) => {}
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
            }
            _ => {
                let start = out.len();
                for x in xs.iter() {
                    if !out[start..].contains(x) {
                        out.push(x.clone());
                    }
                }
            }
        }
        self.release(xs);
        if unknown { Err(Stop::Unknown) } else { Ok(()) }
    }

    /// The lambda on item `x` (lent when `lent`, see [`Run::with_item`]).
    fn apply(&mut self, lam: &'a (u32, Box<Node>), x: &Value, lent: Option<&'a Value>) -> R {
        self.with_item(lam.0, x, lent, |me| me.eval(&lam.1))
    }

    /// [`Self::apply`] for a lambda of `filter`, `count`, `all` or `any`: its truth, with
    /// no value built. A lambda that only passes its item to a dispatched definition
    /// (`f => eligible(f)`) picks the rule by the item's variant without binding it.
    fn apply_bool(&mut self, lam: &'a (u32, Box<Node>), x: &Value, lent: Option<&'a Value>) -> Result<bool, Stop> {
        if let Kind::Dispatch(arg, by) = &lam.1.kind
            && matches!(arg.kind, Kind::Local(s) if s == lam.0)
        {
            self.count(lam.1.cost() + arg.cost())?;
            let Value::Enum(_, i) = x else { return Err(Stop::Halt) };
            let Some(&Some(r)) = by.get(*i as usize) else { return Err(Stop::Halt) };
            return self.dispatch_bool(r);
        }
        if let Kind::Cmp(op, ab) = &lam.1.kind {
            // A comparison (`s => s.bopæl == b`): read in place, without the dispatch.
            let steps = lam.1.cost();
            return self.with_item(lam.0, x, lent, |me| {
                me.count(steps)?;
                me.cmp(*op, ab)
            });
        }
        self.with_item(lam.0, x, lent, |me| me.eval_bool(&lam.1))
    }

    /// The lambda on every item, in order, into `out`; a halt ends it, a missing value
    /// makes it unknown once all are evaluated.
    fn each_known(&mut self, lam: &'a (u32, Box<Node>), xs: &Items<'a>, out: &mut Vec<Value>) -> Result<(), Stop> {
        let mut unknown = false;
        for (i, x) in xs.iter().enumerate() {
            match self.apply(lam, x, xs.lent(i)) {
                Ok(v) => out.push(v),
                Err(Stop::Unknown) => unknown = true,
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        if unknown { Err(Stop::Unknown) } else { Ok(()) }
    }

    pub(super) fn builtin(&mut self, b: Builtin, args: &'a [Node], lam: Lam<'a>) -> R {
        match b {
            Builtin::Map | Builtin::Filter | Builtin::Distinct if streams(b, lam) => {
                let mut out = self.buffer();
                let r = self.items_into(b, args, lam, &mut out);
                let v = r.map(|()| Value::List(out.drain(..).collect()));
                self.give_back(out);
                v
            }
            Builtin::Count | Builtin::Filter | Builtin::All | Builtin::Any => {
                let xs = self.list(&args[0])?;
                let Some(lam) = lam else {
                    let n = xs.len();
                    self.release(xs);
                    return Ok(Value::int(n as i128));
                };
                // One pass without an intermediate list: a halt ends it, as in the interpreter.
                let (mut trues, mut falses, mut unknown) = (0usize, false, false);
                let mut kept = Vec::new();
                if let Some(t) = self.scan(lam, &xs) {
                    let t = t?;
                    (trues, falses, unknown) = (t.trues.count_ones() as usize, t.falses, t.unknown);
                    if b == Builtin::Filter {
                        let picked = xs.iter().enumerate().filter(|(i, _)| t.trues & (1 << i) != 0);
                        kept.extend(picked.map(|(_, x)| x.clone()));
                    }
                } else {
                    for (i, x) in xs.iter().enumerate() {
                        match self.apply_bool(lam, x, xs.lent(i)) {
                            Ok(true) => {
                                trues += 1;
                                if b == Builtin::Filter {
                                    kept.push(x.clone());
                                }
                            }
                            Ok(false) => falses = true,
                            Err(Stop::Unknown) => unknown = true,
                            Err(Stop::Halt) => return Err(Stop::Halt),
                        }
                    }
                }
                self.release(xs);
                match b {
                    Builtin::All if falses => return Ok(Value::Bool(false)),
                    Builtin::Any if trues > 0 => return Ok(Value::Bool(true)),
                    _ => {}
                }
                if unknown {
                    return Err(Stop::Unknown);
                }
                Ok(match b {
                    Builtin::All => Value::Bool(true),
                    Builtin::Any => Value::Bool(false),
                    Builtin::Count => Value::int(trues as i128),
                    _ => Value::list(kept),
                })
            }
            Builtin::Map => Err(Stop::Halt),
            Builtin::Sum => {
                let xs = self.list(&args[0])?;
                let mut total = Num::ZERO;
                match lam {
                    Some(lam) => {
                        // As the interpreter: every item evaluated, then summed.
                        let (mut unknown, mut bad) = (false, false);
                        for (i, x) in xs.iter().enumerate() {
                            match self.apply(lam, x, xs.lent(i)) {
                                Ok(v) if !bad => match v.as_num().and_then(|n| total.add(n)) {
                                    Some(t) => total = t,
                                    None => bad = true,
                                },
                                Ok(_) => {}
                                Err(Stop::Unknown) => unknown = true,
                                Err(Stop::Halt) => return Err(Stop::Halt),
                            }
                        }
                        if unknown {
                            return Err(Stop::Unknown);
                        }
                        if bad {
                            return Err(Stop::Halt);
                        }
                    }
                    None => {
                        for v in xs.iter() {
                            total = total.add(num(v)?).ok_or(Stop::Halt)?;
                        }
                    }
                }
                self.release(xs);
                Ok(Value::Num(total))
            }
            Builtin::Most | Builtin::Least | Builtin::Top => {
                let xs = self.list(&args[0])?;
                let lam = lam.ok_or(Stop::Halt)?;
                let mut keys = self.buffer();
                self.each_known(lam, &xs, &mut keys)?;
                let cmp = |a: &Value, c: &Value| compare(a, c).unwrap_or(Ordering::Equal);
                if b == Builtin::Top {
                    let n = num(&self.eval(&args[1])?)?;
                    let mut sorted: Vec<&Value> = keys.iter().collect();
                    sorted.sort_by(|a, c| cmp(a, c));
                    let out = xs
                        .iter()
                        .zip(&keys)
                        .filter(|(_, k)| {
                            let better = sorted.len() - sorted.partition_point(|o| cmp(o, k) != Ordering::Greater);
                            Num::int(better as i128 + 1) <= n
                        })
                        .map(|(x, _)| x.clone())
                        .collect();
                    return Ok(Value::list(out));
                }
                let mut best: Option<usize> = None;
                for (i, k) in keys.iter().enumerate() {
                    best = match best {
                        None => Some(i),
                        Some(a) => {
                            let o = cmp(k, &keys[a]);
                            if (b == Builtin::Most && o == Ordering::Greater)
                                || (b == Builtin::Least && o == Ordering::Less)
                            {
                                Some(i)
                            } else {
                                Some(a)
                            }
                        }
                    };
                }
                let mut out = self.buffer();
                if let Some(best) = best {
                    let best = &keys[best];
                    let picked = xs.iter().zip(keys.iter()).filter(|(_, k)| cmp(k, best) == Ordering::Equal);
                    out.extend(picked.map(|(x, _)| x.clone()));
                }
                let v = Value::List(out.drain(..).collect());
                self.give_back(out);
                self.give_back(keys);
                self.release(xs);
                Ok(v)
            }
            Builtin::Distinct => {
                let xs = self.list(&args[0])?;
                let mut out: Vec<Value> = Vec::new();
                for x in xs.iter() {
                    if !out.contains(x) {
                        out.push(x.clone());
                    }
                }
                Ok(Value::list(out))
            }
            Builtin::First | Builtin::Only => {
                let xs = self.list(&args[0])?;
                let v = match (b, xs.len()) {
                    (_, 0) => Err(Stop::Halt),
                    (Builtin::Only, n) if n > 1 => Err(Stop::Halt),
                    _ => Ok(xs.at(0).clone()),
                };
                self.release(xs);
                v
            }
            Builtin::At => {
                let xs = self.list(&args[0])?;
                let n = num(&self.eval(&args[1])?)?;
                n.as_i64()
                    .filter(|&i| i >= 1 && (i as usize) <= xs.len())
                    .map(|i| xs.at(i as usize - 1).clone())
                    .ok_or(Stop::Halt)
            }
            Builtin::Position => {
                let xs = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                xs.iter().position(|y| *y == x).map(|i| Value::int(i as i128 + 1)).ok_or(Stop::Halt)
            }
            Builtin::Place => {
                let groups = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                let mut ahead = 0usize;
                for g in groups.iter() {
                    let g = g.as_list().ok_or(Stop::Halt)?;
                    if g.contains(&x) {
                        return Ok(Value::int(ahead as i128 + 1));
                    }
                    ahead += g.len();
                }
                Err(Stop::Halt)
            }
            Builtin::Quotient => {
                let a = num(&self.eval(&args[0])?)?;
                let d = num(&self.eval(&args[1])?)?;
                if d == Num::ZERO {
                    return self.eval(&args[2]);
                }
                a.div(d).map(Value::Num).ok_or(Stop::Halt)
            }
            Builtin::Concat => {
                let mut out = Vec::new();
                for a in args {
                    out.extend(self.list(a)?.iter().cloned());
                }
                Ok(Value::list(out))
            }
            Builtin::Contains => {
                let xs = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                Ok(Value::Bool(xs.contains(&x)))
            }
            Builtin::Min | Builtin::Max => {
                let want = if b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
                let pick = |vals: &mut dyn Iterator<Item = Value>| {
                    vals.reduce(|a, c| if compare(&c, &a) == Some(want) { c } else { a }).ok_or(Stop::Halt)
                };
                if args.len() == 1 {
                    let xs = self.list(&args[0])?;
                    let v = pick(&mut xs.iter().cloned());
                    self.release(xs);
                    return v;
                }
                // Every argument evaluated, the best kept as they come (the same left fold).
                let mut best: Option<Value> = None;
                let mut unknown = false;
                for a in args {
                    match self.eval(a) {
                        Ok(c) => {
                            best = Some(match best {
                                Some(a) if compare(&c, &a) != Some(want) => a,
                                _ => c,
                            })
                        }
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
                if unknown {
                    return Err(Stop::Unknown);
                }
                best.ok_or(Stop::Halt)
            }
            Builtin::Ceil | Builtin::Floor | Builtin::Round | Builtin::Abs => {
                let n = num(&self.eval(&args[0])?)?;
                Ok(Value::Num(match b {
                    Builtin::Ceil => n.ceil(),
                    Builtin::Floor => n.floor(),
                    Builtin::Round => n.round(),
                    _ if n.is_negative() => n.neg().ok_or(Stop::Halt)?,
                    _ => n,
                }))
            }
            Builtin::Age => {
                let (Value::Date(born), Value::Date(on)) = (self.eval(&args[0])?, self.eval(&args[1])?) else {
                    return Err(Stop::Halt);
                };
                Ok(Value::int(born.age_on(on) as i128))
            }
            // Largest-remainder apportionment (ties, lots, their wording) is left to the
            // interpreter: rare, and never on a hot path.
            Builtin::Apportion => Err(Stop::Halt),
            // Dates built and taken apart: left to the interpreter for now (correct, slower).
            Builtin::Date
            | Builtin::Year
            | Builtin::Month
            | Builtin::Day
            | Builtin::Weekday
            | Builtin::NextWeekday
            | Builtin::PreviousWeekday
            | Builtin::AddMonths
            | Builtin::AddYears => Err(Stop::Halt),
            // Draws are their own node ([`super::Kind::Draw`]).
            Builtin::Draw | Builtin::Choose => Err(Stop::Halt),
        }
    }
}
