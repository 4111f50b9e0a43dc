//! The files the editor has open, the rulebooks they belong to, and the analyses of those
//! rulebooks. A `.cond` file belongs to the rulebook of its folder: every `.cond` file there,
//! the editor's text for open files and the disk's for the others.

use crate::analysis::{Analysis, ParseCache};
use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// An open file: the editor's text and version.
pub struct Doc {
    pub text: String,
    pub version: i32,
}

/// The texts of a rulebook's files at one moment: the editor's where open, else read later.
#[derive(Clone)]
pub struct Snapshot {
    pub root: PathBuf,
    pub generation: u64,
    pub files: Vec<(PathBuf, Option<Arc<str>>)>,
}

/// An analysed rulebook: its files by [`crate::syntax::ast::FileId`] and its analysis.
pub struct Loaded {
    pub root: PathBuf,
    pub generation: u64,
    pub paths: Vec<PathBuf>,
    pub analysis: Analysis,
}

impl Loaded {
    pub fn file_id(&self, path: &Path) -> Option<u32> {
        self.paths.iter().position(|p| p == path).map(|i| i as u32)
    }
    pub fn text(&self, file: u32) -> &str {
        self.analysis.checked.sources.get(file).map_or("", |f| &f.text)
    }
}

/// Reads a snapshot's files and analyses them.
pub fn load(snapshot: &Snapshot, cache: &ParseCache) -> Loaded {
    let mut sources = SourceMap::new();
    let mut paths = Vec::new();
    let mut problems = Vec::new();
    for (path, text) in &snapshot.files {
        let text: Arc<str> = match text {
            Some(t) => t.clone(),
            None => {
                match crate::loader::read_regular(path, crate::syntax::parser::MAX_FILE_BYTES).map(String::from_utf8) {
                    Ok(Ok(t)) => t.into(),
                    Ok(Err(_)) => {
                        problems.push(
                            Diagnostic::error("conditions::not_utf8", "not UTF-8 text")
                                .in_path(path.display().to_string())
                                .help("save the file as UTF-8; condition files are text"),
                        );
                        continue;
                    }
                    Err(e) => {
                        problems.push(
                            Diagnostic::error("conditions::io", format!("cannot read `{}`: {e}", path.display()))
                                .in_path(path.display().to_string()),
                        );
                        continue;
                    }
                }
            }
        };
        sources.add(path.display().to_string(), text);
        paths.push(path.clone());
    }
    let analysis = Analysis::with_cache(sources, problems, cache);
    Loaded { root: snapshot.root.clone(), generation: snapshot.generation, paths, analysis }
}

/// Analyses shared between the main loop and the diagnostics worker, by rulebook folder.
pub type Cache = Arc<Mutex<HashMap<PathBuf, Arc<Loaded>>>>;

#[derive(Default)]
pub struct Workspace {
    pub docs: HashMap<PathBuf, Doc>,
    /// Bumped for a rulebook whenever one of its files changes.
    generations: HashMap<PathBuf, u64>,
    pub cache: Cache,
    /// The last analysis of each rulebook in which every file parsed.
    complete: HashMap<PathBuf, Arc<Loaded>>,
    /// Folders named by the editor when it started.
    pub roots: Vec<PathBuf>,
    pub parsed: Parses,
}

/// Parse caches by rulebook folder, shared with the diagnostics worker.
pub type Parses = Arc<Mutex<HashMap<PathBuf, Arc<ParseCache>>>>;

/// The parse cache of a rulebook.
pub fn parse_cache(parses: &Parses, root: &Path) -> Arc<ParseCache> {
    parses.lock().map(|mut p| p.entry(root.to_path_buf()).or_default().clone()).unwrap_or_default()
}

/// The rulebook folder of a condition file.
pub fn root_of(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

fn is_cond(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "cond")
}

impl Workspace {
    pub fn changed(&mut self, root: &Path) -> u64 {
        let g = self.generations.entry(root.to_path_buf()).or_default();
        *g += 1;
        *g
    }

