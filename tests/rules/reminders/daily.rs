//! The daily reminders, at their time in the owner's zone: the agenda
//! (today's queue, key dates and deadlines in one message) at its hour,
//! including on the days the clocks change (a time the change skips, one
//! it repeats); a daily reminder turned on after its time has passed
//! starting the next day; and key dates and deadlines (of open tasks and
//! of open projects) some days before.

use serde_json::{Value, json};

use super::{ids_of, notifications, ntfy, run, run_at, set, stamp, start, start_at, webhook};
use crate::common::Core;
use crate::common::fixtures::{id, new_task, patch_task, set_zone};
use crate::common::receivers::{HttpReceiver, Received};

/// Runs the scheduler at each `(instant, wanted)`: `wanted` is how many
/// messages `rx` has got by then.
#[track_caller]
fn expect_counts(s: &Core, rx: &HttpReceiver, steps: &[(&str, usize)]) {
    for (instant, wanted) in steps {
        run_at(s, instant);
        assert_eq!(
            rx.count(),
            *wanted,
            "by {instant}: {:#?}",
            rx.received().iter().map(Received::text).collect::<Vec<_>>()
        );
    }
}

/// The titles `rx` got, in order.
fn titles(rx: &HttpReceiver) -> Vec<String> {
    rx.received()
        .iter()
        .map(|r| r.header("title").unwrap_or("").to_owned())
        .collect()
}

/// The `due_at` of every notification, oldest first.
#[track_caller]
fn due_ats(s: &Core) -> Vec<String> {
    let mut due: Vec<String> = notifications(s)
        .iter()
        .map(|n| n["due_at"].as_str().unwrap().to_owned())
        .collect();
    due.reverse();
    due
}

/// Only the agenda, at `at`, to `channel` (key dates and deadlines off).
#[track_caller]
fn agenda_only(s: &Core, channel: &Value, at: &str) {
    set(
        s,
        json!({"channel_ids": ids_of(&[channel]), "daily_agenda": {"enabled": true, "at": at},
               "key_dates": {"days_before": []}, "deadlines": {"days_before": []}}),
    );
}

/// The agenda comes at its hour in the owner's zone (07:00 in New York
/// is 11:00 UTC in March), every day, once; it says the day, the tasks
/// due, the key dates of the day; an agenda channel gets no subject.
#[test]
fn the_agenda_arrives_at_its_hour_in_the_owners_zone() {
    let s = start();
    set_zone(&s, "America/New_York");
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-10"}),
    );
    s.post(
        "/people",
        json!({"person": {"name": "Ada Lovelace",
               "key_dates": [{"kind": "birthday", "day": 10, "month": 3, "year": 1990}]}}),
    )
    .expect(201);
    agenda_only(&s, &phone, "07:00");
    expect_counts(
        &s,
        &rx,
        &[
            ("2026-03-10T09:00:00Z", 0),
            ("2026-03-10T10:59:59Z", 0),
            ("2026-03-10T11:00:00Z", 1),
            ("2026-03-10T23:00:00Z", 1),
            ("2026-03-11T10:59:00Z", 1),
            ("2026-03-11T11:00:00Z", 2),
        ],
    );
    let first = &rx.received()[0];
    assert_eq!(first.header("title"), Some("Your day: Tuesday 10 March"));
    assert_eq!(first.header("tags"), Some("spiral_calendar"));
    assert_eq!(first.header("priority"), Some("3"));
    let text = first.text();
    assert!(text.contains("Deadlines\n- Pay rent"), "{text}");
    assert!(
        text.contains("Key dates\n- Ada Lovelace's birthday (36 years)"),
        "{text}"
    );
    assert_eq!(
        rx.received()[1].header("title"),
        Some("Your day: Wednesday 11 March")
    );
    assert_eq!(
        due_ats(&s),
        [stamp("2026-03-10T11:00:00Z"), stamp("2026-03-11T11:00:00Z")]
    );
    for n in notifications(&s) {
        assert_eq!(
            (&n["kind"], &n["subject_id"]),
            (&json!("agenda"), &Value::Null)
        );
    }
}

