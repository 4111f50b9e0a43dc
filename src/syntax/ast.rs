//! The typed syntax tree of a condition file, as written.
//!
//! Every node carries its [`Span`]. Spans are metadata: two nodes compare
//! equal when their content is equal, wherever they stand, so that a file
//! printed and parsed again can be compared with the original.

/// Spans and file indices belong to the source files, below the syntax; every node here
/// carries one.
pub use crate::source::{FileId, Span};

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A string literal's value (escapes resolved, long strings' white space folded).
#[derive(Clone, Debug, PartialEq)]
pub struct Str {
    pub value: String,
    pub span: Span,
}

/// One parsed `.cond` file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    /// `section art4 "Article 4"` at the head of the file: the section its names belong to.
    pub section: Option<SectionDecl>,
    pub items: Vec<Item>,
    /// Comments, kept for the formatter, each attached to a place between items or parts.
    pub comments: Vec<Comment>,
}

/// `section art4 "Article 4"`: the file's names are `art4.…` outside it; the clause heading it.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionDecl {
    pub name: Ident,
    pub citation: Option<Str>,
    pub span: Span,
}

/// A `//` comment (its text after `//`) and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub text: String,
    pub at: CommentAt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentAt {
    /// Before the file's `section` line.
    BeforeSection,
    /// Before top-level item `n` (`n` = number of items: at the end of the file).
    BeforeItem(usize),
    /// Inside clause `item`, before part `part` (`part` = number of parts: before the `}`).
    InClause { item: usize, part: usize },
}

// Most items are declarations, so boxing them would add an allocation each to save
// nothing; the tree is built once per file.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Rulebook(RulebookDecl),
    Clause(Clause),
    Decl(Decl),
}

/// `rulebook "gnt" { title "…" language "en" source "source.txt" }`
#[derive(Clone, Debug, PartialEq)]
pub struct RulebookDecl {
    pub name: Str,
    pub settings: Vec<(Ident, Str)>,
    pub span: Span,
}

/// `clause "§ 12B1" { heading … text … gloss … declarations … }`
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub citation: Str,
    pub parts: Vec<ClausePart>,
    pub span: Span,
}

// As for `Item`: a clause's parts are mostly declarations.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ClausePart {
    Heading(Str),
    Text(Str),
    /// Parts of a printed paragraph, in order, joined by "…".
    Excerpt(Str),
    /// The clause's content in other words, when its printed text is not at hand.
    Paraphrase(Str),
    Gloss(Str),
    Informational(Str),
    Cites(Vec<Str>),
    Decl(Decl),
}

impl ClausePart {
    pub fn span(&self) -> Span {
        match self {
            ClausePart::Heading(s)
            | ClausePart::Text(s)
            | ClausePart::Excerpt(s)
            | ClausePart::Paraphrase(s)
            | ClausePart::Gloss(s)
            | ClausePart::Informational(s) => s.span,
            ClausePart::Cites(v) => v.first().map_or(Span::default(), |s| s.span),
            ClausePart::Decl(d) => d.span(),
        }
    }
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Rulebook(r) => r.span,
            Item::Clause(c) => c.span,
            Item::Decl(d) => d.span(),
        }
    }
}

impl Clause {
    fn find(&self, pick: impl Fn(&ClausePart) -> Option<&Str>) -> Option<&Str> {
        self.parts.iter().find_map(pick)
    }
    pub fn heading(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Heading(s) = p { Some(s) } else { None })
    }
    pub fn text(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Text(s) = p { Some(s) } else { None })
    }
    pub fn excerpt(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Excerpt(s) = p { Some(s) } else { None })
    }
    pub fn paraphrase(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Paraphrase(s) = p { Some(s) } else { None })
    }
    pub fn gloss(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Gloss(s) = p { Some(s) } else { None })
    }
    pub fn informational(&self) -> Option<&Str> {
        self.find(|p| if let ClausePart::Informational(s) = p { Some(s) } else { None })
    }
    pub fn cites(&self) -> impl Iterator<Item = &Str> {
        self.parts.iter().flat_map(|p| match p {
            ClausePart::Cites(v) => v.as_slice(),
            _ => &[],
        })
    }
    pub fn decls(&self) -> impl Iterator<Item = &Decl> {
        self.parts.iter().filter_map(|p| if let ClausePart::Decl(d) = p { Some(d) } else { None })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Type(TypeDecl),
    Fact(FactDecl),
    Decision(DecisionDecl),
    External(ExternalDecl),
    Def(DefDecl),
    Rule(RuleDecl),
    Table(TableDecl),
    Gloss(GlossDecl),
}

