//! The brief terminal text of a ruling written straight from its trace with the
//! rulebook's views ([`super::views`]), without a [`super::Report`] of owned strings
//! first: the same text as [`super::text::render`] of the brief report, byte for byte,
//! with only what it shows worked out (no JSON value, no step tree, no reasons of
//! rules that the brief text leaves out).

use super::scratch::{Buf, List};
use super::views::Views;
use super::wrap::wrap_into;
use super::{Explainer, working};
use crate::base::messages::{Arg, msg_into, word_ref as word};
use crate::base::value::Value;
use crate::check::program::{ClauseId, DefId};
use crate::eval::trace::{self, FactUse, Node, WhyNot};
use crate::eval::{Outcome, Ruling};
use crate::show;

impl Explainer<'_> {
    /// The brief explanation of `ruling` as terminal text: what `text::render(&self.report(ruling,
    /// false), false)` writes.
    /// An explanation over the ruling's step budget is refused, as [`Self::report`] refuses it.
    pub fn brief_text(&self, ruling: &Ruling) -> String {
        self.brief_text_counted(ruling, crate::eval::interp::MAX_STEPS).0
    }

    /// As [`Self::brief_text`] within a step budget of `budget`, with the work it took in all
    /// (see [`Self::report_counted`]).
    pub fn brief_text_counted(&self, ruling: &Ruling, budget: u64) -> (String, u64) {
        let meter = super::meter::Meter::start(super::meter::left(ruling.steps, budget));
        let text = self.brief_text_inner(ruling);
        let work = ruling.steps.saturating_add(meter.used());
        if ruling.steps > budget || super::meter::spent() {
            drop(meter);
            return (self.brief_text_inner(&super::refused(ruling, budget)), work);
        }
        (text, work)
    }

    fn brief_text_inner(&self, ruling: &Ruling) -> String {
        let p = self.p;
        let lang = self.lang;
        let w = self.w();
        let info = &p.defs[ruling.def as usize];
        let views = self.views();
        let nodes: &[Node] = ruling.trace.as_ref().map_or(&[], |t| t.nodes.as_slice());
        // Clauses cited are gathered by their place among the views' clauses.
        let at = |c: ClauseId| c as usize;

        // The answer, as the report gives it.
        let nearest: Vec<ClauseId> = match &ruling.outcome {
            Outcome::Silent(s) => s.nearest(p),
            _ => Vec::new(),
        };
        let mut needs = Vec::new();
        let mut error = None;
        let answer = match &ruling.outcome {
            Outcome::Decided(v) => nodes
                .first()
                .and_then(|n| n.working.as_ref())
                .and_then(|wk| self.apportioned(wk))
                .unwrap_or_else(|| show::value(p, v, &info.ty, lang)),
            Outcome::Undetermined(ns) => {
                needs = ns.iter().map(|n| self.need(n)).collect();
                w.undetermined()
            }
            Outcome::Silent(s) => {
                let names: Vec<String> = nearest.iter().map(|&c| p.clause(c).citation.clone()).collect();
                w.silence(&self.silent_what(s), &names)
            }
            Outcome::Error(e) => {
                error = Some(e.message.as_str());
                w.cannot_rule()
            }
        };

        // The clauses cited and the facts used, as the report gathers them.
        let mut cited = List::new();
        let mut facts: Vec<&FactUse> = Vec::with_capacity(16);
        let mut decisions: Vec<u32> = Vec::new();
        // What settled nothing is left to the full explanation: its steps, facts and decisions.
        let idle = super::brevity::Idle::new(p, nodes);
        let mut counted = Vec::new();
        let mut counted_decisions: Vec<u32> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            // A step that settled nothing cites nothing.
            if !idle.nodes[i] {
                if n.decided_by.is_none() {
                    cited.extend(p.defs[n.def as usize].clause.map(at));
                }
                cited.extend(n.decided_by.and_then(|r| p.rules[r as usize].clause).map(at));
                cited.extend(n.overridden.iter().filter_map(|&r| p.rules[r as usize].clause).map(at));
                cited.extend(n.also.iter().filter_map(|&r| p.rules[r as usize].clause).map(at));
            }
            for u in &n.facts {
                if !facts.iter().any(|x| x.read == u.read) {
                    facts.push(u);
                }
                if idle.fact(i, u.fact) {
                    counted.push(u.read);
                }
            }
            decisions.extend(&n.decisions);
            counted_decisions.extend(n.decisions.iter().filter(|&&d| idle.decision(i, d)));
        }
        if nodes.is_empty() {
            cited.extend(info.clause.map(at));
        }
        facts.retain(|u| counted.contains(&u.read));
        decisions.retain(|d| counted_decisions.contains(d));
        cited.extend(facts.iter().filter_map(|u| p.facts[u.fact as usize].clause).map(at));
        cited.extend(
            decisions
                .iter()
                .filter_map(|&d| self.inputs.decisions[d as usize].as_ref().and(p.decisions[d as usize].clause))
                .map(at),
        );
        cited.extend(nearest.iter().map(|&c| at(c)));
        for n in &needs {
            if let Some(c) = &n.citation
                && let Some(&id) = p.citations.get(c)
            {
                cited.push(at(id));
            }
        }
        cited.sort_unstable();
        cited.dedup();
        facts.sort_by(|a, b| (a.fact, a.path(p)).cmp(&(b.fact, b.path(p))));
        decisions.sort_unstable();
        decisions.dedup();

        // The text is about its clauses' lines and a line or two a step and a fact.
        let clause_bytes: usize = cited.iter().filter_map(|&c| views.clauses.get(c)).map(|cv| cv.lines.len()).sum();
        let mut out = String::with_capacity(clause_bytes + 512 + 160 * (nodes.len() + facts.len() + needs.len()));

        match views.defs[ruling.def as usize].description.as_deref() {
            Some(q) => out.push_str(q),
            None => out.push_str(&info.name.replace('_', " ")),
        }
        out.push('\n');
        out.push_str(&p.rulebook.title);
        out.push_str("\n\n");
        out.push_str(word(lang, "answer"));
        out.push_str(": ");
        out.push_str(&answer);
        out.push('\n');
        if let Some(e) = error {
            out.push_str(word(lang, "error"));
            out.push_str(": ");
            out.push_str(e);
            out.push('\n');
        }
        if !needs.is_empty() {
            out.push('\n');
            out.push_str(word(lang, "needs"));
            out.push_str(":\n");
            for n in &needs {
                wrap_into(&mut out, &format!("- {}", n.sentence), "  ", 100);
            }
        }
        let mut said = std::collections::HashSet::new();
        if !nodes.is_empty() {
            out.push('\n');
            out.push_str(word(lang, "why"));
            out.push_str(":\n");
            let mut steps = vec![false; nodes.len()];
            steps[0] = true;
            let mut walk = Walk {
                e: self,
                views,
                nodes,
                steps,
                shown: std::collections::HashMap::new(),
                kids: List::new(),
                line: Buf::new(),
                args: Buf::new(),
                ends: List::new(),
                deciding: super::deciding(views, nodes),
                once: super::brevity::Once::new(nodes).with_idle(idle.nodes),
                said: std::collections::HashSet::new(),
                held: Vec::new(),
                cited: Vec::new(),
                needed: match &ruling.outcome {
                    Outcome::Undetermined(ns) => ns,
                    _ => &[],
                },
                settled: matches!(ruling.outcome, Outcome::Decided(_)),
            };
            walk.step(&mut out, 0, 0);
            said = walk.said;
            said.extend(walk.held);
        }

        self.facts_used_into(&mut out, views, &facts, &decisions, &said);
        let mut clauses = cited.iter().filter_map(|&c| views.clauses.get(c)).peekable();
        if clauses.peek().is_some() {
            out.push('\n');
            out.push_str(word(lang, "clauses"));
            out.push_str(":\n");
            for cv in clauses {
                if cv.lines.is_empty() {
                    out.push_str(&super::text::clause_lines(lang, cv));
                } else {
                    out.push_str(&cv.lines);
                }
            }
        }
        out
    }

    /// The facts used and the decisions given, a line each, as the report lists them: but
    /// not a line the working already says (`said`).
    #[inline(never)]
    fn facts_used_into(
        &self,
        out: &mut String,
        views: &Views,
        facts: &[&FactUse],
        decisions: &[u32],
        said: &std::collections::HashSet<String>,
    ) {
        let (p, lang) = (self.p, self.lang);
        let mut lines: Vec<(String, Option<&str>)> = Vec::with_capacity(facts.len() + decisions.len());
        let mut value = String::new();
        for u in facts {
            let fi = &p.facts[u.fact as usize];
            let fv = &views.facts[u.fact as usize];
            let label = super::brevity::fact_label(views, fi, u, u.path(p));
            value.clear();
            show::value_into(&mut value, p, &u.value, u.ty(p), lang);
            // A fact the working says (by its description, with its value after) is not said again.
            if super::brevity::says_fact(said.iter().map(String::as_str), &label, &value) {
                continue;
            }
            let shown = super::brevity::brief_value(lang, &u.value, &value);
            lines.push((format!("{label}: {}", shown.as_deref().unwrap_or(&value)), fv.citation.as_deref()));
        }
        for &d in decisions {
            let Some(v) = self.inputs.decisions[d as usize].as_ref() else { continue };
            let di = &p.decisions[d as usize];
            lines.push((self.decision_found(views, d, v), p.citation_of(di.clause)));
        }
        lines.retain(|(l, _)| !said.contains(l));
        if lines.is_empty() {
            return;
        }
        out.push('\n');
        out.push_str(word(lang, "facts-used"));
        out.push_str(":\n");
        for (mut line, c) in lines {
            if let Some(c) = c {
                push_cite(&mut line, c);
            }
            wrap_into(out, &line, "  ", 100);
        }
    }
}

