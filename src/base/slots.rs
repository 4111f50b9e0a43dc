//! The values of one case's facts (or decisions), indexed by declaration: [`Slots`].
//!
//! What it owns: storage sized to what was given, not to the rulebook. A rulebook declares
//! tens or hundreds of facts and a case gives a few; a slot per declaration (48 bytes each)
//! made every case's input set kilobytes long, so that a program holding many cases (an
//! entry form's players, a scoring program's teams) left the cache at every ruling. Here
//! the values set sit together in one small vector; while there are a few, their
//! declarations' numbers are kept beside it and searched, and past that an index of four
//! bytes a declaration finds them.
//!
//! It reads and writes like the vector it replaces: `slots[i]` is the value of declaration
//! `i` (or `None`), `slots[i] = Some(v)` sets it, [`Slots::len`] is the number of
//! declarations and [`Slots::iter`] goes over all of them in order. [`Slots::clear`] forgets
//! every value and keeps the buffers.

use super::value::Value;
use std::fmt;

/// What an unset declaration reads as.
static UNSET: Option<Value> = None;

/// Values indexed by declaration, stored for the declarations set (see the module
/// documentation).
#[derive(Clone, Default)]
pub struct Slots {
    /// The number of declarations.
    n: usize,
    /// While at most [`INLINE`] slots are made: the declaration of each, in the order of
    /// `values` (read without leaving the input set itself).
    ids: [u32; INLINE],
    /// The slots made so far, in the order they were made.
    values: Vec<Option<Value>>,
    /// Once more slots are made: for each declaration 0 when it has none, else one more
    /// than its slot's place in `values`.
    index: Vec<u32>,
}

/// How many slots are found by their declaration's number alone, without an index.
const INLINE: usize = 8;

impl Slots {
    /// `n` declarations, none set.
    pub fn new(n: usize) -> Slots {
        Slots { n, ids: [0; INLINE], values: Vec::new(), index: Vec::new() }
    }

    /// The number of declarations (set or not).
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no declarations at all.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The value of declaration `i`, `None` when it is out of range (an unset one is
    /// `Some(&None)`).
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Option<Value>> {
        if i >= self.n {
            return None;
        }
        if self.index.is_empty() {
            let made = self.values.len();
            for (k, &id) in self.ids[..made].iter().enumerate() {
                if id as usize == i {
                    return Some(&self.values[k]);
                }
            }
            return Some(&UNSET);
        }
        match self.index[i] {
            0 => Some(&UNSET),
            k => Some(&self.values[k as usize - 1]),
        }
    }

    /// Where declaration `i`'s value is kept: 0 when it has none (or is out of range), else
    /// one more than its place among the values made, for [`Slots::at`]. A reader that
    /// reads the same declarations many times keeps the place rather than search again; a
    /// place stays right while the slots are not changed.
    #[inline]
    pub fn place(&self, i: usize) -> u32 {
        if i >= self.n {
            return 0;
        }
        if self.index.is_empty() {
            let made = self.values.len();
            return match self.ids[..made].iter().position(|&id| id as usize == i) {
                Some(k) => k as u32 + 1,
                None => 0,
            };
        }
        self.index[i]
    }

    /// While the declarations set are found by their numbers alone (no index of their own):
    /// those numbers, in the order of their values, so that a reader that reads many of them
    /// can note each one's place (one more than its position, for [`Slots::at`]) at once.
    #[inline]
    pub fn inline_ids(&self) -> Option<&[u32]> {
        self.index.is_empty().then(|| &self.ids[..self.values.len()])
    }

    /// The value at a place found by [`Slots::place`]: `None` for 0 or a place not made.
    #[inline]
    pub fn at(&self, place: u32) -> &Option<Value> {
        match (place as usize).checked_sub(1).and_then(|k| self.values.get(k)) {
            Some(v) => v,
            None => &UNSET,
        }
    }

    /// Every declaration's value in declaration order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Option<Value>> + ExactSizeIterator + Clone + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// The declarations that hold a value, in the order their slots were made, with their
    /// values.
    pub fn set(&self) -> impl Iterator<Item = (usize, &Value)> + '_ {
        self.values.iter().enumerate().filter_map(|(k, v)| Some((self.id(k), v.as_ref()?)))
    }

    /// The declaration of slot `k`.
    fn id(&self, k: usize) -> usize {
        if self.index.is_empty() {
            self.ids[k] as usize
        } else {
            self.index.iter().position(|&x| x as usize == k + 1).unwrap_or(usize::MAX)
        }
    }

