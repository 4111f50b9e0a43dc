//! The compiled evaluator: the checked [`Program`] lowered once per rulebook to a form
//! built for deciding, not for explaining.
//!
//! What it owns: [`Compiled`] (every rule, table and expression of the program as a tree
//! of [`Node`]s with local slots resolved to offsets in one value stack, fact field paths
//! fused, constant lists kept built), the index of each definition's rules by the constant
//! pattern of its first parameter (a call of `eligible(B)` looks only at the rules that can
//! match `B`), and [`rule`], which decides one ruling with it.
//!
//! What it does not do: build explanation data. It keeps no trace, names no needed input
//! and words no error; a stop is one of two bare signals ([`run::Stop`]): *unknown* (some
//! input is missing; three-valued logic and aggregates absorb it exactly as the
//! interpreter does) or *halt* (silence, an error in the rulebook, a limit). When a ruling
//! ends in either, [`rule`] rules it again with the interpreter ([`super::interp`]), which
//! names what is needed, where the conditions are silent, or what went wrong. So the two
//! always give the same answer for such rulings, and the compiled one only has to agree
//! on the decided ones: the same rules in the same order, the same three-valued logic,
//! the same exact numbers ([`super::num`], whose whole-number operations skip the
//! rational arithmetic), the same step and depth limits. `tests/agreement.rs` checks it on
//! every case file and on generated facts.
//!
//! The hot path allocates nothing per call: arguments and frames live on one reusable
//! value stack ([`Scratch`]), results of definitions without parameters are memoised in
//! a table indexed by definition and cleared by a generation counter; only values a
//! ruling builds (lists, records) allocate.
//!
//! ## Adding a language construct
//! Every match over [`IrKind`], [`Builtin`] and `Kind` here is exhaustive, so a new
//! expression or builtin does not compile until it is handled:
//! 1. add a `Kind` variant (or reuse one) and lower the new [`IrKind`] to it in
//!    `Lower::node`, counting the interpreter's evaluation steps in `cost`;
//! 2. evaluate it in `run.rs` (`Run::eval`; builtins in `builtins.rs`) with the
//!    interpreter's semantics: which operands are evaluated in which order, which stops
//!    are absorbed (unknown) and which propagate (halt);
//! 3. if it cannot decide cheaply, evaluate it to [`run::Stop::Halt`]: the interpreter then
//!    rules instead, always correctly, only slower;
//! 4. add a case file using it: `tests/agreement.rs` compares both evaluators on it.

mod builtins;
mod held;
mod order;
mod run;

use super::interp::{Inputs, matches_pattern};
use super::value::Value;
use super::{Outcome, Ruling};
use crate::check::program::*;
use crate::check::types::Type;
use crate::syntax::ast::{BinaryOp, Policy};
use std::sync::{Arc, OnceLock};

pub use run::{Scratch, Stop};

/// One compiled expression.
#[derive(Clone, Debug)]
pub struct Node {
    pub(crate) kind: Kind,
    /// The evaluation steps the interpreter counts for it (see [`Node::cost`]).
    steps: u32,
    /// For a list: whether its items are all held by the program or the inputs, so that
    /// an aggregate can read references to them (see [`refs_able`]).
    pub(crate) refs: bool,
}

