//! The OpenAPI 3.1 description of the JSON API, served at `GET /api/openapi.json`. It
//! is written here beside the routes of [`super::router`] (a test asks the live server
//! for every operation it lists, and checks every API route is listed): the bodies'
//! shapes are those of `docs/json.md`. The facts a ruling takes are the JSON Schema of
//! `conditions schema` (generated from the facts reader's own description of the forms it
//! accepts), one component per rulebook served (`gnt.Facts`, its records and enums beside it),
//! and the request body of a ruling is any of them; `GET …/schema` narrows it to the facts
//! one ruling reads. `lang` and `explain` list the values the server accepts.

use crate::check::program::Program;
use crate::json::Json as J;
use crate::ojson as json;
use crate::show::Lang;

/// A rulebook served that checks: its name, program and language.
pub struct Served<'a> {
    pub name: &'a str,
    pub program: &'a Program,
    pub language: Lang,
}

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

/// The values of a string parameter: an `enum` when they are known.
fn one_of(values: &[String]) -> J {
    if values.is_empty() { json!({ "type": "string" }) } else { json!({ "type": "string", "enum": values }) }
}

/// A component name: OpenAPI allows letters, digits, `.`, `-` and `_`; any other character
/// is written as `_` and the hexadecimal of each of its UTF-8 bytes (`å` as `_C3_A5`).
fn component(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_') {
            out.push(b as char);
        } else {
            out.push_str(&format!("_{b:02X}"));
        }
    }
    out
}

/// A URI fragment's JSON Pointer token as the name it stands for: percent-decoded, then
/// `~1` and `~0` unescaped; `None` when the decoded bytes are not UTF-8.
fn pointer_token(token: &str) -> Option<String> {
    let bytes = token.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = token.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(String::from_utf8(out).ok()?.replace("~1", "/").replace("~0", "~"))
}

/// Moves a facts schema's `$defs` into the components as `{book}.{name}` and points its
/// `$ref`s at them, so that every reference resolves from the document's root.
fn rebase(j: &mut J, book: &str) {
    match j {
        J::Object(fields) => {
            for (k, v) in fields.iter_mut() {
                if k == "$ref"
                    && let J::String(r) = v
                    && let Some(name) = r.strip_prefix("#/$defs/").and_then(pointer_token)
                {
                    *r = format!("#/components/schemas/{}", component(&format!("{book}.{name}")));
                } else {
                    rebase(v, book);
                }
            }
        }
        J::Array(items) => items.iter_mut().for_each(|i| rebase(i, book)),
        _ => {}
    }
}

/// The facts schema of each rulebook served, and its records and enums, as components.
fn facts_components(books: &[Served], schemas: &mut J) -> Vec<J> {
    let mut refs = Vec::new();
    for b in books {
        let mut s = crate::discover::schema::schema(b.program, &[]);
        rebase(&mut s, b.name);
        let J::Object(fields) = s else { continue };
        let mut facts = J::object();
        for (k, v) in fields {
            match (k.as_str(), v) {
                ("$schema", _) => {}
                ("$defs", J::Object(defs)) => {
                    for (name, d) in defs {
                        schemas.insert(component(&format!("{}.{name}", b.name)), d);
                    }
                }
                (_, v) => facts.insert(k, v),
            }
        }
        let name = component(&format!("{}.Facts", b.name));
        refs.push(json!({ "$ref": format!("#/components/schemas/{name}") }));
        schemas.insert(name, facts);
    }
    refs
}

/// What the parameters and bodies of the operations take, from the rulebooks served.
struct Takes {
    rulebooks: Vec<String>,
    rulings: Vec<String>,
    langs: Vec<String>,
    facts: J,
}

fn operation(method: &str, path: &str, summary: &str, takes: &Takes) -> J {
    let mut params = Vec::new();
    if path.contains("{rulebook}") {
        params.push(param("rulebook", "path", true, one_of(&takes.rulebooks), "The rulebook's name (`gnt`)"));
    }
    if path.contains("{ruling}") {
        params.push(param("ruling", "path", true, one_of(&takes.rulings), "The ruling's name (`flights`)"));
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
                one_of(&takes.langs),
                "The language of the explanation's frame (a BCP-47 tag: `da`, `en`); the rulebook's by default",
            ));
            params.push(param(
                "explain",
                "query",
                false,
                json!({ "type": "string", "enum": super::api::EXPLAIN.to_vec() }),
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
                "description": "One JSON object of facts, as a facts file writes them: the facts of one of the rulebooks served (`{rulebook}.Facts`); the JSON Schema of the facts the ruling reads is at `…/schema`",
                "content": { "application/json": { "schema": takes.facts.clone() } }
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

/// The description, as JSON, for the rulebooks served (those that check).
pub fn document(books: &[Served]) -> J {
    let mut schemas = J::object();
    let refs = facts_components(books, &mut schemas);
    let mut rulebooks: Vec<String> = books.iter().map(|b| b.name.to_string()).collect();
    rulebooks.sort();
    rulebooks.dedup();
    let mut rulings: Vec<String> =
        books.iter().flat_map(|b| b.program.rulings().map(|(_, info)| info.name.clone())).collect();
    rulings.sort();
    rulings.dedup();
    let mut langs: Vec<Lang> = Lang::framed();
    for b in books {
        if !langs.contains(&b.language) {
            langs.push(b.language);
        }
    }
    let facts = match refs.len() {
        0 => json!({ "type": "object" }),
        1 => refs.into_iter().next().unwrap_or_default(),
        _ => json!({ "anyOf": refs }),
    };
    let takes = Takes { rulebooks, rulings, langs: langs.iter().map(|l| l.code().to_string()).collect(), facts };
    let mut paths = J::object();
    for (method, path, summary) in OPERATIONS {
        if paths.get(path).is_none() {
            paths.insert(*path, J::object());
        }
        if let Some(entry) = paths.get_mut(path) {
            entry.insert(*method, operation(method, path, summary, &takes));
        }
    }
    let mut doc = json!({
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
    });
    if let Some(J::Object(all)) = doc.get_mut("components").and_then(|c| c.get_mut("schemas"))
        && let J::Object(more) = schemas
    {
        all.extend(more);
    }
    doc
}
