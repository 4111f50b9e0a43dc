//! Languages: BCP-47 language tags read and written in their canonical form by ICU4X's
//! locale parser (see [`canonical`]; our own is only what is said of a malformed tag), kept as a small `Copy` handle ([`Lang`]), and
//! matched by lookup with fallback (RFC 4647: `nb-NO` → `nb` → the English frame).
//! Which languages have a frame (message files) is data: the files in `messages/`
//! (see [`crate::base::messages`]).

use std::sync::{Mutex, OnceLock, RwLock};

/// A language, by its BCP-47 tag. Two handles are equal when their tags are equal in
/// canonical case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lang(u16);

/// At most this many distinct tags are kept for the program's life; past it, a new tag
/// is read as the closest language with message files (a server asked for many made-up
/// tags keeps its memory).
pub(crate) const MAX_TAGS: usize = 512;

fn registry() -> &'static RwLock<Vec<&'static str>> {
    static R: OnceLock<RwLock<Vec<&'static str>>> = OnceLock::new();
    R.get_or_init(|| RwLock::new(vec!["en", "da"]))
}

#[allow(non_upper_case_globals)]
impl Lang {
    /// English: the frame every other language falls back to.
    pub const En: Lang = Lang(0);
    /// Danish.
    pub const Da: Lang = Lang(1);

    /// The language of a well-formed tag (any case: `nb-no` is `nb-NO`); `None` when it
    /// is not one (see [`Lang::tag`] for the reason).
    pub fn parse(s: &str) -> Option<Lang> {
        Lang::tag(s).ok()
    }

    /// The language of a tag, or why the text is not a BCP-47 language tag.
    pub fn tag(s: &str) -> Result<Lang, TagError> {
        let canonical = canonical(s)?;
        Ok(intern(&canonical))
    }

    /// The tag's place among the tags known, below [`MAX_TAGS`]; it never changes.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The tag in canonical case: `da`, `nb-NO`, `sr-Latn-RS`.
    pub fn code(self) -> &'static str {
        // A tag's place in the registry never changes: the first few are read without a lock.
        static CODES: [OnceLock<&'static str>; FIRST] = [const { OnceLock::new() }; FIRST];
        let fast = CODES.get(self.0 as usize);
        if let Some(c) = fast.and_then(OnceLock::get) {
            return c;
        }
        match registry().read().ok().and_then(|r| r.get(self.0 as usize).copied()) {
            Some(c) => {
                if let Some(f) = fast {
                    let _ = f.set(c);
                }
                c
            }
            None => "en",
        }
    }

    /// The tag and the shorter tags it falls back to, longest first, ending in English:
    /// `nb-NO` → `nb-NO`, `nb`, `en`. Private-use and extension parts are dropped
    /// with the subtag before them (RFC 4647 lookup).
    pub fn fallbacks(self) -> Vec<Lang> {
        let mut out = vec![self];
        let mut tag = self.code();
        while let Some(i) = tag.rfind('-') {
            tag = &tag[..i];
            // A single-letter subtag (`-x-`, `-u-`) goes with the part it introduces.
            if let Some(j) = tag.rfind('-')
                && tag.len() - j == 2
            {
                tag = &tag[..j];
            }
            out.push(intern(tag));
        }
        if !out.contains(&Lang::En) {
            out.push(Lang::En);
        }
        out
    }

    /// Whether a reader of `self` reads `other`: the same tag, or `other` a shorter form
    /// of it (`da-DK` reads `da`; `da` does not read `da-DK` alone, nor `nb` read `da`).
    pub fn reads(self, other: &str) -> bool {
        reads(self.code(), other)
    }

