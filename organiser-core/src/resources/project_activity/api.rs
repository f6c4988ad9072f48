//! The project activity's operation (document 2, "Activity entry"),
//! declared once, and [`ProjectActivity`], its typed door.

use super::{ActivityEntry, ActivityQuery, activity};
use crate::engine::Organiser;
use crate::engine::op::ReadOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, query_part};
use crate::engine::request::Method::Get;
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;
use crate::resources::documents;

query_part!(ActivityQuery);

/// `GET /projects/{id}/activity`: a view over projects, tasks, notes and
/// documents, served under `/projects` (the dispatch goes by the declared
/// route).
pub(crate) static ACTIVITY: Operation<(Id, ActivityQuery), Page<ActivityEntry>> = Operation::new(
    "listProjectActivity",
    Get,
    "/projects/{id}/activity",
    "A project's activity\n\nOne feed, newest first by `at`; entries at the same time order `event`, `task`, `document`, `note`, `created`, then by id descending. The project's creation comes last. Not a record: no `order`, `updated_since` or `count`. An unknown or deleted project is 404.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, (id, query)| {
        activity(cx, id, &query)
    }),
    // Documents' file addresses are absolute in answers.
    Answer::bare(200).absolute(|page, base| {
        page.map(|entry| match entry {
            ActivityEntry::Document { at, document } => ActivityEntry::Document {
                at,
                document: Box::new(documents::absolute(*document, base)),
            },
            other => other,
        })
    }),
);

/// The project activity's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&ACTIVITY];

/// The activity of a store's projects (document 2, "Activity entry"),
/// through a [`Door`]: the store itself (`org.project_activity()`), or a
/// server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct ProjectActivity<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> ProjectActivity<'d, D> {
    /// The project activity of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        ProjectActivity { door }
    }

    /// One page of project `id`'s feed, newest first: its status and
    /// deadline changes, members added and removed, tasks completed,
    /// documents linked, notes that reference it, and its creation last.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a deleted or unknown
    /// project; [`Error::InvalidParameter`](crate::Error::InvalidParameter)
    /// for a cursor of another feed.
    pub fn list(&self, id: Id, query: &ActivityQuery) -> Result<Page<ActivityEntry>> {
        self.door.call(&ACTIVITY, (id, query.clone()))
    }
}

impl Organiser {
    /// The store's project activity.
    pub fn project_activity(&self) -> ProjectActivity<'_> {
        ProjectActivity::new(self)
    }
}
