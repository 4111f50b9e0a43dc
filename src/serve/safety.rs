//! The server's defences: the body cap, the bounds on a batch (lines × rulings, the
//! length of a record and of the answer), the per-request timeout around evaluation and
//! its cancellation (the evaluator's step limit consults the flag raised when the request
//! times out or its client goes away), the share of evaluator threads large requests may
//! take, the media types the JSON routes accept, the security headers on every response,
//! and errors as a 4xx with a clear reason (JSON for the API, an escaped page for people).
//! The connection limits (header timeout, connection cap, grace at shutdown) are
//! [`super::conn`]'s.

use crate::eval::budget::Cancel;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The largest request body read (1 MiB).
pub const MAX_BODY: usize = 1024 * 1024;

/// The longest a request may rule.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The most rulings one batch request may ask for: its lines × the rulings asked for.
pub const MAX_BATCH_RULINGS: usize = 50_000;

/// The longest record of one batch line, in bytes (a longer one is an error record).
pub const MAX_RECORD_BYTES: usize = 256 * 1024;

/// The longest answer to a batch, in bytes.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;

/// A ruling posted with a body longer than this is large work, as a batch is: it takes
/// one of the evaluator threads kept for large work ([`Gate`]).
pub const LARGE_BODY: usize = 16 * 1024;

/// The evaluator threads large work may take at once: all but one of the cores (one at
/// least); the others are kept for small rulings and pages.
pub fn large_slots() -> usize {
    super::cores().saturating_sub(1).max(1)
}

/// Counts the large requests being ruled; more than its slots are refused (503) at once
/// rather than queued behind each other.
#[derive(Debug)]
pub struct Gate {
    taken: AtomicUsize,
    slots: usize,
}

/// A slot of the [`Gate`], given back when the work holding it ends.
#[derive(Debug)]
pub struct Pass(Arc<Gate>);

impl Drop for Pass {
    fn drop(&mut self) {
        self.0.taken.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Gate {
    pub fn new(slots: usize) -> Arc<Gate> {
        Arc::new(Gate { taken: AtomicUsize::new(0), slots: slots.max(1) })
    }

    /// A slot, or the 503 that says to come back.
    pub fn enter(self: &Arc<Self>) -> Result<Pass, ApiError> {
        let took = self.taken.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.slots).then_some(n + 1));
        match took {
            Ok(_) => Ok(Pass(self.clone())),
            Err(_) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server is ruling {} large requests already", self.slots),
            )
            .help("try again in a moment; a batch or a large body waits its turn")
            .retry_after(1)),
        }
    }
}

/// Pages and scripts only from the server itself; no inline scripts, no frames.
pub const CSP: &str =
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Adds the security headers to every response.
pub async fn headers(req: Request<Body>, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// An error of the JSON API: a status and a reason (`{"error": …, "help": …}`).
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub help: Option<String>,
    /// Every problem, when there are several (facts that do not fit).
    pub problems: Vec<crate::json::Json>,
    /// Seconds after which to try again (a `Retry-After` header).
    pub retry: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), help: None, problems: Vec::new(), retry: None }
    }

    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry = Some(seconds);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> ApiError {
        self.help = Some(help.into());
        self
    }

    /// The error of the facade, with each problem and its facts path.
    pub fn from_api(status: StatusCode, e: &crate::api::Error) -> ApiError {
        let problems = e
            .problems()
            .iter()
            .map(|p| crate::ojson!({ "message": p.message(), "path": p.path(), "help": p.help_text() }))
            .collect();
        let first = e.problems().first();
        ApiError {
            status,
            message: first.map(|p| p.message().to_string()).unwrap_or_else(|| e.to_string()),
            help: first.and_then(|p| p.help_text()).map(str::to_string),
            problems,
            retry: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let only_the_message = self.problems.len() == 1 && self.problems[0]["message"] == self.message.as_str();
        let mut body = crate::ojson!({ "error": self.message, "status": self.status.as_u16() });
        if let Some(h) = self.help {
            body.insert("help", h);
        }
        if !self.problems.is_empty() && !only_the_message {
            body.insert("problems", self.problems);
        }
        let mut res = (self.status, axum::Json(body)).into_response();
        if let Some(s) = self.retry {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        res
    }
}

/// The reason a body could not be read: too large, or not text.
pub fn body_error(e: axum::extract::rejection::BytesRejection) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is larger than {} bytes", MAX_BODY))
            .help("send fewer facts at a time, or split a batch into several requests")
    } else {
        ApiError::new(e.status(), format!("cannot read the request body: {}", e.body_text()))
    }
}

/// Runs `f` (an evaluation) off the async workers, bounded by [`TIMEOUT`].
pub async fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    bounded_with(None, f).await
}

