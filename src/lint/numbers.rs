//! The lints `lint::number_not_in_text` and `lint::number_not_in_rules`: a clause's rules
//! against its printed text. Every number, amount, percentage, date and time of day a rule of
//! the clause writes must be printed in the clause's text or gloss, in any form the text uses
//! ([`super::printed`]), or be derived from printed numbers; and every number the text prints
//! in digits must be used by a rule of the clause. A threshold changed on one side only is
//! then a finding, whatever the case files happen to test.
//!
//! Exempt, so that structure is not noise: the literals 0 and 1 (counting from, `n - 1`,
//! first place), and on the text's side the printed 0 and 1, numbers joined to letters
//! (`U16`, `2-mandskahyt`), the day and year of a printed date, the numbers of a citation of a
//! clause or external reference (`§ 301`, `§§ 321-328`), and the numbers of the rulebook's title
//! and edition, which name the rulebook (`District 17`, `2007–2008`) and count as printed in
//! every clause. *Derived* means one step of arithmetic on printed values
//! (and 1): `a + b`, `a - b`, `a × b`, `a ÷ b` — `< 2000` and `<= 1999` both say "fewer than
//! 2,000"; a date or time of day is derived from a printed one a day or a minute before or after
//! it (`..=16.59` says "before 17.00").

use super::printed::{Printed, contains_word};
use crate::base::date::Date;
use crate::base::num::Num;
use crate::base::time::Time;
use crate::check::Checked;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{
    Arg, BinaryOp, Clause, ClausePart, Collection, Decl, Expr, ExprKind, Item, Literal, Pattern, PatternAtom, Span,
    UnitExpr,
};
use std::collections::HashMap;

const NOT_IN_TEXT: &str = "lint::number_not_in_text";
const NOT_IN_RULES: &str = "lint::number_not_in_rules";

/// A literal a rule writes.
#[derive(Clone)]
enum Lit {
    /// The number as written, and its value when a percentage (`50%` is 50 and 1/2).
    Num(Num, Option<Num>),
    Date(Date),
    Time(i64),
    /// A text the rule gives (an address, a name): the numbers printed in it are used.
    Text(String),
}

struct Written {
    lit: Lit,
    text: String,
    span: Span,
    /// The rule, definition or table that writes it.
    owner: String,
}

impl Written {
    fn copy(&self) -> Written {
        Written { lit: self.lit.clone(), text: self.text.clone(), span: self.span, owner: self.owner.clone() }
    }
}

/// The literals each definition and table writes, by its name (and its name without the
/// section), and the names it calls: what a clause's rules use through the definitions they read.
#[derive(Default)]
struct Reach {
    literals: HashMap<String, Vec<Written>>,
    calls: HashMap<String, Vec<String>>,
}

impl Reach {
    fn build(checked: &Checked) -> Reach {
        let mut r = Reach::default();
        for file in &checked.files {
            let section = file.section.as_ref().map(|s| s.name.name.clone());
            let decls = file.items.iter().flat_map(|i| -> Box<dyn Iterator<Item = &Decl>> {
                match i {
                    Item::Clause(c) => Box::new(c.decls()),
                    Item::Decl(d) => Box::new(std::iter::once(d)),
                    Item::Rulebook(_) => Box::new(std::iter::empty()),
                }
            });
            for d in decls {
                let name = match d {
                    Decl::Def(def) => &def.name.name,
                    Decl::Table(t) => &t.name.name,
                    Decl::Rule(rule) => &rule.target.name,
                    _ => continue,
                };
                let mut lits = Vec::new();
                collect_decl(d, &mut lits);
                let mut names = Vec::new();
                names_in_decl(d, &mut names);
                for key in [Some(name.clone()), section.as_ref().map(|s| format!("{s}.{name}"))].into_iter().flatten() {
                    r.calls.entry(key.clone()).or_default().extend(names.iter().cloned());
                    r.literals.entry(key).or_default().extend(lits.iter().map(Written::copy));
                }
            }
        }
        r
    }

    /// The literals of the definitions `names` reach, transitively.
    fn reached(&self, names: Vec<String>) -> Vec<&Written> {
        let mut seen = std::collections::HashSet::new();
        let mut todo = names;
        let mut out = Vec::new();
        while let Some(n) = todo.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            out.extend(self.literals.get(&n).into_iter().flatten());
            todo.extend(self.calls.get(&n).into_iter().flatten().cloned());
        }
        out
    }
}

