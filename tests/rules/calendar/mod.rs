//! Document 3's calendar (issue 12): calendar feeds, their syncs and
//! health, the events they give `GET /calendar` and a person's meetings,
//! with the team's decisions (notes/calendar-decisions.md). Every feed is
//! read from a [`FeedServer`] on loopback, so the cores here allow private
//! feed addresses ([`feeds_core`]) except where the refusal is the test
//! ([`guarded_core`]). The tests:
//!
//! - `feeds`: create: the fields, the feed's name, the fetch first;
//! - `changes`: the listing, changes (which of them fetch), delete,
//!   read-only mode;
//! - `sync`: every `sync_error` a loopback server can provoke, health,
//!   manual syncs;
//! - `schedule`: scheduled syncs, their backoff, four at once;
//! - `rrule`: repeating events expanded (a table of rules worked out by hand);
//! - `range`: `GET /calendar`: its parameters, which events touch the
//!   range and their order and fields, its tasks, project and key dates;
//! - `attendees`: attendees, the people they name, meeting links;
//! - `meetings`: `GET /people/{id}/meetings`.

use serde_json::{Value, json};

use crate::common::feed_server::vcalendar;
use crate::common::fixtures::id;
use crate::common::{Call, Core, FeedServer, Reply, Setup, Vcal, send};
use organiser::Options;

mod attendees;
mod changes;
mod corpus;
mod feeds;
mod meetings;
mod range;
mod rrule;
mod schedule;
mod sync;

/// The keys of a CalendarFeed ("CalendarFeed"), sorted; never `address`.
pub(super) const FEED_KEYS: &[&str] = &[
    "address_host",
    "color",
    "created_at",
    "id",
    "last_attempt_at",
    "last_synced_at",
    "name",
    "source",
    "sync_error",
    "sync_every",
    // Ours: what the last sync left out or guessed (issue 22).
    "sync_warnings",
    "updated_at",
];

/// The keys of a CalendarEvent ("CalendarEvent"), sorted.
pub(super) const EVENT_KEYS: &[&str] = &[
    "all_day",
    "attendee_count",
    "attendee_names",
    "attendees",
    "description",
    "end_on",
    "ends_at",
    "feed_id",
    "key",
    "location",
    "meeting",
    "rrule",
    "start_on",
    "starts_at",
    "title",
    "url",
];

/// The vocabulary's label for each sync error code, as `details.address`
/// of a refused create or address change says it.
pub(super) fn label(code: &str) -> &'static str {
    match code {
        "not_found" => "No calendar was found at this address; it may have been moved or deleted",
        "denied" => {
            "The calendar server refused access; the address may have expired or need a new share link"
        }
        "server_error" => "The calendar server had a problem; it will be tried again later",
        "unreachable" => "The calendar server could not be reached; check the address",
        "timed_out" => "The calendar server took too long to answer",
        "tls" => "The calendar server's secure connection could not be verified",
        "too_big" => "The calendar is too large to download",
        "not_calendar" => "The address did not return a calendar (an iCal file)",
        "too_many_events" => "The calendar has too many events to keep",
        "refused_address" => {
            "The address points to a private or local network, which calendar feeds may not use"
        }
        "address_unreadable" => "The saved address can no longer be read; enter it again",
        "not_saved" => "The calendar was read but could not be saved; it will be tried again later",
        other => panic!("{other}: not a sync error code"),
    }
}

/// A core that may fetch feeds from loopback (`allow_private_feeds`), at
/// the default start (2026-03-10 09:00 UTC, a Tuesday; the owner in UTC).
pub(super) fn feeds_core() -> Core {
    Core::with(Setup {
        options: Options {
            allow_private_feeds: true,
            ..Options::default()
        },
        ..Setup::default()
    })
}

/// A core as deployed: private and local feed addresses refused.
pub(super) fn guarded_core() -> Core {
    Core::start()
}

/// `POST /calendar_feeds` with `{calendar_feed: fields}`, as a table's case.
pub(super) fn create(fields: Value) -> Call {
    Call::post("/calendar_feeds", json!({ "calendar_feed": fields }))
}

/// `PATCH /calendar_feeds/{id}` with `{calendar_feed: fields}`, as a table's case.
pub(super) fn change(feed: &str, fields: Value) -> Call {
    Call::patch(
        format!("/calendar_feeds/{feed}"),
        json!({ "calendar_feed": fields }),
    )
}

/// `POST /calendar_feeds` with `{calendar_feed: fields}`.
pub(super) fn post_feed(s: &Core, fields: Value) -> Reply {
    s.post("/calendar_feeds", json!({ "calendar_feed": fields }))
}

