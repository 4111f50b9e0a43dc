//! Citation lints: numbering gaps and clauses out of the document's order
//! (`lint::numbering_gap`, `lint::citation_order`), and references in a clause's
//! text that resolve to nothing or are not declared with `cites`.

use crate::check::program::Program;
use crate::diagnostic::Diagnostic;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Upper,
    Lower,
    Number,
    Roman,
    Pilcrow,
    Bullet,
}

const ROMAN: &[&str] = &["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"];

/// Splits a citation into its parent and its last label: `§ 12B1b` → (`§ 12B1`, `b`).
fn split(citation: &str) -> Option<(String, Kind, usize, String)> {
    let c = citation.trim();
    if c.ends_with(')') {
        return None; // footnotes
    }
    let (head, token) = c.rsplit_once(' ').map_or(("", c), |(h, t)| (h, t));
    if let Some(n) = token.strip_prefix('¶') {
        return Some((head.to_string(), Kind::Pilcrow, n.parse().ok()?, token.to_string()));
    }
    if let Some(n) = token.strip_prefix('•') {
        return Some((head.to_string(), Kind::Bullet, n.parse().ok()?, token.to_string()));
    }
    if let Some((before, roman)) = token.rsplit_once('.') {
        let i = ROMAN.iter().position(|r| *r == roman)?;
        return Some((format!("{head} {before}").trim().to_string(), Kind::Roman, i + 1, roman.to_string()));
    }
    // The last run: digits, or a single letter.
    let chars: Vec<char> = token.chars().collect();
    let last = *chars.last()?;
    let start = if last.is_ascii_digit() {
        chars.iter().rposition(|c| !c.is_ascii_digit()).map_or(0, |i| i + 1)
    } else {
        chars.len() - 1
    };
    let label: String = chars[start..].iter().collect();
    let parent = format!("{head} {}", chars[..start].iter().collect::<String>()).trim().to_string();
    let (kind, ord) = if last.is_ascii_digit() {
        let n: usize = label.parse().ok()?;
        if n >= 100 {
            return None; // section numbers (three digits) leave gaps by design
        }
        (Kind::Number, n)
    } else if last.is_ascii_uppercase() {
        (Kind::Upper, (last as u8 - b'A') as usize + 1)
    } else if last.is_ascii_lowercase() {
        (Kind::Lower, (last as u8 - b'a') as usize + 1)
    } else {
        return None;
    };
    Some((parent, kind, ord, label))
}

pub fn numbering(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut last: std::collections::HashMap<(String, u8), (usize, String, usize)> = std::collections::HashMap::new();
    for (idx, c) in p.clauses.iter().enumerate() {
        let Some((parent, kind, ord, label)) = split(&c.citation) else { continue };
        let key = (parent.clone(), kind as u8);
        if let Some((prev_ord, prev_label, prev_idx)) = last.get(&key) {
            let prev_cite = &p.clauses[*prev_idx].citation;
            if ord <= *prev_ord {
                out.push(
                    Diagnostic::warning("lint::citation_order", format!("`{}` comes after `{prev_cite}`", c.citation))
                        .at(c.citation_span, format!("{label} after {prev_label}"))
                        .help("keep the clauses in the printed document's order"),
                );
            } else if ord > prev_ord + 1 {
                out.push(
                    Diagnostic::warning(
                        "lint::numbering_gap",
                        format!("`{}` follows `{prev_cite}`: the numbering skips {}", c.citation, ord - prev_ord - 1),
                    )
                    .at(c.citation_span, format!("{label} right after {prev_label}"))
                    .help("is a clause missing, or a citation mistyped? If the printed document skips it, say so with `// allow(numbering_gap): …`"),
                );
            }
        }
        last.insert(key, (ord, label, idx));
    }
    out
}

/// `§ …` references in a text: `jf. § 12E`, `se § 14B1,` → `§ 12E`, `§ 14B1`.
pub fn references(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('§') {
        let after = &rest[i + '§'.len_utf8()..];
        rest = after;
        if after.starts_with('§') {
            // `§§ 21-28`: a range, not one clause.
            rest = &after['§'.len_utf8()..];
            continue;
        }
        let token: String = after.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '.').collect();
        let token = token.trim_end_matches('.').to_string();
        if token.chars().next().is_some_and(|c| c.is_ascii_digit() || c == 'X') {
            out.push(format!("§ {token}"));
        }
    }
    out
}

pub fn text_references(p: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in &p.clauses {
        let Some(text) = &c.text else { continue };
        for r in references(text) {
            if r == c.citation {
                continue;
            }
            let known = p.citations.contains_key(&r) || p.externals.iter().any(|e| e.citation == r);
            if !known {
                out.push(
                    Diagnostic::warning(
                        "lint::unresolved_reference",
                        format!(
                            "`{}` refers to `{r}`, which is neither a clause nor a declared external reference",
                            c.citation
                        ),
                    )
                    .at(c.citation_span, format!("its text mentions {r}"))
                    .help(format!("declare it: `external \"{r}\" \"<title>\"`")),
                );
            } else if !c.cites.contains(&r) {
                out.push(
                    Diagnostic::warning(
                        "lint::uncited_reference",
                        format!("`{}` mentions `{r}` but does not cite it", c.citation),
                    )
                    .at(c.citation_span, format!("its text mentions {r}"))
                    .help(format!("add `cites \"{r}\"` to the clause")),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_citations() {
        assert_eq!(split("§ 101B1b").map(|x| (x.0, x.3)), Some(("§ 101B1".into(), "b".into())));
        assert_eq!(split("§ 151F2a.ii").map(|x| (x.0, x.2)), Some(("§ 151F2a".into(), 2)));
        assert_eq!(split("Stage 1 E3").map(|x| (x.0, x.3)), Some(("Stage 1 E".into(), "3".into())));
        assert_eq!(split("Stage 1 G").map(|x| (x.0, x.3)), Some(("Stage 1".into(), "G".into())));
        assert_eq!(split("Substitution ¶1").map(|x| x.2), Some(1));
        assert!(split("§ 105A4c *)").is_none());
        assert!(split("§ 101").is_none());
    }

    #[test]
    fn finds_references() {
        assert_eq!(references("jf. § 101C2 og § 101D2."), vec!["§ 101C2", "§ 101D2"]);
        assert_eq!(references("(se § 211B) og §§ 121-128"), vec!["§ 211B"]);
        assert_eq!(references("jf. § 151F2a.ii, men"), vec!["§ 151F2a.ii"]);
        assert_eq!(references("§ X79B angående"), vec!["§ X79B"]);
    }
}
