//! What the brief explanation leaves to the full one: a later read of a definition read for
//! many items (`Once`), a rule that could not have changed a settled answer (`moot`), and a
//! fact the working already says (`facts_in_working`). The report's builder
//! ([`super::Explainer::report`]) and the brief text straight from the trace
//! ([`super::brief`]) decide alike by these.

use super::views::Views;
use super::{FactView, Step, WhyNotView, meter, working};
use crate::check::program::{DefId, FactInfo, Program, RuleId};
use crate::eval::trace::{Atom, FactUse, Node, WhyNot, Work, WorkKind};

/// Marks the facts that the brief working of `steps` already says ([`FactView::in_working`]).
pub(crate) fn facts_in_working(steps: &[Step], fact_views: &mut [FactView], deciding: &[super::Shared]) {
    // A fact the brief working already says, line for line, is said once.
    // (The steps as the brief shows them: a step repeated is shown once, without the
    // steps under it.)
    type Seen<'s> = Vec<(&'s str, &'s [String])>;
    fn lines<'s>(
        s: &'s Step,
        said: &mut std::collections::HashSet<&'s str>,
        seen: &mut Seen<'s>,
        deciding: &'s [super::Shared],
        top: bool,
    ) {
        if s.hidden || seen.contains(&(s.name.as_str(), s.args.as_slice())) {
            return;
        }
        seen.push((s.name.as_str(), s.args.as_slice()));
        said.extend(s.brief_lines().map(String::as_str));
        // The reasons of the rules that did not apply, and the conditions of the deciding
        // clause said as they stand ([`WhyNotView::brief_said`]), where they are said: under the
        // ruling and under undecided steps. A fact they say with its value is not said again.
        if top || (s.decided_by.is_none() && s.row.is_none()) {
            said.extend(s.brief_not_applied(deciding).map(|n| n.brief_said(deciding).2));
        }
        s.children.iter().for_each(|c| lines(c, said, seen, deciding, false));
    }
    let mut said = std::collections::HashSet::new();
    let mut seen = Vec::new();
    steps.iter().for_each(|s| lines(s, &mut said, &mut seen, deciding, true));
    for f in fact_views.iter_mut() {
        f.in_working = said.contains(f.line().as_str())
            || (f.sentence.is_none() && says_fact(said.iter().copied(), &f.label, &f.value));
    }
}

/// How the brief explanation names the fact read `u` (at `path`) among the facts used: by its
/// short phrase, as the working names it (`says`, else the head of its description); the
/// whole description is the full explanation's. A field with neither is named by its path.
pub(crate) fn fact_label(views: &Views, fi: &FactInfo, u: &FactUse, path: &str) -> String {
    // A head cut inside a parenthesis ("… (season 2008/09: …") is not a phrase: the whole
    // description is said instead.
    let whole = |label: &str, description: Option<&str>| match description {
        Some(d) if label.matches('(').count() != label.matches(')').count() => d.to_string(),
        _ => label.to_string(),
    };
    if *path == *fi.name {
        let f = &views.facts[u.fact as usize];
        return whole(&f.label, f.description.as_deref());
    }
    match views.read(u.read) {
        Some(f) if f.says.is_some() || f.description.is_some() => whole(&f.label, f.description.as_deref()),
        _ => path.replace('_', " "),
    }
}

/// Marks the lines of the brief working that a step above already says
/// ([`Step::said_before`]): in the order the brief shows its steps, each line is said once;
/// and a line that a step below says as its own, with its working.
pub(crate) fn said_once(steps: &mut [Step]) {
    fn walk(s: &mut Step, said: &mut std::collections::HashSet<String>, seen: &mut Vec<(String, Vec<String>)>) {
        let key = (s.name.clone(), s.args.clone());
        if s.hidden || seen.contains(&key) {
            return;
        }
        seen.push(key);
        // A line that only says what a step below says with its working ("label: answer") is
        // left to that step.
        let below: Vec<String> =
            s.children.iter().filter(|c| !c.hidden && c.worked).map(|c| format!("{}: {}", c.label, c.answer)).collect();
        let again: Vec<usize> = s
            .own_lines()
            .filter(|(_, l)| below.iter().any(|b| b == *l) || !said.insert(l.to_string()))
            .map(|(i, _)| i)
            .collect();
        s.said_before = again;
        s.children.iter_mut().for_each(|c| walk(c, said, seen));
    }
    let mut said = std::collections::HashSet::new();
    let mut seen = Vec::new();
    steps.iter_mut().for_each(|s| walk(s, &mut said, &mut seen));
}

