//! `conditions`: an interpreter for bridge conditions of contest written as data.
//!
//! Programs that embed it use [`api`]: load a rulebook, read facts, rule, explain.
//!
//! Pipeline inside, on the bottom layer `base` (values, numbers, dates, message lookup):
//! `syntax` (parse `.cond` files) → `check` (resolve, type, lower to a
//! checked program) → `eval` (rule on facts, exactly) → `explain` (cited, quoted
//! explanations) → `cli`. `loader` reads rulebooks; `facts` reads and validates facts
//! files; `serve` puts it in a browser and behind a JSON API. Those modules are public
//! only for the command-line program, the benches and the integration tests: they are
//! hidden from the documentation and may change without notice.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

#[doc(hidden)]
pub mod analysis;
pub mod api;
#[doc(hidden)]
pub mod ask;
#[doc(hidden)]
pub mod base;
#[cfg(any(feature = "cli", feature = "serve"))]
#[doc(hidden)]
pub mod batch;
#[doc(hidden)]
pub mod cases;
#[doc(hidden)]
pub mod check;
#[doc(hidden)]
pub mod coverage;
#[doc(hidden)]
pub mod diagnostic;
#[doc(hidden)]
pub mod diff;
#[doc(hidden)]
pub mod discover;
#[doc(hidden)]
pub mod eval;
#[doc(hidden)]
pub mod explain;
#[doc(hidden)]
pub mod facts;
#[doc(hidden)]
pub mod format;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod lint;
/// Languages and their tags live in the bottom layer; the old path stays for programs that name it.
#[doc(hidden)]
pub use base::lang;
#[doc(hidden)]
pub mod loader;
#[cfg(feature = "lsp")]
#[doc(hidden)]
pub mod lsp;
#[doc(hidden)]
pub mod sarif;
#[cfg(feature = "serve")]
#[doc(hidden)]
pub mod serve;
#[doc(hidden)]
pub mod show;
#[doc(hidden)]
pub mod source;
#[doc(hidden)]
pub mod syntax;

/// The embedding guide, `docs/embedding.md`: its Rust blocks compile and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
pub struct EmbeddingGuide;
