//! Showing values to people: numbers with the language's separators, money with
//! its currency, durations in days or hours, dates spelled out, times of day as the
//! language writes them, exact fractions
//! shown exactly (`40/3`) with a rounded decimal beside them. Every word and
//! separator comes from the language's message file (`messages/*.ftl`).

use crate::base::lang::PerLang;
use crate::base::messages::{self, Arg};
use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::program::{Program, TypeKind};
use crate::check::types::{Type, Unit};

pub use crate::base::lang::Lang;

/// A value for messages, in English.
pub fn plain(p: &Program, v: &Value, ty: &Type) -> String {
    value(p, v, ty, Lang::En)
}

/// A value without a known type (for error messages).
pub fn debug(p: &Program, v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Num(n) => n.to_string(),
        Value::Text(t) => format!("\"{}\"", visible(t)),
        Value::Date(d) => d.to_string(),
        Value::Time(t) => t.to_string(),
        Value::DateTime(t) => t.to_string(),
        Value::Enum(t, i) => variant_name(p, *t, *i, Lang::En),
        Value::Record(..) => "{…}".into(),
        Value::List(xs) => format!("[{}]", xs.iter().map(|x| debug(p, x)).collect::<Vec<_>>().join(", ")),
    }
}

fn variant_name(p: &Program, t: u32, i: u32, lang: Lang) -> String {
    match p.types.get(t as usize).map(|t| &t.kind) {
        Some(TypeKind::Enum(vs)) => vs.get(i as usize).map_or_else(
            || "?".into(),
            |v| v.label.as_deref().map_or_else(|| v.name.clone(), |l| p.gloss(l, lang.code()).to_string()),
        ),
        _ => "?".into(),
    }
}

fn group(int_part: &str, sep: char) -> String {
    let mut out = String::with_capacity(int_part.len() + int_part.len() / 3 * sep.len_utf8() + 2);
    push_grouped(&mut out, int_part, sep);
    out
}

