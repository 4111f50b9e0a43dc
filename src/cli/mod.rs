//! The command line: `conditions check`, `rule`, `test`, `coverage`. Thin: each
//! command reads inputs, calls the library and prints.

/// `println!` through `output::write`: a failure is remembered and reported at the end
/// (`output::finish`), never a panic.
macro_rules! outln {
    () => {
        crate::cli::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        crate::cli::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` through `output::write`.
macro_rules! out {
    ($($arg:tt)*) => {
        crate::cli::output::write(format_args!($($arg)*))
    };
}

/// `eprintln!` that goes on quietly when standard error is closed.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// `eprint!` that goes on quietly when standard error is closed.
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Whether output to standard error must be plain: not a terminal, or `NO_COLOR` set.
pub fn plain_stderr() -> bool {
    use std::io::IsTerminal as _;
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) || !std::io::stderr().is_terminal()
}

mod ask_cmd;
mod check_cmd;
mod complete_cmd;
mod coverage_cmd;
mod describe_cmd;
mod diff_cmd;
mod find_cmd;
mod fmt_cmd;
mod list_cmd;
mod output;
mod rename_cmd;
mod rule_cmd;
mod schema_cmd;
#[cfg(feature = "serve")]
mod serve_cmd;
mod test_cmd;

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
    Sarif,
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Markdown,
    Json,
    Html,
}

/// When `rule` exits 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// A ruling is undetermined.
    Undetermined,
    /// A ruling is not decided: undetermined, silent or an error.
    NoRuling,
}

/// Output of the discovery commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InfoFormat {
    /// Text for people.
    Text,
    /// JSON for programs.
    Json,
}

/// The format of a facts file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FactsFormat {
    Json,
    Toml,
    Yaml,
}

impl FactsFormat {
    fn facts(self) -> conditions::facts::Format {
        match self {
            FactsFormat::Json => conditions::facts::Format::Json,
            FactsFormat::Toml => conditions::facts::Format::Toml,
            FactsFormat::Yaml => conditions::facts::Format::Yaml,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainLevel {
    Brief,
    Full,
}

#[derive(Subcommand)]
enum Command {
    /// List the rulings of a rulebook with their questions and clauses, grouped by section.
    List {
        /// A rulebook folder, or the name of a bundled rulebook (`gnt`, `dbf`).
        rulebook: String,
        /// Show only entries with this word in the name, question or clause.
        word: Option<String>,
        /// Also list definitions, facts, decisions, lots and record fields (`Record.field`).
        #[arg(long)]
        all: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: InfoFormat,
    },
    /// Find the rulings for a question in words: ranked by the words of their questions,
    /// glosses and the printed text of the clauses that declare and decide them.
    Find {
        /// A rulebook folder, or the name of a bundled rulebook (`gnt`, `dbf`).
        rulebook: String,
        /// The question in words, in the rulebook's language or English; a clause citation
        /// such as `328A1` finds what that clause decides.
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: InfoFormat,
        /// At most this many results.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
        limit: u32,
    },
    /// Describe a ruling: its question, answer type, deciding clauses, and every fact,
    /// decision and lot it can read, with facts-file paths and how to write them; or a
    /// fact, decision, lot or record field: its type, description, clause and the rulings
    /// that read it.
    Describe {
        /// A rulebook folder, or the name of a bundled rulebook.
        rulebook: String,
        /// A ruling or definition; a fact, decision or lot; or a record field as `Record.field`.
        name: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: InfoFormat,
    },
    /// Ask for the facts a ruling still needs, one question at a time (only those whose
    /// answer can change the ruling, the most settling first), then give the ruling.
    /// Reads the answers line by line from standard input, so it can be scripted.
    Ask {
        /// A rulebook folder, or the name of a bundled rulebook.
        rulebook: String,
        /// The ruling to ask about.
        #[arg(long)]
        ruling: String,
        /// Facts known already: a facts file or a case file (JSON, TOML or YAML).
        #[arg(long)]
        facts: Option<String>,
        /// Write the facts gathered to this file (JSON, TOML or YAML by its name).
        #[arg(long)]
        save: Option<String>,
        /// Language of the questions and the explanation: a BCP-47 tag such as `da`, `en`, `sv`, `nb` or `nb-NO` (default: the rulebook's); a language without message files falls back to a shorter tag, then English.
        #[arg(long)]
        lang: Option<String>,
    },
    /// Print shell completions for `conditions` (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum, ignore_case = true)]
        shell: clap_complete::Shell,
    },
    /// Print the man page of `conditions` (roff), with every command and flag.
    Man,
    /// Print the JSON Schema (2020-12) of a facts file for a rulebook.
    Schema {
        /// A rulebook folder, or the name of a bundled rulebook.
        rulebook: String,
        /// Only what these rulings can read (default: every fact and decision).
        #[arg(long = "ruling")]
        rulings: Vec<String>,
    },
    /// Print a facts skeleton for rulings, each field described.
    Template {
        /// A rulebook folder, or the name of a bundled rulebook.
        rulebook: String,
        /// The rulings the facts are for.
        #[arg(long = "ruling", required = true)]
        rulings: Vec<String>,
        /// Format of the skeleton.
        #[arg(long, value_enum, default_value = "toml", ignore_case = true)]
        format: FactsFormat,
    },
    /// Check rulebooks: errors (syntax, names, types, cycles, citations), then the lints (docs/lints.md).
    Check {
        /// Rulebook folders or `.cond` files; a folder of rulebook folders checks each.
        #[arg(default_value = "conditions")]
        paths: Vec<PathBuf>,
        /// Output format: human (default), json, sarif (SARIF 2.1.0) or github (workflow annotations).
        #[arg(long, value_enum, default_value = "human", ignore_case = true)]
        format: CheckFormat,
        /// Make a lint an error; `--deny warnings` makes every warning an error.
        #[arg(long, value_name = "LINT|warnings")]
        deny: Vec<String>,
        /// Make a lint a warning.
        #[arg(long, value_name = "LINT")]
        warn: Vec<String>,
        /// Silence a lint.
        #[arg(long, value_name = "LINT")]
        allow: Vec<String>,
        /// The published document to check the clause texts against (default: the rulebook's `source`).
        #[arg(long)]
        source: Option<PathBuf>,
        /// With `--format sarif`: the folder the files' locations are relative to (`%SRCROOT%`;
        /// default: the working directory).
        #[arg(long, value_name = "DIR")]
        source_root: Option<PathBuf>,
    },
    /// Rule on the facts of a case, with cited, quoted explanations.
    Rule {
        /// A rulebook folder, or the name of a bundled rulebook (`gnt`, `dbf`).
        rulebook: String,
        /// The facts: a JSON, TOML or YAML file, or `-` for JSON on standard input.
        #[arg(long, required_unless_present = "batch", conflicts_with = "batch")]
        facts: Option<String>,
        /// Many cases: one JSON facts object per line (`-` for standard input); one JSON
        /// ruling per line out, in order, using every core.
        #[arg(long)]
        batch: Option<String>,
        /// Workers for `--batch` (default: one per core).
        #[arg(long, requires = "batch", value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// The rulings wanted (default: every ruling that reads one of the given facts or decisions).
        #[arg(long = "ruling")]
        rulings: Vec<String>,
        /// Output format: text, markdown, json or html.
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: OutputFormat,
        /// Language of the explanation: a BCP-47 tag such as `da`, `en`, `sv`, `nb` or `nb-NO` (default: the rulebook's); a language without message files falls back to a shorter tag, then English. Clause texts are quoted as printed.
        #[arg(long)]
        lang: Option<String>,
        /// How much to explain: brief (the deciding reasons) or full (every rule considered).
        #[arg(long, value_enum, default_value = "brief", ignore_case = true)]
        explain: ExplainLevel,
        /// A record field left out of the facts is an error (as in `--batch`), not a question.
        #[arg(long)]
        strict: bool,
        /// Exit 3 when a ruling is undetermined (`undetermined`), or when any is not decided:
        /// undetermined, silent or an error (`no-ruling`). For scripts.
        #[arg(long, value_enum, ignore_case = true)]
        fail_on: Option<FailOn>,
        /// With `--format html`: the event, shown as the page's title (e.g. the event's name and stage).
        #[arg(long, conflicts_with = "batch", help_heading = "HTML page header")]
        event: Option<String>,
        /// With `--format html`: the date shown in the page's header, as it should be read (e.g. "1 December 2026").
        #[arg(long, conflicts_with = "batch", help_heading = "HTML page header")]
        date: Option<String>,
        /// With `--format html`: the tournament director named in the page's header.
        #[arg(long, conflicts_with = "batch", help_heading = "HTML page header")]
        director: Option<String>,
    },
    /// Compare a rulebook with its published document: every line verbatim in a clause,
    /// every clause in the document (an excerpt's fragments in order); executable,
    /// informational and paraphrased clauses listed.
    Coverage {
        /// A rulebook folder, or the name of a bundled rulebook.
        rulebook: String,
        /// The published document (default: the rulebook's `source` setting).
        #[arg(long)]
        source: Option<String>,
        /// Output format: human, json, sarif or github.
        #[arg(long, value_enum, default_value = "human", ignore_case = true)]
        format: CheckFormat,
        /// Fail when a clause is neither executable nor says why it is informational, or
        /// paraphrases a text still to be quoted.
        #[arg(long)]
        strict: bool,
    },
    /// Rewrite condition files in the canonical layout (comments kept).
    Fmt {
        /// Only report the files that are not formatted (exit 1 if any).
        #[arg(long)]
        check: bool,
        /// Rulebook folders or `.cond` files.
        #[arg(default_value = "conditions")]
        paths: Vec<PathBuf>,
    },
    #[cfg(feature = "serve")]
    /// Serve the rulebooks in a browser and over a JSON API (docs/api.md): rulebook,
    /// clause and ruling pages with forms for what a ruling still needs.
    Serve {
        /// Rulebook folders or bundled names (default: every bundled rulebook).
        rulebooks: Vec<String>,
        /// The address to listen on; loopback unless told otherwise.
        #[arg(long, default_value = conditions::serve::DEFAULT_BIND)]
        bind: String,
        /// Reload a rulebook folder when its files change; while it does not check, every page shows why.
        #[arg(long)]
        watch: bool,
    },
    #[cfg(feature = "serve")]
    /// Write the rulebook and clause pages as static files, for a website.
    Site {
        /// Rulebook folders or bundled names.
        #[arg(required = true)]
        rulebooks: Vec<String>,
        /// The folder to write into.
        #[arg(long)]
        out: PathBuf,
    },
    #[cfg(feature = "lsp")]
    /// Serve editors: a language server over standard input and output (docs/editors.md).
    Lsp {
        /// Accepted for editors that pass it; standard input and output are the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Run case files: of rulebooks (`cases/*.toml`), a folder of case files, or one case file.
    Test {
        /// Rulebook folders or bundled names (`gnt`, `dbf`), folders of case files, or case files.
        #[arg(default_value = "conditions")]
        paths: Vec<PathBuf>,
        /// Only the case files whose path or description holds WORD.
        #[arg(long, value_name = "WORD")]
        filter: Option<String>,
        /// List every case file with pass/fail.
        #[arg(short, long)]
        verbose: bool,
        /// Output format: text, or junit (JUnit XML for CI).
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: test_cmd::TestFormat,
        /// Report the clauses and rules no case exercises.
        #[arg(long)]
        coverage: bool,
        /// Fail (exit 1) when fewer than PCT percent of the rules are exercised.
        #[arg(long, value_name = "PCT")]
        min_coverage: Option<u32>,
    },
    /// What an edit changes: clauses, then the rulings of every case file and facts line.
    Diff {
        /// The old version: a rulebook folder, a bundled name, or a git revision `REV:path`.
        old: String,
        /// The new version, written the same way.
        new: String,
        /// Folders of case files to rule by both (default: the `cases/` of NEW, else of OLD).
        #[arg(long, value_name = "DIR")]
        cases: Vec<PathBuf>,
        /// Facts files of JSON lines to rule by both.
        #[arg(long, value_name = "FILE.jsonl")]
        facts: Vec<PathBuf>,
        /// Output format: text, markdown (a pull-request comment), json or github (annotations).
        #[arg(long, value_enum, default_value = "text", ignore_case = true)]
        format: diff_cmd::DiffFormat,
        /// Exit 1 when anything changes.
        #[arg(long)]
        fail_on_change: bool,
        /// A name renamed between the versions, `OLD=NEW` (a fact, decision, ruling, definition,
        /// or a field as `Record.field`); repeatable.
        #[arg(long, value_name = "OLD=NEW")]
        rename: Vec<String>,
    },
    /// Rename a fact, decision, ruling, definition or record field everywhere the rulebook
    /// uses it and in its case files, noting `renamed from OLD` on the declaration; printed
    /// texts, glosses, descriptions and the published document are left as they are.
    Rename {
        /// The rulebook folder (a path: the files are edited).
        rulebook: PathBuf,
        /// The name now: a fact, decision, ruling or definition, or a field as `Record.field`.
        old: String,
        /// The new name (of a field: the field's name alone).
        new: String,
        /// Show the lines that would change, and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Exit codes: 0 clean, 1 errors found (or failed cases), 2 usage or I/O error (a failure
/// to write to standard output among them).
pub fn run() -> ExitCode {
    output::finish(dispatch())
}

fn dispatch() -> ExitCode {
    // Called by the completion scripts; kept out of the commands, so out of help, man page
    // and the scripts themselves.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == complete_cmd::VALUES) {
        return complete_cmd::values(&args[1..]);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let printed = e.print();
            if e.use_stderr() {
                return ExitCode::from(2);
            }
            // Help and version go to standard output.
            if let Err(failure) = printed {
                output::failed(failure);
            }
            return ExitCode::SUCCESS;
        }
    };
    match cli.command {
        Command::List { rulebook, word, all, format } => list_cmd::run(&rulebook, word.as_deref(), all, format),
        Command::Find { rulebook, text, format, limit } => find_cmd::run(&rulebook, &text.join(" "), format, limit),
        Command::Describe { rulebook, name, format } => describe_cmd::run(&rulebook, &name, format),
        Command::Ask { rulebook, ruling, facts, save, lang } => {
            ask_cmd::run(ask_cmd::AskArgs { rulebook, ruling, facts, save, lang })
        }
        Command::Completions { shell } => complete_cmd::completions(shell),
        Command::Man => complete_cmd::man(),
        Command::Schema { rulebook, rulings } => schema_cmd::run_schema(&rulebook, &rulings),
        Command::Template { rulebook, rulings, format } => {
            schema_cmd::run_template(&rulebook, &rulings, format.facts())
        }
        Command::Check { paths, format, deny, warn, allow, source, source_root } => {
            check_cmd::run(check_cmd::CheckArgs { paths, format, deny, warn, allow, source, source_root })
        }
        Command::Rule {
            rulebook,
            facts,
            batch,
            threads,
            rulings,
            format,
            lang,
            explain,
            strict,
            fail_on,
            event,
            date,
            director,
        } => match (facts, batch) {
            (_, Some(batch)) => rule_cmd::run_batch(&rulebook, &batch, &rulings, threads),
            (Some(facts), None) => rule_cmd::run(rule_cmd::RuleArgs {
                rulebook,
                facts,
                rulings,
                format,
                lang,
                explain,
                strict,
                fail_on,
                page: conditions::explain::html::Page::with_header(event, date, director),
            }),
            (None, None) => ExitCode::from(2),
        },
        Command::Test { paths, filter, verbose, format, coverage, min_coverage } => {
            test_cmd::run(test_cmd::TestArgs { paths, filter, verbose, format, coverage, min_coverage })
        }
        #[cfg(feature = "lsp")]
        Command::Lsp { stdio: _ } => match conditions::lsp::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("error: {e}");
                ExitCode::from(2)
            }
        },
        #[cfg(feature = "serve")]
        Command::Serve { rulebooks, bind, watch } => serve_cmd::run(&rulebooks, &bind, watch),
        #[cfg(feature = "serve")]
        Command::Site { rulebooks, out } => serve_cmd::site(&rulebooks, &out),
        Command::Fmt { check, paths } => fmt_cmd::run(&paths, check),
        Command::Diff { old, new, cases, facts, format, fail_on_change, rename } => {
            diff_cmd::run(diff_cmd::DiffArgs { old, new, cases, facts, format, fail_on_change, rename })
        }
        Command::Rename { rulebook, old, new, dry_run } => {
            rename_cmd::run(rename_cmd::RenameArgs { rulebook, old, new, dry_run })
        }
        Command::Coverage { rulebook, source, format, strict } => {
            coverage_cmd::run(&rulebook, source.as_deref(), format, strict)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn every_command_and_flag_has_help() {
        let cli = Cli::command();
        cli.clone().debug_assert();
        for sub in cli.get_subcommands() {
            assert!(sub.get_about().is_some(), "`{}` has no help", sub.get_name());
            for arg in sub.get_arguments() {
                if arg.get_id() == "help" || arg.get_id() == "version" {
                    continue;
                }
                assert!(arg.get_help().is_some(), "`{} --{}` has no help", sub.get_name(), arg.get_id());
            }
        }
    }
}
