//! Calls and rules of the compiled code: a definition entered (memoised when it has no
//! parameters), its rules tried in order with their exceptions, a rule tree kept for the
//! ruling when several trees reach it, and tables looked up by their rows.

use super::super::CDef;
use super::{MAX_DEPTH, R, RuleResult, Run, Stop};
use crate::check::program::{DefId, RuleId};
use crate::eval::interp::matches_pattern;
use crate::eval::value::Value;
use crate::syntax::ast::Policy;

impl<'a> Run<'a> {
    /// Calls `def` on the `argc` arguments on top of the stack (and removes them).
    pub(super) fn call(&mut self, def: DefId, argc: usize) -> R {
        let memoizable = argc == 0;
        if memoizable {
            let (generation, r) = &self.s.memo[def as usize];
            if *generation == self.s.generation {
                return r.clone();
            }
        }
        let result = match self.c.defs[def as usize].in_place {
            Some(r) if memoizable => {
                self.depth += 1;
                let result = if self.depth > MAX_DEPTH { Err(Stop::Halt) } else { self.only_rule_here(r) };
                self.depth -= 1;
                result
            }
            _ => self.enter(def, argc),
        };
        if memoizable {
            self.s.memo[def as usize] = (self.s.generation, result.clone());
        }
        result
    }

