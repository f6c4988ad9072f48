//! The people's operations (document 3, "People"), each declared once for
//! the typed method and the route arm.

use super::avatars::{self, absolute, absolute_avatar};
use super::companies::{self, Company, CompanyQuery};
use super::lifecycle::{delete, restore};
use super::upcoming::{self, UpcomingKeyDates, UpcomingQuery};
use super::{Person, PersonInput, PersonQuery, change, create, get, list, parse};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;
use crate::resources::uploads::{self, Kind, Params};

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
static RESTORE: WriteOp = WriteOp::LICENSED.idempotent();
/// A photo sent as the request's bytes.
static SET_PHOTO: WriteOp = WriteOp::LICENSED;
/// A photo's addresses and bytes: anyone with the link; the bytes are
/// read from disk off the server's async workers.
pub(super) static PHOTO: PlainOp = PlainOp::PUBLIC_FILES;

impl Organiser {
    /// `GET /people`.
    pub fn people(&self, query: &PersonQuery) -> Result<Page<Person>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /people`.
    pub fn create_person(&self, input: &PersonInput) -> Result<Person> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /people/{id}`.
    pub fn person(&self, id: Id) -> Result<Person> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /people/{id}`.
    pub fn change_person(&self, id: Id, input: &PersonInput) -> Result<Person> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `GET /companies`.
    pub fn companies(&self, query: &CompanyQuery) -> Result<Page<Company>> {
        self.inner.read_op(&LIST, |cx| companies::list(cx, query))
    }

    /// `GET /companies/{id}`.
    pub fn company(&self, id: Id) -> Result<Company> {
        self.inner
            .read_op(&GET, |cx| companies::get(cx, id)?.ok_or(Error::NotFound))
    }

    /// `GET /upcoming_key_dates`.
    pub fn upcoming_key_dates(&self, query: UpcomingQuery) -> Result<UpcomingKeyDates> {
        self.inner.read_op(&GET, |cx| upcoming::upcoming(cx, query))
    }

    /// `DELETE /people/{id}`: restorable for 20 seconds.
    pub fn delete_person(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /people/{id}/restoration`.
    pub fn restore_person(&self, id: Id) -> Result<Person> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/people"),
        Endpoint::new(Post, "/people"),
        Endpoint::new(Get, "/people/{id}"),
        Endpoint::new(Patch, "/people/{id}"),
        Endpoint::new(Put, "/people/{id}"),
        Endpoint::new(Delete, "/people/{id}"),
        Endpoint::new(Post, "/people/{id}/restoration"),
        Endpoint::new(Get, "/companies"),
        Endpoint::new(Get, "/companies/{id}"),
        Endpoint::new(Get, "/upcoming_key_dates"),
        Endpoint::new(Put, "/people/{id}/avatar"),
        Endpoint::new(Patch, "/people/{id}/avatar"),
        Endpoint::new(Get, "/avatars/{id}"),
        Endpoint::new(Get, "/avatars/{id}/{size}"),
        Endpoint::new(Get, "/avatars/{id}/files/{size}"),
    ]
};

/// `/people`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    // Photo addresses are absolute in answers.
    let base = req.base_url.as_str();
    Ok(match (req.method, segments) {
        (Get, ["people"]) => {
            let query = PersonQuery::parse(&req.query)?;
            LIST.route(move |cx| {
                let mut page = list(cx, &query)?;
                page.items = page.items.into_iter().map(|p| absolute(p, base)).collect();
                Ok(Response::json(200, &page))
            })
        }
        (Post, ["people"]) => CREATE.route(
            move || parse(body),
            move |cx, input| Ok(Response::data(201, &absolute(create(cx, &input)?, base))),
        ),
        (Get, ["people", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &absolute(get(cx, id)?, base))))
        }
        (Patch | Put, ["people", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| {
                    Ok(Response::data(
                        200,
                        &absolute(change(cx, id, &input)?, base),
                    ))
                },
            )
        }
        (Delete, ["people", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["people", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &absolute(restore(cx, id)?, base))))
        }
        (Put | Patch, ["people", id, "avatar"]) => {
            let id = Id::from_path(id)?;
            SET_PHOTO.route_with(
                move |inner| {
                    let params = Params {
                        kind: Kind::Avatar,
                        filename: "avatar".to_owned(),
                    };
                    uploads::prepare(inner, req, params)
                },
                move |cx, prepared| {
                    let made = uploads::create(cx, prepared)?;
                    let person = super::set_avatar(cx, id, &made.signed_id)?;
                    Ok(Response::data(200, &absolute(person, base)))
                },
            )
        }
        (Get, ["avatars", signed, rest @ ..]) => avatars::route(req, signed, rest)?,
        (Get, ["upcoming_key_dates"]) => {
            let query = UpcomingQuery::parse(&req.query)?;
            GET.route(move |cx| {
                let mut found = upcoming::upcoming(cx, query)?;
                for item in &mut found.data {
                    if let Some(avatar) = &mut item.person.avatar {
                        absolute_avatar(avatar, base);
                    }
                }
                Ok(Response::json(200, &found))
            })
        }
        (Get, ["companies"]) => {
            let query = CompanyQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &companies::list(cx, &query)?)))
        }
        (Get, ["companies", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| {
                let company = companies::get(cx, id)?.ok_or(Error::NotFound)?;
                Ok(Response::data(200, &company))
            })
        }
        _ => return Err(Error::NotFound),
    })
}
