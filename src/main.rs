//! The `conditions` command; all logic lives in the library and `cli`.
#![forbid(unsafe_code)]

mod cli;

fn main() -> std::process::ExitCode {
    // Every stage recurses on the syntax tree, whose depth the parser bounds; this
    // stack holds that depth in every stage with room to spare.
    let stack = conditions::syntax::parser::STACK_BYTES;
    match std::thread::Builder::new().stack_size(stack).spawn(cli::run) {
        Ok(h) => h.join().unwrap_or(std::process::ExitCode::from(101)),
        Err(_) => cli::run(),
    }
}
