//! The ruling page: the question, a form for exactly the inputs that can still change
//! the ruling (from [`crate::eval::needed`], as `conditions ask` asks them: enums as
//! selects, dates as date inputs, amounts with their unit, lists as repeatable rows,
//! decisions and lots with who decides), the answer once decided, the player's
//! explanation, and the case as a link (facts in the URL) and a facts file.
//!
//! The page is titled by the ruling's question and says its answer once, as the
//! explanation words it; every form control has an accessible name (its `<label>`, or
//! the question or row it answers through `aria-labelledby`), in words; the ruling's
//! name (what programs call it by) is only in the note for programs at the bottom.
//!
//! The form is a plain `GET` form: it works without scripts, and every state of a
//! case is a URL. Values typed are read by the type declared at their facts path.

use super::Shelf;
use super::layout::{Ctx, enc, error_page, lang_of, page, respond, trusted};
use super::pages::book_or_page;
use super::shelf::Book;
use crate::api::{Ruling, Status};
use crate::ask::Session;
use crate::check::program::{Program, TypeKind};
use crate::check::types::Type;
use crate::eval::needed;
use crate::show::Lang;
use axum::extract::{Path, Query, State as Ext};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde_json::{Map, Value as J};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rows shown at first for a list, and added by "more rows".
const ROWS: usize = 4;
/// The most rows a form shows for one list.
const MAX_ROWS: usize = 200;

/// The query of a ruling page: `facts` (the case so far, JSON), `lang`, and the
/// form's fields: `f.PATH` (a value), `l.PATH|ROW|FIELD` (a list row), `j.PATH` (JSON),
/// `rows.PATH` (rows to show), `go` (rule).
pub struct Form {
    pairs: Vec<(String, String)>,
}

impl Form {
    fn get(&self, k: &str) -> Option<&str> {
        self.pairs.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str())
    }
}

/// The type at a facts path (`player.masterpoints`, `teams[2].name`), from the declarations.
pub fn type_at(p: &Program, path: &str) -> Option<Type> {
    let mut parts = path.split('.');
    let mut first = parts.next()?.to_string();
    // A fact of a section: `s304.rejsehold…` names it by section and short name.
    if p.sections.sections.contains_key(&first) && !p.symbols.contains_key(&first) {
        first = format!("{first}.{}", parts.next()?);
    }
    let (name, idx) = first.split_once('[').map_or((first.as_str(), ""), |(a, b)| (a, b));
    let mut ty = p
        .facts
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.ty.clone())
        .or_else(|| p.decisions.iter().find(|d| d.name == name).map(|d| d.ty.clone()))?;
    let step_index = |ty: Type, rest: &str| -> Option<Type> {
        let mut ty = ty;
        for _ in rest.split('[').filter(|s| !s.is_empty()) {
            ty = match ty {
                Type::List(e) => *e,
                _ => return None,
            };
        }
        Some(ty)
    };
    ty = step_index(ty, idx)?;
    for part in parts {
        let (field, idx) = part.split_once('[').map_or((part, ""), |(a, b)| (a, b));
        let Type::Record(t) = ty else { return None };
        let TypeKind::Record(fs) = &p.types[t as usize].kind else { return None };
        ty = fs.iter().find(|f| f.name == field)?.ty.clone();
        ty = step_index(ty, idx)?;
    }
    Some(ty)
}

/// A typed value as the facts file writes it.
fn read_value(ty: &Type, s: &str) -> J {
    let s = s.trim();
    match ty {
        Type::Bool if s == "true" => J::Bool(true),
        Type::Bool if s == "false" => J::Bool(false),
        Type::Record(_) | Type::List(_) => crate::facts::read::json(s).unwrap_or_else(|_| J::String(s.to_string())),
        _ => J::String(s.to_string()),
    }
}

