//! The person overview's operation (docs/api.md, "Person overview"),
//! declared once, and [`PersonOverviews`], its typed door.

use super::{PersonOverview, overview};
use crate::engine::Organiser;
use crate::engine::op::ReadOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run};
use crate::engine::request::Method::Get;
use crate::error::Result;
use crate::ids::Id;

/// `GET /people/{id}/overview`: a view over people, served under
/// `/people` (the dispatch goes by the declared route). Expired tasks are
/// archived first.
pub(crate) static OVERVIEW: Operation<Id, PersonOverview> = Operation::new(
    "getPersonOverview",
    Get,
    "/people/{id}/overview",
    "A person and what a screen about them shows\n\nOurs: the person (as `GET /people/{id}`), the live companies of their jobs and the live people of their connections (by name), when each key date next falls (as `GET /upcoming_key_dates?person_id=&days=366`), the first 20 of their projects (`GET /projects?person_id=`), the first 20 of their open tasks (`GET /tasks?person_id=&status=open`), the first 10 notes that mention them (`GET /notes?person_id=`), the first 10 documents linked to them (in the order linked), each with the whole list's `total_count`, their next 5 meetings (`GET /people/{id}/meetings?limit=5`), and the owner's zone. 404 for a person not live.",
    Run::Read(ReadOp::SETTLED, overview),
    // Photo and file addresses are absolute in answers.
    Answer::data(200).absolute(PersonOverview::absolute),
);

/// The person overview's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&OVERVIEW];

/// People's overviews (docs/api.md, "Person overview"), through a
/// [`Door`]: the store itself (`org.person_overviews()`), or a server that
/// holds it.
#[derive(Debug, Clone, Copy)]
pub struct PersonOverviews<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> PersonOverviews<'d, D> {
    /// The overviews of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        PersonOverviews { door }
    }

    /// Person `id` and, in one read, what a screen about them shows: the
    /// companies of their jobs, the people they are connected to, when
    /// each key date next falls, and the first of their projects, open
    /// tasks, notes, documents and meetings.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a person who is not
    /// live.
    pub fn get(&self, id: Id) -> Result<PersonOverview> {
        self.door.call(&OVERVIEW, id)
    }
}

impl Organiser {
    /// The store's person overviews.
    pub fn person_overviews(&self) -> PersonOverviews<'_> {
        PersonOverviews::new(self)
    }
}
