//! Machine formats for `check`: SARIF 2.1.0 (GitHub code scanning and other viewers)
//! and GitHub workflow annotations.

use crate::diagnostic::{Diagnostic, Severity};
use crate::json::Json as Value;
use crate::ojson as json;
use crate::source::SourceMap;

fn region(d: &Diagnostic, sources: &SourceMap) -> Option<(String, Value)> {
    let span = d.primary_span()?;
    let file = sources.get(span.file)?;
    let (line, col) = sources.line_col(span);
    let (end_line, end_col) = sources.line_col(crate::syntax::ast::Span { start: span.end, ..span });
    Some((
        file.name.clone(),
        json!({ "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col.max(col + usize::from(end_line == line && end_col == col)) }),
    ))
}

fn level(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// One SARIF log with one run; the rules are the codes met, each linked to its documentation.
pub fn sarif(all: &[(SourceMap, Vec<Diagnostic>)]) -> Value {
    let mut codes: Vec<&str> = all.iter().flat_map(|(_, ds)| ds.iter().map(|d| d.code)).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            let summary = crate::lint::LINTS.iter().find(|(code, _, _)| code == c).map_or(*c, |(_, _, s)| *s);
            let doc =
                if c.starts_with("lint::") { crate::lint::doc_anchor(c) } else { "docs/diagnostics.md".to_string() };
            // helpUri must be absolute; the documentation ships with the rulebooks' repository.
            json!({ "id": c, "shortDescription": { "text": summary }, "help": { "text": format!("see {doc}") } })
        })
        .collect();
    let codes = &codes;
    let results: Vec<Value> = all
        .iter()
        .flat_map(|(sources, ds)| {
            ds.iter().map(move |d| {
                let mut text = d.message.clone();
                if let Some(h) = &d.help {
                    text.push_str(&format!(" (help: {h})"));
                }
                let mut r = json!({
                    "ruleId": d.code,
                    "ruleIndex": codes.iter().position(|c| *c == d.code).unwrap_or(0),
                    "level": level(d),
                    "message": { "text": text },
                });
                let location = match region(d, sources) {
                    Some((uri, region)) => json!({ "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region } }),
                    None => json!({ "physicalLocation": { "artifactLocation": { "uri": d.path.clone().unwrap_or_else(|| ".".into()) } } }),
                };
                r.insert("locations", json!([location]));
                r
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "conditions", "version": env!("CARGO_PKG_VERSION"), "rules": rules } },
            "results": results,
        }],
    })
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// `::error file=…,line=…,col=…,title=…::message` for GitHub Actions.
pub fn github_annotation(d: &Diagnostic, sources: &SourceMap) -> String {
    let mut props = Vec::new();
    if let Some(span) = d.primary_span()
        && let Some(f) = sources.get(span.file)
    {
        let (line, col) = sources.line_col(span);
        let (end_line, end_col) = sources.line_col(crate::syntax::ast::Span { start: span.end, ..span });
        props.push(format!("file={}", escape_property(&f.name)));
        props.push(format!("line={line}"));
        props.push(format!("col={col}"));
        props.push(format!("endLine={end_line}"));
        props.push(format!("endColumn={end_col}"));
    } else if let Some(p) = &d.path {
        props.push(format!("file={}", escape_property(p)));
    }
    props.push(format!("title={}", escape_property(d.code)));
    let mut msg = d.message.clone();
    if let Some(h) = &d.help {
        msg.push_str(&format!("\nhelp: {h}"));
    }
    format!("::{} {}::{}", level(d), props.join(","), escape_data(&msg))
}
