//! The projects' pages (EXTENSIONS.md §6, "Pages": projects): `/projects`
//! (the projects by status with their deadlines, the upcoming deadlines,
//! and a form to make one) and each project at `/projects/{id}`
//! (`page.rs`: its fields, the status and deadline history, members,
//! activity and open tasks), with a form for each change (`changes.rs`),
//! delete and the restore of a delete offered for the core's 20 seconds.
//! Every action a plain form with the session's CSRF token.

mod changes;
mod page;

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing::{get, post};
use jiff::civil::Date;
use organiser_core::Id;
use organiser_core::projects::{
    Project, ProjectInput, ProjectQuery, ProjectStatus, UpcomingDeadline, UpcomingDeadlinesQuery,
};
use serde::Deserialize;

use super::forms::{
    FieldErrors, NameForm, PlainForm, SignedForm, SignedIn, answer, every, invalid, record_id,
};
use super::{Chrome, Refusal, blocking, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/projects", get(projects).post(create))
        .route("/projects/{id}", get(page::show).post(changes::change))
        .route("/projects/{id}/delete", post(delete))
        .route("/projects/{id}/restoration", post(restore))
        .route("/projects/{id}/members", post(changes::add_member))
        .route(
            "/projects/{id}/members/{member}/delete",
            post(changes::remove_member),
        )
        .route("/projects/{id}/tasks", post(changes::quick_add))
}

/// A status in words.
pub(super) fn status_label(status: ProjectStatus) -> &'static str {
    match status {
        ProjectStatus::Planned => "Planned",
        ProjectStatus::Active => "Active",
        ProjectStatus::OnHold => "On hold",
        ProjectStatus::Done => "Done",
        ProjectStatus::Cancelled => "Cancelled",
    }
}

/// A day as the pages write it (`Fri 14 Mar 2025`).
pub(super) fn day(date: Date) -> String {
    date.strftime("%a %-d %b %Y").to_string()
}

/// The projects of one status.
struct Group {
    label: &'static str,
    key: &'static str,
    projects: Vec<Project>,
}

/// `/projects`.
#[derive(Template)]
#[template(path = "projects.html")]
struct ProjectsPage<'a> {
    chrome: Chrome<'a>,
    groups: Vec<Group>,
    /// The open projects due in the next 30 days, and every overdue one.
    deadlines: Vec<UpcomingDeadline>,
    /// The new project's name as typed, and why it was refused.
    name: String,
    error: Option<String>,
    /// A project just deleted, to restore.
    deleted: Option<Id>,
}

impl ProjectsPage<'_> {
    fn day(&self, date: &Date) -> String {
        day(*date)
    }
}

/// `GET /projects?deleted=`.
#[derive(Debug, Default, Deserialize)]
struct ProjectsQuery {
    deleted: Option<String>,
}

/// Draws `/projects`; `name` and `error` the refused new project.
async fn draw_projects(
    owner: &SignedIn,
    deleted: Option<Id>,
    name: String,
    error: Option<String>,
) -> Result<Response, Refusal> {
    let (all, deadlines) = blocking(&owner.state, |org| {
        let all = every(|params| {
            org.projects().list(&ProjectQuery {
                params,
                ..ProjectQuery::default()
            })
        })?;
        let deadlines = org.projects().upcoming_deadlines(UpcomingDeadlinesQuery {
            days: Some(30),
            limit: Some(20),
        })?;
        Ok((all, deadlines))
    })
    .await?;
    let groups = ProjectStatus::ALL
        .into_iter()
        .map(|status| Group {
            label: status_label(status),
            key: status.key(),
            projects: all.iter().filter(|p| p.status == status).cloned().collect(),
        })
        .filter(|g| !g.projects.is_empty())
        .collect();
    let refused = error.is_some();
    let page = ProjectsPage {
        chrome: owner.session.chrome("projects"),
        groups,
        deadlines,
        name,
        error,
        deleted,
    };
    Ok(answer(&page, refused))
}

/// `GET /projects`.
async fn projects(Query(q): Query<ProjectsQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    let deleted = q.deleted.as_deref().and_then(Id::parse);
    draw_projects(&owner, deleted, String::new(), None).await
}

/// `POST /projects`: makes a project; 303 to its page, or `/projects`
/// again beside what was refused (422).
async fn create(sent: SignedForm<NameForm>) -> Result<Response, Refusal> {
    let input = ProjectInput {
        name: Some(sent.form.name.clone()),
        ..ProjectInput::default()
    };
    let made = blocking(&sent.owner.state, move |org| org.projects().create(input)).await;
    match invalid(made)? {
        Ok(project) => Ok(see_other(&format!("/projects/{}", project.id))),
        Err(details) => {
            let why = Some(FieldErrors::said(&details));
            draw_projects(&sent.owner, None, sent.form.name, why).await
        }
    }
}

/// `POST /projects/{id}/delete`: deletes the project (with the tasks
/// homed in it); 303 to `/projects`, which offers the restore.
async fn delete(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.projects().delete(id)).await?;
    Ok(see_other(&format!("/projects?deleted={id}")))
}

/// `POST /projects/{id}/restoration`: the undo of a delete, within the
/// core's 20 seconds; 303 to the project.
async fn restore(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.projects().restore(id)).await?;
    Ok(see_other(&format!("/projects/{id}")))
}
