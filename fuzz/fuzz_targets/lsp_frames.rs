//! Any bytes as the language server's standard input: the frame reader must never panic or
//! abort, must keep each body within its limit whatever length a header claims, and must
//! answer every frame it cannot read with a JSON-RPC error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A small limit, so that lengths over it are reached.
    let (_, replies) = conditions::lsp::read_frames(data, 4096);
    for r in replies {
        assert_eq!(r["jsonrpc"], "2.0");
        let code = r["error"]["code"].as_i64().expect("an error code");
        assert!(code == -32700 || code == -32600, "{r}");
        assert!(r["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{r}");
    }
});