impl Decl {
    pub fn span(&self) -> Span {
        match self {
            Decl::Type(d) => d.span,
            Decl::Fact(d) => d.span,
            Decl::Decision(d) => d.span,
            Decl::External(d) => d.span,
            Decl::Def(d) => d.span,
            Decl::Rule(d) => d.span,
            Decl::Table(d) => d.span,
            Decl::Gloss(d) => d.span,
        }
    }
}

/// `type Flight = enum { … }` or `type Player = record { … }`
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub name: Ident,
    pub body: TypeBody,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeBody {
    Enum(Vec<Variant>),
    Record(Vec<Field>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub name: Ident,
    pub label: Option<Str>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: Ident,
    pub optional: bool,
    /// `renamed from old`: the name it had in the previous version (read by `conditions diff`).
    pub renamed_from: Option<Ident>,
    pub ty: TypeExpr,
    pub doc: Option<Str>,
    /// `says "…"`: the short phrase naming the field in an explanation.
    pub says: Option<Str>,
}

/// A type as written: `int`, `list of Player`, `DKK per km`.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    List(Box<TypeExpr>, Span),
    Named { name: Ident, per: Option<Ident> },
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::List(_, s) => *s,
            TypeExpr::Named { name, per } => per.as_ref().map_or(name.span, |p| name.span.to(p.span)),
        }
    }
}

/// `fact player: Player "the player asking"`
#[derive(Clone, Debug, PartialEq)]
pub struct FactDecl {
    pub name: Ident,
    /// `renamed from old`: the name it had in the previous version (read by `conditions diff`).
    pub renamed_from: Option<Ident>,
    pub ty: TypeExpr,
    /// `in 0..`: the values the fact may take (a [`PatternAtom::Range`]), checked on input.
    pub bound: Option<PatternAtom>,
    pub doc: Option<Str>,
    /// `says "…"`: the short phrase naming the fact in an explanation.
    pub says: Option<Str>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    /// A human decision: `decision approves: bool by "the Tournament Director"`.
    Decision,
    /// A draw of lot: `lot home_team: text by "turneringsarrangøren"`.
    Lot,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DecisionDecl {
    pub kind: DecisionKind,
    pub name: Ident,
    /// `renamed from old`: the name it had in the previous version (read by `conditions diff`).
    pub renamed_from: Option<Ident>,
    pub ty: TypeExpr,
    /// `in 0..=1`: the values the decision may take (a [`PatternAtom::Range`]), checked on input.
    pub bound: Option<PatternAtom>,
    pub by: Str,
    pub doc: Option<Str>,
    /// `says "…"`: the short phrase naming the decision in an explanation.
    pub says: Option<Str>,
    pub span: Span,
}

/// `external "§ 242" "Anvendelse af substitutter"`
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalDecl {
    pub citation: Str,
    pub title: Option<Str>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// A question a director can ask: `ruling qualifiers: list of Team`.
    Ruling,
    /// An intermediate value: `def own_share: DKK = 200 km * rate`.
    Def,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    /// What the parameter stands for, as a sentence names it (`"the team's own imps"`).
    pub doc: Option<Str>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DefDecl {
    pub kind: DefKind,
    pub name: Ident,
    pub params: Vec<Param>,
    /// `renamed from old`: the name it had in the previous version (read by `conditions diff`).
    pub renamed_from: Option<Ident>,
    pub ty: TypeExpr,
    pub doc: Option<Str>,
    /// `says "…"`: the phrase naming this step in an explanation.
    pub says: Option<Str>,
    /// `= expr`: shorthand for one unconditional rule labelled by the name.
    pub body: Option<Expr>,
    pub span: Span,
}

/// `gloss of "den faste s304.kilometersats" = "the fixed rate per kilometre"`
#[derive(Clone, Debug, PartialEq)]
pub struct GlossDecl {
    pub of: Str,
    pub gloss: Str,
    pub span: Span,
}

/// `rule flight_b: eligible(B) = player.mp < 2000 when … overrides …`
#[derive(Clone, Debug, PartialEq)]
pub struct RuleDecl {
    pub label: Ident,
    pub target: Ident,
    pub args: Vec<Pattern>,
    pub value: Expr,
    pub guard: Option<Expr>,
    pub overrides: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Exactly one row matches.
    Unique,
    /// The first matching row wins.
    First,
    /// The values of every matching row, as a list.
    Collect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub ty: TypeExpr,
    pub doc: Option<Str>,
    pub policy: Policy,
    pub rows: Vec<Row>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub keys: Vec<Pattern>,
    pub value: Expr,
    pub span: Span,
}

/// A pattern in a rule head or table row: alternatives joined by `or`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub alts: Vec<PatternAtom>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PatternAtom {
    Wildcard(Span),
    /// An enum variant, or (in rule heads) a name bound to the argument.
    Name(Ident),
    Literal(Literal),
    Range {
        lo: Option<Literal>,
        hi: Option<Literal>,
        inclusive: bool,
        span: Span,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// The digits as written (`2.50`); read exactly by the checker.
    Number {
        text: String,
        unit: Option<UnitExpr>,
        span: Span,
    },
    Text(Str),
    Bool(bool, Span),
    Date {
        text: String,
        span: Span,
    },
    /// `18:15`, as written.
    Time {
        text: String,
        span: Span,
    },
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Number { span, .. }
            | Literal::Bool(_, span)
            | Literal::Date { span, .. }
            | Literal::Time { span, .. } => *span,
            Literal::Text(s) => s.span,
        }
    }
}

