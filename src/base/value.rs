//! Runtime values. Units are static (in the type); a number is just its exact magnitude
//! in the type's base unit (minutes for durations, the currency for money, km).

use super::date::Date;
use super::datetime::DateTime;
use super::num::Num;
use super::time::Time;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Bool(bool),
    Num(Num),
    Text(Arc<str>),
    Date(Date),
    /// A time of day.
    Time(Time),
    /// A date with a time of day.
    DateTime(DateTime),
    /// An enum value: the type's id and the variant's index.
    Enum(u32, u32),
    /// A record's field values, in declaration order.
    Record(u32, Arc<[Option<Value>]>),
    List(Arc<[Value]>),
}

impl Value {
    pub fn as_bool(&self) -> Option<bool> {
        if let Value::Bool(b) = self { Some(*b) } else { None }
    }
    pub fn as_num(&self) -> Option<Num> {
        if let Value::Num(n) = self { Some(*n) } else { None }
    }
    pub fn as_list(&self) -> Option<&[Value]> {
        if let Value::List(l) = self { Some(l) } else { None }
    }
    pub fn int(n: i128) -> Value {
        Value::Num(Num::int(n))
    }
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(items.into())
    }
}
