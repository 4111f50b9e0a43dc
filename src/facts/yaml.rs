//! YAML facts: read into the JSON tree the other formats give, and written back from it.
//!
//! Reading goes through the events of a YAML 1.2 parser (`saphyr-parser`), and the tree is
//! built here, so that nothing is lost or guessed: a plain scalar is resolved by the YAML 1.2
//! core schema (`no`, `on`, `yes` stay text; `null`/`~`/empty, `true`/`false`, numbers), a
//! number keeps the digits it was written with (`4999.99999999999999` is not rounded through
//! binary floating point, `1e3` is 1000, `0x1F` is 31), quoted and block scalars are text, a
//! key given twice is an error, an alias (`*a`) is expanded within a bound on the tree's size
//! (a "billion laughs" file is refused), and a tag other than the core schema's is refused.
//!
//! Writing ([`write`]) gives block style, text plain where a YAML 1.1 or 1.2 reader reads
//! it back as that text, else quoted as in JSON (which YAML 1.2 reads the same way).

use super::tree::exact;
use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};
use serde_json::{Map, Value as J};

/// Most nodes the tree of one YAML file may have once its aliases are expanded.
pub const MAX_YAML_NODES: usize = 1_000_000;

/// Deepest nesting of lists and mappings read, in block or flow style (facts follow
/// declared types, never this deep).
pub const MAX_YAML_DEPTH: usize = 100;

/// A YAML text's tree; an empty file (or one of comments only) is `null`.
pub fn read(text: &str) -> Result<J, String> {
    let mut reader = Reader { events: Parser::new_from_str(text), anchors: Vec::new(), nodes: 0, depth: 0 };
    let mut tree = J::Null;
    let mut documents = 0;
    loop {
        let (event, span) = reader.next()?;
        match event {
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            Event::StreamEnd => return Ok(tree),
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(format!(
                        "a second YAML document (`---`){}: a facts file is one document",
                        at_line(&span)
                    ));
                }
                let (first, span) = reader.next()?;
                tree = reader.node(first, span, &mut String::new())?;
            }
            other => return Err(format!("unexpected YAML {other:?}{}", at_line(&span))),
        }
    }
}

struct Reader<'a> {
    events: Parser<'a, saphyr_parser::StrInput<'a>>,
    /// The anchored nodes (`&a`) read so far, with their sizes.
    anchors: Vec<(usize, J, usize)>,
    /// Nodes in the tree so far, expanded aliases counted.
    nodes: usize,
    /// Lists and mappings open around the node being read.
    depth: usize,
}

fn at(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!(" at `{path}`") }
}

fn at_line(span: &Span) -> String {
    format!(" at line {} column {}", span.start.line(), span.start.col() + 1)
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Result<(Event<'a>, Span), String> {
        match self.events.next() {
            Some(Ok(e)) => Ok(e),
            Some(Err(e)) => Err(format!("{} at line {} column {}", e.info(), e.marker().line(), e.marker().col() + 1)),
            None => Err("the YAML text ends early".into()),
        }
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_YAML_NODES {
            return Err(format!(
                "the YAML file expands to more than {MAX_YAML_NODES} values (through its aliases `*`); \
                 write the facts out instead"
            ));
        }
        Ok(())
    }

    /// The node that starts with `event`, read to its end.
    fn node(&mut self, event: Event<'a>, span: Span, path: &mut String) -> Result<J, String> {
        if matches!(event, Event::SequenceStart(..) | Event::MappingStart(..)) {
            if self.depth == MAX_YAML_DEPTH {
                return Err(format!("lists and mappings nested more than {MAX_YAML_DEPTH} deep{}", at_line(&span)));
            }
            self.depth += 1;
            let value = self.collection(event, span, path);
            self.depth -= 1;
            return value;
        }
        self.collection(event, span, path)
    }

    fn collection(&mut self, event: Event<'a>, span: Span, path: &mut String) -> Result<J, String> {
        let before = self.nodes;
        self.count(1)?;
        let (value, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => (scalar(&text, style, tag.as_deref(), path)?, anchor),
            Event::Alias(id) => {
                let Some((_, value, size)) = self.anchors.iter().rev().find(|(a, _, _)| *a == id) else {
                    return Err(format!("an alias{} names no anchor before it", at(path)));
                };
                let (value, size) = (value.clone(), *size);
                self.count(size.saturating_sub(1))?;
                return Ok(value);
            }
            Event::SequenceStart(anchor, tag) => {
                refuse_tag(tag.as_deref(), "seq", path)?;
                let mut out = Vec::new();
                loop {
                    let (event, span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    let len = path.len();
                    path.push_str(&format!("[{}]", out.len()));
                    out.push(self.node(event, span, path)?);
                    path.truncate(len);
                }
                (J::Array(out), anchor)
            }
            Event::MappingStart(anchor, tag) => {
                refuse_tag(tag.as_deref(), "map", path)?;
                let mut out = Map::new();
                loop {
                    let (event, span) = self.next()?;
                    let key = match event {
                        Event::MappingEnd => break,
                        Event::Scalar(text, style, _, tag) => match scalar(&text, style, tag.as_deref(), path)? {
                            J::String(k) => k,
                            _ => return Err(format!("the key `{text}`{} is not text; write keys as names", at(path))),
                        },
                        _ => {
                            return Err(format!(
                                "a key{}{} is not text; write keys as names",
                                at(path),
                                at_line(&span)
                            ));
                        }
                    };
                    if out.contains_key(&key) {
                        return Err(format!(
                            "duplicate key: `{key}` is given twice in one mapping{}{}",
                            at(path),
                            at_line(&span)
                        ));
                    }
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&key);
                    let (event, span) = self.next()?;
                    let value = self.node(event, span, path)?;
                    path.truncate(len);
                    out.insert(key, value);
                }
                (J::Object(out), anchor)
            }
            other => return Err(format!("unexpected YAML {other:?}{}{}", at(path), at_line(&span))),
        };
        if anchor != 0 {
            self.anchors.push((anchor, value.clone(), self.nodes - before));
        }
        Ok(value)
    }
}

