//! `conditions check`: every problem in every rulebook, errors and lints, reported
//! together — for people (miette), machines (JSON), code scanning (SARIF 2.1.0) or
//! GitHub workflow annotations. At most `MAX_PER_FILE` problems of a file are shown, and a
//! note counts the rest; the totals count every one.

use super::CheckFormat;
use conditions::check::check_read;
use conditions::diagnostic::{Diagnostic, Severity, render};
use conditions::lint::{self, Config, Level};
use conditions::loader::{find_rulebooks, read_rulebook};
use conditions::source::SourceMap;
use std::path::PathBuf;
use std::process::ExitCode;

pub struct CheckArgs {
    pub paths: Vec<PathBuf>,
    pub format: CheckFormat,
    pub deny: Vec<String>,
    pub warn: Vec<String>,
    pub allow: Vec<String>,
    pub source: Option<PathBuf>,
    pub source_root: Option<PathBuf>,
}

fn config(args: &CheckArgs) -> Result<Config, String> {
    let mut cfg = Config::default();
    let known: Vec<&str> = lint::LINTS.iter().map(|(c, _, _)| *c).collect();
    for (list, level) in [(&args.allow, Level::Allow), (&args.warn, Level::Warn), (&args.deny, Level::Deny)] {
        for name in list {
            if name == "warnings" && level == Level::Deny {
                cfg.deny_warnings = true;
                continue;
            }
            let code = if name.starts_with("lint::") { name.clone() } else { format!("lint::{name}") };
            if !known.contains(&code.as_str()) {
                let help = conditions::diagnostic::did_you_mean(&code, known.iter().copied())
                    .unwrap_or_else(|| "see docs/lints.md".into());
                return Err(format!("unknown lint `{name}`; {help}"));
            }
            cfg.levels.insert(code, level);
        }
    }
    Ok(cfg)
}

pub fn run(args: CheckArgs) -> ExitCode {
    let cfg = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let plain = super::plain_stderr();
    let mut io_failed = false;
    let mut all: Vec<(SourceMap, Vec<Diagnostic>)> = Vec::new();
    for path in &args.paths {
        // A bundled rulebook by name, when no such path holds a rulebook.
        if let Some(name) = path.to_str()
            && !conditions::loader::names_a_path(name)
            && let Some(sources) = conditions::loader::bundled(name)
        {
            let checked = check_read(sources, Vec::new());
            let mut diags = checked.diagnostics.clone();
            if !checked.has_errors() {
                let source = checked.program.rulebook.source.as_deref().unwrap_or_default();
                let document = conditions::loader::bundled_document(name, source);
                diags.extend(lint::run(&lint::Context { checked: &checked, document, tested: None }));
            }
            all.push((checked.sources, cfg.apply(diags)));
            continue;
        }
        match find_rulebooks(path) {
            Ok(books) => {
                for book in books {
                    let (sources, problems) = read_rulebook(&book);
                    let checked = check_read(sources, problems);
                    let mut diags = checked.diagnostics.clone();
                    if !checked.has_errors() {
                        diags.extend(lint::for_rulebook(&book.root, &checked, args.source.as_deref()));
                    }
                    all.push((checked.sources, cfg.apply(diags)));
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
    // The counts are of every problem; what is shown of a file stops at a bound, with a note.
    let max = conditions::diagnostic::MAX_PER_FILE;
    let all: Vec<_> = all.into_iter().map(|(s, d)| (s, conditions::diagnostic::cap_per_file(d, max))).collect();
    match args.format {
        CheckFormat::Human => {
            for (sources, diags) in &all {
                err!("{}", render(diags, sources, plain));
            }
            errln!("{errors} error(s), {warnings} warning(s)");
        }
        CheckFormat::Json => {
            let items: Vec<conditions::json::Json> =
                all.iter().flat_map(|(s, ds)| ds.iter().map(move |d| conditions::diagnostic::to_json(d, s))).collect();
            outln!(
                "{}",
                conditions::ojson!({ "diagnostics": items, "errors": errors, "warnings": warnings }).to_pretty()
            );
        }
        CheckFormat::Sarif => {
            // The documentation linked from the log: the checkout's `docs/` above the source
            // root, the working directory or the command itself.
            let exe = std::env::current_exe().ok();
            let docs = [args.source_root.as_deref(), Some(std::path::Path::new(".")), exe.as_deref()]
                .into_iter()
                .flatten()
                .find_map(conditions::sarif::docs_dir)
                .map(|d| conditions::sarif::file_uri(&d, true));
            let places = conditions::sarif::Places { source_root: args.source_root.clone(), docs };
            outln!("{}", conditions::sarif::sarif(&all, &places).to_pretty())
        }
        CheckFormat::Github => {
            for (sources, diags) in &all {
                for d in diags {
                    outln!("{}", conditions::sarif::github_annotation(d, sources));
                }
            }
            // The annotations on standard output; the counts for the reader of the log.
            errln!("{errors} error(s), {warnings} warning(s)");
        }
    }
    let _ = Severity::Error;
    if io_failed {
        ExitCode::from(2)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
