//! Operations declared once (document 1, "Conventions", "Read-only mode",
//! "Idempotency", "Authentication"; docs/api.md for ours). Each operation
//! of the API is one [`Operation`] value: its method and path, how it runs
//! (on a snapshot, on a settled snapshot, in a write transaction, or with
//! no transaction of its own), where each part of its input comes from
//! (the path, the query, the body, the raw bytes, the principal), how its
//! answer is written (status and envelope), its rate limit, and the
//! function that does the work. Every door comes from that one value:
//!
//! - the typed door, [`Door::call`] (in process: no JSON; the resources'
//!   handles, such as `org.tasks().create(..)`, are one line each over it);
//! - the route arm and the route inventory (`resources::OPERATIONS`);
//! - the request a remote door sends ([`Operation::request`]) and the
//!   reading of its answer ([`Operation::read_answer`]);
//! - the route limits and the raw-body rules the server applies;
//! - the operation's entry in the OpenAPI document.

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::endpoint::Endpoint;
use super::op::{PlainOp, ReadOp, Route, WriteOp};
use super::request::{Method, RawBody, Request, Response};
use super::{Inner, Organiser, ReadCx, WriteCx};
use crate::auth::Auth;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::limits::routes::RouteLimit;
use crate::list::Query;

/// How an operation runs, and its work. `P` is what a write's `prepare`
/// makes of the input before the transaction opens (the input itself for
/// most; a fetched feed, a decoded upload).
pub(crate) enum Run<I: 'static, O: 'static, P: 'static> {
    /// Reads a snapshot.
    Read(ReadOp, fn(&ReadCx<'_>, I) -> Result<O>),
    /// Prepares outside any transaction (when `Prepare::waits`, after the
    /// licence check), then writes in one.
    Write(WriteOp, Prepare<I, P>, fn(&mut WriteCx<'_>, P) -> Result<O>),
    /// No transaction of its own: memory, files, or a wait on the network
    /// between transactions it opens itself.
    Plain(PlainOp, fn(&Inner, I) -> Result<O>),
}

/// What a write does before its transaction opens.
pub(crate) struct Prepare<I: 'static, P: 'static> {
    /// Makes the transaction's input of the operation's.
    pub(crate) f: fn(&Inner, I) -> Result<P>,
    /// Whether it does real work (decoding, fetching): then the licence
    /// is checked before it, as well as in the transaction.
    pub(crate) waits: bool,
}

impl<I, P> Prepare<I, P> {
    /// Work done before the transaction: decoding, fetching.
    pub(crate) const fn with(f: fn(&Inner, I) -> Result<P>) -> Self {
        Prepare { f, waits: true }
    }
}

impl<I, O> Run<I, O, I> {
    /// A write with nothing to prepare before its transaction.
    pub(crate) const fn write(op: WriteOp, f: fn(&mut WriteCx<'_>, I) -> Result<O>) -> Self {
        Run::Write(
            op,
            Prepare {
                f: unprepared::<I>,
                waits: false,
            },
            f,
        )
    }
}

/// The input as it came: most writes prepare nothing.
fn unprepared<I>(_: &Inner, input: I) -> Result<I> {
    Ok(input)
}

/// How an answer's body is shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{data: O}`.
    Data,
    /// `O` itself (a page is `{data, meta}`; some answers are bare).
    Bare,
    /// No body (204).
    Empty,
    /// Bytes and headers of their own (a file, a redirect).
    Raw,
}

/// An answer of its own making (a file, a redirect), and how the output
/// is read back from one.
pub(crate) type RawAnswer<O> = (fn(O, &Request) -> Response, fn(&Response) -> Result<O>);

/// An HTTP answer written straight from the snapshot.
pub(crate) type HttpAnswer<I> = fn(&ReadCx<'_>, &I, &Request) -> Result<Response>;

/// A success's other status, and which status an output gets.
pub(crate) type StatusOf<O> = (u16, fn(&O) -> u16);

/// How an operation's output becomes its answer, and back.
pub(crate) struct Answer<O: 'static> {
    /// The status of a success.
    pub(crate) status: u16,
    /// The body's shape.
    pub(crate) shape: Shape,
    /// Makes the output's addresses absolute with the request's base URL
    /// (photos, files), for the answers that carry some.
    pub(crate) absolute: Option<fn(O, &str) -> O>,
    /// For [`Shape::Raw`]: the answer, and the output read back from one.
    pub(crate) raw: Option<RawAnswer<O>>,
    /// The status of a success when it depends on the output (a dry run
    /// answers 200 where the import answers 201): the other status it may
    /// answer, and which of the two an output gets.
    pub(crate) status_of: Option<StatusOf<O>>,
}

impl<O> Answer<O> {
    /// `{data: O}` with `status`.
    pub(crate) const fn data(status: u16) -> Answer<O> {
        Answer {
            status,
            shape: Shape::Data,
            absolute: None,
            raw: None,
            status_of: None,
        }
    }

    /// `O` itself with `status`.
    pub(crate) const fn bare(status: u16) -> Answer<O> {
        Answer {
            status,
            shape: Shape::Bare,
            absolute: None,
            raw: None,
            status_of: None,
        }
    }

    /// The same, with addresses made absolute by `f`.
    pub(crate) const fn absolute(self, f: fn(O, &str) -> O) -> Answer<O> {
        Answer {
            absolute: Some(f),
            ..self
        }
    }

    /// The same, answering `status` or `other` as `f` says of the
    /// output.
    pub(crate) const fn status_by(self, other: u16, f: fn(&O) -> u16) -> Answer<O> {
        Answer {
            status_of: Some((other, f)),
            ..self
        }
    }

    /// An answer of its own making (a file, a redirect), and how the
    /// output is read back from one.
    pub(crate) const fn raw(
        write: fn(O, &Request) -> Response,
        read: fn(&Response) -> Result<O>,
    ) -> Answer<O> {
        Answer {
            status: 200,
            shape: Shape::Raw,
            absolute: None,
            raw: Some((write, read)),
            status_of: None,
        }
    }
}

impl Answer<()> {
    /// 204 with no body.
    pub(crate) const fn empty() -> Answer<()> {
        Answer {
            status: 204,
            shape: Shape::Empty,
            absolute: None,
            raw: None,
            status_of: None,
        }
    }
}

/// What an operation gives back: written to JSON for the HTTP answer, read
/// back from it by a remote door.
pub trait Output: Serialize + DeserializeOwned + 'static {}

impl<O: Serialize + DeserializeOwned + 'static> Output for O {}

/// One API operation, declared once (see the module's docs). Its fields
/// are the core's; a door runs it ([`Door::call`]) and a remote door
/// writes its request ([`Operation::request`]) and reads its answer
/// ([`Operation::read_answer`]).
pub struct Operation<I: 'static, O: 'static, P: 'static = I> {
    /// The OpenAPI `operationId` (`createTask`).
    pub(crate) id: &'static str,
    /// The method.
    pub(crate) method: Method,
    /// Another method that does the same (PUT beside PATCH), with its own
    /// `operationId`.
    pub(crate) alias: Option<(Method, &'static str)>,
    /// The path template below `/api/v1`; `{name}` stands for one segment.
    pub(crate) path: &'static str,
    /// What it does, for the OpenAPI document: a summary line, then a
    /// description.
    pub(crate) doc: &'static str,
    /// How it runs, and its work.
    pub(crate) run: Run<I, O, P>,
    /// How its output is answered.
    pub(crate) answer: Answer<O>,
    /// Its HTTP answer written straight from the snapshot, where that is
    /// faster than writing the typed output (the same JSON).
    pub(crate) http: Option<HttpAnswer<I>>,
    /// The rate limit on top of the general one it counts against.
    pub(crate) limit: Option<&'static RouteLimit>,
    /// Only the web UI's session (or the owner at the machine) may ask:
    /// anyone else is refused before the request is read further.
    pub(crate) session: bool,
    /// For an operation whose body is bytes rather than JSON (an upload):
    /// what it accepts, from its query.
    pub(crate) raw: Option<fn(&Query) -> Result<RawRule>>,
    /// Served at the server's root rather than below `/api/v1` (the
    /// calendar feed): its path is the whole path.
    pub(crate) root: bool,
    /// The `{…}` segments of its path are secrets (a calendar feed's
    /// address): logs show the template instead.
    pub(crate) secret_path: bool,
    pub(crate) _input: PhantomData<fn(I) -> P>,
}

/// What an operation that takes bytes accepts: the size and the
/// `Content-Type`s, so that a server can answer 411, 413 and 415 before it
/// reads the body (the core checks the body again when it arrives).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RawRule {
    /// The accepted types.
    pub content_types: &'static [&'static str],
    /// The largest accepted body, in bytes.
    pub max_bytes: u64,
}

impl<I, O, P> Operation<I, O, P> {
    /// A declaration with nothing but its name, route, work and answer.
    pub(crate) const fn new(
        id: &'static str,
        method: Method,
        path: &'static str,
        doc: &'static str,
        run: Run<I, O, P>,
        answer: Answer<O>,
    ) -> Self {
        Operation {
            id,
            method,
            alias: None,
            path,
            doc,
            run,
            answer,
            http: None,
            limit: None,
            session: false,
            raw: None,
            root: false,
            secret_path: false,
            _input: PhantomData,
        }
    }

    /// The same, served at the server's root (not below `/api/v1`), its
    /// path's `{…}` segments secrets that no log shows.
    pub(crate) const fn at_root_with_secret(self) -> Self {
        Operation {
            root: true,
            secret_path: true,
            ..self
        }
    }

    /// The same, answering `method` too (as `id` in the OpenAPI document).
    pub(crate) const fn also(self, method: Method, id: &'static str) -> Self {
        Operation {
            alias: Some((method, id)),
            ..self
        }
    }

    /// The same, for a session (or the owner at the machine) only.
    pub(crate) const fn session_only(self) -> Self {
        Operation {
            session: true,
            ..self
        }
    }

    /// The same, counted against `limit` on top of the general one.
    pub(crate) const fn limited(self, limit: &'static RouteLimit) -> Self {
        Operation {
            limit: Some(limit),
            ..self
        }
    }

    /// The same, its body bytes as `rule` says.
    pub(crate) const fn raw_body(self, rule: fn(&Query) -> Result<RawRule>) -> Self {
        Operation {
            raw: Some(rule),
            ..self
        }
    }

    /// The same, its HTTP answer written by `f` straight from the snapshot.
    pub(crate) const fn answered_by(self, f: HttpAnswer<I>) -> Self {
        Operation {
            http: Some(f),
            ..self
        }
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The path template below `/api/v1`.
    pub fn path(&self) -> &'static str {
        self.path
    }

    /// The OpenAPI `operationId`.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Its routes: its method's, and its alias's.
    pub(crate) fn endpoints(&self) -> impl Iterator<Item = Endpoint> + use<I, O, P> {
        let path = self.path;
        std::iter::once(self.method)
            .chain(self.alias.map(|(m, _)| m))
            .map(move |m| Endpoint::new(m, path))
    }
}

/// The segments of a request's path that its template's `{…}` segments
/// matched, handed to the input's parts in order.
pub struct Args<'r> {
    template: std::str::Split<'static, char>,
    segments: std::slice::Iter<'r, &'r str>,
}

