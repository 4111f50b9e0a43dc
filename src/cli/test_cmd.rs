//! `conditions test`: runs case files and ends with `N passed, N failed`.

use conditions::cases::{Summary, find_cases, run_case};
use conditions::diagnostic::render;
use conditions::loader::find_rulebooks;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf]) -> ExitCode {
    let mut summary = Summary::default();
    let mut broken = 0usize;
    for path in paths {
        let books = match find_rulebooks(path) {
            Ok(b) => b,
            Err(d) => {
                err!("{}", render(&[d], &Default::default(), true));
                return ExitCode::from(2);
            }
        };
        for book in books {
            let cases = find_cases(&book.root.join("cases"));
            if cases.is_empty() {
                continue;
            }
            let spec = book.root.display().to_string();
            let checked = match conditions::loader::load(&spec) {
                Ok(c) => c,
                Err(e) => {
                    err!("{}", render(&e.diagnostics, &e.sources, !std::io::stderr().is_terminal()));
                    broken += cases.len();
                    continue;
                }
            };
            for case in cases {
                run_case(&checked, &case, &mut summary);
            }
        }
    }
    for f in &summary.failed {
        outln!("FAIL {}{}", f.case.display(), f.ruling.as_ref().map(|r| format!(" — {r}")).unwrap_or_default());
        for line in f.message.lines() {
            outln!("  {line}");
        }
        if let Some(e) = &f.explanation {
            outln!("  explanation:");
            for line in e.lines() {
                outln!("    {line}");
            }
        }
    }
    let failed = summary.failed.len() + broken;
    outln!("{} passed, {} failed", summary.passed, failed);
    if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
