//! Ordering a list by keys (`sort …`, `rank …`): keys compared in turn, each ascending or
//! descending; each key is worked out only for the items still tied on the keys before it,
//! so that a key with no value for an item already separated (a quotient whose divisor is
//! zero) never stops the ordering. Items equal on every key stay tied, in their order in the
//! list. A tie is then broken among the tied (`among tied by …`): the tie-break keys are read
//! with the tied group at hand and the first key that separates the group splits it; each
//! smaller tied group starts again from the first tie-break key among itself, or, with
//! `among tied in turn by …`, goes on with the next key.

use super::interp::{Halt, Interp, R, compare, error, merge};
use crate::base::value::Value;
use crate::check::program::{KeyIr, OrderIr};
use crate::syntax::ast::Span;
use std::cmp::Ordering;

/// One tie broken (or kept) among a group, for the explanation.
#[derive(Clone, Debug, PartialEq)]
pub struct TieBreak {
    /// The tied items.
    pub group: Vec<Value>,
    /// The tie-break key that separated them, with each item's value of it; `None` when no
    /// key separates them (they stay tied).
    pub by: Option<(usize, Vec<Value>)>,
}

/// What an ordering worked out, for the explanation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Worked {
    /// Each key after `by`: its value for each item, where it was worked out (`None`: the
    /// item was already separated from the others by the keys before).
    pub keys: Vec<Vec<Option<Value>>>,
    /// Every tie broken (or kept) among a group, in order.
    pub breaks: Vec<TieBreak>,
}

/// An ordered list's items and its tied groups, best first (each an index list into the items).
type Groups = (std::sync::Arc<[Value]>, Vec<Vec<usize>>);

