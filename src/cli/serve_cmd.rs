//! `conditions serve` and `conditions site`: thin; the server is [`conditions::serve`].

use conditions::serve::{self, Config, Source};
use std::path::Path;
use std::process::ExitCode;

pub fn run(rulebooks: &[String], bind: &str, watch: bool) -> ExitCode {
    let bind = match bind.parse() {
        Ok(a) => a,
        Err(_) => {
            errln!("error: `{bind}` is not an address and port");
            errln!("  help: for example `--bind 127.0.0.1:8080`");
            return ExitCode::from(2);
        }
    };
    let rulebooks =
        if rulebooks.is_empty() { Source::bundled() } else { rulebooks.iter().map(|s| Source::parse(s)).collect() };
    let config = Config { rulebooks, bind, watch };
    let res = serve::run(config, |addr| {
        errln!("serving on http://{addr}/ (Ctrl-C stops)");
        if !addr.ip().is_loopback() {
            errln!("warning: `{}` is reachable from other machines", addr.ip());
        }
    });
    match res {
        Ok(()) => {
            errln!("stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

pub fn site(rulebooks: &[String], out: &Path) -> ExitCode {
    let mut books = Vec::new();
    for spec in rulebooks {
        let loaded = if conditions::loader::names_a_path(spec) {
            conditions::api::Rulebook::load(spec)
        } else {
            conditions::api::Rulebook::bundled(spec)
        };
        match loaded {
            Ok(b) => books.push(b),
            Err(e) => {
                errln!("{}", e.render());
                return ExitCode::from(1);
            }
        }
    }
    match serve::site::build(&books, out) {
        Ok(n) => {
            errln!("wrote {n} pages to `{}`; open `{}`", out.display(), out.join("index.html").display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
