//! Write errors are failures: every command that writes to standard output, run with its
//! output on `/dev/full` (no space left), exits non-zero and says so on standard error — so
//! that `conditions rule … > ruling.json && publish` never publishes an empty file. With its
//! output a pipe whose reader is gone, a command ends quietly or with an error, never with
//! a panic or an abort.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const FACTS: &str = "conditions/gnt/examples/player.json";
const BOOK: &str = "tests/test_command/book";

/// Numbers the folders `site` writes into, apart for the tests that run at the same time.
static COUNT: AtomicUsize = AtomicUsize::new(0);

/// Where standard output goes.
#[derive(Clone, Copy, Debug)]
enum Out {
    /// A pipe read to the end.
    Piped,
    /// `/dev/full`: every write fails with "no space left on device".
    Full,
    /// A pipe whose reading end is closed before the command starts.
    Closed,
}

fn run(args: &[String], input: &[u8], out: Out) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_conditions"));
    cmd.args(args).env("NO_COLOR", "1").stdin(Stdio::piped()).stderr(Stdio::piped());
    match out {
        Out::Piped => cmd.stdout(Stdio::piped()),
        Out::Full => {
            let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full opens");
            cmd.stdout(Stdio::from(full))
        }
        Out::Closed => {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            cmd.stdout(Stdio::from(writer))
        }
    };
    let mut child = cmd.spawn().expect("conditions runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // The command may end before reading its input: a failed write here is no failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("conditions ends")
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("conditions-write-errors-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// A copy of the small rulebook laid out badly, so that `fmt` has something to say.
fn unformatted(name: &str) -> PathBuf {
    let d = temp(name);
    let text = std::fs::read_to_string(Path::new(BOOK).join("rulebook.cond")).expect("the rulebook");
    std::fs::write(d.join("rulebook.cond"), text.replace("\n  ", "\n      ")).expect("written");
    d
}

/// Every command that can write to standard output, with the input it reads.
fn commands() -> Vec<(Vec<String>, Vec<u8>)> {
    let s = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let mut all: Vec<(Vec<String>, Vec<u8>)> = Vec::new();
    let mut add = |args: Vec<String>| all.push((args, Vec::new()));
    add(s(&["--help"]));
    add(s(&["--version"]));
    add(s(&["help", "rule"]));
    add(s(&["rule", "--help"]));
    for format in ["text", "json"] {
        add(s(&["list", "gnt", "--format", format]));
        add(s(&["describe", "gnt", "flights", "--format", format]));
    }
    for format in ["text", "markdown", "json", "html"] {
        add(s(&["rule", "gnt", "--facts", FACTS, "--format", format]));
    }
    add(s(&["schema", "gnt"]));
    for format in ["json", "toml", "yaml"] {
        add(s(&["template", "gnt", "--ruling", "flights", "--format", format]));
    }
    for format in ["human", "json", "sarif", "github"] {
        add(s(&["check", "conditions/gnt", "--format", format]));
        add(s(&["coverage", "gnt", "--format", format]));
    }
    add(s(&["test", BOOK]));
    add(s(&["test", BOOK, "--verbose", "--coverage"]));
    add(s(&["test", BOOK, "--format", "junit"]));
    for format in ["text", "markdown", "json", "github"] {
        add(s(&["diff", BOOK, "tests/rulebooks/fares", "--format", format]));
    }
    add(s(&["man"]));
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        add(s(&["completions", shell]));
    }
    add(s(&[
        "site",
        "gnt",
        "--out",
        &temp(&format!("site-{}", COUNT.fetch_add(1, Ordering::Relaxed))).display().to_string(),
    ]));
    all.push((s(&["rule", BOOK, "--batch", "-"]), b"{\"mp\": 1}\n{}\n".to_vec()));
    all.push((s(&["ask", "gnt", "--ruling", "flights"]), b"1999\n".to_vec()));
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
    let lsp: String =
        [init, initialized, exit].iter().map(|m| format!("Content-Length: {}\r\n\r\n{m}", m.len())).collect();
    all.push((s(&["lsp"]), lsp.into_bytes()));
    all
}

/// The commands that format files, each on its own copy (they rewrite it); `test` names
/// the copies of one test apart from those of the others, which run at the same time.
fn fmt_commands(test: &str) -> Vec<(Vec<String>, Vec<u8>)> {
    let fmt = |check: bool, n: usize| {
        let d = unformatted(&format!("{test}-fmt-{check}-{n}"));
        let mut args = vec!["fmt".to_string()];
        if check {
            args.push("--check".into());
        }
        args.push(d.display().to_string());
        (args, Vec::new())
    };
    vec![fmt(true, 0), fmt(false, 0)]
}

fn shown(args: &[String], o: &Output) -> String {
    format!(
        "`conditions {}`: {:?}\nstdout: {}\nstderr: {}",
        args.join(" "),
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn every_command_fails_when_its_output_cannot_be_written() {
    let mut checked = 0;
    for (args, input) in commands().into_iter().chain(fmt_commands("full")) {
        let normal = run(&args, &input, Out::Piped);
        assert!(normal.status.code().is_some_and(|c| c != 101), "{}", shown(&args, &normal));
        // `fmt` rewrites its files: a fresh copy for the run on /dev/full.
        let args = if args[0] == "fmt" {
            let mut again = args.clone();
            let d = unformatted(&format!("fmt-again-{checked}"));
            *again.last_mut().expect("a path") = d.display().to_string();
            again
        } else {
            args
        };
        let full = run(&args, &input, Out::Full);
        let stderr = String::from_utf8_lossy(&full.stderr);
        assert!(!stderr.contains("panicked"), "{}", shown(&args, &full));
        if normal.stdout.is_empty() {
            // Nothing written, nothing failed: the same exit as with a working output.
            assert_eq!(full.status.code(), normal.status.code(), "{}", shown(&args, &full));
            continue;
        }
        checked += 1;
        assert!(full.status.code().is_some_and(|c| c != 0 && c != 101), "{}", shown(&args, &full));
        assert!(stderr.contains("cannot write to standard output"), "{}", shown(&args, &full));
        assert!(stderr.contains("No space left on device"), "{}", shown(&args, &full));
    }
    // Every command above but `check --format human` and `site` writes to standard output.
    assert!(checked >= 40, "{checked} commands wrote to standard output");
}

#[test]
fn no_command_panics_when_its_output_is_closed() {
    for (args, input) in commands().into_iter().chain(fmt_commands("closed")) {
        let closed = run(&args, &input, Out::Closed);
        let stderr = String::from_utf8_lossy(&closed.stderr);
        assert!(!stderr.contains("panicked") && !stderr.contains("abort"), "{}", shown(&args, &closed));
        // An exit code, not a signal; and not the code of a panic.
        assert!(closed.status.code().is_some_and(|c| c != 101), "{}", shown(&args, &closed));
    }
}

/// The output written before the failure is not taken for the whole: `rule` on a full disk
/// fails whatever its format, also when the failure comes only at the last flush.
#[test]
fn a_ruling_on_a_full_disk_is_not_published() {
    for format in ["text", "json", "html", "markdown"] {
        let args: Vec<String> =
            ["rule", "gnt", "--facts", FACTS, "--format", format].iter().map(|s| s.to_string()).collect();
        let o = run(&args, b"", Out::Full);
        assert_eq!(o.status.code(), Some(2), "{}", shown(&args, &o));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(stderr.matches("cannot write to standard output").count(), 1, "{}", shown(&args, &o));
    }
}
