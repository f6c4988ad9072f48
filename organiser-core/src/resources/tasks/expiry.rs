//! Expiry (document 2, "Task status"): an open task whose `expires_on` is
//! before today in the owner's zone is archived, with `archived_at` the
//! midnight at the start of the day after `expires_on` and `expired` true.
//! Settled before any task endpoint or count answers. A repeating task's
//! expiry makes its next occurrence (EXTENSIONS.md §1, rule 3).

use std::ops::Bound;

use super::index::keys;
use super::{Task, TaskRow, TaskStatus, load_row, put_live};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::resources::tasks::tables::TASKS_OPEN_BY_EXPIRY;
use crate::store::key::tail_id;
use crate::store::{Dir, Tables};
use crate::time::add_days;

/// Archives `task` when it is open and its expiry passed (in place; no save).
pub(crate) fn archive_if_expired<T: Tables>(cx: &Cx<'_, T>, task: &mut Task) {
    if task.status != TaskStatus::Open {
        return;
    }
    if let Some(expires) = task.expires_on.filter(|e| *e < cx.today()) {
        task.status = TaskStatus::Archived;
        task.archived_at = Some(cx.zone().start_of(add_days(expires, 1)));
        task.completed_at = None;
        task.expired = true;
    }
}

/// Whether an open task's expiry has passed.
pub(crate) fn due<T: Tables>(cx: &Cx<'_, T>) -> Result<bool> {
    let today = keys::by_expiry(cx.today(), crate::ids::Id::from_bytes([0; 16]));
    Ok(cx
        .first_key(
            TASKS_OPEN_BY_EXPIRY,
            Bound::Unbounded,
            Bound::Excluded(today.as_slice()),
            Dir::Asc,
        )?
        .is_some())
}

/// Archives every open task whose expiry passed.
pub(crate) fn settle(cx: &mut WriteCx<'_>) -> Result<()> {
    let today = keys::by_expiry(cx.today(), crate::ids::Id::from_bytes([0; 16]));
    let mut ids = Vec::new();
    cx.scan(
        TASKS_OPEN_BY_EXPIRY,
        Bound::Unbounded,
        Bound::Excluded(today.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    for id in ids {
        let Some(TaskRow {
            task: before,
            deleted: None,
        }) = load_row(cx, id)?
        else {
            continue;
        };
        let mut task = before.clone();
        archive_if_expired(cx, &mut task);
        task.updated_at = cx.now();
        super::series::closed(cx, &mut task)?;
        put_live(cx, Some(&before), &task)?;
    }
    Ok(())
}
