//! The tasks' operations (document 2, "Tasks", "Delete and restore",
//! "Counts"), each declared once for the typed method and the route arm.

use super::project_counts::{ProjectTaskCount, project_task_counts};
use super::{
    Task, TaskCounts, TaskCountsQuery, TaskInput, TaskQuery, change, counts, create, delete, list,
    list_json, parse, restore,
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
static COUNTS: ReadOp = ReadOp::SETTLED.kept();
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
static RESTORE: WriteOp = WriteOp::LICENSED.idempotent();

impl Organiser {
    /// `GET /tasks`.
    pub fn tasks(&self, query: &TaskQuery) -> Result<Page<Task>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /tasks`.
    pub fn create_task(&self, input: &TaskInput) -> Result<Task> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /tasks/{id}`.
    pub fn task(&self, id: Id) -> Result<Task> {
        self.inner.read_op(&GET, |cx| super::get(cx, id))
    }

    /// `PATCH /tasks/{id}`.
    pub fn change_task(&self, id: Id, input: &TaskInput) -> Result<Task> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /tasks/{id}`.
    pub fn delete_task(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /tasks/{id}/restoration`.
    pub fn restore_task(&self, id: Id) -> Result<Task> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }

    /// `GET /task_counts`.
    pub fn task_counts(&self, query: &TaskCountsQuery) -> Result<TaskCounts> {
        self.inner.read_op(&COUNTS, |cx| counts(cx, query))
    }

    /// `GET /project_task_counts`.
    pub fn project_task_counts(&self) -> Result<Vec<ProjectTaskCount>> {
        self.inner.read_op(&COUNTS, project_task_counts)
    }
}

/// `/tasks`, `/task_counts` and `/project_task_counts`.
/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/tasks"),
        Endpoint::new(Post, "/tasks"),
        Endpoint::new(Get, "/tasks/{id}"),
        Endpoint::new(Patch, "/tasks/{id}"),
        Endpoint::new(Put, "/tasks/{id}"),
        Endpoint::new(Delete, "/tasks/{id}"),
        Endpoint::new(Post, "/tasks/{id}/restoration"),
        Endpoint::new(Get, "/task_counts"),
        Endpoint::new(Get, "/project_task_counts"),
    ]
};

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["tasks"]) => {
            let query = TaskQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list_json(cx, &query)?)))
        }
        (Post, ["tasks"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["tasks", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &super::get(cx, id)?)))
        }
        (Patch | Put, ["tasks", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["tasks", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["tasks", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &restore(cx, id)?)))
        }
        (Get, ["project_task_counts"]) => {
            COUNTS.route(|cx| Ok(Response::data(200, &project_task_counts(cx)?)))
        }
        (Get, ["task_counts"]) => {
            let query = TaskCountsQuery::parse(&req.query)?;
            COUNTS.route(move |cx| Ok(Response::data(200, &counts(cx, &query)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
