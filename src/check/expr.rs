//! Expression checking: resolves names, checks types and units, and lowers each
//! expression to [`Ir`]. Problems are collected; a failed sub-expression gets the
//! type `Error`, which agrees with everything so that one mistake is reported once. Literals
//! are read in [`super::literals`].

use super::midnight;
use super::program::*;
use super::types::Type;
use crate::base::num::Num;
use crate::base::value::Value;
use crate::diagnostic::{Diagnostic, crowded, did_you_mean};
use crate::syntax::ast::{self, Arg, BinaryOp, Collection, DecisionKind, Expr, ExprKind, Span, UnaryOp};

/// Lowers the expressions of one rule, row or definition body.
pub struct Lowerer<'p> {
    pub program: &'p Program,
    pub diags: &'p mut Vec<Diagnostic>,
    locals: Vec<(String, u32, Type)>,
    next_slot: u32,
    pub max_slot: u32,
}

fn err(span: Span) -> Ir {
    Ir { kind: IrKind::Const(Value::Bool(false)), ty: Type::Error, span }
}

impl<'p> Lowerer<'p> {
    pub fn new(program: &'p Program, diags: &'p mut Vec<Diagnostic>) -> Self {
        Lowerer { program, diags, locals: Vec::new(), next_slot: 0, max_slot: 0 }
    }

    pub fn bind(&mut self, name: &str, ty: Type) -> u32 {
        let slot = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        self.locals.push((name.to_string(), slot, ty));
        slot
    }

    fn unbind(&mut self) {
        self.locals.pop();
        self.next_slot -= 1;
    }

    pub fn describe(&self, t: &Type) -> String {
        self.program.describe(t)
    }

    /// Lowers `e` and reports a mismatch when it does not fit `want`.
    pub fn lower_as(&mut self, e: &Expr, want: &Type, what: &str) -> Ir {
        let ir = self.lower_expecting(e, want);
        if !ir.ty.fits(want) {
            let (got, wanted) = (self.describe(&ir.ty), self.describe(want));
            self.diags.push(
                Diagnostic::error("conditions::type_mismatch", format!("{what} must be `{wanted}`, found `{got}`"))
                    .at(e.span, format!("this is `{got}`"))
                    .help(mismatch_help(&ir.ty, want)),
            );
        }
        ir
    }

