//! The calendar feeds' operations (document 3, "Calendar feeds"), each declared once, and
//! [`CalendarFeeds`], the typed door to them.

use super::{
    CalendarFeed, CalendarFeedInput, CalendarFeedQuery, Prepared, change, create, delete, get,
    list, parse, prepare, sync,
};
use std::time::Duration;

use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::PlainOp;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::Prepare;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(CalendarFeedInput, parse, Some("calendar_feed"));
query_part!(CalendarFeedQuery);

/// `GET /calendar_feeds`.
pub(crate) static LIST: Operation<CalendarFeedQuery, Page<CalendarFeed>> = Operation::new(
    "listCalendarFeeds",
    Get,
    "/calendar_feeds",
    "Calendar feeds",
    Run::Read(ReadOp::PLAIN.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `GET /calendar_feeds/{id}`.
pub(crate) static GET: Operation<Id, CalendarFeed> = Operation::new(
    "getCalendarFeed",
    Get,
    "/calendar_feeds/{id}",
    "A calendar feed",
    Run::Read(ReadOp::PLAIN, get),
    Answer::data(200),
);

/// `DELETE /calendar_feeds/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteCalendarFeed",
    Delete,
    "/calendar_feeds/{id}",
    "Delete a calendar feed\n\nPermanent: its events leave the calendar at once, and a `calendar_feed` deletion record is written.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /calendar_feeds`: the address is fetched (up to 30 s) before
/// the transaction, after the licence check.
pub(crate) static CREATE: Operation<CalendarFeedInput, CalendarFeed, Prepared> = Operation::new(
    "createCalendarFeed",
    Post,
    "/calendar_feeds",
    "Add a calendar feed\n\nNeeds an `address` and a `color`. The address is fetched first (waiting up to 30 seconds), then the feed is saved with its events; an unreadable address is 422 on `address` with the reason, and nothing is saved. A blank or absent `name` takes the calendar's own name (`X-WR-CALNAME`), else the address's host, with ` (2)`, ` (3)`... added when that name is taken. `sync_every` defaults to `hourly`.",
    Run::Write(
        WriteOp::LICENSED.idempotent(),
        Prepare::with(|inner, input| prepare(inner, None, &input)),
        create,
    ),
    Answer::data(201),
);

/// `PATCH` (or `PUT`) `/calendar_feeds/{id}`: a new address is fetched
/// first.
pub(crate) static CHANGE: Operation<(Id, CalendarFeedInput), CalendarFeed, (Id, Prepared)> =
    Operation::new(
        "changeCalendarFeed",
        Patch,
        "/calendar_feeds/{id}",
        "Change a calendar feed\n\nOnly the fields sent change. A new `address` is fetched first, as on create (422 on `address` and nothing changes when it cannot be read); the address already stored is no change. The name, colour and frequency save without a fetch; a new `sync_every` moves the next sync. A blank `name` is 422.",
        Run::Write(
            WriteOp::LICENSED,
            Prepare::with(|inner, (id, input)| Ok((id, prepare(inner, Some(id), &input)?))),
            |cx, (id, prepared)| change(cx, id, prepared),
        ),
        Answer::data(200),
    )
    .also(Put, "replaceCalendarFeed");

/// `POST /calendar_feeds/sync`: waits on the network between
/// transactions of its own.
pub(crate) static SYNC_ALL: Operation<(), Vec<CalendarFeed>> = Operation::new(
    "syncCalendarFeeds",
    Post,
    "/calendar_feeds/sync",
    "Sync every calendar feed\n\nFetches every feed now (up to 4 at once, each waiting up to 30 seconds), ignoring schedule and backoff. A feed that could not be read is still answered, with `sync_error` set. Takes no body; `Idempotency-Key` is ignored.",
    Run::Plain(PlainOp::WAITS.licensed(), |inner, ()| sync::sync_all(inner)),
    Answer::data(200),
);

/// `POST /calendar_feeds/{id}/sync`.
pub(crate) static SYNC: Operation<Id, CalendarFeed> = Operation::new(
    "syncCalendarFeed",
    Post,
    "/calendar_feeds/{id}/sync",
    "Sync a calendar feed\n\nFetches the feed now (waiting up to 30 seconds), ignoring schedule and backoff. A feed that could not be read is still answered, with `sync_error` set. Takes no body; `Idempotency-Key` is ignored.",
    Run::Plain(PlainOp::WAITS.licensed(), |inner, id| {
        sync::sync_one(inner, id)?;
        inner.read(|cx| get(cx, id))
    }),
    Answer::data(200),
);

/// The calendar feeds' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] =
    &[&LIST, &GET, &DELETE, &CREATE, &CHANGE, &SYNC_ALL, &SYNC];

/// The calendar feeds of a store (document 3, "Calendar feeds"), through a [`Door`]: the store
/// itself (`org.calendar_feeds()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct CalendarFeeds<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> CalendarFeeds<'d, D> {
    /// The calendar feeds of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        CalendarFeeds { door }
    }

    /// One page of the live calendar feeds (or those of one address), by name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &CalendarFeedQuery) -> Result<Page<CalendarFeed>> {
        self.door.call(&LIST, query.clone())
    }

    /// The live calendar feed `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<CalendarFeed> {
        self.door.call(&GET, id)
    }

    /// Deletes calendar feed `id`, permanently: its events leave the calendar at once.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`CalendarFeeds::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Subscribes to a calendar: fetches `input`'s address first (waiting
    /// up to 30 seconds; call it where blocking is fine), then saves the
    /// feed with its events.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank or
    /// malformed address, one that cannot be read (with the reason), or an
    /// unknown colour or frequency; [`Error::ReadOnly`](crate::Error::ReadOnly)
    /// before anything is fetched.
    pub fn create(&self, input: CalendarFeedInput) -> Result<CalendarFeed> {
        self.door.call(&CREATE, input)
    }

    /// Changes the fields `input` sends of feed `id`; a new address is
    /// fetched first.
    ///
    /// # Errors
    ///
    /// As [`CalendarFeeds::create`] and [`CalendarFeeds::get`].
    pub fn change(&self, id: Id, input: CalendarFeedInput) -> Result<CalendarFeed> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Fetches every feed now (four at once), whatever their schedule; a
    /// feed that could not be read is answered with its `sync_error`.
    ///
    /// # Errors
    ///
    /// [`Error::ReadOnly`](crate::Error::ReadOnly) while the licence is
    /// read-only.
    pub fn sync_all(&self) -> Result<Vec<CalendarFeed>> {
        self.door.call(&SYNC_ALL, ())
    }

    /// Fetches feed `id` now, whatever its schedule; a failure is in its
    /// `sync_error`.
    ///
    /// # Errors
    ///
    /// As [`CalendarFeeds::get`]; [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn sync(&self, id: Id) -> Result<CalendarFeed> {
        self.door.call(&SYNC, id)
    }
}

