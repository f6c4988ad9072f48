//! Document 3, "Calendar feed health" and the sync endpoints, with the
//! decisions ("Fetching and sync_error codes", "Scheduling"): every
//! `sync_error` a loopback server can provoke, `failures` and recovery,
//! manual syncs, and the schedule (`Organiser::sync_due_feeds` on the
//! moved clock) with its backoff.
//!
//! Not provoked here: `timed_out` (30 s of real time), `tls` (no
//! certificate to get wrong on loopback), `not_saved` (the store does not
//! refuse), and a redirect from a public address to a private one (no
//! public server in a test).

use std::sync::Arc;

use organiser::{ManualClock, Options, Organiser, SecretKey};
use serde_json::{Value, json};

use super::{create, events_of, feed_of, feeds_core, get_feed, guarded_core, label};
use super::{new_feed, one_event, patch_feed, sync_all, synced, titles};
use crate::common::feed_server::{closed_port_url, vcalendar};
use crate::common::fixtures::{START, UNKNOWN, all, deletions, id, now_string};
use crate::common::{Answer, Call, Core, Expect, FeedServer, Setup, Vcal, check, send};

/// A calendar with one event, `title`, on 2026-03-10 10:00-11:00 UTC.
fn calendar(title: &str) -> String {
    one_event(title, title, "20260310T100000Z", "20260310T110000Z", "")
}

/// An instant.
fn at(text: &str) -> jiff::Timestamp {
    text.parse().unwrap()
}

/// When the core will next sync a feed.
fn next_sync(s: &Core) -> Option<jiff::Timestamp> {
    s.org.next_feed_sync_at().unwrap()
}

/// `Organiser::sync_due_feeds`: how many feeds it tried.
fn sync_due(s: &Core) -> usize {
    s.org.sync_due_feeds().unwrap()
}

/// "CalendarFeed" `sync_error` and the decisions' status mapping: each
/// failure a loopback server can give, as a manual sync sees it. The sync
/// is still 200; the feed keeps `last_synced_at` and its events; the
/// attempt sets `last_attempt_at` and `updated_at`.
#[test]
fn each_failure_has_its_code_and_http_status() {
    let s = feeds_core();
    let server = FeedServer::start();
    let cases: Vec<(Answer, &str, Option<u16>)> = vec![
        (Answer::status(404), "not_found", Some(404)),
        (Answer::status(410), "not_found", Some(410)),
        (Answer::status(400), "not_found", Some(400)),
        (Answer::status(405), "not_found", Some(405)),
        (Answer::status(401), "denied", Some(401)),
        (Answer::status(403), "denied", Some(403)),
        (Answer::status(407), "denied", Some(407)),
        (Answer::status(500), "server_error", Some(500)),
        (Answer::status(502), "server_error", Some(502)),
        (Answer::status(503), "server_error", Some(503)),
        (Answer::status(429), "server_error", Some(429)),
        (
            Answer::html("<!doctype html><html><body>Sign in</body></html>"),
            "not_calendar",
            Some(200),
        ),
        (
            Answer::calendar("this is not a calendar at all"),
            "not_calendar",
            Some(200),
        ),
        (Answer::calendar(""), "not_calendar", Some(200)),
        (
            Answer::calendar("{\"events\": []}").content_type("application/json"),
            "not_calendar",
            Some(200),
        ),
        (Answer::status(204), "not_calendar", Some(204)),
        (
            Answer::redirect(302, closed_port_url("/moved.ics")),
            "unreachable",
            None,
        ),
    ];
    for (n, (answer, code, status)) in cases.into_iter().enumerate() {
        let path = format!("/feed-{n}.ics");
        let title = format!("Event {n}");
        let feed = feed_of(&s, &server, &path, &calendar(&title));
        let f = id(&feed);
        s.advance(60);
        server.set(&path, answer);
        let after = synced(&s, &f);
        assert_eq!(
            after["sync_error"],
            json!({"code": code, "http_status": status, "failures": 1}),
            "{path} ({code})"
        );
        assert_eq!(after["last_synced_at"], feed["last_synced_at"], "{path}");
        assert_eq!(after["last_attempt_at"], now_string(&s), "{path}");
        assert_eq!(after["updated_at"], now_string(&s), "{path}");
        assert_eq!(get_feed(&s, &f), after, "{path}");
        assert_eq!(
            titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
            [title],
            "{path}: the last good events stay"
        );
    }
}

