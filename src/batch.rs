//! Batch rulings: one facts object per input line (JSON lines), one JSON ruling per
//! output line, in input order, on every core, with memory bounded by the chunk size
//! rather than the input. A bad line yields an error record; the others go on.

use crate::check::program::{DefId, Program};
use crate::eval::{self, Outcome};
use crate::explain::to_json;
use crate::facts;
use serde_json::{Map, Value as J, json};
use std::io::{BufRead, Write};

/// Lines handed to the workers at a time.
pub const CHUNK: usize = 8192;

/// The JSON record for one line of facts.
pub fn rule_line(p: &Program, defs: &[DefId], line_no: usize, line: &str) -> J {
    let tree = match serde_json::from_str::<J>(line) {
        Ok(t) => t,
        Err(e) => return json!({ "line": line_no, "error": format!("not valid JSON: {e}") }),
    };
    let inputs = match facts::validate(p, &tree, &format!("line {line_no}")) {
        Ok(i) => i,
        Err(errs) => {
            let msgs: Vec<String> = errs.iter().map(|d| d.message.clone()).collect();
            return json!({ "line": line_no, "error": msgs.join("; ") });
        }
    };
    let mut out = Map::new();
    out.insert("line".into(), json!(line_no));
    for &d in defs {
        let info = &p.defs[d as usize];
        let r = eval::rule(p, &inputs, d, false);
        let v = match r.outcome {
            Outcome::Decided(v) => json!({ "status": "decided", "value": to_json(p, &v, &info.ty) }),
            Outcome::Undetermined(needs) => {
                let names: Vec<String> = needs.iter().map(|n| need_name(p, n)).collect();
                json!({ "status": "undetermined", "needs": names })
            }
            Outcome::Silent(s) => {
                let nearest: Vec<&str> = s.nearest(p).iter().map(|&c| p.clause(c).citation.as_str()).collect();
                json!({ "status": "silent", "not_decided": p.defs[s.def as usize].name, "nearest": nearest })
            }
            Outcome::Error(e) => json!({ "status": "error", "error": e.message }),
        };
        out.insert(info.name.clone(), v);
    }
    J::Object(out)
}

fn need_name(p: &Program, n: &crate::eval::trace::Need) -> String {
    use crate::eval::trace::Need;
    match n {
        Need::Fact(f) => p.facts[*f as usize].name.clone(),
        Need::Field { record, field } => format!("{record}.{field}"),
        Need::Decision(d) | Need::Lot { lot: d, .. } => p.decisions[*d as usize].name.clone(),
    }
}

/// Streams `input` to `output`; `progress` is called after each chunk with the lines done.
pub fn run(
    p: &Program,
    defs: &[DefId],
    input: impl BufRead,
    mut output: impl Write,
    threads: usize,
    mut progress: impl FnMut(usize),
) -> std::io::Result<usize> {
    let threads = threads.max(1);
    let mut lines = input.lines();
    let mut done = 0usize;
    loop {
        let mut chunk: Vec<(usize, String)> = Vec::with_capacity(CHUNK);
        for line in lines.by_ref() {
            let line = line?;
            done += 1;
            if !line.trim().is_empty() {
                chunk.push((done, line));
            }
            if chunk.len() == CHUNK {
                break;
            }
        }
        if chunk.is_empty() {
            break;
        }
        let per = chunk.len().div_ceil(threads);
        let results: Vec<Vec<String>> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .chunks(per)
                .map(|part| {
                    s.spawn(move || part.iter().map(|(n, l)| rule_line(p, defs, *n, l).to_string()).collect::<Vec<_>>())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        for part in results {
            for line in part {
                output.write_all(line.as_bytes())?;
                output.write_all(b"\n")?;
            }
        }
        progress(done);
        if chunk.len() < CHUNK {
            break;
        }
    }
    output.flush()?;
    Ok(done)
}
