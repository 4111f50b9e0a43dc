//! Small definitions with parameters compiled into the code that calls them
//! (`spillere_bosat_i(b) = count(…)` where `most(…, b => spillere_bosat_i(b))` calls it):
//! the arguments bound to slots of the caller's frame set aside for them, then the
//! definition's one rule, with no frame of its own to open and close.
//!
//! What it owns: which calls are inlined ([`Lower::inlinable`]), the callee's rule with its
//! local slots moved past the caller's ([`shifted`]), and the slots each rule of the caller
//! needs for what it inlines ([`Slots`]). A call inlined keeps the interpreter's semantics:
//! every argument evaluated (a halt at once, a missing one after all), the rule's steps
//! counted when it is entered, silence when its guard does not hold.

use super::code::{self, Bool, NumC, Val, val};
use super::cx::{Cx, R, Stop};
use super::lower::Lower;
use crate::check::program::*;
use std::cell::Cell;

/// The largest callee inlined, in steps of its guard and value.
const MAX_COST: u64 = 48;
/// How deep inlined calls may nest in one another.
const MAX_NESTING: u32 = 4;

/// The slots of the rule being lowered: the next one free for an inlined call, the most any
/// root of it (its guard, its value) needs, whether it may inline at all and how deep the
/// inlining is.
#[derive(Default)]
pub(crate) struct Slots {
    next: Cell<u32>,
    most: Cell<u32>,
    allowed: Cell<bool>,
    nesting: Cell<u32>,
}

impl Slots {
    /// Starts a root of a rule (its guard, its value) with the rule's own `frame` slots.
    pub(crate) fn root(&self, frame: u32, allowed: bool) {
        self.next.set(frame);
        self.most.set(self.most.get().max(frame));
        self.allowed.set(allowed);
    }

    /// Starts a new rule: no slots needed yet.
    pub(crate) fn reset(&self) {
        self.most.set(0);
        self.allowed.set(false);
    }

    /// The slots the rule needs, its own and those of the calls it inlines.
    pub(crate) fn needed(&self) -> u32 {
        self.most.get()
    }

    /// Sets `n` slots aside; their first.
    fn take(&self, n: u32) -> u32 {
        let first = self.next.get();
        self.next.set(first + n);
        self.most.set(self.most.get().max(first + n));
        first
    }
}

impl Lower<'_> {
    /// The one rule of `def` when a call of it may be inlined: it has parameters, no table,
    /// no other rule, no exceptions, no patterns but `_`, and a small guard and value.
    pub(crate) fn inlinable(&self, def: DefId) -> Option<&RuleInfo> {
        let p = self.p;
        let d = &p.defs[def as usize];
        let [r] = d.rules.as_slice() else { return None };
        let rule = &p.rules[*r as usize];
        let small = rule.guard.as_ref().map_or(0, |g| self.cost(g)) + self.cost(&rule.value) <= MAX_COST;
        let plain = rule.patterns.iter().all(|pat| matches!(pat, PatIr::Any));
        (!d.params.is_empty()
            && d.table.is_none()
            && rule.exceptions.is_empty()
            && rule.overrides.is_empty()
            && plain
            && small
            && self.slots.allowed.get()
            && self.slots.nesting.get() < MAX_NESTING)
            .then_some(rule)
    }

    /// A call of `def` compiled into the caller, when it may be (see the module
    /// documentation), giving a value.
    pub(crate) fn inlined(&self, def: DefId, args: &[Ir]) -> Option<Val> {
        let (entry, value) = self.inline_with(def, args, |l, ir| l.val(ir))?;
        Some(val(move |cx| {
            entry.enter(cx)?;
            value(cx)
        }))
    }

    /// [`Self::inlined`] giving a number.
    pub(crate) fn inlined_num(&self, def: DefId, args: &[Ir]) -> Option<NumC> {
        let (entry, value) = self.inline_with(def, args, |l, ir| l.num(ir))?;
        Some(code::num(move |cx| {
            entry.enter(cx)?;
            value(cx)
        }))
    }

    /// The entry of an inlined call and its rule's value lowered by `lower`.
    fn inline_with<T>(&self, def: DefId, args: &[Ir], lower: impl Fn(&Self, &Ir) -> T) -> Option<(Entry, T)> {
        let rule = self.inlinable(def)?;
        let params = self.p.defs[def as usize].params.len() as u32;
        // The arguments first (what they inline takes the slots before the callee's).
        let args = self.boxed_vals(args);
        let off = self.slots.take(rule.frame.max(params));
        let cost = rule.guard.as_ref().map_or(0, |g| self.cost(g)) + self.cost(&rule.value);
        self.slots.nesting.set(self.slots.nesting.get() + 1);
        let guard = rule.guard.as_ref().map(|g| self.boolean(&shifted(g, off)));
        let value = lower(self, &shifted(&rule.value, off));
        self.slots.nesting.set(self.slots.nesting.get() - 1);
        Some((Entry { args, off, cost, guard }, value))
    }
}

