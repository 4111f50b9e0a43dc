//! The working of a value, for the explanation: the deciding rule's expression
//! re-read quietly with every sub-expression's value put in ([`Work`]), so that
//! an explanation can show `374.8 km × 2.00 DKK per km + DKK 125 − DKK 400`,
//! name a rounding or a clamp, list the rows of a ranking or an apportionment.
//! Only built when tracing; the evaluation proper never reads it.

use super::interp::{Halt, Interp, MAX_STEPS, R, compare};
use super::trace::{KeyName, Work, WorkKind};
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::builtins_table::{Kind, Special};
use crate::check::program::{Builtin, Ir, IrKind, Lambda, OrderIr, RuleId};
use crate::check::types::Type;
use crate::syntax::ast::BinaryOp;
use std::cmp::Ordering;

/// Most evaluation steps the working of one value may take.
const WORK_BUDGET: u64 = 200_000;

/// What a builtin of a step's rule found as the ruling evaluated it ([`Interp::keeps`]): its
/// value and, for one that goes over a list with a lambda, the items and each one's result,
/// so that the step's working need not evaluate them again.
pub(crate) struct Seen {
    /// The builtin's place in the program (its address, which identifies it within the
    /// rule while the ruling runs).
    pub ir: usize,
    pub value: Option<Value>,
    pub items: Option<Items>,
    /// The evaluation steps it took (no fewer than evaluating it again takes, since the
    /// definitions it called are then remembered).
    pub steps: u64,
}

/// A list a builtin went over and the lambda's result for each item (`None`: undetermined).
pub(crate) type Items = (std::sync::Arc<[Value]>, Vec<Option<Value>>);

/// How a key is named: by the definition it calls, the field it reads, else its number.
fn key_name(key: &Ir, k: usize) -> KeyName {
    match &key.kind {
        IrKind::Call(d, _) => KeyName::Def(*d),
        IrKind::Field(inner, i) => match &inner.ty {
            Type::Record(t) => KeyName::Field(*t, *i),
            _ => KeyName::Nth(k + 1),
        },
        _ => KeyName::Nth(k + 1),
    }
}

/// Whether the working of `ir` can say more than its value: a constant, an input, a local,
/// another definition (its own step explains it), a draw, a list written out and a builtin the
/// working does not take apart are shown by their value alone (their working's sentences are
/// none), so their working is not worked out for a rule's value.
fn shows_working(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Const(_)
        | IrKind::Local(_)
        | IrKind::Fact(_)
        | IrKind::Field(..)
        | IrKind::Decision(_)
        | IrKind::Call(..)
        | IrKind::List(_)
        | IrKind::Draw(..) => false,
        IrKind::Builtin(b, args, lam) => match b.kind() {
            Kind::Number(_) => args.len() == 1,
            // Shown by its value: its function's result.
            Kind::Values(_) => false,
            Kind::Special(s) => special_shows_working(s, args, lam.is_some()),
        },
        _ => true,
    }
}

/// Whether `ir` orders or shares a list (`top`, `most`, `least`, `apportion`, `rank`, `sort`):
/// its working is a table.
fn is_ordering(ir: &Ir) -> bool {
    match &ir.kind {
        IrKind::Order(_) => true,
        IrKind::Builtin(b, ..) => {
            matches!(b, Builtin::Top | Builtin::Most | Builtin::Least | Builtin::Apportion) && shows_working(ir)
        }
        _ => false,
    }
}

/// [`shows_working`] for a special form's call.
fn special_shows_working(s: Special, args: &[Ir], lam: bool) -> bool {
    use Special::*;
    match s {
        Count => !args.is_empty() && (lam || args.len() == 1),
        Filter | All | Any | Sum | Map => !args.is_empty(),
        Top | Most | Least => !args.is_empty() && lam,
        Apportion => args.len() >= 2 && lam,
        Min | Max => args.len() > 1,
        Draw | Choose | Distinct | Contains | First | Only | Concat | At | Position | Place | Quotient => false,
    }
}

/// The type of a list's items.
fn elem(ty: &Type) -> Type {
    match ty {
        Type::List(t) => (**t).clone(),
        t => t.clone(),
    }
}

