//! Where a task goes: on top of its home when new and open, at the bottom
//! when closed or moved, and where `position` says, renumbering the home.

use serde_json::{Value, json};

use crate::common::Core;
use crate::common::fixtures::{all, get_task, id, new_list, new_task, patch_task, titles};

#[test]
fn a_new_task_goes_on_top_without_touching_the_others() {
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
    let s = Core::start();
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
