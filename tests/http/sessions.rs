//! Document 1, "Authentication": signing in with username and password,
//! the session cookie, CSRF on unsafe methods, session-only operations
//! under a session, signing out, and `Idempotency-Key` refused under a
//! session. Over HTTP: sessions are cookies and headers.

use serde_json::json;

use crate::common::{TestServer, send};

/// Signs in over HTTP; the session cookie and CSRF token.
fn sign_in(s: &TestServer) -> (String, String) {
    let reply = send(
        s.bare("POST", "/session")
            .json(&json!({"session": {"username": "Owner", "password": "correct horse battery"}})),
    )
    .expect(201);
    let cookie = reply
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let csrf = reply.data()["csrf_token"].as_str().unwrap().to_owned();
    (cookie, csrf)
}

fn with_password(s: &TestServer) {
    s.org
        .account()
        .set_password(None, "correct horse battery")
        .unwrap();
}

#[test]
fn a_session_signs_in_with_username_and_password() {
    let s = TestServer::start();
    // No password yet: nobody can sign in.
    send(
        s.bare("POST", "/session")
            .json(&json!({"session": {"username": "owner", "password": "x"}})),
    )
    .expect_error(422, "validation_failed", Some("base"));
    with_password(&s);
    send(
        s.bare("POST", "/session")
            .json(&json!({"session": {"username": "owner", "password": "wrong password"}})),
    )
    .expect_error(422, "validation_failed", Some("base"));
    let (cookie, csrf) = sign_in(&s);
    let me = send(s.bare("GET", "/me").header("cookie", &cookie)).expect(200);
    assert_eq!(me.data()["csrf_token"], csrf.as_str());
    assert_eq!(me.data()["token"], serde_json::Value::Null);
    assert_eq!(me.data()["has_password"], true);

    // Unsafe methods need the CSRF token.
    send(
        s.bare("PATCH", "/appearance")
            .header("cookie", &cookie)
            .json(&json!({"appearance": {"accent": "coral"}})),
    )
    .expect_error(401, "unauthorized", None);
    send(
        s.bare("PATCH", "/appearance")
            .header("cookie", &cookie)
            .header("x-csrf-token", "forged")
            .json(&json!({"appearance": {"accent": "coral"}})),
    )
    .expect_error(401, "unauthorized", None);
    send(
        s.bare("PATCH", "/appearance")
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .json(&json!({"appearance": {"accent": "coral"}})),
    )
    .expect(200);

    // Session-only operations work under the session.
    let made = send(
        s.bare("POST", "/api_tokens")
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .json(&json!({"api_token": {"name": "phone"}})),
    )
    .expect(201);
    assert!(made.data()["secret"].as_str().unwrap().starts_with("org_"));
    let listed = send(s.bare("GET", "/api_tokens").header("cookie", &cookie)).expect(200);
    assert_eq!(listed.data().as_array().unwrap().len(), 2);

    // Signing out ends it.
    send(s.bare("DELETE", "/session").header("cookie", &cookie)).expect(204);
    send(s.bare("GET", "/me").header("cookie", &cookie)).expect_error(401, "unauthorized", None);
}

#[test]
fn idempotency_key_under_a_session_is_400() {
    let s = TestServer::start();
    with_password(&s);
    let (cookie, csrf) = sign_in(&s);
    send(
        s.bare("POST", "/api_tokens")
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .header("idempotency-key", "k-1")
            .json(&json!({"api_token": {"name": "phone"}})),
    )
    .expect_error(400, "invalid_parameter", Some("Idempotency-Key"));
    let listed = send(s.bare("GET", "/api_tokens").header("cookie", &cookie)).expect(200);
    assert_eq!(
        listed.data().as_array().unwrap().len(),
        1,
        "nothing was made"
    );
}

/// The API's session cookie is `Secure` when the request came over HTTPS
/// through a trusted proxy, and not over plain HTTP (as the web app's).
#[test]
fn the_session_cookie_is_secure_over_https() {
    let s = TestServer::with_config(
        crate::common::Setup::default(),
        organiser_server::Config {
            trusted_proxies: "127.0.0.1".parse().unwrap(),
            ..TestServer::config()
        },
    );
    with_password(&s);
    let body = json!({"session": {"username": "owner", "password": "correct horse battery"}});
    let plain = send(s.bare("POST", "/session").json(&body)).expect(201);
    assert!(!plain.header("set-cookie").unwrap().contains("Secure"));
    let https = send(
        s.bare("POST", "/session")
            .header("x-forwarded-proto", "https")
            .json(&body),
    )
    .expect(201);
    assert!(https.header("set-cookie").unwrap().contains("; Secure"));
}
