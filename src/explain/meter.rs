//! The work of putting one explanation together, counted against the ruling's step budget:
//! a ruling and its explanation may take no more than [`MAX_STEPS`] steps in all. The
//! ruling's own steps (its workings included) are in [`crate::eval::Ruling::steps`]; the
//! rendering of its report or brief text adds one unit for each row, item, comparison or
//! step it goes over ([`charge`]). The meter is kept on the thread while an explanation is
//! rendered ([`Meter::start`]); outside one, charging counts nothing. A raised cancel flag
//! ([`crate::eval::budget`]) spends the budget at the next look, so an explanation stops with
//! the request it was for.

use crate::eval::budget;
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
            Some((before, limit)) => {
                let mut used = before.saturating_add(n);
                // A request that ended stops its explanation as it stops its evaluation.
                if budget::passes_a_look(before, used) && budget::cancelled() {
                    used = u64::MAX;
                }
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

/// The message of an explanation refused for going over the budget, or stopped by the
/// cancel flag of [`crate::eval::budget`].
pub(crate) fn refused(total: u64) -> String {
    if budget::cancelled() {
        return budget::STOPPED.to_string();
    }
    format!("explaining the ruling took more than {total} evaluation steps, the ruling's own included")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::budget::{CHECK_EVERY, Cancel};

    #[test]
    fn a_raised_cancel_flag_spends_the_budget_at_the_next_look() {
        let cancel = Cancel::new();
        cancel.run(|| {
            let meter = Meter::start(u64::MAX - 1);
            assert!(charge(CHECK_EVERY), "not raised yet: the budget holds");
            cancel.cancel();
            assert!(charge(1), "no look between two multiples of the interval");
            assert!(!charge(CHECK_EVERY), "the look after the flag is raised spends it");
            assert!(spent());
            assert_eq!(refused(10), budget::STOPPED);
            drop(meter);
        });
        assert!(charge(1), "outside a meter nothing is counted");
    }
}
