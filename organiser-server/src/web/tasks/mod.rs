//! The tasks' pages (EXTENSIONS.md §6, "Pages": today with its counts,
//! the Inbox and every view, quick add that understands the CLI's date
//! and repeat words, and a task with every field, its repeat, reminder
//! and documents), each action a form that works without script:
//!
//! - `views`: today at `/`, the views at `/tasks?view=`, quick add,
//!   completing a task and undoing it;
//! - `page`: a task's own page, saving its form, moving, deleting and
//!   restoring it; `edit`: the task form read back as a change;
//! - `body`: what a page of tasks reads and shows (a list's page too);
//! - `forms`: what every page's forms share (the signed-in owner, the
//!   record a path names, where a form goes back to, errors beside their
//!   fields).
//!
//! After an action a page is answered 303 back to where the form was,
//! with `done={id}` (a completion) or `deleted={id}` (a delete) in its
//! query: the page then offers the undo (reopen, or restore within the
//! core's 20 seconds).

mod body;
mod edit;

mod page;
mod views;

use axum::Router;
use axum::routing::{get, post};

pub(crate) use body::{Body, PageQuery, Quick, Source, page_counts, read_body};

use crate::AppState;

/// The routes of today, the views, quick add, and a task's own page and
/// its actions.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(views::today))
        .route("/tasks", get(views::list).post(views::quick_add))
        .route("/tasks/{id}/complete", post(views::complete))
        .route("/tasks/{id}/reopen", post(views::reopen))
        .route("/tasks/{id}", get(page::task_page).post(page::save))
        .route("/tasks/{id}/move", post(page::move_task))
        .route("/tasks/{id}/delete", post(page::delete))
        .route("/tasks/{id}/restoration", post(page::restore))
}
