//! The OpenAPI 3.1 description of the JSON API, served at `GET /api/openapi.json`. It
//! is written here beside the routes of [`super::router`] (a test asks the live server
//! for every operation it lists, and checks every API route is listed): the bodies'
//! shapes are those of `docs/json.md`, and the facts a ruling takes are described per
//! ruling by the JSON Schema of `GET …/schema`, which no static description could hold.

use crate::json::Json as J;
use crate::ojson as json;

/// Every operation of the JSON API: method, path (OpenAPI's `{name}` for a parameter),
/// and a one-line summary. `GET /api` lists these.
pub const OPERATIONS: &[(&str, &str, &str)] = &[
    ("get", "/api", "The routes of the API"),
    ("get", "/api/openapi.json", "This description"),
    ("get", "/api/rulebooks", "The rulebooks served"),
    ("get", "/api/rulebooks/{rulebook}", "A rulebook: title, language, edition, rulings and clauses"),
    ("get", "/api/rulebooks/{rulebook}/rulings", "Its rulings, as `conditions list --format json`"),
    (
        "get",
        "/api/rulebooks/{rulebook}/find",
        "The rulings for a question in words, as `conditions find --format json`",
    ),
    ("get", "/api/rulebooks/{rulebook}/rulings/{ruling}", "A ruling described, as `conditions describe --format json`"),
    ("get", "/api/rulebooks/{rulebook}/rulings/{ruling}/schema", "The JSON Schema of the facts the ruling reads"),
    ("post", "/api/rulebooks/{rulebook}/rulings/{ruling}", "Rules on the posted facts: the report of docs/json.md"),
    ("post", "/api/rulebooks/{rulebook}/batch", "JSON lines of facts in, one record a line out"),
];

fn param(name: &str, place: &str, required: bool, schema: J, description: &str) -> J {
    json!({ "name": name, "in": place, "required": required, "schema": schema, "description": description })
}

fn errors() -> J {
    let e = json!({ "description": "An error with its reason", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } });
    json!({
        "400": e.clone(), "404": e.clone(), "405": e.clone(), "408": e.clone(), "413": e.clone(),
        "415": e.clone(), "422": e.clone(), "503": e
    })
}

fn operation(method: &str, path: &str, summary: &str) -> J {
    let mut params = Vec::new();
    if path.contains("{rulebook}") {
        params.push(param("rulebook", "path", true, json!({ "type": "string" }), "The rulebook's name (`gnt`)"));
    }
    if path.contains("{ruling}") {
        params.push(param("ruling", "path", true, json!({ "type": "string" }), "The ruling's name (`flights`)"));
    }
    let json_ok = |description: &str, schema: J| json!({ "description": description, "content": { "application/json": { "schema": schema } } });
    let mut op = json!({ "summary": summary, "operationId": operation_id(method, path) });
    let ok = match (method, path) {
        ("get", "/api/rulebooks/{rulebook}/rulings") => {
            params.push(param("q", "query", false, json!({ "type": "string" }), "Only entries with this word"));
            json_ok("The entries", json!({ "type": "object" }))
        }
        ("get", "/api/rulebooks/{rulebook}/find") => {
            params.push(param("q", "query", false, json!({ "type": "string" }), "The question in words"));
            params.push(param("limit", "query", false, json!({ "type": "integer" }), "At most this many results (10)"));
            json_ok("The results, best first", json!({ "type": "object" }))
        }
        ("get", "/api/rulebooks/{rulebook}/rulings/{ruling}/schema") => json!({
            "description": "A JSON Schema (2020-12) of the facts",
            "content": { "application/schema+json": { "schema": { "type": "object" } } }
        }),
        ("post", "/api/rulebooks/{rulebook}/rulings/{ruling}") => {
            params.push(param(
                "lang",
                "query",
                false,
                json!({ "type": "string" }),
                "The language of the explanation's frame (a BCP-47 tag: `da`, `en`); the rulebook's by default",
            ));
            params.push(param(
                "explain",
                "query",
                false,
                json!({ "enum": ["brief", "full"] }),
                "`full`: every repeated sub-step too",
            ));
            params.push(param(
                "strict",
                "query",
                false,
                json!({ "type": "boolean" }),
                "A record field left out is an error",
            ));
            params.push(param(
                "pretty",
                "query",
                false,
                json!({ "type": "boolean" }),
                "The report indented for reading; compact by default",
            ));
            op.insert("requestBody", json!({
                "required": true,
                "description": "One JSON object of facts, as a facts file writes them; its JSON Schema is at `…/schema`",
                "content": { "application/json": { "schema": { "type": "object" } } }
            }));
            json_ok("The report of docs/json.md", json!({ "$ref": "#/components/schemas/Report" }))
        }
        ("post", "/api/rulebooks/{rulebook}/batch") => {
            params.push(param(
                "ruling",
                "query",
                false,
                json!({ "type": "string" }),
                "The rulings, comma-separated (every ruling by default)",
            ));
            op.insert(
                "requestBody",
                json!({
                    "required": true,
                    "description": "JSON lines: one facts object a line",
                    "content": { "application/x-ndjson": { "schema": { "type": "string" } } }
                }),
            );
            json!({
                "description": "One record a line, in order, as `conditions rule --batch` writes them",
                "content": { "application/x-ndjson": { "schema": { "type": "string" } } }
            })
        }
        _ => json_ok(summary, json!({ "type": "object" })),
    };
    let mut responses = errors();
    responses.insert("200", ok);
    op.insert("responses", responses);
    if !params.is_empty() {
        op.insert("parameters", J::Array(params));
    }
    op
}

