//! Orderings on compiled code (`sort …`, `rank …`), with the interpreter's semantics
//! (`crate::eval::order`): keys compared in turn, equal items tied in list order, ties
//! broken among the tied group by the tie-break keys, starting again in each smaller group.

use super::run::{R, Run, Stop};
use super::{Node, OrderNode};
use crate::eval::interp::compare;
use crate::eval::value::Value;
use std::cmp::Ordering;

/// A key of an ordering: its expression and direction.
#[derive(Clone, Debug)]
pub(crate) struct Key {
    pub(crate) key: Node,
    pub(crate) descending: bool,
}

impl<'a> Run<'a> {
    pub(super) fn order(&mut self, o: &'a OrderNode) -> R {
        let Value::List(xs) = self.eval(&o.list)? else { return Err(Stop::Halt) };
        let all: Vec<usize> = (0..xs.len()).collect();
        let mut groups = self.split(o.item, &o.keys, &xs, &all)?;
        if let Some((slot, keys)) = &o.among {
            let mut out = Vec::new();
            for g in groups {
                if g.len() > 1 {
                    self.break_tie(o.item, *slot, keys, &xs, g, &mut out)?;
                } else {
                    out.push(g);
                }
            }
            groups = out;
        }
        let pick = |g: &[usize]| g.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>();
        Ok(if o.rank {
            Value::list(groups.iter().map(|g| Value::list(pick(g))).collect())
        } else {
            Value::list(groups.iter().flat_map(|g| pick(g)).collect())
        })
    }

    fn split(&mut self, item: u32, keys: &'a [Key], xs: &[Value], group: &[usize]) -> Result<Vec<Vec<usize>>, Stop> {
        let vals = self.key_values(item, keys, xs, group)?;
        runs(group, &vals, keys)
    }

    fn key_values(
        &mut self,
        item: u32,
        keys: &'a [Key],
        xs: &[Value],
        group: &[usize],
    ) -> Result<Vec<Vec<Value>>, Stop> {
        let mut out = Vec::with_capacity(group.len());
        let mut unknown = false;
        for &i in group {
            *self.local(item) = xs[i].clone();
            let mut row = Vec::with_capacity(keys.len());
            for k in keys {
                match self.eval(&k.key) {
                    Ok(v) => row.push(v),
                    Err(Stop::Unknown) => unknown = true,
                    Err(Stop::Halt) => return Err(Stop::Halt),
                }
            }
            out.push(row);
        }
        if unknown { Err(Stop::Unknown) } else { Ok(out) }
    }

    fn break_tie(
        &mut self,
        item: u32,
        slot: u32,
        keys: &'a [Key],
        xs: &[Value],
        group: Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) -> Result<(), Stop> {
        let members: Vec<Value> = group.iter().map(|&i| xs[i].clone()).collect();
        for key in keys {
            *self.local(slot) = Value::list(members.clone());
            let one = std::slice::from_ref(key);
            let vals = self.key_values(item, one, xs, &group)?;
            let parts = runs(&group, &vals, one)?;
            if parts.len() > 1 {
                for part in parts {
                    if part.len() > 1 {
                        self.break_tie(item, slot, keys, xs, part, out)?;
                    } else {
                        out.push(part);
                    }
                }
                return Ok(());
            }
        }
        out.push(group);
        Ok(())
    }
}

/// Orders `group` by its key values (stably) and cuts it into runs equal on every key.
fn runs(group: &[usize], vals: &[Vec<Value>], keys: &[Key]) -> Result<Vec<Vec<usize>>, Stop> {
    let cmp = |a: &[Value], b: &[Value]| -> Option<Ordering> {
        for ((x, y), k) in a.iter().zip(b).zip(keys) {
            let o = compare(x, y)?;
            let o = if k.descending { o.reverse() } else { o };
            if o != Ordering::Equal {
                return Some(o);
            }
        }
        Some(Ordering::Equal)
    };
    if vals.windows(2).any(|w| cmp(&w[0], &w[1]).is_none()) {
        return Err(Stop::Halt);
    }
    let mut order: Vec<usize> = (0..group.len()).collect();
    order.sort_by(|&a, &b| cmp(&vals[a], &vals[b]).unwrap_or(Ordering::Equal));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (n, &i) in order.iter().enumerate() {
        match out.last_mut() {
            Some(last) if n > 0 && cmp(&vals[order[n - 1]], &vals[i]) == Some(Ordering::Equal) => last.push(group[i]),
            _ => out.push(vec![group[i]]),
        }
    }
    Ok(out)
}
