//! The calendar's operation (document 3, "Calendar"), declared once for
//! the typed method and the route arm.

use super::{CalendarQuery, CalendarRange, gather, range};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};

/// Expired tasks are archived first.
static GET: ReadOp = ReadOp::SETTLED;

impl Organiser {
    /// `GET /calendar`.
    pub fn calendar(&self, query: CalendarQuery) -> Result<CalendarRange> {
        self.inner.read_op(&GET, |cx| range(cx, query))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Get, "/calendar")];

/// `/calendar`.
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
        _ => return Err(Error::NotFound),
    })
}
