//! The builtin functions of compiled code, with the interpreter's semantics
//! (`crate::eval::builtins`): a plain builtin calls its one function (`crate::base::plain`,
//! named by the table of builtins), its arguments worked out in order and lent to it without
//! an allocation; a special form is matched by hand, every one of them named (the one
//! handed over to the interpreter, `apportion`, with why). Every item evaluated in order, a halt ends it at once, a
//! missing item makes it unknown once all are evaluated, except where one decided item
//! settles the answer (`all` with a false item, `any` with a true one).
//!
//! What it owns: lists read as items pushed on the stack of locals ([`Lower::items`]):
//! `map`, `filter` and `distinct` inside an aggregate turn the items there in place and
//! never become lists of their own, and an item held by the program, the inputs or a definition's result is lent, not
//! copied; `filter` over a constant list of enum values whose lambda calls a dispatched
//! definition, unrolled when compiled with its result lists kept ([`Unrolled`]).

use super::code::{Bool, Items, NumC, Val, boolean, follow, items, number, val};
use super::cx::{Cx, R, Stop, truth_value};
use super::lower::Lower;
use crate::base::num::Num;
use crate::base::plain::{NumberFn, ValuesFn};
use crate::base::value::Value;
use crate::check::builtins_table::{Kind, Special};
use crate::check::program::{Builtin, Ir, IrKind, Lambda, RuleId};
use crate::eval::interp::compare;
use std::cmp::Ordering;
use std::sync::OnceLock;

/// `filter(L, x => d(x))` over a constant list of enum values with a dispatched body
/// (`filter(Flight, f => eligible(f))`): each item with the rule its variant picks (`None`:
/// no rule, a halt), and the result lists, built once for each set of items kept (for
/// lists of up to [`UNROLLED_CACHED`] items) and lent from then on.
pub(crate) struct Unrolled {
    items: Box<[Value]>,
    rules: Box<[Option<RuleId>]>,
    /// Indexed by the set of items kept (bit `i` for item `i`); empty for longer lists.
    lists: Box<[OnceLock<Value>]>,
}

/// How many keys of `most` / `least` by a number are kept on the Rust stack.
const KEYS: usize = 16;

/// The most arguments of a plain builtin passed without an allocation.
const PLAIN_ARGS: usize = 3;

/// The longest list whose results [`Unrolled`] keeps.
const UNROLLED_CACHED: usize = 6;

/// Pushes `src`'s items on the stack, runs `f` on them (they are the stack from `start`
/// on) and cuts the stack back.
#[inline]
fn over<'r, T>(cx: &mut Cx<'r>, src: &Items, f: impl FnOnce(&mut Cx<'r>, usize) -> R<T>) -> R<T> {
    let start = cx.locals.len();
    let r = match src(cx) {
        Ok(()) => f(cx, start),
        Err(e) => Err(e),
    };
    cx.cut(start);
    r
}

/// Pushes the items of a list value.
#[inline]
fn spread<'r>(cx: &mut Cx<'r>, l: &'r Value) -> R<()> {
    match l {
        Value::List(xs) => {
            cx.locals.extend(xs.iter());
            Ok(())
        }
        _ => Err(Stop::Halt),
    }
}

/// A list of the stack's values from `start` on, kept for the ruling.
fn listed<'r>(cx: &mut Cx<'r>, start: usize) -> &'r Value {
    // The stack is set aside while the list is filled from it (a list an earlier ruling
    // built may be filled again).
    let locals = std::mem::take(&mut cx.locals);
    let list = cx.list_of(locals.len() - start, locals[start..].iter().map(|v| (*v).clone()));
    cx.locals = locals;
    cx.keep_value(list)
}

/// A list of the items for which `keep` says so, built in one allocation of its size.
fn listed_where(items: &[&Value], keep: impl Iterator<Item = bool> + Clone) -> Value {
    let n = keep.clone().filter(|k| *k).count();
    let mut kept = items.iter().zip(keep).filter(|(_, k)| *k).map(|(x, _)| (*x).clone());
    Value::List((0..n).map(|_| kept.next().unwrap_or(Value::Bool(false))).collect())
}

