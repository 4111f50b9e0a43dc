//! The working in words: a [`Work`] turned into sentences a player reads — arithmetic
//! as an equation with the values put in, rounding and clamping named, comparisons
//! as sentences, rankings and apportionments as their rows, counts as the items
//! counted. No source syntax and no internal names; every frame word comes from the
//! message files.

use super::Explainer;
use super::scratch::Buf;
use crate::base::messages::{Arg, msg_into, word_ref as word};
use crate::base::value::Value;
use crate::check::types::Type;
use crate::eval::trace::{Atom, Work, WorkKind};
use crate::show;
use crate::syntax::ast::BinaryOp;

mod rows;

/// Lists longer than this are shown by their count only.
pub(crate) const LIST_MAX: usize = 12;

/// Most words of records, read field by field, that a count lists.
const RECORDS_WORDS: usize = 20;

/// A definition read for more items than this under one step (a step per district, per
/// final, per match) is left out of the brief explanation: the step's working gives the
/// items' values, and the full explanation each item's working.
pub(crate) const BRIEF_READS_MAX: usize = 4;

/// A definition read more times than this in the whole of a ruling's working, by more than
/// one step (a chain of steps per item), is shown once for each answer in the brief explanation
/// (see `Once` in the module above).
pub(crate) const BRIEF_ONCE_OVER: usize = 1;

/// How something is named in a sentence: a name the rulebook's views keep, or one put
/// together for it.
pub(crate) enum Name<'a> {
    Made(Buf),
    Program(&'a str),
}

impl std::ops::Deref for Name<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Name::Made(b) => b,
            Name::Program(s) => s,
        }
    }
}

impl<'a> Explainer<'a> {
    fn show(&self, v: &Value, ty: &Type) -> Buf {
        let mut out = Buf::new();
        show::value_into(&mut out, self.p, v, ty, self.lang);
        out
    }

    fn val(&self, w: &Work) -> Buf {
        let mut out = Buf::new();
        self.val_into(&mut out, w);
        out
    }

    /// [`Self::val`], appended to `out`.
    fn val_into(&self, out: &mut String, w: &Work) {
        // A percentage reads best as written.
        if matches!(w.kind, WorkKind::Leaf) {
            let src = self.sources.snippet(w.span).trim();
            if src.ends_with('%') && src[..src.len() - 1].chars().all(|c| c.is_ascii_digit() || c == '.') {
                return out.push_str(src);
            }
        }
        match &w.value {
            Some(v) => show::value_into(out, self.p, v, &w.ty, self.lang),
            None => out.push('?'),
        }
    }

    fn m(&self, id: &str, args: &[(&str, Arg)]) -> Buf {
        let mut out = Buf::new();
        msg_into(&mut out, self.lang, id, args);
        out
    }

    /// A text of the rulebook, in the explanation's language when it is glossed.
    pub(crate) fn gloss(&self, text: &str) -> String {
        self.p.gloss(text, self.lang.code()).to_string()
    }

    /// The short phrase naming something in a sentence: its `says` phrase, else the head of
    /// its description (up to the first `:` or `;`), else its name; in the explanation's
    /// language when glossed.
    pub(crate) fn short(&self, says: Option<&str>, doc: Option<&str>, name: &str) -> String {
        super::views::short(self.p, self.lang, says, doc, name)
    }

    /// How a definition is named in a sentence (from the rulebook's views).
    pub(crate) fn def_label(&self, def: u32) -> String {
        self.views().defs[def as usize].label.to_string()
    }

