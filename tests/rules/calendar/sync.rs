//! Document 3, "Calendar feed health" and the sync endpoints, with the
//! decisions ("Fetching and sync_error codes"): every `sync_error` a
//! loopback server can provoke, `failures` and recovery, redirects,
//! refused addresses, manual syncs. The schedule is in `schedule`.
//!
//! Not provoked here: `timed_out` (30 s of real time), `tls` (no
//! certificate to get wrong on loopback), `not_saved` (the store does not
//! refuse), and a redirect from a public address to a private one (no
//! public server in a test).

use std::sync::Arc;

use organiser::{Options, Organiser, clock::ManualClock, data::SecretKey};
use serde_json::{Value, json};

use super::{create, events, events_of, feed_of, feeds_core, get_feed, guarded_core, label};
use super::{new_feed, one_event, patch_feed, sync_all, synced, titles};
use crate::common::feed_server::{closed_port_url, vcalendar};
use crate::common::fixtures::{START, UNKNOWN, all, deletions, id, now_string};
use crate::common::{Answer, Call, Core, Expect, FeedServer, Setup, Vcal, check, send};

/// A calendar with one event, `title`, on 2026-03-10 10:00-11:00 UTC.
pub(super) fn calendar(title: &str) -> String {
    one_event(title, title, "20260310T100000Z", "20260310T110000Z", "")
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

    // At the caps: exactly 20 MiB, exactly 20,000 events.
    let mut fits = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-PAD:".to_vec();
    let end = b"\r\nEND:VCALENDAR\r\n";
    fits.resize(20 * 1024 * 1024 - end.len(), b'a');
    fits.extend_from_slice(end);
    assert_eq!(fits.len(), 20 * 1024 * 1024);
    server.set("/fits.ics", Answer::calendar("").body(fits));
    let mut most = Vcal::new();
    for n in 0..20_000 {
        most.push_event(&format!(
            "UID:e{n}\nSUMMARY:Event {n}\nDTSTART:20260310T100000Z"
        ));
    }
    server.serve("/most.ics", most.build());
    for path in ["/fits.ics", "/most.ics"] {
        let made = new_feed(&s, json!({"address": server.url(path), "color": "blue"}));
        assert_eq!(made["sync_error"], Value::Null, "{path}");
    }
    let day = events(&s, "2026-03-10", "2026-03-10");
    assert_eq!(day.len(), 20_000);
    for feed in all(&s, "/calendar_feeds") {
        s.delete(&format!("/calendar_feeds/{}", id(&feed)))
            .expect(204);
    }

    for (path, code) in [("/big.ics", "too_big"), ("/many.ics", "too_many_events")] {
        let good = format!("{path}.good");
        let feed = feed_of(&s, &server, &good, &calendar("Fine"));
        server.set(&good, Answer::redirect(302, server.url(path)));
        s.advance(60);
        let after = synced(&s, &id(&feed));
        let error = &after["sync_error"];
        assert_eq!(
            (&error["code"], &error["failures"]),
            (&json!(code), &json!(1)),
            "{path}: {error}"
        );
        // The decisions keep the status of a 200 for `not_calendar` and
        // `too_many_events`; for a body cut off at the cap they are
        // silent (the core answers null: its client reports no status
        // with the cap).
        let status = if code == "too_big" { None } else { Some(200) };
        assert_eq!(error["http_status"], json!(status), "{path}");
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
        // The reason, and how to allow such addresses (issue 22).
        let said = refused.body["error"]["details"]["address"][0]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            said.starts_with(label("refused_address")),
            "{address}: {said}"
        );
        assert!(said.contains("ORGANISER_ALLOW_PRIVATE_FEEDS=1"), "{said}");
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

/// Whether an address is subscribed already can be asked, though
/// addresses are never shown (issue 22: `feeds add` says so):
/// `webcal://` and `https://` are the same address.
#[test]
fn the_feeds_of_an_address_can_be_asked_for() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/cal.ics", calendar("Team"));
    server.serve("/other.ics", calendar("Other"));
    let first = new_feed(
        &s,
        json!({"address": server.url("/cal.ics"), "color": "blue"}),
    );
    new_feed(
        &s,
        json!({"address": server.url("/other.ics"), "color": "green"}),
    );
    let webcal = server.url("/cal.ics").replacen("http://", "webcal://", 1);
    // As written, with spaces around it (the address rules trim it).
    for address in [
        server.url("/cal.ics"),
        format!(" {} ", server.url("/cal.ics")),
    ] {
        let found = s
            .get(&format!("/calendar_feeds?address={}", urlencode(&address)))
            .expect(200);
        let ids: Vec<&Value> = found.body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| &f["id"])
            .collect();
        assert_eq!(ids, [&first["id"]], "{address}");
    }
    // A webcal address is fetched over https: another address here.
    let found = s
        .get(&format!("/calendar_feeds?address={}", urlencode(&webcal)))
        .expect(200);
    assert_eq!(found.body["data"], json!([]));
    check(
        &s,
        Call::get("/calendar_feeds?address=ftp%3A%2F%2Fx"),
        Expect::bad_param(Some("address")),
    );
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