/// The facts of the form merged into the case: every field filled, every list's
/// non-empty rows.
fn merge(p: &Program, tree: &J, form: &Form) -> J {
    let mut out = tree.clone();
    let mut lists: BTreeMap<String, BTreeMap<usize, Vec<(String, String)>>> = BTreeMap::new();
    for (k, v) in &form.pairs {
        if let Some(path) = k.strip_prefix("f.") {
            if v.trim().is_empty() {
                continue;
            }
            let ty = type_at(p, path).unwrap_or(Type::Text);
            crate::ask::save::set(&mut out, path, read_value(&ty, v));
        } else if let Some(path) = k.strip_prefix("j.") {
            if v.trim().is_empty() {
                continue;
            }
            crate::ask::save::set(&mut out, path, read_value(&Type::List(Box::new(Type::Text)), v));
        } else if let Some(rest) = k.strip_prefix("l.") {
            let mut it = rest.split('|');
            let (Some(list), Some(row), field) = (it.next(), it.next(), it.next().unwrap_or("")) else { continue };
            let Ok(row) = row.parse::<usize>() else { continue };
            lists.entry(list.to_string()).or_default().entry(row).or_default().push((field.to_string(), v.clone()));
        }
    }
    for (list, rows) in lists {
        let Some(Type::List(elem)) = type_at(p, &list) else { continue };
        let mut items = Vec::new();
        for (_, fields) in rows {
            if fields.iter().all(|(_, v)| v.trim().is_empty()) {
                continue;
            }
            if matches!(*elem, Type::Record(_)) {
                let mut obj = J::Object(Map::new());
                for (f, v) in fields.iter().filter(|(_, v)| !v.trim().is_empty()) {
                    let ty = type_at(p, &format!("{list}[0].{f}")).unwrap_or(Type::Text);
                    crate::ask::save::set(&mut obj, f, read_value(&ty, v));
                }
                items.push(obj);
            } else if let Some((_, v)) = fields.first() {
                items.push(read_value(&elem, v));
            }
        }
        if !items.is_empty() {
            crate::ask::save::set(&mut out, &list, J::Array(items));
        }
    }
    out
}

fn canonical(book: &str, ruling: &str, lang: Lang, tree: &J) -> String {
    format!("/{}/ruling/{}?lang={}&facts={}", enc(book), enc(ruling), lang.code(), enc(&tree.to_string()))
}

fn read_case(form: &Form) -> Result<J, String> {
    let text = form.get("facts").unwrap_or("{}");
    let text = if text.trim().is_empty() { "{}" } else { text };
    match crate::facts::read::json(text) {
        Ok(t) if t.is_object() => Ok(t),
        Ok(_) => Err("the facts must be a JSON object".into()),
        Err(e) => Err(format!("the facts in the link are not valid JSON: {e}")),
    }
}

