//! The working in words: a [`Work`] turned into sentences a player reads — arithmetic
//! as an equation with the values put in, rounding and clamping named, comparisons
//! as sentences, rankings and apportionments as their rows, counts as the items
//! counted. No source syntax and no internal names; every frame word comes from the
//! message files.

use super::Explainer;
use super::messages::{Arg, msg, word_ref as word};
use crate::check::types::Type;
use crate::eval::show;
use crate::eval::trace::{Atom, Work, WorkKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

mod rows;

/// Lists longer than this are shown by their count only.
pub(crate) const LIST_MAX: usize = 12;

impl Explainer<'_> {
    fn show(&self, v: &Value, ty: &Type) -> String {
        show::value(self.p, v, ty, self.lang)
    }

    fn val(&self, w: &Work) -> String {
        let mut out = String::with_capacity(24);
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

    fn m(&self, id: &str, args: &[(&str, Arg)]) -> String {
        msg(self.lang, id, args)
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

    /// How a parameter of a definition is named: by what it stands for, else its name.
    pub(crate) fn param_label(&self, def: u32, i: u32) -> Option<String> {
        self.views().defs[def as usize].param_labels.get(i as usize)?.clone()
    }

    /// The rulebook's views in the explanation's language.
    pub(crate) fn views(&self) -> std::sync::Arc<super::views::Views> {
        super::views::get(self.p, self.lang)
    }

    /// How a value is named in a sentence: a fact, decision or definition by its short
    /// phrase, a parameter by what it stands for, anything else by its working.
    fn label(&self, w: &Work) -> Option<String> {
        match &w.kind {
            WorkKind::Fact(f) => Some(self.views().facts[*f as usize].label.to_string()),
            WorkKind::FactPath(f, path) => Some(self.views().field(self.p, *f, path).label.to_string()),
            WorkKind::Def(d) => Some(self.def_label(*d)),
            WorkKind::Param(d, i) => self.param_label(*d, *i),
            WorkKind::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => {
                    fs.get(*i as usize).map(|f| self.short(f.says.as_deref(), f.doc.as_deref(), &f.name))
                }
                _ => None,
            },
            WorkKind::Decision(d) => Some(self.views().decisions[*d as usize].label.to_string()),
            WorkKind::Size(inner) => self.label(inner).map(|l| self.m("number-of", &[("what", Arg::Text(&l))])),
            _ => None,
        }
    }

    /// The explicit `says` phrase of a named value, shown beside it in an equation.
    fn says_of(&self, w: &Work) -> Option<String> {
        let says = match &w.kind {
            WorkKind::Fact(f) => self.p.facts[*f as usize].says.as_deref(),
            WorkKind::FactPath(f, path) => {
                return self.views().field(self.p, *f, path).says.as_deref().map(str::to_string);
            }
            WorkKind::Def(d) => self.p.defs[*d as usize].says.as_deref(),
            WorkKind::Decision(d) => self.p.decisions[*d as usize].says.as_deref(),
            WorkKind::Field(t, i) => match &self.p.types[*t as usize].kind {
                crate::check::program::TypeKind::Record(fs) => fs.get(*i as usize).and_then(|f| f.says.as_deref()),
                _ => None,
            },
            _ => None,
        };
        says.map(|s| self.gloss(s))
    }

    fn list(&self, xs: &[&Value], elem: &Type) -> String {
        if xs.is_empty() {
            return word(self.lang, "none").to_string();
        }
        let shown: Vec<String> = xs.iter().map(|x| self.show(x, elem)).collect();
        join_and(self, &shown)
    }

    /// A sub-expression inside an equation: its working when it is arithmetic, else its value.
    /// Roundings, clamps and the like inside are said first, in `notes`.
    fn expr(&self, w: &Work, notes: &mut Vec<String>, parent: Option<(BinaryOp, bool)>) -> String {
        let mut out = String::with_capacity(64);
        self.expr_into(&mut out, w, notes, parent);
        out
    }

    /// [`Self::expr`], appended to `out`.
    fn expr_into(&self, out: &mut String, w: &Work, notes: &mut Vec<String>, parent: Option<(BinaryOp, bool)>) {
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
                notes.extend(self.sentences(w));
                self.val_into(out, w);
            }
        }
    }

    /// The working of `w` as sentences; empty when there is nothing to show beyond the value.
    pub(crate) fn sentences(&self, w: &Work) -> Vec<String> {
        let mut notes = Vec::new();
        let arith = matches!(&w.kind, WorkKind::Binary(op, ..) if is_arith(*op)) || matches!(w.kind, WorkKind::Neg(_));
        let main = match &w.kind {
            _ if arith => {
                let mut e = String::with_capacity(96);
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
                let inner = self.expr(x, &mut notes, None);
                let from = if is_leafish(x) { inner } else { format!("{inner} = {}", self.val(x)) };
                Some(self.m(round_id(b.name()), &[("from", Arg::Text(&from)), ("to", Arg::Text(&self.val(w)))]))
            }
            WorkKind::Clamp(b, xs) => self.clamp(w, *b == crate::check::program::Builtin::Max, xs, &mut notes),
            WorkKind::If(c, taken) => {
                let cond = self.condition(c, c.value.as_ref().and_then(Value::as_bool).unwrap_or(false));
                let then = self.sentences(taken);
                match (cond, then.is_empty()) {
                    (Some(c), true) => Some(c),
                    (Some(c), false) => Some(format!("{c}; {}", then.join("; "))),
                    (None, _) => (!then.is_empty()).then(|| then.join("; ")),
                }
            }
            WorkKind::Count { builtin, items, elem } => self.count(w, *builtin, items, elem),
            WorkKind::Sum { items, .. } if items.len() > 1 && items.len() <= LIST_MAX => {
                let mut e = String::with_capacity(96);
                self.expr_into(&mut e, w, &mut notes, None);
                e.push_str(" = ");
                self.val_into(&mut e, w);
                Some(e)
            }
            WorkKind::Ranking { builtin, items, elem, key, places } => {
                self.ranking(*builtin, items, elem, key, places.as_ref(), w)
            }
            WorkKind::Apportion { seats, items, elem } => self.apportion(seats, items, elem, w),
            WorkKind::Standings { items, elem, keys, among, breaks, groups } => {
                notes.extend(self.standings(items, elem, keys, among, breaks, groups));
                None
            }
            WorkKind::Map(inner) => {
                notes.extend(self.sentences(inner));
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
                    notes.push(format!("{name}: {}", said.join("; ")));
                }
                None
            }
            _ => None,
        };
        notes.extend(main);
        notes
    }

    fn clamp(&self, w: &Work, max: bool, xs: &[Work], notes: &mut Vec<String>) -> Option<String> {
        // The computed side and the bound: a clamp reads "… is below 0, so 0".
        let computed: Vec<&Work> = xs.iter().filter(|x| !matches!(x.kind, WorkKind::Leaf)).collect();
        let bound = xs.iter().find(|x| matches!(x.kind, WorkKind::Leaf));
        match (computed.as_slice(), bound) {
            ([c], Some(_)) if c.value == w.value => {
                let e = self.expr(c, notes, None);
                Some(if is_leafish(c) { e } else { format!("{e} = {}", self.val(c)) })
            }
            ([c], Some(b)) => {
                let e = self.expr(c, notes, None);
                let from = if is_leafish(c) { e } else { format!("{e} = {}", self.val(c)) };
                let id = if max { "clamp-below" } else { "clamp-above" };
                Some(self.m(id, &[("from", Arg::Text(&from)), ("bound", Arg::Text(&self.val(b)))]))
            }
            _ => {
                let shown: Vec<String> = xs.iter().map(|x| self.val(x)).collect();
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
    ) -> Option<String> {
        use crate::check::program::Builtin::*;
        let yes: Vec<&Value> = items.iter().filter(|(_, t)| *t == Some(true)).map(|(x, _)| x).collect();
        let no: Vec<&Value> = items.iter().filter(|(_, t)| *t == Some(false)).map(|(x, _)| x).collect();
        if items.is_empty() || items.len() > LIST_MAX {
            return None;
        }
        let n = |k: usize| Arg::Num(k as i64);
        Some(match b {
            Count | Filter => self.m(
                "counted",
                &[("n", n(yes.len())), ("of", n(items.len())), ("items", Arg::Text(&self.list(&yes, elem)))],
            ),
            All if no.is_empty() => self.m("all-hold", &[("n", n(items.len()))]),
            All => self.m("not-all-hold", &[("items", Arg::Text(&self.list(&no, elem)))]),
            _ if yes.is_empty() => self.m("none-holds", &[("n", n(items.len()))]),
            _ => self.m("some-hold", &[("items", Arg::Text(&self.list(&yes, elem)))]),
        })
        .filter(|_| w.value.is_some())
    }

    /// "the fee (DKK 125)": a named value with its value.
    fn named(&self, label: &str, x: &Work) -> String {
        let mut s = String::with_capacity(label.len() + 24);
        s.push_str(label);
        s.push_str(" (");
        self.val_into(&mut s, x);
        s.push(')');
        s
    }

    /// A value as worked out: "2 × 142 km = 284 km", or the value alone when the working
    /// says no more.
    fn worked(&self, x: &Work, notes: &mut Vec<String>) -> String {
        if matches!(x.kind, WorkKind::Leaf | WorkKind::Param(..)) {
            return self.val(x);
        }
        let mut e = self.expr(x, notes, None);
        let v = self.val(x);
        if e == v {
            return v;
        }
        e.push_str(" = ");
        e.push_str(&v);
        e
    }

    /// A condition as a sentence: `2,150 … is not less than 2,000`.
    fn condition(&self, w: &Work, holds: bool) -> Option<String> {
        let mut notes = Vec::new();
        // "the masterpoints … is 2,150" — or the bare value when it has no name of its own.
        let named_as = |x: &Work, label: Option<String>, notes: &mut Vec<String>| match label {
            Some(l) => self.m("subject", &[("left", Arg::Text(&l)), ("value", Arg::Text(&self.val(x)))]),
            None => self.worked(x, notes),
        };
        let named = |x: &Work, notes: &mut Vec<String>| named_as(x, self.label(x), notes);
        let right_as = |x: &Work, label: Option<String>, notes: &mut Vec<String>| match label {
            Some(l) => self.named(&l, x),
            None => self.worked(x, notes),
        };
        let right = |x: &Work, notes: &mut Vec<String>| right_as(x, self.label(x), notes);
        let yes = if holds { "yes" } else { "no" };
        let s = match &w.kind {
            WorkKind::Not(x) => return self.condition(x, !holds),
            WorkKind::Binary(BinaryOp::And | BinaryOp::Or, a, b) => {
                let parts: Vec<String> = [a, b]
                    .iter()
                    .filter_map(|x| self.condition(x, x.value.as_ref().and_then(Value::as_bool).unwrap_or(false)))
                    .collect();
                parts.join(&format!(" {} ", word(self.lang, "and")))
            }
            WorkKind::Binary(op, a, b) if op.is_comparison() => {
                let (la, lb) = (self.label(a), self.label(b));
                let b_named = lb.is_some();
                let r = right_as(b, lb, &mut notes);
                if la.is_none() {
                    // Two bare values: "70 is more than 40".
                    let l = named_as(a, la, &mut notes);
                    let op = if holds { *op } else { complement(*op) };
                    let id = if op == BinaryOp::Ne { "bare-ne" } else { rel_id(op) };
                    self.m(id, &[("left", Arg::Text(&l)), ("right", Arg::Text(&r))])
                } else {
                    let l = named_as(a, la, &mut notes);
                    let equal = (*op == BinaryOp::Eq && holds) || (*op == BinaryOp::Ne && !holds);
                    let same = equal && !b_named && r == self.val(a);
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
                    (Some(lo), None) => ("range-from", lo, String::new()),
                    (None, Some(hi)) if *inclusive => ("range-to", String::new(), hi),
                    (None, Some(hi)) => ("range-below", String::new(), hi),
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
                let l = self.label(w).unwrap_or_else(|| self.expr(w, &mut notes, None));
                self.m(if holds { "holds-yes" } else { "holds-no" }, &[("left", Arg::Text(&l))])
            }
        };
        if notes.is_empty() {
            return Some(s);
        }
        notes.push(s);
        Some(notes.join("; "))
    }

    /// What a condition required, with the value found: "the number of … is more than 1
    /// (here: 1)". `want` is the truth the rule needed.
    pub(crate) fn requirement(&self, w: &Work, want: bool) -> Option<String> {
        let mut notes = Vec::new();
        let subject = |x: &Work, notes: &mut Vec<String>| match self.label(x) {
            Some(l) => l,
            None => self.expr(x, notes, None),
        };
        let right = |x: &Work, notes: &mut Vec<String>| match self.label(x) {
            Some(l) => self.named(&l, x),
            None => self.worked(x, notes),
        };
        let here = |x: &Work| self.m("here", &[("value", Arg::Text(&self.val(x)))]);
        let s = match &w.kind {
            WorkKind::Not(x) => return self.requirement(x, !want),
            WorkKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                // "a and b" wanted false is "not a or not b"; "a or b" wanted false is "not a and not b".
                let joiner = if (*op == BinaryOp::And) == want { "and" } else { "or" };
                let parts: Vec<String> = [a, b].iter().filter_map(|x| self.requirement(x, want)).collect();
                return (!parts.is_empty()).then(|| parts.join(&format!(" {} ", word(self.lang, joiner))));
            }
            WorkKind::Binary(op, a, b) if op.is_comparison() => {
                let op = if want { *op } else { complement(*op) };
                let la = self.label(a);
                let a_named = la.is_some();
                let l = la.unwrap_or_else(|| self.expr(a, &mut notes, None));
                let r = right(b, &mut notes);
                let rel = self.m(rel_id(op), &[("left", Arg::Text(&l)), ("right", Arg::Text(&r))]);
                if a_named { format!("{rel} {}", here(a)) } else { rel }
            }
            WorkKind::InRange { x, lo, hi, inclusive } => {
                let l = subject(x, &mut notes);
                let lo = lo.as_ref().map(|v| self.val(v));
                let hi = hi.as_ref().map(|v| self.val(v));
                let (id, a, b) = match (lo, hi) {
                    (Some(lo), Some(hi)) if *inclusive => ("range", lo, hi),
                    (Some(lo), Some(hi)) => ("range-open", lo, hi),
                    (Some(lo), None) => ("range-from", lo, String::new()),
                    (None, Some(hi)) if *inclusive => ("range-to", String::new(), hi),
                    (None, Some(hi)) => ("range-below", String::new(), hi),
                    (None, None) => return None,
                };
                let id = if want { format!("rel-{id}") } else { format!("rel-not-{id}") };
                let rel = self.m(&id, &[("left", Arg::Text(&l)), ("lo", Arg::Text(&a)), ("hi", Arg::Text(&b))]);
                format!("{rel} {}", here(x))
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
                let rel = self.m(id, &[("left", Arg::Text(&l)), ("list", Arg::Text(&items))]);
                format!("{rel} {}", here(x))
            }
            _ => {
                let l = self.label(w).unwrap_or_else(|| self.expr(w, &mut notes, None));
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
        Some(notes.join("; "))
    }

    /// A condition of a rule (held or not), in words.
    pub(crate) fn atom_sentence(&self, a: &Atom) -> String {
        match &a.work {
            Some(w) => self.condition(w, a.holds).unwrap_or_default(),
            None => String::new(),
        }
    }
}

fn join_and(e: &Explainer, xs: &[String]) -> String {
    match xs {
        [] => String::new(),
        [x] => x.clone(),
        [init @ .., last] => format!("{} {} {last}", init.join(", "), word(e.lang, "and")),
    }
}

fn is_arith(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div)
}

/// The head of a description: up to its first `:` or `;` (the rest says more of it).
pub(crate) fn head_phrase(d: &str) -> &str {
    let cut = [": ", "; "].iter().filter_map(|s| d.find(s)).min();
    match cut {
        Some(i) if i > 0 => d[..i].trim_end(),
        _ => d,
    }
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

fn round_id(name: &str) -> &'static str {
    match name {
        "ceil" => "rounded-up",
        "floor" => "rounded-down",
        "round" => "rounded",
        _ => "without-sign",
    }
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