/// The compiled expressions: the interpreter's [`IrKind`] with slots and fact paths
/// resolved, spans and types dropped.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Const(Value),
    Local(u32),
    Fact(FactId),
    /// `fact.a.b`: a fact's record fields followed without copying the records.
    FactPath(FactId, Box<[u32]>),
    /// `x.a.b` on a local (a parameter, a lambda's item): the same, on the value stack.
    LocalPath(u32, Box<[u32]>),
    Decision(DecisionId),
    Call(DefId, Box<[Node]>),
    /// A call of a definition with one enum parameter whose rules, once picked by the
    /// argument's variant, are at most one without exceptions and read no local: the rule
    /// of the variant (by index) evaluated in place, without a frame (see `Lower::dispatch`).
    Dispatch(Box<Node>, Box<[Option<RuleId>]>),
    /// A call of a definition with parameters whose one rule has no exceptions and no
    /// patterns (`spillere_bosat_i(b)`): the arguments pushed (lent when held, see
    /// `Run::call_one`), the rule's guard and value evaluated in a frame of the
    /// definition's size, without the memo or the rule tree.
    CallOne(DefId, RuleId, Box<[Node]>),
    /// `filter(L, x => d(x))` over a constant list of enum values with a dispatched body
    /// (`filter(Flight, f => eligible(f))`): unrolled when compiled, each item with the
    /// rule its variant picks (`None`: no rule, a halt) and the steps the lambda's body and
    /// its argument count for each item; the result list built at its final size.
    FilterDispatch(Box<Unrolled>),
    /// A comparison of two operands resolved at compile time to where their values are
    /// held (constants, locals, facts and fields of them): read in place, compared at once.
    Cmp(BinaryOp, Box<(Node, Node)>),
    Field(Box<Node>, u32),
    List(Box<[Node]>),
    Record(TypeId, Box<[Option<Node>]>),
    Not(Box<Node>),
    Neg(Box<Node>),
    Binary(BinaryOp, Box<Node>, Box<Node>),
    /// `a + b`, `a - b` or `a * b` of two numbers (their types say so): computed on the
    /// numbers, with operands already held read in place, and no value built between.
    Arith(BinaryOp, Box<Node>, Box<Node>),
    InRange {
        x: Box<Node>,
        lo: Option<Box<Node>>,
        hi: Option<Box<Node>>,
        inclusive: bool,
    },
    InList(Box<Node>, Box<Node>),
    If(Box<Node>, Box<Node>, Box<Node>),
    Let(u32, Box<Node>, Box<Node>),
    Builtin(Builtin, Box<[Node]>, Option<(u32, Box<Node>)>),
    Draw(DecisionId, Box<Node>, Option<Box<Node>>),
    Order(Box<OrderNode>),
}

/// [`Kind::FilterDispatch`]: the items with their rules, the steps of each item, and the
/// result lists, built once for each set of items kept (for lists of up to
/// [`UNROLLED_CACHED`] items) and shared from then on.
#[derive(Clone, Debug)]
pub(crate) struct Unrolled {
    pub(crate) items: Box<[(Value, Option<RuleId>)]>,
    pub(crate) each: u32,
    /// Indexed by the set of items kept (bit `i` for item `i`); empty for longer lists.
    pub(crate) lists: Box<[OnceLock<Arc<[Value]>>]>,
}

/// The longest list whose results [`Unrolled`] keeps.
const UNROLLED_CACHED: usize = 6;

/// `sort …` / `rank …` compiled.
#[derive(Clone, Debug)]
pub(crate) struct OrderNode {
    pub(crate) rank: bool,
    pub(crate) list: Node,
    pub(crate) item: u32,
    pub(crate) keys: Box<[order::Key]>,
    pub(crate) among: Option<(u32, Box<[order::Key]>)>,
}

#[derive(Clone, Debug)]
pub(crate) struct CRule {
    /// Patterns that bind nothing, checked before any frame is touched: (parameter, pattern).
    pub(crate) plain: Box<[(usize, PatIr)]>,
    /// Patterns that bind (matched after the plain ones).
    pub(crate) binding: Box<[(usize, PatIr)]>,
    pub(crate) guard: Option<Node>,
    pub(crate) value: Node,
    pub(crate) exceptions: Box<[RuleId]>,
    /// For a rule of a definition without parameters that stands in more than one rule
    /// tree (an exception to several rules, as `vest_for_storebælt` is to `beregning` and
    /// to `uden_for_danmark`): its place in the table of rule results kept for one ruling,
    /// so that its guard and value are evaluated once.
    pub(crate) memo: Option<u32>,
}

#[derive(Clone, Debug)]
pub(crate) struct CTable {
    pub(crate) policy: Policy,
    pub(crate) rows: Box<[(Box<[PatIr]>, Node)]>,
}

#[derive(Clone, Debug)]
pub(crate) struct CDef {
    pub(crate) params: u32,
    /// Slots of the largest frame among its rules (or rows).
    pub(crate) frame: u32,
    /// The rules that are exceptions to none, in the rulebook's order.
    pub(crate) top: Box<[RuleId]>,
    /// When the first parameter is an enum: for each variant, the rules of `top` whose
    /// exception tree can match it (the others would not apply, without evaluating anything).
    pub(crate) by_first: Option<Box<[Box<[RuleId]>]>>,
    pub(crate) table: Option<CTable>,
    /// For a definition without parameters with a single rule that has no exceptions and
    /// needs no local slot: that rule, evaluated in the caller's frame.
    pub(crate) in_place: Option<RuleId>,
}

