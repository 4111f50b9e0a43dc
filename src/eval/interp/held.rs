//! Values read where they are held: a constant, a local, a fact given, or a given field of
//! one of these is read in place rather than copied out of its record, and a comparison of
//! two such values, or a lambda whose body is one, is worked out there. Nothing else
//! changes: the steps counted are those evaluating them would count, a read the trace
//! notes is left to [`Interp::eval`], and so is anything not given (its needs are named
//! there).

use super::*;

/// A lambda's parameter bound to an item in place: its slot and the item.
pub(crate) type Bound<'v> = Option<(u32, &'v Value)>;

impl Interp<'_> {
    /// The value `ir` holds where it already is, and the evaluation steps reading it takes,
    /// when these and the `counted` already taken stay within [`MAX_STEPS`]; `None` for
    /// anything else.
    pub(super) fn held_within<'v>(
        &'v self,
        ir: &'v Ir,
        frame: &'v [Value],
        bound: Bound<'v>,
        counted: u64,
    ) -> Option<(&'v Value, u64)> {
        let (v, k) = self.held(ir, frame, bound)?;
        (self.steps + counted + k <= MAX_STEPS).then_some((v, k))
    }

    fn held<'v>(&'v self, ir: &'v Ir, frame: &'v [Value], bound: Bound<'v>) -> Option<(&'v Value, u64)> {
        match &ir.kind {
            IrKind::Const(v) => Some((v, 1)),
            IrKind::Local(s) => match bound {
                Some((slot, v)) if slot == *s => Some((v, 1)),
                _ => Some((frame.get(*s as usize)?, 1)),
            },
            IrKind::Fact(_) | IrKind::Field(..)
                if self.tracing() && !matches!(ir.ty, Type::Record(_)) && reads_fact(ir) =>
            {
                None
            }
            IrKind::Fact(f) => Some((self.inputs.facts[*f as usize].as_ref()?, 1)),
            IrKind::Field(x, i) => match self.held(x, frame, bound)? {
                (Value::Record(_, fields), k) => Some((fields.get(*i as usize)?.as_ref()?, k + 1)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `a op b` for a comparison `op` of two held values, with the steps reading them takes
    /// (not the comparison's own); `None` when either is not held or they cannot be compared.
    /// The limit on steps is checked with the comparison's own step still to come: exact for
    /// a lambda's body, one step early for a comparison [`Interp::eval`] has counted already,
    /// which then takes the evaluation's path and stops exactly where it did.
    pub(super) fn held_comparison(
        &self,
        op: BinaryOp,
        a: &Ir,
        b: &Ir,
        frame: &[Value],
        bound: Bound<'_>,
    ) -> Option<(bool, u64)> {
        use BinaryOp::*;
        if !matches!(op, Eq | Ne | Lt | Le | Gt | Ge) {
            return None;
        }
        let (x, k) = self.held_within(a, frame, bound, 1)?;
        let (y, l) = self.held_within(b, frame, bound, 1 + k)?;
        let truth = match op {
            Eq => x == y,
            Ne => x != y,
            _ => {
                let o = compare(x, y)?;
                match op {
                    Lt => o.is_lt(),
                    Le => o.is_le(),
                    Gt => o.is_gt(),
                    _ => o.is_ge(),
                }
            }
        };
        Some((truth, k + l))
    }

    /// Lambda `lam` applied to item `x` in place, when its body is a held value or a
    /// comparison of two (`s => s.town`, `s => s.town == t`); `None` for any other body,
    /// which is evaluated with `x` in the frame.
    pub(crate) fn held_apply(&mut self, lam: &Lambda, x: &Value, frame: &[Value]) -> Option<Value> {
        let bound = Some((lam.slot, x));
        let (v, k) = match &lam.body.kind {
            IrKind::Binary(op, a, b) => {
                let (truth, k) = self.held_comparison(*op, a, b, frame, bound)?;
                (Value::Bool(truth), k + 1)
            }
            _ => {
                let (v, k) = self.held_within(&lam.body, frame, bound, 0)?;
                (v.clone(), k)
            }
        };
        self.steps += k;
        Some(v)
    }
}
