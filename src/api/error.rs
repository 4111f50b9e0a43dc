//! The facade's error type: what went wrong loading a rulebook, reading facts or
//! naming a ruling, as a [`std::error::Error`] and a [`miette::Diagnostic`].

use crate::diagnostic::{Diagnostic, Severity};
use crate::source::SourceMap;
use miette::{LabeledSpan, NamedSource, SourceSpan};
use std::fmt;

/// What kind of thing went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The rulebook could not be read, or does not check.
    Load,
    /// The facts are not facts of the rulebook, or not of the declared types.
    Facts,
    /// The facts' text is not JSON (a syntax error, or a key given twice).
    Syntax,
    /// No ruling of that name in the rulebook.
    UnknownRuling,
    /// Facts read for one rulebook were given to a ruling of another.
    OtherRulebook,
}

/// An error of the facade: one or more problems, each with its stable code
/// (`conditions::unknown_name`, …), its help and, for a condition file, the place.
///
/// Shown with [`fmt::Display`] it is the first problem's message; as a
/// [`miette::Diagnostic`] the first problem carries the source snippet and the
/// others are its [`related`](miette::Diagnostic::related) problems.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    problems: Vec<Problem>,
}

/// One problem of an [`Error`], self-contained: its own copy of the file it points into.
#[derive(Debug)]
pub struct Problem {
    code: &'static str,
    message: String,
    help: Option<String>,
    path: Option<String>,
    severity: Severity,
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
}

impl Error {
    /// An error made of the diagnostics found, pointing into `sources`.
    pub(crate) fn new(kind: ErrorKind, diagnostics: &[Diagnostic], sources: &SourceMap) -> Error {
        Error { kind, problems: diagnostics.iter().map(|d| Problem::new(d, sources)).collect() }
    }

    /// An error of one diagnostic that points into no file.
    pub(crate) fn bare(kind: ErrorKind, diagnostic: Diagnostic) -> Error {
        Error::new(kind, &[diagnostic], &SourceMap::new())
    }

    /// What kind of thing went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Every problem found, the first one first.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Every problem rendered as miette's graphical report, without colour.
    pub fn render(&self) -> String {
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor()).with_width(100);
        let mut out = String::new();
        for p in &self.problems {
            let _ = handler.render_report(&mut out, p);
        }
        out
    }
}

impl Problem {
    fn new(d: &Diagnostic, sources: &SourceMap) -> Problem {
        let primary = d.primary_span();
        let file = primary.and_then(|p| sources.get(p.file));
        let source = file.map(|f| NamedSource::new(f.name.clone(), f.text.to_string()));
        let labels = match primary {
            Some(p) if file.is_some() => d
                .labels
                .iter()
                .filter(|l| l.span.file == p.file)
                .map(|l| {
                    let len = (l.span.end - l.span.start) as usize;
                    LabeledSpan::new_with_span(l.message.clone(), SourceSpan::new((l.span.start as usize).into(), len))
                })
                .collect(),
            _ => Vec::new(),
        };
        Problem {
            code: d.code,
            message: d.message.clone(),
            help: d.help.clone(),
            path: d.path.clone(),
            severity: d.severity,
            source,
            labels,
        }
    }

    /// The stable code, e.g. `conditions::facts_type`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The message, in lowercase, with the input in backticks.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What to do about it, when known.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The path in the facts (`player.masterpoints`) or the file, for a problem that
    /// has no place in a condition file.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{p}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for Problem {}

impl miette::Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() { None } else { Some(Box::new(self.labels.iter().cloned())) }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [] => write!(f, "unknown error"),
            [one] => write!(f, "{one}"),
            [first, rest @ ..] => write!(f, "{first} (and {} more problems)", rest.len()),
        }
    }
}

impl std::error::Error for Error {}

impl miette::Diagnostic for Error {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.problems.first().and_then(miette::Diagnostic::code)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Error)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.problems.first().and_then(miette::Diagnostic::help)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.problems.first().and_then(|p| p.source_code())
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.problems.first().and_then(|p| p.labels())
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.problems.len() < 2 {
            return None;
        }
        Some(Box::new(self.problems[1..].iter().map(|p| p as &dyn miette::Diagnostic)))
    }
}
