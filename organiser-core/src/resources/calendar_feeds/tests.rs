//! Feeds end to end in process, the network answered by a closure.

use std::sync::{Arc, Mutex};

use super::*;
use crate::net::{HttpError, HttpRequest, HttpResponse};
use crate::{ManualClock, Options, Organiser};

/// A store whose fetches answer with `body` (shared, so tests change it).
fn org(body: Arc<Mutex<(u16, String)>>) -> (Organiser, ManualClock) {
    let clock = ManualClock::at("2026-03-02T09:00:00Z");
    let http = move |r: &HttpRequest| -> std::result::Result<HttpResponse, HttpError> {
        let (status, text) = body.lock().unwrap().clone();
        Ok(HttpResponse::new(status, r.url.clone(), text.into_bytes()))
    };
    let org = Organiser::in_memory_with(Options {
        clock: Arc::new(clock.clone()),
        http: Arc::new(http),
        ..Options::default()
    });
    (org, clock)
}

const WEEKLY: &str = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Team\r\nBEGIN:VEVENT\r\nUID:standup\r\nSUMMARY:Stand-up\r\nDTSTART;TZID=Europe/London:20260302T090000\r\nDTEND;TZID=Europe/London:20260302T091500\r\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6\r\nEXDATE;TZID=Europe/London:20260316T090000\r\nATTENDEE;CN=Ann Lee:mailto:ANN@example.com\r\nORGANIZER;CN=Bob:mailto:bob@example.com\r\nLOCATION:https://acme.zoom.us/j/1\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:standup\r\nRECURRENCE-ID;TZID=Europe/London:20260309T090000\r\nSUMMARY:Stand-up (moved)\r\nDTSTART;TZID=Europe/London:20260310T100000\r\nDTEND;TZID=Europe/London:20260310T101500\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:trip\r\nSUMMARY:Trip\r\nDTSTART;VALUE=DATE:20260305\r\nDTEND;VALUE=DATE:20260308\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

fn input(address: &str) -> CalendarFeedInput {
    CalendarFeedInput {
        address: Some(address.into()),
        color: Field::Value("blue".into()),
        ..CalendarFeedInput::default()
    }
}

