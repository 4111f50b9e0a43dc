//! Signatures of the builtin functions, checked and lowered. The builtins are
//! general (aggregates, ranking with ties, rounding, ages, apportionment, lots);
//! they know nothing of any rulebook.

use super::builtins_table::Sig;
use super::expr::Lowerer;
use super::program::*;
use super::types::Type;
use crate::base::num::Num;
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{self, Arg, DecisionKind, Expr, Span};

struct Args<'a> {
    positional: Vec<&'a Expr>,
    lambda: Option<(&'a ast::Ident, &'a Expr)>,
    named: Vec<(&'a ast::Ident, &'a Expr)>,
}

fn split(args: &[Arg]) -> Args<'_> {
    let mut out = Args { positional: Vec::new(), lambda: None, named: Vec::new() };
    for a in args {
        match a {
            Arg::Positional(e) => out.positional.push(e),
            Arg::Lambda(n, e) => out.lambda = Some((n, e)),
            Arg::Named(n, e) => out.named.push((n, e)),
        }
    }
    out
}

fn bad(l: &mut Lowerer, b: Builtin, span: Span, what: &str) -> Ir {
    l.diags.push(
        Diagnostic::error("conditions::bad_argument", format!("wrong arguments to `{}`: {what}", b.name()))
            .at(span, what.to_string())
            .help(format!("use it as `{}`", b.usage())),
    );
    Ir { kind: IrKind::Const(crate::base::value::Value::Bool(false)), ty: Type::Error, span }
}

/// Lowers the list argument, returning it with its element type.
fn list_arg(l: &mut Lowerer, e: &Expr) -> (Ir, Type) {
    let ir = l.lower(e);
    let elem = match &ir.ty {
        Type::List(t) => (**t).clone(),
        Type::Error => Type::Error,
        other => {
            let d = l.describe(other);
            l.diags.push(
                Diagnostic::error("conditions::type_mismatch", format!("expected a list, found `{d}`"))
                    .at(e.span, format!("this is `{d}`"))
                    .help("aggregates work over lists"),
            );
            Type::Error
        }
    };
    (ir, elem)
}

fn expect_lambda_type(l: &mut Lowerer, lam: &Lambda, body: &Expr, ok: impl Fn(&Type) -> bool, what: &str) {
    if !ok(&lam.body.ty) && lam.body.ty != Type::Error {
        let d = l.describe(&lam.body.ty);
        l.diags.push(
            Diagnostic::error("conditions::type_mismatch", format!("{what}, found `{d}`"))
                .at(body.span, format!("this is `{d}`"))
                .help("see docs/language.md, builtins"),
        );
    }
}

