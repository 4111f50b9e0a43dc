//! The checked program: every name resolved to an index, every expression typed
//! and lowered to [`Ir`]. This is what the evaluator runs and the explainer cites.

use super::types::Type;
use crate::base::value::Value;
use crate::syntax::ast::{BinaryOp, DecisionKind, DefKind, Policy, Span};
use indexmap::IndexMap;

pub type ClauseId = u32;
pub type TypeId = u32;
pub type FactId = u32;
pub type DecisionId = u32;
pub type DefId = u32;
pub type RuleId = u32;

#[derive(Clone, Debug, Default)]
pub struct RulebookInfo {
    pub name: String,
    pub title: String,
    pub edition: Option<String>,
    /// The language of the clause texts: a BCP-47 tag in canonical case (`da`, `sv`, `nb-NO`).
    pub language: String,
    /// The published document, relative to the rulebook folder.
    pub source: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ClauseInfo {
    pub citation: String,
    pub heading: Option<String>,
    /// The clause's text: as printed, an excerpt of it, or a paraphrase (see `text_kind`).
    pub text: Option<String>,
    pub text_kind: TextKind,
    pub gloss: Option<String>,
    /// Why the clause decides nothing, when it says so.
    pub informational: Option<String>,
    pub cites: Vec<String>,
    pub span: Span,
    pub citation_span: Span,
}

/// How a clause's text stands to the printed document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextKind {
    /// `text`: the paragraph as printed.
    #[default]
    Printed,
    /// `excerpt`: parts of the printed paragraph, in order, joined by "…".
    Excerpt,
    /// `paraphrase`: no printed text at hand; never quoted as printed.
    Paraphrase,
}

impl TextKind {
    pub fn is_printed(&self) -> bool {
        *self == TextKind::Printed
    }
    /// The fragments of an excerpt, trimmed, in order.
    pub fn fragments(text: &str) -> Vec<&str> {
        text.split('…').map(str::trim).collect()
    }
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    Enum(Vec<VariantInfo>),
    Record(Vec<FieldInfo>),
}

