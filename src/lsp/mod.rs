//! `conditions lsp`: a language server over standard input and output. Diagnostics as
//! you type (every error and lint of the rulebook), hover, go to definition, references,
//! completion, outline and workspace symbols, formatting and `did you mean` fixes, all from
//! one analysis ([`crate::analysis`]) made by the same parser, checker and lints as
//! `conditions check`.
//!
//! The main loop answers requests; diagnostics are computed on a worker thread
//! (`diagnostics`), so typing is never held up by the lints of a large rulebook.

mod complete;
pub mod convert;
mod diagnostics;
mod edit;
mod navigate;
mod place;
mod server;
mod transport;
mod workspace;

use lsp_types as lt;
use serde_json::json;
#[doc(hidden)]
pub use transport::read_all as read_frames;

/// What the server offers.
fn capabilities() -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Options(lt::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lt::TextDocumentSyncKind::INCREMENTAL),
            save: Some(lt::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lt::OneOf::Left(true)),
        references_provider: Some(lt::OneOf::Left(true)),
        rename_provider: Some(lt::OneOf::Left(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec![".".into(), "\"".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        workspace_symbol_provider: Some(lt::OneOf::Left(true)),
        document_formatting_provider: Some(lt::OneOf::Left(true)),
        code_action_provider: Some(lt::CodeActionProviderCapability::Options(lt::CodeActionOptions {
            code_action_kinds: Some(vec![lt::CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// Serves one editor until it says `exit`.
pub fn run() -> Result<(), String> {
    let (conn, io) = transport::stdio();
    // A failure to send is told by why the writer stopped, when it did.
    let written = |e: String| match io.write_failure() {
        Some(why) => format!("cannot write to standard output: {why}"),
        None => e,
    };
    serve(conn, &written)?;
    io.join().map_err(|e| format!("cannot write to standard output: {e}"))
}

/// Answers requests until `shutdown` or `exit`.
fn serve(conn: lsp_server::Connection, written: &dyn Fn(String) -> String) -> Result<(), String> {
    let (id, params) = conn.initialize_start().map_err(|e| written(e.to_string()))?;
    let result = json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "conditions", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result).map_err(|e| written(e.to_string()))?;
    let mut server = server::Server::new(conn.sender.clone(), &params);
    for msg in &conn.receiver {
        match msg {
            lsp_server::Message::Request(req) => {
                if conn.handle_shutdown(&req).map_err(|e| written(e.to_string()))? {
                    break;
                }
                let id = req.id.clone();
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.request(req)));
                let resp = answer.unwrap_or_else(|_| {
                    let code = lsp_server::ErrorCode::InternalError as i32;
                    lsp_server::Response::new_err(id, code, "internal error; please report the file".into())
                });
                let _ = conn.sender.send(resp.into());
            }
            lsp_server::Message::Notification(n) => {
                if n.method == "exit" {
                    break;
                }
                server.notify(n);
            }
            lsp_server::Message::Response(_) => {}
        }
    }
    server.stop();
    Ok(())
}
