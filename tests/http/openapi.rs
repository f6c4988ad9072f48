//! The API reference, `docs/openapi.json` (DESIGN.md "Running it"): it
//! names exactly the routes the build answers, it is served bare without a
//! token at `GET /api/v1/openapi.json`, and it is a well-formed OpenAPI 3.1
//! document. (That every answer of the test suite fits it is checked by the
//! shared clients: `tests/common/openapi.rs`.)
//!
//! The routes are the core's declared ones (`organiser::server::endpoints()`, held
//! to the dispatch by the core's own tests) and the few only the HTTP
//! server answers, listed here.

use std::collections::BTreeSet;

use organiser::server::Method;
use serde_json::Value;

use crate::common::openapi::{DOCUMENT, Seen, verdict};
use crate::common::{TestServer, send};

/// What only the HTTP server answers: sessions, discovery at the root and
/// the health check.
const SERVER_ONLY: &[(&str, &str)] = &[
    ("post", "/api/v1/session"),
    ("delete", "/api/v1/session"),
    ("get", "/.well-known/organiser"),
    ("get", "/healthz"),
];

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

/// Every (method, path template) of the document.
fn documented() -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in DOCUMENT["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("a path item").keys() {
            if METHODS.contains(&method.as_str()) {
                routes.insert((method.clone(), path.clone()));
            }
        }
    }
    routes
}

/// Every route the build answers, as the document writes them.
fn served() -> BTreeSet<(String, String)> {
    organiser::server::endpoints()
        .map(|e| {
            let method = e.method.as_str().to_ascii_lowercase();
            (method, format!("/api/v1{}", e.path))
        })
        .chain(organiser::server::root_endpoints().map(|e| {
            // The routes at the server's root (the calendar feed) are
            // written as they are.
            (e.method.as_str().to_ascii_lowercase(), e.path.to_owned())
        }))
        .chain(
            SERVER_ONLY
                .iter()
                .map(|(m, p)| ((*m).to_owned(), (*p).to_owned())),
        )
        .collect()
}

#[test]
fn the_document_names_every_route_and_no_other() {
    let (documented, served) = (documented(), served());
    let missing: Vec<_> = served.difference(&documented).collect();
    let phantom: Vec<_> = documented.difference(&served).collect();
    assert!(
        missing.is_empty() && phantom.is_empty(),
        "docs/openapi.json lacks {missing:?}, and names routes nothing answers: {phantom:?}"
    );
}

/// The routes only the server answers do answer over HTTP, with no other
/// method on their paths (the health check is another change's; its
/// answers are checked against the document like any other once it is
/// served).
#[test]
fn the_server_answers_its_own_routes() {
    let s = TestServer::start();
    for (method, path) in SERVER_ONLY.iter().filter(|(_, p)| *p != "/healthz") {
        let url_path = path
            .strip_prefix("/api/v1")
            .unwrap_or(&format!("/{path}"))
            .to_owned();
        for other in ["GET", "POST", "PUT", "PATCH", "DELETE"] {
            let reply = send(s.req(other, &url_path));
            let documented = other.eq_ignore_ascii_case(method)
                || SERVER_ONLY.contains(&(other.to_ascii_lowercase().as_str(), path));
            assert_eq!(
                reply.status != 404,
                documented,
                "{other} {path}: {} {}",
                reply.status,
                reply.body
            );
        }
    }
}

/// `docs/openapi.json` is what the declarations write
/// (`organiser::server::openapi_document`); `ORGANISER_BLESS=1 cargo test
/// --test http openapi` rewrites it after a change to a declaration or a
/// resource's `openapi.json`.
#[test]
fn the_document_is_what_the_declarations_write() {
    let written = organiser::server::openapi_document().expect("the document is written");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/openapi.json");
    if std::env::var_os("ORGANISER_BLESS").is_some() {
        std::fs::write(path, &written).expect("docs/openapi.json is written");
        return;
    }
    let file = std::fs::read_to_string(path).expect("docs/openapi.json");
    assert!(
        file == written,
        "docs/openapi.json is not what the declarations write: run \
         `ORGANISER_BLESS=1 cargo test --test http openapi` and review the diff"
    );
}

#[test]
fn the_document_is_openapi_3_1_of_this_build() {
    let doc = &*DOCUMENT;
    let version = doc["openapi"].as_str().expect("openapi");
    assert!(version.starts_with("3.1."), "{version}");
    assert_eq!(doc["info"]["title"], "Organiser");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        doc["info"]["license"]["identifier"],
        env!("CARGO_PKG_LICENSE")
    );
    // The file as it is in the repository is the one compiled in.
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/openapi.json"))
        .expect("docs/openapi.json");
    assert_eq!(file, organiser::server::OPENAPI);
}

