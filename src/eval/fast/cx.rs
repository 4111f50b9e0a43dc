//! The state of one compiled ruling ([`Cx`]) and the buffers kept from one ruling to the
//! next ([`Scratch`]).
//!
//! What it owns: where a ruling's values live. Every value code passes around is a
//! reference with the ruling's lifetime: to where the program or the inputs hold it (a
//! constant, a fact, a field of one, an item of a list among them), or to a value the
//! ruling built, kept in the ruling's arena until the ruling ends. Nothing is copied to be
//! read, and nothing on the stack needs dropping. The values a ruling builds sit in the
//! cells of its pile, each set once a ruling and emptied at the start of the next (so that
//! keeping a value allocates nothing). The result of a definition without parameters is
//! kept as the reference to where it is held, noted with the ruling's generation (so that
//! nothing is copied to keep it and nothing emptied after: an older generation's note is
//! not the ruling's). Locals (parameters, bindings,
//! lambda items) live on one stack of references; a frame is a stretch of it from
//! [`Cx::base`], and the items of a list an aggregate reads are pushed above the current
//! frame and cut off when it is done.
//!
//! Steps are counted by blocks, not by node: a rule's guard and value count all their
//! nodes when the rule is entered, a lambda's body all its nodes for each item. That is
//! never fewer than the interpreter counts (it counts the nodes it evaluates, one each), so
//! a ruling the interpreter would stop at [`MAX_STEPS`] is stopped here too (and ruled by
//! the interpreter, which words the limit).

use super::Compiled;
use crate::base::value::Value;
use crate::check::program::DefId;
use crate::eval::interp::{Inputs, MAX_STEPS};
use std::cell::{Cell, OnceCell};
use std::sync::Arc;
use typed_arena::Arena;

/// Why compiled evaluation did not produce a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// An input is missing: the interpreter's *undetermined*. Absorbed where the
    /// interpreter absorbs it (`false and ?`, an aggregate's decided items, an exception).
    Unknown,
    /// Silence, an error in the rulebook or a limit: evaluation ends and the interpreter
    /// rules instead.
    Halt,
}

pub(crate) type R<T> = Result<T, Stop>;

/// What a frame's slots hold before they are written.
pub(crate) static UNSET: Value = Value::Bool(false);
pub(crate) static TRUE: Value = Value::Bool(true);
pub(crate) static FALSE: Value = Value::Bool(false);

/// A truth value as a value, without building one.
#[inline(always)]
pub(crate) fn truth_value(b: bool) -> &'static Value {
    if b { &TRUE } else { &FALSE }
}

/// The result of a rule kept for the ruling when several rule trees reach it
/// ([`super::rules::RuleCode::memo`]): what it came to, its value when it applies, and the
/// steps counted for it (counted again at every later reach, as the interpreter, which
/// keeps no such result, counts them).
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    pub(crate) tree: super::rules::Tree0,
    pub(crate) value: Option<Value>,
    pub(crate) steps: u64,
}

/// Buffers reused from one ruling to the next: where definitions' results are kept, the
/// cells of shared rules' results, the places of facts in the input set and the stack of
/// locals.
#[derive(Default)]
pub struct Scratch {
    /// For each definition: the generation in which its result was kept, and its place
    /// among the results kept ([`Self::kept`]).
    kept_at: Vec<Cell<(u32, u32)>>,
    /// The results of definitions kept by the last ruling, emptied for the next (each lent
    /// from where it is held: the program, the inputs or the pile).
    kept: Vec<R<&'static Value>>,
    rules: Vec<OnceCell<Kept>>,
    used_rules: Vec<u32>,
    /// For each fact: the generation in which its place in the input set was noted, and
    /// that place ([`crate::base::slots::Slots::place`]).
    places: Vec<Cell<(u32, u32)>>,
    /// The ruling's number, one more each ruling: a place or a result noted in an earlier
    /// generation is not the ruling's.
    generation: u32,
    locals: Vec<&'static Value>,
    /// Cells for the values a ruling builds, and how many the last ruling set.
    pile: Vec<OnceCell<Value>>,
    piled: usize,
    /// Lists the last rulings built and no longer hold, kept to be filled again
    /// ([`Cx::list_of`]).
    spare: Vec<Arc<[Value]>>,
}

/// How many lists [`Scratch`] keeps to be filled again, and the longest it keeps.
const SPARE: usize = 8;
const SPARE_ITEMS: usize = 64;

/// How many values a ruling keeps in its pile before it keeps them in an arena of its own.
const PILE: usize = 64;

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").field("definitions", &self.kept_at.len()).finish_non_exhaustive()
    }
}

/// An emptied vector of references (or results holding them) with another lifetime,
/// keeping its allocation: the stack of locals and the results kept are held from one
/// ruling to the next, and each ruling lends values for its own lifetime (a vector collected
/// in place from its own iterator keeps its buffer; `fill` is never stored, the vector
/// being empty).
fn recycle<A, B: Copy>(mut v: Vec<A>, fill: B) -> Vec<B> {
    v.clear();
    v.into_iter().map(|_| fill).collect()
}

