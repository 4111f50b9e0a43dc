//! `conditions fmt`: one canonical layout. The formatted text is parsed again and
//! compared with the original tree (comments included); when they differ nothing is
//! written. Files are replaced atomically (written beside, then renamed) and only if
//! they still hold what was read; see [`rewrite`].
//!
//! A program appending to the file while it is replaced loses nothing. The file is compared
//! with the text formatted just before the rename, and the old file is kept open across it:
//! what was written to the old file after the comparison is read back and appended to the
//! new one ([`RewriteError::Appended`]). The window left, a writer that opened the old file
//! before the rename and writes to it after the last look, is closed by looking until no
//! other program has the old file open: once none has, nothing can be written to it any
//! more. On Linux `/proc` tells (every program's open descriptors, looked up by device and
//! inode). Before the comparison `fmt` waits up to two
//! seconds for the file to be closed by others, else leaves it as it is
//! ([`RewriteError::Busy`]); after the rename it waits as long for those who opened it
//! meanwhile ([`RewriteError::StillOpen`] if they do not close it). What remains is an open
//! in the kernel already past its look-up of the path at the rename and not yet counted a
//! millisecond later, and a program of another user (unseen unless `fmt` runs as the
//! superuser). Where `/proc` cannot be read (other systems) the old file is read once more two milliseconds after the
//! rename instead. `tests/robustness.rs` measures it over 300 rounds with an appender held
//! up to 3 ms between its open and its write.
//!
//! The layout keeps what the author chose where the canonical form allows it (see
//! [`Layout`]): read here from the original text and the tree's spans.

use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{ClausePart, CommentAt, File, Item, Str};
use crate::syntax::parse_file;
use crate::syntax::printer::{Layout, print_file_with};
use std::path::Path;

/// Whether the line before the one `pos` stands on is blank.
fn blank_line_before(text: &str, pos: usize) -> bool {
    let before = text[..pos].trim_end_matches([' ', '\t']);
    let Some(rest) = before.strip_suffix('\n') else { return false };
    let rest = rest.trim_end_matches([' ', '\t', '\r']);
    rest.ends_with('\n')
}

/// Whether the line after the one `pos` stands on is blank (and not the end of the file).
fn blank_line_after(text: &str, pos: usize) -> bool {
    let Some(eol) = text[pos..].find('\n') else { return false };
    let next = &text[pos + eol + 1..];
    match next.find('\n') {
        Some(e) => next[..e].trim().is_empty() && !next[e..].trim().is_empty(),
        None => false,
    }
}

fn strings(part: &ClausePart) -> Option<&Str> {
    match part {
        ClausePart::Heading(s)
        | ClausePart::Text(s)
        | ClausePart::Excerpt(s)
        | ClausePart::Paraphrase(s)
        | ClausePart::Gloss(s)
        | ClausePart::Informational(s) => Some(s),
        _ => None,
    }
}

/// The author's layout choices in `text`, whose tree is `ast`.
pub fn layout_of(text: &str, ast: &File) -> Layout {
    let mut layout = Layout::default();
    let offsets = crate::syntax::parser::scan_comments(text);
    for (k, (pos, _)) in offsets.iter().enumerate().take(ast.comments.len()) {
        let line_start = text[..*pos].rfind('\n').map_or(0, |i| i + 1);
        if !text[line_start..*pos].trim().is_empty() {
            layout.trailing.insert(k);
        }
        if blank_line_after(text, *pos) {
            layout.blank_after.insert(k);
        }
    }
    layout.read = true;
    for (i, item) in ast.items.iter().enumerate() {
        let start = item.span().start as usize;
        let first = ast
            .comments
            .iter()
            .zip(&offsets)
            .filter(|(cm, _)| cm.at == CommentAt::BeforeItem(i))
            .map(|(_, (pos, _))| *pos)
            .chain([start])
            .min()
            .unwrap_or(start);
        if i > 0 && start <= text.len() && blank_line_before(text, first) {
            layout.blank_before_item.insert(i);
        }
        let Item::Clause(c) = item else { continue };
        for (j, part) in c.parts.iter().enumerate() {
            let start = part.span().start as usize;
            let first = ast
                .comments
                .iter()
                .zip(&offsets)
                .filter(|(cm, _)| cm.at == CommentAt::InClause { item: i, part: j })
                .map(|(_, (pos, _))| *pos)
                .chain([start])
                .min()
                .unwrap_or(start);
            if j > 0 && start <= text.len() && blank_line_before(text, first) {
                layout.blank_before.insert((i, j));
            }
            let Some(s) = strings(part) else { continue };
            let (a, b) = (s.span.start as usize, s.span.end as usize);
            let Some(raw) = text.get(a..b) else { continue };
            if let Some(inner) = raw.strip_prefix("\"\"\"").and_then(|r| r.strip_suffix("\"\"\"")) {
                let lines: Vec<String> =
                    inner.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
                let joined = lines.join(" ");
                if joined.split_whitespace().collect::<Vec<_>>().join(" ") == s.value && joined == s.value {
                    layout.lines.insert(s.span.start, lines);
                }
            } else if raw.starts_with('"') {
                layout.short.insert(s.span.start);
            }
        }
    }
    layout
}