/// Creates a feed from `fields`, which must be 201; the record.
#[track_caller]
pub(super) fn new_feed(s: &Core, fields: Value) -> Value {
    post_feed(s, fields).expect(201).data().clone()
}

/// Serves `text` at `path` and creates a blue feed of it, named by the
/// calendar; the record.
#[track_caller]
pub(super) fn feed_of(s: &Core, server: &FeedServer, path: &str, text: &str) -> Value {
    server.serve(path, text);
    new_feed(s, json!({"address": server.url(path), "color": "blue"}))
}

/// `PATCH /calendar_feeds/{id}` with `{calendar_feed: fields}`.
pub(super) fn patch_feed(s: &Core, feed: &str, fields: Value) -> Reply {
    s.patch(
        &format!("/calendar_feeds/{feed}"),
        json!({ "calendar_feed": fields }),
    )
}

/// `GET /calendar_feeds/{id}`, which must be 200; the record.
#[track_caller]
pub(super) fn get_feed(s: &Core, feed: &str) -> Value {
    s.get(&format!("/calendar_feeds/{feed}"))
        .expect(200)
        .data()
        .clone()
}

/// `POST /calendar_feeds/{id}/sync` (no body).
pub(super) fn sync(s: &Core, feed: &str) -> Reply {
    send(s.req("POST", &format!("/calendar_feeds/{feed}/sync")))
}

/// `POST /calendar_feeds/{id}/sync`, which must be 200; the feed.
#[track_caller]
pub(super) fn synced(s: &Core, feed: &str) -> Value {
    sync(s, feed).expect(200).data().clone()
}

/// `POST /calendar_feeds/sync` (no body).
pub(super) fn sync_all(s: &Core) -> Reply {
    send(s.req("POST", "/calendar_feeds/sync"))
}

/// `GET /calendar?from=..&to=..`, which must be 200; the range.
#[track_caller]
pub(super) fn range(s: &Core, from: &str, to: &str) -> Value {
    s.get(&format!("/calendar?from={from}&to={to}"))
        .expect(200)
        .data()
        .clone()
}

/// The events of `GET /calendar` from `from` to `to`.
#[track_caller]
pub(super) fn events(s: &Core, from: &str, to: &str) -> Vec<Value> {
    range(s, from, to)["events"]
        .as_array()
        .expect("events")
        .clone()
}

/// The events of `GET /calendar` from `from` to `to` that `feed` gave.
#[track_caller]
pub(super) fn events_of(s: &Core, feed: &str, from: &str, to: &str) -> Vec<Value> {
    events(s, from, to)
        .into_iter()
        .filter(|e| e["feed_id"] == json!(feed))
        .collect()
}

/// The titles of `events`, in order.
pub(super) fn titles(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["title"].as_str().expect("a title").to_owned())
        .collect()
}

/// An instant as `2026-03-10T09:00:00Z` (whatever fraction the API wrote).
pub(super) fn instant(value: &Value) -> String {
    let text = value
        .as_str()
        .unwrap_or_else(|| panic!("not an instant: {value}"));
    let at: jiff::Timestamp = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// When an occurrence is: `2026-03-10T09:00:00Z` (its start) when timed,
/// `2026-03-10..2026-03-11` (first and last day) when all day.
pub(super) fn when(event: &Value) -> String {
    if event["all_day"] == json!(true) {
        format!(
            "{}..{}",
            event["start_on"].as_str().expect("start_on"),
            event["end_on"].as_str().expect("end_on")
        )
    } else {
        instant(&event["starts_at"])
    }
}

/// [`when`] of each event, in order.
pub(super) fn whens(events: &[Value]) -> Vec<String> {
    events.iter().map(when).collect()
}

/// The ids of `records`, in order.
pub(super) fn ids_of(records: &[Value]) -> Vec<String> {
    records.iter().map(id).collect()
}

/// A calendar with no name and one event titled `title` on 2026-03-10.
pub(super) fn unnamed(title: &str) -> String {
    vcalendar(&[&format!(
        "UID:{title}\nSUMMARY:{title}\nDTSTART:20260310T100000Z\nDTEND:20260310T101500Z"
    )])
}

/// A one-event calendar: `uid` titled `title` from `start` to `end` (UTC,
/// `20260310T090000Z` shape), with `extra` property lines.
pub(super) fn one_event(uid: &str, title: &str, start: &str, end: &str, extra: &str) -> String {
    Vcal::new()
        .event(&format!(
            "UID:{uid}\nSUMMARY:{title}\nDTSTART:{start}\nDTEND:{end}\n{extra}"
        ))
        .build()
}
