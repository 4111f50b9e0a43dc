//! Explanations: a ruling's outcome and derivation turned into a
//! language-independent report ([`Report`]) that cites and quotes the clauses,
//! then rendered as terminal text, Markdown, JSON or a self-contained HTML page.
//!
//! Clause texts are always quoted verbatim in the rulebook's language; the
//! surrounding words follow `--lang`, and with `--lang en` on a Danish rulebook
//! each quote carries its English gloss.

mod brevity;
pub mod brief;
pub mod html;
pub mod i18n;
pub mod markdown;
pub(crate) mod meter;
mod scratch;
pub mod table;
pub mod text;
pub mod views;
pub mod working;
#[doc(hidden)]
pub mod wrap;

/// Message lookup lives in the bottom layer; its old path here stays for programs that name it.
pub use crate::base::messages;

use crate::check::program::TextKind;
use crate::check::program::{ClauseId, DecisionId, DefId, Program, RuleId};
use crate::eval::trace::{Need, Node, WhyNot};
use crate::eval::{Outcome, Ruling};
use crate::show::{self, Lang};
use crate::source::SourceMap;
use crate::syntax::ast::DecisionKind;
use i18n::Words;
use serde::Serialize;
use std::sync::Arc;

/// A ruling, explained. Serialised as the stable JSON format (docs/json.md).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub rulebook: String,
    pub rulebook_title: String,
    pub lang: &'static str,
    /// The language the rulebook is printed in: that of the quoted clause texts and headings
    /// (glosses are English). Not in the JSON format.
    #[serde(skip)]
    pub rulebook_lang: String,
    pub ruling: String,
    pub question: Option<String>,
    /// `decided`, `undetermined`, `silent` or `error`.
    pub status: &'static str,
    /// The value as a person reads it.
    pub answer: String,
    /// The value as data (exact numbers as strings), when decided; a record's fields in
    /// their declared order.
    pub value: Option<crate::json::Json>,
    pub needs: Vec<NeedView>,
    /// When silent: the nearest clauses, those whose rules were considered, in the rulebook's order.
    pub nearest: Vec<String>,
    pub error: Option<String>,
    /// The deciding path: one step per definition used.
    pub steps: Vec<Step>,
    /// Every clause cited, in the rulebook's order, with its verbatim text.
    pub clauses: Vec<ClauseView>,
    /// The citations of the clauses that decided a step of the ruling (by a rule or a table
    /// row): the brief explanation never says that one of them does not apply. Not in the
    /// JSON format.
    #[serde(skip)]
    pub deciding: Vec<Shared>,
    pub facts: Vec<FactView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NeedView {
    /// `fact`, `field`, `decision` or `lot`.
    pub kind: &'static str,
    pub name: String,
    pub who: Option<String>,
    pub citation: Option<String>,
    pub candidates: Vec<String>,
    /// One sentence for a person.
    pub sentence: String,
}

/// A text of the rulebook's views, shared by every report that names it rather than copied.
pub type Shared = Arc<str>;

