//! Document 1, "Read-only mode" and "Idempotency" rule 4, for task lists
//! and tasks: every write is 403 `read_only` and changes nothing, every
//! GET still answers, and a refused POST does not use up its key.

use serde_json::json;

use crate::common::fixtures::{all, id, new_list, new_task};
use crate::common::{Call, Core, Expect, Setup, check, licence_key, licence_signer, send};

fn server() -> Core {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    Core::with(setup)
}

#[test]
fn writes_to_tasks_and_lists_are_403_and_change_nothing() {
    let s = server();
    let list = new_list(&s, "Home");
    let task = id(&new_task(&s, json!({"title": "t", "task_list_id": list})));
    let gone = id(&new_task(&s, json!({"title": "gone"})));
    s.delete(&format!("/tasks/{gone}")).expect(204);
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    let snapshot = || {
        (
            all(&s, "/tasks"),
            all(&s, "/task_lists"),
            all(&s, "/deletions"),
            s.get("/task_counts").expect(200).body,
        )
    };
    let before = snapshot();
    let writes = [
        (
            "POST",
            "/task_lists".to_owned(),
            Some(json!({"task_list": {"name": "New"}})),
        ),
        (
            "PATCH",
            format!("/task_lists/{list}"),
            Some(json!({"task_list": {"name": "X"}})),
        ),
        (
            "PUT",
            format!("/task_lists/{list}"),
            Some(json!({"task_list": {"position": 1}})),
        ),
        ("DELETE", format!("/task_lists/{list}"), None),
        ("POST", format!("/task_lists/{list}/restoration"), None),
        (
            "POST",
            "/tasks".to_owned(),
            Some(json!({"task": {"title": "New"}})),
        ),
        (
            "PATCH",
            format!("/tasks/{task}"),
            Some(json!({"task": {"status": "completed"}})),
        ),
        (
            "PUT",
            format!("/tasks/{task}"),
            Some(json!({"task": {"title": "X"}})),
        ),
        ("DELETE", format!("/tasks/{task}"), None),
        ("POST", format!("/tasks/{task}/restoration"), None),
        ("POST", format!("/tasks/{gone}/restoration"), None),
    ];
    for (method, path, body) in writes {
        check(
            &s,
            Call::new(method, path).body(body),
            Expect::error(403, "read_only", None),
        );
    }
    // Reads still work.
    for path in [
        "/tasks".to_owned(),
        format!("/tasks/{task}"),
        "/tasks?view=overview&count=true".to_owned(),
        "/task_lists".to_owned(),
        format!("/task_lists/{list}"),
        "/task_counts?view=today".to_owned(),
        "/deletions".to_owned(),
    ] {
        check(&s, Call::get(path), Expect::status(200));
    }
    assert_eq!(snapshot(), before, "nothing changed");
}

#[test]
fn a_post_refused_as_read_only_does_not_use_up_its_key() {
    let s = server();
    s.advance(15 * 86400);
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "ro-1")
            .json(&json!({"task": {"title": "First try"}})),
    )
    .expect_error(403, "read_only", None);
    send(
        s.req("POST", "/task_lists")
            .header("idempotency-key", "ro-2")
            .json(&json!({"task_list": {"name": "First try"}})),
    )
    .expect_error(403, "read_only", None);
    assert!(all(&s, "/tasks").is_empty());
    // Writes allowed again.
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2027-01-01")})),
    )
    .expect(200);
    // Another body under the same key is neither reused nor replayed: it runs.
    let made = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "ro-1")
            .json(&json!({"task": {"title": "Second try"}})),
    )
    .expect(201);
    assert_eq!(made.header("idempotent-replayed"), None);
    assert_eq!(made.data()["title"], "Second try");
    // The same body as refused runs too.
    let list = send(
        s.req("POST", "/task_lists")
            .header("idempotency-key", "ro-2")
            .json(&json!({"task_list": {"name": "First try"}})),
    )
    .expect(201);
    assert_eq!(list.header("idempotent-replayed"), None);
    // Now the key is used: a retry replays.
    let replay = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "ro-1")
            .json(&json!({"task": {"title": "Second try"}})),
    )
    .expect(201);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), made.data());
    assert_eq!(all(&s, "/tasks").len(), 1);
}
