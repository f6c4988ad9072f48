//! Reminder settings (`/reminder_settings`, a singleton): the defaults,
//! partial changes (inside `daily_agenda`, `key_dates` and `deadlines`
//! too; PUT is PATCH), what is normalised (times, days, channels), every
//! refusal under its key and changing nothing, and a deleted channel
//! leaving `channel_ids`.

use serde_json::{Value, json};

use super::{CHANNELS, SETTINGS, add_channel, set, start};
use crate::common::fixtures::{UNKNOWN, id};
use crate::common::{Call, Core, Expect, check};

/// `GET /reminder_settings`, which must be 200.
#[track_caller]
fn settings(s: &Core) -> Value {
    s.get(SETTINGS).expect(200).data().clone()
}

/// `PATCH /reminder_settings` with `fields`.
fn patch(fields: Value) -> Call {
    Call::patch(SETTINGS, json!({ "reminder_settings": fields }))
}

/// A new store's settings: nowhere to send, no agenda (at 07:00), key
/// dates on the day and a week ahead, deadlines on the day and the day
/// before, both at 09:00.
#[test]
fn a_new_store_has_the_default_settings() {
    let s = start();
    assert_eq!(
        settings(&s),
        json!({
            "channel_ids": [],
            "daily_agenda": {"enabled": false, "at": "07:00"},
            "key_dates": {"days_before": [0, 7], "at": "09:00"},
            "deadlines": {"days_before": [0, 1], "at": "09:00"},
        })
    );
}

/// Only what is sent changes, inside each object too; times and days are
/// normalised (days sorted, each once); channels kept in the order given,
/// each once; null channels is none and null days is none; PUT is PATCH.
#[test]
fn a_change_changes_only_what_is_sent() {
    let s = start();
    let a = id(&add_channel(
        &s,
        json!({"name": "A", "kind": "ntfy", "url": "https://ntfy.example.com/a"}),
    ));
    let b = id(&add_channel(
        &s,
        json!({"name": "B", "kind": "webhook", "url": "https://example.com/b"}),
    ));
    let rows: Vec<(Value, Value)> = vec![
        (
            json!({"daily_agenda": {"enabled": true}}),
            json!({"channel_ids": [], "daily_agenda": {"enabled": true, "at": "07:00"},
                   "key_dates": {"days_before": [0, 7], "at": "09:00"},
                   "deadlines": {"days_before": [0, 1], "at": "09:00"}}),
        ),
        (
            json!({"channel_ids": [b, a, b], "key_dates": {"at": " 10:30 "}}),
            json!({"channel_ids": [b, a], "daily_agenda": {"enabled": true, "at": "07:00"},
                   "key_dates": {"days_before": [0, 7], "at": "10:30"},
                   "deadlines": {"days_before": [0, 1], "at": "09:00"}}),
        ),
        (
            json!({"deadlines": {"days_before": [7, 0, 60, 7, 3]}, "daily_agenda": {"at": "06:05"}}),
            json!({"channel_ids": [b, a], "daily_agenda": {"enabled": true, "at": "06:05"},
                   "key_dates": {"days_before": [0, 7], "at": "10:30"},
                   "deadlines": {"days_before": [0, 3, 7, 60], "at": "09:00"}}),
        ),
        (
            json!({"key_dates": {"days_before": []}, "deadlines": {"days_before": null}}),
            json!({"channel_ids": [b, a], "daily_agenda": {"enabled": true, "at": "06:05"},
                   "key_dates": {"days_before": [], "at": "10:30"},
                   "deadlines": {"days_before": [], "at": "09:00"}}),
        ),
        (
            json!({"channel_ids": null, "daily_agenda": {"enabled": false, "at": "23:59"}}),
            json!({"channel_ids": [], "daily_agenda": {"enabled": false, "at": "23:59"},
                   "key_dates": {"days_before": [], "at": "10:30"},
                   "deadlines": {"days_before": [], "at": "09:00"}}),
        ),
        (
            json!({}),
            json!({"channel_ids": [], "daily_agenda": {"enabled": false, "at": "23:59"},
                   "key_dates": {"days_before": [], "at": "10:30"},
                   "deadlines": {"days_before": [], "at": "09:00"}}),
        ),
    ];
    for (sent, wanted) in rows {
        assert_eq!(set(&s, sent.clone()), wanted, "after {sent}");
        assert_eq!(settings(&s), wanted, "read back after {sent}");
    }
    let put = check(
        &s,
        Call::put(
            SETTINGS,
            json!({"reminder_settings": {"channel_ids": [a], "key_dates": {"days_before": [1]}}}),
        ),
        Expect::status(200),
    );
    assert_eq!(put.data()["channel_ids"], json!([a]));
    assert_eq!(
        put.data()["key_dates"],
        json!({"days_before": [1], "at": "10:30"})
    );
    assert_eq!(
        put.data()["daily_agenda"],
        json!({"enabled": false, "at": "23:59"})
    );
}

