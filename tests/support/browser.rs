//! Headless Chromium for tests, driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: no port, no WebDriver, no extra crate). Open a page at a
//! width, load a URL (a `file://` page or a local server), and check what a player would
//! stumble on: horizontal scrolling, in-page links to nothing, console errors; save a
//! full-page screenshot.
//!
//! Use it from a test with `#[path = "support/browser.rs"] mod browser;`, then
//! `let Some(mut chrome) = browser::launch_or_skip("my test") else { return };`.
//! Without Chromium the test is skipped with a message, unless `CONDITIONS_BROWSER=require`
//! (set by `.ci/run`), when it fails. `CHROMIUM=/path/to/chromium` picks the browser.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long one protocol command may take before the test fails.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Whether a missing browser fails the test (in CI) rather than skipping it.
pub fn required() -> bool {
    std::env::var("CONDITIONS_BROWSER").is_ok_and(|v| v == "require")
}

/// The Chromium to run: `$CHROMIUM`, else the first of chromium, chromium-browser,
/// google-chrome on the `PATH`.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Launches Chromium, or returns `None` after saying why the test is skipped; panics when
/// the browser is required (`CONDITIONS_BROWSER=require`) or is found but fails to start.
pub fn launch_or_skip(test: &str) -> Option<Browser> {
    match find() {
        Some(exe) => {
            Some(Browser::launch(&exe).unwrap_or_else(|e| panic!("{test}: cannot start {}: {e}", exe.display())))
        }
        None if required() => panic!(
            "{test}: no Chromium found (CONDITIONS_BROWSER=require): install it (`apt-get install -y chromium`) or set CHROMIUM"
        ),
        None => {
            eprintln!(
                "{test}: SKIPPED: no Chromium on this machine (install `chromium`, or set CHROMIUM=/path/to/it; CI sets CONDITIONS_BROWSER=require)"
            );
            None
        }
    }
}

/// unsafe extern functions of the C library, to hand the pipes to the browser as fds 3 and 4.
mod sys {
    unsafe extern "C" {
        pub fn dup2(old: i32, new: i32) -> i32;
        pub fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }
    pub const F_DUPFD: i32 = 0;
}

/// A running headless Chromium.
pub struct Browser {
    child: Child,
    to_browser: std::io::PipeWriter,
    from_browser: Receiver<Value>,
    next_id: u64,
    profile: PathBuf,
    /// Events read while waiting for an answer, not yet looked at.
    events: Vec<Value>,
}