#[derive(Clone, Debug, Serialize)]
pub struct RuleRef {
    #[serde(serialize_with = "shared_str")]
    pub label: Shared,
    #[serde(serialize_with = "shared")]
    pub citation: Option<Shared>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub name: String,
    pub args: Vec<String>,
    /// What each argument stands for, when the parameter's declaration says.
    pub arg_labels: Vec<Option<String>>,
    /// How the step is named for a player: its `says` phrase or its description.
    #[serde(serialize_with = "shared_str")]
    pub label: Shared,
    #[serde(serialize_with = "shared")]
    pub description: Option<Shared>,
    pub answer: String,
    #[serde(serialize_with = "shared")]
    pub citation: Option<Shared>,
    pub decided_by: Option<RuleRef>,
    /// Other rules that applied and agreed with the deciding one.
    pub also: Vec<RuleRef>,
    pub row: Option<usize>,
    /// How the value was reached, in words, with the values put in.
    pub working: Vec<String>,
    pub because: Vec<String>,
    /// The working's standings, rankings and apportionments as tables (shown after the
    /// working's sentences).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<table::Table>,
    pub overridden: Vec<RuleRef>,
    pub not_applied: Vec<WhyNotView>,
    pub children: Vec<Step>,
    /// Left out of the brief working, with the steps under it: one of several reads of a
    /// definition for the items of a list, whose values the step above gives. Not in the
    /// JSON format.
    #[serde(skip)]
    pub hidden: bool,
    /// The places, among the working's lines and then the reasons', of the lines the brief
    /// explanation already says above (each line is said once). Not in the JSON format.
    #[serde(skip)]
    pub said_before: Vec<usize>,
    /// Whether the step has working of its own to show (its line is then said as a step, not
    /// again in the working of the step above). Not in the JSON format.
    #[serde(skip)]
    pub worked: bool,
    /// Whether the brief explanation says the step's line although nothing under it is new:
    /// it is the first step with a deciding clause and no step said before cites one
    /// (`brevity::new_citations`), so the chain keeps its deciding clause. Not in the JSON
    /// format.
    #[serde(skip)]
    pub cites_new: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct WhyNotView {
    pub rule: RuleRef,
    /// `pattern` (another case), `condition` (its condition did not hold) or `unknown`
    /// (whether it applies waits for what is still needed; `reason` names it).
    pub kind: &'static str,
    pub reason: String,
    /// Whether the rule could not have changed the step's answer: the step is settled and the
    /// rule was for another case, waits for an input the answer does not turn on, or gives
    /// the answer the step has anyway (a constant). The brief explanation leaves it to
    /// the full one. Not in the JSON format.
    #[serde(skip)]
    pub moot: bool,
    /// Whether the rule waits only for inputs the ruling lists as still needed: the brief
    /// explanation then says so rather than list them again. Not in the JSON format.
    #[serde(skip)]
    pub needed: bool,
    /// For a rule whose condition did not hold: the condition as it stands, in words ("the
    /// team's members of record available to play is 3, which is less than 4"). The brief
    /// explanation says it for a rule of a clause that decided, which never "does not apply".
    /// Not in the JSON format.
    #[serde(skip)]
    pub held: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClauseView {
    pub citation: String,
    pub heading: Option<String>,
    /// The text, shared with the rulebook's views ([`views`]): as printed, an excerpt of it
    /// (fragments joined by "…"), or a paraphrase (`text_kind`).
    #[serde(serialize_with = "shared")]
    pub text: Option<Arc<str>>,
    /// `excerpt` or `paraphrase`; absent for a text as printed.
    #[serde(skip_serializing_if = "TextKind::is_printed")]
    pub text_kind: TextKind,
    #[serde(serialize_with = "shared")]
    pub gloss: Option<Arc<str>>,
    /// The clause as the terminal text cites it (heading line, quote and gloss, wrapped);
    /// empty if not yet worked out. Not in the JSON format.
    #[serde(skip)]
    pub lines: Arc<str>,
}

fn shared<S: serde::Serializer>(v: &Option<Arc<str>>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(t) => s.serialize_some(&**t),
        None => s.serialize_none(),
    }
}

fn shared_str<S: serde::Serializer>(v: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v)
}

#[derive(Clone, Debug, Serialize)]
pub struct FactView {
    pub name: String,
    /// How the brief explanation names it: its short phrase (`says`, else its description's
    /// head, else its path in words; `brevity::fact_label`). Not in the JSON format.
    #[serde(skip)]
    pub label: Shared,
    #[serde(serialize_with = "shared")]
    pub description: Option<Shared>,
    /// The clause that gives the fact's meaning (the one it is declared in).
    #[serde(serialize_with = "shared")]
    pub citation: Option<Shared>,
    pub value: String,
    /// The value as the brief explanation gives it, when shorter (`brevity::brief_value`):
    /// a long list by its count. Not in the JSON format.
    #[serde(skip)]
    pub brief_value: Option<String>,
    /// The line in one sentence, when it reads better than "description: value": a decision
    /// given, said as what its maker found. Not in the JSON format.
    #[serde(skip)]
    pub sentence: Option<String>,
    /// Whether the brief explanation's working already says the line ([`FactView::line`]):
    /// the brief leaves it out of the facts used. Not in the JSON format.
    #[serde(skip)]
    pub in_working: bool,
    /// Whether only rules that could not have changed the answer read it (`brevity::Idle`):
    /// the brief leaves it out of the facts used. Not in the JSON format.
    #[serde(skip)]
    pub idle: bool,
}

pub struct Explainer<'a> {
    pub p: &'a Program,
    pub sources: &'a SourceMap,
    pub lang: Lang,
    pub inputs: &'a crate::eval::interp::Inputs,
}

/// Whether an argument is shown beside its step's label ([`Step::arg_shown`]): not when its
/// parameter says what it stands for (`labelled`), nor when it is longer than a name.
pub(crate) fn arg_shown(labelled: bool, a: &str) -> bool {
    const NAME_CHARS: usize = 30;
    !labelled && !a.contains("; ") && a.chars().count() <= NAME_CHARS
}

impl Step {
    /// The arguments as a player reads them: ` (Team North)`; empty without. An argument whose
    /// parameter says what it stands for is left to the working, which names it.
    pub fn args_shown(&self) -> String {
        let shown: Vec<&str> =
            self.args.iter().enumerate().filter(|(i, a)| self.arg_shown(*i, a)).map(|(_, a)| a.as_str()).collect();
        if shown.is_empty() { String::new() } else { format!(" ({})", shown.join(", ")) }
    }

