//! Scratch copies for tests that edit a rulebook: a folder copied whole, removed again when
//! its [`Scratch`] is dropped, and edits that fail the test when they change nothing.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Copies the folder `from` to `to`, sub-folders too.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch folder");
    for e in std::fs::read_dir(from).expect("readable folder").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A scratch folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Replaces every `from` in `file` by `to`; the file must change.
pub fn edit(file: &Path, from: &str, to: &str) {
    replace(file, from, to, usize::MAX);
}

/// Replaces the first `from` in `file` by `to`; the file must change.
pub fn edit_first(file: &Path, from: &str, to: &str) {
    replace(file, from, to, 1);
}

fn replace(file: &Path, from: &str, to: &str, count: usize) {
    let text = std::fs::read_to_string(file).expect("readable");
    let edited = text.replacen(from, to, count);
    assert_ne!(text, edited, "{}: `{from}`", file.display());
    std::fs::write(file, edited).expect("write");
}
