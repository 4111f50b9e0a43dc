//! Inputs that once took minutes: each is answered (these tests hang if the
//! super-linear path comes back; growth is measured in the benchmarks, not here).

use super::common::*;
use conditions::facts::Format;

#[test]
fn membership_nested_16_deep_checks_at_once() {
    // 291 bytes that took over 300 s: `(b in [(b in [ … ])])`, 16 deep.
    let e = format!("{}b{}", "(b in [".repeat(16), "])".repeat(16));
    let syntax_ok = std::thread::Builder::new()
        .stack_size(conditions::syntax::parser::STACK_BYTES)
        .spawn(move || {
            book(&format!("fact b: bool\nruling r: bool = {e}"))
                .diagnostics
                .iter()
                .all(|d| d.code != "conditions::syntax")
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(syntax_ok);
    let long = std::thread::Builder::new()
        .stack_size(conditions::syntax::parser::STACK_BYTES)
        .spawn(|| book(&format!("fact b: int\nruling r: bool = b in [{}]", "b + ".repeat(500) + "1")).has_errors())
        .unwrap()
        .join()
        .unwrap();
    assert!(!long);
}

#[test]
fn yaml_with_100k_brackets_is_refused_at_once() {
    let c = checked_ok("fact mp: number\nruling r: bool = mp < 5000");
    let out = rule_as(&c, Format::Yaml, &format!("mp: {}", "[".repeat(100_000)));
    assert!(out.starts_with("facts:") && out.contains("nested"), "{out}");
}

#[test]
fn a_100_kb_unknown_key_gets_no_slow_suggestion() {
    let c = checked_ok("fact mp: number\nruling r: bool = mp < 5000");
    let out = rule(&c, &format!(r#"{{"{}": 1}}"#, "m".repeat(100_000)));
    assert!(out.starts_with("facts:") && out.contains("is not a fact"), "{}", &out[..200.min(out.len())]);
    let out = rule(&c, r#"{"mq": 1}"#);
    assert!(out.contains("did you mean `mp`"), "{out}");
}

#[test]
fn top_of_32k_teams_ranks_with_ties() {
    let c = checked_ok(
        "type T = record { id: int, s: int }\nfact ts: list of T\nruling r: int = count(top(ts, t => t.s, 3))",
    );
    // Scores 0..31999 by id mod 16,000: two teams on each score; the top three places
    // are the two on 15,999 and the two on 15,998 (competition rank 3).
    let teams: Vec<String> = (0..32_000).map(|i| format!(r#"{{"id": {i}, "s": {}}}"#, i % 16_000)).collect();
    assert_eq!(rule(&c, &format!(r#"{{"ts": [{}]}}"#, teams.join(","))), "4");
}

#[test]
fn a_quote_inside_a_plain_yaml_value_does_not_hide_100k_brackets() {
    // Found by fuzzing (`facts`): `%'` is no quote to YAML, but the bracket-depth scan took
    // it for one and let 84,904 nested `[` through to the YAML reader (over 20 s).
    let c = checked_ok("fact mp: number\nruling r: bool = mp < 5000");
    for text in
        [format!("player:%' n2mp: {}", "[".repeat(84_904)), format!("mp: [x', ']', {}", "[x', ']', ".repeat(30_000))]
    {
        let out = rule_as(&c, Format::Yaml, &text);
        assert!(out.starts_with("facts:") && out.contains("block style"), "{}", &out[..out.len().min(300)]);
    }
    // Flow style within the bounds is still read: 150 records in one list.
    let c = checked_ok("type T = record { s: int }\nfact ts: list of T\nruling r: int = count(ts)");
    let list: Vec<String> = (0..150).map(|i| format!("{{s: {i}}}")).collect();
    assert_eq!(rule_as(&c, Format::Yaml, &format!("ts: [{}]", list.join(", "))), "150");
}
