//! Table lints: under `pick unique`, values no row covers (`lint::table_gap`) and
//! values two rows cover (`lint::table_overlap`); under `pick first`, rows that can
//! never be picked (`lint::shadowed_row`).

use super::space::{Piece, combinations, matches, pieces, show_combo};
use crate::check::program::{PatIr, Program};
use crate::diagnostic::Diagnostic;
use crate::eval::value::Value;
use crate::syntax::ast::Policy;

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
        let mut gaps = Vec::new();
        let mut overlaps: Vec<(usize, usize, String)> = Vec::new();
        let mut first_hits = vec![false; table.rows.len()];
        for combo in &combos {
            let hits: Vec<usize> = table
                .rows
                .iter()
                .enumerate()
                .filter(|(_, row)| {
                    row.keys.iter().zip(combo).zip(&columns).all(|((k, &i), col)| matches(k, &col[i].value))
                })
                .map(|(n, _)| n)
                .collect();
            match hits.as_slice() {
                [] => gaps.push(show_combo(&columns, combo)),
                [one] => first_hits[*one] = true,
                [a, b, ..] => {
                    first_hits[*a] = true;
                    if table.policy == Policy::Unique && !overlaps.iter().any(|(x, y, _)| (x, y) == (a, b)) {
                        overlaps.push((*a, *b, show_combo(&columns, combo)));
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
