//! The task lists' operations (document 2, "Task lists"), each declared
//! once, and [`TaskLists`], the typed door to them.

use super::{
    TaskList, TaskListInput, TaskListQuery, change, create, delete, get, list, parse, restore,
};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(TaskListInput, parse, Some("task_list"));
query_part!(TaskListQuery);

impl TaskListQuery {
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        self.params.query_pairs()
    }
}

/// `GET /task_lists`.
pub(crate) static LIST: Operation<TaskListQuery, Page<TaskList>> = Operation::new(
    "listTaskLists",
    Get,
    "/task_lists",
    "Task lists",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /task_lists`.
pub(crate) static CREATE: Operation<TaskListInput, TaskList> = Operation::new(
    "createTaskList",
    Post,
    "/task_lists",
    "Make a task list\n\nNeeds a `name`, unique ignoring case. Goes last unless `position` is sent.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /task_lists/{id}`.
pub(crate) static GET: Operation<Id, TaskList> = Operation::new(
    "getTaskList",
    Get,
    "/task_lists/{id}",
    "A task list",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/task_lists/{id}`.
pub(crate) static CHANGE: Operation<(Id, TaskListInput), TaskList> = Operation::new(
    "patchTaskList",
    Patch,
    "/task_lists/{id}",
    "Change a task list\n\nOnly the fields sent change.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "putTaskList");

/// `DELETE /task_lists/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteTaskList",
    Delete,
    "/task_lists/{id}",
    "Delete a task list and its tasks",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /task_lists/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, TaskList> = Operation::new(
    "restoreTaskList",
    Post,
    "/task_lists/{id}/restoration",
    "Restore a task list\n\nWithin 20 seconds of the delete; a live list answers as it is. A taken name returns as `Name (2)`, ...",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200),
);

/// The task lists' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] =
    &[&LIST, &CREATE, &GET, &CHANGE, &DELETE, &RESTORE];

/// The task lists of a store (document 2, "Task lists"), through a
/// [`Door`]: the store itself (`org.task_lists()`), or a server that
/// holds it.
#[derive(Debug, Clone, Copy)]
pub struct TaskLists<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> TaskLists<'d, D> {
    /// The task lists of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        TaskLists { door }
    }

    /// One page of the live lists, by position unless `query` names
    /// another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an
    /// unknown order or a cursor of another listing.
    pub fn list(&self, query: &TaskListQuery) -> Result<Page<TaskList>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a list, last unless `input` names a position.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank name, or
    /// one a live list has (ignoring case), or an unknown colour or icon;
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn create(&self, input: TaskListInput) -> Result<TaskList> {
        self.door.call(&CREATE, input)
    }

    /// The live list `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a deleted or unknown
    /// list.
    pub fn get(&self, id: Id) -> Result<TaskList> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends of list `id`.
    ///
    /// # Errors
    ///
    /// As [`TaskLists::create`] and [`TaskLists::get`].
    pub fn change(&self, id: Id, input: TaskListInput) -> Result<TaskList> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes list `id` with its tasks, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// As [`TaskLists::get`]; [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back list `id` and the tasks its delete took, within 20
    /// seconds; a taken name comes back numbered ("Work (2)").
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window.
    pub fn restore(&self, id: Id) -> Result<TaskList> {
        self.door.call(&RESTORE, id)
    }
}

impl Organiser {
    /// The store's task lists.
    pub fn task_lists(&self) -> TaskLists<'_> {
        TaskLists::new(self)
    }
}