pub fn lower_builtin(l: &mut Lowerer, b: Builtin, func: &ast::Ident, args: &[Arg], span: Span) -> Ir {
    let a = split(args);
    let mk = |kind: IrKind, ty: Type| Ir { kind, ty, span };
    let _ = func;
    match b {
        Builtin::Count
        | Builtin::Sum
        | Builtin::All
        | Builtin::Any
        | Builtin::Filter
        | Builtin::Map
        | Builtin::Most
        | Builtin::Least
        | Builtin::Distinct => {
            if a.positional.len() != 1 || !a.named.is_empty() {
                return bad(l, b, span, "expected one list");
            }
            let needs_lambda = matches!(
                b,
                Builtin::All | Builtin::Any | Builtin::Filter | Builtin::Map | Builtin::Most | Builtin::Least
            );
            if needs_lambda && a.lambda.is_none() {
                return bad(l, b, span, "missing `x => …`");
            }
            if b == Builtin::Distinct && a.lambda.is_some() {
                return bad(l, b, span, "takes no `x => …`");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            let lam = a.lambda.map(|(n, e)| (l.lambda(n, e, elem.clone()), e));
            let ty = match b {
                Builtin::Count => Type::Int,
                Builtin::All | Builtin::Any => Type::Bool,
                Builtin::Filter | Builtin::Most | Builtin::Least | Builtin::Distinct => {
                    Type::List(Box::new(elem.clone()))
                }
                Builtin::Map => Type::List(Box::new(lam.as_ref().map_or(Type::Error, |(x, _)| x.body.ty.clone()))),
                _ => lam.as_ref().map_or(elem.clone(), |(x, _)| x.body.ty.clone()),
            };
            if let Some((lam, body)) = &lam {
                match b {
                    Builtin::Count | Builtin::All | Builtin::Any | Builtin::Filter => {
                        expect_lambda_type(l, lam, body, |t| *t == Type::Bool, "the condition must be `bool`")
                    }
                    Builtin::Sum => expect_lambda_type(l, lam, body, |t| t.is_numeric(), "sum adds numbers"),
                    Builtin::Most | Builtin::Least => {
                        expect_lambda_type(
                            l,
                            lam,
                            body,
                            |t| t.is_numeric() || matches!(t, Type::Date | Type::Time | Type::DateTime),
                            "the key must be a number, a date or a time",
                        );
                        super::midnight::check(l, super::midnight::Use::Key, &[&lam.body], body.span);
                    }
                    _ => {}
                }
            } else if b == Builtin::Sum && !elem.is_numeric() {
                let d = l.describe(&elem);
                let _ = list;
                l.diags.push(
                    Diagnostic::error("conditions::type_mismatch", format!("sum adds numbers, found a list of `{d}`"))
                        .at(a.positional[0].span, "not numbers")
                        .help("write `sum(list, x => x.amount)`"),
                );
                return Ir { kind: IrKind::Const(crate::base::value::Value::Bool(false)), ty: Type::Error, span };
            }
            mk(IrKind::Builtin(b, vec![list], lam.map(|(x, _)| x)), ty)
        }
        Builtin::Top => {
            if a.positional.len() != 2 || a.lambda.is_none() {
                return bad(l, b, span, "expected a list, `x => key` and a count");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            let (n, e) = a.lambda.unwrap_or_else(|| unreachable!());
            let lam = l.lambda(n, e, elem.clone());
            expect_lambda_type(
                l,
                &lam,
                e,
                |t| t.is_numeric() || matches!(t, Type::Date | Type::Time | Type::DateTime),
                "the key must be a number, a date or a time",
            );
            super::midnight::check(l, super::midnight::Use::Key, &[&lam.body], e.span);
            let count = l.lower_as(a.positional[1], &Type::Int, "the count");
            mk(IrKind::Builtin(b, vec![list, count], Some(lam)), Type::List(Box::new(elem)))
        }
        Builtin::Min | Builtin::Max => {
            if a.lambda.is_some() || !a.named.is_empty() || a.positional.is_empty() {
                return bad(l, b, span, "expected values or one list");
            }
            let mut irs: Vec<Ir> = a.positional.iter().map(|e| l.lower(e)).collect();
            // `max(18.00, t)`: numbers written beside a time are times.
            if irs.iter().any(|ir| ir.ty == Type::Time) {
                for (ir, e) in irs.iter_mut().zip(&a.positional) {
                    if matches!(e.kind, crate::syntax::ast::ExprKind::Literal(_)) {
                        *ir = l.lower_expecting(e, &Type::Time);
                    }
                }
            }
            let mut ty = Type::Error;
            if irs.len() == 1 {
                if let Type::List(t) = &irs[0].ty {
                    ty = (**t).clone();
                } else if irs[0].ty != Type::Error {
                    return bad(l, b, span, "one argument must be a list");
                }
            } else {
                for (ir, e) in irs.iter().zip(&a.positional) {
                    match ty.join(&ir.ty) {
                        Some(t) => ty = t,
                        None => {
                            let (x, y) = (l.describe(&ty), l.describe(&ir.ty));
                            l.diags.push(
                                Diagnostic::error(
                                    "conditions::type_mismatch",
                                    format!("cannot compare `{y}` with `{x}`"),
                                )
                                .at(e.span, format!("this is `{y}`"))
                                .help(super::expr::mismatch_help(&ir.ty, &ty)),
                            );
                        }
                    }
                }
            }
            if !(ty.is_numeric() || matches!(ty, Type::Date | Type::Time | Type::DateTime)) {
                let d = l.describe(&ty);
                l.diags.push(
                    Diagnostic::error(
                        "conditions::type_mismatch",
                        format!("`{}` needs numbers, dates or times, found `{d}`", b.name()),
                    )
                    .at(span, "not ordered")
                    .help(format!("use it as `{}`", b.usage())),
                );
            }
            super::midnight::check(l, super::midnight::Use::Extreme, &irs.iter().collect::<Vec<_>>(), span);
            mk(IrKind::Builtin(b, irs, None), ty)
        }
        Builtin::Ceil | Builtin::Floor | Builtin::Round | Builtin::Abs => {
            if a.positional.len() != 1 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected one number");
            }
            let x = l.lower(a.positional[0]);
            let ok = match &x.ty {
                Type::Int | Type::Error => true,
                Type::Quantity(u) => u.is_none() || b == Builtin::Abs,
                _ => false,
            };
            if !ok {
                let d = l.describe(&x.ty);
                l.diags.push(
                    Diagnostic::error(
                        "conditions::type_mismatch",
                        format!("`{}` needs a plain number, found `{d}`", b.name()),
                    )
                    .at(a.positional[0].span, format!("this is `{d}`"))
                    .help("divide by a unit first, e.g. `ceil(late / 1 week)` counts started weeks"),
                );
            }
            let ty = if b == Builtin::Abs { x.ty.clone() } else { Type::Int };
            mk(IrKind::Builtin(b, vec![x], None), ty)
        }
        Builtin::Age
        | Builtin::Date
        | Builtin::Year
        | Builtin::Month
        | Builtin::Day
        | Builtin::Weekday
        | Builtin::AddMonths
        | Builtin::AddYears
        | Builtin::Hour
        | Builtin::Minute
        | Builtin::Time => fixed(l, b, &a, span),
        Builtin::Contains => {
            if a.positional.len() != 2 || a.lambda.is_some() {
                return bad(l, b, span, "expected a list and a value");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            let x = l.lower_as(a.positional[1], &elem, "the value");
            mk(IrKind::Builtin(b, vec![list, x], None), Type::Bool)
        }
        Builtin::First | Builtin::Only => {
            if a.positional.len() != 1 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected one list");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            mk(IrKind::Builtin(b, vec![list], None), elem)
        }
        Builtin::At => {
            if a.positional.len() != 2 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected a list and a position");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            let n = l.lower_as(a.positional[1], &Type::Int, "the position");
            mk(IrKind::Builtin(b, vec![list, n], None), elem)
        }
        Builtin::Position => {
            if a.positional.len() != 2 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected a list and a value");
            }
            let (list, elem) = list_arg(l, a.positional[0]);
            let x = l.lower_as(a.positional[1], &elem, "the value");
            mk(IrKind::Builtin(b, vec![list, x], None), Type::Int)
        }
        Builtin::Place => {
            if a.positional.len() != 2 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected a ranking and a value");
            }
            let (ranking, group) = list_arg(l, a.positional[0]);
            let elem = match group {
                Type::List(t) => *t,
                Type::Error => Type::Error,
                _ => return bad(l, b, a.positional[0].span, "the first argument is a ranking (`rank … by …`)"),
            };
            let x = l.lower_as(a.positional[1], &elem, "the value");
            mk(IrKind::Builtin(b, vec![ranking, x], None), Type::Int)
        }
        Builtin::Quotient => {
            let [(name, value)] = a.named.as_slice() else {
                return bad(l, b, span, "expected two numbers and `if_zero: value`");
            };
            if a.positional.len() != 2 || a.lambda.is_some() || name.name != "if_zero" {
                return bad(l, b, span, "expected two numbers and `if_zero: value`");
            }
            let x = l.lower(a.positional[0]);
            let y = l.lower(a.positional[1]);
            let ty = match (&x.ty, &y.ty) {
                (Type::Error, _) | (_, Type::Error) => Type::Error,
                (p, q) if p.is_numeric() && q.is_numeric() => {
                    Type::Quantity(p.unit().unwrap_or_default().div(&q.unit().unwrap_or_default()))
                }
                _ => return bad(l, b, span, "both parts of a quotient are numbers"),
            };
            let z = l.lower_as(value, &ty, "the value when the divisor is 0");
            mk(IrKind::Builtin(b, vec![x, y, z], None), ty)
        }
        Builtin::NextWeekday | Builtin::PreviousWeekday => {
            if a.positional.len() != 2 || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected a date and a weekday");
            }
            let d = l.lower_as(a.positional[0], &Type::Date, "the date");
            let w = l.lower(a.positional[1]);
            let ok = match &w.ty {
                Type::Int | Type::Error => true,
                Type::Enum(t) => {
                    matches!(&l.program.types[*t as usize].kind, TypeKind::Enum(vs) if vs.len() == 7)
                }
                _ => false,
            };
            if !ok {
                return bad(
                    l,
                    b,
                    a.positional[1].span,
                    "the weekday is 1 (Monday) to 7 (Sunday) or a variant of an enum of the 7 days, Monday first",
                );
            }
            mk(IrKind::Builtin(b, vec![d, w], None), Type::Date)
        }
        Builtin::Concat => {
            if a.positional.is_empty() || a.lambda.is_some() || !a.named.is_empty() {
                return bad(l, b, span, "expected lists");
            }
            let mut irs = Vec::new();
            let mut ty = Type::Error;
            for e in &a.positional {
                let (ir, elem) = list_arg(l, e);
                match ty.join(&elem) {
                    Some(t) => ty = t,
                    None => {
                        let (x, y) = (l.describe(&ty), l.describe(&elem));
                        l.diags.push(
                            Diagnostic::error(
                                "conditions::type_mismatch",
                                format!("cannot join a list of `{y}` to a list of `{x}`"),
                            )
                            .at(e.span, format!("a list of `{y}`"))
                            .help("all the lists hold one type"),
                        );
                    }
                }
                irs.push(ir);
            }
            mk(IrKind::Builtin(b, irs, None), Type::List(Box::new(ty)))
        }
        Builtin::Apportion => {
            if a.positional.len() != 2 || a.lambda.is_none() {
                return bad(l, b, span, "expected seats, a list and `x => weight`");
            }
            let seats = l.lower_as(a.positional[0], &Type::Int, "the number of seats");
            let (list, elem) = list_arg(l, a.positional[1]);
            let (n, e) = a.lambda.unwrap_or_else(|| unreachable!());
            let lam = l.lambda(n, e, elem.clone());
            expect_lambda_type(l, &lam, e, |t| t.is_numeric(), "the weight must be a number");
            // What is wrong whatever the facts (the evaluator refuses the same at run time).
            fn constant(ir: &Ir) -> Option<Num> {
                match &ir.kind {
                    IrKind::Const(crate::base::value::Value::Num(n)) => Some(*n),
                    IrKind::Neg(x) => constant(x)?.neg(),
                    _ => None,
                }
            }
            if constant(&seats).is_some_and(|s| s.is_negative()) {
                return bad(l, b, a.positional[0].span, "the number of seats must not be negative");
            }
            if let Some(w) = constant(&lam.body)
                && (w.is_negative() || (w == Num::ZERO && constant(&seats).is_none_or(|s| s != Num::ZERO)))
            {
                return bad(l, b, e.span, "the weights must not be negative and not all 0");
            }
            let mut irs = vec![seats, list];
            for (name, value) in &a.named {
                if name.name != "tie" {
                    return bad(l, b, name.span, "the only named argument is `tie: lot`");
                }
                match lot_ref(l, value, &Type::List(Box::new(elem.clone())), DecisionKind::Lot) {
                    Some(ir) => irs.push(ir),
                    None => return bad(l, b, value.span, "`tie` names a `lot` whose type is a list of the items"),
                }
            }
            mk(IrKind::Builtin(b, irs, Some(lam)), Type::List(Box::new(Type::Int)))
        }
        Builtin::Draw | Builtin::Choose => {
            let kind = if b == Builtin::Draw { DecisionKind::Lot } else { DecisionKind::Decision };
            if !(2..=3).contains(&a.positional.len()) || a.lambda.is_some() {
                return bad(l, b, span, "expected a lot (or decision), a list of candidates and perhaps how many");
            }
            let (cands, elem) = list_arg(l, a.positional[1]);
            let count = a.positional.get(2).map(|e| Box::new(l.lower_as(e, &Type::Int, "how many")));
            let result_ty = if count.is_some() { Type::List(Box::new(elem.clone())) } else { elem.clone() };
            let Some(lot) = lot_ref(l, a.positional[0], &result_ty, kind) else {
                let what = if b == Builtin::Draw { "a declared `lot`" } else { "a declared `decision`" };
                return bad(l, b, a.positional[0].span, &format!("the first argument names {what}"));
            };
            let IrKind::Decision(id) = lot.kind else { return bad(l, b, span, "not a lot") };
            mk(IrKind::Draw(id, Box::new(cands), count), result_ty)
        }
    }
}

