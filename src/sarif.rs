//! Machine formats for `check`: SARIF 2.1.0 (GitHub code scanning and other viewers)
//! and GitHub workflow annotations; and where each diagnostic code is documented
//! ([`doc_path`]), for SARIF's `helpUri` and the language server's `codeDescription`.
//!
//! SARIF locations are relative to a source root (`%SRCROOT%`, given in `originalUriBaseIds` as
//! SARIF 2.1.0 §3.14.14 describes); a file outside it keeps an absolute `file:` URI. Columns
//! count characters (Unicode scalar values), SARIF's default `columnKind`.

use crate::diagnostic::{Diagnostic, Severity};
use crate::json::Json as Value;
use crate::ojson as json;
use crate::source::SourceMap;
use std::path::{Component, Path, PathBuf};

/// Where SARIF's locations and links point.
#[derive(Clone, Debug, Default)]
pub struct Places {
    /// The source root the locations are relative to (`%SRCROOT%`); a relative one, and a
    /// relative file name, are taken from the working directory. `None`: the working directory.
    pub source_root: Option<PathBuf>,
    /// The absolute URI of the folder holding `lints.md` and `diagnostics.md`, ending in `/`:
    /// the rules' `helpUri` and the tool's `informationUri`. `None`: no links.
    pub docs: Option<String>,
}

/// The page and anchor documenting a diagnostic code, relative to the project's root:
/// `docs/lints.md#table-gap` for a lint, else `docs/diagnostics.md#…` at the section whose
/// table lists the code (the page alone for a code it does not list).
pub fn doc_path(code: &str) -> String {
    if code.starts_with("lint::") {
        return crate::lint::doc_anchor(code);
    }
    const PAGE: &str = include_str!("../docs/diagnostics.md");
    let quoted = format!("`{code}`");
    let mut section = None;
    for line in PAGE.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = Some(h);
        } else if line.starts_with('|') && line.contains(&quoted) {
            return section
                .map_or_else(|| "docs/diagnostics.md".into(), |h| format!("docs/diagnostics.md#{}", slug(h)));
        }
    }
    "docs/diagnostics.md".into()
}

/// A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces
/// to hyphens.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The `docs/` folder of the project above `start` (a checkout holding `docs/lints.md`).
pub fn docs_dir(start: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(start).ok()?;
    abs.ancestors().map(|a| a.join("docs")).find(|d| d.join("lints.md").is_file())
}

/// A `file:` URI of an absolute path, percent-encoded; a folder's ends in `/`.
pub fn file_uri(path: &Path, folder: bool) -> String {
    let shown = path.to_string_lossy().replace('\\', "/");
    let mut s = String::from("file://");
    if !shown.starts_with('/') {
        s.push('/');
    }
    s.push_str(&encode(&shown));
    if folder && !s.ends_with('/') {
        s.push('/');
    }
    s
}

/// Percent-encodes all but the unreserved characters and `/` (RFC 3986).
fn encode(path: &str) -> String {
    let mut s = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// `path` absolute and without `.` or `..`, resolving symbolic links where it exists.
fn resolved(path: &Path, cwd: &Path) -> PathBuf {
    let abs = cwd.join(path);
    if let Ok(real) = abs.canonicalize() {
        return real;
    }
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// An artifact location: relative to `%SRCROOT%` under the root, else an absolute URI.
fn artifact(name: &str, root: &Path, cwd: &Path) -> Value {
    let path = resolved(Path::new(name), cwd);
    match path.strip_prefix(root) {
        Ok(rel) => {
            let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let rel = if parts.is_empty() { ".".to_string() } else { parts.join("/") };
            json!({ "uri": encode(&rel), "uriBaseId": "%SRCROOT%" })
        }
        Err(_) => json!({ "uri": file_uri(&path, false) }),
    }
}

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
pub fn sarif(all: &[(SourceMap, Vec<Diagnostic>)], places: &Places) -> Value {
    let cwd = std::env::current_dir().unwrap_or_default();
    let root = resolved(places.source_root.as_deref().unwrap_or(Path::new(".")), &cwd);
    let mut codes: Vec<&str> = all.iter().flat_map(|(_, ds)| ds.iter().map(|d| d.code)).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            let summary = crate::lint::LINTS.iter().find(|(code, _, _)| code == c).map_or(*c, |(_, _, s)| *s);
            let doc = doc_path(c);
            let mut rule =
                json!({ "id": c, "shortDescription": { "text": summary }, "help": { "text": format!("see {doc}") } });
            if let Some(base) = &places.docs {
                rule.insert("helpUri", format!("{base}{}", doc.trim_start_matches("docs/")));
            }
            rule
        })
        .collect();
    let codes = &codes;
    let (root, cwd) = (&root, &cwd);
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
                    Some((name, region)) => json!({ "physicalLocation": { "artifactLocation": artifact(&name, root, cwd), "region": region } }),
                    None => {
                        let name = d.path.clone().unwrap_or_else(|| ".".into());
                        json!({ "physicalLocation": { "artifactLocation": artifact(&name, root, cwd) } })
                    }
                };
                r.insert("locations", json!([location]));
                r
            })
        })
        .collect();
    let mut driver = json!({ "name": "conditions", "version": env!("CARGO_PKG_VERSION") });
    if let Some(base) = &places.docs {
        driver.insert("informationUri", format!("{base}lints.md"));
    }
    driver.insert("rules", rules);
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "originalUriBaseIds": { "%SRCROOT%": { "uri": file_uri(root, true) } },
            "columnKind": "unicodeCodePoints",
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
