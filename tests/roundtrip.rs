//! Property: printing any syntax tree and parsing it back gives the same tree
//! (spans aside). The printer is the base of `conditions fmt`.

use conditions::syntax::ast::*;
use conditions::syntax::{parse_file, print_file};
use proptest::prelude::*;
use rust_decimal::Decimal;

const KEYWORDS: &[&str] = &[
    "by",
    "among",
    "div",
    "mod",
    "ascending",
    "descending",
    "and",
    "or",
    "not",
    "in",
    "if",
    "then",
    "else",
    "let",
    "when",
    "overrides",
    "true",
    "false",
    "rule",
    "def",
    "ruling",
    "fact",
    "decision",
    "lot",
    "type",
    "table",
    "external",
    "clause",
    "per",
    "list",
    "of",
];

fn sp() -> Span {
    Span::default()
}

fn ident() -> impl Strategy<Value = Ident> {
    "[a-zæøå][a-z0-9_æøå]{0,8}"
        .prop_filter("not a keyword", |s| !KEYWORDS.contains(&s.as_str()))
        .prop_map(|name| Ident { name, span: sp() })
}

fn type_name() -> impl Strategy<Value = Ident> {
    "[A-Z][a-zA-Z]{0,6}".prop_map(|name| Ident { name, span: sp() })
}

fn short_text() -> impl Strategy<Value = Str> {
    "[ -~æøåÆØÅ«»–\\\\\"\t\n]{0,20}".prop_map(|value| Str { value, span: sp() })
}

/// Prose as a `"""` string holds it: white space folded.
fn prose() -> impl Strategy<Value = Str> {
    "[ -~æøå«»–]{1,200}"
        .prop_map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .prop_filter("not empty", |s| !s.is_empty())
        .prop_map(|value| Str { value, span: sp() })
}

fn unit() -> impl Strategy<Value = Option<UnitExpr>> {
    prop_oneof![
        Just(None),
        Just(Some(UnitExpr::Percent)),
        prop::sample::select(vec!["km", "USD", "DKK", "days", "hours", "weeks", "minutes"])
            .prop_map(|u| Some(UnitExpr::Word { name: Ident { name: u.into(), span: sp() }, per: None })),
        Just(Some(UnitExpr::Word {
            name: Ident { name: "DKK".into(), span: sp() },
            per: Some(Ident { name: "km".into(), span: sp() })
        })),
    ]
}

fn literal() -> impl Strategy<Value = Literal> {
    prop_oneof![
        (0i64..1_000_000, 0u32..4, unit()).prop_map(|(n, scale, unit)| Literal::Number {
            text: Decimal::new(n, scale).to_string(),
            unit,
            span: sp()
        }),
        short_text().prop_map(Literal::Text),
        any::<bool>().prop_map(|b| Literal::Bool(b, sp())),
        (1900u32..2100, 1u32..13, 1u32..29)
            .prop_map(|(y, m, d)| Literal::Date { text: format!("{y:04}-{m:02}-{d:02}"), span: sp() }),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![literal().prop_map(ExprKind::Literal), ident().prop_map(ExprKind::Name),]
        .prop_map(|kind| Expr { kind, span: sp() });
    leaf.prop_recursive(4, 40, 4, |inner| {
        let ops = prop::sample::select(vec![
            BinaryOp::Or,
            BinaryOp::And,
            BinaryOp::Eq,
            BinaryOp::Ne,
            BinaryOp::Lt,
            BinaryOp::Le,
            BinaryOp::Gt,
            BinaryOp::Ge,
            BinaryOp::Add,
            BinaryOp::Sub,
            BinaryOp::Mul,
            BinaryOp::Div,
            BinaryOp::IntDiv,
            BinaryOp::Mod,
        ]);
        let arg = prop_oneof![
            inner.clone().prop_map(Arg::Positional),
            (ident(), inner.clone()).prop_map(|(n, e)| Arg::Named(n, e)),
            (ident(), inner.clone()).prop_map(|(n, e)| Arg::Lambda(n, e)),
        ];
        prop_oneof![
            (inner.clone(), ident()).prop_map(|(e, f)| ExprKind::Field(Box::new(e), f)),
            (ident(), prop::collection::vec(arg, 0..3)).prop_map(|(func, args)| ExprKind::Call { func, args }),
            prop::collection::vec(inner.clone(), 0..3).prop_map(ExprKind::List),
            (type_name(), prop::collection::vec((ident(), inner.clone()), 0..3))
                .prop_map(|(ty, fields)| ExprKind::Record { ty, fields }),
            inner.clone().prop_map(|e| ExprKind::Unary(UnaryOp::Not, Box::new(e))),
            inner.clone().prop_map(|e| ExprKind::Unary(UnaryOp::Neg, Box::new(e))),
            (ops, inner.clone(), inner.clone()).prop_map(|(op, a, b)| ExprKind::Binary(op, Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| ExprKind::In(Box::new(a), Box::new(Collection::Expr(b)))),
            (inner.clone(), prop::option::of(inner.clone()), prop::option::of(inner.clone()))
                .prop_filter("a range has a bound", |(_, lo, hi)| lo.is_some() || hi.is_some())
                .prop_map(|(x, lo, hi)| ExprKind::In(
                    Box::new(x),
                    Box::new(Collection::Range { lo, hi, inclusive: true })
                )),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, t, e)| ExprKind::If(
                Box::new(c),
                Box::new(t),
                Box::new(e)
            )),
            (ident(), inner.clone(), inner.clone()).prop_map(|(n, v, b)| ExprKind::Let(n, Box::new(v), Box::new(b))),
            (
                any::<bool>(),
                ident(),
                inner.clone(),
                prop::collection::vec(order_key(inner.clone()), 1..3),
                prop::option::of((ident(), prop::collection::vec(order_key(inner.clone()), 1..3), any::<bool>())),
            )
                .prop_map(|(sort, item, list, keys, among)| ExprKind::Order(Box::new(Order {
                    kind: if sort { OrderKind::Sort } else { OrderKind::Rank },
                    item,
                    list,
                    keys,
                    in_turn: among.as_ref().is_some_and(|a| a.2),
                    among: among.map(|(g, ks, _)| (g, ks)),
                }))),
        ]
        .prop_map(|kind| Expr { kind, span: sp() })
    })
}

