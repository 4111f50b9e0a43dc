//! The explanation's frame words, read from the per-language Project Fluent files
//! in `messages/` (embedded at build time: every file there is bundled), and the
//! choice of a language's message files. A new language is a new set of files
//! (`<tag>.ftl`, `page.<tag>.ftl`, `ask.<tag>.toml`, `serve.<tag>.toml`, a section of
//! `units.toml`); no frame word lives in Rust. A language without a file falls back by
//! lookup (`nb-NO` → `nb` → English), and [`warnings`] says so.

use super::lang::{Lang, PerLang};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::collections::HashMap;
use std::sync::RwLock;

mod files {
    include!(concat!(env!("OUT_DIR"), "/messages.rs"));
}

/// The text of the bundled message file `name` (`da.ftl`, `ask.en.toml`).
pub fn file(name: &str) -> Option<&'static str> {
    files::FILES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, t)| *t)
}

/// The tags of the languages with an explanation frame (`messages/<tag>.ftl`).
pub fn frames() -> impl Iterator<Item = &'static str> {
    files::FILES.iter().filter_map(|(n, _)| n.strip_suffix(".ftl").filter(|t| !t.contains('.')))
}

/// The kinds of message file a language has, as (file name before the tag, after it, what it holds).
const KINDS: &[(&str, &str, &str)] = &[
    ("", ".ftl", "explanation"),
    ("page.", ".ftl", "HTML page"),
    ("ask.", ".toml", "`conditions ask`"),
    ("serve.", ".toml", "server page"),
];

/// The message file of a kind for `lang` by lookup (`nb-NO`, `nb`, then English), and
/// the language it is in; `None` only when even English has none.
pub fn lookup(lang: Lang, before: &str, after: &str) -> Option<(Lang, &'static str)> {
    lang.fallbacks().into_iter().find_map(|l| file(&format!("{before}{}{after}", l.code())).map(|t| (l, t)))
}

/// What falls back to English for `lang`, one line each: `no message file
/// `messages/ask.fi.toml` for `fi`: `conditions ask` speaks English`.
pub fn warnings(lang: Lang) -> Vec<String> {
    if lang.reads("en") {
        return Vec::new();
    }
    let primary = lang.fallbacks().into_iter().rev().nth(1).unwrap_or(lang);
    let mut out = Vec::new();
    for (before, after, what) in KINDS {
        if let Some((l, _)) = lookup(lang, before, after)
            && l == Lang::En
        {
            out.push(format!(
                "no message file `messages/{before}{}{after}` for the language `{}`: the {what} words are English",
                primary.code(),
                lang.code()
            ));
        }
    }
    if !super::units::has_style(lang) {
        out.push(format!(
            "no `[{}]` in `messages/units.toml`: values printed in `{}` are read back only in the other languages' styles",
            primary.code(),
            lang.code()
        ));
    }
    out
}

/// The Fluent source of a language's messages (English when it has none).
pub fn source(lang: Lang) -> &'static str {
    lookup(lang, "", ".ftl").map_or("", |(_, t)| t)
}

/// The Fluent source of a language's words on the HTML page (`page-…`).
pub fn page_source(lang: Lang) -> &'static str {
    lookup(lang, "page.", ".ftl").map_or("", |(_, t)| t)
}

type Bundle = FluentBundle<FluentResource>;

/// The language whose explanation file `lang` uses.
pub fn frame(lang: Lang) -> Lang {
    lookup(lang, "", ".ftl").map_or(Lang::En, |(l, _)| l)
}

fn bundle(lang: Lang) -> &'static Bundle {
    static BUNDLES: PerLang<Bundle> = PerLang::new();
    // Which file a language uses is looked up once.
    static FRAMES: PerLang<Lang> = PerLang::new();
    let lang = *FRAMES.get(lang, || frame(lang));
    BUNDLES.get(lang, || {
        // The locale chooses plural and ordinal forms; a tag the locale library does not
        // read (an extension) uses its language alone.
        let code = lang.code();
        let id: unic_langid::LanguageIdentifier =
            code.parse().or_else(|_| code.split('-').next().unwrap_or("en").parse()).unwrap_or_default();
        let mut b = FluentBundle::new_concurrent(vec![id]);
        b.set_use_isolating(false);
        // NUMBER() chooses ordinal forms in the files ("7th").
        let _ = b.add_builtins();
        // The files are checked by a test; a broken entry is left out rather than stopping a ruling.
        let res = FluentResource::try_new(source(lang).to_string()).unwrap_or_else(|(res, _)| res);
        let _ = b.add_resource(res);
        let page = FluentResource::try_new(page_source(lang).to_string()).unwrap_or_else(|(res, _)| res);
        let _ = b.add_resource(page);
        b
    })
}

