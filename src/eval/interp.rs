//! The interpreter: evaluates a checked [`Program`] against given facts and
//! decisions, exactly.
//!
//! Missing facts, decisions and draws make a value *undetermined*, not wrong:
//! logic is three-valued (`false and ?` is `false`), and everything decidable
//! without the missing input is still decided. Rules combine as written:
//! exceptions override the rules they name; two applicable rules that disagree
//! are a conflict in the rulebook, reported as an error.

use super::builtins;
use super::trace::*;
use crate::base::datetime::DateTime;
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::program::*;
use crate::check::types::Type;
use crate::syntax::ast::{BinaryOp, Policy, Span};
mod brief;
mod held;
mod memo;
mod notes;
mod why;
mod winners;

use super::reads::reads_fact;
pub(crate) use crate::check::patterns::{binds, in_range};
pub use crate::check::patterns::{compare, matches_pattern};
use memo::Memos;

/// The inputs of a ruling are what reading facts makes; the old path here stays for
/// programs that name it.
pub use crate::facts::Inputs;

#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub message: String,
    pub span: Option<Span>,
}

/// No rule decides a definition for the given facts: every rule of it was considered and
/// none applied. The conditions are silent there; their nearest clauses are those of the rules
/// considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Silence {
    pub def: DefId,
    pub args: Vec<Value>,
    /// The rules that were considered (all of the definition's rules, exceptions included).
    pub considered: Vec<RuleId>,
}

impl Silence {
    /// The clauses nearest to the silence: where the silent definition stands and where each
    /// rule considered for it stands, in the rulebook's order.
    pub fn nearest(&self, p: &Program) -> Vec<ClauseId> {
        let mut out: Vec<ClauseId> = p.defs[self.def as usize].clause.into_iter().collect();
        out.extend(self.considered.iter().filter_map(|&r| p.rules[r as usize].clause));
        out.sort();
        out.dedup();
        out
    }
}

#[derive(Clone, Debug)]
pub enum Halt {
    Undetermined(Vec<Need>),
    /// The conditions do not decide this (not an error in the rulebook).
    Silent(Silence),
    Error(EvalError),
}

pub type R = Result<Value, Halt>;

/// Most evaluation steps one ruling may take before it is stopped.
pub const MAX_STEPS: u64 = 10_000_000;
const MAX_DEPTH: u32 = 200;

pub fn error(message: impl Into<String>, span: Span) -> Halt {
    Halt::Error(EvalError { message: message.into(), span: Some(span) })
}

/// Merges two sets of needs, sorted and without repeats.
pub fn merge(mut a: Vec<Need>, b: Vec<Need>) -> Vec<Need> {
    a.extend(b);
    a.sort();
    a.dedup();
    a
}

pub struct Interp<'a> {
    pub p: &'a Program,
    pub inputs: &'a Inputs,
    /// Results of definitions, evaluated once per argument list within a ruling: the result
    /// and the trace node that explains it.
    memo: Memos,
    /// Frames of finished rules, kept for reuse.
    pub(crate) pool: Vec<Vec<Value>>,
    pub trace: Option<Trace>,
    stack: Vec<usize>,
    quiet: u32,
    pub(crate) steps: u64,
    /// The step count at which to look at the cancel flag next ([`super::budget`]).
    next_look: u64,
    depth: u32,
    /// While a rule's working or conditions are read: the local slots its parameters are
    /// bound to, with the definition and the parameter's place, so the working can name them.
    pub(crate) params_bound: Vec<(u32, DefId, u32)>,
    /// Tracing for the brief explanation only: why a rule's condition did not hold is worked
    /// out for the ruling's own step and for steps left undecided, the only ones whose rules
    /// that did not apply the brief explanation shows.
    pub brief: bool,
    /// Emptied lists for the trace nodes of the steps to come (see [`Trace::new`]).
    pub(crate) spare: Lists,
    /// What the builtins of the steps being evaluated found, for their workings: a step's
    /// working takes the values its rule's builtins found as the ruling evaluated them
    /// rather than evaluating them again (see [`Self::keeps`]).
    pub(crate) seen: Vec<super::working::Seen>,
    /// Where the step being evaluated begins in `seen`.
    pub(crate) seen_from: usize,
    /// How many lambdas and orderings deep the evaluation of a step's rule is: there a
    /// sub-expression takes a value per item, and none is kept in `seen`.
    pub(crate) per_item: u32,
    /// The items of the builtin just evaluated and each one's result, when kept.
    pub(crate) items: Option<super::working::Items>,
    /// Whether the working being worked out took anything of `seen`.
    pub(crate) seen_taken: bool,
    /// The steps of what the working being worked out took of `seen`, counted once already.
    pub(crate) found_steps: u64,
    /// The facts-file path of each record in the facts, by identity; worked out when a
    /// field is first found missing ([`super::needed::origin`]).
    origins: Option<std::collections::HashMap<usize, String>>,
}

