//! Analysis of a rulebook for editors and tools: the checked rulebook with an index of every
//! declaration and use ([`index`]), and what each name stands for, in words
//! ([`describe`]). One parse and one check, shared with `conditions check`.

pub mod describe;
pub mod index;
pub mod rename;
pub mod rename_cases;

use crate::check::{Checked, check_read_with};
use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use crate::syntax::ast::{self, FileId, Span};
use crate::syntax::parse_file;
pub use index::{Index, Occurrence, Target};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The trees of files parsed before, by file and text: an edit parses only the edited file.
/// Shared between threads; parsing happens outside the lock.
#[derive(Default)]
pub struct ParseCache {
    trees: Mutex<HashMap<FileId, Parsed>>,
}

type Parsed = (Arc<str>, Result<ast::File, Diagnostic>);

impl ParseCache {
    pub fn parse(&self, id: FileId, text: &str) -> Result<ast::File, Diagnostic> {
        if let Ok(trees) = self.trees.lock()
            && let Some((t, tree)) = trees.get(&id)
            && **t == *text
        {
            return tree.clone();
        }
        let tree = parse_file(text, id);
        if let Ok(mut trees) = self.trees.lock() {
            trees.insert(id, (Arc::from(text), tree.clone()));
        }
        tree
    }
}

/// A checked rulebook and its name index.
pub struct Analysis {
    pub checked: Checked,
    pub index: Index,
    /// Whether every file parsed (else the index misses what the failed files declare).
    pub complete: bool,
}

impl Analysis {
    /// Parses, checks and indexes the files read, after the problems met reading them.
    pub fn new(sources: SourceMap, read_problems: Vec<Diagnostic>) -> Analysis {
        Analysis::with_cache(sources, read_problems, &ParseCache::default())
    }

    /// [`Analysis::new`], reusing the trees of files whose text has not changed.
    pub fn with_cache(sources: SourceMap, read_problems: Vec<Diagnostic>, cache: &ParseCache) -> Analysis {
        let files_read = sources.files().count();
        let checked = check_read_with(sources, read_problems, |id, text| cache.parse(id, text));
        let index = Index::build(&checked.program, &checked.files);
        let complete = checked.files.len() == files_read;
        Analysis { checked, index, complete }
    }

    /// The occurrence at a byte offset of a file.
    pub fn at(&self, file: FileId, offset: usize) -> Option<&Occurrence> {
        self.index.at(file, offset as u32)
    }

    /// Where a target is declared: its name (or citation) in its declaration.
    pub fn definition(&self, target: Target) -> Option<Span> {
        self.index.declaration(target)
    }

    /// The name of a target, as written in the rulebook.
    pub fn name(&self, target: Target) -> String {
        describe::name(self, target)
    }
}
