//! The sample pages for players in a real browser: headless Chromium at a phone's width
//! (360 px) and a desktop's (1280 px). Fails on horizontal scrolling, an in-page link to
//! no id, or a console error; saves full-page screenshots to `target/screenshots/` for
//! review (not goldens). Skipped with a message when Chromium is absent, unless
//! `CONDITIONS_BROWSER=require` (as `.ci/run` sets it).

#[path = "support/browser.rs"]
mod browser;
#[path = "support/pages.rs"]
mod pages;

use std::path::PathBuf;

fn out_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("screenshots")
}

#[test]
fn sample_pages_read_well_in_chromium() {
    let Some(mut chrome) = browser::launch_or_skip("sample_pages_read_well_in_chromium") else { return };
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    let mut problems = Vec::new();
    for s in pages::samples() {
        let file = dir.join(format!("{}.html", s.name));
        std::fs::write(&file, &s.html).expect("page written");
        let url = browser::file_url(&file);
        for (width, height, mobile) in [(360, 740, true), (1280, 900, false)] {
            let mut tab = chrome.page(width, height, mobile).expect("a tab");
            tab.goto(&url).expect("the page loads");
            let at = format!("{} at {width} px", s.name);
            problems.extend(tab.problems().expect("checked").into_iter().map(|p| format!("{at}: {p}")));
            tab.screenshot(&dir.join(format!("{}-{width}.png", s.name))).expect("screenshot");
            // The full derivation, opened, must fit too.
            tab.eval("document.querySelectorAll('details').forEach(d => d.open = true)").expect("opened");
            problems.extend(tab.problems().expect("checked").into_iter().map(|p| format!("{at}, opened: {p}")));
            if width == 360 {
                tab.screenshot(&dir.join(format!("{}-{width}-open.png", s.name))).expect("screenshot");
            }
        }
    }
    eprintln!("screenshots in {}", dir.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_sees_a_page_wider_than_a_phone_and_a_broken_link() {
    let Some(mut chrome) = browser::launch_or_skip("the_check_sees_a_page_wider_than_a_phone_and_a_broken_link") else {
        return;
    };
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("target/screenshots");
    let file = dir.join("bad.html");
    std::fs::write(
        &file,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>bad</title></head>\
         <body><div style=\"width:500px\">wide</div><a href=\"#nowhere\">x</a>\
         <script>console.error('boom')</script></body></html>",
    )
    .expect("written");
    let mut tab = chrome.page(360, 740, true).expect("a tab");
    tab.goto(&browser::file_url(&file)).expect("loads");
    let found = tab.problems().expect("checked").join("\n");
    assert!(found.contains("horizontal scrolling"), "{found}");
    assert!(found.contains("broken in-page link \"#nowhere\""), "{found}");
    assert!(found.contains("boom"), "{found}");
}
