//! Document 2, "Task", "Task status", "Delete and restore", "Tasks": the
//! rules of create and change, placement, status transitions, expiry,
//! restore windows, the views and filters of `GET /tasks`, paging, and
//! idempotent creation. The fixtures are in `common::fixtures`.

use crate::common::Expect;

mod create;
mod placement;
mod repeat;
mod restore;
mod status;
mod views;

/// A refusal: the status, `validation_failed` for a 422 (either 400 code
/// for a 400), and `detail` among the details' keys.
fn refused(status: u16, detail: &str) -> Expect<'_> {
    if status == 422 {
        Expect::any_of(status, &["validation_failed"], detail)
    } else {
        Expect::any_of(status, &["invalid_parameter", "invalid_json"], detail)
    }
}
