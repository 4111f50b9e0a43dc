//! `conditions rename RULEBOOK OLD NEW`: renames a fact, decision, ruling, definition or
//! record field (`Record.field`) where the checker resolves it — its declaration, with a
//! `renamed from OLD` note for `conditions diff`, and every use in rule code — and in the
//! rulebook's case files (facts keys, expectations' rulings); never in printed text, glosses,
//! descriptions or the published document. The analysis is the language server's rename
//! ([`conditions::analysis::rename`]). `--dry-run` shows the lines it would change.
//! Nothing is written unless every edit can be made: exit 0 renamed, 1 refused (the
//! reason said), 2 a rulebook that cannot be read or does not check.

use conditions::analysis::rename;
use conditions::analysis::rename_cases::{self, Renamed};
use conditions::analysis::{Analysis, Target};
use conditions::diagnostic::render;
use conditions::format::{RewriteError, rewrite};
use conditions::source::SourceMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct RenameArgs {
    pub rulebook: PathBuf,
    pub old: String,
    pub new: String,
    pub dry_run: bool,
}

/// One file to change: its path, its text now, its text renamed.
struct Change {
    path: PathBuf,
    before: String,
    after: String,
}

fn refuse(why: &str) -> ExitCode {
    errln!("error[conditions::rename]: {why}");
    ExitCode::from(1)
}

pub fn run(args: RenameArgs) -> ExitCode {
    let spec = args.rulebook.display().to_string();
    if !args.rulebook.exists() {
        let bundled = conditions::loader::bundled_names().contains(&spec.as_str());
        errln!(
            "error[conditions::io]: `{spec}` does not exist{}",
            if bundled {
                "\n  help: `rename` edits files: give the rulebook's folder by path (`conditions/gnt`), not a bundled name"
            } else {
                ""
            }
        );
        return ExitCode::from(2);
    }
    let books = match conditions::loader::find_rulebooks(&args.rulebook) {
        Ok(b) => b,
        Err(d) => {
            err!("{}", render(&[d], &SourceMap::new(), super::plain_stderr()));
            return ExitCode::from(2);
        }
    };
    let [book] = books.as_slice() else {
        errln!("error[conditions::several_rulebooks]: `{spec}` holds {} rulebooks; name one", books.len());
        return ExitCode::from(2);
    };
    let (sources, problems) = conditions::loader::read_rulebook(book);
    let a = Analysis::new(sources, problems);
    if a.checked.has_errors() || !a.complete {
        let errors: Vec<_> = a.checked.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        err!("{}", render(&errors, &a.checked.sources, super::plain_stderr()));
        errln!("error: `{spec}` does not check; correct it before renaming (nothing renamed)");
        return ExitCode::from(2);
    }
    let target = match rename::resolve(&a, &args.old) {
        Ok(t) => t,
        Err(e) => return refuse(&e),
    };
    let mut edits = match rename::edits(&a, target, &args.new) {
        Ok(e) => e,
        Err(e) => return refuse(&e),
    };
    let old_full = a.name(target);
    let old_short = old_full.rsplit_once('.').map_or(old_full.as_str(), |x| x.1).to_string();
    let new_short = edits.iter().find(|e| e.is_decl).map_or(args.new.clone(), |e| e.new_text.clone());
    if old_short == new_short {
        return refuse(&format!("`{}` already has that name", args.old));
    }
    let mut remarks = Vec::new();
    // The name's places, counted before the note is added beside the declaration.
    let renamed_places = edits.len();
    let noted = match rename::note(&a, target, &old_short) {
        Ok(note) => {
            edits.push(note);
            format!(", noted `renamed from {old_short}`")
        }
        Err(why) => {
            remarks.push(why);
            String::new()
        }
    };
    let Some(files) = rename::apply(&a, &edits) else {
        return refuse("the rulebook changed while renaming; try again");
    };
    let mut changes: Vec<Change> = Vec::new();
    for ((name, after), (_, f)) in files.into_iter().zip(a.checked.sources.files()) {
        if *f.text != *after {
            changes.push(Change { path: PathBuf::from(name), before: f.text.to_string(), after });
        }
    }
    let rulebook_files = changes.len();
    let new_full = match old_full.rsplit_once('.') {
        Some((sec, _)) if !matches!(target, Target::Field(..)) => format!("{sec}.{new_short}"),
        _ => new_short.clone(),
    };
    let what = match target {
        Target::Fact(_) | Target::Decision(_) => Renamed::Input { old: old_full.clone(), new: new_full.clone() },
        Target::Def(_) => Renamed::Ruling { old: old_full.clone(), new: new_full.clone() },
        Target::Field(record, _) => Renamed::Field { record, old: old_short.clone(), new: new_short.clone() },
        _ => return refuse("only a fact, decision, ruling, definition or record field is renamed here"),
    };
    let mut unrenamed = Vec::new();
    for case in conditions::cases::find_cases(&book.root.join("cases")) {
        let text = match conditions::cases::read_case(&case) {
            Ok(t) => t,
            Err(e) => {
                unrenamed.push(format!("{}: {e}", case.display()));
                continue;
            }
        };
        match rename_cases::edits(&a.checked.program, &what, &text) {
            Ok(e) if e.is_empty() => {}
            Ok(e) => {
                let after = rename_cases::apply(&text, &e);
                changes.push(Change { path: case, before: text, after });
            }
            Err(why) => unrenamed.push(format!("{}: {why}", case.display())),
        }
    }
    if !unrenamed.is_empty() {
        errln!("error[conditions::rename]: some case files cannot be renamed exactly; nothing renamed:");
        for u in &unrenamed {
            errln!("  {u}");
        }
        return ExitCode::from(1);
    }
    let shown_old = match target {
        Target::Field(..) => args.old.clone(),
        _ => old_full.clone(),
    };
    let shown_new = match target {
        Target::Field(..) => format!("{}.{new_short}", args.old.rsplit_once('.').map_or("", |x| x.0)),
        _ => new_full.clone(),
    };
    let summary = format!(
        "`{shown_old}` → `{shown_new}`: {} in the rulebook ({} file{}){noted}, {} case file{}",
        places(renamed_places),
        rulebook_files,
        if rulebook_files == 1 { "" } else { "s" },
        changes.len() - rulebook_files,
        if changes.len() - rulebook_files == 1 { "" } else { "s" },
    );
    if args.dry_run {
        for c in &changes {
            show_lines(c);
        }
        outln!("would rename {summary}");
    } else {
        for c in &changes {
            match rewrite(&c.path, &c.before, &c.after) {
                Ok(()) => {}
                Err(e @ (RewriteError::Appended | RewriteError::StillOpen)) => {
                    errln!("error[conditions::rename]: `{}` renamed, but {e}; look it over", c.path.display());
                }
                Err(e) => {
                    errln!("error[conditions::rename]: `{}` not renamed: {e}", c.path.display());
                    return ExitCode::from(2);
                }
            }
        }
        outln!("renamed {summary}");
    }
    for r in remarks {
        outln!("note: {r}");
    }
    let key =
        old_full.rsplit_once('.').filter(|_| matches!(target, Target::Field(..))).map_or(old_short.as_str(), |x| x.1);
    let kept = facts_files_writing(&book.root, key);
    if !kept.is_empty() {
        outln!(
            "note: these facts files in the rulebook's folder may still write `{key}`, and are not renamed: {}",
            kept.join(", ")
        );
    }
    if !args.dry_run {
        outln!("facts files kept outside the rulebook (for `conditions rule`) still write `{key}`: change them too");
    }
    ExitCode::SUCCESS
}

