//! Document 2, "Task", "Task status", "Delete and restore", "Tasks": the
//! rules of create and change, placement, status transitions, expiry,
//! restore windows, the views and filters of `GET /tasks`, paging, and
//! idempotent creation. The helpers here are shared with the other task
//! test files.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::common::{Reply, Setup, TestServer, send};

/// A well-formed ULID that names nothing.
pub(crate) const UNKNOWN: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/// The instant a default test server starts at, as the API writes it.
pub(crate) const START: &str = "2026-03-10T09:00:00.000Z";

/// Sets the owner's time zone (a picker name).
pub(crate) fn set_zone(s: &TestServer, zone: &str) {
    send(
        s.local("PATCH", "/me")
            .json(&json!({"me": {"time_zone": zone}})),
    )
    .expect(200);
}

/// Creates a task list; its id.
pub(crate) fn new_list(s: &TestServer, name: &str) -> String {
    let made = s
        .post("/task_lists", json!({"task_list": {"name": name}}))
        .expect(201);
    id(made.data())
}

/// Creates a task from `fields`; the record.
#[track_caller]
pub(crate) fn new_task(s: &TestServer, fields: Value) -> Value {
    s.post("/tasks", json!({ "task": fields }))
        .expect(201)
        .data()
        .clone()
}

/// `GET /tasks/{id}`, which must be 200.
#[track_caller]
pub(crate) fn get_task(s: &TestServer, task_id: &str) -> Value {
    s.get(&format!("/tasks/{task_id}"))
        .expect(200)
        .data()
        .clone()
}

/// `PATCH /tasks/{id}` with `{task: fields}`.
pub(crate) fn patch_task(s: &TestServer, task_id: &str, fields: Value) -> Reply {
    s.patch(&format!("/tasks/{task_id}"), json!({ "task": fields }))
}

/// A record's id.
pub(crate) fn id(record: &Value) -> String {
    record["id"].as_str().expect("an id").to_owned()
}

/// Appends `extra` to `path`'s query.
pub(crate) fn with_query(path: &str, extra: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{extra}")
}

/// Every item of a listing, following `next_cursor` to the end.
#[track_caller]
pub(crate) fn all(s: &TestServer, path: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            None => with_query(path, "limit=100"),
            Some(c) => with_query(path, &format!("limit=100&cursor={c}")),
        };
        let page = s.get(&url).expect(200);
        items.extend(page.data().as_array().expect("a list").iter().cloned());
        match page.body["meta"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return items,
        }
    }
}

/// The titles of a listing, in order.
#[track_caller]
pub(crate) fn titles(s: &TestServer, path: &str) -> Vec<String> {
    all(s, path)
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_owned())
        .collect()
}

/// The ids of a listing, in order.
#[track_caller]
pub(crate) fn ids(s: &TestServer, path: &str) -> Vec<String> {
    all(s, path).iter().map(id).collect()
}

/// The lists and tasks of [`fixture`]. Today is 2026-03-10 (UTC).
pub(crate) struct Fixture {
    pub(crate) list_a: String,
    pub(crate) list_b: String,
    /// Every task by title.
    pub(crate) tasks: HashMap<&'static str, Value>,
}

