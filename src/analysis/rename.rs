//! Renaming a name of a rulebook: every place the checker resolves to it (its declaration
//! and every use, read from the name index), each in the form it needs there — short inside
//! the declaring section, qualified (`s332.new`) elsewhere — and nothing else: no printed
//! text, gloss, description or comment is touched. Shared by the language server's rename
//! and `conditions rename`.
//!
//! A rename is refused, with the reason, when the new name cannot be written as a name (a
//! keyword, a number, words) or when the rulebook renamed would not say the same: it is
//! checked again with the edits applied, and refused if that gives an error the rulebook
//! did not have (a name declared twice) or if the renamed declaration no longer has the
//! same uses (a name it would hide, or that would hide it).

use super::{Analysis, Target};
use crate::check::program::{Symbol, TypeKind};
use crate::source::SourceMap;
use crate::syntax::ast::{self, Decl, Item, Span};

/// One replacement in a rulebook file: the bytes of `span` become `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub new_text: String,
    /// Whether this is the name in the declaration.
    pub is_decl: bool,
}

/// What a name written on the command line (`masterpoints_at_cutoff`, `s332.seeded`,
/// `Player.masterpoints`) stands for: a fact, decision, ruling, definition or record field.
pub fn resolve(a: &Analysis, written: &str) -> Result<Target, String> {
    let p = &a.checked.program;
    // A name of a section may be written short when no other section has it.
    let symbol = |name: &str| -> Option<&Symbol> {
        p.symbols.get(name).or_else(|| {
            let suffix = format!(".{name}");
            let mut found = p.symbols.iter().filter(|(k, _)| k.ends_with(&suffix));
            match (found.next(), found.next()) {
                (Some((_, s)), None) => Some(s),
                _ => None,
            }
        })
    };
    match symbol(written) {
        Some(Symbol::Fact(f)) => return Ok(Target::Fact(*f)),
        Some(Symbol::Decision(d)) => return Ok(Target::Decision(*d)),
        Some(Symbol::Def(d)) => return Ok(Target::Def(*d)),
        Some(Symbol::Type(_)) | Some(Symbol::Variant(..)) => {
            return Err(format!(
                "`{written}` is a type or a value of one; only a fact, decision, ruling, definition or record field (`Record.field`) is renamed here"
            ));
        }
        None => {}
    }
    if let Some((record, field)) = written.rsplit_once('.')
        && let Some(Symbol::Type(t)) = symbol(record)
    {
        let TypeKind::Record(fs) = &p.types[*t as usize].kind else {
            return Err(format!("`{record}` is not a record type, so it has no field `{field}`"));
        };
        return match fs.iter().position(|f| f.name == field) {
            Some(i) => Ok(Target::Field(*t, i as u32)),
            None => Err(format!(
                "the record `{record}` has no field `{field}`{}",
                p.renamed(field, Some(*t))
                    .or_else(|| crate::diagnostic::did_you_mean(field, fs.iter().map(|f| f.name.as_str())))
                    .map(|s| format!("; {s}"))
                    .unwrap_or_default()
            )),
        };
    }
    let mut names: Vec<&str> = p.facts.iter().map(|f| f.name.as_str()).collect();
    names.extend(p.decisions.iter().map(|d| d.name.as_str()));
    names.extend(p.defs.iter().map(|d| d.name.as_str()));
    let hint = p
        .renamed(written, None)
        .or_else(|| crate::diagnostic::did_you_mean(written, names.iter().copied()))
        .unwrap_or_else(|| "a record field is written `Record.field`".to_string());
    Err(format!("no fact, decision, ruling, definition or field `{written}` in `{}`; {hint}", p.rulebook.name))
}

/// The short name a new name is written with: `s332.new` for a name of section `s332` may
/// be given in full.
fn short_new<'n>(old_full: &str, new: &'n str) -> &'n str {
    match (old_full.split_once('.'), new.split_once('.')) {
        (Some((sec, _)), Some((nsec, short))) if sec == nsec => short,
        _ => new,
    }
}

/// The edits that rename `target` to `new_name` in the rule code: the declaration and every
/// use. Refused, with the reason, as the module says.
pub fn edits(a: &Analysis, target: Target, new_name: &str) -> Result<Vec<Edit>, String> {
    if matches!(target, Target::Clause(_) | Target::External(_)) {
        return Err("only a name declared in the rulebook can be renamed".into());
    }
    let sections = &a.checked.program.sections;
    let old = a.name(target);
    let new_name = short_new(&old, new_name);
    if crate::syntax::parser::is_keyword(new_name) {
        return Err(format!("`{new_name}` is a keyword of the language, not a name"));
    }
    if !crate::syntax::parser::is_name(new_name) {
        return Err(format!("`{new_name}` is not a name: a letter or `_` then letters, digits or `_`"));
    }
    let new_full = match old.split_once('.') {
        Some((sec, _)) if sections.sections.contains_key(sec) && !matches!(target, Target::Field(..)) => {
            format!("{sec}.{new_name}")
        }
        _ => new_name.to_string(),
    };
    let mut out = Vec::new();
    for o in a.index.references(target) {
        let here = sections.file_section.get(&o.span.file).map(String::as_str);
        let new_text = if o.is_decl || matches!(target, Target::Field(..)) {
            new_name.to_string()
        } else {
            sections.written(&new_full, here)
        };
        out.push(Edit { span: o.span, new_text, is_decl: o.is_decl });
    }
    same_meaning(a, target, &out, new_name)?;
    Ok(out)
}

