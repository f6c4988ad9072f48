//! `GET /tasks`: every view in its default order, filters, orders and
//! directions, refused parameters, cursors that hold steady through
//! inserts, and `count`.

use serde_json::{Value, json};

use crate::common::fixtures::{
    FIXTURE, OPEN, UNKNOWN, all, fixture, id, ids, new_list, new_task, patch_task, titles,
    with_query,
};
use crate::common::{Call, Core, Expect, check};

#[test]
fn every_view_lists_its_tasks_in_its_default_order() {
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
        check(
            &s,
            Call::get(format!("/tasks?{query}")),
            Expect::bad_param(detail),
        );
    }
}

#[test]
fn get_tasks_allows_each_listed_order() {
    let s = Core::start();
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
        check(
            &s,
            Call::get(format!("/tasks?{query}")),
            Expect::status(200),
        );
    }
    assert_eq!(s.get("/tasks?limit=1000").body["meta"]["limit"], 100);
}

/// Pages through `path` two at a time, calling `between` after the first
/// page; asserts the keyset promise: the tasks there at the start come
/// once each, in their order, and nothing comes twice.
#[track_caller]
fn pages_hold_steady(s: &Core, path: &str, between: impl FnOnce()) {
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
    let s = Core::start();
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
    let s = Core::start();
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