/// A fact's value as the brief's facts used give it, when not as the full explanation does:
/// a list longer than the working shows ([`working::LIST_MAX`]) by its count, and so a list
/// of records read field by field (`shown`, as the full explanation gives it) that would take
/// more than [`RECORDS_WORDS`] words: the working shows the fields that decided.
pub(crate) fn brief_value(lang: crate::show::Lang, v: &crate::base::value::Value, shown: &str) -> Option<String> {
    let long = |xs: &[crate::base::value::Value]| {
        xs.len() > working::LIST_MAX
            || (xs.len() > 1 && shown.contains("; ") && shown.split_whitespace().count() > RECORDS_WORDS)
    };
    match v {
        crate::base::value::Value::List(xs) if long(xs) => Some(super::messages::msg(
            lang,
            "list-entries",
            &[("n", super::messages::Arg::Num(i64::try_from(xs.len()).unwrap_or(i64::MAX)))],
        )),
        _ => None,
    }
}

/// Most words of a list of records that the brief's facts used give field by field.
const RECORDS_WORDS: usize = 20;

/// Most words of an answer that the ruling's own step says again beside its deciding clause:
/// a longer one (a list of places, say) stands once, after "Answer".
const ROOT_ANSWER_WORDS: usize = 8;

/// Whether the ruling's own step says its answer again: only a short one.
pub(crate) fn root_answer(answer: &str) -> bool {
    answer.split_whitespace().count() <= ROOT_ANSWER_WORDS
}

/// The line of the ruling's own step in the brief text: the question is the title above, so
/// its answer (when short) and the clause that decided; empty when neither is to be said.
pub(crate) fn root_head(lang: crate::show::Lang, answer: &str, cite: Option<&str>) -> String {
    let mut out = String::new();
    if root_answer(answer) {
        out.push_str(answer);
    } else if cite.is_some() {
        // A clause alone on the line reads as a stray reference: it cites the answer above.
        out.push_str(&super::messages::word(lang, "answer-above"));
    }
    if let Some(c) = cite {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push('[');
        out.push_str(c);
        out.push(']');
    }
    out
}

/// Whether one of the working's lines `said` says a fact: names it by `label` and gives its
/// `value` after ("the team's final place … is 9, which is from 3 to 9"), or gives its value
/// named by it, as a sum does ("+ DKK 600 (bridge and ferry)").
pub(crate) fn says_fact<'s>(mut said: impl Iterator<Item = &'s str>, label: &str, value: &str) -> bool {
    if label.is_empty() || value.is_empty() {
        return false;
    }
    let named = format!("{value} ({label})");
    said.any(|l| l.find(label).is_some_and(|i| l[i + label.len()..].contains(value)) || l.contains(&named))
}

/// Whether rule `r` of node `n`, which did not apply for `why`, could not have changed the
/// node's answer: the node has a value (whatever is still missing, it is settled) and the
/// rule was for another case of the arguments, waits for an input, would have given that
/// same value (a constant), or is not an exception to the rule that decided (only an
/// exception that applies wins over it; any other rule could at most have disagreed).
pub(crate) fn moot(p: &Program, n: &Node, r: RuleId, why: &WhyNot) -> bool {
    let crate::eval::trace::Outcome::Value(v) = &n.outcome else { return false };
    match why {
        WhyNot::Pattern { .. } | WhyNot::Unknown(_) => true,
        WhyNot::Condition(_) => {
            matches!(&p.rules[r as usize].value.kind, crate::check::program::IrKind::Const(c) if c == v)
                || n.decided_by.is_some_and(|d| !overrides(p, r, d))
        }
    }
}

/// Whether rule `r` is an exception to rule `d`, directly or through other exceptions.
fn overrides(p: &Program, r: RuleId, d: RuleId) -> bool {
    let mut todo = vec![r];
    let mut seen = Vec::new();
    while let Some(x) = todo.pop() {
        if seen.contains(&x) {
            continue;
        }
        seen.push(x);
        let over = &p.rules[x as usize].overrides;
        if over.contains(&d) {
            return true;
        }
        todo.extend(over.iter().copied());
    }
    false
}

