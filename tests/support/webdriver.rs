//! A minimal W3C WebDriver client for the browser tests: Debian's `chromium` driven
//! through `chromedriver`, over the plain HTTP client of `http.rs`. Headless, with a
//! phone's 360 px wide viewport; the driver process ends with the value.

#![allow(dead_code)]

use super::http;
use serde_json::{Value as J, json};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

/// The browser and its driver, when both are installed (else the test says so and skips).
pub fn find() -> Option<(String, String)> {
    let on_path = |n: &str| {
        std::env::var_os("PATH")
            .and_then(|p| std::env::split_paths(&p).map(|d| d.join(n)).find(|f| f.is_file()))
            .map(|f| f.to_string_lossy().into_owned())
    };
    let chromium =
        std::env::var("CHROMIUM").ok().or_else(|| on_path("chromium")).or_else(|| on_path("chromium-browser"))?;
    let driver = std::env::var("CHROMEDRIVER").ok().or_else(|| on_path("chromedriver"))?;
    Some((chromium, driver))
}

fn call(addr: SocketAddr, method: &str, path: &str, body: Option<J>) -> J {
    let text = body.map(|b| b.to_string());
    let r = http::request(addr, method, path, text.as_deref().map(str::as_bytes), "application/json");
    let v: J = serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {}", r.body));
    assert!(r.status < 400, "{method} {path}: {} {}", r.status, v);
    v["value"].clone()
}

