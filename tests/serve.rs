//! `conditions serve` over real HTTP on an ephemeral loopback port: every page kind of
//! both rulebooks, rulings posted as JSON against the case files' expected rulings,
//! and bad requests answered with a 4xx and a clear reason while the server goes on.

#[path = "support/http.rs"]
mod http;

use http::{enc, get, post_json, request};
use serde_json::{Value as J, json};
use std::sync::OnceLock;

fn server() -> std::net::SocketAddr {
    static ADDR: OnceLock<std::net::SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(http::start_bundled)
}

fn ok_html(path: &str) -> String {
    let r = get(server(), path);
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    assert!(r.header("content-type").is_some_and(|c| c.starts_with("text/html")), "{path}");
    assert!(r.header("content-security-policy").is_some_and(|c| c.contains("default-src 'none'")), "{path}");
    assert!(r.body.contains("hreflang=\"da\"") || r.body.contains("hreflang=\"en\""), "{path}: no language switch");
    r.body
}

#[test]
fn every_page_kind_of_both_rulebooks() {
    let index = ok_html("/");
    assert!(index.contains("/gnt?lang=en") && index.contains("/dbf?lang=da"), "{index}");
    // GNT: the rulebook page quotes its clauses verbatim and anchors them.
    let gnt = ok_html("/gnt");
    assert!(gnt.contains("Flight B will be open to players with fewer than 2,000 masterpoints."));
    assert!(gnt.contains("id=\"stage-1-i\""));
    assert!(gnt.contains("href=\"/gnt/ruling/qualifiers?lang=en\""));
    let found = ok_html("/gnt?q=masterpoints");
    assert!(
        found.contains("Results for “masterpoints”") && found.contains("player.masterpoints")
            || found.contains("player"),
        "{found}"
    );
    let clause = ok_html("/gnt/clause/stage-1-i");
    assert!(clause.contains("qualifiers") && clause.contains("teams_entered"), "{clause}");
    let ruling = ok_html("/gnt/ruling/qualifiers");
    assert!(ruling.contains("name=\"l.teams_entered|0|victory_points\""), "{ruling}");
    // DBF, in Danish and in English (the gloss shown).
    let dbf = ok_html("/dbf");
    assert!(dbf.contains("lang=\"da\"") && dbf.contains("Afgørelser"));
    let dbf_en = ok_html("/dbf?lang=en");
    assert!(dbf_en.contains("Rulings") && dbf_en.contains("English gloss"));
    let c = ok_html("/dbf/clause/304b1");
    // A ruling it decides, linked by the question it answers (its name is not shown).
    assert!(
        c.contains(
            "href=\"/dbf/ruling/s304.transportgodtg%C3%B8relse?lang=da\">Holdets transportgodtgørelse efter § 304"
        ),
        "{c}"
    );
    assert!(!c.contains(">s304.transportgodtgørelse<"), "{c}");
    let r = ok_html(&format!("/dbf/ruling/{}", enc("s304.transportgodtgørelse")));
    assert!(r.contains("Mangler") && r.contains("<form"), "{r}");
    // In English, the question heading the page and each input are the glosses
    // (conditions/dbf/glosses.cond), begun with a capital; the names are not shown.
    let r = ok_html(&format!("/dbf/ruling/{}?lang=en", enc("s304.transportgodtgørelse")));
    assert!(r.contains("<h1>The team's transport reimbursement under § 304"), "{r}");
    assert!(r.contains(">Whether the team travels to or from Bornholm</legend>"), "{r}");
    assert!(
        !r.contains("om holdets rejse går til eller fra Bornholm"),
        "a Danish description on the English page: {r}"
    );
    let form = r.split("<form").nth(1).and_then(|f| f.split("</form>").next()).expect("a form");
    assert!(!form.contains("<code>s304.rejse_til_eller_fra_bornholm</code>"), "{form}");
    let r = ok_html(&format!("/dbf/ruling/{}?lang=da", enc("s304.transportgodtgørelse")));
    assert!(r.contains(">Om holdets rejse går til eller fra Bornholm</legend>"), "{r}");
    let found = ok_html("/dbf?q=transport&lang=da");
    assert!(found.contains("304"), "{found}");
}

