//! Delivery: catch-up after downtime (what fell due in the last 24 hours
//! is sent at once, older is `missed`); a failure retried after 1, 2, 4,
//! ... 60 minutes, then `failed` 24 hours after it fell due, each try
//! recorded on the notification and the channel; a channel deleted or
//! turned off ending what waits for it; and the log (`GET
//! /notifications`): newest `due_at` first, in pages.

use organiser::clock::Clock;
use serde_json::{Value, json};

use super::{
    CHANNELS, NOTIFICATIONS, channel, ids_of, notifications, ntfy, only_notification, reminded,
    run, run_at, send_to, set, stamp, start, webhook,
};
use crate::common::fixtures::{assert_listed, id};
use crate::common::receivers::HttpReceiver;
use crate::common::{Call, Expect, check};

/// After downtime a task reminder that fell due within the last 24
/// hours is sent at once (its `due_at` its time, `sent_at` now); one that
/// fell due longer ago is `missed`, never tried.
#[test]
fn a_late_reminder_is_sent_within_a_day_and_missed_after() {
    let rows = [
        ("2026-03-10T13:00:00Z", "sent", 1, 1),
        ("2026-03-11T09:59:59Z", "sent", 1, 1),
        ("2026-03-11T10:00:01Z", "missed", 0, 0),
        ("2026-03-11T16:00:00Z", "missed", 0, 0),
    ];
    for (now, status, attempts, arrived) in rows {
        let s = start();
        let rx = HttpReceiver::start();
        let phone = ntfy(&s, "Phone", &rx, None);
        send_to(&s, &[&phone]);
        reminded(&s, "Late", "2026-03-10T10:00:00Z");
        run_at(&s, now);
        let n = only_notification(&s);
        assert_eq!(
            (&n["status"], &n["attempts"]),
            (&json!(status), &json!(attempts)),
            "at {now}: {n}"
        );
        assert_eq!(n["due_at"], stamp("2026-03-10T10:00:00Z"));
        let sent_at = if status == "sent" {
            json!(stamp(now))
        } else {
            Value::Null
        };
        assert_eq!(n["sent_at"], sent_at, "at {now}");
        assert_eq!(rx.count(), arrived, "at {now}");
        run_at(&s, "2026-03-12T00:00:00Z");
        assert_eq!(rx.count(), arrived, "never sent later");
    }
}

