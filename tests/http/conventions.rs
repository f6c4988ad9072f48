//! Document 1, "Conventions", "Authentication", "Errors", "Limits": headers,
//! envelopes, 401, 404, 413, 415, 400, 429 and 500.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use organiser::{Options, Organiser, clock::Clock, clock::ManualClock};
use serde_json::json;

use crate::common::{Setup, TestServer, send};

#[test]
fn every_response_carries_the_version_and_a_request_id() {
    let s = TestServer::start();
    let replies = [
        send(s.req("GET", "/me")),
        send(s.bare("GET", "/me")),
        send(s.req("GET", "/no_such_thing")),
        send(s.bare("GET", "//nowhere")),
        send(
            s.req("PATCH", "/appearance")
                .body("x")
                .header("content-type", "text/plain"),
        ),
        send(s.bare("GET", "//.well-known/organiser")),
    ];
    let mut ids = Vec::new();
    for reply in replies {
        assert_eq!(
            reply.header("x-service-version"),
            Some("dev"),
            "{}",
            reply.status
        );
        let id = reply.header("x-request-id").expect("request id").to_owned();
        assert!(!id.is_empty());
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6, "each request has its own id");
}

#[test]
fn a_client_request_id_is_kept() {
    let s = TestServer::start();
    let reply = send(s.req("GET", "/me").header("x-request-id", "trace-42"));
    assert_eq!(reply.header("x-request-id"), Some("trace-42"));
}

#[test]
fn a_missing_or_bad_token_is_401() {
    let s = TestServer::start();
    let expired = s
        .org
        .account()
        .create_token("short", Some("2026-03-10T10:00:00Z".parse().unwrap()))
        .unwrap()
        .secret;
    let revoked = s.org.account().create_token("gone", None).unwrap();
    s.org.account().revoke_token(revoked.token.id).unwrap();
    let tampered = format!("{}x", &s.token[..s.token.len() - 1]);
    s.advance(2 * 3600);
    for request in [
        s.bare("GET", "/me"),
        s.bare("GET", "/me").bearer_auth("nonsense"),
        s.bare("GET", "/me").bearer_auth(&tampered),
        s.bare("GET", "/me").bearer_auth(&expired),
        s.bare("GET", "/me").bearer_auth(&revoked.secret),
        s.bare("GET", "/me")
            .header("authorization", "Basic b3duZXI6cGFzcw=="),
        s.bare("GET", "/no_such_thing"),
        s.bare("POST", "/api_tokens").json(&json!({})),
    ] {
        send(request).expect_error(401, "unauthorized", None);
    }
}

#[test]
fn tokens_record_when_they_were_last_used() {
    let s = TestServer::start();
    let first = s.get("/me").expect(200);
    assert_eq!(
        first.data()["token"]["last_used_at"],
        "2026-03-10T09:00:00.000Z"
    );
    assert_eq!(first.data()["token"]["name"], "tests");
    assert!(first.data()["token"]["id"].is_u64());
    assert!(first.data()["token"].get("secret").is_none());
    s.advance(30);
    let soon = s.get("/me");
    assert_eq!(
        soon.data()["token"]["last_used_at"],
        "2026-03-10T09:00:00.000Z",
        "kept to the minute"
    );
    s.advance(60);
    let later = s.get("/me");
    assert_eq!(
        later.data()["token"]["last_used_at"],
        "2026-03-10T09:01:30.000Z"
    );
}

#[test]
fn unknown_routes_are_404_not_found() {
    let s = TestServer::start();
    for (method, path) in [
        ("GET", "/no_such_thing"),
        ("GET", "/me/extra"),
        ("DELETE", "/me"),
        ("POST", "/vocabulary"),
        ("DELETE", "/api_tokens/not-a-number"),
        // Another method on the session path is the API's 404, not a bare 405.
        ("GET", "/session"),
        ("PUT", "/session"),
    ] {
        send(s.req(method, path)).expect_error(404, "not_found", None);
    }
    send(s.bare("GET", "//anything")).expect_error(404, "not_found", None);
}

