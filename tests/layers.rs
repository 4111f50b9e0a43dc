//! The layers of `src/`: every top-level module has a place in [`LAYERS`], bottom first, and
//! uses only modules of lower layers. Every `.rs` file under `src/` is read; each reference to
//! another top-level module — `crate::MODULE`, `use crate::{MODULE, …}`, `$crate::MODULE` in a
//! macro, a `super::` that climbs to the crate's root, a `crate::NAME!` macro (placed where it
//! is defined) — is found outside comments, doc comments and literals, and one that points to
//! a higher layer fails with its file and line and the two layers. The graph of references
//! is also kept free of cycles, and the list free of modules that are not there or missing.
//!
//! docs/architecture.md ("Layers") describes the same order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, bottom layer first. A module uses only the modules of
/// the layers before its own (the modules of one layer may use each other only without a
/// cycle). `cli` is the command (`src/main.rs` and `src/cli/`), above the library.
const LAYERS: &[&[&str]] = &[
    // Values, numbers, dates, times, the pure builtins, languages, message lookup, caches.
    &["base"],
    &["json"],
    // Source files and spans, then diagnostics about them.
    &["source"],
    &["diagnostic"],
    // Parse, format, check.
    &["syntax"],
    &["format"],
    &["check"],
    // What stands on a checked program alone.
    &["analysis"],
    &["coverage"],
    &["loader"],
    // Showing values, reading facts, ruling, explaining.
    &["show"],
    &["facts"],
    &["eval"],
    &["explain"],
    // Case files, lints, the inputs a ruling needs and asking for them, differences.
    &["cases"],
    &["lint"],
    &["sarif"],
    &["discover"],
    &["ask"],
    &["diff"],
    // Front ends.
    &["api"],
    &["batch"],
    &["lsp"],
    &["serve"],
    &["cli"],
];

/// One reference from a file to a top-level module.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reference {
    line: usize,
    module: String,
}

