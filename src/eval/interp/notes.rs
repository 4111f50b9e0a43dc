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
        let Some(read) = self.read_of(ir) else { return };
        if let (Some(t), Some(&top)) = (self.trace.as_mut(), self.stack.last())
            && !t.nodes[top].facts.iter().any(|u| u.path == read.path)
        {
            t.nodes[top].facts.push(FactUse { fact: read.fact, path: read.path, value: v.clone(), ty: read.ty });
        }
    }

    /// The fact read by `ir`, with its path (`player.masterpoints`) and type, if it reads one
    /// (kept with the program: see [`super::trace::Paths`]).
    pub(crate) fn read_of(&self, ir: &Ir) -> Option<Read> {
        if !reads_fact(ir) {
            return None;
        }
        self.p.paths.get(std::ptr::from_ref(ir) as usize, || {
            let mut path = String::new();
            let fact = self.fact_path_into(ir, &mut path)?;
            Some(Read { fact, path: path.into(), ty: std::sync::Arc::new(ir.ty.clone()) })
        })
    }

    /// The path of a fact or a field of one (`player.masterpoints`), if `ir` is one, written
    /// into `out` (which it clears first).
    pub(super) fn fact_path_into(&self, ir: &Ir, out: &mut String) -> Option<FactId> {
        match &ir.kind {
            IrKind::Fact(f) => {
                out.clear();
                out.push_str(&self.p.facts[*f as usize].name);
                Some(*f)
            }
            IrKind::Field(inner, i) => {
                let Type::Record(t) = &inner.ty else { return None };
                let TypeKind::Record(fs) = &self.p.types[*t as usize].kind else { return None };
                let name = &fs.get(*i as usize)?.name;
                let f = self.fact_path_into(inner, out)?;
                out.push('.');
                out.push_str(name);
                Some(f)
            }
            _ => None,
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

/// Whether `ir` reads a fact or a field of one (not a field of a list's item, say).
pub(super) fn reads_fact(mut ir: &Ir) -> bool {
    loop {
        match &ir.kind {
            IrKind::Fact(_) => return true,
            IrKind::Field(inner, _) => ir = inner,
            _ => return false,
        }
    }
}
