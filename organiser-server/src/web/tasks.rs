//! The tasks' pages (EXTENSIONS.md §6): today (the today queue with its
//! counts), the views, quick add, and completing a task and undoing it;
//! each a form that works without script.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::tasks::{
    Task, TaskCounts, TaskCountsQuery, TaskInput, TaskQuery, TaskStatus, View,
};
use organiser_core::{Error, Id};
use serde::Deserialize;

use super::{Refusal, blocking, render, see_other, signed, signed_form};
use crate::AppState;

/// A page of tasks: today, or a view.
#[derive(Template)]
#[template(path = "tasks.html")]
struct TasksPage<'a> {
    chrome: super::Chrome<'a>,
    /// The page's heading.
    title: &'a str,
    /// The path this page is at (forms come back to it).
    here: &'a str,
    /// The view shown.
    view: &'a str,
    /// Whether the views are offered (on `/tasks`, not on today).
    show_views: bool,
    /// The views, by API name and heading.
    views: Vec<(&'static str, &'static str)>,
    tasks: &'a [Task],
    counts: &'a TaskCounts,
    /// What the page says when it has no task.
    empty: &'a str,
}

/// The views the navigation offers, with their headings.
const VIEWS: [(View, &str, &str); 5] = [
    (View::TodayQueue, "Today", "Nothing left for today."),
    (
        View::Overview,
        "Inbox and due soon",
        "Nothing in the Inbox, nothing due soon.",
    ),
    (View::Planned, "Planned", "Nothing planned."),
    (View::OneDay, "One day", "Nothing for one day."),
    (View::Logbook, "Logbook", "Nothing done yet."),
];

async fn page(
    state: &AppState,
    headers: &HeaderMap,
    view: View,
    here: &str,
) -> Result<Response, Refusal> {
    let session = signed(state, headers).await?;
    let (tasks, counts) = blocking(state, move |org| {
        let tasks = org.tasks().list(&TaskQuery {
            view: Some(view),
            ..TaskQuery::default()
        })?;
        let counts = org.tasks().counts(&TaskCountsQuery::default())?;
        Ok((tasks.items, counts))
    })
    .await?;
    let (_, title, empty) = VIEWS
        .iter()
        .find(|(v, _, _)| *v == view)
        .copied()
        .unwrap_or((view, view.as_str(), ""));
    let today = view == View::TodayQueue && here == "/";
    Ok(render(&TasksPage {
        chrome: session.chrome(if today { "today" } else { "tasks" }),
        title,
        here,
        view: view.as_str(),
        show_views: !today,
        views: VIEWS.iter().map(|(v, t, _)| (v.as_str(), *t)).collect(),
        tasks: &tasks,
        counts: &counts,
        empty,
    }))
}

/// `GET /`: today.
pub(crate) async fn today(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    page(&state, &headers, View::TodayQueue, "/").await
}

/// `GET /tasks?view=`.
#[derive(Debug, Deserialize)]
pub(crate) struct ViewQuery {
    view: Option<String>,
}

/// `GET /tasks`: a view (the Inbox and what is due soon by default).
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<ViewQuery>,
) -> Result<Response, Refusal> {
    let view = match q.view.as_deref() {
        None | Some("") => View::Overview,
        Some(name) => View::parse(name).ok_or(Refusal::Core(Error::NotFound))?,
    };
    let here = format!("/tasks?view={}", view.as_str());
    page(&state, &headers, view, &here).await
}

/// A form that acts on a task and comes back to the page it was on.
#[derive(Debug, Deserialize)]
pub(crate) struct TaskForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    back: String,
}

/// Where a form goes back to: a path of ours, else today.
fn back(to: &str) -> &str {
    if to.starts_with('/') && !to.starts_with("//") && !to.contains('\\') {
        to
    } else {
        "/"
    }
}

/// `POST /tasks`: quick add.
pub(crate) async fn quick_add(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let title = form.title.clone();
    blocking(&state, move |org| {
        org.tasks().create(TaskInput::titled(title))
    })
    .await?;
    Ok(see_other(back(&form.back)))
}

async fn set_status(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
    form: &TaskForm,
    status: TaskStatus,
) -> Result<Response, Refusal> {
    signed_form(state, headers, &form.csrf_token).await?;
    let id = Id::parse(id).ok_or(Refusal::Core(Error::NotFound))?;
    blocking(state, move |org| {
        org.tasks().change(
            id,
            TaskInput {
                status: Some(status),
                ..TaskInput::default()
            },
        )
    })
    .await?;
    Ok(see_other(back(&form.back)))
}

/// `POST /tasks/{id}/complete`.
pub(crate) async fn complete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(&state, &headers, &id, &form, TaskStatus::Completed).await
}

/// `POST /tasks/{id}/reopen`: the undo of a completion.
pub(crate) async fn reopen(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(&state, &headers, &id, &form, TaskStatus::Open).await
}
