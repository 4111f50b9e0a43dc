//! Batch rulings: one facts object per input line (JSON lines), one JSON ruling per
//! output line, in input order, on `threads` workers, with memory bounded by a fixed
//! number of chunks in flight rather than by the input. Each worker reads its lines
//! straight into a reused input set (no JSON tree), rules with its own scratch buffers
//! and writes the records into a reused buffer. Every input line gets exactly one
//! record: a bad line (not JSON, not UTF-8, blank, over-long, or one whose ruling fails)
//! an error record naming it; the others go on.

use crate::check::program::{DefId, Program};
use crate::eval::Ruling;
use crate::eval::fast::Scratch;
use crate::eval::interp::Inputs;
use crate::facts::{self, seed};
use serde_json::Value as J;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

pub mod out;

/// Most lines handed to a worker at a time.
pub const CHUNK: usize = 8192;

/// Most bytes of input in one chunk (a chunk ends at the first line past it).
pub const CHUNK_BYTES: usize = 4 * 1024 * 1024;

/// Longest input line ruled, in bytes; a longer line gets an error record.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The JSON record for one line of facts.
pub fn rule_line(p: &Program, defs: &[DefId], line_no: usize, line: &str) -> J {
    let mut w = Worker::new(p, defs);
    let mut buf = Vec::new();
    w.text_line(line_no, line, &mut buf);
    serde_json::from_slice(&buf).unwrap_or(J::Null)
}

/// What one worker keeps from line to line.
struct Worker<'p> {
    p: &'p Program,
    defs: &'p [DefId],
    inputs: Inputs,
    touched: Vec<seed::Slot>,
    scratch: Scratch,
    rulings: Vec<Ruling>,
    origin: String,
    writer: out::Writer,
}

impl<'p> Worker<'p> {
    fn new(p: &'p Program, defs: &'p [DefId]) -> Worker<'p> {
        Worker {
            p,
            defs,
            inputs: Inputs::empty(p),
            touched: Vec::new(),
            scratch: Scratch::default(),
            rulings: Vec::with_capacity(defs.len()),
            origin: String::new(),
            writer: out::Writer::default(),
        }
    }

    /// Appends the records of a chunk's lines to `out`, one line each.
    fn chunk(&mut self, chunk: &Chunk, out: &mut Vec<u8>) {
        for (i, line) in chunk.lines.iter().enumerate() {
            let n = chunk.first + i;
            match *line {
                LineSpan::TooLong => {
                    error(out, n, &format!("line {n} is longer than the limit of {MAX_LINE_BYTES} bytes"))
                }
                LineSpan::Bytes(a, b) => match std::str::from_utf8(&chunk.text[a..b]) {
                    Ok(t) if t.trim().is_empty() => error(out, n, "empty line: write one facts object per line"),
                    Ok(t) => self.text_line(n, t, out),
                    Err(e) => error(
                        out,
                        n,
                        &format!(
                            "line {n} is not UTF-8 text (invalid byte at byte {} of the line)",
                            e.valid_up_to() + 1
                        ),
                    ),
                },
            }
        }
    }

    /// Appends the record of one line of text. A failure while ruling it is caught and
    /// recorded, so no line is ever dropped.
    fn text_line(&mut self, n: usize, text: &str, out: &mut Vec<u8>) {
        let start = out.len();
        let ruled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.rule(n, text, out)));
        seed::clear(&mut self.inputs, &mut self.touched);
        self.rulings.clear();
        if ruled.is_err() {
            out.truncate(start);
            self.scratch = Scratch::default();
            error(out, n, "internal failure while ruling this line; please report it with the line");
        }
    }

    fn rule(&mut self, n: usize, text: &str, out: &mut Vec<u8>) {
        let p = self.p;
        self.origin.clear();
        let _ = write!(self.origin, "line {n}");
        match facts::read_json_into(p, text, &self.origin, false, &mut self.inputs, &mut self.touched) {
            Err(e) => error(out, n, &format!("not valid JSON: {e}")),
            Ok(Err(errs)) => {
                let msgs: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
                error(out, n, &msgs.join("; "))
            }
            Ok(Ok(())) => {
                for &d in self.defs {
                    self.rulings.push(crate::eval::fast::rule(p, &self.inputs, d, &mut self.scratch));
                }
                self.writer.record(p, n, &self.rulings, out);
                out.push(b'\n');
            }
        }
    }
}

fn error(out: &mut Vec<u8>, line: usize, error: &str) {
    let _ = serde_json::to_writer(&mut *out, &out::ErrorRecord { line, error });
    out.push(b'\n');
}

/// Where a line of a chunk stands in its text, or that it was too long to keep.
#[derive(Clone, Copy)]
enum LineSpan {
    Bytes(usize, usize),
    TooLong,
}

/// Lines read together: their bytes, one after the other, and where each stands.
#[derive(Default)]
struct Chunk {
    /// The number of the first line (from 1).
    first: usize,
    text: Vec<u8>,
    lines: Vec<LineSpan>,
}