enum RuleResult {
    Applies {
        value: Value,
        rule: RuleId,
        overridden: Vec<RuleId>,
    },
    NotApplicable(WhyNot),
    Undetermined(Vec<Need>),
    /// Some rule of this exception tree surely applies; which one (so its value) waits
    /// for these needs.
    Pending(Vec<Need>),
}

thread_local! {
    /// The frames of the last ruling on this thread, emptied, for the next one.
    static POOL: std::cell::Cell<Vec<Vec<Value>>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Interp<'_> {
    fn drop(&mut self) {
        let mut pool = std::mem::take(&mut self.pool);
        // A few small frames are kept: a deep or wide ruling's are not.
        pool.truncate(16);
        pool.retain(|f| f.capacity() <= 64);
        for f in &mut pool {
            f.clear();
        }
        // A thread being torn down keeps no spare.
        let _ = POOL.try_with(|p| p.set(pool));
        Trace::give_back(std::mem::take(&mut self.spare));
    }
}

impl<'a> Interp<'a> {
    pub fn new(p: &'a Program, inputs: &'a Inputs, tracing: bool) -> Self {
        let (trace, spare) = if tracing {
            let (t, spare) = Trace::new();
            (Some(t), spare)
        } else {
            (None, Lists::default())
        };
        Interp {
            p,
            inputs,
            memo: Memos::default(),
            pool: POOL.try_with(|p| p.take()).unwrap_or_default(),
            trace,
            stack: Vec::new(),
            quiet: 0,
            steps: 0,
            next_look: super::budget::CHECK_EVERY,
            depth: 0,
            params_bound: Vec::new(),
            brief: false,
            spare,
            seen: Vec::new(),
            seen_from: 0,
            per_item: 0,
            items: None,
            seen_taken: false,
            found_steps: 0,
            origins: None,
        }
    }

    /// Whether what a builtin finds is kept for the working of the step being evaluated:
    /// when tracing, and not inside a lambda or an ordering's keys.
    pub(crate) fn keeps(&self) -> bool {
        self.per_item == 0 && self.tracing()
    }

    pub(super) fn tracing(&self) -> bool {
        self.trace.is_some() && self.quiet == 0
    }

