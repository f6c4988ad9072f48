//! Document 3, "Calendar range" and "Calendar" (`GET /calendar`), with
//! the decisions ("GET /calendar", "Events"): the parameters, `today`,
//! which events touch the range and their order, the fields of an event,
//! and the tasks, project dates and key dates of the range. Attendees,
//! `people` and meetings links are in `attendees`.

use serde_json::{Value, json};

use super::{EVENT_KEYS, events, events_of, feed_of, feeds_core, instant, range, titles, whens};
use crate::common::feed_server::vcalendar;
use crate::common::fixtures::{get_task, id, keys, new_task, set_zone};
use crate::common::{Call, Core, Expect, FeedServer, check};

/// The keys of a calendar range, sorted.
const RANGE_KEYS: &[&str] = &[
    "events",
    "from",
    "key_dates",
    "people",
    "project_dates",
    "repeats",
    "tasks",
    "to",
    "today",
];

/// "Calendar": `from` and `to` are required dates, `to` on or after
/// `from`, at most 42 days in all; else 400 `invalid_parameter` on them.
#[test]
fn from_and_to_are_checked() {
    let s = Core::start();
    let cases = [
        ("", Some("from")),
        ("to=2026-03-10", Some("from")),
        ("from=2026-03-10", Some("to")),
        ("from=&to=2026-03-12", Some("from")),
        ("from=2026-03-10&to=", Some("to")),
        ("from=2026-3-10&to=2026-03-12", Some("from")),
        ("from=soon&to=2026-03-12", Some("from")),
        ("from=2026-03-10T00:00:00Z&to=2026-03-12", Some("from")),
        ("from=2026-03-10&to=2026-02-30", Some("to")),
        ("from=2026-03-10&to=20260312", Some("to")),
        ("from=2026-03-10&to=2026-13-01", Some("to")),
        ("from=2026-03-12&to=2026-03-11", None),
        ("from=2026-03-01&to=2026-04-12", None),
        ("from=2026-12-01&to=2027-01-12", None),
        ("from=2026-01-01&to=2026-12-31", None),
    ];
    for (query, detail) in cases {
        let reply = check(
            &s,
            Call::get(format!("/calendar?{query}")),
            Expect::bad_param(detail),
        );
        let named = reply.detail_keys();
        assert!(
            !named.is_empty() && named.iter().all(|k| k == "from" || k == "to"),
            "{query}: {}",
            reply.body
        );
    }
    // One day, and 42 days (over February in a leap year too).
    for (from, to) in [
        ("2026-03-10", "2026-03-10"),
        ("2026-03-01", "2026-04-11"),
        ("2028-02-01", "2028-03-13"),
        ("2026-12-01", "2027-01-11"),
    ] {
        let got = range(&s, from, to);
        assert_eq!(keys(&got), RANGE_KEYS);
        assert_eq!(
            (got["from"].as_str(), got["to"].as_str()),
            (Some(from), Some(to))
        );
        assert_eq!(got["today"], "2026-03-10");
        for list in [
            "events",
            "tasks",
            "repeats",
            "project_dates",
            "key_dates",
            "people",
        ] {
            assert_eq!(got[list], json!([]), "{list}");
        }
    }
}

/// Document 1: "today" is today in the owner's zone.
#[test]
fn today_is_in_the_owners_zone() {
    let s = Core::start();
    s.clock.set("2026-03-10T16:00:00Z".parse().unwrap());
    assert_eq!(range(&s, "2026-03-01", "2026-03-02")["today"], "2026-03-10");
    set_zone(&s, "Tokyo");
    assert_eq!(range(&s, "2026-03-01", "2026-03-02")["today"], "2026-03-11");
}

