//! Text buffers for the pieces of an explanation ([`Buf`]): a sentence, a value shown, a
//! message's argument. An explanation puts together a few hundred such pieces, each used
//! for a moment; their buffers are kept on the thread and handed out again, so that putting
//! an explanation together allocates little. Lists of numbers ([`List`]) are kept the same way.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

thread_local! {
    /// Buffers given back, empty, for the next piece.
    static SPARE: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A text buffer taken from the thread's spare ones, given back when dropped.
pub(crate) struct Buf(String);

impl Buf {
    /// The most buffers kept on a thread, and the largest.
    const KEPT: usize = 64;
    const ROOM: usize = 4096;

    /// An empty buffer.
    pub(crate) fn new() -> Buf {
        let spare = SPARE.try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop())).ok().flatten();
        Buf(spare.unwrap_or_else(|| String::with_capacity(128)))
    }

    /// A buffer holding `text`.
    pub(crate) fn of(text: &str) -> Buf {
        let mut b = Buf::new();
        b.push_str(text);
        b
    }

    /// The text, as an owned string (its buffer is not given back).
    pub(crate) fn into_string(mut self) -> String {
        std::mem::take(&mut self.0)
    }
}

impl Default for Buf {
    fn default() -> Buf {
        Buf::new()
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        let mut s = std::mem::take(&mut self.0);
        if s.capacity() == 0 || s.capacity() > Self::ROOM {
            return;
        }
        s.clear();
        // A thread being torn down keeps no spare.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < Self::KEPT
            {
                spare.push(s);
            }
        });
    }
}

impl Deref for Buf {
    type Target = String;
    fn deref(&self) -> &String {
        &self.0
    }
}

impl DerefMut for Buf {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.0
    }
}

impl std::borrow::Borrow<str> for Buf {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Buf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

thread_local! {
    /// Lists given back, empty, for the next explanation.
    static SPARE_LISTS: RefCell<Vec<Vec<usize>>> = const { RefCell::new(Vec::new()) };
}

/// A list of numbers (steps, clauses, places in a text) taken from the thread's spare ones,
/// given back when dropped, as [`Buf`] is for text.
pub(crate) struct List(Vec<usize>);

impl List {
    /// The most lists kept on a thread, and the most room of one.
    const KEPT: usize = 16;
    const ROOM: usize = 1024;

    /// An empty list.
    pub(crate) fn new() -> List {
        let spare = SPARE_LISTS.try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop())).ok().flatten();
        List(spare.unwrap_or_else(|| Vec::with_capacity(32)))
    }
}

impl Drop for List {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.0);
        if v.capacity() == 0 || v.capacity() > Self::ROOM {
            return;
        }
        v.clear();
        // A thread being torn down keeps no spare.
        let _ = SPARE_LISTS.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < Self::KEPT
            {
                spare.push(v);
            }
        });
    }
}

impl Deref for List {
    type Target = Vec<usize>;
    fn deref(&self) -> &Vec<usize> {
        &self.0
    }
}

impl DerefMut for List {
    fn deref_mut(&mut self) -> &mut Vec<usize> {
        &mut self.0
    }
}