    pub fn lower(&mut self, e: &Expr) -> Ir {
        let span = e.span;
        match &e.kind {
            ExprKind::Literal(l) => {
                let (v, ty) = self.literal_value(l);
                Ir { kind: IrKind::Const(v), ty, span }
            }
            ExprKind::Name(id) => self.name(id),
            ExprKind::Field(inner, field) => {
                let base = self.lower(inner);
                match &base.ty {
                    Type::Record(tid) => {
                        let TypeKind::Record(fields) = &self.program.types[*tid as usize].kind else {
                            return err(span);
                        };
                        match fields.iter().position(|f| f.name == field.name) {
                            Some(i) => {
                                let ty = fields[i].ty.clone();
                                Ir { kind: IrKind::Field(Box::new(base), i as u32), ty, span }
                            }
                            None => {
                                let tname = self.program.type_name(*tid);
                                let help = (self.program.renamed(&field.name, Some(*tid)))
                                    .or_else(|| did_you_mean(&field.name, fields.iter().map(|f| f.name.as_str())))
                                    .unwrap_or_else(|| {
                                        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                                        format!("`{tname}` has the fields {}", names.join(", "))
                                    });
                                self.diags.push(
                                    Diagnostic::error(
                                        "conditions::unknown_field",
                                        format!("`{tname}` has no field `{}`", field.name),
                                    )
                                    .at(field.span, "no such field")
                                    .help(help),
                                );
                                err(span)
                            }
                        }
                    }
                    Type::Error => err(span),
                    other => {
                        let d = self.describe(other);
                        self.diags.push(
                            Diagnostic::error("conditions::not_a_record", format!("`{d}` has no fields"))
                                .at(inner.span, format!("this is `{d}`"))
                                .help("only records have fields"),
                        );
                        err(span)
                    }
                }
            }
            ExprKind::Call { func, args } => self.call(func, args, span),
            ExprKind::List(items) => {
                let irs: Vec<Ir> = items.iter().map(|x| self.lower(x)).collect();
                let mut elem = Type::Error;
                for (ir, x) in irs.iter().zip(items) {
                    match elem.join(&ir.ty) {
                        Some(t) => elem = t,
                        None => {
                            let (a, b) = (self.describe(&elem), self.describe(&ir.ty));
                            self.diags.push(
                                Diagnostic::error("conditions::type_mismatch", format!("a list mixes `{a}` and `{b}`"))
                                    .at(x.span, format!("this is `{b}`"))
                                    .help("all items of a list have one type"),
                            );
                        }
                    }
                }
                Ir { kind: IrKind::List(irs), ty: Type::List(Box::new(elem)), span }
            }
            ExprKind::Record { ty, fields } => self.record(ty, fields, span),
            ExprKind::Unary(UnaryOp::Not, x) => {
                let ir = self.lower_as(x, &Type::Bool, "the operand of `not`");
                Ir { kind: IrKind::Not(Box::new(ir)), ty: Type::Bool, span }
            }
            ExprKind::Unary(UnaryOp::Neg, x) => {
                let ir = self.lower(x);
                if !ir.ty.is_numeric() {
                    self.type_error(x.span, &ir.ty, "only numbers can be negated");
                }
                let ty = ir.ty.clone();
                Ir { kind: IrKind::Neg(Box::new(ir)), ty, span }
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, span),
            ExprKind::In(x, coll) => {
                let xi = self.lower(x);
                match &**coll {
                    Collection::Range { lo, hi, inclusive } => {
                        if !(xi.ty.is_numeric() || matches!(xi.ty, Type::Date | Type::Time | Type::DateTime)) {
                            self.type_error(x.span, &xi.ty, "only numbers, dates and times lie in ranges");
                        }
                        let lo = lo.as_ref().map(|b| Box::new(self.bound(b, &xi.ty)));
                        let hi = hi.as_ref().map(|b| Box::new(self.bound(b, &xi.ty)));
                        let sides = [Some(&xi), lo.as_deref(), hi.as_deref()];
                        let sides: Vec<&Ir> = sides.into_iter().flatten().collect();
                        midnight::check(self, midnight::Use::Compare, &sides, span);
                        Ir {
                            kind: IrKind::InRange { x: Box::new(xi), lo, hi, inclusive: *inclusive },
                            ty: Type::Bool,
                            span,
                        }
                    }
                    Collection::Expr(c) => {
                        let ci = self.lower(c);
                        match &ci.ty {
                            Type::List(elem) if !xi.ty.fits(elem) && !elem.fits(&xi.ty) => {
                                let (a, b) = (self.describe(&xi.ty), self.describe(elem));
                                self.diags.push(
                                    Diagnostic::error(
                                        "conditions::type_mismatch",
                                        format!("cannot look for `{a}` in a list of `{b}`"),
                                    )
                                    .at(x.span, format!("this is `{a}`"))
                                    .help("compare values of the same type"),
                                );
                            }
                            Type::List(_) | Type::Error => {}
                            other => {
                                let o = self.describe(other);
                                self.diags.push(
                                    Diagnostic::error(
                                        "conditions::type_mismatch",
                                        format!("`in` needs a list or a range, found `{o}`"),
                                    )
                                    .at(c.span, format!("this is `{o}`"))
                                    .help("write `x in [A, B]` or `x in 5..=8`"),
                                );
                            }
                        }
                        Ir { kind: IrKind::InList(Box::new(xi), Box::new(ci)), ty: Type::Bool, span }
                    }
                }
            }
            ExprKind::If(c, t, f) => self.if_expr(c, t, f, None, span),
            ExprKind::Order(o) => self.order(o, span),
            ExprKind::Let(name, v, body) => {
                let vi = self.lower(v);
                let slot = self.bind(&name.name, vi.ty.clone());
                let bi = self.lower(body);
                self.unbind();
                let ty = bi.ty.clone();
                Ir { kind: IrKind::Let(slot, Box::new(vi), Box::new(bi)), ty, span }
            }
        }
    }

