//! Diagnostics: every problem found in a rulebook or a facts file, with a stable
//! code, a lowercase message, labelled spans and a help line; rendered through miette.

use crate::source::SourceMap;
use crate::source::{FileId, Span};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceSpan, SpanContents,
};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: Option<String>,
}

/// One problem. `code` is stable (`conditions::unknown_name`) and documented.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    /// A problem with no place in a source file (an unreadable path, say).
    pub path: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            path: None,
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Self::error(code, message) }
    }
    pub fn at(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: Some(message.into()) });
        self
    }
    pub fn at_plain(mut self, span: Span) -> Self {
        self.labels.push(Label { span, message: None });
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn maybe_help(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }
    pub fn in_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Most diagnostics reported for one file by `check` and the language server; the rest are
/// counted in one note ([`cap_per_file`]).
pub const MAX_PER_FILE: usize = 200;

/// The code of the note that counts the diagnostics of a file not shown.
pub const MORE_CODE: &str = "conditions::more_diagnostics";

/// `diags` with at most `max` for each file (by the file of the first label, or the path), in
/// their order, and after them, for each file with more, one note counting the rest: an error
/// when any of the rest is one.
pub fn cap_per_file(diags: Vec<Diagnostic>, max: usize) -> Vec<Diagnostic> {
    type Key = (Option<FileId>, Option<String>);
    let key = |d: &Diagnostic| -> Key { (d.primary_span().map(|s| s.file), d.path.clone()) };
    let mut shown: HashMap<Key, usize> = HashMap::new();
    let mut rest: Vec<(Key, usize, usize)> = Vec::new();
    let mut out = Vec::with_capacity(diags.len().min(max.saturating_mul(4)));
    for d in diags {
        let k = key(&d);
        let n = shown.entry(k.clone()).or_default();
        if *n < max {
            *n += 1;
            out.push(d);
            continue;
        }
        let i = match rest.iter().position(|(r, _, _)| *r == k) {
            Some(i) => i,
            None => {
                rest.push((k, 0, 0));
                rest.len() - 1
            }
        };
        if d.is_error() {
            rest[i].1 += 1;
        } else {
            rest[i].2 += 1;
        }
    }
    for ((file, path), errors, warnings) in rest {
        let message =
            format!("{} more in this file not shown ({errors} error(s), {warnings} warning(s))", errors + warnings);
        let mut note =
            if errors > 0 { Diagnostic::error(MORE_CODE, message) } else { Diagnostic::warning(MORE_CODE, message) }
                .help(format!("only the first {max} problems of a file are shown; fix those and check again"));
        if let Some(f) = file {
            note = note.at(Span::new(f, 0, 0), "in this file");
        }
        note.path = path;
        out.push(note);
    }
    out
}

/// How many of the latest diagnostics [`crowded`] reads.
const CROWD_WINDOW: usize = 4 * MAX_PER_FILE;

/// Whether the latest of `diags` already hold [`MAX_PER_FILE`] for `file`, so that one more
/// there will not be shown: a "did you mean", which reads every name of the rulebook, is then
/// not worth its cost. Reads at most a fixed number of diagnostics, so that many unknown names
/// cost time in proportion to their number.
pub fn crowded(diags: &[Diagnostic], file: FileId) -> bool {
    let start = diags.len().saturating_sub(CROWD_WINDOW);
    diags[start..].iter().filter(|d| d.primary_span().is_some_and(|s| s.file == file)).count() >= MAX_PER_FILE
}

/// "did you mean `x`?" for the closest candidate within a small edit distance, over both
/// the section-qualified names and their short names: `round_1_date` (or `round_1_dat`)
/// finds `allsvenskan.round_1_date`, and `allsvenska.round_1_date` finds it too. When the
/// nearest are several qualified names of one short name (a name of several sections),
/// each is offered: "did you mean `a.boards` or `b.boards`?".
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    // Names are short; a long text is no misspelling of one (and the distance is quadratic).
    if name.len() > MAX_SUGGEST_LEN {
        return None;
    }
    let lower = name.to_lowercase();
    let lower_short = short_name(&lower);
    // Within a third of the longer's length (at least 1): the distance, else `None`.
    let near = |a: &str, b: &str| {
        let (la, lb) = (a.chars().count(), b.chars().count());
        let most = (la.max(lb) / 3).max(1);
        // The distance is at least the difference in length: skip what cannot be near.
        if la.abs_diff(lb) > most {
            return None;
        }
        let d = edit_distance(a, b);
        (d <= most).then_some(d)
    };
    let mut scored: Vec<(usize, bool, &str)> = candidates
        .into_iter()
        .filter(|c| c.len() <= MAX_SUGGEST_LEN)
        .filter_map(|c| {
            let full = c.to_lowercase();
            let short = short_name(&full);
            // By the whole name first; by the short names only where one is qualified.
            let whole = near(&lower, &full).map(|d| (d, false));
            let by_short = match (lower_short, short) {
                (Some(a), Some(b)) => near(a, b),
                (None, Some(b)) => near(&lower, b),
                (Some(a), None) => near(a, &full),
                (None, None) => None,
            };
            let by_short = by_short.map(|d| (d, true));
            [whole, by_short].into_iter().flatten().min().map(|(d, s)| (d, s, c))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    let &(best, by_short, first) = scored.first()?;
    let mut names = vec![format!("`{first}`")];
    if by_short {
        // The same short name in other sections, as near.
        let tail = short_name(first).unwrap_or(first).to_lowercase();
        for &(d, s, c) in &scored[1..] {
            if d == best && s && short_name(c).is_some_and(|t| t.to_lowercase() == tail) && names.len() < 3 {
                names.push(format!("`{c}`"));
            }
        }
    }
    Some(match names.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("did you mean {} or {last}?", init.join(", ")),
        _ => format!("did you mean `{first}`?"),
    })
}

/// The short name of a section-qualified name (`allsvenskan.round_1_date` →
/// `round_1_date`), or `None` for a name that is not qualified. Only a name whose last part
/// is a name (begins with a letter or `_`) counts: `304.1` is a label, not a qualified name.
fn short_name(name: &str) -> Option<&str> {
    let (_, short) = name.rsplit_once('.')?;
    short.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_').then_some(short)
}

/// Longest name for which a "did you mean" is looked for.
pub const MAX_SUGGEST_LEN: usize = 200;

/// Optimal string alignment distance: insertions, deletions, substitutions and
/// transpositions of neighbours each cost one (`titel` → `title` is 1).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// A diagnostic together with the files it points into, ready for miette.
pub struct Report<'a> {
    pub diagnostic: &'a Diagnostic,
    pub sources: &'a SourceMap,
    source: Option<Window<'a>>,
}