fn order_key(inner: impl Strategy<Value = Expr> + Clone) -> impl Strategy<Value = OrderKey> {
    let direction = prop_oneof![Just(None), Just(Some(Direction::Ascending)), Just(Some(Direction::Descending))];
    (inner, direction).prop_map(|(key, direction)| OrderKey { key, direction })
}

fn type_expr() -> impl Strategy<Value = TypeExpr> {
    let named = prop_oneof![
        type_name().prop_map(|name| TypeExpr::Named { name, per: None }),
        Just(TypeExpr::Named {
            name: Ident { name: "DKK".into(), span: sp() },
            per: Some(Ident { name: "km".into(), span: sp() })
        }),
    ];
    named.prop_recursive(2, 4, 1, |inner| inner.prop_map(|t| TypeExpr::List(Box::new(t), sp())))
}

fn range() -> impl Strategy<Value = PatternAtom> {
    (prop::option::of(literal()), prop::option::of(literal()))
        .prop_filter("a range has a bound", |(lo, hi)| lo.is_some() || hi.is_some())
        .prop_map(|(lo, hi)| PatternAtom::Range { lo, hi, inclusive: true, span: sp() })
}

fn pattern() -> impl Strategy<Value = Pattern> {
    let atom = prop_oneof![
        Just(PatternAtom::Wildcard(sp())),
        ident().prop_map(PatternAtom::Name),
        literal().prop_map(PatternAtom::Literal),
        (prop::option::of(literal()), prop::option::of(literal()))
            .prop_filter("a range has a bound", |(lo, hi)| lo.is_some() || hi.is_some())
            .prop_map(|(lo, hi)| PatternAtom::Range { lo, hi, inclusive: true, span: sp() }),
    ];
    prop::collection::vec(atom, 1..3).prop_map(|alts| Pattern { alts, span: sp() })
}

fn param() -> impl Strategy<Value = Param> {
    (ident(), type_expr(), prop::option::of(short_text())).prop_map(|(name, ty, doc)| Param { name, ty, doc })
}

