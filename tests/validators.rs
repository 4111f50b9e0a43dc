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

// ---------------------------------------------------------------------------------------------
// SARIF

/// The OASIS SARIF 2.1.0 schema (`tests/schemas/`), as a validator.
fn sarif_schema() -> jsonschema::Validator {
    let mut schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("tests/schemas/sarif-schema-2.1.0.json").expect("schema"))
            .expect("json");
    // The published schema's `language` patterns have a stray `]` a strict regex engine
    // rejects; they are replaced by the pattern they mean (tests/sarif.rs does the same).
    for def in ["run", "toolComponent"] {
        schema["definitions"][def]["properties"]["language"]["pattern"] =
            serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft7)
        .should_validate_formats(true)
        .build(&schema)
        .expect("a valid schema")
}

fn sarif_of(args: &[&str], dir: Option<&Path>) -> serde_json::Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_conditions"));
    cmd.args(["check", "--format", "sarif"]).args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let out = cmd.output().expect("conditions runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn assert_valid_sarif(log: &serde_json::Value) {
    let errors: Vec<String> =
        sarif_schema().iter_errors(log).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}\n{log:#}", errors.join("\n"));
}

/// A rulebook with an unknown name after `§` and `æ` on its line, in a scratch folder.
fn columns_book(tag: &str) -> PathBuf {
    let dir = scratch(tag);
    write(
        &dir.join("book/rulebook.cond"),
        "rulebook \"col\" {\n  title \"Columns\"\n  language \"en\"\n}\n\nclause \"§ 1\" {\n  text \"Fee.\"\n  \
         ruling fee: int \"§æ fee\" = nope\n}\n",
    );
    dir
}

fn locations(log: &serde_json::Value) -> Vec<&serde_json::Value> {
    let results = log["runs"][0]["results"].as_array().expect("results");
    results.iter().map(|r| &r["locations"][0]["physicalLocation"]["artifactLocation"]).collect()
}

/// Every URI in the log is absolute, or relative under `%SRCROOT%`, which is an absolute
/// folder URI (SARIF 2.1.0 §3.4.4, §3.14.14; the Multitool's SARIF1004).
fn assert_uri_rules(log: &serde_json::Value) {
    let base = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("%SRCROOT%");
    assert!(base.starts_with("file:///") && base.ends_with('/'), "{base}");
    for loc in locations(log) {
        let uri = loc["uri"].as_str().expect("uri");
        match loc["uriBaseId"].as_str() {
            Some(id) => {
                assert_eq!(id, "%SRCROOT%");
                assert!(!uri.contains(':') && !uri.starts_with('/') && !uri.starts_with(".."), "{uri}");
            }
            None => assert!(uri.starts_with("file:///"), "{uri}"),
        }
    }
}

/// The file and anchor a documentation link points to exist.
fn assert_doc_link(uri: &str) {
    let (file, anchor) = uri.split_once('#').map_or((uri, None), |(f, a)| (f, Some(a)));
    let path = file.strip_prefix("file://").expect("a file: URI");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{uri}: {e}"));
    if let Some(anchor) = anchor {
        let found = text.lines().filter_map(|l| l.strip_prefix("## ")).any(|h| conditions::sarif::slug(h) == anchor);
        assert!(found, "{uri}: no heading with the anchor `{anchor}`");
    }
}

#[test]
fn sarif_locations_are_relative_to_the_working_directory_or_source_root() {
    let here = std::env::current_dir().expect("cwd");
    let dir = columns_book("sarif-root");
    // An absolute input under the working directory: relative to it.
    let abs = here.join("tests/diagnostics/adding_currencies.cond");
    let log = sarif_of(&[abs.to_str().expect("utf-8")], None);
    assert_valid_sarif(&log);
    assert_uri_rules(&log);
    assert_eq!(locations(&log)[0]["uri"], "tests/diagnostics/adding_currencies.cond", "{log:#}");
    let root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("root");
    assert_eq!(root, conditions::sarif::file_uri(&here.canonicalize().expect("real"), true));
    // `--source-root`, relative or absolute, and a relative input.
    for root in [dir.display().to_string(), "..".to_string()] {
        let log = sarif_of(&["book", "--source-root", &root], Some(&dir));
        assert_valid_sarif(&log);
        assert_uri_rules(&log);
        let want = if root == ".." {
            format!("{}/book/rulebook.cond", dir.file_name().unwrap().to_string_lossy())
        } else {
            "book/rulebook.cond".into()
        };
        assert_eq!(locations(&log)[0]["uri"], want.as_str(), "{log:#}");
    }
    // A file outside the source root keeps an absolute URI, without a base.
    let log = sarif_of(&[dir.join("book").to_str().expect("utf-8")], None);
    assert_valid_sarif(&log);
    assert_uri_rules(&log);
    assert!(locations(&log)[0]["uriBaseId"].is_null(), "{log:#}");
}

