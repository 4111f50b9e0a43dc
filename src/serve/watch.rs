//! `--watch`: polls the folders served for changed condition files (their names,
//! sizes and modification times) and reloads a rulebook when its files change.

use super::Shelf;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// How often the folders are looked at.
pub const EVERY: Duration = Duration::from_millis(400);

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
            } else if path.extension().is_some_and(|x| x == "cond") {
                out.push((path.to_string_lossy().into_owned(), meta.len(), meta.modified().ok()));
            }
        }
    }
    out.sort();
    out
}

/// Watches every folder of the shelf, reloading on change.
pub fn spawn(shelf: Arc<Shelf>) {
    tokio::spawn(async move {
        let mut seen: Vec<(String, Stamp)> = shelf.folders().into_iter().map(|(n, p)| (n, stamp(&p))).collect();
        loop {
            tokio::time::sleep(EVERY).await;
            for (name, path) in shelf.folders() {
                let now = stamp(&path);
                let Some(slot) = seen.iter_mut().find(|(n, _)| *n == name) else { continue };
                if slot.1 != now {
                    slot.1 = now;
                    let s = shelf.clone();
                    let n = name.clone();
                    let _ = tokio::task::spawn_blocking(move || s.reload(&n)).await;
                }
            }
        }
    });
}
