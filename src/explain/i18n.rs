//! The words around a ruling, in Danish and English. Clause texts are never
//! translated here: they are quoted as printed (with the gloss, when asked).

use crate::eval::show::Lang;
use crate::syntax::ast::BinaryOp;

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
    /// The answer when the conditions are silent: `{what}` is the ruling, `{clauses}` the
    /// nearest clauses.
    pub silent: &'static str,
    /// The same, when one clause comes near.
    pub silent_one: &'static str,
    /// The same, when no clause comes near.
    pub silent_alone: &'static str,
    /// A step the conditions do not decide.
    pub not_decided: &'static str,
}

pub static EN: Words = Words {
    lang: Lang::En,
    ruling: "Ruling",
    answer: "Answer",
    why: "Why",
    why_not: "Rules that did not apply",
    needs: "Still needed",
    facts_used: "Facts used",
    clauses: "Clauses cited",
    gloss: "English gloss",
    rule: "rule",
    overrides: "as an exception to",
    also: "and likewise",
    row: "row",
    error: "The conditions cannot rule on this",
    outside: "outside these conditions",
    silent: "the conditions do not decide {what} for these facts; the nearest clauses are {clauses}",
    silent_one: "the conditions do not decide {what} for these facts; the nearest clause is {clauses}",
    silent_alone: "the conditions do not decide {what} for these facts",
    not_decided: "not decided by the conditions",
};

pub static DA: Words = Words {
    lang: Lang::Da,
    ruling: "Afgørelse",
    answer: "Svar",
    why: "Begrundelse",
    why_not: "Regler der ikke fandt anvendelse",
    needs: "Mangler",
    facts_used: "Anvendte oplysninger",
    clauses: "Citerede bestemmelser",
    gloss: "Engelsk oversættelse",
    rule: "regel",
    overrides: "som undtagelse fra",
    also: "og ligeledes",
    row: "række",
    error: "Bestemmelserne kan ikke afgøre dette",
    outside: "uden for disse bestemmelser",
    silent: "bestemmelserne afgør ikke {what} i dette tilfælde; de nærmeste bestemmelser er {clauses}",
    silent_one: "bestemmelserne afgør ikke {what} i dette tilfælde; den nærmeste bestemmelse er {clauses}",
    silent_alone: "bestemmelserne afgør ikke {what} i dette tilfælde",
    not_decided: "ikke afgjort af bestemmelserne",
};

pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Da => &DA,
    }
}

impl Words {
    fn en(&self) -> bool {
        self.lang == Lang::En
    }

