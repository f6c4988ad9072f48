//! The settings (EXTENSIONS.md §6): account, appearance, API tokens, licence, updates, backups, calendar subscriptions and reminders, under `/settings`.

use axum::Router;

use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
}
