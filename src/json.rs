//! The crate's own JSON output value: objects keep their keys in the order they were
//! written, whatever features serde_json is built with. (A `serde_json::Map` sorts its keys
//! unless a program enables serde_json's `preserve_order`, and features are shared by every
//! crate of a build: the crate cannot rely on one, nor force it on the program embedding it.)
//!
//! Built with [`ojson!`](crate::ojson!) (the syntax of `serde_json::json!`) or [`to_json`] (any
//! `Serialize` value: struct fields in their declaration order, maps in their own order),
//! and written with serde_json's serializers, which give the same bytes as for the same
//! `serde_json::Value` built in order.
//!
//! Kept, beside serde_json, for values whose keys are known only at run time (a record
//! value's fields in their declared order, schemas, templates, SARIF, the server's other
//! answers): a `serde_json::Value` sorts them unless serde_json has `preserve_order`, and
//! `IndexMap` would still need this enum around it. A struct with `#[derive(Serialize)]`
//! is written straight to text by serde_json instead, without this value in between: that
//! is the same bytes and faster. `cargo bench --bench hand_written` (7 December 2026, load
//! average 12): a GNT flights report with its full explanation through this value 82 µs
//! pretty and 73 µs compact, straight from the derived struct 53 µs and 19 µs (1.6× and
//! 3.8×); DBF § 304B1 179 and 126 µs against 68 and 40 µs (2.6×, 3.1×); through a
//! `serde_json::Value` 112 and 184 µs, keys sorted. So reports are serialised straight from
//! their structs, and this value is for the rest.

use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;

/// A JSON value whose objects keep their keys' order.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Json {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    /// Keys in the order they are written out; a key is there at most once when built
    /// with [`Json::insert`], [`ojson!`](crate::ojson!) or [`to_json`].
    Object(Vec<(String, Json)>),
}

static NULL: Json = Json::Null;

impl Json {
    /// An empty object.
    pub fn object() -> Json {
        Json::Object(Vec::new())
    }