/// The agenda at 08:00 in London across the spring change (29 March
/// 2026, 01:00 UTC): 08:00 UTC the day before, 07:00 UTC on the day and
/// after. Turned on after today's time had passed, it starts tomorrow.
#[test]
fn the_agenda_keeps_its_local_hour_across_the_spring_change() {
    let s = start_at("2026-03-27T12:00:00Z");
    set_zone(&s, "Europe/London");
    let rx = HttpReceiver::start();
    let phone = webhook(&s, "Hook", &rx, None);
    agenda_only(&s, &phone, "08:00");
    expect_counts(
        &s,
        &rx,
        &[
            ("2026-03-27T12:00:00Z", 0),
            ("2026-03-28T07:59:59Z", 0),
            ("2026-03-28T08:00:00Z", 1),
            ("2026-03-29T06:59:59Z", 1),
            ("2026-03-29T07:00:00Z", 2),
            ("2026-03-30T06:59:59Z", 2),
            ("2026-03-30T07:00:00Z", 3),
        ],
    );
    assert_eq!(
        due_ats(&s),
        [
            stamp("2026-03-28T08:00:00Z"),
            stamp("2026-03-29T07:00:00Z"),
            stamp("2026-03-30T07:00:00Z")
        ]
    );
    let body = rx.received()[1].json();
    assert_eq!(body["kind"], "agenda");
    assert_eq!(body["subject"], Value::Null);
    assert_eq!(body["title"], "Your day: Sunday 29 March");
    assert_eq!(body["body"], "Nothing planned today.");
}

/// A time the clocks skip (01:30 in London on 29 March 2026, when 01:00
/// becomes 02:00) comes as late as the gap: 02:30 BST, 01:30 UTC; a time
/// they repeat (01:30 on 25 October 2026) comes the first time, 00:30
/// UTC, and only once.
#[test]
fn the_agenda_at_a_time_the_clocks_skip_or_repeat() {
    let rows = [
        (
            "2026-03-28T12:00:00Z",
            [
                ("2026-03-29T01:29:59Z", 0),
                ("2026-03-29T01:30:00Z", 1),
                ("2026-03-30T00:29:59Z", 1),
                ("2026-03-30T00:30:00Z", 2),
            ],
            ["2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"],
        ),
        (
            "2026-10-24T12:00:00Z",
            [
                ("2026-10-25T00:29:59Z", 0),
                ("2026-10-25T00:30:00Z", 1),
                ("2026-10-25T01:30:00Z", 1),
                ("2026-10-26T01:30:00Z", 2),
            ],
            ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"],
        ),
    ];
    for (start, steps, due) in rows {
        let s = start_at(start);
        set_zone(&s, "Europe/London");
        let rx = HttpReceiver::start();
        let phone = ntfy(&s, "Phone", &rx, None);
        agenda_only(&s, &phone, "01:30");
        run(&s);
        expect_counts(&s, &rx, &steps);
        let due: Vec<String> = due.iter().map(|d| stamp(d)).collect();
        assert_eq!(due_ats(&s), due, "from {start}");
    }
}

