//! Provider fields and rules (document 2, "AIProvider", "Provider field
//! rules").

use serde_json::json;

use super::{model, provider};
use crate::common::fixtures::id;
use crate::common::{Call, Core, Expect, ModelServer, Setup, check};

const KEY: &str = "sk-test-0123456789abcdef";

#[test]
fn a_provider_has_the_spec_fields_and_never_shows_its_key() {
    let s = Core::start();
    let server = ModelServer::start();
    let p = provider(&s, "  Local   llama ", "api_compatible", &server, Some(KEY));
    let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "api_key_set",
            "base_url",
            "created_at",
            "id",
            "kind",
            "last_error",
            "last_error_reason",
            "last_failed_at",
            "last_succeeded_at",
            "name",
            "updated_at"
        ]
    );
    assert_eq!(p["name"], "Local llama");
    assert_eq!(p["kind"], "api_compatible");
    assert_eq!(p["base_url"], server.url);
    assert_eq!(p["api_key_set"], true);
    assert_eq!(p["last_error"], json!(null));
    let path = format!("/ai_providers/{}", id(&p));
    for body in [
        s.get(&path).body,
        s.get("/ai_providers").body,
        s.get("/ai_providers?order=name&count=true").body,
    ] {
        assert!(!body.to_string().contains(KEY), "{body}");
    }
    assert_eq!(
        s.get("/ai_providers?count=true").body["meta"]["total_count"],
        1
    );
}