/// The canonical form of a condition file's text.
pub fn format_text(text: &str) -> Result<String, Diagnostic> {
    let ast = parse_file(text, 0)?;
    let printed = print_file_with(&ast, &layout_of(text, &ast));
    match parse_file(&printed, 0) {
        Ok(again) if again == ast => Ok(printed),
        Ok(_) => Err(Diagnostic::error(
            "conditions::fmt_changed_meaning",
            "formatting would change the file's meaning; nothing written",
        )
        .help("please report this file: the formatter must never change what a file says")),
        Err(d) => Err(Diagnostic::error(
            "conditions::fmt_changed_meaning",
            format!("the formatted file would not parse ({}); nothing written", d.message),
        )
        .help("please report this file: the formatter must never change what a file says")),
    }
}

/// Writes `text` to `path` atomically: a temporary file in the same folder, then a rename.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.fmt-{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Why `fmt` left a file as it was.
#[derive(Debug)]
pub enum RewriteError {
    /// The file no longer holds the text that was formatted (someone wrote to it meanwhile).
    Changed,
    /// Text was written to the file between the last comparison and the swap: it is kept,
    /// appended to the formatted text.
    Appended,
    /// The file is read-only.
    ReadOnly,
    /// Another program kept the file open; it is left as it is.
    Busy,
    /// Another program kept the replaced file open after the swap: what it wrote until then
    /// is kept at the end of the formatted file, what it writes later is not.
    StillOpen,
    Io(std::io::Error),
}

impl std::fmt::Display for RewriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RewriteError::Changed => {
                f.write_str("the file changed while it was being formatted; it is left as it is now")
            }
            RewriteError::Appended => f.write_str(
                "text was written to the file while it was being formatted; it is kept at the end of the formatted file",
            ),
            RewriteError::ReadOnly => f.write_str("the file is read-only; it is left as it is"),
            RewriteError::Busy => f.write_str("another program keeps the file open; it is left as it is"),
            RewriteError::StillOpen => f.write_str(
                "another program kept the file open while it was replaced; what it wrote until then is kept at the end of the formatted file",
            ),
            RewriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<std::io::Error> for RewriteError {
    fn from(e: std::io::Error) -> Self {
        RewriteError::Io(e)
    }
}