/// The body cap (20 MiB, `too_big`) and the event cap (20,000 VEVENTs,
/// `too_many_events`), on create (422, nothing saved) and on a sync; the
/// final status is kept as `http_status`.
#[test]
fn too_big_and_too_many_events() {
    let s = feeds_core();
    let server = FeedServer::start();
    let mut big = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-PAD:".to_vec();
    big.resize(20 * 1024 * 1024 + 1, b'a');
    server.set("/big.ics", Answer::calendar("").body(big));
    let mut many = Vcal::new();
    for n in 0..20_001 {
        many.push_event(&format!(
            "UID:e{n}\nSUMMARY:Event {n}\nDTSTART:20260310T100000Z"
        ));
    }
    server.serve("/many.ics", many.build());
    for (path, code) in [("/big.ics", "too_big"), ("/many.ics", "too_many_events")] {
        let refused = check(
            &s,
            create(json!({"address": server.url(path), "color": "blue"})),
            Expect::invalid("address"),
        );
        assert_eq!(
            refused.body["error"]["details"]["address"],
            json!([label(code)]),
            "{path}"
        );
    }
    assert!(all(&s, "/calendar_feeds").is_empty());

    for (path, code) in [("/big.ics", "too_big"), ("/many.ics", "too_many_events")] {
        let good = format!("{path}.good");
        let feed = feed_of(&s, &server, &good, &calendar("Fine"));
        server.set(&good, Answer::redirect(302, server.url(path)));
        s.advance(60);
        let after = synced(&s, &id(&feed));
        assert_eq!(
            after["sync_error"],
            json!({"code": code, "http_status": 200, "failures": 1}),
            "{path}"
        );
    }
}

/// `unreachable`: nothing listening, a redirect loop, more than five
/// redirects; a create at such an address is 422 with the reason. Five
/// redirects are followed, relative or absolute.
#[test]
fn redirects_are_followed_five_times_and_unreachable_servers_named() {
    let s = feeds_core();
    let server = FeedServer::start();
    let refused = check(
        &s,
        create(json!({"address": closed_port_url("/cal.ics"), "color": "blue"})),
        Expect::invalid("address"),
    );
    assert_eq!(
        refused.body["error"]["details"]["address"],
        json!([label("unreachable")])
    );

    server.serve("/cal.ics", calendar("Moved here"));
    // Five redirects, relative and absolute: read.
    for n in 1..=4 {
        server.set(
            &format!("/r{n}"),
            Answer::redirect(301, format!("/r{}", n + 1)),
        );
    }
    server.set("/r5", Answer::redirect(302, server.url("/cal.ics")));
    let feed = new_feed(&s, json!({"address": server.url("/r1"), "color": "blue"}));
    assert_eq!(feed["sync_error"], Value::Null);
    assert_eq!(
        titles(&events_of(&s, &id(&feed), "2026-03-10", "2026-03-10")),
        ["Moved here"]
    );
    assert_eq!(server.hits("/r1"), 1);
    assert_eq!(server.hits("/cal.ics"), 1);

    // Six: not.
    for n in 1..=5 {
        server.set(
            &format!("/s{n}"),
            Answer::redirect(307, format!("/s{}", n + 1)),
        );
    }
    server.set("/s6", Answer::redirect(307, "/cal.ics"));
    server.set("/loop", Answer::redirect(302, "/loop"));
    for path in ["/s1", "/loop"] {
        let refused = check(
            &s,
            create(json!({"address": server.url(path), "color": "blue"})),
            Expect::invalid("address"),
        );
        assert_eq!(
            refused.body["error"]["details"]["address"],
            json!([label("unreachable")]),
            "{path}"
        );
    }
    assert_eq!(server.hits("/cal.ics"), 1);
    assert_eq!(all(&s, "/calendar_feeds").len(), 1);
}

/// A calendar is read from its body, whatever its content type; an empty
/// calendar is a calendar (no events, healthy).
#[test]
fn the_body_makes_a_calendar_not_its_content_type() {
    let s = feeds_core();
    let server = FeedServer::start();
    for (n, content_type) in ["text/plain", "application/octet-stream", "text/html"]
        .into_iter()
        .enumerate()
    {
        let path = format!("/typed-{n}");
        server.set(
            &path,
            Answer::calendar(calendar("Typed")).content_type(content_type),
        );
        let feed = new_feed(&s, json!({"address": server.url(&path), "color": "blue"}));
        assert_eq!(feed["sync_error"], Value::Null, "{content_type}");
    }
    let empty = feed_of(&s, &server, "/empty.ics", &Vcal::new().build());
    assert_eq!(empty["sync_error"], Value::Null);
    assert!(events_of(&s, &id(&empty), "2026-03-01", "2026-03-31").is_empty());
}

