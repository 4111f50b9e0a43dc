//! Parsing: pest grammar (`grammar/conditions.pest`) → [`ast::File`](super::ast::File).
//!
//! Syntax errors become diagnostics over the whole named file, with the
//! expected tokens phrased in the language's words rather than pest rule names; the
//! common mistakes of a first-time writer are recognised and taught (`teach`).

use super::ast::*;
use crate::diagnostic::Diagnostic;
use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use std::cell::{Cell, RefCell};

mod build;
mod teach;
use build::Builder;
pub use build::fold_whitespace;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/conditions.pest"]
pub(super) struct Grammar;

/// Deepest nesting of brackets a file may have (a guard against stack exhaustion).
pub const MAX_NESTING: usize = 64;
/// Deepest expression tree: operands of one `+`/`and`/… chain plus nested
/// expressions (else-if arms, `not`, `let`). Every later stage recurses on the tree.
pub const MAX_EXPR_DEPTH: usize = 1000;
/// Most `if`, `let` and `not` words in one declaration, checked before parsing
/// since each may nest the parser one level deeper.
pub const MAX_NESTING_WORDS: usize = 2000;
/// Stack for a thread that checks or rules (the command's main thread, batch
/// workers): room for [`MAX_EXPR_DEPTH`] in the deepest-recursing stage.
pub const STACK_BYTES: usize = 256 * 1024 * 1024;
/// Most `-` signs in a row (`- - - x`).
pub const MAX_SIGNS: usize = 64;
/// Largest condition file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

pub(super) type P<'i> = Pair<'i, Rule>;

/// Parses one file's text. `file` is its id in the source map, used in spans. A byte-order
/// mark at the start is allowed (and not part of the tree).
pub fn parse_file(text: &str, file: FileId) -> Result<File, Diagnostic> {
    if text.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::error(
            "conditions::file_too_large",
            format!("condition file is {} bytes, more than the limit of {MAX_FILE_BYTES}", text.len()),
        )
        .at(Span::new(file, 0, 0), "file starts here")
        .help("split the rulebook into several files"));
    }
    check_nesting(text, file)?;
    // A byte-order mark at the start is read as blanks of its length: spans stay those of `text`.
    let blanked;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            blanked = format!("{}{rest}", " ".repeat('\u{feff}'.len_utf8()));
            blanked.as_str()
        }
        None => text,
    };
    let mut pairs = Grammar::parse(Rule::file, text).map_err(|e| syntax_error(e, file, text))?;
    let b = Builder { file, text, depth: Cell::new(0), too_deep: RefCell::new(None) };
    let file_pair = pairs.next().ok_or_else(|| Diagnostic::error("conditions::syntax", "empty parse"))?;
    let mut section = None;
    let mut items = Vec::new();
    for p in file_pair.into_inner().filter(|p| p.as_rule() != Rule::EOI) {
        if p.as_rule() == Rule::section_decl {
            let span = b.span(&p);
            let mut it = p.into_inner().skip(1);
            let name = b.ident(it.next().unwrap_or_else(|| unreachable!()));
            let citation = it.next().map(|q| b.string(q));
            section = Some(SectionDecl { name, citation, span });
        } else {
            items.push(b.item(p));
        }
    }
    if let Some(d) = b.too_deep.into_inner() {
        return Err(d);
    }
    let mut comments = attach_comments(&scan_comments(text), &items);
    if let Some(s) = &section {
        let before = scan_comments(text).iter().take_while(|(pos, _)| (*pos as u32) < s.span.start).count();
        for c in comments.iter_mut().take(before) {
            c.at = CommentAt::BeforeSection;
        }
    }
    Ok(File { section, items, comments })
}

/// Whether `rule` of the grammar matches the whole of `text`.
fn matches_whole(rule: Rule, text: &str) -> bool {
    Grammar::parse(rule, text).ok().and_then(|mut p| p.next()).is_some_and(|p| p.as_str().len() == text.len())
}

/// Whether `text` can be written as a name (not a keyword, a number or other words).
pub fn is_name(text: &str) -> bool {
    matches_whole(Rule::ident, text)
}

/// Whether `text` is a keyword of the language.
pub fn is_keyword(text: &str) -> bool {
    matches_whole(Rule::keyword, text)
}

