//! Second pass of checking: rules, tables and definition bodies are lowered;
//! exceptions (`overrides`) are resolved and checked; cycles between
//! definitions and dangling citations are reported.

use super::collect::{Collected, DefSource, Located};
use super::expr::Lowerer;
use super::program::*;
use super::types::Type;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::ast::{self, Decl, Pattern, PatternAtom};
use std::collections::HashMap;

pub fn lower_all(c: &mut Collected, diags: &mut Vec<Diagnostic>) {
    lower_defs(c, diags);
    let before = diags.len();
    let labels = lower_rules(&mut c.program, &c.decls, diags);
    // A rule whose head did not resolve may well be the one meant to define a definition.
    let heads_failed = diags[before..].iter().any(|d| {
        d.code == "conditions::wrong_arity" || (d.code == "conditions::unknown_name" && d.message.starts_with("rule "))
    });
    resolve_overrides(&mut c.program, &c.decls, &labels, diags);
    if !heads_failed {
        check_no_rules(&c.program, diags);
    }
    check_def_cycles(&c.program, diags);
}

fn lower_defs(c: &mut Collected, diags: &mut Vec<Diagnostic>) {
    for (id, src) in c.def_decls.iter().enumerate() {
        let def = c.program.defs[id].clone();
        match src {
            DefSource::Def(d) => {
                if let Some(body) = &d.body {
                    let mut l = Lowerer::new(&c.program, diags);
                    for (n, t) in &def.params {
                        l.bind(n, t.clone());
                    }
                    let value = l.lower_as(body, &def.ty, &format!("the value of `{}`", def.name));
                    let frame = l.max_slot;
                    let rid = c.program.rules.len() as RuleId;
                    c.program.rules.push(RuleInfo {
                        label: def.name.clone(),
                        def: id as DefId,
                        clause: def.clause,
                        span: d.span,
                        patterns: vec![PatIr::Any; def.params.len()],
                        guard: None,
                        value,
                        overrides: Vec::new(),
                        exceptions: Vec::new(),
                        frame,
                    });
                    c.program.defs[id].rules.push(rid);
                }
            }
            DefSource::Table(t) => {
                let mut rows = Vec::new();
                let mut frame = 0;
                for row in &t.rows {
                    let mut l = Lowerer::new(&c.program, diags);
                    for (n, ty) in &def.params {
                        l.bind(n, ty.clone());
                    }
                    if row.keys.len() != def.params.len() {
                        l.diags.push(
                            Diagnostic::error(
                                "conditions::wrong_arity",
                                format!(
                                    "table `{}` has {} column(s), this row has {}",
                                    def.name,
                                    def.params.len(),
                                    row.keys.len()
                                ),
                            )
                            .at(row.span, "wrong number of keys")
                            .help("write one pattern per parameter, in parentheses: `(5..=8, A) => …`"),
                        );
                        continue;
                    }
                    let keys = row
                        .keys
                        .iter()
                        .zip(&def.params)
                        .map(|(p, (_, ty))| lower_pattern(&mut l, p, ty, false))
                        .collect();
                    let value = l.lower_as(&row.value, &def.ty, "the row's value");
                    frame = frame.max(l.max_slot);
                    rows.push(RowIr { keys, value, span: row.span });
                }
                let ty = match t.policy {
                    ast::Policy::Collect => Type::List(Box::new(def.ty.clone())),
                    _ => def.ty.clone(),
                };
                c.program.defs[id].ty = ty;
                c.program.defs[id].table = Some(TableIr { policy: t.policy, rows, frame });
            }
        }
    }
}

/// A fact's or decision's bound (`in 0..=1`), over the type or, for a list, its items.
pub(super) fn lower_bound(program: &Program, diags: &mut Vec<Diagnostic>, b: &PatternAtom, ty: &Type) -> PatIr {
    let mut item = ty;
    while let Type::List(t) = item {
        item = t;
    }
    let mut l = Lowerer::new(program, diags);
    lower_atom(&mut l, b, item, false)
}

fn lower_pattern(l: &mut Lowerer, p: &Pattern, ty: &Type, may_bind: bool) -> PatIr {
    let mut alts: Vec<PatIr> = p.alts.iter().map(|a| lower_atom(l, a, ty, may_bind)).collect();
    if alts.len() == 1 { alts.pop().unwrap_or(PatIr::Any) } else { PatIr::Alts(alts) }
}

