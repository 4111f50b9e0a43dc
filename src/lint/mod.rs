//! Lints: what `conditions check` finds beyond errors, for committees editing
//! rulebooks between seasons. Each lint has a stable code (`lint::table_gap`), a
//! default severity, and an entry in docs/lints.md. Severities can be changed on the
//! command line; a finding can be accepted in the file with a comment
//! `// allow(<lint>): <reason>` before the clause, clause part or declaration.

pub mod citations;
pub mod confusables;
pub mod fact_citations;
pub mod logic;
pub mod numbers;
pub mod orders;
pub mod outcomes;
pub mod printed;
pub mod rules;
pub mod space;
pub mod tables;
pub mod terms;
pub mod witness;
pub mod xrefs;

use crate::check::Checked;
use crate::diagnostic::{Diagnostic, Severity};
use crate::syntax::ast::{CommentAt, Item, Span};
use std::collections::{HashMap, HashSet};

/// Every lint, its default severity and what it finds.
pub const LINTS: &[(&str, Severity, &str)] = &[
    ("lint::table_gap", Severity::Error, "values no row of a `pick unique` table covers"),
    ("lint::table_overlap", Severity::Error, "values two rows of a `pick unique` table both cover"),
    ("lint::shadowed_row", Severity::Warning, "rows of a `pick first` table that can never be picked"),
    ("lint::table_not_analysed", Severity::Warning, "tables too large or of a kind the analysis does not cover"),
    (
        "lint::conflict",
        Severity::Error,
        "two rules for one question that both apply, shown by the analysis or a case file",
    ),
    (
        "lint::possible_conflict",
        Severity::Warning,
        "two rules that may both apply, with no exception declared and no witness",
    ),
    ("lint::dead_rule", Severity::Warning, "rules whose condition is always false"),
    ("lint::exception_never_meets", Severity::Warning, "exceptions for other arguments than the rule they override"),
    ("lint::unused_fact", Severity::Warning, "facts no rule reads"),
    ("lint::unused_decision", Severity::Warning, "decisions and lots no rule asks for"),
    ("lint::unused_definition", Severity::Warning, "definitions nothing uses"),
    ("lint::unused_external", Severity::Warning, "external references no clause cites"),
    ("lint::untested_ruling", Severity::Warning, "rulings no case file exercises"),
    ("lint::undecided_clause", Severity::Warning, "clauses with no rules that do not say why"),
    ("lint::executable_without_text", Severity::Warning, "clauses with rules but no text to quote"),
    ("lint::numbering_gap", Severity::Warning, "a skipped letter or number among a clause's siblings"),
    ("lint::citation_order", Severity::Warning, "clauses out of the document's order"),
    ("lint::unresolved_reference", Severity::Warning, "`§` references in a text that resolve to nothing"),
    ("lint::uncited_reference", Severity::Warning, "`§` references in a text missing from the clause's `cites`"),
    ("lint::unread_reference", Severity::Warning, "references in a clause's text to a clause its rules never read"),
    ("lint::source_missing", Severity::Error, "lines of the published document in no clause"),
    ("lint::source_stray", Severity::Error, "clause text that is not in the published document"),
    ("lint::paraphrase_printed", Severity::Warning, "a paraphrase whose text is printed in the document after all"),
    ("lint::fact_cites_own_clause", Severity::Warning, "facts whose description cites a clause of the same rulebook"),
    ("lint::confusable_name", Severity::Warning, "two names that look alike, one with a letter of another script"),
    ("lint::tie_group_unread", Severity::Warning, "tie-breaks among the tied that never read the tied group"),
    ("lint::number_not_in_text", Severity::Warning, "numbers a rule writes that its clause's text does not print"),
    ("lint::number_not_in_rules", Severity::Warning, "numbers a clause's text prints that none of its rules uses"),
    (
        "lint::outcome_decided_twice",
        Severity::Warning,
        "two rulings that decide the same outcome from the same facts without reading each other",
    ),
    ("lint::gloss_term", Severity::Warning, "English glosses that render a term by another (UP, away points, as VP)"),
    ("lint::allow_without_reason", Severity::Warning, "`// allow(…)` comments that give no reason"),
];

