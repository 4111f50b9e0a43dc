//! The interpreter's memo of one definition's results within a ruling, by argument list.

use super::R;
use crate::eval::value::Value;
use std::collections::HashMap;

/// The results of one definition by argument list: a few (most definitions are called with
/// one or a handful of argument lists in a ruling) compared in a list, more hashed.
pub(super) enum Memo {
    Few(Vec<(Vec<Value>, Entry)>),
    Many(HashMap<Vec<Value>, Entry>),
}

/// A result and the trace node that explains it.
type Entry = (R, Option<usize>);

impl Default for Memo {
    fn default() -> Self {
        Memo::Few(Vec::new())
    }
}

impl Memo {
    /// Argument lists kept in a list before they are hashed.
    const FEW: usize = 8;

    pub(super) fn get(&self, args: &[Value]) -> Option<&Entry> {
        match self {
            Memo::Few(xs) => xs.iter().find(|(k, _)| k.as_slice() == args).map(|(_, v)| v),
            Memo::Many(m) => m.get(args),
        }
    }

    pub(super) fn insert(&mut self, args: Vec<Value>, v: Entry) {
        match self {
            Memo::Few(xs) => {
                if let Some(x) = xs.iter_mut().find(|(k, _)| *k == args) {
                    x.1 = v;
                } else if xs.len() < Self::FEW {
                    xs.push((args, v));
                } else {
                    let mut m: HashMap<Vec<Value>, Entry> = std::mem::take(xs).into_iter().collect();
                    m.insert(args, v);
                    *self = Memo::Many(m);
                }
            }
            Memo::Many(m) => {
                m.insert(args, v);
            }
        }
    }
}
