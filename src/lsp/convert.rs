//! Conversions between the protocol's terms and the project's: `file:` URIs and paths,
//! LSP positions (lines and UTF-16 columns) and byte offsets, and reading request
//! parameters out of JSON.
//!
//! Parameters are read from `serde_json::Value` with accessors rather than deserialized into
//! `lsp_types` structs: with serde_json's `arbitrary_precision` (which a program embedding this
//! crate may turn on) numbers inside flattened or untagged structs do not deserialize; the
//! accessors read them with the feature on or off.

use lsp_types::{Position, Range, Uri};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Line starts of a text, to turn byte offsets into positions and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The position of a byte offset (clamped to the text, moved back to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[self.starts[line]..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of a position (clamped to its line and to the text).
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return self.text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(self.text.len(), |e| e - 1);
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }
}

/// Characters kept as they are in a `file:` URI path.
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let abs = std::path::absolute(path).ok()?;
    let mut s = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        if unreserved(b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

/// The path of a `file:` URI.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.find('/').map(|i| &rest[i..])?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// `params.textDocument.uri` as a path.
pub fn doc_path(params: &Value) -> Option<PathBuf> {
    uri_to_path(params.pointer("/textDocument/uri")?.as_str()?)
}

pub fn position(v: &Value) -> Option<Position> {
    Some(Position::new(v.get("line")?.as_u64()? as u32, v.get("character")?.as_u64()? as u32))
}

pub fn range(v: &Value) -> Option<Range> {
    Some(Range::new(position(v.get("start")?)?, position(v.get("end")?)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n§ æ“x”\n";
        let ix = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(ix.position(x), Position::new(1, 4));
        assert_eq!(ix.offset(Position::new(1, 4)), x);
        assert_eq!(ix.offset(Position::new(9, 0)), text.len());
        assert_eq!(ix.offset(Position::new(0, 99)), 2);
    }

    #[test]
    fn uris_round_trip() {
        let p = PathBuf::from("/tmp/a b/ø.cond");
        let uri = path_to_uri(&p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%B8.cond");
        assert_eq!(uri_to_path(uri.as_str()).unwrap(), p);
    }
}
