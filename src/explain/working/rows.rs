//! The working of orderings and shares in words: a ranking or standings as its rows (each
//! item with its keys, ties and how they were broken) and an apportionment as each share's
//! quota, whole part and remainder. Frame words come from the message files.

use super::super::Explainer;
use super::super::messages::{Arg, msg_into, word_ref as word};
use super::super::scratch::Buf;
use super::super::table::{self, ROWS_MAX, TABLE_MIN, Table, TableRow};
use super::LIST_MAX;
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::types::Type;
use crate::eval::trace::{KeyName, Work, WorkKind};
use crate::show;
use std::cmp::Ordering;

impl Explainer<'_> {
    pub(super) fn ranking(
        &self,
        b: crate::check::program::Builtin,
        items: &[(Value, Value)],
        elem: &Type,
        key: &Type,
        key_name: &KeyName,
        places: Option<&Value>,
        w: &Work,
    ) -> Option<Buf> {
        if items.len() < 2 {
            return None;
        }
        let cmp = |a: &Value, c: &Value| {
            super::super::meter::charge(1);
            crate::eval::interp::compare(a, c).unwrap_or(Ordering::Equal)
        };
        let mut order: Vec<usize> = (0..items.len()).collect();
        let desc = b != crate::check::program::Builtin::Least;
        order.sort_by(|&i, &j| if desc { cmp(&items[j].1, &items[i].1) } else { cmp(&items[i].1, &items[j].1) });
        // Each item's place (one more than the items ranked above it) and how many share its
        // key, from the sorted order: the items of a key lie together there.
        let mut rank = vec![0usize; items.len()];
        let mut same = vec![0usize; items.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            while end < order.len() && cmp(&items[order[end]].1, &items[order[start]].1).is_eq() {
                end += 1;
            }
            for &i in &order[start..end] {
                rank[i] = start + 1;
                same[i] = end - start;
            }
            start = end;
        }
        let (taken, taken_n): (std::collections::HashSet<&Value>, usize) = match &w.value {
            Some(Value::List(xs)) => (xs.iter().collect(), xs.len()),
            _ => Default::default(),
        };
        let places_n = places.and_then(|p| p.as_num()).and_then(|n| n.as_i64());
        if (TABLE_MIN..=ROWS_MAX).contains(&items.len())
            && let Some(s) =
                self.ranking_table(items, elem, key, key_name, places, &order, &rank, &same, &taken, taken_n)
        {
            return Some(s);
        }
        // The rows one after the other, " · " between them.
        let mut table = Buf::new();
        for (n, &i) in order.iter().enumerate() {
            if !super::super::meter::charge(1) {
                return None;
            }
            let r = rank[i];
            let tied = same[i] > 1;
            let at_cut = places_n.is_some_and(|p| tied && r as i64 <= p && r as i64 + same[i] as i64 - 1 > p);
            if n > 0 {
                table.push_str(" · ");
            }
            msg_into(
                &mut table,
                self.lang,
                "ranking-row",
                &[
                    ("rank", Arg::Num(r as i64)),
                    ("item", Arg::Text(&self.show(&items[i].0, elem))),
                    ("key", Arg::Text(&self.show(&items[i].1, key))),
                ],
            );
            if at_cut {
                table.push(' ');
                table.push_str(word(self.lang, "tied-at-cut"));
            }
        }
        Some(match places {
            Some(p) => {
                // The first item left out, in the list's order.
                let first_out = items.iter().position(|(x, _)| !taken.contains(x));
                let mut s = self.m(
                    "ranking-top",
                    &[
                        ("table", Arg::Text(&table)),
                        ("places", Arg::Text(&self.show(p, &Type::Int))),
                        ("n", Arg::Num(taken_n as i64)),
                    ],
                );
                if let Some(i) = first_out {
                    s.push_str("; ");
                    s.push_str(&self.m(
                        "ranking-first-out",
                        &[
                            ("item", Arg::Text(&self.show(&items[i].0, elem))),
                            ("rank", Arg::Num(rank[i] as i64)),
                            ("key", Arg::Text(&self.show(&items[i].1, key))),
                        ],
                    ));
                }
                s
            }
            None => self.m("ranking-best", &[("table", Arg::Text(&table))]),
        })
    }

    /// A ranking as a table (place, item, key; the rows at the cut or in first place marked),
    /// offered to the step; when taken, the sentence says only the cut and the ties at it.
    #[allow(clippy::too_many_arguments)]
    fn ranking_table(
        &self,
        items: &[(Value, Value)],
        elem: &Type,
        key: &Type,
        key_name: &KeyName,
        places: Option<&Value>,
        order: &[usize],
        rank: &[usize],
        same: &[usize],
        taken: &std::collections::HashSet<&Value>,
        taken_n: usize,
    ) -> Option<Buf> {
        let places_n = places.and_then(|p| p.as_num()).and_then(|n| n.as_i64()).map(|p| p.max(0) as usize);
        // The last place that goes through (a group tied at the cut goes through whole).
        let last_in = places_n.map(|p| {
            order
                .iter()
                .filter(|&&i| if taken.is_empty() { rank[i] <= p } else { taken.contains(&items[i].0) })
                .map(|&i| rank[i] + same[i] - 1)
                .max()
                .unwrap_or(0)
        });
        // The rows that decide: the last group in and the first group out; without a cut, the first.
        let decides = |i: usize| match last_in {
            Some(end) => (end > 0 && rank[i] + same[i] - 1 == end) || rank[i] == end + 1,
            None => rank[i] == 1,
        };
        // Items ranked by themselves (numbers, say) need no column for the key.
        let by_self = items.iter().all(|(x, k)| x == k);
        let rows = order
            .iter()
            .map(|&i| {
                let mut cells = vec![table::place(rank[i], same[i]), self.show(&items[i].0, elem).into_string()];
                if !by_self {
                    cells.push(self.show(&items[i].1, key).into_string());
                }
                TableRow { cells, decides: decides(i) }
            })
            .collect();
        let header = self.key_header(key_name);
        let mut columns = vec![word(self.lang, "col-place").to_string(), word(self.lang, "col-name").to_string()];
        let mut numeric = vec![false, is_number(elem) && by_self];
        if !by_self {
            columns.push(capital(&header));
            numeric.push(is_number(key));
        }
        let caption = if by_self {
            word(self.lang, "table-standings").to_string()
        } else {
            self.m("table-ranking", &[("key", Arg::Text(&header))]).into_string()
        };
        let t = Table { kind: "ranking", caption, columns, numeric, rows };
        if !table::offer(t) {
            return None;
        }
        // The ties at the cut (or in first place), in words.
        let mut s = Buf::new();
        let group_words = |s: &mut Buf, first: usize| {
            let members: Vec<&Value> = order.iter().filter(|&&i| rank[i] == first).map(|&i| &items[i].0).collect();
            let Some(&i) = order.iter().find(|&&i| rank[i] == first) else { return };
            let k = self.show(&items[i].1, key);
            if members.len() > 1 {
                msg_into(
                    s,
                    self.lang,
                    "ranking-shared",
                    &[
                        ("items", Arg::Text(&self.list(&members, elem))),
                        ("rank", Arg::Num(first as i64)),
                        ("key", Arg::Text(&k)),
                    ],
                );
            } else {
                msg_into(
                    s,
                    self.lang,
                    "ranking-alone",
                    &[
                        ("item", Arg::Text(&self.show(members[0], elem))),
                        ("rank", Arg::Num(first as i64)),
                        ("key", Arg::Text(&k)),
                    ],
                );
            }
        };
        match places {
            Some(p) => {
                msg_into(
                    &mut s,
                    self.lang,
                    "ranking-cut",
                    &[("places", Arg::Text(&self.show(p, &Type::Int))), ("n", Arg::Num(taken_n as i64))],
                );
                // The group at the cut, when tied, and the first left out.
                if let Some(p) = places_n
                    && let Some(&i) = order.iter().find(|&&i| rank[i] <= p && rank[i] + same[i] > p && same[i] > 1)
                {
                    s.push_str("; ");
                    group_words(&mut s, rank[i]);
                }
                if let Some(i) = order.iter().copied().find(|&i| !taken.contains(&items[i].0)) {
                    s.push_str("; ");
                    msg_into(
                        &mut s,
                        self.lang,
                        "ranking-first-out",
                        &[
                            ("item", Arg::Text(&self.show(&items[i].0, elem))),
                            ("rank", Arg::Num(rank[i] as i64)),
                            ("key", Arg::Text(&self.show(&items[i].1, key))),
                        ],
                    );
                }
            }
            None => group_words(&mut s, 1),
        }
        Some(s)
    }

    /// The items of a count whose condition compares a field of each, with the field's value
    /// for each (the items counted marked), offered to the step as a table.
    pub(super) fn compared_table(
        &self,
        items: &[(Value, Option<bool>)],
        elem: &Type,
        compared: &(KeyName, Type, Vec<Option<Value>>),
    ) {
        let (name, ty, vals) = compared;
        if !(TABLE_MIN..=ROWS_MAX).contains(&items.len()) || vals.len() != items.len() {
            return;
        }
        let header = self.key_header(name);
        let rows = items
            .iter()
            .zip(vals)
            .map(|((x, counted), v)| TableRow {
                cells: vec![
                    self.show(x, elem).into_string(),
                    v.as_ref().map_or_else(|| "?".to_string(), |v| self.show(v, ty).into_string()),
                ],
                decides: *counted == Some(true),
            })
            .collect();
        table::offer(Table {
            kind: "compared",
            caption: capital(&self.m("table-each", &[("key", Arg::Text(&header))])),
            columns: vec![word(self.lang, "col-name").to_string(), capital(&header)],
            numeric: vec![false, is_number(ty)],
            rows,
        });
    }

    /// How a key is named as a column's header: a field by its `says` phrase or the head of
    /// its description, a definition by its label.
    fn key_header(&self, k: &KeyName) -> String {
        match k {
            KeyName::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => fs
                    .get(*i as usize)
                    .map_or_else(String::new, |f| self.short(f.says.as_deref(), f.doc.as_deref(), &f.name)),
                _ => String::new(),
            },
            _ => self.key_label(k),
        }
    }

    /// How a key of an ordering is named in a sentence.
    fn key_label(&self, k: &KeyName) -> String {
        match k {
            KeyName::Def(d) => self.def_label(*d),
            KeyName::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => fs.get(*i as usize).map_or_else(String::new, |f| {
                    f.doc.as_deref().map_or_else(|| f.name.replace('_', " "), |d| self.gloss(d))
                }),
                _ => String::new(),
            },
            KeyName::Nth(n) => self.m("order-key", &[("n", Arg::Num(*n as i64))]).into_string(),
        }
    }

    /// An ordering in words: each key's values, every tie broken among the tied (which
    /// criterion separated whom, with the values), and the standings with shared places.
    pub(super) fn standings(
        &self,
        items: &[Value],
        elem: &Type,
        keys: &[(KeyName, Type, Vec<Option<Value>>)],
        among: &[(KeyName, Type)],
        breaks: &[crate::eval::order::TieBreak],
        groups: &[Vec<Value>],
    ) -> Vec<String> {
        let mut out = Vec::new();
        let valued = |xs: &[Value], vals: &[Value], ty: &Type| {
            let parts: Vec<String> =
                xs.iter().zip(vals).map(|(x, v)| format!("{} {}", self.show(x, elem), self.show(v, ty))).collect();
            parts.join(", ")
        };
        let tabled =
            (TABLE_MIN..=ROWS_MAX).contains(&items.len()) && self.standings_table(items, elem, keys, breaks, groups);
        if !tabled && items.len() <= LIST_MAX {
            for (name, ty, vals) in keys {
                // A key is shown for the items it was worked out for: those still tied when
                // it was reached.
                let (shown, vals): (Vec<Value>, Vec<Value>) =
                    items.iter().zip(vals).filter_map(|(x, v)| Some((x.clone(), v.clone()?))).unzip();
                if shown.is_empty() {
                    continue;
                }
                out.push(
                    self.m(
                        "ordered-by",
                        &[("key", Arg::Text(&self.key_label(name))), ("values", Arg::Text(&valued(&shown, &vals, ty)))],
                    )
                    .into_string(),
                );
            }
        }
        for b in breaks {
            let members = self.list(&b.group.iter().collect::<Vec<_>>(), elem);
            out.push(match &b.by {
                Some((k, vals)) => {
                    let (name, ty) = &among[*k];
                    let (id, shown) = if b.group.len() <= LIST_MAX {
                        ("tie-broken", valued(&b.group, vals, ty))
                    } else {
                        ("tie-broken-bare", String::new())
                    };
                    self.m(
                        id,
                        &[
                            ("items", Arg::Text(&members)),
                            ("key", Arg::Text(&self.key_label(name))),
                            ("values", Arg::Text(&shown)),
                        ],
                    )
                    .into_string()
                }
                None => self.m("tie-kept", &[("items", Arg::Text(&members))]).into_string(),
            });
        }
        if tabled {
            // The places shared, in words (those level on every tie-break are said above).
            let mut place = 1;
            for g in groups {
                let kept = breaks
                    .iter()
                    .any(|b| b.by.is_none() && b.group.len() == g.len() && g.iter().all(|x| b.group.contains(x)));
                if g.len() > 1 && !kept {
                    out.push(
                        self.m(
                            "standings-share",
                            &[
                                ("items", Arg::Text(&self.list(&g.iter().collect::<Vec<_>>(), elem))),
                                ("place", Arg::Num(place)),
                            ],
                        )
                        .into_string(),
                    );
                }
                place += g.len() as i64;
            }
            return out;
        }
        let mut place = 1;
        let rows: Vec<String> = groups
            .iter()
            .map(|g| {
                let id = if g.len() > 1 { "standings-shared" } else { "standings-row" };
                let row = self.m(
                    id,
                    &[
                        ("place", Arg::Num(place)),
                        ("items", Arg::Text(&self.list(&g.iter().collect::<Vec<_>>(), elem))),
                    ],
                );
                place += g.len() as i64;
                row.into_string()
            })
            .collect();
        out.push(self.m("standings", &[("table", Arg::Text(&rows.join(" · ")))]).into_string());
        out
    }

    /// Standings as a table (place, shared as "2–3", item, each key's value; the rows that
    /// share a place or were separated by a tie-break marked), offered to the step.
    fn standings_table(
        &self,
        items: &[Value],
        elem: &Type,
        keys: &[(KeyName, Type, Vec<Option<Value>>)],
        breaks: &[crate::eval::order::TieBreak],
        groups: &[Vec<Value>],
    ) -> bool {
        let mut columns = vec![word(self.lang, "col-place").to_string(), word(self.lang, "col-name").to_string()];
        let mut numeric = vec![false, false];
        for (name, ty, _) in keys {
            columns.push(capital(&self.key_header(name)));
            numeric.push(is_number(ty));
        }
        let broken = |x: &Value| breaks.iter().any(|b| b.by.is_some() && b.group.contains(x));
        let mut rows = Vec::with_capacity(items.len());
        let mut place = 1;
        for g in groups {
            for x in g {
                if !super::super::meter::charge(1) {
                    return false;
                }
                let at = items.iter().position(|y| y == x);
                let mut cells = vec![table::place(place, g.len()), self.show(x, elem).into_string()];
                for (_, ty, vals) in keys {
                    cells.push(
                        // A key left unworked (the item was no longer tied) is an empty cell.
                        at.and_then(|k| vals.get(k))
                            .and_then(Option::as_ref)
                            .map_or_else(String::new, |v| self.show(v, ty).into_string()),
                    );
                }
                rows.push(TableRow { cells, decides: g.len() > 1 || broken(x) });
            }
            place += g.len();
        }
        table::offer(Table {
            kind: "standings",
            caption: word(self.lang, "table-standings").to_string(),
            columns,
            numeric,
            rows,
        })
    }

    /// An apportionment's answer beside its items: "Nordjylland: 8; Vestjylland: 5; …".
    pub(crate) fn apportioned(&self, w: &Work) -> Option<String> {
        let WorkKind::Apportion { items, elem, .. } = &w.kind else { return None };
        let Some(Value::List(xs)) = &w.value else { return None };
        if xs.len() != items.len() {
            return None;
        }
        let rows: Vec<String> = items
            .iter()
            .zip(xs.iter())
            .map(|((x, _), n)| {
                self.m(
                    "apportioned",
                    &[("item", Arg::Text(&self.show(x, elem))), ("seats", Arg::Text(&self.show(n, &Type::Int)))],
                )
                .into_string()
            })
            .collect();
        Some(rows.join("; "))
    }

    pub(super) fn apportion(
        &self,
        seats: &Value,
        items: &[(Value, Value)],
        elem: &Type,
        weight: &KeyName,
        w: &Work,
    ) -> Option<String> {
        let s = seats.as_num()?;
        let weights: Vec<Num> = items.iter().map(|(_, v)| v.as_num()).collect::<Option<_>>()?;
        let total = weights.iter().try_fold(Num::ZERO, |a, x| a.add(*x))?;
        if total == Num::ZERO {
            return None;
        }
        let quotas: Vec<Num> = weights.iter().map(|x| s.mul(*x).and_then(|y| y.div(total))).collect::<Option<_>>()?;
        let floors = quotas.iter().try_fold(Num::ZERO, |a, q| a.add(q.floor()))?;
        let left = s.sub(floors)?.as_i64()?.max(0) as usize;
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by(|&a, &b| quotas[b].fract().cmp(&quotas[a].fract()));
        super::super::meter::charge(items.len() as u64 * (1 + items.len().max(1).ilog2() as u64));
        // The items tied on the remainder at the cut, when more of them than places are left.
        let mut tied = vec![false; items.len()];
        if left > 0 && left <= order.len() {
            let cut = quotas[order[left - 1]].fract();
            let t = order.iter().filter(|&&i| quotas[i].fract() == cut).count();
            let sure = order.iter().filter(|&&i| quotas[i].fract() > cut).count();
            if t > left - sure {
                for &i in &order {
                    tied[i] = quotas[i].fract() == cut;
                }
            }
        }
        let given: Vec<String> = match &w.value {
            Some(Value::List(xs)) => xs.iter().map(|x| self.show(x, &Type::Int).into_string()).collect(),
            _ => vec!["?".into(); items.len()],
        };
        let sum_args = [
            ("seats", Arg::Text(&self.show(seats, &Type::Int))),
            ("total", Arg::Text(&show::number(total, self.lang, 0))),
            ("left", Arg::Num(left as i64)),
        ];
        if (TABLE_MIN..=ROWS_MAX).contains(&items.len()) {
            // The rows at the remainder's cut decide: those tied on it, else the last to get a
            // place left over and the first not to.
            let mut decides = tied.clone();
            if !tied.contains(&true) && left > 0 {
                for &i in order.iter().skip(left - 1).take(2) {
                    decides[i] = true;
                }
            }
            let header = self.key_header(weight);
            let num = |n: Num| show::number(n, self.lang, 0);
            let rows = items
                .iter()
                .enumerate()
                .map(|(i, (x, wt))| TableRow {
                    cells: vec![
                        self.show(x, elem).into_string(),
                        self.show(wt, &Type::Int).into_string(),
                        num(quotas[i]),
                        num(quotas[i].floor()),
                        num(quotas[i].fract()),
                        given.get(i).cloned().unwrap_or_else(|| "?".into()),
                    ],
                    decides: decides[i],
                })
                .collect();
            let t = Table {
                kind: "apportionment",
                caption: self
                    .m("table-apportion", &[("seats", Arg::Text(&self.show(seats, &Type::Int)))])
                    .into_string(),
                columns: vec![
                    word(self.lang, "col-name").to_string(),
                    capital(&header),
                    word(self.lang, "col-quota").to_string(),
                    word(self.lang, "col-whole").to_string(),
                    word(self.lang, "col-remainder").to_string(),
                    word(self.lang, "col-places").to_string(),
                ],
                numeric: vec![false, true, true, true, true, true],
                rows,
            };
            if table::offer(t) {
                return Some(self.m("apportion-sum", &sum_args).into_string());
            }
        }
        let rows: Vec<String> = items
            .iter()
            .enumerate()
            .map(|(i, (x, wt))| {
                let row = self.m(
                    "apportion-row",
                    &[
                        ("item", Arg::Text(&self.show(x, elem))),
                        ("weight", Arg::Text(&self.show(wt, &Type::Int))),
                        ("quota", Arg::Text(&show::number(quotas[i], self.lang, 0))),
                        ("whole", Arg::Text(&show::number(quotas[i].floor(), self.lang, 0))),
                        ("seats", Arg::Text(given.get(i).map_or("?", String::as_str))),
                    ],
                );
                if tied[i] { format!("{row} {}", word(self.lang, "tied-on-remainder")) } else { row.into_string() }
            })
            .collect();
        Some(
            self.m(
                "apportion",
                &[
                    ("seats", Arg::Text(&self.show(seats, &Type::Int))),
                    ("total", Arg::Text(&show::number(total, self.lang, 0))),
                    ("left", Arg::Num(left as i64)),
                    ("rows", Arg::Text(&rows.join(" · "))),
                ],
            )
            .into_string(),
        )
    }
}

/// A header with a capital first letter.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Whether values of the type are numbers (a column aligned to the right).
fn is_number(ty: &Type) -> bool {
    matches!(ty, Type::Int | Type::Quantity(_))
}