impl Browser {
    /// Starts Chromium with a fresh profile, headless, talking the DevTools protocol on fds 3 and 4.
    pub fn launch(exe: &Path) -> Result<Browser, String> {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let profile = std::env::temp_dir().join(format!("conditions-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).map_err(|e| format!("profile folder: {e}"))?;
        let (browser_reads, we_write) = std::io::pipe().map_err(|e| e.to_string())?;
        let (we_read, browser_writes) = std::io::pipe().map_err(|e| e.to_string())?;
        let (r, w) = (browser_reads.as_raw_fd(), browser_writes.as_raw_fd());
        let mut cmd = Command::new(exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
            "--mute-audio",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2) are made.
        unsafe {
            cmd.pre_exec(move || {
                // Move both ends above 4 first, so that neither is overwritten by the other.
                let (r2, w2) = (sys::fcntl(r, sys::F_DUPFD, 10), sys::fcntl(w, sys::F_DUPFD, 10));
                if r2 < 0 || w2 < 0 || sys::dup2(r2, 3) < 0 || sys::dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().map_err(|e| e.to_string())?;
        drop(browser_reads);
        drop(browser_writes);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(we_read);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                            && tx.send(v).is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let mut b = Browser { child, to_browser: we_write, from_browser: rx, next_id: 0, profile, events: Vec::new() };
        b.call(None, "Browser.getVersion", json!({}))?;
        Ok(b)
    }

    /// Sends a command (to a page's session, or to the browser) and waits for its result.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).map_err(|e| e.to_string())?;
        bytes.push(0);
        self.to_browser.write_all(&bytes).map_err(|e| format!("{method}: the browser is gone: {e}"))?;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_browser.recv_timeout(left) {
                Ok(v) if v["id"] == json!(id) => {
                    return match v.get("error") {
                        Some(e) => Err(format!("{method}: {e}")),
                        None => Ok(v["result"].clone()),
                    };
                }
                Ok(v) => self.events.push(v),
                Err(RecvTimeoutError::Timeout) => return Err(format!("{method}: no answer in {TIMEOUT:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{method}: the browser closed")),
            }
        }
    }

    /// Waits for an event of a session (already read or still to come).
    fn wait_event(&mut self, session: &str, method: &str) -> Result<Value, String> {
        let matches = |v: &Value| v["method"] == json!(method) && v["sessionId"] == json!(session);
        if let Some(i) = self.events.iter().position(matches) {
            return Ok(self.events.remove(i));
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_browser.recv_timeout(left) {
                Ok(v) if matches(&v) => return Ok(v),
                Ok(v) => self.events.push(v),
                Err(_) => return Err(format!("no {method} in {TIMEOUT:?}")),
            }
        }
    }

    /// A new tab, `width` CSS pixels wide, emulating a phone's screen when `mobile`.
    pub fn page(&mut self, width: u32, height: u32, mobile: bool) -> Result<Tab<'_>, String> {
        let target = self.call(None, "Target.createTarget", json!({ "url": "about:blank" }))?;
        let target_id = target["targetId"].as_str().ok_or("no targetId")?.to_string();
        let attached = self.call(None, "Target.attachToTarget", json!({ "targetId": target_id, "flatten": true }))?;
        let session = attached["sessionId"].as_str().ok_or("no sessionId")?.to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(Some(&session), domain, json!({}))?;
        }
        self.call(
            Some(&session),
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        )?;
        Ok(Tab { browser: self, session, target_id, width })
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.call(None, "Browser.close", json!({}));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// One tab of the browser.
pub struct Tab<'b> {
    browser: &'b mut Browser,
    session: String,
    target_id: String,
    width: u32,
}

impl Tab<'_> {
    /// Loads a URL and waits for its load event.
    pub fn goto(&mut self, url: &str) -> Result<(), String> {
        self.browser.events.retain(|v| v["method"] != json!("Page.loadEventFired"));
        let nav = self.browser.call(Some(&self.session), "Page.navigate", json!({ "url": url }))?;
        if let Some(e) = nav.get("errorText").and_then(Value::as_str) {
            return Err(format!("{url}: {e}"));
        }
        let session = self.session.clone();
        self.browser.wait_event(&session, "Page.loadEventFired")?;
        Ok(())
    }

    /// Forgets what the page reported so far (after its problems were read), so that a
    /// long walk over many pages does not keep every page's events.
    #[allow(dead_code)]
    pub fn forget_events(&mut self) {
        let session = json!(self.session);
        self.browser.events.retain(|v| v["sessionId"] != session);
    }

    /// Evaluates a JavaScript expression in the page and returns its value.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let r = self.browser.call(
            Some(&self.session),
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("{expression}: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// Errors the page reported: console errors, uncaught exceptions, failed loads.
    pub fn console_errors(&mut self) -> Vec<String> {
        let session = json!(self.session);
        let mut out = Vec::new();
        for v in &self.browser.events {
            if v["sessionId"] != session {
                continue;
            }
            let p = &v["params"];
            match v["method"].as_str() {
                Some("Runtime.consoleAPICalled") if matches!(p["type"].as_str(), Some("error" | "assert")) => {
                    out.push(format!("console.{}: {}", p["type"].as_str().unwrap_or_default(), p["args"]))
                }
                Some("Runtime.exceptionThrown") => out.push(format!("exception: {}", p["exceptionDetails"])),
                Some("Log.entryAdded") if p["entry"]["level"] == json!("error") => {
                    out.push(format!("log: {}", p["entry"]["text"].as_str().unwrap_or_default()))
                }
                _ => {}
            }
        }
        out
    }

    /// What a reader would stumble on: the page wider than the screen (and which elements
    /// stick out), a viewport other than the screen's width, and in-page links to no id.
    pub fn problems(&mut self) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let v = self.eval(
            r##"(() => {
                const doc = document.documentElement;
                const wide = [];
                for (const el of document.body.querySelectorAll('*')) {
                    if (wide.length >= 8) break;
                    const r = el.getBoundingClientRect();
                    if (r.right > Math.min(window.innerWidth, screen.width) + 0.5 && !el.closest('.scroll')) {
                        wide.push(el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') + ' ' + Math.round(r.right) + 'px: ' + (el.textContent || '').slice(0, 60));
                    }
                }
                const broken = [];
                for (const a of document.querySelectorAll('a[href^="#"]')) {
                    const id = decodeURIComponent(a.getAttribute('href').slice(1));
                    if (!document.getElementById(id)) broken.push(a.getAttribute('href'));
                }
                const ids = {};
                const dup = [];
                for (const el of document.querySelectorAll('[id]')) { if (ids[el.id]) dup.push(el.id); ids[el.id] = true; }
                return { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, wide: wide.slice(0, 8), broken, dup };
            })()"##,
        )?;
        let (sw, iw) = (v["scrollWidth"].as_u64().unwrap_or(0), v["innerWidth"].as_u64().unwrap_or(0));
        if iw != u64::from(self.width) {
            // A phone lays out a page that has no viewport, or is too wide, wider than its screen.
            out.push(format!(
                "horizontal scrolling: the page is laid out {iw} px wide on a {} px screen; {}",
                self.width, v["wide"]
            ));
        } else if sw > iw {
            out.push(format!("horizontal scrolling: the page is {sw} px wide in a {iw} px window; {}", v["wide"]));
        }
        for b in v["broken"].as_array().into_iter().flatten() {
            out.push(format!("broken in-page link {b}"));
        }
        for d in v["dup"].as_array().into_iter().flatten() {
            out.push(format!("id {d} twice"));
        }
        out.extend(self.console_errors());
        Ok(out)
    }

