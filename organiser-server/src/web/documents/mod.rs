//! The documents pages (EXTENSIONS.md §6).

use axum::Router;

use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
}