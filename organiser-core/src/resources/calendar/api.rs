//! The calendar's operation (document 3, "Calendar"), declared once for
//! the typed method and the route arm.

use super::{CalendarQuery, CalendarRange, Meetings, MeetingsQuery, gather, meetings, range};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;

/// Expired tasks are archived first.
static GET: ReadOp = ReadOp::SETTLED;

impl Organiser {
    /// `GET /calendar`.
    pub fn calendar(&self, query: CalendarQuery) -> Result<CalendarRange> {
        self.inner.read_op(&GET, |cx| range(cx, query))
    }

    /// `GET /people/{id}/meetings`.
    pub fn person_meetings(&self, id: Id, query: MeetingsQuery) -> Result<Meetings> {
        self.inner.read_op(&GET, |cx| meetings(cx, id, query))
    }
}

/// The routes of [`routes`].
/// A person's meetings are a view of the calendar, served here under
/// `/people` (the dispatch goes by the declared route).
pub(crate) static ENDPOINTS: &[Endpoint] = &[
    Endpoint::new(Method::Get, "/calendar"),
    Endpoint::new(Method::Get, "/people/{id}/meetings"),
];

/// `/calendar` and `/people/{id}/meetings`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    let base = req.base_url.as_str();
    Ok(match (req.method, segments) {
        // The query is read in the arm's work, so the route is found
        // before its parameters are judged.
        (Method::Get, ["calendar"]) => GET.route(move |cx| {
            let query = CalendarQuery::parse(&req.query)?;
            // Photo addresses are absolute in answers.
            let parts = gather(cx, query)?.absolute(base);
            let bytes = parts.size_hint();
            Ok(Response::data_sized(200, &parts, bytes))
        }),
        (Method::Get, ["people", id, "meetings"]) => {
            let id = Id::from_path(id)?;
            let query = MeetingsQuery::parse(&req.query)?;
            GET.route(move |cx| Ok(Response::json(200, &meetings(cx, id, query)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
