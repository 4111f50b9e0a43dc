//! The value space of table columns and rule parameters, cut into pieces on which
//! every pattern is constant: integer and date ranges between the bounds the patterns
//! mention, enum variants, truth values, and text literals plus "any other text".
//! Gaps, overlaps and shadowed rows are found by trying one value of each piece.

use crate::base::date::Date;
use crate::base::num::Num;
use crate::base::time::Time;
use crate::base::value::Value;
use crate::check::program::{PatIr, Program, TypeKind};
use crate::check::types::Type;
use crate::eval::interp::matches_pattern;

/// One piece of a column's space: a representative value and how to show the piece.
#[derive(Clone, Debug)]
pub struct Piece {
    pub value: Value,
    pub label: String,
}

/// Most combinations of pieces a table may have before the analysis gives up.
pub const MAX_COMBINATIONS: usize = 200_000;

fn atoms<'p>(p: &'p PatIr, out: &mut Vec<&'p PatIr>) {
    match p {
        PatIr::Alts(xs) => xs.iter().for_each(|x| atoms(x, out)),
        other => out.push(other),
    }
}

fn num_of(v: &Value) -> Option<Num> {
    match v {
        Value::Num(n) => Some(*n),
        Value::Date(d) => Some(Num::int(d.days() as i128)),
        Value::Time(t) => Some(Num::int(t.minutes() as i128)),
        _ => None,
    }
}

fn shown(v: Num, ty: &Type) -> String {
    match ty {
        Type::Date => Date::from_ymd(1970, 1, 1)
            .and_then(|d| d.add_days(v.numer() as i64))
            .map_or_else(|| v.to_string(), |d| d.to_string()),
        Type::Time => v.as_i64().and_then(Time::from_minutes).map_or_else(|| v.to_string(), |t| t.to_string()),
        _ => v.to_string(),
    }
}

/// The pieces of one column, given the patterns of every row on it. `None` when the
/// column's type is not analysed.
pub fn pieces(p: &Program, ty: &Type, patterns: &[&PatIr]) -> Option<Vec<Piece>> {
    let mut flat = Vec::new();
    for pat in patterns {
        atoms(pat, &mut flat);
    }
    match ty {
        Type::Bool => Some(vec![
            Piece { value: Value::Bool(true), label: "true".into() },
            Piece { value: Value::Bool(false), label: "false".into() },
        ]),
        Type::Enum(t) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => Some(
                vs.iter()
                    .enumerate()
                    .map(|(i, v)| Piece { value: Value::Enum(*t, i as u32), label: v.name.clone() })
                    .collect(),
            ),
            TypeKind::Record(_) => None,
        },
        Type::Text => {
            let mut out: Vec<Piece> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for a in &flat {
                if let PatIr::Equals(Value::Text(s)) = a
                    && seen.insert(s)
                {
                    out.push(Piece { value: Value::Text(s.clone()), label: format!("{s:?}") });
                }
            }
            out.push(Piece { value: Value::Text("\u{0}other".into()), label: "any other text".into() });
            Some(out)
        }
        Type::Int | Type::Date | Type::Time | Type::Quantity(_) => {
            let integral = matches!(ty, Type::Int | Type::Date | Type::Time);
            let mut points: Vec<Num> = Vec::new();
            let mut bounded_below = true;
            let mut lowest: Option<Num> = None;
            for a in &flat {
                match a {
                    PatIr::Equals(v) => {
                        let n = num_of(v)?;
                        points.push(n);
                        lowest = Some(lowest.map_or(n, |l: Num| l.min(n)));
                    }
                    PatIr::Range { lo, hi, .. } => {
                        match lo.as_ref().and_then(num_of) {
                            Some(n) => {
                                points.push(n);
                                lowest = Some(lowest.map_or(n, |l: Num| l.min(n)));
                            }
                            None => bounded_below = false,
                        }
                        if let Some(n) = hi.as_ref().and_then(num_of) {
                            points.push(n);
                        }
                    }
                    _ => bounded_below = false,
                }
            }
            points.sort();
            points.dedup();
            let make = |n: Num| -> Value {
                match ty {
                    Type::Date => Date::from_ymd(1970, 1, 1)
                        .and_then(|d| d.add_days(n.numer() as i64))
                        .map_or(Value::Num(n), Value::Date),
                    Type::Time => n.as_i64().and_then(Time::from_minutes).map_or(Value::Num(n), Value::Time),
                    _ => Value::Num(n),
                }
            };
            let mut out = Vec::new();
            if points.is_empty() {
                out.push(Piece { value: make(Num::ZERO), label: "any value".into() });
                return Some(out);
            }
            let one = Num::ONE;
            if !bounded_below || lowest.is_none() {
                let below = points[0].sub(one)?;
                out.push(Piece {
                    value: make(below),
                    label: format!("..={}", shown(if integral { below } else { points[0] }, ty)),
                });
            }
            for (i, &pt) in points.iter().enumerate() {
                if lowest.is_some_and(|l| pt < l) && bounded_below {
                    continue;
                }
                out.push(Piece { value: make(pt), label: shown(pt, ty) });
                let next = points.get(i + 1).copied();
                if integral {
                    let from = pt.add(one)?;
                    match next {
                        Some(nx) if from < nx => {
                            let to = nx.sub(one)?;
                            let label = if from == to {
                                shown(from, ty)
                            } else {
                                format!("{}..={}", shown(from, ty), shown(to, ty))
                            };
                            out.push(Piece { value: make(from), label });
                        }
                        Some(_) => {}
                        None => out.push(Piece { value: make(from), label: format!("{}..", shown(from, ty)) }),
                    }
                } else {
                    let mid = match next {
                        Some(nx) => pt.add(nx)?.div(Num::int(2))?,
                        None => pt.add(one)?,
                    };
                    let label = match next {
                        Some(nx) => format!("between {} and {}", shown(pt, ty), shown(nx, ty)),
                        None => format!("above {}", shown(pt, ty)),
                    };
                    out.push(Piece { value: make(mid), label });
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether a pattern matches a value (patterns in tables and rule heads bind nothing
/// that matters here), as the evaluator matches it.
pub fn matches(p: &PatIr, v: &Value) -> bool {
    match p {
        PatIr::Any | PatIr::Bind(_) => true,
        PatIr::Alts(xs) => xs.iter().any(|x| matches(x, v)),
        other => matches_pattern(other, v, &mut []),
    }
}

/// Every combination of pieces, one piece per column, if there are not too many.
pub fn combinations(columns: &[Vec<Piece>]) -> Option<Vec<Vec<usize>>> {
    let total = columns.iter().try_fold(1usize, |acc, c| acc.checked_mul(c.len().max(1)))?;
    if total > MAX_COMBINATIONS || columns.iter().any(|c| c.is_empty()) {
        return None;
    }
    let mut out = vec![Vec::new()];
    for col in columns {
        let mut next = Vec::with_capacity(out.len() * col.len());
        for prefix in &out {
            for i in 0..col.len() {
                let mut v = prefix.clone();
                v.push(i);
                next.push(v);
            }
        }
        out = next;
    }
    Some(out)
}

/// Shows a combination: `5..=8` for one column, `(5..=8, B)` for several.
pub fn show_combo(columns: &[Vec<Piece>], combo: &[usize]) -> String {
    let parts: Vec<&str> = combo.iter().zip(columns).map(|(&i, c)| c[i].label.as_str()).collect();
    if parts.len() == 1 { parts[0].to_string() } else { format!("({})", parts.join(", ")) }
}
