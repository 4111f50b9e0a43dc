//! The rulebooks a server holds: each loaded once, with what its pages read of it
//! worked out once (which rulings read each fact and decision), shared by every
//! request, and replaced whole when a watched folder changes. A folder that does not
//! check is held as its diagnostics (file, line, message), shown instead of stale
//! rulings.
//!
//! Every state carries its [`Version`]: a short hash of the condition files it was
//! read from and when it was loaded. A reload ([`Shelf::reload`]) takes a folder's
//! files only once they read the same across [`super::watch::SETTLE`], all of them
//! together; a state that checks but has warnings the version served did not have
//! (a file written in parts, paused at a clause boundary, say) is held back, named in
//! the served version, and the version served stays.

use crate::api::Rulebook;
use crate::check::program::DefId;
use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{SystemTime, UNIX_EPOCH};

/// Where a rulebook comes from: bundled, or a folder given on the command line (never
/// from a request).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Bundled(String),
    Folder(PathBuf),
}

impl Source {
    /// A path when it exists, else the name of a bundled rulebook.
    pub fn parse(spec: &str) -> Source {
        if crate::loader::names_a_path(spec) {
            Source::Folder(PathBuf::from(spec))
        } else {
            Source::Bundled(spec.to_string())
        }
    }

    /// Every bundled rulebook.
    pub fn bundled() -> Vec<Source> {
        Rulebook::bundled_names().into_iter().map(|n| Source::Bundled(n.to_string())).collect()
    }
}

/// One problem of a rulebook that does not check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diag {
    pub file: Option<String>,
    pub line: Option<usize>,
    pub message: String,
    pub help: Option<String>,
}

impl Diag {
    /// A diagnostic of the checker, its place read in the files checked.
    fn of(d: &Diagnostic, sources: &SourceMap) -> Diag {
        let label = d.labels.first();
        Diag {
            file: label.and_then(|l| sources.get(l.span.file)).map(|f| f.name.clone()).or(d.path.clone()),
            line: label.map(|l| sources.line_col(l.span).0),
            message: d.message.clone(),
            help: d.help.clone(),
        }
    }
}

/// Which version of a rulebook is served.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Version {
    /// A short hash of the condition files read: their names and contents.
    pub hash: String,
    /// When the server loaded them: UTC, `2026-05-01T12:00:00Z`.
    pub loaded: String,
    /// A newer state of the folder that is not served, and why.
    pub held_back: Option<HeldBack>,
}

/// A state of a watched folder that checks, but with warnings the version served does
/// not have: not served.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeldBack {
    /// The hash of its files, as [`Version::hash`].
    pub hash: String,
    /// When it was read.
    pub seen: String,
    /// The warnings it has that the version served does not.
    pub problems: Vec<Diag>,
}

impl Version {
    fn new(sources: &SourceMap) -> Version {
        Version { hash: hash(sources), loaded: utc(SystemTime::now()), held_back: None }
    }
}

/// A short hash (FNV-1a, 64 bits, in 12 hex digits) of condition files: each file's
/// name (without its folder) and text, in the order read (by name).
pub fn hash(sources: &SourceMap) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (_, f) in sources.files() {
        let name = Path::new(&f.name).file_name().map_or(f.name.as_str(), |n| n.to_str().unwrap_or(&f.name));
        eat(&(name.len() as u64).to_le_bytes());
        eat(name.as_bytes());
        eat(&(f.text.len() as u64).to_le_bytes());
        eat(f.text.as_bytes());
    }
    format!("{:012x}", h >> 16)
}

/// A time as UTC in RFC 3339 (`2026-05-01T12:00:00Z`), to the second.
pub fn utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let date = i64::try_from(days).ok().and_then(crate::base::date::Date::from_days);
    let (year, month, day) = date.map_or((1970, 1, 1), crate::base::date::Date::ymd);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// A rulebook that does not check: its diagnostics, and the version of the files that
/// gave them. Reads as the list of diagnostics.
#[derive(Clone, Debug)]
pub struct Broken {
    pub diags: Vec<Diag>,
    pub version: Arc<Version>,
    /// The diagnostics are warnings new since the last version served, held back.
    pub held_back: bool,
}

impl std::ops::Deref for Broken {
    type Target = [Diag];
    fn deref(&self) -> &[Diag] {
        &self.diags
    }
}