    /// The rulebook's views in the explanation's language.
    pub(crate) fn views(&self) -> &'a super::views::Views {
        super::views::get(self.p, self.lang)
    }

    /// How a value is named in a sentence: a fact, decision or definition by its short
    /// phrase, a parameter by what it stands for, anything else by its working.
    fn label(&self, w: &Work) -> Option<Name<'_>> {
        match &w.kind {
            WorkKind::Fact(f) => Some(Name::Program(&self.views().facts[*f as usize].label)),
            WorkKind::FactPath(_, read) => Some(Name::Program(&self.views().read(*read)?.label)),
            WorkKind::Def(d) => Some(Name::Program(&self.views().defs[*d as usize].label)),
            WorkKind::Param(d, i) => {
                let l = self.views().defs[*d as usize].param_labels.get(*i as usize)?.as_deref()?;
                Some(Name::Program(l))
            }
            WorkKind::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => fs
                    .get(*i as usize)
                    .map(|f| Name::Made(Buf::of(&self.short(f.says.as_deref(), f.doc.as_deref(), &f.name)))),
                _ => None,
            },
            WorkKind::Decision(d) => Some(Name::Program(&self.views().decisions[*d as usize].label)),
            WorkKind::Size(inner) => {
                self.label(inner).map(|l| Name::Made(self.m("number-of", &[("what", Arg::Text(&l))])))
            }
            _ => None,
        }
    }

    /// The explicit `says` phrase of a named value, shown beside it in an equation.
    fn says_of(&self, w: &Work) -> Option<Name<'_>> {
        let says = match &w.kind {
            WorkKind::Fact(f) => self.p.facts[*f as usize].says.as_deref(),
            WorkKind::FactPath(_, read) => {
                return self.views().read(*read)?.says.as_deref().map(Name::Program);
            }
            WorkKind::Def(d) => self.p.defs[*d as usize].says.as_deref(),
            WorkKind::Decision(d) => self.p.decisions[*d as usize].says.as_deref(),
            WorkKind::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => fs.get(*i as usize).and_then(|f| f.says.as_deref()),
                _ => None,
            },
            _ => None,
        };
        says.map(|s| Name::Program(self.p.gloss(s, self.lang.code())))
    }

    fn list(&self, xs: &[&Value], elem: &Type) -> Buf {
        let mut out = Buf::new();
        self.list_into(&mut out, xs, elem);
        out
    }

    /// [`Self::list`], appended to `out`: "A, B and C".
    fn list_into(&self, out: &mut String, xs: &[&Value], elem: &Type) {
        match xs {
            [] => out.push_str(word(self.lang, "none")),
            [x] => show::value_into(out, self.p, x, elem, self.lang),
            [init @ .., last] => {
                for (i, x) in init.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    show::value_into(out, self.p, x, elem, self.lang);
                }
                out.push(' ');
                out.push_str(word(self.lang, "and"));
                out.push(' ');
                show::value_into(out, self.p, last, elem, self.lang);
            }
        }
    }

    /// A sub-expression inside an equation: its working when it is arithmetic, else its value.
    /// Roundings, clamps and the like inside are said first, in `notes`.
    fn expr(&self, w: &Work, notes: &mut Vec<Buf>, parent: Option<(BinaryOp, bool)>) -> Buf {
        let mut out = Buf::new();
        self.expr_into(&mut out, w, notes, parent);
        out
    }

    /// [`Self::expr`], appended to `out`.
    fn expr_into(&self, out: &mut String, w: &Work, notes: &mut Vec<Buf>, parent: Option<(BinaryOp, bool)>) {
        match &w.kind {
            WorkKind::Binary(op, a, b) if is_arith(*op) => {
                let parens = needs_parens(*op, parent);
                if parens {
                    out.push('(');
                }
                self.expr_into(out, a, notes, Some((*op, false)));
                out.push(' ');
                out.push_str(word(self.lang, op_id(*op)));
                out.push(' ');
                self.expr_into(out, b, notes, Some((*op, true)));
                if parens {
                    out.push(')');
                }
            }
            WorkKind::Neg(x) => {
                out.push('−');
                self.expr_into(out, x, notes, Some((BinaryOp::Mul, false)));
            }
            WorkKind::Sum { items, of, .. } if items.len() > 1 && items.len() <= LIST_MAX => {
                let add = word(self.lang, "op-add");
                if parent.is_some() {
                    out.push('(');
                }
                for (i, (_, v)) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                        out.push_str(add);
                        out.push(' ');
                    }
                    match v {
                        Some(v) => show::value_into(out, self.p, v, of, self.lang),
                        None => out.push('?'),
                    }
                }
                if parent.is_some() {
                    out.push(')');
                }
            }
            WorkKind::Leaf | WorkKind::Param(..) => self.val_into(out, w),
            WorkKind::Fact(_)
            | WorkKind::FactPath(..)
            | WorkKind::Field(..)
            | WorkKind::Def(_)
            | WorkKind::Decision(_) => {
                self.val_into(out, w);
                // "DKK 125 (bridge and ferry)": the term named by its phrase.
                if let Some(s) = self.says_of(w) {
                    out.push_str(" (");
                    out.push_str(&s);
                    out.push(')');
                }
            }
            _ => {
                self.sentences_to(w, &mut |s| notes.push(Buf::of(s)));
                self.val_into(out, w);
            }
        }
    }

    /// The working of `w` as sentences; empty when there is nothing to show beyond the value.
    pub(crate) fn sentences(&self, w: &Work) -> Vec<String> {
        let mut out = Vec::new();
        self.sentences_to(w, &mut |s| out.push(s.to_string()));
        out
    }

    /// The working of a step whose value is `w`'s, as sentences given to `emit`: a `filter`
    /// making the step's value counts what it kept without naming it again ("2 of 4", the
    /// step's answer names them).
    pub(crate) fn step_sentences_to(&self, w: &Work, emit: &mut dyn FnMut(&str)) {
        use crate::check::program::Builtin::Filter;
        if let WorkKind::Count { builtin: Filter, items, elem, compared } = &w.kind
            && w.value.is_some()
            && items.len() <= LIST_MAX
            && items.iter().any(|(_, t)| *t == Some(true))
        {
            if let Some(c) = compared {
                self.compared_table(items, elem, c);
            }
            let kept = items.iter().filter(|(_, t)| *t == Some(true)).count();
            let n = |k: usize| Arg::Num(k as i64);
            emit(&self.m("counted-bare", &[("n", n(kept)), ("of", n(items.len()))]));
            return;
        }
        self.sentences_to(w, emit);
    }

    /// [`Self::step_sentences_to`], collected.
    pub(crate) fn step_sentences(&self, w: &Work) -> Vec<String> {
        let mut out = Vec::new();
        self.step_sentences_to(w, &mut |s| out.push(s.to_string()));
        out
    }

    /// [`Self::sentences`], each given to `emit` in turn.
    pub(crate) fn sentences_to(&self, w: &Work, emit: &mut dyn FnMut(&str)) {
        let mut notes = Vec::new();
        let arith = matches!(&w.kind, WorkKind::Binary(op, ..) if is_arith(*op)) || matches!(w.kind, WorkKind::Neg(_));
        let main: Option<Buf> = match &w.kind {
            _ if arith => {
                let mut e = Buf::new();
                self.expr_into(&mut e, w, &mut notes, None);
                e.push_str(" = ");
                self.val_into(&mut e, w);
                Some(e)
            }
            WorkKind::Binary(op @ (BinaryOp::IntDiv | BinaryOp::Mod), a, b) => {
                let (x, y) = (self.expr(a, &mut notes, None), self.expr(b, &mut notes, None));
                let id = if *op == BinaryOp::IntDiv { "whole-division" } else { "remainder" };
                Some(self.m(id, &[("a", Arg::Text(&x)), ("b", Arg::Text(&y)), ("value", Arg::Text(&self.val(w)))]))
            }
            WorkKind::Binary(..) | WorkKind::Not(_) | WorkKind::InRange { .. } | WorkKind::InList(..) => {
                self.condition(w, w.value.as_ref().and_then(Value::as_bool).unwrap_or(false))
            }
            WorkKind::Round(b, x) => {
                let mut from = self.expr(x, &mut notes, None);
                if !is_leafish(x) {
                    from.push_str(" = ");
                    self.val_into(&mut from, x);
                }
                Some(self.m(round_id(*b), &[("from", Arg::Text(&from)), ("to", Arg::Text(&self.val(w)))]))
            }
            WorkKind::Clamp(b, xs) => self.clamp(w, *b == crate::check::program::Builtin::Max, xs, &mut notes),
            WorkKind::If(c, taken) => {
                let cond = self.condition(c, c.value.as_ref().and_then(Value::as_bool).unwrap_or(false));
                let mut then: Vec<Buf> = Vec::new();
                self.sentences_to(taken, &mut |s| then.push(Buf::of(s)));
                match (cond, then.is_empty()) {
                    (Some(c), true) => Some(c),
                    (Some(mut c), false) => {
                        for t in &then {
                            c.push_str("; ");
                            c.push_str(t);
                        }
                        Some(c)
                    }
                    (None, _) => (!then.is_empty()).then(|| joined(&then, "; ")),
                }
            }
            WorkKind::Count { builtin, items, elem, compared } => {
                if let Some(c) = compared {
                    self.compared_table(items, elem, c);
                }
                self.count(w, *builtin, items, elem)
            }
            WorkKind::Sum { items, .. } if items.len() > 1 && items.len() <= LIST_MAX => {
                let mut e = Buf::new();
                self.expr_into(&mut e, w, &mut notes, None);
                e.push_str(" = ");
                self.val_into(&mut e, w);
                Some(e)
            }
            WorkKind::Ranking { builtin, items, elem, key, key_name, places } => {
                self.ranking(*builtin, items, elem, key, key_name, places.as_ref(), w)
            }
            WorkKind::Apportion { seats, items, elem, weight } => {
                self.apportion(seats, items, elem, weight, w).map(|s| Buf::of(&s))
            }
            WorkKind::Standings { items, elem, keys, among, breaks, groups } => {
                notes.extend(self.standings(items, elem, keys, among, breaks, groups).iter().map(|s| Buf::of(s)));
                None
            }
            WorkKind::Map(inner) => {
                self.sentences_to(inner, &mut |s| notes.push(Buf::of(s)));
                None
            }
            WorkKind::Let(bound, body) => {
                self.sentences_to(bound, &mut |s| notes.push(Buf::of(s)));
                self.sentences_to(body, &mut |s| notes.push(Buf::of(s)));
                None
            }
            WorkKind::Record(t, fields) => {
                // Each field worked out: "of which gold points: 40 × 1 / 3 = 40/3".
                let names: Vec<(String, Option<String>)> = match &self.p.types[*t as usize].kind {
                    crate::check::program::TypeKind::Record(fs) => fs
                        .iter()
                        .map(|f| (f.name.clone(), Some(self.short(f.says.as_deref(), f.doc.as_deref(), &f.name))))
                        .collect(),
                    _ => Vec::new(),
                };
                for (i, fw) in fields {
                    let said = self.sentences(fw);
                    if said.is_empty() {
                        continue;
                    }
                    let name = names.get(*i as usize).map(|(n, d)| d.clone().unwrap_or_else(|| n.clone()));
                    let name = name.unwrap_or_default();
                    notes.push(Buf::of(&format!("{name}: {}", said.join("; "))));
                }
                None
            }
            _ => None,
        };
        for n in notes.iter().filter(|n| !tautology(n)) {
            emit(n);
        }
        if let Some(m) = main
            && !tautology(&m)
        {
            emit(&m);
        }
    }

    fn clamp(&self, w: &Work, max: bool, xs: &[Work], notes: &mut Vec<Buf>) -> Option<Buf> {
        // The computed side and the bound: a clamp reads "… is below 0, so 0".
        let mut computed = xs.iter().filter(|x| !matches!(x.kind, WorkKind::Leaf));
        let one = match (computed.next(), computed.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        let bound = xs.iter().find(|x| matches!(x.kind, WorkKind::Leaf));
        match (one, bound) {
            (Some(c), Some(_)) if c.value == w.value => {
                let mut e = self.expr(c, notes, None);
                if !is_leafish(c) && *e != *self.val(c) {
                    e.push_str(" = ");
                    self.val_into(&mut e, c);
                }
                Some(e)
            }
            (Some(c), Some(b)) => {
                let mut from = self.expr(c, notes, None);
                // A rounding's working is in the notes: "8", not "8 = 8".
                if !is_leafish(c) && *from != *self.val(c) {
                    from.push_str(" = ");
                    self.val_into(&mut from, c);
                }
                let id = if max { "clamp-below" } else { "clamp-above" };
                Some(self.m(id, &[("from", Arg::Text(&from)), ("bound", Arg::Text(&self.val(b)))]))
            }
            _ => {
                let shown: Vec<Buf> = xs.iter().map(|x| self.val(x)).collect();
                let id = if max { "largest-of" } else { "smallest-of" };
                Some(self.m(id, &[("of", Arg::Text(&join_and(self, &shown))), ("value", Arg::Text(&self.val(w)))]))
            }
        }
    }

    fn count(
        &self,
        w: &Work,
        b: crate::check::program::Builtin,
        items: &[(Value, Option<bool>)],
        elem: &Type,
    ) -> Option<Buf> {
        use crate::check::program::Builtin::*;
        if items.is_empty() || items.len() > LIST_MAX || w.value.is_none() {
            return None;
        }
        let fill = &items[0].0;
        let mut yes: [&Value; LIST_MAX] = [fill; LIST_MAX];
        let mut no: [&Value; LIST_MAX] = [fill; LIST_MAX];
        let (mut ny, mut nn) = (0, 0);
        for (x, t) in items {
            match t {
                Some(true) => {
                    yes[ny] = x;
                    ny += 1;
                }
                Some(false) => {
                    no[nn] = x;
                    nn += 1;
                }
                None => {}
            }
        }
        let (yes, no) = (&yes[..ny], &no[..nn]);
        let n = |k: usize| Arg::Num(k as i64);
        Some(match b {
            Count | Filter => {
                let listed = self.list(yes, elem);
                // Records read field by field, too long to list: the count alone.
                if !yes.is_empty() && listed.contains("; ") && listed.split_whitespace().count() > RECORDS_WORDS {
                    self.m("counted-bare", &[("n", n(yes.len())), ("of", n(items.len()))])
                } else {
                    self.m("counted", &[("n", n(yes.len())), ("of", n(items.len())), ("items", Arg::Text(&listed))])
                }
            }
            All if no.is_empty() => self.m("all-hold", &[("n", n(items.len()))]),
            All => self.m("not-all-hold", &[("items", Arg::Text(&self.list(no, elem)))]),
            _ if yes.is_empty() => self.m("none-holds", &[("n", n(items.len()))]),
            _ => self.m("some-hold", &[("items", Arg::Text(&self.list(yes, elem)))]),
        })
    }

    /// "the fee (DKK 125)": a named value with its value.
    fn named(&self, label: &str, x: &Work) -> Buf {
        let mut s = Buf::new();
        s.push_str(label);
        s.push_str(" (");
        self.val_into(&mut s, x);
        s.push(')');
        s
    }

    /// A value as worked out: "2 × 142 km = 284 km", or the value alone when the working
    /// says no more.
    fn worked(&self, x: &Work, notes: &mut Vec<Buf>) -> Buf {
        if matches!(x.kind, WorkKind::Leaf | WorkKind::Param(..)) {
            return self.val(x);
        }
        let mut e = self.expr(x, notes, None);
        let v = self.val(x);
        if *e == *v {
            return v;
        }
        e.push_str(" = ");
        e.push_str(&v);
        e
    }

    /// A condition as a sentence: `2,150 … is not less than 2,000`.
    fn condition(&self, w: &Work, holds: bool) -> Option<Buf> {
        let mut notes = Vec::new();
        // "the masterpoints … is 2,150" — or the bare value when it has no name of its own.
        let named_as = |x: &Work, label: Option<Name>, notes: &mut Vec<Buf>| match label {
            Some(l) => self.m("subject", &[("left", Arg::Text(&l)), ("value", Arg::Text(&self.val(x)))]),
            None => self.worked(x, notes),
        };
        let named = |x: &Work, notes: &mut Vec<Buf>| named_as(x, self.label(x), notes);
        let right_as = |x: &Work, label: Option<Name>, notes: &mut Vec<Buf>| match label {
            Some(l) => self.named(&l, x),
            None => self.worked(x, notes),
        };
        let right = |x: &Work, notes: &mut Vec<Buf>| right_as(x, self.label(x), notes);
        let yes = if holds { "yes" } else { "no" };
        let s = match &w.kind {
            WorkKind::Not(x) => return self.condition(x, !holds),
            WorkKind::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let parts: Vec<Buf> = [a, b]
                    .iter()
                    .filter_map(|x| self.condition(x, x.value.as_ref().and_then(Value::as_bool).unwrap_or(false)))
                    .collect();
                let mut sep = Buf::new();
                sep.push(' ');
                sep.push_str(word(self.lang, "and"));
                sep.push(' ');
                joined(&parts, &sep)
            }
            WorkKind::Binary(op, a, b) if op.is_comparison() => {
                let (la, lb) = (self.label(a), self.label(b));
                let b_named = lb.is_some();
                let r = right_as(b, lb, &mut notes);
                if la.is_none() {
                    // Two bare values: "70 is more than 40".
                    let l = named_as(a, la, &mut notes);
                    let op = if holds { *op } else { complement(*op) };
                    // "1 is 1" says nothing: the working says it by the steps that gave the values.
                    if op == BinaryOp::Eq && !b_named && *l == *r {
                        return None;
                    }
                    let id = if op == BinaryOp::Ne { "bare-ne" } else { rel_id(op) };
                    self.m(id, &[("left", Arg::Text(&l)), ("right", Arg::Text(&r))])
                } else {
                    let l = named_as(a, la, &mut notes);
                    let equal = (*op == BinaryOp::Eq && holds) || (*op == BinaryOp::Ne && !holds);
                    let same = equal && !b_named && *r == *self.val(a);
                    if same {
                        l
                    } else {
                        self.m(cmp_id(*op, holds), &[("subject", Arg::Text(&l)), ("right", Arg::Text(&r))])
                    }
                }
            }
            WorkKind::InRange { x, lo, hi, inclusive } => {
                let l = named(x, &mut notes);
                let lo = lo.as_ref().map(|v| self.val(v));
                let hi = hi.as_ref().map(|v| self.val(v));
                let (id, a, b) = match (lo, hi) {
                    (Some(lo), Some(hi)) if *inclusive => ("range", lo, hi),
                    (Some(lo), Some(hi)) => ("range-open", lo, hi),
                    (Some(lo), None) => ("range-from", lo, Buf::new()),
                    (None, Some(hi)) if *inclusive => ("range-to", Buf::new(), hi),
                    (None, Some(hi)) => ("range-below", Buf::new(), hi),
                    (None, None) => return None,
                };
                self.m(
                    &format!("{id}-{yes}"),
                    &[("subject", Arg::Text(&l)), ("lo", Arg::Text(&a)), ("hi", Arg::Text(&b))],
                )
            }
            WorkKind::InList(x, list) => {
                let l = named(x, &mut notes);
                let items = match (&list.value, &list.ty) {
                    (Some(Value::List(xs)), Type::List(e)) if xs.len() <= LIST_MAX => {
                        self.list(&xs.iter().collect::<Vec<_>>(), e)
                    }
                    _ => right(list, &mut notes),
                };
                self.m(
                    if holds { "among-yes" } else { "among-no" },
                    &[("subject", Arg::Text(&l)), ("list", Arg::Text(&items))],
                )
            }
            _ => {
                let l = match self.label(w) {
                    Some(l) => l,
                    None => Name::Made(self.expr(w, &mut notes, None)),
                };
                self.m(if holds { "holds-yes" } else { "holds-no" }, &[("left", Arg::Text(&l))])
            }
        };
        if notes.is_empty() {
            return Some(s);
        }
        notes.push(s);
        Some(joined(&notes, "; "))
    }

    /// What a condition required, with the value found: "the number of … is more than 1
    /// (here: 1)". `want` is the truth the rule needed.
    pub(crate) fn requirement(&self, w: &Work, want: bool) -> Option<Buf> {
        let mut notes = Vec::new();
        let subject = |x: &Work, notes: &mut Vec<Buf>| match self.label(x) {
            Some(l) => l,
            None => Name::Made(self.expr(x, notes, None)),
        };
        let right = |x: &Work, notes: &mut Vec<Buf>| match self.label(x) {
            Some(l) => self.named(&l, x),
            None => self.worked(x, notes),
        };
        let here = |rel: &mut Buf, x: &Work| {
            rel.push(' ');
            msg_into(rel, self.lang, "here", &[("value", Arg::Text(&self.val(x)))]);
        };
        let s = match &w.kind {
            WorkKind::Not(x) => return self.requirement(x, !want),
            WorkKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                // "a and b" wanted false is "not a or not b"; "a or b" wanted false is "not a and not b".
                let joiner = if (*op == BinaryOp::And) == want { "and" } else { "or" };
                let parts: Vec<Buf> = [a, b].iter().filter_map(|x| self.requirement(x, want)).collect();
                if parts.is_empty() {
                    return None;
                }
                let mut sep = Buf::new();
                sep.push(' ');
                sep.push_str(word(self.lang, joiner));
                sep.push(' ');
                return Some(joined(&parts, &sep));
            }
            WorkKind::Binary(op, a, b) if op.is_comparison() => {
                let op = if want { *op } else { complement(*op) };
                let la = self.label(a);
                let a_named = la.is_some();
                let l = match la {
                    Some(l) => l,
                    None => Name::Made(self.expr(a, &mut notes, None)),
                };
                let r = right(b, &mut notes);
                let mut rel = self.m(rel_id(op), &[("left", Arg::Text(&l)), ("right", Arg::Text(&r))]);
                if a_named {
                    here(&mut rel, a);
                }
                rel
            }
            WorkKind::InRange { x, lo, hi, inclusive } => {
                let l = subject(x, &mut notes);
                let lo = lo.as_ref().map(|v| self.val(v));
                let hi = hi.as_ref().map(|v| self.val(v));
                let (id, a, b) = match (lo, hi) {
                    (Some(lo), Some(hi)) if *inclusive => ("range", lo, hi),
                    (Some(lo), Some(hi)) => ("range-open", lo, hi),
                    (Some(lo), None) => ("range-from", lo, Buf::new()),
                    (None, Some(hi)) if *inclusive => ("range-to", Buf::new(), hi),
                    (None, Some(hi)) => ("range-below", Buf::new(), hi),
                    (None, None) => return None,
                };
                let id = if want { format!("rel-{id}") } else { format!("rel-not-{id}") };
                let mut rel = self.m(&id, &[("left", Arg::Text(&l)), ("lo", Arg::Text(&a)), ("hi", Arg::Text(&b))]);
                here(&mut rel, x);
                rel
            }
            WorkKind::InList(x, list) => {
                let l = subject(x, &mut notes);
                let items = match (&list.value, &list.ty) {
                    (Some(Value::List(xs)), Type::List(e)) if xs.len() <= LIST_MAX => {
                        self.list(&xs.iter().collect::<Vec<_>>(), e)
                    }
                    _ => right(list, &mut notes),
                };
                let id = if want { "rel-among" } else { "rel-not-among" };
                let mut rel = self.m(id, &[("left", Arg::Text(&l)), ("list", Arg::Text(&items))]);
                here(&mut rel, x);
                rel
            }
            _ => {
                let l = match self.label(w) {
                    Some(l) => l,
                    None => Name::Made(self.expr(w, &mut notes, None)),
                };
                let yes_no = |b: bool| word(self.lang, if b { "yes" } else { "no" });
                let have = w.value.as_ref().and_then(Value::as_bool).unwrap_or(!want);
                self.m(
                    "rel-bool",
                    &[("left", Arg::Text(&l)), ("want", Arg::Text(yes_no(want))), ("have", Arg::Text(yes_no(have)))],
                )
            }
        };
        if notes.is_empty() {
            return Some(s);
        }
        notes.push(s);
        Some(joined(&notes, "; "))
    }

    /// A condition of a rule (held or not), in words.
    pub(crate) fn atom_sentence(&self, a: &Atom) -> String {
        self.atom_words(a).map(Buf::into_string).unwrap_or_default()
    }

    /// [`Self::atom_sentence`]; `None` when it says nothing.
    pub(crate) fn atom_words(&self, a: &Atom) -> Option<Buf> {
        self.condition(a.work.as_ref()?, a.holds).filter(|s| !tautology(s))
    }
}

