//! Missing numbers tried at the thresholds they are compared with.
//!
//! A number (or duration, or amount) that the conditions only ever *compare with
//! constants* — `masterpoints < 5000`, `s.afstand_til_spillested > 65 km`, a rule
//! pattern `3..=5` — can change a ruling only by crossing one of those constants. Its
//! values then fall into finitely many regions (below the lowest threshold, at it,
//! between it and the next, …, above the highest) on which every comparison, and so the
//! ruling, is the same; one value per region ([`representatives`]) is as good as all.
//!
//! The scan ([`samples`]) is conservative: a single use of the input that is not such a
//! comparison (arithmetic, a sum, a value passed on or returned, a record holding it
//! compared whole) and the input keeps its infinite domain, so it is named whenever
//! the interpreter names it. Never a number called irrelevant that could matter.

use crate::base::num::Num;
use crate::base::value::Value;
use crate::check::program::{DefId, FactId, Ir, IrKind, PatIr, Program, TypeId, TypeKind};
use crate::check::types::Type;
use crate::syntax::ast::BinaryOp;

/// Where a missing number is read: a fact, or a field of a record type (wherever the
/// record comes from).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Fact(FactId),
    Field(TypeId, u32),
}

struct Scan<'a> {
    p: &'a Program,
    target: Target,
    /// Definitions that are the input under another name (`def cutoff = player.masterpoints`).
    aliases: Vec<DefId>,
    thresholds: Vec<Num>,
    /// A use that is not a comparison with a constant was found.
    bad: bool,
}

fn contains_record(p: &Program, ty: &Type, t: TypeId, depth: usize) -> bool {
    if depth > 16 {
        return true;
    }
    match ty {
        Type::Record(r) if *r == t => true,
        Type::Record(r) => match &p.types[*r as usize].kind {
            TypeKind::Record(fs) => fs.iter().any(|f| contains_record(p, &f.ty, t, depth + 1)),
            TypeKind::Enum(_) => false,
        },
        Type::List(e) => contains_record(p, e, t, depth + 1),
        Type::Error => true,
        _ => false,
    }
}

impl Scan<'_> {
    /// Whether `ir` reads the input directly (or through an alias).
    fn is_target(&self, ir: &Ir) -> bool {
        match (&ir.kind, self.target) {
            (IrKind::Fact(f), Target::Fact(g)) => *f == g,
            (IrKind::Field(x, i), Target::Field(t, j)) => *i == j && x.ty == Type::Record(t),
            (IrKind::Call(d, args), _) => args.is_empty() && self.aliases.contains(d),
            _ => false,
        }
    }

    fn constant(ir: &Ir) -> Option<Num> {
        match &ir.kind {
            IrKind::Const(Value::Num(n)) => Some(*n),
            _ => None,
        }
    }

    fn pattern(&mut self, pat: &PatIr) {
        match pat {
            PatIr::Any => {}
            PatIr::Bind(_) => self.bad = true,
            PatIr::Equals(Value::Num(n)) => self.thresholds.push(*n),
            PatIr::Equals(_) => {}
            PatIr::Range { lo, hi, .. } => {
                for v in lo.iter().chain(hi.iter()) {
                    match v {
                        Value::Num(n) => self.thresholds.push(*n),
                        _ => self.bad = true,
                    }
                }
            }
            PatIr::Alts(ps) => ps.iter().for_each(|p| self.pattern(p)),
        }
    }

    /// The input passed as argument `k` of `d`: fine when every rule only matches it
    /// against constant patterns.
    fn argument(&mut self, d: DefId, k: usize) {
        let info = &self.p.defs[d as usize];
        if info.table.is_some() {
            self.bad = true;
            return;
        }
        for &r in &info.rules {
            match self.p.rules[r as usize].patterns.get(k) {
                Some(pat) => self.pattern(pat),
                None => self.bad = true,
            }
        }
    }

    fn walk(&mut self, ir: &Ir) {
        if self.bad {
            return;
        }
        if self.is_target(ir) {
            // Reached other than as one side of a comparison with a constant.
            self.bad = true;
            return;
        }
        if let Target::Field(t, _) = self.target {
            // A record holding the input, compared or told apart whole.
            use crate::check::program::Builtin as B;
            let holds = |x: &Ir| contains_record(self.p, &x.ty, t, 0);
            let whole = match &ir.kind {
                IrKind::Binary(_, a, b) | IrKind::InList(a, b) => holds(a) || holds(b),
                IrKind::Draw(_, x, _) => holds(x),
                IrKind::Builtin(
                    B::Distinct | B::Contains | B::Position | B::Draw | B::Choose | B::Apportion,
                    xs,
                    _,
                ) => xs.iter().any(holds),
                _ => false,
            };
            if whole {
                self.bad = true;
                return;
            }
        }
        match &ir.kind {
            IrKind::Binary(op, a, b) if is_comparison(*op) => {
                let (side, other) = if self.is_target(a) { (a, b) } else { (b, a) };
                if self.is_target(side) {
                    match Scan::constant(other) {
                        Some(n) if !self.is_target(other) => self.thresholds.push(n),
                        _ => self.bad = true,
                    }
                    return;
                }
            }
            IrKind::InRange { x, lo, hi, .. } if self.is_target(x) => {
                for b in lo.iter().chain(hi.iter()) {
                    match Scan::constant(b) {
                        Some(n) => self.thresholds.push(n),
                        None => self.bad = true,
                    }
                }
                return;
            }
            IrKind::InList(x, list) if self.is_target(x) => {
                match &list.kind {
                    IrKind::List(items) => {
                        for i in items {
                            match Scan::constant(i) {
                                Some(n) => self.thresholds.push(n),
                                None => self.bad = true,
                            }
                        }
                    }
                    _ => self.bad = true,
                }
                return;
            }
            IrKind::Call(d, args) => {
                for (k, a) in args.iter().enumerate() {
                    if self.is_target(a) {
                        self.argument(*d, k);
                    } else {
                        self.walk(a);
                    }
                }
                return;
            }
            _ => {}
        }
        children(ir, &mut |c| self.walk(c));
    }
}