fn names_in_decl(d: &Decl, out: &mut Vec<String>) {
    let mut e = Vec::new();
    match d {
        Decl::Rule(r) => {
            e.push(&r.value);
            e.extend(r.guard.iter());
        }
        Decl::Def(def) => e.extend(def.body.iter()),
        Decl::Table(t) => e.extend(t.rows.iter().map(|r| &r.value)),
        _ => {}
    }
    for x in e {
        names(x, out);
    }
}

fn names(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Name(n) => out.push(n.name.clone()),
        ExprKind::Call { func, args } => {
            out.push(func.name.clone());
            for a in args {
                match a {
                    Arg::Positional(x) | Arg::Named(_, x) | Arg::Lambda(_, x) => names(x, out),
                }
            }
        }
        ExprKind::Literal(_) => {}
        ExprKind::Field(x, _) | ExprKind::Unary(_, x) => names(x, out),
        ExprKind::List(xs) => xs.iter().for_each(|x| names(x, out)),
        ExprKind::Record { fields, .. } => fields.iter().for_each(|(_, x)| names(x, out)),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => {
            names(a, out);
            names(b, out);
        }
        ExprKind::In(x, c) => {
            names(x, out);
            match c.as_ref() {
                Collection::Range { lo, hi, .. } => lo.iter().chain(hi.iter()).for_each(|x| names(x, out)),
                Collection::Expr(x) => names(x, out),
            }
        }
        ExprKind::If(a, b, c) => {
            names(a, out);
            names(b, out);
            names(c, out);
        }
        ExprKind::Order(o) => {
            names(&o.list, out);
            for k in o.keys.iter().chain(o.among.iter().flat_map(|(_, ks)| ks.iter())) {
                names(&k.key, out);
            }
        }
    }
}

pub fn lint(checked: &Checked) -> Vec<Diagnostic> {
    let p = &checked.program;
    let lang = p.rulebook.language.as_str();
    let citations: Vec<&str> = p
        .citations
        .keys()
        .map(String::as_str)
        .chain(p.externals.iter().map(|e| e.citation.as_str()))
        .filter(|c| c.chars().any(|ch| ch.is_ascii_digit()))
        .collect();
    let reach = Reach::build(checked);
    let mut title = Printed::default();
    title.read(&p.rulebook.title, lang);
    title.read(p.rulebook.edition.as_deref().unwrap_or_default(), lang);
    let ctx = Ctx { lang, citations: &citations, reach: &reach, title: &title.values };
    let mut out = Vec::new();
    for file in &checked.files {
        for item in &file.items {
            if let Item::Clause(c) = item {
                out.extend(clause(c, &ctx));
            }
        }
    }
    out
}

/// What every clause is held against besides its own text.
struct Ctx<'a> {
    lang: &'a str,
    citations: &'a [&'a str],
    reach: &'a Reach,
    /// The numbers of the rulebook's title and edition: they name the rulebook (its district,
    /// its season), and count as printed in every clause.
    title: &'a [Num],
}

