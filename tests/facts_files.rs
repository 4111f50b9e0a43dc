//! Broken facts files: each gets an error naming the path in the file
//! (`team.players[1].masterpoints`), the expected type and, where declared in a
//! clause, that clause; never a panic. Snapshots of the messages.

use conditions::facts::{Format, parse, validate};
use std::path::PathBuf;

fn messages(path: &PathBuf, p: &conditions::check::Program) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let bytes = std::fs::read(path).expect("readable");
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => return format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()),
    };
    let result = parse(&text, Format::for_path(&name), &name).map_err(|d| vec![d]).and_then(|t| validate(p, &t, &name));
    match result {
        Ok(_) => "accepted".into(),
        Err(diags) => diags
            .iter()
            .map(|d| {
                format!(
                    "{} [{}]\n  at: {}\n  help: {}",
                    d.message,
                    d.code,
                    d.path.clone().unwrap_or_default(),
                    d.help.clone().unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn broken_facts_files_are_reported_by_path() {
    let book = conditions::loader::load("tests/fixtures/team").unwrap_or_else(|e| panic!("{:?}", e.diagnostics));
    let mut files: Vec<PathBuf> =
        std::fs::read_dir("tests/facts").expect("tests/facts").filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    assert!(files.len() >= 25);
    for path in files {
        let out = messages(&path, &book.program);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().replace('.', "_");
        if !name.starts_with("negative") {
            assert_ne!(out, "accepted", "{name} was accepted");
        }
        insta::assert_snapshot!(format!("facts_{name}"), out);
    }
}
