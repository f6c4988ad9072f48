//! The calendar's operations (document 3, "Calendar range", and the
//! Meetings rules under People), declared once, and [`Calendar`], their
//! typed door.

use super::{CalendarQuery, CalendarRange, Meetings, MeetingsQuery, gather, meetings, range};
use crate::engine::Organiser;
use crate::engine::op::ReadOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, query_part};
use crate::engine::request::Method::Get;
use crate::engine::request::Response;
use crate::error::Result;
use crate::ids::Id;
use crate::resources::people::absolute_avatar;

query_part!(CalendarQuery, MeetingsQuery);

/// `GET /calendar`. Expired tasks are archived first. The HTTP answer is
/// written from what was read, without copying the events.
pub(crate) static RANGE: Operation<CalendarQuery, CalendarRange> = Operation::new(
    "getCalendar",
    Get,
    "/calendar",
    "The calendar of a range of days\n\n`from` to `to` inclusive, in the owner's zone. Expired tasks are archived first. `events`: each occurrence touching the range (a timed event begun before `from` and still on, a multi-day all-day event), repeat rules expanded, by start day, all-day ones first, then start, title and key. `tasks`: live tasks, open or completed, whose `deadline_on` is in the range (an overdue open task only on its own date), by `deadline_on` then title. `project_dates`: the `start_date` and `deadline` in the range of live `planned`, `active` and `on_hold` projects, by date then name. `key_dates`: live people's key dates falling in the range (29 February falls on 1 March in other years), by date, person name and kind. `people`: the people the events' attendees are, once each, by name. A view: nothing to page or sync.",
    Run::Read(ReadOp::SETTLED, range),
    Answer::data(200).absolute(|mut range, base| {
        for p in &mut range.people {
            if let Some(a) = &mut p.avatar {
                absolute_avatar(a, base);
            }
        }
        for k in &mut range.key_dates {
            if let Some(a) = &mut k.person.avatar {
                absolute_avatar(a, base);
            }
        }
        range
    }),
)
.answered_by(|cx, query, req| {
    // Photo addresses are absolute in answers.
    let parts = gather(cx, *query)?.absolute(&req.base_url);
    let bytes = parts.size_hint();
    Ok(Response::data_sized(200, &parts, bytes))
});

/// `GET /people/{id}/meetings`: a view of the calendar, served under
/// `/people` (the dispatch goes by the declared route).
pub(crate) static MEETINGS: Operation<(Id, MeetingsQuery), Meetings> = Operation::new(
    "listPersonMeetings",
    Get,
    "/people/{id}/meetings",
    "A person's upcoming meetings\n\nThe person's upcoming event occurrences from the calendar feeds (the person matched to an attendee, the organizer included), from now to 60 days from today (owner's zone): those not yet ended (an all-day one through its last day), ordered as the calendar's events. Not paginated: `limit` bounds it and `meta.has_more` says whether more exist in the 60 days. A view, not a record.",
    Run::Read(ReadOp::SETTLED, |cx, (id, query)| meetings(cx, id, query)),
    Answer::bare(200),
);

/// The calendar's operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&RANGE, &MEETINGS];

/// The calendar of a store (document 3, "Calendar range"), through a
/// [`Door`]: the store itself (`org.calendar()`), or a server that holds
/// it.
#[derive(Debug, Clone, Copy)]
pub struct Calendar<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Calendar<'d, D> {
    /// The calendar of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Calendar { door }
    }

    /// What falls on each day of `query`'s range (at most 42 days, in the
    /// owner's zone): the feeds' event occurrences, tasks due, projects'
    /// starts and deadlines, people's key dates, and the people the
    /// events' attendees are.
    ///
    /// # Errors
    ///
    /// Only the store's (the range is checked by [`CalendarQuery::new`]).
    pub fn range(&self, query: CalendarQuery) -> Result<CalendarRange> {
        self.door.call(&RANGE, query)
    }

    /// Person `id`'s next meetings: the occurrences they attend from now
    /// to 60 days from today, soonest first, at most `query.limit`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a person who is not
    /// live.
    pub fn meetings(&self, id: Id, query: MeetingsQuery) -> Result<Meetings> {
        self.door.call(&MEETINGS, (id, query))
    }
}

impl Organiser {
    /// The store's calendar.
    pub fn calendar(&self) -> Calendar<'_> {
        Calendar::new(self)
    }
}
