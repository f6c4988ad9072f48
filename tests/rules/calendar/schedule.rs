//! Document 3, "Calendar feed health" (scheduled syncs follow
//! `sync_every` with backoff) and "Calendar feeds" (a new `sync_every`
//! moves the next sync; at most four at once), with the decisions
//! ("Scheduling"): `Organiser::sync_due_feeds` and
//! `Organiser::next_feed_sync_at` on the moved clock.

use std::time::Duration;

use serde_json::{Value, json};

use super::sync::calendar;
use super::{feed_of, feeds_core, get_feed, new_feed, patch_feed, sync_all, synced};
use crate::common::fixtures::{all, id, now_string};
use crate::common::{Answer, Core, FeedServer};

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

/// "Calendar feeds" and document 1, "Limits": sync-all and the scheduled
/// syncs fetch at most four feeds at once, and do fetch four at once.
#[test]
fn at_most_four_feeds_are_fetched_at_once() {
    let s = feeds_core();
    let server = FeedServer::start();
    for n in 0..8 {
        let path = format!("/slow-{n}.ics");
        feed_of(&s, &server, &path, &calendar("Slow"));
        server.set(
            &path,
            Answer::calendar(calendar("Slow")).delay(Duration::from_millis(300)),
        );
    }
    server.reset_hits();
    sync_all(&s).expect(200);
    assert_eq!(server.most_at_once(), 4, "sync-all");
    server.reset_hits();
    s.advance(3600);
    assert_eq!(sync_due(&s), 8);
    assert_eq!(server.most_at_once(), 4, "the scheduled syncs");
}
