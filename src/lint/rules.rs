//! Rule lints: rules for one question that may both apply and disagree with no
//! exception between them (`lint::conflict`, `lint::possible_conflict`), rules and
//! exceptions that can never matter, and declarations nothing uses.

use super::space::{combinations, matches, pieces};
use crate::check::program::*;
use crate::check::types::Type;
use crate::diagnostic::Diagnostic;
use crate::eval::interp::compare;
use crate::eval::value::Value;
use crate::source::SourceMap;
use crate::syntax::ast::BinaryOp;
use std::collections::HashSet;

/// Whether two rules can apply to the same arguments, judged on their patterns.
fn patterns_overlap(p: &Program, def: &DefInfo, a: &RuleInfo, b: &RuleInfo) -> Option<bool> {
    let mut columns = Vec::new();
    for (i, (_, ty)) in def.params.iter().enumerate() {
        let pats = [&a.patterns[i], &b.patterns[i]];
        columns.push(pieces(p, ty, &pats)?);
    }
    let combos = combinations(&columns)?;
    Some(combos.iter().any(|combo| {
        [a, b]
            .iter()
            .all(|r| r.patterns.iter().zip(combo).zip(&columns).all(|((pat, &i), col)| matches(pat, &col[i].value)))
    }))
}

/// One conjunct of a condition: `expr op constant`, or a truth value of an expression.
enum Conjunct {
    Cmp {
        expr: String,
        op: BinaryOp,
        value: Value,
    },
    /// A comparison of two expressions, neither a constant.
    Rel {
        left: String,
        op: BinaryOp,
        right: String,
    },
    /// Membership in a list of constants: `round in [Semifinal, Final]`.
    OneOf {
        expr: String,
        values: Vec<Value>,
    },
    Truth {
        expr: String,
        holds: bool,
    },
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

/// Whether `l op1 r` and `l op2 r` can both hold.
fn ops_compatible(op1: BinaryOp, op2: BinaryOp) -> bool {
    use BinaryOp::*;
    !matches!((op1, op2), (Lt, Gt | Ge | Eq) | (Gt, Lt | Le | Eq) | (Le, Gt) | (Ge, Lt) | (Eq, Lt | Gt | Ne) | (Ne, Eq))
}

fn snippet(sources: &SourceMap, ir: &Ir) -> String {
    sources.snippet(ir.span).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn conjuncts(ir: &Ir, sources: &SourceMap, out: &mut Vec<Conjunct>) {
    match &ir.kind {
        IrKind::Binary(BinaryOp::And, a, b) => {
            conjuncts(a, sources, out);
            conjuncts(b, sources, out);
        }
        IrKind::Not(x) => out.push(Conjunct::Truth { expr: snippet(sources, x), holds: false }),
        IrKind::InList(x, list) => match &list.kind {
            IrKind::List(items) if items.iter().all(|i| matches!(i.kind, IrKind::Const(_))) => {
                out.push(Conjunct::OneOf {
                    expr: snippet(sources, x),
                    values: items
                        .iter()
                        .filter_map(|i| if let IrKind::Const(v) = &i.kind { Some(v.clone()) } else { None })
                        .collect(),
                })
            }
            IrKind::Const(Value::List(vs)) => {
                out.push(Conjunct::OneOf { expr: snippet(sources, x), values: vs.to_vec() })
            }
            _ => {}
        },
        IrKind::Binary(op, a, b) if op.is_comparison() => match (&a.kind, &b.kind) {
            (_, IrKind::Const(v)) => out.push(Conjunct::Cmp { expr: snippet(sources, a), op: *op, value: v.clone() }),
            (IrKind::Const(v), _) => {
                let flipped = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => *o,
                };
                out.push(Conjunct::Cmp { expr: snippet(sources, b), op: flipped, value: v.clone() })
            }
            _ => out.push(Conjunct::Rel { left: snippet(sources, a), op: *op, right: snippet(sources, b) }),
        },
        _ if ir.ty == Type::Bool => out.push(Conjunct::Truth { expr: snippet(sources, ir), holds: true }),
        _ => {}
    }
}

/// Whether `x op1 v1` and `x op2 v2` can both hold.
fn compatible(op1: BinaryOp, v1: &Value, op2: BinaryOp, v2: &Value) -> bool {
    use BinaryOp::*;
    let Some(ord) = compare(v1, v2) else { return true };
    let holds = |op: BinaryOp, x: std::cmp::Ordering| match op {
        Lt => x.is_lt(),
        Le => x.is_le(),
        Gt => x.is_gt(),
        Ge => x.is_ge(),
        Eq => x.is_eq(),
        Ne => !x.is_eq(),
        _ => true,
    };
    match (op1, op2) {
        (Eq, _) => holds(op2, ord),
        (_, Eq) => holds(op1, ord.reverse()),
        (Lt | Le, Lt | Le) | (Gt | Ge, Gt | Ge) | (Ne, _) | (_, Ne) => true,
        // x < v1 (or <=) and x > v2 (or >=): possible iff v2 < v1, or equal with both inclusive.
        (Lt | Le, Gt | Ge) => ord.is_gt() || (ord.is_eq() && op1 == Le && op2 == Ge),
        (Gt | Ge, Lt | Le) => ord.is_lt() || (ord.is_eq() && op1 == Ge && op2 == Le),
        _ => true,
    }
}

fn guards_exclusive(a: &RuleInfo, b: &RuleInfo, sources: &SourceMap) -> bool {
    let (Some(ga), Some(gb)) = (&a.guard, &b.guard) else { return false };
    let (mut ca, mut cb) = (Vec::new(), Vec::new());
    conjuncts(ga, sources, &mut ca);
    conjuncts(gb, sources, &mut cb);
    ca.iter().any(|x| {
        cb.iter().any(|y| match (x, y) {
            (Conjunct::Truth { expr: e1, holds: h1 }, Conjunct::Truth { expr: e2, holds: h2 }) => e1 == e2 && h1 != h2,
            (Conjunct::Cmp { expr: e1, op: o1, value: v1 }, Conjunct::Cmp { expr: e2, op: o2, value: v2 }) => {
                e1 == e2 && !compatible(*o1, v1, *o2, v2)
            }
            (Conjunct::OneOf { expr: e1, values: v1 }, Conjunct::OneOf { expr: e2, values: v2 }) => {
                e1 == e2 && !v1.iter().any(|v| v2.contains(v))
            }
            (Conjunct::OneOf { expr: e1, values }, Conjunct::Cmp { expr: e2, op, value })
            | (Conjunct::Cmp { expr: e2, op, value }, Conjunct::OneOf { expr: e1, values }) => {
                e1 == e2 && !values.iter().any(|v| compatible(BinaryOp::Eq, v, *op, value))
            }
            (Conjunct::Rel { left: l1, op: o1, right: r1 }, Conjunct::Rel { left: l2, op: o2, right: r2 }) => {
                (l1 == l2 && r1 == r2 && !ops_compatible(*o1, *o2))
                    || (l1 == r2 && r1 == l2 && !ops_compatible(*o1, flip(*o2)))
            }
            _ => false,
        })
    })
}

fn same_constant(a: &RuleInfo, b: &RuleInfo) -> bool {
    matches!((&a.value.kind, &b.value.kind), (IrKind::Const(x), IrKind::Const(y)) if x == y)
}

fn related(p: &Program, a: RuleId, b: RuleId) -> bool {
    let overrides = |x: RuleId, y: RuleId| {
        let mut stack = vec![x];
        let mut seen = HashSet::new();
        while let Some(r) = stack.pop() {
            if r == y {
                return true;
            }
            if seen.insert(r) {
                stack.extend(&p.rules[r as usize].overrides);
            }
        }
        false
    };
    overrides(a, b) || overrides(b, a)
}

pub fn conflicts(p: &Program, sources: &SourceMap) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for def in &p.defs {
        let rules = &def.rules;
        for (i, &ra) in rules.iter().enumerate() {
            for &rb in &rules[i + 1..] {
                let (a, b) = (&p.rules[ra as usize], &p.rules[rb as usize]);
                // Exceptions are judged against their siblings only.
                if a.overrides != b.overrides || related(p, ra, rb) || same_constant(a, b) {
                    continue;
                }
                match patterns_overlap(p, def, a, b) {
                    Some(false) => continue,
                    Some(true) | None => {}
                }
                if guards_exclusive(a, b, sources) {
                    continue;
                }
                let cite = |r: &RuleInfo| p.citation_of(r.clause).map(|c| format!(" ({c})")).unwrap_or_default();
                if a.guard.is_none() && b.guard.is_none() {
                    out.push(
                        Diagnostic::error(
                            "lint::conflict",
                            format!(
                                "rules `{}`{} and `{}`{} both always apply to `{}`",
                                a.label,
                                cite(a),
                                b.label,
                                cite(b),
                                def.name
                            ),
                        )
                        .at(b.span, "applies whenever the other does")
                        .at(a.span, "always applies")
                        .help(format!("say which is the exception: `overrides {}`", a.label)),
                    );
                } else {
                    out.push(
                        Diagnostic::warning(
                            "lint::possible_conflict",
                            format!(
                                "rules `{}`{} and `{}`{} for `{}` may both apply; it cannot be shown that their conditions exclude each other",
                                a.label,
                                cite(a),
                                b.label,
                                cite(b),
                                def.name
                            ),
                        )
                        .at(b.span, "may apply together with the other")
                        .at(a.span, "first rule")
                        .help("write the conditions as comparisons of the same value (`x < 2000` / `x >= 2000`), or declare an exception with `overrides`"),
                    );
                }
            }
        }
    }
    out
}

