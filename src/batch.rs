//! Batch rulings: one facts object per input line (JSON lines), one JSON ruling per
//! output line, in input order, on `threads` workers, with memory bounded by a fixed
//! number of chunks in flight rather than by the input. Each worker reads its lines
//! straight into a reused input set (no JSON tree), rules with its own scratch buffers
//! and writes the records into a reused buffer. Every input line gets exactly one
//! record: a bad line (not JSON, not UTF-8, blank, over-long, or one whose ruling fails)
//! an error record naming it; the others go on. A ruling named twice is ruled once: a
//! record holds each ruling under its name, once.

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

/// Bytes of input handed to a worker at a time (a chunk ends at the first newline
/// past them, or holds one line up to [`MAX_LINE_BYTES`]).
pub const CHUNK_BYTES: usize = 256 * 1024;

/// Longest input line ruled, in bytes; a longer line gets an error record.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The JSON record for one line of facts.
pub fn rule_line(p: &Program, defs: &[DefId], line_no: usize, line: &str) -> J {
    let defs = distinct(defs);
    let mut w = Worker::new(p, &defs);
    let mut buf = Vec::new();
    w.text_line(line_no, line, &mut buf);
    serde_json::from_slice(&buf).unwrap_or(J::Null)
}

/// `defs` without repeats, in the order first named: each is a key of the record.
fn distinct(defs: &[DefId]) -> Vec<DefId> {
    let mut seen = std::collections::HashSet::new();
    defs.iter().copied().filter(|d| seen.insert(*d)).collect()
}