/// "Calendar" rule 1 and the decisions: events touching [from 00:00,
/// to + 1 00:00) in the owner's zone (a timed event that began before
/// `from` and is still on; not one that ended at midnight); all-day
/// events by their dates, whatever the zone.
#[test]
fn events_touching_the_range_in_the_owners_zone() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            "UID:1\nSUMMARY:Late night\nDTSTART:20260309T220000Z\nDTEND:20260310T020000Z",
            "UID:2\nSUMMARY:Ended at midnight\nDTSTART:20260309T230000Z\nDTEND:20260310T000000Z",
            "UID:3\nSUMMARY:Last minute\nDTSTART:20260310T235900Z\nDTEND:20260311T003000Z",
            "UID:4\nSUMMARY:Tomorrow\nDTSTART:20260311T000000Z\nDTEND:20260311T010000Z",
            "UID:5\nSUMMARY:Trip\nDTSTART;VALUE=DATE:20260308\nDTEND;VALUE=DATE:20260312",
            "UID:6\nSUMMARY:Yesterday\nDTSTART;VALUE=DATE:20260309",
            "UID:7\nSUMMARY:Instant\nDTSTART:20260310T120000Z",
            "UID:8\nSUMMARY:Season\nDTSTART;VALUE=DATE:20260101\nDTEND;VALUE=DATE:20260401",
            "UID:9\nSUMMARY:Conference\nDTSTART:20260201T090000Z\nDTEND:20260320T170000Z",
        ]),
    );
    let f = id(&feed);
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
        [
            "Season",
            "Conference",
            "Trip",
            "Late night",
            "Instant",
            "Last minute"
        ]
    );
    // Tokyo: 10 March is 9 March 15:00 to 10 March 15:00 UTC.
    set_zone(&s, "Tokyo");
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
        [
            "Season",
            "Conference",
            "Trip",
            "Late night",
            "Ended at midnight",
            "Instant"
        ]
    );
    // A multi-day event is on every day it covers.
    set_zone(&s, "UTC");
    for day in ["2026-03-08", "2026-03-09", "2026-03-11"] {
        assert!(
            titles(&events_of(&s, &f, day, day)).contains(&"Trip".to_owned()),
            "{day}"
        );
    }
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-12", "2026-03-20")),
        ["Season", "Conference"]
    );
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-21", "2026-03-31")),
        ["Season"]
    );
    assert!(events_of(&s, &f, "2026-04-01", "2026-04-30").is_empty());
}

/// "Calendar" rule 1: by start (the day in the owner's zone), all-day
/// ones first on a day, then the start instant, title (ignoring case) and
/// key; events of every feed together.
#[test]
fn events_are_ordered_by_start_all_day_first_then_title_and_key() {
    let s = feeds_core();
    let server = FeedServer::start();
    feed_of(
        &s,
        &server,
        "/one.ics",
        &vcalendar(&[
            "UID:early\nSUMMARY:Early\nDTSTART:20260311T070000Z",
            "UID:holiday\nSUMMARY:Holiday\nDTSTART;VALUE=DATE:20260311",
            "UID:b\nSUMMARY:b\nDTSTART:20260310T080000Z",
            "UID:trip\nSUMMARY:Trip\nDTSTART;VALUE=DATE:20260309\nDTEND;VALUE=DATE:20260311",
            "UID:same-1\nSUMMARY:Same\nDTSTART:20260311T120000Z",
            "UID:late\nSUMMARY:Late night\nDTSTART:20260309T220000Z\nDTEND:20260310T020000Z",
        ]),
    );
    feed_of(
        &s,
        &server,
        "/two.ics",
        &vcalendar(&[
            "UID:a\nSUMMARY:a\nDTSTART:20260310T090000Z",
            "UID:A\nSUMMARY:A\nDTSTART:20260310T080000Z",
            "UID:zeta\nSUMMARY:Zeta\nDTSTART;VALUE=DATE:20260310",
            "UID:same-2\nSUMMARY:Same\nDTSTART:20260311T120000Z",
        ]),
    );
    let listed = events(&s, "2026-03-10", "2026-03-11");
    assert_eq!(
        titles(&listed),
        [
            "Trip",
            "Late night",
            "Zeta",
            "A",
            "b",
            "a",
            "Holiday",
            "Early",
            "Same",
            "Same"
        ]
    );
    let same: Vec<&str> = listed[8..]
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert!(same[0] < same[1], "ties by key: {same:?}");
}