/// DESIGN.md and the decisions: with private feeds not allowed (as
/// deployed), a loopback, private, link-local or unspecified address is
/// refused before any request, 422 with the `refused_address` reason.
#[test]
fn private_and_local_addresses_are_refused_unless_allowed() {
    let s = guarded_core();
    let server = FeedServer::start();
    server.serve("/cal.ics", calendar("Local"));
    let port = server.port();
    let addresses = [
        server.url("/cal.ics"),
        format!("http://localhost:{port}/cal.ics"),
        format!("http://[::1]:{port}/cal.ics"),
        format!("http://0.0.0.0:{port}/cal.ics"),
        format!("webcal://127.0.0.1:{port}/cal.ics"),
        "http://10.1.2.3/cal.ics".to_owned(),
        "http://192.168.0.10/cal.ics".to_owned(),
        "http://172.16.5.4/cal.ics".to_owned(),
        "http://169.254.169.254/latest/meta-data".to_owned(),
        "http://[fd00::1]/cal.ics".to_owned(),
    ];
    for address in addresses {
        let refused = check(
            &s,
            create(json!({"address": address, "color": "blue"})),
            Expect::invalid("address"),
        );
        assert_eq!(
            refused.body["error"]["details"]["address"],
            json!([label("refused_address")]),
            "{address}"
        );
    }
    assert_eq!(server.hits("/cal.ics"), 0, "never asked");
    assert!(all(&s, "/calendar_feeds").is_empty());
    assert!(deletions(&s).is_empty());
}

/// "Calendar feed health": `failures` counts failed tries in a row, the
/// code and status follow the latest; `last_synced_at` and the events stay
/// at the last success; a success makes the feed healthy with the new
/// events. A changed calendar replaces the events on each sync.
#[test]
fn failures_count_up_and_a_success_clears_them() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(&s, &server, "/cal.ics", &calendar("First"));
    let f = id(&feed);
    let steps: [(Answer, &str, Option<u16>); 3] = [
        (Answer::status(500), "server_error", Some(500)),
        (Answer::status(503), "server_error", Some(503)),
        (Answer::status(404), "not_found", Some(404)),
    ];
    for (n, (answer, code, status)) in steps.into_iter().enumerate() {
        server.set("/cal.ics", answer);
        s.advance(600);
        let after = synced(&s, &f);
        assert_eq!(
            after["sync_error"],
            json!({"code": code, "http_status": status, "failures": n + 1})
        );
        assert_eq!(after["last_synced_at"], START);
        assert_eq!(after["last_attempt_at"], now_string(&s));
        assert_eq!(after["updated_at"], now_string(&s));
        assert_eq!(
            titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
            ["First"]
        );
    }
    // The feed comes back with a changed calendar.
    server.serve(
        "/cal.ics",
        vcalendar(&[
            "UID:second\nSUMMARY:Second\nDTSTART:20260310T120000Z\nDTEND:20260310T130000Z",
            "UID:third\nSUMMARY:Third\nDTSTART:20260310T140000Z",
        ]),
    );
    s.advance(600);
    let healed = synced(&s, &f);
    assert_eq!(healed["sync_error"], Value::Null);
    assert_eq!(healed["last_synced_at"], now_string(&s));
    assert_eq!(healed["last_attempt_at"], now_string(&s));
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
        ["Second", "Third"]
    );
    // One failure after recovery counts from 1 again.
    server.set("/cal.ics", Answer::status(401));
    s.advance(600);
    assert_eq!(
        synced(&s, &f)["sync_error"],
        json!({"code": "denied", "http_status": 401, "failures": 1})
    );
    // A success with nothing changed still counts as synced.
    server.serve(
        "/cal.ics",
        vcalendar(&[
            "UID:second\nSUMMARY:Second\nDTSTART:20260310T120000Z\nDTEND:20260310T130000Z",
            "UID:third\nSUMMARY:Third\nDTSTART:20260310T140000Z",
        ]),
    );
    s.advance(600);
    let same = synced(&s, &f);
    assert_eq!(same["sync_error"], Value::Null);
    assert_eq!(same["last_synced_at"], now_string(&s));
    assert_eq!(same["updated_at"], now_string(&s));
}

