//! The builtin functions on compiled code, with the interpreter's semantics
//! (`super::super::builtins`): aggregates absorb missing items where one decided item
//! settles the answer (`all` with a false item, `any` with a true one).

use super::Node;
use super::run::{R, Run, Stop};
use crate::check::program::Builtin;
use crate::eval::interp::compare;
use crate::eval::num::Num;
use crate::eval::value::Value;
use std::cmp::Ordering;
use std::sync::Arc;

type Lam<'n> = Option<&'n (u32, Box<Node>)>;

fn num(v: &Value) -> Result<Num, Stop> {
    v.as_num().ok_or(Stop::Halt)
}

impl Run<'_> {
    fn list(&mut self, n: &Node) -> Result<Arc<[Value]>, Stop> {
        match self.eval(n)? {
            Value::List(xs) => Ok(xs),
            _ => Err(Stop::Halt),
        }
    }

    fn apply(&mut self, lam: &(u32, Box<Node>), x: &Value) -> R {
        *self.local(lam.0) = x.clone();
        self.eval(&lam.1)
    }

    /// The lambda on every item, in order; `None` for an item whose value is unknown
    /// (the second result says whether there was one). A halt ends it.
    fn each(&mut self, lam: &(u32, Box<Node>), xs: &[Value]) -> Result<(Vec<Option<Value>>, bool), Stop> {
        let mut out = Vec::with_capacity(xs.len());
        let mut unknown = false;
        for x in xs {
            match self.apply(lam, x) {
                Ok(v) => out.push(Some(v)),
                Err(Stop::Unknown) => {
                    unknown = true;
                    out.push(None);
                }
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        Ok((out, unknown))
    }

    /// Like [`Self::each`] for the decided values only, failing if any is unknown.
    fn each_known(&mut self, lam: &(u32, Box<Node>), xs: &[Value]) -> Result<Vec<Value>, Stop> {
        let (vals, unknown) = self.each(lam, xs)?;
        if unknown {
            return Err(Stop::Unknown);
        }
        Ok(vals.into_iter().flatten().collect())
    }

    pub(super) fn builtin(&mut self, b: Builtin, args: &[Node], lam: Lam) -> R {
        match b {
            Builtin::Count | Builtin::Filter | Builtin::All | Builtin::Any => {
                let xs = self.list(&args[0])?;
                let Some(lam) = lam else {
                    return Ok(Value::int(xs.len() as i128));
                };
                // One pass without an intermediate list: a halt ends it, as in the interpreter.
                let (mut trues, mut falses, mut unknown) = (0usize, false, false);
                let mut kept = Vec::new();
                for x in xs.iter() {
                    match self.apply(lam, x) {
                        Ok(Value::Bool(true)) => {
                            trues += 1;
                            if b == Builtin::Filter {
                                kept.push(x.clone());
                            }
                        }
                        Ok(Value::Bool(false)) => falses = true,
                        Ok(_) => {}
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
                match b {
                    Builtin::All if falses => return Ok(Value::Bool(false)),
                    Builtin::Any if trues > 0 => return Ok(Value::Bool(true)),
                    _ => {}
                }
                if unknown {
                    return Err(Stop::Unknown);
                }
                Ok(match b {
                    Builtin::All => Value::Bool(true),
                    Builtin::Any => Value::Bool(false),
                    Builtin::Count => Value::int(trues as i128),
                    _ => Value::list(kept),
                })
            }
            Builtin::Map => {
                let xs = self.list(&args[0])?;
                let lam = lam.ok_or(Stop::Halt)?;
                Ok(Value::list(self.each_known(lam, &xs)?))
            }
            Builtin::Sum => {
                let xs = self.list(&args[0])?;
                let mut total = Num::ZERO;
                match lam {
                    Some(lam) => {
                        for v in &self.each_known(lam, &xs)? {
                            total = total.add(num(v)?).ok_or(Stop::Halt)?;
                        }
                    }
                    None => {
                        for v in xs.iter() {
                            total = total.add(num(v)?).ok_or(Stop::Halt)?;
                        }
                    }
                }
                Ok(Value::Num(total))
            }
            Builtin::Most | Builtin::Least | Builtin::Top => {
                let xs = self.list(&args[0])?;
                let lam = lam.ok_or(Stop::Halt)?;
                let keys = self.each_known(lam, &xs)?;
                let cmp = |a: &Value, c: &Value| compare(a, c).unwrap_or(Ordering::Equal);
                if b == Builtin::Top {
                    let n = num(&self.eval(&args[1])?)?;
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
                let mut best: Option<&Value> = None;
                for k in &keys {
                    best = match best {
                        None => Some(k),
                        Some(a) => {
                            let o = cmp(k, a);
                            if (b == Builtin::Most && o == Ordering::Greater)
                                || (b == Builtin::Least && o == Ordering::Less)
                            {
                                Some(k)
                            } else {
                                Some(a)
                            }
                        }
                    };
                }
                let Some(best) = best else { return Ok(Value::list(Vec::new())) };
                Ok(Value::list(
                    xs.iter()
                        .zip(&keys)
                        .filter(|(_, k)| cmp(k, best) == Ordering::Equal)
                        .map(|(x, _)| x.clone())
                        .collect(),
                ))
            }
            Builtin::Distinct => {
                let xs = self.list(&args[0])?;
                let mut out: Vec<Value> = Vec::new();
                for x in xs.iter() {
                    if !out.contains(x) {
                        out.push(x.clone());
                    }
                }
                Ok(Value::list(out))
            }
            Builtin::First | Builtin::Only => {
                let xs = self.list(&args[0])?;
                match (b, xs.len()) {
                    (_, 0) => Err(Stop::Halt),
                    (Builtin::Only, n) if n > 1 => Err(Stop::Halt),
                    _ => Ok(xs[0].clone()),
                }
            }
            Builtin::At => {
                let xs = self.list(&args[0])?;
                let n = num(&self.eval(&args[1])?)?;
                n.as_i64()
                    .filter(|&i| i >= 1 && (i as usize) <= xs.len())
                    .map(|i| xs[i as usize - 1].clone())
                    .ok_or(Stop::Halt)
            }
            Builtin::Position => {
                let xs = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                xs.iter().position(|y| *y == x).map(|i| Value::int(i as i128 + 1)).ok_or(Stop::Halt)
            }
            Builtin::Place => {
                let groups = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                let mut ahead = 0usize;
                for g in groups.iter() {
                    let g = g.as_list().ok_or(Stop::Halt)?;
                    if g.contains(&x) {
                        return Ok(Value::int(ahead as i128 + 1));
                    }
                    ahead += g.len();
                }
                Err(Stop::Halt)
            }
            Builtin::Quotient => {
                let a = num(&self.eval(&args[0])?)?;
                let d = num(&self.eval(&args[1])?)?;
                if d == Num::ZERO {
                    return self.eval(&args[2]);
                }
                a.div(d).map(Value::Num).ok_or(Stop::Halt)
            }
            Builtin::Concat => {
                let mut out = Vec::new();
                for a in args {
                    out.extend(self.list(a)?.iter().cloned());
                }
                Ok(Value::list(out))
            }
            Builtin::Contains => {
                let xs = self.list(&args[0])?;
                let x = self.eval(&args[1])?;
                Ok(Value::Bool(xs.contains(&x)))
            }
            Builtin::Min | Builtin::Max => {
                let want = if b == Builtin::Min { Ordering::Less } else { Ordering::Greater };
                let pick = |vals: &mut dyn Iterator<Item = Value>| {
                    vals.reduce(|a, c| if compare(&c, &a) == Some(want) { c } else { a }).ok_or(Stop::Halt)
                };
                if args.len() == 1 {
                    let xs = self.list(&args[0])?;
                    return pick(&mut xs.iter().cloned());
                }
                let mut out = Vec::with_capacity(args.len());
                let mut unknown = false;
                for a in args {
                    match self.eval(a) {
                        Ok(v) => out.push(v),
                        Err(Stop::Unknown) => unknown = true,
                        Err(Stop::Halt) => return Err(Stop::Halt),
                    }
                }
                if unknown {
                    return Err(Stop::Unknown);
                }
                pick(&mut out.into_iter())
            }
            Builtin::Ceil | Builtin::Floor | Builtin::Round | Builtin::Abs => {
                let n = num(&self.eval(&args[0])?)?;
                Ok(Value::Num(match b {
                    Builtin::Ceil => n.ceil(),
                    Builtin::Floor => n.floor(),
                    Builtin::Round => n.round(),
                    _ if n.is_negative() => n.neg().ok_or(Stop::Halt)?,
                    _ => n,
                }))
            }
            Builtin::Age => {
                let (Value::Date(born), Value::Date(on)) = (self.eval(&args[0])?, self.eval(&args[1])?) else {
                    return Err(Stop::Halt);
                };
                Ok(Value::int(born.age_on(on) as i128))
            }
            // Largest-remainder apportionment (ties, lots, their wording) is left to the
            // interpreter: rare, and never on a hot path.
            Builtin::Apportion => Err(Stop::Halt),
            // Dates built and taken apart: left to the interpreter for now (correct, slower).
            Builtin::Date
            | Builtin::Year
            | Builtin::Month
            | Builtin::Day
            | Builtin::Weekday
            | Builtin::NextWeekday
            | Builtin::PreviousWeekday
            | Builtin::AddMonths
            | Builtin::AddYears => Err(Stop::Halt),
            // Draws are their own node ([`super::Kind::Draw`]).
            Builtin::Draw | Builtin::Choose => Err(Stop::Halt),
        }
    }
}
