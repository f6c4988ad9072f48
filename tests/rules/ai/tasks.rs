//! AI tasks and the note-titles worker (document 2, "AITask", "AI
//! tasks"; document 3, "Note": `title_generated`).

use std::sync::Arc;

use organiser::{Options, Organiser, clock::ManualClock};
use serde_json::{Value, json};

use super::{model, note, provider};
use crate::common::fixtures::id;
use crate::common::{Core, ModelServer, send};

const KEY: &str = "sk-title-key-7";

#[test]
fn the_tasks_have_their_fields_and_patch_rules() {
    let s = Core::start();
    let list = s.get("/ai_tasks").expect(200);
    let tasks = list.data().as_array().unwrap().clone();
    assert_eq!(tasks.len(), 1);
    let t = &tasks[0];
    let mut keys: Vec<&str> = t.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "ai_model_id",
            "backfill_pending",
            "default_max_output_tokens",
            "description",
            "enabled",
            "key",
            "max_output_tokens",
            "name",
            "reasoning",
            "updated_at"
        ]
    );
    assert_eq!(t["key"], "note_titles");
    assert_eq!(t["enabled"], false);
    assert_eq!(t["default_max_output_tokens"], 2048);
    assert_eq!(t["updated_at"], json!(null));
    assert_eq!(t["backfill_pending"], 0);
    assert_eq!(s.get("/ai_tasks/note_titles").body["data"], *t);
    s.get("/ai_tasks/nope").expect(404);
    s.patch("/ai_tasks/nope", json!({"ai_task": {"enabled": true}}))
        .expect(404);
    let patch = |body: Value| s.patch("/ai_tasks/note_titles", json!({ "ai_task": body }));
    for (body, field) in [
        (json!({"enabled": "yes"}), "enabled"),
        (json!({"enabled": null}), "enabled"),
        (
            json!({"ai_model_id": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}),
            "ai_model_id",
        ),
        (json!({"ai_model_id": "nope"}), "ai_model_id"),
        (json!({"reasoning": "extreme"}), "reasoning"),
        (json!({"reasoning": 1}), "reasoning"),
        (json!({"max_output_tokens": 15}), "max_output_tokens"),
        (json!({"max_output_tokens": 32769}), "max_output_tokens"),
        (json!({"max_output_tokens": 100.5}), "max_output_tokens"),
        (json!({"max_output_tokens": "100"}), "max_output_tokens"),
    ] {
        patch(body).expect_error(422, "validation_failed", Some(field));
    }
    assert_eq!(
        s.get("/ai_tasks/note_titles").body["data"]["updated_at"],
        json!(null)
    );
    s.advance(7);
    let r = patch(json!({"reasoning": "low", "max_output_tokens": 16})).expect(200);
    assert_eq!(r.data()["reasoning"], "low");
    assert_eq!(r.data()["max_output_tokens"], 16);
    assert_eq!(r.data()["enabled"], false);
    assert_eq!(r.data()["updated_at"], "2026-03-10T09:00:07.000Z");
    // Only the fields sent change; null means the default.
    let r = patch(json!({"max_output_tokens": null, "enabled": true})).expect(200);
    assert_eq!(
        (
            r.data()["reasoning"].clone(),
            r.data()["max_output_tokens"].clone()
        ),
        (json!("low"), json!(null))
    );
    assert_eq!(r.data()["enabled"], true);
    let r = patch(json!({"max_output_tokens": 32768.0})).expect(200);
    assert_eq!(r.data()["max_output_tokens"], 32768);
}

/// A core with a provider at `server` (`kind`), a default model, and the
/// task on.
fn titled(kind: &str, server: &ModelServer) -> (Core, Value) {
    let s = Core::start();
    let p = provider(&s, "P", kind, server, Some(KEY));
    model(&s, &p, "model-a", true);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"enabled": true}}),
    )
    .expect(200);
    (s, p)
}