/// An argument to a message: a text or a number (numbers choose plural forms).
#[derive(Clone)]
pub enum Arg<'a> {
    Text(&'a str),
    Num(i64),
}

/// The message `id` in `lang` with its arguments; in English when `lang`'s file lacks
/// it; the id itself if no file has it.
pub fn msg(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    if args.is_empty() {
        return word(lang, id);
    }
    format(lang, id, args, false)
}

type Pattern = fluent_syntax::ast::Pattern<&'static str>;

/// The pattern of message `id` in `lang`'s file, else in English (looked up once per
/// language and id, then kept: the bundles hash ids with a keyed hash, slower than needed
/// for the few dozen messages an explanation puts together).
fn pattern(lang: Lang, id: &str) -> Option<&'static Pattern> {
    thread_local! {
        static NEAR: Near<Option<&'static Pattern>, 32> = const { [const { std::cell::Cell::new((Lang::En, "", None)) }; 32] };
    }
    static PATTERNS: PerLang<RwLock<Kept<Option<&'static Pattern>>>> = PerLang::new();
    kept(&NEAR, &PATTERNS, lang, id, || {
        let found = |b: &'static Bundle| b.get_message(id).and_then(|m| m.value());
        found(bundle(lang)).or_else(|| found(bundle(Lang::En)))
    })
}

