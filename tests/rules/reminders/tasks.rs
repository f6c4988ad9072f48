//! A task's `remind_at`: its rules on a write (an open task, not in the
//! past, checked only when it changes); the reminder arriving at its
//! minute and not before, once per channel, on each kind of channel
//! (ntfy's headers and bearer token, the webhook's exact body and its
//! signature checked with an independent HMAC, e-mail's plain text and
//! HTML); what a change, a close, a reopen or a delete does to it; and a
//! repeating task's reminder moving with its dates, at the same time of
//! day in the owner's zone across a clock change.

use hmac::{KeyInit, Mac};
use serde_json::{Value, json};

use super::{
    CHANNELS, email, notifications, ntfy, only_notification, reminded, run_at, send_to, stamp,
    start, start_with, webhook,
};
use crate::common::fixtures::{get_task, id, new_task, patch_task, set_zone};
use crate::common::receivers::{HttpReceiver, Received, SmtpReceiver};
use crate::common::{Call, Expect, Setup, check};

/// Panics unless `got` carries `X-Organiser-Signature: sha256=<hex>` of
/// HMAC-SHA256 of its body under `key`, computed here with the `hmac`
/// crate.
#[track_caller]
pub(super) fn assert_signed(got: &Received, key: &str) {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(&got.body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(
        got.header("x-organiser-signature"),
        Some(format!("sha256={hex}").as_str()),
        "the signature of {}",
        got.text()
    );
}

/// `remind_at` is refused with 422 under its field when it is in the past
/// or not a date-time, or on a task that is not open (made closed, or
/// closed by the same change); and a refusal changes nothing. The same
/// instant again is no change (even once it has passed); an offset is
/// kept as the instant; null or "" clears it.
#[test]
fn remind_at_is_refused_in_the_past_and_on_a_closed_task() {
    let s = start();
    let open = new_task(&s, json!({"title": "Open"}));
    let done = new_task(&s, json!({"title": "Done", "status": "completed"}));
    let (open_id, done_id) = (id(&open), id(&done));
    let rows: Vec<Call> = vec![
        Call::post(
            "/tasks",
            json!({"task": {"title": "Late", "remind_at": "2026-03-10T08:59:59Z"}}),
        ),
        Call::post(
            "/tasks",
            json!({"task": {"title": "Closed", "status": "completed", "remind_at": "2026-03-11T09:00:00Z"}}),
        ),
        Call::post(
            "/tasks",
            json!({"task": {"title": "Won't", "status": "wont_do", "remind_at": "2026-03-11T09:00:00Z"}}),
        ),
        Call::post(
            "/tasks",
            json!({"task": {"title": "Words", "remind_at": "tomorrow at nine"}}),
        ),
        Call::post(
            "/tasks",
            json!({"task": {"title": "Day", "remind_at": "2026-03-11"}}),
        ),
        Call::post(
            "/tasks",
            json!({"task": {"title": "Number", "remind_at": 1773219600}}),
        ),
        Call::patch(
            format!("/tasks/{open_id}"),
            json!({"task": {"remind_at": "2026-03-09T09:00:00Z"}}),
        ),
        Call::patch(
            format!("/tasks/{done_id}"),
            json!({"task": {"remind_at": "2026-03-11T09:00:00Z"}}),
        ),
        Call::patch(
            format!("/tasks/{open_id}"),
            json!({"task": {"status": "completed", "remind_at": "2026-03-11T09:00:00Z"}}),
        ),
    ];
    for call in rows {
        check(&s, call, Expect::invalid("remind_at"));
    }
    assert_eq!(get_task(&s, &open_id), open);
    assert_eq!(get_task(&s, &done_id), done);

    // Now is not the past; an offset is the instant it names.
    let now = new_task(
        &s,
        json!({"title": "Now", "remind_at": "2026-03-10T09:00:00Z"}),
    );
    assert_eq!(now["remind_at"], stamp("2026-03-10T09:00:00Z"));
    let offset = patch_task(
        &s,
        &open_id,
        json!({"remind_at": "2026-03-10T12:30:00+02:00"}),
    )
    .expect(200);
    assert_eq!(offset.data()["remind_at"], stamp("2026-03-10T10:30:00Z"));
    // Once it has passed, sending it again is no change.
    s.advance(3 * 3600);
    let again = patch_task(
        &s,
        &open_id,
        json!({"title": "Open still", "remind_at": "2026-03-10T10:30:00Z"}),
    )
    .expect(200);
    assert_eq!(again.data()["remind_at"], stamp("2026-03-10T10:30:00Z"));
    for clear in [json!(null), json!("")] {
        patch_task(&s, &open_id, json!({"remind_at": "2026-03-12T09:00:00Z"})).expect(200);
        let cleared = patch_task(&s, &open_id, json!({ "remind_at": clear })).expect(200);
        assert_eq!(cleared.data()["remind_at"], Value::Null, "{clear}");
    }
    assert_eq!(
        new_task(&s, json!({"title": "None"}))["remind_at"],
        Value::Null
    );
}

/// A task's reminder arrives at its minute and not a moment before, to
/// an ntfy topic: the title, priority 4, the `bell` tag, a click link to
/// the task under the public address, the bearer token, the
/// notification's ID, and the text (with the deadline and description).
/// The log holds it as sent, its `due_at` the task's `remind_at`.
#[test]
fn a_task_reminder_arrives_at_its_minute_to_ntfy() {
    let mut setup = Setup::default();
    setup.options.public_url = Some("https://organiser.example.com".to_owned());
    let s = start_with(setup);
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, Some("tk_abc"));
    send_to(&s, &[&phone]);
    let task = new_task(
        &s,
        json!({"title": "Call the bank", "remind_at": "2026-03-10T10:00:00Z",
               "deadline_on": "2026-03-11", "description_html": "<p>About the loan</p>"}),
    );
    for early in [
        "2026-03-10T09:00:00Z",
        "2026-03-10T09:59:00Z",
        "2026-03-10T09:59:59.999Z",
    ] {
        run_at(&s, early);
        assert_eq!(rx.count(), 0, "sent at {early}");
    }
    assert_eq!(notifications(&s), Vec::<Value>::new());
    let ran = run_at(&s, "2026-03-10T10:00:00Z");
    assert_eq!((ran.planned, ran.sent, ran.failed), (1, 1, 0));
    let got = rx.last();
    assert_eq!(
        (got.method.as_str(), got.path.as_str()),
        ("POST", "/alerts")
    );
    assert_eq!(got.header("title"), Some("Call the bank"));
    assert_eq!(got.header("priority"), Some("4"));
    assert_eq!(got.header("tags"), Some("bell"));
    assert_eq!(
        got.header("click"),
        Some(format!("https://organiser.example.com/tasks/{}", id(&task)).as_str())
    );
    assert_eq!(got.header("authorization"), Some("Bearer tk_abc"));
    assert_eq!(
        got.text(),
        "Reminder · due tomorrow (Wednesday 11 March)\n\nAbout the loan"
    );
    let n = only_notification(&s);
    assert_eq!(got.delivery(), n["id"].as_str().unwrap());
    assert_eq!(
        n,
        json!({"id": n["id"], "kind": "task", "subject_id": id(&task), "channel_id": id(&phone),
               "due_at": stamp("2026-03-10T10:00:00Z"), "sent_at": stamp("2026-03-10T10:00:00Z"),
               "status": "sent", "attempts": 1, "error": null})
    );
    let after = s.get(&format!("{CHANNELS}/{}", id(&phone))).expect(200);
    assert_eq!(
        after.data()["last_succeeded_at"],
        stamp("2026-03-10T10:00:00Z")
    );
    // Sent once: later runs send nothing more.
    run_at(&s, "2026-03-10T11:00:00Z");
    run_at(&s, "2026-03-11T11:00:00Z");
    assert_eq!(rx.count(), 1);
}