impl Browser {
    /// Starts the driver on a free loopback port and opens a headless session. A driver
    /// that does not come up ready, or a session that does not open (a port taken between
    /// choosing and binding it, a browser that fails to start under load), is retried with
    /// a fresh driver on a fresh port, three times in all.
    pub fn start(chromium: &str, driver: &str, width: u32) -> Browser {
        let mut why = Vec::new();
        for attempt in 1..=3 {
            match Self::try_start(chromium, driver, width) {
                Ok(b) => return b,
                Err(e) => {
                    eprintln!("chromedriver, attempt {attempt}: {e}");
                    why.push(format!("attempt {attempt}: {e}"));
                }
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        panic!("chromedriver gives no session:\n{}", why.join("\n"))
    }

    fn try_start(chromium: &str, driver: &str, width: u32) -> Result<Browser, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver does not start: {e}"))?;
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
        // The value owns the driver from here on: an early return kills it.
        let mut b = Browser { driver: child, addr, session: String::new() };
        let start = Instant::now();
        loop {
            // Ready means this port answers as a WebDriver (`/status` says `ready`), not
            // merely that something accepts connections on it.
            let ready = http::try_request(addr, "GET", "/status", None, "")
                .ok()
                .and_then(|r| serde_json::from_str::<J>(&r.body).ok())
                .is_some_and(|v| v["value"]["ready"] == J::Bool(true));
            if ready {
                break;
            }
            if let Ok(Some(status)) = b.driver.try_wait() {
                return Err(format!("chromedriver exited ({status})"));
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err("chromedriver not ready after 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", format!("--window-size={width},900")],
                "mobileEmulation": { "deviceMetrics": { "width": width, "height": 900, "pixelRatio": 1.0 } }
            }
        }}});
        let text = caps.to_string();
        let r = http::try_request(addr, "POST", "/session", Some(text.as_bytes()), "application/json")?;
        let v: J = serde_json::from_str(&r.body).map_err(|e| format!("POST /session: not JSON ({e}): {}", r.body))?;
        if r.status >= 400 {
            return Err(format!("POST /session: {} {}", r.status, v));
        }
        b.session =
            v["value"]["sessionId"].as_str().ok_or_else(|| format!("POST /session: no session in {v}"))?.to_string();
        Ok(b)
    }

    fn s(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    pub fn goto(&self, url: &str) {
        call(self.addr, "POST", &self.s("/url"), Some(json!({ "url": url })));
    }

    pub fn url(&self) -> String {
        call(self.addr, "GET", &self.s("/url"), None).as_str().unwrap_or_default().to_string()
    }

    /// The elements matching a CSS selector.
    pub fn all(&self, css: &str) -> Vec<String> {
        let v = call(self.addr, "POST", &self.s("/elements"), Some(json!({ "using": "css selector", "value": css })));
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e.as_object().and_then(|o| o.values().next()).and_then(|x| x.as_str()).map(str::to_string))
            .collect()
    }

    pub fn one(&self, css: &str) -> String {
        self.all(css).into_iter().next().unwrap_or_else(|| panic!("no element `{css}` on {}", self.url()))
    }

    /// The elements matching `css` inside element `e`.
    pub fn within(&self, e: &str, css: &str) -> Vec<String> {
        let v = call(
            self.addr,
            "POST",
            &self.s(&format!("/element/{e}/elements")),
            Some(json!({ "using": "css selector", "value": css })),
        );
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e.as_object().and_then(|o| o.values().next()).and_then(|x| x.as_str()).map(str::to_string))
            .collect()
    }

    pub fn text(&self, e: &str) -> String {
        call(self.addr, "GET", &self.s(&format!("/element/{e}/text")), None).as_str().unwrap_or_default().to_string()
    }

    pub fn attr(&self, e: &str, name: &str) -> Option<String> {
        call(self.addr, "GET", &self.s(&format!("/element/{e}/attribute/{name}")), None).as_str().map(str::to_string)
    }

    pub fn tag(&self, e: &str) -> String {
        call(self.addr, "GET", &self.s(&format!("/element/{e}/name")), None).as_str().unwrap_or_default().to_string()
    }

    pub fn click(&self, e: &str) {
        call(self.addr, "POST", &self.s(&format!("/element/{e}/click")), Some(json!({})));
    }

    /// Clicks an element that loads a new page, and waits until the new page has loaded.
    pub fn click_to_load(&self, e: &str) {
        self.eval("window.__before_click = true; return true;");
        self.click(e);
        let start = Instant::now();
        loop {
            let v = self.eval("return window.__before_click === undefined && document.readyState === 'complete';");
            if v.as_bool() == Some(true) {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no new page after the click on {}", self.url());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn type_in(&self, e: &str, text: &str) {
        call(self.addr, "POST", &self.s(&format!("/element/{e}/clear")), Some(json!({})));
        call(self.addr, "POST", &self.s(&format!("/element/{e}/value")), Some(json!({ "text": text })));
    }

    /// Chooses the option of a `<select>` whose value is `value`.
    pub fn choose(&self, select: &str, value: &str) {
        for o in self.within(select, "option") {
            if self.attr(&o, "value").as_deref() == Some(value) {
                self.click(&o);
                return;
            }
        }
        panic!("no option `{value}` in the select on {}", self.url());
    }

    /// Runs a script in the page and gives its result.
    pub fn eval(&self, script: &str) -> J {
        call(self.addr, "POST", &self.s("/execute/sync"), Some(json!({ "script": script, "args": [] })))
    }

    /// Whether the page is wider than the window (it would scroll sideways).
    pub fn scrolls_sideways(&self) -> bool {
        let v = self.eval("return [document.documentElement.scrollWidth, window.innerWidth];");
        v[0].as_i64().unwrap_or(0) > v[1].as_i64().unwrap_or(0)
    }

    pub fn width(&self) -> i64 {
        self.eval("return window.innerWidth;").as_i64().unwrap_or(0)
    }

    /// Saves a screenshot of the viewport as PNG.
    pub fn screenshot(&self, path: &std::path::Path) {
        let v = call(self.addr, "GET", &self.s("/screenshot"), None);
        let png = base64(v.as_str().unwrap_or_default());
        if let Some(d) = path.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        std::fs::write(path, png).expect("the screenshot is written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http::request(self.addr, "DELETE", &self.s(""), None, "");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
