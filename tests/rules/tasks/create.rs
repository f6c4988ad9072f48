//! Creating and changing a task: every bad field refused (and nothing
//! saved or changed), the limits and empty values accepted, titles
//! squished, descriptions sanitised, and the date rules.

use serde_json::{Value, json};

use super::refused;
use crate::common::fixtures::{
    START, UNKNOWN, all, deleted_list, get_task, id, new_list, new_task, patch_task,
};
use crate::common::{Call, Core, Expect, check};

// ---------------------------------------------------------------- create

#[test]
fn create_refuses_every_bad_field() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    let gone = deleted_list(&s);
    let long = "t".repeat(201);
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({}), 422, "title"),
        (json!({"title": ""}), 422, "title"),
        (json!({"title": "   "}), 422, "title"),
        (json!({"title": null}), 422, "title"),
        (json!({"title": 7}), 422, "title"),
        (json!({"title": long}), 422, "title"),
        (json!({"title": "Ring\u{7}\u{0}"}), 422, "title"),
        (
            json!({"title": "x", "start_on": "tomorrow"}),
            422,
            "start_on",
        ),
        (
            json!({"title": "x", "start_on": "2026-02-30"}),
            422,
            "start_on",
        ),
        (
            json!({"title": "x", "start_on": "10/03/2026"}),
            422,
            "start_on",
        ),
        (json!({"title": "x", "start_on": 20260310}), 422, "start_on"),
        (
            json!({"title": "x", "deadline_on": "2026-3-12"}),
            422,
            "deadline_on",
        ),
        (
            json!({"title": "x", "deadline_on": "2026-03-12T10:00:00Z"}),
            422,
            "deadline_on",
        ),
        (json!({"title": "x", "expires_on": true}), 422, "expires_on"),
        (
            json!({"title": "x", "expires_on": "soon"}),
            422,
            "expires_on",
        ),
        (
            json!({"title": "x", "start_on": "2026-03-12", "deadline_on": "2026-03-11"}),
            422,
            "deadline_on",
        ),
        // Due today is not yet passed.
        (
            json!({"title": "x", "start_on": "2026-03-11", "deadline_on": "2026-03-10"}),
            422,
            "deadline_on",
        ),
        (
            json!({"title": "x", "start_on": "2026-03-12", "expires_on": "2026-03-11"}),
            422,
            "expires_on",
        ),
        (
            json!({"title": "x", "deadline_on": "2026-03-20", "expires_on": "2026-03-19"}),
            422,
            "expires_on",
        ),
        (
            json!({"title": "x", "expires_on": "2026-03-09"}),
            422,
            "expires_on",
        ),
        (
            json!({"title": "x", "task_list_id": list, "person_id": UNKNOWN}),
            422,
            "base",
        ),
        (
            json!({"title": "x", "task_list_id": list, "project_id": UNKNOWN}),
            422,
            "base",
        ),
        (
            json!({"title": "x", "task_list_id": UNKNOWN}),
            422,
            "task_list_id",
        ),
        (
            json!({"title": "x", "task_list_id": gone}),
            422,
            "task_list_id",
        ),
        (
            json!({"title": "x", "person_id": UNKNOWN}),
            422,
            "person_id",
        ),
        (
            json!({"title": "x", "project_id": UNKNOWN}),
            422,
            "project_id",
        ),
        (
            json!({"title": "x", "task_list_id": "not-an-id"}),
            422,
            "task_list_id",
        ),
        (
            json!({"title": "x", "task_list_id": 12}),
            422,
            "task_list_id",
        ),
        (json!({"title": "x", "person_id": "nope"}), 422, "person_id"),
        (
            json!({"title": "x", "project_id": ["x"]}),
            422,
            "project_id",
        ),
        (
            json!({"title": "x", "description_html": "<p>See <img src=\"a.png\"></p>"}),
            422,
            "description",
        ),
        (
            json!({"title": "x", "document_ids": [UNKNOWN]}),
            422,
            "documents",
        ),
        (
            json!({"title": "x", "document_uploads": ["signed-upload"]}),
            422,
            "documents",
        ),
        (
            json!({"title": "x", "document_ids": "x"}),
            400,
            "document_ids",
        ),
        (
            json!({"title": "x", "document_ids": UNKNOWN}),
            400,
            "document_ids",
        ),
        (
            json!({"title": "x", "document_ids": [1, 2]}),
            400,
            "document_ids",
        ),
        (
            json!({"title": "x", "document_ids": ["not-an-id"]}),
            400,
            "document_ids",
        ),
        (
            json!({"title": "x", "document_uploads": "x"}),
            400,
            "document_uploads",
        ),
        (
            json!({"title": "x", "document_uploads": [7]}),
            400,
            "document_uploads",
        ),
        (json!({"title": "x", "status": "done"}), 422, "status"),
        (json!({"title": "x", "status": "OPEN"}), 422, "status"),
        (json!({"title": "x", "status": 1}), 422, "status"),
        (json!({"title": "x", "position": "top"}), 422, "position"),
        (json!({"title": "x", "position": 1.5}), 422, "position"),
        (json!({"title": "x", "position": [1]}), 422, "position"),
    ];
    for (fields, status, detail) in cases {
        check(
            &s,
            Call::post("/tasks", json!({ "task": fields })),
            refused(status, detail),
        );
    }
    s.post("/tasks", json!({"task": []}))
        .expect_error(400, "invalid_json", None);
    s.post("/tasks", json!({"task": "x"}))
        .expect_error(400, "invalid_json", None);
    assert!(all(&s, "/tasks").is_empty(), "nothing was saved");
}

