//! The CLI and a server that limits it (issue 22): a request that is safe
//! to send again (a read, or a POST, which the CLI sends with an
//! `Idempotency-Key`) and is refused with 429 is sent again when
//! `Retry-After` says, with the same key.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::loopback::Loopback;
use crate::util::Dir;

/// What the limiter saw: each request (method, path and idempotency key).
type Seen = Arc<Mutex<Vec<(String, String, Option<String>)>>>;

/// A real server (in process) behind a limiter that refuses the first try
/// of every request with 429 and `Retry-After: 1`.
fn limited_server() -> (Loopback, String, Seen) {
    let org = organiser::Organiser::in_memory();
    let token = org.account().create_token("cli", None).unwrap().secret;
    let seen: Seen = Arc::default();
    let refused: Arc<Mutex<HashSet<String>>> = Arc::default();
    let app = organiser_server::router(
        org,
        organiser_server::Config {
            rate_limit: 0,
            route_limits: false,
            ..organiser_server::Config::default()
        },
    )
    .layer(axum::middleware::from_fn({
        let seen = seen.clone();
        move |request: Request, next: Next| {
            let seen = seen.clone();
            let refused = refused.clone();
            async move {
                let method = request.method().to_string();
                let path = request.uri().path().to_owned();
                let key = request
                    .headers()
                    .get("idempotency-key")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                seen.lock()
                    .unwrap()
                    .push((method.clone(), path.clone(), key));
                let first = refused.lock().unwrap().insert(format!("{method} {path}"));
                if first {
                    let refusal: Response = (
                        StatusCode::TOO_MANY_REQUESTS,
                        [("retry-after", "1"), ("content-type", "application/json")],
                        r#"{"error":{"code":"rate_limited","message":"Too many requests"}}"#,
                    )
                        .into_response();
                    return refusal;
                }
                next.run(request).await
            }
        }
    }));
    let server = Loopback::serve(app);
    (server, token, seen)
}

#[test]
fn a_refused_read_or_keyed_write_is_sent_again_when_the_server_says() {
    let (server, token, seen) = limited_server();
    let dir = Dir::empty();
    let run = |args: &[&str]| {
        dir.cmd(args)
            .env("ORGANISER_URL", format!("http://{}", server.addr))
            .env("ORGANISER_TOKEN", &token)
            .run()
            .success()
    };
    let out = run(&["tasks", "add", "Buy", "milk"]);
    assert!(out.stdout.contains("Buy milk"), "{out:?}");
    let out = run(&["tasks", "inbox", "--json"]);
    assert_eq!(out.json()["data"][0]["title"], "Buy milk");
    let seen = seen.lock().unwrap().clone();
    let posts: Vec<&Option<String>> = seen
        .iter()
        .filter(|(m, p, _)| m == "POST" && p == "/api/v1/tasks")
        .map(|(_, _, key)| key)
        .collect();
    assert_eq!(posts.len(), 2, "refused, then sent again: {seen:?}");
    assert!(posts[0].is_some(), "a POST goes with a key");
    assert_eq!(posts[0], posts[1], "the same key both times");
}

/// The CLI at the machine speaks to its server with the administrator
/// token of `server.json`, which the general limit does not count: a
/// script adding tasks in a loop loses none.
#[test]
fn the_cli_at_the_machine_is_not_limited_by_its_own_server() {
    let dir = Dir::new();
    let server = dir.serve_with(&[("ORGANISER_RATE_LIMIT", "5")]);
    for n in 0..12 {
        dir.ok(&["tasks", "add", &format!("Task {n}")]);
    }
    let inbox = dir.json(&["tasks", "inbox", "--all"]);
    assert_eq!(inbox["data"].as_array().unwrap().len(), 12);
    assert!(server.stop().success());
}
