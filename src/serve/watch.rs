//! `--watch`: reloads a rulebook folder when its condition files change. The file
//! system tells of changes (the `notify` crate: inotify, FSEvents, …); a burst of them
//! (an editor's save writes, renames and touches) is waited out for [`QUIET`] and then
//! ruled on once. Where notifications cannot be had (no inotify watches left, a file
//! system without them), the folders are looked at every [`EVERY`] instead: their
//! condition files' names, sizes and modification times.
//!
//! A reload then reads all the folder's condition files and takes them only once a
//! second reading, [`SETTLE`] later, finds the same ([`settled`]); the shelf then
//! decides what of them is served ([`super::Shelf::reload`]).

use super::Shelf;
use super::shelf::Files;
use notify::{EventKind, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant, SystemTime};

/// How long the folder must stay quiet after a change before it is reloaded.
pub const QUIET: Duration = Duration::from_millis(150);

/// How long a folder's files must read the same before a reload takes them.
pub const SETTLE: Duration = Duration::from_millis(250);

/// How many times a reload reads a folder that keeps changing before it gives up (the
/// change that follows starts another).
pub const ROUNDS: usize = 40;

/// All the condition files of a folder once two readings [`SETTLE`] apart find the
/// same; `None` when they still differ after [`ROUNDS`] readings.
pub fn settled(dir: &Path) -> Option<Files> {
    let mut last = Files::read(dir);
    for _ in 0..ROUNDS {
        std::thread::sleep(SETTLE);
        let now = Files::read(dir);
        if now.same(&last) {
            return Some(now);
        }
        last = now;
    }
    None
}

/// How often the folders are looked at when notifications cannot be had.
pub const EVERY: Duration = Duration::from_millis(400);

/// How the folders are watched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Told of changes by the file system.
    Notified,
    /// Looked at every [`EVERY`]: notifications failed, for the reason given.
    Polling(String),
    /// No folder to watch (only bundled rulebooks are served).
    Nothing,
}

type Stamp = Vec<(String, u64, Option<SystemTime>)>;

/// What the condition files of a folder look like now.
pub fn stamp(dir: &Path) -> Stamp {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let path = e.path();
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                if out.len() < 10_000 {
                    todo.push(path);
                }
            } else if is_condition_file(&path) {
                out.push((path.to_string_lossy().into_owned(), meta.len(), meta.modified().ok()));
            }
        }
    }
    out.sort();
    out
}

fn is_condition_file(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "cond")
}

/// Watches every folder of the shelf on a thread of its own, reloading a rulebook
/// when its files change; file-system notifications when they can be had, else
/// polling.
pub fn spawn(shelf: Arc<Shelf>) -> Mode {
    let folders = shelf.folders();
    if folders.is_empty() {
        return Mode::Nothing;
    }
    match notified(&folders) {
        Ok((watcher, events)) => {
            let started = std::thread::Builder::new().name("conditions-watch".into()).spawn(move || {
                let _watcher = watcher;
                debounce(&shelf, &folders, &events);
            });
            match started {
                Ok(_) => Mode::Notified,
                Err(e) => Mode::Polling(format!("cannot start the watching thread: {e}")),
            }
        }
        Err(why) => {
            spawn_polling(shelf);
            Mode::Polling(why)
        }
    }
}

/// A watcher of every folder, and the changes it reports.
fn notified(folders: &[(String, PathBuf)]) -> Result<(notify::RecommendedWatcher, Receiver<notify::Event>), String> {
    let (tx, rx) = channel();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res {
            let _ = tx.send(ev);
        }
    })
    .map_err(|e| format!("file notifications are not available: {e}"))?;
    for (_, path) in folders {
        watcher.watch(path, RecursiveMode::Recursive).map_err(|e| format!("cannot watch `{}`: {e}", path.display()))?;
    }
    Ok((watcher, rx))
}

/// Whether a change can touch the rulebook: a condition file, or a folder (a file
/// system event on a folder may stand for the files in it).
fn matters(ev: &notify::Event) -> bool {
    !matches!(ev.kind, EventKind::Access(_))
        && ev.paths.iter().any(|p| is_condition_file(p) || p.extension().is_none() || p.is_dir())
}

/// The folders a change is in.
fn touched<'a>(folders: &'a [(String, PathBuf)], canon: &[PathBuf], ev: &notify::Event) -> Vec<&'a str> {
    folders
        .iter()
        .zip(canon)
        .filter(|((_, dir), c)| ev.paths.iter().any(|p| p.starts_with(dir) || p.starts_with(c)))
        .map(|((n, _), _)| n.as_str())
        .collect()
}

/// Reloads each folder once its changes have stopped for [`QUIET`].
fn debounce(shelf: &Shelf, folders: &[(String, PathBuf)], events: &Receiver<notify::Event>) {
    let canon: Vec<PathBuf> = folders.iter().map(|(_, p)| p.canonicalize().unwrap_or_else(|_| p.clone())).collect();
    let mut pending: Vec<String> = Vec::new();
    let mut last = Instant::now();
    loop {
        let wait = if pending.is_empty() { Duration::from_secs(3600) } else { QUIET.saturating_sub(last.elapsed()) };
        match events.recv_timeout(wait) {
            Ok(ev) => {
                if matters(&ev) {
                    for n in touched(folders, &canon, &ev) {
                        if !pending.iter().any(|p| p == n) {
                            pending.push(n.to_string());
                        }
                    }
                    last = Instant::now();
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if last.elapsed() >= QUIET {
                    for n in pending.drain(..) {
                        shelf.reload(&n);
                    }
                }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// Looks at every folder of the shelf every [`EVERY`], on a thread of its own,
/// reloading a rulebook when its files' names, sizes or times change.
pub fn spawn_polling(shelf: Arc<Shelf>) {
    let _ = std::thread::Builder::new().name("conditions-poll".into()).spawn(move || {
        let mut seen: Vec<(String, Stamp)> = shelf.folders().into_iter().map(|(n, p)| (n, stamp(&p))).collect();
        loop {
            std::thread::sleep(EVERY);
            for (name, path) in shelf.folders() {
                let now = stamp(&path);
                let Some(slot) = seen.iter_mut().find(|(n, _)| *n == name) else { continue };
                if slot.1 != now {
                    slot.1 = now;
                    shelf.reload(&name);
                }
            }
        }
    });
}
