//! The JSON API for programs (an entry form, a scoring program): the rulebooks, their
//! rulings, a ruling's description and facts schema, a ruling on posted facts (the
//! report of `docs/json.md`), and a batch of JSON lines (the records of
//! `conditions rule --batch`). Documented in `docs/api.md`.

use super::Shelf;
use super::safety::{self, ApiError, Gate, body_error, bounded_with, json_content};
use super::shelf::{Book, State};
use crate::api::{Rulebook, Ruling};
use crate::json::{Json as J, to_json};
use crate::ojson as json;
use axum::Extension;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State as Ext};
use axum::http::{HeaderMap, StatusCode, header};
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

/// `GET /api/openapi.json`: the OpenAPI 3.1 description of this API, with the facts of the
/// rulebooks served that check. It is built once for each set of rulebook versions (a
/// rulebook's facts schema is large work) and kept until one of them changes.
pub async fn openapi(Ext(shelf): Shared) -> Response {
    static KEPT: std::sync::Mutex<Option<(Vec<(String, String)>, Arc<str>)>> = std::sync::Mutex::new(None);
    let books: Vec<Book> = shelf
        .all()
        .iter()
        .filter_map(|(_, s)| match s.as_ref() {
            State::Ready(b) => Some(b.clone()),
            State::Broken(_) => None,
        })
        .collect();
    let key: Vec<(String, String)> = books.iter().map(|b| (b.name().to_string(), b.version().hash.clone())).collect();
    let kept =
        KEPT.lock().unwrap_or_else(|e| e.into_inner()).as_ref().filter(|(k, _)| *k == key).map(|(_, t)| t.clone());
    let text = match kept {
        Some(text) => text,
        None => {
            let served: Vec<super::openapi::Served> = books
                .iter()
                .map(|b| super::openapi::Served {
                    name: b.name(),
                    program: &b.checked().program,
                    language: b.language(),
                })
                .collect();
            let text: Arc<str> = super::openapi::document(&served).to_text().into();
            *KEPT.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, text.clone()));
            text
        }
    };
    ([(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json"))], text.to_string()).into_response()
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

/// A query that does not parse (`strict=null`, say): a 400 with the reason.
fn bad_query(e: QueryRejection) -> ApiError {
    let why = e.body_text();
    let why = why.strip_prefix("Failed to deserialize query string: ").unwrap_or(&why);
    ApiError::new(StatusCode::BAD_REQUEST, format!("the query does not parse: {why}"))
        .help("`strict` and `pretty` take `true` or `false`")
}

/// The values `explain` takes.
pub const EXPLAIN: [&str; 2] = ["brief", "full"];

/// Whether the explanation asked for is the full one; an unknown kind is a 400.
fn explain_of(asked: Option<&str>) -> Result<bool, ApiError> {
    match asked {
        None | Some("brief") => Ok(false),
        Some("full") => Ok(true),
        Some(other) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("`explain` takes `{}`, not `{other}`", EXPLAIN.join("` or `")),
        )),
    }
}

/// The language asked for: the rulebook's or one with an explanation frame; another is a
/// 400 naming those.
fn lang_asked(asked: Option<&str>, default: crate::show::Lang) -> Result<crate::show::Lang, ApiError> {
    match asked {
        None => Ok(default),
        Some(code) => {
            let mut framed = crate::show::Lang::framed();
            if !framed.contains(&default) {
                framed.push(default);
            }
            crate::show::Lang::parse(code).filter(|l| framed.contains(l)).ok_or_else(|| {
                let codes: Vec<&str> = framed.iter().map(|l| l.code()).collect();
                ApiError::new(StatusCode::BAD_REQUEST, format!("`lang` takes `{}`, not `{code}`", codes.join("` or `")))
            })
        }
    }
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

/// `POST /api/rulebooks/{book}/rulings/{ruling}`: the facts as JSON → the report. A
/// body longer than [`safety::LARGE_BODY`] is large work and takes a slot of the [`Gate`].
pub async fn rule(
    Ext(shelf): Shared,
    Extension(gate): Extension<Arc<Gate>>,
    Path((book, ruling)): Path<(String, String)>,
    q: Result<Query<RuleQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(bad_query)?;
    json_content(&headers)?;
    let body = body.map_err(body_error)?;
    let b = ready(&shelf, &book)?;
    let version = served(&b);
    let r = ruling_of(&b, &ruling)?;
    let lang = lang_asked(q.lang.as_deref(), b.language())?;
    let full = explain_of(q.explain.as_deref())?;
    // An object is read straight into the facts; anything else is refused with the reason.
    let object =
        std::str::from_utf8(&body).is_ok_and(|t| crate::facts::read::strip_bom(t).trim_start().starts_with('{'));
    if !object {
        read_json(&body)?;
        return Err(not_an_object());
    }
    let strict = q.strict.unwrap_or(false);
    let pretty = q.pretty.unwrap_or(false);
    let pass = if body.len() > safety::LARGE_BODY { Some(gate.enter()?) } else { None };
    let text = bounded_with(pass, move || -> Result<String, ApiError> {
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

/// `POST /api/rulebooks/{book}/batch[?ruling=a,b]`: JSON lines in, one record per line
/// out; its lines × rulings bounded by [`safety::MAX_BATCH_RULINGS`] (413 past it), its
/// answer by [`safety::MAX_ANSWER_BYTES`] (413), a line's record by
/// [`safety::MAX_RECORD_BYTES`] (an error record); it takes a slot of the [`Gate`].
pub async fn batch(
    Ext(shelf): Shared,
    Extension(gate): Extension<Arc<Gate>>,
    Path(book): Path<String>,
    q: Result<Query<BatchQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(bad_query)?;
    json_content(&headers)?;
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
    // A ruling named twice is ruled once (a record holds each ruling once).
    let mut seen = std::collections::HashSet::new();
    let defs: Vec<_> = defs.into_iter().filter(|d| seen.insert(*d)).collect();
    let lines = crate::batch::lines_in(&body);
    if lines == 0 {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "the batch is empty")
            .help("send one facts object a line (JSON lines)"));
    }
    if defs.is_empty() {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "`ruling` names no ruling")
            .help("name the rulings wanted, comma-separated, or leave `ruling` out for every ruling"));
    }
    let asked = lines.saturating_mul(defs.len());
    if asked > safety::MAX_BATCH_RULINGS {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the batch asks for {lines} lines × {} rulings = {asked} rulings; the limit is {} a request",
                defs.len(),
                safety::MAX_BATCH_RULINGS
            ),
        )
        .help("send fewer lines a request, or name the rulings wanted with `?ruling=a,b`"));
    }
    let pass = gate.enter()?;
    let out = bounded_with(Some(pass), move || {
        // The records of `conditions rule --batch`, written straight from the values
        // (a blank or broken line gets its error record, the others go on).
        let mut out = Vec::new();
        let cut = crate::batch::run_within(
            &b.checked().program,
            &defs,
            &body[..],
            &mut out,
            safety::MAX_RECORD_BYTES,
            safety::MAX_ANSWER_BYTES,
        );
        cut.map(|_| String::from_utf8(out).unwrap_or_default())
    })
    .await?;
    match out {
        Ok(out) => {
            Ok(([(header::CONTENT_TYPE, header::HeaderValue::from_static("application/x-ndjson")), version], out)
                .into_response())
        }
        Err(crate::batch::Cut::TooLarge { line }) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the answer passes the limit of {} bytes at line {line}", safety::MAX_ANSWER_BYTES),
        )
        .help("send fewer lines a request, or name the rulings wanted with `?ruling=a,b`")),
        Err(crate::batch::Cut::Cancelled) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the batch took longer than {} seconds and was stopped", safety::TIMEOUT.as_secs()),
        )),
    }
}
