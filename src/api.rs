//! The library facade for programs that embed `conditions` (an entry form, a scoring
//! program, a web service): load a rulebook once, read facts from JSON or any
//! [`serde::Serialize`] value, rule, and explain — without the internals' types.
//!
//! It owns no logic of its own: loading is `loader`, reading facts is
//! `facts`, ruling is `eval` and explaining is `explain`.
//!
//! ```
//! use conditions::api::{Format, Rulebook, Status};
//!
//! let gnt = Rulebook::bundled("gnt")?;
//! let flights = gnt.ruling("flights")?;
//! let facts = gnt.facts(&serde_json::json!({
//!     "player": { "masterpoints": 2150, "life_master": true }
//! }))?;
//! let outcome = flights.rule(&facts)?;
//! assert_eq!(outcome.status(), Status::Decided);
//! assert_eq!(outcome.answer().unwrap().to_string(), "Championship Flight, Flight A");
//! assert!(outcome.explain(gnt.language(), Format::Text).contains("Stage 1 D"));
//! # Ok::<(), conditions::api::Error>(())
//! ```
#![warn(missing_docs)]

mod error;

pub use crate::explain::html::{Page, STYLE as HTML_STYLE};
pub use crate::show::Lang;
pub use error::{Error, ErrorKind, Problem};

use crate::check::Checked;
use crate::check::program::DefId;
use crate::diagnostic::Diagnostic;
use crate::eval::interp::Inputs;
use crate::explain::{Explainer, Report};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A checked rulebook, ready to rule. Cheap to clone and shared between threads.
#[derive(Clone)]
pub struct Rulebook {
    book: Arc<Checked>,
}

impl fmt::Debug for Rulebook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rulebook").field("name", &self.name()).finish()
    }
}

impl Rulebook {
    /// Loads and checks the rulebook in a folder of `.cond` files (or one `.cond` file).
    ///
    /// ```
    /// let dbf = conditions::api::Rulebook::load(concat!(env!("CARGO_MANIFEST_DIR"), "/conditions/dbf"))?;
    /// assert_eq!(dbf.name(), "dbf");
    /// # Ok::<(), conditions::api::Error>(())
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Rulebook, Error> {
        let path = path.as_ref();
        if !path.exists() {
            let shown = path.display().to_string();
            return Err(Error::bare(
                ErrorKind::Load,
                Diagnostic::error("conditions::io", format!("no such file or folder `{shown}`"))
                    .in_path(shown)
                    .help("give the folder of a rulebook, or a `.cond` file"),
            ));
        }
        Self::from_loader(&path.to_string_lossy())
    }

    /// One of the rulebooks bundled into the library (`gnt`, `dbf`).
    ///
    /// ```
    /// let err = conditions::api::Rulebook::bundled("gtn").unwrap_err();
    /// assert_eq!(err.kind(), conditions::api::ErrorKind::Load);
    /// ```
    pub fn bundled(name: &str) -> Result<Rulebook, Error> {
        if !crate::loader::bundled_names().contains(&name) {
            let names = crate::loader::bundled_names();
            return Err(Error::bare(
                ErrorKind::Load,
                Diagnostic::error("conditions::no_such_rulebook", format!("no bundled rulebook `{name}`")).help(
                    crate::diagnostic::did_you_mean(name, names.iter().copied())
                        .unwrap_or_else(|| format!("bundled rulebooks: {}", names.join(", "))),
                ),
            ));
        }
        Self::from_loader(name)
    }