#[test]
fn sarif_names_the_tool_s_documentation_and_each_rule_s_page() {
    let log = sarif_of(&["tests/diagnostics/adding_currencies.cond", "tests/lints/table_gap.fail.cond"], None);
    assert_valid_sarif(&log);
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_doc_link(driver["informationUri"].as_str().expect("informationUri"));
    let rules = driver["rules"].as_array().expect("rules");
    assert!(rules.len() >= 2, "{log:#}");
    for rule in rules {
        let uri = rule["helpUri"].as_str().expect("helpUri");
        assert!(uri.contains('#'), "{uri}");
        assert_doc_link(uri);
    }
}

/// Every lint and every code the tables of docs/diagnostics.md list links to a heading that exists.
#[test]
fn every_code_s_documentation_anchor_exists() {
    let here = std::env::current_dir().expect("cwd");
    let docs = conditions::sarif::file_uri(&here.join("docs"), true);
    for (code, _, _) in conditions::lint::LINTS {
        assert_doc_link(&format!("{docs}{}", conditions::sarif::doc_path(code).trim_start_matches("docs/")));
    }
    let page = std::fs::read_to_string("docs/diagnostics.md").expect("docs/diagnostics.md");
    let mut seen = 0;
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with('|')).collect();
    for part in rows.iter().flat_map(|r| r.split('`').skip(1).step_by(2)).filter(|p| p.starts_with("conditions::")) {
        let path = conditions::sarif::doc_path(part);
        assert!(path.contains('#'), "{part}: {path}");
        assert_doc_link(&format!("{docs}{}", path.trim_start_matches("docs/")));
        seen += 1;
    }
    assert!(seen > 40, "{seen}");
}

/// Every code `src/` emits (`Diagnostic::error("conditions::…", …)`, `error[conditions::…]`) is
/// listed in a table of docs/diagnostics.md.
#[test]
fn every_code_emitted_in_src_is_documented() {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src readable") {
            let path = e.expect("entry").path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(Path::new("src"), &mut files);
    let mut emitted = std::collections::BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("utf-8 source");
        for (at, _) in text.match_indices("conditions::") {
            let rest = &text[at + "conditions::".len()..];
            let name_len =
                rest.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')).unwrap_or(rest.len());
            if name_len > 0 && matches!(rest[name_len..].chars().next(), Some('"' | ']')) {
                emitted.insert(format!("conditions::{}", &rest[..name_len]));
            }
        }
    }
    assert!(emitted.len() > 60, "{emitted:?}");
    let page = std::fs::read_to_string("docs/diagnostics.md").expect("docs/diagnostics.md");
    let missing: Vec<&String> = emitted
        .iter()
        .filter(|code| !page.lines().any(|l| l.starts_with('|') && l.contains(&format!("`{code}`"))))
        .collect();
    assert!(missing.is_empty(), "codes emitted in src/ but not in a table of docs/diagnostics.md: {missing:?}");
}