/// What was made for a message id in each language, with the id kept beside it.
type Kept<T> = HashMap<String, (&'static str, T), std::hash::BuildHasherDefault<IdHasher>>;

/// What was found last on a thread for the ids asked for there, by where the id is: its
/// language, the id and what was made for it.
type Near<T, const N: usize> = [std::cell::Cell<(Lang, &'static str, T)>; N];

/// What `make` gives for message `id` in `lang`, made once per language and id and kept
/// for the program's life in `table` (at most 4096 ids a language; the ids are those of the
/// message files, a bounded set). The ids asked for last on this thread are found in
/// `near` by where the id is (an id is asked for by a literal, at the same place each
/// time): without hashing it or taking a lock, checked by comparing it.
fn kept<T: Copy + Send + Sync + 'static, const N: usize>(
    near: &'static std::thread::LocalKey<Near<T, N>>,
    table: &'static PerLang<RwLock<Kept<T>>>,
    lang: Lang,
    id: &str,
    make: impl FnOnce() -> T,
) -> T {
    let slot = ((id.as_ptr() as usize / 8) ^ id.len()) % N;
    if let Ok(Some(v)) = near.try_with(|near| {
        let (l, i, v) = near[slot].get();
        (l == lang && i == id && !i.is_empty()).then_some(v)
    }) {
        return v;
    }
    let table = table.get(lang, || RwLock::new(HashMap::default()));
    let found = table.read().ok().and_then(|m| m.get(id).copied());
    let (i, v) = match found {
        Some(x) => x,
        None => {
            let Ok(mut m) = table.write() else { return make() };
            if m.len() >= 4096 && !m.contains_key(id) {
                return make();
            }
            *m.entry(id.to_string()).or_insert_with(|| (Box::leak(Box::from(id)), make()))
        }
    };
    let _ = near.try_with(|near| near[slot].set((lang, i, v)));
    v
}

/// [`msg`], appended to `out`.
pub fn msg_into(out: &mut String, lang: Lang, id: &str, args: &[(&str, Arg)]) {
    if args.is_empty() {
        return out.push_str(word_ref(lang, id));
    }
    if let Some(pattern) = pattern(lang, id) {
        let start = out.len();
        if plain_into(out, pattern, args, false).is_some() {
            return;
        }
        out.truncate(start);
    }
    out.push_str(&format(lang, id, args, false));
}

/// As [`msg`], each text argument `k` also given as a flag `has-k` (`yes` or `no`, whether
/// it is empty) for the message to select an optional part on.
pub fn msg_flagged(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    format(lang, id, args, true)
}

fn format(lang: Lang, id: &str, args: &[(&str, Arg)], flags: bool) -> String {
    let found = |b: &'static Bundle| b.get_message(id).and_then(|m| m.value()).map(|p| (b, p));
    let Some((b, pattern)) = found(bundle(lang)).or_else(|| found(bundle(Lang::En))) else { return id.to_string() };
    // Most messages are text with the arguments put in, or a choice on an argument's value:
    // put together directly.
    if let Some(s) = plain(pattern, args, flags) {
        return s;
    }
    // Else Fluent's, formatted once for the message's numbers and then kept as pieces of text
    // and texts put in, when no text argument chooses anything.
    if let Some(s) = shaped(lang, b, id, pattern, args, flags) {
        return s;
    }
    fluent(b, pattern, args, flags)
}

fn fluent(
    b: &'static Bundle,
    pattern: &fluent_syntax::ast::Pattern<&str>,
    args: &[(&str, Arg)],
    flags: bool,
) -> String {
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

/// A piece of a message formatted once ([`shaped`]): text, or text argument number `i`.
enum Piece {
    Text(Box<str>),
    Arg(usize),
}

/// A message as Fluent formats it for some numbers: what it was formatted for and its pieces.
struct Shape {
    id: Box<str>,
    flags: bool,
    /// Each argument's name and, for a number, its value, for a text, whether it is empty.
    args: Vec<(Box<str>, Result<i64, bool>)>,
    pieces: Vec<Piece>,
}

impl Shape {
    fn is(&self, id: &str, args: &[(&str, Arg)], flags: bool) -> bool {
        self.flags == flags
            && &*self.id == id
            && self.args.len() == args.len()
            && self.args.iter().zip(args).all(|((k, v), (name, a))| &**k == *name && *v == arg_key(a))
    }
}

fn arg_key(a: &Arg) -> Result<i64, bool> {
    match a {
        Arg::Num(n) => Ok(*n),
        Arg::Text(t) => Err(t.is_empty()),
    }
}

/// Private-use characters that stand for the text arguments while Fluent formats a shape.
const STAND_IN: u32 = 0xf_0000;

/// [`fluent`] of a message whose text arguments are only put in as they stand (none is a
/// selector or a function's argument, in it or in a message it refers to): Fluent formats
/// it once for the numbers given (and which texts are empty), with a stand-in for each text,
/// and what it wrote is kept as pieces for the next time (a few shapes per message: the
/// places of a ranking, counts).
fn shaped(
    lang: Lang,
    b: &'static Bundle,
    id: &str,
    pattern: &fluent_syntax::ast::Pattern<&str>,
    args: &[(&str, Arg)],
    flags: bool,
) -> Option<String> {
    type Shapes = RwLock<HashMap<u64, Vec<Shape>, std::hash::BuildHasherDefault<IdHasher>>>;
    static SHAPES: PerLang<Shapes> = PerLang::new();
    let shapes = SHAPES.get(lang, || RwLock::new(HashMap::default()));
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = IdHasher::default();
        id.hash(&mut h);
        flags.hash(&mut h);
        for (k, a) in args {
            k.hash(&mut h);
            arg_key(a).hash(&mut h);
        }
        h.finish()
    };
    let put = |pieces: &[Piece]| {
        let mut out = String::with_capacity(64);
        for p in pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Arg(i) => {
                    if let (_, Arg::Text(t)) = &args[*i] {
                        out.push_str(t)
                    }
                }
            }
        }
        out
    };
    if let Some(s) = shapes
        .read()
        .ok()
        .and_then(|m| m.get(&key).and_then(|v| v.iter().find(|s| s.is(id, args, flags)).map(|s| put(&s.pieces))))
    {
        return Some(s);
    }
    let texts: Vec<&str> = args.iter().filter(|(_, a)| matches!(a, Arg::Text(_))).map(|(k, _)| *k).collect();
    if args.len() > 64 || chooses_on(b, pattern, &texts, 0) {
        return None;
    }
    let stand_ins: Vec<String> =
        (0..args.len()).map(|i| char::from_u32(STAND_IN + i as u32).map(String::from).unwrap_or_default()).collect();
    let standing: Vec<(&str, Arg)> = args
        .iter()
        .zip(&stand_ins)
        .map(|((k, a), s)| match a {
            Arg::Text(t) if !t.is_empty() => (*k, Arg::Text(s)),
            a => (*k, a.clone()),
        })
        .collect();
    let formatted = fluent(b, pattern, &standing, flags);
    let mut pieces = Vec::new();
    let mut text = String::new();
    for c in formatted.chars() {
        match (c as u32).checked_sub(STAND_IN) {
            Some(i) if (i as usize) < args.len() => {
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text).into_boxed_str()));
                }
                pieces.push(Piece::Arg(i as usize));
            }
            _ => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text.into_boxed_str()));
    }
    let out = put(&pieces);
    if let Ok(mut m) = shapes.write()
        && m.len() < 4096
    {
        m.entry(key).or_default().push(Shape {
            id: id.into(),
            flags,
            args: args.iter().map(|(k, a)| (Box::from(*k), arg_key(a))).collect(),
            pieces,
        });
    }
    Some(out)
}

