//! The words of a text as the find index keeps them: split at every character that is
//! neither a letter nor a digit, lower-cased, stop words left out, and stemmed by the
//! Snowball stemmer of the text's language (`rust-stemmers`). The stop-word lists are data
//! (`messages/stopwords.*.txt`), one per language that ships one; a language without a
//! list keeps every word, and a language without a Snowball stemmer keeps words unstemmed.

use rust_stemmers::{Algorithm, Stemmer};
use std::collections::HashSet;

/// The stop-word lists shipped, by primary language subtag.
const STOP_WORDS: &[(&str, &str)] =
    &[("da", include_str!("../../messages/stopwords.da.txt")), ("en", include_str!("../../messages/stopwords.en.txt"))];

/// The Snowball algorithm of a language tag (its primary subtag), if there is one.
fn algorithm(tag: &str) -> Option<Algorithm> {
    let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    Some(match primary.as_str() {
        "ar" => Algorithm::Arabic,
        "da" => Algorithm::Danish,
        "nl" => Algorithm::Dutch,
        "en" => Algorithm::English,
        "fi" => Algorithm::Finnish,
        "fr" => Algorithm::French,
        "de" => Algorithm::German,
        "el" => Algorithm::Greek,
        "hu" => Algorithm::Hungarian,
        "it" => Algorithm::Italian,
        "no" | "nb" | "nn" => Algorithm::Norwegian,
        "pt" => Algorithm::Portuguese,
        "ro" => Algorithm::Romanian,
        "ru" => Algorithm::Russian,
        "es" => Algorithm::Spanish,
        "sv" => Algorithm::Swedish,
        "ta" => Algorithm::Tamil,
        "tr" => Algorithm::Turkish,
        _ => return None,
    })
}

/// How the texts of one language are cut into index words.
pub struct Language {
    stemmer: Option<Stemmer>,
    stop: HashSet<String>,
}

impl Language {
    /// The words of language `tag` (a BCP-47 tag such as `da` or `en-GB`).
    pub fn new(tag: &str) -> Language {
        let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        let stop = STOP_WORDS
            .iter()
            .filter(|(t, _)| *t == primary)
            .flat_map(|(_, list)| list.lines().filter(|l| !l.trim_start().starts_with('#')))
            .flat_map(str::split_whitespace)
            .map(str::to_lowercase)
            .collect();
        Language { stemmer: algorithm(tag).map(Stemmer::create), stop }
    }

    /// Whether `word` (lower-cased) is a stop word of the language.
    pub fn is_stop(&self, word: &str) -> bool {
        self.stop.contains(word)
    }

    /// The stem of a lower-cased word; a word with a digit is kept whole (`328a1`, `60`).
    pub fn stem(&self, word: &str) -> String {
        match &self.stemmer {
            Some(s) if !word.chars().any(|c| c.is_ascii_digit()) => s.stem(word).into_owned(),
            _ => word.to_string(),
        }
    }

    /// The index words of a text: stems of the words that are not stop words.
    pub fn terms(&self, text: &str) -> Vec<String> {
        tokens(text).filter(|w| !self.is_stop(w)).map(|w| self.stem(&w)).collect()
    }
}

/// The lower-cased words of a text, in order.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

/// The words of a clause citation, with every shorter form that a reader may type:
/// `§ 328A1` gives `328a1`, `328a` and `328`; `Stage 1 D ¶3` gives `stage`, `1`, `d`, `3`.
pub fn citation_terms(citation: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in tokens(citation) {
        if w.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            // Each place where a run of digits meets a run of letters ends a shorter form.
            let chars: Vec<char> = w.chars().collect();
            for i in 1..chars.len() {
                if chars[i].is_ascii_digit() != chars[i - 1].is_ascii_digit() {
                    out.push(chars[..i].iter().collect());
                }
            }
        }
        out.push(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn danish_and_english_words_are_stemmed_and_stop_words_dropped() {
        let da = Language::new("da");
        assert_eq!(da.terms("og spillerne"), da.terms("spiller"));
        let en = Language::new("en-GB");
        assert_eq!(en.terms("the players"), en.terms("player"));
        assert!(en.terms("the of and").is_empty());
    }

    #[test]
    fn a_language_without_a_stemmer_or_list_keeps_its_words() {
        let xx = Language::new("xx");
        assert_eq!(xx.terms("Og Spillerne"), vec!["og", "spillerne"]);
    }

    #[test]
    fn a_citation_gives_its_shorter_forms() {
        assert_eq!(citation_terms("§ 328A1"), vec!["328", "328a", "328a1"]);
        assert_eq!(citation_terms("Stage 1 D ¶3"), vec!["stage", "1", "d", "3"]);
    }
}
