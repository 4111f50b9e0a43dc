//! The numbers a clause's printed text says, read for the lint that holds rules against
//! their text ([`super::numbers`]): digits with either thousands separator (`2,000`,
//! `2.000`), decimals, fractions (`1/3`), percentages (`50%`), times of day (`kl. 13.00`,
//! `13:00`) and dates (`1 September 2007`, `1. september 2007`, `01.09.2007`). Number words,
//! percent words and month names are data, per language, in `messages/numbers.toml`.

use crate::base::date::Date;
use crate::base::num::Num;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The words of one language (a section of `numbers.toml`).
#[derive(Debug, Deserialize, Default)]
struct Words {
    words: BTreeMap<String, String>,
    units: BTreeMap<String, String>,
    percent: Vec<String>,
    months: Vec<String>,
    weekdays: Vec<String>,
    #[serde(default)]
    ordinal_dot: bool,
}

fn all_words() -> &'static BTreeMap<String, Words> {
    static W: OnceLock<BTreeMap<String, Words>> = OnceLock::new();
    W.get_or_init(|| {
        let text = crate::base::messages::file("numbers.toml").unwrap_or_default();
        toml::from_str(text).unwrap_or_else(|e| unreachable!("the bundled number words are valid: {e}"))
    })
}

/// The words of `lang` (`nb-NO` falls back to `nb`), or none when the file has no section.
fn words(lang: &str) -> Option<&'static Words> {
    let w = all_words();
    w.get(lang).or_else(|| lang.split('-').next().and_then(|l| w.get(l)))
}

/// A number printed in digits, where it stands in the text and the values it may read as.
#[derive(Clone, Debug)]
pub struct Token {
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// Every reading of the digits: `2,000` is 2000 (and 2 in a decimal-comma language).
    pub values: Vec<Num>,
    /// A time of day, in minutes after midnight (`13.00`, `13:00`).
    pub time: Option<i64>,
    /// Part of a date, or joined to a letter (`U16`): not a quantity of its own.
    pub part_of_word: bool,
}

/// What a text prints.
#[derive(Clone, Debug, Default)]
pub struct Printed {
    /// Numbers printed in digits.
    pub tokens: Vec<Token>,
    /// Every value printed, in digits or words, percentages also as fractions.
    pub values: Vec<Num>,
    pub times: Vec<i64>,
    /// Dates printed: year when printed, month, day.
    pub dates: Vec<(Option<i64>, u32, u32)>,
}

impl Printed {
    /// Adds what `text`, written in `lang`, prints.
    pub fn read(&mut self, text: &str, lang: &str) {
        let lower = fold(text);
        let src = lower.as_str();
        let w = words(lang);
        let mut toks = digits(src);
        for t in &mut toks {
            let after = src[t.end..].trim_start();
            let percent = after.starts_with('%') || w.is_some_and(|w| w.percent.iter().any(|p| starts_word(after, p)));
            if percent {
                let extra: Vec<Num> = t.values.iter().filter_map(|v| v.div(Num::int(100))).collect();
                t.values.extend(extra);
            }
            let ordinal = w.is_some_and(|w| w.ordinal_dot)
                && text[t.end..].strip_prefix(". ").and_then(|r| r.chars().next()).is_some_and(char::is_lowercase);
            if ordinal || joined_to_word(&src[..t.start], true) || joined_to_word(&src[t.end..], false) {
                t.part_of_word = true;
            }
        }
        // `§ 321`, `§§ 326-328`, `¶ 4`, `#373`: the numbers of references, not quantities.
        for i in 0..toks.len() {
            let before = &src[..toks[i].start];
            let sign = before.trim_end().ends_with(['§', '¶', '#']);
            let ranged = i > 0 && toks[i - 1].part_of_word && matches!(&src[toks[i - 1].end..toks[i].start], "-" | "–");
            if sign || ranged {
                toks[i].part_of_word = true;
            }
        }
        if let Some(w) = w {
            for (i, month) in w.months.iter().chain(&w.weekdays).enumerate() {
                let i = if i < w.months.len() { i } else { i - w.months.len() };
                let mut capital: String = month.chars().take(1).flat_map(char::to_uppercase).collect();
                capital.extend(month.chars().skip(1));
                if contains_word(text, month) || contains_word(text, &capital) {
                    self.values.push(Num::int(i as i128 + 1));
                }
            }
            for (phrase, value) in w.words.iter().chain(&w.units) {
                if let Ok(v) = Num::parse(value)
                    && contains_word(&lower, phrase)
                {
                    self.values.push(v);
                }
            }
            self.read_dates(&lower, &mut toks, &w.months);
        }
        self.read_numeric_dates(&mut toks);
        for t in &toks {
            self.values.extend(t.values.iter().copied());
            self.times.extend(t.time);
        }
        self.tokens.extend(toks);
    }

