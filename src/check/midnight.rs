//! Times of day across midnight: which of two times of day is later, the later or earlier of
//! several, the minutes between two, and an ordering by a time of day all depend on the days
//! the times fall on, which a time of day does not hold (`01:30` the next day is after `22:00`,
//! yet `01:30 < 22:00`). Where both sides can vary, the checker reports it and asks for a
//! `datetime`; where one side is a fixed time of day (`start >= 9.30`) the question is about
//! the clock alone and stands.

use super::expr::Lowerer;
use super::program::{Ir, IrKind};
use super::types::Type;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Span;

pub const CODE: &str = "conditions::time_across_midnight";

/// What is asked of the times.
#[derive(Clone, Copy)]
pub enum Use {
    /// `a < b` and the other orderings, a range with a bound that varies.
    Compare,
    /// `a - b`.
    Between,
    /// `max`, `min`.
    Extreme,
    /// A key of `sort`, `rank`, `most`, `least`, `top`.
    Key,
}

/// Whether values of `t` are times of day (or lists of them, compared item by item).
pub fn holds_time(t: &Type) -> bool {
    match t {
        Type::Time => true,
        Type::List(e) => holds_time(e),
        _ => false,
    }
}

/// Whether an expression is one fixed value, whatever the facts: a literal, or arithmetic on
/// literals (`13.00 + 15 minutes`).
pub fn fixed(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Const(_) => true,
        IrKind::Binary(_, a, b) => fixed(a) && fixed(b),
        IrKind::Neg(x) => fixed(x),
        IrKind::List(xs) => xs.iter().all(fixed),
        _ => false,
    }
}

/// Reports `what` done with times of day when at least two of `irs` are times that vary (one
/// for [`Use::Key`] and for a list given alone to `max`/`min`, whose items vary among
/// themselves).
pub fn check(l: &mut Lowerer, what: Use, irs: &[&Ir], span: Span) {
    let varying: Vec<&Ir> = irs.iter().copied().filter(|ir| holds_time(&ir.ty) && !fixed(ir)).collect();
    let alone = matches!(what, Use::Key) || (irs.len() == 1 && matches!(irs[0].ty, Type::List(_)));
    if varying.is_empty() || (varying.len() < 2 && !alone) {
        return;
    }
    let message = match what {
        Use::Compare => "which of two times of day is later depends on the days they fall on",
        Use::Between => "the duration between two times of day depends on the days they fall on",
        Use::Extreme => "the latest or earliest of times of day depends on the days they fall on",
        Use::Key => "an ordering by a time of day depends on the days the times fall on",
    };
    let mut d = Diagnostic::error(CODE, message);
    for ir in &varying {
        d = d.at(ir.span, "a time of day, on no particular day");
    }
    if varying.is_empty() {
        d = d.at_plain(span);
    }
    l.diags.push(d.help(
        "give the moments their day: a `datetime` fact (\"2008-09-06 22:00\") or `date + time`, \
         or compare with a fixed time (`t >= 9.30`) when only the clock matters",
    ));
}