    /// `if c then t else f`, each branch read as `want` when one is expected; a branch
    /// written `18.15` beside a time (`if last then 13:00 else 18.15`) is a time too.
    pub(super) fn if_expr(&mut self, c: &Expr, t: &Expr, f: &Expr, want: Option<&Type>, span: Span) -> Ir {
        let ci = self.lower_as(c, &Type::Bool, "the condition of `if`");
        let (ti, fi) = match want {
            Some(w) => (self.lower_expecting(t, w), self.lower_expecting(f, w)),
            None => {
                let ti = self.lower(t);
                let fi = self.lower_expecting(f, &ti.ty);
                let ti = if fi.ty == Type::Time && ti.ty != Type::Time && matches!(t.kind, ExprKind::Literal(_)) {
                    self.lower_expecting(t, &Type::Time)
                } else {
                    ti
                };
                (ti, fi)
            }
        };
        let ty = match ti.ty.join(&fi.ty) {
            Some(t) => t,
            None => {
                let (a, b) = (self.describe(&ti.ty), self.describe(&fi.ty));
                self.diags.push(
                    Diagnostic::error(
                        "conditions::type_mismatch",
                        format!("the branches of `if` differ: `{a}` and `{b}`"),
                    )
                    .at(f.span, format!("this is `{b}`"))
                    .at(t.span, format!("this is `{a}`"))
                    .help("both branches must give the same type"),
                );
                Type::Error
            }
        };
        Ir { kind: IrKind::If(Box::new(ci), Box::new(ti), Box::new(fi)), ty, span }
    }

    fn bound(&mut self, b: &Expr, want: &Type) -> Ir {
        let ir = self.lower_expecting(b, want);
        if !(ir.ty.fits(want) || want.fits(&ir.ty)) {
            let (a, w) = (self.describe(&ir.ty), self.describe(want));
            self.diags.push(
                Diagnostic::error("conditions::type_mismatch", format!("range bound is `{a}`, the value is `{w}`"))
                    .at(b.span, format!("this is `{a}`"))
                    .help(mismatch_help(&ir.ty, want)),
            );
        }
        ir
    }

    fn type_error(&mut self, span: Span, got: &Type, msg: &str) {
        if *got == Type::Error {
            return;
        }
        let g = self.describe(got);
        self.diags.push(
            Diagnostic::error("conditions::type_mismatch", format!("{msg}, found `{g}`"))
                .at(span, format!("this is `{g}`"))
                .help(mismatch_help(got, &Type::number())),
        );
    }

