//! Syntax errors that teach: the common mistakes of someone writing conditions for the
//! first time (a bound on a record field, `sort` inside `let` without parentheses, `=` to
//! compare, `&&`, an `if` without `else`, …), recognised from the text around the place
//! where the parser stopped and what it expected there, and said as what is allowed at
//! that place with the nearest valid form as the help line.
//!
//! Only the words of the language and of the text being read are used: a situation that is
//! not recognised keeps the parser's own "expected …" message.

use super::Rule;

/// A mistake recognised: the message, the label under the span, the help line, and where
/// the span ends (it starts where the parser stopped, or at `start` when given).
pub(super) struct Teaching {
    pub message: String,
    pub label: String,
    pub help: String,
    pub start: usize,
    pub end: usize,
}

const DECLARATION_WORDS: [&str; 10] =
    ["fact", "decision", "lot", "def", "ruling", "rule", "table", "type", "clause", "gloss"];

/// The name (letters, digits, `_`) at the start of `s`.
fn word(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The last name before the end of `s` (blanks skipped).
fn last_word(s: &str) -> &str {
    let s = s.trim_end();
    let start = s
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + s[i..].chars().next().map_or(1, char::len_utf8));
    &s[start..]
}

/// The text of the line `at` is on, up to `at`.
fn line_before(text: &str, at: usize) -> &str {
    let before = &text[..at];
    &before[before.rfind('\n').map_or(0, |i| i + 1)..]
}

/// The declaration the place is in: the first word of its line when that line starts one,
/// else of the nearest line above that does.
fn declaration_word(text: &str, at: usize) -> Option<&str> {
    let before = &text[..at];
    before.lines().rev().map(str::trim_start).find_map(|l| {
        let w = word(l);
        DECLARATION_WORDS.contains(&w).then_some(w)
    })
}

/// Whether the innermost `{` still open before `at` opens a record's fields.
fn in_record(text: &str, at: usize) -> bool {
    let mut depth = 0usize;
    for (i, c) in text[..at].char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth == 0 => return text[..i].trim_end().ends_with("record"),
            '{' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// The value of a `let` the place is in (`let name = value…` with no `in` yet): the name and
/// the value written so far.
fn in_let_value(text: &str, at: usize) -> Option<(&str, &str)> {
    let line = line_before(text, at);
    let i = line.rfind("let ")?;
    if i > 0 && line[..i].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let after = &line[i + 4..];
    let (name, value) = after.split_once('=')?;
    let name = name.trim();
    if name.is_empty() || word(name) != name || value.starts_with('=') {
        return None;
    }
    if value.split_whitespace().any(|w| w == "in") {
        return None;
    }
    Some((name, value.trim()))
}

/// How other languages write `else if`.
const ELIF: [&str; 3] = ["elif", "elsif", "elseif"];

const COMPARISONS: [&str; 6] = ["==", "!=", "<=", ">=", "<", ">"];

fn comparison_at(rest: &str) -> Option<&'static str> {
    COMPARISONS.into_iter().find(|c| rest.starts_with(c))
}