impl Chunk {
    /// Refills the chunk with the lines after line `done`; whether the input may have
    /// more (the chunk is full).
    fn fill(&mut self, input: &mut impl BufRead, done: usize) -> std::io::Result<bool> {
        self.first = done + 1;
        self.text.clear();
        self.lines.clear();
        while self.lines.len() < CHUNK && self.text.len() < CHUNK_BYTES {
            match read_line(input, &mut self.text)? {
                Some(l) => self.lines.push(l),
                None => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// Appends the next line (without its `\n` or `\r\n`) to `text`, keeping at most
/// [`MAX_LINE_BYTES`] of it; `None` at the end of the input.
fn read_line(input: &mut impl BufRead, text: &mut Vec<u8>) -> std::io::Result<Option<LineSpan>> {
    let start = text.len();
    let (mut seen, mut too_long) = (false, false);
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                text.truncate(start);
                return Err(e);
            }
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
        if !too_long && text.len() - start + part.len() <= MAX_LINE_BYTES {
            text.extend_from_slice(part);
        } else {
            too_long = true;
            text.truncate(start);
        }
        let ended = done > part.len();
        input.consume(done);
        if ended {
            break;
        }
    }
    if too_long {
        return Ok(Some(LineSpan::TooLong));
    }
    if text.len() > start && text.last() == Some(&b'\r') {
        text.pop();
    }
    Ok(Some(LineSpan::Bytes(start, text.len())))
}

/// Streams `input` to `output`, one record per input line (blank, over-long and
/// non-UTF-8 lines get an error record naming the line), ruled on `threads` workers
/// (at least one) in input order; `progress` is called after each chunk written with
/// the lines done. Returns the number of lines. A read error ends the run after the
/// lines before it are written.
pub fn run(
    p: &Program,
    defs: &[DefId],
    mut input: impl BufRead,
    mut output: impl Write,
    threads: usize,
    mut progress: impl FnMut(usize),
) -> std::io::Result<usize> {
    let threads = threads.max(1);
    if threads == 1 {
        return run_here(p, defs, &mut input, &mut output, &mut progress);
    }
    std::thread::scope(|s| {
        type Job = (usize, Chunk, Vec<u8>);
        let (work_tx, work_rx) = crossbeam_channel::bounded::<Job>(threads);
        let (done_tx, done_rx) = crossbeam_channel::unbounded::<Job>();
        let mut started = 0;
        for _ in 0..threads {
            let (work_rx, done_tx) = (work_rx.clone(), done_tx.clone());
            let worker = move || {
                let mut w = Worker::new(p, defs);
                for (seq, chunk, mut out) in work_rx {
                    out.clear();
                    w.chunk(&chunk, &mut out);
                    if done_tx.send((seq, chunk, out)).is_err() {
                        break;
                    }
                }
            };
            let spawned =
                std::thread::Builder::new().stack_size(crate::syntax::parser::STACK_BYTES).spawn_scoped(s, worker);
            started += usize::from(spawned.is_ok());
        }
        drop((work_rx, done_tx));
        if started == 0 {
            drop(work_tx);
            return run_here(p, defs, &mut input, &mut output, &mut progress);
        }
        // Chunks in flight (queued, being ruled, or waiting for their turn to be
        // written): this bounds the memory, whatever the input's length.
        let most = 2 * started + 1;
        let (mut free, mut waiting) = (Vec::<(Chunk, Vec<u8>)>::new(), BTreeMap::<usize, (Chunk, Vec<u8>)>::new());
        let (mut read, mut written, mut in_flight, mut next_seq, mut next_write) = (0usize, 0usize, 0, 0, 0);
        let (mut more, mut failure) = (true, None);
        loop {
            while more && in_flight < most {
                let (mut chunk, out) = free.pop().unwrap_or_default();
                match chunk.fill(&mut input, read) {
                    Ok(m) => more = m,
                    Err(e) => (more, failure) = (false, Some(e)),
                }
                read += chunk.lines.len();
                if chunk.lines.is_empty() {
                    break;
                }
                if work_tx.send((next_seq, chunk, out)).is_err() {
                    return Err(std::io::Error::other("the batch's workers stopped"));
                }
                (next_seq, in_flight) = (next_seq + 1, in_flight + 1);
            }
            if in_flight == 0 {
                break;
            }
            let Ok((seq, chunk, out)) = done_rx.recv() else {
                return Err(std::io::Error::other("the batch's workers stopped"));
            };
            waiting.insert(seq, (chunk, out));
            while let Some((chunk, out)) = waiting.remove(&next_write) {
                output.write_all(&out)?;
                written += chunk.lines.len();
                progress(written);
                (next_write, in_flight) = (next_write + 1, in_flight - 1);
                free.push((chunk, out));
            }
        }
        output.flush()?;
        match failure {
            Some(e) => Err(e),
            None => Ok(read),
        }
    })
}

/// The batch on the calling thread alone.
fn run_here(
    p: &Program,
    defs: &[DefId],
    input: &mut impl BufRead,
    output: &mut impl Write,
    progress: &mut impl FnMut(usize),
) -> std::io::Result<usize> {
    let mut w = Worker::new(p, defs);
    let (mut chunk, mut out, mut done) = (Chunk::default(), Vec::new(), 0);
    loop {
        let filled = chunk.fill(input, done);
        done += chunk.lines.len();
        out.clear();
        w.chunk(&chunk, &mut out);
        output.write_all(&out)?;
        progress(done);
        match filled {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                output.flush()?;
                return Err(e);
            }
        }
    }
    output.flush()?;
    Ok(done)
}