    fn name(&mut self, id: &ast::Ident) -> Ir {
        let span = id.span;
        if let Some((_, slot, ty)) = self.locals.iter().rev().find(|(n, _, _)| *n == id.name) {
            return Ir { kind: IrKind::Local(*slot), ty: ty.clone(), span };
        }
        match self.program.symbols.get(&id.name).copied() {
            Some(Symbol::Fact(f)) => Ir { kind: IrKind::Fact(f), ty: self.program.facts[f as usize].ty.clone(), span },
            Some(Symbol::Decision(d)) => {
                let info = &self.program.decisions[d as usize];
                if info.kind == DecisionKind::Lot {
                    self.diags.push(
                        Diagnostic::error(
                            "conditions::lot_without_candidates",
                            format!("the lot `{}` is drawn among candidates", id.name),
                        )
                        .at(span, "a lot on its own")
                        .help(format!("write `draw({}, [candidate, …])`", id.name)),
                    );
                }
                Ir { kind: IrKind::Decision(d), ty: info.ty.clone(), span }
            }
            Some(Symbol::Def(d)) => {
                let info = &self.program.defs[d as usize];
                if !info.params.is_empty() {
                    self.diags.push(
                        Diagnostic::error(
                            "conditions::wrong_arity",
                            format!("`{}` takes {} argument(s)", id.name, info.params.len()),
                        )
                        .at(span, "used without arguments")
                        .help(format!("call it as `{}({})`", id.name, param_list(info))),
                    );
                    return err(span);
                }
                Ir { kind: IrKind::Call(d, Vec::new()), ty: info.ty.clone(), span }
            }
            Some(Symbol::Variant(t, v)) => Ir { kind: IrKind::Const(Value::Enum(t, v)), ty: Type::Enum(t), span },
            Some(Symbol::Type(t)) => {
                // An enum type stands for the list of its variants.
                match &self.program.types[t as usize].kind {
                    TypeKind::Enum(vs) => {
                        let items = (0..vs.len() as u32).map(|i| Value::Enum(t, i)).collect();
                        Ir { kind: IrKind::Const(Value::list(items)), ty: Type::List(Box::new(Type::Enum(t))), span }
                    }
                    TypeKind::Record(_) => {
                        self.diags.push(
                            Diagnostic::error(
                                "conditions::not_a_value",
                                format!("`{}` is a record type, not a value", id.name),
                            )
                            .at(span, "a type")
                            .help(format!("build one with `{} {{ field: … }}`", id.name)),
                        );
                        err(span)
                    }
                }
            }
            None => {
                let suggestion = if crowded(self.diags, span.file) {
                    None // not shown: the file has more diagnostics than are reported
                } else {
                    // Each name as it would be written here: short in its own section.
                    let here = self.program.sections.file_section.get(&span.file).map(String::as_str);
                    let written: Vec<String> =
                        self.program.symbols.keys().map(|s| self.program.sections.written(s, here)).collect();
                    let locals = self.locals.iter().map(|(n, _, _)| n.as_str());
                    self.program
                        .renamed(&id.name, None)
                        .or_else(|| did_you_mean(&id.name, locals.chain(written.iter().map(String::as_str))))
                };
                self.diags.push(
                    Diagnostic::error("conditions::unknown_name", format!("unknown name `{}`", id.name))
                        .at(span, "not declared")
                        .help(
                            suggestion.unwrap_or_else(|| {
                                "declare it with `fact`, `def`, `ruling`, `decision` or `type`".into()
                            }),
                        ),
                );
                err(span)
            }
        }
    }