/// A program compiled for evaluation (see the module documentation).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub(crate) defs: Box<[CDef]>,
    pub(crate) rules: Box<[CRule]>,
    /// How many rules keep their result for the ruling ([`CRule::memo`]).
    pub(crate) rule_memos: u32,
}

/// The compiled form of a program, built on first use and kept with it. A copy of the
/// program starts without one (it is rebuilt if used), so that a changed copy never runs
/// a stale compilation.
#[derive(Default)]
pub struct Cache(OnceLock<Arc<Compiled>>);

impl Clone for Cache {
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.get().is_some() { "Cache(compiled)" } else { "Cache(empty)" })
    }
}

/// The program's compiled form, compiled on first use.
pub fn compiled(p: &Program) -> &Compiled {
    p.compiled.0.get_or_init(|| Arc::new(Compiled::new(p)))
}

/// Rules on `def` with the compiled evaluator; a ruling it cannot decide is ruled again
/// by the interpreter, which names what it waits for (or why it cannot rule). Never
/// traced: for explanations use [`super::rule`] with `explain`.
pub fn rule(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Ruling {
    let decided = (inputs.facts.len() == p.facts.len() && inputs.decisions.len() == p.decisions.len())
        .then(|| {
            let mut run = run::Run::new(compiled(p), inputs, scratch);
            run.ruling(def).ok().map(|v| (v, run.steps()))
        })
        .flatten();
    match decided {
        Some((v, steps)) => Ruling { def, outcome: Outcome::Decided(v), trace: None, steps },
        None => super::rule(p, inputs, def, false),
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// [`rule`] with this thread's scratch buffers: what callers without an evaluator of
/// their own use (a batch worker, the search for needed inputs).
pub fn rule_here(p: &Program, inputs: &Inputs, def: DefId) -> Ruling {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => rule(p, inputs, def, &mut s),
        Err(_) => rule(p, inputs, def, &mut Scratch::default()),
    })
}

/// The decided value of `def`, or `None` when the compiled evaluator stops (missing
/// input, silence, an error, a limit).
pub fn decide(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Option<Value> {
    evaluate(p, inputs, def, scratch).ok()
}

/// The compiled evaluator's own result: a value, or why it stopped. An
/// [`Stop::Unknown`] is always an undetermined ruling; a [`Stop::Halt`] may be anything
/// the interpreter finds.
pub fn evaluate(p: &Program, inputs: &Inputs, def: DefId, scratch: &mut Scratch) -> Result<Value, Stop> {
    if inputs.facts.len() != p.facts.len()
        || inputs.decisions.len() != p.decisions.len()
        || def as usize >= p.defs.len()
    {
        return Err(Stop::Halt);
    }
    run::Run::new(compiled(p), inputs, scratch).ruling(def)
}

impl Compiled {
    /// Compiles a checked program.
    pub fn new(p: &Program) -> Compiled {
        let l = Lower { p };
        let mut rules: Box<[CRule]> = p.rules.iter().map(|r| l.rule(r)).collect();
        let defs: Box<[CDef]> = p.defs.iter().map(|d| l.def(d)).collect();
        // Rules reached from more than one place of the rule trees (several rules' exception,
        // or a top rule that is also an exception) keep their result within a ruling when
        // their definition has no parameters (so the result is the same wherever reached).
        let mut reached = vec![0u32; rules.len()];
        for r in p.rules.iter() {
            for &e in &r.exceptions {
                reached[e as usize] += 1;
            }
        }
        for d in defs.iter() {
            for &r in d.top.iter() {
                reached[r as usize] += 1;
            }
        }
        let mut rule_memos = 0;
        for (i, rule) in rules.iter_mut().enumerate() {
            if reached[i] > 1 && p.defs[p.rules[i].def as usize].params.is_empty() {
                rule.memo = Some(rule_memos);
                rule_memos += 1;
            }
        }
        Compiled { defs, rules, rule_memos }
    }
}

struct Lower<'p> {
    p: &'p Program,
}

/// Whether a pattern binds a name (and so needs a frame to match in).
fn binds(p: &PatIr) -> bool {
    match p {
        PatIr::Bind(_) => true,
        PatIr::Alts(xs) => xs.iter().any(binds),
        PatIr::Any | PatIr::Equals(_) | PatIr::Range { .. } => false,
    }
}

impl Lower<'_> {
    fn rule(&self, r: &RuleInfo) -> CRule {
        let mut plain = Vec::new();
        let mut binding = Vec::new();
        for (i, pat) in r.patterns.iter().enumerate() {
            match pat {
                PatIr::Any => {}
                _ if binds(pat) => binding.push((i, pat.clone())),
                _ => plain.push((i, pat.clone())),
            }
        }
        CRule {
            plain: plain.into(),
            binding: binding.into(),
            guard: r.guard.as_ref().map(|g| self.node(g)),
            value: self.node(&r.value),
            exceptions: r.exceptions.clone().into(),
            memo: None,
        }
    }

    fn def(&self, d: &DefInfo) -> CDef {
        let p = self.p;
        let mut frame = d.params.len() as u32;
        for &r in &d.rules {
            frame = frame.max(p.rules[r as usize].frame);
        }
        if let Some(t) = &d.table {
            frame = frame.max(t.frame);
        }
        let top: Vec<RuleId> = d.rules.iter().copied().filter(|&r| p.rules[r as usize].overrides.is_empty()).collect();
        let by_first = match d.params.first().map(|(_, t)| t) {
            Some(Type::Enum(t)) if d.table.is_none() => match &p.types[*t as usize].kind {
                TypeKind::Enum(vs) => Some(
                    (0..vs.len() as u32)
                        .map(|v| {
                            let arg = Value::Enum(*t, v);
                            top.iter().copied().filter(|&r| self.may_match(r, &arg)).collect::<Box<[RuleId]>>()
                        })
                        .collect(),
                ),
                TypeKind::Record(_) => None,
            },
            _ => None,
        };
        let table = d.table.as_ref().map(|t| CTable {
            policy: t.policy,
            rows: t.rows.iter().map(|row| (row.keys.clone().into(), self.node(&row.value))).collect(),
        });
        let in_place = match top.as_slice() {
            [r] if d.params.is_empty() && d.table.is_none() => {
                let rule = &p.rules[*r as usize];
                (rule.exceptions.is_empty() && rule.frame == 0).then_some(*r)
            }
            _ => None,
        };
        CDef { params: d.params.len() as u32, frame, top: top.into(), by_first, table, in_place }
    }

    /// For a definition of one enum parameter and no table: each variant's one candidate
    /// rule (see [`CDef::by_first`]), when no variant has more than one, none has
    /// exceptions, none binds its parameter and none reads a local slot (so it needs no
    /// frame); `None` otherwise.
    fn dispatch(&self, def: DefId) -> Option<Box<[Option<RuleId>]>> {
        let p = self.p;
        let d = &p.defs[def as usize];
        let ([(_, Type::Enum(t))], None) = (d.params.as_slice(), &d.table) else { return None };
        let TypeKind::Enum(vs) = &p.types[*t as usize].kind else { return None };
        let top: Vec<RuleId> = d.rules.iter().copied().filter(|&r| p.rules[r as usize].overrides.is_empty()).collect();
        (0..vs.len() as u32)
            .map(|v| {
                let arg = Value::Enum(*t, v);
                let mut candidates = top.iter().copied().filter(|&r| self.may_match(r, &arg));
                let first = candidates.next();
                if candidates.next().is_some() {
                    return Err(());
                }
                match first {
                    None => Ok(None),
                    Some(r) => {
                        let rule = &p.rules[r as usize];
                        let frameless = rule.exceptions.is_empty()
                            && !rule.patterns.iter().any(binds)
                            && !rule.guard.as_ref().is_some_and(reads_locals)
                            && !reads_locals(&rule.value);
                        if frameless { Ok(Some(r)) } else { Err(()) }
                    }
                }
            })
            .collect::<Result<Box<[Option<RuleId>]>, ()>>()
            .ok()
    }

    /// For a definition with parameters and no table whose one rule has no exceptions and
    /// matches every argument without binding (`spillere_bosat_i(b: text) = count(…)`):
    /// that rule (see [`Kind::CallOne`]).
    fn call_one(&self, def: DefId) -> Option<RuleId> {
        let p = self.p;
        let d = &p.defs[def as usize];
        if d.params.is_empty() || d.table.is_some() {
            return None;
        }
        let [r] = d.rules.as_slice() else { return None };
        let rule = &p.rules[*r as usize];
        (rule.exceptions.is_empty()
            && rule.overrides.is_empty()
            && rule.patterns.iter().all(|pat| matches!(pat, PatIr::Any)))
        .then_some(*r)
    }

    /// For a definition without parameters whose one rule, without guard or exceptions,
    /// reads a fact (or a field of one) or is a constant (`cutoff_masterpoints =
    /// player.masterpoints`): that value. A call of it is compiled to reading the fact in
    /// place, as if written there (no call, no memo, no copy).
    fn alias(&self, def: DefId) -> Option<&Ir> {
        let p = self.p;
        let d = &p.defs[def as usize];
        if !d.params.is_empty() || d.table.is_some() {
            return None;
        }
        let [r] = d.rules.as_slice() else { return None };
        let rule = &p.rules[*r as usize];
        let place = fact_path(&rule.value).is_some() || matches!(rule.value.kind, IrKind::Const(_));
        (rule.exceptions.is_empty() && rule.overrides.is_empty() && rule.guard.is_none() && rule.frame == 0 && place)
            .then_some(&rule.value)
    }

    /// Whether rule `r` or one of its exceptions (at any depth) can match `arg` as its
    /// first argument.
    fn may_match(&self, r: RuleId, arg: &Value) -> bool {
        let rule = &self.p.rules[r as usize];
        let own = rule.patterns.first().is_none_or(|pat| binds(pat) || matches_pattern(pat, arg, &mut []));
        own || rule.exceptions.iter().any(|&e| self.may_match(e, arg))
    }

    fn boxed(&self, ir: &Ir) -> Box<Node> {
        Box::new(self.node(ir))
    }

    fn nodes(&self, irs: &[Ir]) -> Box<[Node]> {
        irs.iter().map(|a| self.node(a)).collect()
    }

    fn node(&self, ir: &Ir) -> Node {
        let kind = match &ir.kind {
            IrKind::Const(v) => Kind::Const(v.clone()),
            IrKind::Local(s) => Kind::Local(*s),
            IrKind::Fact(f) => Kind::Fact(*f),
            IrKind::Decision(d) => Kind::Decision(*d),
            IrKind::Call(d, args) if args.is_empty() && self.alias(*d).is_some() => {
                if let Some(value) = self.alias(*d) {
                    // The call's own step, then the rule's value, at every call: no fewer
                    // steps than the interpreter counts.
                    let mut n = self.node(value);
                    n.steps += 1;
                    return n;
                }
                Kind::Call(*d, Box::new([]))
            }
            IrKind::Call(d, args) => match (args.as_slice(), self.dispatch(*d), self.call_one(*d)) {
                ([arg], Some(by), _) => Kind::Dispatch(self.boxed(arg), by),
                (_, None, Some(r)) if !args.is_empty() => Kind::CallOne(*d, r, self.nodes(args)),
                _ => Kind::Call(*d, self.nodes(args)),
            },
            IrKind::Field(x, i) => match (fact_path(ir), local_path(ir)) {
                (Some((f, path)), _) => Kind::FactPath(f, path.into()),
                (None, Some((slot, path))) => Kind::LocalPath(slot, path.into()),
                (None, None) => Kind::Field(self.boxed(x), *i),
            },
            IrKind::List(xs) => {
                let items = self.nodes(xs);
                if items.iter().all(|x| matches!(x.kind, Kind::Const(_))) {
                    // A list of constants is built once; it costs the steps of building it.
                    let values: Vec<Value> = items
                        .iter()
                        .filter_map(|x| if let Kind::Const(v) = &x.kind { Some(v.clone()) } else { None })
                        .collect();
                    let steps = 1 + items.iter().map(|x| x.steps).sum::<u32>();
                    return Node { kind: Kind::Const(Value::list(values)), steps, refs: true };
                }
                Kind::List(items)
            }
            IrKind::Record(t, xs) => Kind::Record(*t, xs.iter().map(|x| x.as_ref().map(|x| self.node(x))).collect()),
            IrKind::Not(x) => Kind::Not(self.boxed(x)),
            IrKind::Neg(x) => Kind::Neg(self.boxed(x)),
            IrKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b)
                if numeric(&a.ty) && numeric(&b.ty) =>
            {
                Kind::Arith(*op, self.boxed(a), self.boxed(b))
            }
            IrKind::Binary(
                op @ (BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
                a,
                b,
            ) => {
                let (a, b) = (self.node(a), self.node(b));
                if held(&a) && held(&b) {
                    Kind::Cmp(*op, Box::new((a, b)))
                } else {
                    Kind::Binary(*op, Box::new(a), Box::new(b))
                }
            }
            IrKind::Binary(op, a, b) => Kind::Binary(*op, self.boxed(a), self.boxed(b)),
            IrKind::InRange { x, lo, hi, inclusive } => Kind::InRange {
                x: self.boxed(x),
                lo: lo.as_ref().map(|l| self.boxed(l)),
                hi: hi.as_ref().map(|h| self.boxed(h)),
                inclusive: *inclusive,
            },
            IrKind::InList(x, l) => Kind::InList(self.boxed(x), self.boxed(l)),
            IrKind::If(c, t, e) => Kind::If(self.boxed(c), self.boxed(t), self.boxed(e)),
            IrKind::Let(s, v, b) => Kind::Let(*s, self.boxed(v), self.boxed(b)),
            IrKind::Builtin(b, args, lam) => {
                let args = self.nodes(args);
                let lam = lam.as_ref().map(|l| (l.slot, self.boxed(&l.body)));
                if let Some((items, each, list_steps)) = filter_dispatch(*b, &args, lam.as_ref()) {
                    let sets = if items.len() <= UNROLLED_CACHED { 1 << items.len() } else { 0 };
                    let lists = (0..sets).map(|_| OnceLock::new()).collect();
                    // The filter's own step and its list's, counted once; each item's in turn.
                    let kind = Kind::FilterDispatch(Box::new(Unrolled { items, each, lists }));
                    return Node { kind, steps: 1 + list_steps, refs: false };
                }
                Kind::Builtin(*b, args, lam)
            }
            IrKind::Draw(d, cands, n) => Kind::Draw(*d, self.boxed(cands), n.as_ref().map(|n| self.boxed(n))),
            IrKind::Order(o) => {
                let keys = |ks: &[KeyIr]| -> Box<[order::Key]> {
                    ks.iter().map(|k| order::Key { key: self.node(&k.key), descending: k.descending }).collect()
                };
                Kind::Order(Box::new(OrderNode {
                    rank: o.rank,
                    list: self.node(&o.list),
                    item: o.item,
                    keys: keys(&o.keys),
                    among: o.among.as_ref().map(|(slot, ks)| (*slot, keys(ks))),
                }))
            }
        };
        let steps = match &kind {
            Kind::FactPath(_, path) | Kind::LocalPath(_, path) => 1 + path.len() as u32,
            _ => 1,
        };
        let refs = refs_able(&kind);
        Node { kind, steps, refs }
    }
}

