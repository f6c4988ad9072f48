//! `docs/openapi.json` as the tests' oracle: every response the shared
//! clients see (`Core::call` in process, a [`TestServer`](super::TestServer)
//! request over HTTP) is checked against the document here, so a record
//! that gains, loses or retypes a field, or a status the document does not
//! list for its operation, fails whichever test met it.
//!
//! - The operation is found by method (`HEAD` as `GET`) and path, a
//!   literal segment before a template one. Its status must be listed;
//!   a response with `content` must carry a JSON body (`Content-Type:
//!   application/json` over HTTP) valid against its schema, one without
//!   must carry none. `HEAD` answers carry no body, so only the status is
//!   checked.
//! - A request that no operation of the document takes (an unknown path,
//!   or a method a path does not take; in process, also an operation only
//!   the HTTP server answers) must be refused the way the API refuses one:
//!   an error body, with 404 (401 without credentials), or a refusal that
//!   comes before routing (400, 413, 415, 429, 500).
//!
//! The schemas are compiled once per test process (JSON Schema 2020-12,
//! formats checked), all of them together from one document that holds
//! the components and every response schema.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::{Value, json};

/// The document, parsed.
pub static DOCUMENT: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(organiser::server::OPENAPI).expect("docs/openapi.json is JSON")
});

/// What a request that no operation takes may be answered: the statuses of
/// refusals that come before routing, and 404 (401 without credentials).
const UNROUTED: &[u16] = &[400, 401, 404, 413, 415, 429, 500];

static ORACLE: LazyLock<Oracle> = LazyLock::new(Oracle::new);

/// One operation of the document: its method, its path template's
/// segments, and its responses by status (the key of the body's schema,
/// or `None` when the response has no body).
struct Operation {
    method: String,
    template: String,
    segments: Vec<String>,
    responses: HashMap<u16, Option<String>>,
}

impl Operation {
    /// How well `segments` fit: `None` when they do not, else the number of
    /// literal segments matched (the best fit wins, as OpenAPI says).
    fn fit(&self, segments: &[&str]) -> Option<usize> {
        if segments.len() != self.segments.len() {
            return None;
        }
        let mut literal = 0;
        for (t, s) in self.segments.iter().zip(segments) {
            if t.starts_with('{') {
                continue;
            }
            if t != s {
                return None;
            }
            literal += 1;
        }
        Some(literal)
    }
}

struct Oracle {
    operations: Vec<Operation>,
    schemas: jsonschema::ValidatorMap,
}

impl Oracle {
    fn new() -> Oracle {
        let doc = &*DOCUMENT;
        let mut defs = serde_json::Map::new();
        defs.insert(
            "Error".into(),
            json!({"$ref": "#/components/schemas/Error"}),
        );
        let mut operations = Vec::new();
        let mut keys: HashMap<String, String> = HashMap::new();
        for (template, item) in doc["paths"].as_object().expect("paths") {
            for (method, op) in item.as_object().expect("a path item") {
                if !["get", "put", "post", "delete", "patch", "head"].contains(&method.as_str()) {
                    continue;
                }
                let mut responses = HashMap::new();
                for (status, response) in op["responses"].as_object().expect("responses") {
                    let status: u16 = status
                        .parse()
                        .unwrap_or_else(|_| panic!("{method} {template}: status {status}"));
                    let response = resolve(doc, response);
                    let key = match response.get("content") {
                        None => None,
                        // A file (an image): bytes of its own type, not JSON.
                        Some(content) if content.get("application/json").is_none() => {
                            Some(String::new())
                        }
                        Some(content) => {
                            let schema = &content["application/json"]["schema"];
                            assert!(
                                schema.is_object(),
                                "{method} {template} {status}: no application/json schema"
                            );
                            // Operations share most responses: each schema is compiled once.
                            let text = schema.to_string();
                            let next = keys.len().to_string();
                            let key = keys.entry(text).or_insert(next).clone();
                            defs.insert(key.clone(), schema.clone());
                            Some(key)
                        }
                    };
                    responses.insert(status, key);
                }
                operations.push(Operation {
                    method: method.clone(),
                    template: template.clone(),
                    segments: split(template).map(str::to_owned).collect(),
                    responses,
                });
            }
        }
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": doc["components"],
            "$defs": defs,
        });
        let schemas = jsonschema::options()
            .should_validate_formats(true)
            .build_map(&schema)
            .unwrap_or_else(|e| panic!("docs/openapi.json: a schema does not compile: {e}"));
        for key in defs.keys() {
            assert!(
                schemas.contains_key(&format!("#/$defs/{key}")),
                "docs/openapi.json: the schema {} does not compile",
                defs[key]
            );
        }
        Oracle {
            operations,
            schemas,
        }
    }

    /// The operation of `method` and `path`, if the document has one.
    fn operation(&self, method: &str, path: &str) -> Option<&Operation> {
        let segments: Vec<&str> = split(path).collect();
        self.operations
            .iter()
            .filter(|op| op.method == method)
            .filter_map(|op| op.fit(&segments).map(|fit| (fit, op)))
            .max_by_key(|(fit, _)| *fit)
            .map(|(_, op)| op)
    }

    fn validate(&self, key: &str, body: &Value) -> Result<(), String> {
        let validator = self
            .schemas
            .get(&format!("#/$defs/{key}"))
            .expect("compiled in Oracle::new");
        let errors: Vec<String> = validator
            .iter_errors(body)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }
}