/// A title that is not ASCII reaches ntfy as an RFC 2047 header (ntfy
/// reads it); without a public address there is no click link.
#[test]
fn a_title_that_is_not_ascii_is_encoded_for_ntfy() {
    let s = start();
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    send_to(&s, &[&phone]);
    reminded(&s, "Ring Zoë ☎", "2026-03-10T09:30:00Z");
    run_at(&s, "2026-03-10T09:30:00Z");
    let got = rx.last();
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode("Ring Zoë ☎");
    assert_eq!(
        got.header("title"),
        Some(format!("=?UTF-8?B?{encoded}?=").as_str())
    );
    assert_eq!(got.header("click"), None);
    assert_eq!(got.header("authorization"), None);
    assert_eq!(got.text(), "Reminder");
}

/// A webhook gets exactly `{kind, title, body, url, subject: {type, id},
/// due_at}` as JSON, in that order, signed with the channel's secret;
/// with `X-Organiser-Delivery` naming the notification.
#[test]
fn a_webhook_gets_the_exact_body_signed() {
    let mut setup = Setup::default();
    setup.options.public_url = Some("https://organiser.example.com".to_owned());
    let s = start_with(setup);
    let rx = HttpReceiver::start();
    let hook = webhook(&s, "Hook", &rx, Some("whsec_0123"));
    send_to(&s, &[&hook]);
    let task = reminded(&s, "Water the plants", "2026-03-10T18:45:00Z");
    run_at(&s, "2026-03-10T18:45:30Z");
    let got = rx.last();
    assert_eq!(got.header("content-type"), Some("application/json"));
    let t = id(&task);
    let wanted = json!({
        "kind": "task", "title": "Water the plants", "body": "Reminder",
        "url": format!("https://organiser.example.com/tasks/{t}"),
        "subject": {"type": "task", "id": t}, "due_at": stamp("2026-03-10T18:45:00Z"),
    });
    assert_eq!(got.json(), wanted);
    assert_eq!(got.text(), wanted.to_string(), "compact, in this order");
    assert_signed(&got, "whsec_0123");
    let n = only_notification(&s);
    assert_eq!(got.delivery(), n["id"].as_str().unwrap());
    assert_eq!(n["sent_at"], stamp("2026-03-10T18:45:30Z"));
    // Without a secret there is no signature.
    s.patch(
        &format!("{CHANNELS}/{}", id(&hook)),
        json!({"notification_channel": {"secret": null}}),
    )
    .expect(200);
    reminded(&s, "Again", "2026-03-10T19:00:00Z");
    run_at(&s, "2026-03-10T19:00:00Z");
    assert_eq!(rx.last().header("x-organiser-signature"), None);
}

