//! Table lints: under `pick unique`, values no row covers (`lint::table_gap`) and
//! values two rows cover (`lint::table_overlap`); under `pick first`, rows that can
//! never be picked (`lint::shadowed_row`).
//!
//! Every combination of column pieces is tried, but not against every row: each column
//! indexes its rows by the pieces they match (a constant finds its piece by hashing, a
//! range its run of pieces by binary search), and a combination looks only at the rows
//! of its most selective column, in row order, until two match. A table of constant
//! keys is analysed in time near-linear in its rows.

use super::space::{Piece, combinations, matches, pieces, show_combo};
use crate::base::value::Value;
use crate::check::program::{PatIr, Program, RowIr};
use crate::diagnostic::Diagnostic;
use crate::eval::interp::compare;
use crate::syntax::ast::Policy;
use std::collections::{HashMap, HashSet};

const SHOW: usize = 4;

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for def in &p.defs {
        let Some(table) = &def.table else { continue };
        if table.policy == Policy::Collect || table.rows.is_empty() {
            continue;
        }
        let mut columns = Vec::new();
        for (i, (pname, ty)) in def.params.iter().enumerate() {
            let pats: Vec<_> = table.rows.iter().filter_map(|r| r.keys.get(i)).collect();
            let open = pats.iter().all(|k| matches!(k, PatIr::Any | PatIr::Bind(_)));
            match pieces(p, ty, &pats) {
                Some(c) => columns.push(c),
                // A column of any type that every row matches whole (`_` or a name) is one piece.
                None if open => columns.push(vec![Piece { value: Value::Bool(false), label: "any value".into() }]),
                None => {
                    out.push(
                        Diagnostic::warning(
                            "lint::table_not_analysed",
                            format!("table `{}` cannot be checked for gaps and overlaps", def.name),
                        )
                        .at(def.span, format!("column `{pname}` is not a number, date, enum, bool or text"))
                        .help("the analysis covers numbers, dates, enums, truth values and text literals"),
                    );
                    columns.clear();
                    break;
                }
            }
        }
        if columns.len() != def.params.len() {
            continue;
        }
        let Some(combos) = combinations(&columns) else {
            out.push(
                Diagnostic::warning(
                    "lint::table_not_analysed",
                    format!("table `{}` is too large to check for gaps and overlaps", def.name),
                )
                .at(def.span, "too many combinations of keys")
                .help("split the table, or accept that its gaps are not checked"),
            );
            continue;
        };
        let index: Vec<Index> = columns.iter().enumerate().map(|(i, col)| Index::new(&table.rows, i, col)).collect();
        let mut gaps = Vec::new();
        let mut overlaps: Vec<(usize, usize, String)> = Vec::new();
        let mut seen = HashSet::new();
        let mut first_hits = vec![false; table.rows.len()];
        for combo in &combos {
            let hits = first_two(&table.rows, &columns, &index, combo);
            match hits {
                (None, _) => gaps.push(show_combo(&columns, combo)),
                (Some(a), None) => first_hits[a] = true,
                (Some(a), Some(b)) => {
                    first_hits[a] = true;
                    if table.policy == Policy::Unique && seen.insert((a, b)) {
                        overlaps.push((a, b, show_combo(&columns, combo)));
                    }
                }
            }
        }
        if !gaps.is_empty() {
            let shown: Vec<&str> = gaps.iter().take(SHOW).map(String::as_str).collect();
            let more = if gaps.len() > SHOW { format!(" and {} more", gaps.len() - SHOW) } else { String::new() };
            out.push(
                Diagnostic::error(
                    "lint::table_gap",
                    format!("no row of table `{}` covers {}{more}", def.name, shown.join(", ")),
                )
                .at(def.span, format!("uncovered: {}", shown.join(", ")))
                .help("add a row for these values, or a last row `_ => …` if one answer fits them all"),
            );
        }
        for (a, b, at) in overlaps {
            out.push(
                Diagnostic::error(
                    "lint::table_overlap",
                    format!("rows {} and {} of table `{}` both match {at}", a + 1, b + 1, def.name),
                )
                .at(table.rows[b].span, format!("also matches {at}"))
                .at(table.rows[a].span, format!("matches {at}"))
                .help(
                    "under `pick unique` the rows must not overlap; narrow one, or use `pick first` if order is meant",
                ),
            );
        }
        if table.policy == Policy::First {
            for (i, hit) in first_hits.iter().enumerate() {
                if !hit {
                    out.push(
                        Diagnostic::warning(
                            "lint::shadowed_row",
                            format!("row {} of table `{}` can never be picked", i + 1, def.name),
                        )
                        .at(table.rows[i].span, "every value it matches is taken by an earlier row")
                        .help("remove the row, or move it above the rows that shadow it"),
                    );
                }
            }
        }
    }
    out
}

/// The rows of one column, by the pieces they match: `wild` rows match every piece.
struct Index {
    by_piece: Vec<Vec<usize>>,
    wild: Vec<usize>,
}

fn is_wild(k: &PatIr) -> bool {
    match k {
        PatIr::Any | PatIr::Bind(_) => true,
        PatIr::Alts(xs) => xs.iter().any(is_wild),
        _ => false,
    }
}

