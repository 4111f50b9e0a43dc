//! Checking: from parsed files to a [`Program`], with every problem in every
//! file collected and reported together.
//!
//! Passes, each adding its diagnostics: collect names and clauses
//! ([`collect`]), lower expressions with types and units ([`expr`],
//! [`builtins`]), then rules, exceptions and cycles ([`rules`]).

pub mod builtins;
pub mod collect;
pub mod expr;
pub mod program;
pub mod rules;
pub mod types;

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use crate::syntax::{ast, parse_file};
pub use program::Program;

/// The result of checking a rulebook: the program (usable only when there are no errors)
/// and every diagnostic found.
pub struct Checked {
    pub program: Program,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parses and checks every file in `sources` as one rulebook.
pub fn check_sources(sources: SourceMap) -> Checked {
    let mut diagnostics = Vec::new();
    let mut files = Vec::new();
    for (id, f) in sources.files() {
        if f.text.trim().is_empty() {
            diagnostics.push(
                Diagnostic::error("conditions::empty_file", format!("`{}` is empty", f.name))
                    .at(ast::Span::new(id, 0, 0), "nothing here")
                    .help("a condition file holds clauses or declarations; delete the file if it is not needed"),
            );
            continue;
        }
        match parse_file(&f.text, id) {
            Ok(file) => files.push(file),
            Err(d) => diagnostics.push(d),
        }
    }
    let program = check_files(&files, &mut diagnostics);
    Checked { program, sources, diagnostics }
}

/// Checks parsed files as one rulebook.
pub fn check_files(files: &[ast::File], diags: &mut Vec<Diagnostic>) -> Program {
    let mut collected = collect::collect(files, diags);
    rules::lower_all(&mut collected, diags);
    rules::check_cite_targets(&collected.program, files, diags);
    collected.program
}