/// [`group`], appended to `out`.
fn push_grouped(out: &mut String, int_part: &str, sep: char) {
    // A person reads the minus sign (−), not the hyphen.
    let digits = match int_part.strip_prefix('-') {
        Some(d) => {
            out.push('−');
            d
        }
        None => int_part,
    };
    if digits.is_ascii() && !digits.is_empty() {
        // Digits are bytes: the first group, then a separator before every three.
        let first = match digits.len() % 3 {
            0 => 3,
            n => n,
        };
        out.reserve(digits.len() + digits.len() / 3 * sep.len_utf8());
        out.push_str(&digits[..first]);
        let mut i = first;
        while i < digits.len() {
            out.push(sep);
            out.push_str(&digits[i..i + 3]);
            i += 3;
        }
        return;
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
}

/// The digits of `v` (with `-` when negative), written into `buf` from its end.
fn int_text(v: i128, buf: &mut [u8; 40]) -> &str {
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    // Whole numbers of a ruling are small: divided as 64-bit numbers once they fit.
    while u > u128::from(u64::MAX) {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
    }
    let mut w = u as u64;
    loop {
        i -= 1;
        buf[i] = b'0' + (w % 10) as u8;
        w /= 10;
        if w == 0 {
            break;
        }
    }
    if v < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    std::str::from_utf8(&buf[i..]).unwrap_or_default()
}

/// A number in the language's style, exactly when it has a finite decimal form;
/// otherwise as a fraction with its rounded decimal: `40/3 (≈ 13.33)`.
pub fn number(n: Num, lang: Lang, min_places: u32) -> String {
    let (thousands, point) = separators(lang);
    let decimal = |x: Num, places: Option<u32>| -> String {
        let (neg, i, f) = x.decimal_digits(places);
        let mut out = String::with_capacity(i.len() + i.len() / 3 + f.len().max(min_places as usize) + 4);
        if neg {
            out.push('−');
        }
        push_grouped(&mut out, &i, thousands);
        if !f.is_empty() || min_places > 0 {
            out.push(point);
            out.push_str(&f);
            for _ in f.len()..min_places as usize {
                out.push('0');
            }
        }
        out
    };
    if n.is_integer() && min_places == 0 {
        // The common case, without decimal arithmetic.
        return group(int_text(n.numer(), &mut [0; 40]), thousands);
    }
    if n.is_terminating() {
        decimal(n, None)
    } else {
        format!("{}/{} (≈ {})", group(&n.numer().to_string(), thousands), n.denom(), decimal(n, Some(2)))
    }
}

/// The language's thousands separator and decimal point, from its message file
/// (read once: numbers are shown often).
fn separators(lang: Lang) -> (char, char) {
    static SEPARATORS: PerLang<(char, char)> = PerLang::new();
    *SEPARATORS.get(lang, || {
        let first = |id: &str, or: char| messages::word(lang, id).chars().next().unwrap_or(or);
        (first("number-thousands", ','), first("number-decimal", '.'))
    })
}

/// An amount of money in the language's style.
/// A rate (`cents`) always shows its øre or cents: "DKK 2.00 per km".
fn money(c: &str, n: Num, lang: Lang, cents: bool) -> String {
    let forms = money_forms(lang, c);
    // A currency whose file has a `-whole` form shows whole amounts without cents.
    let whole = !cents && n.is_integer() && forms.whole.is_some();
    let amount = number(n, lang, if whole { 0 } else { 2 });
    match if whole { &forms.whole } else { &forms.cents } {
        Some(Some((before, after))) => {
            let mut out = String::with_capacity(before.len() + amount.len() + after.len());
            out.push_str(before);
            out.push_str(&amount);
            out.push_str(after);
            out
        }
        _ if whole => messages::msg(lang, &format!("money-{c}-whole"), &[("amount", Arg::Text(&amount))]),
        _ if forms.cents.is_some() => messages::msg(lang, &format!("money-{c}"), &[("amount", Arg::Text(&amount))]),
        _ => messages::msg(lang, "money-other", &[("amount", Arg::Text(&amount)), ("currency", Arg::Text(c))]),
    }
}

/// How a language writes amounts of one currency, read from its message file once: for
/// whole amounts (`money-DKK-whole`) and with cents (`money-DKK`), `None` when the file
/// has no such form, else the text before and after the amount when the form is that
/// simple (`Some(None)` when it is not, and the message is formatted for each amount).
struct MoneyForms {
    whole: Option<Option<(String, String)>>,
    cents: Option<Option<(String, String)>>,
}

fn money_forms(lang: Lang, c: &str) -> &'static MoneyForms {
    type Forms = std::sync::Mutex<Vec<(String, &'static MoneyForms)>>;
    static FORMS: PerLang<Forms> = PerLang::new();
    let forms = FORMS.get(lang, || std::sync::Mutex::new(Vec::new()));
    if let Ok(v) = forms.lock()
        && let Some((_, f)) = v.iter().find(|(x, _)| x == c)
    {
        return f;
    }
    let form = |id: String| messages::has(lang, &id).then(|| messages::around(lang, &id, "amount"));
    let made: &'static MoneyForms =
        Box::leak(Box::new(MoneyForms { whole: form(format!("money-{c}-whole")), cents: form(format!("money-{c}")) }));
    if let Ok(mut v) = forms.lock() {
        v.push((c.to_string(), made));
    }
    made
}

fn unit_text(u: &Unit, n: Num, lang: Lang) -> String {
    let one = n == Num::ONE;
    if let Some(c) = u.currency() {
        return money(c, n, lang, false);
    }
    if u.is_time() {
        let (count, unit) = if n.is_integer() && n.numer() % 10080 == 0 && n.numer() != 0 {
            (n.div(Num::int(10080)), "week")
        } else if n.is_integer() && n.numer() % 1440 == 0 && n.numer() != 0 {
            (n.div(Num::int(1440)), "day")
        } else if n.is_integer() && n.numer() % 60 == 0 && n.numer() != 0 {
            (n.div(Num::int(60)), "hour")
        } else {
            (Some(n), "minute")
        };
        let count = count.unwrap_or(n);
        let form = if count == Num::ONE { "one" } else { "other" };
        let word = messages::word(lang, &format!("duration-{unit}-{form}"));
        return format!("{} {word}", number(count, lang, 0));
    }
    let _ = one;
    let pos: Vec<&str> = u.0.iter().filter(|(_, e)| *e > 0).map(|(b, _)| b.as_str()).collect();
    let neg: Vec<&str> = u.0.iter().filter(|(_, e)| *e < 0).map(|(b, _)| b.as_str()).collect();
    let per = messages::word_ref(lang, "unit-per");
    // An amount per unit reads as money: "DKK 2.00 per km", "2,00 kr. pr. km".
    if let ([c], false) = (pos.as_slice(), neg.is_empty())
        && crate::check::types::is_currency(c)
    {
        return format!("{} {per} {}", money(c, n, lang, true), neg.join("·"));
    }
    let mut s = number(n, lang, if pos.iter().any(|p| crate::check::types::is_currency(p)) { 2 } else { 0 });
    if !pos.is_empty() {
        s = format!("{s} {}", pos.join("·"));
    }
    if !neg.is_empty() {
        s = format!("{s} {per} {}", neg.join("·"));
    }
    s
}

pub fn date(d: crate::base::date::Date, lang: Lang) -> String {
    let (y, m, day) = d.ymd();
    let month = messages::word(lang, &format!("month-{m}"));
    messages::msg(
        lang,
        "date-full",
        &[("day", Arg::Text(&day.to_string())), ("month", Arg::Text(&month)), ("year", Arg::Text(&y.to_string()))],
    )
}

/// A time of day as the language writes it ("kl. 18.15", "18:15").
pub fn time(t: crate::base::time::Time, lang: Lang) -> String {
    let (h, m) = t.hm();
    messages::msg(
        lang,
        "time-of-day",
        &[
            ("hours", Arg::Text(&h.to_string())),
            ("hours2", Arg::Text(&format!("{h:02}"))),
            ("minutes", Arg::Text(&format!("{m:02}"))),
        ],
    )
}

/// A date with a time of day as the language writes it ("6. september 2008 kl. 22.15").
pub fn datetime(t: crate::base::datetime::DateTime, lang: Lang) -> String {
    messages::msg(
        lang,
        "date-time",
        &[("date", Arg::Text(&date(t.date(), lang))), ("time", Arg::Text(&time(t.time(), lang)))],
    )
}

/// A value as a person reads it, in `lang`.
pub fn value(p: &Program, v: &Value, ty: &Type, lang: Lang) -> String {
    let mut out = String::with_capacity(24);
    value_into(&mut out, p, v, ty, lang);
    out
}

/// [`value`], appended to `out`.
pub fn value_into(out: &mut String, p: &Program, v: &Value, ty: &Type, lang: Lang) {
    match (v, ty) {
        (Value::Bool(b), _) => out.push_str(messages::word_ref(lang, if *b { "value-yes" } else { "value-no" })),
        (Value::Num(n), Type::Quantity(u)) if !u.is_none() => unit_into(out, u, *n, lang),
        (Value::Num(n), _) => number_into(out, *n, lang, 0),
        (Value::Text(t), _) => out.push_str(&visible(p.gloss(t, lang.code()))),
        (Value::Date(d), _) => out.push_str(&date(*d, lang)),
        (Value::Time(t), _) => out.push_str(&time(*t, lang)),
        (Value::DateTime(t), _) => out.push_str(&datetime(*t, lang)),
        (Value::Enum(t, i), _) => variant_into(out, p, *t, *i, lang),
        (Value::List(xs), Type::List(elem)) => {
            if xs.is_empty() {
                out.push_str(messages::word_ref(lang, "value-none"));
            } else if let Type::List(inner) = &**elem {
                // A list of groups (a ranking's tied groups): groups apart, each read as a group.
                let and = crate::base::messages::word_ref(lang, "and");
                for (k, g) in xs.iter().enumerate() {
                    if k > 0 {
                        out.push_str("; ");
                    }
                    match g {
                        Value::List(ys) if ys.len() > 1 => {
                            for (j, y) in ys.iter().enumerate() {
                                if j + 1 == ys.len() {
                                    out.push(' ');
                                    out.push_str(and);
                                    out.push(' ');
                                } else if j > 0 {
                                    out.push_str(", ");
                                }
                                value_into(out, p, y, inner, lang);
                            }
                        }
                        g => value_into(out, p, g, elem, lang),
                    }
                }
            } else {
                for (k, x) in xs.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    value_into(out, p, x, elem, lang);
                }
            }
        }
        (Value::List(xs), _) => out.push_str(&xs.iter().map(|x| debug(p, x)).collect::<Vec<_>>().join(", ")),
        (Value::Record(t, fields), _) => match p.types.get(*t as usize).map(|t| &t.kind) {
            Some(TypeKind::Record(fs)) => {
                // A record with a name field (`record-name-field` in any language's file)
                // is shown by its name.
                if let Some(i) = fs.iter().position(|f| is_name_field(&f.name))
                    && let Some(Some(n)) = fields.get(i)
                {
                    return value_into(out, p, n, &fs[i].ty, lang);
                }
                // Otherwise field by field, in words: `total 15; gold 3.75`.
                let mut first = true;
                for (f, v) in fs.iter().zip(fields.iter()) {
                    let Some(v) = v else { continue };
                    if !first {
                        out.push_str("; ");
                    }
                    first = false;
                    match &f.says {
                        Some(s) => out.push_str(p.gloss(s, lang.code())),
                        None => push_name(out, &f.name),
                    }
                    out.push(' ');
                    value_into(out, p, v, &f.ty, lang);
                }
            }
            _ => out.push_str("{…}"),
        },
    }
}

