//! The deciding numbers of an explanation, and the tables that show them: standings with the
//! values that rank them and the shared places said in words, each person's boards where a
//! rule ranks persons by them, each team's points where a count compares teams, an
//! apportionment's quotas and remainders; in text (aligned, within the width), Markdown and
//! HTML (a captioned table in a scrolling box), the deciding rows marked. Over every bundled
//! case file, every table is well formed.

use conditions::eval::show::Lang;
use conditions::explain::table::Table;
use conditions::explain::{Explainer, Report, Step, html, markdown, text};
#[path = "support/case_rulings.rs"]
mod case_rulings;
use case_rulings::{CaseRulings, case_rulings};

/// The brief report of `ruling` on a bundled case file's facts, in `lang`.
fn report(book: &str, case: &str, ruling: &str, lang: Lang) -> Report {
    let b = conditions::loader::load(book).expect("a bundled rulebook");
    let p = &b.program;
    let src = std::fs::read_to_string(format!("conditions/{book}/cases/{case}.toml")).expect("a case file");
    let case: conditions::cases::CaseFile = toml::from_str(&src).expect("a case file");
    let tree = conditions::facts::untoml(serde_json::to_value(toml::Value::Table(case.facts)).expect("facts"));
    let inputs = conditions::facts::validate(p, &tree, "case").expect("valid facts");
    let def = p.def_by_name(ruling).expect("the ruling");
    let ruling = conditions::eval::rule(p, &inputs, def, true);
    Explainer { p, sources: &b.sources, lang, inputs: &inputs }.report(&ruling, false)
}

fn tables(r: &Report) -> Vec<&Table> {
    fn walk<'r>(s: &'r Step, into: &mut Vec<&'r Table>) {
        into.extend(&s.tables);
        for c in &s.children {
            walk(c, into);
        }
    }
    let mut out = Vec::new();
    for s in &r.steps {
        walk(s, &mut out);
    }
    out
}

/// The text lines of a table's rows, by the name in them.
fn row_of<'t>(text: &'t str, name: &str) -> &'t str {
    text.lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c == '▸' || c.is_ascii_digit()))
        .find(|l| l.split_whitespace().any(|w| w == name))
        .unwrap_or_else(|| panic!("no row of {name}:\n{text}"))
}

#[test]
fn the_boards_each_player_played_decide_who_holds_the_rights() {
    // § 305A4c: both entered players under half; the two who played most take the rights.
    let r = report("dbf", "s305a4c-begge-under-halvdelen", "s305.rettighedshavere", Lang::En);
    let out = text::render(&r, false);
    for (who, boards, marked) in
        [("Carla", "40", false), ("Dennis", "35", true), ("Birte", "25", true), ("Anker", "20", false)]
    {
        let row = row_of(&out, who);
        assert!(row.trim_end().ends_with(boards), "{who} played {boards}: {row}");
        assert_eq!(row.trim_start().starts_with('▸'), marked, "{who} decides: {marked}: {row}");
    }
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Birte is 3rd with 25, below the cut"), "{out}");
}

#[test]
fn standings_give_the_values_and_say_the_shared_place() {
    // § 351F2a: Bby and Cby level on both keys share 2nd–3rd.
    let r = report("dbf", "s351f2a-to-distrikter-lige-paa-begge-kriterier", "s351.seedningsgrupper", Lang::En);
    let out = text::render(&r, false);
    assert!(out.contains("Bby and Cby share 2nd place"), "{out}");
    for (who, place, marked) in [("Aby", "1", false), ("Bby", "2–3", true), ("Cby", "2–3", true)] {
        let row = row_of(&out, who);
        assert_eq!(row.trim_start().starts_with('▸'), marked, "{row}");
        assert!(row.split_whitespace().any(|c| c == place), "{who} is {place}: {row}");
    }
    let md = markdown::render(&r, false);
    assert!(md.contains("| ▸ **2–3** | **Bby** |"), "{md}");
    let page = html::render(&r, false);
    assert!(
        page.contains("<tr class=\"decides\"><td><mark>▸</mark> <strong>2–3</strong></td><td><strong>Bby</strong>"),
        "{page}"
    );
    assert!(page.contains("<div class=\"table-scroll\" role=\"region\" tabindex=\"0\" aria-label=\"Standings\">"));
    assert!(page.contains("<caption>Standings"), "a table's caption is read by screen readers");
}