impl Organiser {
    /// The store's calendar feeds.
    pub fn calendar_feeds(&self) -> CalendarFeeds<'_> {
        CalendarFeeds::new(self)
    }
}

impl Organiser {
    /// Syncs every feed whose scheduled sync is due by the clock (at most
    /// four at once); how many were synced (none while the licence is
    /// read-only). The server runs it on a schedule; embedders call it on
    /// their own.
    ///
    /// # Errors
    ///
    /// Only the store's (a feed that cannot be read keeps its error).
    pub fn sync_due_feeds(&self) -> Result<usize> {
        if self.inner.require_writable().is_err() {
            return Ok(0);
        }
        sync::sync_due(&self.inner)
    }

    /// When the next scheduled feed sync is due (none without feeds).
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn next_feed_sync_at(&self) -> Result<Option<jiff::Timestamp>> {
        self.inner.read(sync::next_due)
    }
}

/// The feeds' scheduled syncs, looked for every 15 seconds (a round waits
/// for the one before it).
pub(crate) const SCHEDULED_SYNCS: Job = Job {
    name: "calendar_feed_sync",
    pace: Pace::Every(Duration::from_secs(15)),
    announce: None,
    run: |org| {
        Ok(match org.sync_due_feeds()? {
            0 => Ran::Nothing,
            synced => Ran::Did(format!("scheduled calendar feed syncs done: {synced}")),
        })
    },
    at_stop: None,
};