/// The mistake at `at`, if it is one of those recognised. `expected` is what the parser
/// would have accepted there.
pub(super) fn teach(text: &str, at: usize, expected: &[Rule]) -> Option<Teaching> {
    let rest = &text[at..];
    let before = &text[..at];
    let next = word(rest);
    let expects = |r: Rule| expected.contains(&r);
    let t = |message: String, label: &str, help: String, len: usize| Teaching {
        message,
        label: label.to_string(),
        help,
        start: at,
        end: at + len,
    };

    // A bound on a record field, or after the description of a fact.
    if next == "in" && !expects(Rule::cmp_op) {
        let bound_len = rest.find(['"', ',', '}', '\n']).unwrap_or(rest.len());
        let bound = rest[..bound_len].trim_end();
        if in_record(text, at) {
            return Some(t(
                "bounds are not allowed on a record field".into(),
                "a bound on a field",
                format!(
                    "remove `{bound}`: only the type of a `fact` or `decision` may be bounded \
                     (`fact rounds: int in 1..`); a field's values can be checked by a rule instead"
                ),
                bound.len(),
            ));
        }
        if matches!(declaration_word(text, at), Some("fact" | "decision" | "lot")) && before.trim_end().ends_with('"') {
            return Some(t(
                "the bound comes before the description".into(),
                "a bound after the description",
                format!("write `{bound}` right after the type: `fact rounds: int {bound} \"…\"`"),
                bound.len(),
            ));
        }
    }

    // The description of a decision written before who decides.
    if matches!(declaration_word(text, at), Some("decision" | "lot"))
        && rest.starts_with('"')
        && line_before(text, at).contains(':')
        && !line_before(text, at).contains(" by ")
    {
        let kind = declaration_word(text, at).unwrap_or("decision");
        return Some(t(
            format!("a {kind} says who decides before its description"),
            "`by` is expected here",
            format!(
                "write `by \"…\"` right after the type, then the description: \
                 `{kind} approves: bool by \"the Tournament Director\" \"whether the director approves\"`"
            ),
            1,
        ));
    }

    // Inside the value of a `let`: only arithmetic, unless in parentheses.
    if let Some((name, value)) = in_let_value(text, at) {
        let first = word(value);
        if matches!(first, "sort" | "rank") && value == first {
            return Some(Teaching {
                message: format!("`{first}` inside `let` needs parentheses"),
                label: format!("`{first}` here is taken as a name"),
                help: format!(
                    "write `let {name} = ({first} x in … by …) in …`: the value of a `let` is arithmetic unless it is in parentheses"
                ),
                start: before.trim_end().len() - first.len(),
                end: at,
            });
        }
        if value.is_empty() && matches!(next, "if" | "not" | "let") {
            return Some(t(
                format!("`{next}` inside the value of `let` needs parentheses"),
                "not allowed here without parentheses",
                format!(
                    "write `let {name} = ({next} …) in …`: the value of a `let` is arithmetic unless it is in parentheses"
                ),
                next.len(),
            ));
        }
        let op =
            comparison_at(rest).or(matches!(next, "and" | "or").then_some(if next == "and" { "and" } else { "or" }));
        if let Some(op) = op
            && expects(Rule::kw_in)
        {
            let tail = &rest[op.len()..];
            let upto = tail.find(" in ").map_or("…", |i| tail[..i].trim());
            let what = if comparison_at(rest).is_some() { "a comparison" } else { "a condition" };
            return Some(t(
                format!("{what} inside the value of `let` needs parentheses"),
                "not allowed here without parentheses",
                format!(
                    "write `let {name} = ({value} {op} {upto}) in …`: the value of a `let` is arithmetic unless it is in parentheses"
                ),
                op.len(),
            ));
        }
    }

    // Operators of other languages.
    for (written, ours, what) in [("&&", "and", "both"), ("||", "or", "either")] {
        if rest.starts_with(written) {
            return Some(t(
                format!("`{written}` is not an operator of this language"),
                "not an operator",
                format!("write `{ours}`: `a {ours} b` holds when {what} hold{}", if what == "both" { "" } else { "s" }),
                2,
            ));
        }
    }
    if rest.starts_with('!') && !rest.starts_with("!=") {
        return Some(t(
            "`!` is not an operator of this language".into(),
            "not an operator",
            "write `not`: `not a` holds when `a` does not".into(),
            1,
        ));
    }
    if rest.starts_with('>') && before.ends_with('<') {
        return Some(Teaching {
            message: "`<>` is not an operator of this language".into(),
            label: "not an operator".into(),
            help: "write `!=` for \"is not equal to\": `a != 3`".into(),
            start: at - 1,
            end: at + 1,
        });
    }
    if rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>") && expects(Rule::cmp_op) {
        let left = last_word(before);
        return Some(t(
            "`=` is not a comparison".into(),
            "`=` gives a declaration its value",
            format!("to compare, write `==`: `{} == …`", if left.is_empty() { "x" } else { left }),
            1,
        ));
    }
    if let Some(op) = comparison_at(rest)
        && !expects(Rule::cmp_op)
        && !expects(Rule::kw_in)
        && expects(Rule::kw_and)
    {
        return Some(t(
            "comparisons do not chain".into(),
            "a second comparison",
            "join two comparisons with `and` (`1 < x and x < 3`), or use a range (`x in 2..=5`)".into(),
            op.len(),
        ));
    }

    // `if` without `else`, and `elif`.
    if expects(Rule::kw_else) {
        // After a number, `1 elif` reads as 1 of a unit `elif`: the word is then just before.
        let (word_at, elif) = if ELIF.contains(&next) {
            (at, next)
        } else {
            (before.trim_end().len() - last_word(before).len(), last_word(before))
        };
        if ELIF.contains(&elif) {
            return Some(Teaching {
                message: format!("`{elif}` is not a word of this language"),
                label: "not a word of the language".into(),
                help: "write `else if`: `if a then 1 else if b then 2 else 3`".into(),
                start: word_at,
                end: word_at + elif.len(),
            });
        }
        if rest.trim().is_empty() || rest.starts_with('}') || DECLARATION_WORDS.contains(&next) {
            return Some(t(
                "`if` needs an `else`".into(),
                "`else` is expected here",
                "write `if … then … else …`: the value when the condition does not hold".into(),
                0,
            ));
        }
    }

    // Texts, numbers, ranges, lists and words written as other languages write them.
    if let Some(quoted) = rest.strip_prefix('\'') {
        let inner = quoted.split(['\'', '\n']).next().unwrap_or("");
        return Some(t(
            "texts are written in double quotes".into(),
            "a single quote",
            format!("write `\"{inner}\"`"),
            (inner.len() + 2).min(rest.find('\n').unwrap_or(rest.len())),
        ));
    }
    if rest.starts_with(',')
        && before.ends_with(|c: char| c.is_ascii_digit())
        && rest[1..].chars().take(3).filter(char::is_ascii_digit).count() == 3
    {
        let digits_start = before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let whole: String = text[digits_start..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(|c| *c != ',')
            .collect();
        return Some(Teaching {
            message: "a number is written without a thousands separator".into(),
            label: "a thousands separator".into(),
            help: format!("write `{whole}`"),
            start: digits_start,
            end: digits_start + text[digits_start..].chars().take_while(|c| c.is_ascii_digit() || *c == ',').count(),
        });
    }
    if before.trim_end().ends_with("..") && rest.starts_with(|c: char| c.is_ascii_digit()) {
        let lo = last_word(&before.trim_end()[..before.trim_end().len() - 2]);
        let hi = word(rest);
        return Some(t(
            "a range is written with `..=`".into(),
            "the upper end of a range",
            format!("write `{lo}..={hi}` (from {lo} to {hi}, both included), or `{lo}..` (no upper end)"),
            hi.len(),
        ));
    }
    if last_word(before) == "list" && rest.starts_with(['<', '[', '(']) {
        let inner = word(rest[1..].trim_start());
        return Some(t(
            "a list type is written `list of …`".into(),
            "not a list type",
            format!("write `list of {}`", if inner.is_empty() { "T" } else { inner }),
            rest.find(['>', ']', ')']).map_or(1, |i| i + 1),
        ));
    }
    if next == "between" {
        return Some(t(
            "`between` is not a word of this language".into(),
            "not a word of the language",
            "write `x in 1..=5` for a value from 1 to 5, both included".into(),
            next.len(),
        ));
    }
    if matches!(next, "enum" | "record") && expects(Rule::EOI) {
        let name = word(rest[next.len()..].trim_start());
        let name = if name.is_empty() { "Name" } else { name };
        return Some(t(
            format!("a type is declared with `type`: `type {name} = {next} {{ … }}`"),
            "not a declaration",
            format!("write `type {name} = {next} {{ … }}`"),
            next.len(),
        ));
    }
    None
}