/// What one worker keeps from line to line.
struct Worker<'p> {
    p: &'p Program,
    defs: &'p [DefId],
    inputs: Inputs,
    touched: Vec<seed::Slot>,
    kept: seed::Kept,
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
            kept: seed::Kept::default(),
            scratch: Scratch::default(),
            rulings: Vec::with_capacity(defs.len()),
            origin: String::new(),
            writer: out::Writer::default(),
        }
    }

    /// Appends the records of a chunk's lines to `out`, one line each.
    fn chunk(&mut self, chunk: &Chunk, out: &mut Vec<u8>) {
        if chunk.too_long {
            return too_long(out, chunk.first);
        }
        if chunk.text.is_empty() {
            return;
        }
        let body = chunk.text.strip_suffix(b"\n").unwrap_or(&chunk.text);
        let mut n = chunk.first;
        match std::str::from_utf8(body) {
            // The common case: the whole chunk is text, split at its newlines.
            Ok(text) => {
                for line in text.split('\n') {
                    if line.len() > MAX_LINE_BYTES {
                        too_long(out, n);
                    } else {
                        self.text(n, line.strip_suffix('\r').unwrap_or(line), out);
                    }
                    n += 1;
                }
            }
            Err(_) => {
                for line in body.split(|&b| b == b'\n') {
                    self.line(n, line, out);
                    n += 1;
                }
            }
        }
    }

    /// Appends the record of line `n` (its bytes without the `\n`).
    fn line(&mut self, n: usize, line: &[u8], out: &mut Vec<u8>) {
        if line.len() > MAX_LINE_BYTES {
            return too_long(out, n);
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match std::str::from_utf8(line) {
            Ok(t) => self.text(n, t, out),
            Err(e) => error(
                out,
                n,
                &format!("line {n} is not UTF-8 text (invalid byte at byte {} of the line)", e.valid_up_to() + 1),
            ),
        }
    }

    /// Appends the record of line `n`, text without its line end.
    fn text(&mut self, n: usize, text: &str, out: &mut Vec<u8>) {
        if text.trim().is_empty() {
            error(out, n, "empty line: write one facts object per line")
        } else {
            self.text_line(n, text, out)
        }
    }

    /// Appends the record of one line of text. A failure while ruling it is caught and
    /// recorded, so no line is ever dropped.
    fn text_line(&mut self, n: usize, text: &str, out: &mut Vec<u8>) {
        let start = out.len();
        let ruled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.rule(n, text, out)));
        self.rulings.clear();
        seed::clear_keeping(&mut self.inputs, &mut self.touched, &mut self.kept);
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
        let read =
            facts::read_json_keeping(p, text, &self.origin, false, &mut self.inputs, &mut self.touched, &mut self.kept);
        match read {
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

fn too_long(out: &mut Vec<u8>, n: usize) {
    error(out, n, &format!("line {n} is longer than the limit of {MAX_LINE_BYTES} bytes"))
}

/// Lines read together: whole lines of the input, newlines and all, as the worker
/// splits them; or one line too long to keep, of which nothing is kept.
#[derive(Default)]
struct Chunk {
    /// The number of the first line (from 1).
    first: usize,
    text: Vec<u8>,
    /// How many lines `text` holds.
    lines: usize,
    /// Whether the chunk is one line longer than [`MAX_LINE_BYTES`].
    too_long: bool,
}

impl Chunk {
    /// Refills the chunk with the lines after line `done`: about [`CHUNK_BYTES`] of
    /// input, ending at a newline; the start of the line after it is kept in `carry`,
    /// where the chunk starts. Whether the input may have more. On a read error the
    /// chunk keeps the whole lines read before it.
    fn fill(&mut self, input: &mut impl BufRead, carry: &mut Vec<u8>, done: usize) -> std::io::Result<bool> {
        self.first = done + 1;
        self.text.clear();
        self.text.append(carry);
        self.too_long = false;
        let read = self.read(input);
        let end = match read {
            Ok(true) => self.text.len(),
            _ => match self.text.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None if read.is_ok() && self.text.len() > MAX_LINE_BYTES => {
                    // A line too long to keep: the rest of it is passed over.
                    self.text.clear();
                    (self.too_long, self.lines) = (true, 1);
                    return skip_line(input);
                }
                None => 0,
            },
        };
        if read.is_ok() {
            carry.extend_from_slice(&self.text[end..]);
        }
        self.text.truncate(end);
        self.lines = newlines(&self.text);
        if self.text.last().is_some_and(|&b| b != b'\n') {
            self.lines += 1;
        }
        match read {
            Ok(eof) => Ok(!eof),
            Err(e) => Err(e),
        }
    }

    /// Appends input to `text` until it holds [`CHUNK_BYTES`] and a newline, or a
    /// line longer than [`MAX_LINE_BYTES`]; whether the input ended.
    fn read(&mut self, input: &mut impl BufRead) -> std::io::Result<bool> {
        let mut newline = self.text.contains(&b'\n');
        loop {
            let full = if newline { self.text.len() >= CHUNK_BYTES } else { self.text.len() > MAX_LINE_BYTES };
            if full {
                return Ok(false);
            }
            let avail = match input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(true);
            }
            let room = CHUNK_BYTES.max(MAX_LINE_BYTES + 1).saturating_sub(self.text.len()).max(1);
            let take = avail.len().min(room);
            newline |= avail[..take].contains(&b'\n');
            self.text.extend_from_slice(&avail[..take]);
            input.consume(take);
        }
    }
}