    /// A rulebook already loaded and checked (the server's reloads).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub(crate) fn from_checked(book: Checked) -> Rulebook {
        Rulebook { book: Arc::new(book) }
    }

    /// The checked rulebook, for the crate's own front ends (discovery, the server).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub(crate) fn checked(&self) -> &Checked {
        &self.book
    }

    /// The names of the bundled rulebooks.
    pub fn bundled_names() -> Vec<&'static str> {
        crate::loader::bundled_names()
    }

    fn from_loader(spec: &str) -> Result<Rulebook, Error> {
        match crate::loader::load(spec) {
            Ok(book) => Ok(Rulebook { book: Arc::new(book) }),
            Err(e) => Err(Error::new(ErrorKind::Load, &e.diagnostics, &e.sources)),
        }
    }

    /// The rulebook's short name (`gnt`).
    pub fn name(&self) -> &str {
        &self.book.program.rulebook.name
    }

    /// The rulebook's title, as printed.
    pub fn title(&self) -> &str {
        &self.book.program.rulebook.title
    }

    /// The language the rulebook is written in (English when it names another).
    pub fn language(&self) -> Lang {
        Lang::parse(&self.book.program.rulebook.language).unwrap_or(Lang::En)
    }

    /// The names of its rulings, in the rulebook's order.
    pub fn rulings(&self) -> Vec<&str> {
        self.book.program.rulings().map(|(_, d)| d.name.as_str()).collect()
    }

    /// The ruling of that name; an unknown name is an error naming the nearest.
    ///
    /// ```
    /// let gnt = conditions::api::Rulebook::bundled("gnt")?;
    /// let err = gnt.ruling("flight").unwrap_err();
    /// assert!(err.to_string().contains("no ruling `flight`"));
    /// # Ok::<(), conditions::api::Error>(())
    /// ```
    pub fn ruling(&self, name: &str) -> Result<Ruling, Error> {
        let p = &self.book.program;
        match p.def_by_name(name).filter(|d| p.defs[*d as usize].is_ruling()) {
            Some(def) => Ok(Ruling { book: self.clone(), def }),
            None => Err(Error::bare(
                ErrorKind::UnknownRuling,
                Diagnostic::error("conditions::unknown_ruling", format!("no ruling `{name}` in `{}`", self.name()))
                    .maybe_help(
                        p.renamed(name, None).or_else(|| crate::diagnostic::did_you_mean(name, self.rulings())),
                    ),
            )),
        }
    }

    /// Reads facts given as JSON data, checked against the declared facts, decisions and
    /// draws. A fact given as `null`, or a record field left out, is not yet known: a
    /// ruling that needs it is undetermined and says so.
    pub fn facts_from_json(&self, tree: &serde_json::Value) -> Result<Facts, Error> {
        self.read_facts(tree, false)
    }

    /// As [`Rulebook::facts_from_json`], but a record field left out is an error (machine feeds).
    pub fn facts_from_json_strict(&self, tree: &serde_json::Value) -> Result<Facts, Error> {
        self.read_facts(tree, true)
    }

    /// Reads facts from JSON text (a request's body, a line of a feed) straight into
    /// values, without a JSON tree in between: the same checks and messages as
    /// [`Rulebook::facts_from_json`]; text that is not JSON, or gives a key twice, is an
    /// [`ErrorKind::Syntax`] error.
    ///
    /// ```
    /// let gnt = conditions::api::Rulebook::bundled("gnt")?;
    /// let facts = gnt.facts_from_json_str(r#"{"player": {"masterpoints": 2150, "life_master": true}}"#)?;
    /// let outcome = gnt.ruling("flights")?.rule(&facts)?;
    /// assert_eq!(outcome.answer().unwrap().to_json(), serde_json::json!(["Championship", "A"]));
    /// let bad = gnt.facts_from_json_str(r#"{"player": "#).unwrap_err();
    /// assert_eq!(bad.kind(), conditions::api::ErrorKind::Syntax);
    /// # Ok::<(), conditions::api::Error>(())
    /// ```
    pub fn facts_from_json_str(&self, text: &str) -> Result<Facts, Error> {
        self.read_facts_str(text, false)
    }

    /// As [`Rulebook::facts_from_json_str`], but a record field left out is an error.
    pub fn facts_from_json_str_strict(&self, text: &str) -> Result<Facts, Error> {
        self.read_facts_str(text, true)
    }

    fn read_facts_str(&self, text: &str, strict: bool) -> Result<Facts, Error> {
        let p = &self.book.program;
        let mut inputs = Inputs::empty(p);
        match crate::facts::read_json_into(p, text, "facts", !strict, &mut inputs, &mut Vec::new()) {
            Ok(Ok(())) => Ok(Facts { book: self.clone(), inputs }),
            Ok(Err(diags)) => Err(Error::new(ErrorKind::Facts, &diags, &self.book.sources)),
            Err(e) => Err(Error::bare(
                ErrorKind::Syntax,
                Diagnostic::error("conditions::facts_syntax", format!("the facts are not valid JSON: {e}"))
                    .help("give one JSON object of facts, as a facts file writes them"),
            )),
        }
    }

    /// Reads facts from any serialisable value: a `serde_json::Value`, a map, or the
    /// embedder's own structs. A number is read through `serde_json::Number`'s own text:
    /// exact for a whole number and under serde_json's `arbitrary_precision`; an `f64`
    /// is read as its shortest decimal (`0.1` is 1/10), so a decimal with more digits
    /// than an `f64` holds is exact only when given as a string (`"4999.99999999999999"`)
    /// or as JSON text ([`Rulebook::facts_from_json_str`]).
    pub fn facts<T: serde::Serialize + ?Sized>(&self, facts: &T) -> Result<Facts, Error> {
        let tree = serde_json::to_value(facts).map_err(|e| {
            Error::bare(
                ErrorKind::Facts,
                Diagnostic::error("conditions::facts_serialize", format!("cannot read the facts: {e}")),
            )
        })?;
        self.facts_from_json(&tree)
    }

    /// A builder of facts, fact by fact.
    ///
    /// ```
    /// let gnt = conditions::api::Rulebook::bundled("gnt")?;
    /// let facts = gnt.facts_builder().set("player.masterpoints", 1200).set("player.life_master", false).build()?;
    /// let outcome = gnt.ruling("flights")?.rule(&facts)?;
    /// assert_eq!(outcome.answer().unwrap().to_json(), serde_json::json!(["Championship", "A", "B"]));
    /// # Ok::<(), conditions::api::Error>(())
    /// ```
    pub fn facts_builder(&self) -> FactsBuilder<'_> {
        FactsBuilder { book: self, tree: serde_json::Map::new(), error: None }
    }

    fn read_facts(&self, tree: &serde_json::Value, strict: bool) -> Result<Facts, Error> {
        let p = &self.book.program;
        let read = if strict {
            crate::facts::validate(p, tree, "facts")
        } else {
            crate::facts::validate_open(p, tree, "facts")
        };
        match read {
            Ok(inputs) => Ok(Facts { book: self.clone(), inputs }),
            Err(diags) => Err(Error::new(ErrorKind::Facts, &diags, &self.book.sources)),
        }
    }
}