/// A clause page says in words what each fact takes, as the ruling page's form asks it: an
/// enum by its labels in the reader's language (conditions/dbf/glosses.cond), never the type's
/// name or `bool`; a list's field descriptions on the ruling page are glossed too.
#[test]
fn clause_and_ruling_pages_word_what_each_fact_takes() {
    let c = ok_html("/dbf/clause/304?lang=en");
    assert!(c.contains("one of: the Division League, the Women's Division League, the Cup, another tournament"), "{c}");
    assert!(c.contains("<span class=\"question\">The tournament the travel refund is for</span>"), "{c}");
    assert!(!c.contains("Forbundsturnering") && !c.contains(": bool"), "type syntax on the page: {c}");
    let c = ok_html("/dbf/clause/304?lang=da");
    assert!(c.contains("en af: Divisionsturneringen, Damedivisionsturneringen, Pokalturneringen"), "{c}");
    // A decision: who decides, in words.
    let c = ok_html("/dbf/clause/304a2b?lang=en");
    assert!(c.contains("Decided by the team"), "{c}");
    let r = ok_html(&format!("/dbf/ruling/{}?lang=en", enc("s304.transportgodtgørelse")));
    assert!(
        r.contains(">The distance from the town to the venue, one way, by route planning on www.krak.dk</label>"),
        "{r}"
    );
    assert!(!r.contains("afstanden fra byen til spillestedet"), "a Danish field description on the English page");
}

#[test]
fn every_clause_page_of_gnt_and_a_sample_of_dbf() {
    let list = get(server(), "/api/rulebooks/gnt").json();
    for c in list["clauses"].as_array().expect("clauses") {
        let page = ok_html(&clause_href("gnt", c));
        if let Some(t) = c["text"].as_str() {
            let first = t.lines().next().unwrap_or("");
            let shown = first.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
            assert!(page.contains(&shown) || page.contains(first), "{}: text not quoted", c["citation"]);
        }
    }
    let list = get(server(), "/api/rulebooks/dbf").json();
    for c in list["clauses"].as_array().expect("clauses").iter().step_by(15) {
        ok_html(&clause_href("dbf", c));
    }
}

/// The link to a clause's page, as the rulebook page gives it.
fn clause_href(book: &str, c: &J) -> String {
    let cit = c["citation"].as_str().expect("citation");
    static PAGES: OnceLock<std::sync::Mutex<std::collections::HashMap<String, String>>> = OnceLock::new();
    let page = PAGES
        .get_or_init(Default::default)
        .lock()
        .expect("pages")
        .entry(book.to_string())
        .or_insert_with(|| ok_html(&format!("/{book}")))
        .clone();
    let anchor = format!(">{}</a>", cit.replace('&', "&amp;"));
    let at = page.find(&anchor).unwrap_or_else(|| panic!("{book}: no link to `{cit}`"));
    let start = page[..at].rfind("href=\"").expect("href") + 6;
    let end = start + page[start..].find('"').expect("quote");
    page[start..end].replace("&amp;", "&")
}

#[test]
fn every_clause_has_a_page_of_its_own() {
    for book in ["gnt", "dbf"] {
        let page = ok_html(&format!("/{book}"));
        let mut seen = std::collections::HashSet::new();
        for part in page.split("<section class=\"clause\" id=\"").skip(1) {
            let id = &part[..part.find('"').expect("id")];
            assert!(seen.insert(id.to_string()), "{book}: two clauses share the page `{id}`");
        }
        let n = get(server(), &format!("/api/rulebooks/{book}")).json()["clauses"].as_array().expect("c").len();
        assert_eq!(seen.len(), n);
    }
}

#[test]
fn the_json_api_lists_describes_and_gives_schemas() {
    let books = get(server(), "/api/rulebooks").json();
    let names: Vec<&str> =
        books["rulebooks"].as_array().expect("list").iter().filter_map(|b| b["name"].as_str()).collect();
    assert_eq!(names, ["dbf", "gnt"]);
    let rulings = get(server(), "/api/rulebooks/gnt/rulings?q=flight").json();
    assert!(rulings["entries"].as_array().expect("entries").iter().any(|e| e["name"] == "flights"));
    let d = get(server(), "/api/rulebooks/gnt/rulings/flights").json();
    assert_eq!(d["name"], "flights");
    assert!(d["inputs"].as_array().expect("inputs").iter().any(|i| i["path"] == "player.masterpoints"), "{d}");
    let s = get(server(), "/api/rulebooks/gnt/rulings/flights/schema").json();
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert!(s["properties"]["player"].is_object(), "{s}");
}

/// A case file's expected value against the report's `value`: numbers are strings in
/// the report, and an amount's unit is the ruling's type.
fn same_value(expected: &J, got: &J) -> bool {
    match (expected, got) {
        (J::Number(n), J::String(s)) => n.to_string() == *s,
        (J::String(e), J::String(s)) => e == s || e.split_once(' ').is_some_and(|(n, _)| n == s),
        (J::Array(a), J::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y)),
        _ => expected == got,
    }
}

