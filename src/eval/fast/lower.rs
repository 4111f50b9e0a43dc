//! Lowering the checked program's expressions ([`Ir`]) to compiled code ([`super::code`]).
//!
//! What it owns: the choice, made once per rulebook, of how each expression runs: a value
//! held somewhere becomes a [`Place`] read in place; a call of a definition without
//! parameters reads its result, worked out once a ruling; a definition that only reads a
//! fact or is a constant is read in place where it is called; a call of a definition of
//! one enum parameter whose rule is picked by the argument's variant runs that rule in the
//! caller's frame; and the steps each block counts ([`Lower::cost`]). Truth values and
//! numbers have their own code (`super::logic`), aggregates theirs (`super::builtins`).

use super::code::{self, Place, Val, both, follow, val};
use super::cx::{Stop, truth_value};
use crate::base::value::Value;
use crate::check::program::*;
use crate::check::types::Type;
use crate::eval::interp::matches_pattern;
use std::cell::RefCell;

/// The lowering of one program (see the module documentation).
pub(crate) struct Lower<'p> {
    pub(crate) p: &'p Program,
    /// Constants lent with the program's lifetime ([`super::Compiled::consts`]).
    consts: RefCell<Vec<Value>>,
    /// Unrolled filters ([`super::Compiled::unrolled`]).
    pub(crate) unrolled: RefCell<Vec<super::builtins::Unrolled>>,
    /// For each definition, whether a ruling works it out at most once ([`super::calls::once`]).
    once: Vec<bool>,
    /// The slots of the rule being lowered, for the calls it inlines.
    pub(crate) slots: super::inline::Slots,
}

impl<'p> Lower<'p> {
    pub(crate) fn new(p: &'p Program, once: Vec<bool>) -> Self {
        Lower { p, consts: RefCell::default(), unrolled: RefCell::default(), once, slots: Default::default() }
    }

    pub(crate) fn into_parts(self) -> (Box<[Value]>, Box<[super::builtins::Unrolled]>) {
        (self.consts.into_inner().into(), self.unrolled.into_inner().into())
    }

    /// The index of a constant among those lent with the program.
    pub(crate) fn konst(&self, v: Value) -> u32 {
        let mut c = self.consts.borrow_mut();
        c.push(v);
        c.len() as u32 - 1
    }

    /// For a definition without parameters whose one rule, without guard or exceptions,
    /// reads a fact (or a field of one) or is a constant (`cutoff_masterpoints =
    /// player.masterpoints`): that value, read in place where the definition is called.
    /// Whether a ruling works definition `def` out at most once, without keeping it.
    pub(crate) fn is_once(&self, def: DefId) -> bool {
        self.once.get(def as usize) == Some(&true)
    }

