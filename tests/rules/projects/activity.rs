//! Document 2, "Activity entry" and Projects rule 6
//! (`GET /projects/{id}/activity`), with the team's decisions
//! (DECISIONS-projects.md, "Activity"): one feed newest first of the
//! project's events, its completed tasks (at `completed_at`, gone when
//! reopened) and its creation; ties ordered events, tasks, created, then
//! id descending; keyset pages; 404 for a project that is not live; 400
//! for a bad `limit` or `cursor`.

use serde_json::{Value, json};

use super::{add_member, get_project, project, set, walk_pages};
use crate::common::fixtures::{
    UNKNOWN, all, get_task, id, keys, new_task, now_string, patch_task, person,
};
use crate::common::{Call, Core, Expect, check, send};

/// The last event listed for `project`.
#[track_caller]
fn last_event(s: &Core, project: &str) -> Value {
    all(s, &format!("/project_events?project_id={project}"))
        .pop()
        .expect("an event")
}

/// A completed task homed in `project`; the record.
#[track_caller]
fn completed_task(s: &Core, project: &str, title: &str) -> Value {
    new_task(
        s,
        json!({"title": title, "project_id": project, "status": "completed"}),
    )
}

/// The whole feed of `project`, following `next_cursor`.
#[track_caller]
fn feed(s: &Core, project: &str) -> Vec<Value> {
    all(s, &format!("/projects/{project}/activity"))
}

/// An entry as (kind, the id of its record, at).
fn entry(e: &Value) -> (String, String, String) {
    let kind = e["kind"].as_str().expect("a kind");
    let record = match kind {
        "event" => &e["event"],
        "task" => &e["task"],
        "created" => &e["project"],
        other => panic!("an entry of kind {other}: {e}"),
    };
    (
        kind.to_owned(),
        id(record),
        e["at"].as_str().expect("an at").to_owned(),
    )
}

/// The feed of `project` as [`entry`]s.
#[track_caller]
fn entries(s: &Core, project: &str) -> Vec<(String, String, String)> {
    feed(s, project).iter().map(entry).collect()
}

/// An event's entry, as [`entry`] gives it.
fn of_event(event: &Value) -> (String, String, String) {
    (
        "event".to_owned(),
        id(event),
        event["created_at"].as_str().unwrap().to_owned(),
    )
}

/// A completed task's entry, as [`entry`] gives it.
fn of_task(task: &Value) -> (String, String, String) {
    (
        "task".to_owned(),
        id(task),
        task["completed_at"].as_str().unwrap().to_owned(),
    )
}

/// The creation's entry, as [`entry`] gives it.
fn of_creation(project: &Value) -> (String, String, String) {
    (
        "created".to_owned(),
        id(project),
        project["created_at"].as_str().unwrap().to_owned(),
    )
}

/// DECISIONS, "Activity": a new project's feed is its creation alone,
/// `{kind: "created", at, project}`, with `meta` `next_cursor` and `limit`
/// (50 by default).
#[test]
fn a_new_projects_feed_is_its_creation() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let page = s.get(&format!("/projects/{p}/activity")).expect(200);
    let project = get_project(&s, &p);
    assert_eq!(
        page.data(),
        &json!([{"kind": "created", "at": project["created_at"], "project": project}])
    );
    assert_eq!(page.body["meta"]["limit"], 50);
    assert_eq!(page.body["meta"]["next_cursor"], Value::Null);
}

