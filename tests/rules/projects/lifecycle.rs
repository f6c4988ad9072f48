//! Document 2, "Delete and restore" and Projects rules 4 and 5: delete with
//! the project's members, events and tasks, restoration within 20 seconds
//! (renamed `Name (2)` when taken), idempotent creates and restorations.

use serde_json::{Value, json};

use super::{add_member, get_project, new_project, patch_project, post_project, project};
use super::{change, names, restore};
use crate::common::fixtures::{
    all, deletions, get_task, id, ids, new_task, now_string, person, records, titles,
    with_updated_at,
};
use crate::common::{Call, Core, Expect, check, send};

/// "Delete and restore" and rule 4 (DECISIONS, "Delete"): the project, its
/// members, events and tasks go at once with a deletion record each; it is
/// gone from every endpoint; its name is free at once; a second DELETE is 404.
#[test]
fn delete_takes_members_events_and_tasks_and_frees_the_name() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let other = new_project(&s, json!({"name": "Other", "deadline": "2026-03-20"}));
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let m_ada = id(&add_member(&s, &p, &ada, json!("Lead")));
    let m_bob = id(&add_member(&s, &p, &bob, Value::Null));
    patch_project(
        &s,
        &p,
        json!({"status": "on_hold", "deadline": "2026-03-25"}),
    )
    .expect(200);
    let open = id(&new_task(&s, json!({"title": "open", "project_id": p})));
    let done = id(&new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    ));
    new_task(&s, json!({"title": "kept"}));
    let events = ids(&s, &format!("/project_events?project_id={p}"));
    assert_eq!(
        events.len(),
        4,
        "two member_added, a status and a deadline event"
    );
    let other_before = get_project(&s, &id(&other));
    s.advance(1);
    s.delete(&format!("/projects/{p}")).expect(204);

    for call in [
        Call::get(format!("/projects/{p}")),
        change(&p, json!({"name": "x"})),
        Call::delete(format!("/projects/{p}")),
        Call::get(format!("/projects/{p}/activity")),
        Call::get(format!("/project_members/{m_ada}")),
        Call::patch(
            format!("/project_members/{m_bob}"),
            json!({"project_member": {"role": "x"}}),
        ),
        Call::get(format!("/tasks/{open}")),
        Call::get(format!("/tasks/{done}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(names(&s, "/projects"), ["Other"]);
    assert!(all(&s, "/projects?status=on_hold").is_empty());
    assert!(all(&s, &format!("/projects?person_id={ada}")).is_empty());
    assert!(all(&s, "/project_members").is_empty());
    assert!(all(&s, "/project_events").is_empty());
    assert_eq!(titles(&s, "/tasks"), ["kept"]);
    assert!(all(&s, &format!("/tasks?project_id={p}")).is_empty());
    assert_eq!(s.get("/project_task_counts").expect(200).data(), &json!([]));
    let upcoming: Vec<Value> = s
        .get("/upcoming_deadlines")
        .expect(200)
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["project"]["id"].clone())
        .collect();
    assert_eq!(upcoming, [json!(id(&other))]);
    assert_eq!(get_project(&s, &id(&other)), other_before);

    let mut expected = vec![
        ("project", p.as_str()),
        ("project_member", m_ada.as_str()),
        ("project_member", m_bob.as_str()),
        ("task", open.as_str()),
        ("task", done.as_str()),
    ];
    expected.extend(events.iter().map(|e| ("project_event", e.as_str())));
    assert_eq!(deletions(&s), records(&expected));
    let stamped: Vec<Value> = all(&s, "/deletions")
        .iter()
        .map(|d| d["deleted_at"].clone())
        .collect();
    assert!(stamped.iter().all(|at| *at == json!(now_string(&s))));

    // The name is free at once; the deleted project is no home and takes no member.
    post_project(&s, json!({"name": "LAUNCH"})).expect(201);
    check(
        &s,
        Call::post("/tasks", json!({"task": {"title": "x", "project_id": p}})),
        Expect::invalid("project_id"),
    );
    check(
        &s,
        Call::post(
            "/project_members",
            json!({"project_member": {"project_id": p, "person_id": ada}}),
        ),
        Expect::invalid("project_id"),
    );
}

/// "Delete and restore" (DECISIONS, "Restoration"): within 20 seconds the
/// project returns with its fields, members, events and tasks; their
/// deletion records go; project, members, events and tasks get a new
/// `updated_at`; a task deleted on its own before stays deleted; restoring
/// a live project returns it unchanged.
#[test]
fn restoration_within_20_seconds_brings_everything_back() {
    let s = Core::start();
    let made = new_project(
        &s,
        json!({"name": "Launch", "status": "planned", "start_date": "2026-03-01",
            "deadline": "2026-04-01", "my_role": "Lead", "external_reference": "PRJ-1",
            "external_url": "example.com/launch", "description_html": "<p>Big <em>one</em></p>"}),
    );
    let p = id(&made);
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    add_member(&s, &p, &ada, json!("Lead"));
    add_member(&s, &p, &bob, json!("Help"));
    patch_project(&s, &p, json!({"status": "active"})).expect(200);
    let first = new_task(&s, json!({"title": "first", "project_id": p}));
    let second = new_task(&s, json!({"title": "second", "project_id": p}));
    let done = new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    );
    let alone = id(&new_task(&s, json!({"title": "alone", "project_id": p})));
    s.advance(1);
    s.delete(&format!("/tasks/{alone}")).expect(204);
    let tasks: Vec<Value> = [&first, &second, &done]
        .iter()
        .map(|t| get_task(&s, &id(t)))
        .collect();
    let before = get_project(&s, &p);
    let members = all(&s, &format!("/project_members?project_id={p}"));
    let events = all(&s, &format!("/project_events?project_id={p}"));
    assert_eq!(members.len(), 2);
    assert_eq!(events.len(), 3);
    s.advance(1);
    s.delete(&format!("/projects/{p}")).expect(204);
    s.advance(19);
    let back = restore(&s, &p).expect(200).data().clone();
    let now = now_string(&s);
    assert_eq!(back, with_updated_at(&before, &now));
    assert_eq!(get_project(&s, &p), back);
    assert_eq!(
        all(&s, &format!("/project_members?project_id={p}")),
        members
            .iter()
            .map(|m| with_updated_at(m, &now))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        all(&s, &format!("/project_events?project_id={p}")),
        events
            .iter()
            .map(|e| with_updated_at(e, &now))
            .collect::<Vec<_>>()
    );
    for task in &tasks {
        let t = get_task(&s, &id(task));
        assert_eq!(t, with_updated_at(task, &now), "{}", task["title"]);
    }
    s.get(&format!("/tasks/{alone}"))
        .expect_error(404, "not_found", None);
    assert_eq!(
        titles(&s, &format!("/tasks?project_id={p}&status=open")),
        ["second", "first"]
    );
    assert_eq!(deletions(&s), records(&[("task", &alone)]));
    assert_eq!(names(&s, &format!("/projects?person_id={ada}")), ["Launch"]);
    // Restoring a live project returns it as it is.
    s.advance(5);
    assert_eq!(restore(&s, &p).expect(200).data(), &back);
    assert_eq!(get_project(&s, &p), back);
    // And it can be deleted again.
    s.delete(&format!("/projects/{p}")).expect(204);
}