    /// Whether argument `i` is shown beside the step's label: not when its parameter says
    /// what it stands for (the working names it), nor when it is a list or record longer than
    /// a name (the facts used and the working below show it; beside the label it only repeats).
    pub fn arg_shown(&self, i: usize, a: &str) -> bool {
        arg_shown(self.arg_labels.get(i).is_some_and(Option::is_some), a)
    }

    /// Whether the brief explanation says the step: the ruling's own, one with working or
    /// tables of its own to show, or one whose deciding clause no step above cites.
    pub fn brief_shown(&self, depth: usize) -> bool {
        depth == 0 || self.brief_lines().next().is_some() || !self.tables.is_empty() || self.cites_new
    }

    /// The clause that decided the step: its deciding rule's, or its table's when a row did.
    pub fn deciding_citation(&self) -> Option<&str> {
        self.decided_by.as_ref().and_then(|r| r.citation.as_deref()).or(self.row.and(self.citation.as_deref()))
    }

    /// The step's working and reasons as the brief explanation says them: without a line
    /// that only repeats the step's own line ("label (arguments): answer").
    pub fn brief_lines(&self) -> impl Iterator<Item = &String> {
        self.own_lines().filter(|(i, _)| !self.said_before.contains(i)).map(|(_, l)| l)
    }

    /// The step's working and reasons without a line that only repeats the step's own line,
    /// with their places among the working's and the reasons' lines.
    fn own_lines(&self) -> impl Iterator<Item = (usize, &String)> {
        let head = format!("{}{}: {}", self.label, self.args_shown(), self.answer);
        self.working.iter().chain(&self.because).enumerate().filter(move |(_, l)| **l != head)
    }

    /// The rules that did not apply as the brief explanation says them: those with a clause
    /// and a reason, but not another rule of a clause that decided a step (`deciding`, see
    /// [`Report::deciding`]: the clause applied, by its deciding rule; the others are left to
    /// the full explanation), nor one that could not have changed a settled answer
    /// ([`WhyNotView::moot`]); two alike are said once.
    pub fn brief_not_applied<'s>(&'s self, deciding: &'s [Shared]) -> impl Iterator<Item = &'s WhyNotView> {
        // Two rules of one clause that give the same reason are said once.
        let mut said: Vec<(&str, &str, &str)> = Vec::new();
        self.not_applied.iter().filter(move |n| match n.rule.citation.as_deref() {
            Some(_) if n.moot => false,
            Some(c) => {
                let in_deciding = brevity::decides(deciding, c);
                let shown = !n.reason.is_empty() && (n.kind == "unknown" || !in_deciding || n.held.is_some());
                let reason = if n.needed { "" } else { n.brief_said(deciding).2 };
                let again = said.contains(&(c, n.kind, reason));
                if shown && !again {
                    said.push((c, n.kind, reason));
                }
                shown && !again
            }
            None => false,
        })
    }
}