fn is_comparison(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
}

/// Calls `f` on each direct sub-expression of `ir`.
fn children(ir: &Ir, f: &mut impl FnMut(&Ir)) {
    match &ir.kind {
        IrKind::Const(_) | IrKind::Local(_) | IrKind::Fact(_) | IrKind::Decision(_) => {}
        IrKind::Field(x, _) | IrKind::Not(x) | IrKind::Neg(x) => f(x),
        IrKind::Draw(_, x, n) => {
            f(x);
            if let Some(n) = n {
                f(n);
            }
        }
        IrKind::Call(_, xs) | IrKind::List(xs) => xs.iter().for_each(f),
        IrKind::Record(_, xs) => xs.iter().flatten().for_each(f),
        IrKind::Binary(_, a, b) | IrKind::InList(a, b) | IrKind::Let(_, a, b) => {
            f(a);
            f(b);
        }
        IrKind::InRange { x, lo, hi, .. } => {
            f(x);
            lo.iter().chain(hi.iter()).for_each(|a| f(a));
        }
        IrKind::If(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        IrKind::Order(o) => {
            f(&o.list);
            o.keys.iter().chain(o.among.iter().flat_map(|(_, k)| k)).for_each(|k| f(&k.key));
        }
        IrKind::Builtin(_, xs, lam) => {
            xs.iter().for_each(&mut *f);
            if let Some(l) = lam {
                f(&l.body);
            }
        }
    }
}

/// The definitions that stand for the input: no parameters, no table, every rule
/// unconditional with the input (or another alias) as its value.
fn aliases(p: &Program, target: Target) -> Vec<DefId> {
    let mut out: Vec<DefId> = Vec::new();
    loop {
        let scan = Scan { p, target, aliases: out.clone(), thresholds: Vec::new(), bad: false };
        let more: Vec<DefId> = p
            .defs
            .iter()
            .enumerate()
            .filter(|(i, d)| {
                !out.contains(&(*i as DefId))
                    && d.params.is_empty()
                    && d.table.is_none()
                    && !d.rules.is_empty()
                    && d.rules.iter().all(|&r| {
                        let r = &p.rules[r as usize];
                        r.guard.is_none() && r.exceptions.is_empty() && scan.is_target(&r.value)
                    })
            })
            .map(|(i, _)| i as DefId)
            .collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// The values worth trying for a missing number of type `ty` read at `target` by
/// ruling `def`: one per region its thresholds cut the number line into, or `None`
/// when some use is not a comparison with a constant.
pub fn samples(p: &Program, def: DefId, target: Target, ty: &Type) -> Option<Vec<Value>> {
    if !matches!(ty, Type::Int | Type::Quantity(_)) {
        return None;
    }
    let aliases = aliases(p, target);
    let mut scan = Scan { p, target, aliases: aliases.clone(), thresholds: Vec::new(), bad: false };
    if let Target::Field(t, _) = target
        && contains_record(p, &p.defs[def as usize].ty, t, 0)
    {
        return None; // the ruling's value holds the record, and with it the number
    }
    if aliases.contains(&def) {
        return None; // the ruling is the number itself
    }
    for r in &p.rules {
        if aliases.contains(&r.def) {
            continue; // the alias's own body
        }
        if let Some(g) = &r.guard {
            scan.walk(g);
        }
        scan.walk(&r.value);
    }
    for d in &p.defs {
        if let Some(t) = &d.table {
            for row in &t.rows {
                scan.walk(&row.value);
            }
        }
    }
    if scan.bad {
        return None;
    }
    representatives(&mut scan.thresholds, *ty == Type::Int)
}

/// One value in each region the thresholds cut the numbers into (whole numbers only
/// when `whole`): below the lowest, each threshold, between each two, above the highest.
pub fn representatives(thresholds: &mut Vec<Num>, whole: bool) -> Option<Vec<Value>> {
    thresholds.sort();
    thresholds.dedup();
    let mut out: Vec<Num> = Vec::new();
    if thresholds.is_empty() {
        out.push(Num::ZERO);
    }
    for (i, t) in thresholds.iter().enumerate() {
        if whole {
            out.push(t.ceil().sub(Num::ONE)?);
            if t.is_integer() {
                out.push(*t);
            }
            out.push(t.floor().add(Num::ONE)?);
        } else {
            if i == 0 {
                out.push(t.sub(Num::ONE)?);
            }
            out.push(*t);
            match thresholds.get(i + 1) {
                Some(next) => out.push(t.add(*next)?.div(Num::int(2))?),
                None => out.push(t.add(Num::ONE)?),
            }
        }
    }
    out.sort();
    out.dedup();
    Some(out.into_iter().map(Value::Num).collect())
}

/// Where a hole's number is read, following its steps through the fact's type.
pub fn target_of(p: &Program, hole: &super::Hole) -> Option<Target> {
    match &hole.kind {
        super::HoleKind::Fact(f) => Some(Target::Fact(*f)),
        super::HoleKind::Field { fact, steps } => {
            let mut ty = p.facts[*fact as usize].ty.clone();
            let mut last = None;
            for s in steps {
                match (s, &ty) {
                    (super::Step::Index(_), Type::List(e)) => ty = (**e).clone(),
                    (super::Step::Field(i), Type::Record(t)) => {
                        let TypeKind::Record(fs) = &p.types[*t as usize].kind else { return None };
                        last = Some(Target::Field(*t, *i));
                        ty = fs.get(*i as usize)?.ty.clone();
                    }
                    _ => return None,
                }
            }
            last
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(v: &[Value]) -> Vec<String> {
        v.iter()
            .map(|x| match x {
                Value::Num(n) => n.to_string(),
                _ => String::new(),
            })
            .collect()
    }

    #[test]
    fn one_value_per_region() {
        let mut t = vec![Num::int(5000), Num::int(500), Num::int(2000)];
        assert_eq!(
            nums(&representatives(&mut t, true).unwrap()),
            ["499", "500", "501", "1999", "2000", "2001", "4999", "5000", "5001"]
        );
        let mut t = vec![Num::int(65), Num::ratio(131, 2).unwrap()];
        // 64 | 65 | between | 65.5 | above
        assert_eq!(nums(&representatives(&mut t, false).unwrap()), ["64", "65", "65.25", "65.5", "66.5"]);
        let mut t = vec![Num::ratio(5, 2).unwrap()];
        // whole numbers: 2 (below 2.5), 3 (above)
        assert_eq!(nums(&representatives(&mut t, true).unwrap()), ["2", "3"]);
        assert_eq!(nums(&representatives(&mut Vec::new(), true).unwrap()), ["0"]);
    }
}
