//! What the trace notes as the interpreter evaluates: the facts and decisions a step reads
//! (each read by its path, kept with the program), the rules that did not apply, and the
//! parameters a step's working names.

use super::*;

impl Interp<'_> {
    /// Runs `f` with rule `r`'s parameter slots known to the working (see `params_bound`).
    pub(crate) fn naming_params<T>(&mut self, r: RuleId, f: impl FnOnce(&mut Self) -> T) -> T {
        let rule = &self.p.rules[r as usize];
        let mut slots = Vec::new();
        for (i, pat) in rule.patterns.iter().enumerate() {
            if let PatIr::Bind(slot) = pat {
                slots.push((*slot, rule.def, i as u32));
            }
        }
        let saved = std::mem::replace(&mut self.params_bound, slots);
        let out = f(self);
        self.params_bound = saved;
        out
    }

    /// Notes the read of a fact (or a field of one) by `ir`, of value `v`, in the step being
    /// evaluated, once per step.
    pub(super) fn note_read(&mut self, ir: &Ir, v: &Value) {
        let Some(read) = crate::eval::reads::paths(self.p).of_ir(ir) else { return };
        if let (Some(t), Some(&top)) = (self.trace.as_mut(), self.stack.last())
            && !t.nodes[top].facts.iter().any(|u| u.read == read.id)
        {
            t.nodes[top].facts.push(FactUse { fact: read.fact, read: read.id, value: v.clone() });
        }
    }

    pub(super) fn note_decision(&mut self, d: DecisionId) {
        if self.tracing()
            && let (Some(t), Some(&top)) = (self.trace.as_mut(), self.stack.last())
            && !t.nodes[top].decisions.contains(&d)
        {
            t.nodes[top].decisions.push(d);
        }
    }

    pub(super) fn with_node(&mut self, f: impl FnOnce(&mut Node)) {
        if !self.tracing() {
            return;
        }
        if let (Some(t), Some(&top)) = (self.trace.as_mut(), self.stack.last()) {
            f(&mut t.nodes[top]);
        }
    }

    /// Records a rule that did not apply (once, though an exception to several rules is met
    /// once per rule).
    pub(super) fn not_applied(&mut self, r: RuleId, why: WhyNot) {
        self.with_node(|n| {
            if !n.not_applied.iter().any(|(x, _)| *x == r) {
                n.not_applied.push((r, why));
            }
        });
    }
}
