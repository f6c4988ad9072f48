//! The system's operations (document 1, "System", `PATCH /system`,
//! `POST /system/update_check`), each declared once for the typed method
//! and the route arm. All are exempt from read-only mode.

use super::{System, SystemChange, change, get, parse, update};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::input;

static GET: ReadOp = ReadOp::PLAIN;
static CHANGE: WriteOp = WriteOp::EXEMPT;
/// Waits on the network (up to 30 s) between its own transactions.
static UPDATE_CHECK: PlainOp = PlainOp::WAITS;

impl Organiser {
    /// `GET /system`.
    pub fn system(&self, plain_http: bool) -> Result<System> {
        self.inner.read_op(&GET, |cx| get(cx, plain_http))
    }

    /// `PATCH /system`.
    pub fn change_system(&self, change: SystemChange, plain_http: bool) -> Result<System> {
        self.inner
            .write_op(&CHANGE, |cx| super::change(cx, change, plain_http))
    }

    /// `POST /system/update_check`: fetches the channel's manifest (waits up
    /// to 30 s; call it where blocking is fine).
    pub fn check_for_update(&self, plain_http: bool) -> Result<System> {
        update::check(&self.inner)?;
        self.system(plain_http)
    }

    /// Runs the daily (or queued) update check when one is due; whether it ran.
    pub fn run_scheduled_update_check(&self) -> Result<bool> {
        if self.inner.read_op(&GET, update::scheduled_due)? {
            update::check(&self.inner)?;
            Ok(true)
        } else {
            Ok(false)
        }
    }
}

/// `/system`.
/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/system"),
        Endpoint::new(Patch, "/system"),
        Endpoint::new(Put, "/system"),
        Endpoint::new(Post, "/system/update_check"),
    ]
};

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Get, Patch, Post, Put};
    let plain_http = req.plain_http;
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["system"]) => GET.route(move |cx| Ok(Response::data(200, &get(cx, plain_http)?))),
        (Patch | Put, ["system"]) => CHANGE.route(
            move || input::parse_record(body, "system", parse),
            move |cx, c| Ok(Response::data(200, &change(cx, c, plain_http)?)),
        ),
        (Post, ["system", "update_check"]) => UPDATE_CHECK.route(move |inner| {
            update::check(inner)?;
            inner.read_op(&GET, |cx| Ok(Response::data(200, &get(cx, plain_http)?)))
        }),
        _ => return Err(Error::NotFound),
    })
}
