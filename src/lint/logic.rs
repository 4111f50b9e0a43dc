//! Rule conditions as the evaluator sees them: each rule's argument patterns and
//! `when` condition become a propositional formula over *variables* — the inputs and
//! sub-expressions the condition tests (facts, record fields, parameters, decisions,
//! calls), looking through definitions that are a single unconditional expression.
//!
//! Each variable's value space is cut into pieces on which every test is constant
//! (as for table columns); trying one value of each piece decides whether two
//! formulas can hold together, and whether one implies the other. The variables are
//! treated as independent, which over-approximates the worlds that can happen: "can
//! never hold together" is therefore a proof, "can hold together" only a possibility
//! unless every variable is a free input.

use super::space::matches;
use crate::base::date::Date;
use crate::base::num::Num;
use crate::base::time::Time;
use crate::base::value::Value;
use crate::check::program::*;
use crate::check::types::Type;
use crate::eval::interp::compare;
use crate::syntax::ast::BinaryOp;
use std::collections::HashMap;

/// Scale of the search one question may make before the analysis gives up.
pub const MAX_WORLDS: usize = 1 << 16;
/// How deep definitions are looked through.
const MAX_INLINE: u32 = 8;

/// What a formula tests of one variable.
#[derive(Clone, Debug)]
pub enum Test {
    Cmp(BinaryOp, Value),
    In(Vec<Value>),
    Pat(PatIr),
    Truth,
}

/// A variable: an input or a sub-expression, with the tests made of it.
#[derive(Clone, Debug)]
pub struct Var {
    pub key: String,
    pub ty: Type,
    /// A free input (fact, field, parameter, decision): any value can occur.
    pub exact: bool,
    pub tests: Vec<Test>,
}

#[derive(Clone, Debug)]
pub enum F {
    Const(bool),
    /// Variable and test index.
    Atom(usize, usize),
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
}

impl F {
    pub fn and(a: F, b: F) -> F {
        F::And(vec![a, b])
    }
    pub fn negate(a: F) -> F {
        F::Not(Box::new(a))
    }
    fn vars(&self, out: &mut Vec<usize>) {
        match self {
            F::Const(_) => {}
            F::Atom(v, _) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            F::And(xs) | F::Or(xs) => xs.iter().for_each(|x| x.vars(out)),
            F::Not(x) => x.vars(out),
        }
    }
    /// The truth value in a partial world; `None` while it depends on unassigned variables.
    fn eval(&self, vars: &[Var], world: &[Option<Value>]) -> Option<bool> {
        match self {
            F::Const(b) => Some(*b),
            F::Atom(v, t) => world[*v].as_ref().map(|x| holds(&vars[*v].tests[*t], x)),
            F::And(xs) => {
                let mut open = false;
                for x in xs {
                    match x.eval(vars, world) {
                        Some(false) => return Some(false),
                        None => open = true,
                        Some(true) => {}
                    }
                }
                if open { None } else { Some(true) }
            }
            F::Or(xs) => {
                let mut open = false;
                for x in xs {
                    match x.eval(vars, world) {
                        Some(true) => return Some(true),
                        None => open = true,
                        Some(false) => {}
                    }
                }
                if open { None } else { Some(false) }
            }
            F::Not(x) => x.eval(vars, world).map(|b| !b),
        }
    }
}

fn holds(t: &Test, v: &Value) -> bool {
    use BinaryOp::*;
    match t {
        Test::Truth => *v == Value::Bool(true),
        Test::In(vs) => vs.contains(v),
        Test::Pat(p) => matches(p, v),
        Test::Cmp(op, c) => match compare(v, c) {
            Some(o) => match op {
                Lt => o.is_lt(),
                Le => o.is_le(),
                Gt => o.is_gt(),
                Ge => o.is_ge(),
                Eq => o.is_eq(),
                Ne => !o.is_eq(),
                _ => false,
            },
            None => match op {
                Eq => v == c,
                Ne => v != c,
                _ => false,
            },
        },
    }
}

fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        o => o,
    }
}

/// What a local slot stands for while a condition is read.
#[derive(Clone, Debug)]
enum Term {
    Key { key: String, exact: bool },
    Const(Value),
}

/// The variables of one question and the formulas built over them.
pub struct Space<'p> {
    p: &'p Program,
    pub vars: Vec<Var>,
    index: HashMap<String, usize>,
    fresh: usize,
    /// A definition of several rules was looked through: "true" and "false" are then
    /// each an over-approximation, and implications between formulas prove nothing.
    pub approximate: bool,
}

type Env = HashMap<u32, Term>;

fn bind_pattern(pat: &PatIr, arg: Option<&Term>, env: &mut Env) {
    match (pat, arg) {
        (PatIr::Bind(slot), Some(t)) => {
            env.insert(*slot, t.clone());
        }
        (PatIr::Alts(xs), _) => xs.iter().for_each(|x| bind_pattern(x, arg, env)),
        _ => {}
    }
}

impl<'p> Space<'p> {
    pub fn new(p: &'p Program) -> Self {
        Space { p, vars: Vec::new(), index: HashMap::new(), fresh: 0, approximate: false }
    }

    fn atom(&mut self, key: String, ty: &Type, exact: bool, test: Test) -> F {
        let text_order = *ty == Type::Text
            && matches!(test, Test::Cmp(BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, _));
        if (!analysed(self.p, ty) && !matches!(test, Test::Truth)) || text_order {
            // Texts are cut only into their literals and "any other": their order is not analysed.
            return self.opaque();
        }
        let v = match self.index.get(&key) {
            Some(&v) => v,
            None => {
                self.vars.push(Var { key: key.clone(), ty: ty.clone(), exact, tests: Vec::new() });
                self.index.insert(key, self.vars.len() - 1);
                self.vars.len() - 1
            }
        };
        self.vars[v].tests.push(test);
        F::Atom(v, self.vars[v].tests.len() - 1)
    }

    /// A truth value nothing is known about.
    fn opaque(&mut self) -> F {
        self.fresh += 1;
        let key = format!("?{}", self.fresh);
        self.atom(key, &Type::Bool, false, Test::Truth)
    }

    /// Whether rule `r` applies to free arguments (its patterns match, its condition holds).
    pub fn applies(&mut self, r: RuleId) -> F {
        let args = self.free_args(r);
        self.rule_formula(r, &args, true, 0).0
    }

    /// Whether rule `r`'s patterns match free arguments.
    pub fn matches_args(&mut self, r: RuleId) -> F {
        let args = self.free_args(r);
        self.rule_formula(r, &args, false, 0).0
    }

    /// Whether rule `r` gives the value of its exception tree for free arguments.
    pub fn wins(&mut self, r: RuleId) -> F {
        let args = self.free_args(r);
        self.wins_with(r, &args, 0)
    }

    fn free_args(&self, r: RuleId) -> Vec<Option<Term>> {
        let def = &self.p.defs[self.p.rules[r as usize].def as usize];
        (0..def.params.len()).map(|i| Some(Term::Key { key: format!("arg{i}"), exact: true })).collect()
    }

    /// (applies, surely does not apply) of rule `r` on these arguments.
    fn rule_formula(&mut self, r: RuleId, args: &[Option<Term>], with_guard: bool, depth: u32) -> (F, F) {
        let rule = &self.p.rules[r as usize];
        let def = &self.p.defs[rule.def as usize];
        let mut env = Env::new();
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        for ((pat, (_, ty)), arg) in rule.patterns.iter().zip(&def.params).zip(args) {
            bind_pattern(pat, arg.as_ref(), &mut env);
            if matches!(pat, PatIr::Any | PatIr::Bind(_)) {
                continue;
            }
            let f = match arg {
                Some(Term::Key { key, exact }) => self.atom(key.clone(), ty, *exact, Test::Pat(pat.clone())),
                Some(Term::Const(v)) => F::Const(matches(pat, v)),
                None => self.opaque(),
            };
            yes.push(f.clone());
            no.push(F::negate(f));
        }
        if let Some(g) = rule.guard.as_ref().filter(|_| with_guard) {
            let (p, n) = self.formula(g, &env, depth);
            yes.push(p);
            no.push(n);
        }
        (F::And(yes), F::Or(no))
    }

