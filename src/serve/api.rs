//! The JSON API for programs (an entry form, a scoring program): the rulebooks, their
//! rulings, a ruling's description and facts schema, a ruling on posted facts (the
//! report of `docs/json.md`), and a batch of JSON lines (the records of
//! `conditions rule --batch`). Documented in `docs/api.md`.

use super::Shelf;
use super::layout::lang_of;
use super::safety::{ApiError, body_error, bounded};
use super::shelf::{Book, State};
use crate::api::{Rulebook, Ruling};
use crate::json::{Json as J, to_json};
use crate::ojson as json;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State as Ext};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

type Shared = Ext<Arc<Shelf>>;

/// A rulebook that is loaded and checks.
pub fn ready(shelf: &Shelf, name: &str) -> Result<Book, ApiError> {
    match shelf.get(name).as_deref() {
        Some(State::Ready(b)) => Ok(b.clone()),
        Some(State::Broken(diags)) => {
            let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, format!("the rulebook `{name}` does not check"))
                .help("fix the condition files; the server reloads them when they change");
            e.problems = diags.iter().map(to_json).collect();
            Err(e)
        }
        None => {
            let names: Vec<String> = shelf.all().into_iter().map(|(n, _)| n).collect();
            Err(ApiError::new(StatusCode::NOT_FOUND, format!("no rulebook `{name}`"))
                .help(format!("rulebooks served: {}", names.join(", "))))
        }
    }
}

/// The header naming the version of the rulebook an answer comes from (its hash and
/// when it was loaded), for the answers whose body has a format of its own.
pub const VERSION_HEADER: &str = "rulebook-version";

fn served(b: &Book) -> (header::HeaderName, header::HeaderValue) {
    let v = b.version();
    let value = header::HeaderValue::from_str(&format!("{} {}", v.hash, v.loaded))
        .unwrap_or_else(|_| header::HeaderValue::from_static("unknown"));
    (header::HeaderName::from_static(VERSION_HEADER), value)
}

fn ruling_of(book: &Rulebook, name: &str) -> Result<Ruling, ApiError> {
    book.ruling(name).map_err(|e| ApiError::from_api(StatusCode::NOT_FOUND, &e))
}

/// `GET /api`: the routes.
pub async fn index() -> Json<J> {
    let routes: Vec<String> = super::openapi::OPERATIONS
        .iter()
        .map(|(method, path, _)| format!("{} {path}", method.to_uppercase()))
        .collect();
    Json(json!({ "routes": routes, "openapi": "/api/openapi.json", "docs": "docs/api.md" }))
}

/// `GET /api/openapi.json`: the OpenAPI 3.1 description of this API.
pub async fn openapi() -> Json<J> {
    Json(super::openapi::document())
}

fn summary(name: &str, state: &State) -> J {
    match state {
        State::Ready(b) => json!({
            "name": b.name(), "title": b.title(), "language": b.language().code(),
            "rulings": b.rulings().len(), "status": "ready", "version": b.version().as_ref()
        }),
        State::Broken(d) => {
            json!({ "name": name, "status": "does not check", "problems": d, "version": d.version.as_ref() })
        }
    }
}

/// `GET /api/rulebooks`.
pub async fn rulebooks(Ext(shelf): Shared) -> Json<J> {
    Json(json!({ "rulebooks": shelf.all().iter().map(|(n, s)| summary(n, s)).collect::<Vec<_>>() }))
}

/// `GET /api/rulebooks/{book}`.
pub async fn rulebook(Ext(shelf): Shared, Path(book): Path<String>) -> Result<Json<J>, ApiError> {
    let b = ready(&shelf, &book)?;
    let p = &b.checked().program;
    Ok(Json(json!({
        "name": b.name(), "title": b.title(), "language": b.language().code(),
        "edition": &p.rulebook.edition, "version": b.version().as_ref(),
        "rulings": b.rulings(),
        "clauses": p.clauses.iter().map(|c| json!({
            "citation": &c.citation, "heading": &c.heading, "text": &c.text, "text_kind": &c.text_kind, "gloss": &c.gloss
        })).collect::<Vec<_>>(),
    })))
}

#[derive(Deserialize)]
pub struct ListQuery {
    q: Option<String>,
}

/// `GET /api/rulebooks/{book}/rulings[?q=word]`: as `conditions list --format json`.
pub async fn rulings(
    Ext(shelf): Shared,
    Path(book): Path<String>,
    Query(q): Query<ListQuery>,
) -> Result<Json<J>, ApiError> {
    let b = ready(&shelf, &book)?;
    let entries = crate::discover::list(&b.checked().program, q.q.as_deref(), false);
    Ok(Json(json!({ "rulebook": b.name(), "version": b.version().as_ref(), "entries": &entries })))
}

/// `GET /api/rulebooks/{book}/rulings/{ruling}`: as `conditions describe --format json`.
pub async fn describe(Ext(shelf): Shared, Path((book, ruling)): Path<(String, String)>) -> Result<Response, ApiError> {
    let b = ready(&shelf, &book)?;
    let r = ruling_of(&b, &ruling)?;
    let d = crate::discover::describe(&b.checked().program, r.def());
    Ok(([served(&b)], Json(to_json(&d))).into_response())
}