    /// `1 September 2007`, `September 1, 2007`, `1. september 2007`: a month name with a day
    /// beside it and perhaps a year after.
    fn read_dates(&mut self, lower: &str, toks: &mut [Token], months: &[String]) {
        for (m, name) in months.iter().enumerate() {
            let name = fold(name);
            for (at, _) in lower.match_indices(name.as_str()) {
                let end = at + name.len();
                let joined = lower[..at].chars().next_back().is_some_and(char::is_alphanumeric)
                    || lower[end..].chars().next().is_some_and(char::is_alphanumeric);
                if joined {
                    continue;
                }
                let small = |t: &Token| t.values.first().and_then(|v| v.as_i64()).filter(|d| (1..=31).contains(d));
                let near =
                    |a: usize, b: usize| lower.get(a..b).is_some_and(|s| s.chars().all(|c| " .,\u{a0}".contains(c)));
                let before = toks.iter().rposition(|t| t.end <= at && near(t.end, at) && small(t).is_some());
                let after = toks.iter().position(|t| t.start >= end && near(end, t.start) && small(t).is_some());
                let Some(day_at) = before.or(after) else { continue };
                let day = small(&toks[day_at]).unwrap_or(1) as u32;
                let mut from = toks[day_at].end.max(end);
                // `July 17-27, 2008`: the last day of a range of days.
                if let Some(next) = toks.get(day_at + 1)
                    && lower.get(toks[day_at].end..next.start).is_some_and(|s| s == "-" || s == "–")
                    && let Some(last) = small(next)
                {
                    self.dates.push((None, m as u32 + 1, last as u32));
                    from = next.end;
                    toks[day_at + 1].part_of_word = true;
                }
                let year_at = toks.iter().position(|t| {
                    t.start >= from
                        && near(from, t.start)
                        && t.text.len() == 4
                        && t.values.first().and_then(|v| v.as_i64()).is_some_and(|y| (1900..=2200).contains(&y))
                });
                let year = year_at.and_then(|i| toks[i].values.first().and_then(|v| v.as_i64()));
                self.dates.push((year, m as u32 + 1, day));
                toks[day_at].part_of_word = true;
                if let Some(i) = year_at {
                    toks[i].part_of_word = true;
                }
            }
        }
    }

    /// `01.09.2007` and `1/9/2007`: day, month and year.
    fn read_numeric_dates(&mut self, toks: &mut [Token]) {
        for t in toks.iter_mut() {
            // `31/12`: a day and month, never a proper fraction (the day is at least the month).
            if let Some((d, m)) = t.text.split_once('/')
                && let (Ok(d), Ok(m)) = (d.parse::<u32>(), m.parse::<u32>())
                && (1..=12).contains(&m)
                && (m..=31).contains(&d)
                && d > 1
            {
                self.dates.push((None, m, d));
                t.values.clear();
                t.part_of_word = true;
            }
        }
        for t in toks {
            let parts: Vec<&str> = t.text.split(['.', '/', '-']).collect();
            if parts.len() == 3 && parts[2].len() == 4 && parts[0].len() <= 2 && parts[1].len() <= 2 {
                let n = |s: &str| s.parse::<i64>().ok();
                if let (Some(d), Some(m), Some(y)) = (n(parts[0]), n(parts[1]), n(parts[2]))
                    && Date::from_ymd(y, m as u32, d as u32).is_some()
                {
                    self.dates.push((Some(y), m as u32, d as u32));
                    t.part_of_word = true;
                }
            }
        }
    }
}

/// `text` in lowercase, every character keeping its length in bytes (one that would not is
/// kept as it is), so that positions in it are positions in `text`.
fn fold(text: &str) -> String {
    text.chars()
        .map(|c| {
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(x), None) if x.len_utf8() == c.len_utf8() => x,
                _ => c,
            }
        })
        .collect()
}

/// Whether the text on one side of a number joins it to a word: a letter straight beside it
/// (`U16`), or a hyphen and then a letter (`2-mandskahyt`, `1/16-finalen`).
fn joined_to_word(side: &str, before: bool) -> bool {
    let mut chars: Box<dyn Iterator<Item = char>> =
        if before { Box::new(side.chars().rev()) } else { Box::new(side.chars()) };
    match chars.next() {
        Some(c) if c.is_alphabetic() => true,
        Some('-') => chars.next().is_some_and(char::is_alphabetic),
        _ => false,
    }
}

/// Whether `text` begins with the word `word` (no letter straight after it).
fn starts_word(text: &str, word: &str) -> bool {
    text.get(..word.len()).is_some_and(|s| s.eq_ignore_ascii_case(word))
        && !text[word.len()..].chars().next().is_some_and(char::is_alphanumeric)
}

/// Whether `phrase` occurs in `text` as whole words.
pub fn contains_word(text: &str, phrase: &str) -> bool {
    !phrase.is_empty()
        && text.match_indices(phrase).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(char::is_alphanumeric)
                && !text[i + phrase.len()..].chars().next().is_some_and(char::is_alphanumeric)
        })
}

