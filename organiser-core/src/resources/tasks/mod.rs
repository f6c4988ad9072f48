//! Tasks (document 2, "Task", "Task status", "Tasks", "Counts"; DESIGN.md
//! task statuses): the record, its rules of create and change, placement,
//! expiry, delete and restore, the smart views and the counts.

mod api;
mod counts;
mod expiry;
mod home;
mod index;
mod input;
mod lifecycle;
pub(crate) mod mentions;
mod placement;
pub(crate) mod portable;
mod project_counts;
mod query;
mod quick;
mod record;
pub(crate) mod remind;
mod render;
mod repeat;
mod repeat_words;
mod series;
pub(crate) mod tables;
mod write;

#[cfg(test)]
mod tests;

pub use counts::{PageCounts, TaskCounts, TaskCountsQuery, TaskListCount};
pub use input::TaskInput;
pub use query::{TaskOrder, TaskQuery, View};
pub use quick::{description_html, read_quick_add, read_repeat_words};
use repeat::Cursor;
pub use repeat::{Repeat, RepeatFrom};
pub use series::Repetition;
pub(crate) use series::repetitions;

pub(crate) use api::OPERATIONS;
pub use api::Tasks;
pub(crate) use index::counter::count_stored_completions;
pub(crate) use index::{due_between, index_completed_deadlines, open_with_deadline};
pub(crate) use lifecycle::{KIND, LIST_CASCADE, PERSON_CASCADE, PROJECT_CASCADE};
pub use project_counts::ProjectTaskCount;
pub(crate) use project_counts::completed_in;
pub(crate) use record::{store_records_compactly, store_records_with_series};
pub(crate) use series::remaining_rule;

use counts::counts;
use index::{TodaySet, settle_today};
use input::parse;
use lifecycle::{delete, restore};
pub(crate) use query::list;
use query::list_json;
use record::TaskRecord;
pub(crate) use write::{change as change_task, create as create_task};
use write::{change, create};

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::engine::ReadCx;
use crate::engine::{Cx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::tasks::tables::TASKS;
use crate::store::Tables;
pub use home::Home;

/// A task's status (DESIGN.md: `open`, `completed`, `wont_do`, `archived`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// To do.
    Open,
    /// Done.
    Completed,
    /// Decided against.
    WontDo,
    /// Put away, by hand or because `expires_on` passed.
    Archived,
}

impl TaskStatus {
    /// Every status, in order.
    pub const ALL: [TaskStatus; 4] = [
        TaskStatus::Open,
        TaskStatus::Completed,
        TaskStatus::WontDo,
        TaskStatus::Archived,
    ];

    /// The API's name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Open => "open",
            TaskStatus::Completed => "completed",
            TaskStatus::WontDo => "wont_do",
            TaskStatus::Archived => "archived",
        }
    }

    /// The status with this API name.
    pub fn parse(s: &str) -> Option<TaskStatus> {
        TaskStatus::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Whether the task is closed (in the logbook).
    pub fn is_closed(self) -> bool {
        self != TaskStatus::Open
    }

    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_code(code: u8) -> TaskStatus {
        TaskStatus::ALL
            .get(usize::from(code))
            .copied()
            .unwrap_or(TaskStatus::Open)
    }
}