    pub fn generation(&self, root: &Path) -> u64 {
        self.generations.get(root).copied().unwrap_or(0)
    }

    /// The rulebook's files as they stand now.
    pub fn snapshot(&self, root: &Path) -> Snapshot {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root)
            .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| !p.is_dir() && is_cond(p)).collect())
            .unwrap_or_default();
        for p in self.docs.keys() {
            if is_cond(p) && root_of(p) == root && !paths.contains(p) {
                paths.push(p.clone());
            }
        }
        paths.sort();
        let files = paths
            .into_iter()
            .map(|p| {
                let text = self.docs.get(&p).map(|d| Arc::from(d.text.as_str()));
                (p, text)
            })
            .collect();
        Snapshot { root: root.to_path_buf(), generation: self.generation(root), files }
    }

    /// The analysis of a rulebook as it stands now, from the cache or made now.
    pub fn analysis(&mut self, root: &Path) -> Arc<Loaded> {
        let current = self.generation(root);
        let cached = self.cache.lock().ok().and_then(|c| c.get(root).cloned());
        let loaded = match cached {
            Some(l) if l.generation == current => l,
            _ => {
                let snapshot = self.snapshot(root);
                let l = Arc::new(load(&snapshot, &parse_cache(&self.parsed, root)));
                self.store(l.clone());
                l
            }
        };
        if loaded.analysis.complete {
            self.complete.insert(root.to_path_buf(), loaded.clone());
        }
        loaded
    }

    /// For completion, without waiting: the last analysis in which every file parsed, else
    /// the latest made, else one made now.
    pub fn complete_analysis(&mut self, root: &Path) -> Arc<Loaded> {
        let latest = self.cache.lock().ok().and_then(|c| c.get(root).cloned());
        if let Some(l) = latest.as_ref().filter(|l| l.analysis.complete) {
            self.complete.insert(root.to_path_buf(), l.clone());
        }
        match (self.complete.get(root), latest) {
            (Some(c), _) => c.clone(),
            (None, Some(l)) => l,
            (None, None) => self.analysis(root),
        }
    }

    pub fn store(&self, loaded: Arc<Loaded>) {
        if let Ok(mut c) = self.cache.lock() {
            let newer = c.get(&loaded.root).is_some_and(|old| old.generation > loaded.generation);
            if !newer {
                c.insert(loaded.root.clone(), loaded);
            }
        }
    }

    /// The rulebook folders known: those of open files and those under the editor's roots.
    pub fn rulebooks(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self.docs.keys().filter(|p| is_cond(p)).map(|p| root_of(p)).collect();
        for r in &self.roots {
            if let Ok(books) = crate::loader::find_rulebooks(r) {
                out.extend(books.into_iter().map(|b| b.root));
            }
            // Rulebooks two levels down (`conditions/gnt` under a repository).
            if let Ok(rd) = std::fs::read_dir(r) {
                for e in rd.filter_map(|e| e.ok()).filter(|e| e.path().is_dir()) {
                    let name = e.file_name();
                    if name.to_string_lossy().starts_with('.') || name == "target" {
                        continue;
                    }
                    if let Ok(books) = crate::loader::find_rulebooks(&e.path()) {
                        out.extend(books.into_iter().map(|b| b.root));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 GB sparse file in the folder is a diagnostic naming it, not a 1 GB read.
    #[test]
    fn a_sparse_1_gb_file_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("lsp-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.cond");
        std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
        let snapshot = Snapshot { root: dir.clone(), generation: 1, files: vec![(big.clone(), None)] };
        let loaded = load(&snapshot, &ParseCache::default());
        let messages: Vec<String> = loaded.analysis.checked.diagnostics.iter().map(|d| format!("{d:?}")).collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(messages.iter().any(|m| m.contains("larger than the limit")), "{messages:?}");
    }
}
