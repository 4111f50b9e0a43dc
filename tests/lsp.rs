//! `conditions lsp` driven over stdio with real JSON-RPC messages, as an editor would:
//! initialize, open files of the bundled rulebooks, diagnostics for a typo with its fix,
//! hover, definition in another file, completion of a record field, formatting, shutdown.
//! Response times are written to the test's log (`--nocapture`), not asserted.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    notifications: Vec<Value>,
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start() -> Client {
        // `CONDITIONS_BIN` runs another build (a release build, for its response times).
        let bin = std::env::var("CONDITIONS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_conditions").into());
        let mut child = Command::new(bin)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("conditions lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            while let Some(v) = read_frame(&mut stdout) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Client { child, stdin, incoming, next_id: 1, notifications: Vec::new() }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response; logs how long it took.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let start = Instant::now();
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let msg = self.incoming.recv_timeout(WAIT).unwrap_or_else(|_| panic!("no response to `{method}`"));
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                eprintln!("lsp: {method} answered in {} ms", start.elapsed().as_millis());
                assert!(msg.get("error").is_none(), "`{method}` failed: {msg}");
                return msg["result"].clone();
            }
            self.notifications.push(msg);
        }
    }

    /// Waits for diagnostics of `uri` that satisfy `pred`; returns them.
    fn diagnostics(&mut self, uri: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let start = Instant::now();
        let mut pending = std::mem::take(&mut self.notifications).into_iter();
        loop {
            let msg = match pending.next() {
                Some(m) => m,
                None => match self.incoming.recv_timeout(WAIT.saturating_sub(start.elapsed())) {
                    Ok(m) => m,
                    Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                        panic!("no matching diagnostics for {uri}")
                    }
                },
            };
            if msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri {
                let diags = msg["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
                if pred(&diags) {
                    eprintln!("lsp: diagnostics of {} after {} ms", name_of(uri), start.elapsed().as_millis());
                    self.notifications.extend(pending);
                    return diags;
                }
            }
        }
    }
}

fn name_of(uri: &str) -> &str {
    uri.rsplit('/').next().unwrap_or(uri)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A `file:` URI, percent-encoding what the server encodes.
fn uri(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The LSP position (UTF-16 columns) of the `nth` occurrence of `needle` in `text`, plus `skip` bytes.
fn pos(text: &str, needle: &str, nth: usize, skip: usize) -> Value {
    let at = text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("`{needle}` not found")).0 + skip;
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character })
}

fn open(c: &mut Client, path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let u = uri(path);
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": u, "languageId": "conditions", "version": 1, "text": text } }),
    );
    (u, text)
}

fn change(c: &mut Client, u: &str, version: i32, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": u, "version": version }, "contentChanges": [{ "text": text }] }),
    );
}

fn hover_text(v: &Value) -> String {
    v["contents"]["value"].as_str().unwrap_or_default().to_string()
}

fn errors(diags: &[Value]) -> Vec<&Value> {
    diags.iter().filter(|d| d["severity"] == 1).collect()
}

fn initialize(c: &mut Client) {
    let result = c.request(
        "initialize",
        json!({ "processId": null, "rootUri": uri(&repo()), "capabilities": {}, "workspaceFolders": null }),
    );
    assert_eq!(result["capabilities"]["hoverProvider"], true);
    assert_eq!(result["capabilities"]["documentFormattingProvider"], true);
    c.notify("initialized", json!({}));
}

