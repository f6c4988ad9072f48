//! The projects' operations (document 2, "Projects", "Project members", "Project events and deadlines"), each declared once, and
//! [`Projects`], the typed door to them.

use super::deadlines::{UpcomingDeadline, UpcomingDeadlinesQuery, upcoming};
use super::events::{self, ProjectEvent, ProjectEventQuery};
use super::members::{self, ProjectMember, ProjectMemberInput, ProjectMemberQuery};
use super::{
    Project, ProjectInput, ProjectQuery, change, create, delete, get, list, parse, restore,
};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::Changing;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::list::Page;

body_part!(ProjectInput, parse, Some("project"));
query_part!(ProjectQuery);

/// `GET /projects`.
pub(crate) static LIST: Operation<ProjectQuery, Page<Project>> = Operation::new(
    "listProjects",
    Get,
    "/projects",
    "Projects\n\nLive projects; `status` and `person_id` combine with AND, and `count=true` counts the filtered set.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `POST /projects`.
pub(crate) static CREATE: Operation<ProjectInput, Project> = Operation::new(
    "createProject",
    Post,
    "/projects",
    "Make a project\n\nNeeds a `name`, unique ignoring case among live projects. A new project is `active` unless `status` is sent. Members are added through `POST /project_members`. No event is recorded.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /projects/{id}`.
pub(crate) static GET: Operation<Id, Project> = Operation::new(
    "getProject",
    Get,
    "/projects/{id}",
    "A project",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/projects/{id}`.
pub(crate) static CHANGE: Operation<(Id, ProjectInput), Project> = Operation::new(
    "changeProject",
    Patch,
    "/projects/{id}",
    "Change a project\n\nOnly the fields sent change; a change that changes nothing keeps `updated_at`. A status or deadline change records a project event (one within 10 minutes of the last of its kind replaces it).",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| change(cx, id, &input)),
    Answer::data(200),
)
.also(Put, "replaceProject");

/// `DELETE /projects/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteProject",
    Delete,
    "/projects/{id}",
    "Delete a project\n\nGone from every endpoint at once, with its members, events and the tasks homed in it; deletion records for the project, each member (`project_member`, except members whose person is deleted), each event (`project_event`, except member events of deleted people) and each task. The name is free at once.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /projects/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, Project> = Operation::new(
    "restoreProject",
    Post,
    "/projects/{id}/restoration",
    "Restore a project\n\nWithin 20 seconds of the delete; a live project answers as it is. A taken name returns as `Name (2)`, `Name (3)`, ... (the first free); 422 on `name` when no numbered name fits in 100 characters, and the project stays deleted.",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200),
);

body_part!(
    ProjectMemberInput,
    |body| members::parse(body, true),
    Some("project_member")
);
body_part!(
    Changing<ProjectMemberInput>,
    |body| members::parse(body, false).map(Changing),
    Some("project_member")
);
query_part!(
    ProjectMemberQuery,
    ProjectEventQuery,
    UpcomingDeadlinesQuery
);

/// `GET /project_members`.
pub(crate) static MEMBERS: Operation<ProjectMemberQuery, Page<ProjectMember>> = Operation::new(
    "listProjectMembers",
    Get,
    "/project_members",
    "Project members\n\nMembers whose project and person are both live.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| {
        members::list(cx, &query)
    }),
    Answer::bare(200),
);

/// `POST /project_members`.
pub(crate) static ADD_MEMBER: Operation<ProjectMemberInput, ProjectMember> = Operation::new(
    "createProjectMember",
    Post,
    "/project_members",
    "Add a member to a project\n\nA person is on a project once. `new_person_name` instead of `person_id` makes the person in the same transaction (a 422 makes neither). Records a `member_added` event; the project gets a new `updated_at`.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        members::create(cx, &input)
    }),
    Answer::data(201),
);

