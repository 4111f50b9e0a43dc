//! The plain builtins' meaning, written once: pure functions over the argument values (or
//! the numbers they hold), with no evaluation of their own. The interpreter, the compiled
//! evaluator and the explanation's working all call these; the table of builtins
//! (`check::builtins_table`) names which function each plain builtin is.
//!
//! A function is given its arguments already evaluated, in order, as the checker typed
//! them; a value of another kind is refused with a fault, never a panic. A fault is the
//! error's wording; the interpreter places it at the call, the compiled evaluator hands
//! the ruling over to the interpreter on it.

use super::date::Date;
use super::num::Num;
use super::time::Time;
use super::value::Value;
use std::borrow::Cow;

/// Why a plain builtin gives no value for its arguments: the error's wording.
pub type Fault = Cow<'static, str>;

/// A plain builtin over values.
pub type ValuesFn = fn(&[Value]) -> Result<Value, Fault>;

/// A plain builtin of one number to a number.
pub type NumberFn = fn(Num) -> Result<Num, Fault>;

fn date(v: Option<&Value>) -> Result<Date, Fault> {
    match v {
        Some(Value::Date(d)) => Ok(*d),
        _ => Err("not a date".into()),
    }
}

fn number(v: Option<&Value>) -> Result<Num, Fault> {
    v.and_then(Value::as_num).ok_or_else(|| "not a number".into())
}

fn whole(v: Option<&Value>) -> Result<i64, Fault> {
    number(v)?.as_i64().ok_or_else(|| "not a whole number".into())
}

/// `ceil(x)`: the least whole number not below `x`.
pub fn ceil(n: Num) -> Result<Num, Fault> {
    Ok(n.ceil())
}

/// `floor(x)`: the greatest whole number not above `x`.
pub fn floor(n: Num) -> Result<Num, Fault> {
    Ok(n.floor())
}

/// `round(x)`: the nearest whole number, halves away from zero.
pub fn round(n: Num) -> Result<Num, Fault> {
    Ok(n.round())
}

/// `abs(x)`: `x` without its sign.
pub fn abs(n: Num) -> Result<Num, Fault> {
    if n.is_negative() { n.neg().ok_or_else(|| "number too large".into()) } else { Ok(n) }
}

/// `age(born, on)`: whole years completed on a date.
pub fn age(args: &[Value]) -> Result<Value, Fault> {
    let (born, on) = (date(args.first())?, date(args.get(1))?);
    Ok(Value::int(born.age_on(on) as i128))
}

/// `date(year, month, day)`.
pub fn make_date(args: &[Value]) -> Result<Value, Fault> {
    let (y, m, d) = (whole(args.first())?, whole(args.get(1))?, whole(args.get(2))?);
    let day = u32::try_from(m).ok().zip(u32::try_from(d).ok()).and_then(|(m, d)| Date::from_ymd(y, m, d));
    day.map(Value::Date).ok_or_else(|| format!("there is no day {d} of month {m} of year {y}").into())
}

/// `year(d)`.
pub fn year(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(date(args.first())?.ymd().0 as i128))
}

/// `month(d)`: 1 (January) to 12.
pub fn month(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(date(args.first())?.ymd().1 as i128))
}

/// `day(d)`: the day of the month.
pub fn day(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(date(args.first())?.ymd().2 as i128))
}

/// `weekday(d)`: 1 (Monday) to 7 (Sunday).
pub fn weekday(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(date(args.first())?.weekday() as i128))
}

/// A weekday argument: a number 1 to 7, or a variant of a seven-day enum (Monday first).
fn weekday_arg(v: Option<&Value>) -> Result<u32, Fault> {
    match v {
        Some(Value::Enum(_, i)) => i.checked_add(1).ok_or_else(|| "the weekday is 1 (Monday) to 7 (Sunday)".into()),
        v => number(v)?
            .as_i64()
            .filter(|w| (1..=7).contains(w))
            .map(|w| w as u32)
            .ok_or_else(|| "the weekday is 1 (Monday) to 7 (Sunday)".into()),
    }
}

fn weekday_from(args: &[Value], back: bool) -> Result<Value, Fault> {
    let d = date(args.first())?;
    let w = weekday_arg(args.get(1))?;
    d.next_weekday(w, back).map(Value::Date).ok_or_else(|| "date out of range".into())
}

/// `next_weekday(d, w)`: the first such weekday after `d`.
pub fn next_weekday(args: &[Value]) -> Result<Value, Fault> {
    weekday_from(args, false)
}

/// `previous_weekday(d, w)`: the last such weekday before `d`.
pub fn previous_weekday(args: &[Value]) -> Result<Value, Fault> {
    weekday_from(args, true)
}

fn months_later(args: &[Value], per: i64) -> Result<Value, Fault> {
    let d = date(args.first())?;
    let n = whole(args.get(1))?;
    n.checked_mul(per).and_then(|n| d.add_months(n)).map(Value::Date).ok_or_else(|| "date out of range".into())
}

/// `add_months(d, n)`: the same day `n` months later (the month's last day if it has fewer).
pub fn add_months(args: &[Value]) -> Result<Value, Fault> {
    months_later(args, 1)
}

/// `add_years(d, n)`: the same day `n` years later.
pub fn add_years(args: &[Value]) -> Result<Value, Fault> {
    months_later(args, 12)
}

fn time(v: Option<&Value>) -> Result<Time, Fault> {
    match v {
        Some(Value::Time(t)) => Ok(*t),
        _ => Err("not a time of day".into()),
    }
}

/// `hour(t)`: a time of day's hour, 0 to 23.
pub fn hour(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(time(args.first())?.hm().0 as i128))
}

/// `minute(t)`: a time of day's minute past the hour, 0 to 59.
pub fn minute(args: &[Value]) -> Result<Value, Fault> {
    Ok(Value::int(time(args.first())?.hm().1 as i128))
}

/// `time(hour, minute)`: the time of day of an hour and a minute.
pub fn make_time(args: &[Value]) -> Result<Value, Fault> {
    let (h, m) = (whole(args.first())?, whole(args.get(1))?);
    let t = u32::try_from(h).ok().zip(u32::try_from(m).ok()).and_then(|(h, m)| Time::from_hm(h, m));
    t.map(Value::Time).ok_or_else(|| format!("there is no time of day {h}:{m:02}").into())
}
