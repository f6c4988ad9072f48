//! EXTENSIONS.md §2, "A calendar to subscribe to", in process: the
//! subscriptions' fields and every refusal (each under its field, and
//! changing nothing), the address shown only when made or rotated,
//! `last_read_at`, and the feed read back by two independent parsers
//! (`ical` and `calcard`) item by item against the records: UIDs, dates,
//! summaries, stamps, rules and alarms; 29 February; the filters and
//! `include`; folding and escaping; `ETag` and `If-None-Match`; rotation
//! and deletion stopping the address at once; and read-only mode still
//! serving the feed.
//!
//! The feed is read through the store's typed door
//! (`org.calendar_subscriptions().feed(..)`), and through
//! `Organiser::handle` as the server hands it a request at its root; what
//! only the server adds (the content type, 304 over the wire, the absolute
//! address, logs, rate limits) is tested over HTTP in `tests/http`.
//!
//! Today is Tuesday 2026-03-10 (UTC) unless a test moves the clock.
//!
//! By area: `fields` (the subscriptions' fields and refusals),
//! `content` (the feed read back against the records), `address`
//! (`ETag`, rotation, delete, read-only mode, idempotency); `read_back`
//! holds the two parsers' readings and the events the records expect.

use std::collections::BTreeSet;

use jiff::SignedDuration;
use organiser::calendar_subscriptions::Feed;
use organiser::server::{Method, Request};
use organiser::{Auth, Error};
use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, id, new_list, new_task, patch_task, set_zone};
use crate::common::{Call, Core, Expect, Setup, check, send};

const PATH: &str = "/calendar_subscriptions";

mod address;
mod content;
mod fields;
mod read_back;

// ---------------------------------------------------------------- helpers

/// A licensed in-memory organiser (some tests move the clock past the
/// 14-day trial), at 2026-03-10T09:00:00Z, owner zone UTC.
fn start() -> Core {
    start_at(Setup::default().now)
}

/// [`start`] at `now`.
fn start_at(now: &'static str) -> Core {
    Core::licensed(Setup {
        now,
        ..Setup::default()
    })
}

fn create(fields: Value) -> Call {
    Call::post(PATH, json!({ "calendar_subscription": fields }))
}

fn change(sub: &str, fields: Value) -> Call {
    Call::patch(
        format!("{PATH}/{sub}"),
        json!({ "calendar_subscription": fields }),
    )
}

/// Makes a subscription of `fields`; the record, with its `url`.
#[track_caller]
fn subscribe(s: &Core, fields: Value) -> Value {
    check(s, create(fields), Expect::status(201)).data().clone()
}

/// The last segment of a subscription's address, `<secret>.ics`.
fn file_of(sub: &Value) -> String {
    let url = sub["url"].as_str().expect("a url");
    url.rsplit('/').next().unwrap().to_owned()
}

/// The secret of a subscription's address.
fn secret_of(sub: &Value) -> String {
    file_of(sub).trim_end_matches(".ics").to_owned()
}

/// The feed at `file`, through the store's typed door.
fn fetch(s: &Core, file: &str, if_none_match: Option<&str>) -> organiser::Result<Feed> {
    s.org.calendar_subscriptions().feed(file, if_none_match)
}

/// The feed of `sub` (which must answer 200): its entity tag and text.
#[track_caller]
fn feed(s: &Core, sub: &Value) -> (String, String) {
    match fetch(s, &file_of(sub), None) {
        Ok(Feed::Calendar { etag, body }) => (etag, body),
        other => panic!("the feed of {}: {other:?}", sub["id"]),
    }
}

/// The text of `sub`'s feed.
#[track_caller]
fn body(s: &Core, sub: &Value) -> String {
    feed(s, sub).1
}

/// The feed at `/ics/{file}` as the server hands it to the core: a GET at
/// its root, without credentials.
fn at_root(s: &Core, file: &str) -> organiser::server::Response {
    let mut request = Request::new(Method::Get, format!("/ics/{file}"), Auth::Anonymous);
    request.at_root = true;
    s.org.handle(&request)
}

/// Makes a person of `fields`; the record.
#[track_caller]
fn new_person(s: &Core, fields: Value) -> Value {
    s.post("/people", json!({ "person": fields }))
        .expect(201)
        .data()
        .clone()
}

/// Makes a project of `fields`; the record.
#[track_caller]
fn new_project(s: &Core, fields: Value) -> Value {
    s.post("/projects", json!({ "project": fields }))
        .expect(201)
        .data()
        .clone()
}

/// Moves the clock on by `millis` milliseconds (so that records' times
/// have fractions of a second the feed must drop).
fn tick(s: &Core, millis: i64) {
    s.clock.advance(SignedDuration::from_millis(millis));
}
