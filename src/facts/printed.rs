//! Values written as the explanations print them, read back: `125 kr.`, `474,60 kr.`,
//! `1.095 minutter`, `DKK 474.60`, `$12.00`, `2,150 minutes`, `8 timer`. The words and
//! separators of each language come from `messages/units.toml`.
//!
//! The rule that keeps this from ever being silently wrong: digit separators are read
//! only in the convention of a language that the text itself names — by a unit word of
//! that language (`kr.`, `minutter` are Danish; `DKK 474.60`, `minutes` English), or, in
//! `conditions ask`, by the language of the session, whose printed values the person is
//! reading. With no language named, `.` is the decimal point (as everywhere in a facts
//! file) and a `,` is refused, since `2,150` reads 2150 in English and 2.15 in Danish.

use crate::base::lang::Lang;
use crate::base::units::{Style, style, units};
use std::collections::BTreeMap;

/// A number in `lang`'s convention (`1.095,50` in Danish, `1,095.50` in English) in the
/// facts-file form (`1095.50`), or `None` when it is not written so.
fn digits(s: &str, st: &Style) -> Option<String> {
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |b| (true, b));
    let (int, frac) = match body.split_once(st.decimal.as_str()) {
        Some((a, b)) => (a, Some(b)),
        None => (body, None),
    };
    let groups: Vec<&str> = int.split(st.thousands.as_str()).collect();
    let ok_groups = !groups[0].is_empty()
        && groups.iter().all(|g| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit()))
        && (groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3)));
    let ok_frac = frac.is_none_or(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()));
    if !ok_groups || !ok_frac {
        return None;
    }
    let mut out = String::from(if neg { "-" } else { "" });
    out.push_str(&groups.concat());
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    Some(out)
}

