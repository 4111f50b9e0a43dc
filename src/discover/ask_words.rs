//! The words of an `ask` session, read from the message files `messages/ask.*.toml`.

use crate::base::lang::PerLang;
use crate::base::messages;
use crate::show::Lang;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Words {
    pub question: String,
    pub decided_by: String,
    pub clause: String,
    /// Another ruling that may work the input out: `{ruling}`, and `{clause}` (the words
    /// of `clause`, or nothing).
    pub may_work_out: String,
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
    /// After the rulings shown: one other ruling reads none of the facts given.
    pub not_shown_one: String,
    /// After the rulings shown: `{count}` other rulings read none of the facts given.
    pub not_shown: String,
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
    /// A date with a time of day; a language whose file lacks it shows the form alone.
    #[serde(default = "datetime_form")]
    pub datetime: String,
    pub variants: String,
    pub record: String,
    pub list: String,
}

fn time_form() -> String {
    "HH:MM".into()
}

fn datetime_form() -> String {
    "YYYY-MM-DD HH:MM".into()
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
    static WORDS: PerLang<Words> = PerLang::new();
    // The file of the language or the closest one it falls back to (English at last).
    let (found, text) = messages::lookup(lang, "ask.", ".toml").unwrap_or((Lang::En, ""));
    WORDS.get(found, || load(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_a_complete_file() {
        for l in Lang::framed() {
            let name = format!("ask.{l}.toml");
            let text = messages::file(&name).unwrap_or_else(|| panic!("no `messages/{name}`"));
            let parsed: Result<Words, _> = toml::from_str(text);
            assert!(parsed.is_ok(), "{name}: {parsed:?}");
        }
    }
}