/// `GET /{book}/ruling/{ruling}`.
pub async fn ruling(
    Ext(shelf): Ext<Arc<Shelf>>,
    axum::Extension(gate): axum::Extension<Arc<super::safety::Gate>>,
    uri: axum::http::Uri,
    Path((name, ruling)): Path<(String, String)>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Response {
    // A long case (thousands of teams in the query) is large work, as a large body is.
    let pass = if uri.query().map_or(0, str::len) > super::safety::LARGE_BODY {
        match gate.enter() {
            Ok(p) => Some(p),
            Err(e) => return error_page(e.status, Lang::En, "busy", &e.message),
        }
    } else {
        None
    };
    let form = Form { pairs };
    let b = match book_or_page(&shelf, &name, form.get("lang")) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    let lang = lang_of(form.get("lang"), b.language());
    let r = match b.ruling(&ruling) {
        Ok(r) => r,
        Err(e) => {
            return error_page(StatusCode::NOT_FOUND, lang, super::words::words(lang).get("not_found"), &e.to_string());
        }
    };
    let tree = match read_case(&form) {
        Ok(t) => t,
        Err(m) => return error_page(StatusCode::BAD_REQUEST, lang, super::words::words(lang).get("bad_facts"), &m),
    };
    let go = form.get("go").is_some();
    let res = super::safety::bounded_with(pass, move || {
        let p = &b.checked().program;
        if go {
            let merged = merge(p, &tree, &form);
            match b.facts_from_json(&merged) {
                Ok(_) => return Redirect::to(&canonical(b.name(), r.name(), lang, &merged)).into_response(),
                Err(e) => return render(&b, &r, lang, &tree, &form, Some(e.to_string())),
            }
        }
        render(&b, &r, lang, &tree, &form, None)
    })
    .await;
    res.unwrap_or_else(|e| error_page(e.status, lang, "error", &e.message))
}

/// The page of a ruling on the case `tree`, with the form for what is still needed.
fn render(b: &Book, r: &Ruling, lang: Lang, tree: &J, form: &Form, problem: Option<String>) -> Response {
    let ctx = Ctx::server(lang).serving(b.version());
    let w = ctx.w();
    let facts = match b.facts_from_json(tree) {
        Ok(f) => f,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, lang, w.get("bad_facts"), &e.to_string()),
    };
    let outcome = match r.rule(&facts) {
        Ok(o) => o,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, lang, w.get("bad_facts"), &e.to_string()),
    };
    let p = &b.checked().program;
    let d = crate::discover::describe(p, r.def());
    let holes = if outcome.status() == Status::Undetermined {
        needed::needed(p, facts.inputs(), r.def()).filter(|n| n.settled.is_none()).map(|n| n.holes).unwrap_or_default()
    } else {
        Vec::new()
    };
    let session = Session::new(p, r.def(), facts.inputs().clone(), tree.clone(), lang);
    let page_opts = crate::api::Page { id_prefix: "x-".into(), ..Default::default() };
    // The answer once, as the explanation says it (a list paired with what it is about),
    // and the explanation below without its own title and answer, and without what is
    // still needed when the form asks for it.
    let (answer, explanation) = crate::api::html_answer_and_explanation(&outcome, lang, &page_opts, holes.is_empty());
    let status = match outcome.status() {
        Status::Decided => "decided",
        Status::Undetermined => "undetermined",
        Status::Silent => "silent",
        Status::Error => "error",
    };
    let link = canonical(b.name(), r.name(), lang, tree);
    let download = format!("/{}/ruling/{}/facts.json?facts={}", enc(b.name()), enc(r.name()), enc(&tree.to_string()));
    let action = format!("/{}/ruling/{}", enc(b.name()), enc(r.name()));
    // The page is headed by the question the ruling answers, in the page's language (its
    // gloss when the rulebook is in another), begun with a capital as a heading is; a
    // ruling without one by its name in words. The name itself (what `--ruling` and the
    // API take) is only in the note for programs at the bottom.
    let title = super::pages::ruling_title(&ctx, p, r.name());
    let body = html! {
        p { a href=(ctx.rulebook(b.name(), lang)) { "← " (b.title()) } }
        h1 { (title) }
        p.clauses {
            @for (i, c) in d.clause.iter().chain(d.decided_by.iter().filter(|c| Some(*c) != d.clause.as_ref())).enumerate() {
                @if i > 0 { ", " }
                a href=(ctx.clause(p, c, lang)) { (c) }
            }
        }
        div class=(status) {
            p.answer id="answer" { (w.get("answer")) ": " strong { (answer) } }
        }
        @if let Some(m) = &problem { p.error role="alert" { (w.get("bad_facts")) ": " (m) } }
        @if !holes.is_empty() {
            form.ask method="get" action=(action) aria-labelledby="still-needed" {
                input type="hidden" name="lang" value=(lang.code());
                input type="hidden" name="facts" value=(tree.to_string());
                h2 #still-needed { (w.get("still_needed")) }
                p.hint { (w.get("form_intro")) }
                @for (k, h) in holes.iter().enumerate() { (widget_for_hole(&ctx, p, &session, h, k, form)) }
                div.actions { button type="submit" name="go" value="1" id="rule" { (w.get("submit")) } }
            }
        }
        div.actions {
            a.reproduce href=(link) { (w.get("reproduce")) }
            a.download href=(download) download="facts.json" { (w.get("download")) }
            a href=(format!("{action}?lang={}", lang.code())) { (w.get("start_over")) }
        }
        section.explanation aria-labelledby="explanation" {
            h2 #explanation { (w.get("explanation")) }
            (trusted(explanation))
        }
        details.programs {
            summary { (w.get("for_programs")) }
            p { (super::layout::rich(w.get("ruling_name"))) ": " code { (r.name()) } }
        }
    };
    let n = b.name().to_string();
    let rn = r.name().to_string();
    let t = tree.clone();
    respond(StatusCode::OK, page(&ctx, &title, &|l| canonical(&n, &rn, l, &t), body))
}

