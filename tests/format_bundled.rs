//! The formatter on the bundled rulebooks: formatting each file is idempotent, and every
//! case file's rulings (answer, status, explanation) are the same before and after.
//! The bundled files themselves are not rewritten here.

use conditions::cases::{CaseFile, find_cases};
use conditions::check::{Checked, check_read};
use conditions::eval::show::Lang;
use conditions::explain::Explainer;
use conditions::format::format_text;
use conditions::loader::{find_rulebooks, read_rulebook};
use conditions::source::SourceMap;
use std::path::Path;

fn rulings(checked: &Checked, case: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(case).expect("case file");
    let file: CaseFile = toml::from_str(&text).expect("case file parses");
    let raw = conditions::facts::read::toml(&text).expect("facts");
    let tree = raw.get("facts").cloned().unwrap_or_else(|| serde_json::json!({}));
    let p = &checked.program;
    let inputs = conditions::facts::validate(p, &tree, "case").expect("facts fit");
    let lang = Lang::parse(&p.rulebook.language).unwrap_or(Lang::En);
    let explainer = Explainer { p, sources: &checked.sources, lang, inputs: &inputs };
    file.expect
        .iter()
        .filter_map(|e| p.def_by_name(&e.ruling))
        .map(|def| {
            let ruling = conditions::eval::rule(p, &inputs, def, true);
            conditions::explain::text::render(&explainer.report(&ruling, true), true)
        })
        .collect()
}

#[test]
fn formatting_the_bundled_rulebooks_is_idempotent_and_keeps_every_ruling() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conditions");
    let mut compared = 0;
    for book in find_rulebooks(&root).expect("bundled rulebooks") {
        let (original, problems) = read_rulebook(&book);
        assert!(problems.is_empty(), "{problems:?}");
        let mut formatted = SourceMap::new();
        for (_, f) in original.files() {
            let once = format_text(&f.text).unwrap_or_else(|d| panic!("{}: {}", f.name, d.message));
            let twice = format_text(&once).unwrap_or_else(|d| panic!("{} formatted: {}", f.name, d.message));
            assert!(once == twice, "formatting {} twice differs from formatting it once", f.name);
            formatted.add(f.name.clone(), once);
        }
        let (before, after) = (check_read(original, Vec::new()), check_read(formatted, Vec::new()));
        assert!(!before.has_errors() && !after.has_errors(), "{:?}", after.diagnostics);
        for case in find_cases(&book.root.join("cases")) {
            let (a, b) = (rulings(&before, &case), rulings(&after, &case));
            for (x, y) in a.iter().zip(&b) {
                assert!(x == y, "{}: the ruling changed after formatting:\n{x}\n---\n{y}", case.display());
            }
            compared += a.len();
        }
    }
    assert!(compared > 1000, "only {compared} rulings compared");
}

const HEAD: &str = "rulebook \"t\" {\n  title \"T\"\n  language \"en\"\n}\n\n";

fn formats_to_itself(body: &str) {
    let text = format!("{HEAD}{body}");
    let out = format_text(&text).unwrap_or_else(|d| panic!("{}", d.message));
    assert!(out == text, "expected it unchanged:\n{text}\ngot:\n{out}");
}

#[test]
fn blank_lines_between_declarations_are_kept() {
    formats_to_itself(
        "// Shared facts.\n\nfact a: int \"a\"\nfact b: int \"b\"\n\nfact c: int \"c\"\n\nclause \"T 1\" {\n  text \"\"\"\n    One.\n  \"\"\"\n  fact d: bool \"d\"\n\n  // The ruling.\n  ruling r: bool \"r\" = d\n}\n",
    );
}

#[test]
fn trailing_comments_stay_on_their_line() {
    formats_to_itself(
        "fact a: int \"a\" // counted at the cut-off\n\nclause \"T 1\" { // the first clause\n  text \"\"\"\n    One.\n  \"\"\"\n  fact d: bool \"d\" // as reported\n  ruling r: bool \"r\" = d\n}\n",
    );
}

#[test]
fn long_let_and_if_values_are_broken_within_the_width() {
    let long = "let own = max(map(filter(teams, t => t.name == club_team), t => t.victory_points)) in 1 + count(teams, t => t.victory_points > own)";
    let text = format!(
        "{HEAD}clause \"T 1\" {{\n  text \"One.\"\n  fact club_team: text \"c\"\n  ruling place: int \"p\" = {long}\n}}\n"
    );
    let out = format_text(&text).expect("formats");
    assert!(out.contains("      let own = max(map(filter(teams, t => t.name == club_team), t => t.victory_points)) in\n      1 + count(teams, t => t.victory_points > own)\n"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= conditions::syntax::printer::WRAP), "{out}");
    assert_eq!(format_text(&out).expect("formats again"), out);
    let cond = format!(
        "{HEAD}clause \"T 1\" {{\n  text \"One.\"\n  fact n: int \"n\"\n  ruling r: int \"r\" = if n > 1000000000000 then n * 2000000000000 + 3000000000000 else n * 4000000000000 + 5000000000000\n}}\n"
    );
    let out = format_text(&cond).expect("formats");
    assert!(out.contains("      if n > 1000000000000\n      then n * 2000000000000 + 3000000000000\n      else n * 4000000000000 + 5000000000000\n"), "{out}");
}

#[test]
fn quoted_texts_keep_their_line_breaks() {
    formats_to_itself(
        "clause \"T 1\" {\n  text \"\"\"\n    A line as printed, ending early\n    and the next line of the published document.\n  \"\"\"\n  gloss \"A short gloss\"\n  informational \"a heading\"\n}\n",
    );
}
