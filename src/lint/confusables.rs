//! The lint `lint::confusable_name`: two declared names that look alike but differ, because
//! one writes a letter in another script (`player` and `plаyer`, whose `а` is Cyrillic). A
//! reader cannot tell which is meant. Each name is reduced to a skeleton, its Cyrillic and
//! Greek letters that look like Latin ones replaced by those (a table of the common
//! look-alikes, not all of Unicode's); names with one skeleton are reported together.

use crate::check::program::{Program, TypeKind};
use crate::diagnostic::Diagnostic;
use crate::syntax::ast::Span;
use std::collections::HashMap;

const CODE: &str = "lint::confusable_name";

/// Cyrillic and Greek letters and the Latin letter each looks like.
const LOOKALIKES: &[(char, char)] = &[
    // Cyrillic, small.
    ('а', 'a'),
    ('в', 'b'),
    ('е', 'e'),
    ('ё', 'ë'),
    ('һ', 'h'),
    ('і', 'i'),
    ('ї', 'ï'),
    ('ј', 'j'),
    ('к', 'k'),
    ('м', 'm'),
    ('н', 'h'),
    ('о', 'o'),
    ('р', 'p'),
    ('с', 'c'),
    ('ѕ', 's'),
    ('т', 't'),
    ('у', 'y'),
    ('х', 'x'),
    ('ԁ', 'd'),
    ('ԛ', 'q'),
    ('ԝ', 'w'),
    ('ӏ', 'l'),
    // Cyrillic, capital.
    ('А', 'A'),
    ('В', 'B'),
    ('Е', 'E'),
    ('Ё', 'Ë'),
    ('І', 'I'),
    ('Ј', 'J'),
    ('К', 'K'),
    ('М', 'M'),
    ('Н', 'H'),
    ('О', 'O'),
    ('Р', 'P'),
    ('С', 'C'),
    ('Ѕ', 'S'),
    ('Т', 'T'),
    ('У', 'Y'),
    ('Х', 'X'),
    ('Ԛ', 'Q'),
    ('Ԝ', 'W'),
    // Greek, small.
    ('α', 'a'),
    ('ε', 'e'),
    ('ι', 'i'),
    ('κ', 'k'),
    ('ν', 'v'),
    ('ο', 'o'),
    ('ρ', 'p'),
    ('τ', 't'),
    ('υ', 'u'),
    ('χ', 'x'),
    ('γ', 'y'),
    // Greek, capital.
    ('Α', 'A'),
    ('Β', 'B'),
    ('Ε', 'E'),
    ('Ζ', 'Z'),
    ('Η', 'H'),
    ('Ι', 'I'),
    ('Κ', 'K'),
    ('Μ', 'M'),
    ('Ν', 'N'),
    ('Ο', 'O'),
    ('Ρ', 'P'),
    ('Τ', 'T'),
    ('Υ', 'Y'),
    ('Χ', 'X'),
];

/// `name` with each look-alike replaced by the Latin letter it looks like.
pub fn skeleton(name: &str) -> String {
    let latin = |c: char| LOOKALIKES.iter().find(|(from, _)| *from == c).map_or(c, |(_, to)| *to);
    name.chars().map(|c| if c.is_ascii() { c } else { latin(c) }).collect()
}

pub fn lint(p: &Program) -> Vec<Diagnostic> {
    // Every declared name with where it is declared, in declaration order.
    let mut names: Vec<(&str, Span)> = Vec::new();
    for t in &p.types {
        names.push((&t.name, t.span));
        if let TypeKind::Enum(vs) = &t.kind {
            names.extend(vs.iter().map(|v| (v.name.as_str(), v.span)));
        }
    }
    names.extend(p.facts.iter().map(|f| (f.name.as_str(), f.span)));
    names.extend(p.decisions.iter().map(|d| (d.name.as_str(), d.span)));
    names.extend(p.defs.iter().map(|d| (d.name.as_str(), d.span)));
    names.extend(p.rules.iter().map(|r| (r.label.as_str(), r.span)));
    // The names of each skeleton, in declaration order.
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<(String, Vec<(&str, Span)>)> = Vec::new();
    for (name, span) in names {
        let sk = skeleton(name);
        match index.get(&sk) {
            Some(&i) => groups[i].1.push((name, span)),
            None => {
                index.insert(sk.clone(), groups.len());
                groups.push((sk, vec![(name, span)]));
            }
        }
    }
    let mut out = Vec::new();
    for (sk, group) in groups {
        let (first_name, first_span) = group[0];
        // Each name once: a ruling's own rule bears its name, and the same name twice is the
        // checker's to report.
        let mut reported = vec![first_name];
        for &(name, span) in &group[1..] {
            if reported.contains(&name) {
                continue;
            }
            reported.push(name);
            out.push(
                Diagnostic::warning(CODE, format!("`{name}` looks like `{first_name}` but is another name"))
                    .at(span, format!("declared here{}", foreign(name)))
                    .at(first_span, format!("`{first_name}` declared here{}", foreign(first_name)))
                    .help(format!("write it in one script (`{sk}`), or give the two names that differ visibly")),
            );
        }
    }
    out
}

/// The look-alike letters of `name`, with their code points: ", with the letter `а` (U+0430)",
/// or nothing.
fn foreign(name: &str) -> String {
    let mut letters: Vec<char> = name.chars().filter(|c| LOOKALIKES.iter().any(|(from, _)| from == c)).collect();
    letters.dedup();
    let shown: Vec<String> = letters.iter().map(|c| format!("`{c}` (U+{:04X})", *c as u32)).collect();
    match shown.len() {
        0 => String::new(),
        1 => format!(", with the letter {}", shown[0]),
        _ => format!(", with the letters {}", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::{LOOKALIKES, skeleton};

    #[test]
    fn skeletons_join_look_alikes() {
        assert_eq!(skeleton("plаyer"), "player");
        assert_eq!(skeleton("ΡΟΙΝΤ"), "POINT");
        assert_eq!(skeleton("bopæl"), "bopæl");
        assert_ne!(skeleton("player"), skeleton("p1ayer"));
    }

    #[test]
    fn every_look_alike_is_listed_once_and_not_latin() {
        for (i, (from, to)) in LOOKALIKES.iter().enumerate() {
            assert!(!from.is_ascii() && from != to, "{from}");
            assert!(LOOKALIKES[i + 1..].iter().all(|(f, _)| f != from), "{from} twice");
        }
    }
}
