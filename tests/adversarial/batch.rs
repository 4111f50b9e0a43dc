//! Batch loses nothing: every input line gets exactly one record, in order, naming its
//! line, whatever the line holds — a bad byte, a blank, more than the size limit.

use super::common::*;
use conditions::batch::{MAX_LINE_BYTES, run};
use proptest::prelude::*;

const FLIGHT: &str = "fact mp: number\nruling r: bool = mp < 5000";

fn records(input: &[u8], threads: usize) -> Vec<serde_json::Value> {
    let c = checked_ok(FLIGHT);
    let def = c.program.def_by_name("r").unwrap();
    let mut out = Vec::new();
    let n = run(&c.program, &[def], input, &mut out, threads, |_| {}).expect("runs");
    let recs: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(recs.len(), n);
    recs
}

#[test]
fn an_invalid_byte_at_line_100000_of_200000_loses_no_line() {
    let mut input = Vec::new();
    for i in 1..=200_000u32 {
        if i == 100_000 {
            input.extend_from_slice(b"{\"mp\": \xff}\n");
        } else {
            input.extend_from_slice(format!("{{\"mp\": {}}}\n", i % 10_000).as_bytes());
        }
    }
    let recs = records(&input, 2);
    assert_eq!(recs.len(), 200_000);
    for (i, r) in recs.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(r["line"], n);
        if n == 100_000 {
            let e = r["error"].as_str().unwrap();
            assert!(e.contains("line 100000") && e.contains("UTF-8"), "{e}");
        } else {
            // mp = n mod 10,000, always below 5,000 or not, decided.
            assert_eq!(r["r"]["value"], (n % 10_000) < 5000, "line {n}");
        }
    }
}

#[test]
fn an_over_long_line_is_one_error_record_and_the_next_line_is_ruled() {
    let mut input = b"{\"mp\": 1}\n{\"mp\": \"".to_vec();
    input.extend(std::iter::repeat_n(b'9', MAX_LINE_BYTES + 10));
    input.extend_from_slice(b"\"}\n\n{\"mp\": 6000}");
    let recs = records(&input, 1);
    assert_eq!(recs.len(), 4);
    assert_eq!(recs[0]["r"]["value"], true);
    assert!(recs[1]["error"].as_str().unwrap().contains("longer than the limit"), "{}", recs[1]);
    assert!(recs[2]["error"].as_str().unwrap().contains("empty line"));
    assert_eq!(recs[3]["line"], 4);
    assert_eq!(recs[3]["r"]["value"], false);
}

#[test]
fn a_deep_expression_is_ruled_in_a_batch_worker() {
    // The check runs on a thread with the command's stack, as in the command; the
    // rulings on the batch's own workers.
    let n = conditions::syntax::parser::MAX_EXPR_DEPTH - 10;
    let c = std::thread::Builder::new()
        .stack_size(conditions::syntax::parser::STACK_BYTES)
        .spawn(move || checked_ok(&format!("fact mp: int\nruling r: int = {}", vec!["mp"; n].join(" + "))))
        .unwrap()
        .join()
        .unwrap();
    let def = c.program.def_by_name("r").unwrap();
    let mut out = Vec::new();
    run(&c.program, &[def], &b"{\"mp\": 1}\n{\"mp\": 2}\n"[..], &mut out, 2, |_| {}).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains(&format!("\"value\":\"{}\"", 2 * n)), "{out}");
}

#[test]
fn duplicate_keys_in_a_batch_line_are_an_error_record() {
    let recs = records(b"{\"mp\": 1, \"mp\": 9000}\n", 1);
    assert!(recs[0]["error"].as_str().unwrap().contains("twice"), "{}", recs[0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_batch_line_is_answered_exactly_once(lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..40), 0..60), threads in 1usize..4) {
        let mut input = Vec::new();
        let mut expected = 0usize;
        for l in &lines {
            let l: Vec<u8> = l.iter().copied().filter(|&b| b != b'\n').collect();
            input.extend_from_slice(&l);
            input.push(b'\n');
            expected += 1;
        }
        let recs = records(&input, threads);
        prop_assert_eq!(recs.len(), expected);
        for (i, r) in recs.iter().enumerate() {
            prop_assert_eq!(&r["line"], &serde_json::json!(i + 1));
        }
    }
}
