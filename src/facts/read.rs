//! Reading a facts file's text into one JSON tree, whatever the format, without
//! losing anything on the way: a number keeps the digits it was written with (JSON and
//! TOML and YAML numbers from their text, held as [`super::tree::exact`] makes them), a key given twice is an
//! error in every format, and a leading byte-order mark is ignored.

use super::tree::exact;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as J};
use std::fmt;

/// Text without a leading byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// JSON, refusing a key given twice in one object.
pub fn json(text: &str) -> Result<J, super::json::Error> {
    let mut de = super::json::Json::new(text);
    let v = Strict::deserialize(&mut de)?;
    de.end()?;
    Ok(v.0)
}

/// TOML, numbers from their text (a float `4999.99999999999999` stays those digits).
pub fn toml(text: &str) -> Result<J, String> {
    let table = toml::de::DeTable::parse(text).map_err(|e| e.to_string())?;
    toml_table(table.get_ref())
}

/// YAML (see [`super::yaml`]), numbers from their text.
pub fn yaml(text: &str) -> Result<J, String> {
    if flow_depth(text) > MAX_YAML_FLOW_DEPTH {
        return Err(format!("brackets nested more than {MAX_YAML_FLOW_DEPTH} deep"));
    }
    // The depth scan can be misled about quotes (a `'` inside a plain value is not a
    // quote); the YAML reader's time grows with the bracket depth times the length, so
    // past the depth limit the count of all brackets, in or out of quotes, bounds it.
    let opens = text.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
    if opens > MAX_YAML_FLOW_DEPTH && opens.saturating_mul(text.len()) > MAX_YAML_FLOW_WORK {
        return Err(format!(
            "{opens} `[` or `{{` in {} bytes of YAML is more than the YAML reader can take in reasonable time; \
             write lists and records in block style (`- item`, `key: value` on lines of their own), or use JSON",
            text.len()
        ));
    }
    let v = super::yaml::read(text)?;
    // A file of comments only (a template of rulings that read nothing) has no facts.
    if v.is_null() && text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Ok(J::Object(Map::new()));
    }
    Ok(v)
}

/// Deepest `[`/`{` nesting read from YAML (the YAML reader is slow on deep nesting
/// before it refuses it); facts follow declared types, never this deep.
pub const MAX_YAML_FLOW_DEPTH: usize = 100;

/// Most brackets times bytes a YAML text may have once it has more than
/// [`MAX_YAML_FLOW_DEPTH`] brackets (a bound on the YAML reader's work).
pub const MAX_YAML_FLOW_WORK: usize = 1 << 26;

/// The deepest nesting of flow brackets outside quotes and comments (a cheap
/// upper bound; block nesting is bounded by the reader itself).
fn flow_depth(text: &str) -> usize {
    let (mut depth, mut max, mut quote, mut comment) = (0usize, 0usize, None, false);
    let mut prev = b'\n';
    for &c in text.as_bytes() {
        match (quote, c) {
            _ if comment => comment = c != b'\n',
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'#') if prev.is_ascii_whitespace() => comment = true,
            (None, b'[' | b'{') => {
                depth += 1;
                max = max.max(depth);
            }
            (None, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        prev = c;
    }
    max
}

struct Strict(J);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = J;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<J, E> {
        Ok(J::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<J, E> {
        Ok(J::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<J, E> {
        Ok(J::Number(n.into()))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<J, E> {
        Err(E::custom("a number read through binary floating point"))
    }
    /// A number's text (see [`super::json`]).
    fn visit_bytes<E: de::Error>(self, n: &[u8]) -> Result<J, E> {
        std::str::from_utf8(n).map(exact).map_err(E::custom)
    }
    fn visit_str<E>(self, s: &str) -> Result<J, E> {
        Ok(J::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<J, E> {
        Ok(J::String(s))
    }
    fn visit_unit<E>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_none<E>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(x)) = seq.next_element()? {
            out.push(x);
        }
        Ok(J::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!("the key `{key}` is given twice in one object")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(J::Object(out))
    }
}

fn toml_table(t: &toml::de::DeTable) -> Result<J, String> {
    let mut out = Map::new();
    for (k, v) in t.iter() {
        out.insert(k.get_ref().to_string(), toml_value(v.get_ref())?);
    }
    Ok(J::Object(out))
}

fn toml_value(v: &toml::de::DeValue) -> Result<J, String> {
    use toml::de::DeValue as T;
    Ok(match v {
        T::String(s) => J::String(s.to_string()),
        T::Boolean(b) => J::Bool(*b),
        T::Datetime(d) => J::String(d.to_string()),
        T::Integer(i) => {
            let n = i128::from_str_radix(i.as_str(), i.radix()).map_err(|_| format!("`{i}` is not an integer"))?;
            match (u64::try_from(n), i64::try_from(n)) {
                (Ok(u), _) => J::Number(u.into()),
                (_, Ok(i)) => J::Number(i.into()),
                _ => exact(&n.to_string()),
            }
        }
        T::Float(f) => {
            let text = f.as_str().strip_prefix('+').unwrap_or(f.as_str());
            if !super::json::is_number(text) {
                return Err(format!("`{f}` is not a number"));
            }
            exact(text)
        }
        T::Array(xs) => J::Array(xs.iter().map(|x| toml_value(x.get_ref())).collect::<Result<_, _>>()?),
        T::Table(t) => toml_table(t)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_json_keys_are_refused() {
        assert!(json(r#"{"a": 1, "a": 2}"#).is_err());
        assert!(json(r#"{"a": {"b": 1, "b": 1}}"#).is_err());
        assert!(json(r#"{"a": 1, "b": 2}"#).is_ok());
    }

    /// A number's text in a tree, held as a `Number` or as its digits.
    fn digits(j: &J) -> String {
        match j {
            J::Object(m) => m[crate::facts::tree::NUMBER_KEY].as_str().unwrap_or_default().to_string(),
            other => other.to_string(),
        }
    }

    #[test]
    fn numbers_keep_their_digits() {
        let j = json(r#"{"a": 4999.9999999999999999999999999999, "b": 0.1, "c": -12, "d": 2.50}"#).unwrap();
        assert_eq!(digits(&j["a"]), "4999.9999999999999999999999999999");
        assert!(j["b"].is_number() && j["c"].is_number() && j["d"].is_number());
        assert_eq!((digits(&j["b"]), digits(&j["c"])), ("0.1".into(), "-12".into()));
        let t = toml("a = 4999.99999999999999\nb = 1_000\nc = 123456789012345678901234567890\n").unwrap();
        assert_eq!(digits(&t["a"]), "4999.99999999999999");
        assert_eq!(t["b"].to_string(), "1000");
        assert_eq!(digits(&t["c"]), "123456789012345678901234567890");
        assert!(toml("a = inf\n").is_err());
        assert_eq!(digits(&yaml("a: 4999.99999999999999\n").unwrap()["a"]), "4999.99999999999999");
        assert_eq!(yaml("a: 12\n").unwrap()["a"].to_string(), "12");
    }
}
