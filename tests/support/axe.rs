//! axe-core (the accessibility checker, from npm) in a page of the DevTools browser of
//! `browser.rs`: its script is put into the page and `axe.run()` awaited; every violation
//! comes back as one line with its rule id, impact, help text and the elements it found.
//!
//! The script is `target/axe-core/axe.min.js` (`.ci/run` fetches it with `npm pack
//! axe-core@4` when missing; it is never committed), or the file `$AXE_CORE` names.
//! Without it the test is skipped with a message, unless `CONDITIONS_BROWSER=require`,
//! when it fails.

#![allow(dead_code)]

use super::browser::{Tab, required};
use std::path::PathBuf;

/// Where the script is looked for.
pub fn path() -> PathBuf {
    match std::env::var_os("AXE_CORE").filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("axe-core").join("axe.min.js"),
    }
}

/// The script, or `None` after saying why the test is skipped; panics when the browser
/// checks are required (`CONDITIONS_BROWSER=require`).
pub fn load_or_skip(test: &str) -> Option<String> {
    let p = path();
    match std::fs::read_to_string(&p) {
        Ok(s) if s.contains("axe") => Some(s),
        _ if required() => panic!(
            "{test}: no axe-core at {} (CONDITIONS_BROWSER=require): `.ci/run` fetches it with `npm pack axe-core@4`, or set AXE_CORE",
            p.display()
        ),
        _ => {
            eprintln!("{test}: SKIPPED: no axe-core at {} (`.ci/run` fetches it; or set AXE_CORE)", p.display());
            None
        }
    }
}

/// Runs axe-core on the page loaded in `tab`; one line per violation and element.
pub fn violations(tab: &mut Tab<'_>, script: &str) -> Result<Vec<String>, String> {
    let loaded = tab.eval(&format!("{script}\n;typeof window.axe === 'object'"))?;
    if loaded != serde_json::json!(true) {
        return Err("axe-core did not load in the page".into());
    }
    let v = tab.eval(
        r#"axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({ target: n.target.join(' '), summary: n.failureSummary || '' }))
        })))"#,
    )?;
    let mut out = Vec::new();
    for x in v.as_array().ok_or_else(|| format!("axe.run gave no list: {v}"))? {
        let s = |k: &str| x[k].as_str().unwrap_or_default().to_string();
        for n in x["nodes"].as_array().into_iter().flatten() {
            out.push(format!(
                "{} ({}): {} — at `{}`: {}",
                s("id"),
                s("impact"),
                s("help"),
                n["target"].as_str().unwrap_or_default(),
                n["summary"].as_str().unwrap_or_default().replace('\n', " ")
            ));
        }
    }
    Ok(out)
}
