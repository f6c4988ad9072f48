//! Document 1, "Licence" and "Licence state": trial, licensed, read-only,
//! and the read-only rule's exceptions.

use serde_json::json;

use crate::common::{Core, Setup, licence_key, licence_signer, send};

fn server() -> Core {
    let mut setup = Setup::default().release("1.2.0", "2026-02-01");
    setup.options.licence_public_key = licence_signer().verifying_key();
    setup.options.update.public_key = None;
    Core::with(setup)
}

#[test]
fn a_new_store_is_on_a_14_day_trial() {
    let s = server();
    let l = s.get("/licence").expect(200);
    let d = l.data();
    assert_eq!(d["state"], "trial");
    assert_eq!(d["problem"], serde_json::Value::Null);
    assert_eq!(d["licensee"], serde_json::Value::Null);
    assert_eq!(d["trial_ends_at"], "2026-03-24T09:00:00.000Z");
    assert_eq!(d["trial_days_left"], 14);
    assert_eq!(d["released_on"], "2026-02-01");
    assert_eq!(d["onboarded"], false);
    s.advance(13 * 86400 + 12 * 3600);
    assert_eq!(s.get("/licence").data()["trial_days_left"], 1, "rounded up");
    s.advance(12 * 3600 - 1);
    assert_eq!(s.get("/licence").data()["trial_days_left"], 1);
    s.advance(1);
    let ended = s.get("/licence");
    assert_eq!(
        (
            ended.data()["state"].as_str(),
            ended.data()["trial_days_left"].as_i64()
        ),
        (Some("read_only"), Some(0))
    );
}

#[test]
fn read_only_still_answers_gets_and_the_listed_writes() {
    let s = server();
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    for path in [
        "/me",
        "/system",
        "/appearance",
        "/vocabulary",
        "/licences",
        "/deletions",
    ] {
        s.get(path).expect(200);
    }
    s.patch("/appearance", json!({"appearance": {"accent": "jade"}}))
        .expect(200);
    s.patch("/system", json!({"system": {"channel": "beta"}}))
        .expect(200);
    send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "x"}})),
    )
    .expect(201);
    send(
        s.local("PUT", "/me/username")
            .json(&json!({"username": "ada"})),
    )
    .expect(200);
    send(
        s.local("PUT", "/me/password")
            .json(&json!({"password": "a long passphrase"})),
    )
    .expect(200);
    // Adding a key is allowed and ends read-only mode.
    let added = send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2027-01-01")})),
    )
    .expect(200);
    assert_eq!(added.data()["state"], "licensed");
}

#[test]
fn a_valid_key_licenses_this_version() {
    let s = server();
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": "ORG1.bogus.key"})),
    )
    .expect_error(422, "validation_failed", Some("key"));
    send(s.local("PUT", "/licence").json(&json!({"key": ""}))).expect_error(
        422,
        "validation_failed",
        Some("key"),
    );
    let forged = licence_key("K-1", "2027-01-01").replace("ORG1.", "ORG1.e");
    send(s.local("PUT", "/licence").json(&json!({"key": forged}))).expect_error(
        422,
        "validation_failed",
        Some("key"),
    );
    assert_eq!(
        s.get("/licence").data()["state"],
        "trial",
        "refused keys change nothing"
    );

    let key = licence_key("K-1", "2027-01-01");
    let l = send(s.local("PUT", "/licence").json(&json!({"key": key}))).expect(200);
    let d = l.data();
    assert_eq!(d["state"], "licensed");
    assert_eq!(d["problem"], serde_json::Value::Null);
    assert_eq!(
        d["licensee"],
        json!({"name": "Ada Lovelace", "email": "ada@example.com"})
    );
    assert_eq!(d["key_id"], "K-1");
    assert_eq!(d["order_reference"], "ORD-1001");
    assert_eq!(d["issued_on"], "2026-01-15");
    assert_eq!(d["updates_until"], "2027-01-01");
    assert_eq!(d["onboarded"], true);
    send(s.local("PUT", "/licence").json(&json!({"key": key}))).expect_error(
        422,
        "already_added",
        None,
    );
    s.advance(400 * 86400);
    assert_eq!(
        s.get("/licence").data()["state"],
        "licensed",
        "the service keeps working after updates_until"
    );
    let removed = send(s.local("DELETE", "/licence")).expect(200);
    assert_eq!(removed.data()["state"], "read_only");
    send(s.local("DELETE", "/licence")).expect_error(404, "not_found", None);
}

#[test]
fn a_key_that_ends_before_this_release_is_not_covered() {
    let s = server();
    let l = send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-old", "2026-01-31")})),
    )
    .expect(200);
    assert_eq!(l.data()["state"], "trial");
    assert_eq!(l.data()["problem"], "not_covered");
    assert_eq!(l.data()["licensee"]["name"], "Ada Lovelace");
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
}

#[test]
fn onboarding_is_answered_once() {
    let s = server();
    send(s.local("POST", "/licence/onboarding")).expect(200);
    assert_eq!(s.get("/licence").data()["onboarded"], true);
    send(s.req("POST", "/licence/onboarding")).expect_error(403, "session_required", None);
}