/// A description as a heading: its first letter upper case (`the team's …` → `The team's …`).
pub(super) fn heading_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The questions of one thing still needed: a fieldset headed by the question in words
/// (its `legend`, id `need-K`), which also names a lone input (`aria-labelledby`).
fn widget_for_hole(ctx: &Ctx, p: &Program, s: &Session, h: &needed::Hole, k: usize, form: &Form) -> Markup {
    let q = s.question(h.clone());
    let w = ctx.w();
    let legend = format!("need-{k}");
    html! {
        fieldset.need {
            @match &q.description {
                Some(d) => { legend id=(legend) { (heading_case(d)) } }
                None => { legend id=(legend) { (heading_case(&q.path.rsplit('.').next().unwrap_or(&q.path).replace('_', " "))) } }
            }
            @if let Some(by) = &q.by {
                p.who {
                    @if matches!(h.kind, needed::HoleKind::Lot(_)) { (w.fill("drawn_by", &[("who", by)])) } @else { (w.fill("decided_by", &[("who", by)])) }
                    @if let Some(c) = &q.clause { ", " a href=(ctx.clause(p, c, ctx.lang)) { (w.fill("under", &[("clause", c)])) } }
                }
            } @else if let Some(c) = &q.clause {
                p.who { a href=(ctx.clause(p, c, ctx.lang)) { (c) } }
            }
            @if !h.candidates.is_empty() {
                (select(&format!("f.{}", q.path), &q.path, Some(&legend), &h.candidates.iter().map(|c| (serde_json::to_string(c).unwrap_or_default(), c.clone())).collect::<Vec<_>>(), form.get(&format!("f.{}", q.path)), w))
            } @else {
                (widget(ctx, p, &q.path, &h.ty, form, &legend))
            }
        }
    }
}

/// A field's label: what it is in words (its description), else its name in words.
fn field_label(ctx: &Ctx, p: &Program, name: &str, doc: Option<&String>) -> Markup {
    html! {
        @match doc {
            Some(d) => (heading_case(p.gloss(d, ctx.lang.code()))),
            None => (heading_case(&name.replace('_', " "))),
        }
    }
}

/// A select of `options`; `labelled` is the id of what names it, when no `<label>` does.
fn select(
    name: &str,
    id: &str,
    labelled: Option<&str>,
    options: &[(String, String)],
    chosen: Option<&str>,
    w: &super::words::Words,
) -> Markup {
    html! {
        select name=(name) id=(id) aria-labelledby=[labelled] {
            option value="" { "— " (w.get("not_known")) " —" }
            @for (v, label) in options {
                option value=(v) selected[chosen == Some(v.as_str())] { (label) }
            }
        }
    }
}

/// The input for a value of `ty` at `path`; records field by field (each with its
/// label), lists as rows; a lone input is named by the element of id `legend`.
fn widget(ctx: &Ctx, p: &Program, path: &str, ty: &Type, form: &Form, legend: &str) -> Markup {
    let w = ctx.w();
    let name = format!("f.{path}");
    let value = form.get(&name).unwrap_or("");
    let hint = crate::discover::write::how_in(p, ty, ctx.lang);
    match ty {
        Type::Record(t) => {
            let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return html! {} };
            html! {
                @for f in fs {
                    @let id = format!("f.{path}.{}", f.name);
                    @let nested = matches!(f.ty, Type::Record(_) | Type::List(_));
                    div.field {
                        // A record or list inside is named by its own fields' labels.
                        @if nested { span.label id=(id) { (field_label(ctx, p, &f.name, f.doc.as_ref())) } }
                        @else { label for=(id) { (field_label(ctx, p, &f.name, f.doc.as_ref())) } }
                        (widget(ctx, p, &format!("{path}.{}", f.name), &f.ty, form, &id))
                    }
                }
            }
        }
        Type::List(elem) => list_rows(ctx, p, path, elem, form, legend),
        _ => scalar(ctx, p, &name, &name, Some(legend), ty, value, &hint, w),
    }
}