fn shutdown(mut c: Client) {
    assert_eq!(c.request("shutdown", Value::Null), Value::Null);
    c.notify("exit", Value::Null);
    let start = Instant::now();
    loop {
        if let Some(status) = c.child.try_wait().unwrap() {
            assert!(status.success(), "the server exits cleanly after `exit`");
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn gnt_typo_hover_definition_completion_formatting() {
    let mut c = Client::start();
    initialize(&mut c);
    let path = repo().join("conditions/gnt/stage1.cond");
    let (u, text) = open(&mut c, &path);
    let diags = c.diagnostics(&u, |_| true);
    assert!(errors(&diags).is_empty(), "the bundled file has no errors: {diags:?}");

    // A typo in a field of the first use of the fact `player` (declared in declarations.cond).
    let at = first_use(&text, "player.");
    let dot = at + "player.".len();
    let field_end = dot + text[dot..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap();
    let field = &text[dot..field_end];
    let typo = format!("{}{}", &text[..field_end - 1], &text[field_end..]);
    let wrong = &field[..field.len() - 1];
    change(&mut c, &u, 2, &typo);
    let diags = c.diagnostics(&u, |d| d.iter().any(|x| x["code"] == "conditions::unknown_field"));
    let d = diags.iter().find(|x| x["code"] == "conditions::unknown_field").unwrap().clone();
    assert!(d["message"].as_str().unwrap().contains(&format!("`Player` has no field `{wrong}`")), "{d}");
    assert!(d["message"].as_str().unwrap().contains(&format!("did you mean `{field}`?")), "{d}");
    assert_eq!(d["range"]["start"], offset_pos(&typo, dot));
    let href = d["codeDescription"]["href"].as_str().unwrap();
    assert!(href.ends_with("docs/diagnostics.md#names-and-types"), "{d}");
    assert_anchor_exists(href);
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": u }, "range": d["range"], "context": { "diagnostics": [d] } }),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    let edit = &action["edit"]["changes"][&u][0];
    assert_eq!(edit["newText"], field);
    assert_eq!(edit["range"], d["range"]);

    // The fix applied: the error goes.
    change(&mut c, &u, 3, &text);
    c.diagnostics(&u, |d| errors(d).is_empty());

    // Hover a fact: its type, description and declaring place.
    let h =
        hover_text(&c.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": u }, "position": offset_pos(&text, at + 1) }),
        ));
    assert!(h.contains("**fact** `player`: `Player`"), "{h}");
    assert!(h.contains("the player whose eligibility is asked"), "{h}");

    // Hover a citation in `cites`: the clause's heading and verbatim text.
    let cites = first_use(&text, "cites \"") + "cites \"".len();
    let cited = &text[cites..cites + text[cites..].find('"').unwrap()];
    let h = hover_text(&c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": offset_pos(&text, cites + 1) }),
    ));
    assert!(h.contains(&format!("**clause** `{cited}`")), "{h}");
    let book = conditions::loader::load(repo().join("conditions/gnt").to_str().unwrap()).ok().unwrap();
    let clause = book.program.clause(book.program.citations[cited]);
    for t in clause.heading.iter().chain(&clause.text) {
        let words = t.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
        assert!(h.contains(&words), "the clause's heading and text: {h}");
    }

    // Go to the definition of a fact declared in another file.
    let def = c
        .request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": offset_pos(&text, at) }));
    let decls = repo().join("conditions/gnt/declarations.cond");
    assert_eq!(def["uri"], uri(&decls));
    let decl_text = std::fs::read_to_string(&decls).unwrap();
    assert_eq!(def["range"]["start"], pos(&decl_text, "fact player:", 0, 5));

    // References of the fact: uses in several files, the declaration among them.
    let refs = c.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": u }, "position": offset_pos(&text, at), "context": { "includeDeclaration": true } }),
    );
    let refs = refs.as_array().unwrap();
    assert!(refs.iter().any(|r| r["uri"] == uri(&decls)), "{refs:?}");
    assert!(refs.iter().any(|r| r["uri"] == u), "{refs:?}");

    // Complete a record field after `.`, while the file does not parse.
    let partial = format!("{}{}", &text[..dot], &text[field_end..]);
    change(&mut c, &u, 4, &partial);
    let items = c.request(
        "textDocument/completion",
        json!({ "textDocument": { "uri": u }, "position": offset_pos(&partial, dot) }),
    );
    let labels: Vec<&str> = items.as_array().unwrap().iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"masterpoints") && labels.contains(&field), "{labels:?}");
    assert!(!labels.contains(&"player"), "only the fields of `Player`: {labels:?}");

    // Format a file: a line out of place comes back to the canonical layout.
    let messy = format!("{}      {}", &text[..cites - "cites \"".len()], &text[cites - "cites \"".len()..]);
    change(&mut c, &u, 5, &messy);
    let edits = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    let want = conditions::format::format_text(&text).expect("the bundled file formats");
    assert!(edits[0]["newText"].as_str() == Some(want.as_str()), "the edit is `conditions fmt`'s text");
    assert_eq!(edits[0]["range"]["start"], json!({ "line": 0, "character": 0 }));

    // The outline: clauses by citation, with their headings and citations.
    let symbols = c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": u } }));
    let symbols = symbols.as_array().unwrap();
    let outline =
        |s: &Value| s["kind"] == 2 && s["detail"].as_str().is_some_and(|d| d.contains(&format!("cites {cited}")));
    assert!(symbols.iter().any(outline), "a clause, with what it cites: {symbols:?}");

    shutdown(c);
}