#[derive(Clone, Debug)]
pub struct VariantInfo {
    pub name: String,
    pub label: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FieldInfo {
    pub name: String,
    pub optional: bool,
    pub ty: Type,
    pub doc: Option<String>,
    /// The short phrase naming the field in an explanation (`says "…"`).
    pub says: Option<String>,
}

#[derive(Clone, Debug)]
pub struct TypeInfo {
    pub name: String,
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FactInfo {
    pub name: String,
    pub ty: Type,
    /// `in 0..`: the values allowed (for a list, of each item), checked on input.
    pub bound: Option<PatIr>,
    pub doc: Option<String>,
    /// The short phrase naming the fact in an explanation (`says "…"`).
    pub says: Option<String>,
    /// The clause it is declared in: the one that gives its meaning.
    pub clause: Option<ClauseId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DecisionInfo {
    pub kind: DecisionKind,
    pub name: String,
    pub ty: Type,
    /// `in 0..=1`: the values allowed (for a list, of each item), checked on input.
    pub bound: Option<PatIr>,
    /// Who decides: "the Tournament Director", "turneringsarrangøren".
    pub by: String,
    pub doc: Option<String>,
    /// The short phrase naming the decision in an explanation (`says "…"`).
    pub says: Option<String>,
    pub clause: Option<ClauseId>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ExternalInfo {
    pub citation: String,
    pub title: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DefInfo {
    pub name: String,
    pub kind: DefKind,
    pub params: Vec<(String, Type)>,
    /// What each parameter stands for, when its declaration says (`egne: number "…"`).
    pub param_docs: Vec<Option<String>>,
    pub ty: Type,
    pub doc: Option<String>,
    /// The phrase naming this step in an explanation (`says "…"`).
    pub says: Option<String>,
    pub clause: Option<ClauseId>,
    pub span: Span,
    pub rules: Vec<RuleId>,
    pub table: Option<TableIr>,
}

impl DefInfo {
    pub fn is_ruling(&self) -> bool {
        self.kind == DefKind::Ruling
    }

    /// Calls `f` on each expression of the definition's own: its rules' values and guards
    /// and its table's values (not the expressions inside them: [`Ir::visit`] walks those).
    pub fn each_expr<'a>(&'a self, p: &'a Program, mut f: impl FnMut(&'a Ir)) {
        for &r in &self.rules {
            let rule = &p.rules[r as usize];
            f(&rule.value);
            if let Some(g) = &rule.guard {
                f(g);
            }
        }
        if let Some(t) = &self.table {
            t.rows.iter().for_each(|row| f(&row.value));
        }
    }
}

#[derive(Clone, Debug)]
pub struct TableIr {
    pub policy: Policy,
    pub rows: Vec<RowIr>,
    pub frame: u32,
}

#[derive(Clone, Debug)]
pub struct RowIr {
    pub keys: Vec<PatIr>,
    pub value: Ir,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RuleInfo {
    pub label: String,
    pub def: DefId,
    pub clause: Option<ClauseId>,
    pub span: Span,
    /// One pattern per parameter of the definition.
    pub patterns: Vec<PatIr>,
    pub guard: Option<Ir>,
    pub value: Ir,
    /// Rules this one is an exception to.
    pub overrides: Vec<RuleId>,
    /// Rules that are exceptions to this one.
    pub exceptions: Vec<RuleId>,
    /// Local slots the rule needs (parameters, bindings, lets, lambdas).
    pub frame: u32,
}

/// A pattern over one argument.
#[derive(Clone, Debug)]
pub enum PatIr {
    Any,
    /// Bind the argument to a local slot.
    Bind(u32),
    Equals(Value),
    Range {
        lo: Option<Value>,
        hi: Option<Value>,
        inclusive: bool,
    },
    Alts(Vec<PatIr>),
}

#[derive(Clone, Debug)]
pub struct Ir {
    pub kind: IrKind,
    pub ty: Type,
    pub span: Span,
}

impl Ir {
    /// Calls `f` on this expression and every expression inside it.
    pub fn visit(&self, f: &mut impl FnMut(&Ir)) {
        f(self);
        match &self.kind {
            IrKind::Const(_) | IrKind::Local(_) | IrKind::Fact(_) | IrKind::Decision(_) => {}
            IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => x.visit(f),
            IrKind::Draw(_, x, n) => {
                x.visit(f);
                if let Some(n) = n {
                    n.visit(f);
                }
            }
            IrKind::Call(_, xs) | IrKind::List(xs) => xs.iter().for_each(|a| a.visit(f)),
            IrKind::Record(_, xs) => xs.iter().flatten().for_each(|a| a.visit(f)),
            IrKind::Binary(_, a, b) | IrKind::InList(a, b) | IrKind::Let(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            IrKind::InRange { x, lo, hi, .. } => {
                x.visit(f);
                lo.iter().chain(hi.iter()).for_each(|a| a.visit(f));
            }
            IrKind::If(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            IrKind::Order(o) => {
                o.list.visit(f);
                o.keys.iter().chain(o.among.iter().flat_map(|(_, k)| k)).for_each(|k| k.key.visit(f));
            }
            IrKind::Builtin(_, xs, lam) => {
                xs.iter().for_each(|a| a.visit(f));
                if let Some(l) = lam {
                    l.body.visit(f);
                }
            }
        }
    }
}

pub use super::builtins_table::Builtin;

#[derive(Clone, Debug)]
pub struct Lambda {
    pub slot: u32,
    pub body: Box<Ir>,
}

#[derive(Clone, Debug)]
pub enum IrKind {
    Const(Value),
    Local(u32),
    Fact(FactId),
    Decision(DecisionId),
    Call(DefId, Vec<Ir>),
    Field(Box<Ir>, u32),
    List(Vec<Ir>),
    Record(TypeId, Vec<Option<Ir>>),
    Not(Box<Ir>),
    Neg(Box<Ir>),
    Binary(BinaryOp, Box<Ir>, Box<Ir>),
    InRange {
        x: Box<Ir>,
        lo: Option<Box<Ir>>,
        hi: Option<Box<Ir>>,
        inclusive: bool,
    },
    InList(Box<Ir>, Box<Ir>),
    If(Box<Ir>, Box<Ir>, Box<Ir>),
    Let(u32, Box<Ir>, Box<Ir>),
    Builtin(Builtin, Vec<Ir>, Option<Lambda>),
    /// A draw of lot (or a person's choice) among candidates: `draw(home_team, [a, b])`;
    /// with a count, that many of them: `choose(right_holders, players, 2)`.
    Draw(DecisionId, Box<Ir>, Option<Box<Ir>>),
    /// `sort …` / `rank …`: a list ordered by keys, ties broken among the tied.
    Order(Box<OrderIr>),
}

#[derive(Clone, Debug)]
pub struct OrderIr {
    /// The tied groups, best first (`rank`), rather than the items in order (`sort`).
    pub rank: bool,
    pub list: Ir,
    /// The slot of the item the keys read.
    pub item: u32,
    pub keys: Vec<KeyIr>,
    /// The slot of the tied group and the keys that break its tie.
    pub among: Option<(u32, Vec<KeyIr>)>,
    /// The tie-break keys apply in turn (`among tied in turn by …`): a smaller tied group
    /// goes on with the next key, rather than starting again from the first.
    pub in_turn: bool,
}

#[derive(Clone, Debug)]
pub struct KeyIr {
    pub key: Ir,
    pub descending: bool,
}

/// What a name at top level refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    Type(TypeId),
    Variant(TypeId, u32),
    Fact(FactId),
    Decision(DecisionId),
    Def(DefId),
}

/// The glosses of a rulebook by the text they gloss ([`Program::glosses`]): looked up for
/// every text an explanation shows (a player's name, a town), most of which have none, so
/// hashed by FNV-1a rather than SipHash. The keys are the rulebook's own texts; a text
/// looked up cannot make the table slower than its longest chain of the rulebook's keys.
pub type Glosses = IndexMap<String, String, std::hash::BuildHasherDefault<TextHasher>>;

/// The texts a rulebook glosses as a filter of bits, two a text, worked out from the glosses
/// on first use: a text whose bits are not both set has no gloss, found without hashing
/// it byte by byte (most texts an explanation shows, a player's name, a town, have none).
/// A filter worked out from fewer glosses than the table now holds lets every text through.
#[derive(Default)]
pub struct GlossFilter(std::sync::OnceLock<(usize, Box<[u64]>)>);

impl GlossFilter {
    /// The filter's bits: some sixteen a gloss of a large rulebook.
    const BITS: usize = 1 << 15;

    /// A text's two bits, from its length and its first and last eight bytes (four, or
    /// its bytes, for a shorter text).
    #[inline]
    fn bits(text: &str) -> (usize, usize) {
        let b = text.as_bytes();
        let n = b.len();
        let (head, tail) = if n >= 8 {
            let (Ok(h), Ok(t)) = (<[u8; 8]>::try_from(&b[..8]), <[u8; 8]>::try_from(&b[n - 8..])) else {
                return (0, 0);
            };
            (u64::from_le_bytes(h), u64::from_le_bytes(t))
        } else if n >= 4 {
            let (Ok(h), Ok(t)) = (<[u8; 4]>::try_from(&b[..4]), <[u8; 4]>::try_from(&b[n - 4..])) else {
                return (0, 0);
            };
            (u64::from(u32::from_le_bytes(h)), u64::from(u32::from_le_bytes(t)))
        } else {
            let at = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
            (at(0) | at(1) << 8 | at(2) << 16, 0)
        };
        let h = (head ^ tail.rotate_left(29) ^ (n as u64).rotate_left(52)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let h2 = (h ^ (h >> 31)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        ((h >> 40) as usize % Self::BITS, (h2 >> 40) as usize % Self::BITS)
    }

    /// Whether `text` may have a gloss in `glosses` (false: it has none).
    pub fn may_hold(&self, glosses: &Glosses, text: &str) -> bool {
        let (n, set) = self.0.get_or_init(|| {
            let mut set = vec![0u64; Self::BITS / 64].into_boxed_slice();
            for k in glosses.keys() {
                let (a, b) = Self::bits(k);
                set[a / 64] |= 1 << (a % 64);
                set[b / 64] |= 1 << (b % 64);
            }
            (glosses.len(), set)
        });
        if *n != glosses.len() {
            return true;
        }
        let (a, b) = Self::bits(text);
        (set[a / 64] >> (a % 64)) & (set[b / 64] >> (b % 64)) & 1 != 0
    }
}

impl Clone for GlossFilter {
    /// A copy works its filter out anew from its own glosses.
    fn clone(&self) -> Self {
        GlossFilter::default()
    }
}

impl std::fmt::Debug for GlossFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GlossFilter")
    }
}

/// FNV-1a over the bytes written (see [`Glosses`]).
#[derive(Clone, Copy, Debug)]
pub struct TextHasher(u64);

impl Default for TextHasher {
    fn default() -> Self {
        TextHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for TextHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// A `renamed from` note: a fact, decision, ruling or record field called `old` in the
/// previous version and `new` in this one.
#[derive(Clone, Debug)]
pub struct Rename {
    pub old: String,
    pub new: String,
    /// The record type, for a field.
    pub record: Option<TypeId>,
}

/// A checked rulebook.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub rulebook: RulebookInfo,
    pub clauses: Vec<ClauseInfo>,
    pub types: Vec<TypeInfo>,
    pub facts: Vec<FactInfo>,
    pub decisions: Vec<DecisionInfo>,
    pub externals: Vec<ExternalInfo>,
    pub defs: Vec<DefInfo>,
    pub rules: Vec<RuleInfo>,
    pub symbols: IndexMap<String, Symbol>,
    pub citations: IndexMap<String, ClauseId>,
    /// English glosses of descriptions, questions, labels, `says` phrases and text answers,
    /// keyed by the text in the rulebook's language.
    pub glosses: Glosses,
    /// Which texts may have a gloss, for looking up only those ([`GlossFilter`]).
    pub gloss_filter: GlossFilter,
    /// The rulebook's sections and their names ([`super::resolve`]).
    pub sections: super::resolve::Sections,
    /// The `renamed from` notes: what a name was called, what it is called now, and for a
    /// field its record type; read to tell a reader who writes the old name.
    pub renames: Vec<Rename>,
    /// What later stages build from the program and keep beside it, each stage its own
    /// cache type, built on first use; a copy of the program starts with none.
    pub caches: crate::base::cache::Caches,
}

impl Program {
    /// The help for `written`, a name this version declares no more: "`old` was renamed to
    /// `new`", when a `renamed from` note says so (`record`: the type, for a field).
    pub fn renamed(&self, written: &str, record: Option<TypeId>) -> Option<String> {
        // `Record.field` written whole: the field of that record.
        if record.is_none()
            && let Some((r, field)) = written.rsplit_once('.')
            && let Some(Symbol::Type(t)) = self.symbols.get(r)
        {
            return self
                .renames
                .iter()
                .find(|x| x.record == Some(*t) && x.old == field)
                .map(|x| format!("`{written}` was renamed to `{r}.{}` in this version of the rulebook", x.new));
        }
        let short = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
        let written_short = short(written);
        self.renames
            .iter()
            .find(|r| r.record == record && short(&r.old) == written_short)
            .map(|r| format!("`{}` was renamed to `{}` in this version of the rulebook", r.old, r.new))
    }

    pub fn type_name(&self, id: TypeId) -> String {
        self.types.get(id as usize).map_or_else(|| "?".into(), |t| t.name.clone())
    }
    pub fn describe(&self, ty: &Type) -> String {
        ty.describe(&|id| self.type_name(id))
    }
    pub fn def_by_name(&self, name: &str) -> Option<DefId> {
        match self.symbols.get(name) {
            Some(Symbol::Def(id)) => Some(*id),
            _ => None,
        }
    }
    pub fn rulings(&self) -> impl Iterator<Item = (DefId, &DefInfo)> {
        self.defs.iter().enumerate().filter(|(_, d)| d.is_ruling()).map(|(i, d)| (i as DefId, d))
    }
    /// A text in the rulebook's language as shown to a reader of `lang`: its gloss when
    /// the reader's explanation words are those of the glosses (English: `en`, `en-GB`, or a
    /// language without message files), else as written (a Swedish reader of a Danish
    /// rulebook reads the Danish, in a Swedish frame).
    pub fn gloss<'t>(&'t self, text: &'t str, lang: &str) -> &'t str {
        if !self.gloss_filter.may_hold(&self.glosses, text)
            || crate::base::lang::reads(lang, &self.rulebook.language)
            || !crate::base::lang::reads_glosses(lang)
        {
            text
        } else {
            self.glosses.get(text).map_or(text, String::as_str)
        }
    }
    pub fn clause(&self, id: ClauseId) -> &ClauseInfo {
        &self.clauses[id as usize]
    }
    pub fn citation_of(&self, clause: Option<ClauseId>) -> Option<&str> {
        clause.and_then(|c| self.clauses.get(c as usize)).map(|c| c.citation.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gloss_filter_lets_every_glossed_text_through() {
        let mut p = Program::default();
        p.rulebook.language = "da".into();
        let texts = ["", "a", "ab", "abc", "abcd", "hjemby", "transportgodtgørelse", "en by på Fyn, øst for Odense"];
        for t in texts {
            p.glosses.insert(t.to_string(), format!("gloss of {t}"));
        }
        for t in texts {
            assert!(p.gloss_filter.may_hold(&p.glosses, t), "{t:?}");
            assert_eq!(p.gloss(t, "en"), format!("gloss of {t}"));
            assert_eq!(p.gloss(t, "da"), t);
        }
        for t in ["Kolding", "Anne", "hjembyen", "transportgodtgørelsen"] {
            assert_eq!(p.gloss(t, "en"), t);
        }
    }

    #[test]
    fn a_gloss_added_after_the_filter_is_made_is_found() {
        let mut p = Program::default();
        p.glosses.insert("by".into(), "town".into());
        assert_eq!(p.gloss("by", "en"), "town");
        p.glosses.insert("hjemby".into(), "home town".into());
        assert_eq!(p.gloss("hjemby", "en"), "home town");
    }
}
