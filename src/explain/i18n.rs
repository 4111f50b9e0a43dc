//! The words around a ruling (headings, the sentences of what is still needed, the
//! answer when the conditions are silent), read from the per-language Fluent files in
//! `messages/` like every other frame word. Clause texts are never translated here:
//! they are quoted as printed (with the gloss, when asked).

use crate::base::lang::PerLang;
use crate::base::messages::{Arg, msg_flagged, word};
use crate::show::Lang;

/// The headings and short words of an explanation in one language, read once from its
/// message file.
pub struct Words {
    pub lang: Lang,
    pub ruling: &'static str,
    pub answer: &'static str,
    pub why: &'static str,
    pub why_not: &'static str,
    pub needs: &'static str,
    pub facts_used: &'static str,
    pub clauses: &'static str,
    pub gloss: &'static str,
    pub rule: &'static str,
    pub overrides: &'static str,
    pub also: &'static str,
    pub row: &'static str,
    pub error: &'static str,
    pub outside: &'static str,
    /// A step the conditions do not decide.
    pub not_decided: &'static str,
}

fn read(lang: Lang) -> Words {
    // Read once per language and kept for the program's life.
    let w = |id: &str| -> &'static str { Box::leak(word(lang, id).into_boxed_str()) };
    Words {
        lang,
        ruling: w("ruling"),
        answer: w("answer"),
        why: w("why"),
        why_not: w("why-not"),
        needs: w("needs"),
        facts_used: w("facts-used"),
        clauses: w("clauses"),
        gloss: w("gloss"),
        rule: w("rule"),
        overrides: w("overrides"),
        also: w("also"),
        row: w("row"),
        error: w("error"),
        outside: w("outside"),
        not_decided: w("not-decided"),
    }
}

pub fn words(lang: Lang) -> &'static Words {
    static WORDS: PerLang<Words> = PerLang::new();
    WORDS.get(lang, || read(lang))
}

impl Words {
    fn m(&self, id: &str, args: &[(&str, Arg)]) -> String {
        // Each optional part is given with a `has-…` flag the message selects on.
        msg_flagged(self.lang, id, args)
    }

    fn t(&self, s: Option<&str>) -> String {
        s.unwrap_or_default().to_string()
    }

    pub fn and(&self) -> String {
        word(self.lang, "and")
    }

    pub fn undetermined(&self) -> String {
        word(self.lang, "undetermined")
    }

    pub fn cannot_rule(&self) -> String {
        word(self.lang, "no-ruling")
    }

    /// The answer of a ruling the conditions do not decide, naming the nearest clauses.
    pub fn silence(&self, what: &str, clauses: &[String]) -> String {
        let list = match clauses {
            [] => String::new(),
            [one] => one.clone(),
            [first @ .., last] => format!("{} {} {last}", first.join(", "), self.and()),
        };
        self.m(
            "silent",
            &[("what", Arg::Text(what)), ("clauses", Arg::Text(&list)), ("n", Arg::Num(clauses.len() as i64))],
        )
    }

    pub fn condition_false(&self) -> String {
        word(self.lang, "condition-false")
    }

    pub fn decided_by(&self, who: &str) -> String {
        self.m("decided-by", &[("who", Arg::Text(who))])
    }

    /// A decision given, as what was decided: `answer` is `yes`, `no` or `other` (a value
    /// that is not yes or no, shown as `value`).
    pub fn decision_found(&self, who: &str, what: &str, answer: &str, value: &str) -> String {
        self.m(
            "decision-found",
            &[
                ("who", Arg::Text(who)),
                ("what", Arg::Text(what)),
                ("answer", Arg::Text(answer)),
                ("value", Arg::Text(value)),
            ],
        )
    }

    pub fn needs_fact(&self, name: &str, doc: Option<&str>, citation: Option<&str>) -> String {
        self.m(
            "needs-fact",
            &[("name", Arg::Text(name)), ("doc", Arg::Text(&self.t(doc))), ("citation", Arg::Text(&self.t(citation)))],
        )
    }

    pub fn needs_field(&self, record: &str, field: &str) -> String {
        self.m("needs-field", &[("record", Arg::Text(record)), ("field", Arg::Text(field))])
    }

    pub fn needs_decision(
        &self,
        who: &str,
        citation: Option<&str>,
        doc: Option<&str>,
        candidates: &[String],
    ) -> String {
        self.m(
            "needs-decision",
            &[
                ("who", Arg::Text(who)),
                ("citation", Arg::Text(&self.t(citation))),
                ("doc", Arg::Text(&self.t(doc))),
                ("among", Arg::Text(&candidates.join(", "))),
            ],
        )
    }

    pub fn needs_lot(&self, who: &str, citation: Option<&str>, candidates: &[String], doc: Option<&str>) -> String {
        self.m(
            "needs-lot",
            &[
                ("who", Arg::Text(who)),
                ("citation", Arg::Text(&self.t(citation))),
                ("doc", Arg::Text(&self.t(doc))),
                ("among", Arg::Text(&candidates.join(", "))),
            ],
        )
    }

    /// Why a rule for other values of an argument did not apply: the argument by what its
    /// parameter stands for (`param`, when it says) and its value here; never its name.
    pub fn pattern_mismatch(&self, param: Option<&str>, value: &str) -> String {
        match param {
            Some(param) => self.m("pattern-mismatch", &[("param", Arg::Text(param)), ("value", Arg::Text(value))]),
            None => self.m("pattern-mismatch-unnamed", &[("value", Arg::Text(value))]),
        }
    }
}
