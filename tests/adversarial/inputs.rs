//! Inputs are unambiguous: a key given twice is an error in every format, `1/2/3`
//! is no number, a byte-order mark changes nothing.

use super::common::*;
use conditions::facts::Format;

const FLIGHT: &str = "fact mp: number\nruling r: bool = mp < 5000";

#[test]
fn a_key_given_twice_is_an_error_in_every_format() {
    let c = checked_ok(FLIGHT);
    let out = rule(&c, r#"{"mp": 1, "mp": 6000}"#);
    assert!(out.starts_with("facts:") && out.contains("`mp` is given twice"), "{out}");
    let out = rule_as(&c, Format::Toml, "mp = 1\nmp = 6000\n");
    assert!(out.starts_with("facts:") && out.contains("duplicate"), "{out}");
    let out = rule_as(&c, Format::Yaml, "mp: 1\nmp: 6000\n");
    assert!(out.starts_with("facts:") && out.contains("duplicate"), "{out}");
}

#[test]
fn a_key_given_twice_in_a_nested_object_is_an_error() {
    let c = checked_ok("type P = record { mp: number }\nfact p: P\nruling r: bool = p.mp < 5000");
    let out = rule(&c, r#"{"p": {"mp": 1, "mp": 6000}}"#);
    assert!(out.starts_with("facts:") && out.contains("given twice"), "{out}");
}

#[test]
fn one_two_three_is_not_a_number() {
    let c = checked_ok(FLIGHT);
    for bad in ["1/2/3", "1/0", "1/2.5", "+3", ".5", "5.", "1e3", "0x10", "1_000", "١٢", "1 /2", "--1"] {
        let out = rule(&c, &format!(r#"{{"mp": "{bad}"}}"#));
        assert!(out.starts_with("facts:"), "{bad} was read: {out}");
    }
    assert_eq!(rule(&c, r#"{"mp": "9999/2"}"#), "yes");
    assert_eq!(rule(&c, r#"{"mp": "10001/2"}"#), "no");
}

#[test]
fn a_byte_order_mark_changes_nothing() {
    let c = checked_ok(FLIGHT);
    assert_eq!(rule(&c, "\u{feff}{\"mp\": 10}"), "yes");
    assert_eq!(rule_as(&c, Format::Toml, "\u{feff}mp = 10\n"), "yes");
    assert_eq!(rule_as(&c, Format::Yaml, "\u{feff}mp: 10\n"), "yes");
}