/// Rule 6: newest first; events at their `created_at`, completed live
/// tasks at `completed_at` (open, won't-do and archived tasks and other
/// homes' tasks are not in it), the creation last; reopening, deleting or
/// moving a task takes it out; completing it again puts it at its new time.
#[test]
fn the_feed_is_newest_first() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let created = get_project(&s, &p);
    let other = project(&s, "Other");
    let ada = person(&s, "Ada");
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let held = last_event(&s, &p);
    s.advance(60);
    let one = completed_task(&s, &p, "one");
    s.advance(60);
    add_member(&s, &p, &ada, Value::Null);
    let added = last_event(&s, &p);
    s.advance(60);
    let two = new_task(&s, json!({"title": "two", "project_id": p}));
    new_task(&s, json!({"title": "open", "project_id": p}));
    new_task(
        &s,
        json!({"title": "dropped", "project_id": p, "status": "wont_do"}),
    );
    new_task(
        &s,
        json!({"title": "shelved", "project_id": p, "status": "archived"}),
    );
    completed_task(&s, &other, "elsewhere");
    new_task(&s, json!({"title": "inbox", "status": "completed"}));
    s.advance(60);
    let two = patch_task(&s, &id(&two), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(
        entries(&s, &p),
        [
            of_task(&two),
            of_event(&added),
            of_task(&one),
            of_event(&held),
            of_creation(&created),
        ]
    );
    // Each entry carries its record as the API gives it.
    let listed = feed(&s, &p);
    assert_eq!(keys(&listed[0]), ["at", "kind", "task"]);
    assert_eq!(listed[0]["task"], get_task(&s, &id(&two)));
    assert_eq!(keys(&listed[1]), ["at", "event", "kind"]);
    assert_eq!(listed[1]["event"], added);
    assert_eq!(keys(&listed[4]), ["at", "kind", "project"]);
    assert_eq!(listed[4]["project"], get_project(&s, &p));

    // Reopened: gone. Completed again: at its new time.
    s.advance(60);
    patch_task(&s, &id(&one), json!({"status": "open"})).expect(200);
    assert!(!entries(&s, &p).iter().any(|e| e.1 == id(&one)));
    s.advance(60);
    let one = patch_task(&s, &id(&one), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    assert_eq!(entries(&s, &p)[0], of_task(&one));
    // Deleted, or moved out of the project: gone.
    s.delete(&format!("/tasks/{}", id(&two))).expect(204);
    patch_task(&s, &id(&one), json!({"project_id": other})).expect(200);
    assert_eq!(
        entries(&s, &p),
        [of_event(&added), of_event(&held), of_creation(&created)]
    );
}

/// Rule 6 and DECISIONS: entries at the same instant are ordered events,
/// tasks, created; two of the same kind at the same instant by id,
/// descending.
#[test]
fn entries_at_the_same_instant_are_events_then_tasks_then_created() {
    let s = Core::start();
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    // All in the project's first instant.
    let p = project(&s, "Launch");
    let created = get_project(&s, &p);
    add_member(&s, &p, &ada, Value::Null);
    let ada_added = last_event(&s, &p);
    let first = completed_task(&s, &p, "first");
    add_member(&s, &p, &bob, Value::Null);
    let bob_added = last_event(&s, &p);
    let second = completed_task(&s, &p, "second");
    assert!(id(&ada_added) < id(&bob_added) && id(&first) < id(&second));
    assert_eq!(
        entries(&s, &p),
        [
            of_event(&bob_added),
            of_event(&ada_added),
            of_task(&second),
            of_task(&first),
            of_creation(&created),
        ]
    );
    // A task completed before an event in the same instant still comes after it.
    s.advance(60);
    let third = completed_task(&s, &p, "third");
    set(&s, &p, json!({"status": "done"}));
    let done = last_event(&s, &p);
    assert_eq!(entries(&s, &p)[..2], [of_event(&done), of_task(&third)]);
}

/// DECISIONS, "Activity": `limit=1` pages walk the whole feed, ties
/// included, each page one entry, the last with no `next_cursor`; other
/// page sizes give the same feed; `limit` over 100 is 100.
#[test]
fn pages_of_one_walk_the_whole_feed() {
    let s = Core::start();
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let p = project(&s, "Launch");
    add_member(&s, &p, &ada, Value::Null);
    completed_task(&s, &p, "a");
    completed_task(&s, &p, "b");
    s.advance(60);
    add_member(&s, &p, &bob, Value::Null);
    completed_task(&s, &p, "c");
    set(&s, &p, json!({"status": "on_hold"}));
    s.advance(60);
    completed_task(&s, &p, "d");
    let whole = feed(&s, &p);
    assert_eq!(whole.len(), 8);
    for limit in [1, 2, 3] {
        let mut seen: Vec<Value> = Vec::new();
        let path = format!("/projects/{p}/activity");
        walk_pages(&s, &path, &format!("limit={limit}"), |url, page| {
            assert_eq!(page.body["meta"]["limit"], limit, "{url}");
            let items = page.data().as_array().unwrap();
            seen.extend(items.iter().cloned());
            if page.body["meta"]["next_cursor"].is_string() {
                assert_eq!(items.len(), limit, "{url}: a full page");
                assert!(seen.len() < whole.len(), "{url}: a cursor after the end");
            }
        });
        assert_eq!(seen, whole, "limit={limit}");
    }
    let page = s
        .get(&format!("/projects/{p}/activity?limit=500"))
        .expect(200);
    assert_eq!(page.body["meta"]["limit"], 100);
    assert_eq!(page.data().as_array().unwrap().len(), 8);
}

/// Rule 6: an unknown or deleted project is 404, and so is a non-ID; a
/// restored project has its feed again.
#[test]
fn an_unknown_or_deleted_project_is_404() {
    let s = Core::start();
    let p = project(&s, "Launch");
    completed_task(&s, &p, "done");
    let before: Vec<(String, String)> = entries(&s, &p)
        .into_iter()
        .map(|(kind, id, _)| (kind, id))
        .collect();
    s.delete(&format!("/projects/{p}")).expect(204);
    for path in [
        format!("/projects/{UNKNOWN}/activity"),
        "/projects/nope/activity".to_owned(),
        format!("/projects/{p}/activity"),
    ] {
        check(&s, Call::get(path), Expect::error(404, "not_found", None));
    }
    s.advance(5);
    send(s.req("POST", &format!("/projects/{p}/restoration"))).expect(200);
    let after: Vec<(String, String)> = entries(&s, &p)
        .into_iter()
        .map(|(kind, id, _)| (kind, id))
        .collect();
    assert_eq!(after, before);
}

/// DECISIONS, "Activity": `limit` 0, negative or not a whole number, and a
/// cursor this feed did not make, are 400 on their name.
#[test]
fn a_bad_limit_or_cursor_is_400() {
    let s = Core::start();
    let p = project(&s, "Launch");
    for (query, detail) in [
        ("limit=0", "limit"),
        ("limit=-1", "limit"),
        ("limit=x", "limit"),
        ("limit=1.5", "limit"),
        ("cursor=forged", "cursor"),
    ] {
        check(
            &s,
            Call::get(format!("/projects/{p}/activity?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
}

/// Rule 6: a deleted person's member events are left out of the feed
/// until the person is restored.
#[test]
fn a_deleted_persons_member_events_are_left_out_until_restored() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    s.advance(1);
    add_member(&s, &p, &ada, Value::Null);
    let ada_added = last_event(&s, &p);
    s.advance(1);
    add_member(&s, &p, &bob, Value::Null);
    let bob_added = last_event(&s, &p);
    let creation = of_creation(&get_project(&s, &p));
    s.advance(1);
    s.delete(&format!("/people/{ada}")).expect(204);
    assert_eq!(entries(&s, &p), [of_event(&bob_added), creation.clone()]);
    s.advance(1);
    send(s.req("POST", &format!("/people/{ada}/restoration"))).expect(200);
    assert_eq!(
        entries(&s, &p),
        [of_event(&bob_added), of_event(&ada_added), creation]
    );
    let back = &feed(&s, &p)[1]["event"];
    assert_eq!(back["updated_at"], now_string(&s));
}
