//! What an evaluation found out, kept for the explanation: for each definition
//! used, the rule that decided it, the exceptions that overrode rules, the rules
//! that did not apply and why, and the facts and decisions read.

use super::reads::ReadId;
use crate::base::value::Value;
use crate::check::program::Program;
use crate::check::program::{Builtin, DecisionId, DefId, FactId, RuleId};
use crate::check::types::Type;
use crate::syntax::ast::{BinaryOp, Span};

/// Something the ruling needs and was not given.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Need {
    Fact(FactId),
    /// An optional field left out of a record: where the record is in the facts (its
    /// facts-file path, `team.players[2]`), or its type when it is in no fact; and the
    /// field name.
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
    /// The condition with its values put in, for the working in words (boxed: an atom is
    /// moved about as it is made).
    pub work: Option<Box<Work>>,
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
    /// Which read of the program's it is: its path and type (see [`FactUse::path`]).
    pub read: ReadId,
    pub value: Value,
}

impl FactUse {
    /// Its path (`player.masterpoints`) in `p`, the program ruled with.
    pub fn path<'p>(&self, p: &'p Program) -> &'p str {
        super::reads::paths(p).get(self.read).map_or("", |r| &r.path)
    }

    /// Its type in `p`, the program ruled with.
    pub fn ty<'p>(&self, p: &'p Program) -> &'p Type {
        super::reads::paths(p).get(self.read).map_or(&Type::Bool, |r| &r.ty)
    }
}

/// All nodes of one ruling's evaluation; the root is the ruling itself.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub nodes: Vec<Node>,
}

thread_local! {
    /// What the last trace dropped on this thread leaves for the next: the room for its
    /// nodes, empty, and its nodes' lists, emptied but with their room, so that a ruling
    /// traced on a thread allocates little for its trace. A trace's nodes and their lists
    /// take a few kilobytes in many small blocks, which the allocator hands out and takes
    /// back more slowly than the rest of a ruling.
    static SPARE: std::cell::Cell<(Vec<Node>, Lists)> = std::cell::Cell::new((Vec::new(), Lists::default()));
}

/// Emptied lists of trace nodes, each with its room, for the nodes of the next trace.
#[derive(Default)]
pub(crate) struct Lists {
    args: Vec<Vec<Value>>,
    not_applied: Vec<Vec<(RuleId, WhyNot)>>,
    facts: Vec<Vec<FactUse>>,
    children: Vec<Vec<usize>>,
    /// Boxes of workings, each holding an empty leaf (the boxes themselves are what is kept).
    #[allow(clippy::vec_box)]
    works: Vec<Box<Work>>,
}

impl Lists {
    /// The most lists of a kind kept, and the most room of one.
    const KEPT: usize = 64;
    const ROOM: usize = 16;
    /// The most boxes of workings kept.
    const KEPT_WORKS: usize = 64;

    /// Keeps `v`'s room (emptied), if it has any worth keeping.
    fn keep<T>(pool: &mut Vec<Vec<T>>, mut v: Vec<T>) {
        if v.capacity() == 0 || v.capacity() > Self::ROOM || pool.len() >= Self::KEPT {
            return;
        }
        v.clear();
        pool.push(v);
    }

    /// `w` in a box: one kept from an earlier trace where there is one.
    pub(crate) fn boxed(&mut self, w: Work) -> Box<Work> {
        match self.works.pop() {
            Some(mut b) => {
                *b = w;
                b
            }
            None => Box::new(w),
        }
    }

    /// Keeps the boxes of working `b` and of the workings within it, each left holding an
    /// empty leaf (what they held is dropped as it would have been).
    fn keep_work(&mut self, mut b: Box<Work>) {
        if self.works.len() >= Self::KEPT_WORKS {
            return;
        }
        self.keep_within(std::mem::replace(&mut b.kind, WorkKind::Leaf));
        b.value = None;
        b.ty = Type::Bool;
        self.works.push(b);
    }

    /// Keeps the boxes within a working of kind `k`.
    fn keep_within(&mut self, k: WorkKind) {
        match k {
            WorkKind::Neg(x) | WorkKind::Not(x) | WorkKind::Round(_, x) | WorkKind::Map(x) | WorkKind::Size(x) => {
                self.keep_work(x)
            }
            WorkKind::Binary(_, a, b) | WorkKind::InList(a, b) | WorkKind::If(a, b) => {
                self.keep_work(a);
                self.keep_work(b);
            }
            WorkKind::InRange { x, lo, hi, .. } => {
                self.keep_work(x);
                lo.into_iter().chain(hi).for_each(|w| self.keep_work(w));
            }
            WorkKind::Clamp(_, xs) => xs.into_iter().for_each(|w| self.keep_within(w.kind)),
            WorkKind::Record(_, xs) => xs.into_iter().for_each(|(_, w)| self.keep_within(w.kind)),
            _ => {}
        }
    }

