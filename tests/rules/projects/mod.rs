//! Document 2's projects, with the team's decisions
//! (DECISIONS-projects.md), and the helpers their tests share: making,
//! reading and changing projects, putting people on them, and walking a
//! listing a page at a time. The tests:
//!
//! - `fields`: the fields of create and change, the listing, delete and
//!   restore, and tasks homed in a project;
//! - `members`: members, and what a person's delete does to them;
//! - `events`: the events of a project and the 10-minute rule;
//! - `activity`: a project's activity feed;
//! - `deadlines`: `/upcoming_deadlines` and `/project_task_counts`.
//!
//! What serves any record (a person made by name, the deletion records as
//! sorted (type, id) pairs, a record's keys, `with_updated_at`) is in
//! `common::fixtures`.

use serde_json::{Value, json};

use crate::common::fixtures::{all, id};
pub(super) use crate::common::fixtures::{assert_listed, walk_pages};
use crate::common::{Call, Core, Reply, send};

mod activity;
mod deadlines;
mod events;
mod fields;
mod homes;
mod lifecycle;
mod listing;
mod members;

/// `POST /projects` with `{project: fields}`.
fn post_project(s: &Core, fields: Value) -> Reply {
    s.post("/projects", json!({ "project": fields }))
}

/// Creates a project from `fields`; the record.
#[track_caller]
fn new_project(s: &Core, fields: Value) -> Value {
    post_project(s, fields).expect(201).data().clone()
}

/// Creates a project from `fields`; its id.
#[track_caller]
fn project_with(s: &Core, fields: Value) -> String {
    id(&new_project(s, fields))
}

/// Creates a project named `name`; its id.
#[track_caller]
fn project(s: &Core, name: &str) -> String {
    project_with(s, json!({ "name": name }))
}

/// `GET /projects/{id}`, which must be 200; the record.
#[track_caller]
fn get_project(s: &Core, project: &str) -> Value {
    s.get(&format!("/projects/{project}"))
        .expect(200)
        .data()
        .clone()
}

/// `PATCH /projects/{id}` with `{project: fields}`.
fn patch_project(s: &Core, project: &str, fields: Value) -> Reply {
    s.patch(
        &format!("/projects/{project}"),
        json!({ "project": fields }),
    )
}

/// Changes the project's fields, which must be 200.
#[track_caller]
fn set(s: &Core, project: &str, fields: Value) {
    patch_project(s, project, fields).expect(200);
}

/// Puts `person` on `project` with `role` (null for none); the member
/// record.
#[track_caller]
fn add_member(s: &Core, project: &str, person: &str, role: Value) -> Value {
    s.post(
        "/project_members",
        json!({"project_member": {"project_id": project, "person_id": person, "role": role}}),
    )
    .expect(201)
    .data()
    .clone()
}

// ---------------------------------------------------------------- shared by the project files

/// `POST /projects/{id}/restoration`.
pub(super) fn restore(s: &Core, project: &str) -> Reply {
    send(s.req("POST", &format!("/projects/{project}/restoration")))
}

/// `POST /projects` with `{project: fields}`, as a table's case.
pub(super) fn create(fields: Value) -> Call {
    Call::post("/projects", json!({ "project": fields }))
}

/// `PATCH /projects/{id}` with `{project: fields}`, as a table's case.
pub(super) fn change(project: &str, fields: Value) -> Call {
    Call::patch(format!("/projects/{project}"), json!({ "project": fields }))
}

/// The names of a listing of projects, in order.
#[track_caller]
pub(super) fn names(s: &Core, path: &str) -> Vec<String> {
    all(s, path)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Pages through `path` one item at a time with `count=true`: every page
/// holds one item, says `limit` 1 and the whole count, and only the last
/// has no `next_cursor`. The ids, in order.
#[track_caller]
pub(super) fn ids_one_by_one(s: &Core, path: &str) -> Vec<String> {
    let total = all(s, path).len();
    let mut ids = Vec::new();
    walk_pages(s, path, "limit=1&count=true", |url, page| {
        let items = page.data().as_array().expect("a list");
        assert_eq!(items.len(), 1, "{url}: {}", page.body);
        assert_eq!(page.body["meta"]["limit"], 1, "{url}");
        assert_eq!(page.body["meta"]["total_count"], total, "{url}");
        ids.push(id(&items[0]));
        if page.body["meta"]["next_cursor"].is_string() {
            assert!(ids.len() < total, "{url}: a cursor after the last item");
        } else {
            assert_eq!(ids.len(), total, "{url}: stopped early");
        }
    });
    ids
}

/// What a listing order sorts a record by (ties by id).
pub(super) type SortKey = fn(&Value) -> String;

/// The keys of a Project (DECISIONS, "Project JSON").
pub(super) const PROJECT_KEYS: &[&str] = &[
    "created_at",
    "deadline",
    "description_html",
    "description_text",
    "external_reference",
    "external_url",
    "id",
    "members",
    "my_role",
    "name",
    "start_date",
    "status",
    "status_changed_at",
    "updated_at",
];
