//! Connections (issue 7, defect 12): a client that sends nothing, or half a
//! request head, is closed after the header timeout; an answer given
//! before the body was read says `Connection: close`, and a kept-alive
//! connection whose body was read serves the next request; shutdown
//! finishes the requests in flight, drops idle and half-sent connections,
//! and is bounded.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::common::{TestServer, send};

/// A raw HTTP/1.1 connection to the test server.
struct Raw {
    stream: TcpStream,
    /// Bytes read past the last answer.
    pending: Vec<u8>,
}

/// One answer read off a [`Raw`] connection.
struct RawReply {
    status: u16,
    /// The head, lowercased.
    head: String,
    body: String,
}

impl RawReply {
    fn closes(&self) -> bool {
        self.head.contains("\r\nconnection: close\r\n")
    }
}

impl Raw {
    fn connect(s: &TestServer) -> Raw {
        let stream = TcpStream::connect(s.addr()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Raw {
            stream,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// Reads more bytes; `false` at the end of the stream (or a reset).
    fn fill(&mut self) -> bool {
        let mut buf = [0u8; 8192];
        match self.stream.read(&mut buf) {
            Ok(0) => false,
            Ok(n) => {
                self.pending.extend_from_slice(&buf[..n]);
                true
            }
            Err(e) if e.kind() == ErrorKind::ConnectionReset => false,
            Err(e) => panic!("reading the answer: {e}"),
        }
    }

    /// The next answer (its body by `Content-Length`), or `None` when the
    /// server closed the connection first.
    fn answer(&mut self) -> Option<RawReply> {
        let end = loop {
            if let Some(at) = self.pending.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            if !self.fill() {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.pending[..end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .map_or(0, |n| n.trim().parse().unwrap());
        while self.pending.len() < end + length {
            assert!(self.fill(), "the body was cut short");
        }
        let body = String::from_utf8_lossy(&self.pending[end..end + length]).into_owned();
        self.pending.drain(..end + length);
        Some(RawReply {
            status: head[9..12].parse().unwrap(),
            head,
            body,
        })
    }

    /// Whether the server closes the connection (rather than answer or
    /// wait) within the read timeout.
    fn closed(&mut self) -> bool {
        !self.fill()
    }
}

fn post(token: &str, body: &str) -> String {
    format!(
        "POST /api/v1/task_lists HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const GET_ME: &str = "GET /api/v1/me HTTP/1.1\r\nHost: x\r\n\r\n";

#[test]
fn a_connection_that_sends_nothing_or_half_a_head_is_closed_after_the_header_timeout() {
    let s = TestServer::configured(organiser_server::Config {
        header_read_timeout: Duration::from_secs(1),
        ..TestServer::config()
    });
    for sent in [&b""[..], b"GET /api/v1/me HTTP/1.1\r\nHost: x\r\n"] {
        let mut raw = Raw::connect(&s);
        raw.send(sent);
        let started = Instant::now();
        assert!(raw.closed(), "{sent:?}");
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(800) && waited < Duration::from_secs(5),
            "{sent:?}: closed after {waited:?}"
        );
    }
    // A client that keeps its connection idle between requests has as long.
    let mut raw = Raw::connect(&s);
    raw.send(b"GET /.well-known/organiser HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(raw.answer().unwrap().status, 200);
    assert!(raw.closed());
}

#[test]
fn the_header_timeout_is_10_seconds_by_default() {
    assert_eq!(
        organiser_server::Config::default().header_read_timeout,
        Duration::from_secs(10)
    );
}

#[test]
fn an_answer_before_the_body_is_read_closes_the_connection() {
    let s = TestServer::start();
    let body = r#"{"task_list":{"name":"Groceries"}}"#;

    // 401: the token is refused before the body is read.
    let mut raw = Raw::connect(&s);
    raw.send(post("wrong", body).as_bytes());
    let refused = raw.answer().unwrap();
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(refused.closes(), "{}", refused.head);
    assert!(raw.closed());

    // 404 outside the API, before authentication or the body.
    let mut raw = Raw::connect(&s);
    raw.send(
        format!(
            "POST /elsewhere HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    let elsewhere = raw.answer().unwrap();
    assert_eq!(elsewhere.status, 404);
    assert!(elsewhere.closes(), "{}", elsewhere.head);

    // A request whose body was read keeps the connection for the next one,
    // an error included (415 is decided after reading).
    let mut raw = Raw::connect(&s);
    raw.send(post(&s.token, body).as_bytes());
    let created = raw.answer().unwrap();
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(!created.closes(), "{}", created.head);
    raw.send(
        format!(
            "PATCH /api/v1/appearance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
             Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi",
            s.token
        )
        .as_bytes(),
    );
    let unsupported = raw.answer().unwrap();
    assert_eq!(unsupported.status, 415, "{}", unsupported.body);
    assert!(!unsupported.closes(), "{}", unsupported.head);
    raw.send(GET_ME.as_bytes());
    assert_eq!(raw.answer().unwrap().status, 401, "a third request is read");
}

#[test]
fn a_client_that_reuses_its_connection_after_a_refusal_gets_its_answer() {
    let s = TestServer::start();
    let client = reqwest::blocking::Client::new();
    let url = format!("{}/api/v1/task_lists", s.url);
    for round in 0..5 {
        let refused = client
            .post(&url)
            .bearer_auth("wrong")
            .json(&serde_json::json!({"task_list": {"name": format!("L{round}")}}))
            .send()
            .unwrap();
        assert_eq!(refused.status(), 401);
        let created = client
            .post(&url)
            .bearer_auth(&s.token)
            .json(&serde_json::json!({"task_list": {"name": format!("L{round}")}}))
            .send()
            .unwrap();
        assert_eq!(created.status(), 201, "round {round}");
    }
}

#[test]
fn shutdown_drops_idle_and_half_sent_connections_at_once() {
    let s = TestServer::start();
    let mut silent = Raw::connect(&s);
    let mut half = Raw::connect(&s);
    half.send(b"GET /api/v1/me HTTP/1.1\r\nHost: x\r\n");
    let mut idle = Raw::connect(&s);
    idle.send(b"GET /.well-known/organiser HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(idle.answer().unwrap().status, 200);
    // The server has taken the three connections: a request on a fourth is
    // answered after them.
    send(s.bare("GET", "//.well-known/organiser")).expect(200);

    let took = s.stop();
    assert!(
        took < organiser_server::DRAIN_GRACE + Duration::from_secs(1),
        "shutdown took {took:?}"
    );
    for raw in [&mut silent, &mut half, &mut idle] {
        assert!(raw.closed());
    }
}

#[test]
fn shutdown_finishes_a_request_in_flight() {
    let s = TestServer::start();
    let addr = s.addr().to_owned();
    let body = r#"{"task_list":{"name":"Groceries"}}"#;
    let request = post(&s.token, body);
    let (head_and_some, rest) = request.split_at(request.len() - 10);
    let mut raw = Raw::connect(&s);
    raw.send(head_and_some.as_bytes());
    // The server has taken the connection once a later one is answered;
    // the request is in flight (its handler waits for the body's end) when
    // shutdown begins, which it has once the listener is closed.
    s.get("/me").expect(200);
    let stopping = std::thread::spawn(move || s.stop());
    while TcpStream::connect(&addr).is_ok() {
        std::thread::yield_now();
    }
    raw.send(rest.as_bytes());
    let created = raw.answer().expect("the request in flight is answered");
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(created.closes(), "{}", created.head);
    assert!(raw.closed());
    let took = stopping.join().unwrap();
    assert!(took < Duration::from_secs(5), "shutdown took {took:?}");
}

#[test]
fn shutdown_gives_up_on_a_request_that_never_finishes() {
    let s = TestServer::configured(organiser_server::Config {
        shutdown_timeout: Duration::from_secs(1),
        ..TestServer::config()
    });
    let request = post(&s.token, r#"{"task_list":{"name":"Groceries"}}"#);
    let mut raw = Raw::connect(&s);
    // The head and part of the body, and then nothing.
    raw.send(&request.as_bytes()[..request.len() - 10]);
    s.get("/me").expect(200);
    let took = s.stop();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(3),
        "shutdown took {took:?}"
    );
    assert!(raw.closed());
}
