//! A provider's key never leaves: not in any answer, error message or log
//! line of a real `organiser serve` (issue 14), even when the model
//! server echoes it back (as sent, base64, base64url and URL-encoded:
//! issue 22) and the background worker fails with it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::model_server::ModelServer;
use crate::util::Dir;

const KEY: &str = "sk-live/DO+NOT+LEAK=0123456789?";

/// The forms a server may echo the key in.
fn echoed() -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    vec![
        KEY.to_owned(),
        STANDARD.encode(KEY),
        URL_SAFE_NO_PAD.encode(KEY),
        "sk-live%2FDO%2BNOT%2BLEAK%3D0123456789%3F".to_owned(),
    ]
}

/// A request to the server: the status and the body as text.
fn send(url: &str, token: &str, method: &str, path: &str, body: Option<Value>) -> (u16, String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client");
    let url = format!("{url}/api/v1{path}");
    let mut request = match method {
        "POST" => client.post(&url),
        "PATCH" => client.patch(&url),
        _ => client.get(&url),
    }
    .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().expect("an answer");
    let status = response.status().as_u16();
    (status, response.text().unwrap_or_default())
}

#[test]
fn the_key_never_appears_in_answers_errors_or_logs() {
    let models = ModelServer::start();
    // The server echoes the key it was sent in its refusal.
    let forms = echoed().join(", ");
    models.fail_with(
        401,
        &format!(r#"{{"error":{{"message":"Incorrect API key provided: {forms}"}}}}"#),
    );
    let dir = Dir::new();
    let server = dir.serve_with(&[("ORGANISER_LOG", "json")]);
    let token = server.token.clone();
    let mut answers = Vec::new();
    let mut call = |method: &str, path: &str, body: Option<Value>| {
        let (status, text) = send(&server.url, &token, method, path, body);
        answers.push(text.clone());
        (
            status,
            serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
        )
    };
    let (status, p) = call(
        "POST",
        "/ai_providers",
        Some(
            json!({"ai_provider": {"name": "Hosted", "kind": "api_compatible", "base_url": models.url, "api_key": KEY}}),
        ),
    );
    assert_eq!(status, 201, "{p}");
    let pid = p["data"]["id"].as_str().unwrap().to_owned();
    let (status, _) = call(
        "POST",
        "/ai_providers/test",
        Some(json!({"kind": "api_compatible", "base_url": models.url, "api_key": KEY})),
    );
    assert_eq!(status, 422);
    let (status, _) = call(
        "POST",
        "/ai_providers/test",
        Some(json!({"kind": "vendor_b", "base_url": models.url, "api_key": KEY})),
    );
    assert_eq!(status, 422);
    assert_eq!(
        call("POST", &format!("/ai_providers/{pid}/check"), None).0,
        422
    );
    assert_eq!(
        call(
            "GET",
            &format!("/ai_providers/{pid}/available_models"),
            None
        )
        .0,
        422
    );
    let (status, m) = call(
        "POST",
        "/ai_models",
        Some(
            json!({"ai_model": {"ai_provider_id": pid, "identifier": "model-a", "is_default": true}}),
        ),
    );
    assert_eq!(status, 201, "{m}");
    let mid = m["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        call(
            "POST",
            &format!("/ai_models/{mid}/trial"),
            Some(json!({"prompt": "hi"}))
        )
        .0,
        422
    );
    // The worker fails in the background with the key, and logs it.
    assert_eq!(
        call(
            "PATCH",
            "/ai_tasks/note_titles",
            Some(json!({"ai_task": {"enabled": true}}))
        )
        .0,
        200
    );
    assert_eq!(
        call(
            "POST",
            "/notes",
            Some(json!({"note": {"body_html": "<p>Title me please now</p>"}}))
        )
        .0,
        201
    );
    assert!(
        models.wait_for_chat_calls(2, Duration::from_secs(20)),
        "the worker made no call"
    );
    server.wait_for_stderr("a note title could not be made");
    call("GET", "/ai_providers", None);
    call("GET", &format!("/ai_providers/{pid}"), None);
    // The server logs a request before it answers it: once the last
    // request's line is read from its stderr, every line before it is.
    let log = server.wait_for_stderr(&format!("\"/api/v1/ai_providers/{pid}\""));
    assert!(server.stop().success());
    for text in answers.iter().chain([&log]) {
        for form in echoed() {
            assert!(!text.contains(&form), "the key leaked as {form}: {text}");
        }
    }
    // The key did reach the model server (so the test could have failed).
    assert!(
        models
            .requests()
            .iter()
            .any(|r| r.header("authorization") == Some(format!("Bearer {KEY}").as_str()))
    );
}