/// "CalendarEvent" and the decisions ("Events"): the fields of timed and
/// all-day events: title and location squished, text unescaped and
/// unfolded, HTML stripped, the description cut at 4,000 characters,
/// blanks null, only http(s) `url`s, DURATION, an end before the start,
/// an all-day event without an end lasting one day.
#[test]
fn each_event_has_its_fields() {
    let s = feeds_core();
    let server = FeedServer::start();
    let long = "é".repeat(5000);
    let text = vcalendar(&[
        "UID:t\nSUMMARY:  Weekly    sync \nDTSTART:20260310T100000Z\nDTEND:20260310T110000Z\nLOCATION:  Room   4 \nDESCRIPTION:Line one\\nLine two\\, with a comma\\; and \\\\ backslash\nURL:https://example.com/e/1",
        "UID:untitled\nDTSTART:20260311T100000Z\nLOCATION:   \nDESCRIPTION:   \nURL:ftp://example.com/file",
        "UID:escaped\nSUMMARY:Lunch\\, then a walk\\; maybe\nDTSTART:20260319T100000Z\nLOCATION:Caf\u{e9}\\, Main St",
        "UID:html\nSUMMARY:Html\nDTSTART:20260312T100000Z\nDESCRIPTION:<p>Hello <b>there</b></p>",
        &format!("UID:long\nSUMMARY:Long\nDTSTART:20260313T100000Z\nDESCRIPTION:{long}"),
        "UID:folded\nSUMMARY:Folded\nDTSTART:20260314T100000Z\nDESCRIPTION:Folded deFOLDscription",
        "UID:duration\nSUMMARY:Duration\nDTSTART:20260315T100000Z\nDURATION:PT1H30M",
        "UID:backwards\nSUMMARY:Backwards\nDTSTART:20260316T150000Z\nDTEND:20260316T140000Z",
        "UID:day\nSUMMARY:Day\nDTSTART;VALUE=DATE:20260317",
        "UID:zero\nSUMMARY:Zero days\nDTSTART;VALUE=DATE:20260318\nDTEND;VALUE=DATE:20260318",
        "UID:nostart\nSUMMARY:No start\nDTEND:20260319T100000Z",
    ])
    .replace("FOLD", "\r\n ");
    let feed = feed_of(&s, &server, "/cal.ics", &text);
    let listed = events(&s, "2026-03-09", "2026-03-20");
    let by_title = |title: &str| -> Value {
        listed
            .iter()
            .find(|e| e["title"] == json!(title))
            .unwrap_or_else(|| panic!("{title}: {listed:?}"))
            .clone()
    };
    assert_eq!(listed.len(), 10, "the event without DTSTART is skipped");
    assert_eq!(
        by_title("Lunch, then a walk; maybe")["location"],
        "Café, Main St"
    );

    let timed = by_title("Weekly sync");
    assert_eq!(keys(&timed), EVENT_KEYS);
    assert_eq!(timed["feed_id"], feed["id"]);
    assert_eq!(timed["all_day"], false);
    assert_eq!(instant(&timed["starts_at"]), "2026-03-10T10:00:00Z");
    assert_eq!(instant(&timed["ends_at"]), "2026-03-10T11:00:00Z");
    assert_eq!(
        (&timed["start_on"], &timed["end_on"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(timed["location"], "Room 4");
    assert_eq!(
        timed["description"],
        "Line one\nLine two, with a comma; and \\ backslash"
    );
    assert_eq!(timed["url"], "https://example.com/e/1");
    assert_eq!(timed["meeting"], Value::Null);
    assert_eq!(timed["rrule"], Value::Null);
    assert_eq!(timed["attendee_count"], 0);
    assert_eq!(timed["attendee_names"], json!([]));
    assert_eq!(timed["attendees"], json!([]));
    assert!(timed["key"].as_str().is_some_and(|k| !k.is_empty()));

    let untitled = by_title("");
    assert_eq!(untitled["location"], Value::Null);
    assert_eq!(untitled["description"], Value::Null);
    assert_eq!(untitled["url"], Value::Null, "only http(s)");
    assert_eq!(
        instant(&untitled["ends_at"]),
        "2026-03-11T10:00:00Z",
        "no end: ends at its start"
    );
    assert_eq!(by_title("Html")["description"], "Hello there");
    let cut = by_title("Long")["description"].as_str().unwrap().to_owned();
    assert_eq!(cut.chars().count(), 4000);
    assert!(cut.chars().all(|c| c == 'é'));
    assert_eq!(by_title("Folded")["description"], "Folded description");
    assert_eq!(
        instant(&by_title("Duration")["ends_at"]),
        "2026-03-15T11:30:00Z"
    );
    let backwards = by_title("Backwards");
    assert_eq!(backwards["ends_at"], backwards["starts_at"]);

    let day = by_title("Day");
    assert_eq!(keys(&day), EVENT_KEYS);
    assert_eq!(day["all_day"], true);
    assert_eq!(
        (&day["starts_at"], &day["ends_at"]),
        (&Value::Null, &Value::Null)
    );
    assert_eq!(whens(&[day]), ["2026-03-17..2026-03-17"]);
    assert_eq!(whens(&[by_title("Zero days")]), ["2026-03-18..2026-03-18"]);
}

/// "Calendar" rule 2: live tasks, open or completed, with `deadline_on`
/// in the range, by `deadline_on` then title; an overdue open task only on
/// its own date; not `wont_do`, archived or deleted ones.
#[test]
fn tasks_with_deadlines_in_the_range() {
    let s = Core::start();
    let mut made = std::collections::HashMap::new();
    for (title, fields) in [
        ("Open due 12", json!({"deadline_on": "2026-03-12"})),
        ("Beta due 12", json!({"deadline_on": "2026-03-12"})),
        ("Alpha due 12", json!({"deadline_on": "2026-03-12"})),
        (
            "Done due 11",
            json!({"deadline_on": "2026-03-11", "status": "completed"}),
        ),
        (
            "Dropped due 11",
            json!({"deadline_on": "2026-03-11", "status": "wont_do"}),
        ),
        (
            "Archived due 11",
            json!({"deadline_on": "2026-03-11", "status": "archived"}),
        ),
        ("Overdue", json!({"deadline_on": "2026-03-05"})),
        ("No deadline", json!({})),
        ("Later", json!({"deadline_on": "2026-03-20"})),
        ("Deleted due 12", json!({"deadline_on": "2026-03-12"})),
    ] {
        let mut fields = fields;
        fields["title"] = json!(title);
        made.insert(title, new_task(&s, fields));
    }
    s.delete(&format!("/tasks/{}", id(&made["Deleted due 12"])))
        .expect(204);
    let tasks = |from: &str, to: &str| -> Vec<String> {
        let got = range(&s, from, to);
        let tasks = got["tasks"].as_array().unwrap();
        for task in tasks {
            assert_eq!(*task, get_task(&s, &id(task)), "full Task records");
        }
        tasks
            .iter()
            .map(|t| t["title"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        tasks("2026-03-10", "2026-03-14"),
        ["Done due 11", "Alpha due 12", "Beta due 12", "Open due 12"],
        "the overdue task is not moved to today"
    );
    assert_eq!(
        tasks("2026-03-01", "2026-03-14"),
        [
            "Overdue",
            "Done due 11",
            "Alpha due 12",
            "Beta due 12",
            "Open due 12"
        ]
    );
    assert_eq!(tasks("2026-03-15", "2026-03-31"), ["Later"]);
}

/// "Calendar" rule 3: live `planned`, `active` and `on_hold` projects
/// with a start or a deadline in the range, by date, then name, then start
/// before deadline; each with the whole Project.
#[test]
fn project_dates_in_the_range() {
    let s = Core::start();
    let mut made = std::collections::HashMap::new();
    for (name, fields) in [
        (
            "Planned",
            json!({"status": "planned", "start_date": "2026-03-03", "deadline": "2026-03-20"}),
        ),
        (
            "Active",
            json!({"status": "active", "deadline": "2026-03-12"}),
        ),
        (
            "Held",
            json!({"status": "on_hold", "start_date": "2026-03-05"}),
        ),
        ("Done", json!({"status": "done", "deadline": "2026-03-06"})),
        (
            "Dropped",
            json!({"status": "cancelled", "start_date": "2026-03-06"}),
        ),
        (
            "Gone",
            json!({"status": "active", "deadline": "2026-03-07"}),
        ),
        (
            "Same day",
            json!({"start_date": "2026-03-12", "deadline": "2026-03-12"}),
        ),
        ("Apple", json!({"deadline": "2026-03-12"})),
    ] {
        let mut fields = fields;
        fields["name"] = json!(name);
        let project = s
            .post("/projects", json!({ "project": fields }))
            .expect(201)
            .data()
            .clone();
        made.insert(name, project);
    }
    s.delete(&format!("/projects/{}", id(&made["Gone"])))
        .expect(204);
    let dates = |from: &str, to: &str| -> Vec<(String, String, String)> {
        let got = range(&s, from, to);
        got["project_dates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let project = &d["project"];
                let fresh = s
                    .get(&format!("/projects/{}", id(project)))
                    .expect(200)
                    .data()
                    .clone();
                assert_eq!(*project, fresh, "the whole Project");
                assert_eq!(keys(d), ["date", "kind", "project"]);
                (
                    d["date"].as_str().unwrap().to_owned(),
                    d["kind"].as_str().unwrap().to_owned(),
                    project["name"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let row =
        |date: &str, kind: &str, name: &str| (date.to_owned(), kind.to_owned(), name.to_owned());
    assert_eq!(
        dates("2026-03-01", "2026-03-14"),
        [
            row("2026-03-03", "start", "Planned"),
            row("2026-03-05", "start", "Held"),
            row("2026-03-12", "deadline", "Active"),
            row("2026-03-12", "deadline", "Apple"),
            row("2026-03-12", "start", "Same day"),
            row("2026-03-12", "deadline", "Same day"),
        ]
    );
    assert_eq!(
        dates("2026-03-15", "2026-03-31"),
        [row("2026-03-20", "deadline", "Planned")]
    );
}

/// "Calendar" rule 4: live people's key dates in the range, by date,
/// person name and kind (vocabulary order), `years` when the year is
/// known; 29 February on 1 March in a year without one; a range over the
/// new year.
#[test]
fn key_dates_in_the_range() {
    let s = Core::start();
    let person = |fields: Value| -> String {
        id(s.post("/people", json!({ "person": fields }))
            .expect(201)
            .data())
    };
    let leap = person(json!({"name": "Leap", "key_dates": [
        {"kind": "birthday", "day": 29, "month": 2, "year": 2000}]}));
    let bob = person(json!({"name": "Bob", "key_dates": [
        {"kind": "first_met", "day": 3, "month": 3, "year": 2020}]}));
    let ada = person(
        json!({"name": "Ada", "relationships": ["friend"], "key_dates": [
        {"kind": "anniversary", "day": 3, "month": 3},
        {"kind": "birthday", "day": 3, "month": 3, "year": 1990}]}),
    );
    let gone = person(json!({"name": "Gone", "key_dates": [
        {"kind": "birthday", "day": 4, "month": 3}]}));
    let zed = person(json!({"name": "Zed", "key_dates": [
        {"kind": "other", "label": "Name day", "day": 10, "month": 1}]}));
    s.delete(&format!("/people/{gone}")).expect(204);
    let dates = |from: &str, to: &str| -> Vec<(String, String, String, Option<i64>)> {
        range(&s, from, to)["key_dates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["date"].as_str().unwrap().to_owned(),
                    d["person"]["id"].as_str().unwrap().to_owned(),
                    d["key_date"]["kind"].as_str().unwrap().to_owned(),
                    d["years"].as_i64(),
                )
            })
            .collect()
    };
    let row = |date: &str, who: &str, kind: &str, years: Option<i64>| {
        (date.to_owned(), who.to_owned(), kind.to_owned(), years)
    };
    assert_eq!(
        dates("2026-02-25", "2026-03-05"),
        [
            row("2026-03-01", &leap, "birthday", Some(26)),
            row("2026-03-03", &ada, "birthday", Some(36)),
            row("2026-03-03", &ada, "anniversary", None),
            row("2026-03-03", &bob, "first_met", Some(6)),
        ]
    );
    assert_eq!(
        dates("2028-02-25", "2028-03-05"),
        [
            row("2028-02-29", &leap, "birthday", Some(28)),
            row("2028-03-03", &ada, "birthday", Some(38)),
            row("2028-03-03", &ada, "anniversary", None),
            row("2028-03-03", &bob, "first_met", Some(8)),
        ]
    );
    assert_eq!(
        dates("2026-12-20", "2027-01-20"),
        [row("2027-01-10", &zed, "other", None)]
    );
    // The item's shape, as `/upcoming_key_dates` gives it.
    let item = range(&s, "2026-03-03", "2026-03-03")["key_dates"][1].clone();
    assert_eq!(
        item["person"],
        json!({"id": ada, "name": "Ada", "avatar": null, "relationships": ["friend"]})
    );
    assert!(item.get("years").is_none(), "no year, no `years`: {item}");
    assert_eq!(item["key_date"]["kind"], "anniversary");
    assert_eq!(
        (
            item["key_date"]["day"].as_i64(),
            item["key_date"]["month"].as_i64()
        ),
        (Some(3), Some(3))
    );
}
