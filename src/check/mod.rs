//! Checking: from parsed files to a [`Program`], with every problem in every
//! file collected and reported together.
//!
//! Passes, each adding its diagnostics: resolve names to full names, sections and all
//! ([`resolve`]), collect names and clauses
//! ([`collect`]), lower expressions with types and units ([`expr`],
//! [`builtins`]; times of day compared across midnight, [`midnight`]), then rules, exceptions
//! and cycles ([`rules`]).

pub mod builtins;
pub mod builtins_table;
pub mod collect;
pub mod expr;
pub mod glosses;
pub mod literals;
pub mod midnight;
pub mod patterns;
pub mod program;
pub mod resolve;
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
    /// The parsed files (for lints and the formatter).
    pub files: Vec<ast::File>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Diagnostics that may only be an echo of a file that failed to parse.
const DEPENDS_ON_ALL_FILES: &[&str] = &[
    "conditions::no_rulebook",
    "conditions::unknown_name",
    "conditions::unknown_type",
    "conditions::unknown_function",
    "conditions::unknown_rule",
    "conditions::unknown_citation",
    "conditions::no_rules",
];

/// Checks the files read, after problems met while reading them (unreadable or non-UTF-8
/// files): those files declare nothing, so what depends on them is not reported.
pub fn check_read(sources: SourceMap, read_problems: Vec<Diagnostic>) -> Checked {
    check_read_with(sources, read_problems, |id, text| parse_file(text, id))
}

/// [`check_read`] with the parsing given (see [`check_sources_with`]).
pub fn check_read_with(
    sources: SourceMap,
    read_problems: Vec<Diagnostic>,
    parse: impl FnMut(ast::FileId, &str) -> Result<ast::File, Diagnostic>,
) -> Checked {
    let failed = !read_problems.is_empty();
    let mut checked = check_sources_with(sources, parse);
    if failed {
        checked.diagnostics.retain(|d| !DEPENDS_ON_ALL_FILES.contains(&d.code));
    }
    let mut all = read_problems;
    all.append(&mut checked.diagnostics);
    checked.diagnostics = all;
    checked
}

/// Parses and checks every file in `sources` as one rulebook.
pub fn check_sources(sources: SourceMap) -> Checked {
    check_sources_with(sources, |id, text| parse_file(text, id))
}

/// [`check_sources`] with the parsing given: an editor reuses the trees of unchanged files.
pub fn check_sources_with(
    sources: SourceMap,
    mut parse: impl FnMut(ast::FileId, &str) -> Result<ast::File, Diagnostic>,
) -> Checked {
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
        match parse(id, &f.text) {
            Ok(file) => files.push(file),
            Err(d) => diagnostics.push(d),
        }
    }
    let parse_failed = !diagnostics.is_empty();
    let mut checked = Vec::new();
    let (files, sections) = resolve::resolve(&files, &mut checked);
    let program = check_resolved(&files, sections, &mut checked);
    if parse_failed {
        // A file that did not parse declares nothing: names it would have declared are not
        // missing, they are unread. Keep only what the other files say for sure.
        checked.retain(|d| !DEPENDS_ON_ALL_FILES.contains(&d.code));
    }
    diagnostics.extend(checked);
    Checked { program, sources, files, diagnostics }
}

/// Checks parsed files, their names already resolved ([`resolve::resolve`]), as one rulebook.
pub fn check_files(files: &[ast::File], diags: &mut Vec<Diagnostic>) -> Program {
    check_resolved(files, resolve::Sections::default(), diags)
}

fn check_resolved(files: &[ast::File], sections: resolve::Sections, diags: &mut Vec<Diagnostic>) -> Program {
    let mut collected = collect::collect(files, diags);
    collected.program.sections = sections;
    rules::lower_all(&mut collected, diags);
    rules::check_cite_targets(&collected.program, files, diags);
    glosses::check_glosses(&collected.program, files, diags);
    collected.program
}