/// A column after `§` and `æ` counts characters, in SARIF and in the human output alike.
#[test]
fn columns_count_characters_in_sarif_and_human_output() {
    let dir = columns_book("columns");
    let book = dir.join("book");
    let log = sarif_of(&[book.to_str().expect("utf-8")], None);
    assert_valid_sarif(&log);
    assert_eq!(log["runs"][0]["columnKind"], "unicodeCodePoints");
    let region = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startLine"], &region["startColumn"], &region["endColumn"]),
        (&8.into(), &30.into(), &34.into())
    );
    let (_, _, err) = conditions(&["check", book.to_str().expect("utf-8")]);
    assert!(err.contains("rulebook.cond:8:30]"), "{err}");
    let (_, out, _) = conditions(&["check", "--format", "github", book.to_str().expect("utf-8")]);
    assert!(out.contains(",line=8,col=30,"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Man page

#[test]
fn the_man_page_passes_mandoc_lint_and_names_only_pages_that_exist() {
    let (code, page, err) = conditions(&["man"]);
    assert_eq!(code, Some(0), "{err}");
    // `conditions man` writes one page, conditions(1); the commands are its sections.
    let mut named = Vec::new();
    for (i, _) in page.match_indices("(1)") {
        let before = &page[..i];
        let start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\\')).map_or(0, |s| s + 1);
        named.push(before[start..].replace("\\-", "-"));
    }
    assert!(named.iter().all(|n| n == "conditions"), "pages that do not exist: {named:?}");
    for command in ["list", "check", "rule", "test", "completions", "man"] {
        assert!(page.contains(&format!("\\fBconditions {command}\\fR")), "`{command}` not listed");
        assert!(page.contains(&format!(".SH \"CONDITIONS {}\"", command.to_uppercase())), "no section for `{command}`");
    }
    let Some(mandoc) = tool("mandoc", "the_man_page_passes_mandoc_lint_and_names_only_pages_that_exist") else {
        return;
    };
    let dir = scratch("man");
    let file = dir.join("conditions.1");
    std::fs::write(&file, &page).expect("written");
    let out = Command::new(&mandoc).args(["-Tlint", "-W", "warning"]).arg(&file).output().expect("mandoc runs");
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.trim().is_empty(), "mandoc -Tlint:\n{said}");
    // Of mandoc's style remarks, only the long lines of the commands' help are left.
    let out = Command::new(&mandoc).arg("-Tlint").arg(&file).output().expect("mandoc runs");
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let other: Vec<&str> = said.lines().filter(|l| !l.contains("input text line longer than 80 bytes")).collect();
    assert!(other.is_empty(), "mandoc -Tlint:\n{}", other.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Shell completion

/// The completion script of `shell`, written to a scratch file.
fn script(shell: &str, dir: &Path) -> PathBuf {
    let (code, text, err) = conditions(&["completions", shell]);
    assert_eq!(code, Some(0), "{err}");
    let file = dir.join(format!("conditions.{shell}"));
    std::fs::write(&file, text).expect("written");
    file
}

/// A `PATH` with the built `conditions` first, as the scripts call it by name.
fn path_with_binary() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_conditions")).parent().expect("a folder").to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest))).expect("a PATH")
}

fn lines(out: &Output) -> Vec<String> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.split('\t').next().unwrap_or(l).to_string()).collect()
}

#[test]
fn the_hidden_values_command_lists_rulings_and_languages() {
    let (code, out, _) = conditions(&["complete-values", "ruling", "--", "conditions", "rule", "gnt", "--ruling"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l == "flights"), "{out}");
    // From the subcommand on (as zsh gives the words), a folder, and `--ruling=`.
    let (_, out, _) = conditions(&["complete-values", "ruling", "--", "template", "conditions/dbf", "--ruling", "="]);
    assert!(out.lines().any(|l| l.starts_with("s301.")), "{out}");
    let (_, out, _) = conditions(&["complete-values", "lang", "--", "conditions", "rule", "dbf", "--lang"]);
    assert!(out.lines().any(|l| l == "da") && out.lines().any(|l| l == "en"), "{out}");
    // No rulebook, or one that does not load: nothing, and no error.
    for words in [&["conditions", "rule", "--ruling"][..], &["conditions", "rule", "no/such/book", "--ruling"]] {
        let mut args = vec!["complete-values", "ruling", "--"];
        args.extend(words);
        assert_eq!(conditions(&args), (Some(0), String::new(), String::new()));
    }
    // It is no command of help, the man page or the scripts.
    let (_, help, _) = conditions(&["--help"]);
    assert!(!help.contains("complete-values"), "{help}");
}

#[test]
fn bash_completes_rulings_and_languages() {
    let Some(bash) = tool("bash", "bash_completes_rulings_and_languages") else { return };
    let dir = scratch("bash");
    let file = script("bash", &dir);
    let bin = env!("CARGO_BIN_EXE_conditions");
    let complete = |words: &[&str]| -> Vec<String> {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let program = format!(
            "source '{}'\nCOMP_WORDS=('{bin}' {})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n\
             _conditions_values \"${{COMP_WORDS[0]}}\" \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            file.display(),
            quoted.join(" "),
            words.len()
        );
        lines(&Command::new(&bash).arg("-c").arg(program).output().expect("bash runs"))
    };
    let rulings = complete(&["rule", "gnt", "--ruling", ""]);
    assert!(rulings.contains(&"flights".to_string()), "{rulings:?}");
    let some = complete(&["rule", "gnt", "--facts", "f.json", "--ruling", "fl"]);
    assert!(!some.is_empty() && some.iter().all(|r| r.starts_with("fl")), "{some:?}");
    let eq = complete(&["rule", "gnt", "--ruling", "=", "fl"]);
    assert_eq!(eq, some);
    let langs = complete(&["rule", "dbf", "--lang", ""]);
    assert!(langs.contains(&"da".to_string()) && langs.contains(&"en".to_string()), "{langs:?}");
    // Other words still go to clap's completion.
    let commands = complete(&["ru"]);
    assert_eq!(commands, ["rule"]);
    // The script registers the function that answers for the values.
    let program = format!("source '{}'\ncomplete -p conditions\n", file.display());
    let registered = lines(&Command::new(&bash).arg("-c").arg(program).output().expect("bash runs"));
    assert!(registered.iter().any(|l| l.contains("-F _conditions_values")), "{registered:?}");
}

