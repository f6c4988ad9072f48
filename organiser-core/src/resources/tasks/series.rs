//! Series of repeating tasks (EXTENSIONS.md §1, rules 2 to 6): setting
//! `repeat`, the next occurrence a close makes, at most one open
//! occurrence per series, reopening as an undo, and the calendar's dates
//! to come (rule 7).
//!
//! The open occurrence of each series is kept in `tasks_open_by_series`
//! (by [`super::index`], like every other index), so each rule that must
//! not make a second open occurrence asks one key range.

use jiff::civil::Date;

use super::repeat::{Cursor, Repeat, keep_distance};
use super::{KIND, Task, TaskRow, TaskStatus, lifecycle, load_row, put_live};
use crate::engine::kinds::Given;
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::resources::tasks::index::keys;
use crate::resources::tasks::tables::TASKS_OPEN_BY_SERIES;
use crate::store::key::tail_id;
use crate::store::{Dir, Tables};
use crate::text::fold_case;

/// The live open repeating task of `series` other than `except`, if any.
pub(crate) fn open_occurrence<T: Tables>(
    cx: &Cx<'_, T>,
    series: Id,
    except: Id,
) -> Result<Option<Id>> {
    let prefix = keys::by_series_prefix(series).into_vec();
    let mut found = None;
    cx.scan_prefix(TASKS_OPEN_BY_SERIES, &prefix, Dir::Asc, &mut |k, _| {
        let id = tail_id(k);
        if id == except {
            return Ok(true);
        }
        found = Some(id);
        Ok(false)
    })?;
    Ok(found)
}

/// The date a repeating task repeats from: its deadline, else its start.
pub(crate) fn date_of(task: &Task) -> Option<Date> {
    task.deadline_on.or(task.start_on)
}

/// Rule 2's refusal: a repeating task with neither date.
const NO_DATE: &str = "needs a deadline or a start date to repeat from";

/// Applies the `repeat` an input gives to `task` as it would be saved
/// (rules 1 and 2), its mistakes under `repeat`; whether a repeat was set
/// anew (its series is chosen by [`join_series`] once the input is valid).
pub(crate) fn apply_repeat(
    cx: &WriteCx<'_>,
    details: &mut Details,
    task: &mut Task,
    given: &Field<Repeat>,
) -> bool {
    let mut set = false;
    match given {
        Field::Absent => {}
        Field::Null => {
            task.repeat = None;
            task.cursor = None;
        }
        Field::Value(repeat) => {
            if task.status != TaskStatus::Open {
                details.add("repeat", "can only be set on an open task");
                return false;
            }
            let Some(date) = date_of(task) else {
                details.add("repeat", NO_DATE);
                return false;
            };
            match repeat.normalised(cx.zone().time_zone()) {
                Err(message) => details.add("repeat", message),
                Ok((repeat, rule)) => {
                    if !rule.has_date_after(repeat.from, date) {
                        details.add("repeat", "gives no date after the task's own");
                    } else if task.repeat.as_ref() != Some(&repeat) || task.cursor.is_none() {
                        task.repeat = Some(repeat);
                        task.cursor = Some(Cursor::start(date));
                        set = true;
                    } else {
                        set = true;
                    }
                }
            }
            return set;
        }
    }
    if task.repeat.is_some() && date_of(task).is_none() {
        details.add("repeat", NO_DATE);
    }
    set
}

/// Gives a task whose `repeat` was just set its series (rule 2): its own
/// id the first time; a new series when its series already has another
/// open occurrence (its own id, or a new ULID when its own id names a
/// series already).
pub(crate) fn join_series(cx: &WriteCx<'_>, task: &mut Task) -> Result<()> {
    let Some(series) = task.series_id else {
        task.series_id = Some(task.id);
        return Ok(());
    };
    if open_occurrence(cx, series, task.id)?.is_none() {
        return Ok(());
    }
    let own_named = series == task.id || open_occurrence(cx, task.id, task.id)?.is_some();
    task.series_id = Some(if own_named { cx.new_id() } else { task.id });
    Ok(())
}

/// Keeps a series to one open occurrence when a task becomes open again
/// (reopened or restored): it stops repeating when its series has
/// another open occurrence.
fn keep_one_open(cx: &WriteCx<'_>, task: &mut Task) -> Result<()> {
    if task.status != TaskStatus::Open || task.repeat.is_none() {
        return Ok(());
    }
    if let Some(series) = task.series_id
        && open_occurrence(cx, series, task.id)?.is_some()
    {
        task.repeat = None;
        task.cursor = None;
    }
    Ok(())
}

