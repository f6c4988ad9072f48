//! Delete and restore (document 2, "Delete and restore", placement rule 3;
//! document 1, "Deletion"): a deleted task is gone from every endpoint at
//! once and has a deletion record; it can be restored for 20 seconds, then
//! the delete is permanent. A home's delete takes its live tasks with it.

use super::home::{self, Home};
use super::index::{self, Attrs, keys};
use super::{Deleted, Task, TaskRow, load_row, put_live, save_row};
use super::{expiry, series};
use crate::engine::WriteCx;
use crate::engine::kinds::{Cascade, Change, RecordKind, Settle};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::deletions;
use crate::resources::tasks::tables::{TASKS, TASKS_BY_HOME};
use crate::restore;
use crate::store::Dir;
use crate::store::Tables;
use crate::store::key::tail_id;

/// Tasks: restorable for 20 seconds; expiry and the today set are rules
/// of the clock.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    settle: Some(Settle {
        due: super::settle_due,
        run: super::settle,
    }),
    ..RecordKind::new("task", 2)
};

/// A task list's delete takes its live tasks with it.
pub(crate) static LIST_CASCADE: Cascade = Cascade {
    from: "task_list",
    to: "task",
    delete: |cx, list| delete_with_home(cx, Home::List(list), list),
    restore: restore_with_home,
};

/// A person's delete takes the live tasks homed in the person with it.
pub(crate) static PERSON_CASCADE: Cascade = Cascade {
    from: "person",
    to: "task",
    delete: |cx, person| delete_with_home(cx, Home::Person(person), person),
    restore: restore_with_home,
};

/// A project's delete takes the live tasks homed in it with it.
pub(crate) static PROJECT_CASCADE: Cascade = Cascade {
    from: "project",
    to: "task",
    delete: |cx, project| delete_with_home(cx, Home::Project(project), project),
    restore: restore_with_home,
};

fn take_out(cx: &WriteCx<'_>, mut row: TaskRow, with: Option<Id>) -> Result<()> {
    index::apply(cx, row.task.id, Some(&Attrs::of(&row.task)), None)?;
    super::remind::follow(cx, row.task.id, Some(&row.task), None)?;
    deletions::record(cx, KIND.name, row.task.id)?;
    row.deleted = Some(Deleted { at: cx.now(), with });
    save_row(cx, &row)?;
    cx.tell(KIND.name, row.task.id, Change::Deleted)
}

fn bring_back(cx: &WriteCx<'_>, row: TaskRow) -> Result<Task> {
    let mut task = row.task;
    task.updated_at = cx.now();
    let was_open = task.status == super::TaskStatus::Open;
    expiry::archive_if_expired(cx, &mut task);
    series::restored(cx, &mut task)?;
    if was_open && task.status.is_closed() {
        series::closed(cx, &mut task)?;
    }
    deletions::unrecord(cx, KIND.name, task.id)?;
    put_live(cx, None, &task)?;
    cx.tell(KIND.name, task.id, Change::Restored)?;
    Ok(task)
}

/// `DELETE /tasks/{id}`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let row = match load_row(cx, id)? {
        Some(row @ TaskRow { deleted: None, .. }) => row,
        _ => return Err(Error::NotFound),
    };
    take_out(cx, row, None)?;
    restore::schedule(cx, &KIND, id, cx.now())
}

/// Deletes live task `id` for good at once, with its deletion record and
/// no restore (a repeating task's untouched next occurrence, when the one
/// whose closing made it reopens).
pub(crate) fn remove(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let Some(row @ TaskRow { deleted: None, .. }) = load_row(cx, id)? else {
        return Ok(());
    };
    take_out(cx, row, None)?;
    purge(cx, id)
}

/// `POST /tasks/{id}/restoration`: the live task for a safe retry; 404
/// after the window, for an unknown id, or while its home is deleted.
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<Task> {
    let row = load_row(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted) = row.deleted else {
        return Ok(row.task);
    };
    let home_deleted = deleted.with.is_some() || !home::is_live(cx, row.task.home())?;
    if home_deleted || !restore::within_window(deleted.at, cx.now()) {
        return Err(Error::NotFound);
    }
    restore::cancel(cx, &KIND, id, deleted.at)?;
    bring_back(cx, row)
}

/// Deletes every live task of `home` with it; the IDs taken.
pub(crate) fn delete_with_home(cx: &mut WriteCx<'_>, home: Home, home_id: Id) -> Result<Vec<Id>> {
    let prefix = keys::home_prefix(home).into_vec();
    let mut ids = Vec::new();
    cx.scan_prefix(TASKS_BY_HOME, &prefix, Dir::Asc, &mut |k, _| {
        ids.push(tail_id(k));
        Ok(true)
    })?;
    for &id in &ids {
        if let Some(row @ TaskRow { deleted: None, .. }) = load_row(cx, id)? {
            take_out(cx, row, Some(home_id))?;
        }
    }
    Ok(ids)
}

/// Brings back the tasks a home's delete took (`ids`), those still deleted
/// with it.
pub(crate) fn restore_with_home(cx: &mut WriteCx<'_>, home_id: Id, ids: &[Id]) -> Result<()> {
    for &id in ids {
        if let Some(row) = load_row(cx, id)?
            && row.deleted.is_some_and(|d| d.with == Some(home_id))
        {
            bring_back(cx, row)?;
        }
    }
    Ok(())
}

/// Makes a delete permanent: the record goes; its deletion record stays.
pub(crate) fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(
        row @ TaskRow {
            deleted: Some(_), ..
        },
    ) = load_row(cx, id)?
    {
        super::mentions::unindex(cx, &row)?;
        cx.remove(TASKS, &id.to_bytes())?;
        cx.tell(KIND.name, id, Change::Purged)?;
    }
    Ok(())
}