/// Drives zsh's completion system in a pseudo-terminal (`zsh/zpty`): types LINE and a tab,
/// and reads the screen until it shows WANT (or 30 seconds pass).
const ZSH_DRIVER: &str = r#"
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "PS1='> '; autoload -U compinit; compinit -u -D; source ${0:h}/conditions.zsh; LISTMAX=10000"
zpty -w -n z $1$'\t'
out=""
for i in {1..300}; do
  if zpty -rt z chunk; then out+=$chunk; else sleep 0.1; fi
  [[ $out == *$2* ]] && break
done
zpty -d z
print -r -- $out
"#;

#[test]
fn zsh_completes_rulings_and_languages() {
    let Some(zsh) = tool("zsh", "zsh_completes_rulings_and_languages") else { return };
    let dir = scratch("zsh");
    script("zsh", &dir);
    let driver = dir.join("drive.zsh");
    std::fs::write(&driver, ZSH_DRIVER).expect("written");
    let screen = |line: &str, want: &str| -> String {
        let out = Command::new(&zsh)
            .arg("-f")
            .arg(&driver)
            .args([line, want])
            .current_dir(&dir)
            .env("PATH", path_with_binary())
            .env("HOME", &dir)
            .output()
            .expect("zsh runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // `fl` completed to the one ruling of GNT that starts so.
    let s = screen("conditions rule gnt --ruling fl", "flights");
    assert!(s.contains("--ruling flights"), "{s}");
    let s = screen("conditions template gnt --ruling=fl", "flights");
    assert!(s.contains("--ruling=flights"), "{s}");
    // Every language listed.
    let s = screen("conditions rule dbf --lang ", "sv");
    assert!(["da", "en", "nb", "sv"].iter().all(|l| s.contains(l)), "{s}");
    // Other words still go to clap's completion.
    let s = screen("conditions ru", "rule");
    assert!(s.contains("conditions rule"), "{s}");
}

#[test]
fn fish_completes_rulings_and_languages_and_no_files_after_completions() {
    let Some(fish) = tool("fish", "fish_completes_rulings_and_languages_and_no_files_after_completions") else {
        return;
    };
    let dir = scratch("fish");
    let file = script("fish", &dir);
    std::fs::write(dir.join("a-file.txt"), "").expect("a file");
    let complete = |line: &str| -> Vec<String> {
        let program = format!("source '{}'\ncomplete -C '{line}'\n", file.display());
        let out = Command::new(&fish)
            .args(["--no-config", "-c"])
            .arg(program)
            .current_dir(&dir)
            .env("PATH", path_with_binary())
            .env("HOME", &dir)
            .output()
            .expect("fish runs");
        lines(&out)
    };
    let here = std::env::current_dir().expect("cwd");
    let gnt = here.join("conditions/gnt");
    let rulings = complete(&format!("conditions rule {} --ruling ", gnt.display()));
    assert!(rulings.contains(&"flights".to_string()), "{rulings:?}");
    assert!(!rulings.iter().any(|r| r.contains("a-file")), "{rulings:?}");
    let langs = complete("conditions rule dbf --lang ");
    assert!(langs.contains(&"da".to_string()) && langs.contains(&"en".to_string()), "{langs:?}");
    let shells = complete("conditions completions ");
    assert!(shells.contains(&"fish".to_string()) && shells.contains(&"bash".to_string()), "{shells:?}");
    assert!(!shells.iter().any(|s| s.contains("a-file")), "files offered after `completions`: {shells:?}");
    let nothing = complete("conditions man ");
    assert!(!nothing.iter().any(|s| s.contains("a-file")), "files offered after `man`: {nothing:?}");
}
