//! Standard output of every command. Each write goes through [`write`], which remembers
//! the first failure and writes nothing more after it; [`finish`] flushes what is left and
//! turns a failure into the command's exit: a write error (a full disk, EIO) is reported on
//! standard error and exits 2, so that `conditions rule … > ruling.json && publish` never
//! publishes a partial file; a pipe closed by its reader (`conditions … | head`) ends quietly.

use std::io::{self, Write as _};
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard};

/// The first failure to write to standard output, if any.
static FAILURE: Mutex<Option<io::Error>> = Mutex::new(None);

fn failure() -> MutexGuard<'static, Option<io::Error>> {
    FAILURE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Writes to standard output, unless a write has failed already.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut failed = failure();
    if failed.is_some() {
        return;
    }
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        *failed = Some(e);
    }
}

/// Records a failure to write to standard output met elsewhere (clap's help).
pub fn failed(e: io::Error) {
    failure().get_or_insert(e);
}

/// Whether a write to standard output has failed.
pub fn has_failed() -> bool {
    failure().is_some()
}

/// The same failure again, for the writer that met it and for `finish`.
fn again(e: &io::Error) -> io::Error {
    io::Error::new(e.kind(), e.to_string())
}

/// Standard output as an [`io::Write`], for code that takes a writer (`rule --batch`):
/// a failure is remembered, as by [`write`], and every write after it fails too.
pub struct Stdout;

impl io::Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut failed = failure();
        if let Some(e) = failed.as_ref() {
            return Err(again(e));
        }
        io::stdout().lock().write(buf).inspect_err(|e| *failed = Some(again(e)))
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut failed = failure();
        if let Some(e) = failed.as_ref() {
            return Err(again(e));
        }
        io::stdout().lock().flush().inspect_err(|e| *failed = Some(again(e)))
    }
}

/// Flushes standard output; `code`, or 2 with the reason on standard error when a write
/// failed for any reason but a closed pipe.
pub fn finish(code: ExitCode) -> ExitCode {
    let mut failed = failure();
    if failed.is_none()
        && let Err(e) = io::stdout().lock().flush()
    {
        *failed = Some(e);
    }
    match failed.take() {
        None => code,
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
        Some(e) => {
            errln!("error[conditions::io]: cannot write to standard output: {e}");
            ExitCode::from(2)
        }
    }
}