fn lower_atom(l: &mut Lowerer, a: &PatternAtom, ty: &Type, may_bind: bool) -> PatIr {
    match a {
        PatternAtom::Wildcard(_) => PatIr::Any,
        PatternAtom::Name(id) => match l.program.symbols.get(&id.name).copied() {
            Some(Symbol::Variant(t, v)) => {
                if !Type::Enum(t).fits(ty) {
                    let (a, w) = (l.describe(&Type::Enum(t)), l.describe(ty));
                    l.diags.push(
                        Diagnostic::error(
                            "conditions::type_mismatch",
                            format!("`{}` is a `{a}`, this column is `{w}`", id.name),
                        )
                        .at(id.span, format!("a `{a}`"))
                        .help(variant_help(l, ty)),
                    );
                }
                PatIr::Equals(crate::base::value::Value::Enum(t, v))
            }
            _ if may_bind => PatIr::Bind(l.bind(&id.name, ty.clone())),
            _ => {
                l.diags.push(
                    Diagnostic::error(
                        "conditions::unknown_name",
                        format!("`{}` is not a value of `{}`", id.name, l.describe(ty)),
                    )
                    .at(id.span, "not a variant")
                    .help(variant_help(l, ty)),
                );
                PatIr::Any
            }
        },
        PatternAtom::Literal(lit) => {
            let (v, t) = l.literal_value_as(lit, ty);
            if !t.fits(ty) {
                let (a, w) = (l.describe(&t), l.describe(ty));
                let help =
                    if matches!(ty, Type::Enum(_)) { variant_help(l, ty) } else { super::expr::mismatch_help(&t, ty) };
                l.diags.push(
                    Diagnostic::error("conditions::type_mismatch", format!("pattern is `{a}`, this column is `{w}`"))
                        .at(lit.span(), format!("this is `{a}`"))
                        .help(help),
                );
            }
            PatIr::Equals(v)
        }
        PatternAtom::Range { lo, hi, inclusive, span } => {
            let mut bound = |lit: &Option<ast::Literal>| {
                lit.as_ref().map(|x| {
                    let (v, t) = l.literal_value_as(x, ty);
                    if !t.fits(ty) && !(ty.fits(&t)) {
                        let (a, w) = (l.describe(&t), l.describe(ty));
                        l.diags.push(
                            Diagnostic::error(
                                "conditions::type_mismatch",
                                format!("range bound is `{a}`, this column is `{w}`"),
                            )
                            .at(x.span(), format!("this is `{a}`"))
                            .help(super::expr::mismatch_help(&t, ty)),
                        );
                    }
                    v
                })
            };
            let (lo, hi) = (bound(lo), bound(hi));
            if !(ty.is_numeric() || matches!(ty, Type::Date | Type::Time)) {
                l.diags.push(
                    Diagnostic::error(
                        "conditions::type_mismatch",
                        format!("a range cannot match `{}`", l.describe(ty)),
                    )
                    .at(*span, "a range")
                    .help("ranges match numbers, dates and times of day"),
                );
            }
            PatIr::Range { lo, hi, inclusive: *inclusive }
        }
    }
}

fn variant_help(l: &Lowerer, ty: &Type) -> String {
    match ty {
        Type::Enum(t) => match &l.program.types[*t as usize].kind {
            TypeKind::Enum(vs) => {
                let names: Vec<&str> = vs.iter().map(|v| v.name.as_str()).collect();
                format!("`{}` is one of {}", l.program.type_name(*t), names.join(", "))
            }
            TypeKind::Record(_) => String::new(),
        },
        _ => "write a literal, a range or `_`".into(),
    }
}

