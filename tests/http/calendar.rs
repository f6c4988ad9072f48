//! Calendar feeds over a real socket (document 3, "Calendar feeds";
//! DESIGN.md on private addresses): a feed served by a loopback server in
//! the test process, read by the server and shown by `GET /calendar`; the
//! same loopback address refused when private feeds are not allowed. The
//! rules are tested in process (tests/rules/calendar/).

use serde_json::json;

use crate::common::feed_server::{FeedServer, Vcal};
use crate::common::{Setup, TestServer};

fn calendar() -> String {
    Vcal::new()
        .name("Team")
        .event(
            "UID:standup
             SUMMARY:Stand-up
             DTSTART;TZID=Europe/London:20260309T090000
             DTEND;TZID=Europe/London:20260309T091500
             RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4
             LOCATION:https://meet.google.com/abc-defg-hij",
        )
        .build()
}

#[test]
fn a_loopback_feed_is_read_and_shown_when_private_feeds_are_allowed() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", calendar());
    let mut setup = Setup::default();
    setup.options.allow_private_feeds = true;
    let server = TestServer::with(setup);
    let feed = server
        .post(
            "/calendar_feeds",
            json!({"calendar_feed": {"address": feeds.url("/team.ics"), "color": "blue"}}),
        )
        .expect(201);
    assert_eq!(feed.data()["name"], "Team");
    assert_eq!(feed.data()["address_host"], "127.0.0.1");
    assert!(feed.data().get("address").is_none());
    let range = server
        .get("/calendar?from=2026-03-09&to=2026-04-19")
        .expect(200);
    let starts: Vec<&str> = range.data()["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["starts_at"].as_str().unwrap())
        .collect();
    // 09:00 in London: GMT, then BST from 29 March.
    assert_eq!(
        starts,
        [
            "2026-03-09T09:00:00.000Z",
            "2026-03-16T09:00:00.000Z",
            "2026-03-23T09:00:00.000Z",
            "2026-03-30T08:00:00.000Z",
        ]
    );
    assert_eq!(
        range.data()["events"][0]["meeting"]["provider"],
        "google_meet"
    );
    let synced = server
        .post(
            &format!(
                "/calendar_feeds/{}/sync",
                feed.data()["id"].as_str().unwrap()
            ),
            json!(null),
        )
        .expect(200);
    assert!(synced.data()["sync_error"].is_null());
    assert_eq!(feeds.hits("/team.ics"), 2);
}

#[test]
fn a_loopback_feed_is_refused_by_default() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", calendar());
    let server = TestServer::start();
    let refused = server
        .post(
            "/calendar_feeds",
            json!({"calendar_feed": {"address": feeds.url("/team.ics"), "color": "blue"}}),
        )
        .expect(422);
    assert_eq!(refused.body["error"]["code"], "validation_failed");
    // The reason, and how to allow such addresses (issue 22).
    let said = refused.body["error"]["details"]["address"][0]
        .as_str()
        .unwrap();
    assert!(
        said.starts_with(
            "The address points to a private or local network, which calendar feeds may not use"
        ),
        "{said}"
    );
    assert!(said.contains("ORGANISER_ALLOW_PRIVATE_FEEDS=1"), "{said}");
    assert_eq!(feeds.hits("/team.ics"), 0, "nothing was sent to it");
    let list = server.get("/calendar_feeds").expect(200);
    assert_eq!(list.body["data"], json!([]));
}
