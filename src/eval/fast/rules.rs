//! Definitions, rules and tables of compiled code: a definition's result worked out once a
//! ruling ([`Cx::result`]), a call in a frame of its own ([`Cx::call`]), and each
//! definition's rules compiled with their exception trees into code of their own
//! ([`body`]): its rules tried in order with their exceptions first, a rule reached from
//! several rule trees kept for the ruling, a table looked up by its rows.
//!
//! The interpreter's semantics, as `crate::eval::interp` has them: an exception that
//! applies wins; one that waits for an input makes its rule wait too; two rules that apply
//! and disagree are an error; no rule that applies is silence; a halt ends it at once.

use super::code::{Bool, NumC, Val, number, truth};
use super::cx::{Cx, Kept, R, Stop};
use crate::base::value::Value;
use crate::check::program::{DefId, PatIr, Program, RuleId, TypeKind};
use crate::check::types::Type;
use crate::eval::interp::{in_range, matches_pattern};
use crate::syntax::ast::Policy;
use std::sync::Arc;

/// A rule compiled.
pub(crate) struct RuleCode {
    /// Patterns that bind nothing, checked before anything is evaluated: (parameter, pattern).
    pub(crate) plain: Box<[(usize, PatIr)]>,
    /// Patterns that bind (matched after the plain ones).
    pub(crate) binding: Box<[(usize, PatIr)]>,
    pub(crate) guard: Option<Bool>,
    pub(crate) value: Val,
    /// The value as a truth value, for a rule of a boolean definition.
    pub(crate) value_bool: Option<Bool>,
    /// The value as a number, for a rule of a definition whose value is one.
    pub(crate) value_num: Option<NumC>,
    /// What its guard reads first, when that read counts no steps after its first (see
    /// [`Rules::group`]).
    pub(crate) lead: Option<Lead>,
    /// The steps of its guard and value, counted when it is entered.
    pub(crate) cost: u64,
    /// The slots its frame needs: its own and those of the calls it inlines.
    pub(crate) frame: u32,
}

/// Code working out a definition in the current frame (its arguments at its start).
pub(crate) type Body = Box<dyn for<'r> Fn(&mut Cx<'r>) -> R<&'r Value> + Send + Sync>;

/// Code of a rule with its exceptions: what it comes to, the value of the rule that
/// applies written into the slot given.
type Tree = Box<dyn for<'r> Fn(&mut Cx<'r>, &mut Option<&'r Value>) -> R<Tree0> + Send + Sync>;

/// An exception of a rule as its tree judges it: a rule with no exceptions, patterns or
/// kept result of its own judged in place, anything else by its own code.
enum Exception {
    Judged(Arc<RuleCode>),
    Tree(Tree),
}

/// What a guard reads first: exceptions whose guards begin with the same read are judged
/// together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lead {
    Fact(u32),
    Decision(u32),
    Def(DefId),
}

/// A definition compiled.
pub(crate) struct DefCode {
    /// Slots of its largest frame (parameters, bindings, lets, lambda items).
    pub(crate) frame: u32,
    pub(crate) body: Body,
    /// Its one rule, when it has no other, no exceptions and no patterns: worked out
    /// without its body's code.
    pub(crate) only: Option<Arc<RuleCode>>,
}

/// A row of a table compiled: its keys, its value and the steps of its value.
pub(crate) type Row = (Box<[PatIr]>, Val, u64);

/// A table compiled.
pub(crate) struct TableCode {
    pub(crate) policy: Policy,
    pub(crate) rows: Box<[Row]>,
}

/// What a rule (with its exceptions) comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tree0 {
    Applies,
    NotApplicable,
    Undetermined,
    /// An exception surely applies; its value waits for an input.
    Pending,
}

/// The rules of a program compiled, with what [`body`] needs to build definitions' code.
pub(crate) struct Rules<'p> {
    pub(crate) p: &'p Program,
    pub(crate) code: &'p [Arc<RuleCode>],
    /// For each rule of a definition without parameters that stands in more than one rule
    /// tree (an exception to several rules): its place among the rule results kept for one
    /// ruling, so that its guard and value are evaluated once.
    pub(crate) memo: &'p [Option<u32>],
}

