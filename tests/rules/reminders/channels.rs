//! Notification channels: their fields as made, read, listed, changed
//! (PUT as PATCH) and deleted; every refusal, each under its field and
//! changing nothing; the e-mail settings' defaults; the secret never in
//! any answer (`secret_set` says whether one is stored); and the test
//! message (`POST /notification_channels/{id}/test`): 200 with
//! `last_succeeded_at`, or 422 `delivery_failed` with `last_failed_at`
//! and `last_error`, each recorded as a `test` notification.

use serde_json::{Value, json};

use super::{
    CHANNELS, NOTIFICATIONS, add_channel, change, channel, create, email, ntfy, start, webhook,
};
use crate::common::feed_server::closed_port_url;
use crate::common::fixtures::{UNKNOWN, id, keys, now_string};
use crate::common::receivers::{HttpReceiver, SmtpReceiver};
use crate::common::{Call, Core, Expect, check};

/// The channels, oldest first.
#[track_caller]
fn listed(s: &Core) -> Vec<Value> {
    s.get(CHANNELS)
        .expect(200)
        .data()
        .as_array()
        .expect("a list")
        .clone()
}

/// An ntfy channel at `url` named `name`: the fields a create sends.
fn ntfy_fields(name: &str, url: &str) -> Value {
    json!({"name": name, "kind": "ntfy", "url": url})
}

/// An e-mail channel's fields with `email` merged over settings that
/// work.
fn email_fields(name: &str, email: Value) -> Value {
    let mut settings = json!({
        "smtp_host": "smtp.example.com", "from": "me@example.com", "to": "me@example.com",
    });
    for (k, v) in email.as_object().unwrap() {
        settings[k] = v.clone();
    }
    json!({"name": name, "kind": "email", "email": settings})
}

