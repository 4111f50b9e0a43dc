//! The interpreter's memo of definitions' results within a ruling, by definition and
//! argument list.

use super::R;
use crate::base::value::Value;
use crate::check::program::DefId;
use std::collections::HashMap;

/// The results of the definitions called in a ruling.
#[derive(Default)]
pub(super) struct Memos {
    /// Every result kept, those of one definition chained from its latest (a definition is
    /// called with one or a handful of argument lists in most rulings): one list for all,
    /// taken from the thread's spare one and given back empty, so that a ruling allocates
    /// nothing for its memo.
    entries: Vec<Kept>,
    /// The results of definitions called with more than [`Self::FEW`] argument lists, hashed.
    hashed: Vec<(DefId, HashMap<Vec<Value>, Entry>)>,
    /// Where each definition's results are (0 when not called yet; the place + 1 of its
    /// latest entry; [`HASHED`] with the place of its table): taken on the first result
    /// from the thread's spare table, and given back with only the called definitions'
    /// places zeroed, so that a ruling that calls a few of a rulebook's hundreds of
    /// definitions neither fills nor clears a table of them all.
    at: Vec<u32>,
}

/// A result kept, and the place + 1 of the entry before it of the same definition (0: none).
struct Kept {
    def: DefId,
    args: Vec<Value>,
    entry: Entry,
    next: u32,
}

/// Marks a place in [`Memos::at`] as that of a hashed table.
const HASHED: u32 = 1 << 31;

/// A result and the trace node that explains it.
type Entry = (R, Option<usize>);

thread_local! {
    /// A table of places given back by the last ruling on this thread, all zero, and a list
    /// of entries, empty.
    static SPARE: std::cell::Cell<(Vec<u32>, Vec<Kept>)> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

impl Memos {
    /// Argument lists of one definition kept in a chain before they are hashed.
    const FEW: usize = 8;

    pub(super) fn get(&self, def: DefId, args: &[Value]) -> Option<&Entry> {
        let mut i = *self.at.get(def as usize)?;
        if i & HASHED != 0 {
            return self.hashed[(i & !HASHED) as usize].1.get(args);
        }
        while i > 0 {
            let k = &self.entries[i as usize - 1];
            if k.args.as_slice() == args {
                return Some(&k.entry);
            }
            i = k.next;
        }
        None
    }

    /// The argument lists `def` has a result kept for.
    pub(super) fn args_of(&self, def: DefId) -> Vec<Vec<Value>> {
        let Some(&head) = self.at.get(def as usize) else { return Vec::new() };
        if head & HASHED != 0 {
            return self.hashed[(head & !HASHED) as usize].1.keys().cloned().collect();
        }
        let (mut out, mut i) = (Vec::new(), head);
        while i > 0 {
            let k = &self.entries[i as usize - 1];
            out.push(k.args.clone());
            i = k.next;
        }
        out
    }

    /// Keeps a result of `def`, one of `defs` definitions.
    pub(super) fn insert(&mut self, defs: usize, def: DefId, args: Vec<Value>, v: Entry) {
        if self.at.len() != defs {
            let (at, entries) = SPARE.with(|s| s.take());
            self.at = at;
            if self.at.len() != defs {
                self.at.clear();
                self.at.resize(defs, 0);
            }
            if self.entries.is_empty() {
                self.entries = entries;
            }
        }
        let head = self.at[def as usize];
        if head & HASHED != 0 {
            self.hashed[(head & !HASHED) as usize].1.insert(args, v);
            return;
        }
        let mut i = head;
        let mut n = 0;
        while i > 0 {
            let k = &mut self.entries[i as usize - 1];
            if k.args == args {
                k.entry = v;
                return;
            }
            n += 1;
            i = k.next;
        }
        if n < Self::FEW {
            self.entries.push(Kept { def, args, entry: v, next: head });
            self.at[def as usize] = self.entries.len() as u32;
            return;
        }
        // Many argument lists: this definition's results hashed from now on (their entries
        // in the chain stay, unreachable, until the ruling ends).
        let mut m: HashMap<Vec<Value>, Entry> = HashMap::new();
        let mut i = head;
        while i > 0 {
            let k = &mut self.entries[i as usize - 1];
            let (args, entry) =
                (std::mem::take(&mut k.args), std::mem::replace(&mut k.entry, (Ok(Value::Bool(false)), None)));
            m.entry(args).or_insert(entry);
            i = k.next;
        }
        m.insert(args, v);
        self.hashed.push((def, m));
        self.at[def as usize] = HASHED | (self.hashed.len() as u32 - 1);
    }
}

impl Drop for Memos {
    fn drop(&mut self) {
        if self.at.is_empty() {
            return;
        }
        for k in &self.entries {
            self.at[k.def as usize] = 0;
        }
        for (def, _) in &self.hashed {
            self.at[*def as usize] = 0;
        }
        let at = std::mem::take(&mut self.at);
        let mut entries = std::mem::take(&mut self.entries);
        entries.clear();
        if entries.capacity() > 4096 {
            entries = Vec::new();
        }
        // A thread being torn down keeps no spare.
        let _ = SPARE.try_with(|s| s.set((at, entries)));
    }
}
