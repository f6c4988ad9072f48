//! The subscriptions' fields, every refusal, the address shown once and `last_read_at`.

use super::read_back::*;
use super::*;

// ------------------------------------------------- fields and refusals

/// Every refusal the contract names, each 422 under its field; a request
/// with several mistakes names each; a body that is not the record is
/// 400; and nothing is made.
#[test]
fn create_refuses_each_mistake_under_its_field_and_changes_nothing() {
    let s = start();
    let list = new_list(&s, "Home");
    let gone_list = new_list(&s, "Gone");
    s.delete(&format!("/task_lists/{gone_list}")).expect(204);
    let project = id(&new_project(&s, json!({"name": "Roof"})));
    let gone_project = id(&new_project(&s, json!({"name": "Gone"})));
    s.delete(&format!("/projects/{gone_project}")).expect(204);
    let cases = [
        // name: blank, too long, not a string.
        (json!({"name": ""}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"name": "\u{200b}"}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "ü".repeat(101)}), "name"),
        (json!({"name": 12}), "name"),
        (json!({"name": true}), "name"),
        (json!({"name": ["Organiser"]}), "name"),
        (json!({"name": "Clear\u{1b}[2J"}), "name"),
        // include: empty, an unknown word, not an array of words.
        (json!({"include": []}), "include"),
        (json!({"include": ["tasks", "birthdays"]}), "include"),
        (json!({"include": ["Tasks"]}), "include"),
        (json!({"include": "tasks"}), "include"),
        (json!({"include": {"tasks": true}}), "include"),
        (json!({"include": [1]}), "include"),
        (json!({"include": [null]}), "include"),
        (json!({"include": null}), "include"),
        // task_list_ids: an unknown or deleted list, not ids.
        (json!({"task_list_ids": [UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": [list, UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": [gone_list]}), "task_list_ids"),
        (json!({"task_list_ids": [project]}), "task_list_ids"),
        (json!({"task_list_ids": ["not-an-id"]}), "task_list_ids"),
        (json!({"task_list_ids": [12]}), "task_list_ids"),
        (json!({"task_list_ids": list}), "task_list_ids"),
        (json!({"task_list_ids": {}}), "task_list_ids"),
        // project_ids: the same.
        (json!({"project_ids": [UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [project, UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [gone_project]}), "project_ids"),
        (json!({"project_ids": [list]}), "project_ids"),
        (json!({"project_ids": ["nope"]}), "project_ids"),
        (json!({"project_ids": [null]}), "project_ids"),
        (json!({"project_ids": 5}), "project_ids"),
        // alarm_minutes: out of 0..=10080, not a whole number.
        (json!({"alarm_minutes": -1}), "alarm_minutes"),
        (json!({"alarm_minutes": 10081}), "alarm_minutes"),
        (json!({"alarm_minutes": 65536}), "alarm_minutes"),
        (
            json!({"alarm_minutes": 100_000_000_000_i64}),
            "alarm_minutes",
        ),
        (json!({"alarm_minutes": 1.5}), "alarm_minutes"),
        (json!({"alarm_minutes": "15"}), "alarm_minutes"),
        (json!({"alarm_minutes": true}), "alarm_minutes"),
        (json!({"alarm_minutes": [15]}), "alarm_minutes"),
        // One mistake among good fields is still refused whole.
        (
            json!({"name": "Phone", "include": ["tasks"], "alarm_minutes": -5}),
            "alarm_minutes",
        ),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    // Every mistake of one request, each under its field: of the types,
    // or (the types right) of the rules.
    for fields in [
        json!({"name": 1, "include": "tasks", "task_list_ids": 2,
               "project_ids": ["x"], "alarm_minutes": "soon"}),
        json!({"name": "", "include": [], "task_list_ids": [UNKNOWN],
               "project_ids": [UNKNOWN], "alarm_minutes": 10081}),
    ] {
        let reply = check(&s, create(fields.clone()), Expect::invalid("name"));
        let mut keys = reply.detail_keys();
        keys.sort();
        assert_eq!(
            keys,
            [
                "alarm_minutes",
                "include",
                "name",
                "project_ids",
                "task_list_ids"
            ],
            "{fields}"
        );
    }
    // A body that is not the record.
    for body in [
        json!({"calendar_subscription": "Phone"}),
        json!({"calendar_subscription": ["tasks"]}),
    ] {
        check(
            &s,
            Call::post(PATH, body),
            Expect::error(400, "invalid_json", None),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing was made");
    assert_eq!(s.get(PATH).expect(200).data(), &json!([]));
}

/// The same refusals of a change, which leave the subscription as it was
/// (and its address serving).
#[test]
fn change_refuses_each_mistake_and_changes_nothing() {
    let s = start();
    let sub = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 15}));
    let path = format!("{PATH}/{}", id(&sub));
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": 3}), "name"),
        (json!({"include": []}), "include"),
        (json!({"include": ["notes"]}), "include"),
        (json!({"include": null}), "include"),
        (json!({"include": "projects"}), "include"),
        (json!({"task_list_ids": [UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": "x"}), "task_list_ids"),
        (json!({"project_ids": [UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [1]}), "project_ids"),
        (json!({"alarm_minutes": -1}), "alarm_minutes"),
        (json!({"alarm_minutes": 10081}), "alarm_minutes"),
        (json!({"alarm_minutes": "soon"}), "alarm_minutes"),
        (
            json!({"name": "Fine", "alarm_minutes": 0.5}),
            "alarm_minutes",
        ),
    ];
    s.advance(10);
    let before = s.org.raw_export().unwrap();
    let feed_before = feed(&s, &sub);
    for (fields, detail) in cases {
        check(
            &s,
            change(&id(&sub), fields.clone()),
            Expect::invalid(detail),
        );
        check(
            &s,
            Call::put(path.clone(), json!({ "calendar_subscription": fields })),
            Expect::invalid(detail),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    assert_eq!(feed(&s, &sub), feed_before, "the feed is as it was");
    // An unknown or malformed id is 404, whatever the body.
    for sub in [UNKNOWN, "nope"] {
        for call in [
            Call::get(format!("{PATH}/{sub}")),
            change(sub, json!({"name": "X"})),
            change(sub, json!({"name": ""})),
            Call::delete(format!("{PATH}/{sub}")),
            Call::post(format!("{PATH}/{sub}/rotation"), json!({})),
        ] {
            check(&s, call, Expect::error(404, "not_found", None));
        }
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
}

/// The defaults (`Organiser`, all three kinds, no limits, no alarm), the
/// values kept as the contract says (squished name, kinds each once in
/// their order, ids each once), and the address: relative in process,
/// shown by create only, never by list or get.
#[test]
fn a_subscription_has_its_defaults_and_its_address_is_shown_once() {
    let s = start();
    let made = subscribe(&s, json!({}));
    let url = made["url"].as_str().unwrap();
    let secret = secret_of(&made);
    assert_eq!(url, format!("/ics/{secret}.ics"));
    assert!(
        secret.len() >= 43
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{secret}: 32 random bytes, URL-safe"
    );
    let mut shown = made.clone();
    shown.as_object_mut().unwrap().remove("url");
    assert_eq!(
        shown,
        json!({
            "id": id(&made),
            "name": "Organiser",
            "include": ["tasks", "projects", "key_dates"],
            "task_list_ids": null,
            "project_ids": null,
            "alarm_minutes": null,
            "last_read_at": null,
            "created_at": "2026-03-10T09:00:00.000Z",
            "updated_at": "2026-03-10T09:00:00.000Z",
        })
    );
    // Get and list show it without its address.
    let got = s.get(&format!("{PATH}/{}", id(&made))).expect(200);
    assert_eq!(got.data(), &shown);
    assert!(got.data().get("url").is_none());
    assert_eq!(s.get(PATH).expect(200).data(), &json!([shown]));
    // No body at all is the defaults too.
    s.advance(1);
    let bare = check(&s, Call::new("POST", PATH), Expect::status(201));
    assert_eq!(bare.data()["name"], "Organiser");
    assert_ne!(bare.data()["url"], made["url"], "each its own address");

    // Every field sent, kept as the contract says.
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    let p = id(&new_project(&s, json!({"name": "P"})));
    s.advance(1);
    let full = subscribe(
        &s,
        json!({
            "name": "  My   phone  ",
            "include": ["key_dates", "tasks", "key_dates"],
            "task_list_ids": [b, a, b],
            "project_ids": [p, p],
            "alarm_minutes": 10080,
        }),
    );
    assert_eq!(full["name"], "My phone");
    assert_eq!(full["include"], json!(["tasks", "key_dates"]));
    assert_eq!(full["task_list_ids"], json!([b, a]));
    assert_eq!(full["project_ids"], json!([p]));
    assert_eq!(full["alarm_minutes"], 10080);
    assert_eq!(full["created_at"], "2026-03-10T09:00:02.000Z");
    // The limits and the longest name are allowed.
    for fields in [
        json!({"alarm_minutes": 0}),
        json!({"name": "n".repeat(100)}),
        json!({"name": "ü".repeat(100)}),
        json!({"task_list_ids": [], "project_ids": []}),
        json!({"task_list_ids": null, "project_ids": null, "alarm_minutes": null}),
        json!({"alarm_minutes": 15.0}),
    ] {
        subscribe(&s, fields);
    }
    // The list is in creation order, and never shows an address.
    let listed = s.get(PATH).expect(200);
    let listed = listed.data().as_array().unwrap();
    assert_eq!(listed.len(), 9);
    assert_eq!(id(&listed[0]), id(&made));
    assert_eq!(id(&listed[2]), id(&full));
    assert!(listed.iter().all(|sub| sub.get("url").is_none()));
}

/// A change changes only the fields sent (PUT is PATCH) and keeps the
/// address; a change that changes nothing keeps `updated_at`; null clears
/// the limits and the alarm.
#[test]
fn a_change_changes_the_fields_sent_and_keeps_the_address() {
    let s = start();
    let list = new_list(&s, "Home");
    let sub = subscribe(
        &s,
        json!({"name": "Phone", "task_list_ids": [list], "alarm_minutes": 15}),
    );
    let (etag, _) = feed(&s, &sub);
    s.advance(60);
    let changed = check(
        &s,
        change(&id(&sub), json!({"name": "Tablet"})),
        Expect::status(200),
    );
    let changed = changed.data();
    assert_eq!(changed["name"], "Tablet");
    assert_eq!(changed["task_list_ids"], json!([list]));
    assert_eq!(changed["alarm_minutes"], 15);
    assert_eq!(changed["updated_at"], "2026-03-10T09:01:00.000Z");
    assert!(
        changed.get("url").is_none(),
        "the address is not shown again"
    );
    // The same address serves the changed calendar.
    let (etag2, text) = feed(&s, &sub);
    assert_ne!(etag2, etag);
    assert_eq!(by_ical(&text).own.one("X-WR-CALNAME"), "Tablet");
    // Nothing to change: updated_at stays.
    s.advance(60);
    let same = s
        .put(
            &format!("{PATH}/{}", id(&sub)),
            json!({"calendar_subscription": {"name": " Tablet ", "alarm_minutes": 15}}),
        )
        .expect(200);
    assert_eq!(same.data()["updated_at"], "2026-03-10T09:01:00.000Z");
    // Null clears.
    let cleared = s
        .patch(
            &format!("{PATH}/{}", id(&sub)),
            json!({"calendar_subscription": {"task_list_ids": null, "alarm_minutes": null}}),
        )
        .expect(200);
    assert_eq!(cleared.data()["task_list_ids"], Value::Null);
    assert_eq!(cleared.data()["alarm_minutes"], Value::Null);
    assert_eq!(cleared.data()["updated_at"], "2026-03-10T09:02:00.000Z");
    assert_eq!(
        s.get(&format!("{PATH}/{}", id(&sub))).expect(200).data(),
        cleared.data()
    );
}

/// `last_read_at`: null until the feed is read; then the time of the
/// read, moving at most once a minute; a refused read (unknown address)
/// moves nothing.
#[test]
fn last_read_at_moves_at_most_once_a_minute() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let other = subscribe(&s, json!({"name": "Other"}));
    let path = format!("{PATH}/{}", id(&sub));
    let last_read = |s: &Core| s.get(&path).expect(200).data()["last_read_at"].clone();
    assert_eq!(last_read(&s), Value::Null);
    s.advance(5);
    feed(&s, &sub);
    assert_eq!(last_read(&s), "2026-03-10T09:00:05.000Z");
    s.advance(30);
    feed(&s, &sub);
    assert_eq!(
        last_read(&s),
        "2026-03-10T09:00:05.000Z",
        "within the minute"
    );
    s.advance(30);
    feed(&s, &sub);
    assert_eq!(last_read(&s), "2026-03-10T09:01:05.000Z");
    // The list says the same; the other subscription was never read.
    let listed = s.get(PATH).expect(200);
    assert_eq!(listed.data()[0]["last_read_at"], "2026-03-10T09:01:05.000Z");
    assert_eq!(listed.data()[1]["last_read_at"], Value::Null);
    assert_eq!(id(&listed.data()[1]), id(&other));
    // A 304 is a read too.
    s.advance(120);
    let (etag, _) = feed(&s, &sub);
    s.advance(120);
    assert!(matches!(
        fetch(&s, &file_of(&sub), Some(&etag)),
        Ok(Feed::NotModified { .. })
    ));
    assert_eq!(last_read(&s), "2026-03-10T09:05:05.000Z");
    // A refused read moves nothing.
    s.advance(120);
    assert!(matches!(
        fetch(&s, &format!("{}x.ics", secret_of(&sub)), None),
        Err(Error::NotFound)
    ));
    assert_eq!(last_read(&s), "2026-03-10T09:05:05.000Z");
}
