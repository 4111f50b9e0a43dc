//! `conditions site`: the rulebook and clause pages of both rulebooks as static files,
//! in both languages, every link and anchor resolving to a file and an id written; and
//! in headless Chromium the same check as the live pages: every page at 360 px with no
//! broken in-page or relative link, no console error and nothing wider than the screen,
//! and the search box finding clauses over its prebuilt index (skipped without
//! Chromium unless `CONDITIONS_BROWSER=require`).

#[path = "support/browser.rs"]
mod browser;
#[path = "support/http.rs"]
mod http;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            html_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

fn attrs<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!("{name}=\"");
    html.match_indices(&key)
        .filter_map(|(i, _)| {
            let start = i + key.len();
            html[start..].find('"').map(|end| &html[start..start + end])
        })
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn the_static_site_of_both_rulebooks_has_no_broken_link() {
    let out = std::env::temp_dir().join(format!("conditions-site-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let books = vec![
        conditions::api::Rulebook::bundled("gnt").expect("gnt"),
        conditions::api::Rulebook::bundled("dbf").expect("dbf"),
    ];
    let pages = conditions::serve::site::build(&books, &out).expect("the site is written");
    let mut files = Vec::new();
    html_files(&out, &mut files);
    assert_eq!(files.len(), pages);
    // Every page: 1 index, and per rulebook and language a rulebook page and one page a clause.
    assert!(pages > 2 * 2 * 100, "{pages} pages");
    let mut ids: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let mut texts: HashMap<PathBuf, String> = HashMap::new();
    for f in &files {
        let t = std::fs::read_to_string(f).expect("read");
        ids.insert(f.canonicalize().expect("canon"), attrs(&t, "id").into_iter().map(unescape).collect());
        texts.insert(f.clone(), t);
    }
    let mut checked = 0;
    for (f, t) in &texts {
        assert!(t.contains("<link rel=\"stylesheet\" href=\""), "{}", f.display());
        for href in attrs(t, "href") {
            let href = unescape(href);
            assert!(!href.starts_with('/') && !href.contains("://"), "{}: `{href}` leaves the site", f.display());
            let (path, frag) = href.split_once('#').map_or((href.as_str(), None), |(a, b)| (a, Some(b)));
            let target = if path.is_empty() { f.clone() } else { f.parent().expect("dir").join(decode(path)) };
            let target = target.canonicalize().unwrap_or_else(|_| panic!("{}: `{href}` is broken", f.display()));
            if let Some(frag) = frag {
                let set = ids.get(&target).unwrap_or_else(|| panic!("{}: `{href}` is not a page", f.display()));
                assert!(set.contains(&decode(frag)), "{}: no id `{frag}` in {}", f.display(), target.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} links");
    let gnt = std::fs::read_to_string(out.join("gnt/en/index.html")).expect("gnt");
    assert!(gnt.contains("Flight B will be open to players with fewer than 2,000 masterpoints."));
    let _ = std::fs::remove_dir_all(&out);
}

/// What the browser sees of a page: its problems (as the live pages' check), the ids on
/// it, and every link, resolved.
fn look(tab: &mut browser::Tab<'_>, url: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    tab.goto(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let problems = tab.problems().expect("checked").into_iter().map(|p| format!("{url}: {p}")).collect();
    let strings = |v: serde_json::Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|x| x.as_str().map(str::to_string)).collect()
    };
    let ids = strings(tab.eval("Array.from(document.querySelectorAll('[id]'), e => e.id)").expect("ids"));
    let links = strings(tab.eval("Array.from(document.querySelectorAll('a[href]'), a => a.href)").expect("links"));
    tab.forget_events();
    (problems, ids, links)
}

#[test]
fn the_static_site_passes_the_browser_check_of_the_live_pages() {
    let Some(mut chrome) = browser::launch_or_skip("the_static_site_passes_the_browser_check_of_the_live_pages") else {
        return;
    };
    let out = std::env::temp_dir().join(format!("conditions-site-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let books = vec![
        conditions::api::Rulebook::bundled("gnt").expect("gnt"),
        conditions::api::Rulebook::bundled("dbf").expect("dbf"),
    ];
    conditions::serve::site::build(&books, &out).expect("the site is written");
    let mut files = Vec::new();
    html_files(&out, &mut files);
    // Every page of the rulebook's own language and of English; of the other languages
    // (whose clause pages quote the same texts in another frame) the rulebook pages.
    // Their links are all followed below, and the file check above covers every page.
    let own: Vec<String> = books.iter().map(|b| b.language().code().to_string()).collect();
    files.retain(|f| {
        let lang = f.strip_prefix(&out).ok().and_then(|r| r.iter().nth(1)).and_then(|l| l.to_str()).unwrap_or("");
        f.file_name().is_some_and(|n| n == "index.html") || lang == "en" || own.iter().any(|o| o == lang)
    });
    files.sort();
    let mut tab = chrome.page(360, 740, true).expect("a tab");
    let mut problems = Vec::new();
    let mut ids: HashMap<String, HashSet<String>> = HashMap::new();
    let mut links: Vec<(String, String)> = Vec::new();
    for f in &files {
        let url = browser::file_url(f);
        let (p, i, l) = look(&mut tab, &url);
        problems.extend(p);
        ids.insert(url.clone(), i.into_iter().collect());
        links.extend(l.into_iter().map(|l| (url.clone(), l)));
    }
    // Every link stays on the site and reaches a page written, and an id on it.
    let written: HashSet<String> = {
        let mut all = Vec::new();
        html_files(&out, &mut all);
        all.iter().map(|f| browser::file_url(f)).collect()
    };
    for (from, link) in &links {
        let (page, frag) = link.split_once('#').map_or((link.as_str(), None), |(a, b)| (a, Some(b)));
        if !page.starts_with("file://") {
            problems.push(format!("{from}: `{link}` leaves the site"));
            continue;
        }
        match ids.get(page) {
            None if written.contains(page) => {}
            None => problems.push(format!("{from}: `{link}` is broken")),
            Some(set) => {
                if let Some(frag) = frag.filter(|f| !f.is_empty())
                    && !set.contains(&decode(frag))
                {
                    problems.push(format!("{from}: no id `{frag}` for `{link}`"));
                }
            }
        }
    }
    assert!(links.len() > 1000, "{} links", links.len());
    // The search box: hidden in the file, shown by its script, and it finds by words of
    // the clauses' text; its results are links to pages written.
    let page = out.join("gnt/en/index.html");
    let html = std::fs::read_to_string(&page).expect("gnt");
    assert!(html.contains("id=\"site-search\"") && html.contains(" hidden"), "no hidden search box");
    tab.goto(&browser::file_url(&page)).expect("loads");
    let shown = tab.eval("document.getElementById('site-search').hidden").expect("eval");
    assert_eq!(shown, serde_json::json!(false), "the script does not show the search box");
    let found = tab
        .eval(
            "(() => { const q = document.getElementById('site-q'); q.value = 'masterpoints';
               q.dispatchEvent(new Event('input'));
               return { heading: document.getElementById('site-results-heading').textContent,
                        links: Array.from(document.querySelectorAll('#site-results a'), a => a.href) }; })()",
        )
        .expect("search");
    let heading = found["heading"].as_str().unwrap_or_default();
    assert!(heading.contains("masterpoints"), "{found}");
    let hits: Vec<&str> = found["links"].as_array().expect("links").iter().filter_map(|l| l.as_str()).collect();
    assert!(hits.iter().any(|l| l.ends_with("/clause/flight-b.html") || l.contains("/clause/")), "{hits:?}");
    for l in &hits {
        assert!(ids.contains_key(l.split('#').next().unwrap_or(l)), "search result `{l}` is broken");
    }
    let none = tab
        .eval(
            "(() => { const q = document.getElementById('site-q'); q.value = 'zzqqxx';
               q.dispatchEvent(new Event('input'));
               return [document.getElementById('site-results-heading').textContent,
                       document.querySelectorAll('#site-results li').length]; })()",
        )
        .expect("search");
    assert_eq!(none[1], serde_json::json!(0), "{none}");
    assert!(none[0].as_str().unwrap_or_default().contains("zzqqxx"), "{none}");
    problems.extend(tab.problems().expect("checked").into_iter().map(|p| format!("after a search: {p}")));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_live_pages_pass_the_same_browser_check() {
    let Some(mut chrome) = browser::launch_or_skip("the_live_pages_pass_the_same_browser_check") else {
        return;
    };
    let addr = http::start_bundled();
    let root = format!("http://{addr}");
    let mut tab = chrome.page(360, 740, true).expect("a tab");
    let mut problems = Vec::new();
    let mut links: HashSet<String> = HashSet::new();
    for path in [
        "/",
        "/gnt",
        "/dbf?lang=en",
        "/gnt?q=flight",
        "/gnt/clause/stage-1-i",
        "/dbf/clause/304b1",
        "/gnt/ruling/flights",
        "/dbf/ruling/s304.transportgodtg%C3%B8relse?lang=da",
    ] {
        let (p, _, l) = look(&mut tab, &format!("{root}{path}"));
        problems.extend(p);
        links.extend(l);
    }
    // Every link of those pages stays on the server and answers; each page linked is asked
    // for once, and every fragment linked on it looked for in its body.
    let mut links: Vec<String> = links.into_iter().collect();
    links.sort();
    let mut pages: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
    for link in &links {
        let Some(rest) = link.strip_prefix(&root) else {
            problems.push(format!("`{link}` leaves the server"));
            continue;
        };
        pages.entry(rest.split('#').next().unwrap_or(rest)).or_default().push(link);
    }
    for (path, linked) in &pages {
        let r = http::get(addr, if path.is_empty() { "/" } else { path });
        for link in linked {
            let frag = link.split_once('#').map(|(_, f)| f);
            if r.status != 200 {
                problems.push(format!("`{link}` answers {}", r.status));
            } else if let Some(frag) = frag.filter(|f| !f.is_empty())
                && !r.body.contains(&format!("id=\"{}\"", decode(frag)))
            {
                problems.push(format!("no id `{frag}` for `{link}`"));
            }
        }
    }
    assert!(links.len() > 100, "{} links", links.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
