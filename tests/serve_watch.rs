//! `conditions serve --watch`: an edit that breaks a rulebook folder shows its
//! diagnostics (file, line, message) on every page instead of stale rulings, and the
//! fix brings the rulings back, without restarting; told by file-system notifications,
//! and by polling where those cannot be had.

#[path = "support/http.rs"]
mod http;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_file() {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// Polls `path` until `pred` holds, for at most 20 seconds.
fn until(addr: std::net::SocketAddr, path: &str, pred: impl Fn(&http::Response) -> bool) -> http::Response {
    let start = Instant::now();
    loop {
        let r = http::get(addr, path);
        if pred(&r) || start.elapsed() > Duration::from_secs(20) {
            return r;
        }
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// A copy of the GNT folder, named after the test.
fn gnt_copy(test: &str) -> PathBuf {
    let dir: PathBuf = std::env::temp_dir().join(format!("conditions-watch-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions/gnt"), &dir);
    dir
}

/// Breaks the folder's `stage1.cond`, reads the diagnostics off every kind of page, and
/// mends it.
fn break_and_mend(addr: std::net::SocketAddr, dir: &Path) {
    let ok = http::get(addr, "/gnt");
    assert_eq!(ok.status, 200, "{}", ok.body);
    let file = dir.join("stage1.cond");
    let good = std::fs::read_to_string(&file).expect("read");
    std::thread::sleep(Duration::from_millis(50));
    std::fs::write(&file, format!("{good}\nthis is not a declaration\n")).expect("write");
    let broken = until(addr, "/gnt", |r| r.status == 503);
    assert_eq!(broken.status, 503, "{}", broken.body);
    let line = good.lines().count() + 2;
    assert!(broken.body.contains("stage1.cond") && broken.body.contains(&format!(":{line}")), "{}", broken.body);
    // Every page of the rulebook, and its API, say the same.
    let ruling = http::get(addr, "/gnt/ruling/flights");
    assert_eq!(ruling.status, 503);
    assert!(ruling.body.contains("stage1.cond"));
    let api = http::post_json(addr, "/api/rulebooks/gnt/rulings/flights", "{}");
    assert_eq!(api.status, 503);
    assert!(api.body.contains("stage1.cond"), "{}", api.body);
    let index = http::get(addr, "/");
    assert!(index.body.contains("stage1.cond"), "{}", index.body);
    std::fs::write(&file, &good).expect("restore");
    let back = until(addr, "/gnt", |r| r.status == 200);
    assert_eq!(back.status, 200, "{}", back.body);
}

#[test]
fn a_broken_edit_shows_the_diagnostics_and_the_fix_brings_the_rulings_back() {
    let dir = gnt_copy("notified");
    let (tx, rx) = std::sync::mpsc::channel();
    let addr = http::start_with(vec![conditions::serve::Source::Folder(dir.clone())], move |shelf| {
        tx.send(conditions::serve::watch::spawn(shelf)).expect("send");
    });
    let mode = rx.recv_timeout(Duration::from_secs(20)).expect("the watch starts");
    // Linux has inotify: no polling here.
    if cfg!(target_os = "linux") {
        assert_eq!(mode, conditions::serve::watch::Mode::Notified);
    }
    break_and_mend(addr, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_notifications_the_folder_is_polled() {
    let dir = gnt_copy("polled");
    let addr = http::start_with(vec![conditions::serve::Source::Folder(dir.clone())], |shelf| {
        conditions::serve::watch::spawn_polling(shelf);
    });
    break_and_mend(addr, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_bundled_rulebooks_leave_nothing_to_watch() {
    let shelf =
        std::sync::Arc::new(conditions::serve::Shelf::open(&conditions::serve::Source::bundled()).expect("load"));
    assert_eq!(conditions::serve::watch::spawn(shelf), conditions::serve::watch::Mode::Nothing);
}
