//! The OpenAPI description of `conditions serve` (`GET /api/openapi.json`) as a client
//! generator reads it: valid against the OpenAPI 3.1 schema (`tests/validators/`), every
//! `$ref` resolving, every schema in it a valid JSON Schema; the request body of a ruling is
//! the facts schema of the rulebooks served, which takes real facts and refuses wrong ones;
//! `lang` and `explain` list their values and the server refuses any other with a JSON error;
//! every 4xx answer is the described JSON error. Real HTTP on 127.0.0.1 only.

#[path = "support/http.rs"]
mod http;

use http::{get, post_json, request};
use serde_json::{Value, json};
use std::sync::OnceLock;

fn server() -> std::net::SocketAddr {
    static ADDR: OnceLock<std::net::SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(http::start_bundled)
}

fn description() -> Value {
    let r = get(server(), "/api/openapi.json");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The JSON Pointer `pointer` (`#/a/b`) in `doc`.
fn resolve<'a>(doc: &'a Value, pointer: &str) -> Option<&'a Value> {
    doc.pointer(pointer.strip_prefix('#')?)
}

/// Every `$ref` under `v`, with where it is.
fn refs<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => out.push((at.clone(), r)),
                    _ => refs(x, format!("{at}/{k}"), out),
                }
            }
        }
        Value::Array(items) => items.iter().enumerate().for_each(|(i, x)| refs(x, format!("{at}/{i}"), out)),
        _ => {}
    }
}

#[test]
fn the_description_is_valid_openapi_3_1() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string("tests/validators/openapi-3.1-schema.json").expect("the OpenAPI schema"),
    )
    .expect("json");
    let validator = jsonschema::options().should_validate_formats(true).build(&schema).expect("a valid schema");
    let doc = description();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "invalid OpenAPI:\n{}", errors.join("\n"));
    // The check catches what it must: a parameter without `in`, a field OpenAPI does not have.
    let mut bad = doc.clone();
    bad["paths"]["/api/rulebooks/{rulebook}"]["get"]["parameters"][0]
        .as_object_mut()
        .expect("a parameter")
        .remove("in");
    assert!(!validator.is_valid(&bad));
    let mut bad = doc.clone();
    bad["paths"]["/api"]["get"]["file"] = json!("x");
    assert!(!validator.is_valid(&bad));
}

#[test]
fn every_reference_resolves_and_every_schema_is_valid_json_schema() {
    let doc = description();
    let mut found = Vec::new();
    refs(&doc, String::new(), &mut found);
    assert!(found.len() > 20, "{}", found.len());
    let broken: Vec<String> =
        found.iter().filter(|(_, r)| resolve(&doc, r).is_none()).map(|(at, r)| format!("{at}: {r}")).collect();
    assert!(broken.is_empty(), "references to nothing:\n{}", broken.join("\n"));
    let schemas = doc["components"]["schemas"].as_object().expect("schemas");
    for name in ["gnt.Facts", "dbf.Facts", "Error", "Report"] {
        assert!(schemas.contains_key(name), "no `{name}` among {:?}", schemas.keys().collect::<Vec<_>>());
    }
    for (name, s) in schemas {
        if let Err(e) = jsonschema::draft202012::meta::validate(s) {
            panic!("`{name}` is not a valid JSON Schema: {e}");
        }
    }
}

/// The request body of `POST …/rulings/{ruling}`, as a validator over the description's
/// components.
fn facts_validator(doc: &Value) -> jsonschema::Validator {
    let op = &doc["paths"]["/api/rulebooks/{rulebook}/rulings/{ruling}"]["post"];
    assert_eq!(op["requestBody"]["required"], true);
    let body = op["requestBody"]["content"]["application/json"]["schema"].clone();
    assert_ne!(body, json!({ "type": "object" }), "the facts are not described");
    let mut schema =
        json!({ "$schema": "https://json-schema.org/draft/2020-12/schema", "components": doc["components"] });
    for (k, v) in body.as_object().expect("a schema object") {
        schema[k] = v.clone();
    }
    jsonschema::options().build(&schema).expect("the body's schema compiles")
}

#[test]
fn the_request_body_is_the_facts_schema_and_takes_what_the_server_takes() {
    let doc = description();
    let v = facts_validator(&doc);
    for facts in
        [json!({ "player": { "masterpoints": 2150, "life_master": true } }), json!({}), json!({ "player": null })]
    {
        assert!(v.is_valid(&facts), "{facts} refused by the description");
        let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", &facts.to_string());
        assert_eq!(r.status, 200, "{facts}: {}", r.body);
    }
    for facts in [json!({ "player": { "masterpoints": "lots" } }), json!({ "player": 3 }), json!([])] {
        assert!(!v.is_valid(&facts), "{facts} accepted by the description");
        let r = post_json(server(), "/api/rulebooks/gnt/rulings/flights", &facts.to_string());
        assert_eq!(r.status, 422, "{facts}: {}", r.body);
    }
}

fn parameter<'a>(doc: &'a Value, path: &str, name: &str) -> &'a Value {
    let params = doc["paths"][path]["post"]["parameters"].as_array().expect("parameters");
    params.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("no `{name}` on {path}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("an enum").iter().map(|x| x.as_str().expect("text").to_string()).collect()
}

/// An answer is the described error: JSON with `error` and `status`.
fn assert_error(r: &http::Response, status: u16, what: &str) {
    assert_eq!(r.status, status, "{what}: {}", r.body);
    assert!(r.header("content-type").is_some_and(|c| c.starts_with("application/json")), "{what}");
    let e = r.json();
    assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {}", r.body);
    assert_eq!(e["status"], status, "{what}: {}", r.body);
}