    pub(crate) fn alias(&self, def: DefId) -> Option<&'p Ir> {
        let p = self.p;
        let d = &p.defs[def as usize];
        if !d.params.is_empty() || d.table.is_some() {
            return None;
        }
        let [r] = d.rules.as_slice() else { return None };
        let rule = &p.rules[*r as usize];
        let place = fact_path(&rule.value).is_some() || matches!(rule.value.kind, IrKind::Const(_));
        (rule.exceptions.is_empty() && rule.overrides.is_empty() && rule.guard.is_none() && rule.frame == 0 && place)
            .then_some(&rule.value)
    }

    /// For a definition of one enum parameter and no table: each variant's one candidate
    /// rule, when no variant has more than one, none has exceptions, none binds its
    /// parameter and none reads a local slot (so it runs in the caller's frame); `None`
    /// otherwise.
    pub(crate) fn dispatch(&self, def: DefId) -> Option<Box<[Option<RuleId>]>> {
        let p = self.p;
        let d = &p.defs[def as usize];
        let ([(_, Type::Enum(t))], None) = (d.params.as_slice(), &d.table) else { return None };
        let TypeKind::Enum(vs) = &p.types[*t as usize].kind else { return None };
        let top: Vec<RuleId> = d.rules.iter().copied().filter(|&r| p.rules[r as usize].overrides.is_empty()).collect();
        (0..vs.len() as u32)
            .map(|v| {
                let arg = Value::Enum(*t, v);
                let mut candidates = top.iter().copied().filter(|&r| self.may_match(r, &arg));
                let first = candidates.next();
                if candidates.next().is_some() {
                    return Err(());
                }
                match first {
                    None => Ok(None),
                    Some(r) => {
                        let rule = &p.rules[r as usize];
                        let frameless = rule.exceptions.is_empty()
                            && !rule.patterns.iter().any(binds)
                            && !rule.guard.as_ref().is_some_and(reads_locals)
                            && !reads_locals(&rule.value);
                        if frameless { Ok(Some(r)) } else { Err(()) }
                    }
                }
            })
            .collect::<Result<Box<[Option<RuleId>]>, ()>>()
            .ok()
    }

    /// Whether rule `r` or one of its exceptions (at any depth) can match `arg` as its
    /// first argument.
    pub(crate) fn may_match(&self, r: RuleId, arg: &Value) -> bool {
        let rule = &self.p.rules[r as usize];
        let own = rule.patterns.first().is_none_or(|pat| binds(pat) || matches_pattern(pat, arg, &mut []));
        own || rule.exceptions.iter().any(|&e| self.may_match(e, arg))
    }

    /// The steps an expression counts, lambda bodies and ordering keys left out (they
    /// count for each item): one a node, as the interpreter counts, and a definition read
    /// in place ([`Self::alias`]) its rule's value besides the call.
    pub(crate) fn cost(&self, ir: &Ir) -> u64 {
        let all = |xs: &[Ir]| xs.iter().map(|x| self.cost(x)).sum::<u64>();
        let opt = |x: &Option<Box<Ir>>| x.as_deref().map_or(0, |x| self.cost(x));
        1 + match &ir.kind {
            IrKind::Const(_) | IrKind::Local(_) | IrKind::Fact(_) | IrKind::Decision(_) => 0,
            IrKind::Call(d, args) if args.is_empty() => self.alias(*d).map_or(0, |v| self.cost(v)),
            IrKind::Call(_, args) | IrKind::List(args) => all(args),
            IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => self.cost(x),
            IrKind::Record(_, xs) => xs.iter().flatten().map(|x| self.cost(x)).sum(),
            IrKind::Binary(_, a, b) | IrKind::InList(a, b) | IrKind::Let(_, a, b) => self.cost(a) + self.cost(b),
            IrKind::InRange { x, lo, hi, .. } => self.cost(x) + opt(lo) + opt(hi),
            IrKind::If(c, t, e) => self.cost(c) + self.cost(t) + self.cost(e),
            IrKind::Builtin(_, args, _) => all(args),
            IrKind::Draw(_, c, n) => self.cost(c) + opt(n),
            IrKind::Order(o) => self.cost(&o.list),
        }
    }

    /// Where an expression's value is held, when it is: a constant, a fact, a local, a
    /// decision, a field of one of them, or a definition's result.
    pub(crate) fn place(&self, ir: &Ir) -> Option<Place> {
        Some(match &ir.kind {
            IrKind::Const(v) => Place::Const(self.konst(v.clone())),
            IrKind::List(xs) if xs.iter().all(|x| matches!(x.kind, IrKind::Const(_))) => {
                let items =
                    xs.iter().filter_map(|x| if let IrKind::Const(v) = &x.kind { Some(v.clone()) } else { None });
                Place::Const(self.konst(Value::list(items.collect())))
            }
            IrKind::Local(s) => Place::Local(*s, Box::new([])),
            IrKind::Fact(f) => Place::Fact(*f, Box::new([])),
            IrKind::Decision(d) => Place::Decision(*d),
            IrKind::Call(d, args) if args.is_empty() => match self.alias(*d) {
                Some(v) => return self.place(v),
                None if self.once.get(*d as usize) == Some(&true) => Place::Once(*d, Box::new([])),
                None => Place::Memo(*d, Box::new([])),
            },
            IrKind::Field(x, i) => {
                let with = |path: &[u32]| -> Box<[u32]> { path.iter().copied().chain([*i]).collect() };
                match self.place(x)? {
                    Place::Fact(f, path) => Place::Fact(f, with(&path)),
                    Place::Local(s, path) => Place::Local(s, with(&path)),
                    Place::Memo(d, path) => Place::Memo(d, with(&path)),
                    Place::Once(d, path) => Place::Once(d, with(&path)),
                    Place::Const(_) | Place::Decision(_) => return None,
                }
            }
            _ => return None,
        })
    }

    pub(crate) fn boxed_vals(&self, irs: &[Ir]) -> Box<[Val]> {
        irs.iter().map(|x| self.val(x)).collect()
    }

    /// Code giving the value of `ir`.
    pub(crate) fn val(&self, ir: &Ir) -> Val {
        if let Some(place) = self.place(ir) {
            return match place {
                Place::Memo(..) | Place::Once(..) => val(move |cx| place.get(cx)),
                _ => val(move |cx| place.read(cx)),
            };
        }
        match &ir.kind {
            IrKind::Call(d, args) => self.call(*d, args),
            IrKind::Field(x, i) => {
                let x = self.val(x);
                let i = *i;
                val(move |cx| follow(x(cx)?, &[i]))
            }
            IrKind::List(xs) => {
                let xs = self.boxed_vals(xs);
                val(move |cx| {
                    let mut out = Vec::with_capacity(xs.len());
                    for x in xs.iter() {
                        out.push(x(cx)?.clone());
                    }
                    Ok(cx.keep_value(Value::list(out)))
                })
            }
            IrKind::Record(t, xs) => {
                let t = *t;
                let xs: Box<[Option<Val>]> = xs.iter().map(|x| x.as_ref().map(|x| self.val(x))).collect();
                val(move |cx| {
                    let mut out = Vec::with_capacity(xs.len());
                    for x in xs.iter() {
                        out.push(match x {
                            Some(x) => Some(x(cx)?.clone()),
                            None => None,
                        });
                    }
                    Ok(cx.keep_value(Value::Record(t, out.into())))
                })
            }
            IrKind::Not(_) | IrKind::InRange { .. } | IrKind::InList(..) => {
                let b = self.boolean(ir);
                val(move |cx| Ok(truth_value(b(cx)?)))
            }
            IrKind::Neg(_) => {
                let n = self.num(ir);
                val(move |cx| {
                    let n = n(cx)?;
                    Ok(cx.keep_value(Value::Num(n)))
                })
            }
            IrKind::Binary(op, a, b) => self.binary(*op, a, b, ir),
            IrKind::If(c, t, e) => {
                let (c, t, e) = (self.boolean(c), self.val(t), self.val(e));
                val(move |cx| if c(cx)? { t(cx) } else { e(cx) })
            }
            IrKind::Let(slot, v, body) => {
                let (slot, v, body) = (*slot, self.val(v), self.val(body));
                val(move |cx| {
                    let x = v(cx)?;
                    cx.bind(slot, x);
                    body(cx)
                })
            }
            IrKind::Builtin(b, args, lam) => self.builtin(*b, args, lam.as_ref(), ir),
            IrKind::Draw(lot, cands, count) => self.draw(*lot, cands, count.as_deref()),
            IrKind::Order(o) => self.order(o),
            // Held values are places (above).
            IrKind::Const(_) | IrKind::Local(_) | IrKind::Fact(_) | IrKind::Decision(_) => val(|_| Err(Stop::Halt)),
        }
    }

    /// A call of a definition with arguments: a dispatched rule in the caller's frame, or
    /// the arguments on the stack (each evaluated: a halt at once, a missing one after all)
    /// and the definition in a frame of its own.
    fn call(&self, def: DefId, args: &[Ir]) -> Val {
        if let ([arg], Some(by)) = (args, self.dispatch(def)) {
            let pick = self.variant(arg, by);
            return val(move |cx| {
                let r = pick(cx)?;
                let c: &super::Compiled = cx.c;
                cx.in_place(&c.rules[r as usize])
            });
        }
        if let Some(inlined) = self.inlined(def, args) {
            return inlined;
        }
        if let [arg] = args {
            // One argument, read in place when it is held.
            let arg = self.operand(arg);
            return val(move |cx| {
                let v = arg.get(cx)?;
                cx.locals.push(v);
                cx.call(def, 1)
            });
        }
        let args = self.boxed_vals(args);
        val(move |cx| {
            let start = cx.locals.len();
            let mut unknown = false;
            for a in args.iter() {
                match a(cx) {
                    Ok(v) => cx.locals.push(v),
                    Err(Stop::Unknown) => unknown = true,
                    Err(Stop::Halt) => {
                        cx.cut(start);
                        return Err(Stop::Halt);
                    }
                }
            }
            if unknown {
                cx.cut(start);
                return Err(Stop::Unknown);
            }
            cx.call(def, args.len())
        })
    }

    /// Code picking a dispatched call's rule by its argument's variant.
    pub(crate) fn variant(&self, arg: &Ir, by: Box<[Option<RuleId>]>) -> Pick {
        let pick = move |v: &Value| match v {
            Value::Enum(_, i) => match by.get(*i as usize) {
                Some(&Some(r)) => Ok(r),
                _ => Err(Stop::Halt),
            },
            _ => Err(Stop::Halt),
        };
        match self.place(arg) {
            Some(p) => Box::new(move |cx| pick(p.get(cx)?)),
            None => {
                let a = self.val(arg);
                Box::new(move |cx| pick(a(cx)?))
            }
        }
    }

    /// `draw` / `choose`: the candidates, then how many; nothing to decide when they are as
    /// many as the places, else the decision given (a halt when it is not among them, for
    /// the interpreter to word).
    fn draw(&self, lot: DecisionId, cands: &Ir, count: Option<&Ir>) -> Val {
        let cands = self.operand(cands);
        let count = count.map(|c| self.num(c));
        val(move |cx| {
            let list = cands.get(cx)?;
            let n = match &count {
                Some(c) => match c(cx)?.as_i64() {
                    Some(n) if n >= 0 => Some(n as usize),
                    _ => return Err(Stop::Halt),
                },
                None => None,
            };
            let Value::List(cs) = list else { return Err(Stop::Halt) };
            match n {
                Some(n) if n >= cs.len() => return Ok(list),
                None if cs.len() == 1 => return Ok(&cs[0]),
                None if cs.is_empty() => return Err(Stop::Halt),
                _ => {}
            }
            match (cx.decision(lot), n) {
                (Some(v), None) if cs.contains(v) => Ok(v),
                (Some(v @ Value::List(picked)), Some(n)) => {
                    let distinct = picked.iter().enumerate().all(|(i, x)| !picked[..i].contains(x));
                    if picked.len() == n && distinct && picked.iter().all(|x| cs.contains(x)) {
                        Ok(v)
                    } else {
                        Err(Stop::Halt)
                    }
                }
                (Some(_), _) => Err(Stop::Halt),
                (None, _) => Err(Stop::Unknown),
            }
        })
    }

    /// A binary operation giving a value: `and`, `or` and comparisons as truth values,
    /// sums, differences and products of numbers as numbers, the rest (division, dates,
    /// times) on the operands' values.
    fn binary(&self, op: crate::syntax::ast::BinaryOp, a: &Ir, b: &Ir, ir: &Ir) -> Val {
        use crate::syntax::ast::BinaryOp::*;
        match op {
            And | Or | Eq | Ne | Lt | Le | Gt | Ge => {
                let t = self.boolean(ir);
                val(move |cx| Ok(truth_value(t(cx)?)))
            }
            Add | Sub | Mul if numeric(&a.ty) && numeric(&b.ty) => {
                let n = self.num(ir);
                val(move |cx| {
                    let n = n(cx)?;
                    Ok(cx.keep_value(Value::Num(n)))
                })
            }
            _ => {
                let (a, b) = (self.val(a), self.val(b));
                val(move |cx| {
                    let (x, y) = both(a(cx), b(cx))?;
                    let v = super::logic::combine(op, x, y)?;
                    Ok(cx.keep_value(v))
                })
            }
        }
    }
}