/// The number of `\n` in `text`, eight bytes at a time.
fn newlines(text: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = text.chunks_exact(8);
    let mut n = 0;
    for w in &mut words {
        let x = u64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]) ^ (ONES * u64::from(b'\n'));
        // A byte of `x` is zero where `text` has a newline: its high bit stays clear here.
        let t = ((x & !HIGH) + !HIGH) | x;
        n += (!t & HIGH).count_ones() as usize;
    }
    n + words.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// Passes over the input up to and with the next newline; whether there may be more.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<bool> {
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(false);
        }
        match avail.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(true);
            }
            None => {
                let n = avail.len();
                input.consume(n);
            }
        }
    }
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
    let defs = &distinct(defs)[..];
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
        let (mut more, mut failure, mut carry) = (true, None, Vec::new());
        loop {
            while more && in_flight < most {
                let (mut chunk, out) = free.pop().unwrap_or_default();
                match chunk.fill(&mut input, &mut carry, read) {
                    Ok(m) => more = m,
                    Err(e) => (more, failure) = (false, Some(e)),
                }
                read += chunk.lines;
                if chunk.lines == 0 {
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
                written += chunk.lines;
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

/// Why [`run_within`] stopped before the last line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The records would pass the bound on the whole output, at this line.
    TooLarge { line: usize },
    /// The evaluation was cancelled ([`crate::eval::budget`]).
    Cancelled,
}

/// The lines of a batch held in memory, as [`run_within`] rules them: one per `\n`, and
/// the text after the last one when there is any.
pub fn lines_in(input: &[u8]) -> usize {
    newlines(input) + usize::from(input.last().is_some_and(|&b| b != b'\n'))
}

/// The batch of `input` (held in memory) on the calling thread, with its answer bounded:
/// a line whose record is longer than `record_bytes` gets an error record instead, and
/// the run stops when `out` would pass `total_bytes` or the evaluation is cancelled.
/// Returns the number of lines.
pub fn run_within(
    p: &Program,
    defs: &[DefId],
    input: &[u8],
    out: &mut Vec<u8>,
    record_bytes: usize,
    total_bytes: usize,
) -> Result<usize, Cut> {
    let defs = distinct(defs);
    let mut w = Worker::new(p, &defs);
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    if input.is_empty() {
        return Ok(0);
    }
    let mut n = 0;
    for line in body.split(|&b| b == b'\n') {
        n += 1;
        if crate::eval::budget::cancelled() {
            return Err(Cut::Cancelled);
        }
        let start = out.len();
        w.line(n, line, out);
        if out.len() - start > record_bytes {
            out.truncate(start);
            let why = format!(
                "the record of line {n} is longer than the limit of {record_bytes} bytes; ask for fewer rulings at a time"
            );
            error(out, n, &why);
        }
        if out.len() > total_bytes {
            out.truncate(start);
            return Err(Cut::TooLarge { line: n });
        }
    }
    if crate::eval::budget::cancelled() {
        return Err(Cut::Cancelled);
    }
    Ok(n)
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
    let (mut chunk, mut out, mut done, mut carry) = (Chunk::default(), Vec::new(), 0, Vec::new());
    loop {
        let filled = chunk.fill(input, &mut carry, done);
        done += chunk.lines;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `input` as the chunks hand them over, read `step` bytes at a time.
    fn chunked(input: &[u8], step: usize) -> Vec<Option<Vec<u8>>> {
        let mut r = std::io::BufReader::with_capacity(step, input);
        let (mut chunk, mut carry, mut done, mut lines) = (Chunk::default(), Vec::new(), 0, Vec::new());
        loop {
            let more = chunk.fill(&mut r, &mut carry, done).expect("reads");
            assert_eq!(chunk.first, done + 1);
            if chunk.too_long {
                assert_eq!(chunk.lines, 1);
                lines.push(None);
            } else if !chunk.text.is_empty() {
                let body = chunk.text.strip_suffix(b"\n").unwrap_or(&chunk.text);
                let got: Vec<_> = body.split(|&b| b == b'\n').map(|l| Some(l.to_vec())).collect();
                assert_eq!(got.len(), chunk.lines, "the count of lines in a chunk");
                lines.extend(got);
            }
            done += chunk.lines;
            if !more {
                break;
            }
        }
        lines
    }

    /// The bounds of [`run_within`]: a record past its bound is an error record and the
    /// others go on; the answer past its bound stops the run at that line; a raised
    /// cancel flag stops it, a long ruling within a line as well as between lines.
    #[test]
    fn run_within_bounds_records_and_the_answer_and_stops_when_cancelled() {
        let book = crate::api::Rulebook::bundled("gnt").expect("gnt");
        let p = &book.checked().program;
        let flights = [book.ruling("flights").expect("flights").def()];
        let input = b"{}\n{\"player\": {\"masterpoints\": 10, \"life_master\": false, \"name\": \"A\"}}\n{}";
        assert_eq!(lines_in(input), 3);
        assert_eq!(lines_in(b""), 0);
        assert_eq!(lines_in(b"\n"), 1);
        let mut out = Vec::new();
        assert_eq!(run_within(p, &flights, input, &mut out, 1 << 20, 1 << 20), Ok(3));
        let all = String::from_utf8(out.clone()).expect("text");
        assert_eq!(all.lines().count(), 3, "{all}");
        let longest = all.lines().map(str::len).max().unwrap_or(0);
        let mut cut = Vec::new();
        assert_eq!(run_within(p, &flights, input, &mut cut, longest - 1, 1 << 20), Ok(3));
        let cut = String::from_utf8(cut).expect("text");
        assert!(cut.lines().any(|l| l.contains("longer than the limit")), "{cut}");
        assert_eq!(cut.lines().count(), 3);
        let mut short = Vec::new();
        let first = all.lines().next().unwrap_or("").len() + 1;
        assert_eq!(run_within(p, &flights, input, &mut short, 1 << 20, first), Err(Cut::TooLarge { line: 2 }));
        assert_eq!(short.len(), first);
        // Cancelled: between lines, and inside a ranking of thousands of teams.
        let c = crate::eval::budget::Cancel::new();
        c.cancel();
        let mut none = Vec::new();
        assert_eq!(c.run(|| run_within(p, &flights, input, &mut none, 1 << 20, 1 << 20)), Err(Cut::Cancelled));
        let teams: Vec<String> =
            (0..3000).map(|i| format!("{{\"name\": \"t{i}\", \"victory_points\": {}}}", i % 97)).collect();
        let line = format!("{{\"teams_entered\": [{}]}}", teams.join(", "));
        let qualifiers = [book.ruling("qualifiers").expect("qualifiers").def()];
        let mut inputs = Inputs::empty(p);
        let (mut touched, mut kept) = (Vec::new(), seed::Kept::default());
        let read = facts::read_json_keeping(p, &line, "line 1", false, &mut inputs, &mut touched, &mut kept);
        assert!(matches!(read, Ok(Ok(()))));
        let stopped = |r: &crate::eval::Ruling| matches!(&r.outcome, crate::eval::Outcome::Error(e) if e.message == crate::eval::budget::STOPPED);
        let free = crate::eval::rule(p, &inputs, qualifiers[0], false);
        assert!(free.steps > 2 * crate::eval::budget::CHECK_EVERY, "{} steps", free.steps);
        assert!(matches!(free.outcome, crate::eval::Outcome::Decided(_)), "{:?}", free.outcome);
        let halted = c.run(|| crate::eval::rule(p, &inputs, qualifiers[0], false));
        assert!(stopped(&halted), "{:?}", halted.outcome);
        let fast = crate::eval::fast::rule(p, &inputs, qualifiers[0], &mut Scratch::default());
        assert!(matches!(fast.outcome, crate::eval::Outcome::Decided(_)));
        if fast.steps > 2 * crate::eval::budget::CHECK_EVERY {
            assert!(stopped(&c.run(|| crate::eval::fast::rule(p, &inputs, qualifiers[0], &mut Scratch::default()))));
        }
    }

    #[test]
    fn chunks_hand_over_every_line_once_in_order() {
        let long = vec![b'x'; CHUNK_BYTES + 10];
        let too_long = vec![b'y'; MAX_LINE_BYTES + CHUNK_BYTES + 3];
        let mut input = Vec::new();
        let mut want = Vec::new();
        for i in 0..20_000 {
            let line = match i % 1000 {
                7 => long.clone(),
                8 => Vec::new(),
                9 => b"a\r".to_vec(),
                _ => format!("{{\"n\": {i}}}").into_bytes(),
            };
            input.extend_from_slice(&line);
            input.push(b'\n');
            want.push(Some(line));
        }
        input.extend_from_slice(&too_long);
        input.push(b'\n');
        want.push(None);
        input.extend_from_slice(b"last");
        want.push(Some(b"last".to_vec()));
        for step in [1 << 20, 8192, 7] {
            if step == 7 && input.len() > 1 << 22 {
                // one byte short of a multiple of eight, on a shorter input
                let short = &input[..100_000];
                let got = chunked(short, step);
                let text = std::str::from_utf8(short).expect("text");
                assert_eq!(got.len(), text.split('\n').count());
                continue;
            }
            assert_eq!(chunked(&input, step), want, "read {step} bytes at a time");
        }
        assert_eq!(newlines(b"a\nb\n\n0123456789\n"), 4);
        assert!(chunked(b"", 8).is_empty());
        assert_eq!(chunked(b"\n", 8), vec![Some(Vec::new())]);
    }
}
