//! What each expression of a program reads of the facts, as traces note it: a fact or a
//! field of one (`player.masterpoints`), by its path and type. Worked out once for the
//! whole program, on first use, and kept with it, so that a trace notes a read by a number
//! and nothing is copied, counted or locked for each ruling.

use crate::check::program::{FactId, Ir, IrKind, Program, TypeKind};
use crate::check::types::Type;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A read's place among its program's reads ([`Paths`]): the same path has the same number.
pub type ReadId = u32;

/// A read of a fact (or a field of one) by an expression of the program.
#[derive(Clone, Debug)]
pub struct Read {
    pub id: ReadId,
    pub fact: FactId,
    /// `player.masterpoints`.
    pub path: Box<str>,
    pub ty: Type,
}

/// The reads of facts of a program, by the expression that reads (its address) and by their
/// number; kept in the program's caches. A copy of the program works its own out again: its
/// expressions are elsewhere.
#[derive(Default)]
pub struct Paths {
    at: HashMap<usize, ReadId, BuildHasherDefault<AddrHasher>>,
    reads: Vec<Read>,
}

/// The reads of `p`, worked out on first use.
pub fn paths(p: &Program) -> &Paths {
    p.caches.get_or_init(|| Paths::of(p))
}

impl Paths {
    /// The read by `ir`, an expression of the program whose paths these are, if it reads a fact.
    pub fn of_ir(&self, ir: &Ir) -> Option<&Read> {
        if !reads_fact(ir) {
            return None;
        }
        self.at.get(&(std::ptr::from_ref(ir) as usize)).and_then(|&i| self.reads.get(i as usize))
    }

    /// Every read, by number.
    pub fn all(&self) -> &[Read] {
        &self.reads
    }

    /// Read number `id`.
    pub fn get(&self, id: ReadId) -> Option<&Read> {
        self.reads.get(id as usize)
    }
}

impl Paths {
    /// Every read of a fact by an expression of `p`'s rules and tables, numbered by path.
    fn of(p: &Program) -> Paths {
        let mut out = Paths::default();
        let mut by_path: HashMap<String, ReadId> = HashMap::new();
        let mut path = String::new();
        let mut note = |ir: &Ir| {
            if !reads_fact(ir) {
                return;
            }
            let Some(fact) = fact_path_into(p, ir, &mut path) else { return };
            let id = *by_path.entry(path.clone()).or_insert_with(|| {
                let id = out.reads.len() as ReadId;
                out.reads.push(Read { id, fact, path: path.as_str().into(), ty: ir.ty.clone() });
                id
            });
            out.at.insert(std::ptr::from_ref(ir) as usize, id);
        };
        for rule in &p.rules {
            rule.value.visit(&mut note);
            if let Some(g) = &rule.guard {
                g.visit(&mut note);
            }
        }
        for d in &p.defs {
            if let Some(t) = &d.table {
                t.rows.iter().for_each(|row| row.value.visit(&mut note));
            }
        }
        out
    }
}

/// Whether `ir` reads a fact or a field of one (not a field of a list's item, say).
pub(crate) fn reads_fact(mut ir: &Ir) -> bool {
    loop {
        match &ir.kind {
            IrKind::Fact(_) => return true,
            IrKind::Field(inner, _) => ir = inner,
            _ => return false,
        }
    }
}

/// The path of a fact or a field of one (`player.masterpoints`), if `ir` is one, written
/// into `out` (which it clears first).
fn fact_path_into(p: &Program, ir: &Ir, out: &mut String) -> Option<FactId> {
    match &ir.kind {
        IrKind::Fact(f) => {
            out.clear();
            out.push_str(&p.facts.get(*f as usize)?.name);
            Some(*f)
        }
        IrKind::Field(inner, i) => {
            let Type::Record(t) = &inner.ty else { return None };
            let TypeKind::Record(fs) = &p.types.get(*t as usize)?.kind else { return None };
            let name = &fs.get(*i as usize)?.name;
            let f = fact_path_into(p, inner, out)?;
            out.push('.');
            out.push_str(name);
            Some(f)
        }
        _ => None,
    }
}

/// A hasher for addresses: they are distinct and come from the program, not from input.
#[derive(Default)]
pub struct AddrHasher(u64);

impl std::hash::Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_right(29);
    }
}