impl Rules<'_> {
    /// Definition `def`'s one rule, when it has no other, no exceptions and no patterns
    /// (see [`DefCode::only`]).
    pub(crate) fn only(&self, def: DefId) -> Option<Arc<RuleCode>> {
        let d = &self.p.defs[def as usize];
        let [r] = d.rules.as_slice() else { return None };
        let (info, code) = (&self.p.rules[*r as usize], &self.code[*r as usize]);
        let plain = code.plain.is_empty() && code.binding.is_empty();
        (d.table.is_none() && info.exceptions.is_empty() && info.overrides.is_empty() && plain).then(|| code.clone())
    }

    /// The code of definition `def` whose rules are `table` or, when it has none, `top`
    /// (its rules that are exceptions to none), picked by the first parameter's variant
    /// when that is an enum.
    pub(crate) fn body(&self, def: DefId, table: Option<TableCode>, by_first: Option<Vec<Vec<RuleId>>>) -> Body {
        if let Some(t) = table {
            return Box::new(move |cx| cx.table(&t));
        }
        let d = &self.p.defs[def as usize];
        match by_first {
            Some(by) => {
                let bodies: Box<[Body]> = by.iter().map(|cands| self.rules(cands)).collect();
                Box::new(move |cx| match cx.locals.get(cx.base).copied() {
                    Some(Value::Enum(_, v)) => match bodies.get(*v as usize) {
                        Some(b) => b(cx),
                        None => Err(Stop::Halt),
                    },
                    _ => Err(Stop::Halt),
                })
            }
            None => {
                let top: Vec<RuleId> =
                    d.rules.iter().copied().filter(|&r| self.p.rules[r as usize].overrides.is_empty()).collect();
                self.rules(&top)
            }
        }
    }

    /// The code of the rules `cands` of a definition, each with its exceptions (the
    /// interpreter's `rules`).
    fn rules(&self, cands: &[RuleId]) -> Body {
        if let [r] = cands
            && self.p.rules[*r as usize].exceptions.is_empty()
        {
            let rule = self.code[*r as usize].clone();
            return Box::new(move |cx| cx.only(&rule));
        }
        if let [r] = cands {
            // One rule with its exceptions: what its tree comes to.
            let tree = self.tree(*r);
            return Box::new(move |cx| {
                let mut out = None;
                match tree(cx, &mut out)? {
                    // No rule applies: the conditions are silent.
                    Tree0::Applies => out.ok_or(Stop::Halt),
                    Tree0::NotApplicable => Err(Stop::Halt),
                    Tree0::Undetermined | Tree0::Pending => Err(Stop::Unknown),
                }
            });
        }
        let trees: Box<[Tree]> = cands.iter().map(|&r| self.tree(r)).collect();
        Box::new(move |cx| {
            let mut decided: Option<&Value> = None;
            let mut next = None;
            let mut unknown = false;
            for t in trees.iter() {
                match t(cx, &mut next)? {
                    Tree0::Applies => match (decided, next.take()) {
                        (None, v) => decided = v,
                        // Two rules disagree: an error in the rulebook, which the interpreter words.
                        (Some(first), Some(v)) if first != v => return Err(Stop::Halt),
                        _ => {}
                    },
                    Tree0::NotApplicable => {}
                    Tree0::Undetermined | Tree0::Pending => unknown = true,
                }
            }
            if unknown {
                return Err(Stop::Unknown);
            }
            // No rule applies: the conditions are silent.
            decided.ok_or(Stop::Halt)
        })
    }

    /// The code of rule `r` with its exceptions first: an exception that applies wins.
    fn tree(&self, r: RuleId) -> Tree {
        let rule = self.code[r as usize].clone();
        let exceptions = self.exceptions(&self.p.rules[r as usize].exceptions);
        let plain = rule.plain.is_empty() && rule.binding.is_empty();
        let once: Tree = if exceptions.is_empty() && plain {
            Box::new(move |cx, out| cx.judge(&rule, out))
        } else if exceptions.is_empty() {
            Box::new(move |cx, out| cx.alone(&rule, out))
        } else {
            Box::new(move |cx, out| {
                let mut pending = false;
                for e in exceptions.iter() {
                    let judged = match e {
                        Exception::Judged(rule) => cx.judge(rule, out),
                        Exception::Tree(tree) => tree(cx, out),
                    };
                    match judged? {
                        Tree0::Applies => return Ok(Tree0::Applies),
                        Tree0::NotApplicable => {}
                        Tree0::Undetermined => pending = true,
                        Tree0::Pending => return Ok(Tree0::Pending),
                    }
                }
                let own = if plain { cx.judge(&rule, out)? } else { cx.alone(&rule, out)? };
                if pending {
                    *out = None;
                    return Ok(match own {
                        Tree0::Applies => Tree0::Pending,
                        Tree0::Undetermined | Tree0::Pending | Tree0::NotApplicable => Tree0::Undetermined,
                    });
                }
                Ok(own)
            })
        };
        let Some(m) = self.memo[r as usize] else { return once };
        Box::new(move |cx, out| {
            if let Some(k) = cx.kept_rule(m) {
                // Reached before in this ruling: the same result, and the same steps counted
                // again (as the interpreter counts them).
                *out = k.value.as_ref();
                cx.count(k.steps)?;
                return Ok(k.tree);
            }
            let before = cx.steps();
            let tree = once(cx, out)?;
            let value = if tree == Tree0::Applies { out.map(Value::clone) } else { None };
            let steps = cx.steps() - before;
            cx.keep_rule(m, Kept { tree, value, steps });
            Ok(tree)
        })
    }
}

