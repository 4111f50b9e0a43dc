//! Reading rulebooks from disk or from the copies bundled into the binary.
//!
//! A rulebook is a folder of `.cond` files (or a single `.cond` file). A folder
//! without `.cond` files of its own is searched one level down, so that
//! `conditions check conditions/` checks every bundled rulebook.
//!
//! Every file read from a rulebook folder (`.cond` files, the published document, case
//! files) is read with [`read_regular`]: a FIFO, a device or a socket is refused at once,
//! never waited on or read without end.

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use std::path::{Path, PathBuf};

/// A rulebook found on disk: its folder (or file) and its `.cond` files, sorted by name.
#[derive(Clone, Debug)]
pub struct RulebookDir {
    pub root: PathBuf,
    pub files: Vec<PathBuf>,
}

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The names of the rulebooks compiled into the binary.
pub fn bundled_names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(name, _)| *name).collect()
}

/// The sources of a bundled rulebook, named as in the repository.
pub fn bundled(name: &str) -> Option<SourceMap> {
    let (_, files) = BUNDLED.iter().find(|(n, _)| *n == name)?;
    let mut map = SourceMap::new();
    for (path, text) in files.iter() {
        if path.ends_with(".cond") {
            map.add(*path, *text);
        }
    }
    Some(map)
}

/// The case files bundled with a rulebook (path as in the repository, text), sorted.
pub fn bundled_cases(name: &str) -> Vec<(&'static str, &'static str)> {
    let Some((_, files)) = BUNDLED.iter().find(|(n, _)| *n == name) else { return Vec::new() };
    files.iter().filter(|(p, _)| p.contains("/cases/") && p.ends_with(".toml")).copied().collect()
}

/// The published document bundled beside a rulebook, if any.
pub fn bundled_document(name: &str, file: &str) -> Option<&'static str> {
    let (_, files) = BUNDLED.iter().find(|(n, _)| *n == name)?;
    files.iter().find(|(p, _)| p.rsplit('/').next() == Some(file)).map(|(_, t)| *t)
}

fn cond_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        // Not only regular files: a FIFO or device named `.cond` is refused when read.
        .filter(|p| !p.is_dir() && p.extension().is_some_and(|x| x == "cond"))
        .collect();
    out.sort();
    Ok(out)
}

fn io_error(path: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error("conditions::io", format!("cannot read `{}`: {e}", path.display()))
        .in_path(path.display().to_string())
        .help("check that the path exists and is readable")
}

/// Finds the rulebooks under `path`.
pub fn find_rulebooks(path: &Path) -> Result<Vec<RulebookDir>, Diagnostic> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
    if !meta.is_dir() {
        return Ok(vec![RulebookDir { root: path.to_path_buf(), files: vec![path.to_path_buf()] }]);
    }
    let own = cond_files(path).map_err(|e| io_error(path, &e))?;
    if !own.is_empty() {
        return Ok(vec![RulebookDir { root: path.to_path_buf(), files: own }]);
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| io_error(path, &e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    let mut out = Vec::new();
    for d in subdirs {
        let files = cond_files(&d).map_err(|e| io_error(&d, &e))?;
        if !files.is_empty() {
            out.push(RulebookDir { root: d, files });
        }
    }
    if out.is_empty() {
        return Err(Diagnostic::error(
            "conditions::no_condition_files",
            format!("no `.cond` files in `{}`", path.display()),
        )
        .in_path(path.display().to_string())
        .help("point at a rulebook folder, a `.cond` file, or a folder of rulebook folders"));
    }
    Ok(out)
}

/// Reads a rulebook's files. Unreadable and non-UTF-8 files are reported, and the rest still read.
pub fn read_rulebook(dir: &RulebookDir) -> (SourceMap, Vec<Diagnostic>) {
    let mut map = SourceMap::new();
    let mut diags = Vec::new();
    for f in &dir.files {
        match read_regular(f, crate::syntax::parser::MAX_FILE_BYTES) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => {
                    map.add(f.display().to_string(), text);
                }
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let text = String::from_utf8_lossy(&e.into_bytes()[..at]).into_owned();
                    let line = text.matches('\n').count() + 1;
                    diags.push(
                        Diagnostic::error(
                            "conditions::not_utf8",
                            format!("not UTF-8 text (invalid byte at offset {at}, line {line})"),
                        )
                        .in_path(f.display().to_string())
                        .help("save the file as UTF-8; condition files are text"),
                    );
                }
            },
            Err(e) => diags.push(io_error(f, &e)),
        }
    }
    (map, diags)
}

