//! The words of an `ask` session, read from the message files `messages/ask.*.toml`.

use crate::eval::show::Lang;
use serde::Deserialize;
use std::sync::OnceLock;

#[derive(Debug, Deserialize)]
pub struct Words {
    pub question: String,
    pub decided_by: String,
    pub clause: String,
    pub write: String,
    pub one_of: String,
    pub example: String,
    pub prompt: String,
    pub bad_answer: String,
    pub ended: String,
    pub no_matter: String,
    pub saved: String,
    pub yes: Vec<String>,
    pub no: Vec<String>,
    pub hints: Hints,
    pub rule: RuleWords,
}

/// The words `rule` adds about missing inputs.
#[derive(Debug, Deserialize)]
pub struct RuleWords {
    /// The heading of how to give each input still needed.
    pub how_to: String,
    /// Where a field goes: `{path}` is the record.
    pub within: String,
    pub json: String,
    pub toml: String,
    /// A settled ruling: `{inputs}` are the missing inputs it does not depend on.
    pub whatever: String,
}

/// How a facts file writes a value of each type.
#[derive(Debug, Deserialize)]
pub struct Hints {
    pub bool: String,
    pub int: String,
    pub number: String,
    pub duration: String,
    pub amount: String,
    pub text: String,
    pub date: String,
    /// A time of day; a language whose file lacks it shows the form alone.
    #[serde(default = "time_form")]
    pub time: String,
    pub variants: String,
    pub record: String,
    pub list: String,
}

fn time_form() -> String {
    "HH:MM".into()
}

impl Words {
    /// A message with its `{name}` places filled.
    pub fn fill(&self, template: &str, values: &[(&str, String)]) -> String {
        let mut out = template.to_string();
        for (k, v) in values {
            out = out.replace(&format!("{{{k}}}"), v);
        }
        out
    }
}

fn load(text: &str) -> Words {
    toml::from_str(text).unwrap_or_else(|e| unreachable!("the bundled message file is valid: {e}"))
}

/// The words for a language.
pub fn words(lang: Lang) -> &'static Words {
    static EN: OnceLock<Words> = OnceLock::new();
    static DA: OnceLock<Words> = OnceLock::new();
    match lang {
        Lang::En => EN.get_or_init(|| load(include_str!("../../messages/ask.en.toml"))),
        Lang::Da => DA.get_or_init(|| load(include_str!("../../messages/ask.da.toml"))),
    }
}
