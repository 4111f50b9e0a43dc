//! JSON text read for facts, as a serde `Deserializer` of our own: strict JSON
//! (RFC 8259, nesting below [`MAX_NESTING`]), strings borrowed from the text when they
//! have no escape, and every number handed over as the text it was written with, so
//! that no digit is lost to binary floating point whatever serde_json's features are.
//!
//! A whole number that fits 64 bits arrives as `visit_u64`/`visit_i64`; any other
//! number (a fraction, an exponent, more digits) arrives as `visit_borrowed_bytes` of
//! its text. JSON has no bytes, so a visitor of this module's data reads bytes as a
//! number's text and nothing else. The messages and positions are serde_json's
//! (`key must be a string at line 1 column 23`).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Most containers nested inside one another (serde_json's limit as well).
pub const MAX_NESTING: usize = 127;

/// A JSON syntax error, or a reader's own error (a key given twice), with the place.
pub struct Error {
    msg: String,
    at: Option<(usize, usize)>,
}

impl Error {
    /// The line of the place (from 1), or 0 when unknown.
    pub fn line(&self) -> usize {
        self.at.map_or(0, |a| a.0)
    }
    /// The column of the place (from 1, in bytes), or 0 when unknown.
    pub fn column(&self) -> usize {
        self.at.map_or(0, |a| a.1)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "{} at line {line} column {column}", self.msg),
            None => f.write_str(&self.msg),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error { msg: msg.to_string(), at: None }
    }
}

/// A reader of one JSON text.
pub struct Json<'de> {
    src: &'de str,
    s: &'de [u8],
    i: usize,
    depth: usize,
    scratch: String,
}

/// A string read: borrowed from the text, or unescaped into the reader's scratch.
enum Str<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

/// A number read.
enum Number<'de> {
    U64(u64),
    I64(i64),
    Text(&'de str),
}

