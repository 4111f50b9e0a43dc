//! The stdio transport: `Content-Length` framed JSON-RPC messages read into
//! [`lsp_server::Message`]s on one thread and written from them on another.
//!
//! lsp-server's own reader parses messages with serde's untagged enums, which cannot read
//! numeric request ids when serde_json has `arbitrary_precision` (which a program embedding
//! this crate may turn on); here a message is read as a JSON value first and built by hand,
//! which reads them with the feature on or off.
//!
//! The reader survives any bytes: of a header line its last [`MAX_HEADER_LINE`] bytes are
//! kept (the rest is skipped), of a body to [`MAX_FRAME_BYTES`], read as it arrives
//! rather than allocated from the length the client claims. A frame whose length is not a
//! number or too large, a body that is not UTF-8 or not JSON, a message that is no JSON-RPC
//! message: each is answered with a JSON-RPC error (`id` null when it cannot be known) and
//! the next frame is read. After a frame refused for its length the bytes that follow are
//! skipped up to the next `Content-Length` header, wherever it starts on a line.

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response, ResponseError};
use serde_json::{Value, json};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// Largest frame body read, in bytes: room for a condition file of the largest size
/// accepted, escaped in JSON, with the rest of a `didOpen`.
pub const MAX_FRAME_BYTES: usize = 8 * crate::syntax::parser::MAX_FILE_BYTES;
/// Longest header line kept, in bytes.
pub const MAX_HEADER_LINE: usize = 1024;

/// JSON-RPC's code for a message that cannot be read.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is no valid message.
const INVALID_REQUEST: i32 = -32600;

/// The threads serving a connection; join them after the main loop ends.
pub struct IoThreads {
    reader: JoinHandle<()>,
    writer: JoinHandle<io::Result<()>>,
    /// Why the writer stopped, set before it lets go of its channel.
    failure: std::sync::Arc<std::sync::OnceLock<String>>,
}

impl IoThreads {
    /// Waits for the writer to flush what is left. The reader is not waited for: it may be
    /// blocked on standard input, which the client may keep open after `exit`.
    pub fn join(self) -> io::Result<()> {
        drop(self.reader);
        self.writer.join().unwrap_or(Ok(()))
    }

    /// Why writing to standard output failed, once it has: a message that can no longer
    /// be sent was lost to it.
    pub fn write_failure(&self) -> Option<String> {
        self.failure.get().cloned()
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, IoThreads) {
    let (to_main, from_reader) = unbounded::<Message>();
    let (to_writer, from_main) = unbounded::<Message>();
    let reader = std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        // Errors about unreadable frames go out at once, between whole messages of the writer.
        read_loop(
            &mut input,
            &to_main,
            MAX_FRAME_BYTES,
            &mut |v: Value| {
                let body = v.to_string();
                let mut out = io::stdout().lock();
                let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|()| out.flush());
            },
            log_stderr,
        );
    });
    let failure = std::sync::Arc::new(std::sync::OnceLock::new());
    let failed = failure.clone();
    let writer = std::thread::spawn(move || {
        write_loop(&from_main).inspect_err(|e| {
            let _ = failed.set(e.to_string());
        })
    });
    (Connection { sender: to_writer, receiver: from_reader }, IoThreads { reader, writer, failure })
}

/// Reads frames until the input ends, `exit` arrives or the main loop is gone; messages go
/// to `out`, the error answering an unreadable frame to `reply`.
fn read_loop(
    input: &mut impl BufRead,
    out: &Sender<Message>,
    max: usize,
    reply: &mut impl FnMut(Value),
    log: fn(&str),
) {
    loop {
        let body = match read_frame(input, max) {
            Ok(Some(Frame::Body(b))) => b,
            Ok(Some(Frame::Bad(why))) => {
                reply(error(Value::Null, PARSE_ERROR, why));
                continue;
            }
            Ok(None) => return,
            Err(e) => {
                log(&e.to_string());
                return;
            }
        };
        let msg = match parse(&body) {
            Ok(m) => m,
            Err(Refused { id, code, message, answer }) => {
                log(&message);
                if answer {
                    reply(error(id, code, message));
                }
                continue;
            }
        };
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        if out.send(msg).is_err() || exit {
            return;
        }
    }
}

/// Writes a line to the editor's log (standard error).
fn log_stderr(message: &str) {
    let _ = writeln!(io::stderr(), "conditions lsp: {message}");
}

/// Logs nothing (tests and fuzzing read thousands of bad frames).
fn log_nothing(_: &str) {}