    /// Forgets every value, keeping the buffers (for reuse on the next case).
    pub fn clear(&mut self) {
        self.values.clear();
        self.index.clear();
    }

    /// The slot of declaration `i`, made when it has none. Panics when `i` is out of
    /// range, as indexing a vector does.
    fn slot(&mut self, i: usize) -> &mut Option<Value> {
        assert!(i < self.n, "declaration {i} out of range: there are {}", self.n);
        let made = self.values.len();
        if self.index.is_empty() {
            if let Some(k) = self.ids[..made].iter().position(|&id| id as usize == i) {
                return &mut self.values[k];
            }
            if made < INLINE {
                self.ids[made] = i as u32;
                self.values.push(None);
                return &mut self.values[made];
            }
            // Past what is found without an index: index every slot made.
            self.index.resize(self.n, 0);
            for (k, &id) in self.ids.iter().enumerate() {
                self.index[id as usize] = k as u32 + 1;
            }
        }
        if self.index[i] == 0 {
            self.values.push(None);
            self.index[i] = self.values.len() as u32;
        }
        let k = self.index[i] as usize - 1;
        &mut self.values[k]
    }
}

impl std::ops::Index<usize> for Slots {
    type Output = Option<Value>;

    #[inline]
    fn index(&self, i: usize) -> &Option<Value> {
        match self.get(i) {
            Some(v) => v,
            None => panic!("declaration {i} out of range: there are {}", self.len()),
        }
    }
}

impl std::ops::IndexMut<usize> for Slots {
    fn index_mut(&mut self, i: usize) -> &mut Option<Value> {
        self.slot(i)
    }
}

impl From<Vec<Option<Value>>> for Slots {
    fn from(values: Vec<Option<Value>>) -> Slots {
        let mut s = Slots::new(values.len());
        for (i, v) in values.into_iter().enumerate() {
            if v.is_some() {
                s[i] = v;
            }
        }
        s
    }
}

impl FromIterator<Option<Value>> for Slots {
    fn from_iter<I: IntoIterator<Item = Option<Value>>>(iter: I) -> Slots {
        Slots::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl PartialEq for Slots {
    fn eq(&self, other: &Slots) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Slots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.set()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_like_a_vector() {
        let mut s = Slots::new(5);
        assert_eq!(s.len(), 5);
        assert!(s.iter().all(Option::is_none));
        s[3] = Some(Value::int(7));
        s[1] = Some(Value::Bool(true));
        s[3] = Some(Value::int(8));
        assert_eq!(s[3], Some(Value::int(8)));
        assert_eq!(s[1], Some(Value::Bool(true)));
        assert_eq!(s[0], None);
        assert_eq!(s.get(5), None);
        let all: Vec<_> = s.iter().cloned().collect();
        assert_eq!(all, vec![None, Some(Value::Bool(true)), None, Some(Value::int(8)), None]);
        assert_eq!(Slots::from(all.clone()), s);
        s[1] = None;
        assert_eq!(s[1], None);
        s.clear();
        assert!(s.iter().all(Option::is_none));
        s[4] = Some(Value::int(1));
        assert_eq!(s.iter().filter(|v| v.is_some()).count(), 1);
    }

    #[test]
    fn more_values_than_found_without_an_index_keep_every_value() {
        let n = 3 * INLINE + 5;
        let mut s = Slots::new(n);
        for i in (0..n).rev() {
            s[i] = Some(Value::int(i as i128));
        }
        assert!((0..n).all(|i| s[i] == Some(Value::int(i as i128))));
        let set: Vec<usize> = s.set().map(|(i, _)| i).collect();
        assert_eq!(set, (0..n).rev().collect::<Vec<_>>());
        s.clear();
        assert!(s.iter().all(Option::is_none));
    }

    #[test]
    fn a_place_reads_the_value_of_its_declaration() {
        for n in [3, 3 * INLINE] {
            let mut s = Slots::new(n);
            s[2] = Some(Value::int(20));
            s[0] = Some(Value::int(0));
            for i in (3..n).step_by(2) {
                s[i] = Some(Value::int(i as i128 * 10));
            }
            for i in 0..n {
                assert_eq!(s.at(s.place(i)), &s[i], "declaration {i} of {n}");
            }
            assert_eq!(s.place(1), 0);
            assert_eq!(s.place(n), 0);
            assert_eq!(s.at(0), &None);
            assert_eq!(s.at(u32::MAX), &None);
        }
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn out_of_range_panics_as_a_vector_does() {
        let s = Slots::new(2);
        let _ = &s[2];
    }
}