/// Facts read for one rulebook, to rule on as many times as needed.
#[derive(Clone)]
pub struct Facts {
    book: Rulebook,
    inputs: Inputs,
}

impl Facts {
    /// The inputs read, for the crate's own front ends.
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub(crate) fn inputs(&self) -> &Inputs {
        &self.inputs
    }
}

impl fmt::Debug for Facts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Facts").field("rulebook", &self.book.name()).finish_non_exhaustive()
    }
}

/// Builds facts one by one, by their dotted names (`player.masterpoints`); see
/// [`Rulebook::facts_builder`].
#[derive(Debug)]
pub struct FactsBuilder<'a> {
    book: &'a Rulebook,
    tree: serde_json::Map<String, serde_json::Value>,
    error: Option<Error>,
}

impl FactsBuilder<'_> {
    /// Sets a fact, a record field (`player.masterpoints`), a decision or a draw.
    pub fn set(mut self, name: &str, value: impl serde::Serialize) -> Self {
        match serde_json::to_value(value) {
            Ok(v) => insert(&mut self.tree, name, v),
            Err(e) => {
                self.error.get_or_insert(Error::bare(
                    ErrorKind::Facts,
                    Diagnostic::error("conditions::facts_serialize", format!("cannot read the value of `{name}`: {e}"))
                        .in_path(name.to_string()),
                ));
            }
        }
        self
    }

    /// The facts, checked as [`Rulebook::facts_from_json`] checks them.
    pub fn build(self) -> Result<Facts, Error> {
        match self.error {
            Some(e) => Err(e),
            None => self.book.facts_from_json(&serde_json::Value::Object(self.tree)),
        }
    }
}