/// Rule 5: a restored project whose name was taken returns as `Name (2)`,
/// or the first free number.
#[test]
fn a_restored_project_whose_name_was_taken_returns_numbered() {
    let s = Core::start();
    let launch = project(&s, "Launch");
    s.delete(&format!("/projects/{launch}")).expect(204);
    project(&s, "LAUNCH");
    let back = restore(&s, &launch).expect(200);
    assert_eq!(back.data()["name"], "Launch (2)");
    assert_eq!(get_project(&s, &launch)["name"], "Launch (2)");

    let home = project(&s, "Home");
    s.delete(&format!("/projects/{home}")).expect(204);
    project(&s, "home");
    project(&s, "HOME (2)");
    let back = restore(&s, &home).expect(200);
    assert_eq!(back.data()["name"], "Home (3)");
    assert_eq!(
        names(&s, "/projects"),
        ["home", "HOME (2)", "Home (3)", "LAUNCH", "Launch (2)"]
    );
}

/// Rule 5 (DECISIONS): when no numbered name fits in 100 characters the
/// restoration is 422 on `name` and the project stays deleted with its
/// records; once the name is free it comes back.
#[test]
fn restoration_is_422_on_name_when_no_variant_fits() {
    let s = Core::start();
    let long = "x".repeat(100);
    let p = project(&s, &long);
    let ada = person(&s, "Ada");
    let member = id(&add_member(&s, &p, &ada, Value::Null));
    let task = new_task(&s, json!({"title": "t", "project_id": p}));
    s.delete(&format!("/projects/{p}")).expect(204);
    let recorded = deletions(&s);
    assert_eq!(recorded.len(), 4, "project, member, member event, task");
    let other = project(&s, &long.to_uppercase());
    restore(&s, &p).expect_error(422, "validation_failed", Some("name"));
    s.get(&format!("/projects/{p}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/project_members/{member}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/tasks/{}", id(&task)))
        .expect_error(404, "not_found", None);
    assert_eq!(deletions(&s), recorded);
    // Rename the other and retry within the window.
    s.advance(5);
    patch_project(&s, &other, json!({"name": "Other"})).expect(200);
    let back = restore(&s, &p).expect(200);
    assert_eq!(back.data()["name"], long.as_str());
    assert_eq!(get_task(&s, &id(&task))["project_id"], p);
    assert!(deletions(&s).is_empty());
}

