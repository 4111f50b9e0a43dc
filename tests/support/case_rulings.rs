//! The case files of a rulebook as rulings to explain: each case file's facts read, with the
//! rulings its expectations ask for, and the languages an explanation is measured in. Shared
//! by the tests that read every bundled explanation.

#![allow(dead_code)]

use conditions::check::program::{DefId, Program};
use conditions::eval::interp::Inputs;
use conditions::eval::show::Lang;
use std::path::{Path, PathBuf};

/// One case file: where it is, its facts read, and the rulings it expects.
pub struct CaseRulings {
    pub path: PathBuf,
    pub inputs: Inputs,
    /// The ruling of its first expectation (`None` when the rulebook has no such ruling).
    pub first: Option<DefId>,
    /// The rulings of all its expectations the rulebook has, in order.
    pub rulings: Vec<DefId>,
}

/// The case files of a bundled rulebook (`gnt`) or of a rulebook folder
/// (`tests/rulebooks/sections`) whose facts are valid for `p`; the others are passed over.
pub fn case_rulings(p: &Program, book: &str) -> Vec<CaseRulings> {
    let dir = if book.contains('/') { format!("{book}/cases") } else { format!("conditions/{book}/cases") };
    let mut out = Vec::new();
    for path in conditions::cases::find_cases(Path::new(&dir)) {
        let src = std::fs::read_to_string(&path).expect("readable");
        let case: conditions::cases::CaseFile = toml::from_str(&src).expect("a case file");
        let tree = conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts)).expect("facts"));
        let Ok(inputs) = conditions::facts::validate(p, &tree, "case") else { continue };
        let first = case.expect.first().and_then(|e| p.def_by_name(&e.ruling));
        let rulings = case.expect.iter().filter_map(|e| p.def_by_name(&e.ruling)).collect();
        out.push(CaseRulings { path, inputs, first, rulings });
    }
    out
}

/// The languages an explanation of `p` is read in: the rulebook's, then English.
pub fn langs(p: &Program) -> Vec<Lang> {
    let mut langs = vec![Lang::parse(&p.rulebook.language).unwrap_or(Lang::En)];
    if langs[0] != Lang::En {
        langs.push(Lang::En);
    }
    langs
}