#[test]
fn posted_facts_get_the_rulings_of_the_case_files() {
    let cases = [
        "gnt/cases/stage1-i-nine-teams-tie-at-cut.toml",
        "gnt/cases/augmentation-fifth-player.toml",
        "gnt/cases/qualification-member-paid-up.toml",
        "gnt/cases/stage1-h-last-place.toml",
        "dbf/cases/s304b1-201-km-tur-retur.toml",
        "dbf/cases/s301a-ikke-medlem.toml",
        "dbf/cases/s301c1-flest-spillere-i-et-distrikt.toml",
        "dbf/cases/s302-kontrakt-godkendt-praecis-minimum.toml",
        "dbf/cases/s301b-danmarksmester-tilsagn-paa-fristdagen.toml",
    ];
    let mut rulings = 0;
    let mut books = std::collections::HashSet::new();
    for path in cases {
        let text = std::fs::read_to_string(format!("{}/conditions/{path}", env!("CARGO_MANIFEST_DIR"))).expect("case");
        let case: toml::Value = toml::from_str(&text).expect("toml");
        let facts = conditions::facts::untoml(serde_json::to_value(&case["facts"]).expect("json"));
        let book = path.split('/').next().expect("book");
        for e in case["expect"].as_array().expect("expect") {
            let name = e["ruling"].as_str().expect("ruling");
            let r = post_json(server(), &format!("/api/rulebooks/{book}/rulings/{}", enc(name)), &facts.to_string());
            assert_eq!(r.status, 200, "{path} {name}: {}", r.body);
            let report = r.json();
            assert_eq!(report["status"], "decided", "{path} {name}: {report}");
            let expected = serde_json::to_value(&e["value"]).expect("value");
            assert!(
                same_value(&expected, &report["value"]),
                "{path} {name}: expected {expected}, got {}",
                report["value"]
            );
            let cited: Vec<&str> =
                report["clauses"].as_array().expect("clauses").iter().filter_map(|c| c["citation"].as_str()).collect();
            for c in e.get("cites").and_then(|c| c.as_array()).into_iter().flatten() {
                assert!(cited.contains(&c.as_str().expect("citation")), "{path} {name}: {c} not cited in {cited:?}");
            }
            rulings += 1;
            books.insert(book);
        }
    }
    assert!(rulings >= 10 && books.len() == 2, "{rulings} rulings");
}

#[test]
fn a_batch_of_json_lines_gets_one_record_per_line() {
    // A batch line is strict: a record gives every field that is not optional. 400
    // masterpoints, not a Life Master: open to all (Championship), fewer than 5,000 (A),
    // fewer than 2,000 (B), a Non-Life Master with fewer than 500 (C): Stage 1 D.
    let body = "{\"player\": {\"name\": \"Tess\", \"masterpoints\": 400, \"life_master\": false}}\nnot json\n{\"player\": {\"masterpoints\": \"many\"}}\n";
    let r = request(
        server(),
        "POST",
        "/api/rulebooks/gnt/batch?ruling=flights",
        Some(body.as_bytes()),
        "application/x-ndjson",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let lines: Vec<J> = r.body.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["flights"]["value"], json!(["Championship", "A", "B", "C"]), "{}", r.body);
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().is_some_and(|e| e.contains("not valid JSON")));
    assert!(lines[2]["error"].as_str().is_some_and(|e| e.contains("player.masterpoints")), "{}", lines[2]);
    // A ruling named twice is ruled once: its record has the key once.
    let r = request(
        server(),
        "POST",
        "/api/rulebooks/gnt/batch?ruling=flights,flights",
        Some(body.lines().next().unwrap_or_default().as_bytes()),
        "application/x-ndjson",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body.matches("\"flights\"").count(), 1, "{}", r.body);
}

fn still_answering() {
    let r = post_json(
        server(),
        "/api/rulebooks/gnt/rulings/flights",
        "{\"player\": {\"masterpoints\": 2150, \"life_master\": true}}",
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["value"], json!(["Championship", "A"]));
}

#[test]
fn malformed_json_is_a_400_with_the_reason() {
    let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", "{\"player\": ");
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().is_some_and(|e| e.starts_with("the body is not valid JSON")), "{}", r.body);
    let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", "[1, 2]");
    assert_eq!(r.status, 422);
    assert!(r.json()["error"].as_str().is_some_and(|e| e.contains("JSON object")));
    still_answering();
}