/// Every `//` comment outside strings: (byte offset, text after `//`).
pub(crate) fn scan_comments(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                out.push((start, text[start + 2..i].trim_end().to_string()));
            }
            b'"' if text[i..].starts_with("\"\"\"") => {
                i = text[i + 3..].find("\"\"\"").map_or(bytes.len(), |e| i + 3 + e + 3);
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Attaches each comment to the item or clause part it precedes. A comment inside a
/// declaration moves up to stand before it.
fn attach_comments(found: &[(usize, String)], items: &[Item]) -> Vec<Comment> {
    found
        .iter()
        .map(|(pos, text)| {
            let pos = *pos as u32;
            let inside = items.iter().position(|it| it.span().start < pos && pos < it.span().end);
            let at = match inside.map(|i| (i, &items[i])) {
                Some((i, Item::Clause(c))) => {
                    let part = c.parts.iter().position(|p| p.span().start > pos).unwrap_or(c.parts.len());
                    CommentAt::InClause { item: i, part }
                }
                _ => CommentAt::BeforeItem(items.iter().position(|it| it.span().start > pos).unwrap_or(items.len())),
            };
            Comment { text: text.clone(), at }
        })
        .collect()
}

/// Before parsing: unclosed strings and too-deep nesting, each with a pointed error
/// (and no risk of exhausting the parser's stack).
fn check_nesting(text: &str, file: FileId) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let (mut words, mut signs) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        if !matches!(bytes[i], b'-' | b'(' | b' ' | b'\t' | b'\n' | b'\r') {
            signs = 0;
        }
        match bytes[i] {
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &text[start..i] {
                    "if" | "let" | "not" => words += 1,
                    "rule" | "def" | "ruling" | "table" | "fact" | "decision" | "lot" | "type" | "external"
                    | "clause" | "rulebook" => words = 0,
                    _ => {}
                }
                if words > MAX_NESTING_WORDS {
                    return Err(Diagnostic::error(
                        "conditions::too_deep",
                        format!("more than {MAX_NESTING_WORDS} `if`, `let` and `not` in one declaration"),
                    )
                    .at(Span::new(file, start, i), "one too many")
                    .help("split the declaration: name parts with `def`, or use a table"));
                }
                continue;
            }
            b'-' => {
                signs += 1;
                if signs > MAX_SIGNS {
                    return Err(Diagnostic::error(
                        "conditions::too_deep",
                        format!("more than {MAX_SIGNS} `-` in a row"),
                    )
                    .at(Span::new(file, i, i + 1), "one too many")
                    .help("write the number once, with its sign"));
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' if text[i..].starts_with("\"\"\"") => match text[i + 3..].find("\"\"\"") {
                Some(end) => i += end + 5,
                None => {
                    return Err(Diagnostic::error(
                        "conditions::unclosed_string",
                        "this `\"\"\"` string is never closed",
                    )
                    .at(Span::new(file, i, i + 3), "opened here")
                    .help("end the text with `\"\"\"`"));
                }
            },
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        return Err(Diagnostic::error(
                            "conditions::unclosed_string",
                            "this string is not closed on its line",
                        )
                        .at(Span::new(file, start, i), "opened here")
                        .help("close it with `\"`, or use `\"\"\"…\"\"\"` for text over several lines"));
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(Diagnostic::error("conditions::unclosed_string", "this string is never closed")
                        .at(Span::new(file, start, text.len()), "opened here")
                        .help("close it with `\"`"));
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(
                        "conditions::too_deep",
                        format!("brackets nested more than {MAX_NESTING} deep"),
                    )
                    .at(Span::new(file, i, i + 1), "this bracket is too deep")
                    .help("name an intermediate value with `def` or `let`"));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// The language's words for what the parser expected.
fn describe(rule: &Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::assign => "`=`",
        Rule::arrow => "`=>`",
        Rule::close_brace => "`}`",
        Rule::ident | Rule::qname | Rule::unit_word => "a name",
        Rule::section_decl => "`section`",
        Rule::string | Rule::short_string | Rule::long_string => "a string",
        Rule::quantity | Rule::number => "a number",
        Rule::date => "a date (YYYY-MM-DD)",
        Rule::time => "a time of day (HH:MM)",
        Rule::boolean => "`true` or `false`",
        Rule::expr
        | Rule::or_expr
        | Rule::and_expr
        | Rule::not_expr
        | Rule::cmp_expr
        | Rule::sum_expr
        | Rule::prod_expr
        | Rule::neg_expr
        | Rule::postfix
        | Rule::let_expr
        | Rule::if_expr
        | Rule::order_expr => "an expression",
        Rule::cmp_op => "a comparison",
        Rule::sum_op | Rule::prod_op => "an operator",
        Rule::kw_and => "`and`",
        Rule::kw_or => "`or`",
        Rule::kw_in => "`in`",
        Rule::kw_by => "`by`",
        Rule::kw_among => "`among`",
        Rule::in_turn => "`in turn`",
        Rule::kw_turn => "`turn` (`among tied in turn by …`)",
        Rule::direction | Rule::kw_ascending | Rule::kw_descending => "`ascending` or `descending`",
        Rule::order_key | Rule::order_keys => "a key to order by",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::kw_when => "`when`",
        Rule::kw_overrides => "`overrides`",
        Rule::type_expr | Rule::list_type | Rule::unit_type => "a type",
        Rule::pattern | Rule::range_pattern | Rule::wildcard => "a pattern",
        Rule::row | Rule::row_keys => "a table row",
        Rule::policy => "`unique`, `first` or `collect`",
        Rule::clause => "`clause`",
        Rule::rulebook_decl => "`rulebook`",
        Rule::heading_part
        | Rule::text_part
        | Rule::excerpt_part
        | Rule::paraphrase_part
        | Rule::gloss_part
        | Rule::info_part
        | Rule::cites_part => {
            "a clause part (`heading`, `text`, `excerpt`, `paraphrase`, `gloss`, `informational`, `cites`)"
        }
        Rule::type_decl
        | Rule::fact_decl
        | Rule::decision_decl
        | Rule::external_decl
        | Rule::def_decl
        | Rule::rule_decl
        | Rule::table_decl
        | Rule::gloss_decl => "a declaration (`fact`, `def`, `ruling`, `rule`, `table`, …)",
        Rule::range_op | Rule::range_open => "a range (`..=`)",
        Rule::params | Rule::head_args => "`(`",
        Rule::guard => "`when`",
        Rule::overrides => "`overrides`",
        Rule::says_part => "`says`",
        // After a declared name: the `:` of its type, or a `renamed from` note before it.
        Rule::kw_renamed | Rule::renamed_part => "`:`",
        Rule::kw_from => "`from` (`renamed from old_name`)",
        Rule::setting => "a setting (`title \"…\"`)",
        Rule::variant => "a variant",
        Rule::field | Rule::field_init => "a field",
        Rule::call | Rule::list_lit | Rule::record_lit => "an expression",
        Rule::lambda | Rule::named_arg => "an argument",
        Rule::percent | Rule::unit => "a unit",
        _ => return None,
    })
}

