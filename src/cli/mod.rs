//! The command line: `conditions check`, `rule`, `test`, `coverage`. Thin: each
//! command reads inputs, calls the library and prints.

mod check_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "conditions", version, about = "Rulings on bridge conditions of contest, with cited explanations")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check rulebooks for errors: syntax, names, types, cycles, citations.
    Check {
        /// Rulebook folders or `.cond` files; a folder of rulebook folders checks each.
        #[arg(default_value = "conditions")]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: CheckFormat,
    },
}

/// Exit codes: 0 clean, 1 errors found (or failed cases), 2 usage or I/O error.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Command::Check { paths, format } => check_cmd::run(&paths, format),
    }
}