fn lower_rules(program: &mut Program, decls: &[Located], diags: &mut Vec<Diagnostic>) -> HashMap<String, RuleId> {
    let mut labels: HashMap<String, RuleId> = HashMap::new();
    for r in program.rules.iter().enumerate() {
        labels.insert(r.1.label.clone(), r.0 as RuleId);
    }
    for loc in decls {
        let Decl::Rule(r) = loc.decl else { continue };
        let Some(def_id) = program.def_by_name(&r.target.name) else {
            let candidates: Vec<&str> = if crate::diagnostic::crowded(diags, r.target.span.file) {
                Vec::new() // not shown: the file has more diagnostics than are reported
            } else {
                program.defs.iter().map(|d| d.name.as_str()).collect()
            };
            diags.push(
                Diagnostic::error(
                    "conditions::unknown_name",
                    format!("rule `{}` defines unknown `{}`", r.label.name, r.target.name),
                )
                .at(r.target.span, "no `def` or `ruling` of this name")
                .help(
                    did_you_mean(&r.target.name, candidates.iter().copied())
                        .unwrap_or_else(|| format!("declare it first: `ruling {}: bool`", r.target.name)),
                ),
            );
            continue;
        };
        let def = program.defs[def_id as usize].clone();
        if def.table.is_some() {
            diags.push(
                Diagnostic::error(
                    "conditions::rule_for_table",
                    format!("`{}` is a table; its rows define it", def.name),
                )
                .at(r.target.span, "a table")
                .help("add a row to the table instead of a rule"),
            );
            continue;
        }
        if r.args.len() != def.params.len() {
            diags.push(
                Diagnostic::error(
                    "conditions::wrong_arity",
                    format!("`{}` takes {} argument(s), the rule gives {}", def.name, def.params.len(), r.args.len()),
                )
                .at(r.target.span.to(r.args.last().map_or(r.target.span, |a| a.span)), "wrong number of arguments")
                .help(format!(
                    "write `rule {}: {}({}) = …`",
                    r.label.name,
                    def.name,
                    def.params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
                )),
            );
            continue;
        }
        let mut l = Lowerer::new(program, diags);
        for (n, t) in &def.params {
            l.bind(n, t.clone());
        }
        let patterns = r.args.iter().zip(&def.params).map(|(p, (_, t))| lower_pattern(&mut l, p, t, true)).collect();
        let guard = r.guard.as_ref().map(|g| l.lower_as(g, &Type::Bool, "the condition after `when`"));
        let value = l.lower_as(&r.value, &def.ty, &format!("the value of `{}`", def.name));
        let frame = l.max_slot;
        let id = program.rules.len() as RuleId;
        if let Some(&prev) = labels.get(&r.label.name) {
            let prev_span = program.rules[prev as usize].span;
            diags.push(
                Diagnostic::error(
                    "conditions::duplicate_label",
                    format!("rule label `{}` is used twice", r.label.name),
                )
                .at(r.label.span, "used again here")
                .at(prev_span, "first used here")
                .help("exceptions name the rule they override by its label, so labels are unique"),
            );
        } else {
            labels.insert(r.label.name.clone(), id);
        }
        program.rules.push(RuleInfo {
            label: r.label.name.clone(),
            def: def_id,
            clause: loc.clause,
            span: r.span,
            patterns,
            guard,
            value,
            overrides: Vec::new(),
            exceptions: Vec::new(),
            frame,
        });
        program.defs[def_id as usize].rules.push(id);
    }
    labels
}

fn resolve_overrides(
    program: &mut Program,
    decls: &[Located],
    labels: &HashMap<String, RuleId>,
    diags: &mut Vec<Diagnostic>,
) {
    for loc in decls {
        let Decl::Rule(r) = loc.decl else { continue };
        let Some(&id) = labels.get(&r.label.name) else { continue };
        if program.rules[id as usize].span != r.span || program.rules[id as usize].label != r.label.name {
            continue;
        }
        for o in &r.overrides {
            let Some(&target) = labels.get(&o.name) else {
                diags.push(
                    Diagnostic::error(
                        "conditions::unknown_rule",
                        format!("`{}` overrides unknown rule `{}`", r.label.name, o.name),
                    )
                    .at(o.span, "no rule has this label")
                    .help(
                        did_you_mean(&o.name, labels.keys().map(|s| s.as_str()))
                            .unwrap_or_else(|| "an exception names the label of the rule it overrides".into()),
                    ),
                );
                continue;
            };
            let (own_def, target_def) = (program.rules[id as usize].def, program.rules[target as usize].def);
            if own_def != target_def {
                let (a, b) = (&program.defs[own_def as usize].name, &program.defs[target_def as usize].name);
                diags.push(
                    Diagnostic::error(
                        "conditions::misplaced_exception",
                        format!("`{}` defines `{a}` but overrides `{}`, which defines `{b}`", r.label.name, o.name),
                    )
                    .at(o.span, "an exception to a rule for something else")
                    .at(program.rules[target as usize].span, format!("this rule defines `{b}`"))
                    .help("an exception overrides a rule for the same definition"),
                );
                continue;
            }
            if target == id {
                diags.push(
                    Diagnostic::error("conditions::override_cycle", format!("`{}` overrides itself", r.label.name))
                        .at(o.span, "itself")
                        .help("an exception overrides another rule"),
                );
                continue;
            }
            program.rules[id as usize].overrides.push(target);
            program.rules[target as usize].exceptions.push(id);
        }
    }
    // Cycles among exceptions: a overrides b overrides a.
    let n = program.rules.len();
    let mut state = vec![0u8; n];
    for start in 0..n {
        if state[start] == 0
            && let Some(cycle) =
                find_cycle(start, &mut state, &|i| program.rules[i].overrides.iter().map(|&x| x as usize).collect())
        {
            let names: Vec<&str> = cycle.iter().map(|&i| program.rules[i].label.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    "conditions::override_cycle",
                    format!("exceptions go round in a circle: {}", names.join(" → ")),
                )
                .at(program.rules[cycle[0]].span, "this rule is part of the circle")
                .help("decide which rule is the general one and which the exception"),
            );
        }
    }
}

