//! The person links' operations (document 3, "Person links"), each declared once, and
//! [`PersonLinks`], the typed door to them.

use super::{
    PersonLink, PersonLinkInput, PersonLinkQuery, change, create, delete, get, list, parse,
};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(PersonLinkInput, parse, Some("person_link"));
query_part!(PersonLinkQuery);

/// `GET /person_links`.
pub(crate) static LIST: Operation<PersonLinkQuery, Page<PersonLink>> = Operation::new(
    "listPersonLinks",
    Get,
    "/person_links",
    "Person links",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /person_links`.
pub(crate) static CREATE: Operation<PersonLinkInput, PersonLink> = Operation::new(
    "createPersonLink",
    Post,
    "/person_links",
    "Link two people\n\nAn inverse role swaps the two people; a symmetric role puts the lower id first. One link of each role per pair, whichever way round. `new_person_name` instead of `person_id` makes the person in the same transaction.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /person_links/{id}`.
pub(crate) static GET: Operation<Id, PersonLink> = Operation::new(
    "getPersonLink",
    Get,
    "/person_links/{id}",
    "A person link",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/person_links/{id}`.
pub(crate) static CHANGE: Operation<(Id, PersonLinkInput), PersonLink> = Operation::new(
    "changePersonLink",
    Patch,
    "/person_links/{id}",
    "Change a person link\n\nStored one way as on create, so the people may swap.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "replacePersonLink");

/// `DELETE /person_links/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deletePersonLink",
    Delete,
    "/person_links/{id}",
    "Delete a person link\n\nPermanent; a `person_link` deletion record; both people get a new `updated_at`.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// The person links' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&LIST, &CREATE, &GET, &CHANGE, &DELETE];

/// The person links of a store (document 3, "Person links"), through a [`Door`]: the store
/// itself (`org.person_links()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct PersonLinks<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> PersonLinks<'d, D> {
    /// The person links of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        PersonLinks { door }
    }

    /// One page of the live person links.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &PersonLinkQuery) -> Result<Page<PersonLink>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a person link between two people (an inverse role swaps them; a symmetric one puts the lower ID first); `new_person_name` makes the other person in the same write.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: PersonLinkInput) -> Result<PersonLink> {
        self.door.call(&CREATE, input)
    }

    /// The live person link `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<PersonLink> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of person link `id`.
    ///
    /// # Errors
    ///
    /// As [`PersonLinks::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`PersonLinks::get`].
    pub fn change(&self, id: Id, input: PersonLinkInput) -> Result<PersonLink> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes person link `id`, permanently; both people get a new `updated_at`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`PersonLinks::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }
}

impl Organiser {
    /// The store's person links.
    pub fn person_links(&self) -> PersonLinks<'_> {
        PersonLinks::new(self)
    }
}
