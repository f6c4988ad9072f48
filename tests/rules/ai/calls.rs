//! Connection calls and trials (document 2, "Connection calls", "AI
//! models": trial; document 1, "Limits"; DESIGN.md `provider_error`):
//! what each protocol sends and reads, what is recorded, and each way a
//! call fails. Rate limits are the server's (tests/http/ai.rs).

use std::time::Duration;

use serde_json::{Value, json};

use super::{model, provider};
use crate::common::fixtures::id;
use crate::common::{Core, ModelServer, Setup};

const KEY: &str = "sk-secret-key-42";

fn test_call(s: &Core, body: Value) -> crate::common::Reply {
    s.post("/ai_providers/test", body)
}

#[test]
fn test_lists_the_models_with_each_protocol_and_records_nothing() {
    let s = Core::start();
    let server = ModelServer::start();
    server.set_models(&["m1", "m2", "m3"]);
    let r = test_call(
        &s,
        json!({"kind": "api_compatible", "base_url": server.url, "api_key": KEY}),
    )
    .expect(200);
    assert_eq!(r.body, json!({"data": {"model_count": 3}}));
    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("GET", "/v1/models")
    );
    assert_eq!(sent[0].query, None);
    assert_eq!(
        sent[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    server.clear_requests();
    test_call(
        &s,
        json!({"kind": "vendor_b", "base_url": server.url, "api_key": KEY}),
    )
    .expect(200);
    let sent = server.requests();
    assert_eq!(sent[0].path, "/v1/models");
    assert_eq!(sent[0].query.as_deref(), Some("limit=1000"));
    assert_eq!(sent[0].header("x-api-key"), Some(KEY));
    assert_eq!(sent[0].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(sent[0].header("authorization"), None);
    // A local server needs no key: none is sent.
    server.clear_requests();
    test_call(
        &s,
        json!({"kind": "api_compatible", "base_url": server.url}),
    )
    .expect(200);
    assert_eq!(server.requests()[0].header("authorization"), None);
    // mock answers in process.
    server.clear_requests();
    let m = test_call(&s, json!({"kind": "mock", "api_key": KEY})).expect(200);
    assert_eq!(m.data()["model_count"], 2);
    assert!(server.requests().is_empty());
    // Nothing was saved, and Idempotency-Key is ignored.
    assert_eq!(
        s.get("/ai_providers?count=true").body["meta"]["total_count"],
        0
    );
    let again = |_: ()| {
        crate::common::send(
            s.req("POST", "/ai_providers/test")
                .header("Idempotency-Key", "k1")
                .json(&json!({"kind": "api_compatible", "base_url": server.url})),
        )
    };
    server.set_models(&["only"]);
    assert_eq!(again(()).expect(200).data()["model_count"], 1);
    server.set_models(&["a", "b"]);
    let second = again(());
    assert_eq!(second.data()["model_count"], 2);
    assert_eq!(second.header("idempotent-replayed"), None);
}

#[test]
fn test_checks_its_settings() {
    let s = Core::start();
    let server = ModelServer::start();
    for (body, detail) in [
        (json!({"base_url": server.url}), "kind"),
        (json!({"kind": "nope", "base_url": server.url}), "kind"),
        (json!({"kind": "api_compatible"}), "base_url"),
        (
            json!({"kind": "api_compatible", "base_url": "https://x.example"}),
            "base_url",
        ),
        (
            json!({"kind": "api_compatible", "base_url": server.url, "api_key": "a b"}),
            "api_key",
        ),
        (
            json!({"kind": "vendor_b", "base_url": server.url}),
            "api_key",
        ),
        (
            json!({"kind": "api_compatible", "base_url": server.url, "remove_api_key": "yes"}),
            "remove_api_key",
        ),
    ] {
        test_call(&s, body).expect_error(422, "validation_failed", Some(detail));
    }
    assert!(
        server.requests().is_empty(),
        "no request is made for bad settings"
    );
    test_call(
        &s,
        json!({"ai_provider_id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "kind": "api_compatible", "base_url": server.url}),
    )
    .expect(404);
    test_call(&s, json!([1])).expect_error(400, "invalid_json", None);
}

#[test]
fn the_saved_key_is_used_only_for_the_saved_origin() {
    let s = Core::start();
    let server = ModelServer::start();
    server.require_key(KEY);
    let p = provider(&s, "Saved", "api_compatible", &server, Some(KEY));
    let pid = id(&p);
    // Blank or absent key, same origin (another path): the saved key.
    for key in [json!(null), json!(""), json!("  ")] {
        test_call(
            &s,
            json!({"ai_provider_id": pid, "kind": "api_compatible", "base_url": format!("{}/v1", server.origin()), "api_key": key}),
        )
        .expect(200);
    }
    test_call(&s, json!({"ai_provider_id": pid, "kind": "api_compatible"})).expect(200);
    // Another origin: key_required, and no request is made.
    server.clear_requests();
    let other = ModelServer::start();
    test_call(
        &s,
        json!({"ai_provider_id": pid, "kind": "api_compatible", "base_url": other.url}),
    )
    .expect_error(422, "key_required", None);
    assert!(server.requests().is_empty() && other.requests().is_empty());
    // remove_api_key tests without one: the server refuses.
    let refused = test_call(
        &s,
        json!({"ai_provider_id": pid, "kind": "api_compatible", "base_url": server.url, "remove_api_key": true}),
    )
    .expect_error(422, "provider_error", None);
    assert_eq!(server.requests()[0].header("authorization"), None);
    let message = refused.body["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Saved: The server refused the key"),
        "{message}"
    );
    // The test recorded nothing on the provider.
    assert_eq!(s.get(&format!("/ai_providers/{pid}")).body["data"], p);
}

#[test]
fn check_records_the_outcome_and_available_models_does_not() {
    let s = Core::start();
    let server = ModelServer::start();
    let p = provider(&s, "P", "api_compatible", &server, Some(KEY));
    let path = format!("/ai_providers/{}", id(&p));
    s.advance(10);
    let checked = s.post(&format!("{path}/check"), json!(null)).expect(200);
    assert_eq!(
        checked.body,
        json!({"data": {"models": ["model-a", "model-b"]}})
    );
    let after = s.get(&path).body["data"].clone();
    assert_eq!(after["last_succeeded_at"], "2026-03-10T09:00:10.000Z");
    assert_eq!(after["updated_at"], "2026-03-10T09:00:10.000Z");
    assert_eq!(after["last_error"], json!(null));
    // A failure: 422 provider_error, recorded with a reason to act on.
    s.advance(10);
    server.fail_with(
        401,
        &format!(r#"{{"error":{{"message":"Incorrect API key provided: {KEY}"}}}}"#),
    );
    let failed =
        s.post(&format!("{path}/check"), json!(null))
            .expect_error(422, "provider_error", None);
    assert!(!failed.body.to_string().contains(KEY), "{}", failed.body);
    let after = s.get(&path).body["data"].clone();
    assert_eq!(after["last_failed_at"], "2026-03-10T09:00:20.000Z");
    assert_eq!(after["last_succeeded_at"], "2026-03-10T09:00:10.000Z");
    assert_eq!(after["last_error_reason"], "The server refused the key");
    assert!(
        after["last_error"]
            .as_str()
            .unwrap()
            .starts_with("HTTP 401")
    );
    assert!(!after.to_string().contains(KEY));
    // available_models records nothing, success or failure.
    s.advance(10);
    s.get(&format!("{path}/available_models"))
        .expect_error(422, "provider_error", None);
    server.heal();
    let listed = s.get(&format!("{path}/available_models")).expect(200);
    assert_eq!(listed.data()["models"], json!(["model-a", "model-b"]));
    assert_eq!(s.get(&path).body["data"], after);
    // A success clears the error.
    s.post(&format!("{path}/check"), json!(null)).expect(200);
    let healed = s.get(&path).body["data"].clone();
    assert_eq!(
        (
            healed["last_error"].clone(),
            healed["last_error_reason"].clone()
        ),
        (json!(null), json!(null))
    );
    assert_eq!(healed["last_failed_at"], "2026-03-10T09:00:20.000Z");
    s.post(
        "/ai_providers/01ARZ3NDEKTSV4RRFFQ69G5FAV/check",
        json!(null),
    )
    .expect(404);
    s.get("/ai_providers/01ARZ3NDEKTSV4RRFFQ69G5FAV/available_models")
        .expect(404);
}

/// The reason of a failed test against `server` in its current mode.
fn reason(s: &Core, server: &ModelServer) -> String {
    let r = test_call(s, json!({"kind": "api_compatible", "base_url": server.url})).expect_error(
        422,
        "provider_error",
        None,
    );
    r.body["error"]["message"].as_str().unwrap().to_owned()
}

#[test]
fn each_failure_has_its_reason() {
    let mut setup = Setup::default();
    setup.options.ai_call_wait = Duration::from_millis(700);
    let s = Core::with(setup);
    let server = ModelServer::start();
    // No redirect is followed.
    let target = ModelServer::start();
    server.redirect_to(&format!("{}/models", target.url));
    assert!(reason(&s, &server).contains("redirect"));
    assert!(target.requests().is_empty());
    server.heal();
    // At most 5 MB is read.
    server.huge_body(6 * 1024 * 1024);
    assert!(reason(&s, &server).contains("larger than 5 MB"));
    server.heal();
    // A server slower than the wait.
    server.delay(Duration::from_secs(3));
    assert!(reason(&s, &server).contains("took too long"));
    server.heal();
    server.fail_with(500, r#"{"error":{"message":"boom"}}"#);
    assert!(reason(&s, &server).contains("The server failed to answer"));
    server.fail_with(404, "{}");
    assert!(reason(&s, &server).contains("check the address"));
    server.fail_with(200, "not json");
    assert!(reason(&s, &server).contains("not understood"));
    server.heal();
    // Nobody listening.
    let gone = format!("{}/v1", server.origin()).replace(&server.origin(), "http://127.0.0.1:9");
    let r = test_call(&s, json!({"kind": "api_compatible", "base_url": gone})).expect_error(
        422,
        "provider_error",
        None,
    );
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("No server answered at this address")
    );
}

#[test]
fn a_trial_sends_the_prompt_and_records_the_outcome() {
    let s = Core::start();
    let server = ModelServer::start();
    server.set_reply("Hello back");
    let p = provider(&s, "P", "api_compatible", &server, Some(KEY));
    let m = model(&s, &p, "model-a", false);
    s.advance(3);
    let r = s
        .post(
            &format!("/ai_models/{}/trial", id(&m)),
            json!({"prompt": "Say hello"}),
        )
        .expect(200);
    assert_eq!(r.data()["reply"], "Hello back");
    assert!(r.data()["duration_ms"].as_u64().is_some());
    let sent = server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    let body = sent[0].body.clone().unwrap();
    assert_eq!(body["model"], "model-a");
    assert_eq!(
        body["messages"],
        json!([{"role": "user", "content": "Say hello"}])
    );
    assert!(body["max_completion_tokens"].as_u64().is_some());
    assert_eq!(body.get("reasoning_effort"), None);
    let after = s.get(&format!("/ai_providers/{}", id(&p))).body["data"].clone();
    assert_eq!(after["last_succeeded_at"], "2026-03-10T09:00:03.000Z");
    // vendor_b: the messages interface.
    let vb = provider(&s, "V", "vendor_b", &server, Some(KEY));
    let vm = model(&s, &vb, "model-b", false);
    server.clear_requests();
    s.post(
        &format!("/ai_models/{}/trial", id(&vm)),
        json!({"prompt": "Hi"}),
    )
    .expect(200);
    let sent = server.requests();
    assert_eq!(sent[0].path, "/v1/messages");
    assert_eq!(sent[0].header("x-api-key"), Some(KEY));
    let body = sent[0].body.clone().unwrap();
    assert_eq!(body["messages"], json!([{"role": "user", "content": "Hi"}]));
    assert!(body["max_tokens"].as_u64().is_some());
    // The prompt is checked; failures are provider_error and recorded.
    for bad in [json!({}), json!({"prompt": " "}), json!({"prompt": 5})] {
        s.post(&format!("/ai_models/{}/trial", id(&m)), bad)
            .expect_error(422, "validation_failed", Some("prompt"));
    }
    server.fail_with(429, "{}");
    s.advance(3);
    let failed = s
        .post(
            &format!("/ai_models/{}/trial", id(&m)),
            json!({"prompt": "x"}),
        )
        .expect_error(422, "provider_error", None);
    assert!(
        failed.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limiting requests")
    );
    let after = s.get(&format!("/ai_providers/{}", id(&p))).body["data"].clone();
    assert_eq!(after["last_failed_at"], "2026-03-10T09:00:06.000Z");
    s.post(
        "/ai_models/01ARZ3NDEKTSV4RRFFQ69G5FAV/trial",
        json!({"prompt": "x"}),
    )
    .expect(404);
    // mock replies in process.
    let mp = provider(&s, "M", "mock", &server, None);
    let mm = model(&s, &mp, "mock-small", false);
    let r = s
        .post(
            &format!("/ai_models/{}/trial", id(&mm)),
            json!({"prompt": "one two three four five six"}),
        )
        .expect(200);
    assert_eq!(r.data()["reply"], "one two three four five");
}