/// After days down, the daily agenda of each day within the last 24
/// hours is sent and the older days' are `missed` (one row a day).
#[test]
fn missed_days_of_the_agenda_are_missed() {
    let s = start();
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    set(
        &s,
        json!({"channel_ids": ids_of(&[&phone]), "daily_agenda": {"enabled": true, "at": "08:00"},
               "key_dates": {"days_before": []}, "deadlines": {"days_before": []}}),
    );
    run(&s);
    run_at(&s, "2026-03-13T09:00:00Z");
    let log: Vec<(String, String)> = notifications(&s)
        .iter()
        .map(|n| {
            (
                n["due_at"].as_str().unwrap().to_owned(),
                n["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        log,
        [
            (stamp("2026-03-13T08:00:00Z"), "sent".to_owned()),
            (stamp("2026-03-12T08:00:00Z"), "missed".to_owned()),
            (stamp("2026-03-11T08:00:00Z"), "missed".to_owned()),
        ]
    );
    assert_eq!(rx.count(), 1);
    assert_eq!(rx.last().header("title"), Some("Your day: Friday 13 March"));
}

/// A failed try leaves the notification pending with its attempt and
/// error (and the channel's `last_failed_at` and `last_error`); it is
/// tried again after a minute, not before; then after 2 minutes; and a
/// success marks it sent, clears the error and records the channel's
/// success.
#[test]
fn a_failure_is_retried_after_a_backoff() {
    let s = start();
    let rx = HttpReceiver::start();
    rx.answer_status(500);
    let phone = ntfy(&s, "Phone", &rx, None);
    send_to(&s, &[&phone]);
    reminded(&s, "Retry me", "2026-03-10T10:00:00Z");
    let ran = run_at(&s, "2026-03-10T10:00:00Z");
    assert_eq!((ran.planned, ran.sent, ran.failed), (1, 0, 1));
    let n = only_notification(&s);
    assert_eq!(
        (&n["status"], &n["attempts"], &n["sent_at"]),
        (&json!("pending"), &json!(1), &Value::Null)
    );
    let error = n["error"].as_str().expect("an error");
    assert!(error.contains("500"), "{error}");
    let c = channel(&s, &id(&phone));
    assert_eq!(c["last_failed_at"], stamp("2026-03-10T10:00:00Z"));
    assert_eq!(c["last_error"], json!(error));
    assert_eq!(
        s.org.next_reminder_at().unwrap(),
        Some("2026-03-10T10:01:00Z".parse().unwrap())
    );

    run_at(&s, "2026-03-10T10:00:59Z");
    assert_eq!(rx.count(), 1, "not before its backoff");
    run_at(&s, "2026-03-10T10:01:00Z");
    assert_eq!(rx.count(), 2);
    assert_eq!(only_notification(&s)["attempts"], 2);
    assert_eq!(
        s.org.next_reminder_at().unwrap(),
        Some("2026-03-10T10:03:00Z".parse().unwrap())
    );
    // Each try carries the same delivery ID.
    let received = rx.received();
    assert_eq!(received[0].delivery(), received[1].delivery());

    rx.answer_status(200);
    run_at(&s, "2026-03-10T10:02:59Z");
    assert_eq!(rx.count(), 2);
    run_at(&s, "2026-03-10T10:03:00Z");
    let n = only_notification(&s);
    assert_eq!(
        (&n["status"], &n["attempts"], &n["error"]),
        (&json!("sent"), &json!(3), &Value::Null)
    );
    assert_eq!(n["sent_at"], stamp("2026-03-10T10:03:00Z"));
    let c = channel(&s, &id(&phone));
    assert_eq!(c["last_succeeded_at"], stamp("2026-03-10T10:03:00Z"));
    assert_eq!(c["last_error"], Value::Null);
    assert_eq!(c["last_failed_at"], stamp("2026-03-10T10:01:00Z"));
    assert_eq!(s.org.next_reminder_at().unwrap(), None);
}

/// A channel that keeps failing is tried after 1, 2, 4, 8, 16, 32 and
/// then every 60 minutes for as long as the next try falls within 24
/// hours of the reminder's time; then the notification is `failed` and
/// not tried again.
#[test]
fn a_failure_is_failed_after_a_day() {
    let s = start();
    let rx = HttpReceiver::start();
    rx.answer_status(503);
    let hook = webhook(&s, "Hook", &rx, None);
    send_to(&s, &[&hook]);
    reminded(&s, "Never arrives", "2026-03-10T10:00:00Z");
    // The minutes after 10:00 each try is due at, by the rule.
    let mut wanted = vec![0_i64];
    loop {
        let tries = wanted.len() as u32;
        let next = wanted.last().unwrap() + (1_i64 << (tries - 1).min(6)).min(60);
        if next > 24 * 60 {
            break;
        }
        wanted.push(next);
    }
    let due: jiff::Timestamp = "2026-03-10T10:00:00Z".parse().unwrap();
    let mut tried = Vec::new();
    run_at(&s, "2026-03-10T10:00:00Z");
    tried.push(0);
    while let Some(next) = s.org.next_reminder_at().unwrap() {
        assert!(tried.len() <= wanted.len(), "tried too often: {tried:?}");
        // Not a moment before.
        s.clock.set(next - jiff::SignedDuration::from_millis(1));
        run(&s);
        assert_eq!(rx.count(), tried.len(), "before {next}");
        s.clock.set(next);
        run(&s);
        tried.push(next.duration_since(due).as_mins());
    }
    assert_eq!(tried, wanted);
    assert_eq!(rx.count(), wanted.len());
    let n = only_notification(&s);
    assert_eq!(
        (&n["status"], &n["attempts"], &n["sent_at"]),
        (&json!("failed"), &json!(wanted.len()), &Value::Null)
    );
    assert!(n["error"].as_str().unwrap().contains("503"), "{n}");
    let c = channel(&s, &id(&hook));
    assert_eq!(
        c["last_failed_at"],
        json!(stamp(&s.clock.now().to_string()))
    );
    run_at(&s, "2026-03-12T10:00:00Z");
    assert_eq!(rx.count(), wanted.len(), "not tried after it failed");
}

/// What waits for a channel that is deleted fails at once ("the channel
/// was deleted"); for a channel turned off, at its next try ("the channel
/// is turned off"); neither is sent.
#[test]
fn a_deleted_or_turned_off_channel_fails_what_waits_for_it() {
    for (how, change) in [
        ("deleted", Call::new("DELETE", "")),
        (
            "turned off",
            Call::patch("", json!({"notification_channel": {"enabled": false}})),
        ),
    ] {
        let s = start();
        let rx = HttpReceiver::start();
        rx.answer_status(500);
        let phone = ntfy(&s, "Phone", &rx, None);
        send_to(&s, &[&phone]);
        reminded(&s, "Waits", "2026-03-10T10:00:00Z");
        run_at(&s, "2026-03-10T10:00:00Z");
        assert_eq!(only_notification(&s)["status"], "pending");
        let mut change = change.clone();
        change.path = format!("{CHANNELS}/{}", id(&phone));
        let status = if how == "deleted" { 204 } else { 200 };
        check(&s, change, Expect::status(status));
        run_at(&s, "2026-03-10T10:05:00Z");
        let n = only_notification(&s);
        assert_eq!(n["status"], "failed", "{how}: {n}");
        assert_eq!(
            n["error"],
            format!(
                "the channel {}",
                if how == "deleted" {
                    "was deleted"
                } else {
                    "is turned off"
                }
            ),
            "{how}"
        );
        assert_eq!(n["attempts"], 1, "{how}");
        assert_eq!(rx.count(), 1, "{how}: not tried again");
    }
}

/// The log lists every notification newest `due_at` first, whatever the
/// order they were made or sent in, and pages through them with
/// `limit`, `cursor` and `count`; a bad cursor or limit is 400.
#[test]
fn the_log_is_newest_first_in_pages() {
    let s = start();
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    send_to(&s, &[&phone]);
    for (title, at) in [
        ("Third", "2026-03-10T12:00:00Z"),
        ("First", "2026-03-10T10:00:00Z"),
        ("Fifth", "2026-03-10T14:00:00Z"),
        ("Second", "2026-03-10T11:00:00Z"),
        ("Fourth", "2026-03-10T13:00:00Z"),
    ] {
        reminded(&s, title, at);
    }
    run_at(&s, "2026-03-10T10:30:00Z");
    run_at(&s, "2026-03-10T15:00:00Z");
    let log = notifications(&s);
    let due: Vec<String> = log
        .iter()
        .map(|n| n["due_at"].as_str().unwrap().to_owned())
        .collect();
    let wanted: Vec<String> = [
        "2026-03-10T14:00:00Z",
        "2026-03-10T13:00:00Z",
        "2026-03-10T12:00:00Z",
        "2026-03-10T11:00:00Z",
        "2026-03-10T10:00:00Z",
    ]
    .iter()
    .map(|t| stamp(t))
    .collect();
    assert_eq!(due, wanted);
    let ids: Vec<String> = log.iter().map(id).collect();
    assert_listed(&s, NOTIFICATIONS, &ids);
    let reversed: Vec<String> = ids.iter().rev().cloned().collect();
    assert_listed(&s, &format!("{NOTIFICATIONS}?direction=asc"), &reversed);
    for bad in ["cursor=nonsense", "limit=0", "limit=x", "order=title"] {
        check(
            &s,
            Call::get(format!("{NOTIFICATIONS}?{bad}")),
            Expect::bad_param(None),
        );
    }
}