/// The offset of the first `needle` at the start of an expression line or a `cites` line
/// (not in a text or comment).
fn first_use(text: &str, needle: &str) -> usize {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let code = t.starts_with("when ") || t.starts_with("rule ") || t.starts_with("cites ");
        if let Some(i) = line.find(needle).filter(|_| code) {
            return at + i;
        }
        at += line.len();
    }
    panic!("no `{needle}` in an expression")
}

/// The LSP position of a byte offset.
fn offset_pos(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character })
}

#[test]
fn dbf_citation_hover_with_gloss_and_timings() {
    let mut c = Client::start();
    initialize(&mut c);
    let path = repo().join("conditions/dbf/s301.cond");
    let (u, text) = open(&mut c, &path);
    let start = Instant::now();
    let diags = c.diagnostics(&u, |_| true);
    eprintln!("lsp: first diagnostics of the DBF rulebook in {} ms", start.elapsed().as_millis());
    assert!(errors(&diags).is_empty(), "{diags:?}");

    // A citation: the cited clause's verbatim Danish text and its English gloss.
    let book = conditions::loader::load(repo().join("conditions/dbf").to_str().unwrap()).ok().unwrap();
    let cites = first_use(&text, "cites \"") + "cites \"".len();
    let cited = &text[cites..cites + text[cites..].find('"').unwrap()];
    let clause = book.program.clause(book.program.citations[cited]);
    let h = hover_text(&c.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": u }, "position": offset_pos(&text, cites + 2) }),
    ));
    let words = |t: &str| t.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
    assert!(h.contains(&words(clause.text.as_deref().unwrap())), "{h}");
    assert!(h.contains(&words(clause.gloss.as_deref().unwrap())), "{h}");

    // A name declared in another file, used in s301.cond.
    let analysis = conditions::analysis::Analysis::new(book.sources.clone(), Vec::new());
    let file = |name: &str| book.sources.files().find(|(_, f)| f.name.ends_with(name)).unwrap().0;
    let (here, there) = (file("s301.cond"), file("declarations.cond"));
    let used = analysis
        .index
        .occurrences
        .iter()
        .find(|o| o.span.file == here && !o.is_decl && analysis.definition(o.target).is_some_and(|d| d.file == there))
        .expect("s301.cond uses a name of declarations.cond");
    let at = offset_pos(&text, used.span.start as usize);
    let def = c.request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": at }));
    assert_eq!(def["uri"], uri(&repo().join("conditions/dbf/declarations.cond")));
    let h = hover_text(&c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at })));
    assert!(!h.is_empty());

    // Workspace symbols reach every bundled rulebook.
    let found = c.request("workspace/symbol", json!({ "query": "flights" }));
    assert!(found.as_array().unwrap().iter().any(|s| s["name"] == "flights"), "{found}");

    // Timings on the larger rulebook, as the user types at the end of a line far from the
    // name hovered, then near it.
    let mut edited = text.clone();
    for v in 2..8 {
        let eol = edited[used.span.end as usize..].find('\n').unwrap() + used.span.end as usize;
        let far = if v % 2 == 0 { edited.len() - 1 } else { eol };
        edited.insert(far, ' ');
        change(&mut c, &u, v, &edited);
        c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at }));
        c.request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": at }));
        c.request("textDocument/completion", json!({ "textDocument": { "uri": u }, "position": at }));
    }
    shutdown(c);
}

