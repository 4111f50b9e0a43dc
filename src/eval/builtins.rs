//! Evaluation of the builtin functions by the interpreter: a plain builtin by its one
//! function (`crate::base::plain`, as the table of builtins names it); the special forms by hand:
//! aggregates (three-valued where a condition is unknown), ranking with ties,
//! largest-remainder apportionment with ties drawn by lot.

use super::interp::{Halt, Interp, R, compare, error, merge};
use super::trace::Need;
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::builtins_table::{Kind, Special};
use crate::check::program::{Builtin, Ir, Lambda};
use std::cmp::Ordering;

fn list(me: &mut Interp, ir: &Ir, frame: &mut Vec<Value>) -> Result<std::sync::Arc<[Value]>, Halt> {
    match me.eval(ir, frame)? {
        Value::List(xs) => Ok(xs),
        _ => Err(error("not a list", ir.span)),
    }
}

fn apply(me: &mut Interp, lam: &Lambda, x: &Value, frame: &mut Vec<Value>) -> R {
    frame[lam.slot as usize] = x.clone();
    me.eval(&lam.body, frame)
}

fn num(v: &Value, span: crate::syntax::ast::Span) -> Result<Num, Halt> {
    v.as_num().ok_or_else(|| error("not a number", span))
}

/// Evaluates `f` on every item, collecting undetermined items' needs.
fn each(
    me: &mut Interp,
    lam: &Lambda,
    xs: &[Value],
    frame: &mut Vec<Value>,
) -> Result<(Vec<Option<Value>>, Vec<Need>), Halt> {
    let mut out = Vec::with_capacity(xs.len());
    let mut needs = Vec::new();
    // The lambda's sub-expressions take a value per item: none is kept for the working.
    me.per_item += 1;
    for x in xs {
        let applied = match me.held_apply(lam, x, frame) {
            Some(v) => Ok(v),
            None => apply(me, lam, x, frame),
        };
        match applied {
            Ok(v) => out.push(Some(v)),
            Err(Halt::Undetermined(n)) => {
                needs = merge(needs, n);
                out.push(None);
            }
            Err(e) => {
                me.per_item -= 1;
                return Err(e);
            }
        }
    }
    me.per_item -= 1;
    Ok((out, needs))
}

/// A list of the `n` items `items` gives (it gives that many), made in one allocation: the
/// list is made to its length rather than collected and then copied.
fn exactly(n: usize, mut items: impl Iterator<Item = Value>) -> Value {
    Value::List((0..n).map(|_| items.next().unwrap_or(Value::Bool(false))).collect())
}

/// Keeps each item's result of a builtin that goes over a list, for the working of the
/// step (see `Interp::keeps`).
fn keep(me: &mut Interp, xs: &std::sync::Arc<[Value]>, vals: Vec<Option<Value>>) {
    if me.keeps() {
        me.items = Some((xs.clone(), vals));
    }
}

pub fn eval(me: &mut Interp, b: Builtin, args: &[Ir], lam: Option<&Lambda>, ir: &Ir, frame: &mut Vec<Value>) -> R {
    let span = ir.span;
    match b.kind() {
        // A plain builtin: its arguments evaluated in order (the first that stops ends it),
        // then its one function.
        Kind::Values(f) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(me.eval(a, frame)?);
            }
            f(&vals).map_err(|m| error(m, span))
        }
        Kind::Number(f) => {
            let [x] = args else { return Err(error(format!("`{}` takes one number", b.name()), span)) };
            let n = num(&me.eval(x, frame)?, span)?;
            f(n).map(Value::Num).map_err(|m| error(m, span))
        }
        Kind::Special(s) => special(me, s, b, args, lam, ir, frame),
    }
}