    /// Evaluates a definition with arguments; the entry point for rulings.
    pub fn call(&mut self, def: DefId, args: Vec<Value>) -> R {
        if let Some((r, node)) = self.memo.get(def, &args) {
            let (r, node) = (r.clone(), *node);
            if let (Some(n), true) = (node, self.tracing())
                && let (Some(t), Some(&top)) = (self.trace.as_mut(), self.stack.last())
                && !t.nodes[top].children.contains(&n)
            {
                t.nodes[top].children.push(n);
            }
            return r;
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(Halt::Error(EvalError {
                message: format!("definitions nested more than {MAX_DEPTH} deep"),
                span: Some(self.p.defs[def as usize].span),
            }));
        }
        let node = if self.tracing() {
            let t = self.trace.as_mut().unwrap_or_else(|| unreachable!());
            let idx = t.nodes.len();
            t.nodes.push(Node::fresh(def, &args, &mut self.spare));
            if let Some(&top) = self.stack.last() {
                t.nodes[top].children.push(idx);
            }
            self.stack.push(idx);
            Some(idx)
        } else {
            None
        };
        // The step's own builtins are kept from here on, and its rules start outside any lambda.
        let scope = node.map(|_| {
            let from = std::mem::replace(&mut self.seen_from, self.seen.len());
            (from, std::mem::replace(&mut self.per_item, 0))
        });
        let result =
            if self.p.defs[def as usize].table.is_some() { self.table(def, &args) } else { self.rules(def, &args) };
        if let Some(idx) = node {
            self.stack.pop();
            if let Some(t) = self.trace.as_mut() {
                t.nodes[idx].outcome = match &result {
                    Ok(v) => Outcome::Value(v.clone()),
                    Err(Halt::Undetermined(n)) => Outcome::Undetermined(n.clone()),
                    Err(Halt::Silent(s)) => Outcome::Silent(s.clone()),
                    Err(Halt::Error(e)) => Outcome::Error(e.message.clone()),
                };
                let n = &t.nodes[idx];
                if self.brief && idx != 0 && n.decided_by.is_none() && n.row.is_none() {
                    self.conditions_of(idx, &args);
                }
            }
        }
        if let Some((from, per_item)) = scope {
            self.seen.truncate(self.seen_from);
            self.seen_from = from;
            self.per_item = per_item;
        }
        // A result found while explaining quietly has no trace node: it is kept only when
        // there is no trace to link it into.
        if (self.quiet == 0 || self.trace.is_none()) && (def as usize) < self.p.defs.len() {
            self.memo.insert(self.p.defs.len(), def, args, (result.clone(), node));
        }
        self.depth -= 1;
        result
    }

    fn rules(&mut self, def: DefId, args: &[Value]) -> R {
        let p = self.p;
        let info = &p.defs[def as usize];
        let mut decided: Option<(Value, RuleId, Vec<RuleId>)> = None;
        let mut agreeing: Vec<RuleId> = Vec::new();
        let mut needs: Vec<Need> = Vec::new();
        for &r in &info.rules {
            if !p.rules[r as usize].overrides.is_empty() {
                continue;
            }
            match self.rule_tree(r, args)? {
                RuleResult::Applies { value, rule, overridden } => match &decided {
                    None => decided = Some((value, rule, overridden)),
                    Some((v, first, _)) if *v != value => {
                        let (a, b) = (&p.rules[*first as usize], &p.rules[rule as usize]);
                        return Err(Halt::Error(EvalError {
                            message: format!(
                                "rules `{}`{} and `{}`{} both apply to `{}` and disagree; the rulebook must say which is the exception",
                                a.label,
                                cite_suffix(p, a.clause),
                                b.label,
                                cite_suffix(p, b.clause),
                                info.name
                            ),
                            span: Some(b.span),
                        }));
                    }
                    Some(_) => agreeing.push(rule),
                },
                RuleResult::NotApplicable(why) => self.not_applied(r, why),
                RuleResult::Undetermined(n) | RuleResult::Pending(n) => {
                    self.not_applied(r, WhyNot::Unknown(n.clone()));
                    needs = merge(needs, n);
                }
            }
        }
        if !needs.is_empty() {
            return Err(Halt::Undetermined(needs));
        }
        match decided {
            Some((value, rule, overridden)) => {
                if self.tracing() {
                    let because = self.because(rule, args, &value);
                    let working = self.working_of(rule, args).map(|w| self.spare.boxed(w));
                    self.with_node(|n| {
                        n.decided_by = Some(rule);
                        n.also = agreeing;
                        n.overridden = overridden;
                        n.because = because;
                        n.working = working;
                    });
                }
                Ok(value)
            }
            None => Err(Halt::Silent(Silence { def, args: args.to_vec(), considered: info.rules.clone() })),
        }
    }

