//! EXTENSIONS.md §3, "Reminders", in process: the scheduler is driven by
//! the test (`org.send_due_reminders()`, one run) after it moves the
//! store's clock, and every message goes over a real loopback socket to a
//! receiver in the test process (`common::receivers`: an HTTP recorder as
//! the ntfy topic or the webhook, a small SMTP server for e-mail).
//!
//! Today is Tuesday 2026-03-10, 09:00 UTC, unless a test moves the clock;
//! the owner's zone is UTC unless a test sets one (`PATCH /me`).
//!
//! By area: `channels` (the channels' fields, every refusal, the secret
//! never shown, the test message), `settings` (defaults, partial changes,
//! every refusal), `tasks` (`remind_at`'s rules, a task's reminder at its
//! minute on each kind of channel, a repeating task's reminder moving
//! with it), `daily` (the agenda at its hour in the owner's zone, across
//! clock changes; key dates and deadlines some days ahead), `delivery`
//! (catch-up after downtime, retries with backoff, `failed` after a day,
//! the log's order and pages).

use jiff::Timestamp;
use organiser::reminders::ReminderRun;
use serde_json::{Value, json};

use crate::common::fixtures::{all, id, new_task};
use crate::common::receivers::{HttpReceiver, SmtpReceiver};
use crate::common::{Call, Core, Expect, Setup, check};

mod agenda;
mod channels;
mod daily;
mod delivery;
mod settings;
mod tasks;

const CHANNELS: &str = "/notification_channels";
const SETTINGS: &str = "/reminder_settings";
const NOTIFICATIONS: &str = "/notifications";

// ---------------------------------------------------------------- helpers

/// A licensed in-memory organiser (some tests move the clock past the
/// 14-day trial) at 2026-03-10T09:00:00Z, owner zone UTC.
fn start() -> Core {
    start_with(Setup::default())
}

/// [`start`] at `now`.
fn start_at(now: &'static str) -> Core {
    start_with(Setup {
        now,
        ..Setup::default()
    })
}

/// [`start`] made as `setup` says, licensed.
fn start_with(setup: Setup) -> Core {
    Core::licensed(setup)
}

/// `POST /notification_channels` with `fields`.
fn create(fields: Value) -> Call {
    Call::post(CHANNELS, json!({ "notification_channel": fields }))
}

/// `PATCH /notification_channels/{channel}` with `fields`.
fn change(channel: &str, fields: Value) -> Call {
    Call::patch(
        format!("{CHANNELS}/{channel}"),
        json!({ "notification_channel": fields }),
    )
}

/// Makes a channel of `fields`; the record.
#[track_caller]
fn add_channel(s: &Core, fields: Value) -> Value {
    check(s, create(fields), Expect::status(201)).data().clone()
}

/// An ntfy channel named `name` posting to `rx`'s `/alerts` topic, with
/// `secret` as its access token.
#[track_caller]
fn ntfy(s: &Core, name: &str, rx: &HttpReceiver, secret: Option<&str>) -> Value {
    add_channel(
        s,
        json!({"name": name, "kind": "ntfy", "url": rx.url("/alerts"), "secret": secret}),
    )
}

/// A webhook channel named `name` posting to `rx`'s `/hook`, signed with
/// `secret`.
#[track_caller]
fn webhook(s: &Core, name: &str, rx: &HttpReceiver, secret: Option<&str>) -> Value {
    add_channel(
        s,
        json!({"name": name, "kind": "webhook", "url": rx.url("/hook"), "secret": secret}),
    )
}

/// An e-mail channel named `name` sending through `smtp` without TLS or
/// a login.
#[track_caller]
fn email(s: &Core, name: &str, smtp: &SmtpReceiver) -> Value {
    add_channel(
        s,
        json!({"name": name, "kind": "email", "email": {
            "smtp_host": smtp.host(), "smtp_port": smtp.port(), "security": "none",
            "from": "Organiser <organiser@example.com>", "to": "ada@example.com, Bob <bob@example.com>",
        }}),
    )
}

/// `PATCH /reminder_settings` with `fields`, which must be 200; the
/// settings.
#[track_caller]
fn set(s: &Core, fields: Value) -> Value {
    s.patch(SETTINGS, json!({ "reminder_settings": fields }))
        .expect(200)
        .data()
        .clone()
}

/// Reminders go to `channels` from now on: task reminders only (key
/// dates and deadlines turned off, the agenda off as it is by default).
#[track_caller]
fn send_to(s: &Core, channels: &[&Value]) {
    set(
        s,
        json!({"channel_ids": ids_of(channels), "key_dates": {"days_before": []},
               "deadlines": {"days_before": []}}),
    );
}

/// The IDs of `records`.
fn ids_of(records: &[&Value]) -> Vec<String> {
    records.iter().map(|c| id(c)).collect()
}

/// One run of the scheduler.
#[track_caller]
fn run(s: &Core) -> ReminderRun {
    s.org.send_due_reminders().expect("the scheduler runs")
}

/// Sets the clock to `instant` (RFC 3339) and runs the scheduler once.
#[track_caller]
fn run_at(s: &Core, instant: &str) -> ReminderRun {
    at(s, instant);
    run(s)
}

/// Sets the clock to `instant` (RFC 3339).
fn at(s: &Core, instant: &str) {
    s.clock.set(instant.parse().unwrap());
}

/// `instant` as the API writes it (milliseconds, `Z`).
fn stamp(instant: &str) -> String {
    let t: Timestamp = instant.parse().unwrap();
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Every notification, newest `due_at` first.
#[track_caller]
fn notifications(s: &Core) -> Vec<Value> {
    all(s, NOTIFICATIONS)
}

/// The only notification; panics unless there is exactly one.
#[track_caller]
fn only_notification(s: &Core) -> Value {
    let all = notifications(s);
    assert_eq!(all.len(), 1, "{all:#?}");
    all[0].clone()
}

/// An Inbox task titled `title` to be reminded of at `remind_at`; the
/// record.
#[track_caller]
fn reminded(s: &Core, title: &str, remind_at: &str) -> Value {
    new_task(s, json!({"title": title, "remind_at": remind_at}))
}

/// `GET /notification_channels/{id}`, which must be 200.
#[track_caller]
fn channel(s: &Core, channel: &str) -> Value {
    s.get(&format!("{CHANNELS}/{channel}"))
        .expect(200)
        .data()
        .clone()
}
