//! Any bytes as a facts file (JSON, TOML or YAML, by the first byte), ruling one cheap
//! ruling of the GNT rulebook without explaining it: fast enough (thousands of inputs a
//! second) to reach the readers' corners; nothing may crash.
#![no_main]

use conditions::facts::{Format, parse, validate};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static BOOK: OnceLock<Option<conditions::check::Checked>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some(book) = BOOK.get_or_init(|| conditions::loader::load("gnt").ok()) else { return };
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let format = match first % 3 {
        0 => Format::Json,
        1 => Format::Toml,
        _ => Format::Yaml,
    };
    let Ok(tree) = parse(text, format, "fuzz") else { return };
    let p = &book.program;
    let Ok(inputs) = validate(p, &tree, "fuzz") else { return };
    if let Some(def) = p.def_by_name("flights") {
        let _ = conditions::eval::rule(p, &inputs, def, false);
    }
});