impl Index {
    fn new(rows: &[RowIr], column: usize, pieces: &[Piece]) -> Index {
        let mut by_value: HashMap<&Value, Vec<usize>> = HashMap::new();
        for (i, piece) in pieces.iter().enumerate() {
            by_value.entry(&piece.value).or_default().push(i);
        }
        // Pieces of a number or date column come in ascending order: a range matches a run of them.
        let sorted = pieces.windows(2).all(|w| compare(&w[0].value, &w[1].value).is_some_and(|o| o.is_lt()));
        let mut index = Index { by_piece: vec![Vec::new(); pieces.len()], wild: Vec::new() };
        let mut found = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let Some(k) = row.keys.get(column).filter(|k| !is_wild(k)) else {
                index.wild.push(r);
                continue;
            };
            found.clear();
            pieces_of(k, pieces, &by_value, sorted, &mut found);
            for &i in &found {
                if index.by_piece[i].last() != Some(&r) {
                    index.by_piece[i].push(r);
                }
            }
        }
        index
    }

    /// How many rows a piece's look-up visits.
    fn cost(&self, piece: usize) -> usize {
        self.by_piece[piece].len() + self.wild.len()
    }

    /// The rows that may match a piece, in row order.
    fn rows(&self, piece: usize) -> impl Iterator<Item = usize> + '_ {
        let (mut a, mut b) = (self.by_piece[piece].iter().peekable(), self.wild.iter().peekable());
        std::iter::from_fn(move || match (a.peek(), b.peek()) {
            (Some(&&x), Some(&&y)) if x < y => a.next().copied(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next().copied(),
            (Some(_), None) => a.next().copied(),
            (None, None) => None,
        })
    }
}

/// The pieces a pattern (not a wildcard) matches.
fn pieces_of(k: &PatIr, pieces: &[Piece], by_value: &HashMap<&Value, Vec<usize>>, sorted: bool, out: &mut Vec<usize>) {
    match k {
        PatIr::Alts(xs) => xs.iter().for_each(|x| pieces_of(x, pieces, by_value, sorted, out)),
        PatIr::Equals(v) => out.extend(by_value.get(v).into_iter().flatten()),
        PatIr::Range { lo, hi, inclusive } if sorted => {
            let from = pieces
                .partition_point(|p| !matches(&PatIr::Range { lo: lo.clone(), hi: None, inclusive: false }, &p.value));
            let upto = PatIr::Range { lo: None, hi: hi.clone(), inclusive: *inclusive };
            let to = pieces.partition_point(|p| matches(&upto, &p.value));
            out.extend(from..to.max(from));
        }
        _ => out.extend((0..pieces.len()).filter(|&i| matches(k, &pieces[i].value))),
    }
}

/// The first two rows (in order) that match a combination of pieces.
fn first_two(
    rows: &[RowIr],
    columns: &[Vec<Piece>],
    index: &[Index],
    combo: &[usize],
) -> (Option<usize>, Option<usize>) {
    let Some(best) = (0..combo.len()).min_by_key(|&c| index[c].cost(combo[c])) else {
        // A table without parameters: every row matches.
        return (Some(0).filter(|_| !rows.is_empty()), Some(1).filter(|_| rows.len() > 1));
    };
    let mut hits = index[best]
        .rows(combo[best])
        .filter(|&r| rows[r].keys.iter().zip(combo).zip(columns).all(|((k, &i), col)| matches(k, &col[i].value)));
    (hits.next(), hits.next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_sources;
    use crate::source::SourceMap;
    use proptest::prelude::*;

    fn pattern() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            Just("_".to_string()),
            (0i32..6).prop_map(|n| n.to_string()),
            (0i32..6, 0i32..6).prop_map(|(a, b)| format!("{a}..={b}")),
            (0i32..6).prop_map(|n| format!("{n}..")),
            (0i32..6).prop_map(|n| format!("..={n}")),
        ];
        prop::collection::vec(atom, 1..3).prop_map(|xs| xs.join(" or "))
    }

    fn text_pattern() -> impl Strategy<Value = String> {
        prop_oneof![Just("_".to_string()), Just("\"a\"".to_string()), Just("\"b\" or \"a\"".to_string())]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The indexed search finds the same first two rows as trying every row.
        #[test]
        fn the_index_finds_the_rows_trying_every_row_finds(
            rows in prop::collection::vec((pattern(), pattern(), text_pattern()), 1..12),
        ) {
            let rows: Vec<String> =
                rows.iter().enumerate().map(|(i, (a, b, c))| format!("  ({a}, {b}, {c}) => {i}")).collect();
            let text = format!(
                "rulebook \"t\" {{ title \"t\" language \"en\" }}\nfact k: int\nruling r: int = t(k, k, \"a\")\n\
                 table t(a: int, b: int, c: text): int pick first {{\n{}\n}}\n",
                rows.join(",\n")
            );
            let mut map = SourceMap::new();
            map.add("t.cond", text);
            let checked = check_sources(map);
            prop_assume!(!checked.has_errors());
            let p = &checked.program;
            let def = p.defs.iter().find(|d| d.table.is_some()).unwrap();
            let table = def.table.as_ref().unwrap();
            let columns: Vec<Vec<Piece>> = def
                .params
                .iter()
                .enumerate()
                .map(|(i, (_, ty))| {
                    let pats: Vec<_> = table.rows.iter().filter_map(|r| r.keys.get(i)).collect();
                    pieces(p, ty, &pats).unwrap()
                })
                .collect();
            let index: Vec<Index> =
                columns.iter().enumerate().map(|(i, col)| Index::new(&table.rows, i, col)).collect();
            for combo in combinations(&columns).unwrap() {
                let mut every = table.rows.iter().enumerate().filter(|(_, row)| {
                    row.keys.iter().zip(&combo).zip(&columns).all(|((k, &i), col)| matches(k, &col[i].value))
                }).map(|(n, _)| n);
                let want = (every.next(), every.next());
                prop_assert_eq!(first_two(&table.rows, &columns, &index, &combo), want);
            }
        }
    }
}
