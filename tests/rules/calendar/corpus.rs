//! Calendar files as real calendar programs write them (issue 22): the
//! corpus of `tests/fixtures/calendars/` (written for this project in the
//! style of Google, Apple, Outlook and Exchange, Thunderbird, Zimbra,
//! Fastmail's Cyrus and published feeds; see its README), each file
//! subscribed to from loopback and read back through `GET /calendar`,
//! occurrence by occurrence against the lists an independent
//! implementation worked out (python `icalendar` with
//! `recurring-ical-events`, corrected by hand where it departs from RFC
//! 5545, as the corpus's notes say). The lenient files also say which
//! lines must be skipped or joined, and the feed's health counts them.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{events_of, instant};
use crate::common::{Core, FeedServer, Setup, send};
use organiser::Options;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/calendars")
}

/// The picker name of an IANA zone the corpus uses.
fn picker(zone: &str) -> &'static str {
    match zone {
        "Europe/London" => "London",
        "America/New_York" => "Eastern Time (US & Canada)",
        other => panic!("{other}: add its picker name"),
    }
}

/// An occurrence as the corpus writes it.
fn seen(event: &Value) -> Value {
    if event["all_day"] == json!(true) {
        json!({
            "title": event["title"],
            "all_day": true,
            "start_on": event["start_on"],
            "end_on": event["end_on"],
        })
    } else {
        json!({
            "title": event["title"],
            "all_day": false,
            "starts_at": instant(&event["starts_at"]),
            "ends_at": instant(&event["ends_at"]),
        })
    }
}

/// The order of `GET /calendar`: by start, all-day first on a day, then
/// title (ties in the corpus's lists are broken no further).
fn order(o: &Value) -> (String, bool, String) {
    match o["all_day"] == json!(true) {
        true => (
            o["start_on"].as_str().unwrap().to_owned(),
            false,
            o["title"].as_str().unwrap().to_owned(),
        ),
        false => (
            o["starts_at"].as_str().unwrap().to_owned(),
            true,
            o["title"].as_str().unwrap().to_owned(),
        ),
    }
}

#[test]
fn every_file_of_the_corpus_gives_the_occurrences_worked_out_for_it() {
    let dir = corpus_dir();
    let corpus: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("corpus.json")).unwrap()).unwrap();
    assert!(corpus.len() >= 30, "the corpus has {} files", corpus.len());
    let server = FeedServer::start();
    let mut failures = Vec::new();
    let mut compared = 0;
    for entry in &corpus {
        let file = entry["file"].as_str().unwrap();
        let (from, to) = (
            entry["from"].as_str().unwrap(),
            entry["to"].as_str().unwrap(),
        );
        // Synced in the range's own year, so the range is in the window
        // kept at the sync; then read again a year and a half later, when
        // it is expanded as read.
        let s = Core::with(Setup {
            now: "2024-09-20T09:00:00Z",
            options: Options {
                allow_private_feeds: true,
                ..Options::default()
            },
            ..Setup::default()
        });
        send(
            s.local("PATCH", "/me")
                .json(&json!({"me": {"time_zone": picker(entry["zone"].as_str().unwrap())}})),
        )
        .expect(200);
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let path = format!("/{file}");
        server.serve(&path, text);
        let feed = s
            .post(
                "/calendar_feeds",
                json!({"calendar_feed": {"address": server.url(&path), "color": "blue", "name": file}}),
            )
            .expect(201)
            .data()
            .clone();
        let feed_id = feed["id"].as_str().unwrap().to_owned();
        let mut expected: Vec<Value> = entry["expected"].as_array().unwrap().clone();
        expected.sort_by_key(order);
        for when in ["at the sync", "a year and a half later"] {
            if when != "at the sync" {
                s.advance(550 * 86_400);
            }
            let events = events_of(&s, &feed_id, from, to);
            let got: Vec<Value> = events.iter().map(seen).collect();
            let mut sorted = got.clone();
            sorted.sort_by_key(order);
            if sorted != got {
                failures.push(format!("{file} ({when}): not in the calendar's order"));
            }
            if sorted != expected {
                failures.push(format!(
                    "{file} ({when}):\n  expected {}\n  got      {}",
                    serde_json::to_string(&expected).unwrap(),
                    serde_json::to_string(&sorted).unwrap()
                ));
            }
            compared += expected.len();
        }
        if let Some(lenient) = entry.get("lenient") {
            let lines = lenient["skip"].as_array().map_or(0, Vec::len)
                + lenient["join"].as_array().map_or(0, Vec::len);
            let health = &feed["sync_warnings"];
            if health["skipped_lines"] != json!(lines) {
                failures.push(format!(
                    "{file}: the feed's health says {health}, not {lines} lines skipped"
                ));
            }
            let events = events_of(&s, &feed_id, from, to);
            for (title, parts) in lenient["description_parts"].as_object().unwrap() {
                let description = events
                    .iter()
                    .find(|e| e["title"] == json!(title))
                    .and_then(|e| e["description"].as_str())
                    .unwrap_or_default();
                for part in parts.as_array().unwrap() {
                    if !description.contains(part.as_str().unwrap()) {
                        failures.push(format!(
                            "{file}: {title}'s description {description:?} lacks {part}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 400, "only {compared} occurrences compared");
}

/// A Windows zone name the feed does not define is read as CLDR maps it,
/// and the feed's health says it was a guess.
#[test]
fn a_guessed_zone_is_named_in_the_feeds_health() {
    let s = Core::with(Setup {
        now: "2024-09-20T09:00:00Z",
        options: Options {
            allow_private_feeds: true,
            ..Options::default()
        },
        ..Setup::default()
    });
    let server = FeedServer::start();
    let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Call\r\nDTSTART;TZID=Pacific Standard Time:20240912T090000\r\nDTEND;TZID=Pacific Standard Time:20240912T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    server.serve("/w.ics", text);
    let feed = s
        .post(
            "/calendar_feeds",
            json!({"calendar_feed": {"address": server.url("/w.ics"), "color": "blue"}}),
        )
        .expect(201)
        .data()
        .clone();
    assert_eq!(
        feed["sync_warnings"],
        json!({
            "skipped_lines": 0,
            "guessed_zones": [{"tzid": "Pacific Standard Time", "zone": "America/Los_Angeles"}],
            "unknown_zones": [],
        })
    );
    let events = events_of(&s, feed["id"].as_str().unwrap(), "2024-09-12", "2024-09-12");
    assert_eq!(instant(&events[0]["starts_at"]), "2024-09-12T16:00:00Z");
}