    /// Keeps the boxes of the workings of `atoms`.
    fn keep_atoms(&mut self, atoms: &mut [Atom]) {
        for a in atoms {
            if let Some(w) = a.work.take() {
                self.keep_work(w);
            }
        }
    }

    /// Keeps the lists of a node that most nodes fill as the ruling goes (a deciding rule's
    /// reasons and the rules it overrode are made whole and set), taken out of it in place,
    /// and the boxes of its workings.
    fn keep_node(&mut self, n: &mut Node) {
        if let Some(w) = n.working.take() {
            self.keep_work(w);
        }
        self.keep_atoms(&mut n.because);
        for (_, why) in &mut n.not_applied {
            if let WhyNot::Condition(atoms) = why {
                self.keep_atoms(atoms);
            }
        }
        Self::keep(&mut self.args, std::mem::take(&mut n.args));
        Self::keep(&mut self.not_applied, std::mem::take(&mut n.not_applied));
        Self::keep(&mut self.facts, std::mem::take(&mut n.facts));
        Self::keep(&mut self.children, std::mem::take(&mut n.children));
    }

    /// Adds `other`'s lists.
    fn merge(&mut self, other: Lists) {
        fn more<T>(a: &mut Vec<Vec<T>>, b: Vec<Vec<T>>) {
            if a.is_empty() {
                *a = b;
            } else {
                a.extend(b);
                a.truncate(Lists::KEPT);
            }
        }
        more(&mut self.args, other.args);
        more(&mut self.not_applied, other.not_applied);
        more(&mut self.facts, other.facts);
        more(&mut self.children, other.children);
        if self.works.is_empty() {
            self.works = other.works;
        } else {
            self.works.extend(other.works);
            self.works.truncate(Lists::KEPT_WORKS);
        }
    }
}

impl Node {
    /// A node for `def` on `args`, its lists taken from `spare` where it has some.
    pub(crate) fn fresh(def: DefId, args: &[Value], spare: &mut Lists) -> Node {
        let mut a = if args.is_empty() { Vec::new() } else { spare.args.pop().unwrap_or_default() };
        a.extend_from_slice(args);
        Node {
            def,
            args: a,
            outcome: Outcome::Undetermined(Vec::new()),
            decided_by: None,
            also: Vec::new(),
            row: None,
            overridden: Vec::new(),
            not_applied: spare.not_applied.pop().unwrap_or_default(),
            because: Vec::new(),
            working: None,
            facts: spare.facts.pop().unwrap_or_default(),
            decisions: Vec::new(),
            children: spare.children.pop().unwrap_or_default(),
        }
    }
}

impl Trace {
    /// Room for the steps of most rulings kept on this thread from the last trace dropped.
    const ROOM: usize = 16;
    /// The most nodes whose room is kept for the next trace.
    const KEPT: usize = 64;

    /// An empty trace with room for the steps of most rulings, so that the nodes are not
    /// moved as they grow, and the emptied lists of the last trace on this thread.
    pub(crate) fn new() -> (Trace, Lists) {
        let (nodes, spare) = SPARE.try_with(|s| s.take()).unwrap_or_default();
        let nodes = if nodes.capacity() < Self::ROOM { Vec::with_capacity(Self::ROOM) } else { nodes };
        (Trace { nodes }, spare)
    }

    /// Gives emptied lists not used by a ruling back to this thread.
    pub(crate) fn give_back(spare: Lists) {
        let _ = SPARE.try_with(|s| {
            let (room, mut kept) = s.take();
            kept.merge(spare);
            s.set((room, kept));
        });
    }
}

impl Drop for Trace {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        if nodes.capacity() > Self::KEPT {
            return;
        }
        // A thread being torn down keeps no spare.
        let _ = SPARE.try_with(|s| {
            let (room, mut kept) = s.take();
            for n in &mut nodes {
                kept.keep_node(n);
            }
            nodes.clear();
            let room = if nodes.capacity() >= Self::ROOM { nodes } else { room };
            s.set((room, kept));
        });
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
    FactPath(FactId, ReadId),
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
        /// When the condition compares a field of each item (`t => t.victory_points > own`):
        /// how the field is named, its type, and each item's value of it.
        compared: Option<Box<(KeyName, Type, Vec<Option<Value>>)>>,
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
        /// How the key is named (a column's header).
        key_name: KeyName,
        places: Option<Value>,
    },
    /// `apportion`: the seats, the items with their weights.
    Apportion {
        seats: Value,
        items: Vec<(Value, Value)>,
        elem: Type,
        /// How the weight is named (a column's header).
        weight: KeyName,
    },
    /// `let x = v in body` where `v` orders or shares a list: the working of `v` (its table),
    /// then the body's.
    Let(Box<Work>, Box<Work>),
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
        /// Each key: how it is named, its type, and its value for each item, where it was
        /// worked out (`None`: the item was already separated by the keys before).
        keys: Vec<(KeyName, Type, Vec<Option<Value>>)>,
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
