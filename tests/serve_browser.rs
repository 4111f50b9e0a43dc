//! The ruling pages in a real browser (headless Chromium through chromedriver, at a
//! phone's 360 px): the GNT qualifiers form filled with nine teams and a tie at the cut,
//! and DBF § 304B1 answered one question at a time; the answer and the quoted clauses are
//! read off the page, and no page scrolls sideways. Screenshots are written to
//! `target/screenshots/`. Skipped (with a note) when Chromium or its driver is missing;
//! `.ci/run` installs both.

#[path = "support/http.rs"]
mod http;
#[path = "support/webdriver.rs"]
mod webdriver;

use serde_json::Value as J;
use webdriver::Browser;

fn shots() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots")
}

fn browser() -> Option<Browser> {
    match webdriver::find() {
        Some((chromium, driver)) => Some(Browser::start(&chromium, &driver, 360)),
        None if std::env::var_os("CI").is_some()
            || std::env::var("CONDITIONS_BROWSER").is_ok_and(|v| v == "require") =>
        {
            panic!("chromium and chromedriver are needed in CI (CONDITIONS_BROWSER=require)")
        }
        None => {
            eprintln!("skipped: chromium or chromedriver not installed");
            None
        }
    }
}

fn no_sideways_scroll(b: &Browser, what: &str) {
    assert_eq!(b.width(), 360, "{what}: the window is not 360 px wide");
    assert!(!b.scrolls_sideways(), "{what}: the page scrolls sideways at 360 px");
}

#[test]
fn gnt_qualifiers_nine_teams_with_a_tie_at_the_cut() {
    let Some(b) = browser() else { return };
    let addr = http::start_bundled();
    b.goto(&format!("http://{addr}/gnt/ruling/qualifiers?lang=en"));
    no_sideways_scroll(&b, "the empty form");
    // Four rows at first; "More rows" twice gives twelve.
    for _ in 0..2 {
        b.click_to_load(&b.one("fieldset.need button"));
    }
    assert_eq!(b.all("fieldset.need .row").len(), 12);
    // Stage 1 I, hand-worked: 50% of 9 teams is 4.5, rounded up 5 places; Aces and Kings tie
    // on 60 for the fifth, and "those tied for the last qualifying position" go through.
    let teams = [
        ("North", 80),
        ("South", 75),
        ("East", 70),
        ("West", 66),
        ("Aces", 60),
        ("Kings", 60),
        ("Queens", 55),
        ("Jacks", 50),
        ("Tens", 40),
    ];
    for (i, (name, vp)) in teams.iter().enumerate() {
        b.type_in(&b.one(&format!("[name=\"l.teams_entered|{i}|name\"]")), name);
        b.type_in(&b.one(&format!("[name=\"l.teams_entered|{i}|victory_points\"]")), &vp.to_string());
    }
    b.screenshot(&shots().join("gnt-qualifiers-form.png"));
    b.click_to_load(&b.one("#rule"));
    let answer = b.text(&b.one("#answer"));
    assert_eq!(answer, "Answer: North, South, East, West, Aces, Kings");
    assert!(b.all("fieldset.need").is_empty(), "still asks after the answer");
    let quotes: Vec<String> = b.all(".explanation blockquote").iter().map(|q| b.text(q)).collect();
    assert!(
        quotes.iter().any(|q| q.contains("Fifty percent (50%) of the teams entered (rounded up), including those tied for the last qualifying position")),
        "{quotes:?}"
    );
    assert!(b.url().contains("facts="), "the page's address holds the case");
    no_sideways_scroll(&b, "the answer");
    b.screenshot(&shots().join("gnt-qualifiers-answer.png"));
}

/// The value at a dotted path in a case's facts: a fact of a section is one key there
/// (`"s304.rejsehold"`), so the first part may be the section's name.
fn at_path<'j>(facts: &'j J, path: &str) -> Option<&'j J> {
    let parts: Vec<&str> = path.split('.').collect();
    let (first, rest) = match facts.get(parts[0]) {
        Some(v) => (v, &parts[1..]),
        None if parts.len() > 1 => (facts.get(format!("{}.{}", parts[0], parts[1]))?, &parts[2..]),
        None => return None,
    };
    rest.iter().try_fold(first, |v, k| v.get(k))
}

