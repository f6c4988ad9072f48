//! The tasks' tables: the records, their indexes (`index.rs` keeps them) and
//! the counters.

use crate::store::Tbl;
use crate::store::schema::table;

/// Tasks by id (live, and deleted ones until their restore window ends).
pub(crate) const TASKS: Tbl = table("tasks");
/// Live tasks: (status, position, id) with covering attributes.
pub(crate) const TASKS_BY_STATUS_POSITION: Tbl = table("tasks_by_status_position");
/// Live tasks: (status, id); id order is creation order.
pub(crate) const TASKS_BY_STATUS_ID: Tbl = table("tasks_by_status_id");
/// Live tasks: (status, updated_at, id).
pub(crate) const TASKS_BY_STATUS_UPDATED: Tbl = table("tasks_by_status_updated");
/// Live tasks: (home, position, id) with covering attributes: a home's manual order.
pub(crate) const TASKS_BY_HOME: Tbl = table("tasks_by_home");
/// Live open tasks: (home, position, id): placement and renumbering.
pub(crate) const TASKS_OPEN_BY_HOME: Tbl = table("tasks_open_by_home");
/// Live open tasks: (start_on, none last, id) with covering attributes.
pub(crate) const TASKS_OPEN_BY_START: Tbl = table("tasks_open_by_start");
/// Live open tasks: (deadline_on, none last, id) with covering attributes.
pub(crate) const TASKS_OPEN_BY_DEADLINE: Tbl = table("tasks_open_by_deadline");
/// Live open tasks with an expiry: (expires_on, id), to archive them when it passes.
pub(crate) const TASKS_OPEN_BY_EXPIRY: Tbl = table("tasks_open_by_expiry");
/// Live closed tasks: (closed_at, id) with covering attributes: the logbook.
pub(crate) const TASKS_CLOSED: Tbl = table("tasks_closed");
/// Live open tasks that start today or earlier: (position, id) with covering
/// attributes. "Today" moves with the clock; settling keeps the set current.
pub(crate) const TASKS_TODAY: Tbl = table("tasks_today");
/// Live completed tasks with a deadline: (deadline_on, id), for the
/// calendar's tasks.
pub(crate) const TASKS_COMPLETED_BY_DEADLINE: Tbl = table("tasks_completed_by_deadline");
/// Exact counts kept beside the indexes (per home and status, per deadline
/// date, per start date, ...), so counts never scan tasks.
pub(crate) const TASK_COUNTERS: Tbl = table("task_counters");

/// Live open repeating tasks: (series_id, id), the open occurrence of each
/// series (EXTENSIONS.md §1, rule 4).
pub(crate) const TASKS_OPEN_BY_SERIES: Tbl = table("tasks_open_by_series");

/// Stored tasks by the people their descriptions mention: (person, id).
pub(crate) const TASKS_BY_MENTION: Tbl = table("tasks_by_mention");

/// Live open tasks whose reminder is not yet sent: (remind_at, id), the
/// queue the reminders' scheduler takes from (EXTENSIONS.md §3).
pub(crate) const TASKS_BY_REMIND_AT: Tbl = table("tasks_by_remind_at");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    TASKS,
    TASKS_BY_STATUS_POSITION,
    TASKS_BY_STATUS_ID,
    TASKS_BY_STATUS_UPDATED,
    TASKS_BY_HOME,
    TASKS_OPEN_BY_HOME,
    TASKS_OPEN_BY_START,
    TASKS_OPEN_BY_DEADLINE,
    TASKS_OPEN_BY_EXPIRY,
    TASKS_CLOSED,
    TASKS_TODAY,
    TASK_COUNTERS,
    TASKS_COMPLETED_BY_DEADLINE,
    TASKS_BY_MENTION,
    TASKS_OPEN_BY_SERIES,
    TASKS_BY_REMIND_AT,
];
