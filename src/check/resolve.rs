//! Sections as namespaces: before checking, every name is resolved to its full name.
//!
//! A file headed by `section s12 "§ 12"` declares its names in the section `s12`: inside
//! the section a name is written short (`team1`), elsewhere qualified (`s12.team1`). Files
//! without a `section` line declare the rulebook's shared names. Resolution rewrites each
//! declaration and each use to the full name (`s12.team1`, or the bare name of a shared
//! declaration), so that every later stage (checking, evaluation, facts, explanations) knows
//! one name per declaration. Locals (parameters, `let`, lambdas, orderings, rule heads) are
//! left as written. Enum variants stay shared: `A` means the same variant everywhere.
//!
//! Diagnostics: a section's name used outside it without the qualifier, a short name declared
//! in several sections (ambiguous), an unknown name in a section (with a "did you mean"), a
//! section name that is also a declared name, and a section's name hiding a shared one (a
//! warning).

use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::ast::*;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};

/// What resolution learnt: which file is in which section, and the names of each section.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    /// Each section: where it is declared, the clause heading it, its short names.
    pub sections: IndexMap<String, SectionInfo>,
    /// The section of each file (by file id) that has one.
    pub file_section: HashMap<FileId, String>,
}

#[derive(Clone, Debug, Default)]
pub struct SectionInfo {
    pub span: Span,
    pub citation: Option<String>,
    /// Short names of the section's types, facts, decisions, definitions, rulings and tables.
    pub names: IndexMap<String, Span>,
    /// Short labels of the section's rules.
    pub rules: IndexMap<String, Span>,
}

impl Sections {
    /// The way to write the full name `full` in a file of section `here`: short inside its own
    /// section, qualified elsewhere.
    pub fn written(&self, full: &str, here: Option<&str>) -> String {
        match (full.split_once('.'), here) {
            (Some((sec, short)), Some(h)) if sec == h => short.to_string(),
            _ => full.to_string(),
        }
    }
}

/// The full name of `short` declared in `section`.
pub fn full_name(section: Option<&str>, short: &str) -> String {
    match section {
        Some(s) => format!("{s}.{short}"),
        None => short.to_string(),
    }
}

#[derive(Default)]
struct Table {
    sections: Sections,
    /// Shared names (values and types, variants included) and shared rule labels.
    shared: HashSet<String>,
    shared_rules: HashSet<String>,
    /// For each short name, the sections declaring it.
    owners: HashMap<String, Vec<String>>,
    rule_owners: HashMap<String, Vec<String>>,
}

fn decl_name(d: &Decl) -> Option<&Ident> {
    match d {
        Decl::Type(t) => Some(&t.name),
        Decl::Fact(f) => Some(&f.name),
        Decl::Decision(x) => Some(&x.name),
        Decl::Def(x) => Some(&x.name),
        Decl::Table(x) => Some(&x.name),
        Decl::Rule(_) | Decl::External(_) | Decl::Gloss(_) => None,
    }
}

fn file_decls(file: &File) -> impl Iterator<Item = &Decl> {
    file.items.iter().flat_map(|it| -> Box<dyn Iterator<Item = &Decl>> {
        match it {
            Item::Clause(c) => Box::new(c.decls()),
            Item::Decl(d) => Box::new(std::iter::once(d)),
            Item::Rulebook(_) => Box::new(std::iter::empty()),
        }
    })
}