/// An e-mail reminder arrives at the SMTP server from the sender to each
/// recipient, as plain text and HTML (the title escaped as a heading, the
/// link as "Open in Organiser"), its Message-ID the notification's.
#[test]
fn an_email_reminder_has_plain_text_and_html() {
    let mut setup = Setup::default();
    setup.options.public_url = Some("https://organiser.example.com".to_owned());
    let s = start_with(setup);
    let smtp = SmtpReceiver::start();
    let mail = email(&s, "Mail", &smtp);
    send_to(&s, &[&mail]);
    let task = new_task(
        &s,
        json!({"title": "Tea & <cake>", "remind_at": "2026-03-10T16:00:00Z",
               "description_html": "<p>Bring milk</p>"}),
    );
    let ran = run_at(&s, "2026-03-10T16:00:00Z");
    assert_eq!(ran.sent, 1, "{ran:?}: {:#?}", notifications(&s));
    let got = smtp
        .wait_for(1, std::time::Duration::from_secs(5))
        .remove(0);
    assert_eq!(got.from, "organiser@example.com");
    assert_eq!(got.to, ["ada@example.com", "bob@example.com"]);
    assert_eq!(got.header("subject").as_deref(), Some("Tea & <cake>"));
    let n = only_notification(&s);
    assert_eq!(
        got.header("message-id"),
        Some(format!("<{}@organiser>", n["id"].as_str().unwrap()))
    );
    assert!(
        got.header("content-type")
            .is_some_and(|c| c.starts_with("multipart/alternative")),
        "{}",
        got.data
    );
    let link = format!("https://organiser.example.com/tasks/{}", id(&task));
    assert_eq!(got.plain(), format!("Reminder\n\nBring milk\n\n{link}"));
    assert_eq!(
        got.html(),
        format!(
            "<!doctype html><html><body><h2>Tea &amp; &lt;cake&gt;</h2>\
             <p>Reminder</p><p>Bring milk</p>\
             <p><a href=\"{link}\">Open in Organiser</a></p></body></html>"
        )
    );
    assert_eq!(n["status"], "sent");
}

