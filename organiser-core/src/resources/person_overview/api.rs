//! The person overview's operation (docs/api.md, "Person overview"),
//! declared once for the typed method and the route arm.

use super::{PersonOverview, overview};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;

/// Expired tasks are archived first.
static GET: ReadOp = ReadOp::SETTLED;

impl Organiser {
    /// `GET /people/{id}/overview`: the person and what a screen about
    /// them shows, in one read.
    pub fn person_overview(&self, id: Id) -> Result<PersonOverview> {
        self.inner.read_op(&GET, |cx| overview(cx, id))
    }
}

/// The routes of [`routes`]: a view over people, served under `/people`
/// (the dispatch goes by the declared route).
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Get, "/people/{id}/overview")];

/// `/people/{id}/overview`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    let base = req.base_url.as_str();
    Ok(match (req.method, segments) {
        (Method::Get, ["people", id, "overview"]) => {
            let id = Id::from_path(id)?;
            // Photo and file addresses are absolute in answers.
            GET.route(move |cx| Ok(Response::data(200, &overview(cx, id)?.absolute(base))))
        }
        _ => return Err(Error::NotFound),
    })
}
