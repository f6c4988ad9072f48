//! The task as stored (format 1): its own type, apart from the API's
//! [`Task`], encoded compactly (`store::codec`). The ID is the key and is
//! not repeated; the home is one tag and at most one ID.

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::home::Home;
use super::{Deleted, Task, TaskRow, TaskStatus};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::tasks::tables::TASKS;
use crate::store::codec::{self, Record};
use crate::store::{Dir, Tables, WriteTx};

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TaskRecord {
    title: String,
    status: u8,
    /// 0 the Inbox, 1 a list, 2 a person, 3 a project.
    home: u8,
    #[serde(with = "codec::opt_id")]
    home_id: Option<Id>,
    position: i64,
    #[serde(with = "codec::opt_day")]
    start_on: Option<Date>,
    #[serde(with = "codec::opt_day")]
    deadline_on: Option<Date>,
    #[serde(with = "codec::opt_day")]
    expires_on: Option<Date>,
    #[serde(with = "codec::opt_instant")]
    completed_at: Option<Timestamp>,
    #[serde(with = "codec::opt_instant")]
    archived_at: Option<Timestamp>,
    description_html: Option<String>,
    description_text: String,
    has_documents: bool,
    expired: bool,
    #[serde(with = "codec::instant")]
    created_at: Timestamp,
    #[serde(with = "codec::instant")]
    updated_at: Timestamp,
    /// When it was deleted, while it can be restored.
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
    /// The home whose delete took it.
    #[serde(with = "codec::opt_id")]
    deleted_with: Option<Id>,
}

impl Record for TaskRecord {
    const NAME: &'static str = "task";
    const FORMAT: u8 = 1;
}

impl From<&TaskRow> for TaskRecord {
    fn from(row: &TaskRow) -> Self {
        let t = &row.task;
        let (home, home_id) = match t.home() {
            Home::Inbox => (0, None),
            Home::List(id) => (1, Some(id)),
            Home::Person(id) => (2, Some(id)),
            Home::Project(id) => (3, Some(id)),
        };
        TaskRecord {
            title: t.title.clone(),
            status: t.status.code(),
            home,
            home_id,
            position: t.position,
            start_on: t.start_on,
            deadline_on: t.deadline_on,
            expires_on: t.expires_on,
            completed_at: t.completed_at,
            archived_at: t.archived_at,
            description_html: t.description_html.clone(),
            description_text: t.description_text.clone(),
            has_documents: t.has_documents,
            expired: t.expired,
            created_at: t.created_at,
            updated_at: t.updated_at,
            deleted_at: row.deleted.map(|d| d.at),
            deleted_with: row.deleted.and_then(|d| d.with),
        }
    }
}

impl TaskRecord {
    /// The row of the task stored under `id`.
    pub(crate) fn into_row(self, id: Id) -> TaskRow {
        let home = match (self.home, self.home_id) {
            (1, Some(h)) => Home::List(h),
            (2, Some(h)) => Home::Person(h),
            (3, Some(h)) => Home::Project(h),
            _ => Home::Inbox,
        };
        let mut task = Task {
            id,
            title: self.title,
            status: TaskStatus::from_code(self.status),
            start_on: self.start_on,
            deadline_on: self.deadline_on,
            expires_on: self.expires_on,
            completed_at: self.completed_at,
            archived_at: self.archived_at,
            task_list_id: None,
            person_id: None,
            project_id: None,
            position: self.position,
            description_html: self.description_html,
            description_text: self.description_text,
            has_documents: self.has_documents,
            expired: self.expired,
            created_at: self.created_at,
            updated_at: self.updated_at,
        };
        task.set_home(home);
        TaskRow {
            task,
            deleted: self.deleted_at.map(|at| Deleted {
                at,
                with: self.deleted_with,
            }),
        }
    }
}

/// Migration step (schema 3): rewrites every task stored as JSON in its
/// compact record, and the covering index values in their compact form.
pub(crate) fn store_records_compactly(tx: &WriteTx) -> Result<()> {
    let mut rows = Vec::new();
    tx.scan_prefix(TASKS, &[], Dir::Asc, &mut |k, v| {
        rows.push((k.to_vec(), serde_json::from_slice::<TaskRow>(v)?));
        Ok(true)
    })?;
    for (key, row) in rows {
        tx.put_record(TASKS, &key, &TaskRecord::from(&row))?;
    }
    super::index::pack_covering_values(tx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TaskRow {
        let list = Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        TaskRow {
            task: Task {
                id: Id::parse("01KKBFJYM0NWR4T1B8VF3V3Q16").unwrap(),
                title: "Buy oat milk".into(),
                status: TaskStatus::Completed,
                start_on: Some("2026-03-10".parse().unwrap()),
                deadline_on: None,
                expires_on: Some("1969-12-31".parse().unwrap()),
                completed_at: Some("2026-03-10T09:00:00.123Z".parse().unwrap()),
                archived_at: None,
                task_list_id: Some(list),
                person_id: None,
                project_id: None,
                position: -3,
                description_html: Some("<p>Hi</p>".into()),
                description_text: "Hi".into(),
                has_documents: false,
                expired: false,
                created_at: "2026-03-09T08:00:00Z".parse().unwrap(),
                updated_at: "2026-03-10T09:00:00.123Z".parse().unwrap(),
            },
            deleted: Some(Deleted {
                at: "2026-03-10T09:00:05Z".parse().unwrap(),
                with: Some(list),
            }),
        }
    }

    #[test]
    fn a_row_round_trips_through_its_record() {
        let row = sample();
        let bytes = codec::encode(&TaskRecord::from(&row)).unwrap();
        let back: TaskRecord = codec::decode(&bytes).unwrap();
        let back = back.into_row(row.task.id);
        assert_eq!(back.task, row.task);
        assert_eq!(back.deleted, row.deleted);
    }

    /// The stored bytes are a format: changing them needs a new format and
    /// a migration step, not an edit of this test.
    #[test]
    fn the_stored_bytes_are_pinned() {
        let bytes = codec::encode(&TaskRecord::from(&sample())).unwrap();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, PINNED, "{} bytes", bytes.len());
    }

    const PINNED: &str = "010c427579206f6174206d696c6b01010101563e3ab5d3d6764c61efb99302bd5b0501d4c00200010101f6ebcbef9a670001093c703e48693c2f703e024869000080c0e1999a67f6ebcbef9a670190b8ccef9a670101563e3ab5d3d6764c61efb99302bd5b";
}