/// Whether a text argument named in `texts` chooses anything in `pattern` (a selector, a
/// function's argument), or in a message it refers to; also when it is too deep to tell.
fn chooses_on(b: &'static Bundle, pattern: &fluent_syntax::ast::Pattern<&str>, texts: &[&str], depth: u32) -> bool {
    use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
    fn inline(b: &'static Bundle, e: &InlineExpression<&str>, texts: &[&str], depth: u32, choosing: bool) -> bool {
        match e {
            InlineExpression::VariableReference { id } => choosing && texts.contains(&id.name),
            InlineExpression::FunctionReference { arguments, .. } => {
                arguments.positional.iter().any(|a| inline(b, a, texts, depth, true))
                    || arguments.named.iter().any(|a| inline(b, &a.value, texts, depth, true))
            }
            InlineExpression::MessageReference { id, attribute: None } => {
                match b.get_message(id.name).and_then(|m| m.value()) {
                    Some(p) => depth > 4 || chooses_on(b, p, texts, depth + 1),
                    None => false,
                }
            }
            InlineExpression::MessageReference { .. } | InlineExpression::TermReference { .. } => true,
            InlineExpression::Placeable { expression } => expr(b, expression, texts, depth),
            _ => false,
        }
    }
    fn expr(b: &'static Bundle, e: &Expression<&str>, texts: &[&str], depth: u32) -> bool {
        match e {
            Expression::Inline(i) => inline(b, i, texts, depth, false),
            Expression::Select { selector, variants } => {
                inline(b, selector, texts, depth, true)
                    || variants.iter().any(|v| chooses_on(b, &v.value, texts, depth))
            }
        }
    }
    pattern.elements.iter().any(|e| match e {
        PatternElement::TextElement { .. } => false,
        PatternElement::Placeable { expression } => expr(b, expression, texts, depth),
    })
}

/// A pattern of text, arguments put in as they stand and selections on an argument by its
/// value, formatted as Fluent would (no isolation marks: the bundles are made without them);
/// `None` for anything else (functions, terms, plural categories, an argument not given),
/// which Fluent formats. With `flags`, `has-k` is `yes` or `no` as text argument `k` is given.
fn plain(pattern: &fluent_syntax::ast::Pattern<&str>, args: &[(&str, Arg)], flags: bool) -> Option<String> {
    let mut out = String::with_capacity(64);
    plain_into(&mut out, pattern, args, flags)?;
    Some(out)
}

/// The greatest whole number that `f64` holds exactly, as Fluent's numbers are.
const EXACT: u64 = 1 << 53;

fn plain_into(
    out: &mut String,
    pattern: &fluent_syntax::ast::Pattern<&str>,
    args: &[(&str, Arg)],
    flags: bool,
) -> Option<()> {
    use fluent_syntax::ast::{Expression, InlineExpression, PatternElement, VariantKey};
    for e in &pattern.elements {
        match e {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } => match arg(args, id.name, flags)? {
                Arg::Text(t) => out.push_str(t),
                // Fluent shows a number put in as it stands by its `f64`: a whole number
                // that `f64` holds exactly reads as its digits.
                Arg::Num(n) if n.unsigned_abs() < EXACT => {
                    let _ = std::fmt::Write::write_fmt(out, format_args!("{n}"));
                }
                Arg::Num(_) => return None,
            },
            PatternElement::Placeable {
                expression: Expression::Select { selector: InlineExpression::VariableReference { id }, variants },
            } => {
                // As Fluent picks: the first variant whose key matches, else the default.
                let default = || variants.iter().find(|v| v.default);
                let chosen = match arg(args, id.name, flags)? {
                    // A text matches a name alike; a number key never matches a text.
                    Arg::Text(t) => variants
                        .iter()
                        .find(|v| matches!(v.key, VariantKey::Identifier { name } if name == t))
                        .or_else(default),
                    // A number matches a number key of its value; a name (a plural category)
                    // needs the language's plural rules, which are Fluent's, unless it is the
                    // last variant and the default (taken whether or not it matches).
                    Arg::Num(n) if n.unsigned_abs() < EXACT => {
                        let mut chosen = None;
                        for (i, v) in variants.iter().enumerate() {
                            match v.key {
                                VariantKey::NumberLiteral { value } => {
                                    if value.parse::<i64>().ok()? == n {
                                        chosen = Some(v);
                                        break;
                                    }
                                }
                                VariantKey::Identifier { .. } if v.default && i + 1 == variants.len() => {
                                    chosen = Some(v);
                                    break;
                                }
                                VariantKey::Identifier { .. } => return None,
                            }
                        }
                        chosen.or_else(default)
                    }
                    Arg::Num(_) => return None,
                }?;
                plain_into(out, &chosen.value, args, flags)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// Argument `name`; with `flags`, `has-k` is whether text argument `k` is given (`yes`, `no`).
fn arg<'a>(args: &[(&str, Arg<'a>)], name: &str, flags: bool) -> Option<Arg<'a>> {
    if let Some((_, a)) = args.iter().find(|(k, _)| *k == name) {
        return Some(a.clone());
    }
    let k = name.strip_prefix("has-").filter(|_| flags)?;
    match args.iter().find(|(x, _)| *x == k)? {
        (_, Arg::Text(t)) => Some(Arg::Text(if t.is_empty() { "no" } else { "yes" })),
        (_, Arg::Num(_)) => None,
    }
}

