//! The projects' tables: the records of projects, members and events, the
//! indexes of the live ones (what the lists walk) and of every stored row
//! (what deletes and restorations walk).

use crate::store::Tbl;
use crate::store::schema::table;

/// Projects by id (live, and deleted ones until their window ends).
pub(crate) const PROJECTS: Tbl = table("projects");
/// Live projects: (id), orders `id` and `created_at`.
pub(crate) const PROJECTS_LIVE: Tbl = table("projects_live");
/// Live projects: (folded name, id).
pub(crate) const PROJECTS_BY_NAME: Tbl = table("projects_by_name");
/// Live projects: (updated_at, id).
pub(crate) const PROJECTS_BY_UPDATED: Tbl = table("projects_by_updated");
/// Live projects by member: (person, id).
pub(crate) const PROJECTS_OF_PERSON: Tbl = table("projects_of_person");
/// Live projects by member: (person, folded name, id).
pub(crate) const PROJECTS_OF_PERSON_BY_NAME: Tbl = table("projects_of_person_by_name");
/// Live projects by member: (person, updated_at, id).
pub(crate) const PROJECTS_OF_PERSON_BY_UPDATED: Tbl = table("projects_of_person_by_updated");
/// Live open projects with a deadline: (deadline, folded name, id).
pub(crate) const PROJECTS_OPEN_BY_DEADLINE: Tbl = table("projects_open_by_deadline");
/// Live open projects with a start date: (start_date, folded name, id).
pub(crate) const PROJECTS_OPEN_BY_START: Tbl = table("projects_open_by_start");

/// Members by id, shown or hidden (their project or person deleted).
pub(crate) const MEMBERS: Tbl = table("project_members");
/// Every stored member: (project, id).
pub(crate) const MEMBERS_BY_PROJECT: Tbl = table("project_members_by_project");
/// Every stored member: (person, id).
pub(crate) const MEMBERS_BY_PERSON: Tbl = table("project_members_by_person");
/// Shown members: (id).
pub(crate) const MEMBERS_LIVE: Tbl = table("project_members_live");
/// Shown members: (updated_at, id).
pub(crate) const MEMBERS_BY_UPDATED: Tbl = table("project_members_by_updated");
/// Shown members: (project, id).
pub(crate) const MEMBERS_OF_PROJECT: Tbl = table("project_members_of_project");
/// Shown members: (project, updated_at, id).
pub(crate) const MEMBERS_OF_PROJECT_BY_UPDATED: Tbl =
    table("project_members_of_project_by_updated");
/// Shown members: (person, id).
pub(crate) const MEMBERS_OF_PERSON: Tbl = table("project_members_of_person");
/// Shown members: (person, updated_at, id).
pub(crate) const MEMBERS_OF_PERSON_BY_UPDATED: Tbl = table("project_members_of_person_by_updated");

/// Events by id, shown or hidden.
pub(crate) const EVENTS: Tbl = table("project_events");
/// Every stored event: (project, id).
pub(crate) const EVENTS_BY_PROJECT: Tbl = table("project_events_by_project");
/// Every stored member event: (person, id).
pub(crate) const EVENTS_BY_PERSON: Tbl = table("project_events_by_person");
/// Shown events: (id).
pub(crate) const EVENTS_LIVE: Tbl = table("project_events_live");
/// Shown events: (updated_at, id).
pub(crate) const EVENTS_BY_UPDATED: Tbl = table("project_events_by_updated");
/// Shown events: (project, id); also the activity's events, newest first.
pub(crate) const EVENTS_OF_PROJECT: Tbl = table("project_events_of_project");
/// Shown events: (project, updated_at, id).
pub(crate) const EVENTS_OF_PROJECT_BY_UPDATED: Tbl = table("project_events_of_project_by_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    PROJECTS,
    PROJECTS_LIVE,
    PROJECTS_BY_NAME,
    PROJECTS_BY_UPDATED,
    PROJECTS_OF_PERSON,
    PROJECTS_OF_PERSON_BY_NAME,
    PROJECTS_OF_PERSON_BY_UPDATED,
    PROJECTS_OPEN_BY_DEADLINE,
    PROJECTS_OPEN_BY_START,
    MEMBERS,
    MEMBERS_BY_PROJECT,
    MEMBERS_BY_PERSON,
    MEMBERS_LIVE,
    MEMBERS_BY_UPDATED,
    MEMBERS_OF_PROJECT,
    MEMBERS_OF_PROJECT_BY_UPDATED,
    MEMBERS_OF_PERSON,
    MEMBERS_OF_PERSON_BY_UPDATED,
    EVENTS,
    EVENTS_BY_PROJECT,
    EVENTS_BY_PERSON,
    EVENTS_LIVE,
    EVENTS_BY_UPDATED,
    EVENTS_OF_PROJECT,
    EVENTS_OF_PROJECT_BY_UPDATED,
];