/// The runs of digits in `text`, with separators between digits kept in the run.
fn digits(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = chars[i].0;
        let mut j = i;
        while j < chars.len() {
            let c = chars[j].1;
            if c.is_ascii_digit() {
                j += 1;
            } else if matches!(c, '.' | ',' | ':' | '/' | '\u{a0}')
                && chars.get(j + 1).is_some_and(|(_, d)| d.is_ascii_digit())
            {
                j += 1;
            } else {
                break;
            }
        }
        let end = chars.get(j).map_or(text.len(), |(b, _)| *b);
        let s = &text[start..end];
        out.push(Token {
            text: s.to_string(),
            start,
            end,
            values: readings(s),
            time: time_of_day(s),
            part_of_word: false,
        });
        i = j;
    }
    out
}

/// Every number `s` may be read as: separators as thousands, one separator as the decimal
/// point, the last of two different separators as the decimal point, `a/b` as a fraction.
fn readings(s: &str) -> Vec<Num> {
    let mut out = Vec::new();
    let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
    if seps.is_empty() {
        out.extend(Num::parse(s).ok());
        return out;
    }
    if seps == ['/'] {
        out.extend(Num::parse(s).ok());
        return out;
    }
    if seps.contains(&':') || seps.contains(&'/') {
        return out;
    }
    let groups: Vec<&str> = s.split(|c: char| !c.is_ascii_digit()).collect();
    let same = seps.iter().all(|c| *c == seps[0]);
    if same && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3) {
        out.extend(Num::parse(&groups.concat()).ok());
    }
    if seps.len() == 1 && seps[0] != '\u{a0}' {
        out.extend(Num::parse(&s.replace(',', ".")).ok());
    } else if !same {
        let last = seps[seps.len() - 1];
        if let Some((int, frac)) = s.rsplit_once(last) {
            let int: String = int.chars().filter(char::is_ascii_digit).collect();
            out.extend(Num::parse(&format!("{int}.{frac}")).ok());
        }
    }
    out
}

/// `13.00` or `13:00` as minutes after midnight.
fn time_of_day(s: &str) -> Option<i64> {
    let (h, m) = s.split_once([':', '.'])?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    let (h, m) = (h.parse::<i64>().ok()?, m.parse::<i64>().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, lang: &str) -> Printed {
        let mut p = Printed::default();
        p.read(text, lang);
        p
    }

    #[test]
    fn digits_in_every_printed_form() {
        let has = |p: &Printed, v: &str| p.values.contains(&Num::parse(v).unwrap());
        assert!(has(&read("fewer than 2,000 masterpoints", "en"), "2000"));
        assert!(has(&read("færre end 2.000 point", "da"), "2000"));
        assert!(has(&read("474,60 kr.", "da"), "474.6"));
        assert!(has(&read("1.095,50 kr.", "da"), "1095.5"));
        assert!(has(&read("50% of the fee", "en"), "1/2"));
        assert!(has(&read("50 procent", "da"), "1/2"));
        assert!(has(&read("one third of the boards", "en"), "1/3"));
        assert!(has(&read("halvdelen af gebyret", "da"), "1/2"));
        assert!(has(&read("inden 14 dage", "da"), "14"));
        assert!(has(&read("to hold", "da"), "2"));
        assert!(!has(&read("to the team", "en"), "2"));
        assert_eq!(read("kl. 13.00", "da").times, vec![13 * 60]);
        assert_eq!(read("at 13:00", "en").times, vec![13 * 60]);
    }

    #[test]
    fn dates_in_words_and_digits() {
        assert_eq!(read("by September 1, 2007", "en").dates, vec![(Some(2007), 9, 1)]);
        assert_eq!(read("senest 1. september 2007", "da").dates, vec![(Some(2007), 9, 1)]);
        assert_eq!(read("senest 01.09.2007", "da").dates, vec![(Some(2007), 9, 1)]);
        assert_eq!(read("the 15th of May", "en").dates, Vec::new());
        assert_eq!(read("pr. 31/12 i sæsonen", "da").dates, vec![(None, 12, 31)]);
        let range = read("July 17-27, 2008", "en");
        assert!(range.dates.contains(&(Some(2008), 7, 17)) && range.dates.contains(&(None, 7, 27)));
        assert!(range.tokens.iter().all(|t| t.part_of_word));
    }

    #[test]
    fn references_and_compounds_are_no_quantities() {
        let p = read("udgøres af §§ 321-328 med 2-mandskahyt og 3 hold", "da");
        let free: Vec<&str> = p.tokens.iter().filter(|t| !t.part_of_word).map(|t| t.text.as_str()).collect();
        assert_eq!(free, vec!["3"]);
        let p = read("Nr. 1 i 3. division og Unit #373.", "da");
        let free: Vec<&str> = p.tokens.iter().filter(|t| !t.part_of_word).map(|t| t.text.as_str()).collect();
        assert_eq!(free, vec!["1"]);
    }
}
