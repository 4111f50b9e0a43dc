//! Moments across midnight: `check` refuses every ordering, range, `max`/`min`, difference
//! and ordering key of two times of day that can both vary (`conditions::time_across_midnight`),
//! and lets a fixed time of day stand; `datetime` values built from facts or `date + time`
//! compare, move and subtract across days, the same in both evaluators; facts files write
//! them one way and are refused otherwise.

use conditions::check::{Checked, check_sources};
use conditions::eval::date::Date;
use conditions::eval::datetime::DateTime;
use conditions::eval::fast::{self, Scratch};
use conditions::eval::num::Num;
use conditions::eval::time::Time;
use conditions::eval::value::Value;
use conditions::eval::{Outcome, rule};
use conditions::source::SourceMap;
use proptest::prelude::*;
use serde_json::{Value as J, json};

fn checked(clause: &str) -> Checked {
    let text = format!(
        "rulebook \"t\" {{ title \"t\" language \"en\" }}\n\
         type R = record {{ clock: time \"a time\", moment: datetime \"a moment\" }}\n\
         clause \"1\" {{\n  text \"t\"\n\
           fact a: time \"a\"\n  fact b: time \"b\"\n  fact c: time \"c\"\n\
           fact day: date \"a day\"\n  fact m: datetime \"m\"\n  fact n: datetime \"n\"\n\
           fact rs: list of R \"rs\"\n{clause}\n}}\n"
    );
    let mut map = SourceMap::new();
    map.add("t.cond", text);
    check_sources(map)
}

fn midnight_errors(expr: &str, ty: &str) -> usize {
    let c = checked(&format!("  ruling x: {ty} \"x\" = {expr}"));
    let others: Vec<_> =
        c.diagnostics.iter().filter(|d| d.is_error() && d.code != "conditions::time_across_midnight").collect();
    assert!(others.is_empty(), "`{expr}`: other errors {others:?}");
    c.diagnostics.iter().filter(|d| d.code == "conditions::time_across_midnight").count()
}

#[test]
fn two_varying_times_of_day_are_refused() {
    for op in ["<", "<=", ">", ">="] {
        assert_eq!(midnight_errors(&format!("a {op} b"), "bool"), 1, "a {op} b");
        assert_eq!(midnight_errors(&format!("a {op} b + 15 minutes"), "bool"), 1, "a {op} b + 15 minutes");
        assert_eq!(midnight_errors(&format!("[a, c] {op} [b, c]"), "bool"), 1, "lists");
    }
    for (expr, ty) in [
        ("max(a, b)", "time"),
        ("min(a, b, 18:00)", "time"),
        ("max(a, b) + 15 minutes", "time"),
        ("max(map(rs, r => r.clock))", "time"),
        ("a - b", "duration"),
        ("a in b..=c", "bool"),
        ("a in b..", "bool"),
        ("a in ..=b", "bool"),
        ("first(sort r in rs by r.clock)", "R"),
        ("first(rank r in rs by r.clock descending)", "list of R"),
        ("most(rs, r => r.clock)", "list of R"),
        ("least(rs, r => r.clock)", "list of R"),
        ("top(rs, r => r.clock, 2)", "list of R"),
        ("if a <= b then 1 else 2", "int"),
    ] {
        assert_eq!(midnight_errors(expr, ty), 1, "`{expr}` is refused");
    }
}

#[test]
fn a_fixed_time_of_day_and_moments_stand() {
    for (expr, ty) in [
        ("a < 9.30", "bool"),
        ("19:30 >= a", "bool"),
        ("a <= 13:00 + 15 minutes", "bool"),
        ("max(a, 18:00)", "time"),
        ("a - 18:00", "duration"),
        ("a in 9.30..=19.30", "bool"),
        ("a == b", "bool"),
        ("a != b", "bool"),
        ("a + 15 minutes", "time"),
        ("m <= n", "bool"),
        ("max(m, n) + 15 minutes", "datetime"),
        ("min(map(rs, r => r.moment))", "datetime"),
        ("m - n", "duration"),
        ("m in n..=day + c", "bool"),
        ("day + a <= day + b", "bool"),
        ("day + a - 15 minutes", "datetime"),
        ("first(sort r in rs by r.moment)", "R"),
        ("most(rs, r => r.moment)", "list of R"),
        ("2008-09-06 + 22:00", "datetime"),
        ("day + 22.00", "datetime"),
        ("day + 1 day", "date"),
    ] {
        assert_eq!(midnight_errors(expr, ty), 0, "`{expr}` stands");
    }
}

#[test]
fn moments_are_typed() {
    for (expr, ty) in [
        ("m + n", "datetime"),
        ("a + day", "datetime"),
        ("day - a", "datetime"),
        ("m > a", "bool"),
        ("day + 18.75", "datetime"),
        ("day + 3", "date"),
    ] {
        let c = checked(&format!("  ruling x: {ty} \"x\" = {expr}"));
        assert!(
            c.diagnostics.iter().any(|d| d.code == "conditions::type_mismatch"),
            "`{expr}` is a type error: {:?}",
            c.diagnostics
        );
    }
}