    fn record(&mut self, ty: &ast::Ident, fields: &[(ast::Ident, Expr)], span: Span) -> Ir {
        let Some(Symbol::Type(tid)) = self.program.symbols.get(&ty.name).copied() else {
            self.diags.push(
                Diagnostic::error("conditions::unknown_type", format!("unknown record type `{}`", ty.name))
                    .at(ty.span, "not a record type")
                    .maybe_help(did_you_mean(&ty.name, self.program.types.iter().map(|t| t.name.as_str()))),
            );
            return err(span);
        };
        let TypeKind::Record(decl) = self.program.types[tid as usize].kind.clone() else {
            self.diags.push(
                Diagnostic::error("conditions::not_a_record", format!("`{}` is not a record type", ty.name))
                    .at(ty.span, "an enum")
                    .help("only records are built with `{ … }`"),
            );
            return err(span);
        };
        let mut slots: Vec<Option<Ir>> = vec![None; decl.len()];
        for (name, value) in fields {
            match decl.iter().position(|f| f.name == name.name) {
                Some(i) => {
                    let want = decl[i].ty.clone();
                    slots[i] = Some(self.lower_as(value, &want, &format!("field `{}`", name.name)));
                }
                None => self.diags.push(
                    Diagnostic::error(
                        "conditions::unknown_field",
                        format!("`{}` has no field `{}`", ty.name, name.name),
                    )
                    .at(name.span, "no such field")
                    .maybe_help(did_you_mean(&name.name, decl.iter().map(|f| f.name.as_str()))),
                ),
            }
        }
        for (i, f) in decl.iter().enumerate() {
            if slots[i].is_none() && !f.optional {
                self.diags.push(
                    Diagnostic::error(
                        "conditions::missing_field",
                        format!("field `{}` of `{}` is missing", f.name, ty.name),
                    )
                    .at(span, "incomplete record")
                    .help(format!("add `{}: …`", f.name)),
                );
            }
        }
        Ir { kind: IrKind::Record(tid, slots), ty: Type::Record(tid), span }
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr, span: Span) -> Ir {
        use BinaryOp::*;
        let mut li = self.lower(l);
        // `day + 18.15`: what is added to a date is a duration or a time of day, never a number.
        let want = if op == Add && li.ty == Type::Date { Type::Time } else { li.ty.clone() };
        let ri = self.lower_expecting(r, &want);
        // `18.15 <= t`: the left side is a time when the right one is.
        if ri.ty == Type::Time && li.ty != Type::Time && matches!(l.kind, ExprKind::Literal(_)) {
            li = self.lower_expecting(l, &Type::Time);
        }
        let (lt, rt) = (li.ty.clone(), ri.ty.clone());
        let ty = match op {
            And | Or => {
                for (t, e) in [(&lt, l), (&rt, r)] {
                    if !t.fits(&Type::Bool) {
                        let d = self.describe(t);
                        self.diags.push(
                            Diagnostic::error(
                                "conditions::type_mismatch",
                                format!("`{}` needs `bool` on both sides, found `{d}`", op.symbol()),
                            )
                            .at(e.span, format!("this is `{d}`"))
                            .help("write a comparison, e.g. `x >= 5`"),
                        );
                    }
                }
                Type::Bool
            }
            Eq | Ne => {
                if !(lt.fits(&rt) || rt.fits(&lt)) {
                    self.mismatch(op, &lt, &rt, l, r);
                }
                Type::Bool
            }
            Lt | Le | Gt | Ge => {
                // Enums are ordered as declared: `rank >= Regional` reads "Regional or higher".
                // Lists compare item by item (lexicographically): `[vp, imps] > [vp2, imps2]`.
                fn comparable(t: &Type) -> bool {
                    match t {
                        Type::List(e) => comparable(e),
                        t => {
                            t.is_numeric()
                                || matches!(t, Type::Date | Type::Time | Type::DateTime | Type::Error | Type::Enum(_))
                        }
                    }
                }
                if !comparable(&lt) || !comparable(&rt) || !(lt.fits(&rt) || rt.fits(&lt)) {
                    self.mismatch(op, &lt, &rt, l, r);
                } else {
                    midnight::check(self, midnight::Use::Compare, &[&li, &ri], span);
                }
                Type::Bool
            }
            Add | Sub => match (&lt, &rt) {
                (Type::Error, _) | (_, Type::Error) => Type::Error,
                (Type::Date, t) if t.unit().is_some_and(|u| u.is_time()) => Type::Date,
                (Type::Date, Type::Date) if op == Sub => Type::duration(),
                // `18:00 + 15 minutes` is a time; `18:20 - 18:00` the duration between them.
                (Type::Time, t) if t.unit().is_some_and(|u| u.is_time()) => Type::Time,
                (Type::Time, Type::Time) if op == Sub => {
                    midnight::check(self, midnight::Use::Between, &[&li, &ri], span);
                    Type::duration()
                }
                // `date + time` is that moment; a moment moves by durations, across midnight too.
                (Type::Date, Type::Time) if op == Add => Type::DateTime,
                (Type::DateTime, t) if t.unit().is_some_and(|u| u.is_time()) => Type::DateTime,
                (Type::DateTime, Type::DateTime) if op == Sub => Type::duration(),
                (Type::Int, Type::Int) => Type::Int,
                (a, b) if a.is_numeric() && b.is_numeric() && a.unit() == b.unit() => {
                    Type::Quantity(a.unit().unwrap_or_default())
                }
                _ => {
                    self.mismatch(op, &lt, &rt, l, r);
                    Type::Error
                }
            },
            IntDiv | Mod => match (&lt, &rt) {
                (Type::Error, _) | (_, Type::Error) => Type::Error,
                (Type::Int, Type::Int) => Type::Int,
                // Whole times a quantity goes into another of its unit, and what is left over.
                (a, b) if a.is_numeric() && b.is_numeric() && a.unit() == b.unit() => {
                    if op == IntDiv {
                        Type::Int
                    } else {
                        a.clone()
                    }
                }
                _ => {
                    self.mismatch(op, &lt, &rt, l, r);
                    Type::Error
                }
            },
            Mul | Div => match (&lt, &rt) {
                (Type::Error, _) | (_, Type::Error) => Type::Error,
                (Type::Int, Type::Int) if op == Mul => Type::Int,
                // `n * (n - 1) / 2`: a whole number when the division provably leaves nothing over.
                (Type::Int, Type::Int) if whole_quotient(&li, &ri) => Type::Int,
                (a, b) if a.is_numeric() && b.is_numeric() => {
                    let (ua, ub) = (a.unit().unwrap_or_default(), b.unit().unwrap_or_default());
                    Type::Quantity(if op == Mul { ua.mul(&ub) } else { ua.div(&ub) })
                }
                _ => {
                    self.mismatch(op, &lt, &rt, l, r);
                    Type::Error
                }
            },
        };
        Ir { kind: IrKind::Binary(op, Box::new(li), Box::new(ri)), ty, span }
    }