/// Rules whose condition is the constant `false`; exceptions that never meet their rule.
pub fn dead(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for r in &p.rules {
        if let Some(g) = &r.guard
            && matches!(g.kind, IrKind::Const(Value::Bool(false)))
        {
            out.push(
                Diagnostic::warning("lint::dead_rule", format!("rule `{}` can never apply", r.label))
                    .at(g.span, "this condition is always false")
                    .help("remove the rule, or correct its condition"),
            );
        }
        for &base in &r.overrides {
            let b = &p.rules[base as usize];
            let def = &p.defs[r.def as usize];
            if patterns_overlap(p, def, r, b) == Some(false) {
                out.push(
                    Diagnostic::warning(
                        "lint::exception_never_meets",
                        format!("`{}` overrides `{}`, but they never concern the same arguments", r.label, b.label),
                    )
                    .at(r.span, "an exception for other arguments")
                    .at(b.span, "the rule it names")
                    .help("an exception must be able to apply where its rule does"),
                );
            }
        }
    }
    out
}

fn walk(ir: &Ir, facts: &mut HashSet<u32>, decisions: &mut HashSet<u32>, defs: &mut HashSet<u32>) {
    ir.visit(&mut |x| match x.kind {
        IrKind::Fact(f) => {
            facts.insert(f);
        }
        IrKind::Decision(d) | IrKind::Draw(d, ..) => {
            decisions.insert(d);
        }
        IrKind::Call(d, _) => {
            defs.insert(d);
        }
        _ => {}
    });
}

