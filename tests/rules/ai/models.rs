//! Models and model additions (document 2, "AIModel", "AI models",
//! "Model additions").

use serde_json::{Value, json};

use super::{model, provider};
use crate::common::fixtures::id;
use crate::common::{Core, ModelServer, send};

fn setup() -> (Core, ModelServer, Value) {
    let s = Core::start();
    let server = ModelServer::start();
    let p = provider(&s, "P", "api_compatible", &server, None);
    (s, server, p)
}

#[test]
fn a_model_has_its_fields_and_rules() {
    let (s, server, p) = setup();
    let m = model(&s, &p, "model-a", false);
    let mut keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "ai_provider_id",
            "created_at",
            "id",
            "identifier",
            "is_default",
            "name",
            "updated_at"
        ]
    );
    assert_eq!(m["name"], "model-a");
    let create = |body: Value| s.post("/ai_models", json!({ "ai_model": body }));
    create(json!({"ai_provider_id": id(&p), "identifier": "model-a"})).expect_error(
        422,
        "validation_failed",
        Some("identifier"),
    );
    create(json!({"ai_provider_id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "identifier": "x"}))
        .expect_error(422, "validation_failed", Some("ai_provider_id"));
    create(json!({"identifier": "x"})).expect_error(
        422,
        "validation_failed",
        Some("ai_provider_id"),
    );
    create(json!({"ai_provider_id": id(&p), "identifier": " "})).expect_error(
        422,
        "validation_failed",
        Some("identifier"),
    );
    create(json!({"ai_provider_id": id(&p), "identifier": "x".repeat(256)})).expect_error(
        422,
        "validation_failed",
        Some("identifier"),
    );
    create(json!({"ai_provider_id": id(&p), "identifier": "x", "is_default": "yes"})).expect_error(
        422,
        "validation_failed",
        Some("is_default"),
    );
    // The same identifier with another provider is fine.
    let other = provider(&s, "O", "api_compatible", &server, None);
    model(&s, &other, "model-a", false);
    let named =
        create(json!({"ai_provider_id": id(&p), "identifier": "m2", "name": "  My   model "}))
            .expect(201);
    assert_eq!(named.data()["name"], "My model");
    // Blank name is the identifier; ai_provider_id is ignored on change.
    let path = format!("/ai_models/{}", id(named.data()));
    let changed = s
        .patch(
            &path,
            json!({"ai_model": {"name": "", "ai_provider_id": id(&other)}}),
        )
        .expect(200);
    assert_eq!(changed.data()["name"], "m2");
    assert_eq!(changed.data()["ai_provider_id"], json!(id(&p)));
    s.patch(&path, json!({"ai_model": {"identifier": "model-a"}}))
        .expect_error(422, "validation_failed", Some("identifier"));
    let filtered = s
        .get(&format!("/ai_models?ai_provider_id={}&count=true", id(&p)))
        .body;
    assert_eq!(filtered["meta"]["total_count"], 2);
    assert_eq!(
        s.get("/ai_models?count=true").body["meta"]["total_count"],
        3
    );
    s.get("/ai_models?ai_provider_id=nope")
        .expect_error(400, "invalid_parameter", None);
    drop(server);
}

#[test]
fn one_default_at_most() {
    let (s, _server, p) = setup();
    let a = model(&s, &p, "a", true);
    assert_eq!(a["is_default"], true);
    s.advance(5);
    let b = model(&s, &p, "b", true);
    assert_eq!(b["is_default"], true);
    let a_now = s.get(&format!("/ai_models/{}", id(&a))).body["data"].clone();
    assert_eq!(a_now["is_default"], false);
    assert_eq!(a_now["updated_at"], "2026-03-10T09:00:05.000Z");
    s.advance(5);
    s.patch(
        &format!("/ai_models/{}", id(&a)),
        json!({"ai_model": {"is_default": true}}),
    )
    .expect(200);
    let b_now = s.get(&format!("/ai_models/{}", id(&b))).body["data"].clone();
    assert_eq!(
        (b_now["is_default"].clone(), b_now["updated_at"].clone()),
        (json!(false), json!("2026-03-10T09:00:10.000Z"))
    );
    // false on the default leaves none.
    s.patch(
        &format!("/ai_models/{}", id(&a)),
        json!({"ai_model": {"is_default": false}}),
    )
    .expect(200);
    let defaults = s.get("/ai_models").body["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["is_default"] == true)
        .count();
    assert_eq!(defaults, 0);
    // Deleting the default leaves none.
    s.patch(
        &format!("/ai_models/{}", id(&b)),
        json!({"ai_model": {"is_default": true}}),
    )
    .expect(200);
    s.delete(&format!("/ai_models/{}", id(&b))).expect(204);
    let c = s
        .post(
            &format!("/ai_providers/{}/model_additions", id(&p)),
            json!({"identifiers": ["c"], "default_if_none": true}),
        )
        .expect(201);
    assert_eq!(c.data()["default_model_id"], c.data()["added"][0]["id"]);
    let deletions = s.get("/deletions").body["data"].clone();
    assert!(
        deletions
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["type"] == "ai_model" && d["id"] == json!(id(&b)))
    );
}

#[test]
fn model_additions() {
    let (s, _server, p) = setup();
    let path = format!("/ai_providers/{}/model_additions", id(&p));
    model(&s, &p, "old", false);
    let r = s
        .post(
            &path,
            json!({"identifiers": ["old", "new-1", "new-2", "new-1"], "default_if_none": true}),
        )
        .expect(201);
    let added: Vec<&str> = r.data()["added"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(added, ["new-1", "new-2"]);
    assert_eq!(r.data()["default_model_id"], r.data()["added"][0]["id"]);
    assert_eq!(r.data()["added"][0]["is_default"], true);
    // Already added: skipped without error.
    let again = s.post(&path, json!({"identifiers": ["new-1"]})).expect(201);
    assert_eq!(again.data()["added"], json!([]));
    assert_eq!(
        again.data()["default_model_id"],
        r.data()["default_model_id"]
    );
    // The 400s.
    let many: Vec<String> = (0..101).map(|i| format!("m{i}")).collect();
    for bad in [
        json!({"identifiers": many}),
        json!({"identifiers": ["x".repeat(256)]}),
        json!({"identifiers": ["a\u{0}b"]}),
        json!({"identifiers": "a"}),
        json!({"identifiers": [1]}),
    ] {
        s.post(&path, bad)
            .expect_error(400, "invalid_parameter", None);
    }
    // A typed identifier: invalid or already added adds nothing.
    let count = || s.get("/ai_models?count=true").body["meta"]["total_count"].clone();
    let before = count();
    s.post(
        &path,
        json!({"identifiers": ["fresh"], "identifier": "has space"}),
    )
    .expect_error(422, "validation_failed", Some("identifier"));
    s.post(
        &path,
        json!({"identifiers": ["fresh"], "identifier": "old"}),
    )
    .expect_error(422, "already_added", None);
    assert_eq!(count(), before);
    let typed = s.post(&path, json!({"identifier": "typed-1"})).expect(201);
    assert_eq!(typed.data()["added"][0]["name"], "typed-1");
    s.post(&path, json!({}))
        .expect_error(422, "validation_failed", Some("base"));
    s.post(
        "/ai_providers/01ARZ3NDEKTSV4RRFFQ69G5FAV/model_additions",
        json!({"identifiers": ["a"]}),
    )
    .expect(404);
    // Idempotency-Key: the same answer again.
    let first = send(
        s.req("POST", &path)
            .header("Idempotency-Key", "add-1")
            .json(&json!({"identifiers": ["idem"]})),
    );
    let second = send(
        s.req("POST", &path)
            .header("Idempotency-Key", "add-1")
            .json(&json!({"identifiers": ["idem"]})),
    );
    assert_eq!(first.status, 201);
    assert_eq!(second.body, first.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
}
