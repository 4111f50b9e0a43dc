//! A table of the working as HTML: a captioned `<table>` with column headers, numbers to
//! the right and the deciding rows marked (class `decides`, the cells in `<strong>`, "▸" in
//! a `<mark>`), inside a box of its own that scrolls sideways when the table is wider than a
//! phone's screen (the page never does).

use super::escape;
use crate::base::messages::word;
use crate::explain::table::Table;
use crate::show::Lang;
use std::fmt::Write;

/// The table `t` as a scrolling, labelled region.
pub(super) fn render(out: &mut String, lang: Lang, t: &Table) {
    let caption = escape(&t.caption);
    let legend = if t.marked() {
        format!(" <span class=\"legend\">(<mark>▸</mark> {})</span>", escape(&word(lang, "table-decides")))
    } else {
        String::new()
    };
    // The caption is shown above the box (a caption inside would scroll away with a wide
    // table) and read by a screen reader from the table's own caption.
    let _ = write!(
        out,
        "<p class=\"table-caption\" aria-hidden=\"true\">{caption}{legend}</p>\
         <div class=\"table-scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{caption}\">\
         <table class=\"working-table {}\"><caption>{caption}{legend}</caption><thead><tr>",
        t.kind
    );
    let num = |i: usize| t.numeric.get(i).copied().unwrap_or(false);
    for (i, c) in t.columns.iter().enumerate() {
        let class = if num(i) { " class=\"num\"" } else { "" };
        let _ = write!(out, "<th scope=\"col\"{class}>{}</th>", escape(c));
    }
    out.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        out.push_str(if r.decides { "<tr class=\"decides\">" } else { "<tr>" });
        for (i, c) in r.cells.iter().enumerate() {
            let class = if num(i) { " class=\"num\"" } else { "" };
            match (r.decides, i) {
                (true, 0) => {
                    let _ = write!(out, "<td{class}><mark>▸</mark> <strong>{}</strong></td>", escape(c));
                }
                (true, _) => {
                    let _ = write!(out, "<td{class}><strong>{}</strong></td>", escape(c));
                }
                _ => {
                    let _ = write!(out, "<td{class}>{}</td>", escape(c));
                }
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}