/// A JSON-RPC error response.
fn error(id: Value, code: i32, message: String) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// Reads `input` to its end as the server reads its standard input, with a frame limit of
/// `max`: how many messages it passes on, and the errors it answers. For the fuzz target
/// `lsp_frames` (`fuzz/`).
pub fn read_all(input: &[u8], max: usize) -> (usize, Vec<Value>) {
    let (tx, rx) = unbounded();
    let mut replies = Vec::new();
    read_loop(&mut &input[..], &tx, max, &mut |v| replies.push(v), log_nothing);
    drop(tx);
    (rx.iter().count(), replies)
}

fn write_loop(input: &Receiver<Message>) -> io::Result<()> {
    let stdout = io::stdout();
    for msg in input {
        let mut out = stdout.lock();
        msg.write(&mut out)?;
        out.flush()?;
    }
    Ok(())
}

/// What one frame held.
#[derive(Debug, PartialEq)]
enum Frame {
    /// The body, at most the limit long.
    Body(Vec<u8>),
    /// A frame that cannot be read, and why; its body is not read.
    Bad(String),
}

/// Reads one line into `line` (without the line end), keeping its last `max` bytes (a
/// header after skipped bytes ends the line): `None` at the end of the input, else whether
/// the line was longer.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut long) = (false, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(long));
        }
        any = true;
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        if chunk.len() >= max {
            long |= chunk.len() > max || !line.is_empty();
            line.clear();
            line.extend_from_slice(&chunk[chunk.len() - max..]);
        } else {
            line.extend_from_slice(chunk);
            if line.len() > max {
                long = true;
                line.drain(..line.len() - max);
            }
        }
        let done = end > chunk.len();
        input.consume(end);
        if done {
            return Ok(Some(long));
        }
    }
}

/// The value of a `Content-Length` header in `line`, which may follow skipped bytes on it.
fn content_length(line: &[u8]) -> Option<&[u8]> {
    const NAME: &[u8] = b"content-length";
    let at = line.windows(NAME.len()).rposition(|w| w.eq_ignore_ascii_case(NAME))?;
    let rest = line[at + NAME.len()..].trim_ascii_start();
    Some(rest.strip_prefix(b":")?.trim_ascii())
}

/// The length a `Content-Length` value gives, or why it gives none.
fn length(value: &[u8], max: usize) -> Result<usize, String> {
    let shown = String::from_utf8_lossy(&value[..value.len().min(40)]).into_owned();
    let text = std::str::from_utf8(value).ok().filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
    let Some(text) = text else { return Err(format!("`Content-Length: {shown}` is not a length in bytes")) };
    match text.parse::<u64>() {
        Ok(n) if n <= max as u64 => Ok(n as usize),
        _ => Err(format!("a frame of `{shown}` bytes is larger than the limit of {max} bytes")),
    }
}

/// Reads one frame: `None` at the end of the input (also within a body).
fn read_frame(input: &mut impl BufRead, max: usize) -> io::Result<Option<Frame>> {
    let mut length_header: Option<Result<usize, String>> = None;
    let mut line = Vec::new();
    loop {
        if read_line(input, &mut line, MAX_HEADER_LINE)?.is_none() {
            return Ok(None);
        }
        let header = line.trim_ascii();
        if header.is_empty() {
            if length_header.is_some() {
                break;
            }
            continue;
        }
        if let Some(value) = content_length(header) {
            length_header = Some(length(value, max));
        }
    }
    match length_header {
        Some(Ok(n)) => {
            let mut body = Vec::new();
            input.take(n as u64).read_to_end(&mut body)?;
            Ok((body.len() == n).then_some(Frame::Body(body)))
        }
        Some(Err(why)) => Ok(Some(Frame::Bad(why))),
        None => Ok(None),
    }
}

/// Why a body was refused: the error to answer with, if any (a response is not answered).
#[derive(Debug)]
struct Refused {
    id: Value,
    code: i32,
    message: String,
    answer: bool,
}

fn refused(id: Value, code: i32, message: String) -> Refused {
    Refused { id, code, message, answer: true }
}

/// A frame's body as a message.
fn parse(body: &[u8]) -> Result<Message, Refused> {
    let text = std::str::from_utf8(body).map_err(|e| {
        refused(
            Value::Null,
            PARSE_ERROR,
            format!("a message that is not UTF-8 (invalid byte at offset {})", e.valid_up_to()),
        )
    })?;
    let v = serde_json::from_str::<Value>(text)
        .map_err(|e| refused(Value::Null, PARSE_ERROR, format!("a message that is not JSON: {e}")))?;
    message(v)
}