/// What an inlined call does before its rule's value: its arguments bound, its steps
/// counted, its guard checked.
struct Entry {
    args: Box<[Val]>,
    off: u32,
    cost: u64,
    guard: Option<Bool>,
}

impl Entry {
    #[inline]
    fn enter(&self, cx: &mut Cx<'_>) -> R<()> {
        let mut unknown = false;
        for (i, a) in self.args.iter().enumerate() {
            match a(cx) {
                Ok(v) => cx.bind(self.off + i as u32, v),
                Err(Stop::Unknown) => unknown = true,
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        if unknown {
            return Err(Stop::Unknown);
        }
        cx.count(self.cost)?;
        match &self.guard {
            // The rule does not apply: the conditions are silent.
            Some(g) if !g(cx)? => Err(Stop::Halt),
            _ => Ok(()),
        }
    }
}

/// `ir` with every local slot it names moved `off` places on.
pub(crate) fn shifted(ir: &Ir, off: u32) -> Ir {
    let s = |x: &Ir| shifted(x, off);
    let b = |x: &Ir| Box::new(shifted(x, off));
    let kind = match &ir.kind {
        IrKind::Local(slot) => IrKind::Local(slot + off),
        IrKind::Const(_) | IrKind::Fact(_) | IrKind::Decision(_) => ir.kind.clone(),
        IrKind::Call(d, xs) => IrKind::Call(*d, xs.iter().map(s).collect()),
        IrKind::Field(x, i) => IrKind::Field(b(x), *i),
        IrKind::List(xs) => IrKind::List(xs.iter().map(s).collect()),
        IrKind::Record(t, xs) => IrKind::Record(*t, xs.iter().map(|x| x.as_ref().map(s)).collect()),
        IrKind::Not(x) => IrKind::Not(b(x)),
        IrKind::Neg(x) => IrKind::Neg(b(x)),
        IrKind::Binary(op, x, y) => IrKind::Binary(*op, b(x), b(y)),
        IrKind::InRange { x, lo, hi, inclusive } => {
            IrKind::InRange { x: b(x), lo: lo.as_deref().map(b), hi: hi.as_deref().map(b), inclusive: *inclusive }
        }
        IrKind::InList(x, y) => IrKind::InList(b(x), b(y)),
        IrKind::If(c, t, e) => IrKind::If(b(c), b(t), b(e)),
        IrKind::Let(slot, v, body) => IrKind::Let(slot + off, b(v), b(body)),
        IrKind::Builtin(f, xs, lam) => IrKind::Builtin(
            *f,
            xs.iter().map(s).collect(),
            lam.as_ref().map(|l| Lambda { slot: l.slot + off, body: b(&l.body) }),
        ),
        IrKind::Draw(d, c, n) => IrKind::Draw(*d, b(c), n.as_deref().map(b)),
        IrKind::Order(o) => {
            let keys = |ks: &[KeyIr]| ks.iter().map(|k| KeyIr { key: s(&k.key), descending: k.descending }).collect();
            IrKind::Order(Box::new(OrderIr {
                rank: o.rank,
                list: s(&o.list),
                item: o.item + off,
                keys: keys(&o.keys),
                among: o.among.as_ref().map(|(slot, ks)| (slot + off, keys(ks))),
                in_turn: o.in_turn,
            }))
        }
    };
    Ir { kind, ty: ir.ty.clone(), span: ir.span }
}
