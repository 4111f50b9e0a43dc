//! Tables of the working: standings, rankings and apportionments as rows a reader looks
//! down rather than sentences to read ([`Table`]), with the rows that decide marked; and
//! their terminal text (aligned columns, wrapped to the width) and Markdown. The working in
//! words ([`super::working`]) offers its tables to the step being put together
//! (`collect`); the words of the headers come from the message files.

use crate::base::messages::word_ref as word;
use crate::show::Lang;
use serde::Serialize;
use std::cell::RefCell;
use std::fmt::Write;

/// Most rows a table shows: a longer list is said by its count, as in the sentences.
pub(crate) const ROWS_MAX: usize = 64;
/// Fewest rows a table shows: two rows read as well in a sentence.
pub(crate) const TABLE_MIN: usize = 3;

/// A table of a step's working.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// `standings`, `ranking`, `apportionment`, or `compared` (the items of a count with the
    /// number each was compared by).
    pub kind: &'static str,
    /// What the table shows, in words.
    pub caption: String,
    /// The header of each column.
    pub columns: Vec<String>,
    /// Whether each column holds numbers (aligned to the right). Not in the JSON format.
    #[serde(skip)]
    pub numeric: Vec<bool>,
    pub rows: Vec<TableRow>,
}

/// One row of a [`Table`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    pub cells: Vec<String>,
    /// Whether the row decides the answer (at the cut, sharing the deciding place, tied on
    /// the remainder, counted): shown highlighted.
    pub decides: bool,
}

impl Table {
    /// Whether any row is marked as deciding.
    pub fn marked(&self) -> bool {
        self.rows.iter().any(|r| r.decides)
    }

    /// The table as the brief terminal text shows it under a step (indented, wrapped to
    /// 100 columns).
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        text_into(&mut out, lang, self, "      ", 100);
        out
    }
}

thread_local! {
    /// The tables offered while a step's working is put into words, when one is collecting.
    static SINK: RefCell<Option<Vec<Table>>> = const { RefCell::new(None) };
}

/// Runs `f`, gathering the tables its working offers ([`offer`]); a table offered twice
/// (the same ranking read by the working and by a condition) is kept once.
pub(crate) fn collect<R>(f: impl FnOnce() -> R) -> (R, Vec<Table>) {
    let before = SINK.with(|s| s.borrow_mut().replace(Vec::new()));
    let r = f();
    let got = SINK.with(|s| std::mem::replace(&mut *s.borrow_mut(), before)).unwrap_or_default();
    let mut tables: Vec<Table> = Vec::with_capacity(got.len());
    for t in got {
        if !tables.contains(&t) {
            tables.push(t);
        }
    }
    (r, tables)
}

/// Offers a table to the step being put together; `false` when none is collecting (the
/// working then says the rows in words).
pub(crate) fn offer(t: Table) -> bool {
    SINK.with(|s| match s.borrow_mut().as_mut() {
        Some(v) => {
            v.push(t);
            true
        }
        None => false,
    })
}

/// A place shared by `n` rows from `first`: "5" or "5–6".
pub(crate) fn place(first: usize, n: usize) -> String {
    if n > 1 { format!("{first}–{}", first + n - 1) } else { first.to_string() }
}

/// The marker of a deciding row in text.
const MARK: &str = "▸ ";
const UNMARKED: &str = "  ";