/// Whether a list node's items are all held by the program or the inputs, so that an
/// aggregate can read references to them (`Run::refs_into`): a constant or a fact, or
/// `filter`, `distinct` or `map` (whose body reads the item, a field of it, a constant
/// or a fact) over such a list.
fn refs_able(kind: &Kind) -> bool {
    match kind {
        Kind::Const(_) | Kind::Fact(_) | Kind::FactPath(..) => true,
        Kind::Builtin(Builtin::Filter, args, Some(_)) | Kind::Builtin(Builtin::Distinct, args, None) => args[0].refs,
        Kind::Builtin(Builtin::Map, args, Some((slot, body))) => {
            let reads_item = match &body.kind {
                Kind::Const(_) | Kind::Fact(_) | Kind::FactPath(..) => true,
                Kind::Local(s) | Kind::LocalPath(s, _) => s == slot,
                _ => false,
            };
            reads_item && args[0].refs
        }
        _ => false,
    }
}

/// `filter(L, x => d(x))` with `L` a constant list of enum values and `d` dispatched by
/// the item's variant: each item with its rule, the steps of the lambda's body and
/// argument for each item, and the list's steps (see [`Kind::FilterDispatch`]).
#[allow(clippy::type_complexity)]
fn filter_dispatch(
    b: Builtin,
    args: &[Node],
    lam: Option<&(u32, Box<Node>)>,
) -> Option<(Box<[(Value, Option<RuleId>)]>, u32, u32)> {
    let (Builtin::Filter, [list], Some((slot, body))) = (b, args, lam) else { return None };
    let Kind::Const(Value::List(xs)) = &list.kind else { return None };
    let Kind::Dispatch(arg, by) = &body.kind else { return None };
    if !matches!(arg.kind, Kind::Local(s) if s == *slot) {
        return None;
    }
    let items = xs
        .iter()
        .map(|x| match x {
            Value::Enum(_, i) => Some((x.clone(), by.get(*i as usize).copied().flatten())),
            _ => None,
        })
        .collect::<Option<Box<[_]>>>()?;
    Some((items, body.steps + arg.steps, list.steps))
}