#[test]
fn a_feed_is_read_expanded_and_shown() {
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let (org, _clock) = org(body.clone());
    let feed = org
        .create_calendar_feed(&input("webcal://cal.example.com/team.ics"))
        .unwrap();
    assert_eq!(feed.name, "Team");
    assert_eq!(feed.address_host, "cal.example.com");
    let from = jiff::civil::date(2026, 3, 1);
    let range = org
        .calendar(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
        .unwrap();
    let starts: Vec<String> = range
        .events
        .iter()
        .map(|e| match (e.starts_at, e.start_on) {
            (Some(t), _) => format!("{} {}", crate::time::format_timestamp(t), e.title),
            (None, Some(d)) => format!("{d}..{} {}", e.end_on.unwrap(), e.title),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        starts,
        [
            "2026-03-02T09:00:00.000Z Stand-up",
            "2026-03-05..2026-03-07 Trip",
            "2026-03-10T10:00:00.000Z Stand-up (moved)",
            // 16 March is excluded; the clocks change on 29 March.
            "2026-03-23T09:00:00.000Z Stand-up",
            "2026-03-30T08:00:00.000Z Stand-up",
            "2026-04-06T08:00:00.000Z Stand-up",
        ]
    );
    let first = &range.events[0];
    assert_eq!(first.meeting.as_ref().unwrap().provider, "zoom");
    assert_eq!(first.attendee_count, 1);
    assert_eq!(first.attendee_names, ["Bob", "Ann Lee"]);
    assert_eq!(first.attendees[1].email.as_deref(), Some("ann@example.com"));
    assert!(first.rrule.as_deref().unwrap().starts_with("FREQ=WEEKLY"));
    // Keys are stable across syncs.
    let keys: Vec<String> = range.events.iter().map(|e| e.key.clone()).collect();
    org.sync_calendar_feed(feed.id).unwrap();
    let again = org
        .calendar(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
        .unwrap();
    let keys_again: Vec<String> = again.events.iter().map(|e| e.key.clone()).collect();
    assert_eq!(keys, keys_again);
    // A failed sync keeps the events.
    *body.lock().unwrap() = (503, String::new());
    let failed = org.sync_calendar_feed(feed.id).unwrap();
    let error = failed.sync_error.unwrap();
    assert_eq!(
        (error.code.as_str(), error.http_status, error.failures),
        ("server_error", Some(503), 1)
    );
    let still = org
        .calendar(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
        .unwrap();
    assert_eq!(still.events.len(), 6);
}

#[test]
fn an_unreadable_address_saves_nothing() {
    let body = Arc::new(Mutex::new((404, String::new())));
    let (org, _clock) = org(body);
    let err = org
        .create_calendar_feed(&input("https://cal.example.com/x.ics"))
        .unwrap_err();
    assert_eq!(err.status(), 422);
    assert!(
        org.calendar_feeds(&CalendarFeedQuery::default())
            .unwrap()
            .items
            .is_empty()
    );
}

#[test]
fn scheduled_syncs_follow_the_frequency_and_back_off() {
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let (org, clock) = org(body.clone());
    let feed = org
        .create_calendar_feed(&input("https://cal.example.com/x.ics"))
        .unwrap();
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
    clock.advance_secs(3600);
    *body.lock().unwrap() = (500, String::new());
    assert_eq!(org.sync_due_feeds().unwrap(), 1);
    // One failure: the next try after two hours.
    clock.advance_secs(3600);
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
    clock.advance_secs(3600);
    assert_eq!(org.sync_due_feeds().unwrap(), 1);
    let f = org.calendar_feed(feed.id).unwrap();
    assert_eq!(f.sync_error.unwrap().failures, 2);
}

#[test]
fn the_answer_is_written_as_the_typed_range_serialises() {
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let (org, _clock) = org(body);
    org.create_calendar_feed(&input("https://cal.example.com/team.ics"))
        .unwrap();
    let from = jiff::civil::date(2026, 3, 1);
    let to = jiff::civil::date(2026, 4, 11);
    let typed = org
        .calendar(crate::CalendarQuery::new(from, to).unwrap())
        .unwrap();
    assert_eq!(typed.events.len(), 6);
    let request =
        crate::Request::new(crate::Method::Get, "/calendar", crate::Auth::Local).with_query(
            crate::Query::from_pairs([("from", "2026-03-01"), ("to", "2026-04-11")]),
        );
    let answer = org.handle(&request);
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.json_value()["data"],
        serde_json::to_value(&typed).unwrap()
    );
}

#[test]
fn a_new_time_zone_makes_every_feed_due() {
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let (org, _clock) = org(body);
    org.create_calendar_feed(&input("https://cal.example.com/x.ics"))
        .unwrap();
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
    let change = crate::OwnerChange {
        time_zone: Some("Tokyo".into()),
        ..crate::OwnerChange::default()
    };
    org.change_owner(&crate::Auth::Local, &change).unwrap();
    assert_eq!(org.sync_due_feeds().unwrap(), 1);
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
}

#[test]
fn an_hourly_rule_fills_the_window() {
    let hourly = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:h\r\nSUMMARY:Pill\r\nDTSTART:20250101T000000Z\r\nRRULE:FREQ=HOURLY;INTERVAL=4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let body = Arc::new(Mutex::new((200, hourly.to_owned())));
    let (org, _clock) = org(body);
    org.create_calendar_feed(&input("https://cal.example.com/h.ics"))
        .unwrap();
    for day in [
        jiff::civil::date(2025, 3, 10),
        jiff::civil::date(2026, 3, 2),
        jiff::civil::date(2027, 3, 2),
        // Beyond the window: expanded as read.
        jiff::civil::date(2028, 6, 1),
    ] {
        let range = org
            .calendar(crate::CalendarQuery::new(day, day).unwrap())
            .unwrap();
        assert_eq!(range.events.len(), 6, "{day}");
    }
}