impl<'a> Explainer<'a> {
    fn w(&self) -> &'static Words {
        i18n::words(self.lang)
    }

    fn cite(&self, c: Option<ClauseId>) -> Option<String> {
        self.p.citation_of(c).map(str::to_string)
    }

    fn rule_ref(&self, v: &views::Views, r: RuleId) -> RuleRef {
        v.rules[r as usize].clone()
    }

    pub fn need(&self, n: &Need) -> NeedView {
        let w = self.w();
        match n {
            Need::Fact(f) => {
                let info = &self.p.facts[*f as usize];
                let citation = self.cite(info.clause);
                NeedView {
                    kind: "fact",
                    name: info.name.clone(),
                    who: None,
                    citation: citation.clone(),
                    candidates: Vec::new(),
                    sentence: w.needs_fact(
                        &info.name.replace('_', " "),
                        info.doc.as_deref().map(|d| self.gloss(d)).as_deref(),
                        citation.as_deref(),
                    ),
                }
            }
            Need::Field { record, field } => NeedView {
                kind: "field",
                name: format!("{record}.{field}"),
                who: None,
                citation: None,
                candidates: Vec::new(),
                sentence: w.needs_field(&self.record_words(record), &self.field_words(record, field)),
            },
            Need::Decision(d) => self.decision_need(*d, &[]),
            Need::Lot { lot, candidates } => self.decision_need(*lot, candidates),
        }
    }

    /// A record a field is missing from, as a person knows it: its name (`Jensen`), or its
    /// facts-file path when it has none (`team.players[2]`).
    fn record_words(&self, record: &str) -> String {
        let at = crate::eval::needed::origin::record_at(self.p, self.inputs, record);
        at.and_then(|r| crate::eval::needed::origin::name_of(self.p, &r)).unwrap_or_else(|| record.to_string())
    }

    /// A field missing from a record, in words: its `says` phrase or description, glossed, else
    /// its name with spaces.
    fn field_words(&self, record: &str, field: &str) -> String {
        use crate::check::program::TypeKind;
        let at = crate::eval::needed::origin::record_at(self.p, self.inputs, record);
        let info = match at {
            Some(crate::base::value::Value::Record(t, _)) => match &self.p.types.get(t as usize).map(|t| &t.kind) {
                Some(TypeKind::Record(fs)) => fs.iter().find(|f| f.name == field),
                _ => None,
            },
            _ => None,
        };
        match info.and_then(|f| f.says.as_deref().or(f.doc.as_deref())) {
            Some(d) => self.gloss(d),
            None => field.replace('_', " "),
        }
    }

    /// What a need is, for a player: its description, else its name.
    fn need_words(&self, n: &Need) -> String {
        let doc = match n {
            Need::Fact(f) => self.p.facts[*f as usize].doc.clone(),
            Need::Decision(d) | Need::Lot { lot: d, .. } => self.p.decisions[*d as usize].doc.clone(),
            Need::Field { .. } => None,
        };
        doc.map(|d| self.gloss(&d)).unwrap_or_else(|| self.need(n).name.replace('_', " "))
    }

    fn decision_need(&self, d: DecisionId, candidates: &[String]) -> NeedView {
        let w = self.w();
        let info = &self.p.decisions[d as usize];
        let citation = self.cite(info.clause);
        let lot = info.kind == DecisionKind::Lot;
        let doc = info.doc.as_deref().map(|d| self.gloss(d));
        NeedView {
            kind: if lot { "lot" } else { "decision" },
            name: info.name.clone(),
            who: Some(info.by.clone()),
            citation: citation.clone(),
            candidates: candidates.to_vec(),
            sentence: if lot {
                w.needs_lot(&self.gloss(&info.by), citation.as_deref(), candidates, doc.as_deref())
            } else {
                w.needs_decision(&self.gloss(&info.by), citation.as_deref(), doc.as_deref(), candidates)
            },
        }
    }

    fn why_not(&self, def: DefId, why: &WhyNot) -> String {
        let mut out = String::new();
        self.why_not_into(&mut out, def, why);
        out
    }

    /// [`Self::why_not`], appended to `out`.
    fn why_not_into(&self, out: &mut String, def: DefId, why: &WhyNot) {
        let w = self.w();
        match why {
            WhyNot::Pattern { param, value } => {
                let info = &self.p.defs[def as usize];
                let pty = info.params.get(*param).map_or(crate::check::types::Type::Error, |(_, t)| t.clone());
                let label =
                    views::get(self.p, self.lang).defs[def as usize].param_labels.get(*param).cloned().flatten();
                out.push_str(&w.pattern_mismatch(label.as_deref(), &show::value(self.p, value, &pty, self.lang)));
            }
            WhyNot::Condition(atoms) => {
                // What the rule required, and what the facts were.
                let mut what = scratch::Buf::new();
                for a in atoms {
                    if let Some(r) = a.work.as_ref().and_then(|wk| self.requirement(wk, !a.holds)) {
                        if !what.is_empty() {
                            what.push(' ');
                            what.push_str(messages::word_ref(self.lang, "and"));
                            what.push(' ');
                        }
                        what.push_str(&r);
                    }
                }
                if what.is_empty() {
                    out.push_str(messages::word_ref(self.lang, "condition-false"));
                } else {
                    messages::msg_into(out, self.lang, "requires", &[("what", messages::Arg::Text(&what))]);
                }
            }
            WhyNot::Unknown(needs) => {
                let names: Vec<String> = needs.iter().map(|n| self.need_words(n)).collect();
                out.push_str(&names.join(&format!(" {} ", w.and())));
            }
        }
    }

    /// One step of the report and the steps under it; `seen` marks the nodes already made steps of.
    fn step(
        &self,
        v: &views::Views,
        nodes: &[Node],
        idx: usize,
        full: bool,
        seen: &mut [bool],
        once: &mut brevity::Once,
    ) -> Step {
        let n = &nodes[idx];
        let info = &self.p.defs[n.def as usize];
        let dv = &v.defs[n.def as usize];
        let answer = match &n.outcome {
            crate::eval::trace::Outcome::Value(v) => n
                .working
                .as_ref()
                .and_then(|w| self.apportioned(w))
                .unwrap_or_else(|| show::value(self.p, v, &info.ty, self.lang)),
            crate::eval::trace::Outcome::Undetermined(_) => self.w().undetermined().to_string(),
            crate::eval::trace::Outcome::Silent(_) => self.w().not_decided.to_string(),
            crate::eval::trace::Outcome::Error(e) => e.clone(),
        };
        // A definition read for more than a few items (one step per match of a round robin, say)
        // is left out of the brief explanation: the working above it gives its values.
        let reads = if full { Default::default() } else { reads_by_def(nodes, &n.children) };
        let many = |c: &usize, most: usize| {
            let def = nodes[*c].def;
            !self.p.defs[def as usize].params.is_empty() && reads.get(&def).is_some_and(|&k| k > most)
        };
        // A sub-result used in several places is explained once, where it first appears. One of
        // a few reads of a definition, or a later read of one read for many items, is kept for
        // the full derivation but left out of the brief working ([`Step::hidden`]).
        meter::charge(n.children.len() as u64 + 1);
        let mut firsts = Vec::new();
        let children = n
            .children
            .iter()
            .filter(|&&c| !seen.get(c).copied().unwrap_or(true) && (full || !many(&c, working::LIST_MAX)))
            .map(|&c| {
                let hidden = !full
                    && (once.idle(c)
                        || many(&c, working::BRIEF_READS_MAX)
                        || brevity::read_again(self.p, nodes, &reads, c, &mut firsts)
                        || !once.admit(self.p, nodes, c));
                (c, hidden)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(c, hidden)| {
                seen[c] = true;
                let mut s = self.step(v, nodes, c, full, seen, once);
                s.hidden = hidden;
                s
            })
            .collect();
        // Rules for other cases of the same argument give the same reason: said once, copied.
        let mut patterns: Vec<(usize, crate::base::value::Value, String)> = Vec::new();
        let mut reason = |why: &WhyNot| match why {
            WhyNot::Pattern { param, value } => {
                if let Some((_, _, s)) = patterns.iter().find(|(p, v, _)| p == param && v == value) {
                    return s.clone();
                }
                let s = self.why_not(n.def, why);
                patterns.push((*param, value.clone(), s.clone()));
                s
            }
            _ => self.why_not(n.def, why),
        };
        // The working and the reasons, in words; the tables they show gathered beside them.
        let ((working, mut because), tables) = table::collect(|| {
            (
                n.working.as_ref().map(|w| self.step_sentences(w)).unwrap_or_default(),
                n.because
                    .iter()
                    .filter(|a| !brevity::implied(n.working.as_deref(), a))
                    .map(|a| self.atom_sentence(a))
                    .filter(|s| !s.is_empty())
                    .collect(),
            )
        });
        brevity::merge_denials(self.lang, &mut because);
        Step {
            name: info.name.clone(),
            args: n.args.iter().zip(&info.params).map(|(a, (_, t))| show::value(self.p, a, t, self.lang)).collect(),
            arg_labels: (0..n.args.len().min(info.params.len()))
                .map(|i| dv.param_labels.get(i).cloned().flatten())
                .collect(),
            label: dv.label.clone(),
            description: dv.description.clone(),
            answer,
            citation: dv.citation.clone(),
            decided_by: n.decided_by.map(|r| self.rule_ref(v, r)),
            also: n.also.iter().map(|&r| self.rule_ref(v, r)).collect(),
            row: n.row,
            working,
            because,
            tables,
            overridden: n.overridden.iter().map(|&r| self.rule_ref(v, r)).collect(),
            not_applied: n
                .not_applied
                .iter()
                .map(|(r, why)| WhyNotView {
                    rule: self.rule_ref(v, *r),
                    kind: match why {
                        WhyNot::Pattern { .. } => "pattern",
                        WhyNot::Condition(_) => "condition",
                        WhyNot::Unknown(_) => "unknown",
                    },
                    reason: reason(why),
                    moot: (once.settled && matches!(why, WhyNot::Unknown(_))) || brevity::moot(self.p, n, *r, why),
                    needed: matches!(why, WhyNot::Unknown(ns) if ns.iter().all(|x| once.needed.contains(x))),
                    held: match why {
                        WhyNot::Condition(atoms) => brevity::held_words(self, atoms),
                        _ => None,
                    },
                })
                .collect(),
            children,
            hidden: false,
            said_before: Vec::new(),
            worked: n.working.is_some() || !n.because.is_empty(),
            cites_new: false,
        }
    }

    /// A decision given, as what was decided: "the Tournament Director answered no to
    /// whether the substitute would appreciably strengthen the team" (message `decision-found`).
    pub(crate) fn decision_found(&self, v: &views::Views, d: u32, value: &crate::base::value::Value) -> String {
        let di = &self.p.decisions[d as usize];
        let answer = match value.as_bool() {
            Some(true) => "yes",
            Some(false) => "no",
            None => "other",
        };
        let shown = show::value(self.p, value, &di.ty, self.lang);
        self.w().decision_found(&self.gloss(&di.by), &v.decisions[d as usize].label, answer, &shown)
    }

    /// The definition the conditions are silent on, in words: its `says` phrase or its
    /// description's head, with its arguments shown as values, each after what it stands for
    /// when its parameter says (e.g. "the length of the match (the round: 3, the division: 2)").
    fn silent_what(&self, s: &crate::eval::interp::Silence) -> String {
        let info = &self.p.defs[s.def as usize];
        let dv = &views::get(self.p, self.lang).defs[s.def as usize];
        if s.args.is_empty() {
            return dv.label.to_string();
        }
        let args: Vec<String> = s
            .args
            .iter()
            .zip(&info.params)
            .enumerate()
            .map(|(i, (a, (_, t)))| {
                let v = show::value(self.p, a, t, self.lang);
                match dv.param_labels.get(i).and_then(Option::as_deref) {
                    Some(l) => format!("{l}: {v}"),
                    None => v,
                }
            })
            .collect();
        format!("{} ({})", dv.label, args.join(", "))
    }

    /// Builds the report of a ruling. `full` keeps repeated sub-steps. An explanation that
    /// would take the ruling over its step budget ([`crate::eval::interp::MAX_STEPS`], the
    /// ruling's own steps included) is refused: the report is then an error saying so.
    pub fn report(&self, ruling: &Ruling, full: bool) -> Report {
        self.report_counted(ruling, full, crate::eval::interp::MAX_STEPS).0
    }

    /// As [`Self::report`] within a step budget of `budget` (at most
    /// [`crate::eval::interp::MAX_STEPS`]), with the work it took in all: the ruling's steps
    /// and those of putting its explanation together.
    pub fn report_counted(&self, ruling: &Ruling, full: bool, budget: u64) -> (Report, u64) {
        let meter = meter::Meter::start(meter::left(ruling.steps, budget));
        let report = self.report_inner(ruling, full);
        let work = ruling.steps.saturating_add(meter.used());
        if ruling.steps > budget || meter::spent() {
            drop(meter);
            return (self.report_inner(&refused(ruling, budget), full), work);
        }
        (report, work)
    }

    fn report_inner(&self, ruling: &Ruling, full: bool) -> Report {
        let info = &self.p.defs[ruling.def as usize];
        let w = self.w();
        let (status, answer, value, needs, error) = match &ruling.outcome {
            Outcome::Decided(v) => (
                "decided",
                show::value(self.p, v, &info.ty, self.lang),
                Some(to_json(self.p, v, &info.ty)),
                Vec::new(),
                None,
            ),
            Outcome::Undetermined(ns) => {
                let needs: Vec<NeedView> = ns.iter().map(|n| self.need(n)).collect();
                ("undetermined", w.undetermined().to_string(), None, needs, None)
            }
            Outcome::Silent(_) => ("silent", String::new(), None, Vec::new(), None),
            Outcome::Error(e) => ("error", w.cannot_rule().to_string(), None, Vec::new(), Some(e.message.clone())),
        };
        let nearest: Vec<ClauseId> = match &ruling.outcome {
            Outcome::Silent(s) => s.nearest(self.p),
            _ => Vec::new(),
        };
        let answer = match &ruling.outcome {
            Outcome::Silent(s) => {
                let names: Vec<String> = nearest.iter().map(|&c| self.p.clause(c).citation.clone()).collect();
                w.silence(&self.silent_what(s), &names)
            }
            _ => answer,
        };
        let views = views::get(self.p, self.lang);
        // What settled nothing is left to the full explanation: its steps, facts and decisions.
        let idle = match &ruling.trace {
            Some(t) if !full => brevity::Idle::new(self.p, &t.nodes),
            Some(t) => brevity::Idle::none(t.nodes.len()),
            None => brevity::Idle::none(0),
        };
        let mut steps = match &ruling.trace {
            Some(t) if !t.nodes.is_empty() => {
                let mut seen = vec![false; t.nodes.len()];
                seen[0] = true;
                let mut once = brevity::Once::new(&t.nodes);
                if let Outcome::Undetermined(ns) = &ruling.outcome {
                    once.needed = ns.clone();
                }
                once.settled = matches!(ruling.outcome, Outcome::Decided(_));
                once.idle = idle.nodes.clone();
                vec![self.step(views, &t.nodes, 0, full, &mut seen, &mut once)]
            }
            _ => Vec::new(),
        };
        // An apportionment is answered beside its items, as its step shows it.
        let apportioned =
            ruling.trace.as_ref().and_then(|t| t.nodes.first()?.working.as_ref()).and_then(|w| self.apportioned(w));
        let answer = match (status, apportioned) {
            ("decided", Some(a)) => a,
            _ => answer,
        };
        let mut cited: Vec<ClauseId> = Vec::new();
        let mut facts: Vec<crate::eval::trace::FactUse> = Vec::new();
        let mut decisions: Vec<u32> = Vec::new();
        // The facts read and the decisions given that the brief lists: not those that settled
        // nothing (`brevity::Idle`).
        let mut counted = Vec::new();
        let mut counted_decisions: Vec<u32> = Vec::new();
        if let Some(t) = &ruling.trace {
            for (i, n) in t.nodes.iter().enumerate() {
                // A definition's clause is cited only in full: the brief cites what decided (and
                // nothing for a step that settled nothing).
                if full || (n.decided_by.is_none() && !idle.nodes[i]) {
                    cited.extend(self.p.defs[n.def as usize].clause);
                }
                if !idle.nodes[i] {
                    cited.extend(n.decided_by.and_then(|r| self.p.rules[r as usize].clause));
                    cited.extend(n.overridden.iter().filter_map(|&r| self.p.rules[r as usize].clause));
                    cited.extend(n.also.iter().filter_map(|&r| self.p.rules[r as usize].clause));
                }
                if full {
                    cited.extend(n.not_applied.iter().filter_map(|(r, _)| self.p.rules[*r as usize].clause));
                }
                for u in &n.facts {
                    if !facts.iter().any(|x| x.read == u.read) {
                        facts.push(u.clone());
                    }
                    if idle.fact(i, u.fact) {
                        counted.push(u.read);
                    }
                }
                decisions.extend(&n.decisions);
                counted_decisions.extend(n.decisions.iter().filter(|&&d| idle.decision(i, d)));
            }
        }
        if full || ruling.trace.as_ref().is_none_or(|t| t.nodes.is_empty()) {
            cited.extend(info.clause);
        }
        // The clauses that give the meaning of the facts and decisions the ruling turned on.
        cited.extend(
            facts.iter().filter(|u| counted.contains(&u.read)).filter_map(|u| self.p.facts[u.fact as usize].clause),
        );
        cited.extend(
            decisions
                .iter()
                .filter(|d| counted_decisions.contains(d))
                .filter_map(|&d| self.inputs.decisions[d as usize].as_ref().and(self.p.decisions[d as usize].clause)),
        );
        cited.extend(&nearest);
        for n in needs.iter() {
            if let Some(c) = &n.citation
                && let Some(&id) = self.p.citations.get(c)
            {
                cited.push(id);
            }
        }
        cited.sort();
        cited.dedup();
        facts.sort_by(|a, b| (a.fact, a.path(self.p)).cmp(&(b.fact, b.path(self.p))));
        decisions.sort();
        decisions.dedup();
        let mut fact_views: Vec<FactView> = facts
            .iter()
            .map(|u| {
                let fi = &self.p.facts[u.fact as usize];
                let fv = &views.facts[u.fact as usize];
                let path = u.path(self.p);
                let description = if *path == *fi.name {
                    fv.description.clone()
                } else {
                    views.read(u.read).and_then(|f| f.description.clone())
                };
                let value = show::value(self.p, &u.value, u.ty(self.p), self.lang);
                FactView {
                    name: path.to_string(),
                    label: brevity::fact_label(views, fi, u, path).into(),
                    description,
                    citation: fv.citation.clone(),
                    brief_value: brevity::brief_value(self.lang, &u.value, &value),
                    value,
                    sentence: None,
                    in_working: false,
                    idle: !counted.contains(&u.read),
                }
            })
            .collect();
        fact_views.extend(decisions.iter().filter_map(|&d| {
            let di = &self.p.decisions[d as usize];
            let v = self.inputs.decisions[d as usize].as_ref()?;
            let description: Shared = w.decided_by(&self.gloss(&di.by)).into();
            Some(FactView {
                name: di.name.clone(),
                label: description.clone(),
                description: Some(description),
                citation: self.cite(di.clause).map(Shared::from),
                value: show::value(self.p, v, &di.ty, self.lang),
                brief_value: None,
                sentence: Some(self.decision_found(views, d, v)),
                in_working: false,
                idle: !counted_decisions.contains(&d),
            })
        }));
        if !full {
            brevity::said_once(&mut steps);
            brevity::new_citations(&mut steps);
            let deciding = ruling.trace.as_ref().map(|t| deciding(views, &t.nodes)).unwrap_or_default();
            brevity::facts_in_working(&steps, &mut fact_views, &deciding);
        }
        Report {
            rulebook: self.p.rulebook.name.clone(),
            rulebook_title: self.p.rulebook.title.clone(),
            lang: self.lang.code(),
            rulebook_lang: self.p.rulebook.language.clone(),
            ruling: info.name.clone(),
            question: views.defs[ruling.def as usize].description.as_deref().map(str::to_string),
            status,
            answer,
            value,
            needs,
            nearest: nearest.iter().map(|&c| self.p.clause(c).citation.clone()).collect(),
            error,
            steps,
            clauses: { cited.iter().filter_map(|&c| views.clauses.get(c as usize).cloned()).collect() },
            facts: fact_views,
            deciding: ruling.trace.as_ref().map(|t| deciding(views, &t.nodes)).unwrap_or_default(),
        }
    }
}

