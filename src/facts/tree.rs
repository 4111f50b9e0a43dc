//! A JSON tree (`serde_json::Value`: an embedder's facts, a TOML or YAML file made into
//! JSON) handed to the facts reader as a serde `Deserializer` that gives every number as
//! its text, the way [`super::json`] does for JSON text: a whole number that fits 64 bits
//! as itself, any other through `Number`'s own text. That text is exact when serde_json
//! keeps numbers as text (its `arbitrary_precision` feature) and otherwise the shortest
//! decimal that reads back as the same `f64`; either way no feature of serde_json is
//! needed here.
//!
//! A number that a tree of serde_json without `arbitrary_precision` cannot hold exactly
//! (more digits than an `f64` keeps) is kept in the trees this crate makes from text as
//! `{"$number": "<digits>"}` ([`exact`]); no fact, decision or field can be named
//! `$number`, so this object is always read as that number.

use super::json::{self, Error};
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value as J};
use std::str::FromStr;

/// The key of a number held as its text in a JSON tree.
pub const NUMBER_KEY: &str = "$number";

/// A tree read as facts.
pub struct Tree<'a>(pub &'a J);

/// The text of a number held as `{"$number": "<digits>"}`, if `m` is one.
fn held(m: &Map<String, J>) -> Option<&str> {
    match m.get(NUMBER_KEY) {
        Some(J::String(s)) if m.len() == 1 && json::is_number(s) => Some(s),
        _ => None,
    }
}

/// A number's text, if `j` is a number (a `Number`, or one held as its digits).
pub fn number_text(j: &J) -> Option<String> {
    match j {
        J::Number(n) => Some(n.to_string()),
        J::Object(m) => held(m).map(str::to_string),
        _ => None,
    }
}

/// A JSON number from its text (a JSON number's syntax), exactly: a `Number` where it
/// holds the same decimal and the text has no exponent, otherwise `{"$number": "<text>"}`
/// (an exponent is kept as written, so that it is refused as it is in JSON text).
pub fn exact(text: &str) -> J {
    if let Ok(n) = Number::from_str(text)
        && !text.contains(['e', 'E'])
        && same_decimal(text, &n.to_string())
    {
        return J::Number(n);
    }
    let mut m = Map::new();
    m.insert(NUMBER_KEY.to_string(), J::String(text.to_string()));
    J::Object(m)
}

/// Whether two number texts (JSON syntax) write the same decimal.
fn same_decimal(a: &str, b: &str) -> bool {
    a == b || matches!((canonical(a), canonical(b)), (Some(x), Some(y)) if x == y)
}

/// A number text's decimal as `-digits.digits` without needless zeros (`-0` is `0`).
fn canonical(text: &str) -> Option<String> {
    let plain = super::without_exponent(text);
    let t = plain.as_deref().unwrap_or(text);
    if t.contains(['e', 'E']) {
        return None;
    }
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let (int, frac) = (int.trim_start_matches('0'), frac.trim_end_matches('0'));
    if int.is_empty() && frac.is_empty() {
        return Some("0".into());
    }
    let sign = if neg { "-" } else { "" };
    Some(if frac.is_empty() { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") })
}

impl<'de> Deserializer<'de> for Tree<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            J::Null => v.visit_unit(),
            J::Bool(b) => v.visit_bool(*b),
            J::Number(n) => {
                if let Some(u) = n.as_u64() {
                    v.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    v.visit_i64(i)
                } else {
                    // The text of an `f64` may have an exponent (`1e21`): written out.
                    let text = n.to_string();
                    let plain = super::without_exponent(&text);
                    v.visit_bytes(plain.as_deref().unwrap_or(&text).as_bytes())
                }
            }
            J::String(s) => v.visit_borrowed_str(s),
            J::Array(xs) => v.visit_seq(Items(xs.iter())),
            J::Object(m) => match held(m) {
                Some(text) => v.visit_borrowed_bytes(text.as_bytes()),
                None => v.visit_map(Entries { it: m.iter(), value: None }),
            },
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            J::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct Items<'a>(std::slice::Iter<'a, J>);

impl<'a> SeqAccess<'a> for Items<'a> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|x| seed.deserialize(Tree(x))).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'a> {
    it: serde_json::map::Iter<'a>,
    value: Option<&'a J>,
}

impl<'a> MapAccess<'a> for Entries<'a> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((k, x)) = self.it.next() else { return Ok(None) };
        self.value = Some(x);
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(k)).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(Tree(self.value.take().unwrap_or(&J::Null)))
    }
}