/// A call of a builtin with a fixed signature (see [`Sig::Fixed`]): each argument lowered as
/// its type.
fn fixed(l: &mut Lowerer, b: Builtin, a: &Args, span: Span) -> Ir {
    let Sig::Fixed { params, result, expected } = b.sig() else {
        return bad(l, b, span, "no fixed signature");
    };
    if a.positional.len() != params.len() || a.lambda.is_some() || !a.named.is_empty() {
        return bad(l, b, span, expected);
    }
    let irs: Vec<Ir> = params.iter().zip(&a.positional).map(|((p, what), e)| l.lower_as(e, &p.ty(), what)).collect();
    Ir { kind: IrKind::Builtin(b, irs, None), ty: result.ty(), span }
}

/// Resolves a name that must be a `lot` of the given type.
fn lot_ref(l: &mut Lowerer, e: &Expr, want: &Type, kind: DecisionKind) -> Option<Ir> {
    let ast::ExprKind::Name(id) = &e.kind else { return None };
    let Some(Symbol::Decision(d)) = l.program.symbols.get(&id.name).copied() else { return None };
    let info = &l.program.decisions[d as usize];
    if info.kind != kind {
        return None;
    }
    if !info.ty.fits(want) && *want != Type::Error {
        let (a, w) = (l.describe(&info.ty), l.describe(want));
        l.diags.push(
            Diagnostic::error(
                "conditions::type_mismatch",
                format!("the lot `{}` is `{a}`, the candidates are `{w}`", id.name),
            )
            .at(e.span, format!("this is `{a}`"))
            .help("declare the lot with the candidates' type"),
        );
    }
    Some(Ir { kind: IrKind::Decision(d), ty: info.ty.clone(), span: e.span })
}