    fn mismatch(&mut self, op: BinaryOp, lt: &Type, rt: &Type, l: &Expr, r: &Expr) {
        let (a, b) = (self.describe(lt), self.describe(rt));
        let verb = match op {
            BinaryOp::Add => format!("cannot add `{b}` to `{a}`"),
            BinaryOp::Sub => format!("cannot subtract `{b}` from `{a}`"),
            BinaryOp::Mul => format!("cannot multiply `{a}` by `{b}`"),
            BinaryOp::Div => format!("cannot divide `{a}` by `{b}`"),
            BinaryOp::IntDiv | BinaryOp::Mod => {
                format!("`{}` needs whole numbers or amounts of one unit, found `{a}` and `{b}`", op.symbol())
            }
            _ => format!("cannot compare `{a}` with `{b}`"),
        };
        self.diags.push(
            Diagnostic::error("conditions::type_mismatch", verb)
                .at(r.span, format!("this is `{b}`"))
                .at(l.span, format!("this is `{a}`"))
                .help(mismatch_help(rt, lt)),
        );
    }

    fn call(&mut self, func: &ast::Ident, args: &[Arg], span: Span) -> Ir {
        if let Some(Symbol::Def(d)) = self.program.symbols.get(&func.name).copied() {
            let info = &self.program.defs[d as usize];
            let params = info.params.clone();
            let ty = info.ty.clone();
            if params.len() != args.len() {
                self.diags.push(
                    Diagnostic::error(
                        "conditions::wrong_arity",
                        format!("`{}` takes {} argument(s), found {}", func.name, params.len(), args.len()),
                    )
                    .at(span, "wrong number of arguments")
                    .help(format!("call it as `{}({})`", func.name, param_list(info))),
                );
                return err(span);
            }
            let mut irs = Vec::new();
            for (arg, (pname, pty)) in args.iter().zip(&params) {
                match arg {
                    Arg::Positional(e) => irs.push(self.lower_as(e, pty, &format!("argument `{pname}`"))),
                    Arg::Named(n, _) | Arg::Lambda(n, _) => {
                        self.diags.push(
                            Diagnostic::error("conditions::bad_argument", "definitions take plain arguments")
                                .at(n.span, "not a plain argument")
                                .help(format!(
                                    "call it as `{}({})`",
                                    func.name,
                                    param_list(&self.program.defs[d as usize])
                                )),
                        );
                        irs.push(err(n.span));
                    }
                }
            }
            return Ir { kind: IrKind::Call(d, irs), ty, span };
        }
        match Builtin::from_name(&func.name) {
            Some(b) => super::builtins::lower_builtin(self, b, func, args, span),
            None => {
                let candidates: Vec<&str> = if crowded(self.diags, func.span.file) {
                    Vec::new() // not shown: the file has more diagnostics than are reported
                } else {
                    Builtin::ALL
                        .iter()
                        .map(|b| b.name())
                        .chain(self.program.defs.iter().filter(|d| !d.params.is_empty()).map(|d| d.name.as_str()))
                        .collect()
                };
                let known = self.program.symbols.contains_key(&func.name);
                self.diags.push(
                    Diagnostic::error(
                        if known { "conditions::not_a_function" } else { "conditions::unknown_function" },
                        if known {
                            format!("`{}` is not a function", func.name)
                        } else {
                            format!("unknown function `{}`", func.name)
                        },
                    )
                    .at(func.span, if known { "not callable" } else { "not declared" })
                    .help(did_you_mean(&func.name, candidates.iter().copied()).unwrap_or_else(
                        || {
                            let names: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
                            format!("functions are definitions with parameters and the builtins ({})", names.join(", "))
                        },
                    )),
                );
                err(span)
            }
        }
    }