/// The texts one after the other with `sep` between them.
fn joined<S: std::ops::Deref<Target = String>>(xs: &[S], sep: &str) -> Buf {
    let mut out = Buf::new();
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(x);
    }
    out
}

fn join_and<S: std::ops::Deref<Target = String>>(e: &Explainer, xs: &[S]) -> Buf {
    match xs {
        [] => Buf::new(),
        [x] => Buf::of(x),
        [init @ .., last] => {
            let mut out = joined(init, ", ");
            out.push(' ');
            out.push_str(word(e.lang, "and"));
            out.push(' ');
            out.push_str(last);
            out
        }
    }
}

fn is_arith(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div)
}

fn is_leafish(w: &Work) -> bool {
    matches!(
        w.kind,
        WorkKind::Leaf
            | WorkKind::Param(..)
            | WorkKind::Fact(_)
            | WorkKind::FactPath(..)
            | WorkKind::Field(..)
            | WorkKind::Def(_)
            | WorkKind::Decision(_)
    )
}

fn needs_parens(op: BinaryOp, parent: Option<(BinaryOp, bool)>) -> bool {
    let prec = |o: BinaryOp| if matches!(o, BinaryOp::Mul | BinaryOp::Div) { 2 } else { 1 };
    match parent {
        None => false,
        Some((p, right)) => {
            prec(op) < prec(p) || (right && prec(op) == prec(p) && matches!(p, BinaryOp::Sub | BinaryOp::Div))
        }
    }
}

