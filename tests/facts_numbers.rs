//! Numbers in facts are read exactly whatever serde_json's features: from JSON text (a
//! facts file, a batch line, a request's body) by their digits; from a JSON tree (an
//! embedder's `serde_json::Value` or `Serialize` value) through `Number`'s own text,
//! which for an `f64` is its shortest decimal; from TOML by their digits. Expected values
//! are worked out by hand: `0.1 × 3` is `3/10`, and 4999.99999999999999999 is below 5000.

use conditions::check::check_sources;
use conditions::eval::num::Num;
use conditions::eval::value::Value;
use conditions::facts::{Format, parse, validate};

const BOOK: &str = "rulebook \"t\" { title \"t\" language \"en\" }\nfact mp: number\nfact due: EUR\n\
                    fact n: int\nfact xs: list of number\n\
                    ruling below: bool = mp < 5000\nruling thrice: number = mp * 3\n";

fn program() -> conditions::check::program::Program {
    let mut map = conditions::source::SourceMap::new();
    map.add("t.cond", BOOK);
    let c = check_sources(map);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    c.program
}

fn num(s: &str) -> Value {
    Value::Num(Num::parse(s).expect("a number"))
}

/// The value read for fact `name` from a JSON facts file's text.
fn from_text(p: &conditions::check::program::Program, text: &str, name: &str) -> Result<Option<Value>, String> {
    let tree = parse(text, Format::Json, "f.json").map_err(|d| d.message)?;
    let inputs = validate(p, &tree, "f.json")
        .map_err(|e| format!("{} (help: {})", e[0].message, e[0].help.as_deref().unwrap_or_default()))?;
    let mut direct = conditions::eval::interp::Inputs::empty(p);
    let read = conditions::facts::read_json_into(p, text, "f.json", false, &mut direct, &mut Vec::new());
    assert!(matches!(read, Ok(Ok(()))), "read straight: {read:?}");
    let f = p.facts.iter().position(|f| f.name == name).expect("declared");
    assert_eq!(inputs.facts[f], direct.facts[f], "the tree and the straight reading agree");
    Ok(inputs.facts[f].clone())
}

#[test]
fn json_text_keeps_every_digit() {
    let p = program();
    assert_eq!(from_text(&p, r#"{"mp": 0.1}"#, "mp"), Ok(Some(num("1/10"))));
    assert_eq!(
        from_text(&p, r#"{"mp": 4999.99999999999999999}"#, "mp"),
        Ok(Some(num("499999999999999999999/100000000000000000")))
    );
    assert_eq!(
        from_text(&p, r#"{"mp": -0.30000000000000001}"#, "mp"),
        Ok(Some(num("-30000000000000001/100000000000000000")))
    );
    assert_eq!(from_text(&p, r#"{"n": 12345678901234567890123}"#, "n"), Ok(Some(num("12345678901234567890123"))));
    assert_eq!(
        from_text(&p, r#"{"xs": [0.1, 0.2, 100]}"#, "xs"),
        Ok(Some(Value::list(vec![num("0.1"), num("0.2"), num("100")])))
    );
    assert_eq!(from_text(&p, r#"{"due": "12.50 EUR"}"#, "due"), Ok(Some(num("12.5"))));
    let e = from_text(&p, r#"{"n": 2.5}"#, "n").expect_err("a fraction for an int");
    assert!(e.contains("`n` must be `int`") && e.contains("`2.5`"), "{e}");
    // A JSON number in exponent form is the exact number it writes (docs/facts.md); one
    // too large to hold is refused, named as written.
    assert_eq!(from_text(&p, r#"{"mp": 2.5e3}"#, "mp"), Ok(Some(num("2500"))));
    assert_eq!(from_text(&p, r#"{"mp": 2.5e-1}"#, "mp"), Ok(Some(num("1/4"))));
    assert_eq!(from_text(&p, r#"{"xs": [1, 1E-2]}"#, "xs"), Ok(Some(Value::list(vec![num("1"), num("1/100")]))));
    for t in [r#"{"mp": 1e400}"#, r#"{"mp": 1e-999}"#] {
        let e = from_text(&p, t, "mp").expect_err("too large");
        assert!(e.contains("`mp` must be") && e.contains(['e', 'E']), "{e}");
    }
}

#[test]
fn a_batch_line_is_ruled_on_its_digits() {
    let p = program();
    let defs: Vec<u32> = p.rulings().map(|(d, _)| d).collect();
    let input = "{\"mp\": 4999.99999999999999999, \"due\": \"1 EUR\", \"n\": 1, \"xs\": []}\n\
                 {\"mp\": 0.1, \"due\": \"1 EUR\", \"n\": 1, \"xs\": []}\n";
    let mut out = Vec::new();
    conditions::batch::run(&p, &defs, input.as_bytes(), &mut out, 1, |_| {}).expect("runs");
    let out = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"line":1,"below":{"status":"decided","value":true},"thrice":{"status":"decided","value":"14999.99999999999999997"}}"#
    );
    assert_eq!(
        lines[1],
        r#"{"line":2,"below":{"status":"decided","value":true},"thrice":{"status":"decided","value":"0.3"}}"#
    );
}

#[test]
fn a_tree_is_read_through_each_numbers_own_text() {
    let p = program();
    let f = |name: &str| p.facts.iter().position(|f| f.name == name).expect("declared");
    // An f64 given by an embedder is read as its shortest decimal, written out: 0.1 is
    // 1/10, 1e21 a one and 21 zeros.
    let tree = serde_json::json!({"mp": 0.1, "n": -7, "xs": [2.5, 1e21, 3]});
    let inputs = validate(&p, &tree, "facts").expect("fits");
    assert_eq!(inputs.facts[f("mp")], Some(num("0.1")));
    assert_eq!(inputs.facts[f("n")], Some(num("-7")));
    assert_eq!(inputs.facts[f("xs")], Some(Value::list(vec![num("2.5"), num("1000000000000000000000"), num("3")])));
    // An f64 where an int is declared is refused with its path, not rounded.
    let errs = validate(&p, &serde_json::json!({"n": 2.5}), "facts").expect_err("a fraction");
    assert!(errs[0].message.contains("`n` must be `int`"), "{}", errs[0].message);
    // A tree this crate made from text holds any number exactly.
    let tree = conditions::facts::read::toml("mp = 4999.99999999999999999\n").expect("toml");
    let inputs = validate(&p, &tree, "facts").expect("fits");
    assert_eq!(inputs.facts[f("mp")], Some(num("4999.99999999999999999")));
}
