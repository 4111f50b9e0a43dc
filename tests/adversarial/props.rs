//! Numeric builtins against an independent reference in big rationals
//! (`num-rational`): round, floor, ceil, abs, min, max, `top` ranking and
//! apportionment, over negative, zero, huge and fractional inputs.

use super::common::*;
use conditions::check::Checked;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::prelude::*;
use std::sync::OnceLock;

fn q(n: i128, d: i128) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// A fraction as the facts file writes it, from any i128 numerator and positive denominator.
fn text(n: i128, d: i128) -> String {
    let r = q(n, d);
    format!("{}/{}", r.numer(), r.denom())
}

/// The reference's integer shown as the tool shows an `int`.
fn show_int(x: &BigRational) -> String {
    assert!(x.is_integer());
    x.to_integer().to_string()
}

fn books() -> &'static [(&'static str, Checked)] {
    static B: OnceLock<Vec<(&'static str, Checked)>> = OnceLock::new();
    B.get_or_init(|| {
        ["round", "floor", "ceil", "abs"]
            .into_iter()
            .map(|f| {
                let ty = if f == "abs" { "number" } else { "int" };
                (f, checked_ok(&format!("fact x: number\nruling r: {ty} = {f}(x)")))
            })
            .collect()
    })
}

fn show_num(x: &BigRational) -> String {
    if x.is_integer() {
        return x.to_integer().to_string();
    }
    // Terminating fractions are shown as decimals; the others as n/d.
    let mut d = x.denom().clone();
    for p in [2u32, 5] {
        while (&d % p).is_zero() {
            d /= p;
        }
    }
    if d != BigInt::from(1) {
        return format!("{}/{}", x.numer(), x.denom());
    }
    let mut places = 0u32;
    let mut scaled = x.clone();
    while !scaled.is_integer() {
        scaled *= BigRational::from_integer(BigInt::from(10));
        places += 1;
    }
    let digits = scaled.to_integer().abs().to_string();
    let digits = format!("{}{digits}", "0".repeat((places as usize + 1).saturating_sub(digits.len())));
    let (i, f) = digits.split_at(digits.len() - places as usize);
    format!("{}{i}.{f}", if x.is_negative() { "-" } else { "" })
}

fn edge() -> impl Strategy<Value = i128> {
    prop_oneof![
        any::<i128>(),
        -1000i128..1000,
        Just(i128::MAX),
        Just(i128::MIN + 1),
        Just(0),
        (-3i128..=3).prop_map(|k| i128::MAX / 2 + k),
    ]
}

fn denom() -> impl Strategy<Value = i128> {
    prop_oneof![1i128..20, Just(2), Just(1), 1i128..i128::MAX, Just(i128::MAX)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rounding_agrees_with_big_rationals(n in edge(), d in denom()) {
        let x = q(n, d);
        for (f, c) in books() {
            let want = match *f {
                "round" => show_int(&x.round()),
                "floor" => show_int(&x.floor()),
                "ceil" => show_int(&x.ceil()),
                _ => show_num(&x.abs()),
            };
            let got = rule(c, &format!(r#"{{"x": "{}"}}"#, text(n, d)));
            prop_assert_eq!(got, want, "{}({}/{})", f, n, d);
        }
    }

    #[test]
    fn min_and_max_agree_with_big_rationals(xs in prop::collection::vec((edge(), denom()), 1..6)) {
        static MM: OnceLock<(Checked, Checked)> = OnceLock::new();
        let (lo, hi) = MM.get_or_init(|| (
            checked_ok("fact xs: list of number\nruling r: number = min(xs)"),
            checked_ok("fact xs: list of number\nruling r: number = max(xs)"),
        ));
        let vals: Vec<BigRational> = xs.iter().map(|&(n, d)| q(n, d)).collect();
        let json = format!(r#"{{"xs": [{}]}}"#, xs.iter().map(|&(n, d)| format!("\"{}\"", text(n, d))).collect::<Vec<_>>().join(","));
        prop_assert_eq!(rule(lo, &json), show_num(vals.iter().min().unwrap()));
        prop_assert_eq!(rule(hi, &json), show_num(vals.iter().max().unwrap()));
    }

    #[test]
    fn top_ranks_with_ties_like_the_reference(scores in prop::collection::vec(-5i128..5, 0..12), n in -1i128..14) {
        static TOP: OnceLock<Checked> = OnceLock::new();
        let c = TOP.get_or_init(|| checked_ok(
            "type T = record { id: int, s: number }\nfact ts: list of T\nfact n: int\nruling r: list of int = map(top(ts, t => t.s, n), t => t.id)",
        ));
        let json = format!(r#"{{"n": {n}, "ts": [{}]}}"#,
            scores.iter().enumerate().map(|(i, s)| format!(r#"{{"id": {i}, "s": "{s}/3"}}"#)).collect::<Vec<_>>().join(","));
        // Competition ranking: an item is in when fewer than n items score strictly more.
        let want: Vec<String> = scores.iter().enumerate()
            .filter(|(_, s)| (scores.iter().filter(|o| o > s).count() as i128) < n)
            .map(|(i, _)| i.to_string()).collect();
        let got = rule(c, &json);
        let got: Vec<String> = if got.is_empty() { vec![] } else { got.split(", ").map(str::to_string).collect() };
        prop_assert_eq!(got, want);
    }

    #[test]
    fn apportionment_gives_every_seat_within_one_of_the_quota(seats in 0i128..40, ws in prop::collection::vec(0i128..1000, 1..8)) {
        static AP: OnceLock<Checked> = OnceLock::new();
        let c = AP.get_or_init(|| checked_ok(
            "type D = record { w: int }\nfact seats: int\nfact ds: list of D\nruling r: list of int = apportion(seats, ds, d => d.w)",
        ));
        let json = format!(r#"{{"seats": {seats}, "ds": [{}]}}"#, ws.iter().map(|w| format!(r#"{{"w": {w}}}"#)).collect::<Vec<_>>().join(","));
        let got = rule(c, &json);
        let total: i128 = ws.iter().sum();
        if total == 0 {
            prop_assert_eq!(got, vec!["0"; ws.len()].join(", "));
            return Ok(());
        }
        if got.starts_with("error") {
            // Only a tie at the cut, with no lot to break it, may stop the ruling.
            prop_assert!(got.contains("tie"), "{}", got);
            return Ok(());
        }
        let parts: Vec<i128> = got.split(", ").map(|s| s.parse().unwrap()).collect();
        prop_assert_eq!(parts.iter().sum::<i128>(), seats);
        for (p, w) in parts.iter().zip(&ws) {
            let quota = q(seats * w, total);
            let p = BigRational::from_integer(BigInt::from(*p));
            prop_assert!(p >= quota.floor() && p <= quota.ceil(), "{} vs quota {}", p, quota);
        }
    }
}
