//! Renderings of real rulings as a player sees them — terminal text, Markdown, JSON and
//! HTML, in the languages asked for — kept as snapshots and read by hand for clarity.
//! Each file in `tests/renderings/` names a bundled rulebook, a ruling, languages and facts.

use conditions::eval::show::Lang;
use conditions::explain::{Explainer, html, markdown, text};
use serde::Deserialize;

#[derive(Deserialize)]
struct Rendering {
    rulebook: String,
    ruling: String,
    langs: Vec<String>,
    #[serde(default)]
    formats: Option<Vec<String>>,
    facts: toml::Table,
}

#[test]
fn renderings_read_well() {
    let mut files: Vec<_> = std::fs::read_dir("tests/renderings")
        .expect("tests/renderings exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "at least five rulings are rendered");
    for path in files {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let r: Rendering =
            toml::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("a rendering file");
        let book =
            conditions::loader::load(&r.rulebook).unwrap_or_else(|e| panic!("{}: {:?}", r.rulebook, e.diagnostics));
        let p = &book.program;
        let tree = serde_json::to_value(toml::Value::Table(r.facts)).expect("facts");
        let inputs = conditions::facts::validate(p, &tree, &stem).unwrap_or_else(|e| panic!("{stem}: {:?}", e));
        let def = p.def_by_name(&r.ruling).unwrap_or_else(|| panic!("{stem}: no ruling {}", r.ruling));
        let ruling = conditions::eval::rule(p, &inputs, def, true);
        let formats = r.formats.unwrap_or_else(|| vec!["text".into(), "markdown".into(), "json".into(), "html".into()]);
        for lang in &r.langs {
            let lang = Lang::parse(lang).expect("a language tag");
            let report = Explainer { p, sources: &book.sources, lang, inputs: &inputs }.report(&ruling, false);
            for f in &formats {
                let out = match f.as_str() {
                    "text" => text::render(&report, false),
                    "markdown" => markdown::render(&report, false),
                    "json" => serde_json::to_string_pretty(&report).expect("json"),
                    "html" => html::render(&report, false),
                    other => panic!("unknown format {other}"),
                };
                insta::assert_snapshot!(format!("{stem}.{}.{f}", lang.code()), out);
            }
        }
    }
}