/// A reminder goes once to each channel of the settings that is on (not
/// to one turned off, nor to one not listed), each its own notification.
#[test]
fn a_reminder_goes_once_to_each_channel_that_is_on() {
    let s = start();
    let (a, b, off, unlisted) = (
        HttpReceiver::start(),
        HttpReceiver::start(),
        HttpReceiver::start(),
        HttpReceiver::start(),
    );
    let ca = ntfy(&s, "A", &a, None);
    let cb = webhook(&s, "B", &b, None);
    let coff = ntfy(&s, "Off", &off, None);
    ntfy(&s, "Unlisted", &unlisted, None);
    send_to(&s, &[&ca, &cb, &coff]);
    s.patch(
        &format!("{CHANNELS}/{}", id(&coff)),
        json!({"notification_channel": {"enabled": false}}),
    )
    .expect(200);
    reminded(&s, "Both", "2026-03-10T10:00:00Z");
    let ran = run_at(&s, "2026-03-10T10:00:00Z");
    assert_eq!((ran.planned, ran.sent), (2, 2));
    assert_eq!(
        (a.count(), b.count(), off.count(), unlisted.count()),
        (1, 1, 0, 0)
    );
    let mut channels: Vec<String> = notifications(&s)
        .iter()
        .map(|n| n["channel_id"].as_str().unwrap().to_owned())
        .collect();
    channels.sort();
    let mut wanted = vec![id(&ca), id(&cb)];
    wanted.sort();
    assert_eq!(channels, wanted);
    assert_ne!(a.last().delivery(), b.last().delivery());
}