    /// Evaluates rule `r` with its exceptions first: an exception that applies wins.
    fn rule_tree(&mut self, r: RuleId, args: &[Value]) -> Result<RuleResult, Halt> {
        let p = self.p;
        let rule = &p.rules[r as usize];
        let mut pending: Vec<Need> = Vec::new();
        for &e in &rule.exceptions {
            match self.rule_tree(e, args)? {
                RuleResult::Applies { value, rule: winner, mut overridden } => {
                    overridden.push(r);
                    return Ok(RuleResult::Applies { value, rule: winner, overridden });
                }
                RuleResult::NotApplicable(why) => self.not_applied(e, why),
                RuleResult::Undetermined(n) => {
                    self.not_applied(e, WhyNot::Unknown(n.clone()));
                    pending = merge(pending, n);
                }
                RuleResult::Pending(n) => {
                    // The exception surely overrides this rule; only its value is open.
                    self.not_applied(e, WhyNot::Unknown(n.clone()));
                    return Ok(RuleResult::Pending(merge(pending, n)));
                }
            }
        }
        let own = self.rule_alone(r, args)?;
        if !pending.is_empty() {
            // An exception might still apply: the outcome waits for it.
            return Ok(match own {
                RuleResult::Undetermined(n) | RuleResult::Pending(n) => RuleResult::Undetermined(merge(pending, n)),
                RuleResult::Applies { .. } => RuleResult::Pending(pending),
                RuleResult::NotApplicable(_) => RuleResult::Undetermined(pending),
            });
        }
        Ok(own)
    }

    pub(crate) fn frame_for(&mut self, size: u32, args: &[Value]) -> Vec<Value> {
        let mut frame = self.pool.pop().unwrap_or_default();
        frame.clear();
        frame.extend_from_slice(args);
        frame.resize((size as usize).max(args.len()), Value::Bool(false));
        frame
    }

    fn rule_alone(&mut self, r: RuleId, args: &[Value]) -> Result<RuleResult, Halt> {
        let p = self.p;
        let rule = &p.rules[r as usize];
        // Patterns first: most rules for other arguments stop here, before any frame is made.
        for (i, (pat, arg)) in rule.patterns.iter().zip(args).enumerate() {
            if !binds(pat) && !matches_pattern(pat, arg, &mut []) {
                return Ok(RuleResult::NotApplicable(WhyNot::Pattern { param: i, value: arg.clone() }));
            }
        }
        let mut frame = self.frame_for(rule.frame, args);
        let out = self.rule_in_frame(r, args, &mut frame);
        self.pool.push(frame);
        out
    }

    fn rule_in_frame(&mut self, r: RuleId, args: &[Value], frame: &mut Vec<Value>) -> Result<RuleResult, Halt> {
        let p = self.p;
        let rule = &p.rules[r as usize];
        let mut frame = frame;
        for (i, (pat, arg)) in rule.patterns.iter().zip(args).enumerate() {
            if binds(pat) && !matches_pattern(pat, arg, frame) {
                return Ok(RuleResult::NotApplicable(WhyNot::Pattern { param: i, value: arg.clone() }));
            }
        }
        if let Some(g) = &rule.guard {
            match self.eval(g, frame) {
                Ok(Value::Bool(true)) => {}
                Ok(_) => {
                    let atoms = if self.tracing() && self.conditions_wanted() {
                        self.naming_params(r, |me| me.atoms(g, frame, false))
                    } else {
                        Vec::new()
                    };
                    return Ok(RuleResult::NotApplicable(WhyNot::Condition(atoms)));
                }
                Err(Halt::Undetermined(n)) => return Ok(RuleResult::Undetermined(n)),
                Err(e) => return Err(e),
            }
        }
        let _ = &mut frame;
        match self.eval(&rule.value, frame) {
            Ok(value) => Ok(RuleResult::Applies { value, rule: r, overridden: Vec::new() }),
            Err(Halt::Undetermined(n)) => Ok(RuleResult::Undetermined(n)),
            Err(e) => Err(e),
        }
    }