impl<'r> Args<'r> {
    fn of(template: &'static str, segments: &'r [&'r str]) -> Args<'r> {
        let template = template.strip_prefix('/').unwrap_or(template).split('/');
        Args {
            template,
            segments: segments.iter(),
        }
    }

    /// The next segment a `{…}` of the template matched.
    fn next(&mut self) -> Result<&'r str> {
        loop {
            let (Some(t), Some(s)) = (self.template.next(), self.segments.next()) else {
                return Err(Error::NotFound);
            };
            if t.starts_with('{') {
                return Ok(s);
            }
        }
    }
}

/// A request being written by a remote door: the path's segments in the
/// order of the template's `{…}`, the query, the body.
#[derive(Debug, Default)]
pub struct Outgoing {
    args: Vec<String>,
    query: Vec<(String, String)>,
    body: Option<Value>,
    raw: Option<RawBody>,
    if_none_match: Option<String>,
}

impl Outgoing {
    /// Sets the `If-None-Match` header.
    pub(crate) fn if_none_match(&mut self, tag: &str) {
        self.if_none_match = Some(tag.to_owned());
    }

    /// Adds a query parameter.
    pub(crate) fn query(&mut self, name: &str, value: impl Into<String>) {
        self.query.push((name.to_owned(), value.into()));
    }