/// Replaces the file at `path`, which held `original` when it was read, by `text`,
/// losing nothing: through a symbolic link the file it points to is replaced (the link
/// stays a link); a read-only file is refused; the content is compared again just
/// before the swap and the file left alone if it changed; permissions, owner and
/// hard links are kept (a file with several links, or whose owner cannot be kept, is
/// rewritten in place); a failed write leaves no temporary file behind.
pub fn rewrite(path: &Path, original: &str, text: &str) -> Result<(), RewriteError> {
    let target = std::fs::canonicalize(path)?;
    let meta = std::fs::metadata(&target)?;
    if meta.permissions().readonly() {
        return Err(RewriteError::ReadOnly);
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.fmt-{}", std::process::id()));
    let staged = stage(&tmp, text, &meta);
    let result = match staged {
        Ok(true) => swap(&target, &tmp, original),
        // The owner or the links could not be kept by a rename: write in place.
        Ok(false) => unchanged(&mut std::fs::File::open(&target)?, original).and_then(|()| in_place(&target, text)),
        Err(e) => Err(e.into()),
    };
    if tmp.exists() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether the open file holds exactly `original`.
fn unchanged(file: &mut std::fs::File, original: &str) -> Result<(), RewriteError> {
    use std::io::{Read, Seek};
    let mut now = Vec::with_capacity(original.len() + 1);
    file.seek(std::io::SeekFrom::Start(0))?;
    file.take(original.len() as u64 + 1).read_to_end(&mut now)?;
    if now == original.as_bytes() { Ok(()) } else { Err(RewriteError::Changed) }
}

/// How long `fmt` waits for other programs to close the file it replaces.
const WAIT_FOR_WRITERS: std::time::Duration = std::time::Duration::from_secs(2);

/// Compares the file with `original` and renames the staged copy over it at once. The
/// old file stays open across the rename: text written to it after the comparison (which
/// the rename would unlink) is read back from it and appended to the new file, so nothing
/// is lost; the run then reports [`RewriteError::Appended`].
///
/// How long to keep reading the old file: until no other program has it open. A writer
/// can only reach the old file through an open made before the rename; once none is left
/// (and a moment later still none), nothing more can be written to it. On Linux this is
/// read from `/proc` ([`opened_elsewhere`]). Before the comparison `fmt`
/// waits for the file to be closed by others ([`RewriteError::Busy`] when it is not, the
/// file left alone); after the rename it waits for those who opened it in between
/// ([`RewriteError::StillOpen`] when they do not close it in time). What remains is an
/// open already past its look-up of the path at the rename but not yet counted by the
/// kernel a millisecond later, and another user's program. Where `/proc` cannot be read
/// (another system) the old file is read once more two
/// milliseconds after the rename, and a writer held up longer than that between its open
/// and its write is not seen.
fn swap(target: &Path, tmp: &Path, original: &str) -> Result<(), RewriteError> {
    use std::io::{Read, Seek, Write};
    let mut old = std::fs::File::open(target)?;
    if !wait_alone(&old)? {
        return Err(RewriteError::Busy);
    }
    unchanged(&mut old, original)?;
    std::fs::rename(tmp, target)?;
    let mut late = Vec::new();
    old.seek(std::io::SeekFrom::Start(original.len() as u64))?;
    old.read_to_end(&mut late)?;
    let alone = wait_alone(&old)?;
    old.read_to_end(&mut late)?;
    if late.is_empty() && alone {
        return Ok(());
    }
    let mut new = std::fs::OpenOptions::new().append(true).open(target)?;
    new.write_all(&late)?;
    new.sync_all()?;
    Err(if alone { RewriteError::Appended } else { RewriteError::StillOpen })
}

/// Waits until no other program has `file` open, and a millisecond later still none:
/// `false` when they keep it open past [`WAIT_FOR_WRITERS`]. Where that cannot be known,
/// waits two milliseconds (a short write like `echo … >>` ends within them).
fn wait_alone(file: &std::fs::File) -> std::io::Result<bool> {
    let pause = std::time::Duration::from_millis(1);
    let start = std::time::Instant::now();
    let mut quiet = 0;
    loop {
        match opened_elsewhere(file) {
            None => {
                std::thread::sleep(2 * pause);
                return Ok(true);
            }
            Some(false) if quiet == 1 => return Ok(true),
            Some(false) => quiet += 1,
            Some(true) if start.elapsed() > WAIT_FOR_WRITERS => return Ok(false),
            Some(true) => quiet = 0,
        }
        std::thread::sleep(pause);
    }
}

/// Whether another open file has `file` open: some descriptor of a running program, other
/// than `file` itself, that `/proc` shows on the same file (device and inode; Linux). Only
/// the programs whose descriptors may be read are seen: all of them for the superuser,
/// one's own otherwise. `None` when that cannot be known here (no `/proc`).
#[cfg(target_os = "linux")]
fn opened_elsewhere(file: &std::fs::File) -> Option<bool> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let key = (meta.dev(), meta.ino());
    // This program as `/proc` numbers it (in its own process namespace).
    let me = std::fs::read_link("/proc/self").ok()?.to_str()?.parse::<u32>().ok()?;
    let own = Some((me, file.as_raw_fd()));
    let is_same = |path: &std::path::Path| std::fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == key);
    for proc in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = proc.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        // A program that has ended, or another user's, is passed over.
        let Ok(fds) = std::fs::read_dir(proc.path().join("fd")) else { continue };
        for fd in fds.flatten() {
            let Some(n) = fd.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
                continue;
            };
            if Some((pid, n)) != own && is_same(&fd.path()) {
                return Some(true);
            }
        }
    }
    Some(false)
}

#[cfg(not(target_os = "linux"))]
fn opened_elsewhere(_: &std::fs::File) -> Option<bool> {
    None
}

/// Writes the temporary copy with the file's permissions and owner; `false` when a
/// rename would lose something (several hard links, an owner that cannot be set).
fn stage(tmp: &Path, text: &str, meta: &std::fs::Metadata) -> std::io::Result<bool> {
    use std::io::Write;
    let _ = std::fs::remove_file(tmp); // a leftover of an interrupted run of this process id
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::set_permissions(tmp, meta.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 || std::os::unix::fs::chown(tmp, Some(meta.uid()), Some(meta.gid())).is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

fn in_place(target: &Path, text: &str) -> Result<(), RewriteError> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().write(true).truncate(true).open(target)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::opened_elsewhere;

    #[test]
    fn another_open_of_the_file_is_seen_and_its_close_too() {
        let path = std::env::temp_dir().join(format!("conditions-opened-{}", std::process::id()));
        std::fs::write(&path, "x").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        assert_eq!(opened_elsewhere(&file), Some(false), "its own descriptor is not another");
        let other = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        assert_eq!(opened_elsewhere(&file), Some(true));
        drop(other);
        assert_eq!(opened_elsewhere(&file), Some(false));
        // Another file open elsewhere is not this one.
        let beside = path.with_extension("beside");
        std::fs::write(&beside, "y").unwrap();
        let _beside = std::fs::File::open(&beside).unwrap();
        assert_eq!(opened_elsewhere(&file), Some(false));
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&beside);
    }
}