fn clause(c: &Clause, ctx: &Ctx) -> Vec<Diagnostic> {
    let (lang, citations, reach) = (ctx.lang, ctx.citations, ctx.reach);
    let mut written = Vec::new();
    let mut called = Vec::new();
    for d in c.decls() {
        collect_decl(d, &mut written);
        names_in_decl(d, &mut called);
    }
    let used_by = reach.reached(called);
    let printed_part = c.parts.iter().find_map(|p| match p {
        ClausePart::Text(s) | ClausePart::Excerpt(s) | ClausePart::Paraphrase(s) => Some(s),
        _ => None,
    });
    let Some(text) = printed_part else { return Vec::new() };
    if !has_rules(c) {
        return Vec::new();
    }
    let mut printed = Printed::default();
    printed.read(&text.value, lang);
    let mut said = printed.clone();
    said.values.extend(ctx.title.iter().copied());
    if let Some(h) = c.heading() {
        said.read(&h.value, lang);
    }
    if let Some(g) = c.gloss() {
        said.read(&g.value, "en");
    }
    let mut out = Vec::new();
    for w in &written {
        if !found(w, &said) {
            out.push(
                Diagnostic::warning(
                    NOT_IN_TEXT,
                    format!("`{}` in `{}` is not printed in the text of `{}`", w.text, w.owner, c.citation.value),
                )
                .at(w.span, "not in the clause's text")
                .help(
                    "correct the rule or the text; if the value is derived in a way the lint does not see, \
                     say how: `// allow(number_not_in_text): <reason>`",
                ),
            );
        }
    }
    let cited = cited_ranges(&text.value, citations);
    let mut reported: Vec<&str> = Vec::new();
    for t in &printed.tokens {
        if t.part_of_word
            || cited.iter().any(|(a, b)| *a <= t.start && t.end <= *b)
            || reported.contains(&t.text.as_str())
        {
            continue;
        }
        if t.values.iter().any(|v| *v == Num::ZERO || *v == Num::ONE || ctx.title.contains(v)) && t.time.is_none() {
            continue;
        }
        let used = written.iter().chain(used_by.iter().copied()).any(|w| uses(w, &t.text, &t.values, t.time));
        if !used {
            reported.push(&t.text);
            out.push(
                Diagnostic::warning(
                    NOT_IN_RULES,
                    format!("the text of `{}` prints {}, which no rule of the clause uses", c.citation.value, t.text),
                )
                .at(text.span, "printed here")
                .help(
                    "make the rule use it, or say why it decides nothing: `// allow(number_not_in_rules): <reason>` \
                     before the text",
                ),
            );
        }
    }
    out
}

fn has_rules(c: &Clause) -> bool {
    c.decls().any(|d| match d {
        Decl::Rule(_) | Decl::Table(_) => true,
        Decl::Def(def) => def.body.is_some(),
        _ => false,
    })
}

/// Where citations of clauses and references stand in `text`, as byte ranges.
fn cited_ranges(text: &str, citations: &[&str]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for c in citations {
        if contains_word(text, c) {
            out.extend(text.match_indices(c).map(|(i, _)| (i, i + c.len())));
        }
    }
    out
}

/// Whether a literal is printed, exempt, or one step of arithmetic from printed values.
fn found(w: &Written, said: &Printed) -> bool {
    let near_time = |m: i64| said.times.iter().any(|t| (t - m).abs() <= 1);
    if let Some(t) = Time::from_decimal(&w.text)
        && near_time(t.minutes())
    {
        return true;
    }
    match &w.lit {
        Lit::Num(n, pct) => {
            if *n == Num::ZERO || *n == Num::ONE {
                return true;
            }
            let direct = |v: &Num| said.values.contains(v);
            if direct(n) || pct.as_ref().is_some_and(direct) {
                return true;
            }
            let mut base: Vec<Num> = said.values.clone();
            base.push(Num::ONE);
            base.sort_by_key(|v| (v.numer(), v.denom()));
            base.dedup();
            base.iter().any(|a| {
                base.iter().any(|b| {
                    [a.add(*b), a.sub(*b), a.mul(*b), a.div(*b)]
                        .into_iter()
                        .flatten()
                        .any(|v| v == *n || pct.is_some_and(|p| p == v))
                })
            })
        }
        Lit::Time(m) => near_time(*m),
        Lit::Text(_) => true,
        Lit::Date(d) => {
            let near = [d.add_days(-1), Some(*d), d.add_days(1)];
            near.into_iter().flatten().any(|x| {
                let (y, m, day) = x.ymd();
                said.dates.iter().any(|(py, pm, pd)| *pm == m && *pd == day && py.is_none_or(|py| py == y))
            })
        }
    }
}

/// Whether a rule's literal uses a printed number (any reading), directly or one off.
fn uses(w: &Written, printed: &str, values: &[Num], time: Option<i64>) -> bool {
    let near_time = |m: i64| time.is_some_and(|t| (t - m).abs() <= 1);
    if Time::from_decimal(&w.text).is_some_and(|t| near_time(t.minutes())) {
        return true;
    }
    match &w.lit {
        Lit::Num(n, pct) => values.iter().any(|v| {
            *v == *n || pct.is_some_and(|p| p == *v) || v.add(Num::ONE) == Some(*n) || v.sub(Num::ONE) == Some(*n)
        }),
        Lit::Time(m) => near_time(*m),
        Lit::Date(_) => false,
        Lit::Text(t) => contains_word(t, printed),
    }
}