fn push_cite(line: &mut String, c: &str) {
    line.push_str(" [");
    line.push_str(c);
    line.push(']');
}

/// A child in [`Walk::kids`] that the brief leaves out ([`super::Step::hidden`]): its node's
/// place with this bit set (a trace never has so many nodes).
const HIDDEN: usize = 1 << (usize::BITS - 1);

/// The walk over the trace that the report's step tree and the brief text's steps make.
struct Walk<'e, 'a> {
    e: &'e Explainer<'a>,
    views: &'e Views,
    nodes: &'e [Node],
    /// Whether each node is already made a step of (the report explains a sub-result once).
    steps: Vec<bool>,
    /// The arguments of the steps shown, as shown, by definition and a hash of those
    /// arguments (a step repeated under another, the same definition on the same arguments
    /// as shown, is shown once).
    shown: std::collections::HashMap<(DefId, u64), Vec<Args>>,
    /// The children of the steps being walked, each step's after its parent's (see
    /// [`Walk::children`]).
    kids: List,
    /// A line being put together (kept for the next).
    line: Buf,
    /// The texts of the arguments of the steps shown, one after the other ([`Args`]).
    args: Buf,
    /// Where each of those texts ends.
    ends: List,
    /// The clauses that decided a step ([`super::Report::deciding`]).
    deciding: Vec<super::Shared>,
    /// Which reads of a definition read for many items are shown.
    once: super::brevity::Once,
    /// The lines of working and reasons shown (a fact they say is not said again).
    said: std::collections::HashSet<String>,
    /// The reasons of the rules that did not apply and the conditions of a deciding clause
    /// said as they stand (a fact they say is not said again; the working's lines are not
    /// compared with them).
    held: Vec<String>,
    /// The clauses cited by the steps said so far.
    cited: Vec<super::Shared>,
    /// What the ruling still needs (a rule that waits only for it says so).
    needed: &'e [crate::eval::trace::Need],
    /// Whether the ruling is decided (no rule waiting for an input is said).
    settled: bool,
}