#[test]
fn create_accepts_the_limits_and_the_empty_values() {
    let s = Core::start();
    let exactly = "t".repeat(200);
    assert_eq!(new_task(&s, json!({"title": exactly}))["title"], exactly);
    // Characters, not bytes.
    let accented = "é".repeat(200);
    assert_eq!(new_task(&s, json!({"title": accented}))["title"], accented);
    s.post("/tasks", json!({"task": {"title": "é".repeat(201)}}))
        .expect_error(422, "validation_failed", Some("title"));
    let accepted = [
        json!({"title": "x", "document_ids": []}),
        json!({"title": "x", "document_ids": null}),
        json!({"title": "x", "document_uploads": []}),
        json!({"title": "x", "document_uploads": null}),
        json!({"title": "x", "start_on": null, "deadline_on": "", "expires_on": null}),
        json!({"title": "x", "task_list_id": null, "person_id": null, "project_id": null}),
        json!({"title": "x", "expires_on": "2026-03-10"}),
        // An overdue task can start today.
        json!({"title": "x", "start_on": "2026-03-10", "deadline_on": "2026-03-01"}),
        // A closed task may carry an expiry that has passed.
        json!({"title": "x", "status": "completed", "expires_on": "2026-03-01"}),
        json!({"title": "x", "status": "wont_do"}),
        json!({"title": "x", "unknown_field": 1}),
    ];
    for fields in accepted {
        let reply = s.post("/tasks", json!({ "task": fields }));
        assert_eq!(reply.status, 201, "{fields}: {}", reply.body);
    }
    let cleared = new_task(&s, json!({"title": "y", "deadline_on": ""}));
    assert_eq!(cleared["deadline_on"], Value::Null, "an empty date is null");
}

#[test]
fn a_new_task_is_squished_open_and_in_the_inbox() {
    let s = Core::start();
    let t = new_task(&s, json!({"title": "  Buy \t  milk   and  bread  "}));
    assert_eq!(t["title"], "Buy milk and bread");
    assert_eq!(t["id"].as_str().unwrap().len(), 26);
    assert_eq!(t["status"], "open");
    for field in [
        "start_on",
        "deadline_on",
        "expires_on",
        "completed_at",
        "archived_at",
        "task_list_id",
        "person_id",
        "project_id",
        "description_html",
    ] {
        assert_eq!(t[field], Value::Null, "{field}");
    }
    assert_eq!(t["position"], 1, "the first task of an empty home");
    assert_eq!(t["description_text"], "");
    assert_eq!(t["has_documents"], false);
    assert_eq!(t["expired"], false);
    assert_eq!(t["created_at"], START);
    assert_eq!(t["updated_at"], START);
    assert_eq!(get_task(&s, &id(&t)), t);
    // A title squished on change too.
    let changed = patch_task(&s, &id(&t), json!({"title": " Buy  oat   milk "})).expect(200);
    assert_eq!(changed.data()["title"], "Buy oat milk");
}

#[test]
fn a_task_path_that_names_nothing_is_404() {
    let s = Core::start();
    for path in [
        format!("/tasks/{UNKNOWN}"),
        "/tasks/not-an-id".to_owned(),
        "/tasks/01arz3ndektsv4rrffq69g5fav-x".to_owned(),
    ] {
        for call in [
            Call::get(&path),
            Call::patch(&path, json!({"task": {"title": "x"}})),
            Call::delete(&path),
            Call::new("POST", format!("{path}/restoration")),
        ] {
            check(&s, call, Expect::error(404, "not_found", None));
        }
    }
}

