//! Building the syntax tree from pest's pairs: one method per grammar rule, spans on
//! every node, the expression depth guarded, strings unescaped.

use super::{MAX_EXPR_DEPTH, P, Rule};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::*;
use std::cell::{Cell, RefCell};

pub(super) struct Builder<'t> {
    pub(super) file: FileId,
    pub(super) text: &'t str,
    /// Depth of the expression tree being built, and the first place it went too deep.
    pub(super) depth: Cell<usize>,
    pub(super) too_deep: RefCell<Option<Diagnostic>>,
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
    pub(super) fn span(&self, p: &P) -> Span {
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

    pub(super) fn ident(&self, p: P) -> Ident {
        Ident { name: p.as_str().to_string(), span: self.span(&p) }
    }

    pub(super) fn string(&self, p: P) -> Str {
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

    pub(super) fn item(&self, p: P) -> Item {
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
                                let renamed_from = self.renamed_from(&mut fi);
                                let ty = self.type_expr(next(&mut fi));
                                let (doc, says) = self.doc_says(fi);
                                Field { name, optional, renamed_from, ty, doc, says }
                            })
                            .collect(),
                    )
                };
                Decl::Type(TypeDecl { name, body, span })
            }
            Rule::fact_decl => {
                it.next();
                let name = self.ident(next(&mut it));
                let renamed_from = self.renamed_from(&mut it);
                let ty = self.type_expr(next(&mut it));
                let bound = self.bound(&mut it);
                let (doc, says) = self.doc_says(it);
                Decl::Fact(FactDecl { name, renamed_from, ty, bound, doc, says, span })
            }
            Rule::decision_decl => {
                let kind = match first(next(&mut it)).as_rule() {
                    Rule::kw_lot => DecisionKind::Lot,
                    _ => DecisionKind::Decision,
                };
                let name = self.ident(next(&mut it));
                let renamed_from = self.renamed_from(&mut it);
                let ty = self.type_expr(next(&mut it));
                let bound = self.bound(&mut it);
                let by = self.string(next(&mut it));
                let (doc, says) = self.doc_says(it);
                Decl::Decision(DecisionDecl { kind, name, renamed_from, ty, bound, by, doc, says, span })
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
                let renamed_from = self.renamed_from(&mut it);
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
                Decl::Def(DefDecl { kind, name, params, renamed_from, ty, doc, says, body, span })
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
                let ty = self.type_expr(next(&mut qi));
                Param { name, ty, doc: qi.next().map(|s| self.string(s)) }
            })
            .collect()
    }

    /// `renamed from old`, when it comes next: the old name.
    fn renamed_from(&self, it: &mut std::iter::Peekable<pest::iterators::Pairs<'_, Rule>>) -> Option<Ident> {
        let r = it.next_if(|x| x.as_rule() == Rule::renamed_part)?;
        r.into_inner().find(|x| x.as_rule() == Rule::ident).map(|x| self.ident(x))
    }

    /// The optional description and `says` phrase that end a fact, decision or field.
    fn doc_says<'i>(&self, rest: impl Iterator<Item = P<'i>>) -> (Option<Str>, Option<Str>) {
        let (mut doc, mut says) = (None, None);
        for q in rest {
            match q.as_rule() {
                Rule::says_part => says = q.into_inner().next().map(|s| self.string(s)),
                _ => doc = Some(self.string(q)),
            }
        }
        (doc, says)
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
                let mut in_turn = false;
                let among = it.next().map(|a| {
                    let mut ai = a.into_inner();
                    ai.next(); // `among`
                    let group = self.ident(next(&mut ai));
                    if ai.next().is_some_and(|q| q.as_rule() == Rule::in_turn) {
                        in_turn = true;
                        ai.next(); // `by`
                    }
                    (group, self.order_keys(next(&mut ai)))
                });
                Expr { kind: ExprKind::Order(Box::new(Order { kind, item, list, keys, among, in_turn })), span }
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