/// A name with its underscores read as spaces.
fn push_name(out: &mut String, name: &str) {
    for (i, part) in name.split('_').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(part);
    }
}

fn variant_into(out: &mut String, p: &Program, t: u32, i: u32, lang: Lang) {
    match p.types.get(t as usize).map(|t| &t.kind) {
        Some(TypeKind::Enum(vs)) => match vs.get(i as usize) {
            Some(v) => out.push_str(v.label.as_deref().map_or(v.name.as_str(), |l| p.gloss(l, lang.code()))),
            None => out.push('?'),
        },
        _ => out.push('?'),
    }
}

/// [`number`], appended to `out`: whole numbers (with any places of zeros) without a text
/// of their own.
fn number_into(out: &mut String, n: Num, lang: Lang, min_places: u32) {
    if !n.is_integer() {
        return out.push_str(&number(n, lang, min_places));
    }
    let v = n.numer();
    if (0..1000).contains(&v) {
        // Up to three digits, without a separator (most whole numbers of a ruling).
        let v = v as u32;
        if v >= 100 {
            out.push(char::from(b'0' + (v / 100) as u8));
        }
        if v >= 10 {
            out.push(char::from(b'0' + (v / 10 % 10) as u8));
        }
        out.push(char::from(b'0' + (v % 10) as u8));
    } else {
        push_grouped(out, int_text(v, &mut [0; 40]), separators(lang).0);
    }
    if min_places > 0 {
        out.push(separators(lang).1);
        for _ in 0..min_places {
            out.push('0');
        }
    }
}

