//! Document 1, "Me", "Appearance", "Authentication" (session-only
//! operations, the owner's name, zone, username and password) and
//! idempotency of creating POSTs. Sessions themselves (cookies, CSRF) are
//! tested over HTTP.

use organiser::account::OwnerChange;
use serde_json::json;

use crate::common::{Call, Core, Expect, Reply, check, send};

#[test]
fn me_shows_the_owner_and_today_in_their_zone() {
    let s = Core::start();
    s.org
        .account()
        .change_me(OwnerChange {
            time_zone: Some("Tokyo".into()),
            ..OwnerChange::default()
        })
        .unwrap();
    s.clock.set("2026-03-10T16:30:00Z".parse().unwrap());
    let me = s.get("/me").expect(200);
    let d = me.data();
    assert_eq!(d["name"], "Owner");
    assert_eq!(d["username"], "owner");
    assert_eq!(d["has_password"], false);
    assert_eq!(d["time_zone"], "Tokyo");
    assert_eq!(d["time_zone_iana"], "Asia/Tokyo");
    assert_eq!(d["today"], "2026-03-11", "already tomorrow in Tokyo");
    assert_eq!(d["csrf_token"], serde_json::Value::Null);
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "name",
            "username",
            "has_password",
            "time_zone",
            "time_zone_iana",
            "today",
            "token",
            "csrf_token"
        ]
    );
}

#[test]
fn appearance_changes_only_the_fields_sent() {
    let s = Core::start();
    let before = s.get("/appearance").expect(200);
    assert_eq!(
        before.data(),
        &json!({"accent": "iris", "theme": "system", "code_theme": "match", "updated_at": "2026-03-10T09:00:00.000Z"})
    );
    s.advance(5);
    let after = s
        .patch("/appearance", json!({"appearance": {"theme": "dark"}}))
        .expect(200);
    assert_eq!(after.data()["theme"], "dark");
    assert_eq!(after.data()["accent"], "iris");
    assert_eq!(after.data()["updated_at"], "2026-03-10T09:00:05.000Z");
    let put = s
        .put(
            "/appearance",
            json!({"appearance": {"code_theme": "light"}}),
        )
        .expect(200);
    assert_eq!(
        (
            put.data()["theme"].as_str(),
            put.data()["code_theme"].as_str()
        ),
        (Some("dark"), Some("light"))
    );
}

#[test]
fn bad_appearance_values_are_422_and_change_nothing() {
    let s = Core::start();
    for (body, field) in [
        (json!({"appearance": {"accent": "mauve"}}), "accent"),
        (json!({"appearance": {"theme": 3}}), "theme"),
        (json!({"appearance": {"code_theme": null}}), "code_theme"),
        (
            json!({"appearance": {"theme": "dark", "accent": "neon"}}),
            "accent",
        ),
    ] {
        check(&s, Call::patch("/appearance", body), Expect::invalid(field));
    }
    assert_eq!(
        s.get("/appearance").data()["theme"],
        "system",
        "the valid part of a refused change did not land"
    );
}

#[test]
fn session_only_operations_are_403_for_a_token() {
    let s = Core::start();
    let cases: Vec<(&str, &str, Option<serde_json::Value>)> = vec![
        ("GET", "/api_tokens", None),
        (
            "POST",
            "/api_tokens",
            Some(json!({"api_token": {"name": "x"}})),
        ),
        ("DELETE", "/api_tokens/1", None),
        (
            "PUT",
            "/me/password",
            Some(json!({"password": "long enough"})),
        ),
        ("PUT", "/me/username", Some(json!({"username": "ada"}))),
        ("PUT", "/licence", Some(json!({"key": "ORG1.x.y"}))),
        ("DELETE", "/licence", None),
        ("PATCH", "/me", Some(json!({"me": {"name": "Eve"}}))),
    ];
    for (method, path, body) in cases {
        check(
            &s,
            Call::new(method, path).body(body),
            Expect::error(403, "session_required", None),
        );
    }
    assert_eq!(s.get("/me").data()["name"], "Owner");
}

fn make_token(s: &Core, key: &str, name: &str) -> Reply {
    send(
        s.local("POST", "/api_tokens")
            .header("idempotency-key", key)
            .json(&json!({"api_token": {"name": name}})),
    )
}

#[test]
fn idempotent_posts_replay_the_first_response_for_24_hours() {
    let s = Core::start();
    let first = make_token(&s, "key-1", "laptop").expect(201);
    assert_eq!(first.header("idempotent-replayed"), None);
    let again = make_token(&s, "key-1", "laptop").expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        again.body, first.body,
        "the very same token, not a second one"
    );
    make_token(&s, "key-1", "desktop").expect_error(422, "idempotency_key_reused", None);
    s.advance(24 * 3600);
    let fresh = make_token(&s, "key-1", "laptop").expect(201);
    assert_ne!(
        fresh.body, first.body,
        "after 24 hours the key is forgotten"
    );
    let tokens = s.org.account().tokens().unwrap();
    assert_eq!(tokens.len(), 3, "tests + two laptops");
    // A bad key is 400 and makes nothing.
    make_token(&s, "has space", "x").expect_error(
        400,
        "invalid_parameter",
        Some("Idempotency-Key"),
    );
    assert_eq!(s.org.account().tokens().unwrap().len(), 3);
}

#[test]
fn a_failed_post_does_not_use_up_its_key() {
    let s = Core::start();
    make_token(&s, "key-2", "  ").expect_error(422, "validation_failed", Some("name"));
    make_token(&s, "key-2", "tablet").expect(201);
}

#[test]
fn usernames_and_passwords_change_under_a_session() {
    let s = Core::start();
    let reply = send(
        s.local("PUT", "/me/username")
            .json(&json!({"username": "ada lovelace"})),
    );
    reply.expect_error(422, "validation_failed", Some("username"));
    send(
        s.local("PUT", "/me/username")
            .json(&json!({"username": "ada"})),
    )
    .expect(200);
    send(
        s.local("PUT", "/me/password")
            .json(&json!({"password": "short"})),
    )
    .expect_error(422, "validation_failed", Some("password"));
    send(
        s.local("PUT", "/me/password")
            .json(&json!({"password": "a long passphrase"})),
    )
    .expect(200);
    let me = s.get("/me");
    assert_eq!(
        (
            me.data()["username"].as_str(),
            me.data()["has_password"].as_bool()
        ),
        (Some("ada"), Some(true))
    );
}

#[test]
fn the_owner_changes_name_and_zone_under_a_session() {
    let s = Core::start();
    send(
        s.local("PATCH", "/me")
            .json(&json!({"me": {"time_zone": "Atlantis"}})),
    )
    .expect_error(422, "validation_failed", Some("time_zone"));
    let me = send(
        s.local("PATCH", "/me")
            .json(&json!({"me": {"name": "  Ada   Lovelace ", "time_zone": "America/New_York"}})),
    )
    .expect(200);
    assert_eq!(me.data()["name"], "Ada Lovelace");
    assert_eq!(me.data()["time_zone"], "Eastern Time (US & Canada)");
    assert_eq!(me.data()["today"], "2026-03-10");
}