/// Raises its flag when dropped: when the request is answered, times out, or its
/// client goes away (the request's future is dropped then).
struct RaiseOnDrop(Cancel);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs `f` off the async workers with a cancel flag set for its evaluations, holding
/// `pass` (a large request's slot) until the work itself ends; bounded by [`TIMEOUT`],
/// after which (or once the request is dropped) the flag stops the work. Large work (with a
/// `pass`) runs on a thread of its own at a lower scheduling priority ([`LARGE_NICE`]): it
/// takes what the small requests leave of the cores, never their turn.
pub async fn bounded_with<T: Send + 'static>(
    pass: Option<Pass>,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let cancel = Cancel::new();
    let _raise = RaiseOnDrop(cancel.clone());
    let failed = || ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the ruling failed inside the server");
    let done = match pass {
        Some(pass) => {
            let (tx, rx) = tokio::sync::oneshot::channel();
            let spawned = std::thread::Builder::new().name("conditions-large".into()).spawn(move || {
                lower_priority();
                let out = cancel.run(f);
                // The slot is given back before the answer goes out: a client that sends its
                // next large request on the answer finds it free.
                drop(pass);
                let _ = tx.send(out);
            });
            if spawned.is_err() {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server has no thread free for large work",
                )
                .retry_after(1));
            }
            tokio::time::timeout(TIMEOUT, rx).await.map(|r| r.map_err(|_| failed()))
        }
        None => {
            let job = tokio::task::spawn_blocking(move || cancel.run(f));
            tokio::time::timeout(TIMEOUT, job).await.map(|r| r.map_err(|_| failed()))
        }
    };
    match done {
        Ok(v) => v,
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the ruling took longer than {} seconds and was stopped", TIMEOUT.as_secs()),
        )
        .help("send fewer facts or a smaller batch at a time")),
    }
}

/// The nice value of a thread doing large work (0 is the default, 19 the lowest priority).
pub const LARGE_NICE: i32 = 10;

/// Lowers the calling thread's scheduling priority to [`LARGE_NICE`]. On Linux the nice
/// value is a thread's own (`setpriority(2)`, "Bugs"), so the server's other threads keep
/// theirs; elsewhere nothing changes.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // `None` is `who` 0: the calling thread. A nice value not granted leaves it as it was.
    let _ = rustix::process::setpriority_process(None, LARGE_NICE);
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

/// The media types a JSON route reads.
pub const JSON_TYPES: [&str; 2] = ["application/json", "application/x-ndjson"];

/// A body is read only when sent as JSON: a browser's form or a script's "simple"
/// request (`text/plain`, a form's types, or no type at all) never reaches a ruling,
/// since a page elsewhere cannot send these types without asking first (CORS).
pub fn json_content(headers: &HeaderMap) -> Result<(), ApiError> {
    let sent = headers.get(header::CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let media = sent.as_deref().and_then(|t| t.split(';').next()).map(|t| t.trim().to_ascii_lowercase());
    if media.as_deref().is_some_and(|m| JSON_TYPES.contains(&m)) {
        return Ok(());
    }
    let what = match &sent {
        Some(t) => format!("the body is sent as `{t}`"),
        None => "the body is sent without a `Content-Type`".to_string(),
    };
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!("{what}; this route reads `{}` or `{}`", JSON_TYPES[0], JSON_TYPES[1]),
    )
    .help("send the header `Content-Type: application/json`"))
}

/// Whether `path` is one of the JSON API's.
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Every error answered under `/api` is the API's JSON error: the answers axum gives
/// by itself (a method not allowed, a path or query that does not parse) too.
pub async fn json_errors(req: Request<Body>, next: Next) -> Response {
    let api = is_api(req.uri().path());
    let res = next.run(req).await;
    let status = res.status();
    let json = res.headers().get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !api || json || !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let allow = res.headers().get(header::ALLOW).cloned();
    let text = axum::body::to_bytes(res.into_body(), 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        let t = text.strip_prefix("Failed to deserialize query string: ").unwrap_or(&text);
        t.to_string()
    };
    let mut e = ApiError::new(status, message);
    if status == StatusCode::METHOD_NOT_ALLOWED {
        e = e.help("`GET /api` lists the routes and their methods");
    }
    let mut res = e.into_response();
    if let Some(a) = allow {
        res.headers_mut().insert(header::ALLOW, a);
    }
    res
}

/// No such route: JSON under `/api`, a page elsewhere.
pub async fn not_found(req: Request<Body>) -> Response {
    let path = req.uri().path().to_string();
    if is_api(&path) {
        ApiError::new(StatusCode::NOT_FOUND, format!("no such API route `{path}`"))
            .help("`GET /api` lists the routes")
            .into_response()
    } else {
        super::layout::error_page(
            StatusCode::NOT_FOUND,
            crate::show::Lang::En,
            "not found",
            &format!("no page `{path}`"),
        )
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The nice value of the calling thread, from `/proc` (the 19th field of its `stat`).
    fn nice() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        after_name.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[test]
    fn large_work_runs_at_a_lower_priority_on_its_own_thread_only() {
        let before = nice();
        let lowered = std::thread::spawn(|| {
            super::lower_priority();
            nice()
        })
        .join()
        .unwrap();
        assert_eq!(lowered, super::LARGE_NICE.max(before));
        assert_eq!(nice(), before, "the calling thread keeps its priority");
    }
}
