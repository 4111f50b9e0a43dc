//! `conditions check --format sarif` output validates against the SARIF 2.1.0 schema
//! (bundled in `tests/schemas/`), for errors and lints alike.

use conditions::check::check_read;
use conditions::loader::{find_rulebooks, read_rulebook};

fn diagnostics_of(path: &str) -> (conditions::source::SourceMap, Vec<conditions::diagnostic::Diagnostic>) {
    let book = find_rulebooks(std::path::Path::new(path)).expect("rulebook").remove(0);
    let (sources, problems) = read_rulebook(&book);
    let checked = check_read(sources, problems);
    let mut diags = checked.diagnostics.clone();
    if !checked.has_errors() {
        diags.extend(conditions::lint::for_rulebook(&book.root, &checked, None));
    }
    (checked.sources, diags)
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let mut schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/schemas/sarif-schema-2.1.0.json").expect("schema"))
            .expect("json");
    // The published schema's `language` patterns have a stray `]`, which a strict regex
    // engine rejects; they are replaced by the pattern they mean. Our logs set no language.
    for def in ["run", "toolComponent"] {
        schema["definitions"][def]["properties"]["language"]["pattern"] =
            serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    let validator = jsonschema::options().with_draft(jsonschema::Draft::Draft7).build(&schema).expect("a valid schema");
    let all = vec![
        diagnostics_of("tests/diagnostics/adding_currencies.cond"),
        diagnostics_of("tests/diagnostics/not_utf8.cond"),
        diagnostics_of("tests/lints/table_gap.fail.cond"),
        diagnostics_of("tests/lints/source_missing.fail"),
    ];
    assert!(all.iter().map(|(_, d)| d.len()).sum::<usize>() >= 4);
    let log = conditions::sarif::sarif(&all, &Default::default()).to_value();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(
        errors.is_empty(),
        "invalid SARIF:\n{}\n{}",
        errors.join("\n"),
        serde_json::to_string_pretty(&log).unwrap_or_default()
    );
    assert_eq!(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 8);
}

#[test]
fn github_annotations_name_file_and_line() {
    let (sources, diags) = diagnostics_of("tests/diagnostics/adding_currencies.cond");
    let line = conditions::sarif::github_annotation(&diags[0], &sources);
    assert!(line.starts_with("::error file=tests/diagnostics/adding_currencies.cond,line=8,col=23,"), "{line}");
    assert!(line.contains("title=conditions%3A%3Atype_mismatch"), "{line}");
}
