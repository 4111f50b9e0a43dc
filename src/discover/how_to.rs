//! How to give a missing input: for each input a ruling still needs, its facts-file
//! path, the record it goes in, its type as a facts file writes it, an example line in
//! JSON and in TOML, and, for a decision or a draw, who decides under which clause.
//! `rule` prints these under an undetermined ruling (text and JSON).

use super::write;
use crate::check::program::Program;
use crate::eval::needed::{Hole, HoleKind};
use crate::json::Json as J;
use crate::show::Lang;
use crate::syntax::ast::DecisionKind;
use serde::Serialize;

/// How to write one missing input.
#[derive(Clone, Debug, Serialize)]
pub struct HowTo {
    /// The facts-file path (`player.masterpoints`, `rejsehold.spillere[5].bopæl`) or key.
    pub path: String,
    /// `fact`, `field`, `decision` or `lot`.
    pub kind: &'static str,
    /// The record the field goes in (`rejsehold.spillere[5]`), for a field.
    pub within: Option<String>,
    /// The key to write (the last part of the path).
    pub key: String,
    /// The type, as a facts file writes it.
    #[serde(rename = "type")]
    pub ty: String,
    /// An example value, as JSON.
    pub example: J,
    /// The example as a JSON member: `"masterpoints": 2150`.
    pub json: String,
    /// The example as a TOML line: `masterpoints = 2150` (keys with æ/ø/å quoted).
    pub toml: String,
    /// For a decision or lot: who decides.
    pub who: Option<String>,
    /// The clause that declares the input.
    pub clause: Option<String>,
    /// For a draw: the candidates.
    pub candidates: Vec<String>,
}

/// A TOML key: bare when TOML allows it, quoted otherwise (`"bopæl"`).
pub fn toml_key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        J::String(k.to_string()).to_string()
    }
}

/// A JSON value written as TOML (inline tables and arrays); `null` has no TOML form.
pub fn toml_value(v: &J) -> String {
    match v {
        J::Null => "\"…\"".into(),
        J::Bool(b) => b.to_string(),
        J::Number(n) => n.to_string(),
        J::String(s) => J::String(s.clone()).to_string(),
        J::Array(xs) => format!("[{}]", xs.iter().map(toml_value).collect::<Vec<_>>().join(", ")),
        J::Object(m) => format!(
            "{{ {} }}",
            m.iter().map(|(k, x)| format!("{} = {}", toml_key(k), toml_value(x))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// How to write the missing input `hole`, in the words of `lang`.
pub fn how_to(p: &Program, hole: &Hole, lang: Lang) -> HowTo {
    let (kind, who, clause) = match &hole.kind {
        HoleKind::Fact(f) => ("fact", None, p.citation_of(p.facts[*f as usize].clause)),
        HoleKind::Field { .. } => ("field", None, None),
        HoleKind::Decision(d) | HoleKind::Lot(d) => {
            let i = &p.decisions[*d as usize];
            (if i.kind == DecisionKind::Lot { "lot" } else { "decision" }, Some(i.by.clone()), p.citation_of(i.clause))
        }
    };
    let (within, key) = match &hole.kind {
        HoleKind::Field { .. } => match hole.path.rsplit_once('.') {
            Some((a, b)) => (Some(a.to_string()), b.to_string()),
            None => (None, hole.path.clone()),
        },
        _ => (None, hole.path.clone()),
    };
    let example = match hole.candidates.first() {
        Some(c) => J::String(c.clone()),
        None => write::example(p, &hole.ty, 0),
    };
    let ty = if hole.candidates.is_empty() {
        write::how_in(p, &hole.ty, lang)
    } else {
        let w = crate::discover::ask_words::words(lang);
        w.fill(&w.hints.variants, &[("values", hole.candidates.join(", "))])
    };
    HowTo {
        path: hole.path.clone(),
        kind,
        within,
        json: format!("{}: {}", J::String(key.clone()), example),
        toml: format!("{} = {}", toml_key(&key), toml_value(&example)),
        key,
        ty,
        example,
        who,
        clause: clause.map(str::to_string),
        candidates: hole.candidates.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_keys_and_values() {
        assert_eq!(toml_key("masterpoints"), "masterpoints");
        assert_eq!(toml_key("bopæl"), "\"bopæl\"");
        assert_eq!(
            toml_value(&crate::ojson!({"by": "Aalborg", "afstand": "260 km"})),
            "{ by = \"Aalborg\", afstand = \"260 km\" }"
        );
    }
}