fn build(files: &[File], diags: &mut Vec<Diagnostic>) -> Table {
    let mut t = Table::default();
    for file in files {
        let sec = file.section.as_ref();
        if let Some(s) = sec {
            let file_id = s.name.span.file;
            t.sections.file_section.insert(file_id, s.name.name.clone());
            let info = t.sections.sections.entry(s.name.name.clone()).or_insert_with(|| SectionInfo {
                span: s.name.span,
                citation: None,
                ..Default::default()
            });
            if info.citation.is_none() {
                info.citation = s.citation.as_ref().map(|c| c.value.clone());
            }
        }
        for d in file_decls(file) {
            match (d, sec) {
                (Decl::Rule(r), Some(s)) => {
                    let info = t.sections.sections.get_mut(&s.name.name).unwrap_or_else(|| unreachable!());
                    info.rules.entry(r.label.name.clone()).or_insert(r.label.span);
                    t.rule_owners.entry(r.label.name.clone()).or_default().push(s.name.name.clone());
                }
                (Decl::Rule(r), None) => {
                    t.shared_rules.insert(r.label.name.clone());
                }
                (d, _) => {
                    // A definition's body is a rule labelled by its name.
                    if let Decl::Def(def) = d
                        && def.body.is_some()
                    {
                        match sec {
                            Some(s) => {
                                let info = t.sections.sections.get_mut(&s.name.name).unwrap_or_else(|| unreachable!());
                                info.rules.entry(def.name.name.clone()).or_insert(def.name.span);
                                t.rule_owners.entry(def.name.name.clone()).or_default().push(s.name.name.clone());
                            }
                            None => {
                                t.shared_rules.insert(def.name.name.clone());
                            }
                        }
                    }
                    if let Decl::Type(ty) = d
                        && let TypeBody::Enum(vs) = &ty.body
                    {
                        t.shared.extend(vs.iter().map(|v| v.name.name.clone()));
                    }
                    let Some(n) = decl_name(d) else { continue };
                    match sec {
                        Some(s) => {
                            let info = t.sections.sections.get_mut(&s.name.name).unwrap_or_else(|| unreachable!());
                            info.names.entry(n.name.clone()).or_insert(n.span);
                            t.owners.entry(n.name.clone()).or_default().push(s.name.name.clone());
                        }
                        None => {
                            t.shared.insert(n.name.clone());
                        }
                    }
                }
            }
        }
    }
    for v in t.owners.values_mut().chain(t.rule_owners.values_mut()) {
        v.dedup();
    }
    let cited: HashSet<&str> = files
        .iter()
        .flat_map(|f| &f.items)
        .filter_map(|it| if let Item::Clause(c) = it { Some(c.citation.value.as_str()) } else { None })
        .collect();
    for f in files {
        if let Some(SectionDecl { name, citation: Some(c), .. }) = &f.section
            && !cited.contains(c.value.as_str())
        {
            diags.push(
                Diagnostic::error(
                    "conditions::unknown_citation",
                    format!("section `{}` is headed by `{}`, which is no clause", name.name, c.value),
                )
                .at(c.span, "no clause has this citation")
                .help(
                    did_you_mean(&c.value, cited.iter().copied())
                        .unwrap_or_else(|| "name the clause that heads the section, or leave the citation out".into()),
                ),
            );
        }
    }
    for (name, info) in &t.sections.sections {
        if t.shared.contains(name) || t.owners.contains_key(name) {
            diags.push(
                Diagnostic::error(
                    "conditions::section_name_taken",
                    format!("section `{name}` has the name of a declaration"),
                )
                .at(info.span, "section declared here")
                .help(format!("`{name}.x` would be ambiguous: give the section or the declaration another name")),
            );
        }
        for (short, span) in &info.names {
            if t.shared.contains(short) {
                diags.push(
                    Diagnostic::warning(
                        "conditions::shadowed_name",
                        format!("`{short}` in section `{name}` hides the shared `{short}`"),
                    )
                    .at(*span, format!("inside `{name}`, `{short}` means this one"))
                    .help(format!("rename one of them; the shared one cannot be written inside `{name}`")),
                );
            }
        }
    }
    t
}

/// Resolves every name in `files` to its full name (see the module documentation).
pub fn resolve(files: &[File], diags: &mut Vec<Diagnostic>) -> (Vec<File>, Sections) {
    if files.iter().all(|f| f.section.is_none()) {
        return (files.to_vec(), Sections::default());
    }
    let table = build(files, diags);
    let out = files
        .iter()
        .map(|f| {
            let mut f = f.clone();
            let here = f.section.as_ref().map(|s| s.name.name.clone());
            let mut r = Resolver { t: &table, here: here.as_deref(), locals: Vec::new(), diags };
            for item in &mut f.items {
                match item {
                    Item::Clause(c) => {
                        for p in &mut c.parts {
                            if let ClausePart::Decl(d) = p {
                                r.decl(d);
                            }
                        }
                    }
                    Item::Decl(d) => r.decl(d),
                    Item::Rulebook(_) => {}
                }
            }
            f
        })
        .collect();
    (out, table.sections)
}

