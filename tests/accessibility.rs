//! Accessibility of every kind of page, checked by axe-core in headless Chromium: the
//! server's list of rulebooks, rulebook, search, clause and error pages, its ruling pages
//! (a form still asking, a lot still to draw, and a case decided, in both rulebooks), the
//! static site's pages and the player's explanation page; each must show no violation at
//! all. A page with an unlabelled input and no language shows that the check sees them.
//! Skipped (with a message) without Chromium or axe-core, unless `CONDITIONS_BROWSER=require`.
//!
//! Without a browser: every ruling page of both rulebooks is titled in words, shows its
//! answer once, asks what is still needed only in its form, and gives every form control an
//! accessible name (a `<label for>`, `aria-label` or `aria-labelledby` naming an element
//! there).

#[path = "support/axe.rs"]
mod axe;
#[path = "support/browser.rs"]
mod browser;
#[path = "support/http.rs"]
mod http;
#[path = "support/pages.rs"]
mod pages;

use std::path::PathBuf;

fn out_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("screenshots")
}

/// A ruling page of the live server on a case file's facts.
fn case_path(book: &str, ruling: &str, lang: &str, case: &str) -> String {
    case_path_without(book, ruling, lang, case, "")
}

/// The same, with one fact of the case left out (so that the form asks for it).
fn case_path_without(book: &str, ruling: &str, lang: &str, case: &str, fact: &str) -> String {
    let mut facts = pages::case_facts(book, case);
    if let Some(o) = facts.as_object_mut() {
        o.remove(fact);
    }
    format!("/{book}/ruling/{}?lang={lang}&facts={}", http::enc(ruling), http::enc(&facts.to_string()))
}

#[test]
fn axe_finds_no_violation_on_any_kind_of_page() {
    let test = "axe_finds_no_violation_on_any_kind_of_page";
    let Some(mut chrome) = browser::launch_or_skip(test) else { return };
    let Some(script) = axe::load_or_skip(test) else { return };
    let addr = http::start_bundled();
    let mut urls: Vec<String> = [
        "/".to_string(),
        "/gnt".into(),
        "/dbf?lang=en".into(),
        "/gnt?q=flight".into(),
        "/gnt/clause/stage-1-i".into(),
        "/dbf/clause/304b1".into(),
        "/gnt/ruling/flights".into(),
        "/gnt/ruling/qualifiers".into(),
        "/dbf/ruling/s304.transportgodtg%C3%B8relse?lang=da".into(),
        "/gnt/ruling/no_such_ruling".into(),
        case_path("gnt", "qualifiers", "en", "stage1-i-nine-teams-tie-at-cut"),
        case_path("gnt", "substitute_permitted", "en", "substitution-approval-missing"),
        case_path("dbf", "s351.pladsfordeling", "da", "s351c2-tre-distrikter-om-to-pladser-lodtrukket"),
        case_path("dbf", "s304.transportgodtgørelse", "en", "s304b1-kort-tur-med-broafgift"),
        // A lot still to draw: a select of the candidates, named by its question.
        case_path_without(
            "dbf",
            "s351.medlemstalsfordeling",
            "da",
            "s351c2-tre-distrikter-om-to-pladser-lodtrukket",
            "s351.lod_C2",
        ),
    ]
    .into_iter()
    .map(|p| format!("http://{addr}{p}"))
    .collect();
    // The static site: its list of rulebooks, a rulebook page and a clause page in each
    // rulebook's language.
    let site = std::env::temp_dir().join(format!("conditions-site-axe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&site);
    let books = vec![
        conditions::api::Rulebook::bundled("gnt").expect("gnt"),
        conditions::api::Rulebook::bundled("dbf").expect("dbf"),
    ];
    conditions::serve::site::build(&books, &site).expect("the site is written");
    for f in ["index.html", "gnt/en/index.html", "gnt/en/clause/stage-1-i.html", "dbf/da/clause/304b1.html"] {
        urls.push(browser::file_url(&site.join(f)));
    }
    // The player's page of explanations, as `conditions rule --format html` writes it.
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    for s in pages::samples().into_iter().take(2) {
        let file = dir.join(format!("axe-{}.html", s.name));
        std::fs::write(&file, &s.html).expect("page written");
        urls.push(browser::file_url(&file));
    }
    let mut tab = chrome.page(360, 740, true).expect("a tab");
    let mut problems = Vec::new();
    for url in &urls {
        tab.goto(url).unwrap_or_else(|e| panic!("{url}: {e}"));
        let found = axe::violations(&mut tab, &script).unwrap_or_else(|e| panic!("{url}: {e}"));
        problems.extend(found.into_iter().map(|v| format!("{url}: {v}")));
        tab.forget_events();
    }
    let _ = std::fs::remove_dir_all(&site);
    assert!(problems.is_empty(), "{} violations:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn axe_sees_an_unlabelled_input_and_a_page_without_a_language() {
    let test = "axe_sees_an_unlabelled_input_and_a_page_without_a_language";
    let Some(mut chrome) = browser::launch_or_skip(test) else { return };
    let Some(script) = axe::load_or_skip(test) else { return };
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    let file = dir.join("axe-bad.html");
    std::fs::write(
        &file,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>bad</title></head>\
         <body><main><h1>Form</h1><form><input type=\"text\" name=\"x\"><select name=\"y\"><option>a</option></select>\
         </form></main></body></html>",
    )
    .expect("written");
    let mut tab = chrome.page(360, 740, true).expect("a tab");
    tab.goto(&browser::file_url(&file)).expect("loads");
    let found = axe::violations(&mut tab, &script).expect("axe runs").join("\n");
    assert!(found.contains("html-has-lang"), "{found}");
    assert!(found.contains("label") && found.contains("input"), "{found}");
    assert!(found.contains("select-name"), "{found}");
}

/// The opening tags `<TAG …>` of a page.
fn tags<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    html.match_indices(&open)
        .filter(|(i, _)| html[i + open.len()..].starts_with([' ', '>']))
        .filter_map(|(i, _)| html[i..].find('>').map(|end| &html[i..=i + end]))
        .collect()
}

/// An attribute's value in an opening tag, unescaped.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')?;
    Some(
        tag[start..start + end].replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"),
    )
}

/// Every form control without an accessible name: no `<label for>` its id, no
/// `aria-label`, no `aria-labelledby` whose ids are all on the page; a button without text.
fn unnamed_controls(html: &str) -> Vec<String> {
    let ids: std::collections::HashSet<String> =
        html.match_indices(" id=\"").filter_map(|(i, _)| attr(&html[i..], "id")).collect();
    let labels: std::collections::HashSet<String> = tags(html, "label").iter().filter_map(|t| attr(t, "for")).collect();
    let mut out = Vec::new();
    for kind in ["input", "select", "textarea"] {
        for t in tags(html, kind) {
            if attr(t, "type").as_deref() == Some("hidden") {
                continue;
            }
            let by_label = attr(t, "id").is_some_and(|id| labels.contains(&id) && ids.contains(&id));
            let by_aria = attr(t, "aria-label").is_some_and(|l| !l.trim().is_empty());
            let by_ref = attr(t, "aria-labelledby")
                .is_some_and(|r| !r.trim().is_empty() && r.split_whitespace().all(|id| ids.contains(id)));
            if !(by_label || by_aria || by_ref) {
                out.push(t.to_string());
            }
        }
    }
    for (i, _) in html.match_indices("<button") {
        let rest = &html[i..];
        let text = rest.find('>').zip(rest.find("</button>")).map(|(a, b)| rest[a + 1..b].trim()).unwrap_or("");
        if text.is_empty() && !rest[..rest.find('>').unwrap_or(0)].contains("aria-label=") {
            out.push(rest.chars().take(80).collect());
        }
    }
    out
}

#[test]
fn the_check_of_names_sees_a_control_without_one() {
    let bad = "<form><label for=\"a\">A</label><input id=\"a\" name=\"a\"><input id=\"b\" name=\"b\">\
               <select id=\"c\" aria-labelledby=\"nowhere\"></select><button type=\"submit\"></button>\
               <input type=\"hidden\" name=\"h\"><span id=\"n\">N</span><textarea aria-labelledby=\"n\"></textarea></form>";
    let found = unnamed_controls(bad);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        found[0].contains("id=\"b\"") && found[1].contains("id=\"c\"") && found[2].starts_with("<button"),
        "{found:?}"
    );
}

