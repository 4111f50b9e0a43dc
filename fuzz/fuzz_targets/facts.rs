//! Any bytes as a facts file (JSON, TOML or YAML, by the first byte) against the bundled
//! rulebooks: validation, every ruling and its explanation must never crash.
#![no_main]

use conditions::facts::{Format, parse, validate};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static BOOKS: OnceLock<Vec<conditions::check::Checked>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let books = BOOKS.get_or_init(|| ["gnt", "dbf"].iter().filter_map(|n| conditions::loader::load(n).ok()).collect());
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let format = match first % 3 {
        0 => Format::Json,
        1 => Format::Toml,
        _ => Format::Yaml,
    };
    let Ok(tree) = parse(text, format, "fuzz") else { return };
    for book in books {
        let p = &book.program;
        let Ok(inputs) = validate(p, &tree, "fuzz") else { continue };
        for (id, _) in p.rulings() {
            let r = conditions::eval::rule(p, &inputs, id, true);
            let e = conditions::explain::Explainer { p, sources: &book.sources, lang: conditions::eval::show::Lang::En, inputs: &inputs };
            let _ = conditions::explain::text::render(&e.report(&r, false), false);
        }
    }
});