/// A response object, through its `$ref` when it is one.
fn resolve<'a>(doc: &'a Value, response: &'a Value) -> &'a Value {
    match response.get("$ref").and_then(Value::as_str) {
        Some(pointer) => doc
            .pointer(pointer.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("docs/openapi.json: {pointer} is not there")),
        None => response,
    }
}

/// Whether the core declares a route for `method` and the whole `path`.
fn served_by_the_core(method: &str, path: &str) -> bool {
    let (Some(method), Some(path)) = (
        organiser::server::Method::parse(method),
        path.strip_prefix("/api/v1"),
    ) else {
        return false;
    };
    let segments: Vec<&str> = split(path).collect();
    organiser::server::endpoints().any(|e| e.matches(method, &segments))
}

fn split(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

/// One answer, as a client saw it.
pub struct Seen<'a> {
    /// `GET`, `HEAD`, ...
    pub method: &'a str,
    /// The whole path (`/api/v1/tasks`, `/.well-known/organiser`), with or
    /// without its query.
    pub path: &'a str,
    pub status: u16,
    /// The `Content-Type` header.
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    /// Answered by `Organiser::handle` in process, not over HTTP: the
    /// operations only the server answers (`/session`, discovery at the
    /// root, `/healthz`) are unknown routes there.
    pub in_process: bool,
}

/// Panics unless `seen` is an answer the document allows.
#[track_caller]
pub fn check(seen: &Seen<'_>) {
    if let Err(why) = verdict(seen) {
        let body = String::from_utf8_lossy(seen.body);
        panic!(
            "docs/openapi.json does not allow {} {} answering {}: {why}\nbody: {body}",
            seen.method, seen.path, seen.status
        );
    }
}

/// Why the document does not allow `seen`, if it does not.
pub fn verdict(seen: &Seen<'_>) -> Result<(), String> {
    let oracle = &*ORACLE;
    let path = seen.path.split('?').next().unwrap_or_default();
    let head = seen.method.eq_ignore_ascii_case("HEAD");
    let method = if head {
        "get".to_owned()
    } else {
        seen.method.to_ascii_lowercase()
    };
    let routed = !seen.in_process || served_by_the_core(seen.method, path);
    let Some(op) = oracle.operation(&method, path).filter(|_| routed) else {
        if !UNROUTED.contains(&seen.status) {
            return Err(format!(
                "no operation takes it, so it must be refused ({UNROUTED:?})"
            ));
        }
        return if head {
            Ok(())
        } else {
            oracle.validate("Error", &json_body(seen)?)
        };
    };
    let Some(key) = op.responses.get(&seen.status) else {
        let mut listed: Vec<_> = op.responses.keys().collect();
        listed.sort();
        return Err(format!(
            "{} {} lists only {listed:?}",
            op.method.to_uppercase(),
            op.template
        ));
    };
    match key {
        _ if head => Ok(()),
        Some(key) if key.is_empty() => Ok(()),
        None if seen.body.is_empty() => Ok(()),
        None => Err("the document gives this response no body".into()),
        Some(key) => oracle.validate(key, &json_body(seen)?),
    }
}

/// The body as JSON, which its `Content-Type` must say it is.
fn json_body(seen: &Seen<'_>) -> Result<Value, String> {
    let essence = seen
        .content_type
        .and_then(|c| c.split(';').next())
        .map(str::trim);
    if essence != Some("application/json") {
        return Err(format!("Content-Type {:?} is not JSON", seen.content_type));
    }
    serde_json::from_slice(seen.body).map_err(|e| format!("the body is not JSON: {e}"))
}
