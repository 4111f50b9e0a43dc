//! Printing: [`ast::File`](super::ast::File) → canonical text that parses back to the same tree.
//!
//! This is the base of `conditions fmt`: one layout, two-space indents, long
//! clause texts wrapped at word boundaries inside `"""` strings, long conditions and
//! `let … in` / `if … then … else` values broken over lines within the width.
//!
//! A [`Layout`] read from the original text keeps what the author chose where the
//! canonical form allows a choice: blank lines between a clause's declarations, comments
//! at the end of a line of code, the line breaks of quoted texts, short strings.

use super::ast::*;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// The line width.
pub const WRAP: usize = 96;

/// What the original text says about layout, beyond the tree.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Clause parts (item, part) preceded by a blank line.
    pub blank_before: HashSet<(usize, usize)>,
    /// Top-level declarations preceded by a blank line (clauses always are).
    pub blank_before_item: HashSet<usize>,
    /// Whether the layout was read from a text (else every top-level item stands apart).
    pub read: bool,
    /// Comments (indices into `File::comments`) that end a line of code.
    pub trailing: HashSet<usize>,
    /// Comments followed by a blank line.
    pub blank_after: HashSet<usize>,
    /// The lines of `"""` strings as written (trimmed), by the string's start offset.
    pub lines: HashMap<u32, Vec<String>>,
    /// Strings written in the short `"…"` form, by start offset.
    pub short: HashSet<u32>,
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Whether ` = value` stays on the declaration's line: when it fits, or when the line is
/// already longer than the width (a long description) and the value is one short word.
fn same_line(line_len: usize, value: &str) -> bool {
    if value.contains('\n') {
        return false;
    }
    line_len + 3 + width(value) <= WRAP || (line_len >= WRAP && width(value) <= 12 && !value.contains(' '))
}

pub fn print_file(file: &File) -> String {
    print_file_with(file, &Layout::default())
}

/// Prints a file keeping the author's choices the layout records.
pub fn print_file_with(file: &File, layout: &Layout) -> String {
    let mut p = Printer { out: String::new(), layout: Some(layout), done: HashSet::new() };
    if let Some(sec) = &file.section {
        p.comments(file, CommentAt::BeforeSection, 0);
        match &sec.citation {
            Some(c) => {
                let _ = writeln!(p.out, "section {} {}", sec.name.name, quote(&c.value));
            }
            None => {
                let _ = writeln!(p.out, "section {}", sec.name.name);
            }
        }
        if !file.items.is_empty() {
            p.blank();
        }
    }
    for (i, item) in file.items.iter().enumerate() {
        let apart = |it: &Item| !matches!(it, Item::Decl(_));
        p.trailing(file, CommentAt::BeforeItem(i));
        if i > 0 && (!layout.read || apart(item) || apart(&file.items[i - 1]) || layout.blank_before_item.contains(&i))
        {
            p.blank();
        }
        p.comments(file, CommentAt::BeforeItem(i), 0);
        match item {
            Item::Clause(c) => {
                let _ = writeln!(p.out, "clause {} {{", quote(&c.citation.value));
                for (j, part) in c.parts.iter().enumerate() {
                    p.trailing(file, CommentAt::InClause { item: i, part: j });
                    if j > 0 && layout.blank_before.contains(&(i, j)) {
                        p.blank();
                    }
                    p.comments(file, CommentAt::InClause { item: i, part: j }, 2);
                    p.part(part);
                }
                p.comments(file, CommentAt::InClause { item: i, part: c.parts.len() }, 2);
                p.out.push_str("}\n");
            }
            other => p.item(other),
        }
    }
    let at_end = CommentAt::BeforeItem(file.items.len());
    if !file.items.is_empty()
        && file.comments.iter().enumerate().any(|(k, c)| c.at == at_end && !layout.trailing.contains(&k))
    {
        p.out.push('\n');
    }
    p.comments(file, at_end, 0);
    while p.out.ends_with("\n\n") {
        p.out.pop();
    }
    p.out
}

pub fn print_expr(e: &Expr) -> String {
    let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
    p.expr(e, 0);
    p.out
}

