//! What the server adds to AI (document 1, "Limits"): the provider calls'
//! 20 a minute shared among test, check and available models, the trial's
//! 20 a minute, the backfill's 5 a minute, each on top of the general
//! limit; and the background worker, which titles a note soon after it is
//! saved without anyone calling it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{ModelServer, Recorded, Setup, TestServer, send};

/// A server with rate limits on, and a `mock` provider.
fn limited() -> (TestServer, Value) {
    let s = TestServer::with(Setup {
        rate_limit: 1000,
        ..Setup::default()
    });
    let p = s
        .post(
            "/ai_providers",
            json!({"ai_provider": {"name": "M", "kind": "mock"}}),
        )
        .expect(201)
        .data()
        .clone();
    (s, p)
}

#[test]
fn provider_calls_share_twenty_a_minute() {
    let (s, p) = limited();
    let id = p["id"].as_str().unwrap().to_owned();
    for i in 0..20 {
        let r = match i % 3 {
            0 => s.post("/ai_providers/test", json!({"kind": "mock"})),
            1 => s.post(&format!("/ai_providers/{id}/check"), json!(null)),
            _ => s.get(&format!("/ai_providers/{id}/available_models")),
        };
        r.expect(200);
    }
    for refused in [
        s.post("/ai_providers/test", json!({"kind": "mock"})),
        s.post(&format!("/ai_providers/{id}/check"), json!(null)),
        s.get(&format!("/ai_providers/{id}/available_models")),
    ] {
        let r = refused.expect_error(429, "rate_limited", None);
        assert!(r.header("retry-after").is_some());
    }
    // Other routes are not held back.
    s.get(&format!("/ai_providers/{id}")).expect(200);
    s.advance(60);
    s.post("/ai_providers/test", json!({"kind": "mock"}))
        .expect(200);
}

#[test]
fn trials_have_twenty_and_backfills_five_a_minute() {
    let (s, p) = limited();
    let m = s
        .post(
            "/ai_models",
            json!({"ai_model": {"ai_provider_id": p["id"], "identifier": "mock-small", "is_default": true}}),
        )
        .expect(201);
    let trial = format!("/ai_models/{}/trial", m.data()["id"].as_str().unwrap());
    for _ in 0..20 {
        s.post(&trial, json!({"prompt": "hello"})).expect(200);
    }
    s.post(&trial, json!({"prompt": "hello"}))
        .expect_error(429, "rate_limited", None);
    // The provider calls' limit is another one.
    s.post("/ai_providers/test", json!({"kind": "mock"}))
        .expect(200);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"enabled": true}}),
    )
    .expect(200);
    for _ in 0..5 {
        s.post("/ai_tasks/note_titles/backfill", json!(null))
            .expect(202);
    }
    s.post("/ai_tasks/note_titles/backfill", json!(null))
        .expect_error(429, "rate_limited", None);
}

#[test]
fn the_routes_limits_hold_with_the_general_limit_off() {
    // ORGANISER_RATE_LIMIT=0 turns off the general limit only: the
    // provider calls' 20 a minute are a rule of the API.
    let s = TestServer::configured(organiser_server::Config {
        rate_limit: 0,
        route_limits: true,
        ..TestServer::config()
    });
    for _ in 0..20 {
        s.post("/ai_providers/test", json!({"kind": "mock"}))
            .expect(200);
    }
    s.post("/ai_providers/test", json!({"kind": "mock"}))
        .expect_error(429, "rate_limited", None);
    // And so for the owner at the machine, whom the general limit spares.
    let r = send(
        s.local("POST", "/ai_providers/test")
            .json(&json!({"kind": "mock"})),
    );
    r.expect_error(429, "rate_limited", None);
}

#[test]
fn the_local_administrator_token_is_not_held_to_the_general_limit() {
    let s = TestServer::with(Setup {
        rate_limit: 5,
        ..Setup::default()
    });
    for _ in 0..5 {
        s.get("/me").expect(200);
    }
    s.get("/me").expect_error(429, "rate_limited", None);
    // The CLI on the same machine, with server.json's token, goes on.
    for _ in 0..50 {
        send(s.local("GET", "/me")).expect(200);
    }
}

#[test]
fn the_worker_titles_a_saved_note_in_the_background() {
    let models = ModelServer::start();
    let s = TestServer::configured(organiser_server::Config {
        jobs: organiser_server::Jobs::Only(&["ai_tasks"]),
        ..TestServer::config()
    });
    let p = s
        .post(
            "/ai_providers",
            json!({"ai_provider": {"name": "P", "kind": "api_compatible", "base_url": models.url}}),
        )
        .expect(201);
    s.post(
        "/ai_models",
        json!({"ai_model": {"ai_provider_id": p.data()["id"], "identifier": "model-a", "is_default": true}}),
    )
    .expect(201);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"enabled": true}}),
    )
    .expect(200);
    let n = s
        .post(
            "/notes",
            json!({"note": {"body_html": "<p>Book the dentist for next week</p>"}}),
        )
        .expect(201);
    let path = format!("/notes/{}", n.data()["id"].as_str().unwrap());
    // The worker asks the model about one note at a time and writes its
    // title before it asks about the next: a second note, saved once the
    // model was asked about the first, is asked about only after the
    // first's title is written.
    let asked_about = |text: &'static str| {
        move |r: &Recorded| {
            r.body
                .as_ref()
                .is_some_and(|b| b.to_string().contains(text))
        }
    };
    let wait = Duration::from_secs(10);
    models
        .wait_for_request(wait, asked_about("Book the dentist"))
        .expect("the worker never asked the model about the note");
    s.post(
        "/notes",
        json!({"note": {"body_html": "<p>Water the office plants</p>"}}),
    )
    .expect(201);
    models
        .wait_for_request(wait, asked_about("Water the office plants"))
        .expect("the worker never went on to the second note");
    let note = s.get(&path).expect(200);
    assert_eq!(
        note.data()["title_generated"],
        true,
        "no title: {}",
        note.body
    );
    assert_eq!(note.data()["title"], "Book the dentist for next");
}