/// The text before and after the one argument `arg` of message `id` (`DKK { $amount }`),
/// when the message is text around that argument and nothing else; `None` otherwise.
pub fn around(lang: Lang, id: &str, arg: &str) -> Option<(String, String)> {
    use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
    let found = |b: &'static Bundle| b.get_message(id).and_then(|m| m.value());
    let pattern = found(bundle(lang)).or_else(|| found(bundle(Lang::En)))?;
    let (mut before, mut after, mut seen) = (String::new(), String::new(), false);
    for e in &pattern.elements {
        match e {
            PatternElement::TextElement { value } => (if seen { &mut after } else { &mut before }).push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } if id.name == arg && !seen => seen = true,
            _ => return None,
        }
    }
    seen.then_some((before, after))
}

/// Whether `lang`'s own file has the message `id` (a form only some languages have).
pub fn has(lang: Lang, id: &str) -> bool {
    bundle(lang).get_message(id).and_then(|m| m.value()).is_some()
}

/// The message `id` without arguments (formatted once per language, then kept: a frame
/// word is asked for many times in every explanation).
pub fn word(lang: Lang, id: &str) -> String {
    word_ref(lang, id).to_string()
}

/// As [`word`], borrowed: each language's frame words are formatted once and kept for the
/// program's life (the ids are those of the message files, a bounded set).
pub fn word_ref(lang: Lang, id: &str) -> &'static str {
    thread_local! {
        static NEAR: Near<&'static str, 64> = const { [const { std::cell::Cell::new((Lang::En, "", "")) }; 64] };
    }
    static WORDS: PerLang<RwLock<Kept<&'static str>>> = PerLang::new();
    kept(&NEAR, &WORDS, lang, id, || Box::leak(format(lang, id, &[], false).into_boxed_str()))
}

