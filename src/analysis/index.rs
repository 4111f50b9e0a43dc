//! The name index: every place a name, field or citation is declared or used, with what
//! it refers to. Built from the parsed files and the checked program: names resolve as the
//! checker resolves them (locals first, then the rulebook's symbols), fields by the types
//! the checker gave their records.

use crate::check::program::*;
use crate::check::types::Type;
use crate::syntax::ast::{self, Arg, Collection, Decl, Expr, ExprKind, FileId, Pattern, PatternAtom, Span, TypeExpr};
use std::collections::HashMap;

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Fact(FactId),
    Decision(DecisionId),
    Def(DefId),
    Type(TypeId),
    Variant(TypeId, u32),
    Field(TypeId, u32),
    Rule(RuleId),
    Clause(ClauseId),
    External(u32),
    /// A parameter, rule-head binding, `let` or lambda variable: where it is bound.
    Local {
        file: FileId,
        start: u32,
    },
}

/// One declaration or use.
#[derive(Clone, Copy, Debug)]
pub struct Occurrence {
    pub span: Span,
    pub target: Target,
    pub is_decl: bool,
}

/// Every occurrence in a rulebook, sorted by place.
#[derive(Clone, Debug, Default)]
pub struct Index {
    pub occurrences: Vec<Occurrence>,
    /// The type of each local variable, by where it is bound.
    pub local_types: HashMap<(FileId, u32), Type>,
    /// The names of local variables, by where they are bound.
    pub local_names: HashMap<(FileId, u32), String>,
}

impl Index {
    pub fn build(program: &Program, files: &[ast::File]) -> Index {
        let (fields, locals) = typed_places(program);
        let rules = program.rules.iter().enumerate().map(|(i, r)| (r.label.as_str(), i as RuleId)).collect();
        let mut w = Walker { p: program, rules, fields, scope: Vec::new(), index: Index::default() };
        for f in files {
            for item in &f.items {
                match item {
                    ast::Item::Rulebook(_) => {}
                    ast::Item::Clause(c) => w.clause(c),
                    ast::Item::Decl(d) => w.decl(d),
                }
            }
        }
        let mut index = w.index;
        for o in &index.occurrences {
            if let (Target::Local { file, start }, false) = (o.target, o.is_decl)
                && let Some(t) = locals.get(&(o.span.file, o.span.start))
            {
                index.local_types.entry((file, start)).or_insert_with(|| t.clone());
            }
        }
        index.occurrences.sort_by_key(|o| (o.span.file, o.span.start, o.span.end));
        index
    }

    /// The innermost occurrence covering `offset` in `file` (its end included, so that a
    /// name is found with the cursor just after it).
    pub fn at(&self, file: FileId, offset: u32) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| o.span.file == file && o.span.start <= offset && offset <= o.span.end)
            .min_by_key(|o| o.span.len())
    }

    /// Where a target is declared.
    pub fn declaration(&self, target: Target) -> Option<Span> {
        self.occurrences.iter().find(|o| o.target == target && o.is_decl).map(|o| o.span)
    }

    /// Every occurrence of a target, declarations included.
    pub fn references(&self, target: Target) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.target == target)
    }
}

/// Record fields by the end of the field expression, and local variables' types by where
/// they are used, read from the lowered program.
type FieldPlaces = HashMap<(FileId, u32), (TypeId, u32)>;
type LocalPlaces = HashMap<(FileId, u32), Type>;

fn typed_places(p: &Program) -> (FieldPlaces, LocalPlaces) {
    let mut fields = HashMap::new();
    let mut locals = HashMap::new();
    let mut visit = |ir: &Ir| {
        ir.visit(&mut |x| match &x.kind {
            IrKind::Field(base, i) => {
                if let Type::Record(t) = base.ty {
                    fields.insert((x.span.file, x.span.end), (t, *i));
                }
            }
            IrKind::Local(_) => {
                locals.insert((x.span.file, x.span.start), x.ty.clone());
            }
            _ => {}
        })
    };
    for r in &p.rules {
        visit(&r.value);
        if let Some(g) = &r.guard {
            visit(g);
        }
    }
    for d in &p.defs {
        for row in d.table.iter().flat_map(|t| &t.rows) {
            visit(&row.value);
        }
    }
    (fields, locals)
}