/// Sets `a.b.c` in a JSON object, making the objects on the way.
fn insert(tree: &mut serde_json::Map<String, serde_json::Value>, name: &str, value: serde_json::Value) {
    match name.split_once('.') {
        None => {
            tree.insert(name.to_string(), value);
        }
        Some((head, rest)) => {
            let slot = tree.entry(head.to_string()).or_insert_with(|| serde_json::Value::Object(Default::default()));
            if !slot.is_object() {
                *slot = serde_json::Value::Object(Default::default());
            }
            if let serde_json::Value::Object(m) = slot {
                insert(m, rest, value);
            }
        }
    }
}

/// One ruling of a rulebook (`flights`), to apply to facts. Cheap to clone, shared
/// between threads.
#[derive(Clone)]
pub struct Ruling {
    book: Rulebook,
    def: DefId,
}

impl fmt::Debug for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ruling").field("rulebook", &self.book.name()).field("name", &self.name()).finish()
    }
}

impl Ruling {
    /// Its name in the rulebook.
    pub fn name(&self) -> &str {
        &self.book.book.program.defs[self.def as usize].name
    }

    /// The question it answers, as the rulebook words it.
    pub fn question(&self) -> Option<&str> {
        self.book.book.program.defs[self.def as usize].doc.as_deref()
    }

    /// The definition ruled on, for the crate's own front ends.
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub(crate) fn def(&self) -> DefId {
        self.def
    }

    /// Rules on the facts. Facts read for another rulebook are an error.
    pub fn rule<'f>(&self, facts: &'f Facts) -> Result<Outcome<'f>, Error> {
        if !Arc::ptr_eq(&self.book.book, &facts.book.book) {
            return Err(Error::bare(
                ErrorKind::OtherRulebook,
                Diagnostic::error(
                    "conditions::other_rulebook",
                    format!("the facts were read for `{}`, not for `{}`", facts.book.name(), self.book.name()),
                )
                .help("read the facts with the rulebook of the ruling"),
            ));
        }
        let p = &facts.book.book.program;
        // Decided by the compiled evaluator; the derivation is traced only if explained.
        let ruling = match crate::eval::fast::rule_here(p, &facts.inputs, self.def) {
            // Only a ruling that waits for inputs can be settled further.
            r @ crate::eval::Ruling { outcome: crate::eval::Outcome::Undetermined(_), .. } => {
                crate::eval::needed::refine(p, &facts.inputs, r)
            }
            r => r,
        };
        Ok(Outcome { facts, ruling, traced: std::sync::OnceLock::new() })
    }
}

/// Whether a ruling was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The answer is known.
    Decided,
    /// It waits for facts, decisions or draws not yet given ([`Outcome::needs`]).
    Undetermined,
    /// The conditions do not decide it: no rule applies to these facts.
    Silent,
    /// The rulebook cannot rule: rules conflict, or a table has a gap.
    Error,
}

/// How [`Outcome::explain`] renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Terminal text, as `conditions rule` prints it.
    Text,
    /// Markdown.
    Markdown,
    /// A self-contained HTML page.
    Html,
    /// The stable JSON format of `docs/json.md`, pretty-printed.
    Json,
}

