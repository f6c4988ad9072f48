//! Document 2, "Task" `project_id`: tasks homed in a project, and their
//! counts.

use serde_json::{Value, json};

use super::project;
use crate::common::fixtures::{UNKNOWN, all, get_task, id, new_list, new_task, patch_task, titles};
use crate::common::{Call, Core, Expect, check};

/// "Task" `project_id` and "Tasks": a task homed in a project (the other
/// homes null), listed by `GET /tasks?project_id=`, moved in and out; an
/// unknown, deleted or malformed project is 422 on `project_id`.
#[test]
fn tasks_are_homed_in_a_project() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let q = project(&s, "Other");
    let list = new_list(&s, "List");
    let first = new_task(&s, json!({"title": "first", "project_id": p}));
    assert_eq!(first["project_id"], p);
    assert_eq!(first["task_list_id"], Value::Null);
    assert_eq!(first["person_id"], Value::Null);
    assert_eq!(get_task(&s, &id(&first)), first);
    new_task(&s, json!({"title": "second", "project_id": p}));
    new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    );
    new_task(&s, json!({"title": "listed", "task_list_id": list}));
    assert_eq!(
        titles(&s, &format!("/tasks?project_id={p}&status=open")),
        ["second", "first"],
        "new open tasks go to the top"
    );
    assert_eq!(titles(&s, &format!("/tasks?project_id={p}")).len(), 3);
    assert!(all(&s, &format!("/tasks?project_id={q}")).is_empty());
    assert!(all(&s, &format!("/tasks?project_id={UNKNOWN}")).is_empty());
    // Not in the Inbox.
    assert!(!titles(&s, "/tasks?inbox=true").contains(&"first".to_owned()));

    // Moved to a list, then to another project: one home at a time.
    let moved = patch_task(&s, &id(&first), json!({"task_list_id": list})).expect(200);
    assert_eq!(moved.data()["project_id"], Value::Null);
    let moved = patch_task(&s, &id(&first), json!({"project_id": q})).expect(200);
    assert_eq!(moved.data()["project_id"], q);
    assert_eq!(moved.data()["task_list_id"], Value::Null);
    assert_eq!(titles(&s, &format!("/tasks?project_id={q}")), ["first"]);
    let inbox = patch_task(&s, &id(&first), json!({"project_id": null})).expect(200);
    assert_eq!(inbox.data()["project_id"], Value::Null);

    let gone = project(&s, "Gone");
    s.delete(&format!("/projects/{gone}")).expect(204);
    assert!(all(&s, &format!("/tasks?project_id={gone}")).is_empty());
    let before = all(&s, "/tasks");
    for home in [json!(UNKNOWN), json!(gone), json!("nope"), json!(5)] {
        check(
            &s,
            Call::post(
                "/tasks",
                json!({"task": {"title": "x", "project_id": home}}),
            ),
            Expect::invalid("project_id"),
        );
        check(
            &s,
            Call::patch(
                format!("/tasks/{}", id(&first)),
                json!({"task": {"project_id": home}}),
            ),
            Expect::invalid("project_id"),
        );
    }
    assert_eq!(all(&s, "/tasks"), before, "nothing changed");
}

/// "Counts": `/task_counts?project_id=` counts the project's page as it
/// does a list's; an unknown or deleted project counts zeros.
#[test]
fn task_counts_name_a_project() {
    let s = Core::start();
    let p = project(&s, "Launch");
    for fields in [
        json!({"title": "overdue", "deadline_on": "2026-03-05"}),
        json!({"title": "plain"}),
        json!({"title": "done", "status": "completed"}),
        json!({"title": "dropped", "status": "wont_do"}),
        json!({"title": "shelved", "status": "archived"}),
    ] {
        let mut fields = fields;
        fields["project_id"] = json!(p);
        new_task(&s, fields);
    }
    new_task(&s, json!({"title": "elsewhere", "status": "completed"}));
    let page = s
        .get(&format!("/task_counts?project_id={p}"))
        .expect(200)
        .data()["page"]
        .clone();
    assert_eq!(
        page,
        json!({"open": 2, "completed": 1, "completed_today": 1, "overdue": 1, "wont_do": 1, "expired": 0})
    );
    let logbook = s
        .get(&format!("/task_counts?view=logbook&project_id={p}"))
        .expect(200)
        .data()["page"]
        .clone();
    assert_eq!(logbook["completed"], 1);
    assert_eq!(logbook["open"], 0);
    let zeros = json!({"open": 0, "completed": 0, "completed_today": 0, "overdue": 0, "wont_do": 0, "expired": 0});
    s.delete(&format!("/projects/{p}")).expect(204);
    for home in [p.as_str(), UNKNOWN] {
        let page = s
            .get(&format!("/task_counts?project_id={home}"))
            .expect(200)
            .data()["page"]
            .clone();
        assert_eq!(page, zeros, "{home}");
    }
    assert_eq!(s.get("/task_counts").expect(200).data()["overdue"], 0);
}
