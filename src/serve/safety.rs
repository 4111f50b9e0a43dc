//! The server's defences: the body cap, the per-request timeout around evaluation
//! (the evaluator's own step limit bounds the work), the security headers on every
//! response, and errors as a 4xx with a clear reason (JSON for the API, an escaped
//! page for people).

use axum::body::Body;
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// The largest request body read (1 MiB).
pub const MAX_BODY: usize = 1024 * 1024;

/// The longest a request may rule.
pub const TIMEOUT: Duration = Duration::from_secs(10);

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
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), help: None, problems: Vec::new() }
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
        (self.status, axum::Json(body)).into_response()
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
    match tokio::time::timeout(TIMEOUT, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the ruling failed inside the server")),
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the ruling took longer than {} seconds", TIMEOUT.as_secs()),
        )),
    }
}

/// No such route: JSON under `/api`, a page elsewhere.
pub async fn not_found(req: Request<Body>) -> Response {
    let path = req.uri().path().to_string();
    if path == "/api" || path.starts_with("/api/") {
        ApiError::new(StatusCode::NOT_FOUND, format!("no such API route `{path}`"))
            .help("`GET /api` lists the routes")
            .into_response()
    } else {
        super::layout::error_page(
            StatusCode::NOT_FOUND,
            crate::eval::show::Lang::En,
            "not found",
            &format!("no page `{path}`"),
        )
    }
}
