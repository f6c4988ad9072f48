//! Document 2, "ProjectEvent", "Events on a project" and "Project events
//! and deadlines" (`/project_events`), with the team's decisions
//! (DECISIONS-projects.md, "Events"): the events of status, deadline and
//! member changes with their fields, the 10-minute rule (replace, extend,
//! cancel out; 10 minutes inclusive, not 10 minutes and a second), the
//! listing, and the events of deleted projects and people.

use serde_json::{Value, json};

use super::{add_member, assert_listed, project_with, set};
use crate::common::fixtures::{UNKNOWN, all, deletions, id, keys, now_string, person, records};
use crate::common::{Call, Core, Expect, check, send};

/// Ten minutes, in seconds.
const TEN_MINUTES: i64 = 600;

/// Every event of `GET /project_events?{query}`, in order.
#[track_caller]
fn events(s: &Core, query: &str) -> Vec<Value> {
    all(s, &format!("/project_events?{query}"))
}

/// The project's events, as (kind, from, to).
#[track_caller]
fn said(s: &Core, project: &str) -> Vec<(String, Value, Value)> {
    events(s, &format!("project_id={project}"))
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["from"].clone(),
                e["to"].clone(),
            )
        })
        .collect()
}

/// A (kind, from, to) to compare with [`said`]; `None` is null.
fn ev(kind: &str, from: Option<&str>, to: Option<&str>) -> (String, Value, Value) {
    (kind.to_owned(), json!(from), json!(to))
}

/// The project's event ids, in order.
#[track_caller]
fn event_ids(s: &Core, project: &str) -> Vec<String> {
    events(s, &format!("project_id={project}"))
        .iter()
        .map(id)
        .collect()
}

/// `project_event` records for `ids`, sorted, to compare with [`deletions`].
fn event_records(ids: &[&String]) -> Vec<(String, String)> {
    let pairs: Vec<(&str, &str)> = ids.iter().map(|i| ("project_event", i.as_str())).collect();
    records(&pairs)
}

// ---------------------------------------------------------------- the events

/// DECISIONS, "Events": no event on create, nor for a change of any other
/// field, nor for a status or deadline sent unchanged.
#[test]
fn no_event_on_create_or_for_other_fields() {
    let s = Core::start();
    let p = project_with(
        &s,
        json!({"name": "Launch", "status": "planned", "deadline": "2026-04-01"}),
    );
    assert!(events(&s, "").is_empty());
    s.advance(60);
    set(
        &s,
        &p,
        json!({"name": "Launch 2", "my_role": "Lead", "start_date": "2026-03-01",
            "external_url": "example.com/x", "description_html": "<p>x</p>"}),
    );
    set(
        &s,
        &p,
        json!({"status": "planned", "deadline": "2026-04-01"}),
    );
    assert!(events(&s, "").is_empty());
}

/// "ProjectEvent" kind `status`: every field present, `from`/`to` the
/// status keys, `person_id` and `role` null, stamped now.
#[test]
fn a_status_change_is_an_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let listed = events(&s, "");
    assert_eq!(listed.len(), 1);
    let e = &listed[0];
    assert_eq!(
        keys(e),
        [
            "created_at",
            "from",
            "id",
            "kind",
            "person_id",
            "project_id",
            "role",
            "to",
            "updated_at"
        ]
    );
    assert_eq!(e["id"].as_str().unwrap().len(), 26);
    assert_eq!(e["project_id"], p);
    assert_eq!(e["kind"], "status");
    assert_eq!(e["from"], "active");
    assert_eq!(e["to"], "on_hold");
    assert_eq!(e["person_id"], Value::Null);
    assert_eq!(e["role"], Value::Null);
    assert_eq!(e["created_at"], now_string(&s));
    assert_eq!(e["updated_at"], now_string(&s));
    // Every status, each change more than 10 minutes after the last.
    for (from, to) in [
        ("on_hold", "planned"),
        ("planned", "done"),
        ("done", "cancelled"),
        ("cancelled", "active"),
    ] {
        s.advance(TEN_MINUTES + 1);
        set(&s, &p, json!({ "status": to }));
        assert_eq!(
            said(&s, &p).last().unwrap(),
            &ev("status", Some(from), Some(to))
        );
    }
    assert_eq!(said(&s, &p).len(), 5);
}