fn refuse_tag(tag: Option<&Tag>, core: &str, path: &str) -> Result<(), String> {
    match tag {
        None => Ok(()),
        Some(t) if t.is_yaml_core_schema() && t.suffix == core => Ok(()),
        Some(t) => Err(format!("a tagged value{} is not a fact; remove the `{t}`", at(path))),
    }
}

/// A scalar's value: plain ones resolved by the YAML 1.2 core schema, all others text.
fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>, path: &str) -> Result<J, String> {
    let plain = match tag {
        None => style == ScalarStyle::Plain,
        Some(t) if t.is_yaml_core_schema() => match t.suffix.as_str() {
            "str" => false,
            "null" | "bool" | "int" | "float" => true,
            _ => return Err(format!("a tagged value{} is not a fact; remove the `{t}`", at(path))),
        },
        Some(t) => return Err(format!("a tagged value{} is not a fact; remove the `{t}`", at(path))),
    };
    if !plain {
        return Ok(J::String(text.to_string()));
    }
    Ok(match text {
        "" | "~" | "null" | "Null" | "NULL" => J::Null,
        "true" | "True" | "TRUE" => J::Bool(true),
        "false" | "False" | "FALSE" => J::Bool(false),
        _ => match number(text) {
            Some(Ok(n)) => n,
            Some(Err(())) => {
                return Err(format!("the number `{text}`{} is not finite; facts are finite numbers", at(path)));
            }
            None => J::String(text.to_string()),
        },
    })
}

/// A plain scalar the core schema reads as a number, exactly: `None` when it is text,
/// `Some(Err)` for `.inf` and `.nan`.
fn number(text: &str) -> Option<Result<J, ()>> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => ("-", &text[1..]),
        b'+' => ("", &text[1..]),
        _ => ("", text),
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Err(()));
    }
    let radix = |digits: &str, r: u32| {
        let ok = !digits.is_empty() && digits.chars().all(|c| c.is_digit(r));
        ok.then(|| i128::from_str_radix(digits, r).ok()).flatten().map(|n| Ok(exact(&n.to_string())))
    };
    if sign.is_empty() && text == body {
        if let Some(hex) = text.strip_prefix("0x") {
            return radix(hex, 16);
        }
        if let Some(oct) = text.strip_prefix("0o") {
            return radix(oct, 8);
        }
    }
    // `[0-9]+`, `[0-9]+.[0-9]*`, `.[0-9]+`, each with an optional exponent.
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let whole_ok = digits(whole) && (!whole.is_empty() || fraction.is_some_and(|f| !f.is_empty()));
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !whole_ok || !fraction.is_none_or(digits) || !exponent_ok {
        return None;
    }
    // The same number in JSON's syntax.
    let whole = whole.trim_start_matches('0');
    let mut json = format!("{sign}{}", if whole.is_empty() { "0" } else { whole });
    if let Some(f) = fraction.filter(|f| !f.is_empty()) {
        json.push('.');
        json.push_str(f);
    }
    if let Some(e) = exponent {
        json.push('e');
        json.push_str(e);
    }
    Some(Ok(exact(&json)))
}

