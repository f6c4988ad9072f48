//! Document 1, "System and updates", what the server adds: the limit of
//! 10 update checks a minute, and `plain_http` from a trusted proxy's
//! `X-Forwarded-Proto`.
//! The rules of `/system` are tested in process (tests/rules/system.rs).

use serde_json::json;

use crate::common::{ManifestServer, Setup, TestServer, licence_signer, send};

fn release_server(manifests: &ManifestServer, rate_limit: u32) -> TestServer {
    TestServer::with(release(manifests, rate_limit))
}

fn release(manifests: &ManifestServer, rate_limit: u32) -> Setup {
    let mut options = manifests.options("1.2.0", "2026-02-01");
    options.licence_public_key = licence_signer().verifying_key();
    Setup {
        options,
        rate_limit,
        ..Setup::default()
    }
}

/// Moved from `a_development_build_cannot_check`: the server says whether
/// the request came over plain HTTP; only a trusted proxy can say it did
/// not (issue 7, defect 12).
#[test]
fn plain_http_is_false_behind_a_tls_proxy() {
    let proxied = TestServer::configured(organiser_server::Config {
        trusted_proxies: "127.0.0.1".parse().unwrap(),
        ..TestServer::config()
    });
    assert_eq!(
        proxied.get("/system").expect(200).data()["plain_http"],
        true
    );
    let behind_tls = send(
        proxied
            .req("GET", "/system")
            .header("x-forwarded-proto", "https"),
    );
    assert_eq!(behind_tls.data()["plain_http"], false);

    // Anyone else saying so is not believed.
    let direct = TestServer::start();
    let claimed = send(
        direct
            .req("GET", "/system")
            .header("x-forwarded-proto", "https"),
    );
    assert_eq!(claimed.data()["plain_http"], true);
}

#[test]
fn update_checks_are_limited_to_10_a_minute() {
    let m = ManifestServer::start();
    let s = release_server(&m, 300);
    m.publish("stable", &[("1.2.0", "2026-02-01")], &[]);
    for _ in 0..10 {
        s.post("/system/update_check", json!(null)).expect(200);
    }
    let refused =
        s.post("/system/update_check", json!(null))
            .expect_error(429, "rate_limited", None);
    assert!(refused.header("retry-after").is_some());
    s.get("/system").expect(200);
}

/// `ORGANISER_RATE_LIMIT=0` turns off the general limit only: the update
/// check's 10 a minute is a rule of the API (issue 22).
#[test]
fn update_checks_are_limited_with_the_general_limit_off() {
    let m = ManifestServer::start();
    let s = TestServer::with_config(
        release(&m, 0),
        organiser_server::Config {
            rate_limit: 0,
            route_limits: true,
            ..TestServer::config()
        },
    );
    m.publish("stable", &[("1.2.0", "2026-02-01")], &[]);
    for _ in 0..10 {
        s.post("/system/update_check", json!(null)).expect(200);
    }
    s.post("/system/update_check", json!(null))
        .expect_error(429, "rate_limited", None);
    for _ in 0..20 {
        s.get("/system").expect(200);
    }
}