/// "ProjectEvent" kind `deadline` (DECISIONS): `from`/`to` are dates, null
/// for no deadline; a status and a deadline changed together are two events.
#[test]
fn a_deadline_change_is_an_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    s.advance(60);
    set(&s, &p, json!({"deadline": "2026-04-01"}));
    s.advance(TEN_MINUTES + 1);
    set(&s, &p, json!({"deadline": "2026-04-15"}));
    s.advance(TEN_MINUTES + 1);
    set(&s, &p, json!({"deadline": null}));
    assert_eq!(
        said(&s, &p),
        [
            ev("deadline", None, Some("2026-04-01")),
            ev("deadline", Some("2026-04-01"), Some("2026-04-15")),
            ev("deadline", Some("2026-04-15"), None),
        ]
    );
    let last = events(&s, "").pop().unwrap();
    assert_eq!(last["person_id"], Value::Null);
    assert_eq!(last["role"], Value::Null);
    s.advance(TEN_MINUTES + 1);
    set(
        &s,
        &p,
        json!({"deadline": "2026-05-01", "status": "planned"}),
    );
    let mut both: Vec<(String, Value, Value)> = said(&s, &p)[3..].to_vec();
    both.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        both,
        [
            ev("deadline", None, Some("2026-05-01")),
            ev("status", Some("active"), Some("planned")),
        ]
    );
}

/// "ProjectEvent" `member_added` and `member_removed` (DECISIONS): the
/// person and the role they had then, `from`/`to` null; a role change is
/// no event; member events are never merged, however close.
#[test]
fn members_added_and_removed_are_events() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    s.advance(1);
    let m = id(&add_member(&s, &p, &ada, json!("Lead")));
    let added = events(&s, "").pop().unwrap();
    assert_eq!(added["kind"], "member_added");
    assert_eq!(added["person_id"], ada);
    assert_eq!(added["role"], "Lead");
    assert_eq!(added["from"], Value::Null);
    assert_eq!(added["to"], Value::Null);
    assert_eq!(added["project_id"], p);
    assert_eq!(added["created_at"], now_string(&s));
    s.advance(1);
    s.patch(
        &format!("/project_members/{m}"),
        json!({"project_member": {"role": "Advisor"}}),
    )
    .expect(200);
    assert_eq!(events(&s, "").len(), 1, "no event for a role");
    s.advance(1);
    s.delete(&format!("/project_members/{m}")).expect(204);
    let removed = events(&s, "").pop().unwrap();
    assert_eq!(removed["kind"], "member_removed");
    assert_eq!(removed["person_id"], ada);
    assert_eq!(removed["role"], "Advisor", "the role at the time");
    assert_eq!(removed["from"], Value::Null);
    assert_eq!(removed["to"], Value::Null);
    assert_eq!(removed["created_at"], now_string(&s));
    // Bob, with no role, added and removed in the same instant: both stay.
    let b = id(&add_member(&s, &p, &bob, Value::Null));
    s.delete(&format!("/project_members/{b}")).expect(204);
    let kinds: Vec<(Value, Value, Value)> = events(&s, "")
        .iter()
        .map(|e| (e["kind"].clone(), e["person_id"].clone(), e["role"].clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (json!("member_added"), json!(ada), json!("Lead")),
            (json!("member_removed"), json!(ada), json!("Advisor")),
            (json!("member_added"), json!(bob), Value::Null),
            (json!("member_removed"), json!(bob), Value::Null),
        ]
    );
    assert!(deletions(&s).iter().all(|(t, _)| t == "project_member"));
}

// ---------------------------------------------------------------- the 10-minute rule