/// One ruling's state (see the module documentation).
pub(crate) struct Cx<'r> {
    pub(crate) c: &'r Compiled,
    pub(crate) inputs: &'r Inputs,
    kept_at: &'r [Cell<(u32, u32)>],
    kept: Vec<R<&'r Value>>,
    rules: &'r [OnceCell<Kept>],
    used_rules: &'r mut Vec<u32>,
    places: &'r [Cell<(u32, u32)>],
    generation: u32,
    /// Whether the input set finds a fact by an index of its own (no place noted).
    indexed: bool,
    pile: &'r [OnceCell<Value>],
    piled: usize,
    /// Values past the pile's cells.
    arena: &'r OnceCell<Arena<Value>>,
    pub(crate) locals: Vec<&'r Value>,
    /// Where the current frame starts in [`Self::locals`].
    pub(crate) base: usize,
    steps: u64,
    spare: Vec<Arc<[Value]>>,
}

/// Runs `f` on a fresh ruling state over `scratch`, and keeps the buffers after.
pub(crate) fn with_cx<T>(
    c: &Compiled,
    inputs: &Inputs,
    scratch: &mut Scratch,
    f: impl for<'r> FnOnce(&mut Cx<'r>) -> T,
) -> T {
    let s = scratch;
    // Results and places noted by earlier rulings are of an earlier generation: nothing is
    // emptied but the vectors' lengths, set for this program and these inputs.
    if s.kept_at.len() != c.defs.len() {
        s.kept_at = vec![Cell::new((0, 0)); c.defs.len()];
    }
    if s.rules.len() != c.rule_memos as usize {
        s.rules = (0..c.rule_memos).map(|_| OnceCell::new()).collect();
        s.used_rules.clear();
    }
    for &r in &s.used_rules {
        if let Some(cell) = s.rules.get_mut(r as usize) {
            *cell = OnceCell::new();
        }
    }
    s.used_rules.clear();
    if s.places.len() != inputs.facts.len() {
        s.places = vec![Cell::new((0, 0)); inputs.facts.len()];
    }
    s.generation = s.generation.wrapping_add(1);
    if s.generation == 0 {
        // Wrapped: forget every place and result rather than mistake an old one for new.
        s.places.iter().chain(&s.kept_at).for_each(|p| p.set((0, 0)));
        s.generation = 1;
    }
    if s.pile.len() != PILE {
        s.pile = (0..PILE).map(|_| OnceCell::new()).collect();
        s.piled = 0;
    }
    for cell in s.pile.iter_mut().take(s.piled) {
        match cell.take() {
            // A short list no one else holds: kept to be filled again rather than freed.
            Some(Value::List(l)) if s.spare.len() < SPARE && l.len() <= SPARE_ITEMS && Arc::strong_count(&l) == 1 => {
                s.spare.push(l)
            }
            _ => {}
        }
    }
    // The places of the facts given, noted at once: a fact without a place is not given.
    let indexed = match inputs.facts.inline_ids() {
        Some(ids) => {
            for (k, &id) in ids.iter().enumerate() {
                if let Some(p) = s.places.get(id as usize) {
                    p.set((s.generation, k as u32 + 1));
                }
            }
            false
        }
        None => true,
    };
    let arena = OnceCell::new();
    let mut cx = Cx {
        c,
        inputs,
        kept_at: &s.kept_at,
        kept: recycle(std::mem::take(&mut s.kept), Err(Stop::Halt)),
        rules: &s.rules,
        used_rules: &mut s.used_rules,
        places: &s.places,
        generation: s.generation,
        indexed,
        pile: &s.pile,
        piled: 0,
        arena: &arena,
        locals: recycle(std::mem::take(&mut s.locals), &UNSET),
        base: 0,
        steps: 0,
        spare: std::mem::take(&mut s.spare),
    };
    let out = f(&mut cx);
    let Cx { locals, piled, spare, kept, .. } = cx;
    s.locals = recycle(locals, &UNSET);
    s.kept = recycle(kept, Err(Stop::Halt));
    s.piled = piled;
    s.spare = spare;
    out
}