/// What settled nothing in a trace: a step read only by rules that could not have changed a
/// settled answer (an exception that did not apply, another rule that did not), with the
/// steps under it, and the facts and decisions only those rules read. The brief explanation
/// leaves them to the full one: whatever their values, the answer would be the same.
pub(crate) struct Idle {
    /// Whether each node is reached only through reads that settled nothing.
    pub(crate) nodes: Vec<bool>,
    /// For each node with a deciding rule, what the rules that count read: the deciding rule,
    /// those that agreed or were overridden, and those the brief says did not apply.
    reads: Vec<Option<Reads>>,
}

/// What a node's rules that count read, by the program's text of them.
#[derive(Default)]
struct Reads {
    defs: Vec<DefId>,
    facts: Vec<crate::check::program::FactId>,
    decisions: Vec<crate::check::program::DecisionId>,
}

impl Idle {
    /// Nothing idle: the full explanation's, or a trace's without a step.
    pub(crate) fn none(n: usize) -> Idle {
        Idle { nodes: vec![false; n], reads: (0..n).map(|_| None).collect() }
    }

    pub(crate) fn new(p: &Program, nodes: &[Node]) -> Idle {
        use crate::check::program::IrKind;
        let reads: Vec<Option<Reads>> = nodes
            .iter()
            .map(|n| {
                let d = n.decided_by?;
                if !matches!(n.outcome, crate::eval::trace::Outcome::Value(_)) {
                    return None;
                }
                let mut out = Reads::default();
                let rules = std::iter::once(d)
                    .chain(n.overridden.iter().copied())
                    .chain(n.also.iter().copied())
                    .chain(n.not_applied.iter().filter(|(r, why)| !moot(p, n, *r, why)).map(|(r, _)| *r));
                for r in rules {
                    let rule = &p.rules[r as usize];
                    for ir in rule.guard.iter().chain(std::iter::once(&rule.value)) {
                        ir.visit(&mut |x| match &x.kind {
                            IrKind::Call(def, _) => out.defs.push(*def),
                            IrKind::Fact(f) => out.facts.push(*f),
                            IrKind::Decision(dc) | IrKind::Draw(dc, ..) => out.decisions.push(*dc),
                            _ => {}
                        });
                    }
                }
                meter::charge(out.defs.len() as u64 + 1);
                Some(out)
            })
            .collect();
        // The nodes reached from the ruling's through reads that count.
        let mut reached = vec![false; nodes.len()];
        let mut todo = Vec::new();
        if !nodes.is_empty() {
            reached[0] = true;
            todo.push(0);
        }
        while let Some(i) = todo.pop() {
            meter::charge(nodes[i].children.len() as u64 + 1);
            for &c in &nodes[i].children {
                let counts = reads[i].as_ref().is_none_or(|r| nodes.get(c).is_some_and(|x| r.defs.contains(&x.def)));
                if counts && c < reached.len() && !reached[c] {
                    reached[c] = true;
                    todo.push(c);
                }
            }
        }
        Idle { nodes: reached.iter().map(|r| !r).collect(), reads }
    }

    /// Whether the brief lists fact `f` as read by node `n`: the node counts, and one of its
    /// rules that count reads it.
    pub(crate) fn fact(&self, n: usize, f: crate::check::program::FactId) -> bool {
        !self.nodes[n] && self.reads[n].as_ref().is_none_or(|r| r.facts.contains(&f))
    }

    /// Whether the brief lists decision `d` as read by node `n` (as [`Self::fact`]).
    pub(crate) fn decision(&self, n: usize, d: crate::check::program::DecisionId) -> bool {
        !self.nodes[n] && self.reads[n].as_ref().is_none_or(|r| r.decisions.contains(&d))
    }
}