/// A special form, by hand.
fn special(
    me: &mut Interp,
    s: Special,
    b: Builtin,
    args: &[Ir],
    lam: Option<&Lambda>,
    ir: &Ir,
    frame: &mut Vec<Value>,
) -> R {
    let span = ir.span;
    match s {
        Special::Count | Special::Filter | Special::All | Special::Any => {
            let xs = list(me, &args[0], frame)?;
            let Some(lam) = lam else {
                return Ok(Value::int(xs.len() as i128));
            };
            let (vals, needs) = each(me, lam, &xs, frame)?;
            let truth = |v: &Option<Value>| v.as_ref().and_then(Value::as_bool);
            let out = if s == Special::All && vals.iter().any(|v| truth(v) == Some(false)) {
                Ok(Value::Bool(false))
            } else if s == Special::Any && vals.iter().any(|v| truth(v) == Some(true)) {
                Ok(Value::Bool(true))
            } else if !needs.is_empty() {
                Err(Halt::Undetermined(needs))
            } else if s == Special::All || s == Special::Any {
                Ok(Value::Bool(s == Special::All))
            } else {
                let n = vals.iter().filter(|v| truth(v) == Some(true)).count();
                Ok(if s == Special::Count {
                    Value::int(n as i128)
                } else {
                    exactly(n, xs.iter().zip(&vals).filter(|(_, v)| truth(v) == Some(true)).map(|(x, _)| x.clone()))
                })
            };
            keep(me, &xs, vals);
            out
        }
        Special::Map => {
            let xs = list(me, &args[0], frame)?;
            let lam = lam.ok_or_else(|| error("missing `x => …`", span))?;
            let (vals, needs) = each(me, lam, &xs, frame)?;
            if !needs.is_empty() {
                return Err(Halt::Undetermined(needs));
            }
            Ok(exactly(vals.len(), vals.into_iter().flatten()))
        }
        Special::Sum => {
            let xs = list(me, &args[0], frame)?;
            let vals: Vec<Option<Value>> = match lam {
                Some(lam) => {
                    let (vals, needs) = each(me, lam, &xs, frame)?;
                    if !needs.is_empty() {
                        keep(me, &xs, vals);
                        return Err(Halt::Undetermined(needs));
                    }
                    vals
                }
                None => xs.iter().cloned().map(Some).collect(),
            };
            let mut total = Num::ZERO;
            for v in vals.iter().flatten() {
                total = total.add(num(v, span)?).ok_or_else(|| error("sum too large", span))?;
            }
            if lam.is_some() {
                keep(me, &xs, vals);
            }
            Ok(Value::Num(total))
        }
        Special::Most | Special::Least | Special::Top => {
            let xs = list(me, &args[0], frame)?;
            let lam = lam.ok_or_else(|| error("missing `x => …`", span))?;
            let (keys, needs) = each(me, lam, &xs, frame)?;
            if !needs.is_empty() {
                keep(me, &xs, keys);
                return Err(Halt::Undetermined(needs));
            }
            if me.keeps() {
                keep(me, &xs, keys.clone());
            }
            let keys: Vec<Value> = keys.into_iter().flatten().collect();
            let cmp = |a: &Value, c: &Value| compare(a, c).unwrap_or(Ordering::Equal);
            if b == Builtin::Top {
                let n = num(&me.eval(&args[1], frame)?, span)?;
                // Competition ranking: 1 + the number of items strictly better, counted
                // in the sorted keys (n log n, not n²).
                let mut sorted: Vec<&Value> = keys.iter().collect();
                sorted.sort_by(|a, c| cmp(a, c));
                let out = xs
                    .iter()
                    .zip(&keys)
                    .filter(|(_, k)| {
                        let better = sorted.len() - sorted.partition_point(|o| cmp(o, k) != Ordering::Greater);
                        Num::int(better as i128 + 1) <= n
                    })
                    .map(|(x, _)| x.clone())
                    .collect();
                return Ok(Value::list(out));
            }
            let best = keys.iter().cloned().reduce(|a, c| {
                let o = cmp(&c, &a);
                if (b == Builtin::Most && o == Ordering::Greater) || (b == Builtin::Least && o == Ordering::Less) {
                    c
                } else {
                    a
                }
            });
            let Some(best) = best else { return Ok(Value::list(Vec::new())) };
            let n = keys.iter().filter(|k| cmp(k, &best) == Ordering::Equal).count();
            Ok(exactly(
                n,
                xs.iter().zip(&keys).filter(|(_, k)| cmp(k, &best) == Ordering::Equal).map(|(x, _)| x.clone()),
            ))
        }
        Special::Distinct => {
            let xs = list(me, &args[0], frame)?;
            let mut out: Vec<Value> = Vec::new();
            for x in xs.iter() {
                if !out.contains(x) {
                    out.push(x.clone());
                }
            }
            Ok(Value::list(out))
        }
        Special::First | Special::Only => {
            let xs = list(me, &args[0], frame)?;
            match xs.first() {
                None => Err(error(format!("`{}` of an empty list", b.name()), span)),
                Some(_) if s == Special::Only && xs.len() > 1 => {
                    Err(error(format!("`only` needs exactly one item, found {}", xs.len()), span))
                }
                Some(x) => Ok(x.clone()),
            }
        }
        Special::At => {
            let xs = list(me, &args[0], frame)?;
            let n = num(&me.eval(&args[1], frame)?, span)?;
            n.as_i64()
                .filter(|&i| i >= 1 && (i as usize) <= xs.len())
                .map(|i| xs[i as usize - 1].clone())
                .ok_or_else(|| error(format!("position {n} is outside a list of {}", xs.len()), span))
        }
        Special::Position => {
            let xs = list(me, &args[0], frame)?;
            let x = me.eval(&args[1], frame)?;
            xs.iter()
                .position(|y| *y == x)
                .map(|i| Value::int(i as i128 + 1))
                .ok_or_else(|| error("the value is not in the list", span))
        }
        Special::Place => {
            let groups = list(me, &args[0], frame)?;
            let x = me.eval(&args[1], frame)?;
            let mut ahead = 0usize;
            for g in groups.iter() {
                let g = g.as_list().ok_or_else(|| error("not a ranking", span))?;
                if g.contains(&x) {
                    return Ok(Value::int(ahead as i128 + 1));
                }
                ahead += g.len();
            }
            Err(error("the value is not in the ranking", span))
        }
        Special::Quotient => {
            let a = num(&me.eval(&args[0], frame)?, span)?;
            let b = num(&me.eval(&args[1], frame)?, span)?;
            if b == Num::ZERO {
                return me.eval(&args[2], frame);
            }
            a.div(b).map(Value::Num).ok_or_else(|| error("number too large for exact arithmetic", span))
        }
        Special::Concat => {
            let mut out = Vec::new();
            for a in args {
                out.extend(list(me, a, frame)?.iter().cloned());
            }
            Ok(Value::list(out))
        }
        Special::Contains => {
            let xs = list(me, &args[0], frame)?;
            let x = me.eval(&args[1], frame)?;
            Ok(Value::Bool(xs.contains(&x)))
        }
        Special::Min | Special::Max => {
            let vals: Vec<Value> = if args.len() == 1 {
                list(me, &args[0], frame)?.to_vec()
            } else {
                let mut out = Vec::new();
                let mut needs = Vec::new();
                for a in args {
                    match me.eval(a, frame) {
                        Ok(v) => out.push(v),
                        Err(Halt::Undetermined(n)) => needs = merge(needs, n),
                        Err(e) => return Err(e),
                    }
                }
                if !needs.is_empty() {
                    return Err(Halt::Undetermined(needs));
                }
                out
            };
            let want = if b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
            vals.into_iter()
                .reduce(|a, c| if compare(&c, &a) == Some(want) { c } else { a })
                .ok_or_else(|| error(format!("`{}` of an empty list", b.name()), span))
        }
        Special::Apportion => apportion(me, args, lam, ir, frame),
        Special::Draw | Special::Choose => Err(error("draw is evaluated on its own", span)),
    }
}

