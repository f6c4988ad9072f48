//! Deleting and restoring a task within 20 seconds, idempotent creation
//! and restoration, and failed requests that change nothing.

use serde_json::json;

use crate::common::fixtures::{UNKNOWN, all, get_task, id, new_list, new_task, patch_task, titles};
use crate::common::{Core, Setup, send};

// ---------------------------------------------------------------- delete and restore

#[test]
fn a_deleted_task_is_gone_and_can_be_restored_within_20_seconds() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    let a = new_task(&s, json!({"title": "a", "task_list_id": list}));
    let b = new_task(&s, json!({"title": "b", "task_list_id": list}));
    let bid = id(&b);
    s.advance(1);
    s.delete(&format!("/tasks/{bid}")).expect(204);
    s.get(&format!("/tasks/{bid}"))
        .expect_error(404, "not_found", None);
    patch_task(&s, &bid, json!({"title": "x"})).expect_error(404, "not_found", None);
    s.delete(&format!("/tasks/{bid}"))
        .expect_error(404, "not_found", None);
    assert_eq!(titles(&s, "/tasks"), ["a"]);
    assert_eq!(s.get("/task_counts").data()["task_lists"][0]["open"], 1);
    s.advance(19);
    let back = send(s.req("POST", &format!("/tasks/{bid}/restoration"))).expect(200);
    let d = back.data();
    assert_eq!(d["title"], "b");
    assert_eq!(d["task_list_id"], list.as_str(), "keeps its home");
    assert_eq!(d["position"], b["position"], "keeps its position");
    assert_eq!(
        d["updated_at"], "2026-03-10T09:00:20.000Z",
        "a new updated_at"
    );
    assert_eq!(get_task(&s, &bid), *d);
    assert_eq!(
        titles(&s, &format!("/tasks?task_list_id={list}")),
        ["b", "a"]
    );
    // Restoring a live task returns it, unchanged.
    s.advance(5);
    let again = send(s.req("POST", &format!("/tasks/{bid}/restoration"))).expect(200);
    assert_eq!(again.data(), d);
    assert_eq!(get_task(&s, &id(&a)), a);
}

#[test]
fn restoration_is_404_after_20_seconds_for_unknown_ids_and_while_the_list_is_deleted() {
    let s = Core::start();
    let t = new_task(&s, json!({"title": "late"}));
    s.delete(&format!("/tasks/{}", id(&t))).expect(204);
    s.advance(20);
    send(s.req("POST", &format!("/tasks/{}/restoration", id(&t)))).expect_error(
        404,
        "not_found",
        None,
    );
    s.get(&format!("/tasks/{}", id(&t)))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/tasks/{}", id(&t)))
        .expect_error(404, "not_found", None);
    send(s.req("POST", &format!("/tasks/{UNKNOWN}/restoration"))).expect_error(
        404,
        "not_found",
        None,
    );

    // A task deleted with its list: 404 on its own, back with the list.
    let list = new_list(&s, "Home");
    let inside = new_task(&s, json!({"title": "inside", "task_list_id": list}));
    s.delete(&format!("/task_lists/{list}")).expect(204);
    s.get(&format!("/tasks/{}", id(&inside)))
        .expect_error(404, "not_found", None);
    send(s.req("POST", &format!("/tasks/{}/restoration", id(&inside)))).expect_error(
        404,
        "not_found",
        None,
    );
    send(s.req("POST", &format!("/task_lists/{list}/restoration"))).expect(200);
    assert_eq!(get_task(&s, &id(&inside))["title"], "inside");

    // A task deleted on its own, then its list: 404 while the list is deleted.
    let alone = new_task(&s, json!({"title": "alone", "task_list_id": list}));
    s.delete(&format!("/tasks/{}", id(&alone))).expect(204);
    s.delete(&format!("/task_lists/{list}")).expect(204);
    send(s.req("POST", &format!("/tasks/{}/restoration", id(&alone)))).expect_error(
        404,
        "not_found",
        None,
    );
}

#[test]
fn a_restored_task_whose_expiry_passed_meanwhile_is_archived() {
    let s = Core::with(Setup {
        now: "2026-03-10T23:59:50Z",
        ..Setup::default()
    });
    let t = new_task(&s, json!({"title": "x", "expires_on": "2026-03-10"}));
    s.delete(&format!("/tasks/{}", id(&t))).expect(204);
    s.advance(15);
    let back = send(s.req("POST", &format!("/tasks/{}/restoration", id(&t)))).expect(200);
    let d = back.data();
    assert_eq!(d["status"], "archived");
    assert_eq!(d["expired"], true);
    assert_eq!(d["archived_at"], "2026-03-11T00:00:00.000Z");
    assert_eq!(get_task(&s, &id(&t)), *d);
    assert_eq!(titles(&s, "/tasks?view=logbook"), ["x"]);
}

// ---------------------------------------------------------------- idempotency