/// `GET /project_members/{id}`.
pub(crate) static MEMBER: Operation<Id, ProjectMember> = Operation::new(
    "getProjectMember",
    Get,
    "/project_members/{id}",
    "A project member",
    Run::Read(ReadOp::SETTLED, members::get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/project_members/{id}`.
pub(crate) static CHANGE_MEMBER: Operation<(Id, Changing<ProjectMemberInput>), ProjectMember> =
    Operation::new(
        "changeProjectMember",
        Patch,
        "/project_members/{id}",
        "Change a project member\n\nOnly `role` changes (`project_id` and `person_id` are ignored; `new_person_name` is 400). A role change gives the member and its project a new `updated_at`, and records no event.",
        Run::write(WriteOp::LICENSED, |cx, (id, Changing(input))| {
            members::change(cx, id, &input)
        }),
        Answer::data(200),
    )
    .also(Put, "replaceProjectMember");

/// `DELETE /project_members/{id}`.
pub(crate) static REMOVE_MEMBER: Operation<Id, ()> = Operation::new(
    "deleteProjectMember",
    Delete,
    "/project_members/{id}",
    "Remove a member from a project\n\nPermanent; a `project_member` deletion record and a `member_removed` event; the project gets a new `updated_at`.",
    Run::write(WriteOp::LICENSED, members::delete),
    Answer::empty(),
);

/// `GET /project_events`.
pub(crate) static EVENTS: Operation<ProjectEventQuery, Page<ProjectEvent>> = Operation::new(
    "listProjectEvents",
    Get,
    "/project_events",
    "Project events\n\nRead only: recorded when a project's status or deadline changes and when members are added or removed. Events of live projects, without deleted people's member events.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| events::list(cx, &query)),
    Answer::bare(200),
);

/// `GET /upcoming_deadlines`.
pub(crate) static DEADLINES: Operation<UpcomingDeadlinesQuery, Vec<UpcomingDeadline>> =
    Operation::new(
        "listUpcomingDeadlines",
        Get,
        "/upcoming_deadlines",
        "Upcoming project deadlines\n\nOpen projects (`planned`, `active`, `on_hold`) with a deadline in the window, plus every overdue one, ordered by deadline, name (ignoring case), id; today is in the owner's zone. Not paginated.",
        Run::Read(ReadOp::SETTLED, upcoming),
        Answer::data(200),
    );

/// The projects' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST,
    &CREATE,
    &GET,
    &CHANGE,
    &DELETE,
    &RESTORE,
    &MEMBERS,
    &ADD_MEMBER,
    &MEMBER,
    &CHANGE_MEMBER,
    &REMOVE_MEMBER,
    &EVENTS,
    &DEADLINES,
];

/// The projects of a store (document 2, "Projects", "Project members", "Project events and deadlines"), through a [`Door`]: the store
/// itself (`org.projects()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Projects<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Projects<'d, D> {
    /// The projects of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Projects { door }
    }

    /// One page of the live projects (by status, or those a person is a member of), by name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses (an unknown order, a cursor of
    /// another listing).
    pub fn list(&self, query: &ProjectQuery) -> Result<Page<Project>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a project, `active` unless `input` names a status; its name unique ignoring case among live projects.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a field the
    /// rules refuse; [`Error::ReadOnly`](crate::Error::ReadOnly) while the
    /// licence is read-only.
    pub fn create(&self, input: ProjectInput) -> Result<Project> {
        self.door.call(&CREATE, input)
    }

    /// The live project `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for one that is deleted
    /// or was never made.
    pub fn get(&self, id: Id) -> Result<Project> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends (and only those) of project `id`.
    ///
    /// # Errors
    ///
    /// As [`Projects::create`]; [`Error::NotFound`](crate::Error::NotFound) as
    /// [`Projects::get`].
    pub fn change(&self, id: Id, input: ProjectInput) -> Result<Project> {
        self.door.call(&CHANGE, (id, input))
    }

    /// Deletes project `id` with its members, events and the tasks homed in it, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Projects::get`];
    /// [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back project `id` within 20 seconds of its delete; a live
    /// one is given back as it is.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window.
    pub fn restore(&self, id: Id) -> Result<Project> {
        self.door.call(&RESTORE, id)
    }

    /// One page of the members whose project and person are both live
    /// (of a project, or of a person's projects).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn members(&self, query: &ProjectMemberQuery) -> Result<Page<ProjectMember>> {
        self.door.call(&MEMBERS, query.clone())
    }

    /// Adds a person (or, with `new_person_name`, a new one) to a project,
    /// once; records a `member_added` event.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a project or
    /// person that does not exist, or a person already on the project.
    pub fn add_member(&self, input: ProjectMemberInput) -> Result<ProjectMember> {
        self.door.call(&ADD_MEMBER, input)
    }

    /// The member `id`, while its project and person are live.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) otherwise.
    pub fn member(&self, id: Id) -> Result<ProjectMember> {
        self.door.call(&MEMBER, id)
    }

    /// Changes member `id`'s role (the only field a change takes).
    ///
    /// # Errors
    ///
    /// As [`Projects::member`]; [`Error::InvalidParameter`](crate::Error::InvalidParameter)
    /// for `new_person_name`.
    pub fn change_member(&self, id: Id, input: ProjectMemberInput) -> Result<ProjectMember> {
        self.door.call(&CHANGE_MEMBER, (id, Changing(input)))
    }

    /// Removes member `id`, permanently; records a `member_removed` event.
    ///
    /// # Errors
    ///
    /// As [`Projects::member`].
    pub fn remove_member(&self, id: Id) -> Result<()> {
        self.door.call(&REMOVE_MEMBER, id)
    }

    /// One page of the events of live projects (status and deadline
    /// changes, members added and removed).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn events(&self, query: &ProjectEventQuery) -> Result<Page<ProjectEvent>> {
        self.door.call(&EVENTS, query.clone())
    }

    /// The open projects whose deadline falls in the window `query` names,
    /// and every overdue one, soonest first.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn upcoming_deadlines(
        &self,
        query: UpcomingDeadlinesQuery,
    ) -> Result<Vec<UpcomingDeadline>> {
        self.door.call(&DEADLINES, query)
    }
}

impl Organiser {
    /// The store's projects.
    pub fn projects(&self) -> Projects<'_> {
        Projects::new(self)
    }
}
