//! `conditions fmt`: rewrite condition files in the canonical layout, or `--check` them.

use conditions::diagnostic::render;
use conditions::format::{RewriteError, format_text, rewrite};
use conditions::loader::find_rulebooks;
use conditions::source::SourceMap;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], check: bool) -> ExitCode {
    let mut files = Vec::new();
    for path in paths {
        match find_rulebooks(path) {
            Ok(books) => files.extend(books.into_iter().flat_map(|b| b.files)),
            Err(d) => {
                err!("{}", render(&[d], &SourceMap::new(), true));
                return ExitCode::from(2);
            }
        }
    }
    let mut changed = 0;
    let mut failed = false;
    for f in files {
        let text = match conditions::loader::read_regular_text(&f, conditions::syntax::parser::MAX_FILE_BYTES) {
            Ok(t) => t,
            Err(e) => {
                errln!("error[conditions::io]: cannot read `{}`: {e}", f.display());
                failed = true;
                continue;
            }
        };
        match format_text(&text) {
            Ok(formatted) if formatted == text => {}
            Ok(formatted) => {
                changed += 1;
                if check {
                    outln!("would reformat {}", f.display());
                } else {
                    match rewrite(&f, &text, &formatted) {
                        Ok(()) => outln!("formatted {}", f.display()),
                        Err(e @ (RewriteError::Appended | RewriteError::StillOpen)) => {
                            errln!(
                                "error[conditions::fmt_late_write]: `{}` formatted, but {e}; look it over",
                                f.display()
                            );
                            failed = true;
                        }
                        Err(e) => {
                            errln!("error[conditions::fmt_not_written]: `{}` not formatted: {e}", f.display());
                            failed = true;
                        }
                    }
                }
            }
            Err(d) => {
                let mut map = SourceMap::new();
                map.add(f.display().to_string(), text);
                err!("{}", render(&[d], &map, true));
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else if check && changed > 0 {
        errln!("{changed} file(s) not formatted; run `conditions fmt`");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
