//! Syntax errors that teach, over arbitrary text made of the mistakes they recognise: the
//! parser never panics, every syntax error has a help line and a span that lies within the
//! text on character boundaries (the taught ones move and widen the span), and a taught
//! message is never given where the text is valid.

use conditions::syntax::parse_file;
use proptest::prelude::*;

fn fragments() -> Vec<&'static str> {
    vec![
        "rulebook \"t\" { title \"t\" language \"en\" }",
        "type P = record {",
        "name: text,",
        "mp: int",
        "in",
        "0..",
        "1..5",
        "..",
        "..=",
        "}",
        "{",
        ",",
        "fact",
        "decision",
        "lot",
        "x:",
        "int",
        "\"desc\"",
        "by",
        "'ø'",
        "'",
        "ruling r: int =",
        "let",
        "v",
        "=",
        "sort",
        "rank",
        "s",
        "if",
        "then",
        "else",
        "elif",
        "not",
        "and",
        "or",
        "<",
        ">",
        "<>",
        "==",
        "&&",
        "||",
        "!",
        "!=",
        "2,000",
        "2,",
        "1",
        "ø",
        "list<int>",
        "list",
        "<",
        "between",
        "enum",
        "record",
        "Æble",
        "(",
        ")",
        "\n",
        "  ",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn taught_errors_never_panic_and_point_into_the_text(parts in prop::collection::vec(prop::sample::select(fragments()), 0..30)) {
        let text = parts.join(" ");
        if let Err(d) = parse_file(&text, 0) {
            prop_assert!(d.help.as_deref().is_some_and(|h| !h.is_empty()), "no help: {}", d.message);
            for l in &d.labels {
                let (s, e) = (l.span.start as usize, l.span.end as usize);
                prop_assert!(s <= e && e <= text.len(), "{}: {s}..{e} of {}", d.message, text.len());
                prop_assert!(text.is_char_boundary(s) && text.is_char_boundary(e), "{}: {s}..{e}", d.message);
            }
        }
    }
}

/// Each corrected form the help lines give parses.
#[test]
fn the_nearest_valid_forms_parse() {
    let head = "rulebook \"t\" { title \"t\" language \"en\" }\n";
    for body in [
        "fact rounds: int in 1.. \"the rounds played\"",
        "decision approves: bool by \"the Tournament Director\" \"whether the director approves\"",
        "fact scores: list of int \"s\"\nruling best: int \"b\" = let ordered = (sort x in scores by x descending) in first(ordered)",
        "fact a: int \"a\"\nfact b: int \"b\"\nruling r: bool \"r\" = let ok = (a < b) in ok and a > 0",
        "fact a: int \"a\"\nruling r: int \"r\" = let v = (if a > 0 then a else 0) in v * 2",
        "fact a: int \"a\"\nruling r: bool \"r\" = a == 3 and not (a != 3) or (1 < a and a < 3) or a in 1..=5 or a in 1..",
        "fact a: int \"a\"\nruling r: int \"r\" = if a > 3 then 1 else if a > 1 then 2 else 3",
        "fact mp: int \"m\"\nruling r: bool \"r\" = mp < 2000",
        "fact scores: list of int \"the scores\"",
        "type Flight = enum { A, B }",
    ] {
        let text = format!("{head}{body}\n");
        assert!(parse_file(&text, 0).is_ok(), "{body}: {:?}", parse_file(&text, 0).err().map(|d| d.message));
    }
}