/// Rules `name` both ways; the evaluators agree on a decided value.
fn ruled(c: &Checked, name: &str, facts: &J) -> Result<Value, String> {
    let p = &c.program;
    let def = p.def_by_name(name).expect("the definition");
    let inputs = conditions::facts::validate(p, facts, "test").map_err(|d| format!("{d:?}"))?;
    let own = fast::evaluate(p, &inputs, def, &mut Scratch::default());
    match rule(p, &inputs, def, false).outcome {
        Outcome::Decided(v) => {
            if let Ok(w) = own {
                assert_eq!(v, w, "{name} on {facts}");
            }
            Ok(v)
        }
        other => {
            assert!(own.is_err(), "{name} on {facts}: compiled {own:?}, interpreter {other:?}");
            Err(format!("{other:?}"))
        }
    }
}

fn dt(s: &str) -> Value {
    Value::DateTime(DateTime::parse(s).expect("a moment"))
}

#[test]
fn moments_cross_midnight_in_both_evaluators() {
    let c = checked(
        "  ruling due: datetime \"due\" = max(m, n) + 15 minutes\n\
           ruling on_time: bool \"on time\" = day + a <= due\n\
           ruling gap: duration \"gap\" = day + a - m\n\
           ruling back: datetime \"back\" = m - 1 day - 30 minutes",
    );
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let facts = json!({ "m": "2008-09-06 23:40", "n": "2008-09-06T23:35:00", "day": "2008-09-07", "a": "00:03" });
    assert_eq!(ruled(&c, "due", &facts), Ok(dt("2008-09-06 23:55")));
    assert_eq!(ruled(&c, "on_time", &facts), Ok(Value::Bool(false)));
    assert_eq!(ruled(&c, "gap", &facts), Ok(Value::Num(Num::int(23))));
    assert_eq!(ruled(&c, "back", &facts), Ok(dt("2008-09-05 23:10")));
    let late = json!({ "m": "2008-09-06 23:50", "n": "2008-09-07 00:05", "day": "2008-09-07", "a": "00:15" });
    assert_eq!(ruled(&c, "due", &late), Ok(dt("2008-09-07 00:20")));
    assert_eq!(ruled(&c, "on_time", &late), Ok(Value::Bool(true)));
    // Past the last representable moment: an error, never a wrapped value.
    let end = json!({ "m": "9999-12-31 23:50", "n": "9999-12-31 23:50" });
    assert!(ruled(&c, "due", &end).is_err());
}

#[test]
fn facts_write_a_moment_one_way() {
    let c = checked("  ruling x: datetime \"x\" = m");
    for good in ["2008-09-06 22:00", "2008-09-06T22:00", "2008-09-06T22:00:00", " 2008-09-06 22:00 "] {
        assert!(conditions::facts::validate(&c.program, &json!({ "m": good }), "t").is_ok(), "{good}");
    }
    for bad in [
        json!("22:00"),
        json!("2008-09-06"),
        json!("2008-09-06 9:30"),
        json!("2008-09-06 24:00"),
        json!("2008-02-30 10:00"),
        json!("2008-09-06 22.00"),
        json!(20080906),
        json!(true),
    ] {
        let diags = conditions::facts::validate(&c.program, &json!({ "m": bad }), "t").expect_err("refused");
        assert!(diags.iter().any(|d| d.code == "conditions::fact_type"), "{bad}: {diags:?}");
        assert!(
            diags.iter().any(|d| d.help.as_deref().is_some_and(|h| h.contains("2008-09-06 18:15"))),
            "{bad}: {diags:?}"
        );
    }
}

proptest! {
    /// Moments order as (date, time) pairs do; moving by a duration and the minutes between
    /// two moments undo each other, across any number of midnights.
    #[test]
    fn moments_order_and_move_as_pairs(
        d1 in 0i64..40000, m1 in 0i64..1440, d2 in 0i64..40000, m2 in 0i64..1440, k in -100000i64..100000,
    ) {
        let day = |d: i64| Date::from_ymd(1900, 1, 1).and_then(|x| x.add_days(d)).expect("a day");
        let time = |m: i64| Time::from_minutes(m).expect("a time");
        let (x, y) = (DateTime::new(day(d1), time(m1)), DateTime::new(day(d2), time(m2)));
        prop_assert_eq!(x.cmp(&y), (day(d1), time(m1)).cmp(&(day(d2), time(m2))));
        prop_assert_eq!((x.date(), x.time()), (day(d1), time(m1)));
        let moved = x.add(Num::int(k as i128), false).expect("in range");
        prop_assert_eq!(moved.since(x), Num::int(k as i128));
        prop_assert_eq!(moved.add(Num::int(k as i128), true), Ok(x));
        prop_assert_eq!(DateTime::parse(&x.to_string()), Some(x));
    }
}