/// The tree as a YAML document (block style).
pub fn write(tree: &J) -> String {
    let mut out = String::new();
    match tree {
        J::Object(m) if !m.is_empty() => mapping(m, 0, &mut out),
        J::Array(xs) if !xs.is_empty() => sequence(xs, 0, &mut out),
        other => {
            out.push_str(&flat(other));
            out.push('\n');
        }
    }
    out
}

fn mapping(m: &Map<String, J>, indent: usize, out: &mut String) {
    for (k, v) in m {
        out.push_str(&" ".repeat(indent));
        out.push_str(&text(k));
        out.push(':');
        value(v, indent + 2, out);
    }
}

fn sequence(xs: &[J], indent: usize, out: &mut String) {
    for x in xs {
        let mut item = String::new();
        match x {
            J::Object(m) if !m.is_empty() => mapping(m, indent + 2, &mut item),
            J::Array(ys) if !ys.is_empty() => sequence(ys, indent + 2, &mut item),
            other => item = format!("{}{}\n", " ".repeat(indent + 2), flat(other)),
        }
        // The item's first line begins after `- ` instead of its indentation.
        out.push_str(&" ".repeat(indent));
        out.push_str("- ");
        out.push_str(&item[indent + 2..]);
    }
}

/// A mapping's value after its `key:`.
fn value(v: &J, indent: usize, out: &mut String) {
    match v {
        J::Object(m) if !m.is_empty() => {
            out.push('\n');
            mapping(m, indent, out);
        }
        J::Array(xs) if !xs.is_empty() => {
            out.push('\n');
            sequence(xs, indent, out);
        }
        other => {
            out.push(' ');
            out.push_str(&flat(other));
            out.push('\n');
        }
    }
}

/// A scalar, or an empty list or mapping, on one line.
fn flat(v: &J) -> String {
    match v {
        J::Null => "null".into(),
        J::Bool(b) => b.to_string(),
        J::Number(n) => n.to_string(),
        J::String(s) => text(s),
        J::Array(_) => "[]".into(),
        J::Object(_) => "{}".into(),
    }
}