/// "Calendar feeds" sync-all: every feed fetched (failing ones too), all
/// of them in the 200 by name ignoring case and accents, `{data}` only;
/// with no feeds, an empty list.
#[test]
fn sync_all_fetches_every_feed_and_answers_them_by_name() {
    let s = feeds_core();
    let server = FeedServer::start();
    let empty = sync_all(&s).expect(200);
    assert_eq!(empty.body, json!({"data": []}));

    server.serve("/ok.ics", calendar("Ok"));
    let mut made = Vec::new();
    for (name, path) in [
        ("banana", "/ok.ics"),
        ("Éclair", "/ok.ics"),
        ("apple", "/broken.ics"),
        ("Cherry", "/ok.ics"),
    ] {
        if path == "/broken.ics" {
            server.serve(path, calendar("Soon broken"));
        }
        made.push(new_feed(
            &s,
            json!({"name": name, "address": server.url(path), "color": "blue"}),
        ));
    }
    server.set("/broken.ics", Answer::status(500));
    s.advance(120);
    let all_synced = sync_all(&s).expect(200);
    assert_eq!(
        all_synced
            .body
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["data"]
    );
    let data = all_synced.data().as_array().unwrap();
    let names: Vec<&str> = data.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["apple", "banana", "Cherry", "Éclair"]);
    for feed in data {
        assert_eq!(feed["last_attempt_at"], now_string(&s), "{feed}");
        assert_eq!(*feed, get_feed(&s, &id(feed)));
    }
    assert_eq!(
        data[0]["sync_error"],
        json!({"code": "server_error", "http_status": 500, "failures": 1})
    );
    assert_eq!(data[1]["sync_error"], Value::Null);
    assert_eq!(data[0]["last_synced_at"], START);
    assert_eq!(data[1]["last_synced_at"], now_string(&s));
    assert_eq!(server.hits("/ok.ics"), 6, "three creates, three syncs");
    assert_eq!(server.hits("/broken.ics"), 2);
}

/// The sync endpoints ignore `Idempotency-Key` (document 1): each POST
/// fetches. An unknown or malformed id is 404.
#[test]
fn single_sync_fetches_each_time_and_needs_a_feed() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(&s, &server, "/cal.ics", &calendar("Ok"));
    let path = format!("/calendar_feeds/{}/sync", id(&feed));
    for _ in 0..2 {
        s.advance(1);
        let again = send(s.req("POST", &path).header("idempotency-key", "sync-1")).expect(200);
        assert_eq!(again.header("idempotent-replayed"), None);
        assert_eq!(again.data()["last_attempt_at"], now_string(&s));
    }
    for _ in 0..2 {
        send(
            s.req("POST", "/calendar_feeds/sync")
                .header("idempotency-key", "sync-2"),
        )
        .expect(200);
    }
    assert_eq!(server.hits("/cal.ics"), 5);
    for bad in [UNKNOWN, "not-an-id"] {
        check(
            &s,
            Call::new("POST", format!("/calendar_feeds/{bad}/sync")),
            Expect::error(404, "not_found", None),
        );
    }
}

/// "CalendarFeed" and the decisions: an address sealed with a secret key
/// the core no longer has is `address_unreadable` (nothing fetched);
/// entering the address again heals the feed.
#[test]
fn an_address_sealed_with_another_key_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let server = FeedServer::start();
    server.serve("/cal.ics", calendar("Sealed"));
    let open = |key: SecretKey| -> Core {
        let clock = ManualClock::at(Setup::default().now);
        let org = Organiser::open_with(
            dir.path(),
            Options {
                clock: Arc::new(clock.clone()),
                secret_key: Some(key),
                allow_private_feeds: true,
                ..Options::default()
            },
        )
        .unwrap();
        Core::over(org, clock)
    };
    let f = {
        let s = open(SecretKey::generate());
        id(&new_feed(
            &s,
            json!({"address": server.url("/cal.ics"), "color": "blue"}),
        ))
    };
    let s = open(SecretKey::generate());
    s.advance(60);
    let after = synced(&s, &f);
    assert_eq!(
        after["sync_error"],
        json!({"code": "address_unreadable", "http_status": null, "failures": 1})
    );
    assert_eq!(server.hits("/cal.ics"), 1, "nothing to fetch");
    assert_eq!(
        titles(&events_of(&s, &f, "2026-03-10", "2026-03-10")),
        ["Sealed"],
        "the events stay"
    );
    let healed = patch_feed(&s, &f, json!({"address": server.url("/cal.ics")})).expect(200);
    assert_eq!(healed.data()["sync_error"], Value::Null);
    assert_eq!(server.hits("/cal.ics"), 2);
    assert_eq!(synced(&s, &f)["sync_error"], Value::Null);
}