/// What an OpenAPI tool needs of the document that no schema checks: every
/// `$ref` resolves, operation ids are unique, and every path parameter is
/// declared.
#[test]
fn the_document_is_well_formed() {
    let doc = &*DOCUMENT;
    let mut refs = Vec::new();
    collect_refs(doc, &mut refs);
    for r in &refs {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{r}: not local"));
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }
    let mut ids = BTreeSet::new();
    for (path, item) in DOCUMENT["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}: no operationId"));
            assert!(ids.insert(id.to_owned()), "{id}: twice");
            assert!(op["responses"].is_object(), "{method} {path}: no responses");
            let declared: BTreeSet<String> = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| resolve(doc, p))
                .filter(|p| p["in"] == "path")
                .map(|p| p["name"].as_str().unwrap().to_owned())
                .collect();
            let templated: BTreeSet<String> = path
                .split('/')
                // `{id}`, or `{secret}.ics` (a parameter and a suffix).
                .filter_map(|s| s.strip_prefix('{')?.split_once('}').map(|(name, _)| name))
                .map(str::to_owned)
                .collect();
            assert_eq!(declared, templated, "{method} {path}: path parameters");
        }
    }
}

/// An answer over HTTP, with a JSON body unless it is empty.
fn seen<'a>(method: &'a str, path: &'a str, status: u16, body: &'a str) -> Seen<'a> {
    Seen {
        method,
        path,
        status,
        content_type: Some("application/json").filter(|_| !body.is_empty()),
        body: body.as_bytes(),
        in_process: false,
    }
}

fn collect_refs<'a>(value: &'a Value, refs: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                refs.push(r);
            }
            map.values().for_each(|v| collect_refs(v, refs));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, refs)),
        _ => {}
    }
}

fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str() {
        Some(r) => doc.pointer(r.trim_start_matches('#')).expect("resolves"),
        None => value,
    }
}

#[test]
fn the_document_is_served_without_a_token() {
    let s = TestServer::start();
    let get = s.bare("GET", "/openapi.json").send().unwrap();
    assert_eq!(get.status(), 200);
    assert_eq!(get.headers()["content-type"], "application/json");
    let body = get.text().unwrap();
    assert_eq!(
        body,
        organiser::server::OPENAPI,
        "bare, not wrapped in data"
    );
    let head = s.bare("HEAD", "/openapi.json").send().unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(
        head.headers()["content-length"],
        body.len().to_string().as_str()
    );
    assert!(head.bytes().unwrap().is_empty());
    // Through the checked client too, and the same in process.
    send(s.bare("GET", "/openapi.json")).expect(200);
    assert_eq!(s.org.openapi(), organiser::server::OPENAPI);
    let answer = s.org.handle(&organiser::server::Request::new(
        Method::Get,
        "/openapi.json",
        organiser::Auth::Anonymous,
    ));
    assert_eq!(
        (answer.status, answer.body.as_deref()),
        (200, Some(organiser::server::OPENAPI.as_bytes()))
    );
}

/// The oracle of every test has teeth: what the document does not allow,
/// it refuses.
#[test]
fn answers_the_document_does_not_allow_are_refused() {
    let task = r#"{"data":{"id":"01KKBFJYM06F2NGSPTFY9GBYC8","title":"T","status":"open","start_on":null,"deadline_on":null,"expires_on":null,"remind_at":null,"completed_at":null,"archived_at":null,"task_list_id":null,"person_id":null,"project_id":null,"position":1,"description_html":null,"description_text":"","has_documents":false,"expired":false,"repeat":null,"series_id":null,"next_task_id":null,"created_at":"2026-03-10T09:00:00.000Z","updated_at":"2026-03-10T09:00:00.000Z"}}"#;
    let not_found = r#"{"error":{"code":"not_found","message":"Not found"}}"#;
    let id = "/api/v1/tasks/01KKBFJYM06F2NGSPTFY9GBYC8";
    let without_a_field = task.replace(r#""expired":false,"#, "");
    let with_another = task.replace("}}", r#","colour":"red"}}"#);
    let not_a_time = task.replace("2026-03-10T09:00:00.000Z", "yesterday");
    for (allowed, answer) in [
        (true, seen("GET", id, 200, task)),
        (true, seen("HEAD", id, 200, "")),
        (true, seen("GET", id, 404, not_found)),
        (true, seen("GET", "/api/v1/nowhere", 404, not_found)),
        (true, seen("DELETE", id, 204, "")),
        (false, seen("GET", id, 200, &without_a_field)),
        (false, seen("GET", id, 200, &with_another)),
        (false, seen("GET", id, 200, &not_a_time)),
        (
            false,
            seen(
                "GET",
                id,
                409,
                r#"{"error":{"code":"conflict","message":"No"}}"#,
            ),
        ),
        (
            false,
            seen(
                "GET",
                id,
                404,
                r#"{"error":{"code":"read_only","message":"No"}}"#,
            ),
        ),
        (false, seen("DELETE", id, 204, "{}")),
        (false, seen("GET", "/api/v1/nowhere", 200, task)),
        (false, seen("GET", "/api/v1/session", 200, task)),
    ] {
        let got = verdict(&answer);
        assert_eq!(
            got.is_ok(),
            allowed,
            "{} {} {}: {got:?}",
            answer.method,
            answer.path,
            answer.status
        );
    }
    // In process, the server's own routes are unknown routes.
    let session = Seen {
        in_process: true,
        ..seen("POST", "/api/v1/session", 404, not_found)
    };
    assert_eq!(verdict(&session), Ok(()));
}