/// Whether a rulebook argument names a path rather than a bundled rulebook: it does when
/// the path exists, unless it is a folder without any rulebook in it and a bundled
/// rulebook has that name (a `dbf/` folder of other files in the working folder does not
/// hide the bundled `dbf`).
pub fn names_a_path(spec: &str) -> bool {
    let path = Path::new(spec);
    path.exists() && (bundled(spec).is_none() || path.is_file() || find_rulebooks(path).is_ok())
}

/// Loads and checks a rulebook given as a path or as the name of a bundled rulebook
/// ([`names_a_path`] tells which).
pub fn load(spec: &str) -> Result<crate::check::Checked, LoadError> {
    let bare = |d: Diagnostic| LoadError { sources: SourceMap::new(), diagnostics: vec![d] };
    let path = Path::new(spec);
    let (sources, mut diags) = if names_a_path(spec) {
        let books = find_rulebooks(path).map_err(bare)?;
        match books.as_slice() {
            [one] => read_rulebook(one),
            _ => {
                return Err(bare(
                    Diagnostic::error(
                        "conditions::several_rulebooks",
                        format!("`{spec}` holds {} rulebooks; name one", books.len()),
                    )
                    .help(format!(
                        "for example `{}`",
                        books.first().map(|b| b.root.display().to_string()).unwrap_or_default()
                    )),
                ));
            }
        }
    } else {
        match bundled(spec) {
            Some(s) => (s, Vec::new()),
            None => {
                let names = bundled_names();
                return Err(bare(
                    Diagnostic::error(
                        "conditions::no_such_rulebook",
                        format!("`{spec}` is neither a path nor a bundled rulebook"),
                    )
                    .help(
                        crate::diagnostic::did_you_mean(spec, names.iter().copied())
                            .unwrap_or_else(|| format!("bundled rulebooks: {}", names.join(", "))),
                    ),
                ));
            }
        }
    };
    let checked = crate::check::check_read(sources, std::mem::take(&mut diags));
    diags.extend(checked.diagnostics.iter().filter(|d| d.is_error()).cloned());
    if diags.is_empty() { Ok(checked) } else { Err(LoadError { sources: checked.sources, diagnostics: diags }) }
}

/// A rulebook that could not be loaded: the files read and what was wrong.
#[derive(Debug)]
pub struct LoadError {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads at most `limit` bytes of a file: a larger file (by its size, before reading,
/// or by what it yields, for devices and pipes) is an error, so memory stays bounded.
pub fn read_limited(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let too_large = || std::io::Error::other(format!("larger than the limit of {limit} bytes"));
    if file.metadata().is_ok_and(|m| m.is_file() && m.len() > limit as u64) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_limited`], as UTF-8 text.
pub fn read_text(path: &Path, limit: usize) -> std::io::Result<String> {
    utf8(read_limited(path, limit)?)
}

fn utf8(bytes: Vec<u8>) -> std::io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// [`read_limited`] for a file of a rulebook folder: only a regular file (a symbolic link is
/// followed) is read. A FIFO, a device or a socket is refused without waiting: it is opened
/// without blocking (on Unix) and looked at before anything is read.
pub fn read_regular(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let not_regular = || std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Also when the path became a FIFO since the look above.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    if meta.len() > limit as u64 {
        return Err(std::io::Error::other(format!("larger than the limit of {limit} bytes")));
    }
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::other(format!("larger than the limit of {limit} bytes")));
    }
    Ok(bytes)
}

/// [`read_regular`], as UTF-8 text.
pub fn read_regular_text(path: &Path, limit: usize) -> std::io::Result<String> {
    utf8(read_regular(path, limit)?)
}
