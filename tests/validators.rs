//! What other tools read from `conditions` passes their validators: the JUnit XML of
//! `conditions test --format junit` against the common `junit-10.xsd` (with `xmllint`), the man
//! pages with `mandoc -Tlint`, the SARIF of `conditions check --format sarif` against the OASIS
//! SARIF 2.1.0 schema, and the shells' completion of rulings and languages.
//!
//! The external tools (`xmllint` from libxml2-utils, `mandoc`, `bash`, `zsh`, `fish`) are
//! skipped with a message when absent, unless `CONDITIONS_VALIDATORS=require` (as `.ci/run`
//! sets it, after installing them), when a missing tool fails the test.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn conditions(args: &[&str]) -> (Option<i32>, String, String) {
    let Output { status, stdout, stderr } =
        Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).output().expect("conditions runs");
    (status.code(), String::from_utf8_lossy(&stdout).into_owned(), String::from_utf8_lossy(&stderr).into_owned())
}

/// The external tool `name` on the `PATH`, or `None` after saying the test is skipped; panics
/// when the validators are required.
fn tool(name: &str, test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()));
    if found.is_none() {
        if std::env::var("CONDITIONS_VALIDATORS").is_ok_and(|v| v == "require") {
            panic!("{test}: `{name}` is not installed and CONDITIONS_VALIDATORS=require");
        }
        eprintln!("{test}: skipped, `{name}` is not installed (set CONDITIONS_VALIDATORS=require to fail instead)");
    }
    found
}

/// A fresh scratch folder for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("conditions-validators-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("folder");
    std::fs::write(path, text).expect("written");
}

// ---------------------------------------------------------------------------------------------
// JUnit

const XSD: &str = "tests/validators/junit-10.xsd";

/// `xmllint --schema junit-10.xsd` on `xml`: its complaints, empty when valid.
fn junit_problems(xmllint: &Path, xml: &str, dir: &Path, name: &str) -> String {
    let file = dir.join(format!("{name}.xml"));
    std::fs::write(&file, xml).expect("written");
    let out = Command::new(xmllint).args(["--noout", "--schema", XSD]).arg(&file).output().expect("xmllint runs");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    // A schema that does not load is the test's fault, not the document's.
    assert!(!said.contains("failed to compile"), "{XSD} does not load:\n{said}");
    if out.status.success() { String::new() } else { said }
}

#[test]
fn junit_output_is_valid_against_junit_10_xsd() {
    let Some(xmllint) = tool("xmllint", "junit_output_is_valid_against_junit_10_xsd") else { return };
    let dir = scratch("junit");
    // A rulebook whose case files pass, fail, and carry the characters XML escapes.
    let book = dir.join("book");
    std::fs::create_dir_all(&book).expect("book");
    std::fs::copy("tests/test_command/book/rulebook.cond", book.join("rulebook.cond")).expect("copied");
    for entry in std::fs::read_dir("tests/test_command/book/cases").expect("cases") {
        let p = entry.expect("entry").path();
        std::fs::create_dir_all(book.join("cases")).expect("cases");
        std::fs::copy(&p, book.join("cases").join(p.file_name().expect("name"))).expect("copied");
    }
    write(
        &book.join("cases/a <b> & \"c\".toml"),
        "description = \"<&>\"\nfacts = { mp = 2500 }\n[[expect]]\nruling = \"open\"\nvalue = true\n",
    );
    // A rulebook that does not check: its case files are errors.
    write(&dir.join("broken/rulebook.cond"), "rulebook \"broken\" {\n");
    write(&dir.join("broken/cases/one.toml"), "facts = {}\n");
    let mut problems = Vec::new();
    let runs: [(&str, Vec<String>); 3] = [
        ("book", vec![book.display().to_string()]),
        ("broken", vec![dir.join("broken").display().to_string()]),
        ("bundled", vec!["conditions/".into()]),
    ];
    for (name, paths) in runs {
        let mut args = vec!["test", "--format", "junit"];
        args.extend(paths.iter().map(String::as_str));
        let (code, out, err) = conditions(&args);
        assert!(matches!(code, Some(0 | 1)), "{name}: {err}");
        assert!(out.contains("<testcase "), "{name}: {out}");
        let p = junit_problems(&xmllint, &out, &dir, name);
        if !p.is_empty() {
            problems.push(format!("{name}:\n{p}\n{out}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check itself catches what it must: a `testcase` with a `file` attribute, or a
/// `testsuite` without `errors`, is refused by the schema.
#[test]
fn the_junit_check_refuses_what_the_schema_refuses() {
    let Some(xmllint) = tool("xmllint", "the_junit_check_refuses_what_the_schema_refuses") else { return };
    let dir = scratch("junit-bad");
    for (name, xml) in [
        (
            "file",
            "<testsuites><testsuite name=\"a\" tests=\"1\" failures=\"0\" errors=\"0\">\
             <testcase name=\"x\" classname=\"a\" file=\"x.toml\"/></testsuite></testsuites>",
        ),
        (
            "errors",
            "<testsuites><testsuite name=\"a\" tests=\"1\" failures=\"0\"><testcase name=\"x\"/></testsuite></testsuites>",
        ),
    ] {
        let said = junit_problems(&xmllint, xml, &dir, name);
        assert!(said.contains("fails to validate"), "{name}: accepted: {said}");
    }
}

#[test]
fn junit_counts_failures_errors_and_names_each_case_file() {
    let (code, out, _) = conditions(&["test", "tests/test_command/book", "--format", "junit"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("<testsuites name=\"conditions\" tests=\"3\" failures=\"1\" errors=\"0\" time=\""), "{out}");
    assert!(
        out.contains("<testsuite name=\"book\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\""),
        "{out}"
    );
    assert!(!out.contains(" file="), "{out}");
    for case in ["at-limit", "below", "wrong"] {
        assert!(out.contains(&format!("<testcase classname=\"book\" name=\"{case}\" time=\"")), "{out}");
        assert!(out.contains(&format!("<system-out>tests/test_command/book/cases/{case}.toml</system-out>")), "{out}");
    }
}
