//! The server's state and dispatch: open documents kept in step with the editor, each
//! request answered from the analysis of the rulebook its file belongs to.

use super::convert::{self, LineIndex, doc_path, path_to_uri};
use super::place::Place;
use super::workspace::{Doc, Loaded, Workspace, root_of};
use super::{complete, diagnostics, edit, navigate};
use crate::syntax::ast::Span;
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types as lt;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

pub struct Server {
    ws: Workspace,
    jobs: Option<crossbeam_channel::Sender<super::workspace::Snapshot>>,
    worker: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn new(out: crossbeam_channel::Sender<Message>, init: &Value) -> Server {
        let mut ws = Workspace::default();
        let folders = init.get("workspaceFolders").and_then(Value::as_array).into_iter().flatten();
        ws.roots.extend(folders.filter_map(|f| convert::uri_to_path(f.get("uri")?.as_str()?)));
        if ws.roots.is_empty() {
            ws.roots.extend(init.get("rootUri").and_then(Value::as_str).and_then(convert::uri_to_path));
        }
        let (jobs, worker) = diagnostics::spawn(out, ws.cache.clone(), ws.parsed.clone());
        Server { ws, jobs: Some(jobs), worker: Some(worker) }
    }

    /// Ends the diagnostics worker.
    pub fn stop(&mut self) {
        self.jobs = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    fn changed(&mut self, path: &Path) {
        let root = root_of(path);
        self.ws.changed(&root);
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(self.ws.snapshot(&root));
        }
    }

    pub fn notify(&mut self, n: Notification) {
        let p = &n.params;
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Some(path) = doc_path(p) else { return };
                let text = p.pointer("/textDocument/text").and_then(Value::as_str).unwrap_or("").to_string();
                let version = p.pointer("/textDocument/version").and_then(Value::as_i64).unwrap_or(0) as i32;
                self.ws.docs.insert(path.clone(), Doc { text, version });
                self.changed(&path);
            }
            "textDocument/didChange" => {
                let Some(path) = doc_path(p) else { return };
                let Some(doc) = self.ws.docs.get_mut(&path) else { return };
                for change in p.get("contentChanges").and_then(Value::as_array).into_iter().flatten() {
                    apply_change(&mut doc.text, change);
                }
                doc.version = p.pointer("/textDocument/version").and_then(Value::as_i64).unwrap_or(0) as i32;
                self.changed(&path);
            }
            "textDocument/didClose" => {
                let Some(path) = doc_path(p) else { return };
                self.ws.docs.remove(&path);
                self.changed(&path);
            }
            "textDocument/didSave" => {
                if let Some(path) = doc_path(p) {
                    self.changed(&path);
                }
            }
            "workspace/didChangeWatchedFiles" => {
                let changes = p.get("changes").and_then(Value::as_array).into_iter().flatten();
                let paths: Vec<_> = changes.filter_map(|c| convert::uri_to_path(c.get("uri")?.as_str()?)).collect();
                for path in paths {
                    self.changed(&path);
                }
            }
            _ => {}
        }
    }

    pub fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            "textDocument/hover" => self.place(&req.params).map(|at| navigate::hover(&at)).map(to_value),
            "textDocument/definition" => self.place(&req.params).map(|at| navigate::definition(&at)).map(to_value),
            "textDocument/references" => {
                let decl = req.params.pointer("/context/includeDeclaration").and_then(Value::as_bool).unwrap_or(true);
                self.place(&req.params).map(|at| navigate::references(&at, decl)).map(to_value)
            }
            "textDocument/rename" => {
                let new_name = req.params.get("newName").and_then(Value::as_str).unwrap_or("").to_string();
                match self.place(&req.params).map(|at| edit::rename(&at, &new_name)).transpose() {
                    Ok(edit) => edit.flatten().map(to_value),
                    Err(why) => return Response::new_err(id, ErrorCode::InvalidParams as i32, why),
                }
            }
            "textDocument/completion" => self.completion(&req.params),
            "textDocument/documentSymbol" => self.symbols(&req.params),
            "workspace/symbol" => {
                let query = req.params.get("query").and_then(Value::as_str).unwrap_or("").to_string();
                let books: Vec<Arc<Loaded>> = self.ws.rulebooks().iter().map(|r| self.ws.analysis(r)).collect();
                Some(to_value(navigate::workspace_symbols(&books, &query)))
            }
            "textDocument/formatting" => self.formatting(&req.params),
            "textDocument/codeAction" => self.code_actions(&req.params),
            _ => {
                return Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("unknown method `{}`", req.method),
                );
            }
        };
        Response::new_ok(id, result.unwrap_or(Value::Null))
    }

    /// The place a request's `textDocument` and `position` point at.
    fn place(&mut self, params: &Value) -> Option<Place> {
        let path = doc_path(params)?;
        let pos = convert::position(params.get("position")?)?;
        Place::find(&mut self.ws, &path, pos)
    }

    fn completion(&mut self, params: &Value) -> Option<Value> {
        let path = doc_path(params)?;
        let pos = convert::position(params.get("position")?)?;
        let text = self.ws.docs.get(&path).map(|d| d.text.clone()).or_else(|| read_disk(&path))?;
        let offset = LineIndex::new(&text).offset(pos);
        let loaded = self.ws.complete_analysis(&root_of(&path));
        Some(to_value(complete::complete(&loaded, &path, &text, offset)))
    }

    fn symbols(&mut self, params: &Value) -> Option<Value> {
        let path = doc_path(params)?;
        let loaded = self.ws.analysis(&root_of(&path));
        let file = loaded.file_id(&path)?;
        Some(to_value(navigate::document_symbols(&loaded, file)))
    }

    fn formatting(&mut self, params: &Value) -> Option<Value> {
        let path = doc_path(params)?;
        let text = self.ws.docs.get(&path).map(|d| d.text.clone()).or_else(|| read_disk(&path))?;
        edit::format(&text).map(to_value)
    }

    fn code_actions(&mut self, params: &Value) -> Option<Value> {
        let path = doc_path(params)?;
        let uri = path_to_uri(&path)?;
        let text = self.ws.docs.get(&path).map(|d| d.text.clone()).or_else(|| read_disk(&path))?;
        let diags = params.pointer("/context/diagnostics").and_then(Value::as_array).cloned().unwrap_or_default();
        Some(to_value(edit::code_actions(&uri, &text, &diags)))
    }
}

fn to_value<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// Applies one `contentChanges` entry: a range replaced, or the whole text.
fn apply_change(text: &mut String, change: &Value) {
    let new = change.get("text").and_then(Value::as_str).unwrap_or("");
    match change.get("range").and_then(convert::range) {
        Some(r) => {
            let ix = LineIndex::new(text);
            let (a, b) = (ix.offset(r.start), ix.offset(r.end));
            let (a, b) = (a.min(b), a.max(b));
            text.replace_range(a..b, new);
        }
        None => *text = new.to_string(),
    }
}

/// The protocol location of a span in an analysed rulebook.
pub fn location(loaded: &Loaded, span: Span) -> Option<lt::Location> {
    let path = loaded.paths.get(span.file as usize)?;
    let ix = LineIndex::new(loaded.text(span.file));
    Some(lt::Location::new(path_to_uri(path)?, ix.range(span.start as usize, span.end as usize)))
}

/// A file that is not open in the editor, read from disk within the size limit of a
/// condition file (a larger or non-UTF-8 file gives no answer instead of unbounded memory).
fn read_disk(path: &std::path::Path) -> Option<String> {
    crate::loader::read_regular_text(path, crate::syntax::parser::MAX_FILE_BYTES).ok()
}