/// Evaluates a lambda for each item of the stack from `start` to its top, in turn (the
/// item bound to its slot), handing each result and the item's place to `each`; a halt
/// ends it, a missing value makes it unknown once all are evaluated.
#[inline]
pub(crate) fn apply_each<'r, T>(
    cx: &mut Cx<'r>,
    start: usize,
    slot: u32,
    cost: u64,
    body: impl Fn(&mut Cx<'r>) -> R<T>,
    mut each: impl FnMut(&mut Cx<'r>, usize, T),
) -> R<()> {
    let end = cx.locals.len();
    let mut unknown = false;
    for at in start..end {
        let x = cx.locals[at];
        cx.bind(slot, x);
        cx.count(cost)?;
        match body(cx) {
            Ok(v) => each(cx, at, v),
            Err(Stop::Unknown) => unknown = true,
            Err(Stop::Halt) => return Err(Stop::Halt),
        }
    }
    if unknown { Err(Stop::Unknown) } else { Ok(()) }
}

impl Lower<'_> {
    /// Code pushing the items of the list `ir` on the stack.
    pub(crate) fn items(&self, ir: &Ir) -> Items {
        match &ir.kind {
            IrKind::Builtin(Builtin::Map, args, Some(lam)) if let Some(path) = self.projection(lam) => {
                // `s => s.field`: each item replaced by its field, read where it is.
                let (src, cost) = (self.items(&args[0]), self.cost(&lam.body));
                items(move |cx| {
                    let start = cx.locals.len();
                    src(cx)?;
                    let mut unknown = false;
                    for at in start..cx.locals.len() {
                        let r = cx.count(cost).and_then(|()| follow(cx.locals[at], &path));
                        match r {
                            Ok(v) => cx.locals[at] = v,
                            Err(Stop::Unknown) => unknown = true,
                            Err(Stop::Halt) => {
                                cx.cut(start);
                                return Err(Stop::Halt);
                            }
                        }
                    }
                    if unknown {
                        cx.cut(start);
                        return Err(Stop::Unknown);
                    }
                    Ok(())
                })
            }
            IrKind::Builtin(Builtin::Map, args, Some(lam)) => {
                let (src, slot, body, cost) =
                    (self.items(&args[0]), lam.slot, self.val(&lam.body), self.cost(&lam.body));
                items(move |cx| {
                    let start = cx.locals.len();
                    src(cx)?;
                    // Each item replaced by its value.
                    let r = apply_each(cx, start, slot, cost, |cx| body(cx), |cx, at, v| cx.locals[at] = v);
                    if r.is_err() {
                        cx.cut(start);
                    }
                    r
                })
            }
            IrKind::Builtin(Builtin::Filter, args, Some(lam)) if self.unrolled(&args[0], lam).is_none() => {
                let (src, test) = (self.items(&args[0]), self.test(lam));
                items(move |cx| {
                    let start = cx.locals.len();
                    src(cx)?;
                    // The items kept moved down over those dropped.
                    let mut kept = start;
                    let r = test.each(cx, start, |cx, at, t| {
                        if t {
                            cx.locals[kept] = cx.locals[at];
                            kept += 1;
                        }
                    });
                    match r {
                        Ok(()) => {
                            cx.cut(kept);
                            Ok(())
                        }
                        Err(e) => {
                            cx.cut(start);
                            Err(e)
                        }
                    }
                })
            }
            IrKind::Builtin(Builtin::Distinct, args, None) => {
                let src = self.items(&args[0]);
                items(move |cx| {
                    let start = cx.locals.len();
                    src(cx)?;
                    let mut kept = start;
                    for i in start..cx.locals.len() {
                        let x = cx.locals[i];
                        if !cx.locals[start..kept].contains(&x) {
                            cx.locals[kept] = x;
                            kept += 1;
                        }
                    }
                    cx.cut(kept);
                    Ok(())
                })
            }
            // A list held where it is: read in place, without a call.
            _ => match self.place(ir) {
                Some(p) if p.is_plain() => items(move |cx| {
                    let l = p.read(cx)?;
                    spread(cx, l)
                }),
                Some(p) => items(move |cx| {
                    let l = p.get(cx)?;
                    spread(cx, l)
                }),
                None => {
                    let v = self.val(ir);
                    items(move |cx| {
                        let l = v(cx)?;
                        spread(cx, l)
                    })
                }
            },
        }
    }

    /// For a lambda that reads a field of its item (`s => s.bopæl`): the field's path.
    fn projection(&self, lam: &Lambda) -> Option<Box<[u32]>> {
        match self.place(&lam.body)? {
            super::code::Place::Local(s, path) if s == lam.slot => Some(path),
            _ => None,
        }
    }

    /// [`Unrolled`] for `filter(list, lam)`, when it applies: its index among the program's
    /// and the steps of the lambda's body.
    fn unrolled(&self, list: &Ir, lam: &Lambda) -> Option<(u32, u64)> {
        let IrKind::Const(Value::List(xs)) = &list.kind else { return None };
        let IrKind::Call(d, args) = &lam.body.kind else { return None };
        let [arg] = args.as_slice() else { return None };
        if !matches!(arg.kind, IrKind::Local(s) if s == lam.slot) {
            return None;
        }
        let by = self.dispatch(*d)?;
        let rules = xs
            .iter()
            .map(|x| match x {
                Value::Enum(_, i) => Some(by.get(*i as usize).copied().flatten()),
                _ => None,
            })
            .collect::<Option<Box<[_]>>>()?;
        let sets = if xs.len() <= UNROLLED_CACHED { 1 << xs.len() } else { 0 };
        let lists = (0..sets).map(|_| OnceLock::new()).collect();
        let mut all = self.unrolled.borrow_mut();
        all.push(Unrolled { items: xs.iter().cloned().collect(), rules, lists });
        Some((all.len() as u32 - 1, self.cost(&lam.body)))
    }

    /// Code giving the value of a builtin's call: a plain builtin's function, or a special
    /// form by hand.
    pub(crate) fn builtin(&self, b: Builtin, args: &[Ir], lam: Option<&Lambda>, ir: &Ir) -> Val {
        match b.kind() {
            Kind::Values(f) => self.plain(f, args),
            Kind::Number(f) => kept_number(self.plain_number(f, args)),
            Kind::Special(s) => self.special(s, b, args, lam, ir),
        }
    }

    /// A plain builtin over values: its arguments worked out in order (the first that stops
    /// ends it), then its function; a fault is a halt (the interpreter words it).
    fn plain(&self, f: ValuesFn, args: &[Ir]) -> Val {
        let xs = self.boxed_vals(args);
        if xs.len() > PLAIN_ARGS {
            return val(move |cx| {
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs.iter() {
                    vals.push(x(cx)?.clone());
                }
                let v = f(&vals).map_err(|_| Stop::Halt)?;
                Ok(cx.keep_value(v))
            });
        }
        val(move |cx| {
            let mut vals = [const { Value::Bool(false) }; PLAIN_ARGS];
            for (x, v) in xs.iter().zip(vals.iter_mut()) {
                *v = x(cx)?.clone();
            }
            let v = f(&vals[..xs.len()]).map_err(|_| Stop::Halt)?;
            Ok(cx.keep_value(v))
        })
    }

    /// A plain builtin of one number.
    pub(crate) fn plain_number(&self, f: NumberFn, args: &[Ir]) -> NumC {
        let [x] = args else { return super::code::num(|_| Err(Stop::Halt)) };
        let x = self.num(x);
        super::code::num(move |cx| f(x(cx)?).map_err(|_| Stop::Halt))
    }

    /// A special form: every one of them by hand, each form the checker lets through.
    fn special(&self, s: Special, b: Builtin, args: &[Ir], lam: Option<&Lambda>, ir: &Ir) -> Val {
        // A form the checker does not let through (a lambda missing or given where none
        // is taken) is left to the interpreter, which words it.
        let refused = || val(|_| Err(Stop::Halt));
        match s {
            Special::Filter => match lam {
                Some(lam) if let Some((u, each)) = self.unrolled(&args[0], lam) => val(move |cx| unrolled(cx, u, each)),
                Some(_) => self.listed(ir),
                None => refused(),
            },
            Special::Map => match lam {
                Some(_) => self.listed(ir),
                None => refused(),
            },
            Special::Distinct => match lam {
                None => self.listed(ir),
                Some(_) => refused(),
            },
            Special::All | Special::Any => match lam {
                Some(_) => {
                    let t = self.boolean(ir);
                    val(move |cx| Ok(truth_value(t(cx)?)))
                }
                None => refused(),
            },
            Special::Count => kept_number(self.count(&args[0], lam)),
            Special::Sum => kept_number(self.sum(&args[0], lam)),
            Special::Quotient => kept_number(self.quotient(args)),
            Special::Most | Special::Least | Special::Top => match lam {
                Some(lam) => self.best(b, args, lam),
                None => refused(),
            },
            Special::First | Special::Only => {
                let src = self.items(&args[0]);
                let only = s == Special::Only;
                val(move |cx| {
                    over(cx, &src, |cx, start| match cx.locals.len() - start {
                        0 => Err(Stop::Halt),
                        n if only && n > 1 => Err(Stop::Halt),
                        _ => Ok(cx.locals[start]),
                    })
                })
            }
            Special::At => {
                let (src, n) = (self.items(&args[0]), self.num(&args[1]));
                val(move |cx| {
                    over(cx, &src, |cx, start| {
                        let n = n(cx)?;
                        match n.as_i64() {
                            Some(i) if i >= 1 && (i as usize) <= cx.locals.len() - start => {
                                Ok(cx.locals[start + i as usize - 1])
                            }
                            _ => Err(Stop::Halt),
                        }
                    })
                })
            }
            Special::Position => {
                let (src, x) = (self.items(&args[0]), self.val(&args[1]));
                val(move |cx| {
                    over(cx, &src, |cx, start| {
                        let x = x(cx)?;
                        match cx.locals[start..].iter().position(|y| *y == x) {
                            Some(i) => Ok(cx.keep_value(Value::int(i as i128 + 1))),
                            None => Err(Stop::Halt),
                        }
                    })
                })
            }
            Special::Place => {
                let (src, x) = (self.items(&args[0]), self.val(&args[1]));
                val(move |cx| {
                    over(cx, &src, |cx, start| {
                        let x = x(cx)?;
                        let mut ahead = 0usize;
                        for g in cx.locals[start..].iter() {
                            let g = g.as_list().ok_or(Stop::Halt)?;
                            if g.contains(x) {
                                return Ok(cx.keep_value(Value::int(ahead as i128 + 1)));
                            }
                            ahead += g.len();
                        }
                        Err(Stop::Halt)
                    })
                })
            }
            Special::Concat => {
                let srcs: Box<[Items]> = args.iter().map(|a| self.items(a)).collect();
                val(move |cx| {
                    let mut out = Vec::new();
                    for src in srcs.iter() {
                        over(cx, src, |cx, start| {
                            out.extend(cx.locals[start..].iter().map(|v| (*v).clone()));
                            Ok(())
                        })?;
                    }
                    Ok(cx.keep_value(Value::list(out)))
                })
            }
            Special::Contains => {
                let (src, x) = (self.items(&args[0]), self.val(&args[1]));
                val(move |cx| {
                    over(cx, &src, |cx, start| {
                        let x = x(cx)?;
                        Ok(truth_value(cx.locals[start..].contains(&x)))
                    })
                })
            }
            Special::Min | Special::Max => self.min_max(b, args),
            // Handed over to the interpreter: an apportionment (its ties, lots and their
            // wording).
            Special::Apportion => val(|_| Err(Stop::Halt)),
            // Never a builtin call: the checker lowers a draw or a choice to `IrKind::Draw`.
            Special::Draw | Special::Choose => val(|_| Err(Stop::Halt)),
        }
    }

    /// A list the items of `ir` make (`map`, `filter`, `distinct`).
    fn listed(&self, ir: &Ir) -> Val {
        let src = self.items(ir);
        val(move |cx| over(cx, &src, |cx, start| Ok(listed(cx, start))))
    }

    /// `all` / `any` with a lambda: every item evaluated; a false item (`all`) or a true
    /// one (`any`) decides even when others wait for an input.
    pub(crate) fn all_any(&self, b: Builtin, list: &Ir, lam: &Lambda) -> Bool {
        let (src, slot, body, cost) = (self.items(list), lam.slot, self.boolean(&lam.body), self.cost(&lam.body));
        let all = b == Builtin::All;
        boolean(move |cx| {
            over(cx, &src, |cx, start| {
                let (mut trues, mut falses) = (false, false);
                let r = apply_each(
                    cx,
                    start,
                    slot,
                    cost,
                    |cx| body(cx),
                    |_, _, t| {
                        if t { trues = true } else { falses = true }
                    },
                );
                match r {
                    Err(Stop::Halt) => Err(Stop::Halt),
                    _ if all && falses => Ok(false),
                    _ if !all && trues => Ok(true),
                    Err(e) => Err(e),
                    Ok(()) => Ok(all),
                }
            })
        })
    }

    /// `count` of a list, or of the items a lambda holds true for.
    pub(crate) fn count(&self, list: &Ir, lam: Option<&Lambda>) -> NumC {
        let Some(lam) = lam else {
            if let Some(p) = self.place(list) {
                return super::code::num(move |cx| match p.get(cx)? {
                    Value::List(xs) => Ok(Num::int(xs.len() as i128)),
                    _ => Err(Stop::Halt),
                });
            }
            let src = self.items(list);
            return super::code::num(move |cx| {
                over(cx, &src, |cx, start| Ok(Num::int((cx.locals.len() - start) as i128)))
            });
        };
        let (src, test) = (self.items(list), self.test(lam));
        super::code::num(move |cx| {
            over(cx, &src, |cx, start| {
                let mut trues = 0i128;
                test.each(cx, start, |_, _, t| trues += i128::from(t))?;
                Ok(Num::int(trues))
            })
        })
    }

    /// `sum` of a list, or of each item's amount.
    fn sum(&self, list: &Ir, lam: Option<&Lambda>) -> NumC {
        let src = self.items(list);
        match lam {
            Some(lam) => {
                let (slot, body, cost) = (lam.slot, self.val(&lam.body), self.cost(&lam.body));
                super::code::num(move |cx| {
                    over(cx, &src, |cx, start| {
                        // As the interpreter: every item evaluated, then summed.
                        let mut total = Some(Num::ZERO);
                        apply_each(
                            cx,
                            start,
                            slot,
                            cost,
                            |cx| body(cx),
                            |_, _, v| {
                                total = total.and_then(|t| v.as_num().and_then(|n| t.add(n)));
                            },
                        )?;
                        total.ok_or(Stop::Halt)
                    })
                })
            }
            None => super::code::num(move |cx| {
                over(cx, &src, |cx, start| {
                    let mut total = Num::ZERO;
                    for x in cx.locals[start..].iter() {
                        total = total.add(number(x)?).ok_or(Stop::Halt)?;
                    }
                    Ok(total)
                })
            }),
        }
    }

    /// `quotient(a, b, if_zero: v)`: `v` worked out only when `b` is 0.
    fn quotient(&self, args: &[Ir]) -> NumC {
        let [a, d, z] = args else { return super::code::num(|_| Err(Stop::Halt)) };
        let (a, d, z) = (self.num(a), self.num(d), self.num(z));
        super::code::num(move |cx| {
            let a = a(cx)?;
            let d = d(cx)?;
            if d == Num::ZERO {
                return z(cx);
            }
            a.div(d).ok_or(Stop::Halt)
        })
    }

    /// `most`, `least` and `top`: every item's key worked out, then the items with the best
    /// key (`top`: those ranked within the first n).
    fn best(&self, b: Builtin, args: &[Ir], lam: &Lambda) -> Val {
        if b != Builtin::Top && super::lower::numeric(&lam.body.ty) {
            return self.best_number(b, &args[0], lam);
        }
        let (src, slot, body, cost) = (self.items(&args[0]), lam.slot, self.val(&lam.body), self.cost(&lam.body));
        let n = (b == Builtin::Top).then(|| self.num(&args[1]));
        val(move |cx| {
            over(cx, &src, |cx, start| {
                // Each item's key pushed above the items: the items from `start`, their
                // keys from `end`.
                let end = cx.locals.len();
                apply_each(cx, start, slot, cost, |cx| body(cx), |cx, _, k| cx.locals.push(k))?;
                let (items, keys) = cx.locals[start..].split_at(end - start);
                let cmp = |a: &Value, c: &Value| compare(a, c).unwrap_or(Ordering::Equal);
                if let Some(n) = &n {
                    // `top`: the items ranked within the first n (1 + the number of items
                    // strictly better, counted in the sorted keys).
                    let (items, keys) = (items.to_vec(), keys.to_vec());
                    let mut sorted = keys.clone();
                    sorted.sort_by(|a, c| cmp(a, c));
                    let n = n(cx)?;
                    let picked = keys.iter().map(|k| {
                        let better = sorted.len() - sorted.partition_point(|o| cmp(o, k) != Ordering::Greater);
                        Num::int(better as i128 + 1) <= n
                    });
                    let list = listed_where(&items, picked);
                    return Ok(cx.keep_value(list));
                }
                let want = if b == Builtin::Most { Ordering::Greater } else { Ordering::Less };
                let mut best: Option<&Value> = None;
                for &k in keys.iter() {
                    if best.is_none_or(|a| cmp(k, a) == want) {
                        best = Some(k);
                    }
                }
                let list = match best {
                    Some(best) => listed_where(items, keys.iter().map(|k| cmp(k, best) == Ordering::Equal)),
                    None => Value::list(Vec::new()),
                };
                Ok(cx.keep_value(list))
            })
        })
    }

    /// `most` / `least` by a number (`t => count(…)`): each item's key worked out as a
    /// number, kept on the Rust stack for up to [`KEYS`] items, and compared as numbers.
    fn best_number(&self, b: Builtin, list: &Ir, lam: &Lambda) -> Val {
        let (src, slot, body, cost) = (self.items(list), lam.slot, self.num(&lam.body), self.cost(&lam.body));
        let want = if b == Builtin::Most { Ordering::Greater } else { Ordering::Less };
        let general = val(move |cx| {
            over(cx, &src, |cx, start| {
                let n = cx.locals.len() - start;
                let mut few = [Num::ZERO; KEYS];
                let mut many = Vec::new();
                let keys: &mut [Num] = if n <= KEYS {
                    &mut few[..n]
                } else {
                    many.resize(n, Num::ZERO);
                    &mut many
                };
                apply_each(cx, start, slot, cost, |cx| body(cx), |_, at, k| keys[at - start] = k)?;
                let mut best: Option<Num> = None;
                for &k in keys.iter() {
                    if best.is_none_or(|a| k.cmp(&a) == want) {
                        best = Some(k);
                    }
                }
                let list = match best {
                    Some(best) => listed_where(&cx.locals[start..], keys.iter().map(|k| *k == best)),
                    None => Value::list(Vec::new()),
                };
                Ok(cx.keep_value(list))
            })
        });
        self.tally(b, list, lam, general).unwrap_or_else(|general| general)
    }

    /// `min` / `max` of a list of numbers, as a number: the best kept as they come.
    pub(crate) fn min_max_num(&self, b: Builtin, list: &Ir) -> NumC {
        let want = if b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
        let src = self.items(list);
        super::code::num(move |cx| {
            over(cx, &src, |cx, start| {
                let mut best: Option<Num> = None;
                for x in cx.locals[start..].iter() {
                    let n = number(x)?;
                    best = Some(match best {
                        Some(a) if n.cmp(&a) != want => a,
                        _ => n,
                    });
                }
                best.ok_or(Stop::Halt)
            })
        })
    }

    /// `min` / `max` of a list, or of several values (every one evaluated, the best kept as
    /// they come: the interpreter's left fold).
    fn min_max(&self, b: Builtin, args: &[Ir]) -> Val {
        let want = if b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
        if let [list] = args {
            let src = self.items(list);
            return val(move |cx| {
                over(cx, &src, |cx, start| {
                    let mut best: Option<usize> = None;
                    for i in start..cx.locals.len() {
                        if best.is_none_or(|a| compare(cx.locals[i], cx.locals[a]) == Some(want)) {
                            best = Some(i);
                        }
                    }
                    match best {
                        Some(i) => Ok(cx.locals[i]),
                        None => Err(Stop::Halt),
                    }
                })
            });
        }
        let xs = self.boxed_vals(args);
        val(move |cx| best_of(cx, &xs, |x, cx| x(cx), |c, a| compare(c, a) == Some(want)))
    }
}