    /// Sets `key` of an object: in its place when it is there, else at the end. Nothing
    /// happens to a value that is not an object.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Json>) {
        if let Json::Object(m) = self {
            let key = key.into();
            let value = value.into();
            match m.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => *v = value,
                None => m.push((key, value)),
            }
        }
    }

    /// The value of `key`, when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value of `key`, to change, when this is an object that has it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(m) => m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(xs) => Some(xs),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// As a `serde_json::Value` (whose objects sort their keys unless serde_json has
    /// `preserve_order`), for comparisons and for callers that want one.
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            Json::Null => serde_json::Value::Null,
            Json::Bool(b) => serde_json::Value::Bool(*b),
            Json::Number(n) => serde_json::Value::Number(n.clone()),
            Json::String(s) => serde_json::Value::String(s.clone()),
            Json::Array(xs) => serde_json::Value::Array(xs.iter().map(Json::to_value).collect()),
            Json::Object(m) => serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_value())).collect()),
        }
    }

    /// Compact JSON text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Indented JSON text, as `serde_json::to_string_pretty` writes it.
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl std::ops::Index<&str> for Json {
    type Output = Json;
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Json {
    type Output = Json;
    fn index(&self, i: usize) -> &Json {
        self.as_array().and_then(|xs| xs.get(i)).unwrap_or(&NULL)
    }
}

impl std::fmt::Display for Json {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl PartialEq<&str> for Json {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

macro_rules! eq_integer {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Json {
            fn eq(&self, other: &$t) -> bool {
                match self {
                    Json::Number(n) => n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)) == Some(*other as i128),
                    _ => false,
                }
            }
        }
    )*};
}
eq_integer!(i32, i64, u32, u64, usize);

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(t) => s.serialize_str(t),
            Json::Array(xs) => {
                let mut seq = s.serialize_seq(Some(xs.len()))?;
                for x in xs {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            Json::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl From<serde_json::Value> for Json {
    /// In the order the value holds its keys (sorted, unless serde_json has `preserve_order`).
    fn from(v: serde_json::Value) -> Json {
        match v {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(b) => Json::Bool(b),
            serde_json::Value::Number(n) => Json::Number(n),
            serde_json::Value::String(s) => Json::String(s),
            serde_json::Value::Array(xs) => Json::Array(xs.into_iter().map(Json::from).collect()),
            serde_json::Value::Object(m) => Json::Object(m.into_iter().map(|(k, v)| (k, Json::from(v))).collect()),
        }
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::String(s)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::String(s.to_string())
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<Vec<Json>> for Json {
    fn from(xs: Vec<Json>) -> Json {
        Json::Array(xs)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Json {
            fn from(n: $t) -> Json {
                Json::Number(Number::from(n))
            }
        }
        impl IntoJson for $t {
            fn into_json(self) -> Json {
                Json::from(self)
            }
        }
    )*};
}
from_integer!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// What [`ojson!`](crate::ojson!) accepts as a value: a [`Json`] or an owned value it moves in, or a
/// reference to anything serialisable, serialised with [`to_json`].
pub trait IntoJson {
    fn into_json(self) -> Json;
}

impl IntoJson for Json {
    fn into_json(self) -> Json {
        self
    }
}

impl<T: Serialize + ?Sized> IntoJson for &T {
    fn into_json(self) -> Json {
        to_json(self)
    }
}

impl IntoJson for String {
    fn into_json(self) -> Json {
        Json::String(self)
    }
}

impl IntoJson for bool {
    fn into_json(self) -> Json {
        Json::Bool(self)
    }
}

impl<T: IntoJson> IntoJson for Option<T> {
    fn into_json(self) -> Json {
        self.map_or(Json::Null, IntoJson::into_json)
    }
}

impl<T: IntoJson> IntoJson for Vec<T> {
    fn into_json(self) -> Json {
        Json::Array(self.into_iter().map(IntoJson::into_json).collect())
    }
}

/// A [`Json`] value in the syntax of `serde_json::json!`: `{ "key": value, … }` with
/// literal keys, `[a, b]`, `null`, or an expression ([`IntoJson`]). Objects keep the
/// keys in the order written.
#[macro_export]
#[doc(hidden)]
macro_rules! ojson {
    (null) => { $crate::json::Json::Null };
    ([]) => { $crate::json::Json::Array(::std::vec::Vec::new()) };
    ([ $($tt:tt)+ ]) => { $crate::json::Json::Array($crate::ojson!(@array [] $($tt)+)) };
    ({}) => { $crate::json::Json::Object(::std::vec::Vec::new()) };
    ({ $($tt:tt)+ }) => { $crate::json::Json::Object($crate::ojson!(@object [] $($tt)+)) };
    (@array [$($done:expr,)*]) => { ::std::vec![$($done,)*] };
    (@array [$($done:expr,)*] null $(, $($rest:tt)*)?) => {
        $crate::ojson!(@array [$($done,)* $crate::json::Json::Null,] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::ojson!(@array [$($done,)* $crate::ojson!([$($inner)*]),] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::ojson!(@array [$($done,)* $crate::ojson!({$($inner)*}),] $($($rest)*)?)
    };
    (@array [$($done:expr,)*] $next:expr $(, $($rest:tt)*)?) => {
        $crate::ojson!(@array [$($done,)* $crate::json::IntoJson::into_json($next),] $($($rest)*)?)
    };
    (@object [$($done:expr,)*]) => { ::std::vec![$($done,)*] };
    (@object [$($done:expr,)*] $k:literal : null $(, $($rest:tt)*)?) => {
        $crate::ojson!(@object [$($done,)* ($k.to_string(), $crate::json::Json::Null),] $($($rest)*)?)
    };
    (@object [$($done:expr,)*] $k:literal : [$($inner:tt)*] $(, $($rest:tt)*)?) => {
        $crate::ojson!(@object [$($done,)* ($k.to_string(), $crate::ojson!([$($inner)*])),] $($($rest)*)?)
    };
    (@object [$($done:expr,)*] $k:literal : {$($inner:tt)*} $(, $($rest:tt)*)?) => {
        $crate::ojson!(@object [$($done,)* ($k.to_string(), $crate::ojson!({$($inner)*})),] $($($rest)*)?)
    };
    (@object [$($done:expr,)*] $k:literal : $v:expr $(, $($rest:tt)*)?) => {
        $crate::ojson!(@object [$($done,)* ($k.to_string(), $crate::json::IntoJson::into_json($v)),] $($($rest)*)?)
    };
    ($other:expr) => { $crate::json::IntoJson::into_json($other) };
}

/// Any serialisable value as [`Json`]: struct fields in their declaration order, a map's
/// entries in the order it gives them, what `serde_json::to_value` gives otherwise (a value
/// it cannot hold, such as a map with keys that are not text, is `null`).
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Json {
    value.serialize(Builder).unwrap_or_default()
}

/// serde_json's name for an exact number (with its `arbitrary_precision`) and a raw value.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// Builds a [`Json`] from serde's data model.
struct Builder;

type Error = serde_json::Error;

fn error(msg: &str) -> Error {
    ser::Error::custom(msg)
}

fn number(n: impl Into<Number>) -> Json {
    Json::Number(n.into())
}

impl Serializer for Builder {
    type Ok = Json;
    type Error = Error;
    type SerializeSeq = Seq;
    type SerializeTuple = Seq;
    type SerializeTupleStruct = Seq;
    type SerializeTupleVariant = Variant<Seq>;
    type SerializeMap = Map;
    type SerializeStruct = Map;
    type SerializeStructVariant = Variant<Map>;

    fn serialize_bool(self, v: bool) -> Result<Json, Error> {
        Ok(Json::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Json, Error> {
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(i), _) => Ok(number(i)),
            (_, Ok(u)) => Ok(number(u)),
            _ => Err(error("a number out of the range of JSON numbers")),
        }
    }
    fn serialize_u8(self, v: u8) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Json, Error> {
        Ok(number(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Json, Error> {
        u64::try_from(v).map(number).map_err(|_| error("a number out of the range of JSON numbers"))
    }
    fn serialize_f32(self, v: f32) -> Result<Json, Error> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<Json, Error> {
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }
    fn serialize_char(self, v: char) -> Result<Json, Error> {
        Ok(Json::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Json, Error> {
        Ok(Json::String(v.to_string()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Json, Error> {
        Ok(Json::Array(v.iter().map(|b| number(*b)).collect()))
    }
    fn serialize_none(self) -> Result<Json, Error> {
        Ok(Json::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Json, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Json, Error> {
        Ok(Json::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Json, Error> {
        Ok(Json::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Json, Error> {
        Ok(Json::String(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<Json, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Json, Error> {
        Ok(Json::Object(vec![(variant.to_string(), value.serialize(Builder)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq, Error> {
        Ok(Seq(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<Seq>, Error> {
        Ok(Variant(variant, Seq(Vec::with_capacity(len))))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Map, Error> {
        Ok(Map { entries: Vec::with_capacity(len.unwrap_or(0)), key: None, token: None })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Map, Error> {
        let token = [NUMBER_TOKEN, RAW_TOKEN].into_iter().find(|t| *t == name);
        Ok(Map { entries: Vec::with_capacity(len), key: None, token })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<Map>, Error> {
        Ok(Variant(variant, Map { entries: Vec::with_capacity(len), key: None, token: None }))
    }
}

struct Seq(Vec<Json>);

impl SerializeSeq for Seq {
    type Ok = Json;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(value.serialize(Builder)?);
        Ok(())
    }
    fn end(self) -> Result<Json, Error> {
        Ok(Json::Array(self.0))
    }
}

impl ser::SerializeTuple for Seq {
    type Ok = Json;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Json, Error> {
        SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Seq {
    type Ok = Json;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Json, Error> {
        SerializeSeq::end(self)
    }
}

/// An object being built; `token` when it is serde_json's private form of an exact number
/// or a raw value, which comes as a struct of one field holding the text.
struct Map {
    entries: Vec<(String, Json)>,
    key: Option<String>,
    token: Option<&'static str>,
}

impl SerializeMap for Map {
    type Ok = Json;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(match key.serialize(Builder)? {
            Json::String(s) => s,
            Json::Number(n) => n.to_string(),
            Json::Bool(b) => b.to_string(),
            _ => return Err(error("a map key that is not text")),
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self.key.take().ok_or_else(|| error("a map value without its key"))?;
        let value = value.serialize(Builder)?;
        self.entries.push((key, value));
        Ok(())
    }
    fn end(self) -> Result<Json, Error> {
        Ok(Json::Object(self.entries))
    }
}

impl ser::SerializeStruct for Map {
    type Ok = Json;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        let value = value.serialize(Builder)?;
        self.entries.push((key.to_string(), value));
        Ok(())
    }
    fn end(self) -> Result<Json, Error> {
        let Some(token) = self.token else { return Ok(Json::Object(self.entries)) };
        match self.entries.into_iter().next() {
            Some((_, Json::String(text))) if token == NUMBER_TOKEN => {
                text.parse::<Number>().map(Json::Number).map_err(|_| error("a number that does not read back"))
            }
            Some((_, Json::String(text))) => serde_json::from_str::<serde_json::Value>(&text).map(Json::from),
            _ => Err(error("serde_json's private value without its text")),
        }
    }
}

/// A variant's content, wrapped as `{"Variant": content}` at the end.
struct Variant<T>(&'static str, T);

impl ser::SerializeTupleVariant for Variant<Seq> {
    type Ok = Json;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        SerializeSeq::serialize_element(&mut self.1, value)
    }
    fn end(self) -> Result<Json, Error> {
        Ok(Json::Object(vec![(self.0.to_string(), SerializeSeq::end(self.1)?)]))
    }
}

impl ser::SerializeStructVariant for Variant<Map> {
    type Ok = Json;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(&mut self.1, key, value)
    }
    fn end(self) -> Result<Json, Error> {
        Ok(Json::Object(vec![(self.0.to_string(), Json::Object(self.1.entries))]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Record {
        zebra: u32,
        apple: Option<&'static str>,
        middle: Vec<bool>,
    }

    #[test]
    fn objects_keep_the_order_written() {
        let v = crate::ojson!({ "z": 1, "a": [true, null, { "y": "x", "b": 2 }], "m": {} });
        assert_eq!(v.to_text(), r#"{"z":1,"a":[true,null,{"y":"x","b":2}],"m":{}}"#);
        let r = to_json(&Record { zebra: 3, apple: None, middle: vec![false] });
        assert_eq!(r.to_text(), r#"{"zebra":3,"apple":null,"middle":[false]}"#);
    }

    #[test]
    fn insert_replaces_in_place_or_appends() {
        let mut v = crate::ojson!({ "b": 1, "a": 2 });
        v.insert("b", 3u32);
        v.insert("c", "text");
        assert_eq!(v.to_text(), r#"{"b":3,"a":2,"c":"text"}"#);
        assert_eq!(v["c"], "text");
        assert_eq!(v["b"], 3);
        assert_eq!(v["nothing"], Json::Null);
    }

    #[test]
    fn pretty_text_is_serde_jsons() {
        let v = crate::ojson!({ "a": [], "b": {}, "c": [1, "two"], "d": { "e": null } });
        let same: serde_json::Value = serde_json::from_str(&v.to_text()).expect("JSON");
        assert_eq!(v.to_pretty(), serde_json::to_string_pretty(&same).expect("text"));
        assert_eq!(v.to_value(), same);
    }

    #[test]
    fn serde_json_values_and_numbers_go_through() {
        let n: serde_json::Value = serde_json::from_str("[12, -3, 0.5]").expect("JSON");
        assert_eq!(to_json(&n).to_text(), "[12,-3,0.5]");
        assert_eq!(to_json(&u128::MAX).to_text(), "null");
    }
}
