//! A task's `remind_at` (EXTENSIONS.md §3): its rules on a write, how a
//! repeating task's moves with its dates, and the queue of reminders not
//! yet sent (`tasks_by_remind_at`), which the reminders' scheduler reads
//! by time and takes from as it sends.

use jiff::Timestamp;
use jiff::civil::Date;

use super::Task;
use super::input::TaskInput;
use super::tables::TASKS_BY_REMIND_AT;
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::store::key::{Key, Reader, tail_id};
use crate::store::{Dir, Tables};

/// Applies `input.remind_at` to `task` (already moved to its new status):
/// a value sent is checked when it differs from what the task had
/// (`before`): only on an open task, and not in the past.
pub(crate) fn apply(
    details: &mut Details,
    task: &mut Task,
    before: Option<&Task>,
    input: &TaskInput,
    now: Timestamp,
) {
    match &input.remind_at {
        Field::Absent => {}
        Field::Null => task.remind_at = None,
        Field::Value(at) => {
            let at = crate::time::to_millis(*at);
            if before.and_then(|b| b.remind_at) == Some(at)
                && before.is_some_and(|b| b.status == task.status)
            {
                return;
            }
            if task.status.is_closed() {
                details.add("remind_at", "can only be set on an open task");
            } else if at < now {
                details.add("remind_at", "can't be in the past");
            } else {
                task.remind_at = Some(at);
            }
        }
    }
}

/// The next occurrence's reminder: `remind_at` moved by as many days as
/// the occurrence's date moved (`from` to `to`), at the same time of day
/// in the owner's `zone`.
pub(crate) fn moved(
    remind_at: Option<Timestamp>,
    from: Date,
    to: Date,
    zone: &crate::time::Zone,
) -> Option<Timestamp> {
    let at = remind_at?;
    let days = crate::time::days_between(from, to);
    let local = at.to_zoned(zone.time_zone().clone()).datetime();
    let date = crate::time::add_days(local.date(), days);
    date.to_datetime(local.time())
        .to_zoned(zone.time_zone().clone())
        .ok()
        .map(|z| z.timestamp())
}

/// The reminder a task waits for: its `remind_at` while it is live and
/// open.
fn waiting(task: Option<&Task>) -> Option<Timestamp> {
    task.filter(|t| !t.status.is_closed())
        .and_then(|t| t.remind_at)
}

fn key(at: Timestamp, id: Id) -> Key {
    Key::new().timestamp(at).id(id)
}

/// Keeps the queue as a task is written (`before` and `after`, `None` for
/// a task not live). A reminder is queued when it is set or the task
/// becomes open again, if its time is still ahead; one already sent is
/// never queued again by a write that leaves it as it was.
pub(crate) fn follow(
    cx: &WriteCx<'_>,
    id: Id,
    before: Option<&Task>,
    after: Option<&Task>,
) -> Result<()> {
    let (old, new) = (waiting(before), waiting(after));
    if old == new {
        return Ok(());
    }
    if let Some(old) = old {
        cx.remove(TASKS_BY_REMIND_AT, key(old, id).as_slice())?;
    }
    if let Some(new) = new
        && new > cx.now()
    {
        cx.insert(TASKS_BY_REMIND_AT, key(new, id).as_slice(), &[])?;
    }
    Ok(())
}

/// The earliest reminder waiting in the queue, if any.
pub(crate) fn next<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<Timestamp>> {
    let first = cx.first_key(
        TASKS_BY_REMIND_AT,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
    )?;
    Ok(first.map(|k| at_of(&k)))
}

fn at_of(key: &[u8]) -> Timestamp {
    Timestamp::from_millisecond(Reader::new(key).i64()).unwrap_or_default()
}

/// Takes from the queue the reminders due at or before `up_to`, at most
/// `max`, earliest first: each task's ID and `remind_at`.
pub(crate) fn take_due(
    cx: &WriteCx<'_>,
    up_to: Timestamp,
    max: usize,
) -> Result<Vec<(Id, Timestamp)>> {
    let mut due = Vec::new();
    let end = Key::new().timestamp(up_to).bytes(&[0xff; 17]).into_vec();
    cx.scan(
        TASKS_BY_REMIND_AT,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Included(end.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            due.push((tail_id(k), at_of(k), k.to_vec()));
            Ok(due.len() < max)
        },
    )?;
    for (_, _, k) in &due {
        cx.remove(TASKS_BY_REMIND_AT, k)?;
    }
    Ok(due.into_iter().map(|(id, at, _)| (id, at)).collect())
}
