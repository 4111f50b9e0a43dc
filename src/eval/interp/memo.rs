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
    memos: Vec<(DefId, Memo)>,
    /// Where each definition's results are in `memos` (its place + 1; 0 when not called yet):
    /// taken on the first result from the thread's spare table, and given back with only
    /// the called definitions' places zeroed, so that a ruling that calls a few of a
    /// rulebook's hundreds of definitions neither fills nor clears a table of them all.
    at: Vec<u32>,
}

thread_local! {
    /// A table of places given back by the last ruling on this thread, all zero.
    static SPARE: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Memos {
    pub(super) fn get(&self, def: DefId, args: &[Value]) -> Option<&Entry> {
        match self.at.get(def as usize) {
            Some(&i) if i > 0 => self.memos[i as usize - 1].1.get(args),
            _ => None,
        }
    }

    /// Keeps a result of `def`, one of `defs` definitions.
    pub(super) fn insert(&mut self, defs: usize, def: DefId, args: Vec<Value>, v: Entry) {
        if self.at.len() != defs {
            self.at = SPARE.with(|s| s.take());
            if self.at.len() != defs {
                self.at.clear();
                self.at.resize(defs, 0);
            }
        }
        let i = match self.at[def as usize] {
            0 => {
                self.memos.push((def, Memo::default()));
                self.at[def as usize] = self.memos.len() as u32;
                self.memos.len() - 1
            }
            i => i as usize - 1,
        };
        self.memos[i].1.insert(args, v);
    }
}

impl Drop for Memos {
    fn drop(&mut self) {
        if self.at.is_empty() {
            return;
        }
        for (def, _) in &self.memos {
            self.at[*def as usize] = 0;
        }
        let at = std::mem::take(&mut self.at);
        // A thread being torn down keeps no spare.
        let _ = SPARE.try_with(|s| s.set(at));
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