/// "Events on a project": a status change within 10 minutes of the last
/// one replaces it: the earlier event is deleted with a deletion record,
/// and the new one (a new id, stamped now) runs from the earlier `from`.
#[test]
fn a_change_within_10_minutes_replaces_the_earlier_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let first = event_ids(&s, &p);
    assert_eq!(first.len(), 1);
    s.advance(5 * 60);
    set(&s, &p, json!({"status": "done"}));
    let now = now_string(&s);
    let listed = events(&s, &format!("project_id={p}"));
    assert_eq!(listed.len(), 1);
    assert_ne!(id(&listed[0]), first[0], "a new event");
    assert_eq!(said(&s, &p), [ev("status", Some("active"), Some("done"))]);
    assert_eq!(listed[0]["created_at"], now);
    assert_eq!(listed[0]["updated_at"], now);
    assert_eq!(deletions(&s), event_records(&[&first[0]]));
    let record = &all(&s, "/deletions")[0];
    assert_eq!(record["deleted_at"], now);
    // The deadline is replaced the same way.
    s.advance(TEN_MINUTES + 1);
    set(&s, &p, json!({"deadline": "2026-04-01"}));
    let deadline = event_ids(&s, &p)[1].clone();
    s.advance(TEN_MINUTES);
    set(&s, &p, json!({"deadline": "2026-04-20"}));
    assert_eq!(
        said(&s, &p),
        [
            ev("status", Some("active"), Some("done")),
            ev("deadline", None, Some("2026-04-20")),
        ]
    );
    assert_eq!(deletions(&s), event_records(&[&first[0], &deadline]));
}

/// "Events on a project" (DECISIONS: 10 minutes inclusive, from the
/// `created_at` of the last remaining event): A->B, then B->C exactly 10
/// minutes later is one event A->C; C->D 10 minutes and 1 second after
/// that is an event of its own.
#[test]
fn changes_within_10_minutes_extend_one_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let ab = event_ids(&s, &p)[0].clone();
    s.advance(TEN_MINUTES);
    set(&s, &p, json!({"status": "planned"}));
    assert_eq!(
        said(&s, &p),
        [ev("status", Some("active"), Some("planned"))]
    );
    let ac = event_ids(&s, &p)[0].clone();
    s.advance(TEN_MINUTES + 1);
    set(&s, &p, json!({"status": "done"}));
    assert_eq!(
        said(&s, &p),
        [
            ev("status", Some("active"), Some("planned")),
            ev("status", Some("planned"), Some("done")),
        ]
    );
    assert_eq!(event_ids(&s, &p)[0], ac, "A->C stays as it was");
    assert_eq!(deletions(&s), event_records(&[&ab]));
}

/// "Events on a project": a change back within 10 minutes leaves no
/// event, and a deletion record for the first; the next change, with no
/// event left to replace, is an event of its own. The same for deadlines.
#[test]
fn a_change_back_within_10_minutes_leaves_no_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let first = event_ids(&s, &p)[0].clone();
    s.advance(3 * 60);
    set(&s, &p, json!({"status": "active"}));
    assert!(said(&s, &p).is_empty());
    assert_eq!(deletions(&s), event_records(&[&first]));
    s.advance(60);
    set(&s, &p, json!({"status": "done"}));
    assert_eq!(said(&s, &p), [ev("status", Some("active"), Some("done"))]);

    let q = project_with(&s, json!({"name": "Dated", "deadline": "2026-04-01"}));
    s.advance(60);
    set(&s, &q, json!({"deadline": null}));
    let dropped = event_ids(&s, &q)[0].clone();
    s.advance(TEN_MINUTES);
    set(&s, &q, json!({"deadline": "2026-04-01"}));
    assert!(said(&s, &q).is_empty());
    assert_eq!(deletions(&s), event_records(&[&first, &dropped]));
}

/// "Events on a project": a change 10 minutes and 1 second after the last
/// one of its kind replaces nothing.
#[test]
fn a_change_10_minutes_and_1_second_later_is_a_new_event() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch", "deadline": "2026-04-01"}));
    s.advance(60);
    set(
        &s,
        &p,
        json!({"status": "on_hold", "deadline": "2026-04-02"}),
    );
    s.advance(TEN_MINUTES + 1);
    set(
        &s,
        &p,
        json!({"status": "active", "deadline": "2026-04-01"}),
    );
    let mut got = said(&s, &p);
    got.sort_by_key(|(kind, from, to)| (kind.clone(), from.to_string(), to.to_string()));
    assert_eq!(
        got,
        [
            ev("deadline", Some("2026-04-01"), Some("2026-04-02")),
            ev("deadline", Some("2026-04-02"), Some("2026-04-01")),
            ev("status", Some("active"), Some("on_hold")),
            ev("status", Some("on_hold"), Some("active")),
        ]
    );
    assert!(deletions(&s).is_empty());
}