    fn order(&mut self, o: &ast::Order, span: Span) -> Ir {
        let list = self.lower(&o.list);
        let elem = match &list.ty {
            Type::List(t) => (**t).clone(),
            Type::Error => Type::Error,
            other => {
                let d = self.describe(other);
                self.diags.push(
                    Diagnostic::error("conditions::type_mismatch", format!("expected a list to order, found `{d}`"))
                        .at(o.list.span, format!("this is `{d}`"))
                        .help("write `rank t in teams by …` over a list"),
                );
                Type::Error
            }
        };
        let item = self.bind(&o.item.name, elem.clone());
        let keys = self.keys(&o.keys);
        let among = o.among.as_ref().map(|(group, ks)| {
            let slot = self.bind(&group.name, Type::List(Box::new(elem.clone())));
            let keys = self.keys(ks);
            self.unbind();
            (slot, keys)
        });
        self.unbind();
        let rank = o.kind == ast::OrderKind::Rank;
        let list_ty = Type::List(Box::new(elem));
        let ty = if rank { Type::List(Box::new(list_ty)) } else { list_ty };
        let in_turn = o.in_turn;
        Ir { kind: IrKind::Order(Box::new(OrderIr { rank, list, item, keys, among, in_turn })), ty, span }
    }

    fn keys(&mut self, keys: &[ast::OrderKey]) -> Vec<KeyIr> {
        keys.iter()
            .map(|k| {
                let key = self.lower(&k.key);
                if !ordered(&key.ty) {
                    let d = self.describe(&key.ty);
                    self.diags.push(
                        Diagnostic::error("conditions::type_mismatch", format!("cannot order by `{d}`"))
                            .at(k.key.span, format!("this is `{d}`"))
                            .help("order by numbers, dates, enums, texts or lists of them"),
                    );
                }
                midnight::check(self, midnight::Use::Key, &[&key], k.key.span);
                KeyIr { key, descending: k.descending() }
            })
            .collect()
    }

    /// Lowers a lambda argument `x => body` over list elements of type `elem`.
    pub fn lambda(&mut self, name: &ast::Ident, body: &Expr, elem: Type) -> Lambda {
        let slot = self.bind(&name.name, elem);
        let b = self.lower(body);
        self.unbind();
        Lambda { slot, body: Box::new(b) }
    }
}

/// Whether `a / b` is provably whole: `b` is a whole constant `k` and `a` a multiple of it, by
/// its factors (`4 * n / 2`), its terms (`(2 * n + 4) / 2`) or, for `k = 2`, as the product of
/// two consecutive whole numbers (`n * (n - 1) / 2`, the matches of a round robin).
fn whole_quotient(a: &Ir, b: &Ir) -> bool {
    let IrKind::Const(Value::Num(k)) = &b.kind else { return false };
    k.is_integer() && k.numer() > 0 && multiple_of(a, k.numer())
}

