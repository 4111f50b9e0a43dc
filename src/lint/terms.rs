//! The glossary of the domain's words (`messages/glossary.toml`: each term's word in each
//! language, and the terms a translation must not render it as) and the lint that reviews
//! a rulebook's English glosses with it: a gloss that renders a term of the text by another
//! term's English words, when the text does not say that other term ("UP", away points,
//! glossed "VP", victory points), is `lint::gloss_term`.

use crate::check::Checked;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{ClausePart, Decl, Item, Span};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The lint's code.
pub const GLOSS_TERM: &str = "lint::gloss_term";

/// The glossary: each language's forms of each term, and each term's wrong friends.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Glossary {
    /// Term → the terms a translation of it must not be worded as.
    #[serde(rename = "wrong-friends", default)]
    pub wrong_friends: BTreeMap<String, Vec<String>>,
    /// Language tag → term → its forms in that language, the word for it first.
    #[serde(flatten)]
    pub langs: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

impl Glossary {
    /// The forms of `term` in `lang` (by its primary tag: `da-DK` reads `da`); none if the
    /// glossary lacks either.
    pub fn forms(&self, lang: &str, term: &str) -> &[String] {
        let primary = lang.split(['-', '_']).next().unwrap_or(lang).to_ascii_lowercase();
        self.langs.get(&primary).and_then(|t| t.get(term)).map_or(&[], Vec::as_slice)
    }
}

/// The bundled glossary, read from `messages/glossary.toml`; or the error that keeps it
/// from being read (a test checks that it reads).
pub fn read() -> Result<Glossary, String> {
    let text = crate::base::messages::file("glossary.toml").ok_or("no `messages/glossary.toml`")?;
    toml::from_str(text).map_err(|e| format!("`messages/glossary.toml` does not read: {e}"))
}

/// The bundled glossary (empty if it does not read: then no gloss is reviewed).
pub fn glossary() -> &'static Glossary {
    static G: OnceLock<Glossary> = OnceLock::new();
    G.get_or_init(|| read().unwrap_or_default())
}

/// A text as the glossary matches it: its words, each once separated by a space, with a
/// space before and after (` the team 's UP `), as written and in lower case.
struct Words {
    written: String,
    lower: String,
}

impl Words {
    fn of(text: &str) -> Words {
        let mut written = String::from(" ");
        for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            written.push_str(w);
            written.push(' ');
        }
        let lower = written.to_lowercase();
        Words { written, lower }
    }

    /// Whether the text says `form`: as whole words, with or without a plural "s"; as
    /// written if the form has a capital letter, else in any case.
    fn says(&self, form: &str) -> bool {
        let caps = form.chars().any(char::is_uppercase);
        let form = Words::of(form);
        let (hay, needle) = if caps { (&self.written, form.written) } else { (&self.lower, form.lower) };
        let needle = needle.trim();
        if needle.is_empty() {
            return false;
        }
        [format!(" {needle} "), format!(" {needle}s ")].iter().any(|n| hay.contains(n.as_str()))
    }

    fn says_any<'f>(&self, forms: &'f [String]) -> Option<&'f str> {
        forms.iter().find(|f| self.says(f)).map(String::as_str)
    }
}

/// A wrong term in an English gloss of `text` (in `lang`): the text's term, how the text
/// says it, the wrong friend and how the gloss says that.
fn wrong_term<'g>(g: &'g Glossary, lang: &str, text: &str, gloss: &str) -> Option<(&'g str, String, &'g str, String)> {
    let (text, gloss) = (Words::of(text), Words::of(gloss));
    for (term, friends) in &g.wrong_friends {
        let Some(said) = text.says_any(g.forms(lang, term)) else { continue };
        for friend in friends {
            // The text says the other term too: the gloss may well say it.
            if text.says_any(g.forms(lang, friend)).is_some() {
                continue;
            }
            if let Some(wrong) = gloss.says_any(g.forms("en", friend)) {
                return Some((term, said.to_string(), friend, wrong.to_string()));
            }
        }
    }
    None
}