/// `text` split at the first ` per ` (`st.per` between spaces), as `split_once` with that
/// pattern would, without building the pattern (this runs for every quoted number read).
fn split_per<'t>(text: &'t str, per: &str) -> Option<(&'t str, &'t str)> {
    if per.is_empty() {
        return text.split_once("  ");
    }
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(per).map(|i| from + i) {
        let after = i + per.len();
        if i > 0 && b[i - 1] == b' ' && b.get(after) == Some(&b' ') {
            return Some((&text[..i - 1], &text[after + 1..]));
        }
        from = i + text[i..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The forms accepted, for an error message: a facts file's, then each language's printed
/// form as `units.toml` has it (its separators and unit words).
pub fn accepted() -> String {
    let mut out = String::from("2150, 2.5, \"1/3\", a number and its unit (`8 hours`); as printed:");
    for (i, (code, st)) in units().iter().enumerate() {
        let words = |m: &BTreeMap<String, String>| m.keys().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        out.push_str(&format!("{} in `{code}` 1{}095{}50", if i > 0 { ";" } else { "" }, st.thousands, st.decimal));
        if !st.prefix.is_empty() {
            out.push_str(&format!(" after {}", words(&st.prefix)));
        }
        if !st.suffix.is_empty() {
            let or = if st.prefix.is_empty() { "" } else { " or" };
            out.push_str(&format!("{or} before {}", words(&st.suffix)));
        }
    }
    out
}

/// The languages of `units.toml` whose thousands separator is `sep`, and those whose decimal
/// point it is, by tag.
fn reading_of(sep: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let of = |f: fn(&Style) -> &str| units().iter().filter(|(_, st)| f(st) == sep).map(|(c, _)| c.as_str()).collect();
    (of(|st| st.thousands.as_str()), of(|st| st.decimal.as_str()))
}

/// `text` in the facts-file form (`1095 minutes`, `474.60 DKK`) when it is written as
/// printed in a language it names by a unit word, or in `session` when given; `Ok(None)`
/// when it is not a printed form (read it as a facts file writes it); an error when it
/// uses separators no language named decides.
pub fn normalise(text: &str, session: Option<Lang>) -> Result<Option<String>, String> {
    let t = text.trim();
    for st in units().values() {
        for (word, unit) in &st.prefix {
            if let Some(rest) = t.strip_prefix(word.as_str())
                && let Some(n) = digits(rest.trim(), st)
            {
                return Ok(Some(format!("{n} {unit}")));
            }
        }
        if let Some((num, word)) = t.split_once(' ') {
            let (word, per) = match split_per(word, &st.per) {
                Some((a, b)) => (a.trim(), Some(b.trim())),
                None => (word.trim(), None),
            };
            if let Some(unit) = st.suffix.get(word)
                && let Some(n) = digits(num, st)
            {
                return Ok(Some(match per {
                    Some(p) => format!("{n} {unit} per {p}"),
                    None => format!("{n} {unit}"),
                }));
            }
        }
    }
    let (num, rest) = t.split_once(' ').map_or((t, None), |(a, b)| (a, Some(b)));
    if let Some(lang) = session
        && num.contains([',', '.'])
        && let Some(n) = digits(num, style(lang))
    {
        return Ok(Some(match rest {
            Some(r) => format!("{n} {r}"),
            None => n,
        }));
    }
    if num.contains(',') {
        let (grouping, decimal) = reading_of(",");
        let tags = |v: &[&str]| v.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
        return Err(format!(
            "`{t}` is ambiguous: a comma groups thousands in {} (2,150 = 2150) but is the decimal point in {} (2,150 = 2.15); write the number without separators, with `.` as the decimal point, or with a unit word that names the language; accepted forms: {}",
            tags(&grouping),
            tags(&decimal),
            accepted()
        ));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Result<Option<String>, String> {
        normalise(s, None)
    }

    /// `split_per` splits as `split_once(" per ")` does, on texts with the word at an end,
    /// twice, inside another word, and beyond ASCII.
    #[test]
    fn split_per_is_split_once_of_the_spaced_word() {
        for per in ["per", "pr.", "om", "ø", ""] {
            for text in [
                "DKK per km",
                "DKK per km per day",
                "per km",
                "DKK per",
                "DKK  per  km",
                "DKK perper km",
                "DKK pr. km",
                "kr. pr. påbegyndt km",
                "ø ø ø",
                "x ø  y",
                "DKK",
                "",
                " ",
                "   ",
            ] {
                assert_eq!(split_per(text, per), text.split_once(&format!(" {per} ")), "{text:?} at {per:?}");
            }
        }
    }

    #[test]
    fn printed_forms_read_back() {
        assert_eq!(n("125 kr.").unwrap().as_deref(), Some("125 DKK"));
        assert_eq!(n("474,60 kr.").unwrap().as_deref(), Some("474.60 DKK"));
        assert_eq!(n("1.095 minutter").unwrap().as_deref(), Some("1095 minutes"));
        assert_eq!(n("DKK 474.60").unwrap().as_deref(), Some("474.60 DKK"));
        assert_eq!(n("DKK 1,474.60").unwrap().as_deref(), Some("1474.60 DKK"));
        assert_eq!(n("$12.00").unwrap().as_deref(), Some("12.00 USD"));
        assert_eq!(n("8 hours").unwrap().as_deref(), Some("8 hours"));
        assert_eq!(n("8 timer").unwrap().as_deref(), Some("8 hours"));
        assert_eq!(n("2,150 minutes").unwrap().as_deref(), Some("2150 minutes"));
        assert_eq!(n("2,00 kr. pr. km").unwrap().as_deref(), Some("2.00 DKK per km"));
    }

    #[test]
    fn facts_file_forms_are_left_alone() {
        assert_eq!(n("2.5").unwrap(), None);
        assert_eq!(n("125 DKK").unwrap(), None);
        assert_eq!(n("1.095 km").unwrap(), None, "`.` is the decimal point unless a Danish word says otherwise");
    }

    #[test]
    fn ambiguous_forms_are_refused_unless_the_language_is_named() {
        assert!(n("2,150").unwrap_err().contains("ambiguous"));
        // The languages named are those of the unit words' file, each with its own separators.
        let e = n("2,150").unwrap_err();
        assert!(e.contains("thousands in `en`") && e.contains("decimal point in `da`, `nb`, `sv`"), "{e}");
        assert!(
            e.contains("in `da` 1.095,50") && e.contains("`kr.`") && e.contains("in `en` 1,095.50 after `$`, `DKK`"),
            "{e}"
        );
        assert!(n("2,150 km").unwrap_err().contains("ambiguous"));
        // "1.095" with a Danish unit word is 1095; with an English one it is the decimal 1.095.
        assert_eq!(n("1.095 minutes").unwrap().as_deref(), Some("1.095 minutes"));
        // In an English `ask` session, 2,150 is what the explanation printed for 2150.
        assert_eq!(normalise("2,150", Some(Lang::En)).unwrap().as_deref(), Some("2150"));
        assert_eq!(normalise("2,15", Some(Lang::Da)).unwrap().as_deref(), Some("2.15"));
        assert_eq!(normalise("1.095", Some(Lang::Da)).unwrap().as_deref(), Some("1095"));
        // Badly grouped: refused, not guessed.
        assert!(normalise("21,50", Some(Lang::En)).is_err());
    }
}