/// A step's arguments as shown: where their texts lie in [`Walk::args`] and where each
/// ends, from [`Walk::ends`].
#[derive(Clone, Copy)]
struct Args {
    /// The texts, `args[text.0..text.1]`.
    text: (usize, usize),
    /// Their ends, `ends[ends.0..ends.1]`.
    ends: (usize, usize),
}

impl Walk<'_, '_> {
    /// The texts of arguments `a`, one by one.
    fn args_of(&self, a: Args) -> impl Iterator<Item = &str> {
        let mut start = a.text.0;
        self.ends[a.ends.0..a.ends.1].iter().map(move |&e| {
            let t = &self.args[start..e];
            start = e;
            t
        })
    }

    /// A hash of arguments `a` as shown: the same for arguments shown alike ([`Self::same_args`]).
    fn args_hash(&self, a: Args) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.args[a.text.0..a.text.1].hash(&mut h);
        for e in &self.ends[a.ends.0..a.ends.1] {
            (e - a.text.0).hash(&mut h);
        }
        h.finish()
    }

    /// Whether arguments `a` and `b` are shown alike.
    fn same_args(&self, a: Args, b: Args) -> bool {
        self.args[a.text.0..a.text.1] == self.args[b.text.0..b.text.1]
            && self.ends[a.ends.0..a.ends.1]
                .iter()
                .map(|e| e - a.text.0)
                .eq(self.ends[b.ends.0..b.ends.1].iter().map(|e| e - b.text.0))
    }

    /// The children of node `idx` that become steps under it: those not yet explained, and
    /// in the brief explanation not one of many reads of the same definition.
    /// They are put at the end of `kids`, from the place returned on (the caller cuts `kids`
    /// back there when done with them).
    fn children(&mut self, idx: usize) -> usize {
        let from = self.kids.len();
        let n = &self.nodes[idx];
        let p = self.e.p;
        let nodes = self.nodes;
        let reads = super::reads_by_def(nodes, &n.children);
        let many = |c: usize, most: usize| {
            let def = nodes[c].def;
            !p.defs[def as usize].params.is_empty() && reads.get(&def).is_some_and(|&k| k > most)
        };
        super::meter::charge(n.children.len() as u64 + 1);
        let mut firsts = Vec::new();
        for &c in &n.children {
            if !self.steps.get(c).copied().unwrap_or(true) && !many(c, working::LIST_MAX) {
                let hidden = self.once.idle(c)
                    || many(c, working::BRIEF_READS_MAX)
                    || super::brevity::read_again(p, nodes, &reads, c, &mut firsts)
                    || !self.once.admit(p, nodes, c);
                self.kids.push(if hidden { c | HIDDEN } else { c });
            }
        }
        from
    }

    /// Marks the steps under a step the brief text leaves out, as the report would make them.
    fn skip(&mut self, idx: usize) {
        let from = self.children(idx);
        for k in from..self.kids.len() {
            let c = self.kids[k] & !HIDDEN;
            self.steps[c] = true;
            self.skip(c);
        }
        self.kids.truncate(from);
    }

    fn step(&mut self, out: &mut String, idx: usize, depth: usize) {
        let (e, nodes) = (self.e, self.nodes);
        let p = e.p;
        let lang = e.lang;
        let n = &nodes[idx];
        let info = &p.defs[n.def as usize];
        let dv = &self.views.defs[n.def as usize];
        let from = self.children(idx);
        let to = self.kids.len();
        // The arguments as shown, one after the other, and where each ends.
        let (text_from, ends_from) = (self.args.len(), self.ends.len());
        for (a, (_, t)) in n.args.iter().zip(&info.params) {
            show::value_into(&mut self.args, p, a, t, lang);
            let end = self.args.len();
            self.ends.push(end);
        }
        let args = Args { text: (text_from, self.args.len()), ends: (ends_from, self.ends.len()) };
        let key = (n.def, self.args_hash(args));
        super::meter::charge(1);
        if self.shown.get(&key).is_some_and(|xs| xs.iter().any(|&a| self.same_args(a, args))) {
            self.args.truncate(text_from);
            self.ends.truncate(ends_from);
            for k in from..to {
                let c = self.kids[k] & !HIDDEN;
                self.steps[c] = true;
                self.skip(c);
            }
            self.kids.truncate(from);
            return;
        }
        // The step's line before its citation: "label (arguments): answer".
        let mut head = std::mem::take(&mut self.line);
        head.clear();
        head.push_str(&dv.label);
        let mut first = true;
        for (i, a) in self.args_of(args).enumerate() {
            if !super::arg_shown(dv.param_labels.get(i).is_some_and(Option::is_some), a) {
                continue;
            }
            head.push_str(if first { " (" } else { ", " });
            head.push_str(a);
            first = false;
        }
        if !first {
            head.push(')');
        }
        head.push_str(": ");
        let answer_at = head.len();
        match &n.outcome {
            trace::Outcome::Value(v) => match n.working.as_ref().and_then(|wk| e.apportioned(wk)) {
                Some(a) => head.push_str(&a),
                None => show::value_into(&mut head, p, v, &info.ty, lang),
            },
            trace::Outcome::Undetermined(_) => head.push_str(&e.w().undetermined()),
            trace::Outcome::Silent(_) => head.push_str(e.w().not_decided),
            trace::Outcome::Error(m) => head.push_str(m),
        }
        // The working and the reasons, wrapped under the step's line: written after it, if the
        // step is shown; a line that only repeats the step's own is left out.
        // A line that only says what a step below says with its working is left to that step.
        let below: Vec<String> = (from..to)
            .filter(|&k| self.kids[k] & HIDDEN == 0)
            .map(|k| self.kids[k])
            .filter(|&c| nodes[c].working.is_some() || !nodes[c].because.is_empty())
            .map(|c| self.line_of(c))
            .collect();
        let mut body = Buf::new();
        let mut said = false;
        let lines = &mut self.said;
        let ((), tables) = super::table::collect(|| {
            if let Some(wk) = n.working.as_ref() {
                e.step_sentences_to(wk, &mut |s| {
                    // A line a step above already says is said once.
                    if s != head.as_str() && !below.iter().any(|b| b == s) && !lines.contains(s) {
                        said = true;
                        wrap_into(&mut body, s, "      ", 100);
                        lines.insert(s.to_string());
                    }
                });
            }
            let mut reasons = Vec::new();
            for a in n.because.iter().filter(|a| !super::brevity::implied(n.working.as_deref(), a)) {
                if let Some(s) = e.atom_words(a)
                    && !s.is_empty()
                    && *s != *head
                    && !below.contains(&*s)
                    && !lines.contains(&*s)
                    && !reasons.iter().any(|r: &String| *r == *s)
                {
                    reasons.push(s.to_string());
                }
            }
            super::brevity::merge_denials(lang, &mut reasons);
            for s in reasons {
                said = true;
                wrap_into(&mut body, &s, "      ", 100);
                lines.insert(s);
            }
        });
        for t in &tables {
            said = true;
            super::table::text_into(&mut body, lang, t, "      ", 100);
        }
        let at = n
            .decided_by
            .and_then(|r| self.views.rules[r as usize].citation.as_deref())
            .or(n.row.and(dv.citation.as_deref()));
        // A step with nothing new under it is still said when no step above cites the clause
        // that decided it (see [`super::brevity::new_citations`]).
        let cites_new = self.cited.is_empty() && at.is_some_and(|c| !c.is_empty());
        if depth == 0 || said || cites_new {
            if let Some(c) = at
                && !self.cited.iter().any(|x| **x == *c)
            {
                self.cited.push(c.into());
            }
            // The ruling's own step is the question above: its answer and the clause that decided.
            if depth == 0 {
                let root = super::brevity::root_head(lang, &head[answer_at..], at);
                if !root.is_empty() {
                    wrap_into(out, &root, "  ", 100);
                }
            } else {
                if let Some(c) = at {
                    push_cite(&mut head, c);
                }
                wrap_into(out, &head, "  ", 100);
            }
            out.push_str(&body);
        }
        self.line = head;
        self.shown.entry(key).or_default().push(args);
        let decided = n.decided_by.is_some() || n.row.is_some();
        if depth == 0 && decided {
            for k in from..to {
                let c = self.kids[k] & !HIDDEN;
                self.steps[c] = true;
                if self.kids[k] & HIDDEN != 0 {
                    self.skip(c);
                } else {
                    self.step(out, c, depth + 1);
                }
            }
            self.kids.truncate(from);
            self.not_applied(out, idx, "  ");
            return;
        }
        if depth == 0 || !decided {
            self.not_applied(out, idx, "      ");
        }
        for k in from..to {
            let c = self.kids[k] & !HIDDEN;
            self.steps[c] = true;
            if self.kids[k] & HIDDEN != 0 {
                self.skip(c);
            } else {
                self.step(out, c, depth + 1);
            }
        }
        self.kids.truncate(from);
    }

    /// Node `c`'s line as a step says it, without its arguments: "label: answer".
    fn line_of(&self, c: usize) -> String {
        let (e, n) = (self.e, &self.nodes[c]);
        let mut line = String::from(&*self.views.defs[n.def as usize].label);
        line.push_str(": ");
        match &n.outcome {
            trace::Outcome::Value(v) => match n.working.as_ref().and_then(|wk| e.apportioned(wk)) {
                Some(a) => line.push_str(&a),
                None => show::value_into(&mut line, e.p, v, &e.p.defs[n.def as usize].ty, e.lang),
            },
            trace::Outcome::Undetermined(_) => line.push_str(&e.w().undetermined()),
            trace::Outcome::Silent(_) => line.push_str(e.w().not_decided),
            trace::Outcome::Error(m) => line.push_str(m),
        }
        line
    }

    /// The rules of a step that did not apply (or wait for an input), each with its reason.
    fn not_applied(&mut self, out: &mut String, idx: usize, indent: &str) {
        let e = self.e;
        let n = &self.nodes[idx];
        // Rules for other cases of the same argument give the same reason: said once.
        let mut patterns: Vec<(usize, &Value, String)> = Vec::new();
        let mut reason = Buf::new();
        let mut line = Buf::new();
        let mut said: Vec<String> = Vec::new();
        let mut conditions: Vec<String> = Vec::new();
        // Another rule of the clause that decided is left to the full explanation (the clause
        // applied, by its deciding rule); one that waits for an input is always said.
        for (r, why) in &n.not_applied {
            let Some(c) = self.views.rules[*r as usize].citation.as_deref() else { continue };
            if (self.settled && matches!(why, WhyNot::Unknown(_))) || super::brevity::moot(e.p, n, *r, why) {
                continue;
            }
            // A rule of a clause that decided is said by its condition as it stands, if it can be.
            let held = match why {
                WhyNot::Condition(atoms) if super::brevity::decides(&self.deciding, c) => {
                    match super::brevity::held_words(e, atoms) {
                        Some(h) => Some(h),
                        None => continue,
                    }
                }
                WhyNot::Pattern { .. } if super::brevity::decides(&self.deciding, c) => continue,
                _ => None,
            };
            reason.clear();
            match why {
                _ if held.is_some() => reason.push_str(held.as_deref().unwrap_or_default()),
                WhyNot::Pattern { param, value } => match patterns.iter().find(|(p, v, _)| p == param && *v == value) {
                    Some((_, _, s)) => reason.push_str(s),
                    None => {
                        e.why_not_into(&mut reason, n.def, why);
                        patterns.push((*param, value, reason.to_string()));
                    }
                },
                _ => e.why_not_into(&mut reason, n.def, why),
            }
            if reason.is_empty() {
                continue;
            }
            let (id, mark) = match why {
                _ if held.is_some() => ("condition-held", "✓"),
                WhyNot::Unknown(ns) if ns.iter().all(|x| self.needed.contains(x)) => ("waits-for-needed", "?"),
                WhyNot::Unknown(_) => ("waits-for", "?"),
                _ => ("does-not-apply", "✗"),
            };
            line.clear();
            line.push_str(mark);
            line.push(' ');
            msg_into(&mut line, e.lang, id, &[("clause", Arg::Text(c)), ("reason", Arg::Text(&reason))]);
            // Two rules of one clause that give the same reason are said once.
            if said.contains(&*line) {
                continue;
            }
            wrap_into(out, &line, indent, 100);
            said.push(line.to_string());
            conditions.push(reason.to_string());
        }
        // A fact a condition says as it stands is not said again among the facts used.
        self.held.extend(conditions);
    }
}