// ---------------------------------------------------------------- the schedule

/// "Scheduling": a feed is next due `sync_every` after its last attempt
/// (a new one after its creation); nothing is fetched before. Each
/// frequency on its own clock.
#[test]
fn a_feed_is_due_every_sync_every() {
    let s = feeds_core();
    let server = FeedServer::start();
    for (path, every) in [
        ("/q.ics", "15_minutes"),
        ("/h.ics", "hourly"),
        ("/d.ics", "daily"),
    ] {
        server.serve(path, calendar(path));
        new_feed(
            &s,
            json!({"address": server.url(path), "color": "blue", "sync_every": every}),
        );
    }
    assert_eq!(next_sync(&s), Some(at("2026-03-10T09:15:00Z")));
    assert_eq!(sync_due(&s), 0);
    s.advance(15 * 60 - 1);
    assert_eq!(sync_due(&s), 0, "not yet");
    s.advance(1);
    assert_eq!(sync_due(&s), 1, "the 15-minute feed at 09:15");
    assert_eq!(sync_due(&s), 0, "and not again at once");
    assert_eq!(server.hits("/q.ics"), 2);
    s.advance(15 * 60);
    assert_eq!(sync_due(&s), 1);
    s.advance(15 * 60);
    assert_eq!(sync_due(&s), 1);
    s.advance(15 * 60);
    assert_eq!(sync_due(&s), 2, "10:00: the 15-minute and the hourly feed");
    assert_eq!(
        (
            server.hits("/q.ics"),
            server.hits("/h.ics"),
            server.hits("/d.ics")
        ),
        (5, 2, 1)
    );
    let hourly = all(&s, "/calendar_feeds?order=id")[1].clone();
    assert_eq!(hourly["last_attempt_at"], now_string(&s));
    assert_eq!(hourly["last_synced_at"], now_string(&s));
    assert_eq!(next_sync(&s), Some(at("2026-03-10T10:15:00Z")));
    s.advance(23 * 3600);
    assert_eq!(sync_due(&s), 3, "09:00 next day: all three");
    assert_eq!(server.hits("/d.ics"), 2);
}

/// "Scheduling": after n failures in a row the next try waits
/// `sync_every` x 2^n, at most 24 hours; a success goes back to
/// `sync_every`.
#[test]
fn failing_feeds_back_off_doubling_up_to_a_day() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(&s, &server, "/cal.ics", &calendar("Flaky"));
    let f = id(&feed);
    server.set("/cal.ics", Answer::status(500));
    s.advance(3600);
    assert_eq!(sync_due(&s), 1, "10:00: due, fails");
    assert_eq!(get_feed(&s, &f)["sync_error"]["failures"], 1);
    assert_eq!(next_sync(&s), Some(at("2026-03-10T12:00:00Z")));
    let hours = 3600;
    for (failures, wait) in [(1, 2), (2, 4), (3, 8), (4, 16), (5, 24), (6, 24)] {
        s.advance(wait * hours - 1);
        assert_eq!(
            sync_due(&s),
            0,
            "after {failures} failures: not before {wait} h"
        );
        assert_eq!(server.hits("/cal.ics"), failures + 1);
        s.advance(1);
        assert_eq!(
            sync_due(&s),
            1,
            "after {failures} failures: tried after {wait} h"
        );
        assert_eq!(get_feed(&s, &f)["sync_error"]["failures"], failures + 1);
    }
    // 7 failures; the next try (24 h on) succeeds, then hourly again.
    server.serve("/cal.ics", calendar("Back"));
    s.advance(24 * hours);
    assert_eq!(sync_due(&s), 1);
    assert_eq!(get_feed(&s, &f)["sync_error"], Value::Null);
    s.advance(hours - 1);
    assert_eq!(sync_due(&s), 0);
    s.advance(1);
    assert_eq!(sync_due(&s), 1);
}

