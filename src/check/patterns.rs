//! Comparing values and matching them against a rule's patterns (constants, ranges,
//! alternatives and bindings): what a checked pattern means, shared by both evaluators,
//! the reading of facts and the lints.

use super::program::PatIr;
use crate::base::value::Value;

pub fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        // Item by item; the first difference decides, a shorter list that is a start of the
        // other comes first.
        (Value::List(xs), Value::List(ys)) => {
            for (x, y) in xs.iter().zip(ys.iter()) {
                match compare(x, y)? {
                    std::cmp::Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(xs.len().cmp(&ys.len()))
        }
        (Value::Num(x), Value::Num(y)) => Some(x.cmp(y)),
        (Value::Date(x), Value::Date(y)) => Some(x.cmp(y)),
        (Value::Time(x), Value::Time(y)) => Some(x.cmp(y)),
        (Value::DateTime(x), Value::DateTime(y)) => Some(x.cmp(y)),
        (Value::Text(x), Value::Text(y)) => Some(x.cmp(y)),
        (Value::Enum(_, x), Value::Enum(_, y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

pub(crate) fn in_range(v: &Value, lo: Option<&Value>, hi: Option<&Value>, inclusive: bool) -> bool {
    let above = lo.is_none_or(|l| compare(v, l).is_some_and(|o| o.is_ge()));
    let below = hi.is_none_or(|h| compare(v, h).is_some_and(|o| if inclusive { o.is_le() } else { o.is_lt() }));
    above && below
}

/// Whether a pattern binds a name (and so needs a frame to match in).
pub(crate) fn binds(p: &PatIr) -> bool {
    match p {
        PatIr::Bind(_) => true,
        PatIr::Alts(xs) => xs.iter().any(binds),
        _ => false,
    }
}

pub fn matches_pattern(p: &PatIr, v: &Value, frame: &mut [Value]) -> bool {
    match p {
        PatIr::Any => true,
        PatIr::Bind(slot) => {
            frame[*slot as usize] = v.clone();
            true
        }
        PatIr::Equals(x) => x == v,
        PatIr::Range { lo, hi, inclusive } => in_range(v, lo.as_ref(), hi.as_ref(), *inclusive),
        PatIr::Alts(alts) => alts.iter().any(|a| matches_pattern(a, v, frame)),
    }
}