/// `text` with comments (line, block, doc), string and character literals blanked to spaces,
/// newlines kept so that lines keep their numbers.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if (at(i) == 'r' || (at(i) == 'b' && at(i + 1) == 'r')) && (i == 0 || !ident(c[i - 1])) && {
            let mut k = i + if at(i) == 'b' { 2 } else { 1 };
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // A raw string: r"…", r#"…"#, br#"…"#.
            let start = i;
            i += if at(i) == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '"' && (1..=hashes).all(|h| at(i + h) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            c[start..i.min(c.len())].iter().for_each(|&ch| blank(&mut out, ch));
        } else if at(i) == '"' {
            blank(&mut out, '"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                blank(&mut out, '"');
                i += 1;
            }
        } else if at(i) == '\'' && (at(i + 1) == '\\' || (at(i + 2) == '\'' && at(i + 1) != '\'')) {
            // A character literal (a lifetime or label has no closing quote).
            blank(&mut out, '\'');
            i += 1;
            if at(i) == '\\' {
                // An escape: the backslash and the character after it, then up to the quote.
                for _ in 0..2 {
                    if i < c.len() {
                        blank(&mut out, c[i]);
                        i += 1;
                    }
                }
                while i < c.len() && c[i] != '\'' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            } else {
                blank(&mut out, c[i]);
                i += 1;
            }
            if i < c.len() {
                blank(&mut out, '\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The path segments starting at byte `at` of `s`: `a :: b :: c` → `["a", "b", "c"]`, with
/// `{` as a segment of its own where a group opens.
fn segments(s: &str, mut at: usize) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    loop {
        while at < b.len() && (b[at] as char).is_whitespace() {
            at += 1;
        }
        if at < b.len() && b[at] == b'{' {
            out.push("{".into());
            return out;
        }
        let start = at;
        while at < b.len() && (b[at].is_ascii_alphanumeric() || b[at] == b'_' || b[at] == b'*') {
            at += 1;
        }
        if start == at {
            return out;
        }
        out.push(s[start..at].to_string());
        let mut k = at;
        while k < b.len() && (b[k] as char).is_whitespace() {
            k += 1;
        }
        if s[k..].starts_with("::") {
            at = k + 2;
        } else {
            if s[k..].starts_with('!') {
                out.push("!".into());
            }
            return out;
        }
    }
}

/// The first name of each item of the group opening at byte `open` (a `{`): `{a, b::c, d::{e}}`
/// → `a`, `b`, `d` with the byte offsets where they stand.
fn group_heads(s: &str, open: usize) -> Vec<(usize, String)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    let mut k = open;
    while k < b.len() {
        match b[k] {
            b'{' => {
                depth += 1;
                if depth == 1 {
                    expect = true;
                }
                k += 1;
            }
            b'}' => {
                depth -= 1;
                k += 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => {
                expect = true;
                k += 1;
            }
            c if depth == 1 && expect && (c.is_ascii_alphabetic() || c == b'_') => {
                let start = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                    k += 1;
                }
                out.push((start, s[start..k].to_string()));
                expect = false;
            }
            _ => k += 1,
        }
    }
    out
}

/// Whether the word ending before byte `at` of `s` is preceded by an identifier character
/// (so that `mycrate::x` is not `crate::x`), `$` excepted.
fn part_of_word(s: &str, at: usize) -> bool {
    at > 0 && s[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// The references to top-level modules in the text of the file whose module path is
/// `module` (`["eval", "fast", "rules"]` for `src/eval/fast/rules.rs`; `["eval"]` for
/// `src/eval/mod.rs` or `src/eval.rs`), comments and literals left out. Names are as
/// written: a macro's name is given as `NAME!`, and a `self` of a group is left out.
fn references(text: &str, module: &[&str]) -> Vec<Reference> {
    let s = strip(text);
    let line_of = |at: usize| s[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut push = |at: usize, name: &str, macro_: bool| {
        if name != "self" && name != "*" && name != "super" && name != "crate" {
            let module = if macro_ { format!("{name}!") } else { name.to_string() };
            out.push(Reference { line: line_of(at), module });
        }
    };
    // Inline modules open at each point (`mod tests {`), with the brace depth they close at.
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        let rest = &s[i..];
        if rest.starts_with("mod ") && !part_of_word(&s, i) {
            let seg = segments(&s, i + 4);
            let name = seg.first().cloned().unwrap_or_default();
            let mut k = i + 4 + name.len();
            while k < b.len() && (b[k] as char).is_whitespace() {
                k += 1;
            }
            if b.get(k) == Some(&b'{') {
                inline.push((depth, name));
            }
            i += 4;
        } else if rest.starts_with("crate::") && (!part_of_word(&s, i) || s[..i].ends_with('$')) {
            let seg = segments(&s, i + 7);
            match seg.first().map(String::as_str) {
                Some("{") => {
                    let open = i + 7 + s[i + 7..].find('{').unwrap_or(0);
                    for (at, name) in group_heads(&s, open) {
                        push(at, &name, false);
                    }
                }
                Some(name) => push(i, name, seg.get(1).is_some_and(|x| x == "!")),
                None => {}
            }
            i += 7;
        } else if rest.starts_with("super::") && !part_of_word(&s, i) {
            let seg = segments(&s, i);
            let climbs = seg.iter().take_while(|x| *x == "super").count();
            let here = module.len() + inline.len();
            if climbs >= here {
                // At the crate's root: the segment after the last `super` is a top-level module.
                match seg.get(climbs).map(String::as_str) {
                    Some("{") => {
                        let open = i + s[i..].find('{').unwrap_or(0);
                        for (at, name) in group_heads(&s, open) {
                            push(at, &name, false);
                        }
                    }
                    Some(name) => push(i, name, seg.get(climbs + 1).is_some_and(|x| x == "!")),
                    None => {}
                }
            }
            i += 7 * climbs.max(1);
        } else {
            i += 1;
        }
    }
    out
}

/// The exported macros defined in `text` (`#[macro_export]` then `macro_rules! NAME`).
fn exported_macros(text: &str) -> Vec<String> {
    let s = strip(text);
    let mut out = Vec::new();
    for (at, _) in s.match_indices("#[macro_export]") {
        if let Some(m) = s[at..].find("macro_rules!") {
            let seg = segments(&s, at + m + "macro_rules!".len());
            out.extend(seg.first().cloned());
        }
    }
    out
}

/// The layer of each top-level module.
fn layer_of() -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for (n, layer) in LAYERS.iter().enumerate() {
        for m in *layer {
            assert!(out.insert(*m, n).is_none(), "`{m}` is listed in two layers");
        }
    }
    out
}

/// The top-level module of a file under `src/` and its module path: `src/eval/fast/rules.rs`
/// → `eval`, `["eval", "fast", "rules"]`; `src/main.rs` and `src/cli/…` → `cli`. `None` for
/// `src/lib.rs`, the crate's root.
fn module_of(rel: &Path) -> Option<(String, Vec<String>)> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?.to_string();
    if parts.is_empty() && stem == "lib" {
        return None;
    }
    if parts.is_empty() && stem == "main" {
        return Some(("cli".into(), Vec::new()));
    }
    if stem != "mod" {
        parts.push(stem);
    }
    let top = parts[0].clone();
    Some((top, parts))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("src/ is readable").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// An edge of the module graph: who uses whom, and where first.
type Edges = BTreeMap<(String, String), String>;

/// Every upward reference under `src/` as `file:line: …` lines, and the module graph.
fn survey(src: &Path) -> (Vec<String>, Edges, BTreeSet<String>) {
    let layers = layer_of();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: Vec<(PathBuf, String)> =
        files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).expect("a source file is text"))).collect();
    // Each exported macro, placed in the module that defines it.
    let mut macros = BTreeMap::new();
    for (f, text) in &texts {
        if let Some((top, _)) = module_of(f.strip_prefix(src).expect("under src")) {
            for m in exported_macros(text) {
                macros.insert(format!("{m}!"), top.clone());
            }
        }
    }
    let mut problems = Vec::new();
    let mut edges = Edges::new();
    let mut tops = BTreeSet::new();
    for (f, text) in &texts {
        let rel = f.strip_prefix(src).expect("under src");
        let Some((top, path)) = module_of(rel) else { continue };
        tops.insert(top.clone());
        // The command is its own crate: its `crate::` is the command's, and it stands on all.
        if top == "cli" {
            continue;
        }
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        for r in references(text, &path) {
            // A macro is placed where it is defined, whether called (`NAME!`) or imported.
            let as_macro = format!("{}!", r.module.trim_end_matches('!'));
            let target = match macros.get(&as_macro) {
                Some(m) if !layers.contains_key(r.module.as_str()) => m.clone(),
                _ => r.module.clone(),
            };
            let at = format!("src/{}:{}", rel.display(), r.line);
            if target == top {
                continue;
            }
            let (Some(&from), Some(&to)) = (layers.get(top.as_str()), layers.get(target.as_str())) else {
                problems.push(format!("{at}: `{top}` uses `{}`, which has no layer in LAYERS", r.module));
                continue;
            };
            edges.entry((top.clone(), target.clone())).or_insert(at.clone());
            if to > from {
                problems.push(format!("{at}: `{top}` (layer {from}) uses `{target}` (layer {to}), a higher layer",));
            }
        }
    }
    (problems, edges, tops)
}