/// The fixture's tasks: (home, title, fields). Made in this order, one
/// second apart.
const FIXTURE: &[(&str, &str, &str)] = &[
    ("inbox", "inbox plain", r#"{}"#),
    (
        "inbox",
        "inbox starts today",
        r#"{"start_on": "2026-03-10"}"#,
    ),
    (
        "inbox",
        "inbox due later",
        r#"{"deadline_on": "2026-04-30"}"#,
    ),
    ("inbox", "inbox planned", r#"{"start_on": "2026-03-20"}"#),
    ("inbox", "inbox done", r#"{"status": "completed"}"#),
    ("a", "a plain", r#"{}"#),
    ("a", "a started", r#"{"start_on": "2026-03-01"}"#),
    ("a", "a planned late", r#"{"start_on": "2026-03-20"}"#),
    ("a", "a planned soon", r#"{"start_on": "2026-03-15"}"#),
    ("a", "a overdue", r#"{"deadline_on": "2026-03-05"}"#),
    ("a", "a due today", r#"{"deadline_on": "2026-03-10"}"#),
    ("a", "a due in 14", r#"{"deadline_on": "2026-03-24"}"#),
    ("a", "a due in 15", r#"{"deadline_on": "2026-03-25"}"#),
    (
        "a",
        "a started due soon",
        r#"{"start_on": "2026-03-08", "deadline_on": "2026-03-12"}"#,
    ),
    (
        "a",
        "a starts tomorrow due soon",
        r#"{"start_on": "2026-03-11", "deadline_on": "2026-03-12"}"#,
    ),
    ("a", "a archived", r#"{"status": "archived"}"#),
    ("a", "a wont do", r#"{"status": "wont_do"}"#),
    ("b", "b plain", r#"{}"#),
    (
        "b",
        "b overdue started",
        r#"{"start_on": "2026-03-02", "deadline_on": "2026-03-09"}"#,
    ),
    ("b", "b completed", r#"{"status": "completed"}"#),
];

/// Two lists, A and B, and twenty tasks over the Inbox, A and B with
/// every kind of date (see [`FIXTURE`]).
pub(crate) fn fixture(s: &TestServer) -> Fixture {
    let list_a = new_list(s, "A");
    let list_b = new_list(s, "B");
    let mut tasks = HashMap::new();
    for (home, title, fields) in FIXTURE {
        let mut fields: Value = serde_json::from_str(fields).unwrap();
        fields["title"] = json!(title);
        match *home {
            "a" => fields["task_list_id"] = json!(list_a),
            "b" => fields["task_list_id"] = json!(list_b),
            _ => {}
        }
        s.advance(1);
        tasks.insert(*title, new_task(s, fields));
    }
    s.advance(1);
    Fixture {
        list_a,
        list_b,
        tasks,
    }
}

impl Fixture {
    /// The fixture's tasks named by `titles`, sorted by `key`, as titles.
    fn sorted<K: Ord>(&self, titles: &[&str], key: impl Fn(&Value) -> K) -> Vec<String> {
        let mut picked: Vec<&Value> = titles.iter().map(|t| &self.tasks[t]).collect();
        picked.sort_by_key(|t| key(t));
        picked
            .iter()
            .map(|t| t["title"].as_str().unwrap().to_owned())
            .collect()
    }

    /// In the manual order: position, ties by id.
    fn by_position(&self, titles: &[&str]) -> Vec<String> {
        self.sorted(titles, |t| (t["position"].as_i64().unwrap(), id(t)))
    }

    /// By `deadline_on` (none last), ties by id.
    fn by_deadline(&self, titles: &[&str]) -> Vec<String> {
        self.sorted(titles, |t| {
            (
                t["deadline_on"].is_null(),
                t["deadline_on"].as_str().unwrap_or("").to_owned(),
                id(t),
            )
        })
    }
}

/// The open tasks of the fixture.
const OPEN: &[&str] = &[
    "inbox plain",
    "inbox starts today",
    "inbox due later",
    "inbox planned",
    "a plain",
    "a started",
    "a planned late",
    "a planned soon",
    "a overdue",
    "a due today",
    "a due in 14",
    "a due in 15",
    "a started due soon",
    "a starts tomorrow due soon",
    "b plain",
    "b overdue started",
];

/// Asserts a refusal: the status, `validation_failed` for a 422 (either
/// 400 code for a 400), and `detail` among the details' keys.
#[track_caller]
fn refused(reply: Reply, status: u16, detail: &str, case: &Value) {
    assert_eq!(reply.status, status, "{case}: {}", reply.body);
    let code = reply.code().to_owned();
    if status == 422 {
        assert_eq!(code, "validation_failed", "{case}: {}", reply.body);
    } else {
        assert!(
            code == "invalid_parameter" || code == "invalid_json",
            "{case}: {}",
            reply.body
        );
    }
    assert!(
        reply.detail_keys().iter().any(|k| k == detail),
        "{case}: details lack {detail}: {}",
        reply.body
    );
}

/// A deleted list's id.
fn deleted_list(s: &TestServer) -> String {
    let gone = new_list(s, "Gone");
    s.delete(&format!("/task_lists/{gone}")).expect(204);
    gone
}

// ---------------------------------------------------------------- create

#[test]
fn create_refuses_every_bad_field() {
    let s = TestServer::start();
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
        let reply = s.post("/tasks", json!({ "task": fields }));
        refused(reply, status, detail, &fields);
    }
    s.post("/tasks", json!({"task": []}))
        .expect_error(400, "invalid_json", None);
    s.post("/tasks", json!({"task": "x"}))
        .expect_error(400, "invalid_json", None);
    assert!(all(&s, "/tasks").is_empty(), "nothing was saved");
}

#[test]
fn create_accepts_the_limits_and_the_empty_values() {
    let s = TestServer::start();
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
    let s = TestServer::start();
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
    let s = TestServer::start();
    for path in [
        format!("/tasks/{UNKNOWN}"),
        "/tasks/not-an-id".to_owned(),
        "/tasks/01arz3ndektsv4rrffq69g5fav-x".to_owned(),
    ] {
        s.get(&path).expect_error(404, "not_found", None);
        patch_task(
            &s,
            path.trim_start_matches("/tasks/"),
            json!({"title": "x"}),
        )
        .expect_error(404, "not_found", None);
        s.delete(&path).expect_error(404, "not_found", None);
        send(s.req("POST", &format!("{path}/restoration"))).expect_error(404, "not_found", None);
    }
}

#[test]
fn descriptions_are_sanitised_and_cleared() {
    let s = TestServer::start();
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

/// Spec: a home is "ULID or null", and "a value that is not an id ... is
/// 422"; docs/api.md lets an empty string stand for null only for dates.
#[test]
fn an_empty_string_is_not_a_home_id() {
    let s = TestServer::start();
    let list = new_list(&s, "Home");
    for field in ["task_list_id", "person_id", "project_id"] {
        let fields = json!({"title": "x", field: ""});
        refused(
            s.post("/tasks", json!({ "task": fields })),
            422,
            field,
            &fields,
        );
    }
    assert!(all(&s, "/tasks").is_empty(), "nothing was saved");
    let t = new_task(&s, json!({"title": "t", "task_list_id": list}));
    let fields = json!({"task_list_id": ""});
    refused(
        patch_task(&s, &id(&t), fields.clone()),
        422,
        "task_list_id",
        &fields,
    );
    assert_eq!(get_task(&s, &id(&t)), t, "still in its list");
}

// ---------------------------------------------------------------- change

#[test]
fn change_refuses_every_bad_field_and_changes_nothing() {
    let s = TestServer::start();
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
        let reply = patch_task(&s, &tid, fields.clone());
        refused(reply, status, detail, &fields);
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
    let s = TestServer::start();
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

// ---------------------------------------------------------------- placement

#[test]
fn a_new_task_goes_on_top_without_touching_the_others() {
    let s = TestServer::start();
    let list = new_list(&s, "Home");
    let first = new_task(&s, json!({"title": "first", "task_list_id": list}));
    s.advance(10);
    let second = new_task(&s, json!({"title": "second", "task_list_id": list}));
    s.advance(10);
    let third = new_task(&s, json!({"title": "third", "task_list_id": list}));
    assert_eq!(
        (
            first["position"].as_i64(),
            second["position"].as_i64(),
            third["position"].as_i64()
        ),
        (Some(1), Some(0), Some(-1)),
        "one less than the first task's"
    );
    assert_eq!(get_task(&s, &id(&first)), first, "untouched");
    assert_eq!(get_task(&s, &id(&second)), second, "untouched");
    assert_eq!(
        titles(&s, &format!("/tasks?task_list_id={list}")),
        ["third", "second", "first"]
    );
    // The Inbox is a home of its own.
    assert_eq!(new_task(&s, json!({"title": "inbox"}))["position"], 1);
}

#[test]
fn a_new_closed_task_goes_to_the_bottom() {
    let s = TestServer::start();
    let a = new_task(&s, json!({"title": "a"}));
    let b = new_task(&s, json!({"title": "b"}));
    for status in ["completed", "archived", "wont_do"] {
        let closed = new_task(&s, json!({"title": status, "status": status}));
        assert!(
            closed["position"].as_i64() > a["position"].as_i64()
                && closed["position"].as_i64() > b["position"].as_i64(),
            "{closed}"
        );
    }
    assert_eq!(get_task(&s, &id(&a)), a);
    assert_eq!(get_task(&s, &id(&b)), b);
    // An open task made after them still goes on top.
    let top = new_task(&s, json!({"title": "top"}));
    assert_eq!(
        top["position"].as_i64(),
        Some(b["position"].as_i64().unwrap() - 1)
    );
}

#[test]
fn position_renumbers_the_home_and_only_the_moved_get_a_new_updated_at() {
    let s = TestServer::start();
    let list = new_list(&s, "Home");
    let path = format!("/tasks?task_list_id={list}");
    for title in ["d", "c", "b", "a"] {
        new_task(&s, json!({"title": title, "task_list_id": list}));
    }
    // Positions -2..1; sending a position renumbers 1..n.
    let tasks = all(&s, &path);
    let by_title = |title: &str| -> Value {
        all(&s, &path)
            .into_iter()
            .find(|t| t["title"] == title)
            .unwrap()
    };
    s.advance(30);
    let moved = patch_task(&s, &id(&tasks[0]), json!({"position": 1})).expect(200);
    assert_eq!(moved.data()["position"], 1);
    let positions: Vec<(String, i64)> = all(&s, &path)
        .iter()
        .map(|t| {
            (
                t["title"].as_str().unwrap().to_owned(),
                t["position"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        positions,
        [
            ("a".into(), 1),
            ("b".into(), 2),
            ("c".into(), 3),
            ("d".into(), 4)
        ]
    );
    assert_eq!(
        moved.data()["updated_at"],
        "2026-03-10T09:00:30.000Z",
        "from -2 to 1"
    );
    for t in ["b", "c", "d"] {
        assert_eq!(by_title(t)["updated_at"], "2026-03-10T09:00:30.000Z", "{t}");
    }

    // Moving d to second: a keeps its position and updated_at.
    s.advance(30);
    let a_before = by_title("a");
    let d = patch_task(&s, &id(&by_title("d")), json!({"position": 2})).expect(200);
    assert_eq!(d.data()["position"], 2);
    assert_eq!(d.data()["updated_at"], "2026-03-10T09:01:00.000Z");
    assert_eq!(titles(&s, &path), ["a", "d", "b", "c"]);
    assert_eq!(by_title("a"), a_before, "not moved, not touched");
    for (t, p) in [("b", 3), ("c", 4)] {
        let task = by_title(t);
        assert_eq!(task["position"], p);
        assert_eq!(task["updated_at"], "2026-03-10T09:01:00.000Z", "{t}");
    }

    // Out of range is clamped.
    s.advance(30);
    let last = patch_task(&s, &id(&by_title("a")), json!({"position": 99})).expect(200);
    assert_eq!(last.data()["position"], 4);
    assert_eq!(titles(&s, &path), ["d", "b", "c", "a"]);
    let first = patch_task(&s, &id(&by_title("c")), json!({"position": -5})).expect(200);
    assert_eq!(first.data()["position"], 1);
    assert_eq!(titles(&s, &path), ["c", "d", "b", "a"]);

    // A new task with a position: placed there, only those after it move.
    s.advance(30);
    let c_before = by_title("c");
    let made = new_task(
        &s,
        json!({"title": "new", "task_list_id": list, "position": 2}),
    );
    assert_eq!(made["position"], 2);
    assert_eq!(titles(&s, &path), ["c", "new", "d", "b", "a"]);
    assert_eq!(by_title("c"), c_before);
    assert_eq!(by_title("a")["position"], 5);
    assert_eq!(by_title("a")["updated_at"], "2026-03-10T09:02:00.000Z");
    // Clamped on create too.
    let bottom = new_task(
        &s,
        json!({"title": "bottom", "task_list_id": list, "position": 50}),
    );
    assert_eq!(bottom["position"], 6);
}

#[test]
fn moving_to_another_home_puts_the_task_at_the_bottom() {
    let s = TestServer::start();
    let home = new_list(&s, "Home");
    let work = new_list(&s, "Work");
    let w1 = new_task(&s, json!({"title": "w1", "task_list_id": work}));
    let w2 = new_task(&s, json!({"title": "w2", "task_list_id": work}));
    let task = new_task(&s, json!({"title": "mover", "task_list_id": home}));
    s.advance(5);
    let moved = patch_task(&s, &id(&task), json!({"task_list_id": work})).expect(200);
    assert_eq!(moved.data()["task_list_id"], work.as_str());
    assert_eq!(
        moved.data()["position"],
        w1["position"].as_i64().unwrap() + 1
    );
    assert_eq!(
        titles(&s, &format!("/tasks?task_list_id={work}")),
        ["w2", "w1", "mover"]
    );
    assert_eq!(get_task(&s, &id(&w1)), w1, "the others are untouched");
    assert_eq!(get_task(&s, &id(&w2)), w2);
    assert!(all(&s, &format!("/tasks?task_list_id={home}")).is_empty());

    // With a position it goes there.
    let again = patch_task(&s, &id(&task), json!({"task_list_id": home})).expect(200);
    assert_eq!(again.data()["position"], 1, "the bottom of an empty home");
    let placed =
        patch_task(&s, &id(&task), json!({"task_list_id": work, "position": 1})).expect(200);
    assert_eq!(placed.data()["position"], 1);
    assert_eq!(
        titles(&s, &format!("/tasks?task_list_id={work}")),
        ["mover", "w2", "w1"]
    );

    // A null for another home's field changes nothing; clearing its own
    // home's field moves it to the Inbox.
    let before = get_task(&s, &id(&task));
    s.advance(5);
    let same = patch_task(
        &s,
        &id(&task),
        json!({"person_id": null, "project_id": null}),
    )
    .expect(200);
    assert_eq!(same.data(), &before);
    let inbox = patch_task(&s, &id(&task), json!({"task_list_id": null})).expect(200);
    assert_eq!(inbox.data()["task_list_id"], Value::Null);
    assert_eq!(titles(&s, "/tasks?inbox=true"), ["mover"]);
    // Sending one home id clears the others (from the Inbox to a list).
    let back = patch_task(
        &s,
        &id(&task),
        json!({"task_list_id": home, "person_id": null}),
    )
    .expect(200);
    assert_eq!(back.data()["task_list_id"], home.as_str());
    assert_eq!(back.data()["person_id"], Value::Null);
}

// ---------------------------------------------------------------- status

#[test]
fn status_transitions() {
    let s = TestServer::start();
    let statuses = ["open", "completed", "wont_do", "archived"];
    for from in statuses {
        for to in statuses {
            let made = new_task(&s, json!({"title": "t", "status": from}));
            s.advance(60);
            let now = now_string(&s);
            let changed = patch_task(&s, &id(&made), json!({ "status": to })).expect(200);
            let d = changed.data();
            let case = format!("{from} -> {to}: {d}");
            assert_eq!(d["status"], to, "{case}");
            if from == to {
                assert_eq!(d, &made, "no change: {case}");
                continue;
            }
            assert_eq!(d["updated_at"], now.as_str(), "{case}");
            assert_eq!(d["expired"], false, "{case}");
            match to {
                "completed" | "wont_do" => {
                    assert_eq!(d["completed_at"], now.as_str(), "{case}");
                    assert_eq!(d["archived_at"], Value::Null, "{case}");
                }
                "archived" => {
                    assert_eq!(d["archived_at"], now.as_str(), "{case}");
                    assert_eq!(d["completed_at"], Value::Null, "{case}");
                }
                _ => {
                    assert_eq!(d["completed_at"], Value::Null, "{case}");
                    assert_eq!(d["archived_at"], Value::Null, "{case}");
                }
            }
        }
    }
    // A new closed task has its timestamp from the start.
    let done = new_task(&s, json!({"title": "done", "status": "completed"}));
    assert_eq!(done["completed_at"], done["created_at"]);
    let put_away = new_task(&s, json!({"title": "away", "status": "archived"}));
    assert_eq!(put_away["archived_at"], put_away["created_at"]);
}

#[test]
fn a_change_that_changes_nothing_keeps_updated_at() {
    let s = TestServer::start();
    let list = new_list(&s, "Home");
    let t = new_task(
        &s,
        json!({"title": "Same", "task_list_id": list, "start_on": "2026-03-12"}),
    );
    s.advance(60);
    for fields in [
        json!({}),
        json!({"title": "  Same "}),
        json!({"status": "open"}),
        json!({"start_on": "2026-03-12", "task_list_id": list}),
        json!({"position": 1}),
    ] {
        let same = patch_task(&s, &id(&t), fields.clone()).expect(200);
        assert_eq!(same.data(), &t, "{fields}");
    }
}

#[test]
fn reopening_clears_an_expiry_that_has_passed() {
    let s = TestServer::start();
    let done = new_task(
        &s,
        json!({"title": "done", "expires_on": "2026-03-10", "status": "completed"}),
    );
    let keeps = new_task(
        &s,
        json!({"title": "keeps", "expires_on": "2026-03-20", "status": "completed"}),
    );
    s.advance(2 * 86400);
    let reopened = patch_task(&s, &id(&done), json!({"status": "open"})).expect(200);
    assert_eq!(reopened.data()["status"], "open");
    assert_eq!(reopened.data()["expires_on"], Value::Null);
    let kept = patch_task(&s, &id(&keeps), json!({"status": "open"})).expect(200);
    assert_eq!(kept.data()["expires_on"], "2026-03-20", "not passed: kept");
    // An open task archived by expiry comes back open without the expiry.
    let expiring = new_task(&s, json!({"title": "exp", "expires_on": "2026-03-12"}));
    s.advance(86400);
    let archived = get_task(&s, &id(&expiring));
    assert_eq!(
        (archived["status"].as_str(), archived["expired"].as_bool()),
        (Some("archived"), Some(true))
    );
    let back = patch_task(&s, &id(&expiring), json!({"status": "open"})).expect(200);
    let d = back.data();
    assert_eq!(d["status"], "open");
    assert_eq!(d["expires_on"], Value::Null);
    assert_eq!(d["expired"], false);
    assert_eq!(d["archived_at"], Value::Null);
}

#[test]
fn an_expired_task_is_archived_at_midnight_in_the_owners_zone() {
    let s = TestServer::start();
    set_zone(&s, "Tokyo");
    // 09:00Z is 18:00 on 2026-03-10 in Tokyo.
    let expiring = new_task(&s, json!({"title": "expiring", "expires_on": "2026-03-10"}));
    let later = new_task(&s, json!({"title": "later", "expires_on": "2026-03-11"}));
    let done = new_task(
        &s,
        json!({"title": "done", "expires_on": "2026-03-10", "status": "completed"}),
    );
    // 14:59:59Z is 23:59:59 in Tokyo: still open through its expiry day.
    s.advance(6 * 3600 - 1);
    assert_eq!(get_task(&s, &id(&expiring))["status"], "open");
    assert_eq!(s.get("/task_counts").data()["inbox"], 2);
    // Well after midnight in Tokyo: archived as of that midnight.
    s.advance(2 * 3600 + 1);
    let count = s.get("/task_counts").expect(200);
    assert_eq!(count.data()["inbox"], 1, "counts archive first");
    let t = get_task(&s, &id(&expiring));
    assert_eq!(t["status"], "archived");
    assert_eq!(t["archived_at"], "2026-03-10T15:00:00.000Z");
    assert_eq!(t["completed_at"], Value::Null);
    assert_eq!(t["expired"], true);
    assert_eq!(t["expires_on"], "2026-03-10");
    assert_eq!(get_task(&s, &id(&later))["status"], "open");
    assert_eq!(
        get_task(&s, &id(&done))["status"],
        "completed",
        "only open tasks expire"
    );
    assert_eq!(titles(&s, "/tasks?status=open"), ["later"]);
    assert_eq!(titles(&s, "/tasks?view=logbook"), ["expiring", "done"]);
    assert_eq!(
        s.get("/task_counts?inbox=true").data()["page"]["expired"],
        1
    );
    // The listing archives too, without a read of the task first.
    s.clock.set("2026-03-12T00:00:00Z".parse().unwrap());
    assert!(titles(&s, "/tasks?status=open").is_empty());
    let l = get_task(&s, &id(&later));
    assert_eq!(l["archived_at"], "2026-03-11T15:00:00.000Z");
}

// ---------------------------------------------------------------- delete and restore

#[test]
fn a_deleted_task_is_gone_and_can_be_restored_within_20_seconds() {
    let s = TestServer::start();
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
    let s = TestServer::start();
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
    let s = TestServer::with(Setup {
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

// ---------------------------------------------------------------- GET /tasks

#[test]
fn every_view_lists_its_tasks_in_its_default_order() {
    let s = TestServer::start();
    let f = fixture(&s);
    let overview = [
        "inbox plain",
        "inbox starts today",
        "inbox due later",
        "inbox planned",
        "a overdue",
        "a due today",
        "a due in 14",
        "a started due soon",
        "a starts tomorrow due soon",
        "b overdue started",
    ];
    assert_eq!(titles(&s, "/tasks?view=overview"), f.by_position(&overview));
    let today = [
        "inbox starts today",
        "a started",
        "a started due soon",
        "b overdue started",
    ];
    assert_eq!(titles(&s, "/tasks?view=today"), f.by_position(&today));
    assert_eq!(
        titles(&s, "/tasks?view=planned"),
        [
            "a starts tomorrow due soon",
            "a planned soon",
            "a planned late"
        ],
        "by start_on"
    );
    let one_day = [
        "a plain",
        "a overdue",
        "a due today",
        "a due in 14",
        "a due in 15",
        "b plain",
    ];
    assert_eq!(titles(&s, "/tasks?view=one_day"), f.by_position(&one_day));
    assert_eq!(
        titles(&s, "/tasks?view=due_soon"),
        [
            "a overdue",
            "b overdue started",
            "a due today",
            "a started due soon",
            "a starts tomorrow due soon",
            "a due in 14"
        ],
        "by deadline_on, ties by id"
    );
    assert_eq!(
        titles(&s, "/tasks?view=due_not_today"),
        [
            "a overdue",
            "a due today",
            "a starts tomorrow due soon",
            "a due in 14"
        ]
    );
    assert_eq!(
        titles(&s, "/tasks?view=today_queue"),
        [
            "a overdue",
            "b overdue started",
            "a due today",
            "a started due soon",
            "inbox starts today",
            "a started"
        ],
        "by deadline_on, undated last"
    );
    assert_eq!(
        titles(&s, "/tasks?view=logbook"),
        ["b completed", "a wont do", "a archived", "inbox done"],
        "newest closed first"
    );
    // The expected orders above agree with the helpers.
    assert_eq!(
        titles(&s, "/tasks?view=due_soon"),
        f.by_deadline(&[
            "a overdue",
            "b overdue started",
            "a due today",
            "a started due soon",
            "a starts tomorrow due soon",
            "a due in 14"
        ])
    );
    // Every open task is in the view's listing only while open.
    for t in titles(&s, "/tasks?view=overview") {
        assert!(OPEN.contains(&t.as_str()), "{t}");
    }
}

#[test]
fn views_move_with_today() {
    let s = TestServer::start();
    fixture(&s);
    // A day later: "a starts tomorrow due soon" has started, "a due in 15" is due in 14.
    s.advance(86400);
    let today = titles(&s, "/tasks?view=today");
    assert!(
        today.contains(&"a starts tomorrow due soon".to_owned()),
        "{today:?}"
    );
    assert_eq!(
        titles(&s, "/tasks?view=planned"),
        ["a planned soon", "a planned late"]
    );
    assert!(titles(&s, "/tasks?view=due_soon").contains(&"a due in 15".to_owned()));
    assert_eq!(s.get("/task_counts?view=today").data()["page"]["open"], 5);
}

#[test]
fn views_combine_with_one_home() {
    let s = TestServer::start();
    let f = fixture(&s);
    assert_eq!(
        titles(&s, &format!("/tasks?view=today&task_list_id={}", f.list_a)),
        f.by_position(&["a started", "a started due soon"])
    );
    assert_eq!(
        titles(&s, "/tasks?view=overview&inbox=true"),
        f.by_position(&[
            "inbox plain",
            "inbox starts today",
            "inbox due later",
            "inbox planned"
        ])
    );
    assert!(titles(&s, "/tasks?view=planned&inbox=true").is_empty());
    assert_eq!(
        titles(
            &s,
            &format!("/tasks?view=logbook&task_list_id={}", f.list_b)
        ),
        ["b completed"]
    );
    assert_eq!(
        titles(
            &s,
            &format!("/tasks?view=due_soon&task_list_id={}", f.list_b)
        ),
        ["b overdue started"]
    );
}

#[test]
fn filters_by_status_and_home() {
    let s = TestServer::start();
    let f = fixture(&s);
    // Without view or status every status is listed, in position order.
    let everything = all(&s, "/tasks");
    assert_eq!(everything.len(), FIXTURE.len());
    let mut sorted = everything.clone();
    sorted.sort_by_key(|t| (t["position"].as_i64().unwrap(), id(t)));
    assert_eq!(everything, sorted);
    assert_eq!(all(&s, "/tasks?status=open").len(), OPEN.len());
    let mut closed = titles(&s, "/tasks?status=completed,archived,wont_do");
    closed.sort();
    assert_eq!(
        closed,
        ["a archived", "a wont do", "b completed", "inbox done"]
    );
    let mut two = titles(&s, "/tasks?status=completed,archived");
    two.sort();
    assert_eq!(two, ["a archived", "b completed", "inbox done"]);
    assert_eq!(
        titles(&s, "/tasks?status=completed&order=completed_at"),
        ["inbox done", "b completed"]
    );
    assert_eq!(
        titles(
            &s,
            "/tasks?status=completed&order=completed_at&direction=desc"
        ),
        ["b completed", "inbox done"]
    );
    // Homes.
    let inbox = titles(&s, "/tasks?inbox=true&status=open");
    assert_eq!(
        inbox,
        f.by_position(&[
            "inbox plain",
            "inbox starts today",
            "inbox due later",
            "inbox planned"
        ])
    );
    assert_eq!(
        all(&s, &format!("/tasks?task_list_id={}", f.list_a)).len(),
        12
    );
    assert_eq!(
        titles(
            &s,
            &format!("/tasks?task_list_id={}&status=completed", f.list_b)
        ),
        ["b completed"]
    );
    // An unknown list, person or project gives an empty page.
    for home in ["task_list_id", "person_id", "project_id"] {
        let page = s.get(&format!("/tasks?{home}={UNKNOWN}")).expect(200);
        assert_eq!(page.data(), &json!([]), "{home}");
        assert_eq!(page.body["meta"]["next_cursor"], Value::Null);
    }
    // So does a deleted one.
    s.delete(&format!("/task_lists/{}", f.list_b)).expect(204);
    assert!(all(&s, &format!("/tasks?task_list_id={}", f.list_b)).is_empty());
    assert_eq!(
        all(&s, "/tasks").len(),
        FIXTURE.len() - 3,
        "its tasks are gone"
    );
    assert!(!titles(&s, "/tasks?view=today").contains(&"b overdue started".to_owned()));
}

#[test]
fn orders_and_directions() {
    let s = TestServer::start();
    let f = fixture(&s);
    let path = format!("/tasks?task_list_id={}", f.list_b);
    let creation = ["b plain", "b overdue started", "b completed"];
    assert_eq!(titles(&s, &format!("{path}&order=created_at")), creation);
    assert_eq!(titles(&s, &format!("{path}&order=id")), creation);
    assert_eq!(
        titles(&s, &format!("{path}&order=id&direction=desc")),
        ["b completed", "b overdue started", "b plain"]
    );
    // Position, by default: the open tasks on top-first, the closed one at the bottom.
    assert_eq!(
        titles(&s, &path),
        ["b overdue started", "b plain", "b completed"]
    );
    assert_eq!(
        titles(&s, &format!("{path}&direction=desc")),
        ["b completed", "b plain", "b overdue started"]
    );
    s.advance(5);
    patch_task(&s, &id(&f.tasks["b plain"]), json!({"title": "b plain!"})).expect(200);
    assert_eq!(
        titles(&s, &format!("{path}&order=updated_at")),
        ["b overdue started", "b completed", "b plain!"]
    );
    // Logbook: newest first by default, oldest first with asc.
    assert_eq!(
        titles(&s, "/tasks?view=logbook&direction=asc"),
        ["inbox done", "a archived", "a wont do", "b completed"]
    );
    assert_eq!(
        titles(&s, "/tasks?view=logbook&order=closed_at"),
        ["b completed", "a wont do", "a archived", "inbox done"]
    );
    // A descending date order reverses exactly: undated first.
    let queue = titles(&s, "/tasks?view=today_queue&direction=desc");
    assert_eq!(queue[0], "a started");
    assert_eq!(queue[1], "inbox starts today");
    assert_eq!(queue.last().unwrap(), "a overdue");
    assert_eq!(
        titles(&s, "/tasks?view=planned&direction=desc"),
        [
            "a planned late",
            "a planned soon",
            "a starts tomorrow due soon"
        ]
    );
    // A view in another allowed order.
    assert_eq!(
        titles(&s, "/tasks?view=planned&order=position"),
        f.by_position(&[
            "a starts tomorrow due soon",
            "a planned soon",
            "a planned late"
        ])
    );
}

#[test]
fn get_tasks_refuses_bad_parameters() {
    let s = TestServer::start();
    let f = fixture(&s);
    let cursor = s.get("/tasks?limit=1").body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut tampered = cursor.clone().into_bytes();
    let i = tampered.len() / 2;
    tampered[i] = if tampered[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let a = &f.list_a;
    let cases: Vec<(String, Option<&str>)> = vec![
        ("status=open&view=today".into(), Some("status")),
        ("status=completed&view=logbook".into(), Some("status")),
        ("status=done".into(), Some("status")),
        ("status=".into(), Some("status")),
        ("status=open;completed".into(), Some("status")),
        ("status=open,,completed".into(), Some("status")),
        ("status=OPEN".into(), Some("status")),
        ("view=someday".into(), Some("view")),
        ("view=".into(), Some("view")),
        (format!("inbox=true&task_list_id={a}"), None),
        (format!("task_list_id={a}&person_id={UNKNOWN}"), None),
        (format!("person_id={UNKNOWN}&project_id={UNKNOWN}"), None),
        (format!("view=today&inbox=true&task_list_id={a}"), None),
        ("inbox=false".into(), Some("inbox")),
        ("inbox=1".into(), Some("inbox")),
        ("inbox=".into(), Some("inbox")),
        ("task_list_id=nope".into(), Some("task_list_id")),
        ("person_id=123".into(), Some("person_id")),
        ("project_id=x".into(), Some("project_id")),
        ("order=title".into(), Some("order")),
        ("order=start_on".into(), Some("order")),
        ("order=start_on&view=today".into(), Some("order")),
        ("order=deadline_on".into(), Some("order")),
        ("order=deadline_on&view=overview".into(), Some("order")),
        ("order=deadline_on&view=planned".into(), Some("order")),
        ("order=deadline_on&status=open".into(), Some("order")),
        ("order=closed_at".into(), Some("order")),
        ("order=closed_at&view=today".into(), Some("order")),
        ("order=closed_at&status=completed".into(), Some("order")),
        ("order=completed_at".into(), Some("order")),
        (
            "order=completed_at&status=completed,archived".into(),
            Some("order"),
        ),
        ("order=completed_at&status=archived".into(), Some("order")),
        ("order=completed_at&view=logbook".into(), Some("order")),
        ("order=start_on&view=logbook".into(), Some("order")),
        (
            "updated_since=2026-03-10T09:00:00Z&order=position".into(),
            Some("order"),
        ),
        (
            "updated_since=2026-03-10T09:00:00Z&order=id".into(),
            Some("order"),
        ),
        ("updated_since=yesterday".into(), Some("updated_since")),
        ("count=yes".into(), Some("count")),
        ("count=1".into(), Some("count")),
        ("count=TRUE".into(), Some("count")),
        ("direction=up".into(), Some("direction")),
        ("limit=0".into(), Some("limit")),
        ("limit=ten".into(), Some("limit")),
        ("cursor=made-up".into(), Some("cursor")),
        (format!("cursor={tampered}"), Some("cursor")),
        (format!("cursor={cursor}&view=today"), Some("cursor")),
        (format!("cursor={cursor}&direction=desc"), Some("cursor")),
        ("view=today&view=today".into(), Some("view")),
    ];
    for (query, detail) in cases {
        let reply = s.get(&format!("/tasks?{query}"));
        assert_eq!(
            (reply.status, reply.code()),
            (400, "invalid_parameter"),
            "{query}: {}",
            reply.body
        );
        if let Some(key) = detail {
            assert!(
                reply.detail_keys().iter().any(|k| k == key),
                "{query}: details lack {key}: {}",
                reply.body
            );
        }
    }
}

#[test]
fn get_tasks_allows_each_listed_order() {
    let s = TestServer::start();
    let a = new_list(&s, "A");
    let mut allowed: Vec<String> = vec![
        "order=start_on&view=planned".into(),
        "order=deadline_on&view=due_soon".into(),
        "order=deadline_on&view=due_not_today".into(),
        "order=deadline_on&view=today_queue".into(),
        "order=closed_at&view=logbook".into(),
        "order=completed_at&status=completed".into(),
        "updated_since=2026-03-10T09:00:00Z&order=updated_at".into(),
        "updated_since=2026-03-10T10:00:00%2B01:00".into(),
        "count=false".into(),
        "limit=1000".into(),
        format!("view=logbook&task_list_id={a}"),
        "status=open,completed".into(),
    ];
    for view in [
        "overview",
        "today",
        "planned",
        "one_day",
        "due_soon",
        "due_not_today",
        "today_queue",
        "logbook",
    ] {
        for order in ["position", "created_at", "updated_at", "id"] {
            allowed.push(format!("view={view}&order={order}"));
        }
        allowed.push(format!("view={view}&inbox=true"));
    }
    for order in ["position", "created_at", "updated_at", "id"] {
        allowed.push(format!("order={order}&status=open"));
    }
    for query in allowed {
        let reply = s.get(&format!("/tasks?{query}"));
        assert_eq!(reply.status, 200, "{query}: {}", reply.body);
    }
    assert_eq!(s.get("/tasks?limit=1000").body["meta"]["limit"], 100);
}

/// Pages through `path` two at a time, calling `between` after the first
/// page; asserts the keyset promise: the tasks there at the start come
/// once each, in their order, and nothing comes twice.
#[track_caller]
fn pages_hold_steady(s: &TestServer, path: &str, between: impl FnOnce()) {
    let before = ids(s, path);
    assert!(before.len() >= 4, "{path}: a few pages' worth");
    let mut seen: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut between = Some(between);
    let mut pages = 0;
    loop {
        let url = match &cursor {
            None => with_query(path, "limit=2"),
            Some(c) => with_query(path, &format!("limit=2&cursor={c}")),
        };
        let page = s.get(&url).expect(200);
        let items = page.data().as_array().unwrap();
        assert!(items.len() <= 2);
        assert_eq!(page.body["meta"]["limit"], 2);
        seen.extend(items.iter().map(id));
        pages += 1;
        if let Some(f) = between.take() {
            f();
        }
        match page.body["meta"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
        assert!(pages < 50, "{path}: paging ends");
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), seen.len(), "{path}: nothing twice");
    let old: Vec<String> = seen.into_iter().filter(|i| before.contains(i)).collect();
    assert_eq!(old, before, "{path}: every task once, in order");
}

#[test]
fn cursors_page_through_a_view_once_each_even_with_inserts() {
    let s = TestServer::start();
    let f = fixture(&s);
    let b = f.list_b.clone();
    let a = f.list_a.clone();
    // Without inserts the pages are exactly the listing.
    for path in [
        "/tasks".to_owned(),
        "/tasks?view=overview".to_owned(),
        "/tasks?view=due_soon".to_owned(),
        "/tasks?view=logbook".to_owned(),
        "/tasks?view=one_day&order=id&direction=desc".to_owned(),
        format!("/tasks?task_list_id={a}"),
        "/tasks?status=open&order=updated_at".to_owned(),
    ] {
        pages_hold_steady(&s, &path, || {});
    }
    pages_hold_steady(&s, "/tasks?view=overview", || {
        // One on top of the Inbox (before the cursor), one due soon in B.
        new_task(&s, json!({"title": "new top"}));
        new_task(
            &s,
            json!({"title": "new due", "task_list_id": b, "deadline_on": "2026-03-11"}),
        );
    });
    pages_hold_steady(&s, &format!("/tasks?task_list_id={a}"), || {
        new_task(&s, json!({"title": "new a", "task_list_id": a}));
        // A closed task goes to the bottom without renumbering the others.
        new_task(
            &s,
            json!({"title": "new a bottom", "task_list_id": a, "status": "completed"}),
        );
    });
    pages_hold_steady(&s, "/tasks?view=due_soon", || {
        new_task(
            &s,
            json!({"title": "due first", "deadline_on": "2026-03-01"}),
        );
        new_task(
            &s,
            json!({"title": "due last", "deadline_on": "2026-03-23"}),
        );
    });
    pages_hold_steady(&s, "/tasks?view=logbook", || {
        new_task(&s, json!({"title": "closed now", "status": "completed"}));
    });
}

#[test]
fn count_gives_the_size_of_the_filtered_set() {
    let s = TestServer::start();
    let f = fixture(&s);
    let page = s.get("/tasks?view=overview&count=true&limit=3").expect(200);
    assert_eq!(page.data().as_array().unwrap().len(), 3);
    assert_eq!(page.body["meta"]["total_count"], 10);
    assert_eq!(page.body["meta"]["limit"], 3);
    let next = page.body["meta"]["next_cursor"].as_str().unwrap();
    let second = s
        .get(&format!(
            "/tasks?view=overview&count=true&limit=3&cursor={next}"
        ))
        .expect(200);
    assert_eq!(second.body["meta"]["total_count"], 10, "ignores the cursor");
    for (query, expected) in [
        ("", FIXTURE.len()),
        ("status=open", OPEN.len()),
        ("view=logbook", 4),
        ("view=planned", 3),
        ("view=due_soon", 6),
        ("inbox=true", 5),
    ] {
        let reply = s
            .get(&format!("/tasks?{query}&count=true&limit=1"))
            .expect(200);
        assert_eq!(reply.body["meta"]["total_count"], expected, "{query}");
    }
    let without = s.get("/tasks?count=false").expect(200);
    assert!(without.body["meta"].get("total_count").is_none());
    assert!(s.get("/tasks").body["meta"].get("total_count").is_none());
    assert_eq!(
        s.get("/tasks").body["meta"]["limit"],
        50,
        "the default page size"
    );

    // updated_since: only the two changed since, by updated_at.
    s.clock.set("2026-03-10T10:00:00Z".parse().unwrap());
    patch_task(&s, &id(&f.tasks["b plain"]), json!({"title": "b plain 2"})).expect(200);
    s.advance(1);
    patch_task(&s, &id(&f.tasks["a plain"]), json!({"title": "a plain 2"})).expect(200);
    let since = s
        .get("/tasks?updated_since=2026-03-10T10:00:00Z&count=true&limit=1")
        .expect(200);
    assert_eq!(since.body["meta"]["total_count"], 2);
    assert_eq!(since.data()[0]["title"], "b plain 2");
    assert_eq!(
        titles(&s, "/tasks?updated_since=2026-03-10T10:00:00Z"),
        ["b plain 2", "a plain 2"]
    );
    assert_eq!(
        titles(
            &s,
            "/tasks?updated_since=2026-03-10T11:00:00%2B01:00&direction=desc"
        ),
        ["a plain 2", "b plain 2"],
        "an offset, and direction honoured"
    );
    let filtered = s
        .get(&format!(
            "/tasks?updated_since=2026-03-10T10:00:00Z&task_list_id={}&count=true",
            f.list_a
        ))
        .expect(200);
    assert_eq!(filtered.body["meta"]["total_count"], 1);
}

// ---------------------------------------------------------------- idempotency

#[test]
fn a_create_with_an_idempotency_key_replays() {
    let s = TestServer::start();
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
    let s = TestServer::start();
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
    let s = TestServer::start();
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
    let s = TestServer::start();
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

/// The server clock's now, as the API writes it.
pub(crate) fn now_string(s: &TestServer) -> String {
    use organiser::Clock;
    s.clock.now().strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}