    /// Rule `r` applies and every exception tree of it surely yields nothing.
    fn wins_with(&mut self, r: RuleId, args: &[Option<Term>], depth: u32) -> F {
        let mut parts = vec![self.rule_formula(r, args, true, depth).0];
        for e in self.p.rules[r as usize].exceptions.clone() {
            parts.push(self.tree_silent(e, args, depth + 1));
        }
        F::And(parts)
    }

    /// No rule of `r`'s exception tree applies (each surely does not).
    fn tree_silent(&mut self, r: RuleId, args: &[Option<Term>], depth: u32) -> F {
        if depth > MAX_INLINE * 4 {
            return self.opaque();
        }
        let mut parts = vec![self.rule_formula(r, args, true, depth).1];
        for e in self.p.rules[r as usize].exceptions.clone() {
            parts.push(self.tree_silent(e, args, depth + 1));
        }
        F::And(parts)
    }

    /// A definition that is one unconditional expression: `ruling x: T = expr`.
    fn inlinable(&self, d: DefId) -> Option<&'p RuleInfo> {
        let def = &self.p.defs[d as usize];
        if def.table.is_some() || def.rules.len() != 1 {
            return None;
        }
        let r = &self.p.rules[def.rules[0] as usize];
        let plain = r.patterns.iter().all(|p| matches!(p, PatIr::Any | PatIr::Bind(_)));
        (r.guard.is_none() && r.exceptions.is_empty() && plain).then_some(r)
    }

    fn arg_terms(&mut self, args: &[Ir], env: &Env, depth: u32) -> Vec<Option<Term>> {
        args.iter().map(|a| self.term(a, env, depth)).collect()
    }

    fn callee_env(&mut self, r: &RuleInfo, args: &[Ir], env: &Env, depth: u32) -> Env {
        let terms = self.arg_terms(args, env, depth);
        let mut inner = Env::new();
        for (pat, t) in r.patterns.iter().zip(&terms) {
            bind_pattern(pat, t.as_ref(), &mut inner);
        }
        inner
    }

    /// What an expression stands for: a constant, or a variable named by its structure.
    fn term(&mut self, ir: &Ir, env: &Env, depth: u32) -> Option<Term> {
        let p = self.p;
        Some(match &ir.kind {
            IrKind::Const(v) => Term::Const(v.clone()),
            IrKind::Local(s) => env.get(s)?.clone(),
            IrKind::Fact(f) => Term::Key { key: format!("fact {}", p.facts[*f as usize].name), exact: true },
            IrKind::Decision(d) => {
                Term::Key { key: format!("decision {}", p.decisions[*d as usize].name), exact: true }
            }
            IrKind::Field(x, i) => match self.term(x, env, depth)? {
                Term::Key { key, exact } => Term::Key { key: format!("{key}.{i}"), exact },
                Term::Const(Value::Record(_, fs)) => Term::Const(fs.get(*i as usize)?.clone()?),
                Term::Const(_) => return None,
            },
            IrKind::Call(d, args) => {
                if depth < MAX_INLINE
                    && let Some(r) = self.inlinable(*d)
                {
                    let inner = self.callee_env(r, args, env, depth);
                    if let Some(t) = self.term(&r.value, &inner, depth + 1) {
                        return Some(t);
                    }
                }
                Term::Key { key: self.call_key(*d, args, env, depth)?, exact: false }
            }
            IrKind::Not(x) => Term::Key { key: format!("not {}", self.key_of(x, env, depth)?), exact: false },
            IrKind::Neg(x) => Term::Key { key: format!("-{}", self.key_of(x, env, depth)?), exact: false },
            IrKind::Binary(op, a, b) => {
                let (a, b) = (self.key_of(a, env, depth)?, self.key_of(b, env, depth)?);
                Term::Key { key: format!("({a} {} {b})", op.symbol()), exact: false }
            }
            IrKind::List(xs) => Term::Key { key: format!("[{}]", self.keys_of(xs, env, depth)?), exact: false },
            IrKind::Builtin(b, xs, None) => {
                Term::Key { key: format!("{}({})", b.name(), self.keys_of(xs, env, depth)?), exact: false }
            }
            _ => return None,
        })
    }

    fn keys_of(&mut self, xs: &[Ir], env: &Env, depth: u32) -> Option<String> {
        let mut shown = Vec::new();
        for a in xs {
            shown.push(self.key_of(a, env, depth)?);
        }
        Some(shown.join(", "))
    }

    fn call_key(&mut self, d: DefId, args: &[Ir], env: &Env, depth: u32) -> Option<String> {
        Some(format!("{}({})", self.p.defs[d as usize].name, self.keys_of(args, env, depth)?))
    }

    fn key_of(&mut self, ir: &Ir, env: &Env, depth: u32) -> Option<String> {
        Some(match self.term(ir, env, depth)? {
            Term::Key { key, .. } => key,
            Term::Const(v) => format!("{v:?}"),
        })
    }

    /// An atom and its negation.
    fn both(f: F) -> (F, F) {
        (f.clone(), F::negate(f))
    }

    /// The formulas of a truth-valued expression: (it is true, it is false). Each is
    /// implied by the fact it speaks of; they are each other's negation unless a
    /// definition of several rules was looked through.
    fn formula(&mut self, ir: &Ir, env: &Env, depth: u32) -> (F, F) {
        match &ir.kind {
            IrKind::Const(Value::Bool(b)) => (F::Const(*b), F::Const(!*b)),
            IrKind::Binary(BinaryOp::And, a, b) => {
                let ((pa, na), (pb, nb)) = (self.formula(a, env, depth), self.formula(b, env, depth));
                (F::and(pa, pb), F::Or(vec![na, nb]))
            }
            IrKind::Binary(BinaryOp::Or, a, b) => {
                let ((pa, na), (pb, nb)) = (self.formula(a, env, depth), self.formula(b, env, depth));
                (F::Or(vec![pa, pb]), F::and(na, nb))
            }
            IrKind::Not(x) => {
                let (p, n) = self.formula(x, env, depth);
                (n, p)
            }
            IrKind::If(c, a, b) => {
                let (pc, nc) = self.formula(c, env, depth);
                let ((pa, na), (pb, nb)) = (self.formula(a, env, depth), self.formula(b, env, depth));
                (
                    F::Or(vec![F::and(pc.clone(), pa), F::and(nc.clone(), pb)]),
                    F::Or(vec![F::and(pc, na), F::and(nc, nb)]),
                )
            }
            IrKind::Let(slot, v, body) => {
                let mut inner = env.clone();
                match self.term(v, env, depth) {
                    Some(t) => inner.insert(*slot, t),
                    None => inner.remove(slot),
                };
                self.formula(body, &inner, depth)
            }
            IrKind::Call(d, args) if depth < MAX_INLINE && ir.ty == Type::Bool => {
                self.call_formula(*d, args, env, depth)
            }
            IrKind::Binary(op, a, b) if op.is_comparison() => Self::both(self.comparison(*op, a, b, env, depth)),
            IrKind::InList(x, list) => {
                let values = match &list.kind {
                    IrKind::List(items) => items
                        .iter()
                        .map(|i| if let IrKind::Const(v) = &i.kind { Some(v.clone()) } else { None })
                        .collect::<Option<Vec<_>>>(),
                    IrKind::Const(Value::List(vs)) => Some(vs.to_vec()),
                    _ => None,
                };
                Self::both(match (values, self.term(x, env, depth)) {
                    (Some(vs), Some(Term::Key { key, exact })) => self.atom(key, &x.ty, exact, Test::In(vs)),
                    (Some(vs), Some(Term::Const(c))) => F::Const(vs.contains(&c)),
                    _ => self.opaque_expr(ir, env, depth),
                })
            }
            IrKind::InRange { x, lo, hi, inclusive } => {
                let bound = |b: &Option<Box<Ir>>| match b.as_deref().map(|b| &b.kind) {
                    None => Some(None),
                    Some(IrKind::Const(v)) => Some(Some(v.clone())),
                    Some(_) => None,
                };
                Self::both(match (bound(lo), bound(hi), self.term(x, env, depth)) {
                    (Some(lo), Some(hi), Some(Term::Key { key, exact })) => {
                        self.atom(key, &x.ty, exact, Test::Pat(PatIr::Range { lo, hi, inclusive: *inclusive }))
                    }
                    _ => self.opaque_expr(ir, env, depth),
                })
            }
            _ => Self::both(match self.term(ir, env, depth) {
                Some(Term::Key { key, exact }) if ir.ty == Type::Bool => {
                    self.atom(key, &Type::Bool, exact, Test::Truth)
                }
                Some(Term::Const(Value::Bool(b))) => F::Const(b),
                _ => self.opaque(),
            }),
        }
    }

    /// A truth-valued expression the analysis does not read: one variable per structure.
    fn opaque_expr(&mut self, ir: &Ir, env: &Env, depth: u32) -> F {
        match self.term(ir, env, depth) {
            Some(Term::Key { key, exact }) => self.atom(key, &Type::Bool, exact, Test::Truth),
            _ => self.opaque(),
        }
    }

    /// A call of a truth-valued definition, looked through: true when one of its rules
    /// gives true, false when one gives false.
    fn call_formula(&mut self, d: DefId, args: &[Ir], env: &Env, depth: u32) -> (F, F) {
        if let Some(r) = self.inlinable(d) {
            let inner = self.callee_env(r, args, env, depth);
            let before = self.fresh;
            let f = self.formula(&r.value, &inner, depth + 1);
            if self.fresh == before {
                return f;
            }
        }
        let fallback = |s: &mut Self| match s.call_key(d, args, env, depth) {
            Some(key) => Self::both(s.atom(key, &Type::Bool, false, Test::Truth)),
            None => Self::both(s.opaque()),
        };
        let def = &self.p.defs[d as usize];
        if def.table.is_some() || def.rules.is_empty() {
            return fallback(self);
        }
        let terms = self.arg_terms(args, env, depth);
        let (before, approximate) = (self.fresh, self.approximate);
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        for r in def.rules.clone() {
            let rule = &self.p.rules[r as usize];
            let w = self.wins_with(r, &terms, depth + 1);
            let (pv, nv) = match &rule.value.kind {
                IrKind::Const(Value::Bool(b)) => (F::Const(*b), F::Const(!*b)),
                _ => {
                    let mut inner = Env::new();
                    for (pat, t) in rule.patterns.iter().zip(&terms) {
                        bind_pattern(pat, t.as_ref(), &mut inner);
                    }
                    self.formula(&rule.value, &inner, depth + 1)
                }
            };
            yes.push(F::and(w.clone(), pv));
            no.push(F::and(w, nv));
        }
        if self.fresh != before {
            self.approximate = approximate;
            return fallback(self);
        }
        self.approximate = true;
        (F::Or(yes), F::Or(no))
    }

    fn comparison(&mut self, op: BinaryOp, a: &Ir, b: &Ir, env: &Env, depth: u32) -> F {
        match (self.term(a, env, depth), self.term(b, env, depth)) {
            (Some(Term::Key { key, exact }), Some(Term::Const(v))) => self.atom(key, &a.ty, exact, Test::Cmp(op, v)),
            (Some(Term::Const(v)), Some(Term::Key { key, exact })) => {
                self.atom(key, &b.ty, exact, Test::Cmp(flip(op), v))
            }
            (Some(Term::Const(x)), Some(Term::Const(y))) => F::Const(holds(&Test::Cmp(op, y), &x)),
            (Some(Term::Key { key: k1, .. }), Some(Term::Key { key: k2, .. })) if k1 == k2 => {
                F::Const(matches!(op, BinaryOp::Eq | BinaryOp::Le | BinaryOp::Ge))
            }
            (Some(Term::Key { key: k1, .. }), Some(Term::Key { key: k2, .. })) => {
                // A relation between two values: a test of the sign of their difference,
                // the same variable whichever way round it is written.
                let (l, o, r) = if k1 <= k2 { (k1, op, k2) } else { (k2, flip(op), k1) };
                self.atom(format!("sign({l} - {r})"), &Type::Int, false, Test::Cmp(o, Value::int(0)))
            }
            _ => self.opaque(),
        }
    }

    /// One representative value of every piece of a variable's space; for a fact or decision
    /// declared with a bound (`in 0..`), only the pieces inside it can occur.
    fn pieces(&self, v: &Var) -> Option<Vec<Value>> {
        let Some(bound) = self.bound_of(&v.key) else { return pieces(self.p, &v.ty, &v.tests) };
        let mut tests = v.tests.clone();
        tests.push(Test::Pat(bound.clone()));
        let all = pieces(self.p, &v.ty, &tests)?;
        Some(all.into_iter().filter(|x| crate::eval::interp::matches_pattern(bound, x, &mut [])).collect())
    }

    /// The declared bound of a whole fact or decision, by its variable's key.
    fn bound_of(&self, key: &str) -> Option<&'p PatIr> {
        let p = self.p;
        if let Some(name) = key.strip_prefix("fact ") {
            return p.facts.iter().find(|f| f.name == name)?.bound.as_ref();
        }
        let name = key.strip_prefix("decision ")?;
        p.decisions.iter().find(|d| d.name == name)?.bound.as_ref()
    }

    /// Whether some world (one piece per variable) makes `f` true: a search that
    /// assigns the variables one by one and stops a branch as soon as `f` is decided.
    /// `None` when the search gives up.
    pub fn satisfiable(&self, f: &F) -> Option<bool> {
        let mut used = Vec::new();
        f.vars(&mut used);
        let mut columns = Vec::new();
        for &u in &used {
            columns.push(self.pieces(&self.vars[u])?);
        }
        let mut world: Vec<Option<Value>> = vec![None; self.vars.len()];
        let mut budget = MAX_WORLDS * 4;
        search(f, &self.vars, &used, &columns, 0, &mut world, &mut budget, false)
    }

    /// A world that makes `f` true, when every variable it assigns is a free input other
    /// than a parameter (a fact, a field of one, a decision): each variable with its value.
    /// Such a world is one a case can state, so it proves that `f` can hold. `None` when
    /// the search finds none, gives up, or needs a variable that is no such input.
    pub fn witness(&self, f: &F) -> Option<Vec<(&Var, Value)>> {
        let mut used = Vec::new();
        f.vars(&mut used);
        let stated = |v: &Var| v.exact && (v.key.starts_with("fact ") || v.key.starts_with("decision "));
        if !used.iter().all(|&u| stated(&self.vars[u])) {
            return None;
        }
        let mut columns = Vec::new();
        for &u in &used {
            columns.push(self.pieces(&self.vars[u])?);
        }
        let mut world: Vec<Option<Value>> = vec![None; self.vars.len()];
        let mut budget = MAX_WORLDS * 4;
        if search(f, &self.vars, &used, &columns, 0, &mut world, &mut budget, true) != Some(true) {
            return None;
        }
        Some(used.iter().filter_map(|&u| Some((&self.vars[u], world[u].clone()?))).collect())
    }
}