#[test]
fn descriptions_are_sanitised_and_cleared() {
    let s = Core::start();
    let t = new_task(
        &s,
        json!({"title": "x", "description_html": "<p>Hello <script>alert(1)</script><strong>world</strong></p>"}),
    );
    let html = t["description_html"].as_str().unwrap();
    assert!(!html.contains("script"), "{html}");
    assert!(html.contains("<strong>world</strong>"), "{html}");
    assert_eq!(t["description_text"], "Hello world");
    for clear in [json!(null), json!(""), json!("<script>x</script>")] {
        let done = patch_task(&s, &id(&t), json!({ "description_html": clear })).expect(200);
        assert_eq!(done.data()["description_html"], Value::Null, "{clear}");
        assert_eq!(done.data()["description_text"], "", "{clear}");
        patch_task(&s, &id(&t), json!({"description_html": "<p>again</p>"})).expect(200);
    }
}

/// A mention in a description shows the person's name as it is now: a
/// rename refreshes it, as in notes (issue 22), with a new `updated_at`.
#[test]
fn a_renamed_person_is_renamed_in_the_descriptions_mentioning_them() {
    let s = Core::start();
    let ada = crate::common::fixtures::person(&s, "Ada Byron");
    let bob = crate::common::fixtures::person(&s, "Bob");
    let html = format!(
        "<p>Ask <span data-mention=\"{ada}\">@Ada Byron</span> and <span data-mention=\"{bob}\">@Bob</span></p>"
    );
    let t = new_task(&s, json!({"title": "Call", "description_html": html}));
    let other = new_task(
        &s,
        json!({"title": "Other", "description_html": "<p>no one</p>"}),
    );
    s.advance(60);
    s.patch(
        &format!("/people/{ada}"),
        json!({"person": {"name": "Ada Lovelace"}}),
    )
    .expect(200);
    let after = get_task(&s, &id(&t));
    let html = after["description_html"].as_str().unwrap();
    assert!(html.contains("@Ada Lovelace"), "{html}");
    assert!(html.contains(">@Bob</span>"), "{html}");
    assert_eq!(after["description_text"], "Ask @Ada Lovelace and @Bob");
    assert_ne!(after["updated_at"], t["updated_at"]);
    assert_eq!(get_task(&s, &id(&other))["updated_at"], other["updated_at"]);
    // A task no longer mentioning them is left alone.
    patch_task(&s, &id(&t), json!({"description_html": "<p>done</p>"})).expect(200);
    s.patch(
        &format!("/people/{ada}"),
        json!({"person": {"name": "Ada King"}}),
    )
    .expect(200);
    assert_eq!(get_task(&s, &id(&t))["description_html"], "<p>done</p>");
}

/// Spec: a home is "ULID or null", and "a value that is not an id ... is
/// 422"; docs/api.md lets an empty string stand for null only for dates.
#[test]
fn an_empty_string_is_not_a_home_id() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    for field in ["task_list_id", "person_id", "project_id"] {
        let fields = json!({"title": "x", field: ""});
        check(
            &s,
            Call::post("/tasks", json!({ "task": fields })),
            refused(422, field),
        );
    }
    assert!(all(&s, "/tasks").is_empty(), "nothing was saved");
    let t = new_task(&s, json!({"title": "t", "task_list_id": list}));
    let fields = json!({"task_list_id": ""});
    check(
        &s,
        Call::patch(format!("/tasks/{}", id(&t)), json!({ "task": fields })),
        refused(422, "task_list_id"),
    );
    assert_eq!(get_task(&s, &id(&t)), t, "still in its list");
}

// ---------------------------------------------------------------- change

