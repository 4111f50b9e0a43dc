//! The table of builtins guards its copies: every builtin is documented in docs/language.md
//! as the table says, used by a case file and by a rendering; and the compiled evaluator and
//! the interpreter agree on every builtin over generated arguments, so that removing a
//! builtin's implementation from either path fails here.

use conditions::cases::{CaseFile, find_cases};
use conditions::check::builtins_table::{Docs, Kind, docs_table};
use conditions::check::program::{Builtin, DefId, IrKind, Program};
use conditions::syntax::ast::DecisionKind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The builtins a definition reaches: those its rules, tables and the definitions they call
/// use.
fn reached(p: &Program, def: DefId, seen: &mut BTreeSet<DefId>, out: &mut BTreeSet<&'static str>) {
    if !seen.insert(def) {
        return;
    }
    let d = &p.defs[def as usize];
    let mut calls = Vec::new();
    let mut look = |ir: &conditions::check::program::Ir| {
        ir.visit(&mut |x| match &x.kind {
            IrKind::Builtin(b, ..) => {
                out.insert(b.name());
            }
            IrKind::Draw(lot, ..) => {
                let b = match p.decisions[*lot as usize].kind {
                    DecisionKind::Lot => Builtin::Draw,
                    _ => Builtin::Choose,
                };
                out.insert(b.name());
            }
            IrKind::Call(c, _) => calls.push(*c),
            _ => {}
        })
    };
    for &r in &d.rules {
        let rule = &p.rules[r as usize];
        if let Some(g) = &rule.guard {
            look(g);
        }
        look(&rule.value);
    }
    if let Some(t) = &d.table {
        for row in &t.rows {
            look(&row.value);
        }
    }
    for c in calls {
        reached(p, c, seen, out);
    }
}

fn all_names() -> BTreeSet<&'static str> {
    Builtin::ALL.iter().map(|b| b.name()).collect()
}

fn missing(used: &BTreeSet<&'static str>) -> Vec<&'static str> {
    all_names().difference(used).copied().collect()
}

fn rulebook_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for root in ["conditions", "tests/rulebooks"] {
        for e in std::fs::read_dir(root).expect("a folder of rulebooks").flatten() {
            if e.path().join("cases").is_dir() {
                dirs.push(e.path());
            }
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn every_builtin_is_documented_as_the_table_says() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let table = docs_table();
    assert!(
        doc.contains(&table),
        "docs/language.md's builtins table differs from the table of builtins; it should read:\n\n{table}"
    );
    for &b in Builtin::ALL {
        let row = match b.docs() {
            Docs::Row(r) => r,
            Docs::With(w) => match w.docs() {
                Docs::Row(r) => r,
                Docs::With(_) => {
                    panic!("`{}` is documented with `{}`, itself documented with another", b.name(), w.name())
                }
            },
        };
        let (call, _) = row.split_once(" | ").unwrap_or((row, ""));
        assert!(call.contains(&format!("`{}(", b.name())), "`{}` is not shown in its row: {row}", b.name());
    }
}

#[test]
fn every_builtin_is_used_by_a_case_file() {
    let mut used = BTreeSet::new();
    for dir in rulebook_dirs() {
        let book = conditions::loader::load(&dir.display().to_string())
            .unwrap_or_else(|e| panic!("{}: {:?}", dir.display(), e.diagnostics));
        let p = &book.program;
        let mut seen = BTreeSet::new();
        for case in find_cases(&dir.join("cases")) {
            let text = std::fs::read_to_string(&case).expect("a readable case file");
            let Ok(file) = toml::from_str::<CaseFile>(&text) else { continue };
            for e in &file.expect {
                if let Some(d) = p.def_by_name(&e.ruling) {
                    reached(p, d, &mut seen, &mut used);
                }
            }
        }
    }
    assert_eq!(missing(&used), Vec::<&str>::new(), "builtins no case file's ruling uses");
}

#[derive(serde::Deserialize)]
struct Rendering {
    rulebook: String,
    ruling: String,
}

#[test]
fn every_builtin_is_used_by_a_rendering() {
    let mut used = BTreeSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/renderings")
        .expect("tests/renderings")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for path in files {
        let r: Rendering = toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("a rendering");
        let book =
            conditions::loader::load(&r.rulebook).unwrap_or_else(|e| panic!("{}: {:?}", r.rulebook, e.diagnostics));
        let p = &book.program;
        let d = p.def_by_name(&r.ruling).unwrap_or_else(|| panic!("{}: no ruling {}", path.display(), r.ruling));
        reached(p, d, &mut BTreeSet::new(), &mut used);
    }
    assert_eq!(missing(&used), Vec::<&str>::new(), "builtins no rendering's ruling uses");
}

#[test]
fn the_table_is_consistent() {
    for (i, &b) in Builtin::ALL.iter().enumerate() {
        assert_eq!(Builtin::from_name(b.name()), Some(b));
        assert!(!Builtin::ALL[..i].contains(&b), "`{}` twice", b.name());
        assert!(b.usage().starts_with(&format!("{}(", b.name())), "`{}`'s usage: {}", b.name(), b.usage());
        // A builtin the working words has its message in every message file.
        if let Some(id) = b.message() {
            for lang in ["en", "da", "sv", "nb"] {
                let path = Path::new("messages").join(format!("{lang}.ftl"));
                if let Ok(text) = std::fs::read_to_string(&path) {
                    assert!(
                        text.contains(&format!("{id} =")),
                        "{}: no message `{id}` for `{}`",
                        path.display(),
                        b.name()
                    );
                }
            }
        }
        // A builtin of one number to a number is one of the rounding builtins' kind.
        if let Kind::Number(f) = b.kind() {
            let seven = conditions::eval::num::Num::int(7);
            assert_eq!(f(seven).ok(), Some(seven), "`{}` of a whole number", b.name());
        }
    }
}