    /// Evaluates `def` on the `argc` arguments on top of the stack in a frame of its own
    /// (and removes them), without the memo.
    #[inline(always)]
    pub(super) fn enter(&mut self, def: DefId, argc: usize) -> R {
        let base = self.s.stack.len() - argc;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            self.s.stack.truncate(base);
            return Err(Stop::Halt);
        }
        let c = self.c;
        let d = &c.defs[def as usize];
        frame_to(&mut self.s.stack, base + d.frame as usize);
        let saved = std::mem::replace(&mut self.base, base);
        let result = if d.table.is_some() { self.table(d) } else { self.rules(d) };
        self.base = saved;
        self.s.stack.truncate(base);
        self.depth -= 1;
        result
    }

    #[inline(always)]
    pub(super) fn rules(&mut self, d: &'a CDef) -> R {
        let candidates: &[RuleId] = match (&d.by_first, self.s.stack.get(self.base)) {
            (Some(index), Some(Value::Enum(_, v))) if d.params > 0 => index.get(*v as usize).unwrap_or(&d.top),
            _ => &d.top,
        };
        if let [r] = candidates
            && self.c.rules[*r as usize].exceptions.is_empty()
        {
            return self.only_rule(*r);
        }
        let mut decided: Option<Value> = None;
        let mut next: Option<Value> = None;
        let mut unknown = false;
        for &r in candidates {
            match self.rule_tree(r, &mut next)? {
                RuleResult::Applies => match (&decided, next.take()) {
                    (None, v) => decided = v,
                    // Two rules disagree: an error in the rulebook, which the interpreter words.
                    (Some(first), Some(v)) if *first != v => return Err(Stop::Halt),
                    _ => {}
                },
                RuleResult::NotApplicable => {}
                RuleResult::Undetermined | RuleResult::Pending => unknown = true,
            }
        }
        if unknown {
            return Err(Stop::Unknown);
        }
        // No rule applies: the conditions are silent.
        decided.ok_or(Stop::Halt)
    }

    /// Rule `r` with its exceptions first: an exception that applies wins. The value of
    /// the rule that applies is written into `out`.
    pub(super) fn rule_tree(&mut self, r: RuleId, out: &mut Option<Value>) -> Result<RuleResult, Stop> {
        let rule = &self.c.rules[r as usize];
        let Some(m) = rule.memo else {
            // A rule without exceptions is the rule alone.
            return if rule.exceptions.is_empty() { self.rule_alone(r, out) } else { self.rule_tree_once(r, out) };
        };
        let m = m as usize;
        let (generation, result, value, steps) = &self.s.rule_memo[m];
        if *generation == self.s.generation {
            // Reached before in this ruling: the same result, and the same steps counted
            // again (as the interpreter counts them).
            let (result, steps) = (*result, *steps);
            *out = value.clone();
            return self.count(steps).map(|()| result);
        }
        let before = self.steps;
        let result = self.rule_tree_once(r, out)?;
        let value = if result == RuleResult::Applies { out.clone() } else { None };
        self.s.rule_memo[m] = (self.s.generation, result, value, self.steps - before);
        Ok(result)
    }

    #[inline(always)]
    pub(super) fn rule_tree_once(&mut self, r: RuleId, out: &mut Option<Value>) -> Result<RuleResult, Stop> {
        let c = self.c;
        let rule = &c.rules[r as usize];
        let mut pending = false;
        for &e in rule.exceptions.iter() {
            match self.rule_tree(e, out)? {
                RuleResult::Applies => return Ok(RuleResult::Applies),
                RuleResult::NotApplicable => {}
                RuleResult::Undetermined => pending = true,
                RuleResult::Pending => return Ok(RuleResult::Pending),
            }
        }
        let own = self.rule_alone(r, out)?;
        if pending {
            *out = None;
            return Ok(match own {
                RuleResult::Applies => RuleResult::Pending,
                RuleResult::Undetermined | RuleResult::Pending | RuleResult::NotApplicable => RuleResult::Undetermined,
            });
        }
        Ok(own)
    }

    /// The definition's one candidate rule, without exceptions: its value, or silence when
    /// it does not apply (what [`Self::rules`] would find, without the rule tree).
    #[inline(always)]
    pub(super) fn only_rule(&mut self, r: RuleId) -> R {
        let c = self.c;
        let rule = &c.rules[r as usize];
        let base = self.base;
        for (i, pat) in rule.plain.iter() {
            if !matches_pattern(pat, &self.s.stack[base + i], &mut []) {
                return Err(Stop::Halt);
            }
        }
        for (i, pat) in rule.binding.iter() {
            let arg = self.s.stack[base + i].clone();
            if !matches_pattern(pat, &arg, &mut self.s.stack[base..]) {
                return Err(Stop::Halt);
            }
        }
        if let Some(g) = &rule.guard
            && !self.eval_bool(g)?
        {
            return Err(Stop::Halt);
        }
        self.eval(&rule.value)
    }

    /// [`Self::only_rule`] for a rule of one parameter that binds it to no slot and reads
    /// no local, picked by the argument's variant: evaluated in the caller's frame (see
    /// `Kind::Dispatch`). Its pattern is not matched again: the dispatch table holds for
    /// each variant only a rule whose pattern matches it (`Lower::dispatch`).
    pub(super) fn rule_in_place(&mut self, r: RuleId) -> R {
        let rule = &self.c.rules[r as usize];
        if let Some(g) = &rule.guard
            && !self.eval_bool(g)?
        {
            return Err(Stop::Halt);
        }
        self.eval(&rule.value)
    }

    /// [`Self::rule_in_place`] for a boolean definition, without building a value.
    pub(super) fn rule_in_place_bool(&mut self, r: RuleId) -> Result<bool, Stop> {
        let rule = &self.c.rules[r as usize];
        if let Some(g) = &rule.guard
            && !self.eval_bool(g)?
        {
            return Err(Stop::Halt);
        }
        self.eval_bool(&rule.value)
    }

    /// [`Self::only_rule`] for a rule without parameters that reads no local: evaluated in
    /// the caller's frame (see [`super::CDef::in_place`]).
    #[inline]
    pub(super) fn only_rule_here(&mut self, r: RuleId) -> R {
        // The same as a dispatched rule's: its guard, then its value, in the caller's frame.
        self.rule_in_place(r)
    }

    #[inline(always)]
    pub(super) fn rule_alone(&mut self, r: RuleId, out: &mut Option<Value>) -> Result<RuleResult, Stop> {
        let c = self.c;
        let rule = &c.rules[r as usize];
        let base = self.base;
        for (i, pat) in rule.plain.iter() {
            if !matches_pattern(pat, &self.s.stack[base + i], &mut []) {
                return Ok(RuleResult::NotApplicable);
            }
        }
        for (i, pat) in rule.binding.iter() {
            let arg = self.s.stack[base + i].clone();
            if !matches_pattern(pat, &arg, &mut self.s.stack[base..]) {
                return Ok(RuleResult::NotApplicable);
            }
        }
        if let Some(g) = &rule.guard {
            match self.eval_bool(g) {
                Ok(true) => {}
                Ok(false) => return Ok(RuleResult::NotApplicable),
                Err(Stop::Unknown) => return Ok(RuleResult::Undetermined),
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        match self.eval(&rule.value) {
            Ok(v) => {
                *out = Some(v);
                Ok(RuleResult::Applies)
            }
            Err(Stop::Unknown) => Ok(RuleResult::Undetermined),
            Err(Stop::Halt) => Err(Stop::Halt),
        }
    }

    pub(super) fn table(&mut self, d: &'a CDef) -> R {
        let Some(t) = &d.table else { return Err(Stop::Halt) };
        let base = self.base;
        let matches = |me: &mut Self, keys: &[crate::check::program::PatIr]| {
            keys.iter().enumerate().all(|(i, k)| matches_pattern(k, &me.s.stack[base + i], &mut []))
        };
        match t.policy {
            Policy::Collect => {
                let mut out = Vec::new();
                for (keys, value) in t.rows.iter() {
                    if matches(self, keys) {
                        out.push(self.eval(value)?);
                    }
                }
                Ok(Value::list(out))
            }
            Policy::First => match t.rows.iter().find(|(keys, _)| matches(self, keys)) {
                Some((_, value)) => self.eval(value),
                None => Err(Stop::Halt),
            },
            Policy::Unique => {
                let mut found = None;
                for (keys, value) in t.rows.iter() {
                    if matches(self, keys) {
                        if found.is_some() {
                            return Err(Stop::Halt);
                        }
                        found = Some(value);
                    }
                }
                match found {
                    Some(value) => self.eval(value),
                    None => Err(Stop::Halt),
                }
            }
        }
    }
}

/// Sizes the value stack to `len` for a frame: new slots hold a placeholder (a frame's
/// locals are written before they are read), slots past it are dropped. A frame is a few
/// slots, so they are pushed one by one rather than through `Vec::resize`'s general path.
#[inline]
pub(in crate::eval::fast) fn frame_to(stack: &mut Vec<Value>, len: usize) {
    if len <= stack.len() {
        stack.truncate(len);
        return;
    }
    stack.reserve(len - stack.len());
    while stack.len() < len {
        stack.push(Value::Bool(false));
    }
}
