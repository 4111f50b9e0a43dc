//! `GET /api/rulebooks/{rulebook}/find?q=words[&limit=N]`: the rulings for a question in
//! words, best first, as `conditions find --format json` gives them (the index of
//! [`crate::discover::find`], the same that the rulebook page's search uses).

use super::Shelf;
use super::api::ready;
use super::safety::ApiError;
use crate::json::Json as J;
use crate::ojson as json;
use axum::Json;
use axum::extract::{Path, Query, State as Ext};
use axum::http::StatusCode;
use serde::Deserialize;
use std::sync::Arc;

/// Results given when the query says no `limit`.
const DEFAULT_LIMIT: usize = 10;
/// The most results one query gives.
const MAX_LIMIT: usize = 1000;
/// The longest query searched, in characters: a question, not a document.
pub const MAX_QUERY_CHARS: usize = 500;

#[derive(Deserialize)]
pub struct FindQuery {
    q: Option<String>,
    limit: Option<usize>,
}

/// The rulings for the words of `q`; none for an empty `q`.
pub async fn find(
    Ext(shelf): Ext<Arc<Shelf>>,
    Path(book): Path<String>,
    Query(q): Query<FindQuery>,
) -> Result<Json<J>, ApiError> {
    let b = ready(&shelf, &book)?;
    let p = &b.checked().program;
    let text = q.q.unwrap_or_default();
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the query is longer than {MAX_QUERY_CHARS} characters"),
        )
        .help("ask with the few words of the question"));
    }
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let hits = if text.trim().is_empty() { Vec::new() } else { crate::discover::find::get(p).search(p, &text, limit) };
    Ok(Json(json!({ "rulebook": b.name(), "query": text, "results": &hits })))
}