/// `GET /api/rulebooks/{book}/rulings/{ruling}/schema`: the JSON Schema of its facts.
pub async fn schema(Ext(shelf): Shared, Path((book, ruling)): Path<(String, String)>) -> Result<Response, ApiError> {
    let b = ready(&shelf, &book)?;
    let r = ruling_of(&b, &ruling)?;
    let s = crate::discover::schema::schema(&b.checked().program, &[r.def()]);
    Ok(([(header::CONTENT_TYPE, header::HeaderValue::from_static("application/schema+json")), served(&b)], Json(s))
        .into_response())
}

#[derive(Deserialize)]
pub struct RuleQuery {
    lang: Option<String>,
    /// `full`: every rule considered.
    explain: Option<String>,
    /// A record field left out is an error.
    strict: Option<bool>,
    /// The report indented for reading (default: compact).
    pretty: Option<bool>,
}

fn not_an_object() -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "the facts must be a JSON object")
        .help("for example `{\"player\": {\"masterpoints\": 2150}}`")
}

/// Reads a JSON body as facts-file JSON: exact numbers, no key twice.
pub fn read_json(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("the body is not UTF-8 text: {e}")))?;
    crate::facts::read::json(crate::facts::read::strip_bom(text)).map_err(|e| {
        ApiError::new(StatusCode::BAD_REQUEST, format!("the body is not valid JSON: {e}"))
            .help("send one JSON object of facts, as a facts file writes them")
    })
}

/// `POST /api/rulebooks/{book}/rulings/{ruling}`: the facts as JSON → the report.
pub async fn rule(
    Ext(shelf): Shared,
    Path((book, ruling)): Path<(String, String)>,
    Query(q): Query<RuleQuery>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(body_error)?;
    let b = ready(&shelf, &book)?;
    let version = served(&b);
    let r = ruling_of(&b, &ruling)?;
    // An object is read straight into the facts; anything else is refused with the reason.
    let object =
        std::str::from_utf8(&body).is_ok_and(|t| crate::facts::read::strip_bom(t).trim_start().starts_with('{'));
    if !object {
        read_json(&body)?;
        return Err(not_an_object());
    }
    let lang = lang_of(q.lang.as_deref(), b.language());
    let full = q.explain.as_deref() == Some("full");
    let strict = q.strict.unwrap_or(false);
    let pretty = q.pretty.unwrap_or(false);
    let text = bounded(move || -> Result<String, ApiError> {
        let text = std::str::from_utf8(&body).unwrap_or_default();
        let text = crate::facts::read::strip_bom(text);
        let facts = match if strict { b.facts_from_json_str_strict(text) } else { b.facts_from_json_str(text) } {
            Ok(facts) => facts,
            // The JSON reader's own reason, as for any body that is not JSON (or, should
            // the tree read it, what reading the tree finds).
            Err(e) if e.kind() == crate::api::ErrorKind::Syntax => {
                let tree = read_json(&body)?;
                if strict { b.facts_from_json_strict(&tree) } else { b.facts_from_json(&tree) }
                    .map_err(|e| ApiError::from_api(StatusCode::UNPROCESSABLE_ENTITY, &e))?
            }
            Err(e) => return Err(ApiError::from_api(StatusCode::UNPROCESSABLE_ENTITY, &e)),
        };
        let outcome = r.rule(&facts).map_err(|e| ApiError::from_api(StatusCode::UNPROCESSABLE_ENTITY, &e))?;
        Ok(outcome.json_text(lang, full, pretty))
    })
    .await??;
    Ok(([(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json")), version], text).into_response())
}

#[derive(Deserialize)]
pub struct BatchQuery {
    /// The rulings, comma-separated (default: every ruling).
    ruling: Option<String>,
}

/// `POST /api/rulebooks/{book}/batch[?ruling=a,b]`: JSON lines in, one record per line out.
pub async fn batch(
    Ext(shelf): Shared,
    Path(book): Path<String>,
    Query(q): Query<BatchQuery>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(body_error)?;
    let b = ready(&shelf, &book)?;
    let version = served(&b);
    let defs = match &q.ruling {
        Some(list) => list
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|n| ruling_of(&b, n.trim()).map(|r| r.def()))
            .collect::<Result<Vec<_>, _>>()?,
        None => b.checked().program.rulings().map(|(d, _)| d).collect(),
    };
    let out = bounded(move || {
        // The records of `conditions rule --batch`, written straight from the values
        // (a blank or broken line gets its error record, the others go on).
        let mut out = Vec::new();
        let _ = crate::batch::run(&b.checked().program, &defs, &body[..], &mut out, 1, |_| {});
        String::from_utf8(out).unwrap_or_default()
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, header::HeaderValue::from_static("application/x-ndjson")), version], out)
        .into_response())
}
