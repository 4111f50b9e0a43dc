//! Embedding `conditions`: load a bundled rulebook once, rule on a player's facts
//! given as the program's own struct, and explain the ruling.
//!
//! `cargo run --example embed`; `cargo test` runs it too.

use conditions::api::{Error, Format, Rulebook, Status};
use serde::Serialize;

#[derive(Serialize)]
struct Player {
    masterpoints: u32,
    life_master: bool,
}

#[derive(Serialize)]
struct Entry {
    player: Player,
}

/// Rules on the flights of one player; returns what `main` prints.
fn run() -> Result<String, Error> {
    let gnt = Rulebook::bundled("gnt")?;
    let flights = gnt.ruling("flights")?;
    let facts = gnt.facts(&Entry { player: Player { masterpoints: 2150, life_master: true } })?;
    let outcome = flights.rule(&facts)?;
    let mut out = String::new();
    if outcome.status() == Status::Decided
        && let Some(answer) = outcome.answer()
    {
        out.push_str(&format!("{answer}\n{}\n", answer.to_json()));
    }
    out.push_str(&outcome.explain(gnt.language(), Format::Text));
    // A fact left out makes the ruling undetermined, naming what it needs.
    let open = gnt.facts_builder().set("player.life_master", false).build()?;
    for need in flights.rule(&open)?.needs() {
        out.push_str(&format!("needs `{}`: {}\n", need.name, need.sentence));
    }
    Ok(out)
}

fn main() -> miette::Result<()> {
    print!("{}", run()?);
    Ok(())
}

#[test]
fn embed_runs() {
    let out = run().expect("the example rules");
    assert!(out.starts_with("Championship Flight, Flight A\n[\"Championship\",\"A\"]\n"), "{out}");
    assert!(out.contains("needs `player.masterpoints`"), "{out}");
}