/// What a write does to a reminder not yet sent: moved, it comes at its
/// new time only; cleared, closed or deleted, it never comes; reopened
/// while its time is ahead, or restored after a delete, it comes. One
/// sent is not sent again by a later write that leaves it as it was.
#[test]
fn a_write_moves_clears_or_keeps_a_reminder() {
    let s = start();
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    send_to(&s, &[&phone]);
    let moved = reminded(&s, "Moved", "2026-03-10T10:00:00Z");
    let cleared = reminded(&s, "Cleared", "2026-03-10T10:00:00Z");
    let closed = reminded(&s, "Closed", "2026-03-10T10:00:00Z");
    let deleted = reminded(&s, "Deleted", "2026-03-10T10:00:00Z");
    let reopened = reminded(&s, "Reopened", "2026-03-10T10:00:00Z");
    let kept = reminded(&s, "Kept", "2026-03-10T09:30:00Z");
    let restored = reminded(&s, "Restored", "2026-03-10T11:00:00Z");
    patch_task(
        &s,
        &id(&moved),
        json!({"remind_at": "2026-03-10T11:00:00Z"}),
    )
    .expect(200);
    patch_task(&s, &id(&cleared), json!({"remind_at": null})).expect(200);
    patch_task(&s, &id(&closed), json!({"status": "completed"})).expect(200);
    s.delete(&format!("/tasks/{}", id(&deleted))).expect(204);
    patch_task(&s, &id(&reopened), json!({"status": "wont_do"})).expect(200);
    patch_task(&s, &id(&reopened), json!({"status": "open"})).expect(200);
    s.delete(&format!("/tasks/{}", id(&restored))).expect(204);
    check(
        &s,
        Call::post(format!("/tasks/{}/restoration", id(&restored)), json!({})),
        Expect::status(200),
    );

    run_at(&s, "2026-03-10T09:30:00Z");
    let titles = |rx: &HttpReceiver| -> Vec<String> {
        rx.received()
            .iter()
            .map(|r| r.header("title").unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(titles(&rx), ["Kept"]);
    // Kept is changed but its reminder is as it was: not again.
    patch_task(&s, &id(&kept), json!({"title": "Kept still"})).expect(200);
    patch_task(
        &s,
        &id(&kept),
        json!({"title": "Kept", "remind_at": "2026-03-10T09:30:00Z"}),
    )
    .expect(200);
    run_at(&s, "2026-03-10T10:00:00Z");
    assert_eq!(titles(&rx), ["Kept", "Reopened"]);
    run_at(&s, "2026-03-10T10:59:59Z");
    assert_eq!(rx.count(), 2);
    run_at(&s, "2026-03-10T11:00:00Z");
    let mut late = titles(&rx)[2..].to_vec();
    late.sort();
    assert_eq!(late, ["Moved", "Restored"]);
    run_at(&s, "2026-03-12T11:00:00Z");
    assert_eq!(rx.count(), 4);
}

/// A repeating task's reminder moves with its dates when it is
/// completed: the next occurrence is reminded as many days later, at the
/// same time of day in the owner's zone (08:00 in London is 08:00 UTC
/// before the clocks go forward on 29 March 2026 and 07:00 UTC after);
/// the closed occurrence's reminder is not sent, the next one's is.
#[test]
fn a_repeating_tasks_reminder_moves_with_it() {
    let s = start();
    set_zone(&s, "Europe/London");
    let rx = HttpReceiver::start();
    let phone = ntfy(&s, "Phone", &rx, None);
    send_to(&s, &[&phone]);
    let first = new_task(
        &s,
        json!({"title": "Stretch", "deadline_on": "2026-03-27", "remind_at": "2026-03-27T08:00:00Z",
               "repeat": {"rule": "FREQ=DAILY"}}),
    );
    let closed = patch_task(&s, &id(&first), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let second = get_task(
        &s,
        closed["next_task_id"].as_str().expect("a next occurrence"),
    );
    assert_eq!(second["deadline_on"], "2026-03-28");
    assert_eq!(second["remind_at"], stamp("2026-03-28T08:00:00Z"));
    let closed = patch_task(&s, &id(&second), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let third = get_task(
        &s,
        closed["next_task_id"].as_str().expect("a next occurrence"),
    );
    assert_eq!(third["deadline_on"], "2026-03-29");
    assert_eq!(
        third["remind_at"],
        stamp("2026-03-29T07:00:00Z"),
        "08:00 in London after the clocks went forward"
    );
    // The closed occurrences' reminders never come; the open one's does.
    run_at(&s, "2026-03-27T08:00:00Z");
    run_at(&s, "2026-03-28T08:00:00Z");
    run_at(&s, "2026-03-29T06:59:59Z");
    assert_eq!(rx.count(), 0);
    run_at(&s, "2026-03-29T07:00:00Z");
    assert_eq!(rx.count(), 1);
    let n = only_notification(&s);
    assert_eq!(n["subject_id"], json!(id(&third)));
    assert_eq!(n["due_at"], stamp("2026-03-29T07:00:00Z"));
}