/// A ruling on some facts: its status, answer, what it still needs, and its explanation.
pub struct Outcome<'f> {
    facts: &'f Facts,
    ruling: crate::eval::Ruling,
    /// The same ruling with its derivation, made when first explained (boxed: an outcome
    /// that is never explained stays small to build and to move).
    traced: std::sync::OnceLock<Box<crate::eval::Ruling>>,
}

impl fmt::Debug for Outcome<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outcome").field("status", &self.status()).field("answer", &self.answer()).finish()
    }
}

impl<'f> Outcome<'f> {
    fn explainer(&self, lang: Lang) -> Explainer<'f> {
        let book = &self.facts.book.book;
        Explainer { p: &book.program, sources: &book.sources, lang, inputs: &self.facts.inputs }
    }

    fn report(&self, lang: Lang, full: bool) -> Report {
        let traced = self.traced.get_or_init(|| {
            let (p, inputs) = (&self.facts.book.book.program, &self.facts.inputs);
            Box::new(crate::eval::needed::refine(p, inputs, crate::eval::rule(p, inputs, self.ruling.def, true)))
        });
        self.explainer(lang).report(traced, full)
    }

    /// Whether a ruling was made.
    pub fn status(&self) -> Status {
        use crate::eval::Outcome as O;
        match &self.ruling.outcome {
            O::Decided(_) => Status::Decided,
            O::Undetermined(_) => Status::Undetermined,
            O::Silent(_) => Status::Silent,
            O::Error(_) => Status::Error,
        }
    }

    /// The answer, when decided.
    pub fn answer(&self) -> Option<Answer<'_>> {
        match &self.ruling.outcome {
            crate::eval::Outcome::Decided(value) => Some(Answer { outcome: self, value }),
            _ => None,
        }
    }

    /// What the ruling still waits for, when undetermined, in the rulebook's language.
    pub fn needs(&self) -> Vec<Need> {
        self.needs_in(self.facts.book.language())
    }

    /// As [`Outcome::needs`], with the sentences in `lang`.
    pub fn needs_in(&self, lang: Lang) -> Vec<Need> {
        let Some(needs) = (match &self.ruling.outcome {
            crate::eval::Outcome::Undetermined(ns) => Some(ns),
            _ => None,
        }) else {
            return Vec::new();
        };
        let ex = self.explainer(lang);
        needs
            .iter()
            .map(|n| {
                let v = ex.need(n);
                Need { kind: v.kind, name: v.name, who: v.who, citation: v.citation, sentence: v.sentence }
            })
            .collect()
    }

    /// The ruling as the stable JSON report of `docs/json.md`, in the rulebook's language.
    ///
    /// As a `serde_json::Value`, its objects' keys are in the report's order when the
    /// program's serde_json has its `preserve_order` feature, and sorted by name otherwise
    /// (this crate leaves serde_json's features to the program); the same report as text,
    /// [`Outcome::explain`] with [`Format::Json`], is always in the order of `docs/json.md`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report(self.facts.book.language(), false)).unwrap_or_default()
    }

    /// The brief explanation: the answer, why, the facts used and the clauses cited,
    /// with the frame in `lang` (clauses are quoted as written, glossed when `lang` is
    /// not the rulebook's language).
    pub fn explain(&self, lang: Lang, format: Format) -> String {
        self.render(lang, format, false)
    }

    /// As [`Outcome::explain`], keeping every repeated sub-step.
    pub fn explain_full(&self, lang: Lang, format: Format) -> String {
        self.render(lang, format, true)
    }

    /// The JSON report of `docs/json.md` as text, compact or indented, for the server.
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub(crate) fn json_text(&self, lang: Lang, full: bool, pretty: bool) -> String {
        let r = self.report(lang, full);
        if pretty { serde_json::to_string_pretty(&r) } else { serde_json::to_string(&r) }.unwrap_or_default()
    }

    fn render(&self, lang: Lang, format: Format, full: bool) -> String {
        if format == Format::Text && !full && !matches!(self.ruling.outcome, crate::eval::Outcome::Undetermined(_)) {
            // The brief text written straight from a trace kept for it (the same bytes as the
            // report's text: `tests/brief_text.rs`); only an undetermined ruling is settled
            // further by the search for what it needs, which the report path does.
            let (p, inputs) = (&self.facts.book.book.program, &self.facts.inputs);
            return self.explainer(lang).brief_text(&crate::eval::rule_for_brief(p, inputs, self.ruling.def));
        }
        let r = self.report(lang, full);
        match format {
            Format::Text => crate::explain::text::render(&r, full),
            Format::Markdown => crate::explain::markdown::render(&r, full),
            Format::Html => crate::explain::html::render(&r, full),
            Format::Json => serde_json::to_string_pretty(&r).unwrap_or_default(),
        }
    }
}