/// Largest-remainder (Hare) apportionment: each item gets the whole part of its
/// quota; the seats left go to the largest remainders. Items tied on the remainder
/// at the cut are decided by the `tie` lot (the winners), or the result is
/// undetermined, naming the lot and the tied items.
fn apportion(me: &mut Interp, args: &[Ir], lam: Option<&Lambda>, ir: &Ir, frame: &mut Vec<Value>) -> R {
    let span = ir.span;
    let seats = num(&me.eval(&args[0], frame)?, span)?;
    let xs = list(me, &args[1], frame)?;
    let lam = lam.ok_or_else(|| error("missing `x => weight`", span))?;
    let (weights, needs) = each(me, lam, &xs, frame)?;
    if !needs.is_empty() {
        keep(me, &xs, weights);
        return Err(Halt::Undetermined(needs));
    }
    if me.keeps() {
        keep(me, &xs, weights.clone());
    }
    let weights: Vec<Num> = weights.iter().flatten().map(|w| num(w, span)).collect::<Result<_, _>>()?;
    if weights.iter().any(|w| w.is_negative()) {
        return Err(error("apportionment weights must not be negative", span));
    }
    if seats.is_negative() {
        return Err(error(format!("cannot apportion a negative number of seats ({seats})"), span));
    }
    let total = weights.iter().try_fold(Num::ZERO, |a, w| a.add(*w)).ok_or_else(|| error("weights too large", span))?;
    if seats == Num::ZERO {
        return Ok(Value::list(vec![Value::int(0); xs.len()]));
    }
    if total == Num::ZERO {
        let why = if xs.is_empty() { "there is no one to apportion them to" } else { "every weight is 0" };
        return Err(error(format!("cannot apportion {seats} seat(s): {why}"), span));
    }
    let quotas: Vec<Num> = weights
        .iter()
        .map(|w| seats.mul(*w).and_then(|x| x.div(total)))
        .collect::<Option<_>>()
        .ok_or_else(|| error("apportionment too large for exact arithmetic", span))?;
    let mut given: Vec<Num> = quotas.iter().map(|q| q.floor()).collect();
    let used = given.iter().try_fold(Num::ZERO, |a, g| a.add(*g)).ok_or_else(|| error("overflow", span))?;
    let left = seats.sub(used).and_then(|x| x.as_i64()).unwrap_or(0).max(0) as usize;
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| quotas[b].fract().cmp(&quotas[a].fract()));
    if left > 0 && left <= order.len() {
        let cut = quotas[order[left - 1]].fract();
        let sure: Vec<usize> = order.iter().copied().filter(|&i| quotas[i].fract() > cut).collect();
        let tied: Vec<usize> = order.iter().copied().filter(|&i| quotas[i].fract() == cut).collect();
        let places_for_tied = left - sure.len();
        for &i in &sure {
            given[i] = given[i].add(Num::ONE).unwrap_or(given[i]);
        }
        if places_for_tied == tied.len() {
            for &i in &tied {
                given[i] = given[i].add(Num::ONE).unwrap_or(given[i]);
            }
        } else {
            let elem_ty = match &args[1].ty {
                crate::check::types::Type::List(t) => (**t).clone(),
                t => t.clone(),
            };
            let lot_ir = args.get(2);
            let winners = match lot_ir {
                Some(l) => match me.eval(l, frame) {
                    Ok(Value::List(w)) => Some(w),
                    Ok(_) => return Err(error("the tie lot is a list of the winners", span)),
                    Err(Halt::Undetermined(_)) => None,
                    Err(e) => return Err(e),
                },
                None => None,
            };
            match winners {
                Some(w) => {
                    let idx: Vec<usize> = tied.iter().copied().filter(|&i| w.contains(&xs[i])).collect();
                    if idx.len() != places_for_tied || w.len() != places_for_tied {
                        return Err(error(
                            format!(
                                "the draw must name {places_for_tied} winner(s) among the tied: {}",
                                tied.iter()
                                    .map(|&i| crate::show::plain(me.p, &xs[i], &elem_ty))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            span,
                        ));
                    }
                    for i in idx {
                        given[i] = given[i].add(Num::ONE).unwrap_or(given[i]);
                    }
                }
                None => {
                    let candidates = tied.iter().map(|&i| crate::show::plain(me.p, &xs[i], &elem_ty)).collect();
                    let need = match lot_ir.map(|l| &l.kind) {
                        Some(crate::check::program::IrKind::Decision(d)) => Need::Lot { lot: *d, candidates },
                        _ => {
                            return Err(error(
                                "a tie on the remainder needs a lot: add `tie: <lot>` to `apportion`",
                                span,
                            ));
                        }
                    };
                    return Err(Halt::Undetermined(vec![need]));
                }
            }
        }
    }
    Ok(Value::list(given.into_iter().map(Value::Num).collect()))
}