#[test]
fn a_wrong_type_is_a_422_naming_the_path() {
    let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", "{\"player\": {\"masterpoints\": \"many\"}}");
    assert_eq!(r.status, 422, "{}", r.body);
    let e = r.json();
    assert!(e["error"].as_str().is_some_and(|m| m.contains("player.masterpoints")), "{e}");
    still_answering();
}

#[test]
fn an_oversized_body_is_a_413() {
    let big = format!("{{\"player\": {{\"name\": \"{}\"}}}}", "x".repeat(2 * 1024 * 1024));
    let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", &big);
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.json()["error"].as_str().is_some_and(|e| e.contains("larger than 1048576 bytes")), "{}", r.body);
    still_answering();
}

#[test]
fn unknown_rulebooks_rulings_and_routes_are_404s_naming_the_nearest() {
    let r = post_json(server(), "/api/rulebooks/gnt/rulings/flight", "{}");
    assert_eq!(r.status, 404);
    assert!(r.json()["help"].as_str().is_some_and(|h| h.contains("flights")), "{}", r.body);
    let r = get(server(), "/api/rulebooks/gtn");
    assert_eq!(r.status, 404);
    assert!(r.json()["help"].as_str().is_some_and(|h| h.contains("gnt")));
    assert_eq!(get(server(), "/api/nothing").status, 404);
    let r = get(server(), "/gnt/clause/no-such-clause");
    assert_eq!(r.status, 404);
    assert!(r.body.contains("no clause `no-such-clause`"));
    // No file is ever read from a request's path.
    let r = get(server(), "/..%2F..%2Fetc%2Fpasswd");
    assert_eq!(r.status, 404);
    assert!(!r.body.contains("root:"));
    still_answering();
}

const HOSTILE: &str = "<script>alert(1)</script>";

#[test]
fn a_hostile_string_is_escaped_everywhere() {
    // In the API: a 4xx whose JSON holds the string as data.
    let r = post_json(
        server(),
        "/api/rulebooks/gnt/rulings/flights",
        &json!({ "player": { "masterpoints": HOSTILE } }).to_string(),
    );
    assert_eq!(r.status, 422);
    assert!(r.header("content-type").is_some_and(|c| c.starts_with("application/json")));
    // In pages: the search word, a fact's value in the case, and an unknown ruling's name.
    let page = get(server(), &format!("/gnt?q={}", enc(HOSTILE)));
    assert_eq!(page.status, 200);
    assert!(!page.body.contains(HOSTILE) && page.body.contains("&lt;script&gt;"), "search word not escaped");
    let facts = json!({ "teams_entered": [{ "name": HOSTILE, "victory_points": 3 }] }).to_string();
    let page = get(server(), &format!("/gnt/ruling/qualifiers?facts={}", enc(&facts)));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(!page.body.contains(HOSTILE) && page.body.contains("&lt;script&gt;"), "fact value not escaped");
    let bad = json!({ "player": { "masterpoints": HOSTILE } }).to_string();
    let page = get(server(), &format!("/gnt/ruling/flights?facts={}", enc(&bad)));
    assert_eq!(page.status, 400);
    assert!(!page.body.contains(HOSTILE), "error not escaped");
    let page = get(server(), &format!("/gnt/ruling/{}", enc(HOSTILE)));
    assert_eq!(page.status, 404);
    assert!(!page.body.contains(HOSTILE));
    let page = get(server(), &format!("/gnt/ruling/flights?facts={}", enc("{\"a\": ")));
    assert_eq!(page.status, 400);
    still_answering();
}

