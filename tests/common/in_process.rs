//! The client of the rule tests: the calls of [`TestServer`](super::TestServer)
//! (`get`, `post`, `patch`, `put`, `delete`, `req(..)`/`local(..)` with
//! [`send`](super::send)) answering the same [`Reply`], but each request is
//! an [`organiser::server::Request`] handed straight to [`Organiser::handle`] on an
//! in-memory store whose [`ManualClock`] the test moves. No socket, no
//! server, no runtime.
//!
//! It makes each request as `organiser-server/src/handler.rs` does:
//!
//! - the path below `/api/v1`, and the query after `?` decoded by
//!   [`Query::parse`] (so a repeated or malformed parameter is the same 400);
//! - the test's API token checked by [`Organiser::authenticate_token`] on
//!   every request, before anything else (a bad one is the same 401, and its
//!   `last_used_at` is kept as the server keeps it); the local administrator
//!   token is [`Auth::Local`]; no credentials is [`Auth::Anonymous`];
//! - the JSON body as it arrives over the wire (serialised and parsed
//!   again), or none;
//! - `Idempotency-Key`, refused as the server refuses a header value that
//!   is not visible ASCII;
//! - plain HTTP (no TLS proxy in front), as the tests' loopback server is.
//!
//! And it renders the answer as `handler::render` does: the status, a JSON
//! content type when there is a body, and `Idempotent-Replayed: true` on a
//! replayed response (the HTTP tests check that header over the wire);
//! every answer is checked against `docs/openapi.json` (`super::openapi`).
//!
//! What only the server does is not here and is tested over HTTP in
//! `tests/http`: sessions and cookies, CSRF, 401 for a malformed
//! `Authorization` header, 413/415, bytes that are not JSON, rate
//! limits, request ids and the version header, a panic as 500, discovery's
//! address (and shutdown, through the binary in `tests/cli`).

use std::fmt;
use std::sync::Arc;

use organiser::{
    Auth, Error, Organiser, clock::ManualClock, list::Query, server::Method, server::Request,
    server::Response,
};
use serde_json::Value;

use super::{Reply, Sendable, Setup, send};

/// The core of one test, in process.
pub struct Core {
    pub org: Organiser,
    pub clock: ManualClock,
    /// The API token `get`, `post`, ... and `req` send (named `tests`).
    pub token: String,
}

/// Who sends a [`Call`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The test's API token ([`Core::token`]).
    Token,
    /// The local administrator token: the owner at the machine.
    Local,
    /// No credentials.
    Nobody,
}

/// One request as data, for a table of cases: method, path below `/api/v1`
/// with its query, JSON body, who sends it and its `Idempotency-Key`.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: Method,
    pub path: String,
    pub body: Option<Value>,
    pub who: Who,
    pub idempotency_key: Option<String>,
    /// A raw body (an upload): its `Content-Type` and bytes.
    pub raw: Option<(String, Vec<u8>)>,
}

impl Call {
    /// `method path` with the test's token, no body and no key.
    pub fn new(method: &str, path: impl Into<String>) -> Call {
        Call {
            method: Method::parse(method)
                .unwrap_or_else(|| panic!("{method}: the server answers it with 404 itself")),
            path: path.into(),
            body: None,
            who: Who::Token,
            idempotency_key: None,
            raw: None,
        }
    }

    pub fn get(path: impl Into<String>) -> Call {
        Call::new("GET", path)
    }

    pub fn post(path: impl Into<String>, body: Value) -> Call {
        Call::new("POST", path).json(body)
    }

    pub fn patch(path: impl Into<String>, body: Value) -> Call {
        Call::new("PATCH", path).json(body)
    }

    pub fn put(path: impl Into<String>, body: Value) -> Call {
        Call::new("PUT", path).json(body)
    }

    pub fn delete(path: impl Into<String>) -> Call {
        Call::new("DELETE", path)
    }

    /// With this JSON body.
    pub fn json(self, body: Value) -> Call {
        self.body(Some(body))
    }

    /// With this JSON body, or none.
    pub fn body(mut self, body: Option<Value>) -> Call {
        self.body = body;
        self
    }

    /// `method path` with these bytes as the body, of this `Content-Type`
    /// (a photo sent to `/people/{id}/avatar`).
    pub fn raw(method: &str, path: impl Into<String>, content_type: &str, bytes: Vec<u8>) -> Call {
        let mut call = Call::new(method, path);
        call.raw = Some((content_type.to_owned(), bytes));
        call
    }

    /// `POST /uploads?{query}` with these bytes and `Content-Type`.
    pub fn upload(query: &str, content_type: &str, bytes: Vec<u8>) -> Call {
        let mut call = Call::new("POST", format!("/uploads?{query}"));
        call.raw = Some((content_type.to_owned(), bytes));
        call
    }

    /// Sent by the owner at the machine (the local administrator token).
    pub fn local(mut self) -> Call {
        self.who = Who::Local;
        self
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method.as_str(), self.path)?;
        if let Some(body) = &self.body {
            write!(f, " {body}")?;
        }
        Ok(())
    }
}

/// A [`Call`] on its way to a [`Core`], built as a `reqwest` request is.
pub struct CoreRequest<'a> {
    core: &'a Core,
    call: Call,
}