/// A long `and`/`or` chain, one operand a line, the operator leading; a long `let … in`
/// with its body on the next line; a long `if` with `then` and `else` each on a line; a long
/// `sort`/`rank` with its `among … by` on the next line, and keys that do not fit one line
/// each on a line of their own.
fn print_broken(e: &Expr, pad: &str) -> String {
    fn flatten<'e>(e: &'e Expr, op: BinaryOp, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary(o, l, r) if *o == op => {
                flatten(l, op, out);
                out.push(r);
            }
            _ => out.push(e),
        }
    }
    let flat = print_expr(e);
    if width(&flat) + pad.len() <= WRAP {
        return flat;
    }
    match &e.kind {
        ExprKind::Let(n, v, b) => {
            let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
            let _ = write!(p.out, "let {} = ", n.name);
            p.expr(v, 5);
            let _ = write!(p.out, " in\n{pad}{}", print_broken(b, pad));
            p.out
        }
        ExprKind::If(c, t, f) => {
            let inner = format!("{pad}    ");
            let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
            let _ = write!(p.out, "if {}", print_broken(c, &format!("{pad}   ")));
            let _ = write!(p.out, "\n{pad}then {}", print_broken(t, &inner));
            let _ = write!(p.out, "\n{pad}else {}", print_broken(f, &inner));
            p.out
        }
        ExprKind::Order(o) => {
            let keys = |keys: &[OrderKey], head: &str, pad: &str| -> String {
                let shown: Vec<String> = keys
                    .iter()
                    .map(|k| {
                        let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
                        p.order_keys(std::slice::from_ref(k));
                        p.out
                    })
                    .collect();
                let one = format!("{head}{}", shown.join(", "));
                if width(&one) + pad.len() <= WRAP || shown.len() < 2 {
                    one
                } else {
                    format!("{head}{}", shown.join(&format!(",\n{pad}    ")))
                }
            };
            let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
            let kind = match o.kind {
                OrderKind::Sort => "sort",
                OrderKind::Rank => "rank",
            };
            let _ = write!(p.out, "{kind} {} in ", o.item.name);
            p.expr(&o.list, 5);
            let head = format!("{} by ", p.out);
            let mut out = keys(&o.keys, &head, pad);
            if let Some((group, ks)) = &o.among {
                let turn = if o.in_turn { " in turn" } else { "" };
                let among = keys(ks, &format!("among {}{turn} by ", group.name), &format!("{pad}  "));
                let _ = write!(out, "\n{pad}  {among}");
            }
            out
        }
        ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), ..) => {
            let mut parts = Vec::new();
            flatten(e, *op, &mut parts);
            let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    let _ = write!(p.out, "\n{pad}{} ", op.symbol());
                }
                p.expr(part, op.precedence() + 1);
            }
            p.out
        }
        _ => flat,
    }
}

pub fn print_type(t: &TypeExpr) -> String {
    let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
    p.ty(t);
    p.out
}

pub fn print_pattern(pat: &Pattern) -> String {
    let mut p = Printer { out: String::new(), layout: None, done: HashSet::new() };
    p.pattern(pat);
    p.out
}

struct Printer<'l> {
    out: String,
    layout: Option<&'l Layout>,
    /// Trailing comments already printed.
    done: HashSet<usize>,
}

/// A string literal for `s`: escaped short form, or a long `"""` form for prose.
/// ` renamed from old`, or nothing.
fn renamed(from: &Option<Ident>) -> String {
    from.as_ref().map(|i| format!(" renamed from {}", i.name)).unwrap_or_default()
}

pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `s` can be written as a `"""` string and read back unchanged.
fn long_ok(s: &str) -> bool {
    !s.contains("\"\"\"")
        && !s.starts_with('"')
        && !s.ends_with('"')
        && s.split_whitespace().collect::<Vec<_>>().join(" ") == s
}