#[test]
fn saved_notes_get_titles_from_the_worker() {
    let server = ModelServer::start();
    let (s, p) = titled("api_compatible", &server);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"reasoning": "medium", "max_output_tokens": 300}}),
    )
    .expect(200);
    let n = note(&s, "Buy milk eggs and bread for the weekend");
    assert_eq!(n["title"], json!(null));
    assert_eq!(
        s.get("/ai_tasks/note_titles/queue").body["data"]["queued"],
        1
    );
    s.advance(2);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    let path = format!("/notes/{}", id(&n));
    let titled = s.get(&path).body["data"].clone();
    assert_eq!(titled["title"], "Buy milk eggs and bread");
    assert_eq!(titled["name"], "Buy milk eggs and bread");
    assert_eq!(titled["title_generated"], true);
    assert_eq!(titled["updated_at"], "2026-03-10T09:00:02.000Z");
    assert_eq!(titled["edited_at"], n["edited_at"]);
    assert_eq!(titled["edit_version"], n["edit_version"]);
    // What was sent.
    let sent = server.requests();
    let chat = sent
        .iter()
        .find(|r| r.path == "/v1/chat/completions")
        .unwrap();
    assert_eq!(
        chat.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = chat.body.clone().unwrap();
    assert_eq!(body["model"], "model-a");
    assert_eq!(body["reasoning_effort"], "medium");
    assert_eq!(body["max_completion_tokens"], 300);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][1]["content"],
        "Buy milk eggs and bread for the weekend"
    );
    // The provider's success is recorded.
    let pr = s.get(&format!("/ai_providers/{}", id(&p))).body["data"].clone();
    assert_eq!(pr["last_succeeded_at"], "2026-03-10T09:00:02.000Z");
    // Nothing left: a pin is no reason to ask again.
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    s.post(&format!("{path}/pin"), json!(null)).expect(200);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    assert_eq!(server.chat_calls(), 1);
    // A new body: a new title.
    s.patch(
        &path,
        json!({"note": {"body_html": "<p>Plan the trip to Lisbon in May</p>"}}),
    )
    .expect(200);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    assert_eq!(
        s.get(&path).body["data"]["title"],
        "Plan the trip to Lisbon"
    );
    // The owner's title stays, whatever the body does.
    s.patch(&path, json!({"note": {"title": "Lisbon"}}))
        .expect(200);
    s.patch(
        &path,
        json!({"note": {"body_html": "<p>Something else entirely now</p>"}}),
    )
    .expect(200);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    let owned = s.get(&path).body["data"].clone();
    assert_eq!(
        (owned["title"].clone(), owned["title_generated"].clone()),
        (json!("Lisbon"), json!(false))
    );
    // A note with a title of its own is never queued.
    s.post(
        "/notes",
        json!({"note": {"title": "Mine", "body_html": "<p>text here</p>"}}),
    )
    .expect(201);
    assert_eq!(
        s.get("/ai_tasks/note_titles/queue").body["data"]["queued"],
        0
    );
}

#[test]
fn vendor_b_titles_send_the_messages_interface() {
    let server = ModelServer::start();
    server.set_reply("\"Courses de la semaine.\"");
    let (s, _) = titled("vendor_b", &server);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"reasoning": "high"}}),
    )
    .expect(200);
    let n = note(&s, "Acheter du lait et du pain");
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    assert_eq!(
        s.get(&format!("/notes/{}", id(&n))).body["data"]["title"],
        "Courses de la semaine"
    );
    let sent = server.requests();
    let call = sent.iter().find(|r| r.path == "/v1/messages").unwrap();
    assert_eq!(call.header("x-api-key"), Some(KEY));
    assert_eq!(call.header("anthropic-version"), Some("2023-06-01"));
    let body = call.body.clone().unwrap();
    assert_eq!(body["max_tokens"], 2048);
    assert!(body["system"].as_str().unwrap().contains("same language"));
    assert_eq!(body.get("reasoning_effort"), None);
}