#[test]
fn a_create_with_an_idempotency_key_replays() {
    let s = Core::start();
    let body = json!({"task": {"title": "Once", "start_on": "2026-03-12"}});
    let first = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-1")
            .json(&body),
    )
    .expect(201);
    assert_eq!(first.header("idempotent-replayed"), None);
    s.advance(5);
    let same_keys_reordered = json!({"task": {"start_on": "2026-03-12", "title": "Once"}});
    let replay = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-1")
            .json(&same_keys_reordered),
    )
    .expect(201);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data(), "the same task");
    assert_eq!(all(&s, "/tasks").len(), 1, "made once");
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-1")
            .json(&json!({"task": {"title": "Twice"}})),
    )
    .expect_error(422, "idempotency_key_reused", None);
    assert_eq!(all(&s, "/tasks").len(), 1);
    // Another key makes another task.
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-2")
            .json(&body),
    )
    .expect(201);
    assert_eq!(all(&s, "/tasks").len(), 2);
    // A key is kept for 24 hours.
    s.advance(24 * 3600 - 10);
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-1")
            .json(&json!({"task": {"title": "Twice"}})),
    )
    .expect_error(422, "idempotency_key_reused", None);
    s.advance(10);
    let fresh = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "create-1")
            .json(&json!({"task": {"title": "Twice"}})),
    )
    .expect(201);
    assert_eq!(fresh.header("idempotent-replayed"), None);
    assert_eq!(all(&s, "/tasks").len(), 3);
    // A key must be 1 to 255 visible ASCII characters.
    for bad in ["k".repeat(256), "with space".to_owned()] {
        send(
            s.req("POST", "/tasks")
                .header("idempotency-key", bad.as_str())
                .json(&body),
        )
        .expect_error(400, "invalid_parameter", Some("Idempotency-Key"));
    }
    assert_eq!(all(&s, "/tasks").len(), 3);
}

#[test]
fn a_refused_create_does_not_use_up_its_key() {
    let s = Core::start();
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "k")
            .json(&json!({"task": {"title": ""}})),
    )
    .expect_error(422, "validation_failed", Some("title"));
    let made = send(
        s.req("POST", "/tasks")
            .header("idempotency-key", "k")
            .json(&json!({"task": {"title": "Fixed"}})),
    )
    .expect(201);
    assert_eq!(made.header("idempotent-replayed"), None);
    assert_eq!(made.data()["title"], "Fixed");
}

#[test]
fn a_restoration_with_an_idempotency_key_replays() {
    let s = Core::start();
    let t = new_task(&s, json!({"title": "x"}));
    let path = format!("/tasks/{}/restoration", id(&t));
    s.delete(&format!("/tasks/{}", id(&t))).expect(204);
    let first = send(s.req("POST", &path).header("idempotency-key", "restore-1")).expect(200);
    assert_eq!(first.header("idempotent-replayed"), None);
    assert_eq!(first.data()["id"], t["id"]);
    s.advance(1);
    let replay = send(s.req("POST", &path).header("idempotency-key", "restore-1")).expect(200);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data());
    // The same key on another request is refused.
    let other = new_task(&s, json!({"title": "y"}));
    send(
        s.req("POST", &format!("/tasks/{}/restoration", id(&other)))
            .header("idempotency-key", "restore-1"),
    )
    .expect_error(422, "idempotency_key_reused", None);
}

// ---------------------------------------------------------------- failed requests

#[test]
fn a_failed_change_changes_nothing() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    for title in ["c", "b", "a"] {
        new_task(&s, json!({"title": title, "task_list_id": list}));
    }
    let path = format!("/tasks?task_list_id={list}");
    let before = all(&s, &path);
    s.advance(30);
    let last = id(&before[2]);
    // A valid title with a bad date.
    patch_task(
        &s,
        &last,
        json!({"title": "Renamed", "start_on": "someday"}),
    )
    .expect_error(422, "validation_failed", Some("start_on"));
    // A position (which would renumber every task) with a bad date.
    patch_task(
        &s,
        &last,
        json!({"position": 1, "deadline_on": "2026-02-31"}),
    )
    .expect_error(422, "validation_failed", Some("deadline_on"));
    // A move to another home with a bad status.
    let other = new_list(&s, "Other");
    patch_task(&s, &last, json!({"task_list_id": other, "status": "nope"})).expect_error(
        422,
        "validation_failed",
        Some("status"),
    );
    // A new task at position 1 with a bad expiry.
    s.post(
        "/tasks",
        json!({"task": {"title": "new", "task_list_id": list, "position": 1, "expires_on": "2026-01-01"}}),
    )
    .expect_error(422, "validation_failed", Some("expires_on"));
    // A new task with a bad document list (400).
    let refused = s.post(
        "/tasks",
        json!({"task": {"title": "new", "task_list_id": list, "position": 1, "document_ids": 5}}),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(all(&s, &path), before, "nothing changed");
    assert!(all(&s, &format!("/tasks?task_list_id={other}")).is_empty());
}
