//! `conditions diff OLD NEW`: what an edit changes. OLD and NEW are rulebook folders (or
//! bundled names), or git revisions `REV:path`; the rulings are compared over the case
//! files (`--cases DIR…`, default the `cases/` of NEW, else of OLD) and facts lines
//! (`--facts FILE.jsonl…`); names renamed between them (`--rename OLD=NEW`, `renamed from`
//! notes, the heuristic) are translated back for the old version. Exit 0, or 1 with `--fail-on-change` when anything changes;
//! 2 when a version cannot be read or does not check.

use conditions::diagnostic::{Diagnostic, render};
use conditions::diff::{Inputs, Version, diff_renamed, renames::find_renames, render as show};
use conditions::source::SourceMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
    Github,
}

pub struct DiffArgs {
    pub old: String,
    pub new: String,
    pub cases: Vec<PathBuf>,
    pub facts: Vec<PathBuf>,
    pub format: DiffFormat,
    pub fail_on_change: bool,
    /// `OLD=NEW` pairs, as written.
    pub rename: Vec<String>,
}

fn git(args: &[&str]) -> Result<String, String> {
    let out = Command::new("git").args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8(out.stdout).map_err(|_| "git printed text that is not UTF-8".to_string())
}

/// The `.cond` files of `path` at revision `rev`.
fn from_git(spec: &str, rev: &str, path: &str) -> Result<SourceMap, Diagnostic> {
    let fail = |m: String| {
        Diagnostic::error("conditions::git", format!("cannot read `{spec}`: {m}"))
            .help("write a git revision and a path in it: `HEAD~1:conditions/gnt`, `main:conditions/dbf`")
    };
    let listing = git(&["ls-tree", "-r", "--name-only", rev, "--", path]).map_err(fail)?;
    let mut map = SourceMap::new();
    for file in listing.lines().filter(|f| f.ends_with(".cond")) {
        let text = git(&["show", &format!("{rev}:{file}")]).map_err(fail)?;
        map.add(format!("{rev}:{file}"), text);
    }
    if map.files().next().is_none() {
        return Err(fail(format!("no `.cond` files under `{path}` at `{rev}`")));
    }
    Ok(map)
}

/// Reads and checks one version; a version with errors is reported and refused.
fn version(spec: &str) -> Result<(Version, Option<PathBuf>), ExitCode> {
    let refuse = |diags: &[Diagnostic], sources: &SourceMap| {
        err!("{}", render(diags, sources, super::plain_stderr()));
        errln!("error: `{spec}` cannot be read or does not check; nothing compared");
        ExitCode::from(2)
    };
    let git_spec = (!Path::new(spec).exists()).then(|| spec.split_once(':')).flatten();
    let (checked, folder) = match git_spec {
        Some((rev, path)) => {
            let sources = from_git(spec, rev, path).map_err(|d| refuse(&[d], &SourceMap::new()))?;
            (conditions::diff::check_sources(sources), Some(PathBuf::from(path)).filter(|p| p.is_dir()))
        }
        None => {
            let checked = conditions::loader::load(spec).map_err(|e| refuse(&e.diagnostics, &e.sources))?;
            (checked, Some(PathBuf::from(spec)).filter(|p| p.is_dir()))
        }
    };
    if checked.has_errors() {
        let errors: Vec<Diagnostic> = checked
            .diagnostics
            .iter()
            .filter(|d| d.severity == conditions::diagnostic::Severity::Error)
            .cloned()
            .collect();
        return Err(refuse(&errors, &checked.sources));
    }
    Ok((Version { label: spec.to_string(), checked }, folder))
}

/// A path as an annotation names it: relative to the working folder (the repository's top
/// folder in a workflow) when it lies inside it, without the `REV:` of a git version.
fn from_here(path: &str) -> String {
    let path = match path.split_once(':') {
        Some((_, rest)) if !Path::new(path).exists() && !rest.is_empty() => rest,
        _ => path,
    };
    let p = Path::new(path);
    let here = std::env::current_dir().ok();
    let relative = here.as_deref().and_then(|h| p.strip_prefix(h).ok()).filter(|_| p.is_absolute());
    relative.unwrap_or(p).display().to_string()
}

/// The case files of `dirs`, each named by its path inside its folder when there is one
/// folder (by its path from the working folder for `github`, whose annotations need it).
fn named_cases(dirs: &[PathBuf], full_paths: bool) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in dirs {
        for case in conditions::cases::find_cases(dir) {
            let name = if full_paths {
                from_here(&case.display().to_string())
            } else if dirs.len() == 1 {
                case.strip_prefix(dir).map_or_else(|_| case.display().to_string(), |r| r.display().to_string())
            } else {
                case.display().to_string()
            };
            out.push((name, case));
        }
    }
    out
}

pub fn run(args: DiffArgs) -> ExitCode {
    let (old, old_dir) = match version(&args.old) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let (new, new_dir) = match version(&args.new) {
        Ok(v) => v,
        Err(code) => return code,
    };
    let dirs: Vec<PathBuf> = if args.cases.is_empty() {
        [new_dir, old_dir].into_iter().flatten().map(|d| d.join("cases")).find(|c| c.is_dir()).into_iter().collect()
    } else {
        args.cases.clone()
    };
    for d in dirs.iter().chain(&args.facts) {
        if !d.exists() {
            errln!("error[conditions::io]: `{}` does not exist", d.display());
            return ExitCode::from(2);
        }
    }
    let inputs = Inputs {
        cases: named_cases(&dirs, args.format == DiffFormat::Github),
        facts: args
            .facts
            .iter()
            .map(|f| {
                let shown = f.display().to_string();
                (if args.format == DiffFormat::Github { from_here(&shown) } else { shown }, f.clone())
            })
            .collect(),
    };
    let mut asked = Vec::new();
    for r in &args.rename {
        match r.split_once('=').map(|(o, n)| (o.trim(), n.trim())) {
            Some((o, n)) if !o.is_empty() && !n.is_empty() => asked.push((o.to_string(), n.to_string())),
            _ => {
                errln!("error: `--rename {r}`: write the old name, `=`, and the new name: `--rename member=present`");
                return ExitCode::from(2);
            }
        }
    }
    let renames = match find_renames(&old.checked, &new.checked, &asked) {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut report = diff_renamed(&old, &new, &inputs, &renames);
    if args.format == DiffFormat::Github {
        for c in &mut report.clauses {
            c.file = c.file.as_deref().map(from_here);
        }
    }
    let shown = match args.format {
        DiffFormat::Text => show::text(&report),
        DiffFormat::Markdown => show::markdown(&report),
        DiffFormat::Json => show::json(&report),
        DiffFormat::Github => show::github(&report),
    };
    out!("{shown}");
    if args.format == DiffFormat::Json {
        outln!();
    }
    if args.fail_on_change && report.changed() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