fn op_id(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "op-add",
        BinaryOp::Sub => "op-sub",
        BinaryOp::Mul => "op-mul",
        _ => "op-div",
    }
}

/// The message of a rounding builtin's working, as the table of builtins names it.
fn round_id(b: crate::check::program::Builtin) -> &'static str {
    b.message().unwrap_or("rounded")
}

/// The comparison that holds exactly when `op` does not.
fn complement(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Ge,
        BinaryOp::Le => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Le,
        BinaryOp::Ge => BinaryOp::Lt,
        BinaryOp::Eq => BinaryOp::Ne,
        _ => BinaryOp::Eq,
    }
}

/// The message of a comparison stated as a relation (`rel-lt`).
/// Whether a sentence only says a value is itself ("no: no"): its two halves around the
/// first `: ` the same.
fn tautology(s: &str) -> bool {
    s.split_once(": ").is_some_and(|(a, b)| !a.is_empty() && a == b)
}

fn rel_id(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Lt => "rel-lt",
        BinaryOp::Le => "rel-le",
        BinaryOp::Gt => "rel-gt",
        BinaryOp::Ge => "rel-ge",
        BinaryOp::Eq => "rel-eq",
        _ => "rel-ne",
    }
}

/// The message of a comparison of a named value that holds or not (`cmp-lt-yes`).
fn cmp_id(op: BinaryOp, holds: bool) -> &'static str {
    match (op, holds) {
        (BinaryOp::Lt, true) => "cmp-lt-yes",
        (BinaryOp::Lt, false) => "cmp-lt-no",
        (BinaryOp::Le, true) => "cmp-le-yes",
        (BinaryOp::Le, false) => "cmp-le-no",
        (BinaryOp::Gt, true) => "cmp-gt-yes",
        (BinaryOp::Gt, false) => "cmp-gt-no",
        (BinaryOp::Ge, true) => "cmp-ge-yes",
        (BinaryOp::Ge, false) => "cmp-ge-no",
        (BinaryOp::Eq, true) => "cmp-eq-yes",
        (BinaryOp::Eq, false) => "cmp-eq-no",
        (_, true) => "cmp-ne-yes",
        (_, false) => "cmp-ne-no",
    }
}
