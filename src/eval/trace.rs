//! What an evaluation found out, kept for the explanation: for each definition
//! used, the rule that decided it, the exceptions that overrode rules, the rules
//! that did not apply and why, and the facts and decisions read.

use super::value::Value;
use crate::check::program::{DecisionId, DefId, FactId, RuleId};
use crate::check::types::Type;
use crate::syntax::ast::{BinaryOp, Span};

/// Something the ruling needs and was not given.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Need {
    Fact(FactId),
    /// An optional field left out of a record: the record's type and the field name.
    Field {
        record: String,
        field: String,
    },
    Decision(DecisionId),
    Lot {
        lot: DecisionId,
        candidates: Vec<String>,
    },
}

/// A plain, checkable reason: one comparison or condition with its values.
#[derive(Clone, Debug)]
pub struct Atom {
    /// Source text of the left side (or of the whole condition).
    pub left: Span,
    pub left_value: Option<Value>,
    pub left_ty: Type,
    pub op: Option<AtomOp>,
    pub right: Option<Span>,
    pub right_value: Option<Value>,
    /// Whether the condition held.
    pub holds: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Cmp(BinaryOp),
    In,
}

#[derive(Clone, Debug)]
pub enum WhyNot {
    /// Argument `param` did not match the rule's pattern.
    Pattern { param: usize, value: Value },
    /// The condition after `when` was false because of these.
    Condition(Vec<Atom>),
    /// Whether the rule applies is not known yet.
    Unknown(Vec<Need>),
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Value(Value),
    Undetermined(Vec<Need>),
    Silent(super::interp::Silence),
    Error(String),
}

/// One definition evaluated (once, for given arguments).
#[derive(Clone, Debug)]
pub struct Node {
    pub def: DefId,
    pub args: Vec<Value>,
    pub outcome: Outcome,
    /// The rule whose value was taken.
    pub decided_by: Option<RuleId>,
    /// Other rules that applied and agreed.
    pub also: Vec<RuleId>,
    /// The table row whose value was taken.
    pub row: Option<usize>,
    /// Rules set aside by the exception that decided.
    pub overridden: Vec<RuleId>,
    /// Rules that did not apply, and why.
    pub not_applied: Vec<(RuleId, WhyNot)>,
    /// Conditions of the deciding rule, with their values.
    pub because: Vec<Atom>,
    pub facts: Vec<FactUse>,
    pub decisions: Vec<DecisionId>,
    pub children: Vec<usize>,
}

/// A fact read, or a field of one: `player.masterpoints` = 2150.
#[derive(Clone, Debug, PartialEq)]
pub struct FactUse {
    pub fact: FactId,
    pub path: String,
    pub value: Value,
    pub ty: Type,
}

/// All nodes of one ruling's evaluation; the root is the ruling itself.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub nodes: Vec<Node>,
}