impl<'de> Json<'de> {
    pub fn new(text: &'de str) -> Json<'de> {
        Json { src: text, s: text.as_bytes(), i: 0, depth: 0, scratch: String::new() }
    }

    /// Nothing but white space after the value.
    pub fn end(&mut self) -> Result<(), Error> {
        self.ws();
        if self.i < self.s.len() { Err(self.peek_err("trailing characters")) } else { Ok(()) }
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// The place just before byte `i`: its line, and the bytes since the line's start.
    fn err_at(&self, i: usize, msg: &str) -> Error {
        let before = &self.s[..i.min(self.s.len())];
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = 1 + before[..start].iter().filter(|&&b| b == b'\n').count();
        Error { msg: msg.to_string(), at: Some((line, i - start)) }
    }

    /// An error at the byte about to be read.
    fn peek_err(&self, msg: &str) -> Error {
        self.err_at(self.i + 1, msg)
    }

    fn eof(&self, msg: &str) -> Error {
        self.err_at(self.s.len(), msg)
    }

    /// A visitor's own error placed where the reading is.
    fn fix(&self, e: Error) -> Error {
        if e.at.is_some() { e } else { self.err_at(self.i, &e.msg) }
    }

    fn ident(&mut self, word: &[u8]) -> Result<(), Error> {
        for &c in word {
            match self.peek() {
                Some(x) if x == c => self.i += 1,
                Some(_) => return Err(self.peek_err("expected ident")),
                None => return Err(self.eof("EOF while parsing a value")),
            }
        }
        Ok(())
    }

    /// A string, its opening quote read.
    fn string(&mut self) -> Result<Str<'de, '_>, Error> {
        let start = self.i;
        // The common case, a string without escapes, in one pass over its bytes.
        let stop = self.s[start..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        self.i = stop.map_or(self.s.len(), |n| start + n);
        match self.s.get(self.i) {
            None => return Err(self.eof("EOF while parsing a string")),
            Some(b'"') => {
                self.i += 1;
                // `"` and `\` are never inside a character of several bytes.
                return Ok(Str::Borrowed(&self.src[start..self.i - 1]));
            }
            Some(b'\\') => {}
            Some(_) => return Err(self.peek_err(CONTROL)),
        }
        self.scratch.clear();
        self.scratch.push_str(&self.src[start..self.i]);
        let mut run = self.i;
        loop {
            match self.s.get(self.i) {
                None => return Err(self.eof("EOF while parsing a string")),
                Some(b'"') => {
                    self.scratch.push_str(&self.src[run..self.i]);
                    self.i += 1;
                    return Ok(Str::Copied(&self.scratch));
                }
                Some(b'\\') => {
                    self.scratch.push_str(&self.src[run..self.i]);
                    self.i += 1;
                    let c = self.escape()?;
                    self.scratch.push(c);
                    run = self.i;
                }
                Some(&c) if c < 0x20 => return Err(self.peek_err(CONTROL)),
                Some(_) => self.i += 1,
            }
        }
    }

    /// The character of an escape, its `\` read.
    fn escape(&mut self) -> Result<char, Error> {
        let Some(c) = self.peek() else { return Err(self.eof("EOF while parsing a string")) };
        self.i += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hi = self.hex()?;
                match hi {
                    0xD800..=0xDBFF => {
                        if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                            return Err(self.err_at(self.i, "lone leading surrogate in hex escape"));
                        }
                        self.i += 2;
                        let lo = self.hex()?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return Err(self.err_at(self.i, "lone leading surrogate in hex escape"));
                        }
                        let n = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        char::from_u32(n).ok_or_else(|| self.err_at(self.i, "invalid unicode code point"))?
                    }
                    0xDC00..=0xDFFF => return Err(self.err_at(self.i, "invalid unicode code point")),
                    n => char::from_u32(n).ok_or_else(|| self.err_at(self.i, "invalid unicode code point"))?,
                }
            }
            _ => return Err(self.err_at(self.i, "invalid escape")),
        })
    }

    fn hex(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let Some(c) = self.peek() else { return Err(self.eof("EOF while parsing a string")) };
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return Err(self.peek_err("invalid escape")),
            };
            self.i += 1;
            n = n * 16 + u32::from(d);
        }
        Ok(n)
    }

    fn digits(&mut self) -> Result<(), Error> {
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(match self.peek() {
                Some(_) => self.peek_err("invalid number"),
                None => self.eof("EOF while parsing a value"),
            });
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        Ok(())
    }

    /// A number: a whole one that fits 64 bits as itself, any other as its text.
    fn number(&mut self) -> Result<Number<'de>, Error> {
        let start = self.i;
        let neg = self.peek() == Some(b'-');
        if neg {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            _ => self.digits()?,
        }
        let mut whole = true;
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digits()?;
            whole = false;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            self.digits()?;
            whole = false;
        }
        let text = &self.src[start..self.i];
        if whole {
            let digits = &self.s[start + usize::from(neg)..self.i];
            if digits.len() <= 19 {
                let n = digits.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
                if !neg {
                    return Ok(Number::U64(n));
                }
                if let Some(x) = 0i64.checked_sub_unsigned(n) {
                    return Ok(Number::I64(x));
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Ok(Number::U64(n));
            }
        }
        Ok(Number::Text(text))
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_NESTING { Err(self.peek_err("recursion limit exceeded")) } else { Ok(()) }
    }

    /// The container's closing bracket, after its visitor.
    fn close(&mut self, bracket: u8) -> Result<(), Error> {
        self.ws();
        match self.peek() {
            Some(c) if c == bracket => {
                self.i += 1;
                self.depth -= 1;
                Ok(())
            }
            Some(_) => Err(self.peek_err("trailing characters")),
            None => {
                Err(self.eof(if bracket == b']' { "EOF while parsing a list" } else { "EOF while parsing an object" }))
            }
        }
    }
}

const CONTROL: &str = "control character (\\u0000-\\u001F) found while parsing a string";

/// Whether `text` is one JSON number, nothing more.
pub fn is_number(text: &str) -> bool {
    let mut j = Json::new(text);
    matches!(j.peek(), Some(b'-' | b'0'..=b'9')) && j.number().is_ok() && j.i == text.len()
}

