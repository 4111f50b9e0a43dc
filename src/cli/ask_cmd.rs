//! `conditions ask`: asks for the inputs a ruling still needs, one at a time, and ends
//! with the ruling. Answers come line by line from standard input, whether a person
//! types them or a script sends them.

use super::rule_cmd::{language, load_facts, load_rulebook, resolve_rulings};
use conditions::ask::{Next, Question, Session, save};
use conditions::explain::{Explainer, text};
use conditions::facts::Format;
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

pub struct AskArgs {
    pub rulebook: String,
    pub ruling: String,
    pub facts: Option<String>,
    pub save: Option<String>,
    pub lang: Option<String>,
}

fn show_question(s: &Session, q: &Question) {
    let w = s.words();
    let mut head = w.fill(&w.question, &[("path", q.path.clone())]);
    if let Some(d) = &q.description {
        head = format!("{head} — {d}");
    }
    outln!("{head}");
    let mut who = Vec::new();
    if let Some(by) = &q.by {
        who.push(w.fill(&w.decided_by, &[("who", by.clone())]));
    }
    if let Some(c) = &q.clause {
        who.push(w.fill(&w.clause, &[("clause", c.clone())]));
    }
    if !who.is_empty() {
        outln!("  {}", who.join(" "));
    }
    for d in &q.deciders {
        let clause = d.clause.as_ref().map(|c| w.fill(&w.clause, &[("clause", c.clone())])).unwrap_or_default();
        outln!("  {}", w.fill(&w.may_work_out, &[("ruling", d.name.clone()), ("clause", clause)]).replace("  ", " "));
    }
    if !q.allowed.is_empty() && q.allowed.len() <= 16 {
        outln!("  {}", w.fill(&w.one_of, &[("values", q.allowed.join(", "))]));
    } else {
        outln!("  {}", w.fill(&w.write, &[("how", q.how.clone())]));
        outln!("  {}", w.fill(&w.example, &[("example", q.example.clone())]));
    }
}

pub fn run(args: AskArgs) -> ExitCode {
    let book = match load_rulebook(&args.rulebook) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let p = &book.program;
    let def = match resolve_rulings(p, std::slice::from_ref(&args.ruling), true) {
        Ok(d) => d[0],
        Err(code) => return code,
    };
    let lang = match language(p, args.lang.as_deref()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let (inputs, tree) = match &args.facts {
        Some(spec) => match load_facts(&book, spec, false) {
            Ok(x) => x,
            Err(code) => return code,
        },
        None => (conditions::eval::interp::Inputs::empty(p), serde_json::json!({})),
    };
    let mut session = Session::new(p, def, inputs, tree, lang);
    let w = session.words();
    let terminal = std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let (ruling, settled) = loop {
        match session.step() {
            Next::Done { ruling, settled } => break (ruling, settled),
            Next::Ask(q) => {
                show_question(&session, &q);
                loop {
                    out!("{}", w.prompt);
                    let Some((shown, line)) = read_answer(&mut input) else {
                        outln!();
                        outln!("{}", w.ended);
                        return match save_facts(&session, args.save.as_deref()) {
                            Saved::Yes => ExitCode::from(1),
                            Saved::No => ExitCode::from(2),
                        };
                    };
                    if !terminal {
                        outln!("{shown}");
                    }
                    match line.and_then(|line| session.answer(&q, &line)) {
                        Ok(()) => break,
                        Err(e) => outln!("  {}", w.fill(&w.bad_answer, &[("error", e)])),
                    }
                }
                outln!();
            }
        }
    };
    if settled.is_some() {
        outln!("{}", w.no_matter);
    }
    let explainer = Explainer { p, sources: &book.sources, lang, inputs: &session.inputs };
    out!("{}", text::render(&explainer.report(&ruling, false), false));
    match save_facts(&session, args.save.as_deref()) {
        Saved::Yes => ExitCode::SUCCESS,
        Saved::No => ExitCode::from(2),
    }
}

/// The next answer line: as shown (invalid bytes replaced), and its text, or why it is no
/// text; `None` when the answers have run out (or cannot be read: said on standard error).
fn read_answer(input: &mut impl BufRead) -> Option<(String, Result<String, String>)> {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) => return None,
        Ok(_) => {}
        Err(e) => {
            errln!("error[conditions::io]: cannot read the answers from standard input: {e}");
            return None;
        }
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    let shown = String::from_utf8_lossy(&bytes).into_owned();
    let line = String::from_utf8(bytes)
        .map_err(|e| format!("the answer is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()));
    Some((shown, line))
}

/// Whether the facts were saved (or there was nothing to save).
enum Saved {
    Yes,
    No,
}

/// Saves the facts gathered onto `path`, added to those it holds (`conditions::ask::save`).
/// When they cannot be saved, says why and prints them on standard error as a facts file,
/// so that no answer is lost.
fn save_facts(session: &Session, path: Option<&str>) -> Saved {
    let Some(path) = path else { return Saved::Yes };
    match save::save(std::path::Path::new(path), &session.tree) {
        Ok(()) => {
            errln!("{}", session.words().fill(&session.words().saved, &[("path", path.to_string())]));
            Saved::Yes
        }
        Err(e) => {
            errln!("error[conditions::io]: the facts are not saved: {e}");
            // In the format the file was to have, or else in JSON.
            let format = Format::for_path(path);
            let (text, format) = match save::write(&session.tree, format) {
                Ok(text) => (text, format),
                Err(_) => (save::write(&session.tree, Format::Json).unwrap_or_default(), Format::Json),
            };
            let name = match format {
                Format::Json => "JSON",
                Format::Toml => "TOML",
                Format::Yaml => "YAML",
            };
            errln!("  help: the facts gathered, as a {name} facts file to copy:");
            err!("{text}");
            Saved::No
        }
    }
}