impl CoreRequest<'_> {
    /// With this JSON body.
    pub fn json(mut self, body: &Value) -> Self {
        self.call.body = Some(body.clone());
        self
    }

    /// With this header. Only `Idempotency-Key` reaches the core; any other
    /// header is the server's business and panics here.
    pub fn header(mut self, name: &str, value: impl AsRef<str>) -> Self {
        assert!(
            name.eq_ignore_ascii_case("idempotency-key"),
            "{name}: a transport header; test it over HTTP (tests/http)"
        );
        self.call.idempotency_key = Some(value.as_ref().to_owned());
        self
    }
}

impl Sendable for CoreRequest<'_> {
    fn send_now(self) -> Reply {
        self.core.call(&self.call)
    }
}

impl Core {
    pub fn start() -> Core {
        Core::with(Setup::default())
    }

    pub fn with(setup: Setup) -> Core {
        assert_eq!(
            setup.rate_limit, 0,
            "rate limits are the server's: test them over HTTP"
        );
        let clock = ManualClock::at(setup.now);
        let mut options = setup.options;
        options.clock = Arc::new(clock.clone());
        let org = Organiser::in_memory_with(options);
        Core::over(org, clock)
    }

    /// As [`Core::with`], with the tests' licence key trusted and a
    /// licence added (updates until 2099), so a test may move the clock
    /// past the 14-day trial without falling into read-only mode.
    pub fn licensed(mut setup: Setup) -> Core {
        setup.options.licence_public_key = super::licence_signer().verifying_key();
        let s = Core::with(setup);
        send(
            s.local("PUT", "/licence")
                .json(&serde_json::json!({"key": super::licence_key("K-1", "2099-01-01")})),
        )
        .expect(200);
        s
    }

    /// Over an existing store, with a new API token.
    pub fn over(org: Organiser, clock: ManualClock) -> Core {
        let token = org.account().create_token("tests", None).unwrap().secret;
        Core { org, clock, token }
    }

    /// A request with the test's API token.
    pub fn req(&self, method: &str, path: &str) -> CoreRequest<'_> {
        CoreRequest {
            core: self,
            call: Call::new(method, path),
        }
    }

    /// As the owner at the machine (the local administrator token).
    pub fn local(&self, method: &str, path: &str) -> CoreRequest<'_> {
        CoreRequest {
            core: self,
            call: Call::new(method, path).local(),
        }
    }

    /// A request with no credentials.
    pub fn bare(&self, method: &str, path: &str) -> CoreRequest<'_> {
        let mut call = Call::new(method, path);
        call.who = Who::Nobody;
        CoreRequest { core: self, call }
    }

    pub fn get(&self, path: &str) -> Reply {
        send(self.req("GET", path))
    }

    pub fn post(&self, path: &str, body: Value) -> Reply {
        send(self.req("POST", path).json(&body))
    }

    pub fn patch(&self, path: &str, body: Value) -> Reply {
        send(self.req("PATCH", path).json(&body))
    }

    pub fn put(&self, path: &str, body: Value) -> Reply {
        send(self.req("PUT", path).json(&body))
    }

    pub fn delete(&self, path: &str) -> Reply {
        send(self.req("DELETE", path))
    }

    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
    }

    /// Sends `call` to the core and reads the answer.
    pub fn call(&self, call: &Call) -> Reply {
        let response = match self.request(call) {
            Ok(request) => self.org.handle(&request),
            Err(error) => Response::error(&error),
        };
        let mut headers = reqwest::header::HeaderMap::new();
        if response.body.is_some() {
            headers.insert(
                reqwest::header::CONTENT_TYPE,
                reqwest::header::HeaderValue::from_static("application/json"),
            );
        }
        if response.replayed {
            headers.insert(
                "idempotent-replayed",
                reqwest::header::HeaderValue::from_static("true"),
            );
        }
        let body = response.body.as_deref().unwrap_or_default();
        super::openapi::check(&super::openapi::Seen {
            method: call.method.as_str(),
            path: &format!("/api/v1{}", call.path),
            status: response.status,
            content_type: response.body.as_ref().map(|_| "application/json"),
            body,
            in_process: true,
        });
        Reply::read(response.status, headers, body)
    }

    /// The [`Request`] the server would hand the core for `call`, or the
    /// error it would answer with first (in the server's order).
    fn request(&self, call: &Call) -> Result<Request, Error> {
        assert!(
            call.path.starts_with('/') && !call.path.starts_with("//"),
            "{call}: not a path below /api/v1; test it over HTTP"
        );
        assert!(
            call.path.bytes().all(|b| b.is_ascii_graphic()),
            "{call}: a path the HTTP client would percent-encode"
        );
        let (path, query) = call.path.split_once('?').unwrap_or((&call.path, ""));
        let auth = match call.who {
            Who::Token => self.org.authenticate_token(&self.token)?,
            Who::Local => Auth::Local,
            Who::Nobody => Auth::Anonymous,
        };
        // What arrives is the body's bytes, parsed.
        let body = call
            .body
            .as_ref()
            .map(|body| serde_json::from_slice(&serde_json::to_vec(body).unwrap()).unwrap());
        let query = Query::parse(query)?;
        let idempotency_key = match &call.idempotency_key {
            None => None,
            Some(key) if key.bytes().all(|b| b == b'\t' || (32..127).contains(&b)) => {
                Some(key.clone())
            }
            Some(_) => {
                return Err(Error::bad_param("Idempotency-Key", "must be visible ASCII"));
            }
        };
        let mut request = Request::new(call.method, path, auth).with_query(query);
        request.body = body;
        if let Some((content_type, bytes)) = &call.raw {
            request = request.with_raw(content_type.clone(), bytes.clone());
        }
        request.idempotency_key = idempotency_key;
        request.plain_http = true;
        Ok(request)
    }
}