/// Facts, decisions, definitions and external references that nothing uses; rulings no
/// case file exercises (when the rulebook has case files).
pub fn unused(p: &Program, tested: Option<&HashSet<String>>) -> Vec<Diagnostic> {
    let (mut facts, mut decisions, mut defs) = (HashSet::new(), HashSet::new(), HashSet::new());
    for r in &p.rules {
        walk(&r.value, &mut facts, &mut decisions, &mut defs);
        if let Some(g) = &r.guard {
            walk(g, &mut facts, &mut decisions, &mut defs);
        }
    }
    for d in &p.defs {
        if let Some(t) = &d.table {
            for row in &t.rows {
                walk(&row.value, &mut facts, &mut decisions, &mut defs);
            }
        }
    }
    let mut out = Vec::new();
    for (i, f) in p.facts.iter().enumerate() {
        if !facts.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_fact", format!("fact `{}` is never read", f.name))
                    .at(f.span, "declared here")
                    .help("use it in a rule, or remove the declaration"),
            );
        }
    }
    for (i, d) in p.decisions.iter().enumerate() {
        if !decisions.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_decision", format!("decision `{}` is never asked for", d.name))
                    .at(d.span, "declared here")
                    .help("use it in a rule, or remove the declaration"),
            );
        }
    }
    for (i, d) in p.defs.iter().enumerate() {
        if !d.is_ruling() && !defs.contains(&(i as u32)) {
            out.push(
                Diagnostic::warning("lint::unused_definition", format!("`{}` is defined but never used", d.name))
                    .at(d.span, "defined here")
                    .help("use it, make it a `ruling` if a director may ask for it, or remove it"),
            );
        }
    }
    let cited: HashSet<&str> = p.clauses.iter().flat_map(|c| c.cites.iter().map(String::as_str)).collect();
    for e in &p.externals {
        if !cited.contains(e.citation.as_str()) {
            out.push(
                Diagnostic::warning(
                    "lint::unused_external",
                    format!("external reference `{}` is never cited", e.citation),
                )
                .at(e.span, "declared here")
                .help("cite it from the clause that refers to it (`cites \"…\"`), or remove it"),
            );
        }
    }
    if let Some(tested) = tested {
        for d in &p.defs {
            if d.is_ruling() && !tested.contains(&d.name) {
                out.push(
                    Diagnostic::warning(
                        "lint::untested_ruling",
                        format!("no case file asks for the ruling `{}`", d.name),
                    )
                    .at(d.span, "never exercised by the case suite")
                    .help("add a case file under cases/ with `[[expect]] ruling = \"…\"`"),
                );
            }
        }
    }
    out
}

/// Clauses that hold no rules and do not say why they decide nothing.
pub fn clauses(p: &Program) -> Vec<Diagnostic> {
    let mut holds = vec![false; p.clauses.len()];
    for c in p.defs.iter().filter_map(|d| d.clause).chain(p.rules.iter().filter_map(|r| r.clause)) {
        holds[c as usize] = true;
    }
    for c in p.facts.iter().filter_map(|f| f.clause).chain(p.decisions.iter().filter_map(|d| d.clause)) {
        holds[c as usize] = true;
    }
    let mut out = Vec::new();
    for (i, c) in p.clauses.iter().enumerate() {
        if !holds[i] && c.informational.is_none() {
            out.push(
                Diagnostic::warning(
                    "lint::undecided_clause",
                    format!("clause `{}` decides nothing and does not say why", c.citation),
                )
                .at(c.citation_span, "no rules, no `informational`")
                .help("make it executable, or add `informational \"<why it decides nothing>\"`"),
            );
        }
        if holds[i] && c.text.is_none() {
            out.push(
                Diagnostic::warning(
                    "lint::executable_without_text",
                    format!("clause `{}` has rules but no text", c.citation),
                )
                .at(c.citation_span, "nothing to quote")
                .help("quote the clause as printed: `text \"\"\"…\"\"\"`"),
            );
        }
    }
    out
}
