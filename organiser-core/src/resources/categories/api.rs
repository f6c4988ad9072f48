//! The categories' operations (document 2, "Categories"), each declared
//! once for the typed method and the route arm.

use super::{
    Category, CategoryChoices, CategoryInput, CategoryNoteCount, CategoryQuery, change, choices,
    create, delete, get, list, parse,
};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::{Page, Query};
use crate::resources::notes;

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;

impl Organiser {
    /// `GET /categories`.
    pub fn categories(&self, query: &CategoryQuery) -> Result<Page<Category>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /categories`.
    pub fn create_category(&self, input: &CategoryInput) -> Result<Category> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /categories/{id}`.
    pub fn category(&self, id: Id) -> Result<Category> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /categories/{id}`.
    pub fn change_category(&self, id: Id, input: &CategoryInput) -> Result<Category> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /categories/{id}`: with `if_unused`, 409 `in_use` while a
    /// note has it.
    pub fn delete_category(&self, id: Id, if_unused: bool) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id, if_unused))
    }

    /// `GET /category_choices`.
    pub fn category_choices(&self) -> CategoryChoices {
        choices()
    }

    /// `GET /category_note_counts`.
    pub fn category_note_counts(&self) -> Result<Vec<CategoryNoteCount>> {
        self.inner.read_op(&LIST, notes::category_note_counts)
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/categories"),
        Endpoint::new(Post, "/categories"),
        Endpoint::new(Get, "/categories/{id}"),
        Endpoint::new(Patch, "/categories/{id}"),
        Endpoint::new(Put, "/categories/{id}"),
        Endpoint::new(Delete, "/categories/{id}"),
        Endpoint::new(Get, "/category_choices"),
        Endpoint::new(Get, "/category_note_counts"),
    ]
};

/// `if_unused`: `true` or `false`, else 400.
fn if_unused(query: &Query) -> Result<bool> {
    match query.get("if_unused") {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(_) => Err(Error::bad_param("if_unused", "must be true or false")),
    }
}

/// `/categories`, `/category_choices` and `/category_note_counts`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["categories"]) => {
            let query = CategoryQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["categories"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["categories", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["categories", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["categories", id]) => {
            let id = Id::from_path(id)?;
            let if_unused = if_unused(&req.query)?;
            DELETE.run(move |cx| {
                delete(cx, id, if_unused)?;
                Ok(Response::no_content())
            })
        }
        (Get, ["category_choices"]) => GET.route(|_| Ok(Response::data(200, &choices()))),
        (Get, ["category_note_counts"]) => {
            LIST.route(|cx| Ok(Response::data(200, &notes::category_note_counts(cx)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