#[test]
fn a_teams_place_shows_every_teams_points() {
    // Stage 1 H: the place is one more than the teams with more victory points.
    let r = report("gnt", "director-q3-seven-teams-tie-at-cut", "club_team_place", Lang::En);
    let out = text::render(&r, false);
    for (team, vp, marked) in [("1", "62", true), ("3", "55", true), ("4", "51", false), ("7", "33", false)] {
        let row = out.lines().find(|l| l.contains(&format!("Team {team} "))).expect("a row per team");
        assert!(row.trim_end().ends_with(vp), "{row}");
        assert_eq!(row.trim_start().starts_with('▸'), marked, "{row}");
    }
}

#[test]
fn an_apportionment_shows_quota_whole_part_and_remainder_in_each_language() {
    for (lang, quota, remainder) in [(Lang::Da, "7,6", "0,6"), (Lang::En, "7.6", "0.6")] {
        let r = report("dbf", "s351c-fordeling-lodtraekning-til-fyn", "s351.medlemstalsfordeling", lang);
        let t = tables(&r).into_iter().find(|t| t.kind == "apportionment").expect("an apportionment table");
        let fyn = t.rows.iter().find(|row| row.cells[0] == "Fyn").expect("Fyn's row");
        assert_eq!(fyn.cells, ["Fyn", if lang == Lang::Da { "3.800" } else { "3,800" }, quota, "7", remainder, "8"]);
        assert!(fyn.decides, "Fyn is tied on the remainder for the last place");
        assert_eq!(t.rows.iter().filter(|r| r.decides).count(), 2, "Sydjylland and Fyn");
    }
}

/// A table's shape: a cell per column, shared places ("2–3") on as many rows as they say,
/// the text within the width.
fn check(t: &Table, lang: Lang, name: &str, problems: &mut Vec<String>) {
    let n = t.columns.len();
    if t.rows.iter().any(|r| r.cells.len() != n) {
        problems.push(format!("{name}: a row without a cell per column in `{}`", t.caption));
    }
    if t.kind == "standings" || t.kind == "ranking" {
        let mut i = 0;
        while i < t.rows.len() {
            let place = &t.rows[i].cells[0];
            let span = match place.split_once('–') {
                Some((a, b)) => b.parse::<usize>().unwrap_or(0) + 1 - a.parse::<usize>().unwrap_or(0),
                None => 1,
            };
            let same = t.rows[i..].iter().take_while(|r| &r.cells[0] == place).count();
            if same != span || place.split('–').next().and_then(|a| a.parse::<usize>().ok()) != Some(i + 1) {
                problems.push(format!("{name}: place {place} at row {} on {same} rows", i + 1));
                break;
            }
            i += same;
        }
    }
    for line in t.text(lang).lines() {
        if line.chars().count() > 100 {
            problems.push(format!("{name}: a text line over 100 columns: {line}"));
        }
    }
}

#[test]
fn every_table_of_every_bundled_case_is_well_formed() {
    let mut problems = Vec::new();
    let mut seen = 0;
    for book_name in ["gnt", "dbf"] {
        let book = conditions::loader::load(book_name).expect("a bundled rulebook");
        let p = &book.program;
        let lang = Lang::parse(&p.rulebook.language).unwrap_or(Lang::En);
        for CaseRulings { path, inputs, first, .. } in case_rulings(p, book_name) {
            let Some(def) = first else { continue };
            let ruling = conditions::eval::rule(p, &inputs, def, true);
            let r = Explainer { p, sources: &book.sources, lang, inputs: &inputs }.report(&ruling, false);
            for t in tables(&r) {
                seen += 1;
                check(t, lang, &path.display().to_string(), &mut problems);
            }
        }
    }
    assert!(seen >= 20, "the bundled cases show tables ({seen})");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
