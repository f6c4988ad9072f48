//! Document 2, "TaskCounts" and "Counts": every count matches the listing
//! it stands for, page counts for a view or one home, zeros for unknown
//! homes, and the refused parameter combinations.

use serde_json::{Value, json};

use crate::common::fixtures::{
    Fixture, UNKNOWN, all, fixture, id, new_list, new_task, patch_task, set_zone, titles,
};
use crate::common::{Call, Core, Expect, check};

/// Today in the owner's zone.
fn today(s: &Core) -> String {
    s.get("/me").data()["today"].as_str().unwrap().to_owned()
}

fn counts(s: &Core, query: &str) -> Value {
    s.get(&format!("/task_counts?{query}"))
        .expect(200)
        .data()
        .clone()
}

/// Which homes a page's closed counts cover (docs/api.md).
#[derive(Clone, Copy)]
enum Scope<'a> {
    All,
    AllButInbox,
    /// A home filter as in the query (`inbox=true`, `task_list_id=...`).
    Home(&'a str),
}

fn in_scope(task: &Value, scope: Scope<'_>) -> bool {
    let inbox = task["task_list_id"].is_null()
        && task["person_id"].is_null()
        && task["project_id"].is_null();
    match scope {
        Scope::All => true,
        Scope::AllButInbox => !inbox,
        Scope::Home("inbox=true") => inbox,
        Scope::Home(filter) => {
            let (field, value) = filter.split_once('=').unwrap();
            task[field] == value
        }
    }
}

/// The page counts a page should have, worked out from listings.
fn expected_page(s: &Core, listing: Option<&str>, scope: Scope<'_>) -> Value {
    let today = today(s);
    let (open, overdue) = match listing {
        None => (0, 0),
        Some(path) => {
            let open = all(s, path);
            let overdue = open
                .iter()
                .filter(|t| {
                    t["deadline_on"]
                        .as_str()
                        .is_some_and(|d| d < today.as_str())
                })
                .count();
            (open.len(), overdue)
        }
    };
    let closed: Vec<Value> = all(s, "/tasks?view=logbook")
        .into_iter()
        .filter(|t| in_scope(t, scope))
        .collect();
    let completed: Vec<&Value> = closed
        .iter()
        .filter(|t| t["status"] == "completed")
        .collect();
    let completed_today = completed
        .iter()
        .filter(|t| t["completed_at"].as_str().unwrap().starts_with(&today))
        .count();
    json!({
        "open": open,
        "completed": completed.len(),
        "completed_today": completed_today,
        "overdue": overdue,
        "wont_do": closed.iter().filter(|t| t["status"] == "wont_do").count(),
        "expired": closed.iter().filter(|t| t["expired"] == true).count(),
    })
}

/// Every count of `/task_counts` against the listings it stands for.
#[track_caller]
fn assert_counts_match(s: &Core, step: &str) {
    let today = today(s);
    let c = counts(s, "");
    assert_eq!(
        c["inbox"],
        all(s, "/tasks?inbox=true&status=open").len(),
        "{step}: inbox"
    );
    assert_eq!(
        c["today"],
        all(s, "/tasks?view=today").len(),
        "{step}: today"
    );
    assert_eq!(
        c["due_soon"],
        all(s, "/tasks?view=due_soon").len(),
        "{step}: due_soon"
    );
    let overdue = all(s, "/tasks?status=open")
        .iter()
        .filter(|t| {
            t["deadline_on"]
                .as_str()
                .is_some_and(|d| d < today.as_str())
        })
        .count();
    assert_eq!(c["overdue"], overdue, "{step}: overdue");
    assert_eq!(c["page"], Value::Null, "{step}: no page named");
    let expected_lists: Vec<Value> = all(s, "/task_lists")
        .iter()
        .map(|l| {
            let open = all(s, &format!("/tasks?task_list_id={}&status=open", id(l))).len();
            json!({"id": l["id"], "open": open})
        })
        .collect();
    assert_eq!(c["task_lists"], json!(expected_lists), "{step}: task_lists");

    for (view, scope) in [
        ("overview", Scope::All),
        ("today", Scope::All),
        ("planned", Scope::AllButInbox),
        ("one_day", Scope::AllButInbox),
    ] {
        let page = &counts(s, &format!("view={view}"))["page"];
        let expected = expected_page(s, Some(&format!("/tasks?view={view}")), scope);
        assert_eq!(page, &expected, "{step}: view={view}");
    }
    assert_eq!(
        counts(s, "view=logbook")["page"],
        expected_page(s, None, Scope::All),
        "{step}: view=logbook"
    );
    let mut homes = vec!["inbox=true".to_owned()];
    for l in all(s, "/task_lists") {
        homes.push(format!("task_list_id={}", id(&l)));
    }
    for home in &homes {
        let page = &counts(s, home)["page"];
        let expected = expected_page(
            s,
            Some(&format!("/tasks?{home}&status=open")),
            Scope::Home(home),
        );
        assert_eq!(page, &expected, "{step}: {home}");
        let logbook = &counts(s, &format!("view=logbook&{home}"))["page"];
        assert_eq!(
            logbook,
            &expected_page(s, None, Scope::Home(home)),
            "{step}: view=logbook&{home}"
        );
    }
}