impl Rules<'_> {
    /// The code of exceptions `es`, in order; a run of two or more that [`Self::group`]
    /// can judge together as one.
    fn exceptions(&self, es: &[RuleId]) -> Box<[Exception]> {
        let mut out: Vec<Exception> = Vec::with_capacity(es.len());
        let mut i = 0;
        while i < es.len() {
            let key = self.lead(es[i]);
            let run = es[i..].iter().take_while(|&&e| key.is_some() && self.lead(e) == key).count();
            if run >= 2 {
                out.push(Exception::Tree(self.group(&es[i..i + run])));
                i += run;
            } else {
                let e = es[i];
                let code = &self.code[e as usize];
                let plain = self.p.rules[e as usize].exceptions.is_empty()
                    && code.plain.is_empty()
                    && code.binding.is_empty()
                    && self.memo[e as usize].is_none();
                out.push(if plain { Exception::Judged(code.clone()) } else { Exception::Tree(self.tree(e)) });
                i += 1;
            }
        }
        out.into()
    }

    /// What exception `e`'s guard reads first, when `e` may be judged in a group: it has no
    /// exceptions and no patterns of its own, and its result is not kept for the ruling.
    fn lead(&self, e: RuleId) -> Option<Lead> {
        let code = &self.code[e as usize];
        let alone = self.p.rules[e as usize].exceptions.is_empty()
            && code.plain.is_empty()
            && code.binding.is_empty()
            && self.memo[e as usize].is_none();
        code.lead.filter(|_| alone)
    }

    /// Exceptions `es`, whose guards all begin with the same read, judged together: when
    /// that read is false none applies, and their steps are counted without judging each
    /// (each guard would stop at it); otherwise each is judged in turn, as the exceptions
    /// of a rule are (the first that applies or surely applies ends it, one that waits
    /// for an input makes the whole wait).
    fn group(&self, es: &[RuleId]) -> Tree {
        let rules: Box<[Arc<RuleCode>]> = es.iter().map(|&e| self.code[e as usize].clone()).collect();
        let cost: u64 = rules.iter().map(|r| r.cost).sum();
        Box::new(move |cx, out| {
            if let Some(key) = rules[0].lead
                && let Ok(false) = match key {
                    // Read where it is held, without a call.
                    Lead::Fact(f) => cx.fact(f).as_ref().map_or(Err(Stop::Unknown), truth),
                    Lead::Decision(d) => cx.decision(d).as_ref().map_or(Err(Stop::Unknown), truth),
                    Lead::Def(d) => cx.result(d).and_then(truth),
                }
            {
                cx.count(cost)?;
                return Ok(Tree0::NotApplicable);
            }
            let mut pending = false;
            for rule in rules.iter() {
                match cx.judge(rule, out)? {
                    Tree0::Applies => return Ok(Tree0::Applies),
                    Tree0::Pending => return Ok(Tree0::Pending),
                    Tree0::Undetermined => pending = true,
                    Tree0::NotApplicable => {}
                }
            }
            Ok(if pending { Tree0::Undetermined } else { Tree0::NotApplicable })
        })
    }
}