#[allow(clippy::too_many_arguments)]
fn scalar(
    ctx: &Ctx,
    p: &Program,
    name: &str,
    id: &str,
    labelled: Option<&str>,
    ty: &Type,
    value: &str,
    hint: &str,
    w: &super::words::Words,
) -> Markup {
    match ty {
        Type::Bool => select(
            name,
            id,
            labelled,
            &[("true".into(), w.get("yes").into()), ("false".into(), w.get("no").into())],
            Some(value),
            w,
        ),
        Type::Enum(_) => {
            let opts: Vec<(String, String)> = crate::discover::write::variants(p, ty)
                .into_iter()
                .map(|(n, l)| (n.clone(), l.map_or(n, |l| p.gloss(&l, ctx.lang.code()).to_string())))
                .collect();
            select(name, id, labelled, &opts, Some(value), w)
        }
        Type::Date => html! { input type="date" name=(name) id=(id) value=(value) aria-labelledby=[labelled]; },
        Type::Time => html! { input type="time" name=(name) id=(id) value=(value) aria-labelledby=[labelled]; },
        Type::DateTime => {
            html! { input type="datetime-local" name=(name) id=(id) value=(value.replacen(' ', "T", 1)) aria-labelledby=[labelled]; }
        }
        Type::Int => {
            html! { input type="text" inputmode="numeric" name=(name) id=(id) value=(value) size="8" aria-labelledby=[labelled]; span.hint { (hint) } }
        }
        Type::Quantity(u) => {
            let unit = u.currency().map(str::to_string);
            html! {
                input type="text" inputmode="decimal" name=(name) id=(id) value=(value) size="10" aria-labelledby=[labelled];
                @if let Some(c) = unit { " " span.unit { (c) } }
                span.hint { (hint) }
            }
        }
        _ => html! { input type="text" name=(name) id=(id) value=(value) aria-labelledby=[labelled]; },
    }
}

/// A list as rows of inputs; a row's fields are labelled by their names in words, and a
/// list of single values by the list's name (id `legend`) and the row's number.
fn list_rows(ctx: &Ctx, p: &Program, path: &str, elem: &Type, form: &Form, legend: &str) -> Markup {
    let w = ctx.w();
    let rows_key = format!("rows.{path}");
    // The hidden count and the "more rows" button share the key: the larger wins.
    let rows = form
        .pairs
        .iter()
        .filter(|(k, _)| *k == rows_key)
        .filter_map(|(_, v)| v.parse::<usize>().ok())
        .max()
        .unwrap_or(ROWS)
        .clamp(1, MAX_ROWS);
    let fields: Vec<(String, Type, Option<String>)> = match elem {
        Type::Record(t) => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => fs.iter().map(|f| (f.name.clone(), f.ty.clone(), f.doc.clone())).collect(),
            TypeKind::Enum(_) => Vec::new(),
        },
        _ => vec![(String::new(), elem.clone(), None)],
    };
    html! {
        input type="hidden" name=(rows_key) value=(rows);
        @for i in 0..rows {
            div.row data-row=(i) {
                @let rowno = format!("{legend}-row{i}");
                span.rowno id=(rowno) { (w.fill("row", &[("n", &(i + 1).to_string())])) }
                @for (f, ty, doc) in &fields {
                    @let name = format!("l.{path}|{i}|{f}");
                    @let value = form.get(&name).unwrap_or("");
                    // A field is named by its label and its row ("Name, row 2"); a single value
                    // by the list and the row.
                    @let label_id = format!("{name}-label");
                    @let by = if f.is_empty() { format!("{legend} {rowno}") } else { format!("{label_id} {rowno}") };
                    div.field {
                        @if !f.is_empty() { label for=(name) id=(label_id) { (field_label(ctx, p, f, doc.as_ref())) } }
                        @match ty {
                            Type::Record(_) | Type::List(_) => textarea name=(name) id=(name) rows="2" aria-labelledby=(by) { (value) },
                            _ => (scalar(ctx, p, &name, &name, Some(&by), ty, value, &crate::discover::write::how_in(p, ty, ctx.lang), w)),
                        }
                    }
                }
            }
        }
        button type="submit" name=(format!("rows.{path}")) value=(rows + ROWS) formnovalidate { (w.get("more_rows")) }
    }
}

/// `GET /{book}/ruling/{ruling}/facts.json?facts=…`: the case as a facts file to download.
pub async fn facts_file(
    Ext(shelf): Ext<Arc<Shelf>>,
    Path((name, ruling)): Path<(String, String)>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Response {
    let form = Form { pairs };
    let b = match book_or_page(&shelf, &name, form.get("lang")) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    if let Err(e) = b.ruling(&ruling) {
        return super::safety::ApiError::from_api(StatusCode::NOT_FOUND, &e).into_response();
    }
    match read_case(&form) {
        Ok(t) => (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{}-{}.json\"", enc(&name), enc(&ruling))),
            ],
            serde_json::to_string_pretty(&t).unwrap_or_default() + "\n",
        )
            .into_response(),
        Err(m) => super::safety::ApiError::new(StatusCode::BAD_REQUEST, m).into_response(),
    }
}
