//! `conditions check`: every problem in every rulebook, reported together.

use super::CheckFormat;
use conditions::check::check_read;
use conditions::diagnostic::{Diagnostic, render};
use conditions::loader::{find_rulebooks, read_rulebook};
use conditions::source::SourceMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], format: CheckFormat) -> ExitCode {
    let plain = !std::io::stderr().is_terminal();
    let mut io_failed = false;
    let mut all: Vec<(SourceMap, Vec<Diagnostic>)> = Vec::new();
    for path in paths {
        match find_rulebooks(path) {
            Ok(books) => {
                for book in books {
                    let (sources, problems) = read_rulebook(&book);
                    let checked = check_read(sources, problems);
                    all.push((checked.sources, checked.diagnostics));
                }
            }
            Err(d) => {
                io_failed = true;
                all.push((SourceMap::new(), vec![d]));
            }
        }
    }
    let errors: usize = all.iter().map(|(_, d)| d.iter().filter(|x| x.is_error()).count()).sum();
    let warnings: usize = all.iter().map(|(_, d)| d.iter().filter(|x| !x.is_error()).count()).sum();
    match format {
        CheckFormat::Human => {
            for (sources, diags) in &all {
                eprint!("{}", render(diags, sources, plain));
            }
            eprintln!("{} error(s), {} warning(s)", errors, warnings);
        }
        CheckFormat::Json => {
            let items: Vec<serde_json::Value> =
                all.iter().flat_map(|(s, ds)| ds.iter().map(move |d| conditions::diagnostic::to_json(d, s))).collect();
            outln!("{}", serde_json::to_string_pretty(&serde_json::json!({ "diagnostics": items, "errors": errors, "warnings": warnings })).unwrap_or_default());
        }
    }
    if io_failed {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
