//! The words of the server's pages, read from the message files `messages/serve.*.toml`.

use crate::base::lang::PerLang;
use crate::base::messages;
use crate::show::Lang;
use std::collections::HashMap;

/// The words for one language.
pub struct Words {
    map: HashMap<String, String>,
    pub lang: Lang,
}

impl Words {
    /// The message of that key (the key itself when a message file lacks it).
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.map.get(key).map(String::as_str).unwrap_or(key)
    }

    /// A message with its `{name}` places filled.
    pub fn fill(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut out = self.get(key).to_string();
        for (k, v) in values {
            out = out.replace(&format!("{{{k}}}"), v);
        }
        out
    }
}

fn load(text: &str, lang: Lang) -> Words {
    let map = toml::from_str(text).unwrap_or_else(|e| unreachable!("the bundled message file is valid: {e}"));
    Words { map, lang }
}

/// The words for a language.
pub fn words(lang: Lang) -> &'static Words {
    static WORDS: PerLang<Words> = PerLang::new();
    // The file of the language or the closest one it falls back to (English at last).
    let (found, text) = messages::lookup(lang, "serve.", ".toml").unwrap_or((Lang::En, ""));
    WORDS.get(found, || load(text, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_file_has_the_same_keys() {
        let keys = |l: Lang| {
            let mut k: Vec<&String> = words(l).map.keys().collect();
            k.sort();
            k
        };
        for l in Lang::framed() {
            assert_eq!(words(l).lang, l, "no `messages/serve.{l}.toml`");
            assert_eq!(keys(Lang::En), keys(l), "serve.{l}.toml");
        }
    }
}
