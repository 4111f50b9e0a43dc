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
    let mut lines = stdin.lock().lines();
    let (ruling, settled) = loop {
        match session.step() {
            Next::Done { ruling, settled } => break (ruling, settled),
            Next::Ask(q) => {
                show_question(&session, &q);
                loop {
                    out!("{}", w.prompt);
                    let Some(Ok(line)) = lines.next() else {
                        outln!();
                        outln!("{}", w.ended);
                        save_facts(&session, args.save.as_deref());
                        return ExitCode::from(1);
                    };
                    if !terminal {
                        outln!("{line}");
                    }
                    match session.answer(&q, &line) {
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
    save_facts(&session, args.save.as_deref());
    ExitCode::SUCCESS
}

fn save_facts(session: &Session, path: Option<&str>) {
    let Some(path) = path else { return };
    let text = save::write(&session.tree, Format::for_path(path));
    match std::fs::write(path, text) {
        Ok(()) => errln!("{}", session.words().fill(&session.words().saved, &[("path", path.to_string())])),
        Err(e) => errln!("error[conditions::io]: cannot write `{path}`: {e}"),
    }
}
