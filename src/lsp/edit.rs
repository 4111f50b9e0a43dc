//! Edits the server proposes: a file in the canonical layout (`conditions fmt`), the
//! replacement a `did you mean` help suggests, and a rename.
//!
//! A rename is refused, with the reason, when the new name cannot be written as a name (a
//! keyword, a number, words) or when the rulebook renamed would not say the same: it is
//! checked again with the edits applied, and refused if that gives an error the rulebook
//! did not have (a name declared twice) or if the renamed declaration no longer has the
//! same uses (a name it would hide, or that would hide it).

use super::convert::{self, LineIndex};
use super::place::Place;
use crate::analysis::{Analysis, Target};
use crate::format::format_text;
use crate::source::SourceMap;
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
/// needs there: short inside the declaring section, qualified (`s332.new`) elsewhere.
/// Nothing when the cursor is on no name; an error saying why when the rename is refused.
pub fn rename(at: &Place, new_name: &str) -> Result<Option<lt::WorkspaceEdit>, String> {
    let a = &at.loaded.analysis;
    let Some(occ) = a.at(at.file, at.offset) else { return Ok(None) };
    if matches!(occ.target, Target::Clause(_) | Target::External(_)) {
        return Err("only a name declared in the rulebook can be renamed".into());
    }
    if crate::syntax::parser::is_keyword(new_name) {
        return Err(format!("`{new_name}` is a keyword of the language, not a name"));
    }
    if !crate::syntax::parser::is_name(new_name) {
        return Err(format!("`{new_name}` is not a name: a letter or `_` then letters, digits or `_`"));
    }
    let sections = &a.checked.program.sections;
    let old = a.name(occ.target);
    let new_full = match old.split_once('.') {
        Some((sec, _)) if sections.sections.contains_key(sec) => format!("{sec}.{new_name}"),
        _ => new_name.to_string(),
    };
    let mut spans = Vec::new();
    for o in a.index.references(occ.target) {
        let here = sections.file_section.get(&o.span.file).map(String::as_str);
        let new_text = if o.is_decl { new_name.to_string() } else { sections.written(&new_full, here) };
        spans.push((o.span, o.is_decl, new_text));
    }
    same_meaning(a, occ.target, &spans, new_name)?;
    // By file (the URI's text as the key: a `Uri` is no key to mutate a map by).
    let mut by_file: std::collections::BTreeMap<String, (lt::Uri, Vec<lt::TextEdit>)> = Default::default();
    for (span, _, new_text) in spans {
        let Some(loc) = at.location(span) else { continue };
        let edits = &mut by_file.entry(loc.uri.as_str().to_string()).or_insert_with(|| (loc.uri.clone(), Vec::new())).1;
        edits.push(lt::TextEdit { range: loc.range, new_text });
    }
    Ok(Some(lt::WorkspaceEdit { changes: Some(by_file.into_values().collect()), ..Default::default() }))
}

type Renamed = (crate::syntax::ast::Span, bool, String);

/// Checks the rulebook of `a` again with `edits` applied: no new error, and the renamed
/// declaration has as many uses as `target` had.
fn same_meaning(a: &Analysis, target: Target, edits: &[Renamed], new_name: &str) -> Result<(), String> {
    let mut sources = SourceMap::new();
    let mut decl_at = None;
    for (id, f) in a.checked.sources.files() {
        let mut here: Vec<&Renamed> = edits.iter().filter(|(s, _, _)| s.file == id).collect();
        here.sort_by_key(|(s, _, _)| s.start);
        let mut text = String::with_capacity(f.text.len());
        let mut last = 0;
        for (s, is_decl, new) in here {
            let (start, end) = (s.start as usize, s.end as usize);
            let Some(before) = f.text.get(last..start).filter(|_| start <= end) else {
                return Err("the rulebook changed while renaming; try again".into());
            };
            text.push_str(before);
            if *is_decl {
                decl_at = Some((id, text.len() as u32));
            }
            text.push_str(new);
            last = end;
        }
        text.push_str(f.text.get(last..).unwrap_or(""));
        sources.add(f.name.clone(), text);
    }
    let renamed = Analysis::new(sources, Vec::new());
    let errors = |x: &Analysis| -> Vec<String> {
        x.checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect()
    };
    let (before, after) = (errors(a), errors(&renamed));
    if after.len() > before.len() {
        let new_error = after.iter().find(|m| !before.contains(m)).unwrap_or(&after[0]);
        return Err(format!("cannot rename to `{new_name}`: {new_error}"));
    }
    let Some((file, start)) = decl_at else { return Ok(()) };
    let uses = a.index.references(target).count();
    let uses_now = renamed.at(file, start as usize).map_or(0, |o| renamed.index.references(o.target).count());
    if uses_now != uses {
        return Err(format!("cannot rename to `{new_name}`: that name would refer to something else in some places"));
    }
    Ok(())
}
