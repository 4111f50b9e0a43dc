//! Facts generated from a rulebook's declarations, for the property tests that rule them:
//! the constants the rules mention and their neighbours, a small deterministic generator
//! (proptest supplies and shrinks the seed), and inputs with some left out.
#![allow(dead_code)]

use conditions::check::program::{Program, TypeKind};
use conditions::check::types::Type;
use conditions::eval::date::Date;
use conditions::eval::datetime::DateTime;
use conditions::eval::interp::Inputs;
use conditions::eval::num::Num;
use conditions::eval::time::Time;
use conditions::eval::value::Value;

#[derive(Default)]
pub struct Constants {
    pub nums: Vec<Num>,
    pub dates: Vec<Date>,
    pub times: Vec<Time>,
    pub texts: Vec<String>,
}

/// Constants the rulebook mentions, and their neighbours: the values worth trying.
pub fn constants(p: &Program, extra: &[Num]) -> Constants {
    let mut k = Constants::default();
    let mut note = |v: &Value| match v {
        Value::Num(n) => k.nums.extend([*n, n.sub(Num::ONE).unwrap_or(*n), n.add(Num::ONE).unwrap_or(*n)]),
        Value::Date(d) => k.dates.extend([*d, d.add_days(-1).unwrap_or(*d), d.add_days(1).unwrap_or(*d)]),
        Value::Text(t) => k.texts.push(t.to_string()),
        Value::Time(t) => {
            k.times.extend([t.minutes() - 1, t.minutes(), t.minutes() + 1].into_iter().filter_map(Time::from_minutes))
        }
        _ => {}
    };
    let mut visit = |ir: &conditions::check::program::Ir| {
        ir.visit(&mut |x| {
            if let conditions::check::program::IrKind::Const(v) = &x.kind {
                note(v)
            }
        })
    };
    for r in &p.rules {
        visit(&r.value);
        if let Some(g) = &r.guard {
            visit(g);
        }
    }
    k.nums.extend([Num::ZERO, Num::ONE, Num::int(2), Num::int(4)]);
    k.nums.extend_from_slice(extra);
    k.texts.push("x".into());
    k.dates.extend(Date::from_ymd(2008, 1, 1));
    // Both sides of midnight, and the middle of the day.
    k.times.extend([0, 1, 720, 1438, 1439].into_iter().filter_map(Time::from_minutes));
    k
}

/// A small deterministic generator (proptest supplies and shrinks the seed).
pub struct Gen(pub u64);

impl Gen {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> Option<T> {
        (!xs.is_empty()).then(|| xs[self.below(xs.len())].clone())
    }
}

pub fn value(p: &Program, k: &Constants, ty: &Type, g: &mut Gen, depth: u32) -> Option<Value> {
    Some(match ty {
        Type::Bool => Value::Bool(g.below(2) == 0),
        Type::Int => {
            let ints: Vec<Num> = k.nums.iter().copied().filter(|n| n.is_integer()).collect();
            Value::Num(g.pick(&ints)?)
        }
        Type::Quantity(_) => Value::Num(g.pick(&k.nums)?),
        Type::Text => Value::Text(g.pick(&k.texts)?.into()),
        Type::Date => Value::Date(g.pick(&k.dates)?),
        Type::Time => Value::Time(g.pick(&k.times)?),
        // A day of the rulebook or the one after, at any time worth trying.
        Type::DateTime => {
            let d = g.pick(&k.dates)?;
            let d = if g.below(2) == 0 { d } else { d.add_days(1).unwrap_or(d) };
            Value::DateTime(DateTime::new(d, g.pick(&k.times)?))
        }
        Type::Enum(t) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => Value::Enum(*t, g.below(vs.len()) as u32),
            TypeKind::Record(_) => return None,
        },
        Type::Record(t) => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) if depth < 4 => {
                let mut fields = Vec::new();
                for f in fs {
                    let v = value(p, k, &f.ty, g, depth + 1);
                    fields.push(if f.optional && g.below(5) == 0 { None } else { Some(v?) });
                }
                Value::Record(*t, fields.into())
            }
            _ => return None,
        },
        Type::List(inner) if depth < 4 => {
            let n = g.below(4);
            Value::List((0..n).map(|_| value(p, k, inner, g, depth + 1)).collect::<Option<Vec<_>>>()?.into())
        }
        _ => return None,
    })
}

/// Facts and decisions from the declarations; one in `gap` left out.
pub fn generated(p: &Program, k: &Constants, seed: u64, gap: usize) -> Inputs {
    let mut g = Gen(seed | 1);
    let mut inputs = Inputs::empty(p);
    for (i, f) in p.facts.iter().enumerate() {
        inputs.facts[i] = if g.below(gap) == 0 { None } else { value(p, k, &f.ty, &mut g, 0) };
    }
    for (i, d) in p.decisions.iter().enumerate() {
        inputs.decisions[i] = if g.below(gap) == 0 { None } else { value(p, k, &d.ty, &mut g, 0) };
    }
    inputs
}