fn collect_decl(d: &Decl, out: &mut Vec<Written>) {
    match d {
        Decl::Rule(r) => {
            let owner = r.label.name.clone();
            for a in &r.args {
                pattern(a, &owner, out);
            }
            expr(&r.value, &owner, out);
            if let Some(g) = &r.guard {
                expr(g, &owner, out);
            }
        }
        Decl::Def(def) => {
            if let Some(b) = &def.body {
                expr(b, &def.name.name, out);
            }
        }
        Decl::Table(t) => {
            for row in &t.rows {
                for k in &row.keys {
                    pattern(k, &t.name.name, out);
                }
                expr(&row.value, &t.name.name, out);
            }
        }
        _ => {}
    }
}

fn pattern(p: &Pattern, owner: &str, out: &mut Vec<Written>) {
    for a in &p.alts {
        match a {
            PatternAtom::Literal(l) => literal(l, owner, out),
            PatternAtom::Range { lo, hi, .. } => {
                for l in lo.iter().chain(hi.iter()) {
                    literal(l, owner, out);
                }
            }
            PatternAtom::Wildcard(_) | PatternAtom::Name(_) => {}
        }
    }
}

fn literal(l: &Literal, owner: &str, out: &mut Vec<Written>) {
    let (lit, text, span) = match l {
        Literal::Number { text, unit, span } => {
            let Ok(n) = Num::parse(text) else { return };
            let pct = matches!(unit, Some(UnitExpr::Percent)).then(|| n.div(Num::int(100))).flatten();
            let shown = if pct.is_some() { format!("{text}%") } else { text.clone() };
            (Lit::Num(n, pct), shown, *span)
        }
        Literal::Date { text, span } => {
            let Some(d) = Date::parse(text) else { return };
            (Lit::Date(d), text.clone(), *span)
        }
        Literal::Time { text, span } => {
            let Some(t) = Time::parse(text) else { return };
            (Lit::Time(t.minutes()), text.clone(), *span)
        }
        Literal::Text(t) => (Lit::Text(t.value.clone()), String::new(), t.span),
        Literal::Bool(..) => return,
    };
    out.push(Written { lit, text, span, owner: owner.to_string() });
}

/// A number literal without a unit, and its digits.
fn plain_number(e: &Expr) -> Option<(Num, &str)> {
    match &e.kind {
        ExprKind::Literal(Literal::Number { text, unit: None, .. }) => Some((Num::parse(text).ok()?, text)),
        _ => None,
    }
}

fn expr(e: &Expr, owner: &str, out: &mut Vec<Written>) {
    match &e.kind {
        ExprKind::Literal(l) => literal(l, owner, out),
        // `1/2` is the fraction one half, as "50%" or "halvdelen" print it.
        ExprKind::Binary(BinaryOp::Div, a, b)
            if let (Some((x, xt)), Some((y, yt))) = (plain_number(a), plain_number(b))
                && let Some(q) = x.div(y) =>
        {
            out.push(Written { lit: Lit::Num(q, None), text: format!("{xt}/{yt}"), span: e.span, owner: owner.into() });
        }
        ExprKind::Name(_) => {}
        ExprKind::Field(x, _) | ExprKind::Unary(_, x) => expr(x, owner, out),
        ExprKind::Call { args, .. } => {
            for a in args {
                match a {
                    Arg::Positional(x) | Arg::Named(_, x) | Arg::Lambda(_, x) => expr(x, owner, out),
                }
            }
        }
        ExprKind::List(xs) => xs.iter().for_each(|x| expr(x, owner, out)),
        ExprKind::Record { fields, .. } => fields.iter().for_each(|(_, x)| expr(x, owner, out)),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => {
            expr(a, owner, out);
            expr(b, owner, out);
        }
        ExprKind::In(x, c) => {
            expr(x, owner, out);
            match c.as_ref() {
                Collection::Range { lo, hi, .. } => lo.iter().chain(hi.iter()).for_each(|x| expr(x, owner, out)),
                Collection::Expr(x) => expr(x, owner, out),
            }
        }
        ExprKind::If(a, b, c) => {
            expr(a, owner, out);
            expr(b, owner, out);
            expr(c, owner, out);
        }
        ExprKind::Order(o) => {
            expr(&o.list, owner, out);
            for k in o.keys.iter().chain(o.among.iter().flat_map(|(_, ks)| ks.iter())) {
                expr(&k.key, owner, out);
            }
        }
    }
}
