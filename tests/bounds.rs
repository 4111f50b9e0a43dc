//! Bounded facts and decisions (`fact rounds: int in 1..`, `decision d: number in 0..=1 by …`):
//! a value outside the bound is refused on input with its path and the declaring clause, and
//! the checker's analyses take the bound into account.

use conditions::loader::load;

fn book() -> conditions::check::Checked {
    load(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bounds")).expect("the bounds fixture checks")
}

#[test]
fn values_outside_the_bound_are_refused_with_their_path() {
    let c = book();
    let tree = serde_json::json!({ "rounds": 0, "scores": [3, 21], "deduction": "3/2" });
    let errs = conditions::facts::validate(&c.program, &tree, "facts.json").expect_err("out of range");
    let msgs: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
    assert!(msgs.contains(&"`rounds` must be 1 or more (declared in 1), found 0"), "{msgs:?}");
    assert!(msgs.contains(&"`scores[1]` must be from 0 to 20 (declared in 1), found 21"), "{msgs:?}");
    assert!(msgs.contains(&"`deduction` must be from 0 to 1 (declared in 1), found 1.5"), "{msgs:?}");
    assert!(errs.iter().all(|d| d.code == "conditions::fact_out_of_range"));
}

#[test]
fn values_inside_the_bound_are_read() {
    let c = book();
    let tree = serde_json::json!({ "rounds": 1, "scores": [0, 20], "deduction": 1 });
    assert!(conditions::facts::validate(&c.program, &tree, "facts.json").is_ok());
}

#[test]
fn the_analyses_know_the_bound() {
    // `rounds < 1` cannot hold for a fact declared `in 1..`: the rule can never apply.
    let c = book();
    let diags = conditions::lint::rules::dead(&c.program);
    assert!(diags.iter().any(|d| d.code == "lint::dead_rule" && d.message.contains("no_rounds")), "{diags:?}");
}
