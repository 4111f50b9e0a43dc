//! Batch rulings: one facts object per input line (JSON lines), one JSON ruling per
//! output line, in input order, on every core, with memory bounded by the chunk size
//! rather than the input. Every input line gets exactly one record: a bad line (not
//! JSON, not UTF-8, blank, over-long, or one whose ruling fails) an error record naming
//! it; the others go on.

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
    let tree = match facts::read::json(facts::read::strip_bom(line)) {
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
        let r = eval::fast::rule_here(p, &inputs, d);
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

/// Longest input line ruled, in bytes; a longer line gets an error record.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// One input line as read: its text, or why it cannot be ruled.
enum Line {
    Text(String),
    Empty,
    TooLong,
    NotUtf8(usize),
}

/// Reads the next line (without its `\n` or `\r\n`), keeping at most
/// [`MAX_LINE_BYTES`] of it; `None` at the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<Line>> {
    buf.clear();
    let (mut seen, mut too_long) = (false, false);
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            if !seen {
                return Ok(None);
            }
            break;
        }
        seen = true;
        let (part, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1),
            None => (avail, avail.len()),
        };
        if !too_long && buf.len() + part.len() <= MAX_LINE_BYTES {
            buf.extend_from_slice(part);
        } else {
            too_long = true;
            buf.clear();
        }
        let ended = done > part.len();
        input.consume(done);
        if ended {
            break;
        }
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(t) if t.trim().is_empty() => Line::Empty,
        Ok(t) => Line::Text(t.to_string()),
        Err(e) => Line::NotUtf8(e.valid_up_to()),
    }))
}

/// The record for one line: its rulings, or an error naming the line. A failure while
/// ruling it is caught and recorded, so no line is ever dropped.
fn record(p: &Program, defs: &[DefId], n: usize, line: &Line) -> String {
    let error = |e: String| json!({ "line": n, "error": e }).to_string();
    match line {
        Line::Text(t) => {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| rule_line(p, defs, n, t).to_string())) {
                Ok(r) => r,
                Err(_) => error("internal failure while ruling this line; please report it with the line".into()),
            }
        }
        Line::Empty => error("empty line: write one facts object per line".into()),
        Line::TooLong => error(format!("line {n} is longer than the limit of {MAX_LINE_BYTES} bytes")),
        Line::NotUtf8(at) => error(format!("line {n} is not UTF-8 text (invalid byte at byte {} of the line)", at + 1)),
    }
}

/// Rules one chunk on `threads` workers; one record per line, in order.
fn rule_chunk(p: &Program, defs: &[DefId], chunk: &[(usize, Line)], threads: usize) -> Vec<String> {
    let per = chunk.len().div_ceil(threads).max(1);
    let work = |part: &[(usize, Line)]| part.iter().map(|(n, l)| record(p, defs, *n, l)).collect::<Vec<_>>();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunk
            .chunks(per)
            .map(|part| {
                let h = std::thread::Builder::new()
                    .stack_size(crate::syntax::parser::STACK_BYTES)
                    .spawn_scoped(s, move || work(part));
                (part, h)
            })
            .collect();
        let mut out = Vec::with_capacity(chunk.len());
        for (part, h) in handles {
            // A worker that cannot start, or fails, leaves its lines to this thread.
            match h.map_err(|_| ()).and_then(|h| h.join().map_err(|_| ())) {
                Ok(r) if r.len() == part.len() => out.extend(r),
                _ => out.extend(work(part)),
            }
        }
        out
    })
}

/// Streams `input` to `output`, one record per input line (blank, over-long and
/// non-UTF-8 lines get an error record naming the line); `progress` is called after
/// each chunk with the lines done. Returns the number of lines. A read error ends the
/// run after the lines before it are written.
pub fn run(
    p: &Program,
    defs: &[DefId],
    mut input: impl BufRead,
    mut output: impl Write,
    threads: usize,
    mut progress: impl FnMut(usize),
) -> std::io::Result<usize> {
    let threads = threads.max(1);
    let mut done = 0usize;
    let mut buf = Vec::new();
    loop {
        let mut chunk: Vec<(usize, Line)> = Vec::with_capacity(CHUNK);
        let mut failure = None;
        while chunk.len() < CHUNK {
            match read_line(&mut input, &mut buf) {
                Ok(Some(line)) => {
                    done += 1;
                    chunk.push((done, line));
                }
                Ok(None) => break,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        let full = chunk.len() == CHUNK;
        for line in rule_chunk(p, defs, &chunk, threads) {
            output.write_all(line.as_bytes())?;
            output.write_all(b"\n")?;
        }
        progress(done);
        if let Some(e) = failure {
            output.flush()?;
            return Err(e);
        }
        if !full {
            break;
        }
    }
    output.flush()?;
    Ok(done)
}