/// Whether the declaration of `target` already carries a `renamed from` note, and where a
/// note goes when it does not: just before the `:` that starts its type. `None` when the
/// declaration cannot carry one (a table) or is not found.
pub fn note_place(a: &Analysis, target: Target) -> Option<Result<u32, String>> {
    let decl = a.definition(target)?;
    let text = a.checked.sources.get(decl.file)?.text.clone();
    let (from, ty) = declaration(a, target, decl)?;
    if let Some(f) = from {
        return Some(Err(f));
    }
    let before = text.get(..ty.start as usize)?;
    let colon = before.rfind(':')?;
    let at = before[..colon].trim_end().len();
    Some(Ok(at as u32))
}

/// The note `renamed from OLD` on the declaration of `target`, as an edit; or why not.
pub fn note(a: &Analysis, target: Target, old_short: &str) -> Result<Edit, String> {
    let decl = a.definition(target).ok_or("the declaration is not found")?;
    match note_place(a, target) {
        Some(Ok(at)) => Ok(Edit {
            span: Span { file: decl.file, start: at, end: at },
            new_text: format!(" renamed from {old_short}"),
            is_decl: false,
        }),
        Some(Err(from)) => Err(format!("the declaration already notes `renamed from {from}`, kept as it is")),
        None => Err("a table cannot carry a `renamed from` note; give `--rename OLD=NEW` to `conditions diff`".into()),
    }
}

/// Whether two spans cover the same bytes (`==` on spans compares nothing: a node's
/// equality is its content's).
fn same(a: Span, b: Span) -> bool {
    (a.file, a.start, a.end) == (b.file, b.start, b.end)
}

/// The `renamed from` note and the span of the type of the declaration named at `decl`.
fn declaration(a: &Analysis, target: Target, decl: Span) -> Option<(Option<String>, Span)> {
    let note = |r: &Option<ast::Ident>| r.as_ref().map(|i| i.name.clone());
    for f in &a.checked.files {
        for item in &f.items {
            let decls: Vec<&Decl> = match item {
                Item::Decl(d) => vec![d],
                Item::Clause(c) => c.decls().collect(),
                Item::Rulebook(_) => Vec::new(),
            };
            for d in decls {
                match (d, target) {
                    (Decl::Fact(x), Target::Fact(_)) if same(x.name.span, decl) => {
                        return Some((note(&x.renamed_from), x.ty.span()));
                    }
                    (Decl::Decision(x), Target::Decision(_)) if same(x.name.span, decl) => {
                        return Some((note(&x.renamed_from), x.ty.span()));
                    }
                    (Decl::Def(x), Target::Def(_)) if same(x.name.span, decl) => {
                        return Some((note(&x.renamed_from), x.ty.span()));
                    }
                    (Decl::Type(t), Target::Field(..)) => {
                        if let ast::TypeBody::Record(fs) = &t.body
                            && let Some(fd) = fs.iter().find(|fd| same(fd.name.span, decl))
                        {
                            return Some((note(&fd.renamed_from), fd.ty.span()));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

/// The files of the rulebook of `a` with `edits` applied, by file id; `None` when an edit
/// does not fit its file (the rulebook changed meanwhile).
pub fn apply(a: &Analysis, edits: &[Edit]) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (id, f) in a.checked.sources.files() {
        let mut here: Vec<&Edit> = edits.iter().filter(|e| e.span.file == id).collect();
        here.sort_by_key(|e| (e.span.start, e.span.end));
        let mut text = String::with_capacity(f.text.len());
        let mut last = 0;
        for e in here {
            let (start, end) = (e.span.start as usize, e.span.end as usize);
            text.push_str(f.text.get(last..start).filter(|_| start <= end)?);
            text.push_str(&e.new_text);
            last = end;
        }
        text.push_str(f.text.get(last..)?);
        out.push((f.name.clone(), text));
    }
    Some(out)
}

/// Checks the rulebook of `a` again with `edits` applied: no new error, and the renamed
/// declaration has as many uses as `target` had.
fn same_meaning(a: &Analysis, target: Target, edits: &[Edit], new_name: &str) -> Result<(), String> {
    let files = apply(a, edits).ok_or("the rulebook changed while renaming; try again")?;
    let mut sources = SourceMap::new();
    for (name, text) in files {
        sources.add(name, text);
    }
    let renamed = Analysis::new(sources, Vec::new());
    let errors = |x: &Analysis| -> Vec<String> {
        x.checked.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect()
    };
    let (before, after) = (errors(a), errors(&renamed));
    if after.len() > before.len() {
        let new_error = after.iter().find(|m| !before.contains(m)).unwrap_or(&after[0]);
        return Err(format!("cannot rename to `{new_name}`: {new_error}"));
    }
    // Where the declaration's new name starts in the edited file.
    let Some(decl) = edits.iter().find(|e| e.is_decl) else { return Ok(()) };
    let shift: i64 = edits
        .iter()
        .filter(|e| e.span.file == decl.span.file && e.span.start < decl.span.start)
        .map(|e| e.new_text.len() as i64 - i64::from(e.span.end - e.span.start))
        .sum();
    let start = (i64::from(decl.span.start) + shift) as usize;
    let uses = a.index.references(target).count();
    let uses_now = renamed.at(decl.span.file, start).map_or(0, |o| renamed.index.references(o.target).count());
    if uses_now != uses {
        return Err(format!("cannot rename to `{new_name}`: that name would refer to something else in some places"));
    }
    Ok(())
}
