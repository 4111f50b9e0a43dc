//! Why a rule applied or did not: the deciding rule's conditions and a boolean value's
//! reasons, as atoms with their values and workings, for the explanation's steps.

use super::*;

impl Interp<'_> {
    /// The deciding rule's conditions (and a boolean value's reasons), with values; `value` is
    /// the rule's value, as the ruling found it.
    pub(super) fn because(&mut self, r: RuleId, args: &[Value], value: &Value) -> Vec<Atom> {
        let p = self.p;
        let rule = &p.rules[r as usize];
        let valued = rule.value.ty == Type::Bool && !matches!(rule.value.kind, IrKind::Const(_));
        if rule.guard.is_none() && !valued {
            return Vec::new();
        }
        let mut frame = self.frame_for(rule.frame, args);
        for (pat, arg) in rule.patterns.iter().zip(args) {
            matches_pattern(pat, arg, &mut frame);
        }
        let out = self.naming_params(r, |me| {
            let mut out = Vec::new();
            if let Some(g) = &rule.guard {
                me.atoms_to(&mut out, g, &mut frame, true);
            }
            if valued && let Value::Bool(b) = *value {
                me.atoms_to(&mut out, &rule.value, &mut frame, b);
            }
            out
        });
        self.pool.push(frame);
        out
    }

    pub(crate) fn quietly<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.quiet += 1;
        let out = f(self);
        self.quiet -= 1;
        out
    }

    /// The atomic conditions that make `ir` evaluate to `value`.
    pub(super) fn atoms(&mut self, ir: &Ir, frame: &mut Vec<Value>, value: bool) -> Vec<Atom> {
        let mut out = Vec::new();
        self.atoms_to(&mut out, ir, frame, value);
        out
    }

    /// [`Self::atoms`], added to `out`.
    pub(super) fn atoms_to(&mut self, out: &mut Vec<Atom>, ir: &Ir, frame: &mut Vec<Value>, value: bool) {
        self.quietly(|me| me.atoms_inner(out, ir, frame, value))
    }

    fn atoms_inner(&mut self, out: &mut Vec<Atom>, ir: &Ir, frame: &mut Vec<Value>, value: bool) {
        match &ir.kind {
            IrKind::Binary(BinaryOp::And, a, b) | IrKind::Binary(BinaryOp::Or, a, b) => {
                let is_and = matches!(ir.kind, IrKind::Binary(BinaryOp::And, ..));
                let va = self.eval(a, frame).ok().and_then(|v| v.as_bool());
                let vb = self.eval(b, frame).ok().and_then(|v| v.as_bool());
                // `and` false / `or` true: one side suffices. Otherwise both sides matter.
                let decisive = is_and != value;
                if decisive {
                    if va == Some(value) {
                        self.atoms_inner(out, a, frame, value);
                    } else if vb == Some(value) {
                        self.atoms_inner(out, b, frame, value);
                    }
                } else if !is_and && !value {
                    // Neither side of an `or` holds: kept whole, since what the rule
                    // required is one side or the other.
                    out.push(Atom {
                        left: ir.span,
                        left_value: Some(Value::Bool(false)),
                        left_ty: Type::Bool,
                        op: None,
                        right: None,
                        right_value: None,
                        holds: false,
                        work: self.work(ir, frame).map(|w| self.spare.boxed(w)),
                    });
                } else {
                    self.atoms_inner(out, a, frame, value);
                    self.atoms_inner(out, b, frame, value);
                }
            }
            IrKind::Not(x) => self.atoms_inner(out, x, frame, !value),
            IrKind::Binary(op, a, b) if op.is_comparison() => {
                // The sides' values are those of the working's sides, evaluated once.
                let work = self.work(ir, frame).map(|w| self.spare.boxed(w));
                let (left_value, right_value) = match work.as_ref().map(|w| &w.kind) {
                    Some(WorkKind::Binary(_, wa, wb)) => (wa.value.clone(), wb.value.clone()),
                    _ => (self.eval(a, frame).ok(), self.eval(b, frame).ok()),
                };
                out.push(Atom {
                    left: a.span,
                    left_value,
                    left_ty: a.ty.clone(),
                    op: Some(AtomOp::Cmp(*op)),
                    right: Some(b.span),
                    right_value,
                    holds: value,
                    work,
                });
            }
            IrKind::InRange { x, .. } | IrKind::InList(x, _) => {
                let work = self.work(ir, frame).map(|w| self.spare.boxed(w));
                let left_value = match work.as_ref().map(|w| &w.kind) {
                    Some(WorkKind::InRange { x, .. } | WorkKind::InList(x, _)) => x.value.clone(),
                    _ => self.eval(x, frame).ok(),
                };
                out.push(Atom {
                    left: x.span,
                    left_value,
                    left_ty: x.ty.clone(),
                    op: Some(AtomOp::In),
                    right: Some(Span { start: x.span.end, ..ir.span }),
                    right_value: None,
                    holds: value,
                    work,
                });
            }
            _ => out.push(Atom {
                left: ir.span,
                left_value: Some(Value::Bool(value)),
                left_ty: Type::Bool,
                op: None,
                right: None,
                right_value: None,
                holds: value,
                work: self.work(ir, frame).map(|w| self.spare.boxed(w)),
            }),
        }
    }
}