/// "Events on a project": the rule looks at the last change of the same
/// kind only; a deadline change between two status changes does not stop
/// them merging, and member events are not touched.
#[test]
fn status_and_deadline_merge_only_with_their_own_kind() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "Launch"}));
    let ada = person(&s, "Ada");
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let status = event_ids(&s, &p)[0].clone();
    s.advance(60);
    set(&s, &p, json!({"deadline": "2026-04-01"}));
    let deadline = event_ids(&s, &p)[1].clone();
    s.advance(60);
    add_member(&s, &p, &ada, Value::Null);
    s.advance(60);
    set(&s, &p, json!({"status": "done"}));
    s.advance(60);
    set(&s, &p, json!({"deadline": "2026-04-10"}));
    assert_eq!(
        said(&s, &p),
        [
            ev("member_added", None, None),
            ev("status", Some("active"), Some("done")),
            ev("deadline", None, Some("2026-04-10")),
        ]
    );
    assert_eq!(deletions(&s), event_records(&[&status, &deadline]));
    // Another project's changes are its own.
    let q = project_with(&s, json!({"name": "Other"}));
    set(&s, &q, json!({"status": "planned"}));
    assert_eq!(
        said(&s, &q),
        [ev("status", Some("active"), Some("planned"))]
    );
    assert_eq!(said(&s, &p).len(), 3);
}

// ---------------------------------------------------------------- the listing