/// A cycle of the graph, as the modules along it, if there is one.
fn cycle(edges: &Edges) -> Option<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a.as_str()).or_default().push(b.as_str());
    }
    // 0: not seen, 1: on the path being walked, 2: done.
    fn walk<'a>(
        n: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        state.insert(n, 1);
        path.push(n);
        for &m in next.get(n).map(Vec::as_slice).unwrap_or(&[]) {
            match state.get(m).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|x| *x == m).unwrap_or(0);
                    let mut c: Vec<String> = path[from..].iter().map(|x| x.to_string()).collect();
                    c.push(m.to_string());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = walk(m, next, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(n, 2);
        None
    }
    let mut state = BTreeMap::new();
    let starts: Vec<&str> = next.keys().copied().collect();
    for n in starts {
        if state.get(n).copied().unwrap_or(0) == 0
            && let Some(c) = walk(n, &next, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_module_uses_only_lower_layers() {
    let (problems, _, _) = survey(&src());
    assert!(problems.is_empty(), "references against the layers (tests/layers.rs, LAYERS):\n{}", problems.join("\n"));
}

#[test]
fn the_modules_use_each_other_without_a_cycle() {
    let (_, edges, _) = survey(&src());
    if let Some(c) = cycle(&edges) {
        let steps: Vec<String> =
            c.windows(2).map(|w| format!("{} → {} ({})", w[0], w[1], edges[&(w[0].clone(), w[1].clone())])).collect();
        panic!("a cycle of modules:\n{}", steps.join("\n"));
    }
}

#[test]
fn every_top_level_module_has_a_layer_and_every_layer_a_module() {
    let (_, _, tops) = survey(&src());
    let listed: BTreeSet<String> = LAYERS.iter().flat_map(|l| l.iter().map(|m| m.to_string())).collect();
    let unlisted: Vec<&String> = tops.difference(&listed).collect();
    let absent: Vec<&String> = listed.difference(&tops).collect();
    assert!(unlisted.is_empty(), "modules of src/ without a layer in LAYERS: {unlisted:?}");
    assert!(absent.is_empty(), "modules in LAYERS not in src/: {absent:?}");
}

// The reader itself, on planted text.

fn names(text: &str, module: &[&str]) -> Vec<(usize, String)> {
    references(text, module).into_iter().map(|r| (r.line, r.module)).collect()
}

#[test]
fn references_are_found_in_paths_groups_and_macros() {
    let text = "use crate::explain::text;\n\
                use crate::{base::value::Value, check::{program::Program, types}, self};\n\
                fn f() { let x = crate::eval::rule(p); crate::ojson!({}); }\n\
                macro_rules! m { () => { $crate::json::Json::Null } }\n\
                use crate::{\n    facts::Inputs,\n    show,\n};\n";
    assert_eq!(
        names(text, &["check", "expr"]),
        vec![
            (1, "explain".into()),
            (2, "base".into()),
            (2, "check".into()),
            (3, "eval".into()),
            (3, "ojson!".into()),
            (4, "json".into()),
            (6, "facts".into()),
            (7, "show".into()),
        ]
    );
}

#[test]
fn comments_doc_comments_and_literals_are_not_references() {
    let text = "// crate::serve is above\n\
                /// See [`crate::explain::text`].\n\
                //! Uses crate::lsp.\n\
                /* crate::api /* nested crate::batch */ still crate::cli */\n\
                let s = \"crate::serve\"; let r = r#\"crate::lsp \"quoted\" \"#;\n\
                let c = '\"'; let l: &'static str = \"x\"; fn g<'a>(x: &'a str) {}\n\
                let q = '\\''; let b = '\\\\'; use crate::base;\n\
                let mycrate::x = 1; notcrate::y;\n";
    assert_eq!(names(text, &["eval"]), vec![(7, "base".into())]);
}

#[test]
fn super_counts_only_when_it_climbs_to_the_root() {
    // In src/eval/fast/rules.rs: one `super` is eval::fast, two are eval, three the root.
    let text = "use super::cx::Cx;\nuse super::super::explain::x;\nuse super::super::super::{facts, show::y};\n";
    assert_eq!(names(text, &["eval", "fast", "rules"]), vec![(3, "facts".into()), (3, "show".into())]);
    // In src/facts.rs, a `super` in `mod tests { … }` is facts itself, two are the root.
    let text = "mod tests {\n    use super::*;\n    use super::super::eval::rule;\n}\nuse super::lint;\n";
    assert_eq!(names(text, &["facts"]), vec![(3, "eval".into()), (5, "lint".into())]);
}

#[test]
fn a_planted_upward_reference_fails_with_its_place_and_layers() {
    let dir = std::env::temp_dir().join(format!("conditions-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("check")).expect("a temporary folder");
    std::fs::create_dir_all(dir.join("explain")).expect("a temporary folder");
    let write = |p: &str, t: &str| std::fs::write(dir.join(p), t).expect("a temporary file");
    write("base.rs", "//! bottom\n");
    write(
        "check/mod.rs",
        "//! checks\nuse crate::base;\n\n// crate::explain in a comment\nfn f() { crate::explain::quote(); }\n",
    );
    write("explain/mod.rs", "use crate::check::program;\nuse crate::base;\n");
    let (problems, edges, tops) = survey(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let check = layer_of()["check"];
    let explain = layer_of()["explain"];
    assert_eq!(
        problems,
        vec![format!("src/check/mod.rs:5: `check` (layer {check}) uses `explain` (layer {explain}), a higher layer")]
    );
    assert_eq!(tops, ["base", "check", "explain"].iter().map(|s| s.to_string()).collect());
    let c = cycle(&edges).expect("check and explain use each other");
    assert_eq!(c.first(), c.last());
    assert!(c.contains(&"check".to_string()) && c.contains(&"explain".to_string()), "{c:?}");
}

#[test]
fn a_module_without_a_layer_is_named() {
    let dir = std::env::temp_dir().join(format!("conditions-layers-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("eval.rs"), "use crate::newcomer::X;\n").expect("a temporary file");
    let (problems, _, _) = survey(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(problems, vec!["src/eval.rs:1: `eval` uses `newcomer`, which has no layer in LAYERS".to_string()]);
}
