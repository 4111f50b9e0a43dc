//! A server on an ephemeral loopback port, and a small HTTP/1.1 client over a plain
//! socket (one request per connection, bounded by timeouts), for the server's tests.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// Starts a server with these rulebooks on `127.0.0.1:0`; it runs until the test ends.
pub fn start(sources: Vec<conditions::serve::Source>, watch: bool) -> SocketAddr {
    start_with(sources, move |shelf| {
        if watch {
            conditions::serve::watch::spawn(shelf);
        }
    })
}

/// As [`start`], handing the shelf to `set_up` (to watch it, say) before serving.
pub fn start_with(
    sources: Vec<conditions::serve::Source>,
    set_up: impl FnOnce(Arc<conditions::serve::Shelf>) + Send + 'static,
) -> SocketAddr {
    let shelf = Arc::new(conditions::serve::Shelf::open(&sources).expect("the rulebooks load"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = conditions::serve::runtime().expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
            tx.send(listener.local_addr().expect("addr")).expect("send");
            set_up(shelf.clone());
            let _ = conditions::serve::serve(listener, shelf, std::future::pending()).await;
        });
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the server starts")
}

/// Both bundled rulebooks.
pub fn start_bundled() -> SocketAddr {
    start(conditions::serve::Source::bundled(), false)
}

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = body.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&body[..i]).unwrap_or("0").trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = i + 2;
        out.extend_from_slice(&body[start..(start + size).min(body.len())]);
        body = &body[(start + size + 2).min(body.len())..];
    }
    out
}

/// One request; `body` is sent with its length.
///
/// The tests of one binary share a server and run at once, so a large request may find the
/// server's slots for large work taken by another test's: it is then refused at once with 503
/// and `Retry-After`, and is sent again, as a client is asked to (a bounded number of times).
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>, content_type: &str) -> Response {
    let mut tries = 0;
    loop {
        let r = try_request(addr, method, path, body, content_type).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let busy = r.status == 503 && r.header("retry-after").is_some() && r.body.contains("large requests already");
        tries += 1;
        if !busy || tries == 200 {
            return r;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One request, or why there was no answer (no connection, or closed before a response head).
pub fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
    content_type: &str,
) -> Result<Response, String> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(60))).map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(Duration::from_secs(60))).map_err(|e| e.to_string())?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(b) = body {
        req.push_str(&format!("Content-Type: {content_type}\r\nContent-Length: {}\r\n", b.len()));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).map_err(|e| format!("write: {e}"))?;
    if let Some(b) = body {
        // The server may answer (413) and close before reading all of a large body.
        let _ = s.write_all(b);
    }
    // Reads the head, then the body by its length (a server may keep the connection open).
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let mut split = None;
    loop {
        if let Some(i) = split {
            let head = String::from_utf8_lossy(&raw[..i]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if len.is_some_and(|n| raw.len() >= i + 4 + n) {
                break;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
        if split.is_none() {
            split = raw.windows(4).position(|w| w == b"\r\n\r\n");
        }
    }
    let split = split.ok_or("closed without a response head")?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status =
        lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).ok_or("no status in the head")?;
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))).collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Ok(Response { status, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, None, "")
}

pub fn post_json(addr: SocketAddr, path: &str, body: &str) -> Response {
    request(addr, "POST", path, Some(body.as_bytes()), "application/json")
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    conditions::serve::layout::enc(s)
}