fn syntax_error(e: pest::error::Error<Rule>, file: FileId, text: &str) -> Diagnostic {
    let (mut start, mut end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    if text.get(start..).is_some_and(|rest| rest.trim().is_empty()) {
        start = text.trim_end().len();
        end = start;
    }
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant
        && let Some(t) = teach::teach(text, start, positives)
    {
        return Diagnostic::error("conditions::syntax", format!("syntax error: {}", t.message))
            .at(Span::new(file, t.start, t.end.max(t.start)), t.label)
            .help(t.help);
    }
    let (message, label) = match &e.variant {
        ErrorVariant::ParsingError { positives, negatives } => {
            let mut words: Vec<&str> = positives.iter().filter_map(describe).collect();
            words.sort();
            words.dedup();
            // Beside something specific, "a new clause could start here" is noise.
            let top = [
                "`rulebook`",
                "`clause`",
                "end of file",
                "a declaration (`fact`, `def`, `ruling`, `rule`, `table`, …)",
            ];
            if words.iter().any(|w| !top.contains(w)) {
                words.retain(|w| !top.contains(w));
            }
            let expected = match words.len() {
                0 => String::from("something else"),
                1 => words[0].to_string(),
                n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
            };
            if positives.is_empty() && !negatives.is_empty() {
                ("unexpected keyword".to_string(), "a keyword cannot be used as a name".to_string())
            } else {
                (format!("expected {expected}"), format!("expected {expected}"))
            }
        }
        ErrorVariant::CustomError { message } => (message.clone(), message.clone()),
    };
    let end = if end > start { end } else { start };
    Diagnostic::error("conditions::syntax", format!("syntax error: {message}"))
        .at(Span::new(file, start, end), label)
        .help("see docs/language.md for the syntax of clauses and declarations")
}