fn decl() -> impl Strategy<Value = Decl> {
    let doc = || prop::option::of(short_text());
    prop_oneof![
        (type_name(), prop::collection::vec((type_name(), doc()), 1..4)).prop_map(|(name, vs)| Decl::Type(TypeDecl {
            name,
            body: TypeBody::Enum(vs.into_iter().map(|(name, label)| Variant { name, label }).collect()),
            span: sp()
        })),
        (
            type_name(),
            prop::collection::vec((ident(), any::<bool>(), prop::option::of(ident()), type_expr(), doc(), doc()), 1..4)
        )
            .prop_map(|(name, fs)| {
                Decl::Type(TypeDecl {
                    name,
                    body: TypeBody::Record(
                        fs.into_iter()
                            .map(|(name, optional, renamed_from, ty, doc, says)| Field {
                                name,
                                optional,
                                renamed_from,
                                ty,
                                doc,
                                says,
                            })
                            .collect(),
                    ),
                    span: sp(),
                })
            }),
        (ident(), prop::option::of(ident()), type_expr(), prop::option::of(range()), doc(), doc()).prop_map(
            |(name, renamed_from, ty, bound, doc, says)| Decl::Fact(FactDecl {
                name,
                renamed_from,
                ty,
                bound,
                doc,
                says,
                span: sp()
            })
        ),
        (
            any::<bool>(),
            ident(),
            prop::option::of(ident()),
            type_expr(),
            prop::option::of(range()),
            short_text(),
            doc(),
            doc()
        )
            .prop_map(|(lot, name, renamed_from, ty, bound, by, doc, says)| Decl::Decision(DecisionDecl {
                kind: if lot { DecisionKind::Lot } else { DecisionKind::Decision },
                name,
                renamed_from,
                ty,
                bound,
                by,
                doc,
                says,
                span: sp(),
            })),
        (short_text(), short_text()).prop_map(|(of, gloss)| Decl::Gloss(GlossDecl { of, gloss, span: sp() })),
        (short_text(), doc()).prop_map(|(citation, title)| Decl::External(ExternalDecl {
            citation,
            title,
            span: sp()
        })),
        (
            any::<bool>(),
            ident(),
            prop::collection::vec(param(), 0..3),
            prop::option::of(ident()),
            type_expr(),
            doc(),
            doc(),
            prop::option::of(expr())
        )
            .prop_map(|(ruling, name, params, renamed_from, ty, doc, says, body)| Decl::Def(DefDecl {
                kind: if ruling { DefKind::Ruling } else { DefKind::Def },
                name,
                params,
                renamed_from,
                ty,
                doc,
                says,
                body,
                span: sp()
            })),
        (
            ident(),
            ident(),
            prop::collection::vec(pattern(), 0..3),
            expr(),
            prop::option::of(expr()),
            prop::collection::vec(ident(), 0..3)
        )
            .prop_map(|(label, target, args, value, guard, overrides)| Decl::Rule(RuleDecl {
                label,
                target,
                args,
                value,
                guard,
                overrides,
                span: sp()
            })),
        (
            ident(),
            prop::collection::vec(param(), 1..3),
            type_expr(),
            doc(),
            prop::sample::select(vec![Policy::Unique, Policy::First, Policy::Collect]),
            prop::collection::vec((prop::collection::vec(pattern(), 1..3), expr()), 1..4)
        )
            .prop_map(|(name, params, ty, doc, policy, rows)| Decl::Table(TableDecl {
                name,
                params,
                ty,
                doc,
                policy,
                rows: rows.into_iter().map(|(keys, value)| Row { keys, value, span: sp() }).collect(),
                span: sp()
            })),
    ]
}

fn clause_part() -> impl Strategy<Value = ClausePart> {
    prop_oneof![
        prose().prop_map(ClausePart::Heading),
        prose().prop_map(ClausePart::Text),
        prose().prop_map(ClausePart::Gloss),
        short_text().prop_map(ClausePart::Informational),
        prop::collection::vec(short_text(), 1..3).prop_map(ClausePart::Cites),
        decl().prop_map(ClausePart::Decl),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        (short_text(), prop::collection::vec((ident(), short_text()), 0..3))
            .prop_map(|(name, settings)| Item::Rulebook(RulebookDecl { name, settings, span: sp() })),
        (short_text(), prop::collection::vec(clause_part(), 0..5)).prop_map(|(citation, parts)| Item::Clause(Clause {
            citation,
            parts,
            span: sp()
        })),
        decl().prop_map(Item::Decl),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn print_then_parse_is_identity(items in prop::collection::vec(item(), 0..5)) {
        let file = File { section: None, items, comments: Vec::new() };
        let text = print_file(&file);
        let parsed = parse_file(&text, 0);
        prop_assert!(parsed.is_ok(), "printed text does not parse: {:?}\n---\n{}", parsed.err().map(|d| d.message), text);
        prop_assert_eq!(parsed.ok(), Some(file), "\n---\n{}", text);
    }
}

#[test]
fn bundled_rulebooks_print_and_parse_back() {
    for name in conditions::loader::bundled_names() {
        let sources = conditions::loader::bundled(name).expect("bundled");
        for (id, f) in sources.files() {
            let ast = parse_file(&f.text, id).expect("bundled files parse");
            let again = parse_file(&print_file(&ast), id).expect("printed files parse");
            assert_eq!(ast, again, "{}", f.name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Formatting is idempotent and keeps the tree, on generated files.
    #[test]
    fn fmt_is_idempotent(items in prop::collection::vec(item(), 0..5)) {
        let text = print_file(&File { section: None, items, comments: Vec::new() });
        let once = conditions::format::format_text(&text);
        prop_assert!(once.is_ok(), "{:?}", once.err());
        let once = once.unwrap_or_default();
        let twice = conditions::format::format_text(&once).unwrap_or_default();
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(parse_file(&once, 0).ok(), parse_file(&text, 0).ok());
    }
}

#[test]
fn fmt_keeps_comments_and_is_idempotent_on_the_bundled_rulebooks() {
    for name in conditions::loader::bundled_names() {
        let sources = conditions::loader::bundled(name).expect("bundled");
        for (_, f) in sources.files() {
            let once = conditions::format::format_text(&f.text).expect("formats");
            let twice = conditions::format::format_text(&once).expect("formats again");
            assert_eq!(once, twice, "{} is not stable under fmt", f.name);
            let comments_before = f.text.lines().filter(|l| l.trim_start().starts_with("//")).count();
            let comments_after = once.lines().filter(|l| l.trim_start().starts_with("//")).count();
            assert!(comments_after >= comments_before, "{} lost comments", f.name);
        }
    }
}
