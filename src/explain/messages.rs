//! The explanation's frame words, read from the per-language Project Fluent files
//! in `messages/` (embedded at build time). A new language is a new `.ftl` file and
//! a line in [`source`]; no frame word lives in Rust.

use crate::eval::show::Lang;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

/// The Fluent source of a language's messages.
pub fn source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../messages/en.ftl"),
        Lang::Da => include_str!("../../messages/da.ftl"),
    }
}

/// The Fluent source of a language's words on the HTML page (`page-…`).
pub fn page_source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../messages/page.en.ftl"),
        Lang::Da => include_str!("../../messages/page.da.ftl"),
    }
}

type Bundle = FluentBundle<FluentResource>;

/// A language's messages, and the messages without arguments as read so far (a frame word
/// is asked for many times in every explanation; formatting it once is enough).
struct Entry {
    bundle: Bundle,
    words: RwLock<HashMap<String, String>>,
}

fn entry(lang: Lang) -> &'static Entry {
    static EN: OnceLock<Entry> = OnceLock::new();
    static DA: OnceLock<Entry> = OnceLock::new();
    let cell = match lang {
        Lang::En => &EN,
        Lang::Da => &DA,
    };
    cell.get_or_init(|| {
        let id: unic_langid::LanguageIdentifier = lang.code().parse().unwrap_or_default();
        let mut b = FluentBundle::new_concurrent(vec![id]);
        b.set_use_isolating(false);
        // NUMBER() chooses ordinal forms in the files ("7th").
        let _ = b.add_builtins();
        // The files are checked by a test; a broken entry is left out rather than stopping a ruling.
        let res = FluentResource::try_new(source(lang).to_string()).unwrap_or_else(|(res, _)| res);
        let _ = b.add_resource(res);
        let page = FluentResource::try_new(page_source(lang).to_string()).unwrap_or_else(|(res, _)| res);
        let _ = b.add_resource(page);
        Entry { bundle: b, words: RwLock::new(HashMap::new()) }
    })
}

fn bundle(lang: Lang) -> &'static Bundle {
    &entry(lang).bundle
}

/// An argument to a message: a text or a number (numbers choose plural forms).
#[derive(Clone)]
pub enum Arg<'a> {
    Text(&'a str),
    Num(i64),
}

/// The message `id` in `lang` with its arguments; the id itself if the message is missing.
pub fn msg(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    if args.is_empty() {
        return word(lang, id);
    }
    format(lang, id, args, false)
}

/// As [`msg`], each text argument `k` also given as a flag `has-k` (`yes` or `no`, whether
/// it is empty) for the message to select an optional part on.
pub fn msg_flagged(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    format(lang, id, args, true)
}

fn format(lang: Lang, id: &str, args: &[(&str, Arg)], flags: bool) -> String {
    let b = bundle(lang);
    let Some(pattern) = b.get_message(id).and_then(|m| m.value()) else { return id.to_string() };
    let mut fa = FluentArgs::with_capacity(if flags { args.len() * 2 } else { args.len() });
    for (k, v) in args {
        match v {
            Arg::Text(t) => {
                fa.set(*k, FluentValue::from(*t));
                if flags {
                    fa.set(format!("has-{k}"), FluentValue::from(if t.is_empty() { "no" } else { "yes" }));
                }
            }
            Arg::Num(n) => fa.set(*k, FluentValue::from(*n)),
        }
    }
    let mut errors = Vec::new();
    b.format_pattern(pattern, Some(&fa), &mut errors).into_owned()
}

/// Whether `lang`'s file has the message `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    bundle(lang).get_message(id).and_then(|m| m.value()).is_some()
}

/// The message `id` without arguments (formatted once per language, then kept).
pub fn word(lang: Lang, id: &str) -> String {
    let e = entry(lang);
    if let Some(w) = e.words.read().ok().and_then(|m| m.get(id).cloned()) {
        return w;
    }
    let b = &e.bundle;
    let Some(pattern) = b.get_message(id).and_then(|m| m.value()) else { return id.to_string() };
    let mut errors = Vec::new();
    let w = b.format_pattern(pattern, None, &mut errors).into_owned();
    if let Ok(mut m) = e.words.write() {
        m.insert(id.to_string(), w.clone());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(src: &str) -> Vec<String> {
        let res = FluentResource::try_new(src.to_string()).unwrap_or_else(|(_, e)| panic!("{e:?}"));
        let mut out: Vec<String> = res
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn every_language_has_every_message() {
        assert_eq!(ids(source(Lang::En)), ids(source(Lang::Da)));
        assert_eq!(ids(page_source(Lang::En)), ids(page_source(Lang::Da)));
    }

    #[test]
    fn plural_and_arguments() {
        assert_eq!(msg(Lang::Da, "test-places", &[("n", Arg::Num(1))]), "1 plads");
        assert_eq!(msg(Lang::Da, "test-places", &[("n", Arg::Num(2))]), "2 pladser");
    }

    #[test]
    fn ordinals_from_the_files() {
        let place = |lang, n| msg(lang, "place", &[("rank", Arg::Num(n))]);
        assert_eq!(
            [1, 2, 3, 4, 7, 11, 12, 13, 21, 22].map(|n| place(Lang::En, n)),
            ["1st", "2nd", "3rd", "4th", "7th", "11th", "12th", "13th", "21st", "22nd"]
        );
        assert_eq!(place(Lang::Da, 7), "7.");
    }
}
