//! "Did you mean" for a ruling name that is not in the rulebook: the nearest names by edit
//! distance over both the section-qualified name (`s323.valgfrist`) and the short one
//! (`valgfrist`), and, when no name is near, the best matches of the find index for the
//! words of the name.

use super::find;
use crate::check::program::Program;
use crate::diagnostic::{MAX_SUGGEST_LEN, edit_distance};

/// At most this many names are suggested.
const MAX_NAMES: usize = 3;

/// The names of rulings (with `definitions`, also of definitions) nearest to `name`, best
/// first: by edit distance when any is near, else by the find index.
pub fn suggest(p: &Program, name: &str, definitions: bool) -> Vec<String> {
    let wanted = |d: &crate::check::program::DefInfo| definitions || d.is_ruling();
    if name.chars().count() <= MAX_SUGGEST_LEN {
        let lower = name.to_lowercase();
        let short_of = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
        let lower_short = short_of(&lower);
        let mut near: Vec<(usize, &str)> = p
            .defs
            .iter()
            .filter(|d| wanted(d) && d.name.chars().count() <= MAX_SUGGEST_LEN)
            .filter_map(|d| {
                let full = d.name.to_lowercase();
                let short = short_of(&full);
                let dist = |a: &str, b: &str| {
                    let n = a.chars().count().max(b.chars().count());
                    let e = edit_distance(a, b);
                    (e <= (n / 3).max(1)).then_some(e)
                };
                [dist(&lower, &full), dist(&lower, &short), dist(&lower_short, &short)]
                    .into_iter()
                    .flatten()
                    .min()
                    .map(|e| (e, d.name.as_str()))
            })
            .collect();
        near.sort();
        if !near.is_empty() {
            return near.into_iter().take(MAX_NAMES).map(|(_, n)| n.to_string()).collect();
        }
    }
    let words: String = name.chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect();
    find::get(p)
        .search(p, &words, usize::MAX)
        .into_iter()
        .filter(|h| wanted(&p.defs[h.def as usize]))
        .take(MAX_NAMES)
        .map(|h| h.name)
        .collect()
}

/// The help line of an unknown ruling name: its `renamed from` note, or "did you mean `a`, `b`
/// or `c`?", or `None`.
pub fn did_you_mean(p: &Program, name: &str, definitions: bool) -> Option<String> {
    if let Some(renamed) = p.renamed(name, None) {
        return Some(renamed);
    }
    let names: Vec<String> = suggest(p, name, definitions).into_iter().map(|n| format!("`{n}`")).collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(format!("did you mean {one}?")),
        [init @ .., last] => Some(format!("did you mean {} or {last}?", init.join(", "))),
    }
}
