//! The page for players (`rule --format html`, `conditions::api::html_page`): one valid
//! HTML5 document for any number of rulings, unique ids, in-page links that resolve,
//! `lang` on quoted text, no scripts or external assets, and every value escaped.
//! The browser check (tests/browser.rs) looks at the same pages in Chromium.

#[path = "support/pages.rs"]
mod pages;

use std::collections::HashSet;

const VOID: &[&str] = &["meta", "br", "hr", "img", "link", "input", "wbr"];
const BLOCK: &[&str] = &[
    "div",
    "p",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "blockquote",
    "section",
    "nav",
    "header",
    "main",
    "details",
    "h1",
    "h2",
    "h3",
    "h4",
    "table",
];

/// The tags of a page, outside `<style>` (name, attributes, closing?).
fn tags(html: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let after = &rest[start + 1..];
        let end = after.find('>').expect("every tag is closed");
        let inner = &after[..end];
        rest = &after[end + 1..];
        if inner.starts_with('!') {
            continue;
        }
        let closing = inner.starts_with('/');
        let inner = inner.trim_start_matches('/');
        let (name, attrs) = inner.split_once(' ').unwrap_or((inner, ""));
        let name = name.to_ascii_lowercase();
        if name == "style" && !closing {
            let close = rest.find("</style>").expect("style closed");
            rest = &rest[close..];
        }
        out.push((name, attrs.to_string(), closing));
    }
    out
}