impl Interp<'_> {
    /// The working of rule `r`'s value for `args`, when there is more to it than a constant.
    pub(crate) fn working_of(&mut self, r: RuleId, args: &[Value]) -> Option<Work> {
        let p = self.p;
        let rule = &p.rules[r as usize];
        // A truth value is explained by its conditions (the `because` of the node).
        if !shows_working(&rule.value) || rule.value.ty == Type::Bool {
            return None;
        }
        let mut frame = self.frame_for(rule.frame, args);
        for (pat, arg) in rule.patterns.iter().zip(args) {
            super::interp::matches_pattern(pat, arg, &mut frame);
        }
        let w = self.naming_params(r, |me| me.work(&rule.value, &mut frame));
        self.pool.push(frame);
        w
    }

    /// The working of `ir` in `frame`, evaluated quietly (nothing is added to the trace) and
    /// within a budget of its own; `None` when showing it would cost more than the budget.
    /// What the step's builtins found as the ruling evaluated them is taken as found, its
    /// steps counted as they were taken; should that blow the budget, the working is
    /// evaluated again without it, so that the budget counts as for a working evaluated anew.
    /// The steps a working takes anew count against the ruling's own budget ([`MAX_STEPS`]):
    /// a working never takes more than the ruling has left, and a ruling whose explanation
    /// takes it over the budget stops there with an error.
    pub(crate) fn work(&mut self, ir: &Ir, frame: &mut Vec<Value>) -> Option<Work> {
        let saved = self.steps;
        // A working may take its own budget or what the ruling has left, the lesser.
        let budget = WORK_BUDGET.min(MAX_STEPS.saturating_sub(saved));
        let start = MAX_STEPS - budget;
        let mut fresh = false;
        let mut taken = 0;
        loop {
            self.steps = start;
            self.seen_taken = false;
            let w = self.quietly(|me| {
                let from = me.seen_from;
                if fresh {
                    me.seen_from = usize::MAX;
                }
                let w = me.work_inner(ir, frame);
                me.seen_from = from;
                w
            });
            let blown = self.steps > MAX_STEPS;
            // The steps of what the ruling found, taken as found, were counted once already.
            let found = std::mem::take(&mut self.found_steps);
            taken += (self.steps - start).saturating_sub(found);
            if blown && self.seen_taken && !fresh {
                fresh = true;
                continue;
            }
            self.steps = saved.saturating_add(taken);
            if blown && budget < WORK_BUDGET {
                // The ruling's budget, not the working's, ran out: the ruling stops here.
                self.steps = self.steps.max(MAX_STEPS + 1);
            }
            return (!blown).then_some(w);
        }
    }

    /// What the ruling found for builtin `ir` of the step being explained, taken from `seen`
    /// with its steps counted; `None` when it was not kept.
    fn seen_at(&mut self, ir: &Ir) -> Option<Seen> {
        let from = self.seen_from;
        let at = std::ptr::from_ref(ir) as usize;
        let i = from + self.seen.get(from..)?.iter().position(|s| s.ir == at)?;
        let s = &mut self.seen[i];
        let taken = Seen { ir: at, value: s.value.take(), items: s.items.take(), steps: s.steps };
        // Marked taken (an address no builtin has).
        s.ir = 0;
        self.steps += taken.steps;
        self.found_steps += taken.steps;
        self.seen_taken = true;
        Some(taken)
    }

    /// The lambda's result for each item.
    fn lambda_results(&mut self, lam: &Lambda, xs: &[Value], frame: &mut Vec<Value>) -> Vec<R> {
        xs.iter()
            .map(|x| {
                frame[lam.slot as usize] = x.clone();
                self.eval(&lam.body, frame)
            })
            .collect()
    }

    /// For `count` or `filter` whose condition compares a number field of each item with
    /// something (`t => t.victory_points > own`): the field's name, type and value for each item.
    fn compared(
        &mut self,
        b: Builtin,
        l: &Lambda,
        xs: &[Value],
        frame: &mut Vec<Value>,
    ) -> Option<Box<(KeyName, Type, Vec<Option<Value>>)>> {
        if !matches!(b, Builtin::Count | Builtin::Filter) {
            return None;
        }
        let IrKind::Binary(op, a, _) = &l.body.kind else { return None };
        let reads_item = |x: &Ir| matches!(&x.kind, IrKind::Field(inner, _) if matches!(inner.kind, IrKind::Local(s) if s == l.slot));
        // Only numbers: the values that decide (a count of items equal to a name is said by
        // the items counted).
        if !op.is_comparison() || !reads_item(a) || !matches!(a.ty, Type::Int | Type::Quantity(_)) {
            return None;
        }
        let side = Lambda { slot: l.slot, body: Box::new((**a).clone()) };
        let vals = self.lambda_values(&side, xs, frame);
        Some(Box::new((key_name(a, 0), a.ty.clone(), vals)))
    }

    fn lambda_values(&mut self, lam: &Lambda, xs: &[Value], frame: &mut Vec<Value>) -> Vec<Option<Value>> {
        self.lambda_results(lam, xs, frame).into_iter().map(Result::ok).collect()
    }

    fn work_inner(&mut self, ir: &Ir, frame: &mut Vec<Value>) -> Work {
        // An operation on values is worked out from its operands' workings, not evaluated
        // again at every level.
        match &ir.kind {
            IrKind::Binary(op, a, b) => {
                let (a, b) = (self.work_inner(a, frame), self.work_inner(b, frame));
                let value = match op {
                    // As `Interp::binary` decides: the side that decides alone, else both.
                    BinaryOp::And | BinaryOp::Or => {
                        let short = Value::Bool(*op == BinaryOp::Or);
                        match (&a.value, &b.value) {
                            (Some(x), _) if *x == short => Some(short),
                            (_, Some(y)) if *y == short => Some(short),
                            (Some(Value::Bool(_)), Some(Value::Bool(_))) => Some(Value::Bool(*op == BinaryOp::And)),
                            _ => None,
                        }
                    }
                    _ => match (&a.value, &b.value) {
                        (Some(x), Some(y)) => self.apply(*op, x.clone(), y.clone(), ir).ok(),
                        _ => None,
                    },
                };
                self.steps += 1;
                let kind = WorkKind::Binary(*op, self.spare.boxed(a), self.spare.boxed(b));
                return Work { value, ty: ir.ty.clone(), span: ir.span, kind };
            }
            IrKind::Neg(x) | IrKind::Not(x) => {
                let x = self.work_inner(x, frame);
                let value = match (&ir.kind, &x.value) {
                    (IrKind::Neg(_), Some(Value::Num(n))) => n.neg().map(Value::Num),
                    (IrKind::Not(_), Some(Value::Bool(b))) => Some(Value::Bool(!b)),
                    _ => None,
                };
                self.steps += 1;
                let kind = if matches!(ir.kind, IrKind::Neg(_)) {
                    WorkKind::Neg(self.spare.boxed(x))
                } else {
                    WorkKind::Not(self.spare.boxed(x))
                };
                return Work { value, ty: ir.ty.clone(), span: ir.span, kind };
            }
            _ => {}
        }
        if let IrKind::Builtin(b, args, lam) = &ir.kind {
            // What the ruling found for it, unless its working works its value out alone.
            let alone = match b.kind() {
                Kind::Number(_) => args.len() == 1,
                Kind::Values(_) => false,
                Kind::Special(s) => (s == Special::Min || s == Special::Max) && args.len() > 1,
            };
            let mut seen = if alone { None } else { self.seen_at(ir) };
            let (kind, value) = self.builtin_work(*b, args, lam.as_ref(), frame, &mut seen);
            let value = match (value, seen) {
                (Some(v), _) => v,
                (None, Some(s)) => s.value,
                (None, None) => self.eval(ir, frame).ok(),
            };
            return Work { value, ty: ir.ty.clone(), span: ir.span, kind };
        }
        let value = self.eval(ir, frame).ok();
        let boxed = |me: &mut Self, x: &Ir, frame: &mut Vec<Value>| {
            let w = me.work_inner(x, frame);
            me.spare.boxed(w)
        };
        let kind = match &ir.kind {
            IrKind::Fact(f) => WorkKind::Fact(*f),
            IrKind::Field(inner, i) => match (crate::eval::reads::paths(self.p).of_ir(ir), &inner.ty) {
                (Some(r), _) => WorkKind::FactPath(r.fact, r.id),
                (None, Type::Record(t)) => WorkKind::Field(*t, *i),
                _ => WorkKind::Leaf,
            },
            IrKind::Decision(d) => WorkKind::Decision(*d),
            IrKind::Call(d, _) => WorkKind::Def(*d),
            IrKind::InRange { x, lo, hi, inclusive } => WorkKind::InRange {
                x: boxed(self, x, frame),
                lo: lo.as_ref().map(|l| boxed(self, l, frame)),
                hi: hi.as_ref().map(|h| boxed(self, h, frame)),
                inclusive: *inclusive,
            },
            IrKind::InList(x, l) => WorkKind::InList(boxed(self, x, frame), boxed(self, l, frame)),
            IrKind::If(c, t, e) => {
                let cond = boxed(self, c, frame);
                let taken = match cond.value {
                    Some(Value::Bool(true)) => t,
                    _ => e,
                };
                WorkKind::If(cond, boxed(self, taken, frame))
            }
            IrKind::Let(slot, v, body) => {
                // An ordering or a share bound to a name is shown (its table): the body reads
                // it by the name alone.
                if is_ordering(v) {
                    let bound = self.work_inner(v, frame);
                    match &bound.value {
                        Some(x) => frame[*slot as usize] = x.clone(),
                        None => {
                            if let Ok(x) = self.eval(v, frame) {
                                frame[*slot as usize] = x;
                            }
                        }
                    }
                    let body = self.work_inner(body, frame);
                    let (value, ty) = (body.value.clone(), body.ty.clone());
                    let kind = WorkKind::Let(self.spare.boxed(bound), self.spare.boxed(body));
                    return Work { value, ty, span: ir.span, kind };
                }
                if let Ok(x) = self.eval(v, frame) {
                    frame[*slot as usize] = x;
                }
                return self.work_inner(body, frame);
            }
            IrKind::Record(t, fields) => WorkKind::Record(
                *t,
                fields
                    .iter()
                    .enumerate()
                    .filter_map(|(i, f)| f.as_ref().map(|f| (i as u32, self.work_inner(f, frame))))
                    .collect(),
            ),
            IrKind::Order(o) => self.order_work(o, frame),
            IrKind::Local(slot) => match self.params_bound.iter().find(|(s, ..)| s == slot) {
                Some(&(_, d, i)) => WorkKind::Param(d, i),
                None => WorkKind::Leaf,
            },
            _ => WorkKind::Leaf,
        };
        Work { value, ty: ir.ty.clone(), span: ir.span, kind }
    }

    fn order_work(&mut self, o: &OrderIr, frame: &mut Vec<Value>) -> WorkKind {
        let mut worked = super::order::Worked::default();
        let Ok((xs, groups)) = self.order_groups(o, frame, Some(&mut worked)) else { return WorkKind::Leaf };
        let breaks = std::mem::take(&mut worked.breaks);
        let keys = o
            .keys
            .iter()
            .zip(worked.keys)
            .enumerate()
            .map(|(k, (key, vals))| (key_name(&key.key, k), key.key.ty.clone(), vals))
            .collect();
        let among = o.among.as_ref().map_or_else(Vec::new, |(_, ks)| {
            ks.iter().enumerate().map(|(k, key)| (key_name(&key.key, k), key.key.ty.clone())).collect()
        });
        WorkKind::Standings {
            items: xs.to_vec(),
            elem: elem(&o.list.ty),
            keys,
            among,
            breaks,
            groups: groups.iter().map(|g| g.iter().map(|&i| xs[i].clone()).collect()).collect(),
        }
    }

    fn list_of(&mut self, ir: &Ir, frame: &mut Vec<Value>) -> Vec<Value> {
        self.list_or_none(ir, frame).unwrap_or_default()
    }

    /// The items of a list; `None` when it is not known (nor, then, the builtin's value).
    fn list_or_none(&mut self, ir: &Ir, frame: &mut Vec<Value>) -> Option<Vec<Value>> {
        let found = match &ir.kind {
            IrKind::Builtin(..) => self.seen_at(ir).map(|s| s.value),
            _ => None,
        };
        match found {
            Some(Some(Value::List(xs))) => Some(xs.to_vec()),
            Some(_) => None,
            None => match self.eval(ir, frame) {
                Ok(Value::List(xs)) => Some(xs.to_vec()),
                _ => None,
            },
        }
    }

    /// The items of `list` and the lambda's value for each (`None`: not known), as the ruling
    /// found them (`seen`) or evaluated anew; the items are `None` when the list is not known.
    fn items_valued(
        &mut self,
        list: &Ir,
        l: &Lambda,
        frame: &mut Vec<Value>,
        seen: &mut Option<Seen>,
    ) -> (Option<Vec<Value>>, Vec<Option<Value>>) {
        if let Some((xs, vals)) = seen.as_mut().and_then(|s| s.items.take()) {
            return (Some(xs.to_vec()), vals);
        }
        let listed = self.list_or_none(list, frame);
        let vals = self.lambda_values(l, listed.as_deref().unwrap_or_default(), frame);
        (listed, vals)
    }

    /// The working of a builtin's call and, where it follows from the items worked out (as
    /// `builtins::eval` decides it), its value: `Some(value)`; `None` when the call must be
    /// evaluated for it.
    fn builtin_work(
        &mut self,
        b: Builtin,
        args: &[Ir],
        lam: Option<&Lambda>,
        frame: &mut Vec<Value>,
        seen: &mut Option<Seen>,
    ) -> (WorkKind, Option<Option<Value>>) {
        use Special::*;
        let form = match b.kind() {
            Kind::Number(f) => {
                let [x] = args else { return (WorkKind::Leaf, None) };
                let x = self.work_inner(x, frame);
                let value = x.value.as_ref().and_then(Value::as_num).and_then(|n| f(n).ok());
                return (WorkKind::Round(b, self.spare.boxed(x)), Some(value.map(Value::Num)));
            }
            // Shown by its value, which the interpreter gives by the same function.
            Kind::Values(_) => return (WorkKind::Leaf, None),
            Kind::Special(form) => form,
        };
        match (form, args, lam) {
            (Min | Max, xs, _) if xs.len() > 1 => {
                let xs: Vec<Work> = xs.iter().map(|x| self.work_inner(x, frame)).collect();
                let want = if form == Min { Ordering::Less } else { Ordering::Greater };
                let value = xs
                    .iter()
                    .map(|x| x.value.as_ref())
                    .collect::<Option<Vec<&Value>>>()
                    .and_then(|vs| vs.into_iter().reduce(|a, c| if compare(c, a) == Some(want) { c } else { a }))
                    .cloned();
                (WorkKind::Clamp(b, xs), Some(value))
            }
            (Count, [list], None) => {
                let w = self.work_inner(list, frame);
                (WorkKind::Size(self.spare.boxed(w)), None)
            }
            (Count, _, None) => (WorkKind::Leaf, None),
            (Count | Filter | All | Any, [list, ..], Some(l)) => {
                if let Some(s) = seen.as_mut()
                    && let Some((xs, vals)) = s.items.take()
                {
                    // As the ruling found them: its value is the builtin's.
                    let truth = vals.iter().map(|v| v.as_ref().and_then(Value::as_bool));
                    let items = xs.iter().cloned().zip(truth).collect();
                    let value = s.value.take();
                    let compared = self.compared(b, l, &xs, frame);
                    return (WorkKind::Count { builtin: b, items, elem: elem(&list.ty), compared }, Some(value));
                }
                let (listed, results): (_, Vec<Item>) = {
                    let listed = self.list_or_none(list, frame);
                    let results = self.lambda_results(l, listed.as_deref().unwrap_or_default(), frame);
                    (listed, results.into_iter().map(Item::from).collect())
                };
                let known = listed.is_some();
                let xs = listed.unwrap_or_default();
                let value = known.then(|| truth_value(b, &xs, &results)).flatten();
                let truth = results.into_iter().map(|r| match r {
                    Item::Found(v) => v.as_bool(),
                    _ => None,
                });
                let compared = self.compared(b, l, &xs, frame);
                let items = xs.into_iter().zip(truth).collect();
                (WorkKind::Count { builtin: b, items, elem: elem(&list.ty), compared }, Some(value))
            }
            (Filter | All | Any, [list, ..], None) => {
                let xs = self.list_of(list, frame);
                let n = xs.len();
                let items = xs.into_iter().zip(std::iter::repeat_n(Some(true), n)).collect();
                (WorkKind::Count { builtin: b, items, elem: elem(&list.ty), compared: None }, None)
            }
            (Sum, [list, ..], _) => {
                let (listed, vals) = match lam {
                    Some(l) => self.items_valued(list, l, frame, seen),
                    None => {
                        let listed = self.list_or_none(list, frame);
                        let vals = listed.iter().flatten().cloned().map(Some).collect();
                        (listed, vals)
                    }
                };
                let known = listed.is_some();
                let xs = listed.unwrap_or_default();
                let total = || {
                    let mut total = Num::ZERO;
                    for v in &vals {
                        total = total.add(v.as_ref()?.as_num()?)?;
                    }
                    Some(Value::Num(total))
                };
                let value = if known { total() } else { None };
                let of = lam.map_or_else(|| elem(&list.ty), |l| l.body.ty.clone());
                (WorkKind::Sum { items: xs.into_iter().zip(vals).collect(), elem: elem(&list.ty), of }, Some(value))
            }
            (Top | Most | Least, [list, rest @ ..], Some(l)) => {
                if let (Most | Least, Some(s)) = (form, seen.as_mut())
                    && let Some((xs, keys)) = s.items.take()
                {
                    // As the ruling found them: its value is the builtin's.
                    if keys.iter().any(Option::is_none) {
                        return (WorkKind::Leaf, None);
                    }
                    let kind = WorkKind::Ranking {
                        builtin: b,
                        items: xs.iter().cloned().zip(keys.into_iter().flatten()).collect(),
                        elem: elem(&list.ty),
                        key: l.body.ty.clone(),
                        key_name: key_name(&l.body, 0),
                        places: None,
                    };
                    return (kind, Some(s.value.take()));
                }
                let (listed, keys) = self.items_valued(list, l, frame, seen);
                let known = listed.is_some();
                let xs = listed.unwrap_or_default();
                if keys.iter().any(Option::is_none) {
                    return (WorkKind::Leaf, None);
                }
                let keys: Vec<Value> = keys.into_iter().flatten().collect();
                let value = match (form, known) {
                    (Most | Least, true) => Some(Some(best_of(b, &xs, &keys))),
                    _ => None,
                };
                let places = rest.first().and_then(|n| self.eval(n, frame).ok());
                let kind = WorkKind::Ranking {
                    builtin: b,
                    items: xs.into_iter().zip(keys).collect(),
                    elem: elem(&list.ty),
                    key: l.body.ty.clone(),
                    key_name: key_name(&l.body, 0),
                    places,
                };
                (kind, value)
            }
            (Apportion, [seats, list, ..], Some(l)) => {
                let Ok(seats) = self.eval(seats, frame) else { return (WorkKind::Leaf, None) };
                let (listed, ws) = self.items_valued(list, l, frame, seen);
                let xs = listed.unwrap_or_default();
                if ws.iter().any(Option::is_none) {
                    return (WorkKind::Leaf, None);
                }
                let kind = WorkKind::Apportion {
                    seats,
                    items: xs.into_iter().zip(ws.into_iter().flatten()).collect(),
                    elem: elem(&list.ty),
                    weight: key_name(&l.body, 0),
                };
                (kind, None)
            }
            (Map, [list, ..], _) => {
                let w = self.work_inner(list, frame);
                (WorkKind::Map(self.spare.boxed(w)), None)
            }
            // Shown by their value alone, as are the forms the checker does not let through.
            (Min | Max, _, _)
            | (Count | Filter | All | Any | Sum | Map, [], _)
            | (Top | Most | Least, _, None)
            | (Top | Most | Least, [], Some(_))
            | (Apportion, [] | [_], _)
            | (Apportion, _, None)
            | (Draw | Choose | Distinct | Contains | First | Only | Concat | At | Position | Place | Quotient, _, _) => {
                (WorkKind::Leaf, None)
            }
        }
    }
}

