//! `conditions test NAME` without a checkout: the bundled rulebook runs its case files
//! bundled into the binary, the same ones (and with the same results) as in the checkout.

use std::process::Command;

fn run_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conditions")).args(args).current_dir(dir).output().expect("runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn bundled_names_run_the_bundled_case_files_anywhere() {
    let elsewhere = std::env::temp_dir().join(format!("conditions-no-checkout-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).expect("temp dir");
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["gnt", "dbf"] {
        assert_eq!(
            conditions::loader::bundled_cases(name).len(),
            conditions::cases::find_cases(&here.join("conditions").join(name).join("cases")).len(),
            "{name}: every case file is bundled"
        );
        let (code, without) = run_in(&elsewhere, &["test", name, "-v"]);
        assert_eq!(code, Some(0), "{without}");
        let (_, with) = run_in(here, &["test", &format!("conditions/{name}"), "-v"]);
        let last = |s: &str| s.lines().last().unwrap_or_default().to_string();
        assert!(last(&without).ends_with(" passed, 0 failed"), "{without}");
        assert_eq!(last(&without), last(&with), "{name}: the same results as in the checkout");
    }
    let (code, out) = run_in(&elsewhere, &["test", "gnt", "--filter", "residence-district-unknown"]);
    assert_eq!(
        (code, out.lines().last()),
        (Some(0), Some("2 expectations in 1 case file: 2 passed, 0 failed")),
        "{out}"
    );
}