/// Longest source line shown in a snippet; a label on a longer line is reported by
/// line and column only (the renderer cannot lay out columns past 65,535).
pub const MAX_SNIPPET_LINE: usize = 10_000;

/// Byte offsets where each line of a text starts.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// The lines a diagnostic's labels cover, with context either side: miette
/// reads only these, so rendering many diagnostics of one file stays linear.
struct Window<'a> {
    name: &'a str,
    text: &'a str,
    base: usize,
    base_line: usize,
}

impl miette::SourceCode for Window<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let off = span.offset().checked_sub(self.base).ok_or(MietteError::OutOfBounds)?;
        let c = self.text.read_span(&SourceSpan::new(off.into(), span.len()), before, after)?;
        // Miette counts the column in bytes; SARIF, the JSON output and editors count characters
        // (Unicode scalar values), so the header's `file:line:column` does too.
        let column = off
            .checked_sub(c.column())
            .and_then(|line_start| self.text.get(line_start..off))
            .map_or(c.column(), |before| before.chars().count());
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            c.data(),
            SourceSpan::new((c.span().offset() + self.base).into(), c.span().len()),
            c.line() + self.base_line,
            column,
            c.line_count(),
        )))
    }
}

impl<'a> Report<'a> {
    pub fn new(diagnostic: &'a Diagnostic, sources: &'a SourceMap) -> Self {
        let starts = diagnostic.primary_span().and_then(|p| sources.get(p.file)).map(|f| f.line_starts());
        Self::with_lines(diagnostic, sources, starts)
    }