    /// The languages that have an explanation frame (a `messages/<tag>.ftl`), in the
    /// order of their tags.
    pub fn framed() -> Vec<Lang> {
        let mut out: Vec<Lang> = Vec::new();
        for tag in super::messages::frames() {
            if let Some(l) = Lang::parse(tag)
                && !out.contains(&l)
            {
                out.push(l);
            }
        }
        if !out.contains(&Lang::En) {
            out.push(Lang::En);
        }
        out
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// Whether a reader of the tag `asked` reads text in the tag `of` (case-insensitive
/// prefix match on a subtag boundary).
pub fn reads(asked: &str, of: &str) -> bool {
    asked.eq_ignore_ascii_case(of)
        || (asked.len() > of.len()
            && asked.as_bytes()[of.len()] == b'-'
            && asked.get(..of.len()).is_some_and(|a| a.eq_ignore_ascii_case(of)))
}

/// The language of glosses (`gloss "…"`, `gloss of "…" = "…"`).
pub const GLOSSES: &str = "en";

/// Whether a reader of the tag `lang` is shown glosses: its explanation frame (after
/// fallback) is in the glosses' language.
pub fn reads_glosses(lang: &str) -> bool {
    if reads(lang, GLOSSES) {
        return true;
    }
    static READS: PerLang<bool> = PerLang::new();
    Lang::parse(lang).is_none_or(|l| *READS.get(l, || super::messages::frame(l).reads(GLOSSES)))
}

fn intern(tag: &str) -> Lang {
    let r = registry();
    if let Ok(read) = r.read()
        && let Some(i) = read.iter().position(|t| *t == tag)
    {
        return Lang(i as u16);
    }
    let Ok(mut write) = r.write() else { return Lang::En };
    if let Some(i) = write.iter().position(|t| *t == tag) {
        return Lang(i as u16);
    }
    if write.len() >= MAX_TAGS {
        drop(write);
        return closest_framed(tag);
    }
    write.push(Box::leak(tag.to_string().into_boxed_str()));
    Lang((write.len() - 1) as u16)
}

/// The longest prefix of `tag` that is already known, else English (without interning).
fn closest_framed(tag: &str) -> Lang {
    let Ok(read) = registry().read() else { return Lang::En };
    let mut t = tag;
    loop {
        if let Some(i) = read.iter().position(|x| *x == t) {
            return Lang(i as u16);
        }
        match t.rfind('-') {
            Some(i) => t = &t[..i],
            None => return Lang::En,
        }
    }
}

/// Why a text is not a language tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagError {
    /// What is wrong, in lowercase, with the offending part in backticks.
    pub message: String,
}

impl std::fmt::Display for TagError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// How to write a tag, for a diagnostic's help.
pub const TAG_HELP: &str = "write a BCP-47 language tag (RFC 5646): a language code, then optional script, region and variant, e.g. `da`, `en`, `sv`, `nb`, `nb-NO`, `en-GB`, `sr-Latn`";

/// Tags that RFC 5646 keeps whole from earlier rules (`grandfathered`).
const GRANDFATHERED: &[&str] = &[
    "en-GB-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-BE-FR",
    "sgn-BE-NL",
    "sgn-CH-DE",
    "art-lojban",
    "cel-gaulish",
    "no-bok",
    "no-nyn",
    "zh-guoyu",
    "zh-hakka",
    "zh-min",
    "zh-min-nan",
    "zh-xiang",
];

fn err(message: String) -> TagError {
    TagError { message }
}

/// The tag in canonical case, or why it is not well-formed. Read by ICU4X's locale parser
/// (`icu_locale_core`, the BCP-47 grammar of Unicode's UTS #35): its canonical form puts
/// extensions and variants in alphabetical order and refuses a variant or extension given
/// twice; extended language subtags (`zh-yue`) are not read (write the language itself,
/// `yue`). Tags of private use only (`x-…`) and the grandfathered tags of RFC 5646 are read
/// here. What is said of a malformed tag is ours: which subtag, and why.
pub fn canonical(s: &str) -> Result<String, TagError> {
    if s.is_empty() {
        return Err(err("an empty language tag".into()));
    }
    if let Some(g) = GRANDFATHERED.iter().find(|g| g.eq_ignore_ascii_case(s)) {
        return Ok((*g).to_string());
    }
    if let Some(bad) = s.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '-')) {
        let hint = if bad == '_' { " (subtags are joined by `-`, not `_`)" } else { "" };
        return Err(err(format!("`{s}` has the character `{bad}`; a language tag has letters, digits and `-`{hint}")));
    }
    let parts: Vec<&str> = s.split('-').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(err(format!("`{s}` has an empty subtag (a `-` at the start or end, or `--`)")));
    }
    if let Some(p) = parts.iter().find(|p| p.len() > 8) {
        return Err(err(format!("`{s}`: the subtag `{p}` is longer than 8 characters")));
    }
    // A tag of private use only is read after the undetermined language, `und`.
    let private = parts[0].eq_ignore_ascii_case("x");
    let parse = |n: usize| {
        let head = parts[..n].join("-");
        icu_locale_core::Locale::try_from_str(&if private { format!("und-{head}") } else { head })
    };
    if let Ok(locale) = parse(parts.len()) {
        let tag = locale.to_string();
        return Ok(if private { tag.trim_start_matches("und-").to_string() } else { tag });
    }
    if !private && parse(1).is_err() {
        let lang = parts[0];
        return Err(err(format!(
            "`{s}` starts with `{lang}`; a language tag starts with a language code of 2, 3 or 5 to 8 letters"
        )));
    }
    // The first subtag that does not fit after those before it.
    // (An extension's letter fits when it fits with the subtag after it.)
    let fits =
        (1..parts.len()).take_while(|&n| parse(n).is_ok() || (parts[n - 1].len() == 1 && parse(n + 1).is_ok())).count();
    let p = parts[fits];
    let last = fits + 1 == parts.len();
    let variant = p.len() >= 5 || (p.len() == 4 && p.as_bytes()[0].is_ascii_digit());
    let twice = (p.len() == 1 || variant) && parts[..fits].iter().any(|q| q.eq_ignore_ascii_case(p));
    Err(err(match (p.len(), twice, last) {
        (1, _, true) if p.eq_ignore_ascii_case("x") => {
            format!("`{s}`: the private-use part `x` has no subtags after it")
        }
        (1, true, _) => format!("`{s}` has the extension `{p}` twice"),
        (1, false, _) => format!("`{s}`: the extension `{p}` has no subtags after it"),
        (_, true, _) => format!("`{s}` has the variant `{p}` twice"),
        _ => format!("`{s}`: the subtag `{p}` is not a script, region, variant or extension in its place"),
    }))
}

