//! `ETag` and `If-None-Match`, rotation, delete, read-only mode and idempotency.

use super::read_back::*;
use super::*;
use crate::common::licence_signer;

// ------------------------------------------------- ETag, rotation, delete

/// `ETag` and `If-None-Match`: the same tag for the same feed, 304's
/// answer for a request naming it (weak, in a list, or `*`); a change to
/// an item changes the tag, and a write outside the feed does not.
#[test]
fn an_etag_named_by_if_none_match_is_not_modified() {
    let s = start();
    let task = new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31"}),
    );
    let sub = subscribe(&s, json!({}));
    let file = file_of(&sub);
    let (etag, text) = feed(&s, &sub);
    assert!(
        etag.len() > 2 && etag.starts_with('"') && etag.ends_with('"'),
        "{etag}: a quoted entity tag"
    );
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    for named in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".to_owned(),
    ] {
        assert_eq!(
            fetch(&s, &file, Some(&named)).unwrap(),
            Feed::NotModified { etag: etag.clone() },
            "If-None-Match: {named}"
        );
    }
    for other in ["\"other\"", "", "W/\"x\""] {
        assert_eq!(
            fetch(&s, &file, Some(other)).unwrap(),
            Feed::Calendar {
                etag: etag.clone(),
                body: text.clone()
            },
            "If-None-Match: {other}"
        );
    }
    // A write outside the feed keeps the tag.
    s.advance(60);
    new_task(&s, json!({"title": "No deadline"}));
    assert!(matches!(
        fetch(&s, &file, Some(&etag)),
        Ok(Feed::NotModified { .. })
    ));
    // A change to a task changes it.
    patch_task(&s, &id(&task), json!({"title": "Pay the rent"})).expect(200);
    let Feed::Calendar {
        etag: changed,
        body,
    } = fetch(&s, &file, Some(&etag)).unwrap()
    else {
        panic!("the feed changed")
    };
    assert_ne!(changed, etag);
    assert!(body.contains("SUMMARY:Pay the rent\r\n"), "{body}");
    assert_eq!(
        fetch(&s, &file, Some(&changed)).unwrap(),
        Feed::NotModified {
            etag: changed.clone()
        }
    );
    // A new deadline, and a new task, change it too.
    patch_task(&s, &id(&task), json!({"deadline_on": "2026-04-01"})).expect(200);
    let (moved, _) = feed(&s, &sub);
    assert_ne!(moved, changed);
    new_task(&s, json!({"title": "New", "deadline_on": "2026-04-02"}));
    assert_ne!(feed(&s, &sub).0, moved);
    // Each subscription has its own.
    let other = subscribe(&s, json!({"name": "Other"}));
    assert_ne!(feed(&s, &other).0, feed(&s, &sub).0);
}

/// Rotation: a new address at once, the old one 404 from that moment,
/// the record otherwise as it was (its `updated_at` moved); through the
/// core's root route too.
#[test]
fn a_rotated_address_stops_at_once() {
    let s = start();
    new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31"}),
    );
    let sub = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 10}));
    let old = file_of(&sub);
    let (etag, text) = feed(&s, &sub);
    s.advance(60);
    let rotated = check(
        &s,
        Call::post(format!("{PATH}/{}/rotation", id(&sub)), json!({})),
        Expect::status(200),
    )
    .data()
    .clone();
    let new = file_of(&rotated);
    assert_ne!(new, old);
    assert!(rotated["url"].as_str().unwrap().starts_with("/ics/"));
    assert_eq!(rotated["id"], sub["id"]);
    assert_eq!(rotated["name"], "Phone");
    assert_eq!(rotated["created_at"], sub["created_at"]);
    assert_eq!(rotated["updated_at"], "2026-03-10T09:01:00.000Z");
    // The old address is refused at once, whatever it asks.
    assert!(matches!(fetch(&s, &old, None), Err(Error::NotFound)));
    assert!(matches!(fetch(&s, &old, Some(&etag)), Err(Error::NotFound)));
    let refused = at_root(&s, &old);
    assert_eq!(refused.status, 404);
    assert_eq!(refused.json_value()["error"]["code"], "not_found");
    // The new one serves the same calendar.
    assert_eq!(feed(&s, &rotated), (etag, text));
    assert_eq!(at_root(&s, &new).status, 200);
    // Get and list show no address.
    let got = s.get(&format!("{PATH}/{}", id(&sub))).expect(200);
    assert!(got.data().get("url").is_none());
    // Rotated again: the second address stops too.
    let again = s
        .post(&format!("{PATH}/{}/rotation", id(&sub)), json!({}))
        .expect(200)
        .data()
        .clone();
    assert!(matches!(fetch(&s, &new, None), Err(Error::NotFound)));
    assert!(matches!(fetch(&s, &old, None), Err(Error::NotFound)));
    feed(&s, &again);
}

