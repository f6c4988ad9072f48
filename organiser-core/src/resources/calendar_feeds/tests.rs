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
        .calendar_feeds()
        .create(input("webcal://cal.example.com/team.ics"))
        .unwrap();
    assert_eq!(feed.name, "Team");
    assert_eq!(feed.address_host, "cal.example.com");
    let from = jiff::civil::date(2026, 3, 1);
    let range = org
        .calendar()
        .range(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
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
    org.calendar_feeds().sync(feed.id).unwrap();
    let again = org
        .calendar()
        .range(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
        .unwrap();
    let keys_again: Vec<String> = again.events.iter().map(|e| e.key.clone()).collect();
    assert_eq!(keys, keys_again);
    // A failed sync keeps the events.
    *body.lock().unwrap() = (503, String::new());
    let failed = org.calendar_feeds().sync(feed.id).unwrap();
    let error = failed.sync_error.unwrap();
    assert_eq!(
        (error.code.as_str(), error.http_status, error.failures),
        ("server_error", Some(503), 1)
    );
    let still = org
        .calendar()
        .range(crate::CalendarQuery::new(from, jiff::civil::date(2026, 4, 11)).unwrap())
        .unwrap();
    assert_eq!(still.events.len(), 6);
}

#[test]
fn an_unreadable_address_saves_nothing() {
    let body = Arc::new(Mutex::new((404, String::new())));
    let (org, _clock) = org(body);
    let err = org
        .calendar_feeds()
        .create(input("https://cal.example.com/x.ics"))
        .unwrap_err();
    assert_eq!(err.status(), 422);
    assert!(
        org.calendar_feeds()
            .list(&CalendarFeedQuery::default())
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
        .calendar_feeds()
        .create(input("https://cal.example.com/x.ics"))
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
    let f = org.calendar_feeds().get(feed.id).unwrap();
    assert_eq!(f.sync_error.unwrap().failures, 2);
}

#[test]
fn the_answer_is_written_as_the_typed_range_serialises() {
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let (org, _clock) = org(body);
    org.calendar_feeds()
        .create(input("https://cal.example.com/team.ics"))
        .unwrap();
    let from = jiff::civil::date(2026, 3, 1);
    let to = jiff::civil::date(2026, 4, 11);
    let typed = org
        .calendar()
        .range(crate::CalendarQuery::new(from, to).unwrap())
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
    org.calendar_feeds()
        .create(input("https://cal.example.com/x.ics"))
        .unwrap();
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
    let change = crate::OwnerChange {
        time_zone: Some("Tokyo".into()),
        ..crate::OwnerChange::default()
    };
    org.account().change_me(change).unwrap();
    assert_eq!(org.sync_due_feeds().unwrap(), 1);
    assert_eq!(org.sync_due_feeds().unwrap(), 0);
}

#[test]
fn an_hourly_rule_fills_the_window() {
    let hourly = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:h\r\nSUMMARY:Pill\r\nDTSTART:20250101T000000Z\r\nRRULE:FREQ=HOURLY;INTERVAL=4\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let body = Arc::new(Mutex::new((200, hourly.to_owned())));
    let (org, _clock) = org(body);
    org.calendar_feeds()
        .create(input("https://cal.example.com/h.ics"))
        .unwrap();
    for day in [
        jiff::civil::date(2025, 3, 10),
        jiff::civil::date(2026, 3, 2),
        jiff::civil::date(2027, 3, 2),
        // Beyond the window: expanded as read.
        jiff::civil::date(2028, 6, 1),
    ] {
        let range = org
            .calendar()
            .range(crate::CalendarQuery::new(day, day).unwrap())
            .unwrap();
        assert_eq!(range.events.len(), 6, "{day}");
    }
}

/// A feed as schema 11 stored it: the record of format 1, without
/// `sync_warnings` (the migration's input).
#[derive(Serialize)]
struct FeedOfSchema11<'a> {
    feed: FeedFieldsOfSchema11<'a>,
    address: &'a [u8],
    #[serde(with = "crate::time::serde_timestamp")]
    next_sync_at: Timestamp,
}

#[derive(Serialize)]
struct FeedFieldsOfSchema11<'a> {
    id: Id,
    name: &'a str,
    color: &'a str,
    address_host: &'a str,
    source: Option<&'a str>,
    sync_every: &'a str,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_synced_at: Option<Timestamp>,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_attempt_at: Option<Timestamp>,
    sync_error: Option<&'a SyncError>,
    #[serde(with = "crate::time::serde_timestamp")]
    created_at: Timestamp,
    #[serde(with = "crate::time::serde_timestamp")]
    updated_at: Timestamp,
}

#[test]
fn a_store_of_schema_11_is_migrated_to_feeds_with_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::at("2026-03-02T09:00:00Z");
    let body = Arc::new(Mutex::new((200, WEEKLY.to_owned())));
    let served = body.clone();
    let http = move |r: &HttpRequest| -> std::result::Result<HttpResponse, HttpError> {
        let (status, text) = served.lock().unwrap().clone();
        Ok(HttpResponse::new(status, r.url.clone(), text.into_bytes()))
    };
    let options = Options {
        clock: Arc::new(clock.clone()),
        http: Arc::new(http),
        ..Options::default()
    };
    let before = {
        let org = Organiser::open_with(dir.path(), options.clone()).unwrap();
        let feed = org
            .calendar_feeds()
            .create(input("https://cal.example.com/team.ics"))
            .unwrap();
        assert_eq!(feed.sync_warnings, None);
        feed
    };
    // Back to schema 11: the feed in format 1.
    {
        use crate::store::{Store, Tables};
        let store = Store::open(&dir.path().join(crate::STORE_FILE)).unwrap();
        let tx = store.begin_write().unwrap();
        let key = before.id.to_bytes();
        let now: StoredFeed =
            crate::store::codec::decode(&tx.get(tables::FEEDS, &key).unwrap().unwrap()).unwrap();
        let f = &now.feed;
        let old = FeedOfSchema11 {
            feed: FeedFieldsOfSchema11 {
                id: f.id,
                name: &f.name,
                color: &f.color,
                address_host: &f.address_host,
                source: f.source.as_deref(),
                sync_every: &f.sync_every,
                last_synced_at: f.last_synced_at,
                last_attempt_at: f.last_attempt_at,
                sync_error: f.sync_error.as_ref(),
                created_at: f.created_at,
                updated_at: f.updated_at,
            },
            address: &now.address,
            next_sync_at: now.next_sync_at,
        };
        let bytes = postcard::to_extend(&old, vec![1u8]).unwrap();
        tx.insert(tables::FEEDS, &key, &bytes).unwrap();
        tx.insert(
            crate::store::schema::META,
            b"schema_version",
            &11u32.to_be_bytes(),
        )
        .unwrap();
        tx.commit().unwrap();
    }
    let org = Organiser::open_with(dir.path(), options).unwrap();
    assert_eq!(org.calendar_feeds().get(before.id).unwrap(), before);
    // The address is still readable: a sync of a feed with an unfolded
    // line says so.
    *body.lock().unwrap() = (
        200,
        WEEKLY.replace("SUMMARY:Trip\r\n", "SUMMARY:Trip\r\nto the coast\r\n"),
    );
    org.calendar_feeds().sync(before.id).unwrap();
    let synced = org.calendar_feeds().get(before.id).unwrap();
    assert_eq!(synced.sync_error, None);
    assert_eq!(synced.sync_warnings.map(|w| w.skipped_lines), Some(1));
}
