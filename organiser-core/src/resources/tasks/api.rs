//! The tasks' operations (document 2, "Tasks", "Delete and restore",
//! "Counts"), each declared once, and [`Tasks`], the typed door to them.

use super::project_counts::{ProjectTaskCount, project_task_counts};
use super::{
    Task, TaskCounts, TaskCountsQuery, TaskInput, TaskQuery, change, counts, create, delete, list,
    list_json, parse, restore,
};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::request::Response;
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(TaskInput, parse, Some("task"));
query_part!(TaskQuery, TaskCountsQuery);

/// Lists and counts are kept between requests of one commit generation.
const LISTED: ReadOp = ReadOp::SETTLED.kept();
/// Expired tasks are archived first.
const READ: ReadOp = ReadOp::SETTLED;

/// `GET /tasks`.
pub(crate) static LIST: Operation<TaskQuery, Page<Task>> = Operation::new(
    "listTasks",
    Get,
    "/tasks",
    "Tasks\n\nLive tasks; filters combine with AND. Open tasks past `expires_on` are archived first.",
    Run::Read(LISTED, |cx, query| list(cx, &query)),
    Answer::bare(200),
)
.answered_by(|cx, query, _| Ok(Response::json(200, &list_json(cx, query)?)));

/// `POST /tasks`.
pub(crate) static CREATE: Operation<TaskInput, Task> = Operation::new(
    "createTask",
    Post,
    "/tasks",
    "Make a task\n\nNeeds a `title`; `repeat` needs a `deadline_on` or a `start_on`.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /tasks/{id}`.
pub(crate) static GET: Operation<Id, Task> = Operation::new(
    "getTask",
    Get,
    "/tasks/{id}",
    "A task\n\nA deleted task, or one in a deleted home, is 404.",
    Run::Read(READ, super::get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/tasks/{id}`.
pub(crate) static CHANGE: Operation<(Id, TaskInput), Task> = Operation::new(
    "patchTask",
    Patch,
    "/tasks/{id}",
    "Change a task\n\nOnly the fields sent change. Closing an open repeating task (`completed`, or `wont_do` to skip it) makes its next occurrence in the same write and names it in `next_task_id`; reopening it deletes that occurrence when nothing has changed it since.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "putTask");

/// `DELETE /tasks/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteTask",
    Delete,
    "/tasks/{id}",
    "Delete a task",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /tasks/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, Task> = Operation::new(
    "restoreTask",
    Post,
    "/tasks/{id}/restoration",
    "Restore a task\n\nWithin 20 seconds of the delete; 404 while its list is deleted (restore that instead). 422 only as `idempotency_key_reused`.",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200),
);

/// `GET /task_counts`.
pub(crate) static COUNTS: Operation<TaskCountsQuery, TaskCounts> = Operation::new(
    "getTaskCounts",
    Get,
    "/task_counts",
    "Task counts\n\nNaming a view or one home fills `page`; only `logbook` combines with a home.",
    Run::Read(LISTED, |cx, query| counts(cx, &query)),
    Answer::data(200),
);

/// `GET /project_task_counts`.
pub(crate) static PROJECT_COUNTS: Operation<(), Vec<ProjectTaskCount>> = Operation::new(
    "listProjectTaskCounts",
    Get,
    "/project_task_counts",
    "Task counts per project\n\nLive projects with at least one live open or completed task; `wont_do` and archived tasks count in neither. Expired tasks are archived first. Not paginated, not a record.",
    Run::Read(LISTED, |cx, ()| project_task_counts(cx)),
    Answer::data(200),
);

/// The tasks' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST,
    &CREATE,
    &GET,
    &CHANGE,
    &DELETE,
    &RESTORE,
    &COUNTS,
    &PROJECT_COUNTS,
];

/// The tasks of a store (document 2, "Tasks"), through a [`Door`]: the
/// store itself (`org.tasks()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Tasks<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Tasks<'d, D> {
    /// The tasks of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Tasks { door }
    }

    /// One page of the live tasks `query` selects (a view, statuses, a
    /// home), in its order. Open tasks past `expires_on` are archived
    /// first.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// cursor of another listing or a combination the API refuses (a view
    /// with statuses, an order the view does not take).
    pub fn list(&self, query: &TaskQuery) -> Result<Page<Task>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a task: in the Inbox unless `input` names a home, at the top
    /// of its home's open tasks unless it names a position.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank title,
    /// a home that does not exist, dates out of order or documents that
    /// are not there; [`Error::ReadOnly`](crate::Error::ReadOnly) while
    /// the licence is read-only.
    pub fn create(&self, input: TaskInput) -> Result<Task> {
        self.door.call(&CREATE, input)
    }

    /// The live task `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a task that is
    /// deleted, in a deleted home, or was never made.
    pub fn get(&self, id: Id) -> Result<Task> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of task `id`;
    /// a change that changes nothing leaves `updated_at` alone.
    ///
    /// # Errors
    ///
    /// As [`Tasks::create`], and [`Error::NotFound`](crate::Error::NotFound)
    /// as [`Tasks::get`].
    pub fn change(&self, id: Id, input: TaskInput) -> Result<Task> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes task `id`, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Tasks::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back task `id` within 20 seconds of its delete; a live task
    /// is given back as it is.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window, or
    /// while its home is deleted (restore that instead).
    pub fn restore(&self, id: Id) -> Result<Task> {
        self.door.call(&RESTORE, id)
    }

    /// How many open tasks each view, list, person and project holds, and
    /// the counts of the page `query` names.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// view combined with a home (but `logbook`).
    pub fn counts(&self, query: &TaskCountsQuery) -> Result<TaskCounts> {
        self.door.call(&COUNTS, *query)
    }

    /// The open and completed tasks of each live project that has any.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn project_counts(&self) -> Result<Vec<ProjectTaskCount>> {
        self.door.call(&PROJECT_COUNTS, ())
    }
}

impl Organiser {
    /// The store's tasks.
    pub fn tasks(&self) -> Tasks<'_> {
        Tasks::new(self)
    }
}