/// A channel is made with every field as the API shows it (name
/// squished, an ntfy topic's trailing slash dropped, on, no outcome yet,
/// no secret), read back, listed oldest first, changed field by field
/// (PUT is PATCH; a change that changes nothing keeps `updated_at`) and
/// deleted for good.
#[test]
fn a_channel_is_made_read_listed_changed_and_deleted() {
    let s = start();
    let made = add_channel(
        &s,
        ntfy_fields("  My   phone ", "https://ntfy.example.com/alerts/"),
    );
    let now = now_string(&s);
    assert_eq!(
        keys(&made),
        [
            "created_at",
            "email",
            "enabled",
            "id",
            "kind",
            "last_error",
            "last_failed_at",
            "last_succeeded_at",
            "name",
            "secret_set",
            "updated_at",
            "url"
        ]
    );
    assert_eq!(
        made,
        json!({
            "id": made["id"], "name": "My phone", "kind": "ntfy",
            "url": "https://ntfy.example.com/alerts", "email": null, "secret_set": false,
            "enabled": true, "last_succeeded_at": null, "last_failed_at": null,
            "last_error": null, "created_at": now, "updated_at": now,
        })
    );
    let c = id(&made);
    assert_eq!(channel(&s, &c), made);

    s.advance(60);
    let hook = add_channel(
        &s,
        json!({"name": "Hook", "kind": "webhook", "url": "http://127.0.0.1:8080/in?x=1", "enabled": false}),
    );
    assert_eq!(hook["url"], "http://127.0.0.1:8080/in?x=1");
    assert_eq!(hook["enabled"], false);
    assert_eq!(listed(&s), [made.clone(), hook.clone()]);

    // Only the fields sent change; PUT is PATCH.
    s.advance(60);
    let renamed = check(
        &s,
        change(&c, json!({"name": "Phone", "enabled": false})),
        Expect::status(200),
    )
    .data()
    .clone();
    assert_eq!(
        (&renamed["name"], &renamed["enabled"], &renamed["url"]),
        (&json!("Phone"), &json!(false), &made["url"])
    );
    assert_eq!(renamed["updated_at"], now_string(&s));
    assert_eq!(renamed["created_at"], made["created_at"]);
    s.advance(60);
    let put = check(
        &s,
        Call::put(
            format!("{CHANNELS}/{c}"),
            json!({"notification_channel": {"url": "https://ntfy.example.com/other", "kind": "ntfy"}}),
        ),
        Expect::status(200),
    )
    .data()
    .clone();
    assert_eq!(put["url"], "https://ntfy.example.com/other");
    assert_eq!(put["name"], "Phone");
    // A change that changes nothing keeps updated_at; its own name in
    // another case is not taken.
    s.advance(60);
    let same = check(
        &s,
        change(&c, json!({"name": "Phone", "enabled": false})),
        Expect::status(200),
    );
    assert_eq!(same.data(), &put);
    let upper = check(
        &s,
        change(&c, json!({"name": "PHONE"})),
        Expect::status(200),
    );
    assert_eq!(upper.data()["name"], "PHONE");

    check(
        &s,
        Call::delete(format!("{CHANNELS}/{c}")),
        Expect::status(204),
    );
    for call in [
        Call::get(format!("{CHANNELS}/{c}")),
        change(&c, json!({"name": "Back"})),
        Call::delete(format!("{CHANNELS}/{c}")),
        Call::post(format!("{CHANNELS}/{c}/test"), json!({})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(listed(&s), [hook]);
    // A client that syncs learns of it, as of any deleted record.
    let gone = s.get("/deletions?type=notification_channel");
    let records = gone.data().as_array().unwrap();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["id"], c.as_str());
    assert_eq!(records[0]["type"], "notification_channel");
}

/// Every refusal of a new channel is 422 under its field, and makes
/// nothing.
#[test]
fn every_refusal_of_a_new_channel_is_under_its_field() {
    let s = start();
    add_channel(&s, ntfy_fields("Phone", "https://ntfy.example.com/alerts"));
    let topic = "https://ntfy.example.com/alerts";
    let long = "x".repeat(101);
    let rows: Vec<(Value, &str)> = vec![
        // name
        (json!({"kind": "ntfy", "url": topic}), "name"),
        (ntfy_fields("   ", topic), "name"),
        (json!({"name": null, "kind": "ntfy", "url": topic}), "name"),
        (ntfy_fields(&long, topic), "name"),
        (ntfy_fields("PHONE", topic), "name"),
        (ntfy_fields(" phone ", topic), "name"),
        // kind
        (json!({"name": "A", "url": topic}), "kind"),
        (json!({"name": "A", "kind": "sms", "url": topic}), "kind"),
        (json!({"name": "A", "kind": null, "url": topic}), "kind"),
        // url
        (json!({"name": "A", "kind": "ntfy"}), "url"),
        (json!({"name": "A", "kind": "webhook", "url": ""}), "url"),
        (json!({"name": "A", "kind": "webhook", "url": null}), "url"),
        (ntfy_fields("A", "not an address"), "url"),
        (ntfy_fields("A", "ftp://ntfy.example.com/alerts"), "url"),
        (ntfy_fields("A", "mailto:me@example.com"), "url"),
        (
            ntfy_fields("A", "https://user:pw@ntfy.example.com/alerts"),
            "url",
        ),
        (
            ntfy_fields("A", "https://user@ntfy.example.com/alerts"),
            "url",
        ),
        (
            json!({"name": "A", "kind": "webhook", "url": "https://u:p@example.com/in"}),
            "url",
        ),
        (ntfy_fields("A", "https://ntfy.example.com/"), "url"),
        (ntfy_fields("A", "https://ntfy.example.com"), "url"),
        (
            ntfy_fields("A", "https://ntfy.example.com/alerts?x=1"),
            "url",
        ),
        (
            ntfy_fields("A", "https://ntfy.example.com/alerts#top"),
            "url",
        ),
        (
            ntfy_fields("A", &format!("https://example.com/{}", "a".repeat(2048))),
            "url",
        ),
        (
            json!({"name": "A", "kind": "email", "url": topic,
                   "email": {"smtp_host": "h", "from": "a@b.c", "to": "a@b.c"}}),
            "url",
        ),
        // email
        (json!({"name": "A", "kind": "email"}), "email"),
        (
            json!({"name": "A", "kind": "email", "email": null}),
            "email",
        ),
        (
            json!({"name": "A", "kind": "email", "email": "smtp.example.com"}),
            "email",
        ),
        (
            json!({"name": "A", "kind": "ntfy", "url": topic, "email": {"smtp_host": "h"}}),
            "email",
        ),
        (email_fields("A", json!({"extra": 1})), "email.extra"),
        (
            email_fields("A", json!({"smtp_host": ""})),
            "email.smtp_host",
        ),
        (
            email_fields("A", json!({"smtp_host": null})),
            "email.smtp_host",
        ),
        (
            email_fields("A", json!({"smtp_host": "smtp example.com"})),
            "email.smtp_host",
        ),
        (
            email_fields("A", json!({"smtp_host": "smtp.example.com/x"})),
            "email.smtp_host",
        ),
        (
            email_fields("A", json!({"smtp_host": 25})),
            "email.smtp_host",
        ),
        (
            email_fields("A", json!({"smtp_port": 0})),
            "email.smtp_port",
        ),
        (
            email_fields("A", json!({"smtp_port": 65536})),
            "email.smtp_port",
        ),
        (
            email_fields("A", json!({"smtp_port": -1})),
            "email.smtp_port",
        ),
        (
            email_fields("A", json!({"smtp_port": "587"})),
            "email.smtp_port",
        ),
        (
            email_fields("A", json!({"smtp_port": 58.7})),
            "email.smtp_port",
        ),
        (
            email_fields("A", json!({"security": "ssl"})),
            "email.security",
        ),
        (
            email_fields("A", json!({"security": true})),
            "email.security",
        ),
        (
            email_fields("A", json!({"username": "a\u{7}b"})),
            "email.username",
        ),
        (
            email_fields("A", json!({"username": "u".repeat(256)})),
            "email.username",
        ),
        (
            email_fields("A", json!({"from": "not an address"})),
            "email.from",
        ),
        (email_fields("A", json!({"from": ""})), "email.from"),
        (email_fields("A", json!({"from": null})), "email.from"),
        (email_fields("A", json!({"to": "me@"})), "email.to"),
        (email_fields("A", json!({"to": " "})), "email.to"),
        (email_fields("A", json!({"to": null})), "email.to"),
        // secret
        (
            json!({"name": "A", "kind": "ntfy", "url": topic, "secret": "tk_one\ntk_two"}),
            "secret",
        ),
        (
            json!({"name": "A", "kind": "ntfy", "url": topic, "secret": "tk\r\nmore"}),
            "secret",
        ),
        (
            json!({"name": "A", "kind": "webhook", "url": topic, "secret": "a\tb"}),
            "secret",
        ),
        (
            json!({"name": "A", "kind": "webhook", "url": topic, "secret": "k".repeat(1025)}),
            "secret",
        ),
        (
            json!({"name": "A", "kind": "webhook", "url": topic, "secret": 12345}),
            "secret",
        ),
    ];
    let before = listed(&s);
    for (fields, field) in rows {
        check(&s, create(fields), Expect::invalid(field));
    }
    // Not an object: the same 400 as any record's.
    check(
        &s,
        Call::post(CHANNELS, json!({"notification_channel": "x"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(listed(&s), before, "a refused create made nothing");
}

/// Every refusal of a change is 422 under its field, and changes
/// nothing: the kind is fixed, another channel's name is taken, and each
/// field keeps the rules it has on create.
#[test]
fn every_refusal_of_a_change_is_under_its_field() {
    let s = start();
    let phone = id(&add_channel(
        &s,
        json!({"name": "Phone", "kind": "ntfy", "url": "https://ntfy.example.com/alerts", "secret": "tk_1"}),
    ));
    let mail = id(&add_channel(&s, email_fields("Mail", json!({}))));
    let rows: Vec<(&str, Value, &str)> = vec![
        (&phone, json!({"kind": "webhook"}), "kind"),
        (&phone, json!({"kind": "email"}), "kind"),
        (&phone, json!({"kind": null}), "kind"),
        (&mail, json!({"kind": "ntfy"}), "kind"),
        (&phone, json!({"name": "MAIL"}), "name"),
        (&phone, json!({"name": ""}), "name"),
        (&phone, json!({"name": null}), "name"),
        (&phone, json!({"url": null}), "url"),
        (&phone, json!({"url": ""}), "url"),
        (&phone, json!({"url": "https://ntfy.example.com/"}), "url"),
        (
            &phone,
            json!({"url": "https://me:pw@ntfy.example.com/x"}),
            "url",
        ),
        (&phone, json!({"email": {"smtp_host": "h"}}), "email"),
        (&mail, json!({"url": "https://example.com/x"}), "url"),
        (&mail, json!({"email": null}), "email"),
        (
            &mail,
            json!({"email": {"smtp_host": " "}}),
            "email.smtp_host",
        ),
        (
            &mail,
            json!({"email": {"smtp_port": 70000}}),
            "email.smtp_port",
        ),
        (
            &mail,
            json!({"email": {"security": "ssl"}}),
            "email.security",
        ),
        (&mail, json!({"email": {"from": "nobody"}}), "email.from"),
        (&mail, json!({"email": {"to": "a@b.c, nobody"}}), "email.to"),
        (&phone, json!({"secret": "one\ntwo"}), "secret"),
    ];
    let before = listed(&s);
    for (c, fields, field) in rows {
        check(&s, change(c, fields), Expect::invalid(field));
    }
    assert_eq!(listed(&s), before, "a refused change changed nothing");
}

/// An e-mail channel: the usual port of its security when none is sent
/// (587 for starttls, the default; 465 for tls; 25 for none), kept when
/// only other fields change, and the usual one of a new security; a
/// blank user name is none; `url` is null.
#[test]
fn an_email_channel_takes_the_usual_port_of_its_security() {
    let s = start();
    let rows = [
        (json!({}), "starttls", 587),
        (json!({"security": "tls"}), "tls", 465),
        (json!({"security": "none"}), "none", 25),
        (
            json!({"security": "starttls", "smtp_port": 2525}),
            "starttls",
            2525,
        ),
    ];
    for (i, (email, security, port)) in rows.into_iter().enumerate() {
        let made = add_channel(&s, email_fields(&format!("Mail {i}"), email));
        assert_eq!(made["url"], Value::Null);
        assert_eq!(made["email"]["security"], security, "{made}");
        assert_eq!(made["email"]["smtp_port"], port, "{made}");
    }
    let made = add_channel(
        &s,
        email_fields(
            "Mine",
            json!({"smtp_port": 2525, "username": "  ", "to": "a@example.com, B <b@example.com>"}),
        ),
    );
    assert_eq!(
        made["email"],
        json!({"smtp_host": "smtp.example.com", "smtp_port": 2525, "security": "starttls",
               "username": null, "from": "me@example.com", "to": "a@example.com, B <b@example.com>"})
    );
    let c = id(&made);
    // Another field changes: the port stays; a new security: its port.
    let kept = check(
        &s,
        change(&c, json!({"email": {"username": " me "}})),
        Expect::status(200),
    );
    assert_eq!(kept.data()["email"]["smtp_port"], 2525);
    assert_eq!(kept.data()["email"]["username"], "me");
    let moved = check(
        &s,
        change(&c, json!({"email": {"security": "tls"}})),
        Expect::status(200),
    );
    assert_eq!(moved.data()["email"]["smtp_port"], 465);
    assert_eq!(moved.data()["email"]["username"], "me");
}

/// A store keeps at most 50 channels: the 51st is 422 under `base`.
#[test]
fn a_store_keeps_at_most_fifty_channels() {
    let s = start();
    for i in 0..50 {
        add_channel(
            &s,
            ntfy_fields(&format!("Topic {i}"), "https://ntfy.example.com/t"),
        );
    }
    check(
        &s,
        create(ntfy_fields("One more", "https://ntfy.example.com/t")),
        Expect::invalid("base"),
    );
    assert_eq!(listed(&s).len(), 50);
}

/// The secret is write-only: no answer ever holds it (create, read,
/// list, change, test, the log), and `secret_set` says whether one is
/// stored. Absent keeps it; null or blank clears it; it is trimmed.
#[test]
fn the_secret_is_never_shown() {
    let s = start();
    let rx = HttpReceiver::start();
    let secret = "tk_Secret-Token-0123456789";
    let made = ntfy(&s, "Phone", &rx, Some(&format!("  {secret} ")));
    assert_eq!(made["secret_set"], true);
    let c = id(&made);
    let path = format!("{CHANNELS}/{c}");
    let mut answers = vec![
        made.to_string(),
        s.get(&path).expect(200).body.to_string(),
        s.get(CHANNELS).expect(200).body.to_string(),
    ];
    let renamed = check(&s, change(&c, json!({"name": "Mine"})), Expect::status(200));
    assert_eq!(renamed.data()["secret_set"], true, "absent keeps it");
    answers.push(renamed.body.to_string());
    let tested = check(
        &s,
        Call::post(format!("{path}/test"), json!({})),
        Expect::status(200),
    );
    answers.push(tested.body.to_string());
    assert_eq!(
        rx.last().header("authorization"),
        Some(format!("Bearer {secret}").as_str()),
        "the trimmed token is sent as a bearer"
    );
    // A failure's reason does not repeat it either.
    rx.answer_status(401);
    let refused = check(
        &s,
        Call::post(format!("{path}/test"), json!({})),
        Expect::error(422, "delivery_failed", None),
    );
    answers.push(refused.body.to_string());
    answers.push(s.get(&path).expect(200).body.to_string());
    answers.push(s.get(NOTIFICATIONS).expect(200).body.to_string());
    for answer in &answers {
        assert!(!answer.contains(secret), "the secret was shown: {answer}");
        assert!(!answer.contains("\"secret\""), "a secret field: {answer}");
    }
    for (clear, fields) in [
        ("null", json!({"secret": null})),
        ("blank", json!({"secret": "  "})),
    ] {
        check(
            &s,
            change(&c, json!({"secret": "again"})),
            Expect::status(200),
        );
        let cleared = check(&s, change(&c, fields), Expect::status(200));
        assert_eq!(cleared.data()["secret_set"], false, "{clear} clears it");
    }
    rx.answer_status(200);
    check(
        &s,
        Call::post(format!("{path}/test"), json!({})),
        Expect::status(200),
    );
    assert_eq!(
        rx.last().header("authorization"),
        None,
        "no token, no header"
    );
}

/// The test message arrives now, as a webhook's `test` body (no subject
/// and no link) signed with the secret: 200 with the channel,
/// `last_succeeded_at` now and `last_error` cleared; it is logged as a
/// sent `test` notification.
#[test]
fn the_test_message_arrives_and_is_recorded() {
    let s = start();
    let rx = HttpReceiver::start();
    let hook = webhook(&s, "Hook", &rx, Some("signing-key"));
    let c = id(&hook);
    rx.answer_status(500);
    check(
        &s,
        Call::post(format!("{CHANNELS}/{c}/test"), json!({})),
        Expect::error(422, "delivery_failed", None),
    );
    s.advance(90);
    rx.answer_status(204);
    let ok = check(
        &s,
        Call::post(format!("{CHANNELS}/{c}/test"), json!({})),
        Expect::status(200),
    );
    let now = now_string(&s);
    let answered = ok.data();
    assert_eq!(answered["last_succeeded_at"], now);
    assert_eq!(answered["last_error"], Value::Null);
    assert_ne!(
        answered["last_failed_at"],
        Value::Null,
        "the earlier failure stays"
    );
    assert_eq!(channel(&s, &c), *answered);

    let got = rx.last();
    assert_eq!((got.method.as_str(), got.path.as_str()), ("POST", "/hook"));
    let body = got.json();
    assert_eq!(body["kind"], "test");
    assert_eq!(body["subject"], Value::Null);
    assert_eq!(body["url"], Value::Null);
    assert_eq!(body["title"], "Organiser test");
    assert!(body["body"].as_str().unwrap().contains("Hook"), "{body}");
    assert_eq!(body["due_at"], now);
    super::tasks::assert_signed(&got, "signing-key");

    let log = super::notifications(&s);
    assert_eq!(log.len(), 2, "{log:#?}");
    let sent = &log[0];
    assert_eq!(
        (
            &sent["kind"],
            &sent["status"],
            &sent["attempts"],
            &sent["subject_id"]
        ),
        (&json!("test"), &json!("sent"), &json!(1), &Value::Null)
    );
    assert_eq!(sent["channel_id"], json!(c));
    assert_eq!(sent["sent_at"], now);
    assert_eq!(sent["id"], json!(got.delivery()), "the receiver saw its ID");
    assert_eq!(log[1]["status"], "failed");
}

/// A test message that does not arrive is 422 `delivery_failed` with the
/// reason in `message`, whatever went wrong (the server answered an
/// error, nothing listens, the mail server refused); the channel keeps
/// `last_failed_at` and `last_error`, and the log a failed `test`.
#[test]
fn a_test_that_does_not_arrive_is_422_delivery_failed() {
    let s = start();
    let rx = HttpReceiver::start();
    rx.answer_status(500);
    let smtp = SmtpReceiver::start();
    smtp.refuse(true);
    let rows: Vec<(Value, &str)> = vec![
        (ntfy(&s, "Answers 500", &rx, None), "500"),
        (
            add_channel(
                &s,
                json!({"name": "Nobody", "kind": "webhook", "url": closed_port_url("/hook")}),
            ),
            "",
        ),
        (email(&s, "Refuses", &smtp), "554"),
    ];
    for (made, reason) in rows {
        let c = id(&made);
        let failed = check(
            &s,
            Call::post(format!("{CHANNELS}/{c}/test"), json!({})),
            Expect::error(422, "delivery_failed", None),
        );
        let message = failed.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(reason), "{}: {message}", made["name"]);
        let after = channel(&s, &c);
        assert_eq!(after["last_failed_at"], now_string(&s), "{after}");
        assert_eq!(after["last_succeeded_at"], Value::Null);
        let error = after["last_error"].as_str().expect("last_error");
        assert!(
            !error.is_empty() && message.contains(error),
            "{message} / {error}"
        );
    }
    let log = super::notifications(&s);
    assert_eq!(log.len(), 3);
    for n in &log {
        assert_eq!(
            (&n["kind"], &n["status"]),
            (&json!("test"), &json!("failed"))
        );
        assert!(n["error"].is_string(), "{n}");
    }
    assert_eq!(rx.count(), 1);
    // Nothing was taken by the refusing mail server.
    assert_eq!(smtp.count(), 0);
}

/// An unknown channel is 404 on each of its paths.
#[test]
fn an_unknown_channel_is_404() {
    let s = start();
    for call in [
        Call::get(format!("{CHANNELS}/{UNKNOWN}")),
        change(UNKNOWN, json!({"name": "X"})),
        Call::delete(format!("{CHANNELS}/{UNKNOWN}")),
        Call::post(format!("{CHANNELS}/{UNKNOWN}/test"), json!({})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}