#[test]
fn the_form_fills_the_case_and_the_link_reproduces_it() {
    // GNT flights: fill the player's masterpoints and rank through the form.
    let r = get(
        server(),
        "/gnt/ruling/flights?lang=en&facts=%7B%7D&f.player.masterpoints=2150&f.player.life_master=true&go=1",
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let to = r.header("location").expect("a redirect").to_string();
    assert!(to.contains("facts="), "{to}");
    let page = get(server(), &to);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Championship Flight, Flight A"), "{}", page.body);
    assert!(page.body.contains("Stage 1 D"));
    // The facts file of the case.
    let file = get(server(), &to.replace("/gnt/ruling/flights?", "/gnt/ruling/flights/facts.json?"));
    assert_eq!(file.status, 200);
    assert!(file.header("content-disposition").is_some_and(|d| d.contains("attachment")));
    assert_eq!(
        file.json()["player"]["masterpoints"],
        json!(2150).to_string().parse::<J>().expect("n").to_string().as_str()
    );
}

/// The `.route("/api…", get(…).post(…))` lines of the router, as `method path`.
fn api_routes_of_the_router() -> Vec<String> {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/mod.rs")).expect("mod.rs");
    let mut out = Vec::new();
    for line in src.lines().map(str::trim).filter(|l| l.starts_with(".route(\"/api")) {
        let path = line.split('"').nth(1).expect("a path");
        for m in ["get", "post"] {
            if line.contains(&format!(" {m}(")) || line.contains(&format!(".{m}(")) || line.contains(&format!("({m}("))
            {
                out.push(format!("{m} {path}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_openapi_description_lists_every_api_route_and_each_answers() {
    let doc = get(server(), "/api/openapi.json");
    assert_eq!(doc.status, 200, "{}", doc.body);
    let doc = doc.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut listed = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            listed.push(format!("{method} {path}"));
            assert!(op["responses"]["200"].is_object(), "{method} {path}: no 200 response");
            // Each operation answers at its path (not the fallback's "no such API route").
            let real = path.replace("{rulebook}", "gnt").replace("{ruling}", "flights");
            let r = match method.as_str() {
                "get" => get(server(), &real),
                "post" if real.ends_with("/batch") => {
                    request(server(), "POST", &real, Some(b"{\"player\": {}}\n"), "application/x-ndjson")
                }
                _ => post_json(server(), &real, r#"{"player": {"masterpoints": 2150, "life_master": true}}"#),
            };
            assert_eq!(r.status, 200, "{method} {real}: {}", r.body);
        }
    }
    listed.sort();
    let routes = api_routes_of_the_router();
    assert!(routes.len() >= 9, "{routes:?}");
    assert_eq!(listed, routes, "the description and the router differ");
    // `GET /api` lists the same.
    let index = get(server(), "/api").json();
    let mut from_index: Vec<String> = index["routes"]
        .as_array()
        .expect("routes")
        .iter()
        .map(|r| {
            let (m, p) = r.as_str().expect("text").split_once(' ').expect("method path");
            format!("{} {p}", m.to_lowercase())
        })
        .collect();
    from_index.sort();
    assert_eq!(from_index, routes);
}

/// The report is compact JSON unless `pretty=true` asks for it indented; both are the same
/// report. Stage 1 D: 2,150 masterpoints, a Life Master — Championship and Flight A (under
/// 5,000), not B (under 2,000) nor C.
#[test]
fn the_report_is_compact_unless_asked_pretty() {
    let facts = "{\"player\": {\"masterpoints\": 2150, \"life_master\": true}}";
    let compact = post_json(server(), "/api/rulebooks/gnt/rulings/flights", facts);
    let pretty = post_json(server(), "/api/rulebooks/gnt/rulings/flights?pretty=true", facts);
    assert_eq!((compact.status, pretty.status), (200, 200));
    assert!(!compact.body.contains('\n'), "{}", compact.body);
    assert!(pretty.body.contains("\n  \"status\": \"decided\""), "{}", pretty.body);
    assert_eq!(compact.json(), pretty.json());
    assert_eq!(compact.json()["value"], json!(["Championship", "A"]));
    // A byte-order mark before the object is ignored, as in a facts file.
    let bom = post_json(server(), "/api/rulebooks/gnt/rulings/flights", &format!("\u{feff}{facts}"));
    assert_eq!(bom.status, 200, "{}", bom.body);
}

#[test]
fn a_moment_is_asked_with_its_date_and_read_as_a_browser_sends_it() {
    let ruling = enc("s321.resultat_afleveret_rettidigt");
    let form = ok_html(&format!("/dbf/ruling/{ruling}?lang=da"));
    assert!(form.contains("type=\"datetime-local\""), "{form}");
    // As a browser's `datetime-local` field sends them: a result handed in after midnight.
    let fields = [
        "s321.officielt_sluttidspunkt=2008-09-06T22%3A00",
        "s321.faktisk_afslutning=2008-09-06T22%3A00",
        "s321.afleveret=2008-09-07T01%3A30",
    ]
    .map(|f| format!("&f.{f}"))
    .concat();
    let r = get(server(), &format!("/dbf/ruling/{ruling}?lang=da&facts=%7B%7D{fields}&go=1"));
    assert_eq!(r.status, 303, "{}", r.body);
    let page = get(server(), r.header("location").expect("a redirect"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("7. september 2008 kl. 1.30"), "{}", page.body);
    assert!(page.body.contains("id=\"answer\">Svar: <strong>nej</strong>"), "{}", page.body);
}