/// The value at a facts path (`a.b`, `l.list|i|field`) in a case's facts, as a form writes it.
fn value_for(facts: &J, name: &str) -> Option<String> {
    let v = if let Some(path) = name.strip_prefix("f.") {
        at_path(facts, path)?
    } else if let Some(rest) = name.strip_prefix("l.") {
        let mut it = rest.split('|');
        let list = at_path(facts, it.next()?)?;
        let row = list.get(it.next()?.parse::<usize>().ok()?)?;
        match it.next() {
            Some(f) if !f.is_empty() => row.get(f)?,
            _ => row,
        }
    } else {
        return None;
    };
    Some(match v {
        J::String(s) => s.clone(),
        J::Bool(x) => x.to_string(),
        other => other.to_string(),
    })
}

#[test]
fn dbf_304b1_step_by_step() {
    let Some(b) = browser() else { return };
    let addr = http::start_bundled();
    let path = format!("{}/conditions/dbf/cases/s304b1-201-km-tur-retur.toml", env!("CARGO_MANIFEST_DIR"));
    let case: toml::Value = toml::from_str(&std::fs::read_to_string(path).expect("case")).expect("toml");
    let facts = conditions::facts::untoml(serde_json::to_value(&case["facts"]).expect("json"));
    b.goto(&format!("http://{addr}/dbf/ruling/{}?lang=da", http::enc("s304.transportgodtgørelse")));
    let mut steps = 0;
    // Each step answers the first question the page asks whose answer the case knows.
    while !b.all("fieldset.need").is_empty() {
        steps += 1;
        assert!(steps <= 30, "more than 30 steps");
        no_sideways_scroll(&b, &format!("step {steps}"));
        if steps == 1 {
            b.screenshot(&shots().join("dbf-304b1-step-1.png"));
        }
        let mut filled = false;
        for set in b.all("fieldset.need") {
            for input in b.within(&set, "input[name^=\"f.\"], input[name^=\"l.\"], select, textarea") {
                let Some(name) = b.attr(&input, "name") else { continue };
                let Some(v) = value_for(&facts, &name) else { continue };
                if b.tag(&input) == "select" {
                    b.choose(&input, &v);
                } else {
                    b.type_in(&input, &v);
                }
                filled = true;
            }
            if filled {
                break;
            }
        }
        assert!(filled, "step {steps}: asks only what the case does not know: {}", b.url());
        b.click_to_load(&b.one("#rule"));
    }
    // § 304B1, hand-worked: 100.5 km each way is 201 km; less the own share of 200 km, 1 km at
    // 2.00 kr. per km, no bridge or ferry: 2 kr.
    let answer = b.text(&b.one("#answer"));
    assert_eq!(answer, "Svar: 2 kr.", "after {steps} steps");
    assert!(steps >= 2, "answered in {steps} step(s): not step by step");
    let quotes: Vec<String> = b.all(".explanation blockquote").iter().map(|q| b.text(q)).collect();
    assert!(
        quotes
            .iter()
            .any(|q| q.contains("idet der regnes med en egenbetaling på 200 kilometer ganget med kilometersatsen")),
        "{quotes:?}"
    );
    no_sideways_scroll(&b, "the answer");
    b.screenshot(&shots().join("dbf-304b1-answer.png"));
}

#[test]
fn every_page_kind_fits_a_phone() {
    let Some(b) = browser() else { return };
    let addr = http::start_bundled();
    for path in [
        "/",
        "/gnt",
        "/dbf",
        "/gnt/clause/stage-1-i",
        "/dbf/clause/304b1?lang=en",
        "/gnt/ruling/flights",
        "/gnt?q=flight",
    ] {
        b.goto(&format!("http://{addr}{path}"));
        no_sideways_scroll(&b, path);
    }
    b.goto(&format!("http://{addr}/dbf/clause/304b1"));
    b.screenshot(&shots().join("dbf-clause-304b1.png"));
}
