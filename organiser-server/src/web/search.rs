//! Search as you type (EXTENSIONS.md §6): `/search`, across every type the core searches.

use axum::Router;

use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
}
