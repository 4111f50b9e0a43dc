//! Evaluation: the
//! interpreter ([`interp`]) and its builtins, the trace kept for explanations,
//! and the compiled evaluator ([`fast`]) decides
//! rulings that need no explanation.

pub mod budget;
pub mod builtins;
pub mod fast;
pub mod interp;
pub mod needed;
pub mod order;
pub mod reads;
pub mod trace;
pub mod working;

/// The values, numbers, dates and times evaluation works on, and its pure builtins, live in
/// the bottom layer; their old paths here stay for programs that name them.
pub use crate::base::{date, datetime, num, plain, slots, time, value};
/// Showing values to people sits below the facts and the evaluator, which both show values;
/// its old path here stays for programs that name it.
pub use crate::show;

use crate::base::value::Value;
use crate::check::program::{DefId, Program};
use interp::{Halt, Inputs, Interp};
use trace::{Need, Trace};

/// The outcome of one ruling.
#[derive(Clone, Debug)]
pub enum Outcome {
    Decided(Value),
    /// Needs facts, decisions or draws that were not given.
    Undetermined(Vec<Need>),
    /// The conditions do not decide it: no rule applies for these facts.
    Silent(interp::Silence),
    /// The rulebook cannot rule: rules conflict, a table has a gap.
    Error(interp::EvalError),
}

#[derive(Clone, Debug)]
pub struct Ruling {
    pub def: DefId,
    pub outcome: Outcome,
    /// The derivation, when asked for.
    pub trace: Option<Trace>,
    /// The evaluation steps the ruling took (explaining it included, when asked for).
    pub steps: u64,
}

/// Rules on one definition (a ruling, usually) with the given inputs.
pub fn rule(program: &Program, inputs: &Inputs, def: DefId, explain: bool) -> Ruling {
    run(Interp::new(program, inputs, explain), def)
}

/// As [`rule`] with a trace for the brief explanation ([`Interp::brief`]): the brief text
/// ([`crate::explain::Explainer::brief_text`]) of it is that of the full trace, and the
/// reasons of rules that did not apply are worked out only where it shows them.
pub fn rule_for_brief(program: &Program, inputs: &Inputs, def: DefId) -> Ruling {
    let mut interp = Interp::new(program, inputs, true);
    interp.brief = true;
    run(interp, def)
}

fn run(mut interp: Interp, def: DefId) -> Ruling {
    let outcome = match interp.call(def, Vec::new()) {
        Ok(v) => Outcome::Decided(v),
        Err(Halt::Undetermined(n)) => Outcome::Undetermined(n),
        Err(Halt::Silent(s)) => Outcome::Silent(s),
        Err(Halt::Error(e)) => Outcome::Error(e),
    };
    // The workings of an explanation count against the ruling's budget: one that took it over
    // is refused, as the evaluation would be.
    let outcome = match outcome {
        Outcome::Error(e) => Outcome::Error(e),
        _ if interp.trace.is_some() && interp.steps > interp::MAX_STEPS => Outcome::Error(interp::EvalError {
            message: format!("the ruling and its explanation took more than {} evaluation steps", interp::MAX_STEPS),
            span: None,
        }),
        o => o,
    };
    Ruling { def, outcome, steps: interp.steps, trace: interp.trace.take() }
}