#[test]
fn counts_match_the_listings() {
    let s = Core::start();
    let f: Fixture = fixture(&s);
    // A few absolute numbers, so the comparison is not empty against empty.
    let c = counts(&s, "");
    assert_eq!(
        (
            c["inbox"].as_u64(),
            c["today"].as_u64(),
            c["due_soon"].as_u64(),
            c["overdue"].as_u64()
        ),
        (Some(4), Some(4), Some(6), Some(2))
    );
    assert_eq!(
        c["task_lists"],
        json!([{"id": f.list_a, "open": 10}, {"id": f.list_b, "open": 2}])
    );
    assert_eq!(
        counts(&s, "view=overview")["page"],
        json!({"open": 10, "completed": 2, "completed_today": 2, "overdue": 2, "wont_do": 1, "expired": 0})
    );
    assert_eq!(
        counts(&s, &format!("task_list_id={}", f.list_a))["page"],
        json!({"open": 10, "completed": 0, "completed_today": 0, "overdue": 1, "wont_do": 1, "expired": 0})
    );
    assert_eq!(
        counts(&s, "view=planned")["page"]["completed"],
        1,
        "not the Inbox's"
    );
    assert_counts_match(&s, "the fixture");

    // Changes: a task completed, one deleted, one moved, one expiring.
    s.advance(60);
    patch_task(
        &s,
        &id(&f.tasks["a due today"]),
        json!({"status": "completed"}),
    )
    .expect(200);
    s.delete(&format!("/tasks/{}", id(&f.tasks["inbox plain"])))
        .expect(204);
    patch_task(
        &s,
        &id(&f.tasks["inbox starts today"]),
        json!({"task_list_id": f.list_b}),
    )
    .expect(200);
    new_task(
        &s,
        json!({"title": "expiring", "task_list_id": f.list_b, "expires_on": "2026-03-10"}),
    );
    assert_counts_match(&s, "after changes");
    // The next day: today's and the expiry move on.
    s.advance(86400);
    let next = counts(&s, &format!("task_list_id={}", f.list_b));
    assert_eq!(next["page"]["expired"], 1);
    assert_eq!(next["page"]["completed_today"], 0);
    assert_counts_match(&s, "the next day");
    // Two weeks on, more is overdue and due soon.
    s.advance(14 * 86400);
    assert_counts_match(&s, "two weeks on");
}

#[test]
fn unknown_or_deleted_homes_count_zeros() {
    let s = Core::start();
    let f = fixture(&s);
    s.delete(&format!("/task_lists/{}", f.list_b)).expect(204);
    let zeros = json!({"open": 0, "completed": 0, "completed_today": 0, "overdue": 0, "wont_do": 0, "expired": 0});
    for query in [
        format!("task_list_id={UNKNOWN}"),
        format!("person_id={UNKNOWN}"),
        format!("project_id={UNKNOWN}"),
        format!("view=logbook&task_list_id={UNKNOWN}"),
        format!("view=logbook&person_id={UNKNOWN}"),
        format!("task_list_id={}", f.list_b),
        format!("view=logbook&task_list_id={}", f.list_b),
    ] {
        let c = counts(&s, &query);
        assert_eq!(c["page"], zeros, "{query}");
        assert_eq!(c["inbox"], 4, "{query}: the rest as usual");
    }
    let c = counts(&s, "");
    assert_eq!(c["task_lists"], json!([{"id": f.list_a, "open": 10}]));
    assert_eq!(c["overdue"], 1, "B's overdue task went with it");
}

