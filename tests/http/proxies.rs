//! Discovery's `base_url`, `plain_http` and the rate limit's address behind
//! a proxy (issue 7, defect 12): `X-Forwarded-*` is believed from the
//! proxies of `ORGANISER_TRUSTED_PROXIES` only, and `ORGANISER_PUBLIC_URL`
//! is `base_url` whatever the headers say. The tests connect from
//! 127.0.0.1.

use crate::common::{TestServer, send};

fn base_url(s: &TestServer, headers: &[(&str, &str)]) -> (String, String) {
    let mut root = s.bare("GET", "//.well-known/organiser");
    let mut wrapped = s.bare("GET", "/.well-known/organiser");
    for (name, value) in headers {
        root = root.header(*name, *value);
        wrapped = wrapped.header(*name, *value);
    }
    let root = send(root).expect(200);
    let wrapped = send(wrapped).expect(200);
    (
        root.body["api_versions"][0]["base_url"]
            .as_str()
            .unwrap()
            .to_owned(),
        wrapped.data()["api_versions"][0]["base_url"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

fn trusting(proxies: &str) -> TestServer {
    TestServer::configured(organiser_server::Config {
        trusted_proxies: proxies.parse().unwrap(),
        ..TestServer::config()
    })
}

const FORWARDED: &[(&str, &str)] = &[
    ("host", "organiser.internal:7420"),
    ("x-forwarded-host", "organiser.example.com"),
    ("x-forwarded-proto", "https"),
];

fn both(url: &str) -> (String, String) {
    (url.to_owned(), url.to_owned())
}

#[test]
fn forwarded_headers_from_an_untrusted_peer_are_ignored() {
    // No proxy trusted (the default), or others than the peer.
    for s in [TestServer::start(), trusting("10.0.0.0/8, ::1")] {
        assert_eq!(
            base_url(&s, FORWARDED),
            both("http://organiser.internal:7420/api/v1")
        );
        let claimed = send(s.req("GET", "/system").header("x-forwarded-proto", "https"));
        assert_eq!(claimed.data()["plain_http"], true);
    }
}

#[test]
fn a_trusted_proxy_says_where_clients_reached_us() {
    for s in [trusting("127.0.0.1"), trusting("127.0.0.0/8,10.0.0.1")] {
        assert_eq!(
            base_url(&s, FORWARDED),
            both("https://organiser.example.com/api/v1")
        );
        // Without forwarded headers it is the Host header, over plain HTTP.
        assert_eq!(
            base_url(&s, &[("host", "organiser.internal:7420")]),
            both("http://organiser.internal:7420/api/v1")
        );
        // Of a list, the value the nearest proxy added counts.
        assert_eq!(
            base_url(
                &s,
                &[
                    ("x-forwarded-host", "spoofed.example, organiser.example.com"),
                    ("x-forwarded-proto", "http, https"),
                ]
            ),
            both("https://organiser.example.com/api/v1")
        );
        // A forwarded host that is not a host is not used.
        assert_eq!(
            base_url(
                &s,
                &[
                    ("host", "organiser.internal"),
                    ("x-forwarded-host", "evil.example/phish"),
                ]
            ),
            both("http://organiser.internal/api/v1")
        );
    }
}

#[test]
fn the_public_url_is_the_base_url_whatever_the_headers_say() {
    let s = TestServer::configured(organiser_server::Config {
        public_url: Some("https://example.com/organiser".into()),
        trusted_proxies: "127.0.0.1".parse().unwrap(),
        ..TestServer::config()
    });
    assert_eq!(
        base_url(&s, FORWARDED),
        both("https://example.com/organiser/api/v1")
    );
    assert_eq!(
        base_url(&s, &[]),
        both("https://example.com/organiser/api/v1")
    );
}

#[test]
fn behind_a_trusted_proxy_each_client_has_its_own_rate_limit() {
    let limited = |proxies: &str| {
        TestServer::configured(organiser_server::Config {
            rate_limit: 2,
            trusted_proxies: proxies.parse().unwrap(),
            ..TestServer::config()
        })
    };
    let from = |s: &TestServer, client: &str| {
        send(s.req("GET", "/me").header("x-forwarded-for", client)).status
    };
    let s = limited("127.0.0.1");
    assert_eq!(from(&s, "203.0.113.1"), 200);
    assert_eq!(from(&s, "203.0.113.1"), 200);
    assert_eq!(from(&s, "203.0.113.1"), 429);
    // Another client behind the same proxy; what a client wrote to the left
    // of the proxy's entry is its own business.
    assert_eq!(from(&s, "203.0.113.2"), 200);
    assert_eq!(from(&s, "198.51.100.7, 203.0.113.2"), 200);
    assert_eq!(from(&s, "198.51.100.8, 203.0.113.2"), 429);

    // Untrusted, the header is ignored: everything is the peer's.
    let s = limited("");
    assert_eq!(from(&s, "203.0.113.1"), 200);
    assert_eq!(from(&s, "203.0.113.2"), 200);
    assert_eq!(from(&s, "203.0.113.3"), 429);
}

#[test]
fn the_proxy_settings_come_from_the_environment_checked() {
    // Config::from_env is tested on its parsers (the environment is the
    // process's, shared by the tests running at once).
    assert!(
        "127.0.0.1, 10.0.0.0/8, ::1"
            .parse::<organiser_server::TrustedProxies>()
            .is_ok()
    );
    assert!(
        "proxy.local"
            .parse::<organiser_server::TrustedProxies>()
            .is_err()
    );
    assert_eq!(
        organiser_server::parse_public_url("https://organiser.example.com/").unwrap(),
        "https://organiser.example.com"
    );
    assert!(organiser_server::parse_public_url("organiser.example.com").is_err());
}
