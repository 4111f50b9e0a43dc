//! Edits the server proposes: a file in the canonical layout (`conditions fmt`), the
//! replacement a `did you mean` help suggests, and a rename (worked out by
//! [`crate::analysis::rename`], which says when a rename is refused).

use super::convert::{self, LineIndex};
use super::place::Place;
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

/// Renames what is under the cursor everywhere it is written, each place in the form it
/// needs there ([`crate::analysis::rename`], shared with `conditions rename`). Nothing when
/// the cursor is on no name; an error saying why when the rename is refused.
pub fn rename(at: &Place, new_name: &str) -> Result<Option<lt::WorkspaceEdit>, String> {
    let a = &at.loaded.analysis;
    let Some(occ) = a.at(at.file, at.offset) else { return Ok(None) };
    let edits = crate::analysis::rename::edits(a, occ.target, new_name)?;
    // By file (the URI's text as the key: a `Uri` is no key to mutate a map by).
    let mut by_file: std::collections::BTreeMap<String, (lt::Uri, Vec<lt::TextEdit>)> = Default::default();
    for e in edits {
        let Some(loc) = at.location(e.span) else { continue };
        let edits = &mut by_file.entry(loc.uri.as_str().to_string()).or_insert_with(|| (loc.uri.clone(), Vec::new())).1;
        edits.push(lt::TextEdit { range: loc.range, new_text: e.new_text });
    }
    Ok(Some(lt::WorkspaceEdit { changes: Some(by_file.into_values().collect()), ..Default::default() }))
}