/// "Delete and restore": 20 seconds after the delete the restoration is
/// 404, and so is everything the project took; the deletion records stay.
#[test]
fn restoration_is_404_after_20_seconds() {
    let s = Core::start();
    let p = project(&s, "Old");
    let ada = person(&s, "Ada");
    let member = id(&add_member(&s, &p, &ada, Value::Null));
    let task = id(&new_task(&s, json!({"title": "t", "project_id": p})));
    s.delete(&format!("/projects/{p}")).expect(204);
    let recorded = deletions(&s);
    s.advance(20);
    restore(&s, &p).expect_error(404, "not_found", None);
    for call in [
        Call::get(format!("/projects/{p}")),
        Call::delete(format!("/projects/{p}")),
        Call::get(format!("/project_members/{member}")),
        Call::get(format!("/tasks/{task}")),
        Call::new("POST", format!("/tasks/{task}/restoration")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), recorded);
    check(
        &s,
        Call::post("/tasks", json!({"task": {"title": "x", "project_id": p}})),
        Expect::invalid("project_id"),
    );
    // The person stays, on no project; the name is free.
    assert_eq!(
        s.get(&format!("/people/{ada}")).expect(200).data()["name"],
        "Ada"
    );
    project(&s, "Old");
}

/// Document 1, "Idempotency": a create and a restoration with the same key
/// are answered again, once.
#[test]
fn a_create_or_restoration_with_an_idempotency_key_replays() {
    let s = Core::start();
    let body = json!({"project": {"name": "Once"}});
    let made = send(
        s.req("POST", "/projects")
            .header("idempotency-key", "p-1")
            .json(&body),
    )
    .expect(201);
    let again = send(
        s.req("POST", "/projects")
            .header("idempotency-key", "p-1")
            .json(&body),
    )
    .expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(), made.data());
    assert_eq!(names(&s, "/projects"), ["Once"]);
    let p = id(made.data());
    s.delete(&format!("/projects/{p}")).expect(204);
    let path = format!("/projects/{p}/restoration");
    let first = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    let replay = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data());
}
