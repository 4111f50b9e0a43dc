//! `conditions site`: the rulebook and clause pages of both rulebooks as static files,
//! in both languages, every link and anchor resolving to a file and an id written.

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
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
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