    /// Sets the JSON body.
    pub(crate) fn body(&mut self, body: Value) {
        self.body = Some(body);
    }
}

/// One part of an operation's input: where it comes from in a request,
/// and how a remote door writes it there. Parts read from the path and
/// the query are read before a write's transaction and its licence check
/// (`early`); the body when the write runs.
pub trait Part: Sized + 'static {
    /// Reads the part from `req`.
    fn read(req: &Request, args: &mut Args<'_>) -> Result<Self>;

    /// Whether the part is read before a write runs (path and query).
    const EARLY: bool = false;

    /// Writes the part into a request.
    fn write(&self, out: &mut Outgoing);

    /// The part as the API would read it, for a caller in process: a
    /// query or a body is held to the same reading a request gets (its
    /// rules, and what it makes of what it takes), so that both doors
    /// refuse alike.
    fn checked(self) -> Result<Self> {
        Ok(self)
    }
}

/// An operation's input: one part, or a tuple of parts in the order they
/// are read (path segments in the template's order).
pub trait Input: Sized + 'static {
    /// Reads the whole input.
    fn read(req: &Request, args: &mut Args<'_>) -> Result<Self>;

    /// Reads and judges the parts that come before a write runs (path and
    /// query), for their errors.
    fn read_early(req: &Request, args: &mut Args<'_>) -> Result<()>;

    /// Writes the input into a request.
    fn write(&self, out: &mut Outgoing);

    /// The input as the API would read it ([`Part::checked`]).
    fn checked(self) -> Result<Self>;
}

impl Input for () {
    fn read(_: &Request, _: &mut Args<'_>) -> Result<()> {
        Ok(())
    }

    fn read_early(_: &Request, _: &mut Args<'_>) -> Result<()> {
        Ok(())
    }

    fn write(&self, _: &mut Outgoing) {}

    fn checked(self) -> Result<()> {
        Ok(())
    }
}

impl<A: Part> Input for A {
    fn read(req: &Request, args: &mut Args<'_>) -> Result<A> {
        A::read(req, args)
    }

    fn read_early(req: &Request, args: &mut Args<'_>) -> Result<()> {
        if A::EARLY {
            A::read(req, args)?;
        }
        Ok(())
    }

    fn write(&self, out: &mut Outgoing) {
        Part::write(self, out);
    }

    fn checked(self) -> Result<A> {
        Part::checked(self)
    }
}

macro_rules! tuple_input {
    ($($part:ident $n:tt),+) => {
        impl<$($part: Part),+> Input for ($($part,)+) {
            fn read(req: &Request, args: &mut Args<'_>) -> Result<Self> {
                Ok(($($part::read(req, args)?,)+))
            }

            fn read_early(req: &Request, args: &mut Args<'_>) -> Result<()> {
                $(
                    if $part::EARLY {
                        $part::read(req, args)?;
                    }
                )+
                Ok(())
            }

            fn write(&self, out: &mut Outgoing) {
                $(Part::write(&self.$n, out);)+
            }

            fn checked(self) -> Result<Self> {
                Ok(($(Part::checked(self.$n)?,)+))
            }
        }
    };
}

tuple_input!(A 0, B 1);
tuple_input!(A 0, B 1, C 2);

/// A record's ID in the path.
impl Part for Id {
    const EARLY: bool = true;

    fn read(_: &Request, args: &mut Args<'_>) -> Result<Id> {
        Id::from_path(args.next()?)
    }

    fn write(&self, out: &mut Outgoing) {
        out.args.push(self.to_string());
    }
}

/// A path segment as it is (a signed photo ID, a size).
impl Part for String {
    const EARLY: bool = true;

    fn read(_: &Request, args: &mut Args<'_>) -> Result<String> {
        Ok(args.next()?.to_owned())
    }

    fn write(&self, out: &mut Outgoing) {
        out.args.push(self.clone());
    }
}

/// A number in the path (an API token's): anything else is 404.
impl Part for u64 {
    const EARLY: bool = true;

    fn read(_: &Request, args: &mut Args<'_>) -> Result<u64> {
        args.next()?.parse().map_err(|_| Error::NotFound)
    }

    fn write(&self, out: &mut Outgoing) {
        out.args.push(self.to_string());
    }
}

/// The server's address as the client reached it (discovery names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaseUrl(pub(crate) String);

impl Part for BaseUrl {
    const EARLY: bool = true;

    fn read(req: &Request, _: &mut Args<'_>) -> Result<BaseUrl> {
        Ok(BaseUrl(req.base_url.clone()))
    }

    fn write(&self, _: &mut Outgoing) {}
}

/// Whether the request came over plain HTTP (`System.plain_http`): a
/// transport's to say, not a caller's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PlainHttp(pub(crate) bool);

impl Part for PlainHttp {
    const EARLY: bool = true;

    fn read(req: &Request, _: &mut Args<'_>) -> Result<PlainHttp> {
        Ok(PlainHttp(req.plain_http))
    }

    fn write(&self, _: &mut Outgoing) {}
}

/// Who is asking (the typed door asks as the owner at the machine).
impl Part for Auth {
    const EARLY: bool = true;

    fn read(req: &Request, _: &mut Args<'_>) -> Result<Auth> {
        Ok(req.auth.clone())
    }

    fn write(&self, _: &mut Outgoing) {}
}

/// The bytes of an operation that takes them: a JSON body where bytes
/// belong is 415, no body at all 411.
impl Part for RawBody {
    fn read(req: &Request, _: &mut Args<'_>) -> Result<RawBody> {
        match (&req.raw, &req.body) {
            (Some(raw), _) => Ok(raw.clone()),
            (None, Some(_)) => Err(Error::UnsupportedMediaType),
            (None, None) => Err(Error::LengthRequired),
        }
    }

    fn write(&self, out: &mut Outgoing) {
        out.raw = Some(self.clone());
    }
}

/// Declares how a query type is a [`Part`]: read with its `parse`, written
/// with its `query_pairs`.
macro_rules! query_part {
    ($($t:ty),+ $(,)?) => {
        $(
            impl $crate::engine::operation::Part for $t {
                const EARLY: bool = true;

                fn read(
                    req: &$crate::engine::request::Request,
                    _: &mut $crate::engine::operation::Args<'_>,
                ) -> $crate::error::Result<Self> {
                    <$t>::parse(&req.query)
                }

                fn write(&self, out: &mut $crate::engine::operation::Outgoing) {
                    for (name, value) in self.query_pairs() {
                        out.query(name, value);
                    }
                }

                fn checked(self) -> $crate::error::Result<Self> {
                    <$t>::parse(&$crate::list::Query::from_pairs(self.query_pairs()))
                }
            }
        )+
    };
}
pub(crate) use query_part;

/// Declares how a body type is a [`Part`]: read by `parse` from the body,
/// written as `{key: input}` (or as itself with no key).
macro_rules! body_part {
    ($t:ty, $parse:expr, $key:expr) => {
        impl $crate::engine::operation::Part for $t {
            fn read(
                req: &$crate::engine::request::Request,
                _: &mut $crate::engine::operation::Args<'_>,
            ) -> $crate::error::Result<Self> {
                ($parse)(req.body.as_ref())
            }

            fn write(&self, out: &mut $crate::engine::operation::Outgoing) {
                out.body(Self::body(self));
            }

            fn checked(self) -> $crate::error::Result<Self> {
                ($parse)(Some(&Self::body(&self)))
            }
        }

        impl $t {
            /// The body a request of it sends: `{key: input}`, or the
            /// input itself.
            fn body(&self) -> serde_json::Value {
                let value = serde_json::to_value(self).unwrap_or_default();
                let key: Option<&str> = $key;
                match key {
                    Some(key) => serde_json::json!({ key: value }),
                    None => value,
                }
            }
        }
    };
}
pub(crate) use body_part;

/// An input as a change reads it, where that differs from a create's
/// reading (a field taken only when a record is made is refused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub(crate) struct Changing<T>(pub(crate) T);

/// Runs operations: the store itself ([`Organiser`]), or a server that
/// holds one (a remote door writes each operation's request and reads its
/// answer).
pub trait Door {
    /// Runs `op` with `input`.
    ///
    /// # Errors
    ///
    /// The operation's own errors, as the API names them; a remote door
    /// adds its transport's (an unreachable server is
    /// [`Error::Internal`]).
    fn call<I: Input, O: Output, P>(&self, op: &'static Operation<I, O, P>, input: I) -> Result<O>;
}

impl Door for Organiser {
    fn call<I: Input, O: Output, P>(&self, op: &'static Operation<I, O, P>, input: I) -> Result<O> {
        op.call(&self.inner, input)
    }
}

impl<I: Input, O: Serialize + 'static, P> Operation<I, O, P> {
    /// Runs the operation in process, as the owner at the machine: as its
    /// route runs it (the licence check of a licensed write comes before
    /// its preparation, and again in its transaction), without JSON.
    pub(crate) fn call(&'static self, inner: &Inner, input: I) -> Result<O> {
        let input = input.checked()?;
        match &self.run {
            Run::Read(op, f) => inner.read_op(op, |cx| f(cx, input)),
            Run::Write(op, prepare, f) => {
                if op.licensed() && prepare.waits {
                    inner.require_writable()?;
                }
                let prepared = (prepare.f)(inner, input)?;
                inner.write_op(op, |cx| f(cx, prepared))
            }
            Run::Plain(op, f) => {
                if op.is_licensed() {
                    inner.require_writable()?;
                }
                f(inner, input)
            }
        }
    }

    /// The HTTP answer of `output` to `req`.
    pub(crate) fn respond(&self, output: O, req: &Request) -> Response {
        if let Some((write, _)) = self.answer.raw {
            return write(output, req);
        }
        let output = match self.answer.absolute {
            Some(f) => f(output, &req.base_url),
            None => output,
        };
        self.render(output)
    }

    /// The answer's body as the API writes it.
    fn render(&self, output: O) -> Response {
        let status = self
            .answer
            .status_of
            .map_or(self.answer.status, |(_, f)| f(&output));
        match (self.answer.shape, self.answer.raw) {
            (Shape::Data, _) => Response::data(status, &output),
            (Shape::Bare, _) => Response::json(status, &output),
            (Shape::Empty | Shape::Raw, _) => Response::no_content(),
        }
    }

    /// The JSON the API answers for `output` (null for no body, and for
    /// an answer that is no JSON), its addresses as they are: what a
    /// caller in process prints where a remote one prints the body it got.
    pub fn body(&self, output: &O) -> Value {
        let value = || serde_json::to_value(output).unwrap_or_default();
        match self.answer.shape {
            Shape::Data => serde_json::json!({ "data": value() }),
            Shape::Bare => value(),
            Shape::Empty | Shape::Raw => Value::Null,
        }
    }

    /// The request a remote door sends for `input`: the method, the path
    /// with the input's segments, the query and the body, as the owner at
    /// the machine (the door sends its own credentials).
    pub fn request(&self, input: &I) -> Request {
        let mut out = Outgoing::default();
        input.write(&mut out);
        let mut args = out.args.into_iter();
        let path: Vec<String> = self
            .path
            .split('/')
            .map(|s| {
                if s.starts_with('{') {
                    args.next().unwrap_or_default()
                } else {
                    s.to_owned()
                }
            })
            .collect();
        let mut request = Request::new(self.method, path.join("/"), Auth::Local)
            .with_query(Query::from_pairs(out.query));
        request.at_root = self.root;
        request.if_none_match = out.if_none_match;
        request.body = out.body;
        request.raw = out.raw;
        request
    }
}

impl<I: Input, O: Output, P> Operation<I, O, P> {
    /// The output a remote door reads from `response`, or the error the
    /// API answered.
    ///
    /// # Errors
    ///
    /// The API's error as the core's [`Error`]; an answer this build cannot
    /// read is [`Error::Internal`].
    pub fn read_answer(&self, response: &Response) -> Result<O> {
        if response.status >= 400 {
            return Err(Error::from_answer(response.status, &response.json_value()));
        }
        let unreadable = |e: serde_json::Error| {
            Error::Internal(format!("{}: an unreadable answer: {e}", self.id))
        };
        match (self.answer.shape, self.answer.raw) {
            (Shape::Raw, Some((_, read))) => read(response),
            (Shape::Data, _) => {
                let mut body = response.json_value();
                O::deserialize(body["data"].take()).map_err(unreadable)
            }
            (Shape::Bare | Shape::Raw, _) => {
                O::deserialize(response.json_value()).map_err(unreadable)
            }
            (Shape::Empty, _) => O::deserialize(Value::Null).map_err(unreadable),
        }
    }
}

/// What an operation's declaration says for the OpenAPI document.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Described {
    /// Its `operationId`.
    pub(crate) id: &'static str,
    /// Its method.
    pub(crate) method: Method,
    /// Another method it answers, with that one's `operationId`.
    pub(crate) alias: Option<(Method, &'static str)>,
    /// Its path template below `/api/v1`.
    pub(crate) path: &'static str,
    /// Its summary line, then its description.
    pub(crate) doc: &'static str,
    /// Whether it answers without a principal.
    pub(crate) public: bool,
    /// Whether its path is at the server's root, not below `/api/v1`.
    pub(crate) root: bool,
    /// The status of a success, when its answer is JSON or empty (an
    /// answer of its own making, a file or a redirect, says its own).
    pub(crate) success: Option<u16>,
    /// The other status of a success, for one whose status depends on
    /// its output.
    pub(crate) other_success: Option<u16>,
}

/// An operation with its types forgotten: what the dispatch, the route
/// inventory, the server's limits and the OpenAPI document see.
pub(crate) trait Declared: Sync {
    /// Its routes (its method's, and an alias's).
    fn endpoints(&self) -> Vec<Endpoint>;

    /// What the OpenAPI document says of it that its declaration knows.
    fn described(&self) -> Described;

    /// The rate limit it counts against, on top of the general one.
    fn limit(&self) -> Option<&'static RouteLimit>;

    /// What it accepts, for an operation whose body is bytes.
    fn raw_rule(&self) -> Option<fn(&Query) -> Result<RawRule>>;

    /// The route arm of a request for it: the parts read early are read
    /// now, the rest when it runs.
    fn route<'r>(&'static self, req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>>;

    /// Whether it is served at the server's root, not below `/api/v1`.
    fn at_root(&self) -> bool;

    /// Whether its path's `{…}` segments are secrets no log shows.
    fn secret_path(&self) -> bool;
}

impl<I: Input, O: Serialize + 'static, P> Declared for Operation<I, O, P> {
    fn endpoints(&self) -> Vec<Endpoint> {
        Operation::endpoints(self).collect()
    }

    fn described(&self) -> Described {
        Described {
            id: self.id,
            method: self.method,
            alias: self.alias,
            path: self.path,
            doc: self.doc,
            public: match &self.run {
                Run::Plain(op, _) => op.is_public(),
                Run::Read(op, _) => op.is_public(),
                Run::Write(..) => false,
            },
            root: self.root,
            success: (self.answer.shape != Shape::Raw).then_some(self.answer.status),
            other_success: self.answer.status_of.map(|(other, _)| other),
        }
    }

    fn limit(&self) -> Option<&'static RouteLimit> {
        self.limit
    }