#[allow(clippy::too_many_arguments)]
fn search(
    f: &F,
    vars: &[Var],
    used: &[usize],
    columns: &[Vec<Value>],
    k: usize,
    world: &mut Vec<Option<Value>>,
    budget: &mut usize,
    keep: bool,
) -> Option<bool> {
    if let Some(b) = f.eval(vars, world) {
        return Some(b);
    }
    if k == used.len() || *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut gave_up = false;
    for piece in &columns[k] {
        world[used[k]] = Some(piece.clone());
        match search(f, vars, used, columns, k + 1, world, budget, keep) {
            Some(true) => {
                if !keep {
                    world[used[k]] = None;
                }
                return Some(true);
            }
            Some(false) => {}
            None => gave_up = true,
        }
    }
    world[used[k]] = None;
    if gave_up { None } else { Some(false) }
}

/// Whether values of this type can be cut into pieces.
fn analysed(p: &Program, ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Int | Type::Quantity(_) | Type::Date | Type::Time | Type::Text => true,
        Type::Enum(t) => matches!(p.types[*t as usize].kind, TypeKind::Enum(_)),
        _ => false,
    }
}

fn constants(t: &Test, out: &mut Vec<Value>) {
    fn pat(p: &PatIr, out: &mut Vec<Value>) {
        match p {
            PatIr::Equals(v) => out.push(v.clone()),
            PatIr::Range { lo, hi, .. } => out.extend(lo.iter().chain(hi.iter()).cloned()),
            PatIr::Alts(xs) => xs.iter().for_each(|x| pat(x, out)),
            PatIr::Any | PatIr::Bind(_) => {}
        }
    }
    match t {
        Test::Cmp(_, v) => out.push(v.clone()),
        Test::In(vs) => out.extend(vs.iter().cloned()),
        Test::Pat(p) => pat(p, out),
        Test::Truth => {}
    }
}