/// Text plain when every YAML reader reads it back as that text, else quoted.
fn text(s: &str) -> String {
    let first = s.chars().next();
    let plain = first.is_some_and(|c| c.is_alphanumeric() || c == '_' || (c == '.' && s.len() > 1 && !s[1..].starts_with('.')))
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.chars().any(|c| c.is_control() || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}'))
        && !s.chars().any(|c| matches!(c, '[' | ']' | '{' | '}' | ',' | '"' | '\'' | '`'))
        && matches!(scalar(s, ScalarStyle::Plain, None, ""), Ok(J::String(_)))
        // YAML 1.1 readers take these for booleans.
        && !matches!(s.to_ascii_lowercase().as_str(), "y" | "n" | "yes" | "no" | "on" | "off");
    if plain { s.to_string() } else { serde_json::Value::String(s.to_string()).to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(j: &J) -> String {
        match j {
            J::Object(m) => m[crate::facts::tree::NUMBER_KEY].as_str().unwrap_or_default().to_string(),
            other => other.to_string(),
        }
    }

    #[test]
    fn plain_scalars_follow_the_yaml_1_2_core_schema() {
        let t =
            read("a: no\nb: on\nc: yes\nd: ~\ne:\nf: True\ng: 0x1F\nh: 0o17\ni: +12\nj: 007\nk: '12'\nl: 2150 USD\n")
                .unwrap();
        assert_eq!((t["a"].as_str(), t["b"].as_str(), t["c"].as_str()), (Some("no"), Some("on"), Some("yes")));
        assert!(t["d"].is_null() && t["e"].is_null());
        assert_eq!(t["f"], J::Bool(true));
        assert_eq!((digits(&t["g"]), digits(&t["h"])), ("31".into(), "15".into()));
        assert_eq!((digits(&t["i"]), digits(&t["j"])), ("12".into(), "7".into()));
        assert_eq!(t["k"].as_str(), Some("12"));
        assert_eq!(t["l"].as_str(), Some("2150 USD"));
    }

    #[test]
    fn numbers_keep_their_digits() {
        let t = read("a: 4999.99999999999999\nb: 1e3\nc: -.5\nd: 1.\ne: 123456789012345678901234567890\n").unwrap();
        assert_eq!(digits(&t["a"]), "4999.99999999999999");
        assert_eq!(digits(&t["b"]), "1e3");
        assert_eq!(digits(&t["c"]), "-0.5");
        assert_eq!(digits(&t["d"]), "1");
        assert_eq!(digits(&t["e"]), "123456789012345678901234567890");
        for bad in ["a: .inf\n", "a: -.Inf\n", "a: .nan\n"] {
            assert!(read(bad).unwrap_err().contains("finite"), "{bad}");
        }
        for text in ["1.2.3", "1e", "e3", ".", "-x", "1_000", "0x", "12:30"] {
            assert_eq!(read(&format!("a: {text}\n")).unwrap()["a"].as_str(), Some(text), "{text}");
        }
    }

    #[test]
    fn what_is_not_a_fact_is_refused() {
        assert!(read("a: 1\na: 2\n").unwrap_err().contains("duplicate"));
        assert!(read("a: {b: 1, b: 1}\n").unwrap_err().contains("duplicate"));
        assert!(read("a: !custom 1\n").unwrap_err().contains("`!custom`"));
        assert!(read("1: x\n").unwrap_err().contains("not text"));
        assert!(read("? [a]\n: x\n").unwrap_err().contains("not text"));
        assert!(read("a: 1\n---\nb: 2\n").unwrap_err().contains("second"));
        assert!(read("a: *b\n").is_err());
        assert!(read("a: [1\n").is_err());
        assert_eq!(read("a: !!str 12\n").unwrap()["a"].as_str(), Some("12"));
        assert_eq!(read("").unwrap(), J::Null);
        assert_eq!(read("# nothing\n").unwrap(), J::Null);
    }

    #[test]
    fn deep_nesting_is_refused_in_block_and_flow_style() {
        for deep in [
            "- ".repeat(100_000) + "1\n",
            (0..2_000).map(|i| format!("{}a:\n", " ".repeat(i))).collect::<String>(),
            "[".repeat(101) + &"]".repeat(101),
        ] {
            let start = std::time::Instant::now();
            assert!(read(&deep).unwrap_err().contains("deep"), "{}", &deep[..40]);
            assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        }
        let mut ok = "- ".repeat(99) + "1\n";
        assert!(read(&ok).is_ok());
        ok = "[".repeat(100) + &"]".repeat(100);
        assert!(read(&ok).is_ok());
    }

    #[test]
    fn aliases_are_expanded_within_a_bound() {
        let t = read("a: &x {b: 1}\nc: *x\n").unwrap();
        assert_eq!(t["c"]["b"], J::from(1));
        // Nine levels of ten aliases each: 10^9 values.
        let mut bomb = String::from("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            bomb.push_str(&format!(
                "l{i}: &l{i} [*l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}]\n"
            ));
        }
        let start = std::time::Instant::now();
        assert!(read(&bomb).unwrap_err().contains("aliases"));
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    /// Trees of text, whole numbers, truth values and nulls, with the characters YAML gives
    /// a meaning to.
    fn trees() -> impl proptest::strategy::Strategy<Value = J> {
        use proptest::prelude::*;
        let text = "[a-zA-Z0-9 :#\\-?\\[\\]{},&*!|>'\"%@`~.\n\t\u{a0}\u{e6}\u{feff}]{0,12}";
        let leaf = prop_oneof![
            Just(J::Null),
            any::<bool>().prop_map(J::Bool),
            any::<i64>().prop_map(J::from),
            text.prop_map(J::String),
        ];
        leaf.prop_recursive(4, 40, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(J::Array),
                proptest::collection::btree_map(text, inner, 0..5).prop_map(|m| J::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Any text of YAML's characters: an answer, never a panic.
        #[test]
        fn any_text_is_read_or_refused(text in "[a-z0-9 :#\\-?\\[\\]{},&*!|>'\"%@`~.\n\t]{0,80}") {
            let _ = read(&text);
        }

        #[test]
        fn any_tree_written_reads_back_the_same(tree in trees()) {
            let text = write(&tree);
            proptest::prop_assert_eq!(read(&text), Ok(tree), "{}", text);
        }
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let tree: J = serde_json::from_str(
            r##"{"note": "kept", "no": "no", "on": "yes", "n": "12", "e": "", "q": "a: b", "h": "#x",
                "d": "2026-05-01", "t": "x\ny", "list": [1, "two", {"a": 1, "b": [true, null]}, [], {}],
                "player": {"name": "Robin", "masterpoints": 5000}, "empty": {}, "sp": " x", "dash": "- x"}"##,
        )
        .unwrap();
        let text = write(&tree);
        assert_eq!(read(&text).unwrap(), tree, "{text}");
        assert!(text.contains("player:\n  ") && text.contains("\n  name: Robin\n"), "{text}");
        assert!(text.contains("\"no\": \"no\"\n"), "{text}");
    }
}
