//! Edits the server proposes: a file in the canonical layout (`conditions fmt`), and the
//! replacement a `did you mean` help suggests.

use super::convert::{self, LineIndex};
use crate::format::format_text;
use lsp_types as lt;
use serde_json::Value;
use std::collections::HashMap;

/// The whole file replaced by its formatted text; nothing when it is formatted already or
/// does not parse (the diagnostics say why).
pub fn format(text: &str) -> Option<Vec<lt::TextEdit>> {
    let formatted = format_text(text).ok()?;
    if formatted == text {
        return Some(Vec::new());
    }
    let ix = LineIndex::new(text);
    Some(vec![lt::TextEdit { range: ix.range(0, text.len()), new_text: formatted }])
}

/// The replacement of a diagnostic the server published: from its data, else its message.
fn replacement(d: &Value) -> Option<String> {
    if let Some(r) = d.pointer("/data/replacement").and_then(Value::as_str) {
        return Some(r.to_string());
    }
    let message = d.get("message")?.as_str()?;
    super::diagnostics::suggestion(message).map(String::from)
}

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A quick fix for each diagnostic in the request that has a `did you mean` suggestion.
pub fn code_actions(uri: &lt::Uri, text: &str, diagnostics: &[Value]) -> Vec<lt::CodeActionOrCommand> {
    let ix = LineIndex::new(text);
    let mut out = Vec::new();
    for d in diagnostics {
        if d.get("source").and_then(Value::as_str) != Some("conditions") {
            continue;
        }
        let (Some(new), Some(range)) = (replacement(d), d.get("range").and_then(convert::range)) else { continue };
        let (a, b) = (ix.offset(range.start), ix.offset(range.end));
        let old = text.get(a..b).unwrap_or("");
        let new_text = if old.starts_with('"') { quoted(&new) } else { new.clone() };
        if old == new_text {
            continue;
        }
        let diagnostic = serde_json::from_value::<lt::Diagnostic>(d.clone()).ok();
        // lsp-types keys a workspace edit by `Uri`, whose parsed parts are cached in a cell.
        #[allow(clippy::mutable_key_type)]
        let mut changes = HashMap::new();
        changes.insert(uri.clone(), vec![lt::TextEdit { range, new_text }]);
        out.push(lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
            title: format!("Replace with `{new}`"),
            kind: Some(lt::CodeActionKind::QUICKFIX),
            diagnostics: diagnostic.map(|x| vec![x]),
            edit: Some(lt::WorkspaceEdit { changes: Some(changes), ..Default::default() }),
            is_preferred: Some(true),
            ..Default::default()
        }));
    }
    out
}
