//! Facts templates: a skeleton facts file for some rulings, in JSON, TOML or YAML,
//! holding every input they read. Values are left unknown (`null`, or a commented-out
//! example in TOML), with each field's description and how to write it as a comment.

use super::{Reach, write};
use crate::check::program::{DefId, Program, TypeKind};
use crate::check::types::Type;
use crate::facts::Format;
use crate::json::Json as J;

/// One key of the skeleton.
struct Node {
    key: String,
    doc: Option<String>,
    how: String,
    example: J,
    shape: Shape,
}

enum Shape {
    Leaf,
    Table(Vec<Node>),
    /// A list of records: one element shown.
    Array(Vec<Node>),
}

/// The TOML or YAML template of rulings that read no input: a comment, which the
/// facts reader takes as a file of no facts.
const NO_INPUT: &str = "# no input is needed: these rulings read no facts\n";

/// A facts skeleton for `rulings`.
pub fn template(p: &Program, rulings: &[DefId], format: Format) -> String {
    let reach = super::reach(p, rulings);
    let nodes = nodes(p, &reach);
    match format {
        Format::Json => {
            let v = J::Object(nodes.iter().map(|n| (n.key.clone(), json(n))).collect());
            v.to_pretty() + "\n"
        }
        Format::Toml => {
            let mut out = String::new();
            toml_table(&nodes, &[], false, &mut out);
            if out.is_empty() { NO_INPUT.to_string() } else { out }
        }
        Format::Yaml => {
            let mut out = String::new();
            yaml(&nodes, 0, &mut out);
            if out.is_empty() { NO_INPUT.to_string() } else { out }
        }
    }
}

fn nodes(p: &Program, reach: &Reach) -> Vec<Node> {
    let mut out = Vec::new();
    for &f in &reach.facts {
        let info = &p.facts[f as usize];
        let doc = with_clause(info.doc.clone(), p.citation_of(info.clause), None);
        out.push(node(p, reach, &info.name, &info.ty, doc, 0));
    }
    for &d in &reach.decisions {
        let info = &p.decisions[d as usize];
        let doc = with_clause(info.doc.clone(), p.citation_of(info.clause), Some(&info.by));
        out.push(node(p, reach, &info.name, &info.ty, doc, 0));
    }
    out
}

fn with_clause(doc: Option<String>, clause: Option<&str>, by: Option<&str>) -> Option<String> {
    let mut s = doc.unwrap_or_default();
    if let Some(c) = clause {
        s = format!("{s} ({c})");
    }
    if let Some(b) = by {
        s = format!("{s}; decided by {b}");
    }
    let s = s.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn node(p: &Program, reach: &Reach, key: &str, ty: &Type, doc: Option<String>, depth: usize) -> Node {
    let (t, list) = match ty {
        Type::Record(t) => (Some(*t), false),
        Type::List(e) => match **e {
            Type::Record(t) => (Some(t), true),
            _ => (None, false),
        },
        _ => (None, false),
    };
    let fields: Vec<Node> = match t.map(|t| (t, &p.types[t as usize].kind)) {
        Some((t, TypeKind::Record(fs))) if depth < 8 => fs
            .iter()
            .enumerate()
            .filter(|(i, _)| reach.fields.contains(&(t, *i as u32)))
            .map(|(_, f)| {
                let doc = match (&f.doc, f.optional) {
                    (Some(d), true) => Some(format!("{d} (may be left out)")),
                    (d, _) => d.clone(),
                };
                node(p, reach, &f.name, &f.ty, doc, depth + 1)
            })
            .collect(),
        _ => Vec::new(),
    };
    let shape = match (fields.is_empty(), list) {
        (true, _) => Shape::Leaf,
        (false, false) => Shape::Table(fields),
        (false, true) => Shape::Array(fields),
    };
    Node { key: key.to_string(), doc, how: write::how(p, ty), example: write::example(p, ty, 0), shape }
}

fn json(n: &Node) -> J {
    let obj = |xs: &[Node]| J::Object(xs.iter().map(|x| (x.key.clone(), json(x))).collect());
    match &n.shape {
        Shape::Leaf => J::Null,
        Shape::Table(xs) => obj(xs),
        Shape::Array(xs) => J::Array(vec![obj(xs)]),
    }
}

fn comment(n: &Node, indent: &str, out: &mut String) {
    if let Some(d) = &n.doc {
        out.push_str(&format!("{indent}# {d}\n"));
    }
    if matches!(n.shape, Shape::Leaf) {
        out.push_str(&format!("{indent}# write {}\n", n.how));
    }
}

/// A TOML key, quoted unless bare (keys with æ, ø, å must be quoted).
pub fn toml_key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        format!("\"{}\"", k.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

fn toml_value(v: &J) -> String {
    match v {
        J::String(s) if s.len() == 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-' => s.clone(),
        J::Object(m) => {
            let parts: Vec<String> = m.iter().map(|(k, v)| format!("{} = {}", toml_key(k), toml_value(v))).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        J::Array(xs) => format!("[{}]", xs.iter().map(toml_value).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

fn toml_table(nodes: &[Node], prefix: &[String], _array: bool, out: &mut String) {
    for n in nodes.iter().filter(|n| matches!(n.shape, Shape::Leaf)) {
        comment(n, "", out);
        out.push_str(&format!("# {} = {}\n\n", toml_key(&n.key), toml_value(&n.example)));
    }
    for n in nodes.iter().filter(|n| !matches!(n.shape, Shape::Leaf)) {
        let mut path = prefix.to_vec();
        path.push(toml_key(&n.key));
        if let Some(d) = &n.doc {
            out.push_str(&format!("# {d}\n"));
        }
        match &n.shape {
            Shape::Table(xs) => {
                out.push_str(&format!("[{}]\n", path.join(".")));
                toml_table(xs, &path, false, out);
            }
            Shape::Array(xs) => {
                out.push_str(&format!("[[{}]]\n", path.join(".")));
                toml_table(xs, &path, true, out);
            }
            Shape::Leaf => {}
        }
    }
}

fn yaml_key(k: &str) -> String {
    if k.chars().all(|c| c.is_alphanumeric() || c == '_') { k.to_string() } else { format!("\"{k}\"") }
}

fn yaml(nodes: &[Node], level: usize, out: &mut String) {
    let indent = "  ".repeat(level);
    for n in nodes {
        comment(n, &indent, out);
        match &n.shape {
            Shape::Leaf => out.push_str(&format!("{indent}{}: null\n", yaml_key(&n.key))),
            Shape::Table(xs) => {
                out.push_str(&format!("{indent}{}:\n", yaml_key(&n.key)));
                yaml(xs, level + 1, out);
            }
            Shape::Array(xs) => {
                out.push_str(&format!("{indent}{}:\n{indent}  -\n", yaml_key(&n.key)));
                yaml(xs, level + 2, out);
            }
        }
    }
}