/// The facts files (JSON, TOML, YAML) under the rulebook's folder, outside `cases/`, whose
/// text holds `key` as a key: `"key"`, `key =` or `key:`.
fn facts_files_writing(root: &Path, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                if p != root.join("cases") {
                    stack.push(p);
                }
                continue;
            }
            let facts = p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| matches!(x, "json" | "jsonl" | "toml" | "yaml" | "yml"));
            if !facts {
                continue;
            }
            let Ok(text) = conditions::loader::read_text(&p, conditions::facts::MAX_FACTS_BYTES) else { continue };
            let written = [format!("\"{key}\""), format!("{key} ="), format!("{key}:"), format!("{key}=")];
            if written.iter().any(|w| text.contains(w.as_str())) {
                out.push(shown(&p));
            }
        }
    }
    out
}

/// `5 places` (the declaration, the uses, the note).
fn places(n: usize) -> String {
    format!("{n} place{}", if n == 1 { "" } else { "s" })
}

/// The lines of a file that change, before and after.
fn show_lines(c: &Change) {
    outln!("{}", shown(&c.path));
    let (a, b): (Vec<&str>, Vec<&str>) = (c.before.lines().collect(), c.after.lines().collect());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            outln!("  {}: - {}", i + 1, x.trim());
            outln!("  {}: + {}", i + 1, y.trim());
        }
    }
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}