/// Key dates come some days before and on the day, at their time in the
/// owner's zone: "in 3 days" and "today", with the date and the years,
/// about the key date (its ID the subject).
#[test]
fn key_dates_come_some_days_before() {
    let s = start();
    set_zone(&s, "Europe/Paris");
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    set(
        &s,
        json!({"channel_ids": ids_of(&[&phone]), "key_dates": {"days_before": [3, 0], "at": "09:00"},
               "deadlines": {"days_before": []}}),
    );
    let ada = s
        .post(
            "/people",
            json!({"person": {"name": "Ada Lovelace",
                   "key_dates": [{"kind": "birthday", "day": 15, "month": 3, "year": 1990},
                                 {"kind": "other", "label": "Met", "day": 16, "month": 3}]}}),
        )
        .expect(201)
        .data()
        .clone();
    // 09:00 in Paris is 08:00 UTC in March (before 29 March); the first
    // run only sets where the days start (today's time has passed).
    expect_counts(
        &s,
        &rx,
        &[
            ("2026-03-10T09:00:00Z", 0),
            ("2026-03-11T08:00:00Z", 0),
            ("2026-03-12T07:59:59Z", 0),
            ("2026-03-12T08:00:00Z", 1),
            ("2026-03-13T08:00:00Z", 2),
            ("2026-03-14T08:00:00Z", 2),
            ("2026-03-15T08:00:00Z", 3),
            ("2026-03-16T08:00:00Z", 4),
            ("2026-03-17T08:00:00Z", 4),
        ],
    );
    assert_eq!(
        titles(&rx),
        [
            "Ada Lovelace's birthday in 3 days",
            "Ada Lovelace's Met in 3 days",
            "Ada Lovelace's birthday today",
            "Ada Lovelace's Met today"
        ]
    );
    let got = rx.received();
    assert_eq!(got[0].text(), "Sunday 15 March · 36 years");
    assert_eq!(got[0].header("tags"), Some("birthday"));
    assert_eq!(got[0].header("priority"), Some("3"));
    assert_eq!(got[1].text(), "Monday 16 March");
    assert_eq!(got[1].header("tags"), Some("date"));
    assert_eq!(got[2].header("priority"), Some("4"));
    let birthday = ada["key_dates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "birthday")
        .unwrap()["id"]
        .clone();
    let log = notifications(&s);
    assert_eq!(log[1]["kind"], "key_date");
    assert_eq!(log[1]["subject_id"], birthday);
    assert_eq!(log[1]["due_at"], stamp("2026-03-15T08:00:00Z"));
}

/// Deadlines come some days before and on the day, at their time in the
/// owner's zone (09:00 in Tokyo is 00:00 UTC): an open task's and an
/// open project's; a closed task's or a done project's never. A webhook
/// names the subject's type.
#[test]
fn deadlines_come_some_days_before() {
    let s = start();
    set_zone(&s, "Asia/Tokyo");
    let rx = HttpReceiver::start();
    let hook = webhook(&s, "Hook", &rx, None);
    set(
        &s,
        json!({"channel_ids": ids_of(&[&hook]), "key_dates": {"days_before": []}}),
    );
    let rent = new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-12"}),
    );
    let done = new_task(
        &s,
        json!({"title": "Done already", "deadline_on": "2026-03-12"}),
    );
    patch_task(&s, &id(&done), json!({"status": "completed"})).expect(200);
    let launch = s
        .post(
            "/projects",
            json!({"project": {"name": "Launch", "status": "active", "deadline": "2026-03-13"}}),
        )
        .expect(201)
        .data()
        .clone();
    s.post(
        "/projects",
        json!({"project": {"name": "Shipped", "status": "done", "deadline": "2026-03-13"}}),
    )
    .expect(201);
    expect_counts(
        &s,
        &rx,
        &[
            ("2026-03-10T09:00:00Z", 0),
            ("2026-03-10T23:59:59Z", 0),
            ("2026-03-11T00:00:00Z", 1),
            ("2026-03-12T00:00:00Z", 3),
            ("2026-03-13T00:00:00Z", 4),
            ("2026-03-14T00:00:00Z", 4),
        ],
    );
    let bodies: Vec<Value> = rx.received().iter().map(Received::json).collect();
    let seen: Vec<(&str, &str, &str)> = bodies
        .iter()
        .map(|b| {
            (
                b["title"].as_str().unwrap(),
                b["subject"]["type"].as_str().unwrap(),
                b["subject"]["id"].as_str().unwrap(),
            )
        })
        .collect();
    let (rent_id, launch_id) = (id(&rent), id(&launch));
    let mut day_two = seen[1..3].to_vec();
    day_two.sort();
    assert_eq!(
        seen[0],
        ("Due tomorrow: Pay rent", "task", rent_id.as_str())
    );
    assert_eq!(
        day_two,
        [
            ("Due today: Pay rent", "task", rent_id.as_str()),
            ("Due tomorrow: Launch", "project", launch_id.as_str()),
        ]
    );
    assert_eq!(
        seen[3],
        ("Due today: Launch", "project", launch_id.as_str())
    );
    assert_eq!(bodies[0]["body"], "Task · deadline Thursday 12 March");
    assert_eq!(bodies[3]["body"], "Project · deadline Friday 13 March");
    assert_eq!(bodies[0]["kind"], "deadline");
    assert_eq!(bodies[0]["due_at"], stamp("2026-03-11T00:00:00Z"));
}