fn request_id(v: &Value) -> Option<RequestId> {
    match v {
        Value::Number(n) => n.as_i64().and_then(|i| i32::try_from(i).ok()).map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

/// A JSON-RPC message from its JSON.
fn message(mut v: Value) -> Result<Message, Refused> {
    if !v.is_object() {
        return Err(refused(Value::Null, INVALID_REQUEST, "a message that is not a JSON object".into()));
    }
    let params = v.get_mut("params").map(Value::take).unwrap_or(Value::Null);
    let method = match v.get("method") {
        None => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(other) => {
            let id = v.get("id").filter(|i| i.is_number() || i.is_string()).cloned().unwrap_or(Value::Null);
            let shown = short(other);
            return Err(refused(id, INVALID_REQUEST, format!("the method `{shown}` is not a string")));
        }
    };
    let id = match v.get("id") {
        None => None,
        Some(raw) => match request_id(raw) {
            Some(id) => Some(id),
            None => {
                let echo = if raw.is_number() || raw.is_string() { raw.clone() } else { Value::Null };
                let why = format!("the id `{}` is neither a 32-bit integer nor a string", short(raw));
                return Err(Refused { answer: method.is_some(), ..refused(echo, INVALID_REQUEST, why) });
            }
        },
    };
    Ok(match (method, id) {
        (Some(method), Some(id)) => Message::Request(Request { id, method, params }),
        (Some(method), None) => Message::Notification(Notification { method, params }),
        (None, Some(id)) => {
            let response_result = match v.get_mut("error").map(Value::take) {
                Some(e) => Err(ResponseError {
                    code: e.get("code").and_then(Value::as_i64).and_then(|c| i32::try_from(c).ok()).unwrap_or(0),
                    message: e.get("message").and_then(Value::as_str).unwrap_or("").into(),
                    data: None,
                }),
                None => Ok(v.get_mut("result").map(Value::take).unwrap_or(Value::Null)),
            };
            Message::Response(Response { id, response_result })
        }
        (None, None) => {
            return Err(refused(Value::Null, INVALID_REQUEST, "a message with neither a method nor an id".into()));
        }
    })
}

/// A JSON value as shown in an error: its first 40 characters.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Frames read from `input` with a limit of `max`, until its end.
    fn frames(input: &[u8], max: usize) -> Vec<Frame> {
        let mut r = input;
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r, max).unwrap() {
            out.push(f);
            assert!(out.len() <= input.len(), "no progress");
        }
        out
    }

    /// What the read loop makes of `input`: the messages passed on and the errors answered.
    fn run(input: &[u8], max: usize) -> (Vec<Message>, Vec<Value>) {
        let (tx, rx) = unbounded();
        let mut replies = Vec::new();
        read_loop(&mut &input[..], &tx, max, &mut |v| replies.push(v), log_nothing);
        drop(tx);
        (rx.iter().collect(), replies)
    }

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        v.extend_from_slice(body);
        v
    }

    fn request(id: i32) -> Vec<u8> {
        framed(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#).as_bytes())
    }

    fn is_request(m: &Message, id: i32) -> bool {
        matches!(m, Message::Request(r) if r.id == RequestId::from(id) && r.method == "shutdown")
    }

    #[test]
    fn numeric_ids_are_read() {
        let (msgs, replies) = run(&request(7), MAX_FRAME_BYTES);
        assert!(replies.is_empty(), "{replies:?}");
        assert!(matches!(msgs.as_slice(), [m] if is_request(m, 7)));
    }

    #[test]
    fn bad_frames_are_answered_and_the_next_is_read() {
        let mut input = Vec::new();
        for bad in [&b"Content-Length: 99999999999999\r\n\r\n"[..], b"Content-Length: 18446744073709551615\r\n\r\n"] {
            input.extend_from_slice(bad);
        }
        input.extend_from_slice(b"Content-Length: 99999999999999999999999999\r\n\r\n{\"id\":1}");
        input.extend_from_slice(b"Content-Length: -3\r\n\r\n");
        input.extend_from_slice(b"Content-Length: \xff\xfe\r\n\r\n");
        input.extend(framed(b"\xff\xfe\xfd"));
        input.extend(framed(b"{oops"));
        input.extend(framed(b"[1,2]"));
        input.extend(framed(br#"{"jsonrpc":"2.0","id":1099511627776,"method":"hover"}"#));
        input.extend(framed(br#"{"jsonrpc":"2.0","id":2,"method":7}"#));
        input.extend(request(3));
        let (msgs, replies) = run(&input, 1000);
        assert!(matches!(msgs.as_slice(), [m] if is_request(m, 3)), "{msgs:?}");
        let codes: Vec<_> = replies.iter().map(|r| r["error"]["code"].as_i64().unwrap()).collect();
        assert_eq!(codes, [-32700, -32700, -32700, -32700, -32700, -32700, -32700, -32600, -32600, -32600]);
        let ids: Vec<_> = replies.iter().map(|r| r["id"].clone()).collect();
        assert_eq!(ids[8], json!(1099511627776u64));
        assert_eq!(ids[9], json!(2));
        assert!(ids[..8].iter().all(Value::is_null), "{ids:?}");
        assert!(replies[0]["error"]["message"].as_str().unwrap().contains("`99999999999999`"), "{replies:?}");
    }

    #[test]
    fn a_long_header_line_is_skipped_in_bounded_memory() {
        // 20 MB without a line end, read through a small buffer, then a request.
        let junk = std::io::repeat(b'x').take(20 << 20);
        let tail = request(5);
        let mut input = io::BufReader::with_capacity(4096, junk.chain(&tail[..]));
        let mut line = Vec::new();
        while read_line(&mut input, &mut line, 64).unwrap() != Some(true) {}
        assert!(line.starts_with(b"xxx") && content_length(&line) == Some(&b"44"[..]), "{line:?}");
        assert!(line.capacity() < 8192, "{}", line.capacity());
        let (tx, rx) = unbounded();
        let mut input = io::BufReader::with_capacity(4096, std::io::repeat(b'x').take(20 << 20).chain(&tail[..]));
        read_loop(&mut input, &tx, 1000, &mut |v| panic!("{v}"), log_nothing);
        drop(tx);
        assert!(matches!(rx.iter().collect::<Vec<_>>().as_slice(), [m] if is_request(m, 5)));
    }

    #[test]
    fn read_all_counts_messages_and_errors() {
        let input = [framed(b"{oops"), request(1), request(2)].concat();
        let (n, replies) = read_all(&input, 100);
        assert_eq!((n, replies.len()), (2, 1));
    }

    #[test]
    fn a_body_cut_short_ends_the_input() {
        assert_eq!(frames(b"Content-Length: 10\r\n\r\n{}", 100), []);
        assert_eq!(frames(b"Content-Length: 2\r\n", 100), []);
    }

    /// A `Content-Length` value that gives no length within `max`.
    fn bad_length(max: usize) -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            (max as u64 + 1..=u64::MAX).prop_map(|n| n.to_string().into_bytes()),
            "[0-9]{20,40}".prop_map(String::into_bytes),
            "-[0-9]{1,5}|[0-9]+[a-z. ]+[0-9]*|0x[0-9a-f]{1,4}|".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 0..30),
        ]
        .prop_filter("no length, on one line, no header name", move |v| {
            !v.contains(&b'\n')
                && !v.contains(&b'\r')
                && content_length(v).is_none()
                && length(v.trim_ascii(), max).is_err()
        })
    }

    /// Bytes of a body that holds no header name.
    fn junk() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(any::<u8>(), 0..200).prop_filter("no header name", |v| content_length(v).is_none())
    }

    /// A frame the reader must refuse, and how many errors it answers (the junk after a
    /// refused length is skipped silently).
    fn bad_frame(max: usize) -> impl Strategy<Value = (Vec<u8>, usize)> {
        prop_oneof![
            (bad_length(max), junk()).prop_map(|(v, junk)| {
                let mut f = b"Content-Length: ".to_vec();
                f.extend(v);
                f.extend_from_slice(b"\r\n\r\n");
                f.extend(junk);
                (f, 1)
            }),
            proptest::collection::vec(any::<u8>(), 0..max).prop_map(|body| {
                let answered = usize::from(parse(&body).is_err_and(|r| r.answer));
                (framed(&body), answered)
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any bytes: no panic, each body within the limit, the input read to its end.
        #[test]
        fn any_bytes_are_read_without_panic(
            parts in proptest::collection::vec(prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..300),
                "Content-Length: [0-9]{0,25}\r\n\r\n".prop_map(String::into_bytes),
                (0u64..400).prop_map(|n| format!("content-length:{n}\n\n").into_bytes()),
                Just(request(9)),
            ], 0..12),
        ) {
            let input = parts.concat();
            for f in frames(&input, 256) {
                if let Frame::Body(b) = f {
                    prop_assert!(b.len() <= 256);
                }
            }
            let _ = run(&input, 256);
        }

        /// Bad frames of every kind, then a request: each bad frame is answered with one
        /// error, and the request is read.
        #[test]
        fn bad_frames_then_a_request(bad in proptest::collection::vec(bad_frame(200), 0..8)) {
            let mut input: Vec<u8> = bad.iter().flat_map(|(f, _)| f.clone()).collect();
            input.extend(request(42));
            let (msgs, replies) = run(&input, 200);
            prop_assert!(msgs.last().is_some_and(|m| is_request(m, 42)), "{:?}", msgs);
            let answered: usize = bad.iter().map(|(_, n)| n).sum();
            prop_assert_eq!(replies.len(), answered, "{:?}", replies);
        }
    }
}