/// Rule 3 and 4: an open repeating task `task` has just closed (not yet
/// saved). Completing it, skipping it (`wont_do`) or its expiry makes the
/// next occurrence, saved here, and sets `task.next_task_id`; archiving it
/// by hand ends the series. Nothing is made when the series has another
/// open occurrence, or has ended.
pub(crate) fn closed(cx: &WriteCx<'_>, task: &mut Task) -> Result<Option<Task>> {
    let Some(repeat) = task.repeat.clone() else {
        return Ok(None);
    };
    let makes = match task.status {
        TaskStatus::Completed | TaskStatus::WontDo => true,
        TaskStatus::Archived => task.expired,
        TaskStatus::Open => false,
    };
    let (Some(series), Some(date), Some(rule)) =
        (task.series_id, date_of(task), repeat.stored_rule())
    else {
        return Ok(None);
    };
    if !makes || open_occurrence(cx, series, task.id)?.is_some() {
        return Ok(None);
    }
    let cursor = task.cursor.unwrap_or_else(|| Cursor::start(date));
    let Some((next_date, cursor)) = rule.next(repeat.from, cursor, date, cx.today()) else {
        return Ok(None);
    };
    let moved = |d: Option<Date>| d.map(|d| keep_distance(d, date, next_date));
    let now = cx.now();
    let mut next = Task {
        id: cx.new_id(),
        status: TaskStatus::Open,
        start_on: moved(task.start_on),
        deadline_on: moved(task.deadline_on),
        expires_on: moved(task.expires_on),
        remind_at: super::remind::moved(task.remind_at, date, next_date, cx.zone()),
        completed_at: None,
        archived_at: None,
        has_documents: false,
        expired: false,
        next_task_id: None,
        cursor: Some(cursor),
        created_at: now,
        updated_at: now,
        ..task.clone()
    };
    put_live(cx, None, &next)?;
    if task.has_documents {
        let attachments = cx.attachments();
        let docs = (attachments.linked)(cx, KIND.name, task.id)?;
        if !docs.is_empty() {
            let ids = Field::Value(docs);
            let given = Given {
                ids: &ids,
                uploads: &Field::Absent,
            };
            if (attachments.attach)(cx, KIND.name, next.id, given)? {
                let before = next.clone();
                next.has_documents = true;
                put_live(cx, Some(&before), &next)?;
            }
        }
    }
    task.next_task_id = Some(next.id);
    Ok(Some(next))
}

/// Rule 5: closed occurrence `task` has just been reopened (not yet
/// saved). The occurrence its closing made goes when nothing has changed
/// it since (deleted for good, with a deletion record); when it has
/// changed, it carries the series and `task` stops repeating, unless the
/// same change sets `task`'s repeat (`repeat_set`: [`join_series`] then
/// gives it a series of its own).
pub(crate) fn reopened(cx: &mut WriteCx<'_>, task: &mut Task, repeat_set: bool) -> Result<()> {
    if let Some(next_id) = task.next_task_id.take()
        && let Some(TaskRow {
            task: next,
            deleted: None,
        }) = load_row(cx, next_id)?
    {
        if next.updated_at == next.created_at && next.status == TaskStatus::Open {
            lifecycle::remove(cx, next_id)?;
        } else if !repeat_set {
            task.repeat = None;
            task.cursor = None;
        }
    }
    if repeat_set {
        return Ok(());
    }
    keep_one_open(cx, task)
}

/// Rule 6: a restored occurrence carries its series on, unless the series
/// has another open occurrence by now.
pub(crate) fn restored(cx: &WriteCx<'_>, task: &mut Task) -> Result<()> {
    keep_one_open(cx, task)
}

/// The RRULE a calendar subscription's feed gives the open occurrence
/// `task` of a `from: due` series (EXTENSIONS.md §2): the series' rule
/// from this occurrence on, `COUNT` reduced to the dates that remain;
/// `None` for any other task, and when this is the series' last date.
pub(crate) fn remaining_rule(task: &Task) -> Option<String> {
    let repeat = task.repeat.as_ref()?;
    if task.status != TaskStatus::Open || repeat.from != super::RepeatFrom::Due {
        return None;
    }
    let rule = repeat.stored_rule()?;
    let seen = task.cursor.map_or(0, |c| c.seen);
    rule.remaining(seen)
}

/// A repeating task's date to come in the calendar (rule 7).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Repetition {
    /// A date the rule gives.
    pub date: Date,
    /// The series' open occurrence.
    pub task: Task,
}

/// The most repetitions the calendar shows.
pub(crate) const MOST_REPETITIONS: usize = 500;

/// Rule 7: the dates in `from..=to` that the open occurrences of `from:
/// due` series give after their own date, today or later: by date, then
/// title, at most [`MOST_REPETITIONS`].
pub(crate) fn repetitions<T: Tables>(
    cx: &Cx<'_, T>,
    from: Date,
    to: Date,
) -> Result<Vec<Repetition>> {
    let mut ids = Vec::new();
    cx.scan_prefix(TASKS_OPEN_BY_SERIES, &[], Dir::Asc, &mut |k, _| {
        ids.push(tail_id(k));
        Ok(true)
    })?;
    let lo = from.max(cx.today());
    let mut out = Vec::new();
    for id in ids {
        let Some(TaskRow {
            task,
            deleted: None,
        }) = load_row(cx, id)?
        else {
            continue;
        };
        let (Some(repeat), Some(date)) = (&task.repeat, date_of(&task)) else {
            continue;
        };
        if repeat.from != super::RepeatFrom::Due {
            continue;
        }
        let Some(rule) = repeat.stored_rule() else {
            continue;
        };
        let cursor = task.cursor.unwrap_or_else(|| Cursor::start(date));
        for d in rule.dates_in(cursor, date, lo, to, MOST_REPETITIONS) {
            out.push(Repetition {
                date: d,
                task: task.clone(),
            });
        }
    }
    out.sort_by_cached_key(|r| (r.date, fold_case(&r.task.title), r.task.id));
    out.truncate(MOST_REPETITIONS);
    Ok(out)
}
