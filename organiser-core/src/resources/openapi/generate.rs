//! Writes the OpenAPI document from the declarations. Each operation's
//! `operationId`, place (method and path), summary and description come
//! from its declaration, as do the answers every operation of its kind
//! may give (400, 401 unless it is public, 404 on a path with an ID, 413,
//! 415, 429, 500) and `security: []` for a public one. What a declaration
//! does not yet say (its tags, query parameters, request body, success
//! answer and its own errors) is written beside it, in its resource's
//! `openapi.json`, keyed by `operationId`; the shared schemas are in
//! `components.json`, the document's head in `head.json`, and the routes
//! only the HTTP server answers in `server.json`.
//!
//! `docs/openapi.json` is this output, checked in; a test fails when the
//! two differ (`ORGANISER_BLESS=1` rewrites the file).

use serde_json::{Map, Value, json};

use crate::engine::operation::Described;
use crate::engine::request::Method;

const HEAD: &str = include_str!("head.json");
const COMPONENTS: &str = include_str!("components.json");
const SERVER: &str = include_str!("server.json");

/// Why the document cannot be written: a fragment that is not JSON, names
/// an operation no declaration has, or misses one that a declaration has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unwritable(pub String);

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unwritable {}

/// The OpenAPI document of every declared operation, as pretty JSON with
/// a final newline (the bytes of `docs/openapi.json`).
///
/// # Errors
///
/// [`Unwritable`] when a resource's `openapi.json` does not match its
/// declarations.
pub fn openapi_document() -> Result<String, Unwritable> {
    let mut doc: Map<String, Value> = parse("head.json", HEAD)?;
    if let Some(Value::Object(info)) = doc.get_mut("info") {
        info.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    }
    let mut paths: Map<String, Value> = Map::new();
    for (declared, fragment) in super::super::documented() {
        let mut fragment: Map<String, Value> = parse("a resource's openapi.json", fragment)?;
        for op in declared {
            let d = op.described();
            let primary = fragment.remove(d.id).ok_or_else(|| missing(d.id))?;
            // A root route's path is whole; the others are below `/api/v1`.
            let path = if d.root {
                d.path.to_owned()
            } else {
                format!("/api/v1{}", d.path)
            };
            place(&mut paths, &path, d.method, operation(&d, d.id, primary)?);
            if let Some((method, id)) = d.alias {
                let alias = fragment.remove(id).ok_or_else(|| missing(id))?;
                place(&mut paths, &path, method, operation(&d, id, alias)?);
            }
        }
        if let Some(id) = fragment.keys().next() {
            return Err(Unwritable(format!(
                "openapi.json describes {id}, which no declaration has"
            )));
        }
    }
    let server: Map<String, Value> = parse("server.json", SERVER)?;
    for (path, item) in server {
        paths.insert(path, item);
    }
    doc.insert("paths".into(), Value::Object(paths));
    doc.insert(
        "components".into(),
        Value::Object(parse("components.json", COMPONENTS)?),
    );
    let mut text =
        serde_json::to_string_pretty(&Value::Object(doc)).map_err(|e| Unwritable(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

fn parse(name: &str, text: &str) -> Result<Map<String, Value>, Unwritable> {
    serde_json::from_str(text).map_err(|e| Unwritable(format!("{name}: {e}")))
}

fn missing(id: &str) -> Unwritable {
    Unwritable(format!(
        "{id} is declared but its resource's openapi.json does not describe it"
    ))
}

/// Puts `op` under `path` and `method`.
fn place(paths: &mut Map<String, Value>, path: &str, method: Method, op: Value) {
    let item = paths
        .entry(path.to_owned())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(item) = item {
        item.insert(method.as_str().to_ascii_lowercase(), op);
    }
}

/// One operation: what the declaration says, then the fragment's parts,
/// then its answers (the fragment's over the declaration's).
fn operation(d: &Described, id: &str, fragment: Value) -> Result<Value, Unwritable> {
    let Value::Object(mut fragment) = fragment else {
        return Err(Unwritable(format!("{id}: not an object")));
    };
    let mut op = Map::new();
    op.insert("operationId".into(), json!(id));
    // An alias (PUT beside PATCH) may say itself what it is.
    let alias = id != d.id;
    let (summary, description) = match fragment.get("summary") {
        Some(_) if alias => (
            fragment.remove("summary").unwrap_or(Value::Null),
            fragment.remove("description"),
        ),
        _ => {
            let (summary, description) = match d.doc.split_once("\n\n") {
                Some((s, rest)) => (s, Some(rest)),
                None => (d.doc, None),
            };
            (json!(summary), description.map(|d| json!(d)))
        }
    };
    op.insert("summary".into(), summary);
    if let Some(description) = description {
        op.insert("description".into(), description);
    }
    if let Some(tags) = fragment.remove("tags") {
        op.insert("tags".into(), tags);
    }
    if d.public {
        op.insert("security".into(), json!([]));
    }
    for part in ["parameters", "requestBody"] {
        if let Some(value) = fragment.remove(part) {
            op.insert(part.into(), value);
        }
    }
    let mut responses = match fragment.remove("responses") {
        Some(Value::Object(r)) => r,
        None => Map::new(),
        Some(_) => return Err(Unwritable(format!("{id}: responses is not an object"))),
    };
    // The success the declaration answers is the one documented.
    if let Some(success) = d.success {
        let mut documented: Vec<&String> =
            responses.keys().filter(|s| s.starts_with('2')).collect();
        documented.sort();
        let mut declared: Vec<String> = std::iter::once(success)
            .chain(d.other_success)
            .map(|s| s.to_string())
            .collect();
        declared.sort();
        if documented
            .iter()
            .map(|s| s.as_str())
            .ne(declared.iter().map(String::as_str))
        {
            return Err(Unwritable(format!(
                "{id} answers {success}, but its openapi.json documents {documented:?}"
            )));
        }
    }
    for (status, name) in common_answers(d) {
        responses
            .entry(status)
            .or_insert_with(|| json!({ "$ref": format!("#/components/responses/{name}") }));
    }
    responses.sort_keys();
    op.insert("responses".into(), Value::Object(responses));
    if let Some(key) = fragment.keys().next() {
        return Err(Unwritable(format!("{id}: unknown part {key}")));
    }
    Ok(Value::Object(op))
}

/// The answers an operation gives by its kind alone.
fn common_answers(d: &Described) -> Vec<(String, &'static str)> {
    let mut answers = vec![
        ("400", "BadRequest"),
        ("413", "PayloadTooLarge"),
        ("415", "UnsupportedMediaType"),
        ("429", "RateLimited"),
        ("500", "InternalError"),
    ];
    if !d.public {
        answers.push(("401", "Unauthorized"));
    }
    if d.path.contains('{') {
        answers.push(("404", "NotFound"));
    }
    answers
        .into_iter()
        .map(|(status, name)| (status.to_owned(), name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(path: &'static str, public: bool, success: Option<u16>) -> Described {
        Described {
            id: "getThing",
            method: Method::Get,
            alias: None,
            path,
            doc: "A thing\n\nWhat it is.",
            public,
            root: false,
            success,
            other_success: None,
        }
    }

    #[test]
    fn the_declaration_gives_the_name_the_words_and_the_common_answers() {
        let fragment = json!({"tags": ["things"], "responses": {"200": {"description": "It."}}});
        let op = operation(
            &declared("/things/{id}", false, Some(200)),
            "getThing",
            fragment,
        )
        .unwrap();
        assert_eq!(op["operationId"], "getThing");
        assert_eq!(op["summary"], "A thing");
        assert_eq!(op["description"], "What it is.");
        assert!(op.get("security").is_none());
        let statuses: Vec<&String> = op["responses"].as_object().unwrap().keys().collect();
        assert_eq!(
            statuses,
            ["200", "400", "401", "404", "413", "415", "429", "500"]
        );
        let public = operation(
            &declared("/things", true, Some(200)),
            "getThing",
            json!({"responses": {"200": {"description": "It."}}}),
        )
        .unwrap();
        assert_eq!(public["security"], json!([]));
        assert!(public["responses"].get("401").is_none());
        assert!(public["responses"].get("404").is_none());
    }

    #[test]
    fn a_fragment_out_of_step_with_its_declaration_is_refused() {
        let d = declared("/things", false, Some(201));
        let wrong_status = json!({"responses": {"200": {"description": "It."}}});
        let e = operation(&d, "getThing", wrong_status).unwrap_err();
        assert!(e.0.contains("answers 201"), "{e}");
        let unknown = json!({"responses": {"201": {}}, "requestbody": {}});
        let e = operation(&d, "getThing", unknown).unwrap_err();
        assert!(e.0.contains("unknown part requestbody"), "{e}");
    }
}
