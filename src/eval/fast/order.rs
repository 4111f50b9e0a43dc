//! Orderings of compiled code (`sort …`, `rank …`), with the interpreter's semantics
//! (`crate::eval::order`): keys compared in turn, each worked out only for the items still
//! tied on the keys before it, equal items tied in list order, ties broken among the tied
//! group by the tie-break keys, starting again in each smaller group (or going on with the
//! next key, `in turn`).

use super::code::{Items, Val, val};
use super::cx::{Cx, R, Stop};
use super::lower::Lower;
use crate::base::value::Value;
use crate::check::program::{KeyIr, OrderIr};
use crate::eval::interp::compare;
use std::cmp::Ordering;

/// A key of an ordering: its code, its steps (counted for each item) and its direction.
struct Key {
    key: Val,
    cost: u64,
    descending: bool,
}

/// `sort …` / `rank …` compiled.
struct OrderCode {
    rank: bool,
    list: Items,
    item: u32,
    keys: Box<[Key]>,
    among: Option<(u32, Box<[Key]>)>,
    in_turn: bool,
}

impl Lower<'_> {
    pub(crate) fn order(&self, o: &OrderIr) -> Val {
        let keys = |ks: &[KeyIr]| -> Box<[Key]> {
            ks.iter()
                .map(|k| Key { key: self.val(&k.key), cost: self.cost(&k.key), descending: k.descending })
                .collect()
        };
        let code = OrderCode {
            rank: o.rank,
            list: self.items(&o.list),
            item: o.item,
            keys: keys(&o.keys),
            among: o.among.as_ref().map(|(slot, ks)| (*slot, keys(ks))),
            in_turn: o.in_turn,
        };
        val(move |cx| code.run(cx))
    }
}

impl OrderCode {
    fn run<'r>(&self, cx: &mut Cx<'r>) -> R<&'r Value> {
        let start = cx.locals.len();
        (self.list)(cx)?;
        let xs: Vec<&'r Value> = cx.locals.drain(start..).collect();
        let mut groups = vec![(0..xs.len()).collect::<Vec<usize>>()];
        for key in &self.keys {
            groups = self.split(cx, key, &xs, groups)?;
        }
        if let Some((slot, keys)) = &self.among {
            let mut out = Vec::new();
            for g in groups {
                if g.len() > 1 {
                    self.break_tie(cx, *slot, keys, 0, &xs, g, &mut out)?;
                } else {
                    out.push(g);
                }
            }
            groups = out;
        }
        let pick = |g: &[usize]| g.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>();
        let ordered = if self.rank {
            Value::list(groups.iter().map(|g| Value::list(pick(g))).collect())
        } else {
            Value::list(groups.iter().flat_map(|g| pick(g)).collect())
        };
        Ok(cx.keep_value(ordered))
    }

    /// Splits each of `groups` that is still tied by `key`, worked out for its items only.
    fn split<'r>(&self, cx: &mut Cx<'r>, key: &Key, xs: &[&'r Value], groups: Vec<Vec<usize>>) -> R<Vec<Vec<usize>>> {
        let one = std::slice::from_ref(key);
        let mut out = Vec::with_capacity(groups.len());
        let mut unknown = false;
        for g in groups {
            if g.len() < 2 {
                out.push(g);
                continue;
            }
            match self.key_values(cx, one, xs, &g) {
                Ok(vals) => out.extend(runs(&g, &vals, one)?),
                Err(Stop::Unknown) => {
                    unknown = true;
                    out.push(g);
                }
                Err(Stop::Halt) => return Err(Stop::Halt),
            }
        }
        if unknown { Err(Stop::Unknown) } else { Ok(out) }
    }

    fn key_values<'r>(&self, cx: &mut Cx<'r>, keys: &[Key], xs: &[&'r Value], group: &[usize]) -> R<Vec<Vec<Value>>> {
        let mut out = Vec::with_capacity(group.len());
        let mut unknown = false;
        for &i in group {
            cx.bind(self.item, xs[i]);
            let mut row = Vec::with_capacity(keys.len());
            for k in keys {
                cx.count(k.cost)?;
                match (k.key)(cx) {
                    Ok(v) => row.push(v.clone()),
                    Err(Stop::Unknown) => unknown = true,
                    Err(Stop::Halt) => return Err(Stop::Halt),
                }
            }
            out.push(row);
        }
        if unknown { Err(Stop::Unknown) } else { Ok(out) }
    }

    /// Breaks the tie of `group` by the tie-break keys from the `from`th on.
    #[allow(clippy::too_many_arguments)]
    fn break_tie<'r>(
        &self,
        cx: &mut Cx<'r>,
        slot: u32,
        keys: &[Key],
        from: usize,
        xs: &[&'r Value],
        group: Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) -> R<()> {
        let members: Vec<Value> = group.iter().map(|&i| xs[i].clone()).collect();
        for (k, key) in keys.iter().enumerate().skip(from) {
            let tied = cx.keep_value(Value::list(members.clone()));
            cx.bind(slot, tied);
            let one = std::slice::from_ref(key);
            let vals = self.key_values(cx, one, xs, &group)?;
            let parts = runs(&group, &vals, one)?;
            if parts.len() > 1 {
                let next = if self.in_turn { k + 1 } else { 0 };
                for part in parts {
                    if part.len() > 1 {
                        self.break_tie(cx, slot, keys, next, xs, part, out)?;
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
fn runs(group: &[usize], vals: &[Vec<Value>], keys: &[Key]) -> R<Vec<Vec<usize>>> {
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