/// A table as terminal text under `indent`: its caption, then the header and rows in
/// aligned columns, each deciding row marked "▸"; a table wider than `width` gives each row
/// as one wrapped line instead, its cells separated by " · ".
pub(crate) fn text_into(out: &mut String, lang: Lang, t: &Table, indent: &str, width: usize) {
    let mut caption = t.caption.clone();
    if t.marked() {
        caption.push_str(" (");
        caption.push_str(MARK);
        caption.push_str(word(lang, "table-decides"));
        caption.push(')');
    }
    super::wrap::wrap_into(out, &caption, indent, width);
    let n = t.columns.len();
    // Each column as wide as its widest cell; a long header is wrapped over lines of up to
    // HEADER_ROOM characters (never narrower than its longest word).
    let mut widths: Vec<usize> = vec![0; n];
    for r in &t.rows {
        for (w, c) in widths.iter_mut().zip(&r.cells) {
            *w = (*w).max(c.chars().count());
        }
    }
    for (w, h) in widths.iter_mut().zip(&t.columns) {
        let longest_word = h.split(' ').map(|x| x.chars().count()).max().unwrap_or(0);
        *w = (*w).max(longest_word).max(h.chars().count().min(HEADER_ROOM.max(*w)));
    }
    let total = indent.chars().count() + MARK.chars().count() + widths.iter().sum::<usize>() + 2 * n.saturating_sub(1);
    if total > width {
        let inner = format!("{indent}{UNMARKED}");
        let mut line = String::new();
        for r in &t.rows {
            line.clear();
            if r.decides {
                line.push_str(MARK.trim_end());
                line.push(' ');
            }
            for (i, c) in r.cells.iter().enumerate() {
                if i > 0 {
                    line.push_str(" · ");
                }
                if i > 0 && t.numeric.get(i).copied().unwrap_or(false) {
                    line.push_str(&t.columns[i]);
                    line.push(' ');
                }
                line.push_str(c);
            }
            super::wrap::wrap_into(out, &line, &inner, width);
        }
        return;
    }
    let right = |i: usize| t.numeric.get(i).copied().unwrap_or(false);
    let row = |out: &mut String, mark: &str, cells: &[&str]| {
        out.push_str(indent);
        out.push_str(mark);
        let mut line = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = w.saturating_sub(c.chars().count());
            if right(i) {
                line.extend(std::iter::repeat_n(' ', pad));
            }
            line.push_str(c);
            if !right(i) {
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    };
    // The header, a line per line of its longest wrapped cell.
    let headers: Vec<Vec<String>> = t.columns.iter().zip(&widths).map(|(h, &w)| fill(h, w)).collect();
    let depth = headers.iter().map(Vec::len).max().unwrap_or(0);
    for k in 0..depth {
        let cells: Vec<&str> = headers.iter().map(|h| h.get(k).map_or("", String::as_str)).collect();
        row(out, UNMARKED, &cells);
    }
    for r in &t.rows {
        let cells: Vec<&str> = r.cells.iter().map(String::as_str).collect();
        row(out, if r.decides { MARK } else { UNMARKED }, &cells);
    }
}

/// The widest a header's line is made when its column's cells are narrower.
const HEADER_ROOM: usize = 20;

/// `text`'s words put onto lines of at most `width` characters (a longer word alone).
fn fill(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A Markdown cell: pipes and line breaks escaped.
fn md_cell(s: &str) -> String {
    super::markdown::escape(s).replace('|', "\\|").replace('\n', " ")
}

/// A table as Markdown under a list item (`indent` the item's content): its caption, then a
/// pipe table with the deciding rows in bold and marked "▸".
pub(crate) fn markdown_into(out: &mut String, lang: Lang, t: &Table, indent: &str) {
    let _ = write!(out, "{indent}- {}", md_cell(&t.caption));
    if t.marked() {
        let _ = write!(out, " ({MARK}{})", word(lang, "table-decides"));
    }
    out.push_str("\n\n");
    let inner = format!("{indent}  ");
    out.push_str(&inner);
    out.push('|');
    for c in &t.columns {
        let _ = write!(out, " {} |", md_cell(c));
    }
    out.push('\n');
    out.push_str(&inner);
    out.push('|');
    for i in 0..t.columns.len() {
        out.push_str(if t.numeric.get(i).copied().unwrap_or(false) { " ---: |" } else { " --- |" });
    }
    out.push('\n');
    for r in &t.rows {
        out.push_str(&inner);
        out.push('|');
        for (i, c) in r.cells.iter().enumerate() {
            match (r.decides, i) {
                (true, 0) => {
                    let _ = write!(out, " {MARK}**{}** |", md_cell(c));
                }
                (true, _) => {
                    let _ = write!(out, " **{}** |", md_cell(c));
                }
                _ => {
                    let _ = write!(out, " {} |", md_cell(c));
                }
            }
        }
        out.push('\n');
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standings() -> Table {
        Table {
            kind: "standings",
            caption: "Standings".into(),
            columns: vec!["Place".into(), "Name".into(), "VP".into()],
            numeric: vec![false, false, true],
            rows: vec![
                TableRow { cells: vec!["1".into(), "North".into(), "80".into()], decides: false },
                TableRow { cells: vec!["2–3".into(), "East".into(), "7".into()], decides: true },
                TableRow { cells: vec!["2–3".into(), "South".into(), "7".into()], decides: true },
            ],
        }
    }

    #[test]
    fn text_columns_align_and_mark_the_deciding_rows() {
        let mut out = String::new();
        text_into(&mut out, Lang::En, &standings(), "  ", 100);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "    Place  Name   VP");
        assert_eq!(fill("Victory points scored in the game", 20), ["Victory points", "scored in the game"]);
        assert_eq!(lines[2], "    1      North  80");
        assert_eq!(lines[3], "  ▸ 2–3    East    7");
        assert!(lines[0].starts_with("  Standings (▸ "), "{out}");
    }

    #[test]
    fn a_table_wider_than_the_width_gives_a_wrapped_line_per_row() {
        let mut out = String::new();
        text_into(&mut out, Lang::En, &standings(), "  ", 16);
        assert!(out.lines().all(|l| l.chars().count() <= 16), "{out}");
        assert!(out.contains("▸ 2–3 · East"), "{out}");
    }

    #[test]
    fn collected_tables_are_kept_once_and_nested_collections_keep_their_own() {
        let ((), outer) = collect(|| {
            assert!(offer(standings()));
            let ((), inner) = collect(|| {
                offer(standings());
            });
            assert_eq!(inner.len(), 1);
            assert!(offer(standings()));
        });
        assert_eq!(outer.len(), 1);
        assert!(!offer(standings()), "nothing collects outside a collection");
    }

    #[test]
    fn markdown_escapes_pipes_and_bolds_the_deciding_rows() {
        let mut t = standings();
        t.rows[0].cells[1] = "A|B".into();
        let mut out = String::new();
        markdown_into(&mut out, Lang::En, &t, "  ");
        assert!(out.contains("A\\|B"), "{out}");
        assert!(out.contains("| ▸ **2–3** | **East** |"), "{out}");
        assert!(out.contains("| --- | --- | ---: |"), "{out}");
    }
}