struct Walker<'a> {
    p: &'a Program,
    rules: HashMap<&'a str, RuleId>,
    fields: FieldPlaces,
    scope: Vec<(String, Span)>,
    index: Index,
}

impl Walker<'_> {
    fn push(&mut self, span: Span, target: Target, is_decl: bool) {
        self.index.occurrences.push(Occurrence { span, target, is_decl });
    }

    fn symbol(&mut self, id: &ast::Ident, is_decl: bool) {
        let target = match self.p.symbols.get(&id.name) {
            Some(Symbol::Fact(f)) => Target::Fact(*f),
            Some(Symbol::Decision(d)) => Target::Decision(*d),
            Some(Symbol::Def(d)) => Target::Def(*d),
            Some(Symbol::Type(t)) => Target::Type(*t),
            Some(Symbol::Variant(t, v)) => Target::Variant(*t, *v),
            None => return,
        };
        self.push(id.span, target, is_decl);
    }

    fn bind(&mut self, id: &ast::Ident) {
        let target = Target::Local { file: id.span.file, start: id.span.start };
        self.index.local_names.insert((id.span.file, id.span.start), id.name.clone());
        self.push(id.span, target, true);
        self.scope.push((id.name.clone(), id.span));
    }

    fn citation(&mut self, s: &ast::Str, is_decl: bool) {
        if let Some(c) = self.p.citations.get(&s.value) {
            self.push(s.span, Target::Clause(*c), is_decl);
        } else if let Some(i) = self.p.externals.iter().position(|e| e.citation == s.value) {
            self.push(s.span, Target::External(i as u32), is_decl);
        }
    }

    fn clause(&mut self, c: &ast::Clause) {
        self.citation(&c.citation, true);
        for part in &c.parts {
            match part {
                ast::ClausePart::Cites(v) => v.iter().for_each(|s| self.citation(s, false)),
                ast::ClausePart::Decl(d) => self.decl(d),
                _ => {}
            }
        }
    }

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Type(t) => {
                self.symbol(&t.name, true);
                let Some(Symbol::Type(tid)) = self.p.symbols.get(&t.name.name).copied() else { return };
                match &t.body {
                    ast::TypeBody::Enum(vs) => vs.iter().for_each(|v| self.symbol(&v.name, true)),
                    ast::TypeBody::Record(fs) => {
                        for (i, f) in fs.iter().enumerate() {
                            self.push(f.name.span, Target::Field(tid, i as u32), true);
                            self.type_expr(&f.ty);
                        }
                    }
                }
            }
            Decl::Fact(f) => {
                self.symbol(&f.name, true);
                self.type_expr(&f.ty);
            }
            Decl::Decision(x) => {
                self.symbol(&x.name, true);
                self.type_expr(&x.ty);
            }
            Decl::External(e) => self.citation(&e.citation, true),
            Decl::Def(x) => {
                self.symbol(&x.name, true);
                self.params(&x.params);
                self.type_expr(&x.ty);
                if let Some(b) = &x.body {
                    self.expr(b);
                }
                self.scope.clear();
            }
            Decl::Rule(r) => {
                if let Some(&id) = self.rules.get(r.label.name.as_str()) {
                    self.push(r.label.span, Target::Rule(id), true);
                }
                self.symbol(&r.target, false);
                r.args.iter().for_each(|p| self.pattern(p, true));
                self.expr(&r.value);
                if let Some(g) = &r.guard {
                    self.expr(g);
                }
                for o in &r.overrides {
                    if let Some(&id) = self.rules.get(o.name.as_str()) {
                        self.push(o.span, Target::Rule(id), false);
                    }
                }
                self.scope.clear();
            }
            Decl::Table(t) => {
                self.symbol(&t.name, true);
                self.params(&t.params);
                self.type_expr(&t.ty);
                for row in &t.rows {
                    row.keys.iter().for_each(|p| self.pattern(p, false));
                    self.expr(&row.value);
                }
                self.scope.clear();
            }
            Decl::Gloss(_) => {}
        }
    }

    fn params(&mut self, params: &[ast::Param]) {
        for p in params {
            self.type_expr(&p.ty);
            self.bind(&p.name);
        }
    }

    fn pattern(&mut self, p: &Pattern, binds: bool) {
        for a in &p.alts {
            if let PatternAtom::Name(id) = a {
                match self.p.symbols.get(&id.name) {
                    Some(Symbol::Variant(..)) => self.symbol(id, false),
                    _ if binds => self.bind(id),
                    _ => self.name(id),
                }
            }
        }
    }

    fn type_expr(&mut self, t: &TypeExpr) {
        match t {
            TypeExpr::List(inner, _) => self.type_expr(inner),
            TypeExpr::Named { name, .. } => {
                if let Some(Symbol::Type(tid)) = self.p.symbols.get(&name.name) {
                    self.push(name.span, Target::Type(*tid), false);
                }
            }
        }
    }

    fn name(&mut self, id: &ast::Ident) {
        match self.scope.iter().rev().find(|(n, _)| *n == id.name) {
            Some((_, at)) => {
                let target = Target::Local { file: at.file, start: at.start };
                self.push(id.span, target, false);
            }
            None => self.symbol(id, false),
        }
    }

    fn scoped(&mut self, id: &ast::Ident, body: &Expr) {
        let depth = self.scope.len();
        self.bind(id);
        self.expr(body);
        self.scope.truncate(depth);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(_) => {}
            ExprKind::Name(id) => self.name(id),
            ExprKind::Field(base, f) => {
                self.expr(base);
                if let Some(&(t, i)) = self.fields.get(&(e.span.file, e.span.end)) {
                    self.push(f.span, Target::Field(t, i), false);
                }
            }
            ExprKind::Call { func, args } => {
                if matches!(self.p.symbols.get(&func.name), Some(Symbol::Def(_))) {
                    self.symbol(func, false);
                }
                for a in args {
                    match a {
                        Arg::Positional(x) | Arg::Named(_, x) => self.expr(x),
                        Arg::Lambda(id, body) => self.scoped(id, body),
                    }
                }
            }
            ExprKind::List(xs) => xs.iter().for_each(|x| self.expr(x)),
            ExprKind::Record { ty, fields } => {
                self.symbol(ty, false);
                let decl = match self.p.symbols.get(&ty.name) {
                    Some(Symbol::Type(t)) => match &self.p.types[*t as usize].kind {
                        TypeKind::Record(fs) => Some((*t, fs)),
                        TypeKind::Enum(_) => None,
                    },
                    _ => None,
                };
                for (name, x) in fields {
                    if let Some((t, fs)) = decl
                        && let Some(i) = fs.iter().position(|f| f.name == name.name)
                    {
                        self.push(name.span, Target::Field(t, i as u32), false);
                    }
                    self.expr(x);
                }
            }
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::In(x, coll) => {
                self.expr(x);
                match &**coll {
                    Collection::Range { lo, hi, .. } => lo.iter().chain(hi.iter()).for_each(|b| self.expr(b)),
                    Collection::Expr(c) => self.expr(c),
                }
            }
            ExprKind::If(c, t, f) => {
                self.expr(c);
                self.expr(t);
                self.expr(f);
            }
            ExprKind::Let(id, v, body) => {
                self.expr(v);
                self.scoped(id, body);
            }
            ExprKind::Order(o) => {
                self.expr(&o.list);
                let depth = self.scope.len();
                self.bind(&o.item);
                o.keys.iter().for_each(|k| self.expr(&k.key));
                if let Some((group, keys)) = &o.among {
                    self.bind(group);
                    keys.iter().for_each(|k| self.expr(&k.key));
                }
                self.scope.truncate(depth);
            }
        }
    }
}
