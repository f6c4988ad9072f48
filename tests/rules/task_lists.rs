//! Document 2, "TaskList", "Delete and restore", "Task lists": names,
//! colours and icons, positions, delete with the list's tasks, restore
//! within 20 seconds (renamed `Name (2)` when taken), and the listing.

use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, all, get_task, id, new_list, new_task, titles};
use crate::common::{Call, Core, Expect, Reply, check, send};

fn post_list(s: &Core, fields: Value) -> Reply {
    s.post("/task_lists", json!({ "task_list": fields }))
}

fn patch_list(s: &Core, list: &str, fields: Value) -> Reply {
    s.patch(
        &format!("/task_lists/{list}"),
        json!({ "task_list": fields }),
    )
}

fn get_list(s: &Core, list: &str) -> Value {
    s.get(&format!("/task_lists/{list}"))
        .expect(200)
        .data()
        .clone()
}

fn restore(s: &Core, list: &str) -> Reply {
    send(s.req("POST", &format!("/task_lists/{list}/restoration")))
}

/// Every live list in position order.
fn lists(s: &Core) -> Vec<Value> {
    all(s, "/task_lists")
}

/// (name, position) of every live list in position order.
fn names(s: &Core) -> Vec<(String, i64)> {
    lists(s)
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_owned(),
                l["position"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn pairs(items: &[(&str, i64)]) -> Vec<(String, i64)> {
    items.iter().map(|(n, p)| ((*n).to_owned(), *p)).collect()
}

/// The vocabulary's colour keys, in order.
fn colours(s: &Core) -> Vec<String> {
    s.get("/vocabulary").data()["colors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap().to_owned())
        .collect()
}

/// The deletion records, as (type, id).
fn deletions(s: &Core) -> Vec<(String, String)> {
    all(s, "/deletions")
        .iter()
        .map(|d| (d["type"].as_str().unwrap().to_owned(), id(d)))
        .collect()
}

/// `POST /task_lists` with `{task_list: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/task_lists", json!({ "task_list": fields }))
}

/// `PATCH /task_lists/{id}` with `{task_list: fields}`, as a table's case.
fn change(list: &str, fields: Value) -> Call {
    Call::patch(
        format!("/task_lists/{list}"),
        json!({ "task_list": fields }),
    )
}

#[test]
fn create_refuses_bad_fields() {
    let s = Core::start();
    new_list(&s, "Work");
    let cases = [
        (json!({}), "name"),
        (json!({"name": ""}), "name"),
        (json!({"name": "    "}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": 12}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "work"}), "name"),
        (json!({"name": "  WORK  "}), "name"),
        (json!({"name": "Clear\u{1b}[2J"}), "name"),
        (json!({"name": "Bell\u{7}"}), "name"),
        (json!({"name": "x", "color": "chartreuse"}), "color"),
        (json!({"name": "x", "color": "Blue"}), "color"),
        (json!({"name": "x", "color": 3}), "color"),
        (json!({"name": "x", "icon": "no-such-icon"}), "icon"),
        (json!({"name": "x", "icon": true}), "icon"),
        (json!({"name": "x", "position": "first"}), "position"),
        (json!({"name": "x", "position": 1.5}), "position"),
    ];
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    check(
        &s,
        Call::post("/task_lists", json!({})),
        Expect::invalid("name"),
    );
    s.post("/task_lists", json!({"task_list": "Work"}))
        .expect_error(400, "invalid_json", None);
    assert_eq!(names(&s), pairs(&[("Work", 1)]), "nothing was made");
}

#[test]
fn a_new_list_is_squished_goes_last_and_takes_the_first_free_colour() {
    let s = Core::start();
    let colours = colours(&s);
    let first = post_list(&s, json!({"name": "  Big   Work  "})).expect(201);
    let d = first.data();
    assert_eq!(d["name"], "Big Work");
    assert_eq!(d["color"], colours[0].as_str());
    assert_eq!(d["icon"], Value::Null, "the default icon");
    assert_eq!(d["position"], 1);
    assert_eq!(d["created_at"], crate::common::fixtures::START);
    assert_eq!(d["updated_at"], crate::common::fixtures::START);
    assert_eq!(d["id"].as_str().unwrap().len(), 26);
    assert_eq!(&get_list(&s, &id(d)), d);

    let exact = post_list(
        &s,
        json!({"name": "n".repeat(100), "color": colours[1], "icon": "star"}),
    )
    .expect(201);
    // Characters, not bytes.
    post_list(&s, json!({"name": "ü".repeat(100)})).expect(201);
    check(
        &s,
        create(json!({"name": "ü".repeat(101)})),
        Expect::invalid("name"),
    );
    let umlaut = id(&lists(&s)[2]);
    s.delete(&format!("/task_lists/{umlaut}")).expect(204);
    assert_eq!(exact.data()["color"], colours[1].as_str());
    assert_eq!(exact.data()["icon"], "star");
    assert_eq!(exact.data()["position"], 2, "last");
    // A blank colour takes the first one no other list uses.
    for blank in [json!(""), json!(null), json!("  ")] {
        let made = post_list(&s, json!({"name": format!("c{blank}"), "color": blank})).expect(201);
        let used: Vec<Value> = lists(&s).iter().map(|l| l["color"].clone()).collect();
        assert_eq!(
            used.iter().filter(|c| **c == made.data()["color"]).count(),
            1,
            "{blank}: a colour nobody else had"
        );
    }
    assert_eq!(
        post_list(&s, json!({"name": "blank icon", "icon": ""}))
            .expect(201)
            .data()["icon"],
        Value::Null
    );
    // When every colour is taken, the least used one.
    while lists(&s).len() < colours.len() {
        post_list(&s, json!({"name": format!("fill {}", lists(&s).len())})).expect(201);
    }
    let used: Vec<String> = lists(&s)
        .iter()
        .map(|l| l["color"].as_str().unwrap().to_owned())
        .collect();
    let mut sorted = used.clone();
    sorted.sort();
    let mut all_colours = colours.clone();
    all_colours.sort();
    assert_eq!(sorted, all_colours, "each colour once");
    let again = post_list(&s, json!({"name": "one more"})).expect(201);
    assert_eq!(again.data()["color"], colours[0].as_str());
}

#[test]
fn positions_are_clamped_and_only_moved_lists_get_a_new_updated_at() {
    let s = Core::start();
    for name in ["L1", "L2", "L3", "L4"] {
        new_list(&s, name);
    }
    s.advance(10);
    let before = lists(&s);
    let made = post_list(&s, json!({"name": "New", "position": 2})).expect(201);
    assert_eq!(made.data()["position"], 2);
    assert_eq!(
        names(&s),
        pairs(&[("L1", 1), ("New", 2), ("L2", 3), ("L3", 4), ("L4", 5)])
    );
    let now = lists(&s);
    assert_eq!(now[0], before[0], "L1 did not move and was not touched");
    for l in &now[2..] {
        assert_eq!(l["updated_at"], "2026-03-10T09:00:10.000Z", "{l}");
    }
    for (position, expected) in [(0, 1), (-7, 1), (99, 8)] {
        let l = post_list(
            &s,
            json!({"name": format!("P{position}"), "position": position}),
        )
        .expect(201);
        assert_eq!(l.data()["position"], expected, "{position}");
    }
    assert_eq!(
        names(&s),
        pairs(&[
            ("P-7", 1),
            ("P0", 2),
            ("L1", 3),
            ("New", 4),
            ("L2", 5),
            ("L3", 6),
            ("L4", 7),
            ("P99", 8),
        ])
    );

    // Moving on change renumbers 1..n.
    s.advance(10);
    let before = lists(&s);
    let l4 = id(&before[6]);
    let moved = patch_list(&s, &l4, json!({"position": 3})).expect(200);
    assert_eq!(moved.data()["position"], 3);
    assert_eq!(moved.data()["updated_at"], "2026-03-10T09:00:20.000Z");
    let after = lists(&s);
    assert_eq!(after[0], before[0]);
    assert_eq!(after[1], before[1]);
    for l in &after[3..7] {
        assert_eq!(l["updated_at"], "2026-03-10T09:00:20.000Z", "{l}");
    }
    assert_eq!(after[7], before[7], "P99 kept its place");
    let top = patch_list(&s, &l4, json!({"position": -1})).expect(200);
    assert_eq!(top.data()["position"], 1);
    let bottom = patch_list(&s, &l4, json!({"position": 1000})).expect(200);
    assert_eq!(bottom.data()["position"], 8);
    let positions: Vec<i64> = lists(&s)
        .iter()
        .map(|l| l["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, (1..=8).collect::<Vec<_>>());
}

#[test]
fn change_refuses_bad_fields_and_changes_nothing() {
    let s = Core::start();
    new_list(&s, "Work");
    let base = post_list(&s, json!({"name": "Base", "icon": "star"}))
        .expect(201)
        .data()
        .clone();
    let bid = id(&base);
    s.advance(10);
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": "  "}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "WORK"}), "name"),
        (json!({"name": "Fine", "color": "chartreuse"}), "color"),
        (json!({"name": "Fine", "icon": "nope"}), "icon"),
        (json!({"position": 1, "name": "work"}), "name"),
        (json!({"position": "1"}), "position"),
        (json!({"position": 1, "color": "nope"}), "color"),
    ];
    let before = lists(&s);
    for (fields, detail) in cases {
        check(&s, change(&bid, fields.clone()), Expect::invalid(detail));
        assert_eq!(lists(&s), before, "{fields}: nothing changed");
    }
    // Its own name in another case is fine, and PUT is PATCH.
    let renamed = s
        .put(
            &format!("/task_lists/{bid}"),
            json!({"task_list": {"name": "  BASE "}}),
        )
        .expect(200);
    assert_eq!(renamed.data()["name"], "BASE");
    assert_eq!(renamed.data()["icon"], "star", "only the fields sent");
    assert_eq!(renamed.data()["updated_at"], "2026-03-10T09:00:10.000Z");
    let cleared = patch_list(&s, &bid, json!({"icon": null})).expect(200);
    assert_eq!(cleared.data()["icon"], Value::Null);
    // A change that changes nothing keeps updated_at.
    s.advance(10);
    let same = patch_list(&s, &bid, json!({"name": "BASE", "position": 2})).expect(200);
    assert_eq!(same.data()["updated_at"], "2026-03-10T09:00:10.000Z");
    patch_list(&s, UNKNOWN, json!({"name": "x"})).expect_error(404, "not_found", None);
    patch_list(&s, "nope", json!({"name": "x"})).expect_error(404, "not_found", None);
    s.get(&format!("/task_lists/{UNKNOWN}"))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/task_lists/{UNKNOWN}"))
        .expect_error(404, "not_found", None);
}

#[test]
fn a_failed_create_or_move_changes_nothing() {
    let s = Core::start();
    for name in ["A", "B", "C"] {
        new_list(&s, name);
    }
    s.advance(10);
    let before = lists(&s);
    // position 1 would renumber every list.
    check(
        &s,
        create(json!({"name": "New", "position": 1, "color": "chartreuse"})),
        Expect::invalid("color"),
    );
    check(
        &s,
        create(json!({"name": "a", "position": 1})),
        Expect::invalid("name"),
    );
    check(
        &s,
        change(&id(&before[2]), json!({"position": 1, "icon": "nope"})),
        Expect::invalid("icon"),
    );
    assert_eq!(lists(&s), before, "positions and updated_at kept");
}

#[test]
fn renaming_or_recolouring_changes_no_task() {
    let s = Core::start();
    let list = new_list(&s, "Home");
    let t = new_task(&s, json!({"title": "t", "task_list_id": list}));
    s.advance(10);
    patch_list(
        &s,
        &list,
        json!({"name": "House", "color": colours(&s)[3], "icon": "house"}),
    )
    .expect(200);
    assert_eq!(get_task(&s, &id(&t)), t);
}

#[test]
fn delete_takes_the_tasks_and_frees_the_name_at_once() {
    let s = Core::start();
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    let c = new_list(&s, "C");
    let t1 = new_task(&s, json!({"title": "t1", "task_list_id": b}));
    let t2 = new_task(
        &s,
        json!({"title": "t2", "task_list_id": b, "status": "completed"}),
    );
    let keep = new_task(&s, json!({"title": "keep", "task_list_id": a}));
    s.advance(5);
    let a_before = get_list(&s, &a);
    s.delete(&format!("/task_lists/{b}")).expect(204);
    s.get(&format!("/task_lists/{b}"))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/task_lists/{b}"))
        .expect_error(404, "not_found", None);
    patch_list(&s, &b, json!({"name": "x"})).expect_error(404, "not_found", None);
    for t in [&t1, &t2] {
        s.get(&format!("/tasks/{}", id(t)))
            .expect_error(404, "not_found", None);
    }
    assert_eq!(titles(&s, "/tasks"), ["keep"]);
    assert_eq!(get_task(&s, &id(&keep)), keep);
    // The lists after it close the gap; those before are untouched.
    assert_eq!(names(&s), pairs(&[("A", 1), ("C", 2)]));
    assert_eq!(get_list(&s, &a), a_before);
    assert_eq!(get_list(&s, &c)["updated_at"], "2026-03-10T09:00:05.000Z");
    // Its counts are gone.
    let counts = s.get("/task_counts").expect(200);
    let listed: Vec<&str> = counts.data()["task_lists"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [a.as_str(), c.as_str()]);
    // The name is free at once.
    post_list(&s, json!({"name": "b"})).expect(201);
    // Tasks can no longer be put in it.
    s.post("/tasks", json!({"task": {"title": "x", "task_list_id": b}}))
        .expect_error(422, "validation_failed", Some("task_list_id"));
    // Deletion records for the list and each task.
    let mut recorded = deletions(&s);
    recorded.sort();
    let mut expected = vec![
        ("task".to_owned(), id(&t1)),
        ("task".to_owned(), id(&t2)),
        ("task_list".to_owned(), b.clone()),
    ];
    expected.sort();
    assert_eq!(recorded, expected);
}

#[test]
fn restoration_brings_the_list_back_with_its_tasks() {
    let s = Core::start();
    new_list(&s, "A");
    let b = new_list(&s, "B");
    new_list(&s, "C");
    let t1 = new_task(&s, json!({"title": "t1", "task_list_id": b}));
    let t2 = new_task(&s, json!({"title": "t2", "task_list_id": b}));
    let alone = new_task(&s, json!({"title": "alone", "task_list_id": b}));
    s.advance(1);
    s.delete(&format!("/tasks/{}", id(&alone))).expect(204);
    s.advance(1);
    s.delete(&format!("/task_lists/{b}")).expect(204);
    s.advance(18);
    let back = restore(&s, &b).expect(200);
    let d = back.data();
    assert_eq!(d["name"], "B");
    assert_eq!(d["position"], 2, "its old place");
    assert_eq!(d["updated_at"], "2026-03-10T09:00:20.000Z");
    assert_eq!(&get_list(&s, &b), d);
    assert_eq!(names(&s), pairs(&[("A", 1), ("B", 2), ("C", 3)]));
    // Its tasks come back with a new updated_at, the one deleted before stays deleted.
    for t in [&t1, &t2] {
        let now = get_task(&s, &id(t));
        assert_eq!(now["updated_at"], "2026-03-10T09:00:20.000Z");
        assert_eq!(now["position"], t["position"]);
        assert_eq!(now["task_list_id"], b.as_str());
    }
    s.get(&format!("/tasks/{}", id(&alone)))
        .expect_error(404, "not_found", None);
    assert_eq!(
        titles(&s, &format!("/tasks?task_list_id={b}")),
        ["t2", "t1"]
    );
    // Only the lone task's deletion record is left.
    assert_eq!(deletions(&s), [("task".to_owned(), id(&alone))]);
    // Restoring a live list returns it, unchanged.
    s.advance(5);
    let again = restore(&s, &b).expect(200);
    assert_eq!(again.data(), d);
    // And it can be deleted again.
    s.delete(&format!("/task_lists/{b}")).expect(204);
}

#[test]
fn a_restored_list_whose_name_was_taken_returns_as_name_2() {
    let s = Core::start();
    let work = new_list(&s, "Work");
    s.delete(&format!("/task_lists/{work}")).expect(204);
    new_list(&s, "WORK");
    let back = restore(&s, &work).expect(200);
    assert_eq!(back.data()["name"], "Work (2)");

    let home = new_list(&s, "Home");
    s.delete(&format!("/task_lists/{home}")).expect(204);
    new_list(&s, "home");
    new_list(&s, "Home (2)");
    let back = restore(&s, &home).expect(200);
    assert_eq!(back.data()["name"], "Home (3)");
}

#[test]
fn restoration_is_422_on_name_when_no_variant_fits() {
    let s = Core::start();
    let long = "x".repeat(100);
    let list = new_list(&s, &long);
    let t = new_task(&s, json!({"title": "t", "task_list_id": list}));
    s.delete(&format!("/task_lists/{list}")).expect(204);
    let other = new_list(&s, &long.to_uppercase());
    restore(&s, &list).expect_error(422, "validation_failed", Some("name"));
    // It stays deleted, with its records.
    s.get(&format!("/task_lists/{list}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/tasks/{}", id(&t)))
        .expect_error(404, "not_found", None);
    assert_eq!(deletions(&s).len(), 2);
    // Rename the other and retry.
    s.advance(5);
    patch_list(&s, &other, json!({"name": "Other"})).expect(200);
    let back = restore(&s, &list).expect(200);
    assert_eq!(back.data()["name"], long.as_str());
    assert_eq!(get_task(&s, &id(&t))["title"], "t");
    assert!(deletions(&s).is_empty());
}

#[test]
fn restoration_is_404_after_20_seconds_and_for_unknown_ids() {
    let s = Core::start();
    let list = new_list(&s, "Old");
    let t = new_task(&s, json!({"title": "t", "task_list_id": list}));
    s.delete(&format!("/task_lists/{list}")).expect(204);
    s.advance(20);
    restore(&s, &list).expect_error(404, "not_found", None);
    s.get(&format!("/task_lists/{list}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/tasks/{}", id(&t)))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/task_lists/{list}"))
        .expect_error(404, "not_found", None);
    restore(&s, UNKNOWN).expect_error(404, "not_found", None);
    restore(&s, "not-an-id").expect_error(404, "not_found", None);
    // The permanent delete keeps its deletion records.
    assert_eq!(deletions(&s).len(), 2);
    // The name is free.
    new_list(&s, "Old");
}

#[test]
fn a_restoration_with_an_idempotency_key_replays() {
    let s = Core::start();
    let list = new_list(&s, "L");
    s.delete(&format!("/task_lists/{list}")).expect(204);
    let path = format!("/task_lists/{list}/restoration");
    let first = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    let replay = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data());
    let made = send(
        s.req("POST", "/task_lists")
            .header("idempotency-key", "c-1")
            .json(&json!({"task_list": {"name": "M"}})),
    )
    .expect(201);
    let again = send(
        s.req("POST", "/task_lists")
            .header("idempotency-key", "c-1")
            .json(&json!({"task_list": {"name": "M"}})),
    )
    .expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(), made.data());
    assert_eq!(lists(&s).len(), 2);
}

#[test]
fn the_listing_orders_filters_and_pages() {
    let s = Core::start();
    for name in ["banana", "Apple", "cherry"] {
        new_list(&s, name);
        s.advance(1);
    }
    let order = |query: &str| -> Vec<String> {
        all(&s, &format!("/task_lists?{query}"))
            .iter()
            .map(|l| l["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(order(""), ["banana", "Apple", "cherry"]);
    assert_eq!(
        order("order=position&direction=desc"),
        ["cherry", "Apple", "banana"]
    );
    assert_eq!(
        order("order=name"),
        ["Apple", "banana", "cherry"],
        "ignoring case"
    );
    assert_eq!(
        order("order=name&direction=desc"),
        ["cherry", "banana", "Apple"]
    );
    assert_eq!(order("order=id"), ["banana", "Apple", "cherry"]);
    s.advance(10);
    let banana = id(&lists(&s)[0]);
    patch_list(&s, &banana, json!({"name": "Banana"})).expect(200);
    assert_eq!(order("order=updated_at"), ["Apple", "cherry", "Banana"]);
    assert_eq!(order("updated_since=2026-03-10T09:00:10Z"), ["Banana"]);
    assert_eq!(
        order("updated_since=2026-03-10T09:00:01Z&order=updated_at"),
        ["Apple", "cherry", "Banana"]
    );
    // A deleted list is not listed in any order.
    let cherry = id(&lists(&s)[2]);
    s.delete(&format!("/task_lists/{cherry}")).expect(204);
    for q in ["", "order=id", "order=name", "order=updated_at"] {
        assert_eq!(order(q).len(), 2, "{q}");
    }
    // Pages.
    let first = s.get("/task_lists?limit=1&count=true").expect(200);
    assert_eq!(first.data().as_array().unwrap().len(), 1);
    assert_eq!(first.body["meta"]["total_count"], 2);
    assert_eq!(first.body["meta"]["limit"], 1);
    let next = first.body["meta"]["next_cursor"].as_str().unwrap();
    let second = s
        .get(&format!("/task_lists?limit=1&cursor={next}"))
        .expect(200);
    assert_eq!(second.data()[0]["name"], "Apple");
    assert_eq!(second.body["meta"]["next_cursor"], Value::Null);
    let since = s
        .get("/task_lists?updated_since=2026-03-10T09:00:10Z&count=true")
        .expect(200);
    assert_eq!(since.body["meta"]["total_count"], 1);
    // Refused parameters.
    let other_cursor = s.get("/task_lists?limit=1&order=name").body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    for (query, detail) in [
        ("order=color", "order"),
        ("order=created_at", "order"),
        ("order=name&updated_since=2026-03-10T09:00:00Z", "order"),
        ("direction=sideways", "direction"),
        ("updated_since=today", "updated_since"),
        ("count=2", "count"),
        ("limit=0", "limit"),
        ("limit=-1", "limit"),
        ("cursor=forged", "cursor"),
    ] {
        check(
            &s,
            Call::get(format!("/task_lists?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    s.get(&format!("/task_lists?cursor={other_cursor}"))
        .expect_error(400, "invalid_parameter", Some("cursor"));
}
