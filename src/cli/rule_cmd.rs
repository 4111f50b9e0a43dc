//! `conditions rule`: rulings on a facts file, explained and cited.

use super::{ExplainLevel, OutputFormat};
use conditions::check::Checked;
use conditions::diagnostic::render;
use conditions::discover::how_to::{HowTo, how_to};
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

/// The language asked for (any BCP-47 tag), or the rulebook's; a warning for each kind
/// of message file it lacks (those words are then English).
pub fn language(p: &conditions::check::Program, lang: Option<&str>) -> Result<Lang, ExitCode> {
    let lang = match lang {
        Some(l) => Lang::tag(l).map_err(|e| {
            errln!("error: `--lang {l}`: {e}\n  help: {}", conditions::lang::TAG_HELP);
            ExitCode::from(2)
        })?,
        None => Lang::parse(&p.rulebook.language).unwrap_or(Lang::En),
    };
    for w in conditions::explain::messages::warnings(lang) {
        errln!("warning: {w}");
    }
    Ok(lang)
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
        let (ruling, concerned) = eval::needed::refine_with(p, &inputs, eval::rule(p, &inputs, def, true));
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
        let open = matches!(ruling.outcome, eval::Outcome::Undetermined(_));
        let extra = Extra {
            how_to: if open { concerned.iter().map(|h| how_to(p, h, lang)).collect() } else { Vec::new() },
            whatever: if open { Vec::new() } else { concerned.into_iter().map(|h| h.path).collect() },
        };
        reports.push((explainer.report(&ruling, full), extra));
    }
    match args.format {
        OutputFormat::Json => {
            let rulings: Vec<WithExtra> = reports
                .iter()
                .map(|(report, x)| WithExtra { report, how_to: &x.how_to, settled_whatever: &x.whatever })
                .collect();
            let v = Rulings { rulings, not_shown: &skipped };
            outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        OutputFormat::Text => {
            for (i, (r, x)) in reports.iter().enumerate() {
                if i > 0 {
                    outln!("\n{}\n", "─".repeat(60));
                }
                out!("{}", text_with_extra(&text::render(r, full), x, lang));
            }
            if !skipped.is_empty() {
                let w = conditions::ask::words::words(lang);
                let line = match skipped.len() {
                    1 => w.rule.not_shown_one.clone(),
                    n => w.fill(&w.rule.not_shown, &[("count", n.to_string())]),
                };
                outln!("\n{line}");
            }
        }
        OutputFormat::Markdown => {
            for (r, _) in &reports {
                outln!("{}", markdown::render(r, full));
            }
        }
        OutputFormat::Html => {
            let plain: Vec<conditions::explain::Report> = reports.iter().map(|(r, _)| r.clone()).collect();
            out!("{}", html::document(&plain, &html::Page { full_open: full, ..args.page.clone() }))
        }
    }
    if reports.is_empty() && !skipped.is_empty() {
        errln!("no ruling can be made from these facts alone; name one with --ruling (e.g. --ruling {})", skipped[0]);
    }
    let failing = |(r, _): &(conditions::explain::Report, Extra)| match args.fail_on {
        Some(super::FailOn::Undetermined) => r.status == "undetermined",
        Some(super::FailOn::NoRuling) => r.status != "decided",
        None => false,
    };
    if reports.iter().any(failing) {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// What `rule` says beside the explanation: how to give each input still needed, and
/// for a settled ruling the missing inputs it does not depend on.
struct Extra {
    how_to: Vec<HowTo>,
    whatever: Vec<String>,
}

/// A report as JSON with `how_to` and `settled_whatever` (docs/json.md), written by
/// serde_json straight from the structs (the same bytes as through `conditions::json`,
/// and faster: `benches/hand_written.rs`).
#[derive(serde::Serialize)]
struct WithExtra<'a> {
    #[serde(flatten)]
    report: &'a conditions::explain::Report,
    how_to: &'a [HowTo],
    settled_whatever: &'a [String],
}

/// `rule --format json`'s output.
#[derive(serde::Serialize)]
struct Rulings<'a> {
    rulings: Vec<WithExtra<'a>>,
    not_shown: &'a [String],
}

/// The text rendering with the settled line after the answer and how to give what is
/// still needed at the end.
fn text_with_extra(rendered: &str, x: &Extra, lang: Lang) -> String {
    let w = conditions::ask::words::words(lang);
    let mut out = String::new();
    let answer = format!("{}:", conditions::explain::i18n::words(lang).answer);
    let mut placed = x.whatever.is_empty();
    for line in rendered.split_inclusive('\n') {
        out.push_str(line);
        if !placed && line.starts_with(&answer) {
            let names: Vec<String> = x.whatever.iter().map(|p| format!("`{p}`")).collect();
            out.push_str(&w.fill(&w.rule.whatever, &[("inputs", names.join(", "))]));
            out.push('\n');
            placed = true;
        }
    }
    if !x.how_to.is_empty() {
        out.push('\n');
        out.push_str(&w.rule.how_to);
        out.push('\n');
        for h in &x.how_to {
            let mut head = format!("  {} — {}", h.path, h.ty);
            let mut who = Vec::new();
            if let Some(by) = &h.who {
                who.push(w.fill(&w.decided_by, &[("who", by.clone())]));
            }
            if let Some(c) = &h.clause {
                who.push(w.fill(&w.clause, &[("clause", c.clone())]));
            }
            if !who.is_empty() {
                head = format!("{head} ({})", who.join(" "));
            }
            out.push_str(&head);
            out.push('\n');
            let place = h.within.as_ref().map(|p| format!(", {}", w.fill(&w.rule.within, &[("path", p.clone())])));
            let place = place.unwrap_or_default();
            out.push_str(&format!("      {}{place}: {}\n", w.rule.json, h.json));
            out.push_str(&format!("      {}{place}: {}\n", w.rule.toml, h.toml));
        }
    }
    out
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
                errln!(
                    "error[conditions::unknown_ruling]: no ruling `{name}` in `{}`\n  help: {}",
                    p.rulebook.name,
                    conditions::discover::suggest::did_you_mean(p, name, definitions).unwrap_or_else(|| format!(
                        "`conditions find {} WORDS…` finds a ruling by its words; `conditions list {}` lists them",
                        p.rulebook.name, p.rulebook.name
                    ))
                );
                return Err(ExitCode::from(2));
            }
        }
    }
    Ok(defs)
}

/// `--batch`: JSON lines in, JSON lines out.
pub fn run_batch(rulebook: &str, input: &str, rulings: &[String], threads: Option<u32>) -> ExitCode {
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
    let threads = threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize);
    let show_progress = std::io::stderr().is_terminal();
    let progress = |n: usize| {
        if show_progress {
            err!("\r{n} lines ruled");
        }
    };
    let out = std::io::BufWriter::new(super::output::Stdout);
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
        // The failure to write is reported once, as for every command.
        Err(_) if super::output::has_failed() => ExitCode::from(2),
        Err(e) => {
            errln!("error[conditions::io]: {e}");
            ExitCode::from(2)
        }
    }
}