/// Depth-first search; returns a cycle through the nodes reached from `start`, if any.
fn find_cycle(start: usize, state: &mut [u8], edges: &dyn Fn(usize) -> Vec<usize>) -> Option<Vec<usize>> {
    let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(start, edges(start), 0)];
    let mut path = vec![start];
    state[start] = 1;
    let mut found = None;
    while let Some((node, next, idx)) = stack.last_mut() {
        if *idx < next.len() {
            let m = next[*idx];
            *idx += 1;
            match state[m] {
                0 => {
                    state[m] = 1;
                    path.push(m);
                    let e = edges(m);
                    stack.push((m, e, 0));
                }
                1 if found.is_none() => {
                    let pos = path.iter().position(|&p| p == m).unwrap_or(0);
                    let mut cyc = path[pos..].to_vec();
                    cyc.push(m);
                    found = Some(cyc);
                }
                _ => {}
            }
        } else {
            state[*node] = 2;
            path.pop();
            stack.pop();
        }
    }
    found
}

fn check_no_rules(program: &Program, diags: &mut Vec<Diagnostic>) {
    for d in &program.defs {
        if d.table.is_none() && d.rules.is_empty() {
            diags.push(
                Diagnostic::error("conditions::no_rules", format!("nothing defines `{}`", d.name))
                    .at(d.span, "declared without a value or a rule")
                    .help(format!("give it a value (`= …`) or add `rule …: {} = …`", d.name)),
            );
        }
    }
}

/// Definitions may not depend on themselves: every ruling must terminate.
fn check_def_cycles(program: &Program, diags: &mut Vec<Diagnostic>) {
    let n = program.defs.len();
    let mut deps: Vec<Vec<usize>> = vec![Vec::new(); n];
    for r in &program.rules {
        let mut out = Vec::new();
        calls(&r.value, &mut out);
        if let Some(g) = &r.guard {
            calls(g, &mut out);
        }
        deps[r.def as usize].extend(out);
    }
    for (i, d) in program.defs.iter().enumerate() {
        if let Some(t) = &d.table {
            for row in &t.rows {
                calls(&row.value, &mut deps[i]);
            }
        }
    }
    let mut state = vec![0u8; n];
    for start in 0..n {
        if state[start] == 0
            && let Some(cycle) = find_cycle(start, &mut state, &|i| deps[i].clone())
        {
            let names: Vec<&str> = cycle.iter().map(|&i| program.defs[i].name.as_str()).collect();
            diags.push(
                Diagnostic::error(
                    "conditions::definition_cycle",
                    format!("`{}` depends on itself: {}", names[0], names.join(" → ")),
                )
                .at(program.defs[cycle[0]].span, "part of the cycle")
                .help("break the circle: one of these must be computed from facts without the others"),
            );
        }
    }
}

pub fn calls(ir: &Ir, out: &mut Vec<usize>) {
    ir.visit(&mut |x| {
        if let IrKind::Call(d, _) = x.kind {
            out.push(d as usize);
        }
    });
}

/// Reports `cites` entries that name neither a clause nor a declared external.
pub fn check_cite_targets(program: &Program, files: &[ast::File], diags: &mut Vec<Diagnostic>) {
    for f in files {
        for item in &f.items {
            let ast::Item::Clause(c) = item else { continue };
            for s in c.cites() {
                let known =
                    program.citations.contains_key(&s.value) || program.externals.iter().any(|e| e.citation == s.value);
                if !known {
                    let candidates: Vec<&str> = if crate::diagnostic::crowded(diags, s.span.file) {
                        Vec::new() // not shown: the file has more diagnostics than are reported
                    } else {
                        program
                            .citations
                            .keys()
                            .map(|k| k.as_str())
                            .chain(program.externals.iter().map(|e| e.citation.as_str()))
                            .collect()
                    };
                    diags.push(
                        Diagnostic::error(
                            "conditions::unknown_citation",
                            format!("`{}` cites `{}`, which does not exist", c.citation.value, s.value),
                        )
                        .at(s.span, "no clause or external reference with this citation")
                        .help(
                            did_you_mean(&s.value, candidates.iter().copied()).unwrap_or_else(|| {
                                format!(
                                    "declare it: `external \"{}\" \"title\"`, if it lies outside these conditions",
                                    s.value
                                )
                            }),
                        ),
                    );
                }
            }
        }
    }
}
