//! No panics, no aborts: long chains and deep nesting are refused with a located
//! error before any stage recurses on them; a label past column 65,535 is reported by
//! place; a closed standard error is no crash.

use super::common::*;
use conditions::syntax::parser::{MAX_EXPR_DEPTH, STACK_BYTES};

/// Runs `f` on a thread with the command's stack, as the command does.
fn on_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(STACK_BYTES).spawn(f).unwrap().join().unwrap()
}

fn too_deep(decls: String) -> bool {
    on_stack(move || book(&decls).diagnostics.iter().any(|d| d.code == "conditions::too_deep" && !d.labels.is_empty()))
}

#[test]
fn a_5000_term_sum_is_a_located_error() {
    assert!(too_deep(format!("fact x: int\nruling r: int = {}", vec!["x"; 5000].join(" + "))));
    assert!(too_deep(format!("fact x: int\nruling r: int = {}", vec!["x"; 3500].join(" + "))));
    assert!(too_deep(format!("fact x: bool\nruling r: bool = {}", vec!["x"; 2000].join(" and "))));
}

#[test]
fn a_sum_within_the_limit_is_ruled() {
    let n = MAX_EXPR_DEPTH - 10;
    let out = on_stack(move || {
        let c = checked_ok(&format!("fact x: int\nruling r: int = {}", vec!["x"; n].join(" + ")));
        rule(&c, r#"{"x": 2}"#)
    });
    assert_eq!(out, (2 * n).to_string());
}

#[test]
fn a_1500_arm_else_if_chain_is_a_located_error() {
    let arms: Vec<String> = (0..1500).map(|i| format!("if x == {i} then {i} else")).collect();
    assert!(too_deep(format!("fact x: int\nruling r: int = {} 0", arms.join(" "))));
}

#[test]
fn long_runs_of_not_and_minus_are_located_errors() {
    assert!(too_deep(format!("fact x: bool\nruling r: bool = {}x", "not ".repeat(100_000))));
    assert!(too_deep(format!("fact x: int\nruling r: int = {}x", "- ".repeat(100_000))));
    assert!(too_deep(format!("fact x: int\nruling r: int = {}x", "let y = 1 in ".repeat(5000))));
}

#[test]
fn a_label_past_column_65535_is_reported_by_place() {
    let c = book(&format!("fact x: int\nruling r: int = {}nosuch", " ".repeat(70_000)));
    assert!(c.has_errors());
    let out = conditions::diagnostic::render(&c.diagnostics, &c.sources, true);
    assert!(out.contains("unknown name `nosuch`") && out.contains("t.cond:3:70017"), "{out}");
}

#[test]
fn a_closed_standard_error_is_no_crash() {
    let dir = std::env::temp_dir().join(format!("conditions-adv-stderr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.cond"), "rulebook \"t\" { title \"t\" language \"en\" }\nruling r: int = nosuch\n")
        .unwrap();
    let code = exit_code_with_closed_stderr(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "an error in the rulebook, reported or not, and no panic (101)");
}

/// The exit code of the command run with its standard error closed at once.
fn exit_code_with_closed_stderr(args: &[&str]) -> Option<i32> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(args)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    child.wait().unwrap().code()
}

#[test]
fn a_closed_standard_error_is_no_crash_in_diff() {
    let missing = std::env::temp_dir().join(format!("conditions-adv-no-such-{}", std::process::id()));
    let missing = missing.to_str().unwrap();
    let code = exit_code_with_closed_stderr(&["diff", missing, missing]);
    assert_eq!(code, Some(2), "a version that cannot be read, reported or not, and no panic (101)");
}
