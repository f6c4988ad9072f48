//! Document 3, "People" (`GET /people/{id}/meetings` and the Meetings
//! rules), with the decisions ("GET /people/{id}/meetings"): a person's
//! upcoming occurrences, from now to the end of the 60th day from today
//! in the owner's zone, not yet ended, in the calendar's order, bounded
//! by `limit` with `meta.has_more`.

use serde_json::{Value, json};

use super::{events, feed_of, feeds_core, titles};
use crate::common::feed_server::vcalendar;
use crate::common::fixtures::{UNKNOWN, id, set_zone};
use crate::common::{Call, Core, Expect, FeedServer, check};

/// Now is 2026-03-10 09:00 UTC; Ada Lovelace (ada@example.com) attends
/// all but three of these; "By name" names her by name only.
const EVENTS: &[&str] = &[
    "UID:past\nSUMMARY:Past\nDTSTART:20260309T100000Z\nDTEND:20260309T110000Z\nATTENDEE:mailto:ada@example.com",
    "UID:ended\nSUMMARY:Ended now\nDTSTART:20260310T080000Z\nDTEND:20260310T090000Z\nATTENDEE:mailto:ada@example.com",
    "UID:on\nSUMMARY:Ongoing\nDTSTART:20260310T083000Z\nDTEND:20260310T093000Z\nATTENDEE:mailto:ada@example.com",
    "UID:today\nSUMMARY:All-day today\nDTSTART;VALUE=DATE:20260310\nATTENDEE:mailto:ada@example.com",
    "UID:two\nSUMMARY:Two days\nDTSTART;VALUE=DATE:20260309\nDTEND;VALUE=DATE:20260311\nATTENDEE:mailto:ada@example.com",
    "UID:yday\nSUMMARY:All-day yesterday\nDTSTART;VALUE=DATE:20260309\nATTENDEE:mailto:ada@example.com",
    "UID:soon\nSUMMARY:Soon\nDTSTART:20260311T100000Z\nDTEND:20260311T110000Z\nATTENDEE;CN=Ada:mailto:ADA@example.com",
    "UID:org\nSUMMARY:Organised\nDTSTART:20260312T100000Z\nORGANIZER;CN=Ada:mailto:ada@example.com\nATTENDEE:mailto:bob@x.org",
    "UID:bob\nSUMMARY:Not Ada\nDTSTART:20260311T120000Z\nATTENDEE:mailto:bob@x.org",
    "UID:name\nSUMMARY:By name\nDTSTART:20260313T100000Z\nATTENDEE;CN=ada lovelace:mailto:someone@else.org",
    "UID:weekly\nSUMMARY:Weekly\nDTSTART:20260316T100000Z\nDTEND:20260316T103000Z\nRRULE:FREQ=WEEKLY;COUNT=3\nATTENDEE:mailto:ada@example.com",
    "UID:d60\nSUMMARY:Day 60 late\nDTSTART:20260509T220000Z\nDTEND:20260509T230000Z\nATTENDEE:mailto:ada@example.com",
    "UID:d61\nSUMMARY:Day 61\nDTSTART:20260510T003000Z\nATTENDEE:mailto:ada@example.com",
];

/// Ada's meetings in order, UTC.
const ADAS: &[&str] = &[
    "Two days",
    "All-day today",
    "Ongoing",
    "Soon",
    "Organised",
    "By name",
    "Weekly",
    "Weekly",
    "Weekly",
    "Day 60 late",
];

/// A core with [`EVENTS`] in a feed and Ada; Ada's id.
fn ada_and_her_events(s: &Core, server: &FeedServer) -> String {
    let ada = id(s
        .post(
            "/people",
            json!({"person": {"name": "Ada Lovelace", "email_addresses": [{"address": "ada@example.com"}]}}),
        )
        .expect(201)
        .data());
    feed_of(s, server, "/cal.ics", &vcalendar(EVENTS));
    ada
}

/// `GET /people/{id}/meetings?{query}`, which must be 200.
#[track_caller]
fn meetings(s: &Core, person: &str, query: &str) -> Value {
    s.get(&format!("/people/{person}/meetings?{query}"))
        .expect(200)
        .body
}

/// The titles of a meetings answer.
fn listed(body: &Value) -> Vec<String> {
    titles(body["data"].as_array().expect("a list"))
}