#[test]
fn a_body_that_is_not_json_is_415() {
    let s = TestServer::start();
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut request = s
            .req("PATCH", "/appearance")
            .body(r#"{"appearance":{"accent":"jade"}}"#);
        if let Some(ct) = content_type {
            request = request.header("content-type", ct);
        }
        send(request).expect_error(415, "unsupported_media_type", None);
    }
    assert_eq!(
        s.get("/appearance").data()["accent"],
        "iris",
        "nothing changed"
    );
    // A charset parameter is fine.
    let ok = send(
        s.req("PATCH", "/appearance")
            .header("content-type", "application/json; charset=utf-8")
            .body(r#"{"appearance":{"accent":"jade"}}"#),
    );
    assert_eq!(ok.expect(200).data()["accent"], "jade");
}

#[test]
fn malformed_json_is_400_invalid_json() {
    let s = TestServer::start();
    for body in [
        "{",
        "{\"appearance\":",
        "[1,2]",
        "\"text\"",
        "{\"appearance\": 5}",
        "nul",
    ] {
        send(
            s.req("PATCH", "/appearance")
                .header("content-type", "application/json")
                .body(body),
        )
        .expect_error(400, "invalid_json", None);
    }
}

/// Issue 7, defect 12: the message says what is wrong in plain words, and
/// where, rather than quoting the parser.
#[test]
fn invalid_json_says_what_is_wrong_and_where() {
    let s = TestServer::start();
    for (body, message) in [
        (
            "{\"appearance\": }",
            "The body is not valid JSON: expected a value at line 1, column 16.",
        ),
        (
            "{\"appearance\": {\"accent\": \"jade\"",
            "The body is not valid JSON: it ends before an object is closed at line 1, column 32.",
        ),
        (
            "{\"appearance\": {}}\n]",
            "The body is not valid JSON: something follows the JSON value at line 2, column 1.",
        ),
    ] {
        let reply = send(
            s.req("PATCH", "/appearance")
                .header("content-type", "application/json")
                .body(body),
        )
        .expect_error(400, "invalid_json", None);
        assert_eq!(reply.body["error"]["message"], message, "{body}");
    }
}

/// Sends raw HTTP/1.1 and reads the status line and body the server
/// answers with. `body` is written only when given; a server that answers
/// before reading it all may close the connection, so a failed write is
/// not an error here: what matters is what comes back.
fn raw(s: &TestServer, head: &str, body: Option<&[u8]>) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = s.url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    if let Some(body) = body {
        let _ = stream.write_all(body);
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}

#[test]
fn a_body_over_2_mb_is_413() {
    let s = TestServer::start();
    // A declared length over the limit is refused before a byte of the body
    // is read.
    let head = format!(
        "PATCH /api/v1/appearance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        s.token,
        2 * 1024 * 1024 + 1
    );
    let (status, text) = raw(&s, &head, None);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("payload_too_large"), "{text}");
    assert!(text.to_ascii_lowercase().contains("x-request-id"), "{text}");

    // Without a Content-Length (chunked) the limit holds as the body streams
    // in: one chunk just over it.
    let head = format!(
        "PATCH /api/v1/appearance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        s.token
    );
    let size = 2 * 1024 * 1024 + 1;
    let mut chunked = format!("{size:x}\r\n").into_bytes();
    chunked.extend(std::iter::repeat_n(b'a', size));
    chunked.extend_from_slice(b"\r\n0\r\n\r\n");
    // The server stops reading at the limit and answers; the few bytes left
    // unread can make the kernel reset the connection before the answer is
    // read, so a reset (no status at all) is tried again.
    let (status, text) = (0..5)
        .map(|_| raw(&s, &head, Some(&chunked)))
        .find(|(status, _)| *status != 0)
        .expect("an answer in five tries");
    assert_eq!(status, 413, "{text}");
    assert_eq!(
        s.get("/appearance").data()["accent"],
        "iris",
        "nothing changed"
    );
}

