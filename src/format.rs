//! `conditions fmt`: one canonical layout. The formatted text is parsed again and
//! compared with the original tree (comments included); when they differ nothing is
//! written. Files are replaced atomically (written beside, then renamed).

use crate::diagnostic::Diagnostic;
use crate::syntax::{parse_file, print_file};
use std::path::Path;

/// The canonical form of a condition file's text.
pub fn format_text(text: &str) -> Result<String, Diagnostic> {
    let ast = parse_file(text, 0)?;
    let printed = print_file(&ast);
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