#[test]
fn sections_definition_hover_and_rename_across_files() {
    let mut c = Client::start();
    initialize(&mut c);
    let book = repo().join("tests/rulebooks/sections");
    let path = book.join("s2-final.cond");
    let (u, text) = open(&mut c, &path);
    let diags = c.diagnostics(&u, |_| true);
    assert!(errors(&diags).is_empty(), "{diags:?}");

    // `qualifying.finalists`, used in § 2.2: declared in the qualifying's file.
    let at = pos(&text, "qualifying.finalists", 0, "qualifying.".len() + 2);
    let def = c.request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": at }));
    assert_eq!(def["uri"], uri(&book.join("s1-qualifying.cond")));
    let h = hover_text(&c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at })));
    assert!(h.contains("the two teams in the final"), "{h}");

    // Renamed: short where it is declared, qualified in the final's file.
    let edit = c.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": u }, "position": at, "newName": "teams_in_final" }),
    );
    let changes = &edit["changes"];
    let texts = |file: &str| -> Vec<String> {
        let mut v: Vec<String> = changes[uri(&book.join(file))]
            .as_array()
            .unwrap_or_else(|| panic!("no edits in {file}: {edit}"))
            .iter()
            .map(|e| e["newText"].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(texts("s1-qualifying.cond"), ["teams_in_final"]);
    assert_eq!(texts("s2-final.cond"), ["qualifying.teams_in_final", "qualifying.teams_in_final"]);

    // A name of the final's own section is written short there.
    let at = pos(&text, "rule more_imps: champion", 0, "rule more_imps: ".len() + 1);
    let edit =
        c.request("textDocument/rename", json!({ "textDocument": { "uri": u }, "position": at, "newName": "winner" }));
    let edits = edit["changes"][&u].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "winner"), "{edit}");
    shutdown(c);
}

impl Client {
    /// Writes bytes as they are, framed or not.
    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The error responses received so far without an id (answers to unreadable frames).
    fn parse_errors(&mut self) -> Vec<Value> {
        let (errs, rest) = std::mem::take(&mut self.notifications)
            .into_iter()
            .partition(|m| m.get("error").is_some() && m["id"].is_null());
        self.notifications = rest;
        errs
    }
}