/// "Calendar feed health": a manual sync ignores schedule and backoff,
/// and sets the next time the same way a scheduled one does.
#[test]
fn a_manual_sync_ignores_the_backoff_and_sets_the_next_time() {
    let s = feeds_core();
    let server = FeedServer::start();
    let f = id(&feed_of(&s, &server, "/cal.ics", &calendar("Flaky")));
    server.set("/cal.ics", Answer::status(503));
    s.advance(60);
    assert_eq!(synced(&s, &f)["sync_error"]["failures"], 1);
    assert_eq!(
        next_sync(&s),
        Some(at("2026-03-10T11:01:00Z")),
        "2 h after the try"
    );
    s.advance(60);
    assert_eq!(synced(&s, &f)["sync_error"]["failures"], 2);
    assert_eq!(
        next_sync(&s),
        Some(at("2026-03-10T13:02:00Z")),
        "4 h after the try"
    );
    server.serve("/cal.ics", calendar("Back"));
    s.advance(60);
    assert_eq!(synced(&s, &f)["sync_error"], Value::Null);
    assert_eq!(
        next_sync(&s),
        Some(at("2026-03-10T10:03:00Z")),
        "1 h after the success"
    );
    assert_eq!(server.hits("/cal.ics"), 4);
}

/// "Calendar feeds": a new `sync_every` moves the next sync to the last
/// attempt plus the new interval (with the same backoff); a sync already
/// overdue under the new one happens on the next round.
#[test]
fn a_new_sync_every_moves_the_next_sync() {
    let s = feeds_core();
    let server = FeedServer::start();
    let f = id(&new_feed(&s, {
        server.serve("/cal.ics", calendar("Daily"));
        json!({"address": server.url("/cal.ics"), "color": "blue", "sync_every": "daily"})
    }));
    assert_eq!(next_sync(&s), Some(at("2026-03-11T09:00:00Z")));
    s.advance(3600);
    assert_eq!(sync_due(&s), 0);
    patch_feed(&s, &f, json!({"sync_every": "15_minutes"})).expect(200);
    assert_eq!(next_sync(&s), Some(at("2026-03-10T09:15:00Z")), "overdue");
    assert_eq!(sync_due(&s), 1, "10:00");
    patch_feed(&s, &f, json!({"sync_every": "6_hours"})).expect(200);
    assert_eq!(next_sync(&s), Some(at("2026-03-10T16:00:00Z")));
    // With failures: the backoff applies to the new interval.
    server.set("/cal.ics", Answer::status(500));
    s.advance(6 * 3600);
    assert_eq!(sync_due(&s), 1, "16:00, fails");
    assert_eq!(next_sync(&s), Some(at("2026-03-11T04:00:00Z")), "6 h x 2");
    patch_feed(&s, &f, json!({"sync_every": "30_minutes"})).expect(200);
    assert_eq!(
        next_sync(&s),
        Some(at("2026-03-10T17:00:00Z")),
        "30 min x 2"
    );
    // A name change leaves the schedule.
    patch_feed(&s, &f, json!({"name": "Renamed"})).expect(200);
    assert_eq!(next_sync(&s), Some(at("2026-03-10T17:00:00Z")));
}

/// The decisions: `sync_due_feeds` tries every due feed (four at a time)
/// and says how many; deleted feeds are not synced; with none due, 0.
#[test]
fn sync_due_feeds_tries_every_due_feed() {
    let s = feeds_core();
    let server = FeedServer::start();
    assert_eq!(next_sync(&s), None);
    assert_eq!(sync_due(&s), 0);
    let mut made = Vec::new();
    for n in 0..7 {
        let path = format!("/f{n}.ics");
        made.push(feed_of(&s, &server, &path, &calendar(&format!("F{n}"))));
    }
    s.delete(&format!("/calendar_feeds/{}", id(&made[6])))
        .expect(204);
    s.advance(3600);
    assert_eq!(sync_due(&s), 6);
    for n in 0..6 {
        assert_eq!(server.hits(&format!("/f{n}.ics")), 2, "f{n}");
    }
    assert_eq!(server.hits("/f6.ics"), 1, "deleted");
    for feed in all(&s, "/calendar_feeds") {
        assert_eq!(feed["last_attempt_at"], now_string(&s));
    }
    assert_eq!(sync_due(&s), 0);
}
