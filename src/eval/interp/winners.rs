//! Which rules of a definition give their value for given inputs, each on its own: what
//! `check` reads from case files to show that two rules disagree on facts a case states.

use super::{Interp, RuleResult};
use crate::base::value::Value;
use crate::check::program::{DefId, RuleId};

impl Interp<'_> {
    /// Every rule of `def` that gives the value of its own exception tree for `args` (it
    /// applies and none of its exceptions does), with that value. Rules that do not apply,
    /// or whose outcome needs inputs that were not given or stops on an error, are left out.
    pub fn winners(&mut self, def: DefId, args: &[Value]) -> Vec<(RuleId, Value)> {
        let p = self.p;
        let Some(info) = p.defs.get(def as usize) else { return Vec::new() };
        if info.params.len() != args.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &r in &info.rules {
            if let Ok(RuleResult::Applies { value, rule, .. }) = self.rule_tree(r, args)
                && rule == r
            {
                out.push((r, value));
            }
        }
        out
    }

    /// The argument lists `def` was called with so far by this interpreter.
    pub fn calls_of(&self, def: DefId) -> Vec<Vec<Value>> {
        self.memo.args_of(def)
    }
}
