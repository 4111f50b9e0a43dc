//! Exact means exact: numbers beyond the exact range are refused with the limit
//! named, never rounded; rounding builtins are right on negative numbers and at the
//! edges of the range; values are shown with all their digits.

use super::common::*;
use conditions::facts::Format;

const FLIGHT: &str = "fact mp: number\nruling r: bool = mp < 5000";

#[test]
fn thirty_two_digits_below_the_limit_stay_below_it() {
    let c = checked_ok(FLIGHT);
    // 4999.9999999999999999999999999999 is 10^-28 below 5000.
    assert_eq!(rule(&c, r#"{"mp": "4999.9999999999999999999999999999"}"#), "yes");
    assert_eq!(rule(&c, r#"{"mp": 4999.9999999999999999999999999999}"#), "yes");
    assert_eq!(rule(&c, r#"{"mp": "5000.0000000000000000000000000000000000000000"}"#), "no");
}

#[test]
fn a_duration_a_hair_over_24_hours_is_over() {
    let c = checked_ok("fact d: duration\nruling r: bool = d <= 24 hours");
    assert_eq!(rule(&c, r#"{"d": "24.0000000000000000000000000001 hours"}"#), "no");
    assert_eq!(rule(&c, r#"{"d": "24 hours"}"#), "yes");
}

#[test]
fn numbers_beyond_the_exact_range_are_refused_naming_the_limit() {
    let c = checked_ok(FLIGHT);
    let out = rule(&c, r#"{"mp": "4999.99999999999999999999999999999999999999999"}"#);
    assert!(out.starts_with("facts:") && out.contains("2^127"), "{out}");
    // A JSON number in exponent form is read exactly (1e3 is 1000); one past the exact
    // range is refused, named as written.
    assert_eq!(rule(&c, r#"{"mp": 1e3}"#), "yes");
    assert_eq!(rule(&c, r#"{"mp": 5e3}"#), "no");
    let out = rule(&c, r#"{"mp": 1e400}"#);
    assert!(out.starts_with("facts:") && out.contains("1e400"), "{out}");
}

#[test]
fn a_rulebook_literal_of_41_digits_is_a_located_error() {
    let c = book(&format!("ruling r: bool = 3 < 1{}", "0".repeat(40)));
    let d = c.diagnostics.iter().find(|d| d.code == "conditions::number_too_large").expect("an error");
    assert!(d.help.as_deref().unwrap_or_default().contains("2^127"), "{:?}", d.help);
    assert!(!d.labels.is_empty(), "located");
}

#[test]
fn toml_and_yaml_floats_are_read_from_their_text() {
    let c = checked_ok(FLIGHT);
    // As a binary double, 4999.99999999999999 is exactly 5000.
    assert_eq!(rule_as(&c, Format::Toml, "mp = 4999.99999999999999\n"), "yes");
    assert_eq!(rule_as(&c, Format::Toml, "mp = 5_000.0\n"), "no");
    for (yaml, under) in [
        ("4999.99999999999999", "yes"),
        ("\"4999.99999999999999\"", "yes"),
        ("4999", "yes"),
        ("5000.0", "no"),
        ("4.99999999999999999e3", "yes"),
        ("5e3", "no"),
        ("+4999.", "yes"),
        ("0x1387", "yes"),
        ("0o11610", "no"),
    ] {
        assert_eq!(rule_as(&c, Format::Yaml, &format!("mp: {yaml}\n")), under, "{yaml}");
    }
    let out = rule_as(&c, Format::Yaml, "mp: .inf\n");
    assert!(out.starts_with("facts:") && out.contains("finite"), "{out}");
}

fn round_of(f: &str, x: &str) -> String {
    let c = checked_ok(&format!("fact x: number\nruling r: int = {f}(x)"));
    rule(&c, &format!(r#"{{"x": "{x}"}}"#))
}

#[test]
fn round_is_half_away_from_zero_on_negative_numbers() {
    for (x, want) in [
        ("-5", "-5"),
        ("-2.4", "-2"),
        ("-2.5", "-3"),
        ("-2.6", "-3"),
        ("-0.5", "-1"),
        ("-0.4", "0"),
        ("0.5", "1"),
        ("2.4", "2"),
        ("2.5", "3"),
        ("-7/2", "-4"),
        ("-10/3", "-3"),
    ] {
        assert_eq!(round_of("round", x), want, "round({x})");
    }
    assert_eq!(round_of("floor", "-2.5"), "-3");
    assert_eq!(round_of("ceil", "-2.5"), "-2");
    assert_eq!(round_of("floor", "-5"), "-5");
    assert_eq!(round_of("ceil", "-5"), "-5");
}

#[test]
fn round_at_the_top_of_the_range_does_not_wrap() {
    let big = "158000000000000000000000000000000000000";
    assert_eq!(round_of("round", big), big);
    assert_eq!(round_of("round", &format!("-{big}")), format!("-{big}"));
    // i128::MAX / 2 + 1/2 rounds up to (i128::MAX + 1) / 2 = 2^126.
    assert_eq!(
        round_of("round", "170141183460469231731687303715884105727/2"),
        "85070591730234615865843651857942052864"
    );
    assert_eq!(
        round_of("floor", "-170141183460469231731687303715884105727/2"),
        "-85070591730234615865843651857942052864"
    );
}

#[test]
fn tiny_values_are_shown_with_every_digit() {
    let c = checked_ok("fact x: number\nruling r: number = x");
    // 1/2^100 = 5^100 / 10^100, and 5^100 has 70 digits.
    let five_100 = num_bigint::BigInt::from(5).pow(100u32).to_string();
    assert_eq!(five_100.len(), 70);
    let want = format!("0.{}{five_100}", "0".repeat(30));
    assert_eq!(rule(&c, r#"{"x": "1/1267650600228229401496703205376"}"#), want);
    assert_eq!(rule(&c, r#"{"x": "1/3"}"#), "1/3");
    assert_eq!(rule(&c, r#"{"x": "-0.0000000000000000000000000000000001"}"#), "-0.0000000000000000000000000000000001");
}