fn operation_id(method: &str, path: &str) -> String {
    let mut id = method.to_string();
    for part in path.split('/').filter(|p| !p.is_empty() && *p != "api") {
        let part = part.trim_matches(|c| c == '{' || c == '}').replace(['.', '-'], "_");
        id.push('_');
        id.push_str(&part);
    }
    id
}

/// The description, as JSON.
pub fn document() -> J {
    let mut paths = J::object();
    for (method, path, summary) in OPERATIONS {
        if paths.get(path).is_none() {
            paths.insert(*path, J::object());
        }
        if let Some(entry) = paths.get_mut(path) {
            entry.insert(*method, operation(method, path, summary));
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "conditions serve",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Rulings on bridge conditions of contest, explained clause by clause. See docs/api.md and docs/json.md."
        },
        "paths": paths,
        "components": { "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "status"],
                "properties": {
                    "error": { "type": "string", "description": "What is wrong, naming the facts path when there is one" },
                    "status": { "type": "integer" },
                    "help": { "type": "string" },
                    "problems": { "type": "array", "items": { "type": "object", "properties": {
                        "message": { "type": "string" }, "path": { "type": ["string", "null"] }, "help": { "type": ["string", "null"] }
                    } } }
                }
            },
            "Report": {
                "type": "object",
                "description": "The stable report of docs/json.md",
                "required": ["rulebook", "ruling", "status"],
                "properties": {
                    "rulebook": { "type": "string" },
                    "rulebook_title": { "type": "string" },
                    "lang": { "type": "string" },
                    "ruling": { "type": "string" },
                    "question": { "type": ["string", "null"] },
                    "status": { "enum": ["decided", "undetermined", "silent", "error"] },
                    "answer": { "type": "string", "description": "The answer as a person reads it" },
                    "value": { "description": "The answer as data, when decided" },
                    "needs": { "type": "array", "items": { "type": "object" }, "description": "What is still needed, when undetermined" },
                    "how_to": { "type": "array", "items": { "type": "object" } },
                    "settled_whatever": { "type": "array", "items": { "type": "string" } },
                    "nearest": { "type": "array", "items": { "type": "string" } },
                    "error": { "type": ["string", "null"] },
                    "steps": { "type": "array", "items": { "type": "object" } },
                    "clauses": { "type": "array", "items": { "type": "object" } },
                    "facts": { "type": "array", "items": { "type": "object" } }
                }
            }
        } }
    })
}
