//! The one dispatch entry point (DESIGN.md "The core"): `handle(request)`
//! maps method, path, query and JSON body onto the core's operations and
//! renders the spec's envelope (document 1, "Conventions"). Both adapters
//! call it: the server for every API route, the CLI in-process.

mod query;
mod routes;

pub use query::Query;

use serde::Serialize;
use serde_json::Value;

use crate::account::Auth;
use crate::error::{Error, Result};
use crate::idempotency::{self, Begin};
use crate::licence;
use crate::organiser::{Inner, Organiser, ReadCx, WriteCx};

/// An HTTP method the API uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl Method {
    /// Parses an HTTP method name; `None` for one the API does not use.
    pub fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "GET" | "HEAD" => Method::Get,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            _ => return None,
        })
    }

    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// One API request, as an adapter hands it over.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path below `/api/v1`, e.g. `/tasks/01ARZ3NDEKTSV4RRFFQ69G5FAV`.
    pub path: String,
    /// The decoded query.
    pub query: Query,
    /// The parsed JSON body, when one was sent.
    pub body: Option<Value>,
    /// Who is asking.
    pub auth: Auth,
    /// The `Idempotency-Key` header.
    pub idempotency_key: Option<String>,
    /// Whether the request came over plain HTTP (for `System.plain_http`).
    pub plain_http: bool,
    /// The server's address as the client reached it (for discovery).
    pub base_url: String,
}

impl Request {
    /// A request with no query, body or key, made by `auth`.
    pub fn new(method: Method, path: impl Into<String>, auth: Auth) -> Request {
        Request {
            method,
            path: path.into(),
            query: Query::default(),
            body: None,
            auth,
            idempotency_key: None,
            plain_http: true,
            base_url: String::new(),
        }
    }

    /// With this query.
    pub fn with_query(mut self, query: Query) -> Request {
        self.query = query;
        self
    }

    /// With this JSON body.
    pub fn with_body(mut self, body: Value) -> Request {
        self.body = Some(body);
        self
    }
}

/// The answer to a [`Request`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body; `None` for 204.
    pub body: Option<Vec<u8>>,
    /// Whether this is a stored response replayed for an `Idempotency-Key`.
    pub replayed: bool,
}

impl Response {
    /// `{data: value}` with `status`.
    pub fn data(status: u16, value: &impl Serialize) -> Response {
        #[derive(Serialize)]
        struct Envelope<'a, T> {
            data: &'a T,
        }
        Response::json(status, &Envelope { data: value })
    }

    /// `value` as the body, unwrapped.
    pub fn json(status: u16, value: &impl Serialize) -> Response {
        // Most bodies are a few hundred bytes to a few dozen kilobytes:
        // start big enough to skip the first rounds of growing.
        let mut body = Vec::with_capacity(1024);
        match serde_json::to_writer(&mut body, value) {
            Ok(()) => Response {
                status,
                body: Some(body),
                replayed: false,
            },
            Err(e) => Response::error(&Error::Internal(format!("rendering: {e}"))),
        }
    }

    /// 204 with no body.
    pub fn no_content() -> Response {
        Response {
            status: 204,
            body: None,
            replayed: false,
        }
    }

    /// The error body with the error's status.
    pub fn error(error: &Error) -> Response {
        Response {
            status: error.status(),
            body: Some(error.to_body().to_string().into_bytes()),
            replayed: false,
        }
    }

    /// The body as JSON (`Null` for none).
    pub fn json_value(&self) -> Value {
        self.body
            .as_deref()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or(Value::Null)
    }
}

type ReadOp<'r> = Box<dyn FnOnce(&ReadCx<'_>) -> Result<Response> + 'r>;
type WriteOp<'r> = Box<dyn FnOnce(&mut WriteCx<'_>) -> Result<Response> + 'r>;
type PlainOp<'r> = Box<dyn FnOnce(&Inner) -> Result<Response> + 'r>;