/// Nesting errors: unclosed or mismatched elements, block content in a `<p>`, list items
/// outside lists, terms outside a description list.
fn nesting(html: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    for (name, _, closing) in tags(html) {
        if closing {
            match stack.pop() {
                Some(open) if open == name => {}
                other => errors.push(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let parent = stack.last().map(String::as_str);
        if BLOCK.contains(&name.as_str()) && matches!(parent, Some("p" | "span" | "strong" | "a" | "code" | "h4")) {
            errors.push(format!("<{name}> inside <{}>", parent.unwrap_or_default()));
        }
        if name == "li" && !matches!(parent, Some("ul" | "ol")) {
            errors.push(format!("<li> inside {parent:?}"));
        }
        if matches!(name.as_str(), "dt" | "dd") && parent != Some("dl") {
            errors.push(format!("<{name}> inside {parent:?}"));
        }
        if !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    if !stack.is_empty() {
        errors.push(format!("unclosed: {stack:?}"));
    }
    errors
}

/// The value of each `attr="…"` on the page.
fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let key = format!(" {attr}=\"");
    let mut out = Vec::new();
    for (_, attrs, _) in tags(html) {
        let attrs = format!(" {attrs}");
        let mut rest = attrs.as_str();
        while let Some(i) = rest.find(&key) {
            let v = &rest[i + key.len()..];
            let end = v.find('"').expect("quoted attribute");
            out.push(v[..end].to_string());
            rest = &v[end..];
        }
    }
    out
}

#[test]
fn every_sample_is_one_well_formed_document() {
    for s in pages::samples() {
        let h = &s.html;
        assert!(h.starts_with("<!DOCTYPE html>\n<html lang=\""), "{}", s.name);
        assert_eq!(h.matches("<!DOCTYPE").count(), 1, "{}: one document", s.name);
        assert_eq!(h.matches("<html").count(), 1, "{}: one document", s.name);
        assert!(h.contains("<meta charset=\"utf-8\">"), "{}", s.name);
        assert!(h.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"), "{}", s.name);
        assert!(h.contains("@media print"), "{}: print styles", s.name);
        assert_eq!(nesting(h), Vec::<String>::new(), "{}", s.name);
    }
}

#[test]
fn ids_are_unique_and_every_link_resolves() {
    for s in pages::samples() {
        let ids = attr_values(&s.html, "id");
        let mut seen = HashSet::new();
        for id in &ids {
            assert!(!id.is_empty() && !id.contains(char::is_whitespace), "{}: bad id {id:?}", s.name);
            assert!(seen.insert(id.clone()), "{}: id {id:?} twice", s.name);
        }
        let hrefs = attr_values(&s.html, "href");
        assert!(!hrefs.is_empty(), "{}: the citations link to the clauses", s.name);
        for href in hrefs {
            let target = href.strip_prefix('#').unwrap_or_else(|| panic!("{}: link {href:?} leaves the page", s.name));
            assert!(seen.contains(target), "{}: link to {href:?}, no such id", s.name);
        }
    }
}

#[test]
fn a_page_of_several_rulings_has_a_contents_list() {
    let samples = pages::samples();
    let gnt = &samples.iter().find(|s| s.name == "gnt-en").expect("gnt").html;
    assert!(gnt.contains("<nav class=\"contents\""));
    // Five rulings, each a section the contents link to, in order.
    for i in 1..=5 {
        assert!(gnt.contains(&format!("<li><a href=\"#r{i}\">")), "contents entry {i}");
        assert!(gnt.contains(&"<section class=\"ruling ".to_string()), "section {i}");
    }
    assert_eq!(gnt.matches("<section ").count(), 5);
    assert!(gnt.contains("<h1 id=\"top\">District 17 Grand National Teams, District Finals</h1>"));
    assert!(gnt.contains("<dt>Date</dt><dd>1 December 2026</dd>"));
    assert!(gnt.contains("<dt>Tournament director</dt><dd>A. Director</dd>"));
    let one = &samples.iter().find(|s| s.name == "gnt-flights-en").expect("one").html;
    assert!(!one.contains("<nav"), "one ruling needs no contents");
}

#[test]
fn quoted_text_carries_its_language() {
    let samples = pages::samples();
    let en = &samples.iter().find(|s| s.name == "dbf-en").expect("dbf-en").html;
    assert!(en.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    let quotes = en.matches("<blockquote").count();
    assert!(quotes >= 5, "the clauses are quoted");
    assert_eq!(en.matches("<blockquote lang=\"da\">").count(), quotes, "Danish clause text marked Danish");
    assert_eq!(en.matches("<span lang=\"en\">").count(), en.matches("class=\"gloss\"").count(), "glosses marked");
    assert!(en.matches("class=\"gloss\"").count() >= 5);
    let da = &samples.iter().find(|s| s.name == "dbf-da").expect("dbf-da").html;
    assert!(da.starts_with("<!DOCTYPE html>\n<html lang=\"da\">"));
    assert!(!da.contains("class=\"gloss\""), "no gloss in the rulebook's own language");
    assert_eq!(da.matches("<blockquote lang=\"da\">").count(), da.matches("<blockquote").count());
}

#[test]
fn the_page_is_self_contained() {
    for s in pages::samples() {
        for (name, attrs, _) in tags(&s.html) {
            assert!(
                !["script", "link", "img", "iframe", "object", "embed"].contains(&name.as_str()),
                "{}: <{name}>",
                s.name
            );
            let attrs = attrs.to_lowercase();
            for bad in ["src=", "javascript:", "style=", " on"] {
                assert!(!format!(" {attrs}").contains(bad), "{}: <{name} {attrs}>", s.name);
            }
        }
        let style = &s.html[s.html.find("<style>").expect("style")..s.html.find("</style>").expect("style")];
        assert!(!style.contains("url(") && !style.contains("@import"), "{}: the style loads nothing", s.name);
    }
}

#[test]
fn hostile_facts_are_escaped() {
    let h = pages::hostile();
    assert!(!h.contains(pages::HOSTILE), "raw hostile text");
    assert!(!h.contains("<script") && !h.contains("<img") && !h.contains("<b>"));
    let escaped =
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Kings&#39; &quot;Q&quot; &lt;/p&gt;&lt;b&gt;";
    assert!(h.contains(&format!("<title>{escaped}</title>")), "the title");
    assert!(h.contains(&format!("<h1 id=\"top\">{escaped}</h1>")), "the event");
    assert!(h.contains(&format!("<dd>{escaped}</dd>")), "the date and director");
    assert!(h.matches(escaped).count() >= 5, "the team name in the answer and the working");
    assert!(h.contains("Jacks&amp;amp;Co &lt;img src=x onerror=alert(1)&gt;"));
    assert_eq!(nesting(&h), Vec::<String>::new());
}

#[test]
fn a_fragment_embeds_with_its_own_ids() {
    let book = conditions::api::Rulebook::bundled("gnt").expect("gnt");
    let facts = book.facts_from_json(&pages::case_facts("gnt", "stage1-i-nine-teams-tie-at-cut")).expect("facts");
    let outcomes = vec![
        book.ruling("qualifiers").expect("r").rule(&facts).expect("rule"),
        book.ruling("qualifying_places").expect("r").rule(&facts).expect("rule"),
    ];
    let page = conditions::api::Page { id_prefix: "q 1".into(), ..Default::default() };
    let f = conditions::api::html_fragment(&outcomes, conditions::api::Lang::En, &page);
    assert!(f.starts_with("<div class=\"conditions\" lang=\"en\">") && f.ends_with("</div>\n"));
    assert!(!f.contains("<html") && !f.contains("<style"));
    assert!(f.contains("id=\"q-1r1\"") && f.contains("href=\"#q-1r2\""));
    for id in attr_values(&f, "id") {
        assert!(id.starts_with("q-1"), "{id}");
    }
    assert_eq!(nesting(&f), Vec::<String>::new());
    assert!(conditions::api::HTML_STYLE.contains(".conditions"));
}

#[test]
fn the_header_flags_make_the_page_header() {
    let exe = env!("CARGO_BIN_EXE_conditions");
    let facts = format!("{}/conditions/gnt/examples/player.json", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(exe)
        .args(["rule", "gnt", "--facts", &facts, "--format", "html", "--event", "Club <game>", "--date", "1 Dec"])
        .args(["--director", "O'Brien"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = String::from_utf8(out.stdout).expect("utf-8");
    assert!(html.contains("<h1 id=\"top\">Club &lt;game&gt;</h1>"));
    assert!(html.contains("<dd>1 Dec</dd>") && html.contains("<dd>O&#39;Brien</dd>"));
    assert_eq!(html.matches("<html").count(), 1);
    let text = std::process::Command::new(exe)
        .args(["rule", "gnt", "--facts", &facts, "--event", "Club game"])
        .output()
        .expect("runs");
    assert_eq!(text.status.code(), Some(2));
    let err = String::from_utf8_lossy(&text.stderr);
    assert!(err.contains("`--event`") && err.contains("--format html"), "{err}");
}

/// The page's body (its stylesheet is left out), as reviewed in the browser's screenshots.
fn body(html: &str) -> &str {
    &html[html.find("<body>").expect("body")..]
}

#[test]
fn sample_pages_as_reviewed() {
    for name in ["gnt-en", "dbf-304b1-en"] {
        let s = pages::samples().iter().find(|s| s.name == name).expect("sample");
        insta::assert_snapshot!(format!("page-{name}"), body(&s.html));
    }
}