struct Resolver<'a> {
    t: &'a Table,
    here: Option<&'a str>,
    locals: Vec<String>,
    diags: &'a mut Vec<Diagnostic>,
}

#[derive(Clone, Copy, PartialEq)]
enum Space {
    Names,
    Rules,
}

impl Resolver<'_> {
    fn declare(&self, id: &mut Ident) {
        id.name = full_name(self.here, &id.name);
    }

    fn decl(&mut self, d: &mut Decl) {
        match d {
            Decl::Type(t) => {
                self.declare(&mut t.name);
                if let TypeBody::Record(fields) = &mut t.body {
                    for f in fields {
                        self.ty(&mut f.ty);
                    }
                }
            }
            Decl::Fact(f) => {
                self.declare(&mut f.name);
                self.ty(&mut f.ty);
            }
            Decl::Decision(x) => {
                self.declare(&mut x.name);
                self.ty(&mut x.ty);
            }
            Decl::Def(x) => {
                self.declare(&mut x.name);
                self.ty(&mut x.ty);
                for p in &mut x.params {
                    self.ty(&mut p.ty);
                }
                let n = self.locals.len();
                self.locals.extend(x.params.iter().map(|p| p.name.name.clone()));
                if let Some(b) = &mut x.body {
                    self.expr(b);
                }
                self.locals.truncate(n);
            }
            Decl::Table(x) => {
                self.declare(&mut x.name);
                self.ty(&mut x.ty);
                for p in &mut x.params {
                    self.ty(&mut p.ty);
                }
                let n = self.locals.len();
                self.locals.extend(x.params.iter().map(|p| p.name.name.clone()));
                for row in &mut x.rows {
                    self.expr(&mut row.value);
                }
                self.locals.truncate(n);
            }
            Decl::Rule(r) => {
                self.declare(&mut r.label);
                self.name(&mut r.target, Space::Names);
                for o in &mut r.overrides {
                    self.name(o, Space::Rules);
                }
                let n = self.locals.len();
                for p in &r.args {
                    for a in &p.alts {
                        if let PatternAtom::Name(id) = a {
                            self.locals.push(id.name.clone());
                        }
                    }
                }
                self.expr(&mut r.value);
                if let Some(g) = &mut r.guard {
                    self.expr(g);
                }
                self.locals.truncate(n);
            }
            Decl::External(_) | Decl::Gloss(_) => {}
        }
    }

    fn ty(&mut self, t: &mut TypeExpr) {
        match t {
            TypeExpr::List(inner, _) => self.ty(inner),
            TypeExpr::Named { name, per } => {
                self.name(name, Space::Names);
                if let Some(p) = per {
                    self.name(p, Space::Names);
                }
            }
        }
    }

    /// Rewrites a name as written to its full name, or reports why it cannot be.
    fn name(&mut self, id: &mut Ident, space: Space) {
        if space == Space::Names && self.locals.contains(&id.name) {
            return;
        }
        let t = self.t;
        let (owners, shared) = match space {
            Space::Names => (&t.owners, &t.shared),
            Space::Rules => (&t.rule_owners, &t.shared_rules),
        };
        let names_of = |info: &'_ SectionInfo| -> Vec<String> {
            match space {
                Space::Names => info.names.keys().cloned().collect(),
                Space::Rules => info.rules.keys().cloned().collect(),
            }
        };
        if let Some((sec, short)) = id.name.split_once('.') {
            let Some(info) = t.sections.sections.get(sec) else { return };
            let known = names_of(info);
            // An unknown name is the checker's to report (with a "did you mean"); a rule label
            // is only ever looked up here.
            if space == Space::Rules && !known.iter().any(|k| k == short) {
                self.diags.push(
                    Diagnostic::error(
                        "conditions::unknown_in_section",
                        format!("section `{sec}` declares no rule `{short}`"),
                    )
                    .at(id.span, "not declared in the section")
                    .help({
                        let full: Vec<String> = known.iter().map(|k| full_name(Some(sec), k)).collect();
                        did_you_mean(&id.name, full.iter().map(String::as_str))
                            .unwrap_or_else(|| format!("the names of `{sec}` are declared in its files"))
                    }),
                );
            }
            return;
        }
        if let Some(h) = self.here
            && let Some(info) = t.sections.sections.get(h)
            && names_of(info).contains(&id.name)
        {
            id.name = full_name(Some(h), &id.name);
            return;
        }
        if shared.contains(&id.name) {
            return;
        }
        let Some(secs) = owners.get(&id.name) else { return };
        match secs.as_slice() {
            [] => {}
            [one] => {
                let full = full_name(Some(one), &id.name);
                self.diags.push(
                    Diagnostic::error(
                        "conditions::unqualified_name",
                        format!("`{}` is declared in section `{one}`", id.name),
                    )
                    .at(
                        id.span,
                        match self.here {
                            Some(h) => format!("not a name of section `{h}`"),
                            None => "outside the section".to_string(),
                        },
                    )
                    .help(format!(
                        "did you mean `{full}`? outside its section a name is qualified by the section's name"
                    )),
                );
                id.name = full;
            }
            many => {
                let list: Vec<String> = many.iter().map(|s| format!("`{}`", full_name(Some(s), &id.name))).collect();
                self.diags.push(
                    Diagnostic::error(
                        "conditions::ambiguous_name",
                        format!("`{}` is declared in {} sections", id.name, many.len()),
                    )
                    .at(id.span, "which one?")
                    .help(format!("write one of {}", list.join(", "))),
                );
                // Reported: go on with the first, so that the checker does not report it again.
                id.name = full_name(Some(&many[0]), &id.name);
            }
        }
    }

    fn with<T>(&mut self, names: &[&Ident], f: impl FnOnce(&mut Self) -> T) -> T {
        let n = self.locals.len();
        self.locals.extend(names.iter().map(|i| i.name.clone()));
        let out = f(self);
        self.locals.truncate(n);
        out
    }

    fn expr(&mut self, e: &mut Expr) {
        // `s12.team1` parses as a field of the name `s12`: a section's name makes it one name.
        if let ExprKind::Field(base, field) = &mut e.kind
            && let ExprKind::Name(sec) = &base.kind
            && !self.locals.contains(&sec.name)
            && self.t.sections.sections.contains_key(&sec.name)
        {
            let mut id = Ident { name: format!("{}.{}", sec.name, field.name), span: sec.span.to(field.span) };
            self.name(&mut id, Space::Names);
            e.kind = ExprKind::Name(id);
            return;
        }
        match &mut e.kind {
            ExprKind::Literal(_) => {}
            ExprKind::Name(id) => self.name(id, Space::Names),
            ExprKind::Field(b, _) => self.expr(b),
            ExprKind::Call { func, args } => {
                self.name(func, Space::Names);
                for a in args {
                    match a {
                        Arg::Positional(x) | Arg::Named(_, x) => self.expr(x),
                        Arg::Lambda(n, x) => {
                            let n = n.clone();
                            self.with(&[&n], |r| r.expr(x));
                        }
                    }
                }
            }
            ExprKind::List(xs) => xs.iter_mut().for_each(|x| self.expr(x)),
            ExprKind::Record { ty, fields } => {
                self.name(ty, Space::Names);
                fields.iter_mut().for_each(|(_, x)| self.expr(x));
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::In(x, c) => {
                self.expr(x);
                match c.as_mut() {
                    Collection::Range { lo, hi, .. } => {
                        lo.iter_mut().chain(hi.iter_mut()).for_each(|x| self.expr(x));
                    }
                    Collection::Expr(x) => self.expr(x),
                }
            }
            ExprKind::If(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Let(n, v, body) => {
                self.expr(v);
                let n = n.clone();
                self.with(&[&n], |r| r.expr(body));
            }
            ExprKind::Order(o) => {
                self.expr(&mut o.list);
                let item = o.item.clone();
                let keys = &mut o.keys;
                self.with(&[&item], |r| keys.iter_mut().for_each(|k| r.expr(&mut k.key)));
                if let Some((group, keys)) = &mut o.among {
                    let group = group.clone();
                    self.with(&[&item, &group], |r| keys.iter_mut().for_each(|k| r.expr(&mut k.key)));
                }
            }
        }
    }
}