/// A hasher for short message ids (FNV-1a): they come from the program, not from input.
#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
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
        let langs = Lang::framed();
        assert!(langs.len() >= 4, "{langs:?}");
        for lang in langs {
            for (before, after, _) in KINDS {
                let name = format!("{before}{}{after}", lang.code());
                assert!(file(&name).is_some(), "no `messages/{name}`");
            }
            assert!(warnings(lang).is_empty(), "{lang}: {:?}", warnings(lang));
            assert_eq!(ids(source(Lang::En)), ids(source(lang)), "{lang}.ftl");
            assert_eq!(ids(page_source(Lang::En)), ids(page_source(lang)), "page.{lang}.ftl");
        }
    }

    #[test]
    fn a_region_falls_back_to_its_language_and_an_unknown_language_to_english() {
        let nb_no = Lang::parse("nb-NO").unwrap();
        assert_eq!(lookup(nb_no, "", ".ftl").map(|(l, _)| l.code()), Some("nb"));
        assert_eq!(word(nb_no, "answer"), "Svar");
        assert!(warnings(nb_no).is_empty());
        let fi = Lang::parse("fi").unwrap();
        assert_eq!(word(fi, "answer"), "Answer");
        let w = warnings(fi);
        assert!(w.iter().any(|w| w.contains("`messages/fi.ftl`") && w.contains("English")), "{w:?}");
        assert!(w.iter().any(|w| w.contains("`messages/ask.fi.toml`")), "{w:?}");
        assert!(warnings(Lang::parse("en-GB").unwrap()).is_empty());
    }

    #[test]
    fn swedish_and_norwegian_forms() {
        let sv = Lang::parse("sv").unwrap();
        let nb = Lang::parse("nb").unwrap();
        let place = |lang, n| msg(lang, "place", &[("rank", Arg::Num(n))]);
        assert_eq!(
            [1, 2, 3, 11, 12, 21, 22, 101].map(|n| place(sv, n)),
            ["1:a", "2:a", "3:e", "11:e", "12:e", "21:a", "22:a", "101:a"]
        );
        assert_eq!(place(nb, 7), "7.");
        assert_eq!(msg(sv, "test-places", &[("n", Arg::Num(1))]), "1 plats");
        assert_eq!(msg(nb, "test-places", &[("n", Arg::Num(3))]), "3 plasser");
        assert_eq!(word(sv, "number-thousands"), "\u{a0}");
    }

    /// The variables a pattern reads, selectors included.
    fn variables<'s>(p: &fluent_syntax::ast::Pattern<&'s str>, out: &mut Vec<&'s str>) {
        use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
        for e in &p.elements {
            let PatternElement::Placeable { expression } = e else { continue };
            match expression {
                Expression::Inline(InlineExpression::VariableReference { id }) => out.push(id.name),
                Expression::Select { selector, variants } => {
                    if let InlineExpression::VariableReference { id } = selector {
                        out.push(id.name);
                    }
                    for v in variants {
                        variables(&v.value, out);
                    }
                }
                _ => {}
            }
        }
    }

    #[test]
    fn messages_put_together_directly_read_as_fluent_formats_them() {
        let mut checked = 0;
        let mut shapes = 0;
        for lang in Lang::framed() {
            let b = bundle(lang);
            for src in [source(lang), page_source(lang)] {
                let res = FluentResource::try_new(src.to_string()).unwrap_or_else(|(r, _)| r);
                for entry in res.entries() {
                    let fluent_syntax::ast::Entry::Message(m) = entry else { continue };
                    let Some(pattern) = b.get_message(m.id.name).and_then(|m| m.value()) else { continue };
                    let mut vars = Vec::new();
                    variables(pattern, &mut vars);
                    vars.sort();
                    vars.dedup();
                    let vars: Vec<&str> = vars.into_iter().filter(|v| !v.starts_with("has-")).collect();
                    let mut cases: Vec<Vec<Arg>> = vec![
                        vars.iter().map(|_| Arg::Text("a b")).collect(),
                        vars.iter().map(|_| Arg::Text("")).collect(),
                        vars.iter().map(|_| Arg::Text("other")).collect(),
                    ];
                    for i in 0..vars.len() {
                        for n in [0, 1, 2, 3, 5, 11, 21, 101, -1] {
                            cases.push(
                                vars.iter()
                                    .enumerate()
                                    .map(|(j, _)| if i == j { Arg::Num(n) } else { Arg::Text("x") })
                                    .collect(),
                            );
                        }
                    }
                    for case in cases {
                        let args: Vec<(&str, Arg)> = vars.iter().copied().zip(case).collect();
                        for flags in [false, true] {
                            let theirs = fluent(b, pattern, &args, flags);
                            for _ in 0..2 {
                                if let Some(kept) = shaped(lang, b, m.id.name, pattern, &args, flags) {
                                    assert_eq!(kept, theirs, "{lang} `{}` with {:?} as kept", m.id.name, vars);
                                    shapes += 1;
                                }
                            }
                            let Some(ours) = plain(pattern, &args, flags) else { continue };
                            let mut fa = FluentArgs::new();
                            for (k, v) in &args {
                                match v {
                                    Arg::Text(t) => {
                                        fa.set(*k, FluentValue::from(*t));
                                        if flags {
                                            fa.set(
                                                format!("has-{k}"),
                                                FluentValue::from(if t.is_empty() { "no" } else { "yes" }),
                                            );
                                        }
                                    }
                                    Arg::Num(n) => fa.set(*k, FluentValue::from(*n)),
                                }
                            }
                            let mut errors = Vec::new();
                            let theirs = b.format_pattern(pattern, Some(&fa), &mut errors);
                            assert_eq!(ours, theirs, "{lang} `{}` with {:?}", m.id.name, vars);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(shapes > 1000, "{shapes}");
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
