//! The words of the server's pages, read from the message files `messages/serve.*.toml`.

use crate::eval::show::Lang;
use std::collections::HashMap;
use std::sync::OnceLock;

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
    static EN: OnceLock<Words> = OnceLock::new();
    static DA: OnceLock<Words> = OnceLock::new();
    match lang {
        Lang::En => EN.get_or_init(|| load(include_str!("../../messages/serve.en.toml"), Lang::En)),
        Lang::Da => DA.get_or_init(|| load(include_str!("../../messages/serve.da.toml"), Lang::Da)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_message_files_have_the_same_keys() {
        let mut en: Vec<&String> = words(Lang::En).map.keys().collect();
        let mut da: Vec<&String> = words(Lang::Da).map.keys().collect();
        en.sort();
        da.sort();
        assert_eq!(en, da);
    }
}
