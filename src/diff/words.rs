//! Word-level differences between two texts: the longest common subsequence of their
//! words, as runs of kept, removed and added words.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "op", content = "words", rename_all = "lowercase")]
pub enum Run {
    Same(String),
    Removed(String),
    Added(String),
}

/// The runs that turn `old` into `new`, word by word (white space is not a difference).
pub fn diff(old: &str, new: &str) -> Vec<Run> {
    let a: Vec<&str> = old.split_whitespace().collect();
    let b: Vec<&str> = new.split_whitespace().collect();
    // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut out: Vec<Run> = Vec::new();
    let push = |out: &mut Vec<Run>, run: Run| {
        let joined = match (out.last_mut(), &run) {
            (Some(Run::Same(x)), Run::Same(w))
            | (Some(Run::Removed(x)), Run::Removed(w))
            | (Some(Run::Added(x)), Run::Added(w)) => {
                x.push(' ');
                x.push_str(w);
                true
            }
            _ => false,
        };
        if !joined {
            out.push(run);
        }
    };
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            push(&mut out, Run::Same(a[i].to_string()));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            push(&mut out, Run::Removed(a[i].to_string()));
            i += 1;
        } else {
            push(&mut out, Run::Added(b[j].to_string()));
            j += 1;
        }
    }
    out
}

/// The runs with long unchanged stretches shortened to their ends: `… a b c …`.
pub fn context(runs: &[Run], keep: usize) -> Vec<Run> {
    let n = runs.len();
    runs.iter()
        .enumerate()
        .map(|(k, r)| match r {
            Run::Same(s) => {
                let words: Vec<&str> = s.split(' ').collect();
                if words.len() <= keep * 2 + 1 {
                    return r.clone();
                }
                let head = if k == 0 { String::new() } else { words[..keep].join(" ") + " " };
                let tail =
                    if k + 1 == n { String::new() } else { " ".to_string() + &words[words.len() - keep..].join(" ") };
                Run::Same(format!("{head}…{tail}"))
            }
            other => other.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_number_is_one_removed_and_one_added_word() {
        let runs = diff(
            "open to players with fewer than 2,000 masterpoints.",
            "open to players with fewer than 2,500 masterpoints.",
        );
        assert_eq!(
            runs,
            [
                Run::Same("open to players with fewer than".into()),
                Run::Removed("2,000".into()),
                Run::Added("2,500".into()),
                Run::Same("masterpoints.".into()),
            ]
        );
    }

    #[test]
    fn whitespace_is_no_difference() {
        assert_eq!(diff("a  b\n c", "a b c"), [Run::Same("a b c".into())]);
    }

    #[test]
    fn context_shortens_long_unchanged_stretches() {
        let runs = diff("one two three four five six seven eight", "one two three four five six seven nine");
        assert_eq!(
            context(&runs, 2),
            [Run::Same("… six seven".into()), Run::Removed("eight".into()), Run::Added("nine".into())]
        );
    }
}