/// How a route runs.
pub(crate) enum Op<'r> {
    /// On a snapshot.
    Read(ReadOp<'r>),
    /// On a snapshot in which what the clock made due (expiry, the today
    /// set, permanent deletes) is settled: every read of tasks and lists.
    ReadSettled(ReadOp<'r>),
    /// In one write transaction.
    Write(WriteOp<'r>),
    /// With no transaction of its own (fixed data, or work that waits on the network).
    Plain(PlainOp<'r>),
}

/// A matched route.
pub(crate) struct Route<'r> {
    pub(crate) op: Op<'r>,
    /// Allowed while the licence is read-only (document 1, "Read-only mode").
    pub(crate) read_only_exempt: bool,
    /// A creating or restoring POST that honours `Idempotency-Key`.
    pub(crate) idempotent: bool,
    /// Answers without authentication.
    pub(crate) public: bool,
}

impl<'r> Route<'r> {
    pub(crate) fn read(f: impl FnOnce(&ReadCx<'_>) -> Result<Response> + 'r) -> Self {
        Route {
            op: Op::Read(Box::new(f)),
            read_only_exempt: false,
            idempotent: false,
            public: false,
        }
    }

    pub(crate) fn read_settled(f: impl FnOnce(&ReadCx<'_>) -> Result<Response> + 'r) -> Self {
        Route {
            op: Op::ReadSettled(Box::new(f)),
            read_only_exempt: false,
            idempotent: false,
            public: false,
        }
    }

    pub(crate) fn write(f: impl FnOnce(&mut WriteCx<'_>) -> Result<Response> + 'r) -> Self {
        Route {
            op: Op::Write(Box::new(f)),
            read_only_exempt: false,
            idempotent: false,
            public: false,
        }
    }

    pub(crate) fn plain(f: impl FnOnce(&Inner) -> Result<Response> + 'r) -> Self {
        Route {
            op: Op::Plain(Box::new(f)),
            read_only_exempt: false,
            idempotent: false,
            public: false,
        }
    }

    /// Allowed in read-only mode.
    pub(crate) fn exempt(mut self) -> Self {
        self.read_only_exempt = true;
        self
    }

    /// Honours `Idempotency-Key`.
    pub(crate) fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self
    }

    /// Needs no token.
    pub(crate) fn public(mut self) -> Self {
        self.public = true;
        self
    }
}

impl Organiser {
    /// Answers one API request: the whole of the JSON API below `/api/v1`.
    pub fn handle(&self, request: &Request) -> Response {
        match self.inner.handle(request) {
            Ok(response) => response,
            Err(error) => {
                if error.status() == 500 {
                    tracing::error!(%error, method = request.method.as_str(), path = %request.path, "request failed");
                }
                Response::error(&error)
            }
        }
    }
}

impl Inner {
    fn handle(&self, request: &Request) -> Result<Response> {
        let route = routes::route(request);
        // Without credentials only public routes answer; an unknown route
        // or a malformed query is 401 too, so nothing is revealed.
        if request.auth == Auth::Anonymous && !route.as_ref().is_ok_and(|r| r.public) {
            return Err(Error::Unauthorized);
        }
        let route = route?;
        if request.method != Method::Get && !route.read_only_exempt {
            self.read(licence::require_writable)?;
        }
        let key = request
            .idempotency_key
            .as_deref()
            .filter(|_| route.idempotent);
        let Some(key) = key else {
            return self.run(route.op);
        };
        if !request.auth.allows_idempotency_key() {
            return Err(Error::bad_param(
                "Idempotency-Key",
                "is accepted only with bearer-token authentication",
            ));
        }
        idempotency::check_key(key)?;
        let fingerprint = idempotency::fingerprint(
            request.method.as_str(),
            &request.path,
            request.body.as_ref(),
        );
        let claim = match idempotency::begin(self, key, fingerprint)? {
            Begin::Replay { status, body } => {
                return Ok(Response {
                    status,
                    body: body.map(String::into_bytes),
                    replayed: true,
                });
            }
            Begin::Run(claim) => claim,
        };
        match route.op {
            Op::Write(f) => self.write(|cx| {
                let response = f(cx)?;
                let body = response.body.as_deref().map(String::from_utf8_lossy);
                idempotency::save(cx, &claim, response.status, body.as_deref())?;
                Ok(response)
            }),
            other => self.run(other),
        }
    }

    fn run(&self, op: Op<'_>) -> Result<Response> {
        match op {
            Op::Read(f) => self.read(f),
            Op::ReadSettled(f) => self.read_settled(f),
            Op::Write(f) => self.write(f),
            Op::Plain(f) => f(self),
        }
    }
}