/// Whether child `c` of a step is a later read of a definition the step reads for several
/// items (a step per player, per town, per pair) with the same kind of answer as one already
/// shown ([`alike`]): the brief shows one worked example of each (the first with working),
/// the step's own working gives the others' values, and the full explanation each one's
/// working. `firsts` holds the examples admitted: the node of each.
pub(crate) fn read_again(
    p: &Program,
    nodes: &[Node],
    reads: &std::collections::HashMap<DefId, usize>,
    c: usize,
    firsts: &mut Vec<usize>,
) -> bool {
    let n = &nodes[c];
    if p.defs[n.def as usize].params.is_empty() || reads.get(&n.def).is_none_or(|&k| k < 2) {
        return false;
    }
    if firsts.iter().any(|&f| alike(&nodes[f], n)) {
        return true;
    }
    if worked(n) {
        firsts.push(c);
    }
    false
}

/// Whether two nodes read the same definition and came to the same kind of answer: the same
/// yes or no (an item that passes and one that fails each get a worked example), else any
/// value (a number or a name per item: one worked example, the step above gives the rest).
fn alike(x: &Node, n: &Node) -> bool {
    use crate::base::value::Value;
    use crate::eval::trace::Outcome;
    x.def == n.def
        && match (&x.outcome, &n.outcome) {
            (Outcome::Value(Value::Bool(a)), Outcome::Value(Value::Bool(b))) => a == b,
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
}

/// Whether a node has working of its own to show.
fn worked(n: &Node) -> bool {
    n.working.is_some() || !n.because.is_empty()
}

/// The reads of a definition that the brief explanation shows: of a definition with
/// parameters read more than `BRIEF_ONCE_OVER` times, by more than one step (a chain of
/// steps per district), one read of each kind of answer ([`alike`]; the first with working);
/// the steps above give the others' values, and the full derivation each one's working.
pub(crate) struct Once {
    /// How many times each definition is read in the trace, and by how many steps.
    reads: std::collections::HashMap<DefId, (usize, usize)>,
    /// The reads already shown of definitions read for many items: one of each answer.
    shown: Vec<usize>,
    /// What the ruling still needs (see [`super::WhyNotView::needed`]).
    pub(crate) needed: Vec<crate::eval::trace::Need>,
    /// Whether the ruling is decided: then no rule waiting for an input could change it.
    pub(crate) settled: bool,
    /// Which nodes settled nothing ([`Idle::nodes`]): left out with the steps under them.
    pub(crate) idle: Vec<bool>,
}

impl Once {
    pub(crate) fn new(nodes: &[Node]) -> Once {
        // How many times each definition is read, and by how many steps: the reads of one
        // step alone are `BRIEF_READS_MAX`'s.
        let mut reads: std::collections::HashMap<DefId, (usize, usize)> = std::collections::HashMap::new();
        let mut defs = Vec::new();
        for n in nodes {
            defs.clear();
            defs.extend(n.children.iter().filter_map(|&c| nodes.get(c)).map(|c| c.def));
            for &d in &defs {
                reads.entry(d).or_default().0 += 1;
            }
            defs.sort_unstable();
            defs.dedup();
            for &d in &defs {
                reads.entry(d).or_default().1 += 1;
            }
            meter::charge(n.children.len() as u64 + 1);
        }
        Once { reads, shown: Vec::new(), needed: Vec::new(), settled: false, idle: Vec::new() }
    }

    /// The same, with the nodes that settled nothing ([`Idle::nodes`]).
    pub(crate) fn with_idle(self, idle: Vec<bool>) -> Once {
        Once { idle, ..self }
    }

    /// Whether node `c` settled nothing ([`Idle`]).
    pub(crate) fn idle(&self, c: usize) -> bool {
        self.idle.get(c).copied().unwrap_or(false)
    }

    /// Whether node `c` becomes a step (noted: a later read of the same definition with the
    /// same answer does not, once one with working is shown).
    pub(crate) fn admit(&mut self, p: &Program, nodes: &[Node], c: usize) -> bool {
        let def = nodes[c].def;
        if p.defs[def as usize].params.is_empty()
            || self.reads.get(&def).is_none_or(|&(k, by)| k <= working::BRIEF_ONCE_OVER || by < 2)
        {
            return true;
        }
        if self.shown.iter().any(|&s| alike(&nodes[s], &nodes[c])) {
            return false;
        }
        if worked(&nodes[c]) {
            self.shown.push(c);
        }
        true
    }
}

impl WhyNotView {
    /// The message and the mark that say the rule in the brief explanation: `does-not-apply`
    /// (✗), `waits-for` (?), or `waits-for-needed` (?) for one that waits only for what the
    /// ruling lists as still needed.
    pub fn brief_message(&self) -> (&'static str, &'static str) {
        match (self.kind, self.needed) {
            ("unknown", true) => ("waits-for-needed", "?"),
            ("unknown", false) => ("waits-for", "?"),
            _ => ("does-not-apply", "✗"),
        }
    }

    /// The message, the mark and the reason that say the rule in the brief explanation: a
    /// rule of a clause that decided (`deciding`) whose condition did not hold is said by its
    /// condition as it stands (`condition-held`, ✓), never as not applying; any other as
    /// [`Self::brief_message`] says.
    pub fn brief_said(&self, deciding: &[super::Shared]) -> (&'static str, &'static str, &str) {
        match &self.held {
            Some(h)
                if self.kind == "condition" && self.rule.citation.as_deref().is_some_and(|c| decides(deciding, c)) =>
            {
                ("condition-held", "✓", h)
            }
            _ => {
                let (id, mark) = self.brief_message();
                (id, mark, &self.reason)
            }
        }
    }
}

impl FactView {
    /// Whether the brief explanation lists the fact among the facts used: neither said by
    /// the working nor read only by what settled nothing.
    pub fn in_brief(&self) -> bool {
        !self.in_working && !self.idle
    }

    /// The fact as a line of the brief's facts used, before its citation: its sentence, else
    /// "label: value".
    pub fn line(&self) -> String {
        match &self.sentence {
            Some(s) => s.clone(),
            None => format!("{}: {}", self.label, self.brief_value.as_deref().unwrap_or(&self.value)),
        }
    }
}

/// Whether the reason `a` only says what the working `w` already says: `x ≠ y` held where
/// the working already compares the same two values, each shown ("120 is not more than
/// 120 1/3", then "120, not 120 1/3").
pub(crate) fn implied(w: Option<&Work>, a: &Atom) -> bool {
    use crate::syntax::ast::BinaryOp::Ne;
    let (Some(w), Some(aw)) = (w, a.work.as_deref()) else { return false };
    let WorkKind::Binary(Ne, x, y) = &aw.kind else { return false };
    if !a.holds {
        return false;
    }
    fn same(p: &Work, q: &Work) -> bool {
        p.value == q.value && std::mem::discriminant(&p.kind) == std::mem::discriminant(&q.kind) && p.ty == q.ty
    }
    fn strict(w: &Work, x: &Work, y: &Work) -> bool {
        match &w.kind {
            WorkKind::Binary(op, p, q) if op.is_comparison() && *op != Ne => {
                (same(p, x) && same(q, y)) || (same(p, y) && same(q, x))
            }
            WorkKind::Binary(_, p, q) | WorkKind::If(p, q) | WorkKind::Let(p, q) => strict(p, x, y) || strict(q, x, y),
            WorkKind::Not(p) => strict(p, x, y),
            _ => false,
        }
    }
    strict(w, x, y)
}

/// Reasons that deny one subject several values, one after another ("the division … is 1st
/// division, not the qualifying event …", "the division … is 1st division, not a qualifying
/// event in a district"), said as one: "… is 1st division, not the qualifying event … or a
/// qualifying event in a district".
pub(crate) fn merge_denials(lang: crate::show::Lang, lines: &mut Vec<String>) {
    use super::messages::{Arg, msg, word};
    let t = msg(lang, "cmp-ne-yes", &[("subject", Arg::Text("\u{1}")), ("right", Arg::Text("\u{2}"))]);
    let (Some(a), Some(b)) = (t.find('\u{1}'), t.find('\u{2}')) else { return };
    if b <= a + 1 {
        return;
    }
    let sep = &t[a + 1..b];
    let or = word(lang, "or");
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for l in lines.drain(..) {
        if let Some(prev) = out.last_mut()
            && *prev != l
            && let Some(i) = prev.find(sep)
            && l.len() > i + sep.len()
            && l.starts_with(&prev[..i + sep.len()])
        {
            let rest = l[i + sep.len()..].to_string();
            prev.push(' ');
            prev.push_str(&or);
            prev.push(' ');
            prev.push_str(&rest);
            continue;
        }
        out.push(l);
    }
    *lines = out;
}

/// A condition that did not hold, as it stands: each of its parts in words, joined by "and"
/// (see [`super::WhyNotView::held`]); `None` when a part has no words, or when every part is
/// another definition's answer (its own step says it, with its working).
pub(crate) fn held_words(e: &super::Explainer, atoms: &[Atom]) -> Option<String> {
    fn a_step(w: &Work) -> bool {
        match &w.kind {
            WorkKind::Def(_) => true,
            WorkKind::Not(x) => a_step(x),
            _ => false,
        }
    }
    let mut out = String::new();
    for a in atoms.iter().filter(|a| !a.work.as_deref().is_some_and(a_step)) {
        let w = e.atom_words(a)?;
        if w.is_empty() {
            return None;
        }
        if !out.is_empty() {
            out.push(' ');
            out.push_str(&super::messages::word(e.lang, "and"));
            out.push(' ');
        }
        out.push_str(&w);
    }
    (!out.is_empty()).then_some(out)
}

/// Marks the step whose line the brief explanation says only for its deciding clause
/// ([`Step::cites_new`]): in the order the brief shows its steps, the first with a deciding
/// clause when no step said before cites one (a ruling no clause decides as a whole, as a
/// conjunction of others, never skips the clause that decided it: "may continue: no
/// [Stage 1 A]" above the qualifiers of Stage 1 I).
pub(crate) fn new_citations(steps: &mut [Step]) {
    fn walk(s: &mut Step, depth: usize, cited: &mut Vec<String>, seen: &mut Vec<(String, Vec<String>)>) {
        let key = (s.name.clone(), s.args.clone());
        if s.hidden || seen.contains(&key) {
            return;
        }
        seen.push(key);
        let at = s.deciding_citation().map(str::to_string);
        if depth > 0
            && !s.brief_shown(depth)
            && let Some(c) = &at
        {
            s.cites_new = cited.is_empty() && !c.is_empty();
        }
        if s.brief_shown(depth)
            && let Some(c) = at
            && !cited.contains(&c)
        {
            cited.push(c);
        }
        for c in &mut s.children {
            walk(c, depth + 1, cited, seen);
        }
    }
    let (mut cited, mut seen) = (Vec::new(), Vec::new());
    steps.iter_mut().for_each(|s| walk(s, 0, &mut cited, &mut seen));
}

/// Whether clause `c` decided a step of the explanation: it is one of the `deciding`
/// clauses, or the clause they are parts of ("§ 304" of "§ 304D", "Stage 1 D" of
/// "Stage 1 D ¶4"): a clause whose part applied never reads as not applying.
pub(crate) fn decides(deciding: &[super::Shared], c: &str) -> bool {
    deciding.iter().any(|d| **d == *c || part_of(d, c))
}

/// Whether citation `d` cites a part of the clause `c` cites: `c` followed by a space and a
/// mark, number or capital ("Stage 1 D ¶4", "Rules of Play 6"; not "Rules of …"), or by a
/// letter after a digit or a digit after a letter (so "§ 304" holds "§ 304D" and "§ 304D1",
/// never "§ 3041").
fn part_of(d: &str, c: &str) -> bool {
    let (Some(rest), Some(last)) = (d.strip_prefix(c), c.chars().last()) else { return false };
    match rest.chars().next() {
        Some(' ') => rest[1..].chars().next().is_some_and(|n| !n.is_lowercase()),
        Some(n) => (last.is_ascii_digit() && n.is_alphabetic()) || (last.is_alphabetic() && n.is_ascii_digit()),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::decides;

    #[test]
    fn a_clause_decides_when_a_part_of_it_did() {
        let deciding: Vec<super::super::Shared> =
            vec!["§ 304D".into(), "Stage 1 D ¶4".into(), "Rules of Play 6".into()];
        for c in ["§ 304D", "§ 304", "Stage 1 D", "Stage 1", "Rules of Play"] {
            assert!(decides(&deciding, c), "{c}");
        }
        for c in ["§ 30", "§ 304D1", "§ 305", "Rules"] {
            assert!(!decides(&deciding, c), "{c}");
        }
        assert!(!decides(&["§ 3041".into()], "§ 304"));
    }
}
