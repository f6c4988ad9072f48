//! `GET /healthz` (DESIGN.md "Running it"): 200 while the store is usable,
//! with no token, nothing of the owner's, and no rate limit. (503 when the
//! store fails is tested in organiser-server's unit tests.)

use crate::common::{Setup, TestServer, send};

#[test]
fn healthz_needs_no_token_and_says_only_ok() {
    let s = TestServer::start();
    let reply = send(s.bare("GET", "//healthz")).expect(200);
    assert_eq!(reply.body, serde_json::json!({"status": "ok"}));
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    assert!(reply.header("x-request-id").is_some());

    // HEAD has the GET's length and no body.
    let head = s.bare("HEAD", "//healthz").send().unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-length"], "15");
    assert!(head.bytes().unwrap().is_empty());

    // Other methods, and the path under the API, are the API's 404 and 401.
    send(s.bare("POST", "//healthz")).expect_error(404, "not_found", None);
    send(s.bare("GET", "/healthz")).expect_error(401, "unauthorized", None);
}

#[test]
fn healthz_is_not_rate_limited() {
    let s = TestServer::with(Setup {
        rate_limit: 1,
        ..Setup::default()
    });
    s.get("/me").expect(200);
    s.get("/me").expect(429);
    for _ in 0..5 {
        send(s.bare("GET", "//healthz")).expect(200);
    }
}
