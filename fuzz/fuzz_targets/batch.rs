//! Any bytes as a batch input (JSON lines) against the GNT rulebook: every line must get
//! exactly one record, numbered in order, and nothing may crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static BOOK: OnceLock<Option<conditions::check::Checked>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some(book) = BOOK.get_or_init(|| conditions::loader::load("gnt").ok()) else { return };
    let p = &book.program;
    let defs: Vec<_> = p.rulings().map(|(id, _)| id).take(1).collect();
    let mut out = Vec::new();
    let n = conditions::batch::run(p, &defs, data, &mut out, 2, |_| {}).expect("in-memory input cannot fail to read");
    let lines = data.split(|&b| b == b'\n').count() - usize::from(data.ends_with(b"\n") || data.is_empty());
    assert_eq!(n, lines);
    let text = String::from_utf8(out).expect("records are UTF-8");
    for (i, rec) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(rec).expect("each record is JSON");
        assert_eq!(v["line"], serde_json::json!(i + 1));
    }
    assert_eq!(text.lines().count(), lines);
});