/// How a language writes amounts of a unit, worked out once per unit.
enum UnitForm {
    /// Money (`cents` for a rate), then the rest (` per km`).
    Money(&'static str, bool, &'static MoneyForms, String),
    /// A number with this many places at least, then the rest (` km`).
    Number(u32, String),
    /// Worked out for each amount (durations).
    Each,
}

fn unit_form(u: &Unit, lang: Lang) -> &'static UnitForm {
    // The forms found last on this thread, by the unit's place (the unit kept with it, so
    // that its place is not another unit's): found without a lock.
    thread_local! {
        static NEAR: std::cell::RefCell<Vec<(Lang, Unit, &'static UnitForm)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let near = |v: &Vec<(Lang, Unit, &'static UnitForm)>| {
        v.iter().find(|(l, x, _)| *l == lang && std::sync::Arc::ptr_eq(&x.0, &u.0)).map(|x| x.2)
    };
    if let Ok(Some(f)) = NEAR.try_with(|v| v.try_borrow().ok().and_then(|v| near(&v))) {
        return f;
    }
    let f = unit_form_kept(u, lang);
    let _ = NEAR.try_with(|v| {
        if let Ok(mut v) = v.try_borrow_mut() {
            if v.len() >= 16 {
                v.remove(0);
            }
            v.push((lang, u.clone(), f));
        }
    });
    f
}