/// Code picking a rule (for a dispatched call).
pub(crate) type Pick = Box<dyn for<'a> Fn(&mut super::cx::Cx<'a>) -> super::cx::R<RuleId> + Send + Sync>;

/// Whether a pattern binds a name (and so needs a frame to match in).
pub(crate) fn binds(p: &PatIr) -> bool {
    match p {
        PatIr::Bind(_) => true,
        PatIr::Alts(xs) => xs.iter().any(binds),
        PatIr::Any | PatIr::Equals(_) | PatIr::Range { .. } => false,
    }
}

/// Whether a type's values are numbers (whole, or with a unit).
pub(crate) fn numeric(t: &Type) -> bool {
    matches!(t, Type::Int | Type::Quantity(_))
}

/// Whether an expression reads or writes a local slot (a parameter, a binding, a `let`,
/// a lambda's item, an ordering's item).
pub(crate) fn reads_locals(ir: &Ir) -> bool {
    let any = |xs: &[Ir]| xs.iter().any(reads_locals);
    match &ir.kind {
        IrKind::Local(_) | IrKind::Let(..) | IrKind::Order(_) | IrKind::Builtin(_, _, Some(_)) => true,
        IrKind::Const(_) | IrKind::Fact(_) | IrKind::Decision(_) => false,
        IrKind::Call(_, args) | IrKind::List(args) | IrKind::Builtin(_, args, None) => any(args),
        IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => reads_locals(x),
        IrKind::Record(_, xs) => xs.iter().flatten().any(reads_locals),
        IrKind::Binary(_, a, b) | IrKind::InList(a, b) => reads_locals(a) || reads_locals(b),
        IrKind::InRange { x, lo, hi, .. } => {
            reads_locals(x) || lo.as_deref().is_some_and(reads_locals) || hi.as_deref().is_some_and(reads_locals)
        }
        IrKind::If(c, t, e) => reads_locals(c) || reads_locals(t) || reads_locals(e),
        IrKind::Draw(_, c, n) => reads_locals(c) || n.as_deref().is_some_and(reads_locals),
    }
}

/// `fact.a.b` as the fact and the field indices in the order followed (`[a, b]`).
fn fact_path(ir: &Ir) -> Option<(FactId, Vec<u32>)> {
    match &ir.kind {
        IrKind::Fact(f) => Some((*f, Vec::new())),
        IrKind::Field(inner, i) => {
            let (f, mut path) = fact_path(inner)?;
            path.push(*i);
            Some((f, path))
        }
        _ => None,
    }
}

/// Reads a truth value from code giving a value (for the generic paths).
pub(crate) fn as_truth(v: Val) -> code::Bool {
    code::boolean(move |cx| code::truth(v(cx)?))
}
