//! The facts gathered by a session, as a facts file: answers set at their paths
//! (`player.masterpoints`, `rejsehold.spillere[2].bopæl`), written as JSON, TOML or YAML.

use crate::facts::Format;
use serde_json::{Map, Value as J};

enum Seg {
    Key(String),
    Index(usize),
}

fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (name, rest) = part.split_once('[').map_or((part, ""), |(a, b)| (a, b));
        out.push(Seg::Key(name.to_string()));
        for idx in rest.split('[') {
            if let Ok(i) = idx.trim_end_matches(']').parse() {
                out.push(Seg::Index(i));
            }
        }
    }
    out
}

/// Sets `value` at `path` in the tree, making the objects on the way.
pub fn set(tree: &mut J, path: &str, value: J) {
    let segs = segments(path);
    let mut at = tree;
    for (i, s) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        at = match s {
            Seg::Key(k) => {
                if !at.is_object() {
                    *at = J::Object(Map::new());
                }
                let J::Object(m) = at else { return };
                let slot = m.entry(k.clone()).or_insert(J::Null);
                if last {
                    *slot = value;
                    return;
                }
                slot
            }
            Seg::Index(n) => {
                let J::Array(xs) = at else { return };
                let Some(slot) = xs.get_mut(*n) else { return };
                if last {
                    *slot = value;
                    return;
                }
                slot
            }
        };
    }
}

/// JSON to TOML: numbers stay exact (a whole number as an integer, any other as text).
fn to_toml(v: &J) -> Option<toml::Value> {
    Some(match v {
        J::Null => return None,
        J::Bool(b) => toml::Value::Boolean(*b),
        J::Number(n) => match n.to_string().parse::<i64>() {
            Ok(i) => toml::Value::Integer(i),
            Err(_) => toml::Value::String(n.to_string()),
        },
        J::String(s) => match s.parse::<toml::value::Datetime>() {
            Ok(d) if s.len() == 10 => toml::Value::Datetime(d),
            _ => toml::Value::String(s.clone()),
        },
        J::Array(xs) => toml::Value::Array(xs.iter().filter_map(to_toml).collect()),
        J::Object(m) => toml::Value::Table(m.iter().filter_map(|(k, v)| Some((k.clone(), to_toml(v)?))).collect()),
    })
}

/// JSON to YAML, numbers exact (as YAML reads them back).
fn to_yaml(v: &J) -> serde_yaml::Value {
    match v {
        J::Null => serde_yaml::Value::Null,
        J::Bool(b) => serde_yaml::Value::Bool(*b),
        J::Number(n) => match n.to_string().parse::<i64>() {
            Ok(i) => serde_yaml::Value::Number(i.into()),
            Err(_) => serde_yaml::Value::String(n.to_string()),
        },
        J::String(s) => serde_yaml::Value::String(s.clone()),
        J::Array(xs) => serde_yaml::Value::Sequence(xs.iter().map(to_yaml).collect()),
        J::Object(m) => serde_yaml::Value::Mapping(
            m.iter().map(|(k, v)| (serde_yaml::Value::String(k.clone()), to_yaml(v))).collect(),
        ),
    }
}

/// The tree as a facts file.
pub fn write(tree: &J, format: Format) -> String {
    match format {
        Format::Json => serde_json::to_string_pretty(tree).unwrap_or_default() + "\n",
        Format::Toml => to_toml(tree).and_then(|t| toml::to_string(&t).ok()).unwrap_or_default(),
        Format::Yaml => serde_yaml::to_string(&to_yaml(tree)).unwrap_or_default(),
    }
}