/// Whether a compiled node reads a value held where it is (a constant, a local, a fact or
/// a field of one), so that a comparison of two such nodes reads both in place.
pub(crate) fn held(n: &Node) -> bool {
    matches!(n.kind, Kind::Const(_) | Kind::Local(_) | Kind::LocalPath(..) | Kind::Fact(_) | Kind::FactPath(..))
}

/// Whether a type's values are numbers (whole, or with a unit).
fn numeric(t: &Type) -> bool {
    matches!(t, Type::Int | Type::Quantity(_))
}

/// Whether an expression reads or writes a local slot (a parameter, a binding, a `let`,
/// a lambda's item, an ordering's item).
fn reads_locals(ir: &Ir) -> bool {
    let any = |xs: &[Ir]| xs.iter().any(reads_locals);
    match &ir.kind {
        IrKind::Local(_) | IrKind::Let(..) | IrKind::Order(_) | IrKind::Builtin(_, _, Some(_)) => true,
        IrKind::Const(_) | IrKind::Fact(_) | IrKind::Decision(_) => false,
        IrKind::Call(_, args) | IrKind::List(args) | IrKind::Builtin(_, args, None) => any(args),
        IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => reads_locals(x),
        IrKind::Record(_, xs) => xs.iter().flatten().any(reads_locals),
        IrKind::Binary(_, a, b) | IrKind::InList(a, b) => reads_locals(a) || reads_locals(b),
        IrKind::InRange { x, lo, hi, .. } => {
            reads_locals(x) || lo.as_deref().is_some_and(reads_locals) || hi.as_deref().is_some_and(reads_locals)
        }
        IrKind::If(c, t, e) => reads_locals(c) || reads_locals(t) || reads_locals(e),
        IrKind::Draw(_, c, n) => reads_locals(c) || n.as_deref().is_some_and(reads_locals),
    }
}

/// `fact.a.b` as the fact and the field indices in the order followed (`[a, b]`).
fn fact_path(ir: &Ir) -> Option<(FactId, Vec<u32>)> {
    match &ir.kind {
        IrKind::Fact(f) => Some((*f, Vec::new())),
        IrKind::Field(inner, i) => {
            let (f, mut path) = fact_path(inner)?;
            path.push(*i);
            Some((f, path))
        }
        _ => None,
    }
}

/// `x.a.b` on a local slot as the slot and the field indices in the order followed.
fn local_path(ir: &Ir) -> Option<(u32, Vec<u32>)> {
    match &ir.kind {
        IrKind::Local(s) => Some((*s, Vec::new())),
        IrKind::Field(inner, i) => {
            let (s, mut path) = local_path(inner)?;
            path.push(*i);
            Some((s, path))
        }
        _ => None,
    }
}

impl Node {
    /// How many evaluation steps the interpreter counts for this node itself.
    pub(crate) fn cost(&self) -> u64 {
        u64::from(self.steps)
    }
}
