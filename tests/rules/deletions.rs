//! Document 1, "Deletion" and "Deletions (sync)": task and task list
//! deletions listed oldest first, with `since`, cursors, `limit` and
//! `count`; records removed when a delete is undone.

use serde_json::{Value, json};

use crate::common::fixtures::{all, id, new_list, new_task};
use crate::common::{Call, Core, Expect, check, send};

/// (type, id, deleted_at) of each record, in order.
fn records(s: &Core, query: &str) -> Vec<(String, String, String)> {
    let path = if query.is_empty() {
        "/deletions".to_owned()
    } else {
        format!("/deletions?{query}")
    };
    all(s, &path)
        .iter()
        .map(|d| {
            (
                d["type"].as_str().unwrap().to_owned(),
                id(d),
                d["deleted_at"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn record(kind: &str, id: &str, at: &str) -> (String, String, String) {
    (kind.to_owned(), id.to_owned(), at.to_owned())
}

/// Three deletions at 09:00:10 (a list and its two tasks) after one at 09:00:05.
struct Deleted {
    lone: String,
    list: String,
    inside: Vec<String>,
}

fn delete_some(s: &Core) -> Deleted {
    let list = new_list(s, "L");
    let inside = vec![
        id(&new_task(s, json!({"title": "b", "task_list_id": list}))),
        id(&new_task(
            s,
            json!({"title": "c", "task_list_id": list, "status": "completed"}),
        )),
    ];
    let lone = id(&new_task(s, json!({"title": "a"})));
    new_task(s, json!({"title": "kept"}));
    s.advance(5);
    s.delete(&format!("/tasks/{lone}")).expect(204);
    s.advance(5);
    s.delete(&format!("/task_lists/{list}")).expect(204);
    Deleted { lone, list, inside }
}

/// The records of [`delete_some`], oldest first (ties by id).
fn expected(d: &Deleted) -> Vec<(String, String, String)> {
    let at = "2026-03-10T09:00:10.000Z";
    let mut same_instant = vec![
        record("task_list", &d.list, at),
        record("task", &d.inside[0], at),
        record("task", &d.inside[1], at),
    ];
    same_instant.sort_by(|a, b| a.1.cmp(&b.1));
    let mut all = vec![record("task", &d.lone, "2026-03-10T09:00:05.000Z")];
    all.extend(same_instant);
    all
}

#[test]
fn deletions_are_listed_oldest_first() {
    let s = Core::start();
    assert!(records(&s, "").is_empty());
    let d = delete_some(&s);
    let expected = expected(&d);
    assert_eq!(records(&s, ""), expected);
    let first = s.get("/deletions").expect(200);
    let keys: Vec<&String> = first.data()[0].as_object().unwrap().keys().collect();
    let mut keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["deleted_at", "id", "type"]);
    // They outlive the restore window.
    s.advance(60);
    assert_eq!(records(&s, ""), expected);
    // since is inclusive, with Z or an offset.
    assert_eq!(records(&s, "since=2026-03-10T09:00:05Z"), expected);
    assert_eq!(records(&s, "since=2026-03-10T09:00:05.001Z"), expected[1..]);
    assert_eq!(records(&s, "since=2026-03-10T09:00:10Z"), expected[1..]);
    assert_eq!(
        records(&s, "since=2026-03-10T10:00:10%2B01:00"),
        expected[1..]
    );
    assert!(records(&s, "since=2026-03-10T09:00:11Z").is_empty());
}

#[test]
fn deletions_page_with_cursor_limit_and_count() {
    let s = Core::start();
    let d = delete_some(&s);
    let expected = expected(&d);
    let first = s.get("/deletions?limit=2&count=true").expect(200);
    assert_eq!(first.data().as_array().unwrap().len(), 2);
    assert_eq!(first.body["meta"]["limit"], 2);
    assert_eq!(first.body["meta"]["total_count"], 4);
    let cursor = first.body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    // A deletion between pages comes last, once.
    s.advance(1);
    let late = id(&new_task(&s, json!({"title": "late"})));
    s.delete(&format!("/tasks/{late}")).expect(204);
    let second = s
        .get(&format!("/deletions?limit=2&count=true&cursor={cursor}"))
        .expect(200);
    assert_eq!(second.body["meta"]["total_count"], 5, "ignores the cursor");
    let cursor = second.body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let third = s
        .get(&format!("/deletions?limit=2&cursor={cursor}"))
        .expect(200);
    assert_eq!(third.body["meta"]["next_cursor"], Value::Null);
    assert!(third.body["meta"].get("total_count").is_none());
    let paged: Vec<String> = [&first, &second, &third]
        .iter()
        .flat_map(|p| p.data().as_array().unwrap().iter().map(id))
        .collect();
    let mut wanted: Vec<String> = expected.iter().map(|r| r.1.clone()).collect();
    wanted.push(late);
    assert_eq!(paged, wanted);
    // count with since counts the filtered set.
    let since = s
        .get("/deletions?since=2026-03-10T09:00:10Z&count=true&limit=1")
        .expect(200);
    assert_eq!(since.body["meta"]["total_count"], 4);
    assert_eq!(since.data().as_array().unwrap().len(), 1);
    let cursor = since.body["meta"]["next_cursor"].as_str().unwrap();
    // A cursor belongs to its listing.
    s.get(&format!("/deletions?cursor={cursor}")).expect_error(
        400,
        "invalid_parameter",
        Some("cursor"),
    );
    s.get(&format!(
        "/deletions?since=2026-03-10T09:00:10Z&cursor={cursor}"
    ))
    .expect(200);
}

#[test]
fn a_record_disappears_when_the_delete_is_undone() {
    let s = Core::start();
    let t = id(&new_task(&s, json!({"title": "t"})));
    s.delete(&format!("/tasks/{t}")).expect(204);
    assert_eq!(
        records(&s, ""),
        [record("task", &t, "2026-03-10T09:00:00.000Z")]
    );
    s.advance(3);
    send(s.req("POST", &format!("/tasks/{t}/restoration"))).expect(200);
    assert!(records(&s, "").is_empty());
    // Deleting again writes a new record.
    s.advance(3);
    s.delete(&format!("/tasks/{t}")).expect(204);
    assert_eq!(
        records(&s, ""),
        [record("task", &t, "2026-03-10T09:00:06.000Z")]
    );
    send(s.req("POST", &format!("/tasks/{t}/restoration"))).expect(200);

    // A list and its tasks.
    let list = new_list(&s, "L");
    let inside = id(&new_task(&s, json!({"title": "in", "task_list_id": list})));
    s.delete(&format!("/task_lists/{list}")).expect(204);
    let mut kinds: Vec<(String, String)> = records(&s, "")
        .into_iter()
        .map(|(kind, id, _)| (kind, id))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            ("task".to_owned(), inside.clone()),
            ("task_list".to_owned(), list.clone())
        ]
    );
    send(s.req("POST", &format!("/task_lists/{list}/restoration"))).expect(200);
    assert!(records(&s, "").is_empty());
    // A refused restore leaves the record.
    s.delete(&format!("/tasks/{inside}")).expect(204);
    s.advance(20);
    send(s.req("POST", &format!("/tasks/{inside}/restoration"))).expect_error(
        404,
        "not_found",
        None,
    );
    assert_eq!(records(&s, "").len(), 1);
}

#[test]
fn deletions_refuse_bad_parameters() {
    let s = Core::start();
    let other_cursor = {
        for name in ["a", "b"] {
            new_list(&s, name);
        }
        s.get("/task_lists?limit=1").body["meta"]["next_cursor"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    for (query, detail) in [
        ("order=deleted_at".to_owned(), "order"),
        ("direction=asc".to_owned(), "direction"),
        (
            "updated_since=2026-03-10T09:00:00Z".to_owned(),
            "updated_since",
        ),
        ("since=yesterday".to_owned(), "since"),
        ("since=2026-03-10".to_owned(), "since"),
        ("count=maybe".to_owned(), "count"),
        ("limit=0".to_owned(), "limit"),
        ("limit=x".to_owned(), "limit"),
        ("cursor=forged".to_owned(), "cursor"),
        (format!("cursor={other_cursor}"), "cursor"),
    ] {
        check(
            &s,
            Call::get(format!("/deletions?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    let big = s.get("/deletions?limit=500").expect(200);
    assert_eq!(big.body["meta"]["limit"], 100);
}