impl<'de> Deserializer<'de> for &mut Json<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.ws();
        let Some(c) = self.peek() else { return Err(self.eof("EOF while parsing a value")) };
        let got = match c {
            b'n' => {
                self.ident(b"null")?;
                v.visit_unit()
            }
            b't' => {
                self.ident(b"true")?;
                v.visit_bool(true)
            }
            b'f' => {
                self.ident(b"false")?;
                v.visit_bool(false)
            }
            b'"' => {
                self.i += 1;
                match self.string()? {
                    Str::Borrowed(s) => v.visit_borrowed_str(s),
                    Str::Copied(s) => v.visit_str(s),
                }
            }
            b'-' | b'0'..=b'9' => match self.number()? {
                Number::U64(n) => v.visit_u64(n),
                Number::I64(n) => v.visit_i64(n),
                Number::Text(t) => v.visit_borrowed_bytes(t.as_bytes()),
            },
            b'[' => {
                self.enter()?;
                self.i += 1;
                let got = v.visit_seq(Seq { de: &mut *self, first: true });
                match got {
                    Ok(x) => self.close(b']').map(|()| x),
                    Err(e) => Err(e),
                }
            }
            b'{' => {
                self.enter()?;
                self.i += 1;
                let got = v.visit_map(Map { de: &mut *self, first: true });
                match got {
                    Ok(x) => self.close(b'}').map(|()| x),
                    Err(e) => Err(e),
                }
            }
            _ => return Err(self.peek_err("expected value")),
        };
        got.map_err(|e| self.fix(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.ws();
        if self.peek() == Some(b'n') {
            self.ident(b"null")?;
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct Seq<'a, 'de> {
    de: &'a mut Json<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let de = &mut *self.de;
        de.ws();
        match de.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => {
                de.i += 1;
                de.ws();
                if de.peek() == Some(b']') {
                    return Err(de.peek_err("trailing comma"));
                }
            }
            Some(_) if self.first => {}
            Some(_) => return Err(de.peek_err("expected `,` or `]`")),
            None => return Err(de.eof("EOF while parsing a list")),
        }
        self.first = false;
        seed.deserialize(de).map(Some)
    }
}

struct Map<'a, 'de> {
    de: &'a mut Json<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let de = &mut *self.de;
        de.ws();
        match de.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => {
                de.i += 1;
                de.ws();
                if de.peek() == Some(b'}') {
                    return Err(de.peek_err("trailing comma"));
                }
            }
            Some(_) if self.first => {}
            Some(_) => return Err(de.peek_err("expected `,` or `}`")),
            None => return Err(de.eof("EOF while parsing an object")),
        }
        self.first = false;
        match de.peek() {
            Some(b'"') => {
                de.i += 1;
                let at = de.i;
                let key = match de.string()? {
                    Str::Borrowed(s) => seed.deserialize(Key::Borrowed(s)),
                    Str::Copied(s) => seed.deserialize(Key::Copied(s)),
                };
                key.map(Some).map_err(|e| if e.at.is_some() { e } else { de.err_at(at, &e.msg) })
            }
            Some(_) => Err(de.peek_err("key must be a string")),
            None => Err(de.eof("EOF while parsing an object")),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let de = &mut *self.de;
        de.ws();
        match de.peek() {
            Some(b':') => de.i += 1,
            Some(_) => return Err(de.peek_err("expected `:`")),
            None => return Err(de.eof("EOF while parsing an object")),
        }
        seed.deserialize(de)
    }
}

/// An object's key.
enum Key<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

impl<'de> Deserializer<'de> for Key<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self {
            Key::Borrowed(s) => v.visit_borrowed_str(s),
            Key::Copied(s) => v.visit_str(s),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// What a value reads as, numbers by their text.
    #[derive(Debug, PartialEq)]
    enum V {
        Null,
        Bool(bool),
        Num(String),
        Text(String),
        List(Vec<V>),
        Obj(Vec<(String, V)>),
    }

    impl<'de> Deserialize<'de> for V {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<V, D::Error> {
            struct Vis;
            impl<'de> Visitor<'de> for Vis {
                type Value = V;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("a value")
                }
                fn visit_unit<E>(self) -> Result<V, E> {
                    Ok(V::Null)
                }
                fn visit_bool<E>(self, b: bool) -> Result<V, E> {
                    Ok(V::Bool(b))
                }
                fn visit_u64<E>(self, n: u64) -> Result<V, E> {
                    Ok(V::Num(n.to_string()))
                }
                fn visit_i64<E>(self, n: i64) -> Result<V, E> {
                    Ok(V::Num(n.to_string()))
                }
                fn visit_bytes<E>(self, b: &[u8]) -> Result<V, E> {
                    Ok(V::Num(String::from_utf8_lossy(b).into()))
                }
                fn visit_str<E>(self, s: &str) -> Result<V, E> {
                    Ok(V::Text(s.into()))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<V, A::Error> {
                    let mut out = Vec::new();
                    while let Some(x) = a.next_element()? {
                        out.push(x);
                    }
                    Ok(V::List(out))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<V, A::Error> {
                    let mut out = Vec::new();
                    while let Some((k, x)) = a.next_entry()? {
                        out.push((k, x));
                    }
                    Ok(V::Obj(out))
                }
            }
            d.deserialize_any(Vis)
        }
    }