/// The citations of the clauses that decided a node of a trace, by a rule or a table row,
/// each once.
pub(crate) fn deciding(views: &views::Views, nodes: &[Node]) -> Vec<Shared> {
    let mut out: Vec<Shared> = Vec::new();
    for n in nodes {
        let c = match n.decided_by {
            Some(r) => views.rules[r as usize].citation.as_ref(),
            None => n.row.and(views.defs[n.def as usize].citation.as_ref()),
        };
        if let Some(c) = c
            && !out.contains(c)
        {
            out.push(c.clone());
        }
    }
    out
}

/// How many of `children` read each definition.
pub(crate) fn reads_by_def(nodes: &[Node], children: &[usize]) -> std::collections::HashMap<DefId, usize> {
    let mut reads = std::collections::HashMap::new();
    for &c in children {
        *reads.entry(nodes[c].def).or_insert(0) += 1;
    }
    reads
}

/// A ruling whose explanation was refused for going over `budget`: an error, without a trace.
fn refused(ruling: &Ruling, budget: u64) -> Ruling {
    let error = crate::eval::interp::EvalError {
        message: meter::refused(budget.min(crate::eval::interp::MAX_STEPS)),
        span: None,
    };
    Ruling { def: ruling.def, outcome: Outcome::Error(error), trace: None, steps: ruling.steps }
}