fn multiple_of(e: &Ir, k: i128) -> bool {
    if e.ty != Type::Int {
        return false;
    }
    if k == 1 {
        return true;
    }
    match &e.kind {
        IrKind::Const(Value::Num(c)) => c.is_integer() && c.numer() % k == 0,
        IrKind::Binary(BinaryOp::Mul, x, y) => {
            multiple_of(x, k) || multiple_of(y, k) || (k == 2 && (next_to(x, y) || next_to(y, x)))
        }
        IrKind::Binary(BinaryOp::Add | BinaryOp::Sub, x, y) => multiple_of(x, k) && multiple_of(y, k),
        IrKind::Neg(x) => multiple_of(x, k),
        _ => false,
    }
}

/// Whether `y` is `x + 1` or `x - 1`.
fn next_to(x: &Ir, y: &Ir) -> bool {
    match &y.kind {
        IrKind::Binary(BinaryOp::Add | BinaryOp::Sub, z, one) => {
            matches!(&one.kind, IrKind::Const(Value::Num(n)) if *n == Num::int(1)) && same(x, z)
        }
        _ => false,
    }
}

/// Whether two expressions are the same reading of the same inputs (no lambdas, no lots).
fn same(a: &Ir, b: &Ir) -> bool {
    let all = |xs: &[Ir], ys: &[Ir]| xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y));
    match (&a.kind, &b.kind) {
        (IrKind::Const(x), IrKind::Const(y)) => x == y,
        (IrKind::Local(x), IrKind::Local(y)) => x == y,
        (IrKind::Fact(x), IrKind::Fact(y)) => x == y,
        (IrKind::Call(d, xs), IrKind::Call(e, ys)) => d == e && all(xs, ys),
        (IrKind::Field(x, i), IrKind::Field(y, j)) => i == j && same(x, y),
        (IrKind::Builtin(p, xs, None), IrKind::Builtin(q, ys, None)) => p == q && all(xs, ys),
        (IrKind::Binary(o, x1, x2), IrKind::Binary(p, y1, y2)) => o == p && same(x1, y1) && same(x2, y2),
        (IrKind::Neg(x), IrKind::Neg(y)) => same(x, y),
        _ => false,
    }
}

/// Whether values of a type are ordered: numbers, dates, enums (as declared), texts, truth
/// values, and lists of them (compared item by item, the first difference deciding).
pub fn ordered(t: &Type) -> bool {
    match t {
        Type::List(e) => ordered(e),
        t => {
            t.is_numeric()
                || matches!(
                    t,
                    Type::Date | Type::Time | Type::DateTime | Type::Error | Type::Enum(_) | Type::Text | Type::Bool
                )
        }
    }
}

fn param_list(info: &DefInfo) -> String {
    info.params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
}

pub fn mismatch_help(got: &Type, want: &Type) -> String {
    if *want == Type::Bool {
        return "a condition is `bool`: write a comparison, e.g. `teams >= 5`".into();
    }
    if *want == Type::Time && got.is_numeric() {
        return "write a time of day as `18:15` (or `18.15`), not as minutes after midnight".into();
    }
    if *got == Type::Time && *want == Type::Time {
        return "times of day do not add up: a date plus a time is a moment (`day + 18:15`), and one moment minus \
                another the duration between them"
            .into();
    }
    if *got == Type::Time && want.unit().is_some_and(|u| u.is_time()) {
        return "a time of day is not a duration: subtract another time (`t - 18:00`) for the minutes between".into();
    }
    match (got.unit(), want.unit()) {
        (Some(a), Some(b)) if a.currency().is_some() && b.currency().is_some() && a != b => {
            "amounts in different currencies never mix".into()
        }
        (Some(a), Some(b)) if a != b && (a.is_none() || b.is_none()) => {
            "give the number its unit (`200 km`, `4.00 USD`, `8 days`) or divide by one".into()
        }
        (Some(_), Some(_)) => "both sides need the same unit".into(),
        _ => "values of different types cannot be combined".into(),
    }
}
