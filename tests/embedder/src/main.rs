//! An embedder's build: `conditions` with serde_json as the program configures it (here its
//! default features). It checks that `preserve_order` is indeed off, that facts are read
//! exactly and that the JSON the library writes keeps its documented order; it prints what
//! it ruled and exits with an error when a check fails.

use conditions::api::{Format, Rulebook};
use std::process::ExitCode;

fn checks() -> Result<String, String> {
    let mut out = String::new();
    // serde_json as it comes: a map sorts its keys, a number keeps only its binary value.
    let map: serde_json::Value = serde_json::from_str(r#"{"b": 1, "a": 2}"#).map_err(|e| e.to_string())?;
    let keys: Vec<&String> = map.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    if keys != ["a", "b"] {
        return Err(format!("serde_json keeps the order of keys here ({keys:?}): `preserve_order` is on"));
    }
    // `arbitrary_precision` is the program's to choose; what follows holds either way.
    let number: serde_json::Value = serde_json::from_str("1.50").map_err(|e| e.to_string())?;
    let precise = if number.to_string() == "1.50" { "on" } else { "off" };
    out.push_str(&format!("serde_json: preserve_order off, arbitrary_precision {precise}\n"));

    let gnt = Rulebook::bundled("gnt").map_err(|e| e.to_string())?;
    let flights = gnt.ruling("flights").map_err(|e| e.to_string())?;
    // GNT: Flight A is for fewer than 5,000 masterpoints, Flight B for fewer than 2,000;
    // 4999.99999999999999 is fewer than 5,000, though the nearest f64 is 5000.
    let facts = gnt
        .facts_from_json_str(r#"{"player": {"masterpoints": 4999.99999999999999, "life_master": false}}"#)
        .map_err(|e| e.to_string())?;
    let outcome = flights.rule(&facts).map_err(|e| e.to_string())?;
    let answer = outcome.answer().ok_or("flights: no answer")?.to_json();
    if answer != serde_json::json!(["Championship", "A"]) {
        return Err(format!("4999.99999999999999 masterpoints: expected [\"Championship\",\"A\"], got {answer}"));
    }
    out.push_str(&format!("4999.99999999999999 masterpoints: {answer}\n"));
    // A decimal given through a `serde_json::Value` is read as the decimal it is written
    // as: 1999.9 is fewer than 2,000 (Flight B too).
    let facts = gnt
        .facts(&serde_json::json!({"player": {"masterpoints": 1999.9, "life_master": true}}))
        .map_err(|e| e.to_string())?;
    let answer = flights.rule(&facts).map_err(|e| e.to_string())?.answer().ok_or("no answer")?.to_json();
    if answer != serde_json::json!(["Championship", "A", "B"]) {
        return Err(format!("1999.9 masterpoints: expected [\"Championship\",\"A\",\"B\"], got {answer}"));
    }
    out.push_str(&format!("1999.9 masterpoints: {answer}\n"));

    // The JSON report keeps the order of docs/json.md, and a record its fields' order
    // (National Finals 5 ¶5: Flight C's 40 points, one third gold, two thirds red).
    let award = gnt.ruling("national_first_place_award").map_err(|e| e.to_string())?;
    let facts = gnt.facts(&serde_json::json!({"event_flight": "C"})).map_err(|e| e.to_string())?;
    let report = award.rule(&facts).map_err(|e| e.to_string())?.explain(gnt.language(), Format::Json);
    let order = [
        "\"rulebook\"",
        "\"ruling\"",
        "\"status\"",
        "\"answer\"",
        "\"value\"",
        "\"total\"",
        "\"gold\"",
        "\"red\"",
        "\"black\"",
        "\"steps\"",
        "\"clauses\"",
    ];
    let places: Vec<Option<usize>> = order.iter().map(|k| report.find(k)).collect();
    if places.iter().any(Option::is_none) || places.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!("the report's keys are not in order {order:?}:\n{report}"));
    }
    if !report.contains("\"value\": {\n    \"total\": \"40\",\n    \"gold\": \"40/3\",\n    \"red\": \"80/3\",\n    \"black\": \"0\"\n  }") {
        return Err(format!("the award's value is not as docs/json.md writes it:\n{report}"));
    }
    out.push_str(&report);
    out.push('\n');
    Ok(out)
}

fn main() -> ExitCode {
    match checks() {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("embedder check failed: {e}");
            ExitCode::FAILURE
        }
    }
}