/// `min` / `max` of several operands, the interpreter's left fold: every operand worked out
/// in turn (a halt ends it at once, a missing one makes it unknown once all are), each
/// replacing the best so far when `better` says so.
#[inline(always)]
pub(crate) fn best_of<'r, X, T: Copy>(
    cx: &mut Cx<'r>,
    xs: &[X],
    get: impl Fn(&X, &mut Cx<'r>) -> R<T>,
    better: impl Fn(T, T) -> bool,
) -> R<T> {
    let mut best: Option<T> = None;
    let mut unknown = false;
    for x in xs {
        match get(x, cx) {
            Ok(c) => {
                best = Some(match best {
                    Some(a) if !better(c, a) => a,
                    _ => c,
                })
            }
            Err(Stop::Unknown) => unknown = true,
            Err(Stop::Halt) => return Err(Stop::Halt),
        }
    }
    if unknown {
        return Err(Stop::Unknown);
    }
    best.ok_or(Stop::Halt)
}

/// A number kept for the ruling as a value.
fn kept_number(n: NumC) -> Val {
    val(move |cx| {
        let n = n(cx)?;
        Ok(cx.keep_value(Value::Num(n)))
    })
}

/// [`Unrolled`] run: each item's rule in turn, the result list lent from those kept.
fn unrolled<'r>(cx: &mut Cx<'r>, u: u32, each: u64) -> R<&'r Value> {
    let c: &'r super::Compiled = cx.c;
    let u = &c.unrolled[u as usize];
    let mut kept = 0u64;
    let mut unknown = false;
    for (i, r) in u.rules.iter().enumerate() {
        cx.count(each)?;
        let Some(r) = r else { return Err(Stop::Halt) };
        match cx.in_place_bool(&c.rules[*r as usize]) {
            Ok(true) => kept |= 1 << (i % 64),
            Ok(false) => {}
            Err(Stop::Unknown) => unknown = true,
            Err(Stop::Halt) => return Err(Stop::Halt),
        }
    }
    if unknown {
        return Err(Stop::Unknown);
    }
    let build = || {
        let picked = u.items.iter().enumerate().filter(|(i, _)| kept & (1 << (i % 64)) != 0);
        Value::list(picked.map(|(_, x)| x.clone()).collect())
    };
    Ok(match u.lists.get(kept as usize) {
        Some(list) => list.get_or_init(build),
        None => cx.keep_value(build()),
    })
}
