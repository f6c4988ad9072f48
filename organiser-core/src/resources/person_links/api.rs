//! The person links' operations (document 3, "Person links"), each
//! declared once for the typed method and the route arm.

use super::{
    PersonLink, PersonLinkInput, PersonLinkQuery, change, create, delete, get, list, parse,
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

impl Organiser {
    /// `GET /person_links`.
    pub fn person_links(&self, query: &PersonLinkQuery) -> Result<Page<PersonLink>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /person_links`.
    pub fn create_person_link(&self, input: &PersonLinkInput) -> Result<PersonLink> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /person_links/{id}`.
    pub fn person_link(&self, id: Id) -> Result<PersonLink> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /person_links/{id}`.
    pub fn change_person_link(&self, id: Id, input: &PersonLinkInput) -> Result<PersonLink> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /person_links/{id}`: permanent.
    pub fn delete_person_link(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/person_links"),
        Endpoint::new(Post, "/person_links"),
        Endpoint::new(Get, "/person_links/{id}"),
        Endpoint::new(Patch, "/person_links/{id}"),
        Endpoint::new(Put, "/person_links/{id}"),
        Endpoint::new(Delete, "/person_links/{id}"),
    ]
};

/// `/person_links`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["person_links"]) => {
            let query = PersonLinkQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["person_links"]) => CREATE.route(
            move || parse(body, true),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["person_links", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["person_links", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body, false),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["person_links", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        _ => return Err(Error::NotFound),
    })
}