/// Frames no server can read: lengths too large for memory or for 64 bits, a length that
/// is no number, a body that is not UTF-8, not JSON, not a message; a header line of a
/// megabyte; a request id beyond 32 bits. Each is answered with an error.
fn bad_frames() -> Vec<Vec<u8>> {
    let framed = |body: &[u8]| [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat();
    vec![
        b"Content-Length: 99999999999999\r\n\r\n".to_vec(),
        b"Content-Length: 18446744073709551615\r\n\r\n".to_vec(),
        b"Content-Length: 340282366920938463463374607431768211456\r\n\r\n".to_vec(),
        b"Content-Length: twelve\r\n\r\n".to_vec(),
        framed(b"\xff\xfe{\"id\":1}\xc3"),
        framed(b"{\"jsonrpc\":\"2.0\",\"id\":"),
        framed(b"[]"),
        [&vec![b'x'; 1 << 20][..], b"\r\nContent-Length: 1\r\n\r\n7"].concat(),
        framed(br#"{"jsonrpc":"2.0","id":4294967296,"method":"textDocument/hover","params":{}}"#),
    ]
}

#[test]
fn bad_frames_are_answered_and_the_server_goes_on() {
    let mut c = Client::start();
    for f in bad_frames() {
        c.raw(&f);
    }
    // Answered after the bad frames, before and after initialization.
    initialize(&mut c);
    let errs = c.parse_errors();
    assert_eq!(errs.len(), 8, "{errs:?}");
    let wide = |m: &Value| m["id"] == json!(4294967296u64) && m["error"]["code"] == -32600;
    assert!(c.notifications.iter().any(wide), "no error for the id beyond 32 bits: {:?}", c.notifications);
    let path = repo().join("tests/rulebooks/sections/s2-final.cond");
    let (u, text) = open(&mut c, &path);
    for f in bad_frames() {
        c.raw(&f);
    }
    let at = pos(&text, "qualifying.finalists", 0, "qualifying.".len() + 2);
    let h = hover_text(&c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": at })));
    assert!(h.contains("the two teams in the final"), "{h}");
    let errs = c.parse_errors();
    assert_eq!(errs.len(), 8, "{errs:?}");
    assert!(errs.iter().all(|e| e["error"]["code"] == -32700 || e["error"]["code"] == -32600), "{errs:?}");
    shutdown(c);
}

impl Client {
    /// Sends a request that must fail; its error.
    fn request_error(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let msg = self.incoming.recv_timeout(WAIT).unwrap_or_else(|_| panic!("no response to `{method}`"));
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return msg.get("error").cloned().unwrap_or_else(|| panic!("`{method}` did not fail: {msg}"));
            }
            self.notifications.push(msg);
        }
    }
}

#[test]
fn rename_refuses_keywords_non_names_and_names_taken() {
    let mut c = Client::start();
    initialize(&mut c);
    let book = repo().join("tests/rulebooks/sections");
    let (u, text) = open(&mut c, &book.join("s2-final.cond"));
    let (u1, text1) = open(&mut c, &book.join("s1-qualifying.cond"));
    let finalists = pos(&text, "qualifying.finalists", 0, "qualifying.".len() + 2);
    let imps = pos(&text, "imps_first", 0, 2);
    let teams = pos(&text1, "teams - 1", 0, 1);
    let cases = [
        (&u, &finalists, "rule", "keyword"),
        (&u, &finalists, "and", "keyword"),
        (&u, &imps, "per", "keyword"),
        (&u, &finalists, "2x", "not a name"),
        (&u, &finalists, "two words", "not a name"),
        (&u, &finalists, "", "not a name"),
        (&u, &finalists, "a.b", "not a name"),
        // Declared in the same section, as a ruling or as a fact.
        (&u, &finalists, "matches", "matches"),
        (&u, &finalists, "standings", "standings"),
        (&u, &imps, "imps_second", "imps_second"),
        (&u, &imps, "champion", "champion"),
        // A name the qualifying's section declares, which would hide the renamed fact there.
        (&u1, &teams, "matches", "matches"),
    ];
    for (doc, at, new_name, says) in cases {
        let params = json!({ "textDocument": { "uri": doc }, "position": at, "newName": new_name });
        let err = c.request_error("textDocument/rename", params);
        let message = err["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "rename to `{new_name}`: {err}");
    }
    // A free name is still renamed everywhere.
    let params = json!({ "textDocument": { "uri": u }, "position": imps, "newName": "imps_of_first" });
    let edit = c.request("textDocument/rename", params);
    assert_eq!(edit["changes"][&u].as_array().map(Vec::len), Some(3), "{edit}");
    shutdown(c);
}

#[test]
fn a_file_with_many_problems_shows_the_first_and_counts_the_rest() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lsp_many_problems");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from("rulebook \"g\" { title \"g\" language \"en\" }\n");
    for i in 0..1_000 {
        text.push_str(&format!("ruling rule_{i}: int = missing_{i} + 1\n"));
    }
    let path = dir.join("g.cond");
    std::fs::write(&path, &text).unwrap();
    let mut c = Client::start();
    initialize(&mut c);
    let (u, _) = open(&mut c, &path);
    let diags = c.diagnostics(&u, |d| !d.is_empty());
    assert_eq!(diags.len(), conditions::diagnostic::MAX_PER_FILE + 1, "the first 200 and a note");
    let note = diags.last().unwrap();
    assert_eq!(note["code"], conditions::diagnostic::MORE_CODE);
    assert!(note["message"].as_str().unwrap_or_default().starts_with("800 more in this file"), "{note}");
    assert_eq!(diags[0]["code"], "conditions::unknown_name");
    assert_eq!(diags[0]["range"]["start"]["line"], 1);
    assert_eq!(diags[199]["range"]["start"]["line"], 200, "each placed on its own line");
    shutdown(c);
}

