//! `conditions rule`: rulings on a facts file, explained and cited.

use super::{ExplainLevel, OutputFormat};
use conditions::check::Checked;
use conditions::diagnostic::render;
use conditions::eval;
use conditions::eval::show::Lang;
use conditions::explain::{Explainer, html, markdown, text};
use conditions::facts::{self, Format};
use std::io::{IsTerminal, Read};
use std::process::ExitCode;

pub struct RuleArgs {
    pub rulebook: String,
    pub facts: String,
    pub rulings: Vec<String>,
    pub format: OutputFormat,
    pub lang: Option<String>,
    pub explain: ExplainLevel,
    /// A record field left out is an error, not a question.
    pub strict: bool,
    pub fail_on: Option<super::FailOn>,
    /// The HTML page's header (event, date, director).
    pub page: html::Page,
}

fn read_facts(spec: &str) -> Result<(String, String), String> {
    if spec == "-" {
        let limit = conditions::facts::MAX_FACTS_BYTES;
        let mut s = String::new();
        std::io::stdin()
            .take(limit as u64 + 1)
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read the facts from standard input: {e}"))?;
        if s.len() > limit {
            return Err(format!("the facts on standard input are larger than the limit of {limit} bytes"));
        }
        return Ok(("<stdin>".into(), s));
    }
    let bytes = conditions::loader::read_limited(std::path::Path::new(spec), conditions::facts::MAX_FACTS_BYTES)
        .map_err(|e| format!("cannot read `{spec}`: {e}"))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| format!("`{spec}` is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))?;
    Ok((spec.to_string(), text))
}

pub fn load_rulebook(spec: &str) -> Result<Checked, ExitCode> {
    conditions::loader::load(spec).map_err(|e| {
        err!("{}", render(&e.diagnostics, &e.sources, super::plain_stderr()));
        ExitCode::from(if e.sources.files().next().is_some() { 1 } else { 2 })
    })
}

/// The language asked for, or the rulebook's.
pub fn language(p: &conditions::check::Program, lang: Option<&str>) -> Result<Lang, ExitCode> {
    match lang {
        Some(l) => Lang::parse(&l.to_lowercase()).ok_or_else(|| {
            errln!("error: `--lang {l}`: the languages are `da` and `en`");
            ExitCode::from(2)
        }),
        None => Ok(Lang::parse(&p.rulebook.language).unwrap_or(Lang::En)),
    }
}

/// Reads and validates a facts file (or the `[facts]` table of a case file); a record
/// field left out is not yet known unless `strict`.
pub fn load_facts(
    book: &Checked,
    spec: &str,
    strict: bool,
) -> Result<(conditions::eval::interp::Inputs, serde_json::Value), ExitCode> {
    let p = &book.program;
    let (origin, text) = read_facts(spec).map_err(|e| {
        errln!("error[conditions::io]: {e}");
        ExitCode::from(2)
    })?;
    let tree = facts::parse(&text, Format::for_path(&origin), &origin).map(case_facts).map_err(|d| vec![d]);
    let validated = tree.and_then(|tree| {
        let inputs = if strict { facts::validate(p, &tree, &origin) } else { facts::validate_open(p, &tree, &origin) }?;
        Ok((inputs, tree))
    });
    validated.map_err(|diags| {
        err!("{}", render(&diags, &book.sources, super::plain_stderr()));
        errln!("{} error(s) in the facts", diags.len());
        ExitCode::from(1)
    })
}

/// A case file's `[facts]` table; any other facts file as it is.
fn case_facts(tree: serde_json::Value) -> serde_json::Value {
    match tree {
        serde_json::Value::Object(mut m)
            if m.contains_key("expect")
                && m.contains_key("description")
                && m.get("facts").is_some_and(|f| f.is_object()) =>
        {
            m.remove("facts").unwrap_or_default()
        }
        other => other,
    }
}

pub fn run(args: RuleArgs) -> ExitCode {
    let args = RuleArgs { ..args };
    let header = [("--event", &args.page.event), ("--date", &args.page.date), ("--director", &args.page.director)];
    if args.format != OutputFormat::Html
        && let Some((flag, _)) = header.iter().find(|(_, v)| v.is_some())
    {
        errln!("error: `{flag}` is shown in the header of the HTML page only\n  help: add `--format html`");
        return ExitCode::from(2);
    }
    let book = match load_rulebook(&args.rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let lang = match language(p, args.lang.as_deref()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (inputs, _) = match load_facts(&book, &args.facts, args.strict) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut defs = match resolve_rulings(p, &args.rulings, true) {
        Ok(d) => d,
        Err(code) => return code,
    };
    let explicit = !defs.is_empty();
    if !explicit {
        defs = p.rulings().map(|(id, _)| id).collect();
    }
    let explainer = Explainer { p, sources: &book.sources, lang, inputs: &inputs };
    let full = args.explain == ExplainLevel::Full;
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    for def in defs {
        let ruling = eval::needed::refine(p, &inputs, eval::rule(p, &inputs, def, true));
        // Without --ruling, only the rulings the facts file speaks to are shown: those
        // that read at least one of its facts or decisions.
        if !explicit {
            let uses_input = ruling.trace.as_ref().is_some_and(|t| {
                t.nodes
                    .iter()
                    .any(|n| !n.facts.is_empty() || n.decisions.iter().any(|d| inputs.decisions[*d as usize].is_some()))
            });
            if !uses_input {
                skipped.push(p.defs[def as usize].name.clone());
                continue;
            }
        }
        reports.push(explainer.report(&ruling, full));
    }
    match args.format {
        OutputFormat::Json => {
            let v = serde_json::json!({ "rulings": reports, "not_shown": skipped });
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        OutputFormat::Text => {
            for (i, r) in reports.iter().enumerate() {
                if i > 0 {
                    outln!("\n{}\n", "─".repeat(60));
                }
                out!("{}", text::render(r, full));
            }
            if !skipped.is_empty() {
                outln!("\n({} other rulings do not read these facts; ask for one with --ruling NAME)", skipped.len());
            }
        }
        OutputFormat::Markdown => {
            for r in &reports {
                outln!("{}", markdown::render(r, full));
            }
        }
        OutputFormat::Html => {
            out!("{}", html::document(&reports, &html::Page { full_open: full, ..args.page.clone() }))
        }
    }
    if reports.is_empty() && !skipped.is_empty() {
        errln!("no ruling can be made from these facts alone; name one with --ruling (e.g. --ruling {})", skipped[0]);
    }
    let failing = |r: &conditions::explain::Report| match args.fail_on {
        Some(super::FailOn::Undetermined) => r.status == "undetermined",
        Some(super::FailOn::NoRuling) => r.status != "decided",
        None => false,
    };
    if reports.iter().any(failing) {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// The definitions named (rulings, or with `definitions` any definition); an unknown name
/// is reported with the nearest names.
pub fn resolve_rulings(
    p: &conditions::check::Program,
    names: &[String],
    definitions: bool,
) -> Result<Vec<conditions::check::program::DefId>, ExitCode> {
    let mut defs = Vec::new();
    for name in names {
        match p.def_by_name(name).filter(|d| definitions || p.defs[*d as usize].is_ruling()) {
            Some(d) => defs.push(d),
            None => {
                let names: Vec<&str> = p.rulings().map(|(_, d)| d.name.as_str()).collect();
                errln!(
                    "error[conditions::unknown_ruling]: no ruling `{name}` in `{}`\n  help: {}",
                    p.rulebook.name,
                    conditions::diagnostic::did_you_mean(name, names.iter().copied())
                        .unwrap_or_else(|| format!("`conditions list {}` lists the rulings", p.rulebook.name))
                );
                return Err(ExitCode::from(2));
            }
        }
    }
    Ok(defs)
}

/// `--batch`: JSON lines in, JSON lines out.
pub fn run_batch(rulebook: &str, input: &str, rulings: &[String]) -> ExitCode {
    let book = match load_rulebook(rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let mut defs = Vec::new();
    for name in rulings {
        match p.def_by_name(name) {
            Some(d) => defs.push(d),
            None => {
                errln!("error[conditions::unknown_ruling]: no ruling `{name}` in `{}`", p.rulebook.name);
                return ExitCode::from(2);
            }
        }
    }
    if defs.is_empty() {
        defs = p.rulings().map(|(id, _)| id).collect();
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let show_progress = std::io::stderr().is_terminal();
    let progress = |n: usize| {
        if show_progress {
            err!("\r{n} lines ruled");
        }
    };
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    let result = if input == "-" {
        conditions::batch::run(p, &defs, std::io::stdin().lock(), out, threads, progress)
    } else {
        match std::fs::File::open(input) {
            Ok(f) => conditions::batch::run(p, &defs, std::io::BufReader::new(f), out, threads, progress),
            Err(e) => {
                errln!("error[conditions::io]: cannot read `{input}`: {e}");
                return ExitCode::from(2);
            }
        }
    };
    if show_progress {
        errln!();
    }
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            errln!("error[conditions::io]: {e}");
            ExitCode::from(2)
        }
    }
}