    /// Saves a screenshot of the whole page (not just the screen) as PNG.
    pub fn screenshot(&mut self, path: &Path) -> Result<(), String> {
        let m = self.browser.call(Some(&self.session), "Page.getLayoutMetrics", json!({}))?;
        let size = &m["cssContentSize"];
        let (w, h) = (size["width"].as_f64().unwrap_or(1.0), size["height"].as_f64().unwrap_or(1.0));
        let shot = self.browser.call(
            Some(&self.session),
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true,
                    "clip": { "x": 0, "y": 0, "width": w.max(1.0), "height": h.clamp(1.0, 16000.0), "scale": 1 } }),
        )?;
        let data = decode_base64(shot["data"].as_str().ok_or("no screenshot data")?)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(path, data).map_err(|e| format!("{}: {e}", path.display()))
    }
}

impl Drop for Tab<'_> {
    fn drop(&mut self) {
        let id = self.target_id.clone();
        let _ = self.browser.call(None, "Target.closeTarget", json!({ "targetId": id }));
        let session = json!(self.session);
        self.browser.events.retain(|v| v["sessionId"] != session);
    }
}

/// Standard base64 (the protocol's screenshots), padding optional.
fn decode_base64(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return Err(format!("not base64: {c}")),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// A `file://` URL for a path.
pub fn file_url(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut url = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => url.push(b as char),
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_decodes() {
        assert_eq!(super::decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(super::decode_base64("aGk").unwrap(), b"hi");
    }
}
