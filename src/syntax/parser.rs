//! Parsing: pest grammar (`grammar/conditions.pest`) → [`ast::File`](super::ast::File).
//!
//! Syntax errors become diagnostics over the whole named file, with the
//! expected tokens phrased in the language's words rather than pest rule names.

use super::ast::*;
use crate::diagnostic::Diagnostic;
use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use std::cell::{Cell, RefCell};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/conditions.pest"]
struct Grammar;

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

type P<'i> = Pair<'i, Rule>;

/// Parses one file's text. `file` is its id in the source map, used in spans.
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
        Rule::kw_and | Rule::kw_or => "`and` or `or`",
        Rule::kw_in => "`in`",
        Rule::kw_by => "`by`",
        Rule::kw_among => "`among`",
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

struct Builder<'t> {
    file: FileId,
    text: &'t str,
    /// Depth of the expression tree being built, and the first place it went too deep.
    depth: Cell<usize>,
    too_deep: RefCell<Option<Diagnostic>>,
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Folds runs of white space into one space and trims: the value of a `"""` string.
pub fn fold_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Builder<'_> {
    fn span(&self, p: &P) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    /// A span without the white space and comments a rule's last optional part swallowed.
    fn trimmed(&self, p: &P) -> Span {
        let s = p.as_span();
        let mut body = &self.text[s.start()..s.end()];
        loop {
            let t = body.trim_end();
            let last_line_start = t.rfind('\n').map_or(0, |i| i + 1);
            if t[last_line_start..].trim_start().starts_with("//") && last_line_start > 0 {
                body = &t[..last_line_start];
            } else {
                body = t;
                break;
            }
        }
        Span::new(self.file, s.start(), s.start() + body.len())
    }

    fn ident(&self, p: P) -> Ident {
        Ident { name: p.as_str().to_string(), span: self.span(&p) }
    }

    fn string(&self, p: P) -> Str {
        let span = self.span(&p);
        let inner = p.into_inner().next();
        let value = match inner {
            Some(q) if q.as_rule() == Rule::long_string => {
                fold_whitespace(q.into_inner().next().map_or("", |x| x.as_str()))
            }
            Some(q) => unescape(q.into_inner().next().map_or("", |x| x.as_str())),
            None => String::new(),
        };
        Str { value, span }
    }

    fn item(&self, p: P) -> Item {
        match p.as_rule() {
            Rule::rulebook_decl => Item::Rulebook(self.rulebook(p)),
            Rule::clause => Item::Clause(self.clause(p)),
            _ => Item::Decl(self.decl(p)),
        }
    }

    fn rulebook(&self, p: P) -> RulebookDecl {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.string(it.next().unwrap_or_else(|| unreachable!()));
        let settings = it
            .map(|s| {
                let mut kv = s.into_inner();
                let k = kv.next().map(|x| self.ident(x));
                let v = kv.next().map(|x| self.string(x));
                (k.unwrap_or_else(|| unreachable!()), v.unwrap_or_else(|| unreachable!()))
            })
            .collect();
        RulebookDecl { name, settings, span }
    }

    fn clause(&self, p: P) -> Clause {
        let span = self.span(&p);
        let mut it = p.into_inner();
        it.next(); // kw_clause
        let citation = self.string(next(&mut it));
        let parts = it
            .filter(|q| q.as_rule() != Rule::close_brace)
            .map(|q| match q.as_rule() {
                Rule::heading_part => ClausePart::Heading(self.string(first(q))),
                Rule::text_part => ClausePart::Text(self.string(first(q))),
                Rule::excerpt_part => ClausePart::Excerpt(self.string(first(q))),
                Rule::paraphrase_part => ClausePart::Paraphrase(self.string(first(q))),
                Rule::gloss_part => ClausePart::Gloss(self.string(first(q))),
                Rule::info_part => ClausePart::Informational(self.string(first(q))),
                Rule::cites_part => ClausePart::Cites(q.into_inner().map(|s| self.string(s)).collect()),
                _ => ClausePart::Decl(self.decl(q)),
            })
            .collect();
        Clause { citation, parts, span }
    }

    fn decl(&self, p: P) -> Decl {
        let span = self.trimmed(&p);
        let rule = p.as_rule();
        let mut it = p.into_inner().peekable();
        match rule {
            Rule::type_decl => {
                it.next();
                let name = self.ident(next(&mut it));
                let body_pair = next(&mut it);
                let body = if body_pair.as_rule() == Rule::enum_body {
                    TypeBody::Enum(
                        body_pair
                            .into_inner()
                            .map(|v| {
                                let mut vi = v.into_inner();
                                let name = self.ident(next(&mut vi));
                                Variant { name, label: vi.next().map(|s| self.string(s)) }
                            })
                            .collect(),
                    )
                } else {
                    TypeBody::Record(
                        body_pair
                            .into_inner()
                            .map(|f| {
                                let mut fi = f.into_inner().peekable();
                                let name = self.ident(next(&mut fi));
                                let optional = fi.peek().is_some_and(|x| x.as_rule() == Rule::optional_mark);
                                if optional {
                                    fi.next();
                                }
                                let ty = self.type_expr(next(&mut fi));
                                Field { name, optional, ty, doc: fi.next().map(|s| self.string(s)) }
                            })
                            .collect(),
                    )
                };
                Decl::Type(TypeDecl { name, body, span })
            }
            Rule::fact_decl => {
                it.next();
                let name = self.ident(next(&mut it));
                let ty = self.type_expr(next(&mut it));
                let bound = self.bound(&mut it);
                Decl::Fact(FactDecl { name, ty, bound, doc: it.next().map(|s| self.string(s)), span })
            }
            Rule::decision_decl => {
                let kind = match first(next(&mut it)).as_rule() {
                    Rule::kw_lot => DecisionKind::Lot,
                    _ => DecisionKind::Decision,
                };
                let name = self.ident(next(&mut it));
                let ty = self.type_expr(next(&mut it));
                let bound = self.bound(&mut it);
                let by = self.string(next(&mut it));
                Decl::Decision(DecisionDecl { kind, name, ty, bound, by, doc: it.next().map(|s| self.string(s)), span })
            }
            Rule::external_decl => {
                it.next();
                let citation = self.string(next(&mut it));
                Decl::External(ExternalDecl { citation, title: it.next().map(|s| self.string(s)), span })
            }
            Rule::def_decl => {
                let kind = match first(next(&mut it)).as_rule() {
                    Rule::kw_ruling => DefKind::Ruling,
                    _ => DefKind::Def,
                };
                let name = self.ident(next(&mut it));
                let params = if it.peek().is_some_and(|x| x.as_rule() == Rule::params) {
                    self.params(next(&mut it))
                } else {
                    Vec::new()
                };
                let ty = self.type_expr(next(&mut it));
                let mut doc = None;
                let mut says = None;
                let mut body = None;
                for q in it {
                    match q.as_rule() {
                        Rule::string => doc = Some(self.string(q)),
                        Rule::says_part => says = q.into_inner().next().map(|s| self.string(s)),
                        Rule::assign => {}
                        _ => body = Some(self.expr(q)),
                    }
                }
                Decl::Def(DefDecl { kind, name, params, ty, doc, says, body, span })
            }
            Rule::gloss_decl => {
                it.next();
                it.next();
                let of = self.string(next(&mut it));
                it.next();
                let gloss = self.string(next(&mut it));
                Decl::Gloss(GlossDecl { of, gloss, span })
            }
            Rule::rule_decl => {
                it.next();
                let label = self.ident(next(&mut it));
                let target = self.ident(next(&mut it));
                let args = if it.peek().is_some_and(|x| x.as_rule() == Rule::head_args) {
                    next(&mut it).into_inner().map(|q| self.pattern(q)).collect()
                } else {
                    Vec::new()
                };
                it.next(); // `=`
                let value = self.expr(next(&mut it));
                let mut guard = None;
                let mut overrides = Vec::new();
                for q in it {
                    match q.as_rule() {
                        Rule::guard => guard = q.into_inner().nth(1).map(|e| self.expr(e)),
                        _ => overrides = q.into_inner().skip(1).map(|x| self.ident(x)).collect(),
                    }
                }
                Decl::Rule(RuleDecl { label, target, args, value, guard, overrides, span })
            }
            _ => {
                // table_decl
                it.next();
                let name = self.ident(next(&mut it));
                let params = self.params(next(&mut it));
                let ty = self.type_expr(next(&mut it));
                let doc = if it.peek().is_some_and(|x| x.as_rule() == Rule::string) {
                    Some(self.string(next(&mut it)))
                } else {
                    None
                };
                let policy = match next(&mut it).as_str() {
                    "first" => Policy::First,
                    "collect" => Policy::Collect,
                    _ => Policy::Unique,
                };
                let rows = it
                    .map(|r| {
                        let rspan = self.span(&r);
                        let mut ri = r.into_inner();
                        let keys = next(&mut ri).into_inner().map(|k| self.pattern(k)).collect();
                        ri.next(); // `=>`
                        let value = self.expr(next(&mut ri));
                        Row { keys, value, span: rspan }
                    })
                    .collect();
                Decl::Table(TableDecl { name, params, ty, doc, policy, rows, span })
            }
        }
    }

    fn params(&self, p: P) -> Vec<Param> {
        p.into_inner()
            .map(|q| {
                let mut qi = q.into_inner();
                let name = self.ident(next(&mut qi));
                Param { name, ty: self.type_expr(next(&mut qi)) }
            })
            .collect()
    }

    fn type_expr(&self, p: P) -> TypeExpr {
        let inner = first(p);
        let span = self.span(&inner);
        match inner.as_rule() {
            Rule::list_type => TypeExpr::List(Box::new(self.type_expr(first(inner))), span),
            _ => {
                let mut it = inner.into_inner();
                let name = self.ident(next(&mut it));
                TypeExpr::Named { name, per: it.next().map(|x| self.ident(x)) }
            }
        }
    }

    fn pattern(&self, p: P) -> Pattern {
        let span = self.span(&p);
        let alts = p
            .into_inner()
            .filter(|q| q.as_rule() != Rule::kw_or)
            .map(|q| {
                let qspan = self.span(&q);
                match q.as_rule() {
                    Rule::wildcard => PatternAtom::Wildcard(qspan),
                    Rule::ident => PatternAtom::Name(self.ident(q)),
                    Rule::range_pattern => self.range(q, qspan),
                    _ => PatternAtom::Literal(self.literal(q)),
                }
            })
            .collect();
        Pattern { alts, span }
    }

    fn literal(&self, p: P) -> Literal {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::date => Literal::Date { text: p.as_str().to_string(), span },
            Rule::time => Literal::Time { text: p.as_str().to_string(), span },
            Rule::boolean => Literal::Bool(p.as_str() == "true", span),
            Rule::string => Literal::Text(self.string(p)),
            _ => {
                let mut it = p.into_inner();
                let num = next(&mut it);
                let text = num.as_str().to_string();
                let unit = it.next().map(|u| match u.as_rule() {
                    Rule::percent => UnitExpr::Percent,
                    _ => {
                        let mut ui = u.into_inner();
                        let name = self.ident(next(&mut ui));
                        UnitExpr::Word { name, per: ui.next().map(|x| self.ident(x)) }
                    }
                });
                Literal::Number { text, unit, span }
            }
        }
    }

    /// An expression, or a placeholder once the tree is deeper than [`MAX_EXPR_DEPTH`]
    /// (the first such place is reported).
    fn expr(&self, p: P) -> Expr {
        let span = self.span(&p);
        if self.deeper(1, span) {
            return Expr { kind: ExprKind::Literal(Literal::Bool(false, span)), span };
        }
        let e = self.expr_at(p, span);
        self.depth.set(self.depth.get() - 1);
        e
    }

    /// Adds `levels` to the depth; true (and reported) when that is past the limit,
    /// in which case the depth is left unchanged.
    fn deeper(&self, levels: usize, span: Span) -> bool {
        let d = self.depth.get() + levels;
        if d > MAX_EXPR_DEPTH {
            let mut slot = self.too_deep.borrow_mut();
            if slot.is_none() {
                *slot = Some(
                    Diagnostic::error(
                        "conditions::too_deep",
                        format!("this expression is nested or chained more than {MAX_EXPR_DEPTH} deep"),
                    )
                    .at(span, "too deep here")
                    .help("split it: name parts with `def` or `let`, or use `sum`, `all`, `any` or a table"),
                );
            }
            return true;
        }
        self.depth.set(d);
        false
    }

    fn range(&self, q: P, span: Span) -> PatternAtom {
        let mut lo = None;
        let mut hi = None;
        let mut inclusive = true;
        let mut seen_op = false;
        for part in q.into_inner() {
            match part.as_rule() {
                Rule::range_op => seen_op = true,
                Rule::range_open => {
                    seen_op = true;
                    inclusive = false
                }
                _ if !seen_op => lo = Some(self.literal(part)),
                _ => hi = Some(self.literal(part)),
            }
        }
        let inclusive = inclusive || hi.is_none();
        PatternAtom::Range { lo, hi, inclusive, span }
    }

    /// `in lo..=hi` after a fact's or decision's type, if written.
    fn bound(&self, it: &mut std::iter::Peekable<pest::iterators::Pairs<'_, Rule>>) -> Option<PatternAtom> {
        let b = it.next_if(|x| x.as_rule() == Rule::bound)?;
        let r = b.into_inner().find(|x| x.as_rule() == Rule::range_pattern)?;
        let span = self.span(&r);
        Some(self.range(r, span))
    }

    fn order_keys(&self, p: P) -> Vec<OrderKey> {
        p.into_inner()
            .map(|k| {
                let mut ki = k.into_inner();
                let key = self.expr(next(&mut ki));
                let direction = ki
                    .next()
                    .map(|d| if d.as_str() == "descending" { Direction::Descending } else { Direction::Ascending });
                OrderKey { key, direction }
            })
            .collect()
    }

    fn expr_at(&self, p: P, span: Span) -> Expr {
        match p.as_rule() {
            Rule::expr | Rule::not_expr | Rule::neg_expr | Rule::postfix if p.clone().into_inner().count() == 1 => {
                self.expr(first(p))
            }
            Rule::let_expr => {
                let mut it = p.into_inner();
                it.next();
                let name = self.ident(next(&mut it));
                it.next(); // `=`
                let value = self.expr(next(&mut it));
                it.next(); // `in`
                let body = self.expr(next(&mut it));
                Expr { kind: ExprKind::Let(name, Box::new(value), Box::new(body)), span }
            }
            Rule::if_expr => {
                let parts: Vec<P> = p.into_inner().filter(|q| q.as_rule() == Rule::expr).collect();
                let mut parts = parts.into_iter().map(|q| self.expr(q));
                let c = parts.next().unwrap_or_else(|| unreachable!());
                let t = parts.next().unwrap_or_else(|| unreachable!());
                let e = parts.next().unwrap_or_else(|| unreachable!());
                Expr { kind: ExprKind::If(Box::new(c), Box::new(t), Box::new(e)), span }
            }
            Rule::order_expr => {
                let mut it = p.into_inner();
                let kind = match next(&mut it).as_str() {
                    "sort" => OrderKind::Sort,
                    _ => OrderKind::Rank,
                };
                let item = self.ident(next(&mut it));
                it.next(); // `in`
                let list = self.expr(next(&mut it));
                it.next(); // `by`
                let keys = self.order_keys(next(&mut it));
                let among = it.next().map(|a| {
                    let mut ai = a.into_inner();
                    ai.next(); // `among`
                    let group = self.ident(next(&mut ai));
                    ai.next(); // `by`
                    (group, self.order_keys(next(&mut ai)))
                });
                Expr { kind: ExprKind::Order(Box::new(Order { kind, item, list, keys, among })), span }
            }
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr => self.binary_chain(p),
            Rule::not_expr => {
                let inner = p.into_inner().nth(1).unwrap_or_else(|| unreachable!());
                Expr { kind: ExprKind::Unary(UnaryOp::Not, Box::new(self.expr(inner))), span }
            }
            Rule::neg_expr => {
                let inner = p.into_inner().nth(1).unwrap_or_else(|| unreachable!());
                Expr { kind: ExprKind::Unary(UnaryOp::Neg, Box::new(self.expr(inner))), span }
            }
            Rule::cmp_expr => {
                let mut it = p.into_inner();
                let left = self.expr(next(&mut it));
                let Some(op) = it.next() else { return left };
                let rhs = next(&mut it);
                match op.as_rule() {
                    Rule::cmp_op => {
                        let op = match op.as_str() {
                            "==" => BinaryOp::Eq,
                            "!=" => BinaryOp::Ne,
                            "<=" => BinaryOp::Le,
                            ">=" => BinaryOp::Ge,
                            "<" => BinaryOp::Lt,
                            _ => BinaryOp::Gt,
                        };
                        Expr { kind: ExprKind::Binary(op, Box::new(left), Box::new(self.expr(rhs))), span }
                    }
                    _ => {
                        let plain = rhs.as_rule() == Rule::range_expr && rhs.clone().into_inner().count() == 1;
                        let rhs = if plain { first(rhs) } else { rhs };
                        let coll = if rhs.as_rule() == Rule::range_expr {
                            let mut lo = None;
                            let mut hi = None;
                            let mut inclusive = true;
                            let mut seen_op = false;
                            for part in rhs.into_inner() {
                                match part.as_rule() {
                                    Rule::range_op => seen_op = true,
                                    Rule::range_open => {
                                        seen_op = true;
                                        inclusive = false
                                    }
                                    _ if !seen_op => lo = Some(self.expr(part)),
                                    _ => hi = Some(self.expr(part)),
                                }
                            }
                            let inclusive = inclusive || hi.is_none();
                            Collection::Range { lo, hi, inclusive }
                        } else {
                            Collection::Expr(self.expr(rhs))
                        };
                        Expr { kind: ExprKind::In(Box::new(left), Box::new(coll)), span }
                    }
                }
            }
            Rule::postfix => {
                let mut it = p.into_inner();
                let mut e = self.expr(next(&mut it));
                for f in it {
                    let field = self.ident(f);
                    let s = e.span.to(field.span);
                    e = Expr { kind: ExprKind::Field(Box::new(e), field), span: s };
                }
                e
            }
            Rule::call => {
                let mut it = p.into_inner();
                let func = self.ident(next(&mut it));
                let args = it
                    .map(|a| match a.as_rule() {
                        Rule::lambda => {
                            let mut ai = a.into_inner();
                            let n = self.ident(next(&mut ai));
                            ai.next(); // `=>`
                            Arg::Lambda(n, self.expr(next(&mut ai)))
                        }
                        Rule::named_arg => {
                            let mut ai = a.into_inner();
                            let n = self.ident(next(&mut ai));
                            Arg::Named(n, self.expr(next(&mut ai)))
                        }
                        _ => Arg::Positional(self.expr(a)),
                    })
                    .collect();
                Expr { kind: ExprKind::Call { func, args }, span }
            }
            Rule::list_lit => Expr { kind: ExprKind::List(p.into_inner().map(|q| self.expr(q)).collect()), span },
            Rule::record_lit => {
                let mut it = p.into_inner();
                let ty = self.ident(next(&mut it));
                let fields = it
                    .map(|f| {
                        let mut fi = f.into_inner();
                        let n = self.ident(next(&mut fi));
                        (n, self.expr(next(&mut fi)))
                    })
                    .collect();
                Expr { kind: ExprKind::Record { ty, fields }, span }
            }
            Rule::ident => Expr { kind: ExprKind::Name(self.ident(p)), span },
            _ => Expr { kind: ExprKind::Literal(self.literal(p)), span },
        }
    }

    fn binary_chain(&self, p: P) -> Expr {
        // The tree is left-nested: n operands make it n - 1 levels deeper.
        let span = self.span(&p);
        let levels = p.clone().into_inner().count() / 2;
        if self.deeper(levels, span) {
            return Expr { kind: ExprKind::Literal(Literal::Bool(false, span)), span };
        }
        let e = self.binary_chain_at(p);
        self.depth.set(self.depth.get() - levels);
        e
    }

    fn binary_chain_at(&self, p: P) -> Expr {
        let mut it = p.into_inner();
        let mut left = self.expr(next(&mut it));
        while let Some(op) = it.next() {
            let op = match op.as_str() {
                "or" => BinaryOp::Or,
                "and" => BinaryOp::And,
                "+" => BinaryOp::Add,
                "-" => BinaryOp::Sub,
                "*" => BinaryOp::Mul,
                "div" => BinaryOp::IntDiv,
                "mod" => BinaryOp::Mod,
                _ => BinaryOp::Div,
            };
            let right = self.expr(next(&mut it));
            let span = left.span.to(right.span);
            left = Expr { kind: ExprKind::Binary(op, Box::new(left), Box::new(right)), span };
        }
        left
    }
}

/// The grammar guarantees these children; a missing one is a grammar bug.
fn next<'i>(it: &mut impl Iterator<Item = P<'i>>) -> P<'i> {
    it.next().unwrap_or_else(|| unreachable!("grammar guarantees this child"))
}

fn first(p: P) -> P {
    p.into_inner().next().unwrap_or_else(|| unreachable!("grammar guarantees this child"))
}