/// A `codeDescription` link's page exists and has a heading with its anchor.
fn assert_anchor_exists(href: &str) {
    let (file, anchor) = href.split_once('#').unwrap_or_else(|| panic!("{href}: no anchor"));
    let path = file.strip_prefix("file://").unwrap_or_else(|| panic!("{href}: not a file URI"));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{href}: {e}"));
    let found = text.lines().filter_map(|l| l.strip_prefix("## ")).any(|h| conditions::sarif::slug(h) == anchor);
    assert!(found, "{href}: no heading with the anchor `{anchor}`");
}

/// Errors and lints link to their explanation: the section of docs/diagnostics.md that
/// lists the code, or the lint's heading in docs/lints.md.
#[test]
fn diagnostics_link_to_the_heading_that_explains_their_code() {
    let mut c = Client::start();
    initialize(&mut c);
    // Each in a folder of its own (a folder is a rulebook), under the checkout's docs/.
    let alone = |name: &str| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lsp_links").join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let from = repo().join("tests").join(name);
        let to = dir.join(from.file_name().unwrap());
        std::fs::copy(&from, &to).unwrap();
        to
    };
    let path = alone("lints/table_gap.fail.cond");
    let (u, _) = open(&mut c, &path);
    let diags = c.diagnostics(&u, |d| d.iter().any(|x| x["code"] == "lint::table_gap"));
    let d = diags.iter().find(|x| x["code"] == "lint::table_gap").unwrap();
    let href = d["codeDescription"]["href"].as_str().unwrap_or_else(|| panic!("no link: {d}"));
    assert!(href.ends_with("docs/lints.md#table-gap"), "{href}");
    assert_anchor_exists(href);
    let path = alone("diagnostics/adding_currencies.cond");
    let (u, _) = open(&mut c, &path);
    let diags = c.diagnostics(&u, |d| !d.is_empty());
    for d in &diags {
        let href = d["codeDescription"]["href"].as_str().unwrap_or_else(|| panic!("no link: {d}"));
        assert!(href.contains("docs/diagnostics.md#"), "{href}");
        assert_anchor_exists(href);
    }
    shutdown(c);
}

#[test]
fn completion_after_among_offers_both_tie_breaks() {
    let mut c = Client::start();
    initialize(&mut c);
    let path = repo().join("tests/rulebooks/cascade/rulebook.cond");
    let (u, text) = open(&mut c, &path);
    let labels = |v: &Value| -> Vec<String> {
        let items = v.get("items").unwrap_or(v);
        items
            .as_array()
            .map(|a| a.iter().map(|i| i["label"].as_str().unwrap_or_default().to_string()).collect())
            .unwrap_or_default()
    };
    // Right after `among tied `: `by` (again from the first key) or `in turn by`.
    let at = pos(&text, "among tied in turn by vp", 0, "among tied ".len());
    let got = labels(&c.request("textDocument/completion", json!({ "textDocument": { "uri": u }, "position": at })));
    assert_eq!(got, ["by", "in turn by"]);
    // After `among tied in `: `turn by`.
    let at = pos(&text, "among tied in turn by vp", 0, "among tied in ".len());
    let got = labels(&c.request("textDocument/completion", json!({ "textDocument": { "uri": u }, "position": at })));
    assert_eq!(got, ["turn by"]);
    shutdown(c);
}