#[test]
fn lang_and_explain_list_their_values_and_the_server_refuses_others() {
    let doc = description();
    let path = "/api/rulebooks/{rulebook}/rulings/{ruling}";
    let langs = strings(&parameter(&doc, path, "lang")["schema"]["enum"]);
    assert!(langs.contains(&"da".to_string()) && langs.contains(&"en".to_string()), "{langs:?}");
    let explains = strings(&parameter(&doc, path, "explain")["schema"]["enum"]);
    assert_eq!(explains, ["brief", "full"]);
    let facts = r#"{"player": {"masterpoints": 2150, "life_master": true}}"#;
    for lang in &langs {
        for explain in &explains {
            let at = format!("/api/rulebooks/gnt/rulings/flights?lang={lang}&explain={explain}");
            assert_eq!(post_json(server(), &at, facts).status, 200, "{at}");
        }
    }
    for query in ["lang=xx", "lang=", "lang=english", "explain=everything", "explain=", "explain=FULL"] {
        let at = format!("/api/rulebooks/gnt/rulings/flights?{query}");
        assert_error(&post_json(server(), &at, facts), 400, &at);
    }
    let rulebooks = strings(&doc["paths"]["/api/rulebooks/{rulebook}"]["get"]["parameters"][0]["schema"]["enum"]);
    assert_eq!(rulebooks, ["dbf", "gnt"]);
}

#[test]
fn every_4xx_is_the_described_json_error() {
    let doc = description();
    let error_schema = json!({ "components": doc["components"], "$ref": "#/components/schemas/Error" });
    let error = jsonschema::options().build(&error_schema).expect("the error schema compiles");
    let ndjson = "application/x-ndjson";
    let cases: Vec<(http::Response, u16, &str)> = vec![
        // No body, so no `Content-Type`: the server cannot tell what was meant.
        (request(server(), "POST", "/api/rulebooks/gnt/batch", None, ndjson), 415, "a batch with no body"),
        (request(server(), "POST", "/api/rulebooks/gnt/batch", Some(b""), ndjson), 400, "an empty batch"),
        (request(server(), "POST", "/api/rulebooks/gnt/rulings/flights", None, "application/json"), 415, "no facts"),
        (
            request(server(), "POST", "/api/rulebooks/gnt/rulings/flights", Some(b""), "application/json"),
            400,
            "empty facts",
        ),
        (post_json(server(), "/api/rulebooks/gnt/rulings/flights", "{"), 400, "facts that do not parse"),
        (post_json(server(), "/api/rulebooks/gnt/rulings/no_such", "{}"), 404, "no such ruling"),
        (post_json(server(), "/api/rulebooks/nobook/rulings/flights", "{}"), 404, "no such rulebook"),
        (get(server(), "/api/rulebooks/gnt/rulings/no_such/schema"), 404, "no such ruling's schema"),
        (
            post_json(server(), "/api/rulebooks/gnt/rulings/flights?strict=maybe", "{}"),
            400,
            "a query that does not parse",
        ),
        (request(server(), "POST", "/api/rulebooks/gnt/rulings/flights", Some(b"{}"), "text/plain"), 415, "not JSON"),
        (get(server(), "/api/no/such/route"), 404, "no such route"),
        (request(server(), "DELETE", "/api/rulebooks/gnt", None, "application/json"), 405, "a method not allowed"),
    ];
    for (r, status, what) in &cases {
        assert_error(r, *status, what);
        let body = r.json();
        let problems: Vec<String> = error.iter_errors(&body).map(|e| e.to_string()).collect();
        assert!(problems.is_empty(), "{what}: {}: {problems:?}", r.body);
        assert!(
            doc["paths"].as_object().expect("paths").values().all(|item| item
                .as_object()
                .expect("operations")
                .values()
                .all(|op| op["responses"][status.to_string()].is_object())),
            "{status} is not described for every operation"
        );
    }
}

/// The description follows the rulebooks served: a ruling added to a watched folder is in
/// it once the folder reloads (it is kept between requests only while nothing changes).
#[test]
fn the_description_follows_a_reloaded_rulebook() {
    let dir = std::env::temp_dir().join(format!("conditions-openapi-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    let book = "rulebook \"reload\" {\n  title \"Reload\"\n  language \"en\"\n}\n\nclause \"R 1\" {\n  text \"The fee is 10.\"\n  ruling fee: int \"the fee\" = 10\n}\n";
    std::fs::write(dir.join("rulebook.cond"), book).expect("written");
    let addr = http::start(vec![conditions::serve::Source::Folder(dir.clone())], true);
    let rulings = |addr| {
        let doc = get(addr, "/api/openapi.json").json();
        strings(&doc["paths"]["/api/rulebooks/{rulebook}/rulings/{ruling}"]["post"]["parameters"][1]["schema"]["enum"])
    };
    assert_eq!(rulings(addr), ["fee"]);
    std::thread::sleep(std::time::Duration::from_millis(50));
    let more = book
        .replace("The fee is 10.", "The fee is 10, the deposit 5.")
        .replace("= 10\n}", "= 10\n  ruling deposit: int \"the deposit\" = 5\n}");
    std::fs::write(dir.join("rulebook.cond"), more).expect("written");
    let start = std::time::Instant::now();
    while rulings(addr).len() < 2 && start.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    assert_eq!(rulings(addr), ["deposit", "fee"]);
}
