//! Diagnostics as the editor types: every error and lint of the rulebook a changed file
//! belongs to, computed on a worker thread once the typing has paused, and published for
//! every file of the rulebook (empty lists clear what was shown before). As `check` does, at
//! most [`MAX_PER_FILE`] are shown for a file, and one note counts the rest; each file's line
//! starts are found once, not once a diagnostic.

use super::convert::{LineIndex, path_to_uri};
use super::workspace::{Cache, Loaded, Parses, Snapshot, load, parse_cache};
use crate::diagnostic::{Diagnostic, MAX_PER_FILE, Severity, cap_per_file};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Message, Notification};
use lsp_types as lt;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long typing must pause before a rulebook is checked again.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Starts the worker; send it a snapshot whenever a rulebook changes.
pub fn spawn(out: Sender<Message>, cache: Cache, parses: Parses) -> (Sender<Snapshot>, std::thread::JoinHandle<()>) {
    let (tx, rx) = crossbeam_channel::unbounded::<Snapshot>();
    let handle = std::thread::spawn(move || worker(&rx, &out, &cache, &parses));
    (tx, handle)
}

fn worker(rx: &Receiver<Snapshot>, out: &Sender<Message>, cache: &Cache, parses: &Parses) {
    let mut pending: HashMap<PathBuf, Snapshot> = HashMap::new();
    let mut shown: HashMap<PathBuf, HashSet<PathBuf>> = HashMap::new();
    loop {
        if pending.is_empty() {
            match rx.recv() {
                Ok(s) => {
                    pending.insert(s.root.clone(), s);
                }
                Err(_) => return,
            }
        }
        // Wait for a pause in the typing.
        loop {
            match rx.recv_timeout(DEBOUNCE) {
                Ok(s) => {
                    pending.insert(s.root.clone(), s);
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let Some(root) = pending.keys().next().cloned() else { continue };
        let Some(snapshot) = pending.remove(&root) else { continue };
        let work = || {
            let loaded = Arc::new(load(&snapshot, &parse_cache(parses, &root)));
            let lints = lints(&loaded);
            (loaded, lints)
        };
        let Ok((loaded, lints)) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) else {
            continue; // reported on standard error by the panic hook; the next edit tries again
        };
        while let Ok(s) = rx.try_recv() {
            pending.insert(s.root.clone(), s);
        }
        if let Ok(mut c) = cache.lock()
            && c.get(&root).is_none_or(|old| old.generation <= loaded.generation)
        {
            c.insert(root.clone(), loaded.clone());
        }
        if pending.contains_key(&root) {
            continue; // already out of date: the newer text is checked next
        }
        let now = publish(&loaded, &lints, out, shown.get(&root));
        shown.insert(root, now);
    }
}

/// The lints of a rulebook that has no errors.
fn lints(loaded: &Loaded) -> Vec<Diagnostic> {
    let checked = &loaded.analysis.checked;
    if checked.has_errors() || loaded.paths.is_empty() {
        return Vec::new();
    }
    crate::lint::for_rulebook(&loaded.root, checked, None)
}

/// Publishes the diagnostics of every file; returns the files that have some.
fn publish(
    loaded: &Loaded,
    lints: &[Diagnostic],
    out: &Sender<Message>,
    before: Option<&HashSet<PathBuf>>,
) -> HashSet<PathBuf> {
    let docs = docs_dir(&loaded.root);
    let mut by_file: HashMap<PathBuf, Vec<lt::Diagnostic>> = HashMap::new();
    for p in &loaded.paths {
        by_file.insert(p.clone(), Vec::new());
    }
    let all = loaded.analysis.checked.diagnostics.iter().chain(lints).cloned().collect();
    let mut lines: HashMap<u32, LineIndex> = HashMap::new();
    for d in &cap_per_file(all, MAX_PER_FILE) {
        let (path, diag) = convert(loaded, d, docs.as_deref(), &mut lines);
        by_file.entry(path).or_default().push(diag);
    }
    for p in before.into_iter().flatten() {
        by_file.entry(p.clone()).or_default();
    }
    let mut shown = HashSet::new();
    for (path, diagnostics) in by_file {
        if !diagnostics.is_empty() {
            shown.insert(path.clone());
        }
        let Some(uri) = path_to_uri(&path) else { continue };
        let params = lt::PublishDiagnosticsParams { uri, diagnostics, version: None };
        let _ = out.send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)));
    }
    shown
}

/// The project's `docs/` folder above a rulebook, for links to the explanation of each code.
fn docs_dir(root: &Path) -> Option<PathBuf> {
    crate::sarif::docs_dir(root)
}

/// The link to a code's explanation: its heading in `docs/lints.md` or the section of
/// `docs/diagnostics.md` that lists it ([`crate::sarif::doc_path`]).
fn code_link(code: &str, docs: Option<&Path>) -> Option<lt::CodeDescription> {
    let docs = docs?;
    let doc = crate::sarif::doc_path(code);
    let (page, anchor) =
        doc.trim_start_matches("docs/").split_once('#').map_or((doc.as_str(), None), |(p, a)| (p, Some(a)));
    let page = page.trim_start_matches("docs/");
    let mut uri = path_to_uri(&docs.join(page))?.as_str().to_string();
    if let Some(anchor) = anchor {
        uri.push('#');
        uri.push_str(anchor);
    }
    Some(lt::CodeDescription { href: uri.parse().ok()? })
}

/// The name a `did you mean` help suggests.
pub fn suggestion(help: &str) -> Option<&str> {
    let rest = &help[help.find("did you mean `")? + "did you mean `".len()..];
    Some(&rest[..rest.find('`')?])
}

/// A diagnostic for the protocol, and the file it is shown in.
fn convert<'a>(
    loaded: &'a Loaded,
    d: &Diagnostic,
    docs: Option<&Path>,
    lines: &mut HashMap<u32, LineIndex<'a>>,
) -> (PathBuf, lt::Diagnostic) {
    let span = d.primary_span();
    let (path, range) = match span.and_then(|s| loaded.paths.get(s.file as usize).map(|p| (s, p))) {
        Some((s, p)) => {
            let ix = lines.entry(s.file).or_insert_with(|| LineIndex::new(loaded.text(s.file)));
            (p.clone(), ix.range(s.start as usize, s.end as usize))
        }
        None => {
            let named = d.path.as_ref().and_then(|n| loaded.paths.iter().find(|p| p.display().to_string() == *n));
            let header = loaded.paths.get(loaded.analysis.checked.program.rulebook.span.file as usize);
            let p = named.or(header).or(loaded.paths.first()).cloned().unwrap_or_default();
            (p, lt::Range::default())
        }
    };
    let related: Vec<lt::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .skip(1)
        .filter_map(|l| {
            let p = loaded.paths.get(l.span.file as usize)?;
            let ix = lines.entry(l.span.file).or_insert_with(|| LineIndex::new(loaded.text(l.span.file)));
            Some(lt::DiagnosticRelatedInformation {
                location: lt::Location::new(path_to_uri(p)?, ix.range(l.span.start as usize, l.span.end as usize)),
                message: l.message.clone().unwrap_or_default(),
            })
        })
        .collect();
    let mut message = d.message.clone();
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let data = d.help.as_deref().and_then(suggestion).map(|s| serde_json::json!({ "replacement": s }));
    let diag = lt::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
        }),
        code: Some(lt::NumberOrString::String(d.code.to_string())),
        code_description: code_link(d.code, docs),
        source: Some("conditions".into()),
        message,
        related_information: if related.is_empty() { None } else { Some(related) },
        tags: None,
        data,
    };
    (path, diag)
}