/// What a rulebook is linted with.
pub struct Context<'a> {
    pub checked: &'a Checked,
    /// The published document, for source fidelity.
    pub document: Option<&'a str>,
    /// The rulings the case files ask for, when the rulebook has case files.
    pub tested: Option<HashSet<String>>,
}

pub fn run(ctx: &Context) -> Vec<Diagnostic> {
    run_with_cases(ctx, None)
}

/// [`run`], with the rulebook's case files (the folder `cases`) read for witnesses of the
/// conflicts the analysis leaves open.
pub fn run_with_cases(ctx: &Context, cases: Option<&std::path::Path>) -> Vec<Diagnostic> {
    let p = &ctx.checked.program;
    let mut out = Vec::new();
    out.extend(tables::lint(p));
    out.extend(rules::conflicts(p, cases));
    out.extend(rules::dead(p));
    out.extend(rules::unused(p, ctx.tested.as_ref()));
    out.extend(rules::clauses(p));
    out.extend(citations::numbering(p));
    out.extend(citations::text_references(p));
    out.extend(xrefs::lint(p));
    out.extend(fact_citations::lint(p));
    out.extend(confusables::lint(p));
    out.extend(orders::lint(ctx.checked));
    out.extend(outcomes::lint(p));
    out.extend(numbers::lint(ctx.checked));
    out.extend(terms::lint(ctx.checked));
    if let Some(doc) = ctx.document {
        out.extend(fidelity(ctx.checked, doc));
    }
    let mut out = apply_allows(ctx.checked, out);
    for d in &mut out {
        let link = doc_anchor(d.code);
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h} (see {link})"),
            None => format!("see {link}"),
        });
    }
    out
}

fn fidelity(checked: &Checked, doc: &str) -> Vec<Diagnostic> {
    let p = &checked.program;
    let cov = crate::coverage::coverage(p, doc);
    let mut out = Vec::new();
    let at = p.rulebook.span;
    for m in cov.missing {
        let mut d = Diagnostic::error(
            "lint::source_missing",
            format!("line {} of the published document is in no clause: “{}”", m.line, m.text),
        )
        .help(match (&m.nearest, &m.first_difference) {
            (Some(c), Some(diff)) if c != "rulebook" => format!("nearest clause `{c}` differs at {diff}"),
            _ => "quote it verbatim in the clause it belongs to".into(),
        });
        if let Some(c) = m.nearest.as_ref().and_then(|c| p.citations.get(c)) {
            d = d.at(p.clause(*c).citation_span, "nearest clause");
        } else {
            d = d.at(at, "rulebook");
        }
        out.push(d);
    }
    let folded_doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    for c in p.clauses.iter().filter(|c| c.text_kind == crate::check::program::TextKind::Paraphrase) {
        let Some(t) = &c.text else { continue };
        let folded = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if !folded.is_empty() && folded_doc.contains(&folded) {
            out.push(
                Diagnostic::warning(
                    "lint::paraphrase_printed",
                    format!("the paraphrase of `{}` is printed in the published document", c.citation),
                )
                .at(c.citation_span, "a paraphrase")
                .help("quote it as printed: write `text` for `paraphrase`"),
            );
        }
    }
    for s in cov.stray {
        let span = p.citations.get(&s.citation).map_or(at, |c| p.clause(*c).citation_span);
        out.push(
            Diagnostic::error(
                "lint::source_stray",
                format!("the text of `{}` is not in the published document", s.citation),
            )
            .at(span, "text differs from the document")
            .help(
                s.first_difference
                    .map_or("quote the clause exactly as printed".into(), |d| format!("first difference at {d}")),
            ),
        );
    }
    out
}