/// For a definition whose first parameter is an enum: for each variant, the rules of `top`
/// whose exception tree can match it (the others would not apply, without evaluating
/// anything).
pub(crate) fn by_first(
    p: &Program,
    def: DefId,
    may_match: impl Fn(RuleId, &Value) -> bool,
) -> Option<Vec<Vec<RuleId>>> {
    let d = &p.defs[def as usize];
    let Some((_, Type::Enum(t))) = d.params.first() else { return None };
    let TypeKind::Enum(vs) = &p.types[*t as usize].kind else { return None };
    let top: Vec<RuleId> = d.rules.iter().copied().filter(|&r| p.rules[r as usize].overrides.is_empty()).collect();
    Some(
        (0..vs.len() as u32)
            .map(|v| {
                let arg = Value::Enum(*t, v);
                top.iter().copied().filter(|&r| may_match(r, &arg)).collect()
            })
            .collect(),
    )
}

impl<'r> Cx<'r> {
    /// The result of definition `def` (without parameters), worked out at its first call in
    /// the ruling and lent from then on.
    #[inline]
    pub(crate) fn result(&mut self, def: DefId) -> R<&'r Value> {
        match self.known(def) {
            Some(r) => r,
            None => self.work_out(def),
        }
    }

    /// [`Self::result`] at the definition's first call in the ruling: worked out and kept.
    #[inline(never)]
    fn work_out(&mut self, def: DefId) -> R<&'r Value> {
        let c: &'r super::Compiled = self.c;
        let d = &c.defs[def as usize];
        if let (Some(rule), 0) = (&d.only, d.frame)
            && rule.value_num.is_some()
        {
            // A number: kept as itself, not built as a value first.
            let r = self.in_place_num(rule).map(Value::Num);
            return self.keep_owned(def, r);
        }
        let r = self.call(def, 0);
        self.keep(def, r)
    }

    /// The number definition `def` (without parameters) comes to.
    #[inline]
    pub(crate) fn result_num(&mut self, def: DefId) -> R<crate::base::num::Num> {
        number(self.result(def)?)
    }

    /// The number a definition worked out at most once a ruling comes to (see
    /// `super::calls::once`), without keeping it.
    #[inline]
    pub(crate) fn once_num(&mut self, def: DefId) -> R<crate::base::num::Num> {
        let c: &'r super::Compiled = self.c;
        let d = &c.defs[def as usize];
        match (&d.only, d.frame) {
            (Some(rule), 0) => self.in_place_num(rule),
            _ => number(self.call(def, 0)?),
        }
    }

    /// Calls `def` on the `argc` arguments on top of the stack (and removes them).
    #[inline]
    pub(crate) fn call(&mut self, def: DefId, argc: usize) -> R<&'r Value> {
        let c: &'r super::Compiled = self.c;
        let d = &c.defs[def as usize];
        if argc == 0 && d.frame == 0 {
            // No frame to open: the body reads no local.
            return match &d.only {
                Some(rule) => self.in_place(rule),
                None => (d.body)(self),
            };
        }
        let saved = self.open(argc, (d.frame as usize).max(argc));
        let r = match &d.only {
            Some(rule) => self.in_place(rule),
            None => (d.body)(self),
        };
        self.close(saved);
        r
    }

    /// Whether rule `rule`'s patterns match the frame's arguments (binding what they bind).
    #[inline]
    fn patterns(&mut self, rule: &RuleCode) -> bool {
        let base = self.base;
        for (i, pat) in rule.plain.iter() {
            if !matches_pattern(pat, self.locals[base + i], &mut []) {
                return false;
            }
        }
        rule.binding.iter().all(|(i, pat)| self.bind_pattern(pat, *i))
    }

    /// A rule alone: its patterns, its guard, then its value.
    fn alone(&mut self, rule: &RuleCode, out: &mut Option<&'r Value>) -> R<Tree0> {
        if !self.patterns(rule) {
            return Ok(Tree0::NotApplicable);
        }
        self.judge(rule, out)
    }

    /// A rule whose patterns match: its guard, then its value.
    #[inline]
    fn judge(&mut self, rule: &RuleCode, out: &mut Option<&'r Value>) -> R<Tree0> {
        self.count(rule.cost)?;
        if let Some(g) = &rule.guard {
            match g(self) {
                Ok(true) => {}
                Ok(false) => return Ok(Tree0::NotApplicable),
                Err(Stop::Unknown) => return Ok(Tree0::Undetermined),
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        match (rule.value)(self) {
            Ok(v) => {
                *out = Some(v);
                Ok(Tree0::Applies)
            }
            Err(Stop::Unknown) => Ok(Tree0::Undetermined),
            Err(Stop::Halt) => Err(Stop::Halt),
        }
    }

    /// A definition's one candidate rule, without exceptions: its value, or silence when
    /// it does not apply (what the rules would come to, without the rule tree).
    #[inline]
    fn only(&mut self, rule: &RuleCode) -> R<&'r Value> {
        if (!rule.plain.is_empty() || !rule.binding.is_empty()) && !self.patterns(rule) {
            return Err(Stop::Halt);
        }
        self.in_place(rule)
    }

    /// Rule `rule`'s guard and value in the current frame, its patterns known to match: a
    /// dispatched call's rule (see `super::lower`), or a definition's only rule.
    #[inline]
    pub(crate) fn in_place(&mut self, rule: &RuleCode) -> R<&'r Value> {
        self.count(rule.cost)?;
        if let Some(g) = &rule.guard
            && !g(self)?
        {
            return Err(Stop::Halt);
        }
        (rule.value)(self)
    }

    /// [`Self::in_place`] for a rule of a definition whose value is a number, without
    /// building a value.
    #[inline]
    pub(crate) fn in_place_num(&mut self, rule: &RuleCode) -> R<crate::base::num::Num> {
        self.count(rule.cost)?;
        if let Some(g) = &rule.guard
            && !g(self)?
        {
            return Err(Stop::Halt);
        }
        match &rule.value_num {
            Some(v) => v(self),
            None => number((rule.value)(self)?),
        }
    }

    /// [`Self::in_place`] for a rule of a boolean definition, without building a value.
    #[inline]
    pub(crate) fn in_place_bool(&mut self, rule: &RuleCode) -> R<bool> {
        self.count(rule.cost)?;
        if let Some(g) = &rule.guard
            && !g(self)?
        {
            return Err(Stop::Halt);
        }
        match &rule.value_bool {
            Some(v) => v(self),
            None => truth((rule.value)(self)?),
        }
    }

    /// Matches a pattern against the frame's argument `i`, binding into the frame.
    fn bind_pattern(&mut self, pat: &PatIr, i: usize) -> bool {
        let arg = self.locals[self.base + i];
        match pat {
            PatIr::Any => true,
            PatIr::Bind(slot) => {
                self.bind(*slot, arg);
                true
            }
            PatIr::Equals(x) => x == arg,
            PatIr::Range { lo, hi, inclusive } => in_range(arg, lo.as_ref(), hi.as_ref(), *inclusive),
            PatIr::Alts(alts) => alts.iter().any(|a| self.bind_pattern(a, i)),
        }
    }

    fn row_matches(&mut self, keys: &[PatIr]) -> bool {
        keys.iter().enumerate().all(|(i, k)| self.bind_pattern(k, i))
    }

    fn row(&mut self, t: &TableCode, i: usize) -> R<&'r Value> {
        let (_, value, cost) = &t.rows[i];
        self.count(*cost)?;
        value(self)
    }

    /// The interpreter's table: every row's keys matched in one frame (the first matching
    /// row only, for `pick first`), then the values of the rows matched.
    fn table(&mut self, t: &TableCode) -> R<&'r Value> {
        let mut matched: Vec<usize> = Vec::new();
        for (i, (keys, ..)) in t.rows.iter().enumerate() {
            if self.row_matches(keys) {
                matched.push(i);
                if t.policy == Policy::First {
                    break;
                }
            }
        }
        match (t.policy, matched.as_slice()) {
            (Policy::Collect, _) => {
                let mut out = Vec::with_capacity(matched.len());
                for &i in &matched {
                    out.push(self.row(t, i)?.clone());
                }
                Ok(self.keep_value(Value::list(out)))
            }
            (_, [i]) => self.row(t, *i),
            // No row, or several for `pick unique`: an error the interpreter words.
            _ => Err(Stop::Halt),
        }
    }
}