/// [`unit_form`] from the forms kept for every thread.
fn unit_form_kept(u: &Unit, lang: Lang) -> &'static UnitForm {
    type Forms = std::sync::RwLock<Vec<(Unit, &'static UnitForm)>>;
    static FORMS: PerLang<Forms> = PerLang::new();
    let forms = FORMS.get(lang, || std::sync::RwLock::new(Vec::new()));
    // A unit is shared by the types that name it: found by its place first.
    if let Ok(v) = forms.read()
        && let Some((_, f)) =
            v.iter().find(|(x, _)| std::sync::Arc::ptr_eq(&x.0, &u.0)).or_else(|| v.iter().find(|(x, _)| x == u))
    {
        return f;
    }
    let leak = |s: &str| -> &'static str { Box::leak(Box::from(s)) };
    let pos: Vec<&str> = u.0.iter().filter(|(_, e)| *e > 0).map(|(b, _)| b.as_str()).collect();
    let neg: Vec<&str> = u.0.iter().filter(|(_, e)| *e < 0).map(|(b, _)| b.as_str()).collect();
    let per = messages::word_ref(lang, "unit-per");
    let form = if let Some(c) = u.currency() {
        UnitForm::Money(leak(c), false, money_forms(lang, c), String::new())
    } else if u.is_time() {
        UnitForm::Each
    } else if let ([c], false) = (pos.as_slice(), neg.is_empty())
        && crate::check::types::is_currency(c)
    {
        UnitForm::Money(leak(c), true, money_forms(lang, c), format!(" {per} {}", neg.join("·")))
    } else {
        let mut rest = String::new();
        if !pos.is_empty() {
            rest = format!(" {}", pos.join("·"));
        }
        if !neg.is_empty() {
            rest = format!("{rest} {per} {}", neg.join("·"));
        }
        UnitForm::Number(if pos.iter().any(|p| crate::check::types::is_currency(p)) { 2 } else { 0 }, rest)
    };
    let made: &'static UnitForm = Box::leak(Box::new(form));
    if let Ok(mut v) = forms.write() {
        v.push((u.clone(), made));
    }
    made
}

/// [`unit_text`], appended to `out`, from the unit's form.
fn unit_into(out: &mut String, u: &Unit, n: Num, lang: Lang) {
    match unit_form(u, lang) {
        UnitForm::Money(c, cents, forms, rest) => {
            let whole = !cents && n.is_integer() && forms.whole.is_some();
            match if whole { &forms.whole } else { &forms.cents } {
                Some(Some((before, after))) => {
                    out.push_str(before);
                    number_into(out, n, lang, if whole { 0 } else { 2 });
                    out.push_str(after);
                }
                _ => out.push_str(&money(c, n, lang, *cents)),
            }
            out.push_str(rest);
        }
        UnitForm::Number(places, rest) => {
            number_into(out, n, lang, *places);
            out.push_str(rest);
        }
        UnitForm::Each => out.push_str(&unit_text(u, n, lang)),
    }
}

/// How a field is named beside its value: its `says` phrase (glossed), else its name.
pub fn field_word(p: &Program, f: &crate::check::program::FieldInfo, lang: Lang) -> String {
    match &f.says {
        Some(s) => p.gloss(s, lang.code()).to_string(),
        None => f.name.replace('_', " "),
    }
}

