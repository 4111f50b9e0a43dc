//! The brief terminal text written straight from the trace (`Explainer::brief_text`), of the
//! full trace and of the trace for the brief explanation (`eval::rule_for_brief`), is the
//! text of the brief report (`text::render` of `Explainer::report`), byte for byte: for
//! every case file's rulings of the bundled and the test rulebooks, in the rulebook's
//! language, in English and in every other language with a frame, and for facts that
//! leave rulings undetermined.

use conditions::eval::show::Lang;
use conditions::explain::{Explainer, text};
#[path = "support/case_rulings.rs"]
mod case_rulings;
use case_rulings::{CaseRulings, case_rulings};

#[test]
fn the_brief_text_from_the_trace_is_the_brief_report_rendered() {
    let mut compared = 0usize;
    let mut differ = Vec::new();
    let books = ["gnt", "dbf", "tests/rulebooks/lagtavling", "tests/rulebooks/round_robin", "tests/rulebooks/sections"];
    for name in books {
        let book = conditions::loader::load(name).unwrap_or_else(|e| panic!("{name}: {:?}", e.diagnostics));
        let p = &book.program;
        let mut langs: Vec<Lang> = vec![Lang::parse(&p.rulebook.language).unwrap_or(Lang::En), Lang::En];
        langs.extend(["sv", "nb"].iter().filter_map(|l| Lang::parse(l)));
        for CaseRulings { path, inputs, first, rulings } in case_rulings(p, name) {
            for def in rulings {
                let ruling = conditions::eval::rule(p, &inputs, def, true);
                let brief = conditions::eval::rule_for_brief(p, &inputs, def);
                for &lang in &langs {
                    let e = Explainer { p, sources: &book.sources, lang, inputs: &inputs };
                    let old = text::render(&e.report(&ruling, false), false);
                    let new = e.brief_text(&brief);
                    compared += 1;
                    if old != new || e.brief_text(&ruling) != old {
                        differ.push(format!(
                            "{} `{}` ({}):\n--- report\n{old}\n--- trace\n{new}",
                            path.display(),
                            p.defs[def as usize].name,
                            lang.code()
                        ));
                    }
                }
            }
            // The same facts with none given: every ruling of the case undetermined.
            let empty = conditions::eval::interp::Inputs::empty(p);
            if let Some(def) = first {
                let ruling = conditions::eval::rule(p, &empty, def, true);
                let e = Explainer { p, sources: &book.sources, lang: Lang::En, inputs: &empty };
                let old = text::render(&e.report(&ruling, false), false);
                let new = e.brief_text(&conditions::eval::rule_for_brief(p, &empty, def));
                compared += 1;
                if old != new {
                    differ.push(format!(
                        "{} `{}` without facts:\n--- report\n{old}\n--- trace\n{new}",
                        path.display(),
                        p.defs[def as usize].name
                    ));
                }
            }
        }
    }
    assert!(compared > 2000, "every case file is rendered ({compared})");
    assert!(
        differ.is_empty(),
        "{} of {compared} differ:\n{}",
        differ.len(),
        differ.iter().take(3).cloned().collect::<Vec<_>>().join("\n")
    );
}
