//! `conditions serve --watch`: an edit that breaks a rulebook folder shows its
//! diagnostics (file, line, message) on every page instead of stale rulings, and the
//! fix brings the rulings back, without restarting; told by file-system notifications,
//! and by polling where those cannot be had. A file written in parts, paused longer
//! than the debounce at a clause boundary where it checks with new warnings, is never
//! served: the version served stays until the whole file has settled. Every page and
//! the API's rulebook answers say which version is served.

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
    // The diagnostics are those of a version of the files, named.
    let broken_hash = version(addr).0;
    assert!(broken.body.contains(&broken_hash), "{}", broken.body);
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

/// The version served of the folder's `gnt`: its hash, and the hash held back if any.
fn version(addr: std::net::SocketAddr) -> (String, Option<String>) {
    let r = http::get(addr, "/api/rulebooks");
    let all = r.json();
    let v = all["rulebooks"]
        .as_array()
        .and_then(|a| a.iter().find(|b| b["name"] == "gnt"))
        .map(|b| b["version"].clone())
        .unwrap_or_else(|| panic!("no gnt: {}", r.body));
    let hash = v["hash"].as_str().unwrap_or_else(|| panic!("no version hash: {}", r.body)).to_string();
    assert_eq!(hash.len(), 12, "{}", r.body);
    assert!(v["loaded"].as_str().is_some_and(|t| t.ends_with('Z')), "{}", r.body);
    (hash, v["held_back"]["hash"].as_str().map(str::to_string))
}

/// A server watching a copy of GNT, once the watch has started.
fn watched(test: &str) -> (std::net::SocketAddr, PathBuf) {
    let dir = gnt_copy(test);
    let (tx, rx) = std::sync::mpsc::channel();
    let addr = http::start_with(vec![conditions::serve::Source::Folder(dir.clone())], move |shelf| {
        tx.send(conditions::serve::watch::spawn(shelf)).expect("send");
    });
    rx.recv_timeout(Duration::from_secs(20)).expect("the watch starts");
    (addr, dir)
}

/// Facts under which a substitute may play, but for a suspended team member.
const SUSPENDED: &str = r#"{"player": {"name": "Sub", "masterpoints": 300, "life_master": false,
  "district17_unit_member": true}, "event_flight": "C", "event_stage": "ClubQualifying",
  "substitutes_in_play": 0, "members_of_record_available": 3, "substitute_period": "5 hours",
  "substitute_boards": 36, "team_boards_in_event": 56, "team_member_suspended_or_expelled": true,
  "substitute_approved": true, "substitute_strengthens_team": false}"#;

/// Whether a substitute may play for a team with a suspended member, as the server rules,
/// and the version it ruled on (read before and after: `None` when it changed between).
fn may_play(addr: std::net::SocketAddr) -> (serde_json::Value, Option<String>) {
    let before = version(addr).0;
    let r = http::post_json(addr, "/api/rulebooks/gnt/rulings/substitute_permitted", SUSPENDED);
    assert_eq!(r.status, 200, "{}", r.body);
    let value = r.json()["value"].clone();
    let after = version(addr).0;
    (value, (before == after).then_some(after))
}

/// `players.cond` rewritten so that the two rules on a suspended member come last, in a
/// clause of their own: the text up to that clause (which checks, but its fact
/// `team_member_suspended_or_expelled` is then never read), and that clause.
fn in_two_parts(players: &str) -> (String, String) {
    let mut first = players.to_string();
    let mut moved = String::new();
    for head in ["  rule no_substitute_for_suspended_member:", "  rule member_suspended_or_expelled:"] {
        let start = first.find(head).unwrap_or_else(|| panic!("no `{head}` in players.cond"));
        let end =
            first[start..].find("overrides").and_then(|i| first[start + i..].find('\n').map(|j| start + i + j + 1));
        let end = end.expect("the rule ends");
        moved.push_str(&first[start..end]);
        first.replace_range(start..end, "");
    }
    let last = format!(
        "\n// decides: no substitute and no continuing while a team member is suspended or expelled\n\
         clause \"Ineligible Players ¶2\" {{\n  text \"\"\"\n    No substitute is allowed when a team member is \
         suspended or expelled.\n  \"\"\"\n{moved}}}\n"
    );
    (first, last)
}