    /// As [`Report::new`], given the line starts of the primary label's file.
    fn with_lines(diagnostic: &'a Diagnostic, sources: &'a SourceMap, starts: Option<&[usize]>) -> Self {
        let source = diagnostic.primary_span().and_then(|p| {
            let f = sources.get(p.file)?;
            let text: &str = &f.text;
            let starts = starts?;
            let line_of = |off: usize| starts.partition_point(|&s| s <= off).saturating_sub(1);
            let here = diagnostic.labels.iter().filter(|l| l.span.file == p.file);
            let lo = here.clone().map(|l| l.span.start as usize).min()?.min(text.len());
            let hi = here.map(|l| l.span.end as usize).max()?.min(text.len());
            // Miette shows a line of context either side; the window holds more.
            let first = line_of(lo).saturating_sub(4);
            let last = (line_of(hi) + 4).min(starts.len() - 1);
            let end = starts.get(last + 1).copied().unwrap_or(text.len());
            let window = text.get(starts[first]..end)?;
            if window.split('\n').any(|l| l.len() > MAX_SNIPPET_LINE) {
                return None;
            }
            Some(Window { name: &f.name, text: window, base: starts[first], base_line: first })
        });
        Report { diagnostic, sources, source }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diagnostic.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.diagnostic.path {
            Some(p) => write!(f, "{}: {}", p, self.diagnostic.message),
            None => write!(f, "{}", self.diagnostic.message),
        }
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        None
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source.as_ref()?;
        let primary = self.diagnostic.primary_span()?;
        let labels = self.diagnostic.labels.iter().filter(move |l| l.span.file == primary.file).map(|l| {
            LabeledSpan::new_with_span(l.message.clone(), SourceSpan::new((l.span.start as usize).into(), l.span.len()))
        });
        Some(Box::new(labels))
    }
}

/// Renders diagnostics as miette's graphical report, without colour when `plain`.
pub fn render(diags: &[Diagnostic], sources: &SourceMap, plain: bool) -> String {
    let theme = if plain { GraphicalTheme::unicode_nocolor() } else { GraphicalTheme::unicode() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    let index: Vec<&[usize]> =
        if diags.is_empty() { Vec::new() } else { sources.files().map(|(_, f)| f.line_starts()).collect() };
    for d in diags {
        let starts = d.primary_span().and_then(|p| index.get(p.file as usize)).copied();
        let report = Report::with_lines(d, sources, starts);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", d.code, d.message));
        }
        // A label on a line too long to draw is given by place.
        if report.source.is_none()
            && let Some(p) = d.primary_span()
            && let Some(f) = sources.get(p.file)
        {
            let (line, col) = sources.line_col(p);
            out.push_str(&format!("  at {}:{line}:{col}\n", f.name));
        }
        // Labels in other files than the primary one are listed as plain lines.
        if let Some(primary) = d.primary_span() {
            for l in d.labels.iter().filter(|l| l.span.file != primary.file) {
                let (line, col) = sources.line_col(l.span);
                let name = sources.get(l.span.file).map_or("?", |f| f.name.as_str());
                out.push_str(&format!(
                    "  also at {}:{}:{}{}\n",
                    name,
                    line,
                    col,
                    l.message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
                ));
            }
        }
        out.push('\n');
    }
    out
}

/// A diagnostic as JSON: code, severity, message, help, and each label with file, line and column.
pub fn to_json(d: &Diagnostic, sources: &SourceMap) -> crate::json::Json {
    let labels: Vec<crate::json::Json> = d
        .labels
        .iter()
        .map(|l| {
            let (line, col) = sources.line_col(l.span);
            crate::ojson!({
                "file": sources.get(l.span.file).map(|f| f.name.clone()),
                "line": line,
                "column": col,
                "start": l.span.start,
                "end": l.span.end,
                "message": &l.message,
            })
        })
        .collect();
    crate::ojson!({
        "code": d.code,
        "severity": &d.severity,
        "message": &d.message,
        "help": &d.help,
        "path": &d.path,
        "labels": labels,
    })
}
