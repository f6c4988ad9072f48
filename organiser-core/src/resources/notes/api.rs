//! The notes' operations (DESIGN.md "Notes"), each declared once for the
//! typed method and the route arm.

use super::{
    Note, NoteInput, NoteQuery, NoteSummary, change, create, delete, get, list, parse, pin, restore,
};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
static RESTORE: WriteOp = WriteOp::LICENSED.idempotent();
static PIN: WriteOp = WriteOp::LICENSED;

impl Organiser {
    /// `GET /notes`.
    pub fn notes(&self, query: &NoteQuery) -> Result<Page<NoteSummary>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /notes`.
    pub fn create_note(&self, input: &NoteInput) -> Result<Note> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /notes/{id}`.
    pub fn note(&self, id: Id) -> Result<Note> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /notes/{id}`: 409 `conflict` when `edit_version` is behind.
    pub fn change_note(&self, id: Id, input: &NoteInput) -> Result<Note> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /notes/{id}`: restorable for 20 seconds.
    pub fn delete_note(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /notes/{id}/restoration`.
    pub fn restore_note(&self, id: Id) -> Result<Note> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }

    /// `POST /notes/{id}/pin` (`true`) or `DELETE /notes/{id}/pin`.
    pub fn pin_note(&self, id: Id, pinned: bool) -> Result<Note> {
        self.inner.write_op(&PIN, |cx| pin(cx, id, pinned))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/notes"),
        Endpoint::new(Post, "/notes"),
        Endpoint::new(Get, "/notes/{id}"),
        Endpoint::new(Patch, "/notes/{id}"),
        Endpoint::new(Put, "/notes/{id}"),
        Endpoint::new(Delete, "/notes/{id}"),
        Endpoint::new(Post, "/notes/{id}/restoration"),
        Endpoint::new(Post, "/notes/{id}/pin"),
        Endpoint::new(Delete, "/notes/{id}/pin"),
    ]
};

/// `/notes`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["notes"]) => {
            let query = NoteQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["notes"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["notes", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["notes", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["notes", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["notes", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &restore(cx, id)?)))
        }
        (Post | Delete, ["notes", id, "pin"]) => {
            let id = Id::from_path(id)?;
            let pinned = req.method == Post;
            PIN.run(move |cx| Ok(Response::data(200, &pin(cx, id, pinned)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
