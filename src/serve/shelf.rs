//! The rulebooks a server holds: each loaded once, with what its pages read of it
//! worked out once (which rulings read each fact and decision), shared by every
//! request, and replaced whole when a watched folder changes. A folder that does not
//! check is held as its diagnostics (file, line, message), shown instead of stale
//! rulings.

use crate::api::Rulebook;
use crate::check::program::DefId;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

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
#[derive(Clone, Debug, serde::Serialize)]
pub struct Diag {
    pub file: Option<String>,
    pub line: Option<usize>,
    pub message: String,
    pub help: Option<String>,
}

/// A rulebook as the server holds it.
#[derive(Clone, Debug)]
pub enum State {
    Ready(Book),
    Broken(Vec<Diag>),
}

/// A rulebook that checks, with what the pages read of it worked out once. Cheap to
/// clone; reads as the [`Rulebook`] it holds.
#[derive(Clone, Debug)]
pub struct Book(Arc<Held>);

#[derive(Debug)]
struct Held {
    book: Rulebook,
    /// For each fact (by index), the rulings that can read it, in the rulebook's order.
    fact_readers: Vec<Vec<DefId>>,
    /// For each decision (by index), the rulings that can read it.
    decision_readers: Vec<Vec<DefId>>,
}

impl Book {
    /// Works out, once, what every page reads of the rulebook.
    pub fn new(book: Rulebook) -> Book {
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
        Book(Arc::new(Held { book, fact_readers, decision_readers }))
    }

    /// The rulebook.
    pub fn rulebook(&self) -> &Rulebook {
        &self.0.book
    }

    /// The rulings that can read the fact of that index.
    pub fn fact_readers(&self, fact: usize) -> &[DefId] {
        self.0.fact_readers.get(fact).map_or(&[], Vec::as_slice)
    }

    /// The rulings that can read the decision of that index.
    pub fn decision_readers(&self, decision: usize) -> &[DefId] {
        self.0.decision_readers.get(decision).map_or(&[], Vec::as_slice)
    }
}

impl std::ops::Deref for Book {
    type Target = Rulebook;
    fn deref(&self) -> &Rulebook {
        &self.0.book
    }
}

#[derive(Debug)]
struct Slot {
    name: String,
    source: Source,
    state: Arc<State>,
}

/// The rulebooks served, by name.
#[derive(Debug)]
pub struct Shelf {
    slots: RwLock<Vec<Slot>>,
}

/// Loads a rulebook; a folder that does not check gives its diagnostics.
pub fn load(source: &Source) -> Result<State, String> {
    match source {
        Source::Bundled(n) => Rulebook::bundled(n).map(|b| State::Ready(Book::new(b))).map_err(|e| e.to_string()),
        Source::Folder(path) => match crate::loader::load(&path.to_string_lossy()) {
            Ok(checked) => Ok(State::Ready(Book::new(Rulebook::from_checked(checked)))),
            Err(e) => {
                let diags = e
                    .diagnostics
                    .iter()
                    .map(|d| {
                        let label = d.labels.first();
                        Diag {
                            file: label
                                .and_then(|l| e.sources.get(l.span.file))
                                .map(|f| f.name.clone())
                                .or(d.path.clone()),
                            line: label.map(|l| e.sources.line_col(l.span).0),
                            message: d.message.clone(),
                            help: d.help.clone(),
                        }
                    })
                    .collect();
                Ok(State::Broken(diags))
            }
        },
    }
}

fn folder_name(path: &Path) -> String {
    let canon = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    canon.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "rulebook".into())
}

impl Shelf {
    /// Loads every rulebook; an unknown bundled name or an unreadable path is an error,
    /// a folder that does not check is held with its diagnostics.
    pub fn open(sources: &[Source]) -> Result<Shelf, String> {
        let mut slots: Vec<Slot> = Vec::new();
        for s in sources {
            let state = load(s)?;
            let name = match (&state, s) {
                (State::Ready(b), _) => b.name().to_string(),
                (State::Broken(_), Source::Folder(p)) => folder_name(p),
                (State::Broken(_), Source::Bundled(n)) => n.clone(),
            };
            if slots.iter().any(|x| x.name == name) {
                return Err(format!("two rulebooks are named `{name}`; serve one of them"));
            }
            slots.push(Slot { name, source: s.clone(), state: Arc::new(state) });
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

    /// Loads the rulebook of that name again and puts it in place.
    pub fn reload(&self, name: &str) {
        let source = {
            let slots = self.slots.read().unwrap_or_else(|e| e.into_inner());
            match slots.iter().find(|s| s.name == name) {
                Some(s) => s.source.clone(),
                None => return,
            }
        };
        let state = load(&source)
            .unwrap_or_else(|m| State::Broken(vec![Diag { file: None, line: None, message: m, help: None }]));
        let mut slots = self.slots.write().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = slots.iter_mut().find(|s| s.name == name) {
            s.state = Arc::new(state);
        }
    }
}
