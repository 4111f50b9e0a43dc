//! Stopping an evaluation from outside: a cancel flag that the step limits consult.
//!
//! Whoever starts evaluation on a thread (the server, for the work of one request) may
//! set a [`Cancel`] for the duration of a closure ([`Cancel::run`]); the interpreter,
//! the compiled evaluator (and with them a step's working) look at it every
//! [`CHECK_EVERY`] steps, where they look at the step limit, and stop as at that limit
//! once it is raised. Without a flag set nothing changes, and the hot path pays a
//! division's worth of work between looks.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Evaluation steps between two looks at the flag.
pub const CHECK_EVERY: u64 = 4096;

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// A flag that stops the evaluations run under it once raised.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Raises the flag: the evaluations under it stop at their next look.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `f` on this thread with the flag set for the evaluations it starts (the
    /// flag before is set again after, should `f` unwind too).
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Arc<AtomicBool>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                let _ = FLAG.try_with(|c| *c.borrow_mut() = before);
            }
        }
        let before = FLAG.with(|c| c.borrow_mut().replace(self.0.clone()));
        let _restore = Restore(before);
        f()
    }
}

/// Whether the flag set on this thread (if any) is raised.
pub fn cancelled() -> bool {
    FLAG.try_with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed))).unwrap_or(false)
}

/// Whether counting from `before` steps to `after` passes a look at the flag.
#[inline(always)]
pub fn passes_a_look(before: u64, after: u64) -> bool {
    before / CHECK_EVERY != after / CHECK_EVERY
}

/// What a stopped evaluation says.
pub const STOPPED: &str = "the ruling was stopped before it finished (the request ended or ran out of time)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_set_only_inside_run_and_restored_after() {
        assert!(!cancelled());
        let c = Cancel::new();
        c.run(|| {
            assert!(!cancelled());
            c.cancel();
            assert!(cancelled());
            Cancel::new().run(|| assert!(!cancelled()));
            assert!(cancelled());
        });
        assert!(!cancelled());
        assert!(passes_a_look(CHECK_EVERY - 1, CHECK_EVERY) && !passes_a_look(1, 2));
    }
}
