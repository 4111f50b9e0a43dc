//! `conditions serve --watch`: an edit that breaks a rulebook folder shows its
//! diagnostics (file, line, message) on every page instead of stale rulings, and the
//! fix brings the rulings back, without restarting.

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

#[test]
fn a_broken_edit_shows_the_diagnostics_and_the_fix_brings_the_rulings_back() {
    let dir: PathBuf = std::env::temp_dir().join(format!("conditions-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions/gnt"), &dir);
    let addr = http::start(vec![conditions::serve::Source::Folder(dir.clone())], true);
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
    let _ = std::fs::remove_dir_all(&dir);
}