impl serde::Serialize for Broken {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.diags.serialize(s)
    }
}

/// A rulebook as the server holds it.
#[derive(Clone, Debug)]
pub enum State {
    Ready(Book),
    Broken(Broken),
}

impl State {
    /// The version of the files this state was read from.
    pub fn version(&self) -> &Arc<Version> {
        match self {
            State::Ready(b) => b.version(),
            State::Broken(b) => &b.version,
        }
    }
}

/// A rulebook that checks, with what the pages read of it worked out once, and its
/// version. Cheap to clone; reads as the [`Rulebook`] it holds.
#[derive(Clone, Debug)]
pub struct Book {
    held: Arc<Held>,
    version: Arc<Version>,
}

#[derive(Debug)]
struct Held {
    book: Rulebook,
    /// For each fact (by index), the rulings that can read it, in the rulebook's order.
    fact_readers: Vec<Vec<DefId>>,
    /// For each decision (by index), the rulings that can read it.
    decision_readers: Vec<Vec<DefId>>,
}

impl Book {
    /// Works out, once, what every page reads of the rulebook; its version is the hash
    /// of its files, loaded now.
    pub fn new(book: Rulebook) -> Book {
        let version = Arc::new(Version::new(&book.checked().sources));
        let p = &book.checked().program;
        let mut fact_readers = vec![Vec::new(); p.facts.len()];
        let mut decision_readers = vec![Vec::new(); p.decisions.len()];
        for (d, _) in p.rulings() {
            let r = crate::discover::reach(p, &[d]);
            for &f in &r.facts {
                if let Some(v) = fact_readers.get_mut(f as usize) {
                    v.push(d);
                }
            }
            for &k in &r.decisions {
                if let Some(v) = decision_readers.get_mut(k as usize) {
                    v.push(d);
                }
            }
        }
        Book { held: Arc::new(Held { book, fact_readers, decision_readers }), version }
    }

    /// The rulebook.
    pub fn rulebook(&self) -> &Rulebook {
        &self.held.book
    }

    /// Which version of the rulebook this is.
    pub fn version(&self) -> &Arc<Version> {
        &self.version
    }

    /// The same rulebook, its version saying what is held back (or nothing).
    fn holding(&self, held_back: Option<HeldBack>) -> Book {
        Book { held: self.held.clone(), version: Arc::new(Version { held_back, ..(*self.version).clone() }) }
    }

    /// The rulings that can read the fact of that index.
    pub fn fact_readers(&self, fact: usize) -> &[DefId] {
        self.held.fact_readers.get(fact).map_or(&[], Vec::as_slice)
    }

    /// The rulings that can read the decision of that index.
    pub fn decision_readers(&self, decision: usize) -> &[DefId] {
        self.held.decision_readers.get(decision).map_or(&[], Vec::as_slice)
    }
}

impl std::ops::Deref for Book {
    type Target = Rulebook;
    fn deref(&self) -> &Rulebook {
        &self.held.book
    }
}

#[derive(Debug)]
struct Slot {
    name: String,
    source: Source,
    state: Arc<State>,
    /// The warnings (code and message) of the last version served that checked: a
    /// reload with others is held back.
    warned: Vec<String>,
}

/// The rulebooks served, by name.
#[derive(Debug)]
pub struct Shelf {
    slots: RwLock<Vec<Slot>>,
}

/// The condition files of a folder as read at one time, and the problems met reading
/// them (an unreadable file, a folder with no rulebook or several).
#[derive(Debug)]
pub struct Files {
    pub sources: SourceMap,
    pub problems: Vec<Diagnostic>,
}

impl Files {
    /// Reads every condition file of a rulebook folder.
    pub fn read(path: &Path) -> Files {
        let bare = |d: Diagnostic| Files { sources: SourceMap::new(), problems: vec![d] };
        match crate::loader::find_rulebooks(path) {
            Ok(books) => match books.as_slice() {
                [one] => {
                    let (sources, problems) = crate::loader::read_rulebook(one);
                    Files { sources, problems }
                }
                _ => bare(Diagnostic::error(
                    "conditions::several_rulebooks",
                    format!("`{}` holds {} rulebooks; name one", path.display(), books.len()),
                )),
            },
            Err(d) => bare(d),
        }
    }

