//! Any bytes as a condition file: reading, parsing, checking, linting and formatting
//! must answer with diagnostics, never crash.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut map = conditions::source::SourceMap::new();
    map.add("fuzz.cond", text.to_string());
    let checked = conditions::check::check_sources(map);
    let _ = conditions::diagnostic::render(&checked.diagnostics, &checked.sources, true);
    if !checked.has_errors() {
        let _ = conditions::lint::run(&conditions::lint::Context { checked: &checked, document: Some(text), tested: None });
    }
    let _ = conditions::format::format_text(text);
});
