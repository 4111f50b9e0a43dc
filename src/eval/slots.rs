//! The values of one case's facts (or decisions), indexed by declaration: [`Slots`].
//!
//! What it owns: storage sized to what was given, not to the rulebook. A rulebook declares
//! tens or hundreds of facts and a case gives a few; a slot per declaration (48 bytes each)
//! made every case's input set kilobytes long, so that a program holding many cases (an
//! entry form's players, a scoring program's teams) left the cache at every ruling. Here
//! each declaration has a two-byte index into the values actually set, and the values sit
//! together in one small vector.
//!
//! It reads and writes like the vector it replaces: `slots[i]` is the value of declaration
//! `i` (or `None`), `slots[i] = Some(v)` sets it, [`Slots::len`] is the number of
//! declarations and [`Slots::iter`] goes over all of them in order. [`Slots::clear`] forgets
//! every value and keeps the buffers, in time proportional to the values set.

use super::value::Value;
use std::fmt;

/// What an unset declaration reads as.
static UNSET: Option<Value> = None;

/// Values indexed by declaration, stored for the declarations set (see the module
/// documentation).
#[derive(Clone, Default)]
pub struct Slots {
    /// For each declaration, 0 when it has no slot, else one more than its slot's place.
    index: Vec<u16>,
    /// The slots made so far: the declaration each belongs to and its value.
    values: Vec<(u32, Option<Value>)>,
    /// Declarations beyond what two-byte places reach keep their values here, in full.
    wide: Option<Vec<Option<Value>>>,
}

/// Slots past this many values go to the full vector.
const MAX_PLACES: usize = u16::MAX as usize;

impl Slots {
    /// `n` declarations, none set.
    pub fn new(n: usize) -> Slots {
        Slots { index: vec![0; n], values: Vec::new(), wide: None }
    }

    /// The number of declarations (set or not).
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are no declarations at all.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The value of declaration `i`, `None` when it is unset or out of range.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&Option<Value>> {
        if let Some(w) = &self.wide {
            return w.get(i);
        }
        match self.index.get(i)? {
            0 => Some(&UNSET),
            &k => Some(&self.values[k as usize - 1].1),
        }
    }

    /// Every declaration's value in declaration order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Option<Value>> + ExactSizeIterator + Clone + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// The declarations that hold a value, in the order they were set, with their values.
    pub fn set(&self) -> impl Iterator<Item = (usize, &Value)> + '_ {
        let sparse = self.values.iter().filter_map(|(i, v)| Some((*i as usize, v.as_ref()?)));
        let wide = self.wide.iter().flat_map(|w| w.iter().enumerate().filter_map(|(i, v)| Some((i, v.as_ref()?))));
        sparse.chain(wide)
    }

    /// Forgets every value, keeping the buffers (for reuse on the next case).
    pub fn clear(&mut self) {
        if let Some(w) = &mut self.wide {
            w.iter_mut().for_each(|v| *v = None);
            return;
        }
        for (i, _) in self.values.drain(..) {
            self.index[i as usize] = 0;
        }
    }

    /// The slot of declaration `i`, made when it has none. Panics when `i` is out of
    /// range, as indexing a vector does.
    fn slot(&mut self, i: usize) -> &mut Option<Value> {
        if self.wide.is_none() && self.index[i] == 0 {
            if self.values.len() >= MAX_PLACES {
                self.widen();
            } else {
                self.values.push((i as u32, None));
                self.index[i] = self.values.len() as u16;
            }
        }
        if let Some(w) = &mut self.wide {
            return &mut w[i];
        }
        let k = self.index[i] as usize;
        &mut self.values[k - 1].1
    }

    /// Moves every value to a slot per declaration (more values set than places).
    fn widen(&mut self) {
        let mut w = vec![None; self.index.len()];
        for (i, v) in self.values.drain(..) {
            w[i as usize] = v;
        }
        self.index.iter_mut().for_each(|k| *k = 0);
        self.wide = Some(w);
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
    fn more_values_than_places_keep_every_value() {
        let n = MAX_PLACES + 10;
        let mut s = Slots::new(n);
        for i in (0..n).rev() {
            s[i] = Some(Value::int(i as i128));
        }
        assert!((0..n).all(|i| s[i] == Some(Value::int(i as i128))));
        s.clear();
        assert!(s.iter().all(Option::is_none));
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn out_of_range_panics_as_a_vector_does() {
        let s = Slots::new(2);
        let _ = &s[2];
    }
}