#[test]
fn change_refuses_every_bad_field_and_changes_nothing() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    let gone = deleted_list(&s);
    let task = new_task(
        &s,
        json!({
            "title": "Base",
            "task_list_id": list,
            "start_on": "2026-03-12",
            "deadline_on": "2026-03-20",
            "expires_on": "2026-03-25",
            "description_html": "<p>notes</p>",
        }),
    );
    let tid = id(&task);
    s.advance(60);
    let long = "t".repeat(201);
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({"title": ""}), 422, "title"),
        (json!({"title": "  "}), 422, "title"),
        (json!({"title": null}), 422, "title"),
        (json!({"title": long}), 422, "title"),
        (json!({"title": false}), 422, "title"),
        (
            json!({"title": "Fine", "start_on": "12/03/2026"}),
            422,
            "start_on",
        ),
        (
            json!({"title": "Fine", "deadline_on": "2026-13-01"}),
            422,
            "deadline_on",
        ),
        (
            json!({"title": "Fine", "expires_on": true}),
            422,
            "expires_on",
        ),
        // The deadline (not passed) before the start, either way round.
        (json!({"deadline_on": "2026-03-11"}), 422, "deadline_on"),
        (json!({"start_on": "2026-03-21"}), 422, "deadline_on"),
        (json!({"expires_on": "2026-03-19"}), 422, "expires_on"),
        (json!({"expires_on": "2026-03-11"}), 422, "expires_on"),
        (json!({"expires_on": "2026-03-09"}), 422, "expires_on"),
        (json!({"deadline_on": "2026-03-26"}), 422, "expires_on"),
        (
            json!({"task_list_id": list, "person_id": UNKNOWN}),
            422,
            "base",
        ),
        (
            json!({"person_id": UNKNOWN, "project_id": UNKNOWN}),
            422,
            "base",
        ),
        (json!({"task_list_id": UNKNOWN}), 422, "task_list_id"),
        (json!({"task_list_id": gone}), 422, "task_list_id"),
        (json!({"person_id": UNKNOWN}), 422, "person_id"),
        (json!({"project_id": UNKNOWN}), 422, "project_id"),
        (json!({"task_list_id": "nope"}), 422, "task_list_id"),
        (json!({"project_id": 5}), 422, "project_id"),
        (
            json!({"description_html": "<img src=\"x.png\">"}),
            422,
            "description",
        ),
        (json!({"status": "done"}), 422, "status"),
        (json!({"status": null}), 422, "status"),
        (json!({"position": "2"}), 422, "position"),
        (json!({"position": 1.5}), 422, "position"),
        (json!({"document_ids": [UNKNOWN]}), 422, "documents"),
        (json!({"document_uploads": ["signed"]}), 422, "documents"),
        (json!({"document_ids": "x"}), 400, "document_ids"),
        (json!({"document_ids": [{}]}), 400, "document_ids"),
        (json!({"document_uploads": {}}), 400, "document_uploads"),
    ];
    for (fields, status, detail) in cases {
        check(
            &s,
            Call::patch(format!("/tasks/{tid}"), json!({ "task": fields.clone() })),
            refused(status, detail),
        );
        assert_eq!(get_task(&s, &tid), task, "{fields} changed nothing");
    }
    // PUT is PATCH.
    let put = s
        .put(
            &format!("/tasks/{tid}"),
            json!({"task": {"title": "  Put  "}}),
        )
        .expect(200);
    assert_eq!(put.data()["title"], "Put");
    assert_eq!(put.data()["start_on"], "2026-03-12", "only the fields sent");
    assert_eq!(put.data()["description_html"], task["description_html"]);
}

#[test]
fn date_rules_on_change() {
    let s = Core::start();
    let t = new_task(&s, json!({"title": "x", "start_on": "2026-03-12"}));
    let tid = id(&t);
    // A deadline that has passed may be before the start.
    let passed = patch_task(&s, &tid, json!({"deadline_on": "2026-03-05"})).expect(200);
    assert_eq!(passed.data()["deadline_on"], "2026-03-05");
    patch_task(&s, &tid, json!({"deadline_on": "2026-03-12"})).expect(200);
    patch_task(&s, &tid, json!({"expires_on": "2026-03-12"})).expect(200);
    // Clearing a date with null or "".
    let cleared = patch_task(&s, &tid, json!({"expires_on": "", "start_on": null})).expect(200);
    assert_eq!(cleared.data()["expires_on"], Value::Null);
    assert_eq!(cleared.data()["start_on"], Value::Null);
    // A closed task may be given an expiry in the past; an open one may not.
    patch_task(&s, &tid, json!({"status": "completed"})).expect(200);
    let closed = patch_task(
        &s,
        &tid,
        json!({"expires_on": "2026-03-01", "deadline_on": null}),
    )
    .expect(200);
    assert_eq!(closed.data()["expires_on"], "2026-03-01");
    let other = new_task(&s, json!({"title": "y"}));
    patch_task(&s, &id(&other), json!({"expires_on": "2026-03-01"})).expect_error(
        422,
        "validation_failed",
        Some("expires_on"),
    );
}