#[test]
fn a_file_written_in_parts_is_served_only_once_whole() {
    let (addr, dir) = watched("parts");
    let file = dir.join("players.cond");
    let players = std::fs::read_to_string(&file).expect("read");
    let (first, last) = in_two_parts(&players);
    let (old, _) = version(addr);
    assert_eq!(may_play(addr).0, serde_json::json!(false));

    // The first part, then a pause far longer than the debounce.
    std::fs::write(&file, &first).expect("write the first part");
    let start = Instant::now();
    let mut held = None;
    while start.elapsed() < Duration::from_secs(20) {
        let (value, at) = may_play(addr);
        if let Some(at) = at {
            assert_eq!(at, old, "a version written in part is served");
            assert_eq!(value, serde_json::json!(false), "the half-written rulebook ruled");
        }
        held = version(addr).1;
        if held.is_some() && start.elapsed() > Duration::from_secs(2) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let held = held.expect("the first part is held back, and the served version says so");
    assert_ne!(held, old);
    let page = http::get(addr, "/gnt");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains(&format!("version {old}")) && page.body.contains(&held), "{}", page.body);
    assert!(page.body.contains("team_member_suspended_or_expelled"), "the new warning is shown: {}", page.body);

    // The rest: once it has settled, the whole file is served.
    std::fs::write(&file, format!("{first}{last}")).expect("write the whole file");
    let start = Instant::now();
    let mut now = version(addr);
    while now.0 == old && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
        now = version(addr);
    }
    assert_ne!(now.0, old, "the whole file is served");
    assert_eq!(now.1, None, "nothing is held back any more");
    assert_eq!(may_play(addr).0, serde_json::json!(false));
    let page = http::get(addr, "/gnt");
    assert!(page.body.contains("Ineligible Players ¶2") && page.body.contains(&format!("version {}", now.0)));
    assert!(!page.body.contains(&held), "{}", page.body);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_page_says_which_version_is_served_and_a_reload_changes_it() {
    let (addr, dir) = watched("version");
    let (old, held) = version(addr);
    assert_eq!(held, None);
    // The hash is that of the condition files: the bundled GNT has the same.
    let bundled = conditions::serve::Shelf::open(&[conditions::serve::Source::Bundled("gnt".into())]).expect("load");
    let state = bundled.get("gnt").expect("gnt");
    assert_eq!(state.version().hash, old);

    let pages = ["/", "/gnt", "/gnt?lang=da", "/gnt/clause/stage-1-d", "/gnt/ruling/flights"];
    let apis = ["/api/rulebooks", "/api/rulebooks/gnt", "/api/rulebooks/gnt/rulings"];
    let says = |hash: &str| {
        for p in pages.iter().chain(&apis) {
            let r = http::get(addr, p);
            assert_eq!(r.status, 200, "{p}: {}", r.body);
            assert!(r.body.contains(hash), "{p} does not name the version {hash}: {}", r.body);
        }
        for p in &pages[1..] {
            let r = http::get(addr, p);
            let footer = r.body.split("<footer").nth(1).unwrap_or_else(|| panic!("{p} has no footer: {}", r.body));
            assert!(footer.contains(hash) && footer.contains(" UTC"), "{p}: {footer}");
        }
        assert!(http::get(addr, "/gnt").body.contains(&format!("Served: version {hash}, loaded ")));
        assert!(http::get(addr, "/gnt?lang=da").body.contains(&format!("Vist: version {hash}, indlæst ")));
        for p in &apis[1..] {
            assert_eq!(http::get(addr, p).json()["version"]["hash"], serde_json::json!(hash), "{p}");
        }
        // Answers whose body has a format of its own name it in a header.
        let ruled = [
            http::post_json(addr, "/api/rulebooks/gnt/rulings/flights", "{}"),
            http::post_json(addr, "/api/rulebooks/gnt/batch?ruling=flights", "{}\n"),
            http::get(addr, "/api/rulebooks/gnt/rulings/flights"),
            http::get(addr, "/api/rulebooks/gnt/rulings/flights/schema"),
        ];
        for r in ruled {
            assert_eq!(r.status, 200, "{}", r.body);
            let v = r.header("rulebook-version").unwrap_or_else(|| panic!("no version header: {:?}", r.headers));
            assert!(v.starts_with(&format!("{hash} ")) && v.ends_with('Z'), "{v}");
        }
    };
    says(&old);

    let file = dir.join("stage1.cond");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{text}\n// an edit that changes nothing but the text\n")).expect("write");
    let start = Instant::now();
    let mut now = version(addr).0;
    while now == old && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
        now = version(addr).0;
    }
    assert_ne!(now, old, "the reload changes the version");
    says(&now);
    assert!(!http::get(addr, "/gnt").body.contains(&old));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_is_taken_only_once_two_readings_agree() {
    let dir = gnt_copy("settle");
    let file = dir.join("stage1.cond");
    let writer = {
        let file = file.clone();
        std::thread::spawn(move || {
            // Shorter pauses than the settle interval: the folder never reads the same twice.
            for i in 0..8 {
                let text = std::fs::read_to_string(&file).expect("read");
                std::fs::write(&file, format!("{text}// line {i}\n")).expect("write");
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(50));
    let files = conditions::serve::watch::settled(&dir).expect("the folder settles");
    writer.join().expect("the writer ends");
    let stage1 = files.sources.files().find(|(_, f)| f.name.ends_with("stage1.cond")).expect("stage1.cond");
    assert!(stage1.1.text.ends_with("// line 7\n"), "taken before the writer was done");
    assert!(files.problems.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_warnings_after_a_broken_edit_are_shown_as_its_diagnostics() {
    let (addr, dir) = watched("broken-then-part");
    let file = dir.join("players.cond");
    let players = std::fs::read_to_string(&file).expect("read");
    let (first, last) = in_two_parts(&players);
    std::fs::write(&file, format!("{players}\nthis is not a declaration\n")).expect("write");
    let broken = until(addr, "/gnt", |r| r.status == 503);
    assert_eq!(broken.status, 503, "{}", broken.body);
    // The first part checks, with a warning the last version that checked did not have:
    // nothing to serve, so the warning is the diagnostic.
    std::fs::write(&file, &first).expect("write the first part");
    let held = until(addr, "/gnt", |r| r.body.contains("team_member_suspended_or_expelled"));
    assert_eq!(held.status, 503, "{}", held.body);
    assert!(held.body.contains("These warnings are new since the last version that checked"), "{}", held.body);
    let api = http::post_json(addr, "/api/rulebooks/gnt/rulings/substitute_permitted", SUSPENDED);
    assert_eq!(api.status, 503, "{}", api.body);
    std::fs::write(&file, format!("{first}{last}")).expect("write the whole file");
    let back = until(addr, "/gnt", |r| r.status == 200);
    assert_eq!(back.status, 200, "{}", back.body);
    assert_eq!(may_play(addr).0, serde_json::json!(false));
    let _ = std::fs::remove_dir_all(&dir);
}