/// A daily reminder turned back on after its time today has passed
/// starts at its next time to come (the settings' rule: "a daily
/// reminder turned on or moved starts at its next time to come"): for
/// the days it was off nothing is sent late, nor logged as missed.
/// `name` is the settings' key; `off` and `on` what turns it off and on.
#[track_caller]
fn assert_turned_back_on_starts_tomorrow(name: &str, off: Value, on: Value) {
    let s = start();
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    s.post(
        "/people",
        json!({"person": {"name": "Ada", "key_dates": [
            {"kind": "other", "label": "A", "day": 13, "month": 3},
            {"kind": "other", "label": "B", "day": 14, "month": 3},
            {"kind": "other", "label": "C", "day": 15, "month": 3}]}}),
    )
    .expect(201);
    for day in ["2026-03-13", "2026-03-14", "2026-03-15"] {
        new_task(
            &s,
            json!({"title": format!("Due {day}"), "deadline_on": day}),
        );
    }
    // All three on, each at 09:00 UTC, and looked at once.
    set(
        &s,
        json!({"channel_ids": ids_of(&[&phone]), "daily_agenda": {"enabled": true, "at": "09:00"},
               "key_dates": {"days_before": [0]}, "deadlines": {"days_before": [0]}}),
    );
    run_at(&s, "2026-03-10T10:00:00Z");
    assert_eq!(rx.count(), 0, "{name}: nothing before the first time");
    // Only `name` on; then off for days; then on again after 09:00.
    let mut only = json!({"daily_agenda": {"enabled": false}, "key_dates": {"days_before": []},
                          "deadlines": {"days_before": []}});
    only[name] = on.clone();
    set(&s, only);
    set(&s, json!({ name: off }));
    for instant in [
        "2026-03-12T10:00:00Z",
        "2026-03-14T10:00:00Z",
        "2026-03-15T10:00:00Z",
    ] {
        run_at(&s, instant);
    }
    set(&s, json!({ name: on }));
    run_at(&s, "2026-03-15T10:00:01Z");
    assert_eq!(
        notifications(&s),
        Vec::<Value>::new(),
        "{name}: turned on after its time, it starts tomorrow"
    );
    run_at(&s, "2026-03-16T09:00:00Z");
    assert_eq!(rx.count(), usize::from(name == "daily_agenda"), "{name}");
    assert!(
        notifications(&s).iter().all(|n| n["status"] == "sent"),
        "{name}: {:#?}",
        notifications(&s)
    );
}

/// The agenda turned back on after its time starts tomorrow.
#[test]
fn the_agenda_turned_back_on_starts_at_its_next_time() {
    assert_turned_back_on_starts_tomorrow(
        "daily_agenda",
        json!({"enabled": false}),
        json!({"enabled": true}),
    );
}

/// Key dates and deadlines turned back on (`days_before` from none to
/// some) after their time start tomorrow.
#[test]
fn key_dates_and_deadlines_turned_back_on_start_at_their_next_time() {
    for name in ["key_dates", "deadlines"] {
        assert_turned_back_on_starts_tomorrow(
            name,
            json!({"days_before": []}),
            json!({"days_before": [0]}),
        );
    }
}