/// A cache of one value per language, made on first use and kept for the program's life.
pub struct PerLang<T: 'static> {
    cell: OnceLock<Mutex<Vec<(Lang, &'static T)>>>,
    /// The values of the first few languages known, read without a lock.
    first: [OnceLock<&'static T>; FIRST],
}

/// How many languages a [`PerLang`] reads without a lock.
const FIRST: usize = 16;

impl<T: Send + Sync + 'static> PerLang<T> {
    pub const fn new() -> Self {
        PerLang { cell: OnceLock::new(), first: [const { OnceLock::new() }; FIRST] }
    }

    /// The value for `lang`, made by `make` the first time.
    pub fn get(&'static self, lang: Lang, make: impl FnOnce() -> T) -> &'static T {
        let fast = self.first.get(lang.0 as usize);
        if let Some(t) = fast.and_then(OnceLock::get) {
            return t;
        }
        let t = self.get_locked(lang, make);
        if let Some(f) = fast {
            let _ = f.set(t);
        }
        t
    }

    fn get_locked(&'static self, lang: Lang, make: impl FnOnce() -> T) -> &'static T {
        let m = self.cell.get_or_init(|| Mutex::new(Vec::new()));
        if let Ok(v) = m.lock()
            && let Some((_, t)) = v.iter().find(|(l, _)| *l == lang)
        {
            return t;
        }
        // Made outside the lock: making one may need another language's value.
        let made: &'static T = Box::leak(Box::new(make()));
        match m.lock() {
            Ok(mut v) => match v.iter().find(|(l, _)| *l == lang) {
                Some((_, t)) => t,
                None => {
                    v.push((lang, made));
                    made
                }
            },
            Err(_) => made,
        }
    }
}

impl<T: Send + Sync + 'static> Default for PerLang<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tags_in_canonical_case() {
        for (tag, want) in [
            ("da", "da"),
            ("EN", "en"),
            ("nb-no", "nb-NO"),
            ("sv-SE", "sv-SE"),
            ("sr-latn-rs", "sr-Latn-RS"),
            ("yue-hk", "yue-HK"),
            ("es-419", "es-419"),
            ("de-CH-1996", "de-CH-1996"),
            ("sl-rozaj-biske", "sl-biske-rozaj"),
            ("en-b-xyz-a-abc", "en-a-abc-b-xyz"),
            ("en-US-u-nu-latn-ca-gregory", "en-US-u-ca-gregory-nu-latn"),
            ("X-Private-Use", "x-private-use"),
            ("en-US-u-ca-gregory", "en-US-u-ca-gregory"),
            ("da-x-dbf", "da-x-dbf"),
            ("x-whatever", "x-whatever"),
            ("i-klingon", "i-klingon"),
            ("EN-gb-OED", "en-GB-oed"),
            ("tlh", "tlh"),
        ] {
            assert_eq!(canonical(tag).as_deref(), Ok(want), "{tag}");
        }
    }

    #[test]
    fn malformed_tags_say_why() {
        for (tag, says) in [
            ("", "empty"),
            ("sv_SE", "not `_`"),
            ("e", "starts with `e`"),
            ("123", "starts with `123`"),
            ("da-", "empty subtag"),
            ("da--DK", "empty subtag"),
            ("en-ab1", "not a script, region"),
            ("de-DE-1901-1901", "variant `1901` twice"),
            ("en-a-bbb-a-ccc", "extension `a` twice"),
            ("en-a", "extension `a` has no subtags"),
            ("en-x", "private-use part"),
            ("danishlanguage", "longer than 8"),
            ("da-DK-DK", "not a script, region"),
            ("dansk!", "character `!`"),
            ("zh-yue-HK", "the subtag `yue`"),
            ("de-1996-CH", "the subtag `CH`"),
            ("en-Latn-Latn", "the subtag `Latn`"),
            ("abcd", "starts with `abcd`"),
            ("en-a-b", "extension `a` has no subtags"),
        ] {
            let e = canonical(tag).expect_err(tag);
            assert!(e.message.contains(says), "{tag}: {}", e.message);
        }
    }

    #[test]
    fn lookup_falls_back_to_shorter_tags_then_english() {
        let codes = |t: &str| Lang::parse(t).map(|l| l.fallbacks().iter().map(|l| l.code()).collect::<Vec<_>>());
        assert_eq!(codes("nb-NO"), Some(vec!["nb-NO", "nb", "en"]));
        assert_eq!(codes("sr-Latn-RS"), Some(vec!["sr-Latn-RS", "sr-Latn", "sr", "en"]));
        assert_eq!(codes("da-x-dbf"), Some(vec!["da-x-dbf", "da", "en"]));
        assert_eq!(codes("en-US-u-ca-gregory"), Some(vec!["en-US-u-ca-gregory", "en-US-u-ca", "en-US", "en"]));
        assert_eq!(codes("en"), Some(vec!["en"]));
        assert_eq!(Lang::parse("DA"), Some(Lang::Da));
    }

    proptest::proptest! {
        /// Any text of subtag-like pieces: an answer, never a panic; a canonical tag is its
        /// own canonical form, and the case it was written in does not matter.
        #[test]
        fn canonical_is_total_idempotent_and_caseless(s in "[a-zA-Z0-9_-]{0,4}(-[a-zA-Z0-9]{1,9}){0,6}") {
            if let Ok(c) = canonical(&s) {
                proptest::prop_assert_eq!(canonical(&c), Ok(c.clone()));
                proptest::prop_assert_eq!(canonical(&s.to_ascii_uppercase()), Ok(c.clone()));
            } else {
                proptest::prop_assert!(canonical(&s.to_ascii_lowercase()).is_err());
            }
        }
    }

    #[test]
    fn readers() {
        assert!(reads("da-DK", "da"));
        assert!(reads("da", "DA"));
        assert!(!reads("da", "da-DK"));
        assert!(!reads("nb", "no"));
        assert!(!reads("dan", "da"));
    }
}
