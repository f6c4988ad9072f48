//! The tags' operations (document 2, "Tags"), each declared once for the
//! typed method and the route arm.

use super::{Tag, TagQuery, delete, get, list, merge, parse, parse_merge, rename};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::list::Page;

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
static MERGE: WriteOp = WriteOp::LICENSED;

impl Organiser {
    /// `GET /tags`.
    pub fn tags(&self, query: &TagQuery) -> Result<Page<Tag>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `GET /tags/{id}`.
    pub fn tag(&self, id: Id) -> Result<Tag> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /tags/{id}`: renames it in every note.
    pub fn rename_tag(&self, id: Id, name: &str) -> Result<Tag> {
        let name = Field::Value(name.to_owned());
        self.inner.write_op(&CHANGE, |cx| rename(cx, id, &name))
    }

    /// `DELETE /tags/{id}`: permanent; gone from every note.
    pub fn delete_tag(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /tags/{id}/merge`: the surviving tag.
    pub fn merge_tag(&self, id: Id, into: Id) -> Result<Tag> {
        let into = Field::Value(into);
        self.inner.write_op(&MERGE, |cx| merge(cx, id, &into))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/tags"),
        Endpoint::new(Get, "/tags/{id}"),
        Endpoint::new(Patch, "/tags/{id}"),
        Endpoint::new(Put, "/tags/{id}"),
        Endpoint::new(Delete, "/tags/{id}"),
        Endpoint::new(Post, "/tags/{id}/merge"),
    ]
};

/// `/tags`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["tags"]) => {
            let query = TagQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Get, ["tags", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["tags", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, name| Ok(Response::data(200, &rename(cx, id, &name)?)),
            )
        }
        (Delete, ["tags", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["tags", id, "merge"]) => {
            let id = Id::from_path(id)?;
            MERGE.route(
                move || parse_merge(body),
                move |cx, into| Ok(Response::data(200, &merge(cx, id, &into)?)),
            )
        }
        _ => return Err(Error::NotFound),
    })
}
