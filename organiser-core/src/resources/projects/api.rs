//! The projects' operations (document 2, "Projects", "Project members",
//! "Project events and deadlines"), each declared once for the typed
//! method and the route arm.

use super::activity::{ActivityEntry, ActivityQuery, activity};
use super::deadlines::{UpcomingDeadline, UpcomingDeadlinesQuery, upcoming};
use super::events::{self, ProjectEvent, ProjectEventQuery};
use super::members::{self, ProjectMember, ProjectMemberInput, ProjectMemberQuery};
use super::{
    Project, ProjectInput, ProjectQuery, change, create, delete, get, list, parse, restore,
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
    /// `GET /projects`.
    pub fn projects(&self, query: &ProjectQuery) -> Result<Page<Project>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /projects`.
    pub fn create_project(&self, input: &ProjectInput) -> Result<Project> {
        self.inner.write_op(&CREATE, |cx| create(cx, input))
    }

    /// `GET /projects/{id}`.
    pub fn project(&self, id: Id) -> Result<Project> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /projects/{id}`.
    pub fn change_project(&self, id: Id, input: &ProjectInput) -> Result<Project> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /projects/{id}`: restorable for 20 seconds.
    pub fn delete_project(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /projects/{id}/restoration`.
    pub fn restore_project(&self, id: Id) -> Result<Project> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }

    /// `GET /projects/{id}/activity`.
    pub fn project_activity(&self, id: Id, query: &ActivityQuery) -> Result<Page<ActivityEntry>> {
        self.inner.read_op(&LIST, |cx| activity(cx, id, query))
    }

    /// `GET /project_members`.
    pub fn project_members(&self, query: &ProjectMemberQuery) -> Result<Page<ProjectMember>> {
        self.inner.read_op(&LIST, |cx| members::list(cx, query))
    }

    /// `POST /project_members`.
    pub fn create_project_member(&self, input: &ProjectMemberInput) -> Result<ProjectMember> {
        self.inner
            .write_op(&CREATE, |cx| members::create(cx, input))
    }

    /// `GET /project_members/{id}`.
    pub fn project_member(&self, id: Id) -> Result<ProjectMember> {
        self.inner.read_op(&GET, |cx| members::get(cx, id))
    }

    /// `PATCH /project_members/{id}`: the role.
    pub fn change_project_member(
        &self,
        id: Id,
        input: &ProjectMemberInput,
    ) -> Result<ProjectMember> {
        self.inner
            .write_op(&CHANGE, |cx| members::change(cx, id, input))
    }

    /// `DELETE /project_members/{id}`: permanent.
    pub fn delete_project_member(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| members::delete(cx, id))
    }

    /// `GET /project_events`.
    pub fn project_events(&self, query: &ProjectEventQuery) -> Result<Page<ProjectEvent>> {
        self.inner.read_op(&LIST, |cx| events::list(cx, query))
    }

    /// `GET /upcoming_deadlines`.
    pub fn upcoming_deadlines(
        &self,
        query: UpcomingDeadlinesQuery,
    ) -> Result<Vec<UpcomingDeadline>> {
        self.inner.read_op(&GET, |cx| upcoming(cx, query))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/projects"),
        Endpoint::new(Post, "/projects"),
        Endpoint::new(Get, "/projects/{id}"),
        Endpoint::new(Patch, "/projects/{id}"),
        Endpoint::new(Put, "/projects/{id}"),
        Endpoint::new(Delete, "/projects/{id}"),
        Endpoint::new(Post, "/projects/{id}/restoration"),
        Endpoint::new(Get, "/projects/{id}/activity"),
        Endpoint::new(Get, "/project_members"),
        Endpoint::new(Post, "/project_members"),
        Endpoint::new(Get, "/project_members/{id}"),
        Endpoint::new(Patch, "/project_members/{id}"),
        Endpoint::new(Put, "/project_members/{id}"),
        Endpoint::new(Delete, "/project_members/{id}"),
        Endpoint::new(Get, "/project_events"),
        Endpoint::new(Get, "/upcoming_deadlines"),
    ]
};

/// `/projects`, `/project_members`, `/project_events` and
/// `/upcoming_deadlines`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["projects"]) => {
            let query = ProjectQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        (Post, ["projects"]) => CREATE.route(
            move || parse(body),
            |cx, input| Ok(Response::data(201, &create(cx, &input)?)),
        ),
        (Get, ["projects", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &get(cx, id)?)))
        }
        (Patch | Put, ["projects", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body),
                move |cx, input| Ok(Response::data(200, &change(cx, id, &input)?)),
            )
        }
        (Delete, ["projects", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["projects", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &restore(cx, id)?)))
        }
        (Get, ["projects", id, "activity"]) => {
            let id = Id::from_path(id)?;
            let query = ActivityQuery::parse(&req.query)?;
            let base = req.base_url.as_str();
            LIST.route(move |cx| {
                // Documents' file addresses are absolute in answers.
                let page = activity(cx, id, &query)?.map(|entry| match entry {
                    ActivityEntry::Document { at, document } => ActivityEntry::Document {
                        at,
                        document: Box::new(crate::resources::documents::absolute(*document, base)),
                    },
                    other => other,
                });
                Ok(Response::json(200, &page))
            })
        }
        (Get, ["project_members"]) => {
            let query = ProjectMemberQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &members::list(cx, &query)?)))
        }
        (Post, ["project_members"]) => CREATE.route(
            move || members::parse(body, true),
            |cx, input| Ok(Response::data(201, &members::create(cx, &input)?)),
        ),
        (Get, ["project_members", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &members::get(cx, id)?)))
        }
        (Patch | Put, ["project_members", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || members::parse(body, false),
                move |cx, input| Ok(Response::data(200, &members::change(cx, id, &input)?)),
            )
        }
        (Delete, ["project_members", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                members::delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Get, ["project_events"]) => {
            let query = ProjectEventQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &events::list(cx, &query)?)))
        }
        (Get, ["upcoming_deadlines"]) => {
            let query = UpcomingDeadlinesQuery::parse(&req.query)?;
            GET.route(move |cx| Ok(Response::data(200, &upcoming(cx, query)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