/// Every refusal is 422 under its key, and changes nothing (not even the
/// valid parts sent beside it).
#[test]
fn every_refusal_is_under_its_key() {
    let s = start();
    let a = id(&add_channel(
        &s,
        json!({"name": "A", "kind": "ntfy", "url": "https://ntfy.example.com/a"}),
    ));
    set(&s, json!({"channel_ids": [a]}));
    let rows: Vec<(Value, &str)> = vec![
        (json!({"channel_ids": [UNKNOWN]}), "channel_ids"),
        (json!({"channel_ids": [a, UNKNOWN]}), "channel_ids"),
        (json!({"channel_ids": ["not an id"]}), "channel_ids"),
        (json!({"channel_ids": [1]}), "channel_ids"),
        (json!({"channel_ids": a}), "channel_ids"),
        (json!({"daily_agenda": {"at": "7:00"}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": "24:00"}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": "07:60"}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": "0700"}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": ""}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": 700}}), "daily_agenda.at"),
        (json!({"daily_agenda": {"at": null}}), "daily_agenda.at"),
        (
            json!({"daily_agenda": {"enabled": "yes"}}),
            "daily_agenda.enabled",
        ),
        (
            json!({"daily_agenda": {"enabled": null}}),
            "daily_agenda.enabled",
        ),
        (
            json!({"daily_agenda": {"enabled": 1}}),
            "daily_agenda.enabled",
        ),
        (
            json!({"daily_agenda": {"when": "07:00"}}),
            "daily_agenda.when",
        ),
        (json!({"daily_agenda": true}), "daily_agenda"),
        (
            json!({"key_dates": {"days_before": [61]}}),
            "key_dates.days_before",
        ),
        (
            json!({"key_dates": {"days_before": [-1]}}),
            "key_dates.days_before",
        ),
        (
            json!({"key_dates": {"days_before": [1.5]}}),
            "key_dates.days_before",
        ),
        (
            json!({"key_dates": {"days_before": ["3"]}}),
            "key_dates.days_before",
        ),
        (
            json!({"key_dates": {"days_before": 3}}),
            "key_dates.days_before",
        ),
        (json!({"key_dates": {"at": "9am"}}), "key_dates.at"),
        (json!({"key_dates": {"at": "09:00:00"}}), "key_dates.at"),
        (json!({"key_dates": {"days": [1]}}), "key_dates.days"),
        (json!({"key_dates": [0, 7]}), "key_dates"),
        (
            json!({"deadlines": {"days_before": [0, 100]}}),
            "deadlines.days_before",
        ),
        (
            json!({"deadlines": {"days_before": [null]}}),
            "deadlines.days_before",
        ),
        (json!({"deadlines": {"at": "-1:00"}}), "deadlines.at"),
        (json!({"deadlines": {"at": "12:3"}}), "deadlines.at"),
        (json!({"deadlines": null}), "deadlines"),
        (
            json!({"daily_agenda": {"enabled": true}, "deadlines": {"at": "25:00"}}),
            "deadlines.at",
        ),
        (
            json!({"channel_ids": [], "key_dates": {"days_before": [99]}}),
            "key_dates.days_before",
        ),
    ];
    let before = settings(&s);
    for (fields, key) in rows {
        check(&s, patch(fields), Expect::invalid(key));
        assert_eq!(
            settings(&s),
            before,
            "a refusal under {key} changed something"
        );
    }
}

/// A deleted channel leaves `channel_ids`; the others stay in their
/// order.
#[test]
fn a_deleted_channel_leaves_the_settings() {
    let s = start();
    let made: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|name| {
            id(&add_channel(
                &s,
                json!({"name": name, "kind": "ntfy", "url": "https://ntfy.example.com/t"}),
            ))
        })
        .collect();
    set(&s, json!({"channel_ids": [made[2], made[0], made[1]]}));
    check(
        &s,
        Call::delete(format!("{CHANNELS}/{}", made[0])),
        Expect::status(204),
    );
    assert_eq!(settings(&s)["channel_ids"], json!([made[2], made[1]]));
}
