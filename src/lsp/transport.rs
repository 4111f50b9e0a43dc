//! The stdio transport: `Content-Length` framed JSON-RPC messages read into
//! [`lsp_server::Message`]s on one thread and written from them on another.
//!
//! lsp-server's own reader parses messages with serde's untagged enums, which cannot read
//! numeric request ids when serde_json has `arbitrary_precision` (which a program embedding
//! this crate may turn on); here a message is read as a JSON value first and built by hand,
//! which reads them with the feature on or off.

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response, ResponseError};
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::thread::JoinHandle;

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
        read_loop(&mut input, &to_main);
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

fn read_loop(input: &mut impl BufRead, out: &Sender<Message>) {
    loop {
        let text = match read_frame(input) {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "conditions lsp: {e}");
                return;
            }
        };
        let Some(msg) = serde_json::from_str::<Value>(&text).ok().and_then(message) else {
            let _ = writeln!(std::io::stderr(), "conditions lsp: not a JSON-RPC message: {text}");
            continue;
        };
        let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
        if out.send(msg).is_err() || exit {
            return;
        }
    }
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

fn read_frame(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let header = line.trim_end();
        if header.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length.unwrap_or(0)];
    input.read_exact(&mut body)?;
    String::from_utf8(body).map(Some).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

fn request_id(v: &Value) -> Option<RequestId> {
    match v {
        Value::Number(n) => n.as_i64().and_then(|i| i32::try_from(i).ok()).map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

/// A JSON-RPC message from its JSON.
fn message(mut v: Value) -> Option<Message> {
    let params = v.get_mut("params").map(Value::take).unwrap_or(Value::Null);
    let method = v.get("method").and_then(Value::as_str).map(String::from);
    let id = v.get("id").and_then(request_id);
    Some(match (method, id) {
        (Some(method), Some(id)) => Message::Request(Request { id, method, params }),
        (Some(method), None) => Message::Notification(Notification { method, params }),
        (None, Some(id)) => {
            let response_result = match v.get_mut("error").map(Value::take) {
                Some(e) => Err(ResponseError {
                    code: e.get("code").and_then(Value::as_i64).unwrap_or(0) as i32,
                    message: e.get("message").and_then(Value::as_str).unwrap_or("").into(),
                    data: None,
                }),
                None => Ok(v.get_mut("result").map(Value::take).unwrap_or(Value::Null)),
            };
            Message::Response(Response { id, response_result })
        }
        (None, None) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_ids_are_read() {
        let body = r#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#;
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let text = read_frame(&mut framed.as_bytes()).unwrap().unwrap();
        let msg = message(serde_json::from_str(&text).unwrap()).unwrap();
        assert!(matches!(msg, Message::Request(r) if r.id == RequestId::from(7) && r.method == "shutdown"));
    }
}