    /// Whether both reads found the same files with the same texts and problems.
    pub fn same(&self, other: &Files) -> bool {
        let texts = |f: &Files| -> Vec<(String, std::sync::Arc<str>)> {
            f.sources.files().map(|(_, s)| (s.name.clone(), s.text.clone())).collect()
        };
        let problems = |f: &Files| -> Vec<String> { f.problems.iter().map(|d| d.message.clone()).collect() };
        texts(self) == texts(other) && problems(self) == problems(other)
    }
}

/// A folder's files, checked.
enum Judged {
    /// It checks: the rulebook, and its warnings (the checker's and the lints', by code
    /// and message, then as shown).
    Checks(Rulebook, Vec<(String, Diag)>),
    Broken(Broken),
}

/// Checks the files read, and lints them when they check (without the published
/// document: only what the condition files say).
fn judge(files: Files) -> Judged {
    let checked = crate::check::check_read(files.sources, files.problems);
    if checked.has_errors() {
        let version = Arc::new(Version::new(&checked.sources));
        let diags =
            checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| Diag::of(d, &checked.sources)).collect();
        return Judged::Broken(Broken { diags, version, held_back: false });
    }
    let mut warnings = checked.diagnostics.clone();
    warnings.extend(crate::lint::run(&crate::lint::Context { checked: &checked, document: None, tested: None }));
    let warnings = warnings
        .iter()
        .filter(|d| !d.is_error())
        .map(|d| (format!("{}: {}", d.code, d.message), Diag::of(d, &checked.sources)))
        .collect();
    Judged::Checks(Rulebook::from_checked(checked), warnings)
}

/// Loads a rulebook; a folder that does not check gives its diagnostics.
pub fn load(source: &Source) -> Result<State, String> {
    load_warned(source).map(|(s, _)| s)
}

/// [`load`], with the warnings of a folder that checks (they do not keep it from
/// being served at start).
fn load_warned(source: &Source) -> Result<(State, Vec<String>), String> {
    match source {
        Source::Bundled(n) => {
            Rulebook::bundled(n).map(|b| (State::Ready(Book::new(b)), Vec::new())).map_err(|e| e.to_string())
        }
        Source::Folder(path) => Ok(match judge(Files::read(path)) {
            Judged::Checks(b, w) => (State::Ready(Book::new(b)), w.into_iter().map(|(k, _)| k).collect()),
            Judged::Broken(b) => (State::Broken(b), Vec::new()),
        }),
    }
}

fn folder_name(path: &Path) -> String {
    let canon = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    canon.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "rulebook".into())
}

/// The warnings of `now` that `before` does not have (each counted as often as it
/// occurs).
fn new_warnings(before: &[String], now: Vec<(String, Diag)>) -> Vec<Diag> {
    let mut left: Vec<&String> = before.iter().collect();
    let mut out = Vec::new();
    for (key, d) in now {
        match left.iter().position(|k| **k == key) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => out.push(d),
        }
    }
    out
}

impl Shelf {
    /// Loads every rulebook; an unknown bundled name or an unreadable path is an error,
    /// a folder that does not check is held with its diagnostics.
    pub fn open(sources: &[Source]) -> Result<Shelf, String> {
        let mut slots: Vec<Slot> = Vec::new();
        for s in sources {
            let (state, warned) = load_warned(s)?;
            let name = match (&state, s) {
                (State::Ready(b), _) => b.name().to_string(),
                (State::Broken(_), Source::Folder(p)) => folder_name(p),
                (State::Broken(_), Source::Bundled(n)) => n.clone(),
            };
            if slots.iter().any(|x| x.name == name) {
                return Err(format!("two rulebooks are named `{name}`; serve one of them"));
            }
            slots.push(Slot { name, source: s.clone(), state: Arc::new(state), warned });
        }
        Ok(Shelf { slots: RwLock::new(slots) })
    }

