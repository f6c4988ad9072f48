//! The calendar subscriptions' operations (EXTENSIONS.md §2), each
//! declared once, [`CalendarSubscriptions`], their typed door, and the
//! job that writes down when feeds were read.

use std::time::Duration;

use super::feed::{self, Feed, FeedRequest};
use super::{CalendarSubscription, CalendarSubscriptionInput, absolute, parse};
use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;

body_part!(
    CalendarSubscriptionInput,
    parse,
    Some("calendar_subscription")
);

/// The list's answer: `{data: [CalendarSubscription]}`.
type Subscriptions = Vec<CalendarSubscription>;

/// `GET /calendar_subscriptions`.
pub(crate) static LIST: Operation<(), Subscriptions> = Operation::new(
    "listCalendarSubscriptions",
    Get,
    "/calendar_subscriptions",
    "Calendar subscriptions\n\nEvery subscription, oldest first; not paginated. No address is shown: it is shown once, when made or rotated.",
    Run::Read(ReadOp::PLAIN, |cx, ()| super::list(cx)),
    Answer::data(200),
);

/// `POST /calendar_subscriptions`.
pub(crate) static CREATE: Operation<CalendarSubscriptionInput, CalendarSubscription> =
    Operation::new(
        "createCalendarSubscription",
        Post,
        "/calendar_subscriptions",
        "Subscribe a calendar\n\nA new secret address, `url`, shown in this answer only (only its hash is kept with the subscription). Honours `Idempotency-Key`: the answer kept for a replay is sealed with the store's key.",
        Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
            super::create(cx, &input)
        }),
        Answer::data(201).absolute(absolute),
    );

/// `GET /calendar_subscriptions/{id}`.
pub(crate) static GET: Operation<Id, CalendarSubscription> = Operation::new(
    "getCalendarSubscription",
    Get,
    "/calendar_subscriptions/{id}",
    "A calendar subscription",
    Run::Read(ReadOp::PLAIN, super::get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/calendar_subscriptions/{id}`.
pub(crate) static CHANGE: Operation<(Id, CalendarSubscriptionInput), CalendarSubscription> =
    Operation::new(
        "patchCalendarSubscription",
        Patch,
        "/calendar_subscriptions/{id}",
        "Change a calendar subscription\n\nOnly the fields sent change; the address stays.",
        Run::write(WriteOp::LICENSED, |cx, (id, input)| {
            super::change(cx, id, &input)
        }),
        Answer::data(200),
    )
    .also(Put, "putCalendarSubscription");

/// `DELETE /calendar_subscriptions/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteCalendarSubscription",
    Delete,
    "/calendar_subscriptions/{id}",
    "Delete a calendar subscription\n\nPermanent: its address answers 404 from this moment.",
    Run::write(WriteOp::LICENSED, super::delete),
    Answer::empty(),
);

/// `POST /calendar_subscriptions/{id}/rotation`.
pub(crate) static ROTATE: Operation<Id, CalendarSubscription> = Operation::new(
    "rotateCalendarSubscription",
    Post,
    "/calendar_subscriptions/{id}/rotation",
    "A new address for a calendar subscription\n\nThe old address answers 404 from this moment; the new one is `url`, shown in this answer only.",
    Run::write(WriteOp::LICENSED, super::rotate),
    Answer::data(200).absolute(absolute),
);

/// `GET /ics/{secret}.ics`, at the server's root.
pub(crate) static FEED: Operation<FeedRequest, Feed> = Operation::new(
    "getCalendarSubscriptionFeed",
    Get,
    "/ics/{secret}.ics",
    "A subscribed calendar\n\nOutside `/api/v1`, with no token: the address is the credential. `text/calendar; charset=utf-8` with an `ETag`; `If-None-Match` naming it is answered 304. 404 `not_found` (the JSON error) for an unknown or stopped address. Served in read-only mode.",
    // Writing a feed afresh takes tens of milliseconds: off the server's
    // async workers.
    Run::Read(ReadOp::SETTLED.public().slow(), feed::feed),
    Answer::raw(feed::respond, feed::read_back),
)
.at_root_with_secret();

/// The calendar subscriptions' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] =
    &[&LIST, &CREATE, &GET, &CHANGE, &DELETE, &ROTATE, &FEED];

/// Writes down when feeds were read (kept in memory as they are read),
/// every minute and when the server stops.
pub(crate) const SUBSCRIPTION_READS: Job = Job {
    name: "calendar_subscription_reads",
    pace: Pace::Every(Duration::from_secs(60)),
    announce: None,
    run: write_reads,
    at_stop: Some(write_reads),
};

fn write_reads(org: &Organiser) -> Result<Ran> {
    Ok(if super::reads::flush(&org.inner)? {
        Ran::Did("calendar subscription reads written".to_owned())
    } else {
        Ran::Nothing
    })
}

/// The calendar subscriptions of a store (EXTENSIONS.md §2), through a
/// [`Door`]: the store itself (`org.calendar_subscriptions()`), or a
/// server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct CalendarSubscriptions<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> CalendarSubscriptions<'d, D> {
    /// The calendar subscriptions of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        CalendarSubscriptions { door }
    }

    /// Every subscription, oldest first (no addresses).
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn list(&self) -> Result<Vec<CalendarSubscription>> {
        self.door.call(&LIST, ())
    }

    /// Makes a subscription; its `url` is the one time its address is
    /// shown (below the server's root, `/ics/<secret>.ics`, in process;
    /// absolute through a server).
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `name`,
    /// `include`, `task_list_ids`, `project_ids` or `alarm_minutes`;
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn create(&self, input: CalendarSubscriptionInput) -> Result<CalendarSubscription> {
        self.door.call(&CREATE, input)
    }

    /// Subscription `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn get(&self, id: Id) -> Result<CalendarSubscription> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends of subscription `id`.
    ///
    /// # Errors
    ///
    /// As [`CalendarSubscriptions::create`] and
    /// [`CalendarSubscriptions::get`].
    pub fn change(&self, id: Id, input: CalendarSubscriptionInput) -> Result<CalendarSubscription> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes subscription `id`: its address stops at once.
    ///
    /// # Errors
    ///
    /// As [`CalendarSubscriptions::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// A new address for subscription `id` (in `url`); the old one stops
    /// at once.
    ///
    /// # Errors
    ///
    /// As [`CalendarSubscriptions::delete`].
    pub fn rotate(&self, id: Id) -> Result<CalendarSubscription> {
        self.door.call(&ROTATE, id)
    }

    /// The feed at the address whose last segment is `file`
    /// (`<secret>.ics`), or 304's answer when `if_none_match` names its
    /// entity tag.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown or
    /// stopped address.
    pub fn feed(&self, file: &str, if_none_match: Option<&str>) -> Result<Feed> {
        self.door.call(
            &FEED,
            FeedRequest {
                file: file.to_owned(),
                if_none_match: if_none_match.map(str::to_owned),
            },
        )
    }
}

impl Organiser {
    /// The store's calendar subscriptions.
    pub fn calendar_subscriptions(&self) -> CalendarSubscriptions<'_> {
        CalendarSubscriptions::new(self)
    }
}