/// "Project events" listing (DECISIONS): orders `id` (default),
/// `created_at`, `updated_at` both ways; `project_id` filters (unknown: an
/// empty page; non-ID: 400); `updated_since`; pages of one with `count`;
/// no route writes an event.
#[test]
fn the_listing_filters_orders_and_pages() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "P"}));
    let q = project_with(&s, json!({"name": "Q"}));
    let ada = person(&s, "Ada");
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    s.advance(1);
    add_member(&s, &p, &ada, Value::Null);
    s.advance(1);
    set(&s, &q, json!({"deadline": "2026-04-01"}));
    let ids = event_ids(&s, &p);
    let (status, added) = (ids[0].clone(), ids[1].clone());
    let deadline = event_ids(&s, &q)[0].clone();
    // Ada's member event gets a new updated_at from her restoration.
    s.advance(10);
    s.delete(&format!("/people/{ada}")).expect(204);
    s.advance(1);
    send(s.req("POST", &format!("/people/{ada}/restoration"))).expect(200);
    let restored_at = now_string(&s);

    let by_id = vec![status.clone(), added.clone(), deadline.clone()];
    let by_updated = vec![status.clone(), deadline.clone(), added.clone()];
    let reverse = |v: &Vec<String>| -> Vec<String> { v.iter().rev().cloned().collect() };
    let cases: Vec<(String, Vec<String>)> = vec![
        ("".into(), by_id.clone()),
        ("order=id".into(), by_id.clone()),
        ("order=id&direction=desc".into(), reverse(&by_id)),
        ("order=created_at".into(), by_id.clone()),
        ("order=created_at&direction=desc".into(), reverse(&by_id)),
        ("order=updated_at".into(), by_updated.clone()),
        (
            "order=updated_at&direction=desc".into(),
            reverse(&by_updated),
        ),
        (
            format!("project_id={p}"),
            vec![status.clone(), added.clone()],
        ),
        (
            format!("project_id={p}&direction=desc"),
            vec![added.clone(), status.clone()],
        ),
        (format!("project_id={q}"), vec![deadline.clone()]),
        (format!("project_id={UNKNOWN}"), vec![]),
        (format!("updated_since={restored_at}"), vec![added.clone()]),
        (
            format!("updated_since={restored_at}&project_id={q}"),
            vec![],
        ),
    ];
    for (query, wanted) in &cases {
        assert_listed(&s, &format!("/project_events?{query}"), wanted);
    }
    let first = s.get("/project_events").expect(200);
    assert_eq!(first.body["meta"]["limit"], 50);
    for (query, detail) in [
        ("project_id=nope", "project_id"),
        ("order=kind", "order"),
        ("order=name", "order"),
        ("direction=sideways", "direction"),
        ("count=2", "count"),
        ("limit=0", "limit"),
        ("limit=x", "limit"),
        ("cursor=forged", "cursor"),
        ("updated_since=today", "updated_since"),
    ] {
        check(
            &s,
            Call::get(format!("/project_events?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    // Never written through the API.
    for call in [
        Call::post(
            "/project_events",
            json!({"project_event": {"project_id": p, "kind": "status", "from": "active", "to": "done"}}),
        ),
        Call::delete(format!("/project_events/{status}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

// ---------------------------------------------------------------- deleted projects and people

/// "/project_events" rules: a deleted project's events are left out at
/// once, with a `project_event` record each; its restoration removes the
/// records and gives the events a new `updated_at`.
#[test]
fn a_deleted_projects_events_are_left_out_until_restored() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "P"}));
    let q = project_with(&s, json!({"name": "Q"}));
    let ada = person(&s, "Ada");
    s.advance(60);
    set(&s, &p, json!({"status": "done", "deadline": "2026-04-01"}));
    add_member(&s, &p, &ada, Value::Null);
    set(&s, &q, json!({"status": "planned"}));
    let before = events(&s, &format!("project_id={p}"));
    assert_eq!(before.len(), 3);
    let kept = events(&s, &format!("project_id={q}"));
    s.advance(1);
    s.delete(&format!("/projects/{p}")).expect(204);
    assert_eq!(events(&s, ""), kept);
    assert!(events(&s, &format!("project_id={p}")).is_empty());
    let ids: Vec<String> = before.iter().map(id).collect();
    let recorded: Vec<(String, String)> = deletions(&s)
        .into_iter()
        .filter(|(t, _)| t == "project_event")
        .collect();
    assert_eq!(recorded, event_records(&ids.iter().collect::<Vec<_>>()));
    s.advance(10);
    send(s.req("POST", &format!("/projects/{p}/restoration"))).expect(200);
    let now = now_string(&s);
    let back = events(&s, &format!("project_id={p}"));
    assert_eq!(back.iter().map(id).collect::<Vec<_>>(), ids);
    for (was, is) in before.iter().zip(&back) {
        let mut expected = was.clone();
        expected["updated_at"] = json!(now);
        assert_eq!(is, &expected);
    }
    assert!(deletions(&s).is_empty());
    assert_eq!(events(&s, &format!("project_id={q}")), kept);
}

/// "/project_events" rules: a deleted person's member events (added and
/// removed) are left out with a `project_event` record each; restored, they
/// return with a new `updated_at`; other events are untouched.
#[test]
fn a_deleted_persons_member_events_are_left_out_until_restored() {
    let s = Core::start();
    let p = project_with(&s, json!({"name": "P"}));
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    s.advance(60);
    set(&s, &p, json!({"status": "on_hold"}));
    let m = id(&add_member(&s, &p, &ada, json!("Lead")));
    s.delete(&format!("/project_members/{m}")).expect(204);
    add_member(&s, &p, &ada, json!("Back"));
    add_member(&s, &p, &bob, Value::Null);
    let before = events(&s, "");
    assert_eq!(before.len(), 5);
    let adas: Vec<String> = before
        .iter()
        .filter(|e| e["person_id"] == json!(ada))
        .map(id)
        .collect();
    assert_eq!(adas.len(), 3);
    s.advance(1);
    s.delete(&format!("/people/{ada}")).expect(204);
    let left: Vec<Value> = before
        .iter()
        .filter(|e| e["person_id"] != json!(ada))
        .cloned()
        .collect();
    assert_eq!(events(&s, ""), left);
    assert_eq!(events(&s, &format!("project_id={p}")), left);
    let recorded: Vec<(String, String)> = deletions(&s)
        .into_iter()
        .filter(|(t, _)| t == "project_event")
        .collect();
    assert_eq!(recorded, event_records(&adas.iter().collect::<Vec<_>>()));
    s.advance(5);
    send(s.req("POST", &format!("/people/{ada}/restoration"))).expect(200);
    let now = now_string(&s);
    let back = events(&s, "");
    assert_eq!(back.len(), 5);
    for (was, is) in before.iter().zip(&back) {
        let mut expected = was.clone();
        if was["person_id"] == json!(ada) {
            expected["updated_at"] = json!(now);
        }
        assert_eq!(is, &expected);
    }
    let recorded: Vec<(String, String)> = deletions(&s)
        .into_iter()
        .filter(|(t, _)| t == "project_event")
        .collect();
    assert!(recorded.is_empty(), "{recorded:?}");
}