    /// The rulebook of that name, as it is now.
    pub fn get(&self, name: &str) -> Option<Arc<State>> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        slots.iter().find(|s| s.name == name).map(|s| s.state.clone())
    }

    /// Every rulebook, by name, in the order given.
    pub fn all(&self) -> Vec<(String, Arc<State>)> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        slots.iter().map(|s| (s.name.clone(), s.state.clone())).collect()
    }

    /// The folders served, by name.
    pub fn folders(&self) -> Vec<(String, PathBuf)> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        slots
            .iter()
            .filter_map(|s| match &s.source {
                Source::Folder(p) => Some((s.name.clone(), p.clone())),
                Source::Bundled(_) => None,
            })
            .collect()
    }

    /// Reads the folder of the rulebook of that name again once its files have settled
    /// ([`super::watch::settled`]) and puts what it holds in place: a state that checks
    /// with no warnings beyond those of the last version served that checked, or the
    /// diagnostics of one that does not check. A state that checks with new warnings is
    /// held back: the version served stays, and says so. Files that read the same as
    /// the version served change nothing.
    pub fn reload(&self, name: &str) {
        let Some(Source::Folder(path)) = self.source_of(name) else { return };
        let Some(files) = super::watch::settled(&path) else { return };
        self.put(name, files);
    }

    fn source_of(&self, name: &str) -> Option<Source> {
        let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
        slots.iter().find(|s| s.name == name).map(|s| s.source.clone())
    }

    /// Puts the files read for the rulebook of that name in place, as [`Shelf::reload`]
    /// says.
    fn put(&self, name: &str, files: Files) {
        let judged = judge(files);
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        let Some(slot) = slots.iter_mut().find(|s| s.name == name) else { return };
        let now = match &judged {
            Judged::Checks(b, _) => hash(&b.checked().sources),
            Judged::Broken(b) => b.version.hash.clone(),
        };
        let current = slot.state.clone();
        if current.version().hash == now {
            // Back to what is served: nothing is held back any more.
            if let State::Ready(b) = current.as_ref()
                && b.version().held_back.is_some()
            {
                slot.state = Arc::new(State::Ready(b.holding(None)));
            }
            return;
        }
        match judged {
            Judged::Broken(b) => slot.state = Arc::new(State::Broken(b)),
            Judged::Checks(book, warnings) => {
                let keys: Vec<String> = warnings.iter().map(|(k, _)| k.clone()).collect();
                let fresh = new_warnings(&slot.warned, warnings);
                if fresh.is_empty() {
                    slot.state = Arc::new(State::Ready(Book::new(book)));
                    slot.warned = keys;
                    return;
                }
                let seen = utc(SystemTime::now());
                let held = HeldBack { hash: now.clone(), seen: seen.clone(), problems: fresh.clone() };
                slot.state = Arc::new(match current.as_ref() {
                    State::Ready(b) => State::Ready(b.holding(Some(held))),
                    // Nothing good to keep serving: the new warnings are the diagnostics.
                    State::Broken(_) => State::Broken(Broken {
                        diags: fresh,
                        version: Arc::new(Version { hash: now, loaded: seen, held_back: None }),
                        held_back: true,
                    }),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_writes_civil_dates() {
        let at = |s: u64| utc(UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(at(4_102_444_800), "2100-01-01T00:00:00Z");
    }

    #[test]
    fn the_hash_reads_names_and_texts() {
        let map = |files: &[(&str, &str)]| {
            let mut m = SourceMap::new();
            for (n, t) in files {
                m.add(*n, *t);
            }
            m
        };
        let a = hash(&map(&[("/x/a.cond", "ab"), ("/x/b.cond", "c")]));
        assert_eq!(a.len(), 12);
        // The folder does not count; the names and texts do, and where one text ends.
        assert_eq!(a, hash(&map(&[("/y/a.cond", "ab"), ("/y/b.cond", "c")])));
        assert_ne!(a, hash(&map(&[("/x/a.cond", "a"), ("/x/b.cond", "bc")])));
        assert_ne!(a, hash(&map(&[("/x/a.cond", "ab"), ("/x/c.cond", "c")])));
        assert_ne!(a, hash(&map(&[("/x/a.cond", "ab")])));
    }

    #[test]
    fn only_new_warnings_count() {
        let d = |m: &str| Diag { file: None, line: None, message: m.into(), help: None };
        let before = vec!["w: a".to_string(), "w: b".to_string()];
        assert!(new_warnings(&before, vec![("w: b".into(), d("b"))]).is_empty());
        let fresh = new_warnings(&before, vec![("w: a".into(), d("a")), ("w: a".into(), d("a2"))]);
        assert_eq!(fresh, vec![d("a2")]);
    }
}
