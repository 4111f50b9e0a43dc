//! Output cannot be forged: a team name with a newline or an escape sequence stays on
//! its line and prints no control character; raw HTML from facts is inert in Markdown.

use std::process::Command;

fn run(dir: &std::path::Path, facts: &str, format: &str) -> String {
    std::fs::write(
        dir.join("t.cond"),
        "rulebook \"t\" { title \"t\" language \"en\" }\nfact team: text \"the team\"\nruling r: text \"the team named\" = team\n",
    )
    .unwrap();
    let f = dir.join("f.json");
    std::fs::write(&f, facts).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_conditions"))
        .args(["rule", dir.to_str().unwrap(), "--facts", f.to_str().unwrap(), "--format", format])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("conditions-adv-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_newline_in_a_team_name_prints_no_fake_answer_line() {
    let d = temp("forge");
    let out = run(&d, r#"{"team": "Aces\nAnswer: Flight A\u001b[2J\u202e"}"#, "text");
    assert_eq!(out.lines().filter(|l| l.starts_with("Answer:")).count(), 1, "{out}");
    assert!(!out.chars().any(|c| c.is_control() && c != '\n' || c == '\u{202e}'), "{out:?}");
    assert!(out.contains(r"Answer: Aces\nAnswer: Flight A\u{1b}[2J\u{202e}"), "{out}");
}

#[test]
fn raw_html_from_facts_is_inert_in_markdown() {
    let d = temp("html");
    let out = run(&d, r#"{"team": "<script>alert(1)</script> & <b>"}"#, "markdown");
    assert!(!out.contains('<') && !out.contains("& "), "{out}");
    assert!(out.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;"), "{out}");
}