#[test]
fn an_empty_store_counts_zeros() {
    let s = Core::start();
    let list = new_list(&s, "Empty");
    let c = counts(&s, "");
    assert_eq!(
        c,
        json!({"inbox": 0, "today": 0, "due_soon": 0, "overdue": 0,
               "task_lists": [{"id": list, "open": 0}], "page": null})
    );
    assert_eq!(counts(&s, "view=today")["page"]["open"], 0);
}

#[test]
fn task_counts_refuses_bad_parameters() {
    let s = Core::start();
    let l = new_list(&s, "L");
    let cases: Vec<(String, Option<&str>)> = vec![
        ("view=due_soon".into(), Some("view")),
        ("view=due_not_today".into(), Some("view")),
        ("view=today_queue".into(), Some("view")),
        ("view=someday".into(), Some("view")),
        ("view=".into(), Some("view")),
        (format!("view=today&task_list_id={l}"), None),
        ("view=overview&inbox=true".into(), None),
        (format!("view=planned&person_id={UNKNOWN}"), None),
        (format!("view=one_day&project_id={UNKNOWN}"), None),
        (format!("view=due_soon&task_list_id={l}"), None),
        ("inbox=false".into(), Some("inbox")),
        ("inbox=1".into(), Some("inbox")),
        ("inbox=TRUE".into(), Some("inbox")),
        ("inbox=".into(), Some("inbox")),
        ("view=logbook&inbox=no".into(), Some("inbox")),
        ("task_list_id=nope".into(), Some("task_list_id")),
        ("person_id=12".into(), Some("person_id")),
        ("project_id=x".into(), Some("project_id")),
        (
            "view=logbook&task_list_id=nope".into(),
            Some("task_list_id"),
        ),
        (format!("inbox=true&task_list_id={l}"), None),
        (format!("task_list_id={l}&project_id={UNKNOWN}"), None),
        (format!("person_id={UNKNOWN}&project_id={UNKNOWN}"), None),
        (format!("view=logbook&inbox=true&task_list_id={l}"), None),
        ("view=today&view=today".into(), Some("view")),
    ];
    for (query, detail) in cases {
        check(
            &s,
            Call::get(format!("/task_counts?{query}")),
            Expect::bad_param(detail),
        );
    }
    for query in [
        String::new(),
        "view=overview".into(),
        "view=today".into(),
        "view=planned".into(),
        "view=one_day".into(),
        "view=logbook".into(),
        "view=logbook&inbox=true".into(),
        format!("view=logbook&task_list_id={l}"),
        format!("view=logbook&person_id={UNKNOWN}"),
        format!("view=logbook&project_id={UNKNOWN}"),
        "inbox=true".into(),
        format!("task_list_id={l}"),
        format!("person_id={UNKNOWN}"),
        format!("project_id={UNKNOWN}"),
        "unknown=1".into(),
    ] {
        check(
            &s,
            Call::get(format!("/task_counts?{query}")),
            Expect::status(200),
        );
    }
}

#[test]
fn today_is_today_in_the_owners_zone() {
    let s = Core::start();
    set_zone(&s, "Tokyo");
    let list = new_list(&s, "L");
    // 09:00Z is 18:00 on 2026-03-10 in Tokyo.
    new_task(&s, json!({"title": "tomorrow", "start_on": "2026-03-11"}));
    new_task(
        &s,
        json!({"title": "due tomorrow", "task_list_id": list, "deadline_on": "2026-03-11"}),
    );
    assert!(titles(&s, "/tasks?view=today").is_empty());
    assert_eq!(counts(&s, "")["today"], 0);
    assert_eq!(counts(&s, "")["overdue"], 0);
    assert_eq!(titles(&s, "/tasks?view=today_queue"), Vec::<String>::new());
    // 15:00Z is midnight in Tokyo: tomorrow has come.
    s.clock.set("2026-03-10T15:00:00Z".parse().unwrap());
    assert_eq!(titles(&s, "/tasks?view=today"), ["tomorrow"]);
    assert_eq!(counts(&s, "")["today"], 1);
    assert_eq!(
        titles(&s, "/tasks?view=today_queue"),
        ["due tomorrow", "tomorrow"]
    );
    assert_counts_match(&s, "midnight in Tokyo");
    // A zone where it is still the 10th: today goes back a day.
    set_zone(&s, "Hawaii");
    assert!(titles(&s, "/tasks?view=today").is_empty());
    assert_eq!(counts(&s, "")["today"], 0);
    assert_eq!(counts(&s, "view=today")["page"]["open"], 0);
    assert_counts_match(&s, "back in Hawaii");
    // And forward again.
    set_zone(&s, "Tokyo");
    assert_eq!(counts(&s, "")["today"], 1);
    s.advance(86400);
    assert_eq!(counts(&s, "")["overdue"], 1);
    assert_counts_match(&s, "a day later in Tokyo");
}

