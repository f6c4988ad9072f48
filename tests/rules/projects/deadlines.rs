//! Document 2, "UpcomingDeadline", "ProjectTaskCount", "Project events
//! and deadlines" (`/upcoming_deadlines`) and "Counts"
//! (`/project_task_counts`), with the team's decisions
//! (DECISIONS-projects.md): the window of days, `limit` with and without
//! it, overdue first, closed projects left out, today in the owner's zone;
//! open and completed counts per project, the choice of `next_task`, and
//! expired tasks archived first. Today is 2026-03-10 (UTC) unless moved.

use serde_json::{Value, json};

use super::{get_project, project_with};
use crate::common::fixtures::{all, get_task, id, keys, new_list, new_task, patch_task, set_zone};
use crate::common::{Call, Core, Expect, check, send};

/// `GET /upcoming_deadlines{query}`'s items.
#[track_caller]
fn upcoming(s: &Core, query: &str) -> Vec<Value> {
    s.get(&format!("/upcoming_deadlines{query}"))
        .expect(200)
        .data()
        .as_array()
        .expect("a list")
        .clone()
}

/// `GET /upcoming_deadlines{query}` as (project name, date, overdue).
#[track_caller]
fn said(s: &Core, query: &str) -> Vec<(String, String, bool)> {
    upcoming(s, query)
        .iter()
        .map(|d| {
            (
                d["project"]["name"].as_str().unwrap().to_owned(),
                d["date"].as_str().unwrap().to_owned(),
                d["overdue"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// Only the names of [`said`].
#[track_caller]
fn names(s: &Core, query: &str) -> Vec<String> {
    said(s, query)
        .into_iter()
        .map(|(name, _, _)| name)
        .collect()
}

/// The projects of the deadline tests, as (name, status, deadline).
/// Today is 2026-03-10; 30 days on is 2026-04-09.
const PROJECTS: &[(&str, &str, Option<&str>)] = &[
    ("Old overdue", "active", Some("2026-01-15")),
    ("Recent overdue", "on_hold", Some("2026-03-09")),
    ("Due today", "planned", Some("2026-03-10")),
    ("beta", "active", Some("2026-03-20")),
    ("Alpha", "active", Some("2026-03-20")),
    ("In 30", "active", Some("2026-04-09")),
    ("In 31", "active", Some("2026-04-10")),
    ("Far", "on_hold", Some("2026-12-31")),
    ("Closed done", "done", Some("2026-03-12")),
    ("Closed cancelled", "cancelled", Some("2026-03-01")),
    ("No deadline", "active", None),
];

/// Makes [`PROJECTS`]; their ids by name, in that order.
fn make_projects(s: &Core) -> Vec<(String, String)> {
    PROJECTS
        .iter()
        .map(|(name, status, deadline)| {
            let made = project_with(
                s,
                json!({"name": name, "status": status, "deadline": deadline}),
            );
            ((*name).to_owned(), made)
        })
        .collect()
}

/// The id of the project named `name` in `made`.
fn named(made: &[(String, String)], name: &str) -> String {
    made.iter()
        .find(|(n, _)| n == name)
        .map(|(_, i)| i.clone())
        .unwrap()
}

// ---------------------------------------------------------------- upcoming deadlines

/// `/upcoming_deadlines` rules: without `days` and `limit`, every overdue
/// open project and the open ones due today through 30 days on, ordered by
/// deadline, then name ignoring case; each item `{date, overdue, project}`.
#[test]
fn the_default_window_is_30_days_with_every_overdue_project() {
    let s = Core::start();
    let made = make_projects(&s);
    let items = upcoming(&s, "");
    let first = &items[0];
    assert_eq!(keys(first), ["date", "overdue", "project"]);
    assert_eq!(
        first["project"],
        get_project(&s, &named(&made, "Old overdue"))
    );
    let expected: Vec<(String, String, bool)> = [
        ("Old overdue", "2026-01-15", true),
        ("Recent overdue", "2026-03-09", true),
        ("Due today", "2026-03-10", false),
        ("Alpha", "2026-03-20", false),
        ("beta", "2026-03-20", false),
        ("In 30", "2026-04-09", false),
    ]
    .iter()
    .map(|(n, d, o)| ((*n).to_owned(), (*d).to_owned(), *o))
    .collect();
    assert_eq!(said(&s, ""), expected);
}

/// `/upcoming_deadlines` `days`: the window is today through `days` days on,
/// both included, with every overdue project before it.
#[test]
fn days_sets_the_window() {
    let s = Core::start();
    make_projects(&s);
    let overdue = ["Old overdue", "Recent overdue"];
    let cases: [(&str, &[&str]); 6] = [
        ("?days=0", &["Due today"]),
        ("?days=9", &["Due today"]),
        ("?days=10", &["Due today", "Alpha", "beta"]),
        ("?days=30", &["Due today", "Alpha", "beta", "In 30"]),
        (
            "?days=31",
            &["Due today", "Alpha", "beta", "In 30", "In 31"],
        ),
        (
            "?days=296",
            &["Due today", "Alpha", "beta", "In 30", "In 31", "Far"],
        ),
    ];
    for (query, window) in cases {
        let mut wanted: Vec<&str> = overdue.to_vec();
        wanted.extend_from_slice(window);
        assert_eq!(names(&s, query), wanted, "{query}");
    }
    assert_eq!(names(&s, "?days=295").len(), 7, "Far is 296 days on");
}

/// `/upcoming_deadlines` `limit`: alone, the nearest `limit` open deadlines
/// with no window, overdue first; with `days`, the window and then the
/// limit; more than 100 is taken as 100.
#[test]
fn limit_alone_has_no_window_and_with_days_both_apply() {
    let s = Core::start();
    make_projects(&s);
    let all_open = [
        "Old overdue",
        "Recent overdue",
        "Due today",
        "Alpha",
        "beta",
        "In 30",
        "In 31",
        "Far",
    ];
    let cases: [(&str, &[&str]); 9] = [
        ("?limit=1", &all_open[..1]),
        ("?limit=2", &all_open[..2]),
        ("?limit=4", &all_open[..4]),
        ("?limit=8", &all_open),
        ("?limit=100", &all_open),
        ("?limit=500", &all_open),
        ("?days=10&limit=4", &all_open[..4]),
        ("?days=0&limit=100", &all_open[..3]),
        ("?limit=100&days=40", &all_open[..7]),
    ];
    for (query, wanted) in cases {
        assert_eq!(names(&s, query), wanted, "{query}");
    }
}

/// `/upcoming_deadlines` rules: only open projects (`planned`, `active`,
/// `on_hold`) that are live; a project closed or deleted leaves, and comes
/// back when reopened or restored.
#[test]
fn closed_and_deleted_projects_are_left_out() {
    let s = Core::start();
    let made = make_projects(&s);
    let all_open = names(&s, "?limit=100");
    assert!(
        !all_open
            .iter()
            .any(|n| n.starts_with("Closed") || n == "No deadline"),
        "{all_open:?}"
    );
    let today = named(&made, "Due today");
    for closed in ["done", "cancelled"] {
        s.patch(
            &format!("/projects/{today}"),
            json!({"project": {"status": closed}}),
        )
        .expect(200);
        assert!(!names(&s, "").contains(&"Due today".to_owned()), "{closed}");
    }
    s.patch(
        &format!("/projects/{today}"),
        json!({"project": {"status": "on_hold"}}),
    )
    .expect(200);
    assert!(names(&s, "").contains(&"Due today".to_owned()));
    let alpha = named(&made, "Alpha");
    s.delete(&format!("/projects/{alpha}")).expect(204);
    assert!(!names(&s, "").contains(&"Alpha".to_owned()));
    send(s.req("POST", &format!("/projects/{alpha}/restoration"))).expect(200);
    assert!(names(&s, "").contains(&"Alpha".to_owned()));
    // A deadline cleared or moved out of the window.
    s.patch(
        &format!("/projects/{alpha}"),
        json!({"project": {"deadline": null}}),
    )
    .expect(200);
    assert!(!names(&s, "?limit=100").contains(&"Alpha".to_owned()));
}

/// `/upcoming_deadlines` rules: today is in the owner's zone. At 09:00 UTC
/// on 10 March it is already 18:00 in Tokyo and still 23:00 on 9 March in
/// Hawaii; at 15:00 UTC it is 11 March in Tokyo.
#[test]
fn today_is_in_the_owners_zone() {
    let s = Core::start();
    for (name, deadline) in [
        ("Ninth", "2026-03-09"),
        ("Tenth", "2026-03-10"),
        ("Eleventh", "2026-03-11"),
    ] {
        project_with(&s, json!({"name": name, "deadline": deadline}));
    }
    let today = |s: &Core| s.get("/me").data()["today"].as_str().unwrap().to_owned();
    let row = |name: &str, date: &str, overdue: bool| (name.to_owned(), date.to_owned(), overdue);

    set_zone(&s, "Hawaii");
    assert_eq!(today(&s), "2026-03-09");
    assert_eq!(
        said(&s, "?days=0"),
        [row("Ninth", "2026-03-09", false)],
        "nothing is overdue yet"
    );
    set_zone(&s, "Tokyo");
    assert_eq!(today(&s), "2026-03-10");
    assert_eq!(
        said(&s, "?days=0"),
        [
            row("Ninth", "2026-03-09", true),
            row("Tenth", "2026-03-10", false)
        ]
    );
    s.clock.set("2026-03-10T15:00:00Z".parse().unwrap());
    assert_eq!(today(&s), "2026-03-11");
    assert_eq!(
        said(&s, "?days=0"),
        [
            row("Ninth", "2026-03-09", true),
            row("Tenth", "2026-03-10", true),
            row("Eleventh", "2026-03-11", false)
        ]
    );
    set_zone(&s, "UTC");
    assert_eq!(
        said(&s, "?days=0"),
        [
            row("Ninth", "2026-03-09", true),
            row("Tenth", "2026-03-10", false)
        ]
    );
}

/// DECISIONS: `days` a whole number of at least 0, `limit` of at least 1;
/// anything else is 400 on its name.
#[test]
fn bad_days_or_limit_is_400() {
    let s = Core::start();
    project_with(&s, json!({"name": "P", "deadline": "2026-03-12"}));
    for (query, detail) in [
        ("days=-1", "days"),
        ("days=x", "days"),
        ("days=1.5", "days"),
        ("days=", "days"),
        ("limit=0", "limit"),
        ("limit=-2", "limit"),
        ("limit=x", "limit"),
        ("limit=2.5", "limit"),
        ("days=3&limit=0", "limit"),
    ] {
        check(
            &s,
            Call::get(format!("/upcoming_deadlines?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    assert_eq!(names(&s, "?days=2"), ["P"]);
}

// ---------------------------------------------------------------- project task counts

/// The counts of a `/project_task_counts` entry: (open, completed).
fn counted(entry: &Value) -> (i64, i64) {
    (
        entry["open"].as_i64().unwrap(),
        entry["completed"].as_i64().unwrap(),
    )
}

/// `/project_task_counts` as (project id, open, completed, next task's
/// title or None), in the answer's order.
#[track_caller]
fn task_counts(s: &Core) -> Vec<(String, i64, i64, Option<String>)> {
    s.get("/project_task_counts")
        .expect(200)
        .data()
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| {
            let (open, completed) = counted(e);
            (
                e["project_id"].as_str().unwrap().to_owned(),
                open,
                completed,
                e["next_task"]["title"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// "Counts" (DECISIONS): one entry per live project with a live open or
/// completed task, ordered by `project_id`; won't-do and archived tasks
/// count in neither; projects with none, deleted projects and deleted
/// tasks, and other homes' tasks are left out; each entry `{project_id,
/// open, completed, next_task}`, `next_task` the Task or null.
#[test]
fn project_task_counts_count_open_and_completed_tasks() {
    let s = Core::start();
    let busy = project_with(&s, json!({"name": "Busy"}));
    let shelved = project_with(&s, json!({"name": "Shelved"}));
    project_with(&s, json!({"name": "Empty"}));
    let finished = project_with(&s, json!({"name": "Finished"}));
    let dropped = project_with(&s, json!({"name": "Dropped"}));
    let gone = project_with(&s, json!({"name": "Gone"}));
    let list = new_list(&s, "List");
    let task = |title: &str, home: &str, status: &str| -> Value {
        new_task(
            &s,
            json!({"title": title, "project_id": home, "status": status}),
        )
    };
    task("a1", &busy, "open");
    let a2 = task("a2", &busy, "open");
    task("done", &busy, "completed");
    task("wont", &busy, "wont_do");
    task("shelf", &busy, "archived");
    let deleted = task("deleted", &busy, "open");
    s.delete(&format!("/tasks/{}", id(&deleted))).expect(204);
    task("shelf", &shelved, "archived");
    task("finished", &finished, "completed");
    task("wont", &dropped, "wont_do");
    task("gone", &gone, "open");
    s.delete(&format!("/projects/{gone}")).expect(204);
    new_task(&s, json!({"title": "inbox"}));
    new_task(&s, json!({"title": "listed", "task_list_id": list}));

    let page = s.get("/project_task_counts").expect(200);
    let entries = page.data().as_array().unwrap();
    assert_eq!(
        keys(&entries[0]),
        ["completed", "next_task", "open", "project_id"]
    );
    let mut expected = vec![
        (busy.clone(), 2, 1, Some("a2".to_owned())),
        (finished.clone(), 0, 1, None),
    ];
    expected.sort();
    assert_eq!(task_counts(&s), expected);
    let busy_entry = entries
        .iter()
        .find(|e| e["project_id"] == json!(busy))
        .unwrap();
    assert_eq!(busy_entry["next_task"], get_task(&s, &id(&a2)));
    let finished_entry = entries
        .iter()
        .find(|e| e["project_id"] == json!(finished))
        .unwrap();
    assert_eq!(finished_entry["next_task"], Value::Null);
    // The deleted project comes back with its task.
    send(s.req("POST", &format!("/projects/{gone}/restoration"))).expect(200);
    assert!(
        task_counts(&s)
            .iter()
            .any(|e| e.0 == gone && e.1 == 1 && e.3.as_deref() == Some("gone"))
    );
}

/// "Counts": `next_task` is the open task to do next: started ones (no
/// `start_on`, or today or earlier) first, then by `deadline_on` (none
/// last), then `position`; null when none is open. Each task is completed
/// in turn and the next one taken.
#[test]
fn next_task_is_the_started_one_with_the_nearest_deadline() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    // Made in this order; each new open task goes to the top (a lower position).
    for fields in [
        json!({"title": "later", "start_on": "2026-03-20", "deadline_on": "2026-03-21"}),
        json!({"title": "started, no deadline", "start_on": "2026-03-01"}),
        json!({"title": "due 15th", "deadline_on": "2026-03-15"}),
        json!({"title": "due 12th, made first", "deadline_on": "2026-03-12"}),
        json!({"title": "due 12th, started today", "start_on": "2026-03-10", "deadline_on": "2026-03-12"}),
        json!({"title": "overdue", "deadline_on": "2026-03-05"}),
    ] {
        let mut fields = fields;
        fields["project_id"] = json!(p);
        new_task(&s, fields);
    }
    let order = [
        "overdue",
        "due 12th, started today",
        "due 12th, made first",
        "due 15th",
        "started, no deadline",
        "later",
    ];
    let tasks = all(&s, &format!("/tasks?project_id={p}"));
    for (done, title) in order.iter().enumerate() {
        let done = done as i64;
        assert_eq!(
            task_counts(&s),
            [(p.clone(), 6 - done, done, Some((*title).to_owned()))],
            "after {done} completed"
        );
        let next = tasks.iter().find(|t| t["title"] == *title).unwrap();
        patch_task(&s, &id(next), json!({"status": "completed"})).expect(200);
    }
    assert_eq!(task_counts(&s), [(p.clone(), 0, 6, None)]);
}

/// "Counts": expired tasks are archived first: an open task past its
/// `expires_on` is neither counted nor next, and a project left with only
/// archived tasks is left out.
#[test]
fn expired_tasks_are_archived_first() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    let q = project_with(&s, json!({"name": "Fleeting"}));
    new_task(&s, json!({"title": "plain", "project_id": p}));
    new_task(
        &s,
        json!({"title": "expiring", "project_id": p, "expires_on": "2026-03-10"}),
    );
    new_task(
        &s,
        json!({"title": "fleeting", "project_id": q, "expires_on": "2026-03-10"}),
    );
    let mut before = vec![
        (p.clone(), 2, 0, Some("expiring".to_owned())),
        (q.clone(), 1, 0, Some("fleeting".to_owned())),
    ];
    before.sort();
    assert_eq!(task_counts(&s), before);
    // Through its expiry day it is open; the day after, archived.
    s.clock.set("2026-03-10T23:59:59Z".parse().unwrap());
    assert_eq!(task_counts(&s), before);
    s.clock.set("2026-03-11T09:00:00Z".parse().unwrap());
    assert_eq!(
        task_counts(&s),
        [(p.clone(), 1, 0, Some("plain".to_owned()))]
    );
}
