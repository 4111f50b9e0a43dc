//! The compiled evaluator: the checked [`Program`] lowered once per rulebook to code built
//! for deciding, not for explaining.
//!
//! What it owns: [`Compiled`], every rule, table and expression of the program as a
//! closure typed by what it gives (a truth value, a number, a value, a list's items; see
//! `code`; sums, differences, products and comparisons with a constant are compiled for
//! their operands' kinds, see `arith`), with local slots, fact paths and the places of held
//! values resolved when it is compiled; the index of each definition's rules by the
//! constant pattern of its first parameter (a call of `eligible(B)` looks only at the rules
//! that can match `B`); and [`rule`], which decides one ruling with it.
//!
//! The shape of a ruling: values held by the program, the inputs or a definition's result
//! are lent by reference, never copied (`cx`); a definition without parameters is worked out
//! once a ruling and its result kept as the reference to where it is held; a definition of
//! one enum parameter whose rule is picked by the argument's variant runs that rule in the
//! caller's frame; steps are counted by blocks (a rule, a lambda's body for each item) and
//! the depth of calls is known when the program is compiled (definitions cannot call
//! themselves), so nothing is checked node by node.
//!
//! What it does not do: build explanation data. It keeps no trace, names no needed input
//! and words no error; a stop is one of two bare signals ([`Stop`]): *unknown* (some
//! input is missing; three-valued logic and aggregates absorb it exactly as the
//! interpreter does) or *halt* (silence, an error in the rulebook, a limit). When a ruling
//! ends in either, [`rule`] rules it again with the interpreter ([`super::interp`]), which
//! names what is needed, where the conditions are silent, or what went wrong. So the two
//! always give the same answer for such rulings, and the compiled one only has to agree
//! on the decided ones: the same rules in the same order, the same three-valued logic,
//! the same exact numbers ([`super::num`]), never fewer steps than the interpreter counts.
//! `tests/agreement.rs` checks it on every case file and on generated facts.
//!
//! ## Adding a language construct
//! Every match over [`IrKind`] and [`Builtin`] here is exhaustive, so a new expression or
//! builtin does not compile until it is handled:
//! 1. lower the new [`IrKind`] in `Lower::val` (and, when it gives a truth value or a
//!    number, in `Lower::boolean` / `Lower::num`), counting its nodes in `Lower::cost`;
//! 2. evaluate it with the interpreter's semantics: which operands are evaluated in which
//!    order, which stops are absorbed (unknown) and which propagate (halt);
//! 3. if it cannot decide cheaply, give [`Stop::Halt`]: the interpreter then rules
//!    instead, always correctly, only slower;
//! 4. add a case file using it: `tests/agreement.rs` compares both evaluators on it.

mod arith;
mod builtins;
mod calls;
mod code;
mod cx;
mod inline;
mod logic;
mod lower;
mod order;
mod rules;
mod scan;
mod tally;

use super::interp::Inputs;
use super::value::Value;
use super::{Outcome, Ruling};
use crate::check::program::*;
use crate::check::types::Type;
use crate::syntax::ast::BinaryOp;
use lower::Lower;
use rules::{DefCode, RuleCode, Rules, TableCode};
use std::sync::Arc;

pub use cx::{Scratch, Stop};

/// How deep definitions may call each other, as the interpreter allows.
const MAX_DEPTH: u32 = 200;

/// The steps of a rule's guard past which a rule that stands in several rule trees keeps
/// its result for the ruling rather than having its guard worked out again at each (its
/// value is worked out at most once: a rule that applies ends every tree it stands in).
const KEEP_RULES_OVER: u64 = 16;

/// A program compiled for evaluation (see the module documentation).
pub struct Compiled {
    pub(crate) defs: Box<[DefCode]>,
    pub(crate) rules: Box<[Arc<RuleCode>]>,
    /// How many rules keep their result for the ruling (see `rules::Rules::memo`).
    pub(crate) rule_memos: u32,
    /// Constants lent with the program's lifetime.
    pub(crate) consts: Box<[Value]>,
    pub(crate) unrolled: Box<[builtins::Unrolled]>,
    /// For each definition, the longest chain of calls it can start (itself included);
    /// `u32::MAX` on a cycle.
    depth: Box<[u32]>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled").field("defs", &self.defs.len()).field("rules", &self.rules.len()).finish()
    }
}