#[test]
fn duplicate_query_parameters_are_400() {
    let s = TestServer::start();
    s.get("/deletions?limit=1&limit=2")
        .expect_error(400, "invalid_parameter", Some("limit"));
}

#[test]
fn the_general_rate_limit_is_strict_with_retry_after() {
    let s = TestServer::with(Setup {
        rate_limit: 5,
        ..Setup::default()
    });
    for _ in 0..5 {
        s.get("/me").expect(200);
    }
    let refused = s.get("/me").expect_error(429, "rate_limited", None);
    assert_eq!(refused.header("retry-after"), Some("60"));
    assert!(refused.header("x-request-id").is_some());
    // Unauthenticated requests count too, and are refused the same way.
    send(s.bare("GET", "/me")).expect_error(429, "rate_limited", None);
    s.advance(59);
    assert_eq!(s.get("/me").expect(429).header("retry-after"), Some("1"));
    s.advance(1);
    s.get("/me").expect(200);
}

/// A clock that can be made to panic, to reach the server's 500 path.
struct Treacherous {
    inner: ManualClock,
    armed: Arc<AtomicBool>,
}

impl Clock for Treacherous {
    fn now(&self) -> jiff::Timestamp {
        if self.armed.load(Ordering::SeqCst) {
            panic!("secret internals: clock exploded at table tasks page 7");
        }
        self.inner.now()
    }
}

#[test]
fn a_server_failure_is_500_internal_error_and_leaks_nothing() {
    let armed = Arc::new(AtomicBool::new(false));
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let org = Organiser::in_memory_with(Options {
        clock: Arc::new(Treacherous {
            inner: clock.clone(),
            armed: armed.clone(),
        }),
        ..Options::default()
    });
    let s = TestServer::serve(org, clock, 0);
    s.get("/me").expect(200);
    armed.store(true, Ordering::SeqCst);
    let reply = s.get("/me").expect_error(500, "internal_error", None);
    let text = reply.body.to_string();
    assert!(
        !text.contains("secret") && !text.contains("tasks"),
        "{text}"
    );
    assert!(reply.body["error"].get("details").is_none());
    assert!(reply.header("x-request-id").is_some());
    armed.store(false, Ordering::SeqCst);
    s.get("/me").expect(200);
}

#[test]
fn discovery_needs_no_token_and_reveals_nothing_about_the_owner() {
    let s = TestServer::start();
    let root = send(s.bare("GET", "//.well-known/organiser")).expect(200);
    assert_eq!(root.body["app"], "organiser");
    assert_eq!(root.body["version"], "dev");
    assert!(root.body["min_shell_version"].is_string());
    assert_eq!(root.body["api_versions"][0]["version"], "v1");
    assert!(
        root.body["api_versions"][0]["base_url"]
            .as_str()
            .unwrap()
            .ends_with("/api/v1")
    );
    let wrapped = send(s.bare("GET", "/.well-known/organiser")).expect(200);
    assert_eq!(wrapped.body["data"], root.body);
    let text = root.body.to_string();
    assert!(!text.contains("owner") && !text.contains("UTC"));
}

/// A clock that, once armed, holds its next caller until released: a way to
/// keep a write transaction open (the core reads the clock just after
/// taking the store's write lock).
/// (armed, holding, released), and the condition they change under.
type GateState = Arc<(std::sync::Mutex<(bool, bool, bool)>, std::sync::Condvar)>;

#[derive(Clone, Default)]
struct Gate {
    state: GateState,
}

impl Gate {
    fn arm(&self) {
        self.state.0.lock().unwrap().0 = true;
    }