    fn table(&mut self, def: DefId, args: &[Value]) -> R {
        let p = self.p;
        let info = &p.defs[def as usize];
        let Some(table) = &info.table else { return Err(error("not a table", info.span)) };
        let mut frame = self.frame_for(table.frame, args);
        let mut matched: Vec<usize> = Vec::new();
        for (i, row) in table.rows.iter().enumerate() {
            if row.keys.iter().zip(args).all(|(k, a)| matches_pattern(k, a, &mut frame)) {
                matched.push(i);
                if table.policy == Policy::First {
                    break;
                }
            }
        }
        let row_value = |me: &mut Self, i: usize, frame: &mut Vec<Value>| me.eval(&table.rows[i].value, frame);
        match table.policy {
            Policy::Collect => {
                let mut out = Vec::new();
                for &i in &matched {
                    out.push(row_value(self, i, &mut frame)?);
                }
                Ok(Value::list(out))
            }
            _ => match matched.as_slice() {
                [] => Err(Halt::Error(EvalError {
                    message: format!("no row of table `{}` matches {}", info.name, show_args(p, args)),
                    span: Some(info.span),
                })),
                [i] => {
                    let i = *i;
                    self.with_node(|n| n.row = Some(i));
                    row_value(self, i, &mut frame)
                }
                [_, j, ..] => Err(Halt::Error(EvalError {
                    message: format!(
                        "several rows of table `{}` match {} (it picks a unique row)",
                        info.name,
                        show_args(p, args)
                    ),
                    span: Some(table.rows[*j].span),
                })),
            },
        }
    }

