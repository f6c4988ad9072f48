//! The calendar feeds' operations (document 3, "Calendar feeds"), each
//! declared once for the typed method and the route arm. Create and an
//! address change fetch before their transaction opens; the syncs wait on
//! the network between transactions of their own.

use super::{
    CalendarFeed, CalendarFeedInput, CalendarFeedQuery, change, create, delete, get, list, parse,
    prepare, sync,
};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;

static LIST: ReadOp = ReadOp::PLAIN.kept();
static GET: ReadOp = ReadOp::PLAIN;
/// Fetches the address (up to 30 s) before its transaction.
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
/// Waits on the network between its own transactions; refused while the
/// licence is read-only.
static SYNC: PlainOp = PlainOp::WAITS;

impl Organiser {
    /// `GET /calendar_feeds`.
    pub fn calendar_feeds(&self, query: &CalendarFeedQuery) -> Result<Page<CalendarFeed>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /calendar_feeds`: fetches the address first (waits up to
    /// 30 s; call it where blocking is fine).
    pub fn create_calendar_feed(&self, input: &CalendarFeedInput) -> Result<CalendarFeed> {
        let prepared = prepare(&self.inner, None, input)?;
        self.inner.write_op(&CREATE, |cx| create(cx, prepared))
    }

    /// `GET /calendar_feeds/{id}`.
    pub fn calendar_feed(&self, id: Id) -> Result<CalendarFeed> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /calendar_feeds/{id}`: a new address is fetched first.
    pub fn change_calendar_feed(&self, id: Id, input: &CalendarFeedInput) -> Result<CalendarFeed> {
        let prepared = prepare(&self.inner, Some(id), input)?;
        self.inner.write_op(&CHANGE, |cx| change(cx, id, prepared))
    }

    /// `DELETE /calendar_feeds/{id}`.
    pub fn delete_calendar_feed(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /calendar_feeds/{id}/sync`: fetches it now, whatever its
    /// schedule; a failure is in its `sync_error`.
    pub fn sync_calendar_feed(&self, id: Id) -> Result<CalendarFeed> {
        self.inner.require_writable()?;
        sync::sync_one(&self.inner, id)?;
        self.calendar_feed(id)
    }

    /// `POST /calendar_feeds/sync`: every feed now (at most four at once),
    /// then every feed by name.
    pub fn sync_calendar_feeds(&self) -> Result<Vec<CalendarFeed>> {
        self.inner.require_writable()?;
        sync::sync_all(&self.inner)
    }

    /// Syncs every feed whose scheduled sync is due by the clock (at most
    /// four at once); how many were synced. The server calls it every few
    /// seconds; embedders call it on their own schedule.
    pub fn sync_due_feeds(&self) -> Result<usize> {
        if self.inner.require_writable().is_err() {
            return Ok(0);
        }
        sync::sync_due(&self.inner)
    }

    /// When the next scheduled feed sync is due (none without feeds).
    pub fn next_feed_sync_at(&self) -> Result<Option<jiff::Timestamp>> {
        self.inner.read_op(&GET, sync::next_due)
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/calendar_feeds"),
        Endpoint::new(Post, "/calendar_feeds"),
        Endpoint::new(Post, "/calendar_feeds/sync"),
        Endpoint::new(Get, "/calendar_feeds/{id}"),
        Endpoint::new(Patch, "/calendar_feeds/{id}"),
        Endpoint::new(Put, "/calendar_feeds/{id}"),
        Endpoint::new(Delete, "/calendar_feeds/{id}"),
        Endpoint::new(Post, "/calendar_feeds/{id}/sync"),
    ]
};

/// `/calendar_feeds`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["calendar_feeds"]) => {
            let query = CalendarFeedQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["calendar_feeds"]) => CREATE.route_with(
            move |inner| prepare(inner, None, &parse(body)?),
            |cx, prepared| Ok(Response::data(201, &create(cx, prepared)?)),
        ),
        (Post, ["calendar_feeds", "sync"]) => SYNC.route(|inner| {
            inner.require_writable()?;
            Ok(Response::data(200, &sync::sync_all(inner)?))
        }),
        (Get, ["calendar_feeds", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["calendar_feeds", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route_with(
                move |inner| prepare(inner, Some(id), &parse(body)?),
                move |cx, prepared| Ok(Response::data(200, &change(cx, id, prepared)?)),
            )
        }
        (Delete, ["calendar_feeds", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["calendar_feeds", id, "sync"]) => {
            let id = Id::from_path(id)?;
            SYNC.route(move |inner| {
                inner.require_writable()?;
                sync::sync_one(inner, id)?;
                inner.read(|cx| Ok(Response::data(200, &get(cx, id)?)))
            })
        }
        _ => return Err(Error::NotFound),
    })
}