impl<'r> Cx<'r> {
    /// The value of fact `f`.
    #[inline]
    pub(crate) fn fact(&self, f: u32) -> &'r Option<Value> {
        let facts: &'r crate::base::slots::Slots = &self.inputs.facts;
        if self.indexed {
            return facts.at(facts.place(f as usize));
        }
        match self.places.get(f as usize).map(Cell::get) {
            Some((generation, place)) if generation == self.generation => facts.at(place),
            _ => facts.at(0),
        }
    }

    /// The value of decision `d`.
    #[inline]
    pub(crate) fn decision(&self, d: u32) -> &'r Option<Value> {
        let decisions: &'r crate::base::slots::Slots = &self.inputs.decisions;
        &decisions[d as usize]
    }

    /// Local `slot` of the current frame.
    #[inline(always)]
    pub(crate) fn local(&self, slot: u32) -> &'r Value {
        self.locals[self.base + slot as usize]
    }

    /// Binds local `slot` of the current frame.
    #[inline(always)]
    pub(crate) fn bind(&mut self, slot: u32, v: &'r Value) {
        let at = self.base + slot as usize;
        self.locals[at] = v;
    }

    /// Keeps a value the ruling built until the ruling ends, and lends it.
    #[inline]
    pub(crate) fn keep_value(&mut self, v: Value) -> &'r Value {
        let pile: &'r [OnceCell<Value>] = self.pile;
        if let Some(cell) = pile.get(self.piled) {
            self.piled += 1;
            // A cell of the pile is set once a ruling: this one is empty.
            return cell.get_or_init(|| v);
        }
        let arena: &'r OnceCell<Arena<Value>> = self.arena;
        arena.get_or_init(|| Arena::with_capacity(PILE)).alloc(v)
    }

    /// A list of the `n` values `items` gives, filling a list of that length an earlier
    /// ruling built and no longer holds when there is one, rather than allocating.
    pub(crate) fn list_of(&mut self, n: usize, mut items: impl Iterator<Item = Value>) -> Value {
        if let Some(i) = self.spare.iter().position(|l| l.len() == n) {
            let mut l = self.spare.swap_remove(i);
            if let Some(slots) = Arc::get_mut(&mut l) {
                for slot in slots.iter_mut() {
                    *slot = items.next().unwrap_or(Value::Bool(false));
                }
                return Value::List(l);
            }
        }
        Value::List((0..n).map(|_| items.next().unwrap_or(Value::Bool(false))).collect())
    }

    /// Counts `n` steps; a halt past the limit, or once the evaluation is cancelled
    /// ([`crate::eval::budget`]).
    #[inline(always)]
    pub(crate) fn count(&mut self, n: u64) -> R<()> {
        let before = self.steps;
        self.steps += n;
        let stop = self.steps > MAX_STEPS
            || crate::eval::budget::passes_a_look(before, self.steps) && crate::eval::budget::cancelled();
        if stop { Err(Stop::Halt) } else { Ok(()) }
    }

    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// The result of definition `def` (without parameters) when it is worked out already.
    #[inline(always)]
    pub(crate) fn known(&self, def: DefId) -> Option<R<&'r Value>> {
        match self.kept_at[def as usize].get() {
            (generation, at) if generation == self.generation => self.kept.get(at as usize).copied(),
            _ => None,
        }
    }

    /// Keeps the result of definition `def` for the ruling and lends it: the reference
    /// itself, as the value lives as long as the ruling where it is held. A result kept
    /// already stays.
    #[inline]
    pub(crate) fn keep(&mut self, def: DefId, r: R<&'r Value>) -> R<&'r Value> {
        if let Some(first) = self.known(def) {
            return first;
        }
        self.kept_at[def as usize].set((self.generation, self.kept.len() as u32));
        self.kept.push(r);
        r
    }

    /// Keeps the result of definition `def`, built by the ruling, and lends it.
    #[inline]
    pub(crate) fn keep_owned(&mut self, def: DefId, r: R<Value>) -> R<&'r Value> {
        let r = r.map(|v| self.keep_value(v));
        self.keep(def, r)
    }

    /// The result kept for shared rule `m`, if any.
    #[inline]
    pub(crate) fn kept_rule(&self, m: u32) -> Option<&'r Kept> {
        let rules: &'r [OnceCell<Kept>] = self.rules;
        rules[m as usize].get()
    }

    /// Keeps the result of shared rule `m` for the ruling.
    pub(crate) fn keep_rule(&mut self, m: u32, k: Kept) {
        if self.rules[m as usize].set(k).is_ok() {
            self.used_rules.push(m);
        }
    }

    /// Opens a frame of `size` slots for a call whose `argc` arguments are on top of the
    /// stack; returns the caller's base, for [`Self::close`].
    #[inline]
    pub(crate) fn open(&mut self, argc: usize, size: usize) -> usize {
        let start = self.locals.len() - argc;
        if size > argc {
            self.locals.resize(start + size, &UNSET);
        }
        std::mem::replace(&mut self.base, start)
    }

    /// Cuts the stack of locals back to `len`.
    #[inline(always)]
    pub(crate) fn cut(&mut self, len: usize) {
        self.locals.truncate(len);
    }

    /// Closes the frame opened by [`Self::open`].
    #[inline]
    pub(crate) fn close(&mut self, saved: usize) {
        let start = self.base;
        self.locals.truncate(start);
        self.base = saved;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recycled_stack_keeps_its_buffer() {
        let mut v: Vec<&'static Value> = Vec::with_capacity(32);
        v.push(&TRUE);
        let w: Vec<&Value> = recycle(v, &UNSET);
        assert!(w.is_empty());
        assert!(w.capacity() >= 32);
        let mut r: Vec<R<&'static Value>> = Vec::with_capacity(32);
        r.push(Ok(&TRUE));
        let k: Vec<R<&Value>> = recycle(r, Err(Stop::Halt));
        assert!(k.is_empty());
        assert!(k.capacity() >= 32);
    }
}
