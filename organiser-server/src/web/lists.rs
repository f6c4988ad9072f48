//! The task lists' pages (EXTENSIONS.md §6): `/lists` and each list at `/lists/{id}`.

use axum::Router;

use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
}
