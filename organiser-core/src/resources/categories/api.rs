//! The categories' operations (document 2, "Categories"), each declared once, and
//! [`Categories`], the typed door to them.

use super::{
    Category, CategoryChoices, CategoryInput, CategoryQuery, change, choices, create, delete, get,
    list, parse,
};
use crate::engine::Organiser;
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::operation::{Args, Outgoing, Part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::request::Request;
use crate::error::Error;
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(CategoryInput, parse, Some("category"));
query_part!(CategoryQuery);

/// `GET /categories`.
pub(crate) static LIST: Operation<CategoryQuery, Page<Category>> = Operation::new(
    "listCategories",
    Get,
    "/categories",
    "Categories",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /categories`.
pub(crate) static CREATE: Operation<CategoryInput, Category> = Operation::new(
    "createCategory",
    Post,
    "/categories",
    "Make a category\n\nNeeds a `name`, unique ignoring case. Goes last (the highest position + 1) unless `position` is sent, which places it at that rank (clamped to 1..n) and renumbers every category 1..n. A blank or null `color` takes the first colour no other category uses.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /categories/{id}`.
pub(crate) static GET: Operation<Id, Category> = Operation::new(
    "getCategory",
    Get,
    "/categories/{id}",
    "A category",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/categories/{id}`.
pub(crate) static CHANGE: Operation<(Id, CategoryInput), Category> = Operation::new(
    "changeCategory",
    Patch,
    "/categories/{id}",
    "Change a category\n\nOnly the fields sent change. Sending `position` moves the category to that rank (clamped to 1..n) and renumbers every category 1..n; others whose position changed get a new `updated_at`. A name another category has, ignoring case, is 422.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "replaceCategory");

/// `if_unused` of `DELETE /categories/{id}`: `true` or `false`, else 400.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct IfUnused(bool);

impl Part for IfUnused {
    const EARLY: bool = true;

    fn read(req: &Request, _: &mut Args<'_>) -> Result<IfUnused> {
        match req.query.get("if_unused") {
            None | Some("false") => Ok(IfUnused(false)),
            Some("true") => Ok(IfUnused(true)),
            Some(_) => Err(Error::bad_param("if_unused", "must be true or false")),
        }
    }

    fn write(&self, out: &mut Outgoing) {
        if self.0 {
            out.query("if_unused", "true");
        }
    }
}

/// `DELETE /categories/{id}`.
pub(crate) static DELETE: Operation<(Id, IfUnused), ()> = Operation::new(
    "deleteCategory",
    Delete,
    "/categories/{id}",
    "Delete a category\n\nPermanent, with a `category` deletion record; other positions stay (gaps are fine). Its notes, live and deleted, become uncategorised; live ones get a new `updated_at`.",
    Run::write(WriteOp::LICENSED, |cx, (id, IfUnused(if_unused))| {
        delete(cx, id, if_unused)
    }),
    Answer::empty(),
);

/// `GET /category_choices`.
pub(crate) static CHOICES: Operation<(), CategoryChoices> = Operation::new(
    "getCategoryChoices",
    Get,
    "/category_choices",
    "Category colours and icons\n\nThe colours and icons a category may take, in display order. Not paginated.",
    Run::Plain(PlainOp::PRIVATE, |_, ()| Ok(choices())),
    Answer::data(200),
);

/// The categories' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] =
    &[&LIST, &CREATE, &GET, &CHANGE, &DELETE, &CHOICES];

/// The categories of a store (document 2, "Categories"), through a [`Door`]: the store
/// itself (`org.categories()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Categories<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Categories<'d, D> {
    /// The categories of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Categories { door }
    }

    /// One page of the live categories.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &CategoryQuery) -> Result<Page<Category>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a category, last unless `input` names a position; a blank colour takes the first one no other category uses.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: CategoryInput) -> Result<Category> {
        self.door.call(&CREATE, input)
    }

    /// The live category `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<Category> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of category `id`.
    ///
    /// # Errors
    ///
    /// As [`Categories::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`Categories::get`].
    pub fn change(&self, id: Id, input: CategoryInput) -> Result<Category> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes category `id`, permanently; its notes become uncategorised.
    /// With `if_unused`, a category that a note (live, or deleted and
    /// restorable) has is kept.
    ///
    /// # Errors
    ///
    /// [`Error::Conflict`](crate::Error::Conflict) (`in_use`) with
    /// `if_unused` while a note has it; [`Error::NotFound`](crate::Error::NotFound)
    /// as [`Categories::get`].
    pub fn delete(&self, id: Id, if_unused: bool) -> Result<()> {
        self.door.call(&DELETE, (id, IfUnused(if_unused)))
    }

    /// The colours and icons a category may take, in display order: the
    /// vocabulary this build holds.
    pub fn choices(&self) -> CategoryChoices {
        choices()
    }
}

impl Organiser {
    /// The store's categories.
    pub fn categories(&self) -> Categories<'_> {
        Categories::new(self)
    }
}