impl Printer<'_> {
    fn comment(&mut self, text: &str, indent: usize) {
        let _ = writeln!(self.out, "{}//{text}", " ".repeat(indent));
    }

    /// One blank line, never two.
    fn blank(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// The comments that stand at `at`: those that ended a line of code go back to the end
    /// of the line printed last.
    fn comments(&mut self, file: &File, at: CommentAt, indent: usize) {
        self.trailing(file, at);
        let Some(layout) = self.layout else {
            file.comments.iter().filter(|c| c.at == at).for_each(|c| self.comment(&c.text, indent));
            return;
        };
        for (k, c) in file.comments.iter().enumerate().filter(|(_, c)| c.at == at) {
            if layout.trailing.contains(&k) && self.done.contains(&k) {
                continue;
            }
            self.comment(&c.text, indent);
            if layout.blank_after.contains(&k) {
                self.blank();
            }
        }
    }

    /// The comments at `at` that ended a line of code, back at the end of the line
    /// printed last (before any blank line that separates it from what follows).
    fn trailing(&mut self, file: &File, at: CommentAt) {
        let Some(layout) = self.layout else { return };
        for (k, c) in file.comments.iter().enumerate().filter(|(_, c)| c.at == at) {
            if !layout.trailing.contains(&k) || self.out.is_empty() || !self.done.insert(k) {
                continue;
            }
            while self.out.ends_with('\n') {
                self.out.pop();
            }
            let _ = writeln!(self.out, " //{}", c.text);
        }
    }

    fn part(&mut self, part: &ClausePart) {
        match part {
            ClausePart::Heading(s) => self.prose("heading", s, 2),
            ClausePart::Text(s) => self.prose("text", s, 2),
            ClausePart::Excerpt(s) => self.prose("excerpt", s, 2),
            ClausePart::Paraphrase(s) => self.prose("paraphrase", s, 2),
            ClausePart::Gloss(s) => self.prose("gloss", s, 2),
            ClausePart::Informational(s) => self.prose("informational", s, 2),
            ClausePart::Cites(v) => {
                let list: Vec<String> = v.iter().map(|s| quote(&s.value)).collect();
                let _ = writeln!(self.out, "  cites {}", list.join(", "));
            }
            ClausePart::Decl(d) => self.decl(d, 2),
        }
    }

    fn prose(&mut self, keyword: &str, s: &Str, indent: usize) {
        let pad = " ".repeat(indent);
        let start = s.span.start;
        let kept_short = self.layout.is_some_and(|l| l.short.contains(&start))
            && width(&quote(&s.value)) + indent + keyword.len() < WRAP;
        let prose = matches!(keyword, "text" | "excerpt" | "paraphrase" | "gloss") && !kept_short;
        if long_ok(&s.value) && (prose || s.value.contains('"') || width(&s.value) + indent + keyword.len() > WRAP) {
            let _ = writeln!(self.out, "{pad}{keyword} \"\"\"");
            let inner = " ".repeat(indent + 2);
            if let Some(lines) = self.layout.and_then(|l| l.lines.get(&start)) {
                for l in lines {
                    let _ = writeln!(self.out, "{inner}{l}");
                }
                let _ = writeln!(self.out, "{pad}\"\"\"");
                return;
            }
            let mut line = String::new();
            for word in s.value.split(' ') {
                if !line.is_empty() && inner.len() + width(&line) + 1 + width(word) > WRAP {
                    let _ = writeln!(self.out, "{inner}{line}");
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
            }
            if !line.is_empty() {
                let _ = writeln!(self.out, "{inner}{line}");
            }
            let _ = writeln!(self.out, "{pad}\"\"\"");
        } else {
            let _ = writeln!(self.out, "{pad}{keyword} {}", quote(&s.value));
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Rulebook(r) => {
                let _ = writeln!(self.out, "rulebook {} {{", quote(&r.name.value));
                for (k, v) in &r.settings {
                    let _ = writeln!(self.out, "  {} {}", k.name, quote(&v.value));
                }
                self.out.push_str("}\n");
            }
            Item::Clause(c) => {
                let _ = writeln!(self.out, "clause {} {{", quote(&c.citation.value));
                for part in &c.parts {
                    self.part(part);
                }
                self.out.push_str("}\n");
            }
            Item::Decl(d) => self.decl(d, 0),
        }
    }

    fn doc(&mut self, doc: &Option<Str>) {
        if let Some(d) = doc {
            let _ = write!(self.out, " {}", quote(&d.value));
        }
    }

    fn says(&mut self, says: &Option<Str>) {
        if let Some(s) = says {
            let _ = write!(self.out, " says {}", quote(&s.value));
        }
    }

    fn params(&mut self, params: &[Param]) {
        if params.is_empty() {
            return;
        }
        self.out.push('(');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}: ", p.name.name);
            self.ty(&p.ty);
            self.doc(&p.doc);
        }
        self.out.push(')');
    }

    fn decl(&mut self, d: &Decl, indent: usize) {
        let pad = " ".repeat(indent);
        self.out.push_str(&pad);
        match d {
            Decl::Type(t) => {
                let _ = write!(self.out, "type {} = ", t.name.name);
                match &t.body {
                    TypeBody::Enum(vs) => {
                        self.out.push_str("enum {\n");
                        for v in vs {
                            let _ = write!(self.out, "{pad}  {}", v.name.name);
                            self.doc(&v.label);
                            self.out.push_str(",\n");
                        }
                    }
                    TypeBody::Record(fs) => {
                        self.out.push_str("record {\n");
                        for f in fs {
                            let _ = write!(
                                self.out,
                                "{pad}  {}{}{}: ",
                                f.name.name,
                                if f.optional { "?" } else { "" },
                                renamed(&f.renamed_from)
                            );
                            self.ty(&f.ty);
                            self.doc(&f.doc);
                            self.says(&f.says);
                            self.out.push_str(",\n");
                        }
                    }
                }
                let _ = write!(self.out, "{pad}}}");
            }
            Decl::Fact(f) => {
                let _ = write!(self.out, "fact {}{}: ", f.name.name, renamed(&f.renamed_from));
                self.ty(&f.ty);
                self.bound(&f.bound);
                self.doc(&f.doc);
                self.says(&f.says);
            }
            Decl::Decision(dd) => {
                let kw = match dd.kind {
                    DecisionKind::Decision => "decision",
                    DecisionKind::Lot => "lot",
                };
                let _ = write!(self.out, "{kw} {}{}: ", dd.name.name, renamed(&dd.renamed_from));
                self.ty(&dd.ty);
                self.bound(&dd.bound);
                let _ = write!(self.out, " by {}", quote(&dd.by.value));
                self.doc(&dd.doc);
                self.says(&dd.says);
            }
            Decl::External(e) => {
                let _ = write!(self.out, "external {}", quote(&e.citation.value));
                self.doc(&e.title);
            }
            Decl::Def(def) => {
                let kw = match def.kind {
                    DefKind::Ruling => "ruling",
                    DefKind::Def => "def",
                };
                let _ = write!(self.out, "{kw} {}", def.name.name);
                self.params(&def.params);
                self.out.push_str(&renamed(&def.renamed_from));
                self.out.push_str(": ");
                self.ty(&def.ty);
                self.doc(&def.doc);
                self.says(&def.says);
                if let Some(b) = &def.body {
                    let value = print_broken(b, &format!("{pad}    "));
                    let line_len = self.out.lines().last().map_or(0, width);
                    if same_line(line_len, &value) {
                        let _ = write!(self.out, " = {value}");
                    } else {
                        let _ = write!(self.out, " =\n{pad}    {value}");
                    }
                }
            }
            Decl::Rule(r) => {
                let _ = write!(self.out, "rule {}: {}", r.label.name, r.target.name);
                if !r.args.is_empty() {
                    self.out.push('(');
                    for (i, a) in r.args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.pattern(a);
                    }
                    self.out.push(')');
                }
                let value = print_broken(&r.value, &format!("{pad}    "));
                let line_len = self.out.lines().last().map_or(0, width);
                if same_line(line_len, &value) {
                    let _ = write!(self.out, " = {value}");
                } else {
                    let _ = write!(self.out, " =\n{pad}    {value}");
                }
                if let Some(g) = &r.guard {
                    let _ = write!(self.out, "\n{pad}    when {}", print_broken(g, &format!("{pad}        ")));
                }
                if !r.overrides.is_empty() {
                    let names: Vec<&str> = r.overrides.iter().map(|i| i.name.as_str()).collect();
                    let _ = write!(self.out, "\n{pad}    overrides {}", names.join(", "));
                }
            }
            Decl::Table(t) => {
                let _ = write!(self.out, "table {}", t.name.name);
                self.params(&t.params);
                self.out.push_str(": ");
                self.ty(&t.ty);
                self.doc(&t.doc);
                let policy = match t.policy {
                    Policy::Unique => "unique",
                    Policy::First => "first",
                    Policy::Collect => "collect",
                };
                let _ = writeln!(self.out, " pick {policy} {{");
                for row in &t.rows {
                    let _ = write!(self.out, "{pad}  ");
                    if row.keys.len() == 1 {
                        self.pattern(&row.keys[0]);
                    } else {
                        self.out.push('(');
                        for (i, k) in row.keys.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.pattern(k);
                        }
                        self.out.push(')');
                    }
                    self.out.push_str(" => ");
                    self.list_item(&row.value);
                    self.out.push_str(",\n");
                }
                let _ = write!(self.out, "{pad}}}");
            }
            Decl::Gloss(g) => {
                let _ = write!(self.out, "gloss of {} =\n{pad}    {}", quote(&g.of.value), quote(&g.gloss.value));
            }
        }
        self.out.push('\n');
    }

    fn ty(&mut self, t: &TypeExpr) {
        match t {
            TypeExpr::List(inner, _) => {
                self.out.push_str("list of ");
                self.ty(inner);
            }
            TypeExpr::Named { name, per } => {
                self.out.push_str(&name.name);
                if let Some(p) = per {
                    let _ = write!(self.out, " per {}", p.name);
                }
            }
        }
    }

    fn bound(&mut self, b: &Option<PatternAtom>) {
        if let Some(b) = b {
            self.out.push_str(" in ");
            self.pattern(&Pattern { alts: vec![b.clone()], span: Span::default() });
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        for (i, a) in p.alts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(" or ");
            }
            match a {
                PatternAtom::Wildcard(_) => self.out.push('_'),
                PatternAtom::Name(n) => self.out.push_str(&n.name),
                PatternAtom::Literal(l) => self.literal(l),
                PatternAtom::Range { lo, hi, inclusive, .. } => {
                    if let Some(l) = lo {
                        self.literal(l);
                    }
                    match hi {
                        Some(h) => {
                            self.out.push_str(if *inclusive { "..=" } else { ".." });
                            self.literal(h);
                        }
                        None => self.out.push_str(".."),
                    }
                }
            }
        }
    }

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Number { text, unit, .. } => {
                self.out.push_str(text);
                match unit {
                    Some(UnitExpr::Percent) => self.out.push('%'),
                    Some(UnitExpr::Word { name, per }) => {
                        let _ = write!(self.out, " {}", name.name);
                        if let Some(p) = per {
                            let _ = write!(self.out, " per {}", p.name);
                        }
                    }
                    None => {}
                }
            }
            Literal::Text(s) => self.out.push_str(&quote(&s.value)),
            Literal::Bool(b, _) => self.out.push_str(if *b { "true" } else { "false" }),
            Literal::Date { text, .. } | Literal::Time { text, .. } => self.out.push_str(text),
        }
    }

    /// Prints `e`, parenthesised when it binds more loosely than `min_prec` requires.
    fn expr(&mut self, e: &Expr, min_prec: u8) {
        let prec = expr_precedence(e);
        let paren = prec < min_prec;
        if paren {
            self.out.push('(');
        }
        match &e.kind {
            ExprKind::Literal(l) => self.literal(l),
            ExprKind::Name(n) => self.out.push_str(&n.name),
            ExprKind::Field(inner, f) => {
                self.expr(inner, 10);
                let _ = write!(self.out, ".{}", f.name);
            }
            ExprKind::Call { func, args } => {
                let _ = write!(self.out, "{}(", func.name);
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    match a {
                        Arg::Positional(x) => self.list_item(x),
                        Arg::Named(n, x) => {
                            let _ = write!(self.out, "{}: ", n.name);
                            self.list_item(x);
                        }
                        Arg::Lambda(n, x) => {
                            let _ = write!(self.out, "{} => ", n.name);
                            self.list_item(x);
                        }
                    }
                }
                self.out.push(')');
            }
            ExprKind::List(items) => {
                self.out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.list_item(x);
                }
                self.out.push(']');
            }
            ExprKind::Record { ty, fields } => {
                let _ = write!(self.out, "{} {{ ", ty.name);
                for (i, (n, x)) in fields.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    let _ = write!(self.out, "{}: ", n.name);
                    self.list_item(x);
                }
                self.out.push_str(" }");
            }
            ExprKind::Unary(UnaryOp::Not, x) => {
                self.out.push_str("not ");
                self.expr(x, 3);
            }
            ExprKind::Unary(UnaryOp::Neg, x) => {
                self.out.push('-');
                self.expr(x, 7);
            }
            ExprKind::Binary(op, l, r) => {
                let p = op.precedence();
                // Left-associative chains; comparisons do not chain.
                let (lp, rp) = if op.is_comparison() { (p + 1, p + 1) } else { (p, p + 1) };
                self.expr(l, lp);
                let _ = write!(self.out, " {} ", op.symbol());
                self.expr(r, rp);
            }
            ExprKind::In(x, coll) => {
                self.expr(x, 5);
                self.out.push_str(" in ");
                match &**coll {
                    Collection::Range { lo, hi, inclusive } => {
                        if let Some(l) = lo {
                            self.expr(l, 5);
                        }
                        match hi {
                            Some(h) => {
                                self.out.push_str(if *inclusive { "..=" } else { ".." });
                                self.expr(h, 5);
                            }
                            None => self.out.push_str(".."),
                        }
                    }
                    Collection::Expr(c) => self.expr(c, 5),
                }
            }
            ExprKind::If(c, t, f) => {
                self.out.push_str("if ");
                self.expr(c, 0);
                self.out.push_str(" then ");
                self.expr(t, 0);
                self.out.push_str(" else ");
                self.expr(f, 0);
            }
            ExprKind::Let(n, v, b) => {
                let _ = write!(self.out, "let {} = ", n.name);
                // The value is an arithmetic expression; anything looser is parenthesised.
                self.expr(v, 5);
                self.out.push_str(" in ");
                self.expr(b, 0);
            }
            ExprKind::Order(o) => {
                self.out.push_str(match o.kind {
                    OrderKind::Sort => "sort ",
                    OrderKind::Rank => "rank ",
                });
                let _ = write!(self.out, "{} in ", o.item.name);
                self.expr(&o.list, 5);
                self.out.push_str(" by ");
                self.order_keys(&o.keys);
                if let Some((group, keys)) = &o.among {
                    let turn = if o.in_turn { " in turn" } else { "" };
                    let _ = write!(self.out, " among {}{turn} by ", group.name);
                    self.order_keys(keys);
                }
            }
        }
        if paren {
            self.out.push(')');
        }
    }

    fn order_keys(&mut self, keys: &[OrderKey]) {
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(&k.key, 5);
            match k.direction {
                Some(Direction::Ascending) => self.out.push_str(" ascending"),
                Some(Direction::Descending) => self.out.push_str(" descending"),
                None => {}
            }
        }
    }

    /// An item of a comma-separated list (arguments, list items, fields): an ordering at its
    /// end would take the following commas as its keys, so it is parenthesised.
    fn list_item(&mut self, x: &Expr) {
        self.expr(x, if ends_in_order(x) { 1 } else { 0 });
    }
}

/// Whether an expression ends in an ordering's keys (which run on over commas).
fn ends_in_order(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Order(_) => true,
        ExprKind::If(_, _, f) => ends_in_order(f),
        ExprKind::Let(_, _, b) => ends_in_order(b),
        _ => false,
    }
}

fn expr_precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Let(..) | ExprKind::If(..) | ExprKind::Order(_) => 0,
        ExprKind::Binary(op, ..) => op.precedence(),
        ExprKind::Unary(UnaryOp::Not, _) => 3,
        ExprKind::In(..) => 4,
        ExprKind::Unary(UnaryOp::Neg, _) => 7,
        _ => 10,
    }
}