impl Interp<'_> {
    /// Evaluates an ordering: the tied groups, best first (`rank`), or the items in order (`sort`).
    pub(crate) fn order(&mut self, o: &OrderIr, frame: &mut Vec<Value>) -> R {
        let (xs, groups) = self.order_groups(o, frame, None)?;
        let pick = |g: &[usize]| g.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>();
        Ok(if o.rank {
            Value::list(groups.iter().map(|g| Value::list(pick(g))).collect())
        } else {
            Value::list(groups.iter().flat_map(|g| pick(g)).collect())
        })
    }

    /// The list ordered and its tied groups (indices into the list), best first; with
    /// `worked`, the keys' values worked out and every tie broken (or kept) are recorded.
    pub(crate) fn order_groups(
        &mut self,
        o: &OrderIr,
        frame: &mut Vec<Value>,
        worked: Option<&mut Worked>,
    ) -> Result<Groups, Halt> {
        let xs = match self.eval(&o.list, frame)? {
            Value::List(xs) => xs,
            _ => return Err(error("not a list", o.list.span)),
        };
        // The keys take a value per item: none is kept for the working.
        self.per_item += 1;
        let groups = self.ordered(o, &xs, frame, worked);
        self.per_item -= 1;
        Ok((xs, groups?))
    }

    /// The tied groups of `xs` (see [`Self::order_groups`]).
    fn ordered(
        &mut self,
        o: &OrderIr,
        xs: &[Value],
        frame: &mut Vec<Value>,
        mut worked: Option<&mut Worked>,
    ) -> Result<Vec<Vec<usize>>, Halt> {
        if let Some(w) = worked.as_deref_mut() {
            w.keys = vec![vec![None; xs.len()]; o.keys.len()];
        }
        let mut groups = vec![(0..xs.len()).collect::<Vec<usize>>()];
        for (k, key) in o.keys.iter().enumerate() {
            groups = self.split(o, key, k, xs, groups, frame, worked.as_deref_mut())?;
        }
        if let Some((slot, keys)) = &o.among {
            let mut out = Vec::new();
            let mut breaks = worked.map(|w| &mut w.breaks);
            for g in groups {
                if g.len() > 1 {
                    self.break_tie(o, *slot, keys, 0, xs, g, frame, &mut out, breaks.as_deref_mut())?;
                } else {
                    out.push(g);
                }
            }
            groups = out;
        }
        Ok(groups)
    }

    /// Splits each of `groups` that is still tied by the `k`th key after `by`, worked out for
    /// its items only; what is undetermined is collected over every group.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        o: &OrderIr,
        key: &KeyIr,
        k: usize,
        xs: &[Value],
        groups: Vec<Vec<usize>>,
        frame: &mut Vec<Value>,
        mut worked: Option<&mut Worked>,
    ) -> Result<Vec<Vec<usize>>, Halt> {
        let one = std::slice::from_ref(key);
        let mut out = Vec::with_capacity(groups.len());
        let mut needs = Vec::new();
        for g in groups {
            if g.len() < 2 {
                out.push(g);
                continue;
            }
            match self.key_values(o, one, xs, &g, frame) {
                Ok(vals) => {
                    if let Some(w) = worked.as_deref_mut() {
                        for (&i, row) in g.iter().zip(&vals) {
                            w.keys[k][i] = row.first().cloned();
                        }
                    }
                    out.extend(runs(&g, &vals, one, o.list.span)?);
                }
                Err(Halt::Undetermined(n)) => {
                    needs = merge(needs, n);
                    out.push(g);
                }
                Err(e) => return Err(e),
            }
        }
        if needs.is_empty() { Ok(out) } else { Err(Halt::Undetermined(needs)) }
    }

    /// Every key's value for every item of `group`, collecting what is undetermined.
    pub(crate) fn key_values(
        &mut self,
        o: &OrderIr,
        keys: &[KeyIr],
        xs: &[Value],
        group: &[usize],
        frame: &mut Vec<Value>,
    ) -> Result<Vec<Vec<Value>>, Halt> {
        let mut out = Vec::with_capacity(group.len());
        let mut needs = Vec::new();
        for &i in group {
            frame[o.item as usize] = xs[i].clone();
            let mut row = Vec::with_capacity(keys.len());
            for k in keys {
                match self.eval(&k.key, frame) {
                    Ok(v) => row.push(v),
                    Err(Halt::Undetermined(n)) => needs = merge(needs, n),
                    Err(e) => return Err(e),
                }
            }
            out.push(row);
        }
        if needs.is_empty() { Ok(out) } else { Err(Halt::Undetermined(needs)) }
    }

    /// Breaks the tie of `group` by the tie-break keys from the `from`th on: the first that
    /// separates it splits it, and each smaller tied group starts again from the first key
    /// (or goes on with the next, `in turn`).
    #[allow(clippy::too_many_arguments)]
    fn break_tie(
        &mut self,
        o: &OrderIr,
        slot: u32,
        keys: &[KeyIr],
        from: usize,
        xs: &[Value],
        group: Vec<usize>,
        frame: &mut Vec<Value>,
        out: &mut Vec<Vec<usize>>,
        mut breaks: Option<&mut Vec<TieBreak>>,
    ) -> Result<(), Halt> {
        let members: Vec<Value> = group.iter().map(|&i| xs[i].clone()).collect();
        for (k, key) in keys.iter().enumerate().skip(from) {
            frame[slot as usize] = Value::list(members.clone());
            let vals = self.key_values(o, std::slice::from_ref(key), xs, &group, frame)?;
            let parts = runs(&group, &vals, std::slice::from_ref(key), key.key.span)?;
            if parts.len() > 1 {
                if let Some(b) = breaks.as_deref_mut() {
                    b.push(TieBreak { group: members, by: Some((k, vals.into_iter().flatten().collect())) });
                }
                let next = if o.in_turn { k + 1 } else { 0 };
                for part in parts {
                    if part.len() > 1 {
                        self.break_tie(o, slot, keys, next, xs, part, frame, out, breaks.as_deref_mut())?;
                    } else {
                        out.push(part);
                    }
                }
                return Ok(());
            }
        }
        if let Some(b) = breaks {
            b.push(TieBreak { group: members, by: None });
        }
        out.push(group);
        Ok(())
    }
}

/// Orders `group` by its key values (stably: equal items keep their order) and cuts it into
/// runs of items equal on every key.
fn runs(group: &[usize], vals: &[Vec<Value>], keys: &[KeyIr], span: Span) -> Result<Vec<Vec<usize>>, Halt> {
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
    // The keys must all be comparable before sorting.
    for w in vals.windows(2) {
        if cmp(&w[0], &w[1]).is_none() {
            return Err(error("values cannot be compared", span));
        }
    }
    let mut order: Vec<usize> = (0..group.len()).collect();
    order.sort_by(|&a, &b| cmp(&vals[a], &vals[b]).unwrap_or(Ordering::Equal));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (n, &i) in order.iter().enumerate() {
        match n {
            0 => out.push(vec![group[i]]),
            _ if cmp(&vals[order[n - 1]], &vals[i]) == Some(Ordering::Equal) => {
                if let Some(last) = out.last_mut() {
                    last.push(group[i]);
                }
            }
            _ => out.push(vec![group[i]]),
        }
    }
    Ok(out)
}
