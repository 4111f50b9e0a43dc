//! Static types and units: what a fact, definition or expression may hold.

use std::fmt;
use std::sync::{Arc, LazyLock};

/// A unit as powers of base units: currencies (`USD`, `DKK`), `km`, `min` (time).
/// Empty means a plain number. Shared, so that a type is copied without copying its units.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit(pub Arc<[(String, i8)]>);

/// The empty unit, shared.
static NONE: LazyLock<Arc<[(String, i8)]>> = LazyLock::new(|| Arc::from(Vec::new()));

impl Default for Unit {
    fn default() -> Self {
        Unit::none()
    }
}

impl Unit {
    pub fn none() -> Unit {
        Unit(NONE.clone())
    }
    pub fn base(name: &str) -> Unit {
        Unit(Arc::from(vec![(name.to_string(), 1)]))
    }
    pub fn is_none(&self) -> bool {
        self.0.is_empty()
    }
    fn combine(&self, other: &Unit, sign: i8) -> Unit {
        let mut out = self.0.to_vec();
        for (b, e) in other.0.iter() {
            match out.iter_mut().find(|(x, _)| x == b) {
                Some(slot) => slot.1 += e * sign,
                None => out.push((b.clone(), e * sign)),
            }
        }
        out.retain(|(_, e)| *e != 0);
        out.sort();
        if out.is_empty() { Unit::none() } else { Unit(Arc::from(out)) }
    }
    pub fn mul(&self, o: &Unit) -> Unit {
        self.combine(o, 1)
    }
    pub fn div(&self, o: &Unit) -> Unit {
        self.combine(o, -1)
    }
    pub fn is_time(&self) -> bool {
        matches!(&self.0[..], [(b, 1)] if b == "min")
    }
    /// The currency, if this is money.
    pub fn currency(&self) -> Option<&str> {
        match &self.0[..] {
            [(c, 1)] if is_currency(c) => Some(c),
            _ => None,
        }
    }
}

pub fn is_currency(s: &str) -> bool {
    s.len() == 3 && s.chars().all(|c| c.is_ascii_uppercase())
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_time() {
            return write!(f, "duration");
        }
        let pos: Vec<&str> = self.0.iter().filter(|(_, e)| *e > 0).map(|(b, _)| b.as_str()).collect();
        let neg: Vec<&str> = self.0.iter().filter(|(_, e)| *e < 0).map(|(b, _)| b.as_str()).collect();
        let pos = if pos.is_empty() { "number".to_string() } else { pos.join("·") };
        if neg.is_empty() { write!(f, "{pos}") } else { write!(f, "{pos} per {}", neg.join("·")) }
    }
}

/// Conversion of a unit word to (base unit, factor to the base).
pub fn unit_word(word: &str) -> Option<(Unit, i128)> {
    Some(match word {
        "km" => (Unit::base("km"), 1),
        "minute" | "minutes" | "min" => (Unit::base("min"), 1),
        "hour" | "hours" => (Unit::base("min"), 60),
        "day" | "days" => (Unit::base("min"), 1440),
        "week" | "weeks" => (Unit::base("min"), 10080),
        w if is_currency(w) => (Unit::base(w), 1),
        _ => return None,
    })
}

/// Every word [`unit_word`] reads besides a currency's code.
pub const UNIT_WORD_FORMS: &[&str] =
    &["km", "minute", "minutes", "min", "hour", "hours", "day", "days", "week", "weeks"];

pub const UNIT_WORDS: &[&str] = &["km", "minutes", "hours", "days", "weeks", "USD", "DKK"];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Bool,
    /// A whole number; usable wherever a number is.
    Int,
    /// An exact number with a unit (empty unit: a plain number).
    Quantity(Unit),
    Text,
    Date,
    /// A time of day, `18:15`.
    Time,
    /// A date with a time of day (`date + time`), for moments on either side of midnight.
    DateTime,
    Enum(u32),
    Record(u32),
    List(Box<Type>),
    /// The type of an expression that already failed to check: agrees with everything.
    Error,
}

impl Type {
    pub fn number() -> Type {
        Type::Quantity(Unit::none())
    }
    pub fn duration() -> Type {
        Type::Quantity(Unit::base("min"))
    }
    pub fn is_numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Quantity(_) | Type::Error)
    }
    /// The unit of a numeric type (`Int` has none).
    pub fn unit(&self) -> Option<Unit> {
        match self {
            Type::Int => Some(Unit::none()),
            Type::Quantity(u) => Some(u.clone()),
            _ => None,
        }
    }
    /// Whether a value of `self` may stand where `want` is expected.
    pub fn fits(&self, want: &Type) -> bool {
        match (self, want) {
            (Type::Error, _) | (_, Type::Error) => true,
            (Type::Int, Type::Quantity(u)) => u.is_none(),
            (Type::List(a), Type::List(b)) => a.fits(b),
            (a, b) => a == b,
        }
    }
    /// The common type of two branches, if any.
    pub fn join(&self, other: &Type) -> Option<Type> {
        if self.fits(other) {
            Some(other.clone())
        } else if other.fits(self) {
            Some(self.clone())
        } else {
            None
        }
    }
}

/// Names of types for messages; enum and record names come from the program.
pub struct TypeNames<'a>(pub &'a dyn Fn(u32) -> String);

impl Type {
    pub fn describe(&self, names: &dyn Fn(u32) -> String) -> String {
        match self {
            Type::Bool => "bool".into(),
            Type::Int => "int".into(),
            Type::Quantity(u) => u.to_string(),
            Type::Text => "text".into(),
            Type::Date => "date".into(),
            Type::Time => "time".into(),
            Type::DateTime => "datetime".into(),
            Type::Enum(id) | Type::Record(id) => names(*id),
            Type::List(t) => format!("list of {}", t.describe(names)),
            Type::Error => "?".into(),
        }
    }
}