    pub fn and(&self) -> &'static str {
        if self.en() { "and" } else { "og" }
    }

    pub fn undetermined(&self) -> &'static str {
        if self.en() { "undetermined" } else { "endnu ikke afgjort" }
    }

    pub fn cannot_rule(&self) -> &'static str {
        if self.en() { "no ruling" } else { "ingen afgørelse" }
    }

    /// The answer of a ruling the conditions do not decide, naming the nearest clauses.
    pub fn silence(&self, what: &str, clauses: &[String]) -> String {
        let what = format!("`{what}`");
        match clauses {
            [] => self.silent_alone.replace("{what}", &what),
            [one] => self.silent_one.replace("{what}", &what).replace("{clauses}", one),
            [first @ .., last] => {
                let list = format!("{} {} {last}", first.join(", "), self.and());
                self.silent.replace("{what}", &what).replace("{clauses}", &list)
            }
        }
    }

    pub fn condition_false(&self) -> &'static str {
        if self.en() { "its condition does not hold" } else { "betingelsen er ikke opfyldt" }
    }

    pub fn decided_by(&self, who: &str) -> String {
        if self.en() { format!("decided by {who}") } else { format!("afgjort af {who}") }
    }

    pub fn under(&self, citation: Option<&str>) -> String {
        match (citation, self.en()) {
            (Some(c), true) => format!(" under {c}"),
            (Some(c), false) => format!(" efter {c}"),
            (None, _) => String::new(),
        }
    }

    pub fn needs_fact(&self, name: &str, doc: Option<&str>, citation: Option<&str>) -> String {
        let doc = doc.map(|d| format!(" ({d})")).unwrap_or_default();
        let at = match (citation, self.en()) {
            (Some(c), true) => format!(", read by {c}"),
            (Some(c), false) => format!(", jf. {c}"),
            (None, _) => String::new(),
        };
        if self.en() {
            format!("needs the fact `{name}`{doc}{at}")
        } else {
            format!("kræver oplysningen `{name}`{doc}{at}")
        }
    }

    pub fn needs_field(&self, record: &str, field: &str) -> String {
        if self.en() { format!("needs `{field}` of the {record}") } else { format!("kræver `{field}` for {record}") }
    }

    pub fn needs_decision(
        &self,
        who: &str,
        citation: Option<&str>,
        doc: Option<&str>,
        candidates: &[String],
    ) -> String {
        let doc = doc.map(|d| format!(": {d}")).unwrap_or_default();
        let among = if candidates.is_empty() {
            String::new()
        } else if self.en() {
            format!(" (choosing between {})", candidates.join(", "))
        } else {
            format!(" (valg mellem {})", candidates.join(", "))
        };
        if self.en() {
            format!("needs a decision by {who}{}{doc}{among}", self.under(citation))
        } else {
            format!("kræver en afgørelse fra {who}{}{doc}{among}", self.under(citation))
        }
    }

    pub fn needs_lot(&self, who: &str, citation: Option<&str>, candidates: &[String], doc: Option<&str>) -> String {
        let doc = doc.map(|d| format!(" ({d})")).unwrap_or_default();
        if self.en() {
            format!("decided by lot{} between {}, drawn by {who}{doc}", self.under(citation), candidates.join(", "))
        } else {
            format!(
                "afgøres ved lodtrækning{} mellem {}, foretaget af {who}{doc}",
                self.under(citation),
                candidates.join(", ")
            )
        }
    }

    pub fn unknown(&self, names: &str) -> String {
        if self.en() { format!("not known yet: needs {names}") } else { format!("endnu ukendt: kræver {names}") }
    }

    pub fn pattern_mismatch(&self, param: &str, value: &str) -> String {
        if self.en() {
            format!("it is for another `{param}` (here: {value})")
        } else {
            format!("den gælder en anden `{param}` (her: {value})")
        }
    }

    pub fn condition(&self, left: &str, value: &str) -> String {
        if self.en() { format!("{left} is {value}") } else { format!("{left} er {value}") }
    }

    fn op_words(&self, op: BinaryOp) -> &'static str {
        match (op, self.en()) {
            (BinaryOp::Lt, true) => "less than",
            (BinaryOp::Le, true) => "at most",
            (BinaryOp::Gt, true) => "more than",
            (BinaryOp::Ge, true) => "at least",
            (BinaryOp::Eq, true) => "equal to",
            (BinaryOp::Ne, true) => "different from",
            (BinaryOp::Lt, false) => "mindre end",
            (BinaryOp::Le, false) => "højst",
            (BinaryOp::Gt, false) => "mere end",
            (BinaryOp::Ge, false) => "mindst",
            (BinaryOp::Eq, false) => "lig med",
            (BinaryOp::Ne, false) => "forskellig fra",
            (_, _) => "?",
        }
    }

    pub fn comparison(&self, left: &str, value: &str, op: BinaryOp, right: &str, holds: bool) -> String {
        let ow = self.op_words(op);
        match (self.en(), holds) {
            (true, true) => format!("{left} is {value}, which is {ow} {right}"),
            (true, false) => format!("{left} is {value}, which is not {ow} {right}"),
            (false, true) => format!("{left} er {value}, hvilket er {ow} {right}"),
            (false, false) => format!("{left} er {value}, hvilket ikke er {ow} {right}"),
        }
    }

    pub fn membership(&self, left: &str, value: &str, range: &str, holds: bool) -> String {
        match (self.en(), holds) {
            (true, true) => format!("{left} is {value}, which is in {range}"),
            (true, false) => format!("{left} is {value}, which is not in {range}"),
            (false, true) => format!("{left} er {value}, hvilket ligger i {range}"),
            (false, false) => format!("{left} er {value}, hvilket ikke ligger i {range}"),
        }
    }
}
