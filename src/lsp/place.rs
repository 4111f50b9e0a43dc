//! Where a request points, in an analysis that may be a little older than the editor's text.
//!
//! While the user types, the latest analysis is often one edit behind. When the only file
//! that changed since is the one the request is about, and the cursor is outside the changed
//! stretch, the older analysis answers: offsets before the change are the same, offsets after
//! it are shifted by the change's length. Otherwise the rulebook is analysed again first.

use super::convert::{LineIndex, path_to_uri};
use super::workspace::{Loaded, Workspace, root_of};
use crate::syntax::ast::Span;
use lsp_types as lt;
use std::path::Path;
use std::sync::Arc;

/// How the offsets of one file in an analysis map to the editor's text now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shift {
    /// Bytes equal at the start of both texts.
    prefix: usize,
    /// Where the equal end begins in the analysed text, and in the text now.
    old_tail: usize,
    new_tail: usize,
}

impl Shift {
    /// The change between two texts, as the longest common start and end.
    pub fn between(old: &str, new: &str) -> Shift {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !old.is_char_boundary(prefix) {
            prefix -= 1;
        }
        let max_tail = (a.len() - prefix).min(b.len() - prefix);
        let mut tail = a.iter().rev().zip(b.iter().rev()).take(max_tail).take_while(|(x, y)| x == y).count();
        while !old.is_char_boundary(a.len() - tail) || !new.is_char_boundary(b.len() - tail) {
            tail -= 1;
        }
        Shift { prefix, old_tail: a.len() - tail, new_tail: b.len() - tail }
    }

    /// The analysed offset of an offset now, unless it is inside the change or touches it.
    pub fn to_old(self, now: usize) -> Option<usize> {
        if now < self.prefix {
            Some(now)
        } else if now > self.new_tail {
            Some(now - self.new_tail + self.old_tail)
        } else {
            None
        }
    }

    /// The offsets now of an analysed range, unless it touches the change.
    pub fn to_new(self, start: usize, end: usize) -> Option<(usize, usize)> {
        if end < self.prefix {
            Some((start, end))
        } else if start > self.old_tail {
            Some((start - self.old_tail + self.new_tail, end - self.old_tail + self.new_tail))
        } else {
            None
        }
    }
}

/// A place in an analysed file: the analysis, the file, the byte offset in the analysed text,
/// and how that text maps to the editor's.
pub struct Place {
    pub loaded: Arc<Loaded>,
    pub file: u32,
    pub offset: usize,
    /// The file's text now, when it differs from the analysed one, and the mapping.
    now: Option<(String, Shift)>,
}

impl Place {
    /// The place of `pos` in `path`, from the latest analysis if it serves, else a new one.
    pub fn find(ws: &mut Workspace, path: &Path, pos: lt::Position) -> Option<Place> {
        let root = root_of(path);
        if let Some(p) = Place::from_latest(ws, &root, path, pos) {
            return Some(p);
        }
        let loaded = ws.analysis(&root);
        let file = loaded.file_id(path)?;
        let offset = LineIndex::new(loaded.text(file)).offset(pos);
        Some(Place { loaded, file, offset, now: None })
    }

    fn from_latest(ws: &Workspace, root: &Path, path: &Path, pos: lt::Position) -> Option<Place> {
        let loaded = ws.cache.lock().ok()?.get(root).cloned()?;
        let file = loaded.file_id(path)?;
        let parsed =
            loaded.analysis.checked.files.iter().any(|f| f.items.first().is_some_and(|i| i.span().file == file));
        if !parsed {
            return None;
        }
        // Every other open file of the rulebook must read as analysed.
        for (p, doc) in &ws.docs {
            if p != path && root_of(p) == root {
                let id = loaded.file_id(p)?;
                if loaded.text(id) != doc.text {
                    return None;
                }
            }
        }
        let old = loaded.text(file);
        let new = ws.docs.get(path).map_or(old, |d| d.text.as_str());
        let at_now = LineIndex::new(new).offset(pos);
        if old == new {
            return Some(Place { offset: at_now, file, now: None, loaded });
        }
        let shift = Shift::between(old, new);
        let offset = shift.to_old(at_now)?;
        Some(Place { offset, file, now: Some((new.to_string(), shift)), loaded })
    }

    /// The protocol range of a span of the analysed file, in the text now.
    pub fn range(&self, span: Span) -> Option<lt::Range> {
        match &self.now {
            Some((text, shift)) if span.file == self.file => {
                let (a, b) = shift.to_new(span.start as usize, span.end as usize)?;
                Some(LineIndex::new(text).range(a, b))
            }
            _ => {
                let ix = LineIndex::new(self.loaded.text(span.file));
                Some(ix.range(span.start as usize, span.end as usize))
            }
        }
    }

    /// The protocol location of a span, in the text now.
    pub fn location(&self, span: Span) -> Option<lt::Location> {
        let path = self.loaded.paths.get(span.file as usize)?;
        Some(lt::Location::new(path_to_uri(path)?, self.range(span)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_around_an_edit() {
        let old = "fact a: int\nfact bb: int\n";
        let new = "fact a: int\nfact bbb: int\n";
        let s = Shift::between(old, new);
        assert_eq!(s.to_old(5), Some(5));
        assert_eq!(s.to_old(new.find("int\n").unwrap()), Some(5 + 3));
        let at = new.rfind("int").unwrap();
        assert_eq!(s.to_old(at), Some(old.rfind("int").unwrap()));
        assert_eq!(s.to_new(old.rfind("int").unwrap(), old.len() - 1), Some((at, new.len() - 1)));
        assert_eq!(s.to_new(17, 19), None, "the changed name itself");
    }

    #[test]
    fn multibyte_edges() {
        let s = Shift::between("§ æ x", "§ ø x");
        assert!("§ æ x".is_char_boundary(s.prefix));
        assert_eq!(s.to_new(0, 2), Some((0, 2)));
    }
}