    pub fn eval(&mut self, ir: &Ir, frame: &mut Vec<Value>) -> R {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(error(format!("the ruling took more than {MAX_STEPS} evaluation steps"), ir.span));
        }
        if self.steps >= self.next_look {
            self.next_look = self.steps + super::budget::CHECK_EVERY;
            if super::budget::cancelled() {
                return Err(error(super::budget::STOPPED, ir.span));
            }
        }
        match &ir.kind {
            IrKind::Const(v) => Ok(v.clone()),
            IrKind::Local(s) => Ok(frame[*s as usize].clone()),
            IrKind::Fact(f) => match &self.inputs.facts[*f as usize] {
                Some(v) => {
                    if self.tracing() && !matches!(ir.ty, Type::Record(_)) {
                        self.note_read(ir, v);
                    }
                    Ok(v.clone())
                }
                None => Err(Halt::Undetermined(vec![Need::Fact(*f)])),
            },
            IrKind::Decision(d) => {
                self.note_decision(*d);
                match &self.inputs.decisions[*d as usize] {
                    Some(v) => Ok(v.clone()),
                    None => Err(Halt::Undetermined(vec![Need::Decision(*d)])),
                }
            }
            IrKind::Call(d, args) => {
                let mut vals = Vec::with_capacity(args.len());
                let mut needs = Vec::new();
                for a in args {
                    match self.eval(a, frame) {
                        Ok(v) => vals.push(v),
                        Err(Halt::Undetermined(n)) => needs = merge(needs, n),
                        Err(e) => return Err(e),
                    }
                }
                if !needs.is_empty() {
                    return Err(Halt::Undetermined(needs));
                }
                self.call(*d, vals)
            }
            IrKind::Field(..) if let Some((v, k)) = self.held_within(ir, frame, None, 0) => {
                let v = v.clone();
                self.steps += k - 1;
                Ok(v)
            }
            IrKind::Field(x, i) => match self.eval(x, frame)? {
                Value::Record(t, fields) => match fields.get(*i as usize) {
                    Some(Some(v)) => {
                        if self.tracing() && !matches!(ir.ty, Type::Record(_)) && reads_fact(ir) {
                            self.note_read(ir, v);
                        }
                        Ok(v.clone())
                    }
                    _ => {
                        let (record, field) = match &self.p.types[t as usize].kind {
                            TypeKind::Record(fs) => (
                                self.p.types[t as usize].name.clone(),
                                fs.get(*i as usize).map_or_else(String::new, |f| f.name.clone()),
                            ),
                            TypeKind::Enum(_) => (String::new(), String::new()),
                        };
                        // Named by where the record sits in the facts, when it is one of theirs.
                        let origins =
                            self.origins.get_or_insert_with(|| super::needed::origin::origins(self.p, self.inputs));
                        let record = origins.get(&super::needed::origin::identity(&fields)).cloned().unwrap_or(record);
                        Err(Halt::Undetermined(vec![Need::Field { record, field }]))
                    }
                },
                _ => Err(error("not a record", ir.span)),
            },
            IrKind::List(xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.eval(x, frame)?);
                }
                Ok(Value::list(out))
            }
            IrKind::Record(t, xs) => {
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(match x {
                        Some(x) => Some(self.eval(x, frame)?),
                        None => None,
                    });
                }
                Ok(Value::Record(*t, out.into()))
            }
            IrKind::Not(x) => match self.eval(x, frame)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                _ => Err(error("not a truth value", ir.span)),
            },
            IrKind::Neg(x) => match self.eval(x, frame)? {
                Value::Num(n) => n.neg().map(Value::Num).ok_or_else(|| error("number too large", ir.span)),
                _ => Err(error("not a number", ir.span)),
            },
            IrKind::Binary(op, a, b) => self.binary(*op, a, b, ir, frame),
            IrKind::InRange { x, lo, hi, inclusive } => {
                let v = self.eval(x, frame)?;
                let lo = match lo {
                    Some(l) => Some(self.eval(l, frame)?),
                    None => None,
                };
                let hi = match hi {
                    Some(h) => Some(self.eval(h, frame)?),
                    None => None,
                };
                Ok(Value::Bool(in_range(&v, lo.as_ref(), hi.as_ref(), *inclusive)))
            }
            IrKind::InList(x, list) => {
                let v = self.eval(x, frame)?;
                match self.eval(list, frame)? {
                    Value::List(items) => Ok(Value::Bool(items.contains(&v))),
                    _ => Err(error("not a list", ir.span)),
                }
            }
            IrKind::If(c, t, e) => match self.eval(c, frame)? {
                Value::Bool(true) => self.eval(t, frame),
                _ => self.eval(e, frame),
            },
            IrKind::Let(slot, v, body) => {
                let value = self.eval(v, frame)?;
                frame[*slot as usize] = value;
                self.eval(body, frame)
            }
            IrKind::Builtin(b, args, lam) => {
                if !self.keeps() {
                    return builtins::eval(self, *b, args, lam.as_ref(), ir, frame);
                }
                let before = self.steps;
                let r = builtins::eval(self, *b, args, lam.as_ref(), ir, frame);
                let items = self.items.take();
                self.seen.push(super::working::Seen {
                    ir: std::ptr::from_ref(ir) as usize,
                    value: r.as_ref().ok().cloned(),
                    items,
                    steps: self.steps - before,
                });
                r
            }
            IrKind::Order(o) => self.order(o, frame),
            IrKind::Draw(lot, cands, count) => self.draw(*lot, cands, count.as_deref(), ir, frame),
        }
    }

    /// A draw (`draw`, `choose`): the lot's decision among the candidates, when given and
    /// one of them (kept out of [`Self::eval`], whose every call it would otherwise make
    /// larger).
    #[inline(never)]
    fn draw(&mut self, lot: DecisionId, cands: &Ir, count: Option<&Ir>, ir: &Ir, frame: &mut Vec<Value>) -> R {
        self.note_decision(lot);
        let Value::List(cands) = self.eval(cands, frame)? else { return Err(error("not a list", ir.span)) };
        let elem_ty = match (&ir.ty, count) {
            (Type::List(t), Some(_)) => (**t).clone(),
            (t, _) => t.clone(),
        };
        let show = |me: &Self, v: &Value| crate::show::plain(me.p, v, &elem_ty);
        let n = match count {
            Some(c) => match self.eval(c, frame)?.as_num().and_then(|n| n.as_i64()) {
                Some(n) if n >= 0 => Some(n as usize),
                _ => return Err(error("how many to choose must be a whole number, not negative", c.span)),
            },
            None => None,
        };
        // Nothing to decide when the candidates are as many as the places.
        match n {
            Some(n) if n >= cands.len() => return Ok(Value::List(cands.clone())),
            None if cands.len() == 1 => return Ok(cands[0].clone()),
            None if cands.is_empty() => return Err(error("a draw among no candidates", ir.span)),
            _ => {}
        }
        let given = self.inputs.decisions[lot as usize].clone();
        let name = &self.p.decisions[lot as usize].name;
        let all = || cands.iter().map(|c| show(self, c)).collect::<Vec<_>>().join(", ");
        match (given, n) {
            (Some(v), None) if cands.contains(&v) => Ok(v),
            (Some(Value::List(picked)), Some(n)) => {
                let distinct = picked.iter().enumerate().all(|(i, x)| !picked[..i].contains(x));
                if picked.len() == n && distinct && picked.iter().all(|x| cands.contains(x)) {
                    Ok(Value::List(picked))
                } else {
                    Err(error(format!("`{name}` must name {n} of {}", all()), ir.span))
                }
            }
            (Some(v), _) => Err(error(
                format!("`{name}` gave {}, which is not among the candidates {}", show(self, &v), all()),
                ir.span,
            )),
            (None, _) => Err(Halt::Undetermined(vec![Need::Lot {
                lot,
                candidates: cands.iter().map(|c| show(self, c)).collect(),
            }])),
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Ir, b: &Ir, ir: &Ir, frame: &mut Vec<Value>) -> R {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            let short = op == Or; // the value that decides on its own
            let left = self.eval(a, frame);
            if let Ok(Value::Bool(x)) = left
                && x == short
            {
                return Ok(Value::Bool(short));
            }
            let right = self.eval(b, frame);
            return match (left, right) {
                (_, Ok(Value::Bool(y))) if y == short => Ok(Value::Bool(short)),
                (Ok(Value::Bool(_)), Ok(Value::Bool(_))) => Ok(Value::Bool(!short)),
                (Err(Halt::Error(e)), _) | (_, Err(Halt::Error(e))) => Err(Halt::Error(e)),
                (Err(Halt::Undetermined(n1)), Err(Halt::Undetermined(n2))) => Err(Halt::Undetermined(merge(n1, n2))),
                (Err(Halt::Undetermined(n)), _) | (_, Err(Halt::Undetermined(n))) => Err(Halt::Undetermined(n)),
                (Err(h @ Halt::Silent(_)), _) | (_, Err(h @ Halt::Silent(_))) => Err(h),
                _ => Err(error("not a truth value", ir.span)),
            };
        }
        if let Some((truth, k)) = self.held_comparison(op, a, b, frame, None) {
            // Both sides are where they are held: compared there, not copied.
            self.steps += k;
            return Ok(Value::Bool(truth));
        }
        let (x, y) = match (self.eval(a, frame), self.eval(b, frame)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(Halt::Error(e)), _) | (_, Err(Halt::Error(e))) => return Err(Halt::Error(e)),
            (Err(Halt::Undetermined(n1)), Err(Halt::Undetermined(n2))) => {
                return Err(Halt::Undetermined(merge(n1, n2)));
            }
            (Err(h), _) | (_, Err(h)) => return Err(h),
        };
        self.apply(op, x, y, ir)
    }

    /// A binary operation other than `and`/`or` on its operands' values.
    pub(crate) fn apply(&self, op: BinaryOp, x: Value, y: Value, ir: &Ir) -> R {
        use BinaryOp::*;
        let overflow = || error("number too large for exact arithmetic", ir.span);
        match op {
            Eq => Ok(Value::Bool(x == y)),
            Ne => Ok(Value::Bool(x != y)),
            Lt | Le | Gt | Ge => {
                let ord = compare(&x, &y).ok_or_else(|| error("values cannot be compared", ir.span))?;
                Ok(Value::Bool(match op {
                    Lt => ord.is_lt(),
                    Le => ord.is_le(),
                    Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                }))
            }
            Add | Sub | Mul | Div | IntDiv | Mod => match (x, y) {
                (Value::Num(m), Value::Num(n)) => {
                    let r = match op {
                        Add => m.add(n),
                        Sub => m.sub(n),
                        Mul => m.mul(n),
                        IntDiv | Mod => {
                            if n == Num::ZERO {
                                return Err(error("division by zero", ir.span));
                            }
                            let whole = m.div(n).map(|q| q.floor());
                            if op == IntDiv { whole } else { whole.and_then(|q| q.mul(n)).and_then(|b| m.sub(b)) }
                        }
                        _ => {
                            if n == Num::ZERO {
                                return Err(error("division by zero", ir.span));
                            }
                            m.div(n)
                        }
                    };
                    r.map(Value::Num).ok_or_else(overflow)
                }
                (Value::Date(d), Value::Num(n)) => {
                    let days = n.div(Num::int(1440)).ok_or_else(overflow)?;
                    if !days.is_integer() {
                        return Err(error("a date moves by whole days only", ir.span));
                    }
                    let k = days.as_i64().ok_or_else(overflow)?;
                    let k = if op == Sub { -k } else { k };
                    d.add_days(k).map(Value::Date).ok_or_else(|| error("date out of range", ir.span))
                }
                (Value::Date(d1), Value::Date(d2)) => {
                    Ok(Value::Num(Num::int((d1.days() - d2.days()) as i128).mul(Num::int(1440)).ok_or_else(overflow)?))
                }
                (Value::Time(t), Value::Num(n)) => {
                    t.add(n, op == Sub).map(Value::Time).map_err(|m| error(m.message(), ir.span))
                }
                (Value::Time(t1), Value::Time(t2)) => Ok(Value::Num(t1.since(t2))),
                (Value::Date(d), Value::Time(t)) if op == Add => Ok(Value::DateTime(DateTime::new(d, t))),
                (Value::DateTime(t), Value::Num(n)) => {
                    t.add(n, op == Sub).map(Value::DateTime).map_err(|m| error(m.message(), ir.span))
                }
                (Value::DateTime(t1), Value::DateTime(t2)) if op == Sub => Ok(Value::Num(t1.since(t2))),
                _ => Err(error("values cannot be combined", ir.span)),
            },
            And | Or => match (x, y) {
                (Value::Bool(a), Value::Bool(b)) => Ok(Value::Bool(if op == And { a && b } else { a || b })),
                _ => Err(error("not a truth value", ir.span)),
            },
        }
    }
}

fn cite_suffix(p: &Program, clause: Option<ClauseId>) -> String {
    p.citation_of(clause).map(|c| format!(" ({c})")).unwrap_or_default()
}

fn show_args(p: &Program, args: &[Value]) -> String {
    args.iter().map(|a| crate::show::debug(p, a)).collect::<Vec<_>>().join(", ")
}