/// The Meetings rules: upcoming only (not ended; an all-day one through
/// its last day), matched as attendee or organizer, by email or name, up
/// to the end of the 60th day, in the calendar's order; each occurrence as
/// the calendar shows it.
#[test]
fn meetings_are_the_persons_upcoming_occurrences_in_order() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = ada_and_her_events(&s, &server);
    let all = meetings(&s, &ada, "limit=100");
    assert_eq!(listed(&all), ADAS);
    assert_eq!(all["meta"], json!({"limit": 100, "has_more": false}));
    let soon = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["title"] == "Soon")
        .unwrap()
        .clone();
    let shown = events(&s, "2026-03-11", "2026-03-11")
        .into_iter()
        .find(|e| e["title"] == "Soon")
        .unwrap();
    assert_eq!(soon, shown, "as the calendar shows it");
    let keys: Vec<&Value> = all["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["key"])
        .collect();
    let mut distinct = keys.clone();
    distinct.sort_by_key(|k| k.to_string());
    distinct.dedup();
    assert_eq!(distinct.len(), keys.len(), "each occurrence once");

    // Someone with no meetings, and time moving on.
    let bob = id(s
        .post("/people", json!({"person": {"name": "Nobody"}}))
        .expect(201)
        .data());
    assert_eq!(
        meetings(&s, &bob, ""),
        json!({"data": [], "meta": {"limit": 10, "has_more": false}})
    );
    s.advance(24 * 3600);
    assert_eq!(
        listed(&meetings(&s, &ada, "limit=100")),
        [
            "Soon",
            "Organised",
            "By name",
            "Weekly",
            "Weekly",
            "Weekly",
            "Day 60 late",
            "Day 61"
        ],
        "11 March 09:00: yesterday's are over, day 61 is now day 60"
    );
}

/// The decisions: the window ends with the 60th day from today in the
/// owner's zone.
#[test]
fn the_window_ends_with_the_sixtieth_day_in_the_owners_zone() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = ada_and_her_events(&s, &server);
    // In Tokyo, 9 May ends at 15:00 UTC: "Day 60 late" is on 10 May there.
    set_zone(&s, "Tokyo");
    let got = listed(&meetings(&s, &ada, "limit=100"));
    assert!(!got.contains(&"Day 60 late".to_owned()), "{got:?}");
    assert!(got.contains(&"All-day today".to_owned()), "{got:?}");
    assert_eq!(got.len(), ADAS.len() - 1, "{got:?}");
}

/// "People" meetings: `limit` (default 10, over 100 taken as 100) bounds
/// it and `meta.has_more` says whether more fall in the 60 days.
#[test]
fn limit_bounds_the_meetings_and_has_more_says_so() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = ada_and_her_events(&s, &server);
    for (query, count, limit, more) in [
        ("", 10, 10, false),
        ("limit=3", 3, 3, true),
        ("limit=9", 9, 9, true),
        ("limit=10", 10, 10, false),
        ("limit=11", 10, 11, false),
        ("limit=1", 1, 1, true),
        ("limit=500", 10, 100, false),
    ] {
        let got = meetings(&s, &ada, query);
        assert_eq!(listed(&got), ADAS[..count], "{query}");
        assert_eq!(
            got["meta"],
            json!({"limit": limit, "has_more": more}),
            "{query}"
        );
    }
}

/// "People" meetings errors: `limit` not a whole number of 1 or more is
/// 400; an unknown, malformed or deleted person is 404.
#[test]
fn meetings_refuse_a_bad_limit_and_need_a_live_person() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = ada_and_her_events(&s, &server);
    for query in ["limit=0", "limit=-1", "limit=x", "limit=1.5", "limit="] {
        check(
            &s,
            Call::get(format!("/people/{ada}/meetings?{query}")),
            Expect::bad_param(Some("limit")),
        );
    }
    let gone = id(s
        .post("/people", json!({"person": {"name": "Gone"}}))
        .expect(201)
        .data());
    s.delete(&format!("/people/{gone}")).expect(204);
    for who in [UNKNOWN, "not-an-id", gone.as_str()] {
        check(
            &s,
            Call::get(format!("/people/{who}/meetings")),
            Expect::error(404, "not_found", None),
        );
    }
}

/// The Meetings rules: an occurrence that began long ago and has not
/// ended is upcoming; a deleted feed's events are no one's meetings.
#[test]
fn a_long_meeting_still_on_is_upcoming_until_its_feed_goes() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = id(s
        .post(
            "/people",
            json!({"person": {"name": "Ada", "email_addresses": [{"address": "ada@example.com"}]}}),
        )
        .expect(201)
        .data());
    let feed = feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            "UID:long\nSUMMARY:Residency\nDTSTART:20260201T090000Z\nDTEND:20260320T170000Z\nATTENDEE:mailto:ada@example.com",
            "UID:term\nSUMMARY:Term\nDTSTART;VALUE=DATE:20260105\nDTEND;VALUE=DATE:20260328\nATTENDEE:mailto:ada@example.com",
            "UID:daily\nSUMMARY:Daily\nDTSTART:20260101T080000Z\nDTEND:20260101T081500Z\nRRULE:FREQ=DAILY;COUNT=75\nATTENDEE:mailto:ada@example.com",
        ]),
    );
    // "Daily" runs 1 January to 16 March: today's has ended (08:15), six remain.
    let mut wanted = vec!["Term", "Residency"];
    wanted.extend(["Daily"; 6]);
    assert_eq!(listed(&meetings(&s, &ada, "limit=100")), wanted);
    s.delete(&format!("/calendar_feeds/{}", id(&feed)))
        .expect(204);
    assert_eq!(listed(&meetings(&s, &ada, "")), Vec::<String>::new());
}
