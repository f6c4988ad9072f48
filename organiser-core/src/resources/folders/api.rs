//! The folders' operations (DESIGN.md "Folders"), each declared once for
//! the typed method and the route arm.

use super::{Folder, FolderInput, FolderQuery, change, create, delete, get, list, parse};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;
use crate::resources::documents::{self, FolderCount};

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;

impl Organiser {
    /// `GET /folders`.
    pub fn folders(&self, query: &FolderQuery) -> Result<Page<Folder>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /folders`.
    pub fn create_folder(&self, input: &FolderInput) -> Result<Folder> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /folders/{id}`.
    pub fn folder(&self, id: Id) -> Result<Folder> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /folders/{id}`.
    pub fn change_folder(&self, id: Id, input: &FolderInput) -> Result<Folder> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /folders/{id}`: 409 `folder_not_empty` unless empty.
    pub fn delete_folder(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `GET /folder_counts`.
    pub fn folder_counts(&self) -> Result<Vec<FolderCount>> {
        self.inner.read_op(&LIST, documents::folder_counts)
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/folders"),
        Endpoint::new(Post, "/folders"),
        Endpoint::new(Get, "/folders/{id}"),
        Endpoint::new(Patch, "/folders/{id}"),
        Endpoint::new(Put, "/folders/{id}"),
        Endpoint::new(Delete, "/folders/{id}"),
        Endpoint::new(Get, "/folder_counts"),
    ]
};

/// `/folders` and `/folder_counts`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["folders"]) => {
            let query = FolderQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["folders"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["folders", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["folders", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["folders", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Get, ["folder_counts"]) => {
            LIST.route(|cx| Ok(Response::data(200, &documents::folder_counts(cx)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