fn num_of(v: &Value) -> Option<Num> {
    match v {
        Value::Num(n) => Some(*n),
        Value::Date(d) => Some(Num::int(d.days() as i128)),
        Value::Time(t) => Some(Num::int(t.minutes() as i128)),
        _ => None,
    }
}

/// Representatives of the pieces of a type's space on which every test is constant.
pub fn pieces(p: &Program, ty: &Type, tests: &[Test]) -> Option<Vec<Value>> {
    let mut consts = Vec::new();
    tests.iter().for_each(|t| constants(t, &mut consts));
    match ty {
        Type::Bool => Some(vec![Value::Bool(true), Value::Bool(false)]),
        Type::Enum(t) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => Some((0..vs.len()).map(|i| Value::Enum(*t, i as u32)).collect()),
            TypeKind::Record(_) => None,
        },
        Type::Text => {
            let mut out: Vec<Value> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for c in consts {
                if matches!(c, Value::Text(_)) && seen.insert(c.clone()) {
                    out.push(c);
                }
            }
            out.push(Value::Text("\u{0}other".into()));
            Some(out)
        }
        Type::Int | Type::Quantity(_) | Type::Date | Type::Time => {
            let mut points: Vec<Num> = consts.iter().map(num_of).collect::<Option<_>>()?;
            points.sort();
            points.dedup();
            let integral = matches!(ty, Type::Int | Type::Date | Type::Time) && points.iter().all(|n| n.is_integer());
            let make = |n: Num| -> Option<Value> {
                match ty {
                    Type::Date => Date::from_ymd(1970, 1, 1)?.add_days(n.as_i64()?).map(Value::Date),
                    Type::Time => Time::from_minutes(n.as_i64()?).map(Value::Time),
                    _ => Some(Value::Num(n)),
                }
            };
            let Some((&first, &last)) = points.first().zip(points.last()) else {
                return Some(vec![make(Num::ZERO)?]);
            };
            let mut out = vec![make(first.sub(Num::ONE)?)?];
            for w in points.windows(2) {
                out.push(make(w[0])?);
                let between = if integral { w[0].add(Num::ONE)? } else { w[0].add(w[1])?.div(Num::int(2))? };
                if between < w[1] {
                    out.push(make(between)?);
                }
            }
            out.push(make(last)?);
            out.push(make(last.add(Num::ONE)?)?);
            Some(out)
        }
        _ => None,
    }
}