#[test]
fn a_failing_provider_is_recorded_and_tried_again_with_backoff() {
    let server = ModelServer::start();
    let (s, p) = titled("api_compatible", &server);
    let n = note(&s, "Call the plumber about the leak");
    server.fail_with(503, r#"{"error":{"message":"overloaded"}}"#);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    assert_eq!(server.chat_calls(), 1);
    let pr = s.get(&format!("/ai_providers/{}", id(&p))).body["data"].clone();
    assert_eq!(pr["last_error_reason"], "The server failed to answer");
    // Waiting out the backoff: no call before 30 s.
    s.advance(29);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    assert_eq!(server.chat_calls(), 1);
    s.advance(1);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    assert_eq!(server.chat_calls(), 2);
    // Doubled: 60 s now.
    server.heal();
    s.advance(59);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    s.advance(1);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    assert_eq!(
        s.get(&format!("/notes/{}", id(&n))).body["data"]["title"],
        "Call the plumber about the"
    );
    let pr = s.get(&format!("/ai_providers/{}", id(&p))).body["data"].clone();
    assert_eq!(pr["last_error"], json!(null));
}

#[test]
fn a_note_whose_call_fails_goes_to_the_back_of_the_queue() {
    let server = ModelServer::start();
    let (s, _) = titled("api_compatible", &server);
    let first = note(&s, "First in the queue");
    let second = note(&s, "Second in the queue");
    server.fail_with(400, r#"{"error":{"message":"bad content"}}"#);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    server.heal();
    s.advance(30);
    // The second note goes first now; both get their titles.
    assert_eq!(s.org.run_ai_tasks().unwrap(), 2);
    let asked: Vec<String> = server
        .requests()
        .iter()
        .filter_map(|r| {
            r.body.as_ref()?["messages"][1]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(
        asked,
        [
            "First in the queue",
            "Second in the queue",
            "First in the queue"
        ]
    );
    for n in [&first, &second] {
        assert_eq!(
            s.get(&format!("/notes/{}", id(n))).body["data"]["title_generated"],
            true
        );
    }
}

#[test]
fn off_or_without_a_model_nothing_is_queued_and_backfill_catches_up() {
    let server = ModelServer::start();
    let s = Core::start();
    let a = note(&s, "First note about gardening");
    let b = note(&s, "Second note about cooking");
    s.post(
        "/notes",
        json!({"note": {"title": "Owned", "body_html": "<p>x y</p>"}}),
    )
    .expect(201);
    s.post("/notes", json!({"note": {}})).expect(201);
    let task = || s.get("/ai_tasks/note_titles").body["data"].clone();
    assert_eq!(task()["backfill_pending"], 2);
    // Off: 422 on base. On without a model: 422 on base.
    s.post("/ai_tasks/note_titles/backfill", json!(null))
        .expect_error(422, "validation_failed", Some("base"));
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"enabled": true}}),
    )
    .expect(200);
    s.post("/ai_tasks/note_titles/backfill", json!(null))
        .expect_error(422, "validation_failed", Some("base"));
    s.post("/ai_tasks/nope/backfill", json!(null)).expect(404);
    // No backfill yet: the queue says none.
    assert_eq!(
        s.get("/ai_tasks/note_titles/queue").body,
        json!({"data": {"queued": 0, "backfill": null}})
    );
    let p = provider(&s, "P", "api_compatible", &server, None);
    let m = model(&s, &p, "model-a", false);
    // A task's own model works without a default.
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"ai_model_id": id(&m)}}),
    )
    .expect(200);
    let r = s
        .post("/ai_tasks/note_titles/backfill", json!(null))
        .expect(202);
    assert_eq!(r.body, json!({"data": {"queued": 2}}));
    assert_eq!(task()["backfill_pending"], 0);
    // Repeating it queues nothing twice.
    let again = s
        .post("/ai_tasks/note_titles/backfill", json!(null))
        .expect(202);
    assert_eq!(again.data()["queued"], 0);
    // Its progress: of the two waiting just after it, none done yet.
    assert_eq!(
        s.get("/ai_tasks/note_titles/queue").body,
        json!({"data": {"queued": 2, "backfill": {
            "started_at": "2026-03-10T09:00:00.000Z", "total": 2, "done": 0, "finished": false
        }}})
    );
    assert_eq!(s.org.run_ai_tasks().unwrap(), 2);
    assert_eq!(server.chat_calls(), 2);
    assert_eq!(
        s.get("/ai_tasks/note_titles/queue").body["data"]["backfill"],
        json!({"started_at": "2026-03-10T09:00:00.000Z", "total": 2, "done": 2, "finished": true})
    );
    for (n, title) in [
        (&a, "First note about gardening"),
        (&b, "Second note about cooking"),
    ] {
        assert_eq!(
            s.get(&format!("/notes/{}", id(n))).body["data"]["title"],
            title
        );
    }
    let third = s
        .post("/ai_tasks/note_titles/backfill", json!(null))
        .expect(202);
    assert_eq!(third.data()["queued"], 0);
    // Deleting the task's model goes back to the default (none: idle).
    s.delete(&format!("/ai_models/{}", id(&m))).expect(204);
    assert_eq!(task()["ai_model_id"], json!(null));
    // Idempotency-Key on backfill.
    let first = send(
        s.req("POST", "/ai_tasks/note_titles/backfill")
            .header("Idempotency-Key", "bf"),
    );
    let second = send(
        s.req("POST", "/ai_tasks/note_titles/backfill")
            .header("Idempotency-Key", "bf"),
    );
    assert_eq!((first.status, second.status), (422, 422));
}