/// The program's compiled form, compiled on first use and kept in the program's caches. A
/// copy of the program starts without one (it is rebuilt if used), so that a changed copy
/// never runs a stale compilation.
pub fn compiled(p: &Program) -> &Compiled {
    p.caches.get_or_init(|| Compiled::new(p))
}

/// Rules on `def` with the compiled evaluator; a ruling it cannot decide is ruled again
/// by the interpreter, which names what it waits for (or why it cannot rule). Never
/// traced: for explanations use [`super::rule`] with `explain`.
pub fn rule(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Ruling {
    match run(p, inputs, def, scratch) {
        Ok((v, steps)) => Ruling { def, outcome: Outcome::Decided(v), trace: None, steps },
        Err(_) => super::rule(p, inputs, def, false),
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// [`rule`] with this thread's scratch buffers: what callers without an evaluator of
/// their own use (a batch worker, the search for needed inputs).
pub fn rule_here(p: &Program, inputs: &Inputs, def: DefId) -> Ruling {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => rule(p, inputs, def, &mut s),
        Err(_) => rule(p, inputs, def, &mut Scratch::default()),
    })
}

/// The decided value of `def`, or `None` when the compiled evaluator stops (missing
/// input, silence, an error, a limit).
pub fn decide(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Option<Value> {
    evaluate(p, inputs, def, scratch).ok()
}

/// The compiled evaluator's own result: a value, or why it stopped. An
/// [`Stop::Unknown`] is always an undetermined ruling; a [`Stop::Halt`] may be anything
/// the interpreter finds.
pub fn evaluate(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Result<Value, Stop> {
    run(p, inputs, def, scratch).map(|(v, _)| v)
}

/// The value and the steps counted, or why it stopped.
fn run(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Result<(Value, u64), Stop> {
    if inputs.facts.len() != p.facts.len()
        || inputs.decisions.len() != p.decisions.len()
        || def as usize >= p.defs.len()
    {
        return Err(Stop::Halt);
    }
    let c = compiled(p);
    if c.depth[def as usize] > MAX_DEPTH {
        // The interpreter may stop on the depth; it words it.
        return Err(Stop::Halt);
    }
    cx::with_cx(c, inputs, scratch, |cx| {
        // Nothing reads the ruling's own result after it: it is not kept.
        let v = cx.call(def, 0)?;
        Ok((v.clone(), cx.steps()))
    })
}

impl Compiled {
    /// Compiles a checked program.
    pub fn new(p: &Program) -> Compiled {
        let reached = calls::reached(p);
        let l = Lower::new(p, calls::once(p, &reached));
        let rules: Box<[Arc<RuleCode>]> = p.rules.iter().map(|r| Arc::new(l.rule(r))).collect();
        // Rules reached from more than one place of the rule trees (several rules' exception,
        // or a top rule that is also an exception) keep their result within a ruling when
        // their definition has no parameters (so the result is the same wherever reached)
        // and working it out again would cost more than keeping it.
        let mut rule_memos = 0;
        let memo: Vec<Option<u32>> = (0..rules.len())
            .map(|i| {
                let costly = p.rules[i].guard.as_ref().is_some_and(|g| l.cost(g) > KEEP_RULES_OVER);
                (reached[i] > 1 && costly && p.defs[p.rules[i].def as usize].params.is_empty()).then(|| {
                    rule_memos += 1;
                    rule_memos - 1
                })
            })
            .collect();
        let trees = Rules { p, code: &rules, memo: &memo };
        let defs: Box<[DefCode]> = (0..p.defs.len() as DefId).map(|d| l.def(&trees, d)).collect();
        let depth = calls::depths(p);
        let (consts, unrolled) = l.into_parts();
        Compiled { defs, rules, rule_memos, consts, unrolled, depth }
    }
}

impl Lower<'_> {
    fn rule(&self, r: &RuleInfo) -> RuleCode {
        let mut plain = Vec::new();
        let mut binding = Vec::new();
        for (i, pat) in r.patterns.iter().enumerate() {
            match pat {
                PatIr::Any => {}
                _ if lower::binds(pat) => binding.push((i, pat.clone())),
                _ => plain.push((i, pat.clone())),
            }
        }
        let ty = &self.p.defs[r.def as usize].ty;
        // A rule run in its caller's frame (a dispatched call's) inlines nothing: it has no
        // frame of its own to set slots aside in.
        let allowed = self.dispatch(r.def).is_none();
        self.slots.reset();
        // Each root (the guard, the value in each of its forms) is worked out alone, so the
        // slots its inlined calls take may be those of another root.
        self.slots.root(r.frame, allowed);
        let guard = r.guard.as_ref().map(|g| self.boolean(g));
        // What the guard reads first, when it reads it without any cost of its own: rules
        // whose guards begin with the same such read may be judged together (see
        // `rules::Rules::group`).
        let lead = r.guard.as_ref().and_then(|g| self.lead(g));
        self.slots.root(r.frame, allowed);
        let value = self.val(&r.value);
        self.slots.root(r.frame, allowed);
        let value_bool = matches!(ty, Type::Bool).then(|| self.boolean(&r.value));
        self.slots.root(r.frame, allowed);
        let value_num = lower::numeric(ty).then(|| self.num(&r.value));
        RuleCode {
            plain: plain.into(),
            binding: binding.into(),
            guard,
            value,
            value_bool,
            value_num,
            lead,
            cost: r.guard.as_ref().map_or(0, |g| self.cost(g)) + self.cost(&r.value),
            frame: self.slots.needed(),
        }
    }

    /// The first operand of guard `g`'s `and` chain (or `g` itself) when it is a fact, a
    /// decision or a call without arguments of a definition whose result is kept for the
    /// ruling (or that names a fact): a read that counts no steps after its first, so that
    /// reading it once more changes nothing.
    fn lead(&self, g: &Ir) -> Option<rules::Lead> {
        let mut first = g;
        while let IrKind::Binary(BinaryOp::And, a, _) = &first.kind {
            first = a;
        }
        let key = match &first.kind {
            IrKind::Fact(f) => rules::Lead::Fact(*f),
            IrKind::Decision(d) => rules::Lead::Decision(*d),
            IrKind::Call(d, args)
                if args.is_empty() && self.p.defs[*d as usize].params.is_empty() && !self.is_once(*d) =>
            {
                // A definition that only names a fact reads the fact.
                match self.alias(*d).map(|v| &v.kind) {
                    None => rules::Lead::Def(*d),
                    Some(IrKind::Fact(f)) => rules::Lead::Fact(*f),
                    Some(_) => return None,
                }
            }
            _ => return None,
        };
        Some(key)
    }

    fn def(&self, trees: &Rules, def: DefId) -> DefCode {
        let p = self.p;
        let d = &p.defs[def as usize];
        let mut frame = d.params.len() as u32;
        for &r in &d.rules {
            frame = frame.max(trees.code[r as usize].frame);
        }
        self.slots.reset();
        let table = d.table.as_ref().map(|t| TableCode {
            policy: t.policy,
            rows: t
                .rows
                .iter()
                .map(|row| {
                    self.slots.root(t.frame, true);
                    (row.keys.clone().into(), self.val(&row.value), self.cost(&row.value))
                })
                .collect(),
        });
        if let Some(t) = &d.table {
            frame = frame.max(t.frame).max(self.slots.needed());
        }
        let by_first = match table {
            Some(_) => None,
            None => rules::by_first(p, def, |r, arg| self.may_match(r, arg)),
        };
        DefCode { frame, body: trees.body(def, table, by_first), only: trees.only(def) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_of_a_chain() {
        let src = r#"
            rulebook "t" { title "t" language "en" }
            clause "1" {
              text "t"
              def a: int "a" = b + 1
              def b: int "b" = c + 1
              def c: int "c" = 1
            }
        "#;
        let mut map = crate::source::SourceMap::new();
        map.add("t.cond", src);
        let checked = crate::check::check_sources(map);
        assert!(!checked.has_errors());
        let p = &checked.program;
        let d = calls::depths(p);
        let at = |n: &str| p.def_by_name(n).map(|x| d[x as usize]);
        assert_eq!((at("a"), at("b"), at("c")), (Some(3), Some(2), Some(1)));
    }
}
