//! The written forms a facts file may give each value type, described once for both
//! the reader and the JSON Schema: which JSON kinds a type takes (a JSON number, a
//! whole JSON number), and the text forms of numbers, amounts, durations, dates, times
//! and date-times as ECMA-262 regular expressions built from the tables the reader
//! parses with (the unit words of [`crate::check::types::unit_word`], each language's
//! printed style in `messages/units.toml`, the number syntax of `Num::parse`).
//!
//! What no pattern says is left to the reader alone and named in `docs/facts.md`: a
//! number too large to hold exactly, and a fact's declared bound.

use crate::check::types::{Type, UNIT_WORD_FORMS, Unit, is_currency, unit_word};

/// A number as a facts file writes it in text: digits with `.` as the decimal point,
/// or a fraction `a/b` (`b` not zero).
pub const PLAIN: &str = r"-?[0-9]+(?:\.[0-9]+|/0*[1-9][0-9]*)?";

/// A whole number in text: digits, or a decimal whose fraction is zeros (`3.0`).
pub const WHOLE: &str = r"-?[0-9]+(?:\.0+)?";

/// A date `YYYY-MM-DD` of the years 1 to 9999 that is on the calendar.
pub const DATE: &str = concat!(
    r"(?:(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)-",
    r"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))",
    r"|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29)"
);

/// A time of day, `18:15` (the hour of one or two digits), or `18:15:00` as TOML writes it.
pub const TIME: &str = r"(?:[01]?[0-9]|2[0-3]):[0-5][0-9](?::00)?";

/// A date with a time of day, `2008-09-06 22:00` or `2008-09-06T22:00:00` (two-digit hour).
pub fn datetime() -> String {
    format!(r"{DATE}[T ]\s*(?:[01][0-9]|2[0-3]):[0-5][0-9](?::00)?")
}

/// Whether a JSON number is read for `ty` (a whole one only, for `int`).
pub fn takes_json_number(ty: &Type) -> bool {
    match ty {
        Type::Int => true,
        Type::Quantity(u) => !u.is_time(),
        _ => false,
    }
}

/// Whether `text` (a whole number's text) is in the form [`WHOLE`] describes.
pub fn is_whole_text(text: &str) -> bool {
    let t = text.trim();
    let t = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && (!t.contains('.') || (!frac.is_empty() && frac.bytes().all(|b| b == b'0')))
}

/// The regular expression (anchored) that the text forms of `ty` match, or `None` when
/// the type is not written as text of a fixed form (text, a choice, a record, a list).
pub fn pattern(ty: &Type) -> Option<String> {
    let body = match ty {
        Type::Int => WHOLE.to_string(),
        Type::Quantity(u) => quantity(u),
        Type::Date => return Some(format!("^{DATE}$")),
        Type::Time => TIME.to_string(),
        Type::DateTime => datetime(),
        _ => return None,
    };
    Some(format!(r"^\s*(?:{body})\s*$"))
}

/// A literal in a regular expression.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if r"\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The unit a word names (a currency's code names itself).
fn unit_of(word: &str) -> Option<Unit> {
    unit_word(word).map(|(u, _)| u)
}

/// The words that may name a unit of `u`'s dimensions: the unit words, and the
/// currencies `u` is made of.
fn words(u: &Unit) -> Vec<String> {
    let mut ws: Vec<String> = UNIT_WORD_FORMS.iter().map(|w| w.to_string()).collect();
    ws.extend(u.0.iter().filter(|(b, _)| is_currency(b)).map(|(b, _)| b.clone()));
    ws
}

/// The unit texts read as `u`, as patterns: `word` or `word per word`.
fn unit_texts(u: &Unit) -> Vec<String> {
    let ws = words(u);
    let mut out = Vec::new();
    for a in &ws {
        let Some(ua) = unit_of(a) else { continue };
        if ua == *u {
            out.push(escape(a));
        }
        for b in &ws {
            if unit_of(b).is_some_and(|ub| ua.div(&ub) == *u) {
                out.push(format!(r"{}\s* per \s*{}", escape(a), escape(b)));
            }
        }
    }
    out
}

/// The text forms of a quantity of unit `u`: the facts-file forms (a number, a percent,
/// with a unit word; a duration always with one), then each language's printed forms.
fn quantity(u: &Unit) -> String {
    let mut alts = Vec::new();
    let num = format!("{PLAIN}%?");
    if !u.is_time() {
        alts.push(num.clone());
    }
    for unit in unit_texts(u) {
        alts.push(format!(r"{num} \s*{unit}"));
    }
    let ws = words(u);
    for st in crate::base::units::styles() {
        let (t, d) = (escape(&st.thousands), escape(&st.decimal));
        let digits = format!("-?(?:[0-9]+|[0-9]{{1,3}}(?:{t}[0-9]{{3}})+)(?:{d}[0-9]+)?");
        for (word, unit) in &st.prefix {
            if unit_of(unit).as_ref() == Some(u) {
                alts.push(format!(r"{}\s*{digits}", escape(word)));
            }
        }
        for (word, unit) in &st.suffix {
            let Some(wu) = unit_of(unit) else { continue };
            if wu == *u {
                alts.push(format!(r"{digits} \s*{}", escape(word)));
            }
            for b in &ws {
                if unit_of(b).is_some_and(|ub| wu.div(&ub) == *u) {
                    alts.push(format!(r"{digits} \s*{}\s* {} \s*{}", escape(word), escape(&st.per), escape(b)));
                }
            }
        }
    }
    alts.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_texts() {
        for t in ["3", "-3", " 3.00 ", "0"] {
            assert!(is_whole_text(t), "{t}");
        }
        for t in ["3.5", "3.", ".0", "", "-", "1/1", "3%", "2,150", "lots"] {
            assert!(!is_whole_text(t), "{t}");
        }
    }

    #[test]
    fn unit_words_are_read() {
        for w in UNIT_WORD_FORMS {
            assert!(unit_word(w).is_some(), "{w}");
        }
    }
}
