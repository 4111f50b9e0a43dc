//! Tracing for the brief explanation ([`Interp::brief`]): why the conditions of rules that
//! did not apply failed is worked out only for the steps whose rules that did not apply the
//! brief explanation shows (the ruling's own, and any left undecided), after the fact.

use super::{Interp, matches_pattern};
use crate::base::value::Value;
use crate::check::program::RuleId;
use crate::eval::trace::WhyNot;

impl Interp<'_> {
    /// Whether the conditions of rules that do not apply are worked out where they fail
    /// (see `brief`).
    pub(super) fn conditions_wanted(&self) -> bool {
        !self.brief || self.stack.last() == Some(&0)
    }

    /// Works out, after the fact, why the conditions of node `idx`'s rules that did not
    /// apply failed, for arguments `args` (see `brief`): as `rule_in_frame` would have.
    pub(super) fn conditions_of(&mut self, idx: usize, args: &[Value]) {
        let Some(t) = self.trace.as_ref() else { return };
        let failed: Vec<RuleId> = t.nodes[idx]
            .not_applied
            .iter()
            .filter(|(_, why)| matches!(why, WhyNot::Condition(_)))
            .map(|(r, _)| *r)
            .collect();
        let p = self.p;
        for r in failed {
            let rule = &p.rules[r as usize];
            let Some(g) = &rule.guard else { continue };
            let mut frame = self.frame_for(rule.frame, args);
            for (pat, arg) in rule.patterns.iter().zip(args) {
                matches_pattern(pat, arg, &mut frame);
            }
            let atoms = self.naming_params(r, |me| me.atoms(g, &mut frame, false));
            self.pool.push(frame);
            if let Some(t) = self.trace.as_mut()
                && let Some(entry) = t.nodes[idx].not_applied.iter_mut().find(|(x, _)| *x == r)
            {
                entry.1 = WhyNot::Condition(atoms);
            }
        }
    }
}