/// The field a path ends in (`player.masterpoints`), from the type of its fact.
pub(crate) fn field_info<'p>(
    p: &'p Program,
    ty: &crate::check::types::Type,
    path: &str,
) -> Option<&'p crate::check::program::FieldInfo> {
    use crate::check::program::TypeKind;
    use crate::check::types::Type;
    let mut ty = ty.clone();
    let mut found = None;
    // The path begins with the fact's own name, which may be qualified (`s304.rejsehold`):
    // the fields are what follows the fact's record type.
    let depth = field_depth(p, &ty, path);
    for part in path.split('.').skip(path.split('.').count() - depth) {
        let Type::Record(t) = ty else { return None };
        let TypeKind::Record(fs) = &p.types[t as usize].kind else { return None };
        let f = fs.iter().find(|f| f.name == part)?;
        ty = f.ty.clone();
        found = Some(f);
    }
    found
}

/// How many of a path's last segments name fields, read back from the fact's type: as many
/// as the record types nest and the names match.
fn field_depth(p: &Program, ty: &crate::check::types::Type, path: &str) -> usize {
    use crate::check::program::TypeKind;
    use crate::check::types::Type;
    let parts: Vec<&str> = path.split('.').collect();
    // Try each split point, the fact's name being the head: the first that reads as fields wins.
    for head in 1..parts.len() {
        let mut t = ty.clone();
        let ok = parts[head..].iter().all(|part| {
            let Type::Record(id) = t else { return false };
            let TypeKind::Record(fs) = &p.types[id as usize].kind else { return false };
            match fs.iter().find(|f| f.name == *part) {
                Some(f) => {
                    t = f.ty.clone();
                    true
                }
                None => false,
            }
        });
        if ok {
            return parts.len() - head;
        }
    }
    0
}