#[test]
fn a_deleted_or_changed_note_is_not_titled_from_old_text() {
    let server = ModelServer::start();
    let (s, _) = titled("api_compatible", &server);
    let gone = note(&s, "This note will be deleted soon");
    let kept = note(&s, "Original words here please");
    s.delete(&format!("/notes/{}", id(&gone))).expect(204);
    s.patch(
        &format!("/notes/{}", id(&kept)),
        json!({"note": {"body_html": "<p>Newer words instead of those</p>"}}),
    )
    .expect(200);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    assert_eq!(server.chat_calls(), 1);
    assert_eq!(
        s.get(&format!("/notes/{}", id(&kept))).body["data"]["title"],
        "Newer words instead of those"
    );
    // Restored within its window, it is queued again.
    s.post(&format!("/notes/{}/restoration", id(&gone)), json!(null))
        .expect(200);
    assert_eq!(s.org.run_ai_tasks().unwrap(), 1);
    // Clearing a generated title makes the note untitled; the next edit
    // of its text titles it again.
    let path = format!("/notes/{}", id(&kept));
    let cleared = s.patch(&path, json!({"note": {"title": null}})).expect(200);
    assert_eq!(
        (
            cleared.data()["title"].clone(),
            cleared.data()["title_generated"].clone()
        ),
        (json!(null), json!(false))
    );
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
}

#[test]
fn a_restart_resumes_the_queue() {
    let dir = tempfile::tempdir().unwrap();
    let server = ModelServer::start();
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let options = || Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    };
    let note_id;
    {
        let org = Organiser::open_with(dir.path(), options()).unwrap();
        let s = Core::over(org, clock.clone());
        let p = provider(&s, "P", "api_compatible", &server, None);
        model(&s, &p, "model-a", true);
        s.patch(
            "/ai_tasks/note_titles",
            json!({"ai_task": {"enabled": true}}),
        )
        .expect(200);
        note_id = id(&note(&s, "Remember to water the plants"));
        assert_eq!(
            s.get("/ai_tasks/note_titles/queue").body["data"]["queued"],
            1
        );
    }
    let org = Organiser::open_with(dir.path(), options()).unwrap();
    assert_eq!(org.run_ai_tasks().unwrap(), 1);
    let s = Core::over(org, clock);
    assert_eq!(
        s.get(&format!("/notes/{note_id}")).body["data"]["title"],
        "Remember to water the plants"
    );
}