    fn raw_rule(&self) -> Option<fn(&Query) -> Result<RawRule>> {
        self.raw
    }

    fn at_root(&self) -> bool {
        self.root
    }

    fn secret_path(&self) -> bool {
        self.secret_path
    }

    fn route<'r>(&'static self, req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
        // A root route is not below `/api/v1`, nor an API route at the root.
        if self.root != req.at_root {
            return Err(Error::NotFound);
        }
        if self.session {
            req.auth.require_session()?;
        }
        let template = self.path;
        Ok(match &self.run {
            Run::Read(op, f) => {
                let input = I::read(req, &mut Args::of(template, segments))?;
                match self.http {
                    Some(http) => op.route(move |cx| http(cx, &input, req)),
                    None => op.route(move |cx| Ok(self.respond(f(cx, input)?, req))),
                }
            }
            Run::Write(op, prepare, f) => {
                I::read_early(req, &mut Args::of(template, segments))?;
                let segments: Vec<&'r str> = segments.to_vec();
                let prepare = prepare.f;
                op.route_with(
                    move |inner| prepare(inner, I::read(req, &mut Args::of(template, &segments))?),
                    move |cx, prepared| Ok(self.respond(f(cx, prepared)?, req)),
                )
            }
            Run::Plain(op, f) => {
                let input = I::read(req, &mut Args::of(template, segments))?;
                op.route(move |inner| Ok(self.respond(f(inner, input)?, req)))
            }
        })
    }
}