/// Every English gloss of a rulebook not in English (a clause's, of its printed text and
/// heading; a `gloss of`, of the text it repeats) that renders a term by a wrong friend.
pub fn lint(checked: &Checked) -> Vec<Diagnostic> {
    let lang = checked.program.rulebook.language.as_str();
    let g = glossary();
    if lang.split(['-', '_']).next().is_some_and(|l| l.eq_ignore_ascii_case("en")) || g.langs.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut review = |text: &str, gloss: &str, at: Span| {
        if let Some((term, said, friend, wrong)) = wrong_term(g, lang, text, gloss) {
            let right = g.forms("en", term).first().map_or(term, String::as_str);
            out.push(
                Diagnostic::warning(
                    GLOSS_TERM,
                    format!("the gloss renders `{said}` ({term}) as `{wrong}` ({friend}), which the text does not say"),
                )
                .at(at, "a wrong term")
                .help(format!("say `{right}` (messages/glossary.toml)")),
            );
        }
    };
    for file in &checked.files {
        for item in &file.items {
            match item {
                Item::Clause(c) => {
                    if let Some(gl) = c.gloss() {
                        let mut text = String::new();
                        for part in &c.parts {
                            if let ClausePart::Heading(s)
                            | ClausePart::Text(s)
                            | ClausePart::Excerpt(s)
                            | ClausePart::Paraphrase(s) = part
                            {
                                text.push_str(&s.value);
                                text.push('\n');
                            }
                        }
                        review(&text, &gl.value, gl.span);
                    }
                    for d in c.decls() {
                        if let Decl::Gloss(gd) = d {
                            review(&gd.of.value, &gd.gloss.value, gd.gloss.span);
                        }
                    }
                }
                Item::Decl(Decl::Gloss(gd)) => review(&gd.of.value, &gd.gloss.value, gd.gloss.span),
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Glossary {
        read().expect("the glossary reads")
    }

    #[test]
    fn every_term_is_in_every_language() {
        let g = g();
        let langs = ["en", "da", "sv", "nb"];
        let terms: std::collections::BTreeSet<&String> = g.langs.values().flat_map(|t| t.keys()).collect();
        assert!(terms.len() >= 12, "the glossary has {} terms", terms.len());
        for l in langs {
            let mine = g.langs.get(l).unwrap_or_else(|| panic!("no [{l}] in the glossary"));
            for t in &terms {
                let forms = mine.get(*t).unwrap_or_else(|| panic!("[{l}] lacks `{t}`"));
                assert!(
                    !forms.is_empty() && forms.iter().all(|f| !f.trim().is_empty()),
                    "[{l}] `{t}` has an empty form"
                );
            }
        }
        assert_eq!(g.langs.len(), langs.len(), "a language of the glossary is not checked here");
        for (t, friends) in &g.wrong_friends {
            for x in std::iter::once(t).chain(friends) {
                assert!(terms.contains(x), "wrong friend `{x}` is no term of the glossary");
            }
        }
        // The terms the brief names, by their English word.
        for (term, word) in [("victory-points", "VP"), ("away-points", "away points"), ("imps", "IMP")] {
            assert!(g.forms("en", term).iter().any(|f| f == word), "`{term}` is not `{word}` in English");
        }
        for term in ["board", "round", "flight", "carry-over", "session", "match-points"] {
            assert!(!g.forms("da", term).is_empty(), "no Danish `{term}`");
        }
    }

    #[test]
    fn away_points_glossed_as_victory_points_is_wrong() {
        let g = g();
        let found = wrong_term(&g, "da", "hold1's UP i alt", "team 1's VP in all");
        assert_eq!(found.map(|f| (f.0, f.3)), Some(("away-points", "VP".to_string())));
        assert!(wrong_term(&g, "da", "hold1's UP i alt", "team 1's away points (UP) in all").is_none());
        // The text says both: the gloss may say both.
        assert!(wrong_term(&g, "da", "UP og VP", "away points and victory points").is_none());
        // Kamppoint are victory points.
        assert!(wrong_term(&g, "da", "KP-lighed", "level on VP").is_none());
        // A word inside another is no term: "UPS" is not "UP", "VPN" not "VP".
        assert!(wrong_term(&g, "da", "UPS", "VPN").is_none());
    }

    #[test]
    fn words_match_whole_and_plural() {
        let w = Words::of("The teams' VPs, in Victory  points.");
        assert!(w.says("VP") && w.says("victory points") && w.says("team") && w.says("vp"));
        assert!(!Words::of("vp").says("VP"), "an abbreviation is matched as written");
        assert!(!Words::of("VPN").says("VP") && !Words::of("victory").says("victory points"));
    }
}