/// Any number of rulings as one self-contained HTML5 page for a player, in `lang`: a
/// header from `page` (event, date, director), a contents list when there are two or
/// more, then for each ruling the answer, the working, the facts used and the clauses
/// quoted with their glosses, with the full derivation behind a toggle. Every id on the
/// page is unique and every value escaped; no scripts, no external assets.
///
/// ```
/// use conditions::api::{Lang, Page, Rulebook};
///
/// let gnt = Rulebook::bundled("gnt")?;
/// let facts = gnt.facts(&serde_json::json!({ "player": { "masterpoints": 2150, "life_master": true } }))?;
/// let flights = gnt.ruling("flights")?.rule(&facts)?;
/// let page = Page::with_header(Some("Spring regional".into()), Some("1 December 2026".into()), None);
/// let html = conditions::api::html_page(&[flights], Lang::En, &page);
/// assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Spring regional"));
/// # Ok::<(), conditions::api::Error>(())
/// ```
pub fn html_page(outcomes: &[Outcome<'_>], lang: Lang, page: &Page) -> String {
    crate::explain::html::document(&reports(outcomes, lang, page.full_open), page)
}

/// As [`html_page`], but a fragment (`<div class="conditions">…</div>`) to put inside the
/// embedder's own page; style it with [`HTML_STYLE`], and give each fragment on one page
/// its own [`Page::id_prefix`].
pub fn html_fragment(outcomes: &[Outcome<'_>], lang: Lang, page: &Page) -> String {
    crate::explain::html::fragment(&reports(outcomes, lang, page.full_open), page)
}

/// One ruling for a page that shows its answer itself (the server's ruling page): the
/// answer as a person reads it in `lang` (a record or list labelled, as the explanation
/// says it), and the explanation without its title and answer, and without what it still
/// needs unless `needs` (the page asks for it in a form).
#[cfg(feature = "serve")]
pub(crate) fn html_answer_and_explanation(
    outcome: &Outcome<'_>,
    lang: Lang,
    page: &Page,
    needs: bool,
) -> (String, String) {
    let r = outcome.report(lang, page.full_open);
    (crate::explain::html::answer(&r), crate::explain::html::fragment_within(&r, page, needs))
}

fn reports(outcomes: &[Outcome<'_>], lang: Lang, full: bool) -> Vec<Report> {
    outcomes.iter().map(|o| o.report(lang, full)).collect()
}

/// A decided answer: shown to a person with [`fmt::Display`] (in the rulebook's
/// language) or [`Answer::show`], or as data with [`Answer::to_json`].
pub struct Answer<'a> {
    outcome: &'a Outcome<'a>,
    value: &'a crate::base::value::Value,
}

impl Answer<'_> {
    fn ty(&self) -> &crate::check::types::Type {
        let p = &self.outcome.facts.book.book.program;
        &p.defs[self.outcome.ruling.def as usize].ty
    }

    /// The answer as a person reads it in `lang` (`2.150`, `ja` in Danish).
    pub fn show(&self, lang: Lang) -> String {
        crate::show::value(&self.outcome.facts.book.book.program, self.value, self.ty(), lang)
    }

    /// The answer as data: exact numbers as strings (`"40/3"`, `"3.75"`), enums by name.
    ///
    /// A record's fields come as a `serde_json` object: in their declared order when the
    /// program's serde_json has its `preserve_order` feature, sorted by name otherwise
    /// (this crate leaves serde_json's features to the program). [`fmt::Debug`] and the
    /// JSON report ([`Format::Json`]) always write them in their declared order.
    pub fn to_json(&self) -> serde_json::Value {
        self.ordered().to_value()
    }

    fn ordered(&self) -> crate::json::Json {
        crate::explain::to_json(&self.outcome.facts.book.book.program, self.value, self.ty())
    }
}

impl fmt::Display for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.show(self.outcome.facts.book.language()))
    }
}