#[test]
fn every_ruling_page_is_titled_in_words_shows_one_answer_and_names_every_control() {
    // Each ruling of both rulebooks with no facts yet: most ask for facts in a form.
    let addr = http::start_bundled();
    let mut problems = Vec::new();
    let mut controls = 0;
    for name in ["gnt", "dbf"] {
        let book = conditions::api::Rulebook::bundled(name).expect("bundled");
        for r in book.rulings() {
            let path = format!("/{name}/ruling/{}", http::enc(r));
            let page = http::get(addr, &path);
            assert_eq!(page.status, 200, "{path}");
            let html = &page.body;
            let h1 = html.split("<h1>").nth(1).and_then(|h| h.split("</h1>").next()).unwrap_or_default();
            if h1.is_empty() || h1.contains("<code") || (r.contains(['_', '.']) && h1.contains(r)) {
                problems.push(format!("{path}: the title is not in words: {h1}"));
            }
            let answers = html.matches("class=\"answer\"").count();
            if answers != 1 {
                problems.push(format!("{path}: the answer is shown {answers} times"));
            }
            // What is still needed is asked once: by the form, not listed again in the explanation.
            if html.contains("<form class=\"ask\"") && html.contains("class=\"needs\"") {
                problems.push(format!("{path}: the form and the explanation both say what is still needed"));
            }
            controls += tags(html, "input").len() + tags(html, "select").len();
            problems.extend(unnamed_controls(html).into_iter().map(|t| format!("{path}: no accessible name: {t}")));
        }
    }
    assert!(controls > 1000, "{controls} controls");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_decided_list_is_answered_once_paired_with_what_it_counts() {
    let addr = http::start_bundled();
    let page = http::get(
        addr,
        &case_path("dbf", "s351.medlemstalsfordeling", "da", "s351c2-tre-distrikter-om-to-pladser-lodtrukket"),
    );
    assert_eq!(page.status, 200);
    let html = &page.body;
    assert_eq!(html.matches("class=\"answer\"").count(), 1, "{html}");
    let answer = html.split("id=\"answer\"").nth(1).and_then(|a| a.split("</p>").next()).unwrap_or_default();
    assert!(answer.contains("Nordjylland: 8; Vestjylland: 5; Østjylland: 11"), "{answer}");
    assert!(!html.contains("8, 5, 11, 7, 7, 5, 3, 9, 12, 2, 1"), "the bare list is shown");
    let h1 = html.split("<h1>").nth(1).and_then(|h| h.split("</h1>").next()).unwrap_or_default();
    assert!(h1.starts_with("De 70 pladser fordelt på distrikterne efter medlemstal"), "{h1}");
    // The name a program calls the ruling by is only in the note for programs at the end.
    let name_at = html.find("s351.medlemstalsfordeling</code>").expect("the name for programs");
    assert!(
        name_at > html.find("class=\"explanation\"").expect("explanation"),
        "the name comes before the explanation"
    );
}