/// The unit after a number: `%`, `USD`, `km`, `days`, `DKK per km`.
#[derive(Clone, Debug, PartialEq)]
pub enum UnitExpr {
    Percent,
    Word { name: Ident, per: Option<Ident> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Literal(Literal),
    Name(Ident),
    Field(Box<Expr>, Ident),
    Call {
        func: Ident,
        args: Vec<Arg>,
    },
    List(Vec<Expr>),
    Record {
        ty: Ident,
        fields: Vec<(Ident, Expr)>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    In(Box<Expr>, Box<Collection>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(Ident, Box<Expr>, Box<Expr>),
    /// `sort t in teams by …` or `rank t in teams by … among tied by …`.
    Order(Box<Order>),
}

/// An ordering of a list by keys: `rank t in teams by total_vp(t) descending among tied by
/// vp_among(t, tied) descending, imp_difference(t) descending`.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// `rank` (the tied groups, best first) or `sort` (the items, in order).
    pub kind: OrderKind,
    /// The name each item goes by in the keys.
    pub item: Ident,
    pub list: Expr,
    /// Keys compared in turn; items equal on every key stay tied (in their order in the list).
    pub keys: Vec<OrderKey>,
    /// The tie-break among a tied group: the group's name and its keys, which may read it.
    /// Whenever a key separates the group, each smaller tied group starts again from the
    /// first key, among itself (unless `in_turn`).
    pub among: Option<(Ident, Vec<OrderKey>)>,
    /// `among tied in turn by …`: the tie-break keys apply in turn, each to the items still
    /// tied when it is reached; a smaller tied group goes on with the next key rather than
    /// starting again from the first.
    pub in_turn: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKind {
    Sort,
    Rank,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrderKey {
    pub key: Expr,
    /// `ascending` or `descending` as written (ascending when not written).
    pub direction: Option<Direction>,
}

impl OrderKey {
    pub fn descending(&self) -> bool {
        self.direction == Some(Direction::Descending)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Ascending,
    Descending,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Collection {
    Range { lo: Option<Expr>, hi: Option<Expr>, inclusive: bool },
    Expr(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Positional(Expr),
    Named(Ident, Expr),
    Lambda(Ident, Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    /// `a div b`: how many whole times `b` goes into `a` (rounded down).
    IntDiv,
    /// `a mod b`: what is left of `a` once `b` has gone into it `a div b` times.
    Mod,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::IntDiv => "div",
            BinaryOp::Mod => "mod",
        }
    }
    /// Binding strength; higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::IntDiv | BinaryOp::Mod => 6,
        }
    }
    pub fn is_comparison(self) -> bool {
        self.precedence() == 4
    }
}