impl fmt::Debug for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Answer({})", self.ordered())
    }
}

/// Something an undetermined ruling waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    /// `fact`, `field`, `decision` or `lot`.
    pub kind: &'static str,
    /// Its name in the facts (`player.masterpoints`).
    pub name: String,
    /// Who decides or draws, for a decision or a lot.
    pub who: Option<String>,
    /// The clause that asks for it.
    pub citation: Option<String>,
    /// One sentence for a person.
    pub sentence: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_sync<T: Send + Sync>() {}

    #[test]
    fn the_facade_is_send_and_sync() {
        send_sync::<Rulebook>();
        send_sync::<Ruling>();
        send_sync::<Facts>();
        send_sync::<Outcome<'static>>();
        send_sync::<Error>();
    }

    #[test]
    fn a_fact_of_the_wrong_type_is_an_error_naming_its_path() {
        let gnt = Rulebook::bundled("gnt").expect("bundled");
        let err = gnt.facts(&serde_json::json!({ "player": { "masterpoints": "many" } })).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Facts);
        assert!(err.problems()[0].path().is_some_and(|p| p.contains("player.masterpoints")), "{err:?}");
        assert!(miette::Diagnostic::code(&err).is_some());
    }

    #[test]
    fn the_brief_text_is_the_reports_text() {
        let gnt = Rulebook::bundled("gnt").expect("bundled");
        let flights = gnt.ruling("flights").expect("a ruling");
        for json in [
            serde_json::json!({ "player": { "name": "Robin", "masterpoints": 2150, "life_master": true } }),
            serde_json::json!({ "player": { "name": "Kim", "masterpoints": 120, "life_master": false } }),
            serde_json::json!({ "player": { "name": "Lee" } }),
        ] {
            let facts = gnt.facts(&json).expect("facts");
            let outcome = flights.rule(&facts).expect("rule");
            for lang in [Lang::En, Lang::Da] {
                let by_report = crate::explain::text::render(&outcome.report(lang, false), false);
                assert_eq!(outcome.explain(lang, Format::Text), by_report, "{json} in {lang:?}");
            }
        }
    }

    #[test]
    fn facts_of_another_rulebook_are_refused() {
        let gnt = Rulebook::bundled("gnt").expect("bundled");
        let other = Rulebook::bundled("gnt").expect("bundled");
        let facts = other.facts(&serde_json::json!({})).expect("empty facts");
        let err = gnt.ruling("flights").expect("a ruling").rule(&facts).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::OtherRulebook);
    }

    #[test]
    fn a_dotted_name_makes_the_records_on_the_way() {
        let mut m = serde_json::Map::new();
        insert(&mut m, "player.masterpoints", serde_json::json!(5));
        insert(&mut m, "player.life_master", serde_json::json!(true));
        assert_eq!(
            serde_json::Value::Object(m),
            serde_json::json!({ "player": { "masterpoints": 5, "life_master": true } })
        );
    }
}
