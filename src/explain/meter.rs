//! The work of putting one explanation together, counted against the ruling's step budget:
//! a ruling and its explanation may take no more than [`MAX_STEPS`] steps in all. The
//! ruling's own steps (its workings included) are in [`crate::eval::Ruling::steps`]; the
//! rendering of its report or brief text adds one unit for each row, item, comparison or
//! step it goes over ([`charge`]). The meter is kept on the thread while an explanation is
//! rendered ([`Meter::start`]); outside one, charging counts nothing.

use crate::eval::interp::MAX_STEPS;
use std::cell::Cell;

thread_local! {
    /// The work counted so far and the most allowed, while an explanation is rendered.
    static METER: Cell<Option<(u64, u64)>> = const { Cell::new(None) };
}

/// Counts `n` units of rendering work; `false` once the budget is spent (the caller may stop
/// early: the explanation is then refused).
pub(crate) fn charge(n: u64) -> bool {
    METER
        .try_with(|m| match m.get() {
            Some((used, limit)) => {
                let used = used.saturating_add(n);
                m.set(Some((used, limit)));
                used <= limit
            }
            None => true,
        })
        .unwrap_or(true)
}

/// Whether the budget is spent.
pub(crate) fn spent() -> bool {
    !charge(0)
}

/// The meter of one explanation being rendered; the one it replaced (an explanation
/// rendered within another) is put back when it is dropped.
pub(crate) struct Meter {
    outer: Option<(u64, u64)>,
}

impl Meter {
    /// Starts counting, with `budget` units allowed.
    pub(crate) fn start(budget: u64) -> Meter {
        let outer = METER.try_with(|m| m.replace(Some((0, budget)))).ok().flatten();
        Meter { outer }
    }

    /// The work counted so far.
    pub(crate) fn used(&self) -> u64 {
        METER.try_with(|m| m.get().map_or(0, |(used, _)| used)).unwrap_or(0)
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        let _ = METER.try_with(|m| m.set(self.outer));
    }
}

/// The rendering budget left to a ruling that took `steps` steps, out of `total`.
pub(crate) fn left(steps: u64, total: u64) -> u64 {
    total.min(MAX_STEPS).saturating_sub(steps)
}

/// The message of an explanation refused for going over the budget.
pub(crate) fn refused(total: u64) -> String {
    format!("explaining the ruling took more than {total} evaluation steps, the ruling's own included")
}
