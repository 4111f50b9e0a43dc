//! Source files of a rulebook: their display names and text, indexed by [`FileId`], and
//! the byte ranges ([`Span`]) that everything read from them carries.

use std::sync::{Arc, OnceLock};

/// Index of a source file in a [`SourceMap`].
pub type FileId = u32;

/// A byte range in one source file. Spans are metadata: all spans compare equal (and hash
/// alike), so that two syntax nodes compare by their content wherever they stand.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl PartialEq for Span {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Hashes nothing, as all spans compare equal: a node's hash is its content's.
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span { file, start: start as u32, end: end as u32 }
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics: a path relative to where the tool was pointed.
    pub name: String,
    pub text: Arc<str>,
    /// Where each line starts, computed on the first look-up of a line and column.
    lines: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// The byte offsets at which lines start (the first is 0).
    pub fn line_starts(&self) -> &[usize] {
        self.lines.get_or_init(|| std::iter::once(0).chain(self.text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }
}

/// All files read for one run; spans index into it.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile { name: name.into(), text: text.into(), lines: OnceLock::new() });
        (self.files.len() - 1) as FileId
    }
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (i as FileId, f))
    }
    /// The text a span covers, or "" if it is out of range.
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file).and_then(|f| f.text.get(span.start as usize..span.end as usize)).unwrap_or("")
    }
    /// 1-based line and column (in characters) of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let Some(f) = self.get(span.file) else { return (0, 0) };
        let mut at = (span.start as usize).min(f.text.len());
        while !f.text.is_char_boundary(at) {
            at -= 1;
        }
        // A binary search over the line starts: many look-ups in one file stay linear.
        let starts = f.line_starts();
        let line = starts.partition_point(|&s| s <= at);
        let col = f.text[starts[line - 1]..at].chars().count() + 1;
        (line, col)
    }
}
