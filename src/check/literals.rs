//! Literals as the checker reads them: numbers exactly, in their unit's base; dates and
//! times of day; and `18.15` as the time 18:15 where a time is expected.

use super::expr::Lowerer;
use super::program::{Ir, IrKind};
use super::types::{Type, Unit, unit_word};
use crate::base::date::Date;
use crate::base::num::Num;
use crate::base::time::Time;
use crate::base::value::Value;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::ast::{self, Expr, ExprKind, Literal, UnitExpr};

impl Lowerer<'_> {
    /// Lowers `e` where a value of type `want` is expected: there a number written `18.15`
    /// is the time of day 18:15.
    pub fn lower_expecting(&mut self, e: &Expr, want: &Type) -> Ir {
        if *want != Type::Time {
            return self.lower(e);
        }
        match &e.kind {
            ExprKind::Literal(l) => {
                let (v, ty) = self.literal_value_as(l, want);
                Ir { kind: IrKind::Const(v), ty, span: e.span }
            }
            ExprKind::If(c, t, f) => self.if_expr(c, t, f, Some(want), e.span),
            _ => self.lower(e),
        }
    }

    /// A literal's value, read as a time of day where one is expected (`18.15`).
    pub fn literal_value_as(&mut self, l: &Literal, want: &Type) -> (Value, Type) {
        if *want == Type::Time
            && let Literal::Number { text, unit: None, .. } = l
            && let Some(t) = Time::from_decimal(text)
        {
            return (Value::Time(t), Type::Time);
        }
        self.literal_value(l)
    }

    pub fn literal_value(&mut self, l: &Literal) -> (Value, Type) {
        match l {
            Literal::Time { text, span } => match Time::parse(text) {
                Some(t) => (Value::Time(t), Type::Time),
                None => {
                    self.diags.push(
                        Diagnostic::error("conditions::bad_time", format!("`{text}` is not a time of day"))
                            .at(*span, "no such time")
                            .help("times of day are written HH:MM, from 00:00 to 23:59"),
                    );
                    (Value::Bool(false), Type::Error)
                }
            },
            Literal::Bool(b, _) => (Value::Bool(*b), Type::Bool),
            Literal::Text(s) => (Value::Text(s.value.as_str().into()), Type::Text),
            Literal::Date { text, span } => match Date::parse(text) {
                Some(d) => (Value::Date(d), Type::Date),
                None => {
                    self.diags.push(
                        Diagnostic::error("conditions::bad_date", format!("`{text}` is not a date"))
                            .at(*span, "no such day")
                            .help("dates are written YYYY-MM-DD and must exist in the calendar"),
                    );
                    (Value::Bool(false), Type::Error)
                }
            },
            Literal::Number { text, unit, span } => {
                let n = match Num::parse(text) {
                    Ok(n) => n,
                    Err(e) => {
                        self.diags.push(
                            Diagnostic::error(
                                "conditions::number_too_large",
                                format!("`{text}` cannot be held exactly"),
                            )
                            .at(*span, "too many digits")
                            .help(e.to_string()),
                        );
                        return (Value::Bool(false), Type::Error);
                    }
                };
                let too_large = |me: &mut Self| {
                    me.diags.push(
                        Diagnostic::error(
                            "conditions::number_too_large",
                            format!("`{text}` in its unit cannot be held exactly"),
                        )
                        .at(*span, "too large once converted to the base unit")
                        .help(crate::base::num::LIMIT),
                    );
                    (Value::Bool(false), Type::Error)
                };
                match unit {
                    None => (Value::Num(n), if n.is_integer() { Type::Int } else { Type::number() }),
                    Some(UnitExpr::Percent) => match n.div(Num::int(100)) {
                        Some(n) => (Value::Num(n), Type::number()),
                        None => too_large(self),
                    },
                    Some(UnitExpr::Word { name, per }) => {
                        let Some((u, f)) = self.unit(name) else { return (Value::Bool(false), Type::Error) };
                        let Some(mut n) = n.mul(Num::int(f)) else { return too_large(self) };
                        let mut unit = u;
                        if let Some(p) = per {
                            let Some((pu, pf)) = self.unit(p) else { return (Value::Bool(false), Type::Error) };
                            let Some(m) = n.div(Num::int(pf)) else { return too_large(self) };
                            n = m;
                            unit = unit.div(&pu);
                        }
                        (Value::Num(n), Type::Quantity(unit))
                    }
                }
            }
        }
    }

    fn unit(&mut self, name: &ast::Ident) -> Option<(Unit, i128)> {
        let found = unit_word(&name.name);
        if found.is_none() {
            self.diags.push(
                Diagnostic::error("conditions::unknown_unit", format!("unknown unit `{}`", name.name))
                    .at(name.span, "not a unit")
                    .help(did_you_mean(&name.name, super::types::UNIT_WORDS.iter().copied()).unwrap_or_else(|| {
                        "units are %, km, minutes, hours, days, weeks and currency codes (USD, DKK)".into()
                    })),
            );
        }
        found
    }
}