/// Whether a record field is the record's name in one of the languages.
pub(crate) fn is_name_field(field: &str) -> bool {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| Lang::framed().into_iter().map(|l| messages::word(l, "record-name-field")).collect())
        .iter()
        .any(|n| n == field)
}

/// Text from a facts file made safe to print: control characters (a newline, an
/// escape sequence), bidirectional overrides and line separators are written as
/// visible escapes (`\n`, `\u{1b}`), so a value cannot start a line of its own or
/// restyle the terminal.
pub fn visible(t: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
    };
    // Printable ASCII (most texts) hides nothing; other texts are read character by character.
    if t.bytes().all(|b| (0x20..0x7f).contains(&b)) || !t.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(t);
    }
    let mut out = String::with_capacity(t.len() + 8);
    for c in t.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_by_language() {
        let n = Num::ratio(215000, 100).unwrap();
        assert_eq!(number(n, Lang::En, 0), "2,150");
        assert_eq!(number(n, Lang::Da, 0), "2.150");
        assert_eq!(number(Num::ratio(15, 4).unwrap(), Lang::Da, 0), "3,75");
        assert_eq!(number(Num::ratio(40, 3).unwrap(), Lang::En, 0), "40/3 (≈ 13.33)");
        assert_eq!(number(Num::int(-1234567), Lang::En, 2), "−1,234,567.00");
        assert_eq!(number(Num::ratio(-40, 3).unwrap(), Lang::En, 0), "−40/3 (≈ −13.33)");
        for v in [0, 7, -7, 10, 999, 1000, -1234567, i64::MAX as i128, i128::MAX, i128::MIN, u64::MAX as i128 + 1] {
            assert_eq!(int_text(v, &mut [0; 40]), v.to_string());
        }
    }

    #[test]
    fn a_units_form_is_its_own_in_each_language_and_for_each_unit() {
        // The forms found last are kept on the thread by the unit's place and language:
        // asked for in turns, each unit and language keeps its own.
        let km = Unit::base("km");
        let per_km = Unit(std::sync::Arc::from(vec![("DKK".to_string(), 1), ("km".to_string(), -1)]));
        let shown = |u: &Unit, n: Num, lang: Lang| {
            let mut out = String::new();
            unit_into(&mut out, u, n, lang);
            out
        };
        for _ in 0..3 {
            assert_eq!(shown(&km, Num::int(1420), Lang::En), "1,420 km");
            assert_eq!(shown(&km, Num::int(1420), Lang::Da), "1.420 km");
            assert_eq!(shown(&per_km, Num::int(2), Lang::En), "DKK 2.00 per km");
            assert_eq!(shown(&Unit::base("km"), Num::ratio(5, 2).unwrap(), Lang::En), "2.5 km");
        }
    }

    #[test]
    fn digits_grouped_in_threes() {
        let cases = [
            ("7", "7"),
            ("12", "12"),
            ("999", "999"),
            ("1000", "1,000"),
            ("12345", "12,345"),
            ("123456", "123,456"),
            ("1234567", "1,234,567"),
            ("-1000", "−1,000"),
        ];
        for (digits, grouped) in cases {
            let mut out = String::new();
            push_grouped(&mut out, digits, ',');
            assert_eq!(out, grouped);
        }
        let mut out = String::new();
        push_grouped(&mut out, "1234567", '\u{a0}');
        assert_eq!(out, "1\u{a0}234\u{a0}567");
    }

    #[test]
    fn texts_made_visible() {
        assert!(matches!(visible("Kolding"), std::borrow::Cow::Borrowed("Kolding")));
        assert!(matches!(visible("Børge"), std::borrow::Cow::Borrowed("Børge")));
        assert_eq!(visible("a\nb"), "a\\nb");
        assert_eq!(visible("x\u{7f}"), "x\\u{7f}");
        assert_eq!(visible("x\u{202e}y"), "x\\u{202e}y");
    }
}