#[test]
fn the_fields_are_checked() {
    let s = Core::start();
    let server = ModelServer::start();
    provider(&s, "Taken", "api_compatible", &server, None);
    let create = |p: serde_json::Value| Call::post("/ai_providers", json!({ "ai_provider": p }));
    let url = server.url.as_str();
    for (body, expected) in [
        (
            json!({"name": "taken", "kind": "api_compatible", "base_url": url}),
            Expect::invalid("name"),
        ),
        (
            json!({"name": "  ", "kind": "api_compatible", "base_url": url}),
            Expect::invalid("name"),
        ),
        (
            json!({"kind": "api_compatible", "base_url": url}),
            Expect::invalid("name"),
        ),
        (
            json!({"name": "A", "base_url": url}),
            Expect::invalid("kind"),
        ),
        (
            json!({"name": "A", "kind": "openai", "base_url": url}),
            Expect::invalid("kind"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": ""}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": "ftp://x.example/v1"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": "https://x.example"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": "https://u:p@x.example/v1"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": "https://x.example/v1?a=1"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": "https://x.example/v1#f"}),
            Expect::invalid("base_url"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": url, "api_key": "sk 1"}),
            Expect::invalid("api_key"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": url, "api_key": "sk\n1"}),
            Expect::invalid("api_key"),
        ),
        (
            json!({"name": "A", "kind": "vendor_b", "base_url": url}),
            Expect::invalid("api_key"),
        ),
        (
            json!({"name": "A", "kind": "vendor_b", "base_url": url, "api_key": " "}),
            Expect::invalid("api_key"),
        ),
        (
            json!({"name": 5, "kind": "api_compatible", "base_url": url}),
            Expect::invalid("name"),
        ),
        (
            json!({"name": "A", "kind": "api_compatible", "base_url": url}),
            Expect::status(201),
        ),
        (
            json!({"name": "B", "kind": "vendor_b", "base_url": url, "api_key": " k \n"}),
            Expect::status(201),
        ),
        (json!({"name": "C", "kind": "mock"}), Expect::status(201)),
    ] {
        check(&s, create(body), expected);
    }
    let c = s.get("/ai_providers?order=name").body["data"][2].clone();
    assert_eq!(
        (c["name"].clone(), c["base_url"].clone()),
        (json!("C"), json!(null))
    );
    let b = s.get("/ai_providers?order=name").body["data"][1].clone();
    assert_eq!(b["api_key_set"], true);
    // A trailing slash is dropped.
    let d = s
        .post(
            "/ai_providers",
            json!({"ai_provider": {"name": "D", "kind": "api_compatible", "base_url": format!("{url}/")}}),
        )
        .expect(201);
    assert_eq!(d.data()["base_url"], server.url);
}

#[test]
fn mock_is_refused_outside_development() {
    let s = Core::with(Setup::default().release("1.2.3", "2026-03-01"));
    s.post(
        "/ai_providers",
        json!({"ai_provider": {"name": "M", "kind": "mock"}}),
    )
    .expect_error(422, "validation_failed", Some("kind"));
    assert_eq!(
        s.get("/ai_providers?count=true").body["meta"]["total_count"],
        0
    );
}

#[test]
fn the_key_is_kept_cleared_and_sent_again_when_the_address_moves() {
    let s = Core::start();
    let server = ModelServer::start();
    let p = provider(&s, "P", "api_compatible", &server, Some(KEY));
    let path = format!("/ai_providers/{}", id(&p));
    // Omitted keeps it.
    let kept = s
        .patch(&path, json!({"ai_provider": {"name": "Q"}}))
        .expect(200);
    assert_eq!(kept.data()["api_key_set"], true);
    // Another path on the same origin needs no key.
    let same = s
        .patch(
            &path,
            json!({"ai_provider": {"base_url": format!("{}/v2", server.origin())}}),
        )
        .expect(200);
    assert_eq!(same.data()["api_key_set"], true);
    // Another origin without the key: 422 on api_key, and nothing changes.
    let before = s.get(&path).body;
    s.patch(
        &path,
        json!({"ai_provider": {"base_url": "https://elsewhere.example/v1", "name": "R"}}),
    )
    .expect_error(422, "validation_failed", Some("api_key"));
    assert_eq!(s.get(&path).body, before);
    // With the key it moves.
    let moved = s
        .patch(
            &path,
            json!({"ai_provider": {"base_url": "https://elsewhere.example/v1", "api_key": "sk-new"}}),
        )
        .expect(200);
    assert_eq!(moved.data()["base_url"], "https://elsewhere.example/v1");
    // Null clears it, and so does blank.
    let cleared = s
        .patch(&path, json!({"ai_provider": {"api_key": null}}))
        .expect(200);
    assert_eq!(cleared.data()["api_key_set"], false);
    s.patch(&path, json!({"ai_provider": {"api_key": "k2"}}))
        .expect(200);
    let blank = s
        .patch(&path, json!({"ai_provider": {"api_key": ""}}))
        .expect(200);
    assert_eq!(blank.data()["api_key_set"], false);
    // A change that changes nothing keeps updated_at.
    let same = s
        .patch(&path, json!({"ai_provider": {"name": "Q"}}))
        .expect(200);
    assert_eq!(same.data()["updated_at"], blank.data()["updated_at"]);
    // vendor_b needs a key.
    s.patch(&path, json!({"ai_provider": {"kind": "vendor_b"}}))
        .expect_error(422, "validation_failed", Some("api_key"));
}

#[test]
fn delete_takes_the_models_and_leaves_no_default() {
    let s = Core::start();
    let server = ModelServer::start();
    let p = provider(&s, "P", "api_compatible", &server, None);
    let other = provider(&s, "O", "mock", &server, None);
    let a = model(&s, &p, "model-a", true);
    let b = model(&s, &p, "model-b", false);
    let kept = model(&s, &other, "mock-small", false);
    s.delete(&format!("/ai_providers/{}", id(&p))).expect(204);
    s.get(&format!("/ai_providers/{}", id(&p))).expect(404);
    s.get(&format!("/ai_models/{}", id(&a))).expect(404);
    let models = s.get("/ai_models").body["data"].clone();
    assert_eq!(models.as_array().unwrap().len(), 1);
    assert_eq!(models[0]["id"], kept["id"]);
    assert_eq!(models[0]["is_default"], false);
    let deletions = s.get("/deletions").body["data"].clone();
    let has = |kind: &str, rid: &str| {
        deletions
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["type"] == kind && d["id"] == rid)
    };
    assert!(has("ai_provider", &id(&p)));
    assert!(has("ai_model", &id(&a)));
    assert!(has("ai_model", &id(&b)));
    s.delete(&format!("/ai_providers/{}", id(&p))).expect(404);
}

#[test]
fn the_listing_orders_by_id_name_and_updated_at() {
    let s = Core::start();
    let server = ModelServer::start();
    let b = provider(&s, "bravo", "api_compatible", &server, None);
    let a = provider(&s, "Álpha", "mock", &server, None);
    let names = |q: &str| -> Vec<String> {
        s.get(&format!("/ai_providers{q}")).body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(""), ["bravo", "Álpha"]);
    assert_eq!(names("?order=name"), ["Álpha", "bravo"]);
    assert_eq!(names("?order=name&direction=desc"), ["bravo", "Álpha"]);
    s.advance(5);
    s.patch(
        &format!("/ai_providers/{}", id(&b)),
        json!({"ai_provider": {"name": "Bravo"}}),
    )
    .expect(200);
    assert_eq!(names("?order=updated_at"), ["Álpha", "Bravo"]);
    let since = a["updated_at"].as_str().unwrap().to_owned();
    assert_eq!(
        names(&format!("?updated_since={since}")),
        ["Álpha", "Bravo"]
    );
    s.get("/ai_providers?order=kind")
        .expect_error(400, "invalid_parameter", None);
}
