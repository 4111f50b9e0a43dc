//! Caches kept beside a value by the stages that read it, one per type: a stage declares
//! its own cache type and fills it on first use, so that the value's owner names none of
//! the stages above it. Each cache is built at most once (concurrent readers of a cache
//! being built wait for it); a clone starts empty.

use std::any::{Any, TypeId};
use std::sync::OnceLock;

/// The caches kept beside one value, one per cache type, each built on first use.
#[derive(Default)]
pub struct Caches {
    first: OnceLock<Box<Node>>,
}

/// One cache: its type, its slot (an `OnceLock` of that type), and the next cache.
struct Node {
    id: TypeId,
    slot: Box<dyn Any + Send + Sync>,
    /// Whether the slot holds its cache (the slot's type is known only where it was added).
    built: fn(&(dyn Any + Send + Sync)) -> bool,
    next: OnceLock<Box<Node>>,
}

impl Caches {
    /// The cache of type `T`, built by `make` when it is first asked for. `make` may ask for
    /// other caches here, never for `T` itself.
    #[inline]
    pub fn get_or_init<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> &T {
        match self.get::<T>() {
            Some(built) => built,
            None => self.slot::<T>().get_or_init(make),
        }
    }

    /// The cache of type `T`, if it has been built.
    #[inline]
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        let mut at = &self.first;
        while let Some(node) = at.get() {
            if node.id == id {
                return node.slot.downcast_ref::<OnceLock<T>>().and_then(OnceLock::get);
            }
            at = &node.next;
        }
        None
    }

    /// The slot of `T`, added empty at the end of the list when it is not there. Adding
    /// runs no code of the caller's, so a cache being built may ask for others.
    #[cold]
    fn slot<T: Any + Send + Sync>(&self) -> &OnceLock<T> {
        let id = TypeId::of::<T>();
        let mut at = &self.first;
        loop {
            let node = match at.get() {
                Some(node) => node,
                None => {
                    let new = Box::new(Node {
                        id,
                        slot: Box::new(OnceLock::<T>::new()),
                        built: is_built::<T>,
                        next: OnceLock::new(),
                    });
                    // Another thread may add a node here first; then this walks on from it.
                    let _ = at.set(new);
                    continue;
                }
            };
            if node.id == id
                && let Some(slot) = node.slot.downcast_ref::<OnceLock<T>>()
            {
                return slot;
            }
            at = &node.next;
        }
    }

    /// How many caches have been built.
    pub fn built(&self) -> usize {
        let mut n = 0;
        let mut at = &self.first;
        while let Some(node) = at.get() {
            n += usize::from((node.built)(node.slot.as_ref()));
            at = &node.next;
        }
        n
    }
}

/// Whether `slot`, an `OnceLock<T>`, holds its cache.
fn is_built<T: Any + Send + Sync>(slot: &(dyn Any + Send + Sync)) -> bool {
    slot.downcast_ref::<OnceLock<T>>().is_some_and(|s| s.get().is_some())
}

impl Clone for Caches {
    /// A clone starts with no caches: they are built again from the clone when asked for.
    fn clone(&self) -> Self {
        Caches::default()
    }
}

impl std::fmt::Debug for Caches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Caches({})", self.built())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Debug, PartialEq)]
    struct A(u32);
    #[derive(Debug, PartialEq)]
    struct B(&'static str);

    #[test]
    fn each_type_has_its_own_cache_built_once() {
        let c = Caches::default();
        let made = AtomicUsize::new(0);
        assert_eq!(c.get::<A>(), None);
        let a = c.get_or_init(|| {
            made.fetch_add(1, Ordering::Relaxed);
            A(7)
        });
        assert_eq!(a, &A(7));
        assert_eq!(c.get_or_init(|| B("b")), &B("b"));
        assert_eq!(c.get_or_init(|| A(8)), &A(7));
        assert_eq!(c.get_or_init(|| B("c")), &B("b"));
        assert_eq!(made.load(Ordering::Relaxed), 1);
        assert_eq!(c.get::<A>(), Some(&A(7)));
        assert_eq!(format!("{c:?}"), "Caches(2)");
    }

    #[test]
    fn a_cache_being_built_may_ask_for_another() {
        let c = Caches::default();
        let a = c.get_or_init(|| A(c.get_or_init(|| B("inner")).0.len() as u32));
        assert_eq!(a, &A(5));
        assert_eq!(c.get::<B>(), Some(&B("inner")));
    }

    #[test]
    fn a_clone_starts_empty() {
        let c = Caches::default();
        c.get_or_init(|| A(1));
        let d = c.clone();
        assert_eq!(d.get::<A>(), None);
        assert_eq!(d.get_or_init(|| A(2)), &A(2));
    }

    #[test]
    fn threads_share_one_build() {
        let c = Caches::default();
        let made = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let a = c.get_or_init(|| {
                        made.fetch_add(1, Ordering::Relaxed);
                        A(3)
                    });
                    assert_eq!(a, &A(3));
                });
            }
        });
        assert_eq!(made.load(Ordering::Relaxed), 1);
    }
}