/// A lambda's result for an item, as far as a working reads it.
enum Item {
    Found(Value),
    /// Undetermined: an input is missing.
    Open,
    /// Any other halt.
    Failed,
}

impl From<R> for Item {
    fn from(r: R) -> Item {
        match r {
            Ok(v) => Item::Found(v),
            Err(Halt::Undetermined(_)) => Item::Open,
            Err(_) => Item::Failed,
        }
    }
}

impl From<Option<Value>> for Item {
    /// An item's result as the ruling kept it: none when undetermined (a ruling that met any
    /// other halt stopped there and kept nothing).
    fn from(v: Option<Value>) -> Item {
        v.map_or(Item::Open, Item::Found)
    }
}

/// The value of `count`, `filter`, `all` or `any` from each item's result, as
/// `builtins::eval` decides it: an error leaves it unknown, a missing input too unless an
/// item decides `all` or `any` alone.
fn truth_value(b: Builtin, xs: &[Value], results: &[Item]) -> Option<Value> {
    let mut open = false;
    let mut truth = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Item::Found(v) => truth.push(v.as_bool()),
            Item::Open => {
                open = true;
                truth.push(None);
            }
            Item::Failed => return None,
        }
    }
    if b == Builtin::All && truth.contains(&Some(false)) {
        return Some(Value::Bool(false));
    }
    if b == Builtin::Any && truth.contains(&Some(true)) {
        return Some(Value::Bool(true));
    }
    if open {
        return None;
    }
    Some(if b == Builtin::All || b == Builtin::Any {
        Value::Bool(b == Builtin::All)
    } else if b == Builtin::Count {
        Value::int(truth.iter().filter(|t| **t == Some(true)).count() as i128)
    } else {
        Value::list(xs.iter().zip(&truth).filter(|(_, t)| **t == Some(true)).map(|(x, _)| x.clone()).collect())
    })
}

