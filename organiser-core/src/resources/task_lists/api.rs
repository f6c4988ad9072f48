//! The task lists' operations (document 2, "Task lists"), each declared
//! once for the typed method and the route arm.

use super::{
    TaskList, TaskListInput, TaskListQuery, change, create, delete, get, list, parse, restore,
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
static RESTORE: WriteOp = WriteOp::LICENSED.idempotent();

impl Organiser {
    /// `GET /task_lists`.
    pub fn task_lists(&self, query: &TaskListQuery) -> Result<Page<TaskList>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /task_lists`.
    pub fn create_task_list(&self, input: &TaskListInput) -> Result<TaskList> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /task_lists/{id}`.
    pub fn task_list(&self, id: Id) -> Result<TaskList> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /task_lists/{id}`.
    pub fn change_task_list(&self, id: Id, input: &TaskListInput) -> Result<TaskList> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /task_lists/{id}`: the list and its tasks.
    pub fn delete_task_list(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /task_lists/{id}/restoration`.
    pub fn restore_task_list(&self, id: Id) -> Result<TaskList> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }
}

/// `/task_lists`.
/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/task_lists"),
        Endpoint::new(Post, "/task_lists"),
        Endpoint::new(Get, "/task_lists/{id}"),
        Endpoint::new(Patch, "/task_lists/{id}"),
        Endpoint::new(Put, "/task_lists/{id}"),
        Endpoint::new(Delete, "/task_lists/{id}"),
        Endpoint::new(Post, "/task_lists/{id}/restoration"),
    ]
};

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["task_lists"]) => {
            let query = TaskListQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["task_lists"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["task_lists", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["task_lists", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["task_lists", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["task_lists", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &restore(cx, id)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