    fn read(text: &str) -> Result<V, String> {
        let mut j = Json::new(text);
        let v = V::deserialize(&mut j).map_err(|e| e.to_string())?;
        j.end().map_err(|e| e.to_string())?;
        Ok(v)
    }

    fn num(s: &str) -> V {
        V::Num(s.into())
    }

    #[test]
    fn values_and_numbers_by_their_text() {
        assert_eq!(
            read(r#" {"a": [1, -2, 0.1, 4999.99999999999999999, 1e400, -0, 18446744073709551616], "b": null} "#),
            Ok(V::Obj(vec![
                (
                    "a".into(),
                    V::List(vec![
                        num("1"),
                        num("-2"),
                        num("0.1"),
                        num("4999.99999999999999999"),
                        num("1e400"),
                        num("0"),
                        num("18446744073709551616")
                    ])
                ),
                ("b".into(), V::Null)
            ]))
        );
        assert_eq!(read("-9223372036854775808"), Ok(num("-9223372036854775808")));
        assert_eq!(read("-9223372036854775809"), Ok(num("-9223372036854775809")));
        assert_eq!(read("18446744073709551615"), Ok(num("18446744073709551615")));
        assert_eq!(read("99999999999999999999"), Ok(num("99999999999999999999")));
        assert_eq!(read("[true, false, {}]"), Ok(V::List(vec![V::Bool(true), V::Bool(false), V::Obj(vec![])])));
        assert_eq!(read(r#""a\"b\\c\/\n\u00e9\ud83c\udccf""#), Ok(V::Text("a\"b\\c/\né🃏".into())));
        assert_eq!(read("\"é\u{1F0CF}x\""), Ok(V::Text("é🃏x".into())));
    }

    #[test]
    fn errors_name_the_place_as_serde_json_does() {
        let e = |t: &str| read(t).expect_err(t);
        assert_eq!(e(r#"{"team": {"name": "T",, }"#), "key must be a string at line 1 column 23");
        assert_eq!(e("{\"a\": 1,\n \"b\" 2}"), "expected `:` at line 2 column 6");
        assert_eq!(e(r#"{"a": 1 "b": 2}"#), "expected `,` or `}` at line 1 column 9");
        assert_eq!(e("[1, 2,]"), "trailing comma at line 1 column 7");
        assert_eq!(e("{\"a\": 1,}"), "trailing comma at line 1 column 9");
        assert_eq!(e("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(e("{\"a\": 1} x"), "trailing characters at line 1 column 10");
        assert_eq!(e("{\"a\": "), "EOF while parsing a value at line 1 column 6");
        assert_eq!(e("{\"a\": 1"), "EOF while parsing an object at line 1 column 7");
        assert_eq!(e("[1"), "EOF while parsing a list at line 1 column 2");
        assert_eq!(e("\"abc"), "EOF while parsing a string at line 1 column 4");
        assert_eq!(e("nul"), "EOF while parsing a value at line 1 column 3");
        assert_eq!(e("nulx"), "expected ident at line 1 column 4");
        assert_eq!(e("01"), "trailing characters at line 1 column 2");
        assert_eq!(e("1."), "EOF while parsing a value at line 1 column 2");
        assert_eq!(e("-x"), "invalid number at line 1 column 2");
        assert_eq!(e("1e+"), "EOF while parsing a value at line 1 column 3");
        assert_eq!(
            e("\"a\u{1}\""),
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"
        );
        assert_eq!(e(r#""\x""#), "invalid escape at line 1 column 3");
        assert_eq!(e(r#""\ud800x""#), "lone leading surrogate in hex escape at line 1 column 7");
        assert_eq!(e("'a'"), "expected value at line 1 column 1");
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(e(&deep), "recursion limit exceeded at line 1 column 128");
        let ok = format!("{}{}", "[".repeat(127), "]".repeat(127));
        assert!(read(&ok).is_ok());
    }

    #[test]
    fn number_texts() {
        for t in ["0", "-0", "1.5", "-1.5e-3", "2E+10", "123456789012345678901234567890"] {
            assert!(is_number(t), "{t}");
        }
        for t in ["", "-", "01", "1.", ".5", "+1", "1e", "1_000", "inf", "NaN", "1 "] {
            assert!(!is_number(t), "{t}");
        }
    }
}