/// The items of `most` or `least` by their keys, as `builtins::eval` picks them.
fn best_of(b: Builtin, xs: &[Value], keys: &[Value]) -> Value {
    let cmp = |a: &Value, c: &Value| compare(a, c).unwrap_or(Ordering::Equal);
    let best = keys.iter().reduce(|a, c| {
        let o = cmp(c, a);
        if (b == Builtin::Most && o == Ordering::Greater) || (b == Builtin::Least && o == Ordering::Less) {
            c
        } else {
            a
        }
    });
    let Some(best) = best else { return Value::list(Vec::new()) };
    Value::list(xs.iter().zip(keys).filter(|(_, k)| cmp(k, best) == Ordering::Equal).map(|(x, _)| x.clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::super::interp::{Interp, MAX_STEPS};
    use super::super::{Outcome, run};

    /// The workings of an explanation count against the ruling's budget: however little of
    /// it is left, a ruling explained is decided within it, or refused with an error, never
    /// decided past it; and the explained ruling takes more steps than the unexplained, its
    /// workings'.
    #[test]
    fn workings_count_against_the_rulings_budget() {
        let book = crate::loader::load("gnt").expect("the bundled rulebook");
        let p = &book.program;
        let teams: Vec<serde_json::Value> = (0..200)
            .map(|i| serde_json::json!({ "name": format!("T{i}"), "victory_points": (i * 37) % 101 }))
            .collect();
        let tree = serde_json::json!({ "teams_entered": teams, "club_team": "T3" });
        let inputs = crate::facts::validate(p, &tree, "test").expect("facts");
        for name in ["qualifiers", "qualifying_places", "club_team_place"] {
            let def = p.def_by_name(name).expect("ruling");
            let plain = run(Interp::new(p, &inputs, false), def);
            let traced = run(Interp::new(p, &inputs, true), def);
            // Each of them has a working, whose steps are counted.
            assert!(traced.steps > plain.steps, "`{name}`: {} steps explained, {} not", traced.steps, plain.steps);
            let mut refused = 0;
            for left in (0..=traced.steps + 2).step_by((traced.steps as usize / 97).max(1)) {
                let mut interp = Interp::new(p, &inputs, true);
                interp.steps = MAX_STEPS - left;
                let r = run(interp, def);
                match &r.outcome {
                    Outcome::Decided(_) => {
                        assert!(r.steps <= MAX_STEPS, "`{name}` with {left} left: {} steps", r.steps)
                    }
                    Outcome::Error(e) => {
                        assert!(e.message.contains("evaluation steps"), "`{name}` with {left} left: {}", e.message);
                        refused += 1;
                    }
                    o => panic!("`{name}` with {left} steps left: {o:?}"),
                }
            }
            assert!(refused > 0, "`{name}` was never refused");
        }
    }
}