/// A door that runs every operation as a signed-in session: through the
/// request the declaration writes, with the session as its principal,
/// and the answer read back, as the API would answer the session's
/// browser. An adapter that signs people in (the web app) uses it, so
/// what differs between a session and the owner at the machine (a
/// password change asks for the current password) holds there too.
#[derive(Debug, Clone)]
pub struct AsSession<'a> {
    org: &'a Organiser,
    csrf_token: String,
}

impl Organiser {
    /// The door of the session whose CSRF token is `csrf_token` (one
    /// [`Organiser::authenticate_session`] found).
    pub fn as_session(&self, csrf_token: impl Into<String>) -> AsSession<'_> {
        AsSession {
            org: self,
            csrf_token: csrf_token.into(),
        }
    }
}

impl Door for AsSession<'_> {
    fn call<I: Input, O: Output, P>(&self, op: &'static Operation<I, O, P>, input: I) -> Result<O> {
        let mut request = op.request(&input.checked()?);
        request.auth = Auth::Session {
            csrf_token: self.csrf_token.clone(),
        };
        op.read_answer(&self.org.handle(&request))
    }
}

/// A door that runs every operation as a remote one does, through the
/// request it writes and the answer it reads, against a store in this
/// process (`handle`): for the tests that hold both doors to one answer.
#[cfg(test)]
pub(crate) struct ThroughRequests<'a>(pub(crate) &'a Organiser);

#[cfg(test)]
impl Door for ThroughRequests<'_> {
    fn call<I: Input, O: Output, P>(&self, op: &'static Operation<I, O, P>, input: I) -> Result<O> {
        let request = op.request(&input);
        op.read_answer(&self.0.handle(&request))
    }
}