/// `// allow(name): reason` comments: where they stand and what they allow.
fn allows(checked: &Checked) -> (Vec<(String, Span)>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for (fi, file) in checked.files.iter().enumerate() {
        let _ = fi;
        for c in &file.comments {
            let t = c.text.trim();
            let Some(rest) = t.strip_prefix("allow(") else { continue };
            let Some((name, reason)) = rest.split_once(')') else { continue };
            let scope = match c.at {
                CommentAt::BeforeItem(i) => file.items.get(i).map(Item::span),
                CommentAt::BeforeSection => None,
                CommentAt::InClause { item, part } => match file.items.get(item) {
                    Some(Item::Clause(cl)) => Some(cl.parts.get(part).map_or(cl.span, |p| p.span())),
                    _ => None,
                },
            };
            let Some(scope) = scope else { continue };
            let reason = reason.trim_start_matches(':').trim();
            if reason.is_empty() {
                problems.push(
                    Diagnostic::warning("lint::allow_without_reason", format!("`allow({name})` gives no reason"))
                        .at(scope, "allowed here")
                        .help(format!("write why: `// allow({name}): <reason>`")),
                );
            }
            let code = if name.starts_with("lint::") { name.to_string() } else { format!("lint::{name}") };
            found.push((code, scope));
        }
    }
    (found, problems)
}

fn apply_allows(checked: &Checked, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let (allowed, mut problems) = allows(checked);
    let mut out: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| {
            let Some(s) = d.primary_span() else { return true };
            !allowed.iter().any(|(code, scope)| {
                code == d.code && scope.file == s.file && scope.start <= s.start && s.end <= scope.end
            })
        })
        .collect();
    out.append(&mut problems);
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

/// Severities as configured: per code, and whether warnings fail the check.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub levels: HashMap<String, Level>,
    pub deny_warnings: bool,
}

impl Config {
    /// Applies the configuration: drops allowed lints, raises or lowers severities.
    pub fn apply(&self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diags
            .into_iter()
            .filter_map(|mut d| {
                match self.levels.get(d.code) {
                    Some(Level::Allow) => return None,
                    Some(Level::Warn) => d.severity = Severity::Warning,
                    Some(Level::Deny) => d.severity = Severity::Error,
                    None => {}
                }
                if self.deny_warnings {
                    d.severity = Severity::Error;
                }
                Some(d)
            })
            .collect()
    }
}

/// Lints a rulebook read from `root` (a folder, or a single `.cond` file): the published
/// document is its `source` setting (or `source`), the tested rulings come from `cases/`.
pub fn for_rulebook(root: &std::path::Path, checked: &Checked, source: Option<&std::path::Path>) -> Vec<Diagnostic> {
    let dir = if root.is_dir() {
        root.to_path_buf()
    } else {
        root.parent().map(std::path::PathBuf::from).unwrap_or_default()
    };
    let doc_path =
        source.map(std::path::PathBuf::from).or_else(|| checked.program.rulebook.source.as_ref().map(|s| dir.join(s)));
    let mut out = Vec::new();
    // The document the rulebook names is read only from a regular file; one given is read as it is.
    let read = if source.is_some() { crate::loader::read_text } else { crate::loader::read_regular_text };
    let document = match doc_path.as_ref().map(|p| read(p, crate::coverage::MAX_DOCUMENT_BYTES)) {
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            let p = doc_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            out.push(
                Diagnostic::error("conditions::io", format!("cannot read the published document `{p}`: {e}"))
                    .in_path(p)
                    .help("the rulebook's `source` setting names it, relative to the rulebook folder"),
            );
            None
        }
        None => None,
    };
    let (tested, unread) =
        if root.is_dir() { crate::cases::tested_rulings_read(&root.join("cases")) } else { (None, Vec::new()) };
    for (case, e) in unread {
        let p = case.display().to_string();
        out.push(
            Diagnostic::error("conditions::io", format!("cannot read the case file `{p}`: {e}"))
                .in_path(p)
                .help("case files are TOML files under the rulebook's `cases/` folder"),
        );
    }
    let cases = root.is_dir().then(|| root.join("cases"));
    out.extend(run_with_cases(&Context { checked, document: document.as_deref(), tested }, cases.as_deref()));
    out
}

/// The documentation anchor of a lint code, for links.
pub fn doc_anchor(code: &str) -> String {
    format!("docs/lints.md#{}", code.trim_start_matches("lint::").replace('_', "-"))
}