/// A value as JSON data: exact numbers as strings (`"40/3"`, `"3.75"`), enums by name, a
/// record's fields in their declared order.
pub fn to_json(p: &Program, v: &crate::base::value::Value, ty: &crate::check::types::Type) -> crate::json::Json {
    use crate::base::value::Value;
    use crate::check::program::TypeKind;
    use crate::check::types::Type;
    use crate::json::Json;
    match (v, ty) {
        (Value::Bool(b), _) => Json::Bool(*b),
        (Value::Num(n), Type::Quantity(u)) if u.is_time() => Json::String(format!("{} minutes", n)),
        (Value::Num(n), _) => Json::String(n.to_string()),
        (Value::Text(t), _) => Json::String(t.to_string()),
        (Value::Date(d), _) => Json::String(d.to_string()),
        (Value::Time(t), _) => Json::String(t.to_string()),
        (Value::DateTime(t), _) => Json::String(t.to_string()),
        (Value::Enum(t, i), _) => match &p.types[*t as usize].kind {
            TypeKind::Enum(vs) => Json::String(vs.get(*i as usize).map_or_else(String::new, |v| v.name.clone())),
            _ => Json::Null,
        },
        (Value::List(xs), Type::List(elem)) => Json::Array(xs.iter().map(|x| to_json(p, x, elem)).collect()),
        (Value::List(xs), _) => Json::Array(xs.iter().map(|x| to_json(p, x, &Type::Error)).collect()),
        (Value::Record(t, fields), _) => match &p.types[*t as usize].kind {
            TypeKind::Record(fs) => Json::Object(
                fs.iter()
                    .zip(fields.iter())
                    .filter_map(|(f, v)| v.as_ref().map(|v| (f.name.clone(), to_json(p, v, &f.ty))))
                    .collect(),
            ),
            _ => Json::Null,
        },
    }
}