/// A named change.
type Step<'a> = (&'static str, Box<dyn Fn() + 'a>);

#[test]
fn counts_stay_right_through_every_kind_of_change() {
    let s = Core::start();
    let f = fixture(&s);
    let t = |title: &str| id(&f.tasks[title]);
    let expiring = id(&new_task(
        &s,
        json!({"title": "expiring", "task_list_id": f.list_a, "start_on": "2026-03-09",
               "deadline_on": "2026-03-10", "expires_on": "2026-03-10"}),
    ));
    assert_counts_match(&s, "a new expiring task");
    let steps: Vec<Step<'_>> = vec![
        (
            "start today",
            Box::new(|| {
                patch_task(&s, &t("a plain"), json!({"start_on": "2026-03-10"})).expect(200);
            }),
        ),
        (
            "start later",
            Box::new(|| {
                patch_task(&s, &t("a started"), json!({"start_on": "2026-03-30"})).expect(200);
            }),
        ),
        (
            "deadline moved",
            Box::new(|| {
                patch_task(&s, &t("a due in 15"), json!({"deadline_on": "2026-03-01"})).expect(200);
            }),
        ),
        (
            "complete a today task",
            Box::new(|| {
                patch_task(&s, &t("inbox starts today"), json!({"status": "completed"}))
                    .expect(200);
            }),
        ),
        (
            "won't do an overdue task",
            Box::new(|| {
                patch_task(&s, &t("b overdue started"), json!({"status": "wont_do"})).expect(200);
            }),
        ),
        (
            "reopen",
            Box::new(|| {
                patch_task(&s, &t("inbox done"), json!({"status": "open"})).expect(200);
                patch_task(&s, &t("a wont do"), json!({"status": "open"})).expect(200);
            }),
        ),
        (
            "move homes",
            Box::new(|| {
                patch_task(&s, &t("a overdue"), json!({"task_list_id": null})).expect(200);
                patch_task(&s, &t("inbox due later"), json!({"task_list_id": f.list_b}))
                    .expect(200);
            }),
        ),
        (
            "delete and restore a task",
            Box::new(|| {
                s.delete(&format!("/tasks/{}", t("a started due soon")))
                    .expect(204);
                s.delete(&format!("/tasks/{}", t("b plain"))).expect(204);
                send_restore(&s, &format!("/tasks/{}", t("b plain")));
            }),
        ),
        ("the next day: expiry", Box::new(|| s.advance(86400))),
        (
            "reopen the expired task",
            Box::new(|| {
                patch_task(&s, &expiring, json!({"status": "open"})).expect(200);
            }),
        ),
        (
            "archive it by hand",
            Box::new(|| {
                patch_task(&s, &expiring, json!({"status": "archived"})).expect(200);
            }),
        ),
        (
            "delete a list",
            Box::new(|| {
                s.delete(&format!("/task_lists/{}", f.list_b)).expect(204);
            }),
        ),
        (
            "restore it",
            Box::new(|| send_restore(&s, &format!("/task_lists/{}", f.list_b))),
        ),
        (
            "delete a list for good",
            Box::new(|| {
                s.delete(&format!("/task_lists/{}", f.list_a)).expect(204);
                s.advance(30);
            }),
        ),
        ("a week later", Box::new(|| s.advance(7 * 86400))),
    ];
    for (name, step) in steps {
        step();
        assert_counts_match(&s, name);
    }
}

fn send_restore(s: &Core, path: &str) {
    crate::common::send(s.req("POST", &format!("{path}/restoration"))).expect(200);
}