/// Delete: permanent, the address 404 at once, and everything about the
/// subscription 404 after.
#[test]
fn a_deleted_subscription_stops_at_once() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let kept = subscribe(&s, json!({"name": "Kept"}));
    let file = file_of(&sub);
    feed(&s, &sub);
    check(
        &s,
        Call::delete(format!("{PATH}/{}", id(&sub))),
        Expect::status(204),
    );
    assert!(matches!(fetch(&s, &file, None), Err(Error::NotFound)));
    assert_eq!(at_root(&s, &file).status, 404);
    for call in [
        Call::get(format!("{PATH}/{}", id(&sub))),
        change(&id(&sub), json!({"name": "Back"})),
        Call::delete(format!("{PATH}/{}", id(&sub))),
        Call::post(format!("{PATH}/{}/rotation", id(&sub)), json!({})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    // The other subscription is untouched.
    let listed = s.get(PATH).expect(200);
    assert_eq!(listed.data().as_array().unwrap().len(), 1);
    assert_eq!(id(&listed.data()[0]), id(&kept));
    feed(&s, &kept);
}

/// What is not an address of a live subscription is 404: an unknown
/// secret, the secret without `.ics`, with another suffix, a prefix of
/// it, or empty; at the root route, 404 `not_found` without credentials.
#[test]
fn anything_but_a_live_address_is_not_found() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let secret = secret_of(&sub);
    for file in [
        format!("{UNKNOWN}.ics"),
        "x".repeat(43) + ".ics",
        secret.clone(),
        format!("{secret}.ICS"),
        format!("{secret}.ics.ics"),
        format!("{secret}.json"),
        format!("{}.ics", &secret[..42]),
        format!("{secret}x.ics"),
        ".ics".to_owned(),
        String::new(),
    ] {
        assert!(
            matches!(fetch(&s, &file, None), Err(Error::NotFound)),
            "{file}"
        );
        if !file.is_empty() {
            let answer = at_root(&s, &file);
            assert_eq!(answer.status, 404, "{file}");
            let error = answer.json_value();
            assert_eq!(error["error"]["code"], "not_found", "{file}");
            assert!(!error.to_string().contains(&secret), "{error}");
        }
    }
    // Below /api/v1 there is no feed.
    check(
        &s,
        Call::get(format!("/ics/{secret}.ics")),
        Expect::error(404, "not_found", None),
    );
    let answer = at_root(&s, &file_of(&sub));
    assert_eq!(answer.status, 200);
}

// ------------------------------------------------- read-only mode

/// Read-only licence mode (the trial over, no key): every write of a
/// subscription is 403 `read_only` and changes nothing; the feed, and
/// the reads of the subscriptions, still answer.
#[test]
fn read_only_mode_still_serves_the_feed() {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = Core::with(setup);
    let task = new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-04-30"}),
    );
    let sub = subscribe(&s, json!({"name": "Phone"}));
    let (etag, text) = feed(&s, &sub);
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    // The feed is served as it was (its first read of the day settles
    // the day, which the store notes even now).
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    let before = s.org.raw_export().unwrap();
    let path = format!("{PATH}/{}", id(&sub));
    for call in [
        create(json!({})),
        create(json!({"name": ""})),
        change(&id(&sub), json!({"name": "Tablet"})),
        Call::put(
            path.clone(),
            json!({"calendar_subscription": {"alarm_minutes": 5}}),
        ),
        Call::delete(path.clone()),
        Call::post(format!("{path}/rotation"), json!({})),
    ] {
        check(&s, call, Expect::error(403, "read_only", None));
    }
    // The feed is served as it was, 304 too.
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    assert_eq!(
        fetch(&s, &file_of(&sub), Some(&etag)).unwrap(),
        Feed::NotModified { etag }
    );
    assert_eq!(at_root(&s, &file_of(&sub)).status, 200);
    assert!(uid_set(&text).contains(&format!("{}-deadline@organiser", id(&task))));
    // Reads answer.
    check(&s, Call::get(PATH), Expect::status(200));
    check(&s, Call::get(path.clone()), Expect::status(200));
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    // An unknown address is still 404.
    assert!(matches!(
        fetch(&s, &format!("{UNKNOWN}.ics"), None),
        Err(Error::NotFound)
    ));
}

// ------------------------------------------------------------ idempotency

/// Whether `needle` is anywhere in the store's bytes.
fn stored_anywhere(s: &Core, needle: &str) -> bool {
    s.org
        .raw_export()
        .unwrap()
        .iter()
        .flat_map(|(_, entries)| entries)
        .any(|(k, v)| {
            [k, v]
                .iter()
                .any(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
}

/// A creating POST honours `Idempotency-Key` (document 1, which EXTENSIONS.md
/// holds to): the retry answers the same address, and makes nothing more.
/// The answer kept for it is sealed, so the address is in the store in the
/// clear nowhere, nor an API token's secret kept for its replay.
#[test]
fn a_retried_subscription_answers_the_same_address_and_keeps_no_secret() {
    let s = start();
    let body = json!({"calendar_subscription": {"name": "Phone"}});
    let first = send(
        s.req("POST", PATH)
            .json(&body)
            .header("Idempotency-Key", "sub-1"),
    );
    assert_eq!(first.status, 201, "{}", first.body);
    let again = send(
        s.req("POST", PATH)
            .json(&body)
            .header("Idempotency-Key", "sub-1"),
    );
    assert_eq!(again.status, 201);
    assert_eq!(again.data()["url"], first.data()["url"]);
    assert_eq!(again.data()["id"], first.data()["id"]);
    assert_eq!(s.get(PATH).expect(200).data().as_array().unwrap().len(), 1);
    let url = first.data()["url"].as_str().unwrap().to_owned();
    let secret = url
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".ics"))
        .unwrap();
    assert!(
        !stored_anywhere(&s, secret),
        "the address is kept in the clear"
    );
    let token = send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "phone"}}))
            .header("Idempotency-Key", "token-1"),
    );
    assert_eq!(token.status, 201, "{}", token.body);
    let bearer = token.data()["secret"].as_str().unwrap().to_owned();
    let secret_part = bearer.rsplit('_').next().unwrap();
    assert!(
        !stored_anywhere(&s, secret_part),
        "the token is kept in the clear"
    );
    let replay = send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "phone"}}))
            .header("Idempotency-Key", "token-1"),
    );
    assert_eq!(replay.data()["secret"], bearer.as_str());
}