    fn wait_until_holding(&self) {
        let (lock, wake) = &*self.state;
        let mut s = lock.lock().unwrap();
        while !s.1 {
            s = wake.wait(s).unwrap();
        }
    }

    fn release(&self) {
        let (lock, wake) = &*self.state;
        lock.lock().unwrap().2 = true;
        wake.notify_all();
    }

    fn pass(&self) {
        let (lock, wake) = &*self.state;
        let mut s = lock.lock().unwrap();
        if s.0 && !s.1 {
            s.1 = true;
            wake.notify_all();
            while !s.2 {
                s = wake.wait(s).unwrap();
            }
        }
    }
}

/// Releases the gate however the test ends, so the server can stop.
struct Released(Gate);

impl Drop for Released {
    fn drop(&mut self) {
        self.0.release();
    }
}

struct GatedClock {
    inner: ManualClock,
    gate: Gate,
}

impl Clock for GatedClock {
    fn now(&self) -> jiff::Timestamp {
        self.gate.pass();
        self.inner.now()
    }
}

#[test]
fn a_retry_while_the_first_request_runs_is_409() {
    let gate = Gate::default();
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let org = Organiser::in_memory_with(Options {
        clock: Arc::new(GatedClock {
            inner: clock.clone(),
            gate: gate.clone(),
        }),
        ..Options::default()
    });
    let s = TestServer::serve(org.clone(), clock, 0);
    // Dropped before the server, so the server can finish its requests.
    let _release = Released(gate.clone());

    // Another writer takes the store's write lock and holds it.
    gate.arm();
    let holder = std::thread::spawn(move || {
        org.tasks()
            .create(organiser::tasks::TaskInput::titled("holder"))
            .map(|t| t.id)
    });
    gate.wait_until_holding();

    // Two identical requests with one key: the first to claim the key waits
    // for the write lock; the other is told the key is in use.
    let body = json!({"task": {"title": "Only once"}});
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..2 {
        // The owner's local token: checking it needs no write (an API token's
        // first use records `last_used_at`, which would wait for the lock).
        let request = s
            .local("POST", "/tasks")
            .header("idempotency-key", "same")
            .json(&body);
        let tx = tx.clone();
        std::thread::spawn(move || tx.send(send(request)).unwrap());
    }
    let wait = std::time::Duration::from_secs(30);
    let first = rx
        .recv_timeout(wait)
        .expect("one request answers while the other runs");
    first.expect_error(409, "idempotency_key_in_use", None);
    gate.release();
    let made = rx
        .recv_timeout(wait)
        .expect("the running request finishes")
        .expect(201);
    holder.join().unwrap().unwrap();

    let again = send(
        s.local("POST", "/tasks")
            .header("idempotency-key", "same")
            .json(&body),
    )
    .expect(201);
    assert_eq!(again.data()["id"], made.data()["id"]);
    assert_eq!(
        s.get("/tasks?count=true").body["meta"]["total_count"],
        2,
        "holder + one"
    );
}

/// Issue 7, defect 12: HEAD says the GET's length, and sends no body.
#[test]
fn head_says_the_length_of_the_get() {
    let s = TestServer::start();
    for path in ["/me", "/tasks", "/task_counts"] {
        let get = s.req("GET", path).send().unwrap();
        let get_length = get.bytes().unwrap().len();
        let head = s.req("HEAD", path).send().unwrap();
        assert_eq!(head.status(), 200, "{path}");
        let declared: usize = head.headers()["content-length"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(declared, get_length, "{path}");
        assert!(head.bytes().unwrap().is_empty(), "{path}");
    }
    // Discovery at the root, which needs no token, too.
    let get = s.bare("GET", "//.well-known/organiser").send().unwrap();
    let get_length = get.bytes().unwrap().len();
    let head = s.bare("HEAD", "//.well-known/organiser").send().unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(
        head.headers()["content-length"],
        get_length.to_string().as_str()
    );
    assert!(head.bytes().unwrap().is_empty());
}
