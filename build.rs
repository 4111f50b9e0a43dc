//! Bundles the rulebooks under `conditions/` into the binary, so that an
//! installed `conditions` can rule on `gnt` and `dbf` without a checkout, and the
//! message files under `messages/`, so that a new language is a new file.

use std::fmt::Write;
use std::path::Path;

fn main() {
    messages();
    let root = manifest_dir().join("conditions");
    println!("cargo:rerun-if-changed=conditions");
    let mut out = String::from(
        "/// Bundled rulebooks: name, then (path, text) of each file.\npub static BUNDLED: &[(&str, &[(&str, &str)])] = &[\n",
    );
    // A missing folder is an error here, not an empty bundle: the binary would build and
    // then know no rulebook at all.
    let mut books: Vec<_> = std::fs::read_dir(&root)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_else(|e| panic!("cannot read the rulebooks in {}: {e}", root.display()));
    books.sort();
    for book in books {
        let name = book.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        println!("cargo:rerun-if-changed={}", book.display());
        let mut files: Vec<_> = std::fs::read_dir(&book)
            .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect())
            .unwrap_or_default();
        files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "cond" || x == "txt"));
        files.sort();
        if !files.iter().any(|p| p.extension().is_some_and(|x| x == "cond")) {
            continue;
        }
        let _ = writeln!(out, "    ({name:?}, &[");
        for f in files {
            println!("cargo:rerun-if-changed={}", f.display());
            let rel = format!("conditions/{}/{}", name, f.file_name().and_then(|n| n.to_str()).unwrap_or_default());
            let _ = writeln!(out, "        ({rel:?}, include_str!({:?})),", f.display().to_string());
        }
        // The case files too, so that `conditions test NAME` runs without a checkout.
        let mut cases = Vec::new();
        let mut stack = vec![book.join("cases")];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            println!("cargo:rerun-if-changed={}", d.display());
            for e in rd.filter_map(|e| e.ok()) {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "toml") {
                    cases.push(p);
                }
            }
        }
        cases.sort();
        for c in cases {
            println!("cargo:rerun-if-changed={}", c.display());
            let inner = c.strip_prefix(&book).map(|p| p.display().to_string()).unwrap_or_default();
            let rel = format!("conditions/{name}/{inner}");
            let _ = writeln!(out, "        ({rel:?}, include_str!({:?})),", c.display().to_string());
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("bundled.rs");
    std::fs::write(dest, out).unwrap_or_else(|e| panic!("cannot write bundled.rs: {e}"));
}

/// Every file of `messages/` (the frame words of each language), by file name.
/// The package's folder as cargo names it when it runs this script, not where the
/// script was compiled: a checkout moved with its `target/` still bundles its own files.
fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from).expect("cargo sets CARGO_MANIFEST_DIR")
}

fn messages() {
    let dir = manifest_dir().join("messages");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_else(|e| panic!("cannot read the message files in {}: {e}", dir.display()));
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "ftl" || x == "toml"));
    files.sort();
    let mut out =
        String::from("/// The message files: file name, then text.\npub static FILES: &[(&str, &str)] = &[\n");
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", f.display().to_string());
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("messages.rs");
    std::fs::write(dest, out).unwrap_or_else(|e| panic!("cannot write messages.rs: {e}"));
}