/// A task as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// ID.
    pub id: Id,
    /// Squished; at most 200 characters.
    pub title: String,
    /// Status.
    pub status: TaskStatus,
    /// When to start; today or earlier places it in `view=today`.
    pub start_on: Option<Date>,
    /// When it is due.
    pub deadline_on: Option<Date>,
    /// After this day an open task is archived.
    pub expires_on: Option<Date>,
    /// When to remind the owner (EXTENSIONS.md §3); a repeating task's
    /// moves with its dates.
    #[serde(default, with = "crate::time::serde_timestamp::option")]
    pub remind_at: Option<Timestamp>,
    /// When it was completed (or marked won't do).
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub completed_at: Option<Timestamp>,
    /// When it was archived.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub archived_at: Option<Timestamp>,
    /// Home: a task list.
    pub task_list_id: Option<Id>,
    /// Home: a person.
    pub person_id: Option<Id>,
    /// Home: a project.
    pub project_id: Option<Id>,
    /// Order among its home's open tasks; may be zero or negative.
    pub position: i64,
    /// Note-body HTML.
    pub description_html: Option<String>,
    /// Plain text of the description.
    pub description_text: String,
    /// Whether documents are linked.
    pub has_documents: bool,
    /// Archived because `expires_on` passed.
    pub expired: bool,
    /// How it repeats (EXTENSIONS.md §1); null when it does not.
    pub repeat: Option<Repeat>,
    /// Read only: the first task of its series, set when it first repeats.
    pub series_id: Option<Id>,
    /// Read only: on a closed occurrence, the occurrence its closing made.
    pub next_task_id: Option<Id>,
    /// Where its series' walk of dates starts; set with `repeat`.
    #[serde(skip)]
    pub(crate) cursor: Option<Cursor>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

impl Task {
    /// The task's home.
    pub fn home(&self) -> Home {
        Home::from_fields(self.task_list_id, self.person_id, self.project_id)
    }

    pub(crate) fn set_home(&mut self, home: Home) {
        self.task_list_id = home.task_list_id();
        self.person_id = home.person_id();
        self.project_id = home.project_id();
    }

    /// When it closed: `completed_at` or `archived_at`, whichever is set.
    pub fn closed_at(&self) -> Option<Timestamp> {
        self.completed_at.or(self.archived_at)
    }
}

/// How a task was deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Deleted {
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) at: Timestamp,
    /// The home whose delete took the task with it; `None` when the task
    /// was deleted on its own.
    #[serde(default)]
    pub(crate) with: Option<Id>,
}

/// A stored task.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TaskRow {
    pub(crate) task: Task,
    #[serde(default)]
    pub(crate) deleted: Option<Deleted>,
}

pub(crate) fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<TaskRow>> {
    let record: Option<TaskRecord> = cx.get_record(TASKS, &id.to_bytes())?;
    Ok(record.map(|r| r.into_row(id)))
}

/// A live task, or 404.
pub(crate) fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Task> {
    match load_row(cx, id)? {
        Some(TaskRow {
            task,
            deleted: None,
        }) => Ok(task),
        _ => Err(Error::NotFound),
    }
}

pub(crate) fn save_row(cx: &WriteCx<'_>, row: &TaskRow) -> Result<()> {
    mentions::index(cx, row)?;
    cx.put_record(TASKS, &row.task.id.to_bytes(), &TaskRecord::from(row))
}

/// Saves a live task, moving its index entries and counters from how it
/// was (`None` when it was not live) to how it is.
pub(crate) fn put_live(cx: &WriteCx<'_>, before: Option<&Task>, task: &Task) -> Result<()> {
    let old = before.map(index::Attrs::of);
    index::apply(cx, task.id, old.as_ref(), Some(&index::Attrs::of(task)))?;
    remind::follow(cx, task.id, before, Some(task))?;
    save_row(
        cx,
        &TaskRow {
            task: task.clone(),
            deleted: None,
        },
    )
}

/// `GET /tasks/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Task> {
    load_live(cx, id)
}

/// Sets live task `id`'s `has_documents` (a link made or removed, a
/// linked document deleted or restored); a change gives it a new
/// `updated_at`.
pub(crate) fn set_has_documents(cx: &WriteCx<'_>, id: Id, has: bool) -> Result<()> {
    let Ok(before) = load_live(cx, id) else {
        return Ok(());
    };
    if has == before.has_documents {
        return Ok(());
    }
    let mut task = before.clone();
    task.has_documents = has;
    task.updated_at = cx.now();
    put_live(cx, Some(&before), &task)
}

/// Whether the clock made anything due: a new day for the today set, or an
/// expiry that passed.
fn settle_due(cx: &ReadCx<'_>) -> Result<bool> {
    Ok(TodaySet::due(cx)? || expiry::due(cx)?)
}

/// Brings the today set up to date and archives what expired.
fn settle(cx: &mut WriteCx<'_>) -> Result<()> {
    settle_today(cx)?;
    expiry::settle(cx)
}
