//! The interpreter's memo of definitions' results within a ruling, by definition and
//! argument list.

use super::R;
use crate::check::program::DefId;
use crate::eval::value::Value;
use std::collections::HashMap;

/// The results of the definitions called in a ruling.
#[derive(Default)]
pub(super) struct Memos {
    /// Each called definition's results.
    memos: Vec<Memo>,
    /// Where each definition's results are in `memos` (its place + 1; 0 when not called yet):
    /// made on the first result, zeroed, so that a ruling that calls a few of a rulebook's
    /// hundreds of definitions neither fills nor drops a table of them all.
    at: Vec<u32>,
}

impl Memos {
    pub(super) fn get(&self, def: DefId, args: &[Value]) -> Option<&Entry> {
        match self.at.get(def as usize) {
            Some(&i) if i > 0 => self.memos[i as usize - 1].get(args),
            _ => None,
        }
    }

    /// Keeps a result of `def`, one of `defs` definitions.
    pub(super) fn insert(&mut self, defs: usize, def: DefId, args: Vec<Value>, v: Entry) {
        if self.at.is_empty() {
            self.at = vec![0; defs];
        }
        let i = match self.at[def as usize] {
            0 => {
                self.memos.push(Memo::default());
                self.at[def as usize] = self.memos.len() as u32;
                self.memos.len() - 1
            }
            i => i as usize - 1,
        };
        self.memos[i].insert(args, v);
    }
}

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
