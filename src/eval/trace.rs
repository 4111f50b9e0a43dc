//! What an evaluation found out, kept for the explanation: for each definition
//! used, the rule that decided it, the exceptions that overrode rules, the rules
//! that did not apply and why, and the facts and decisions read.

use super::value::Value;
use crate::check::program::{Builtin, DecisionId, DefId, FactId, RuleId};
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
    /// The condition with its values put in, for the working in words.
    pub work: Option<Work>,
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
    /// The deciding rule's value, with the values put in (boxed: most steps have none).
    pub working: Option<Box<Work>>,
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

thread_local! {
    /// The room for the nodes of the last trace dropped on this thread, empty: a trace's
    /// nodes take a few kilobytes, which the allocator hands out more slowly than the small
    /// blocks of a ruling, so the next trace on the thread reuses them.
    static SPARE: std::cell::Cell<Vec<Node>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Trace {
    /// Room for the steps of most rulings kept on this thread from the last trace dropped.
    const ROOM: usize = 16;
    /// The most nodes whose room is kept for the next trace.
    const KEPT: usize = 64;

    /// An empty trace with room for the steps of most rulings, so that the nodes are not
    /// moved as they grow.
    pub(crate) fn new() -> Trace {
        let nodes = SPARE.try_with(|s| s.take()).unwrap_or_default();
        let nodes = if nodes.capacity() < Self::ROOM { Vec::with_capacity(Self::ROOM) } else { nodes };
        Trace { nodes }
    }
}

impl Drop for Trace {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() < Self::ROOM || nodes.capacity() > Self::KEPT {
            return;
        }
        nodes.clear();
        // A thread being torn down keeps no spare.
        let _ = SPARE.try_with(|s| s.set(nodes));
    }
}

/// How a value was reached: the deciding rule's expression with the values put in,
/// kept for the explanation's working in words.
#[derive(Clone, Debug)]
pub struct Work {
    pub value: Option<Value>,
    pub ty: Type,
    /// Where the expression is written (a literal reads best as written: `50%`).
    pub span: Span,
    pub kind: WorkKind,
}

#[derive(Clone, Debug)]
pub enum WorkKind {
    /// A value with nothing to show of its own making: a constant, a local name, a value
    /// this explanation cannot take apart.
    Leaf,
    Fact(FactId),
    /// A field of a fact, by its path (`player.masterpoints`).
    FactPath(FactId, String),
    Decision(DecisionId),
    /// A field of a record that is not a fact (a list item's, say): the record type and field.
    Field(u32, u32),
    /// Another definition: its own step explains it.
    Def(DefId),
    /// A parameter of the rule's definition (the definition, the parameter's place).
    Param(DefId, u32),
    Neg(Box<Work>),
    Not(Box<Work>),
    Binary(BinaryOp, Box<Work>, Box<Work>),
    /// `x in lo..=hi`
    InRange {
        x: Box<Work>,
        lo: Option<Box<Work>>,
        hi: Option<Box<Work>>,
        inclusive: bool,
    },
    /// `x in list`
    InList(Box<Work>, Box<Work>),
    /// `if c then a else b`: the condition and the branch taken.
    If(Box<Work>, Box<Work>),
    /// Rounding (`ceil`, `floor`, `round`) or `abs`.
    Round(Builtin, Box<Work>),
    /// `min`/`max` of the arguments (a bound or a clamp).
    Clamp(Builtin, Vec<Work>),
    /// `count`, `filter`, `all`, `any`: the items, and for each whether it counted.
    Count {
        builtin: Builtin,
        items: Vec<(Value, Option<bool>)>,
        elem: Type,
    },
    /// `sum`: the items with the value each contributed.
    Sum {
        items: Vec<(Value, Option<Value>)>,
        elem: Type,
        of: Type,
    },
    /// `top`, `most`, `least`: the items with their keys, and how many places (for `top`).
    Ranking {
        builtin: Builtin,
        items: Vec<(Value, Value)>,
        elem: Type,
        key: Type,
        places: Option<Value>,
    },
    /// `apportion`: the seats, the items with their weights.
    Apportion {
        seats: Value,
        items: Vec<(Value, Value)>,
        elem: Type,
    },
    /// `map` over another working (a ranking's names, say): the working of the list mapped.
    Map(Box<Work>),
    /// `count` of a list without a condition: how many items the list has.
    Size(Box<Work>),
    /// A record built field by field: the record type and each given field's working.
    Record(u32, Vec<(u32, Work)>),
    /// `rank …` / `sort …`: the items with each key's values, the ties broken among the tied,
    /// and the tied groups that result, best first.
    Standings {
        items: Vec<Value>,
        elem: Type,
        /// Each key: how it is named, its type, and its value for each item.
        keys: Vec<(KeyName, Type, Vec<Value>)>,
        /// The tie-break keys: how each is named and its type.
        among: Vec<(KeyName, Type)>,
        breaks: Vec<super::order::TieBreak>,
        groups: Vec<Vec<Value>>,
    },
}

/// How a key of an ordering is named in words.
#[derive(Clone, Debug)]
pub enum KeyName {
    /// A definition: by its `says` phrase or description.
    Def(DefId),
    /// A field of a record: by the field's description.
    Field(u32, u32),
    /// Anything else: by its number among the keys, from 1.
    Nth(usize),
}
