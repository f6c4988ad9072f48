//! The task as stored (format 3): its own type, apart from the API's
//! [`Task`], encoded compactly (`store::codec`). The ID is the key and is
//! not repeated; the home is one tag and at most one ID. Format 2 is
//! format 1 followed by the series fields (EXTENSIONS.md §1): a plain task
//! costs three bytes more; format 3 is format 2 followed by `remind_at`
//! (EXTENSIONS.md §3), one byte more without one. Older formats are read
//! as they are and written in format 3 when the task next changes.

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::home::Home;
use super::repeat::{Cursor, Repeat, RepeatFrom};
use super::{Deleted, Task, TaskRow, TaskStatus};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::tasks::tables::TASKS;
use crate::store::codec::{self, Record};
use crate::store::key::{date_from_number, date_number};
use crate::store::{Dir, Tables, WriteTx};

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TaskRecord {
    /// Every field format 2 had, in its order.
    base: TaskRecordV2,
    #[serde(with = "codec::opt_instant")]
    remind_at: Option<Timestamp>,
}

impl Record for TaskRecord {
    const NAME: &'static str = "task";
    const FORMAT: u8 = 3;

    fn older(format: u8, bytes: &[u8]) -> Option<Result<Self>> {
        let base = match format {
            1 | 2 => TaskRecordV2::older(format, bytes).unwrap_or_else(|| {
                postcard::from_bytes(bytes).map_err(|e| {
                    crate::error::Error::Storage(format!("a stored task is malformed: {e}").into())
                })
            }),
            _ => return None,
        };
        Some(base.map(|base| TaskRecord {
            base,
            remind_at: None,
        }))
    }
}

impl From<&TaskRow> for TaskRecord {
    fn from(row: &TaskRow) -> Self {
        TaskRecord {
            base: TaskRecordV2::from(row),
            remind_at: row.task.remind_at,
        }
    }
}

impl TaskRecord {
    /// The row of the task stored under `id`.
    pub(crate) fn into_row(self, id: Id) -> TaskRow {
        let mut row = self.base.into_row(id);
        row.task.remind_at = self.remind_at;
        row
    }
}

/// A stored task of format 2 (schema 14 to 17): format 1 and the series.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TaskRecordV2 {
    /// Every field format 1 had, in its order.
    base: TaskRecordV1,
    repeat: Option<StoredRepeat>,
    #[serde(with = "codec::opt_id")]
    series_id: Option<Id>,
    #[serde(with = "codec::opt_id")]
    next_task_id: Option<Id>,
}

/// A stored repeat: the normalised rule, what it counts from (0 due, 1
/// completion) and the series' cursor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredRepeat {
    rule: String,
    from: u8,
    /// The series' first date and the cursor's anchor, in days since
    /// 1970-01-01.
    first: i32,
    anchor: i32,
    seen: u16,
}

impl Record for TaskRecordV2 {
    const NAME: &'static str = "task";
    const FORMAT: u8 = 2;

    fn older(format: u8, bytes: &[u8]) -> Option<Result<Self>> {
        (format == TaskRecordV1::FORMAT).then(|| {
            let base: TaskRecordV1 = postcard::from_bytes(bytes).map_err(|e| {
                crate::error::Error::Storage(format!("a stored task is malformed: {e}").into())
            })?;
            Ok(TaskRecordV2 {
                base,
                repeat: None,
                series_id: None,
                next_task_id: None,
            })
        })
    }
}

impl From<&TaskRow> for TaskRecordV2 {
    fn from(row: &TaskRow) -> Self {
        let t = &row.task;
        TaskRecordV2 {
            base: TaskRecordV1::from(row),
            repeat: t.repeat.as_ref().map(|r| {
                let cursor = t.cursor.unwrap_or_else(|| {
                    Cursor::start(t.deadline_on.or(t.start_on).unwrap_or_default())
                });
                StoredRepeat {
                    rule: r.rule.clone(),
                    from: u8::from(r.from == RepeatFrom::Completion),
                    first: date_number(cursor.first),
                    anchor: date_number(cursor.anchor),
                    seen: cursor.seen,
                }
            }),
            series_id: t.series_id,
            next_task_id: t.next_task_id,
        }
    }
}

impl TaskRecordV2 {
    /// The row of the task stored under `id`.
    pub(crate) fn into_row(self, id: Id) -> TaskRow {
        let mut row = self.base.into_row(id);
        if let Some(r) = self.repeat {
            row.task.repeat = Some(Repeat {
                rule: r.rule,
                from: if r.from == 1 {
                    RepeatFrom::Completion
                } else {
                    RepeatFrom::Due
                },
            });
            row.task.cursor = Some(Cursor {
                first: date_from_number(r.first),
                anchor: date_from_number(r.anchor),
                seen: r.seen,
            });
        }
        row.task.series_id = self.series_id;
        row.task.next_task_id = self.next_task_id;
        row
    }
}

/// A stored task of format 1 (schema 3 to 13): the fields before tasks
/// repeated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TaskRecordV1 {
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

impl Record for TaskRecordV1 {
    const NAME: &'static str = "task";
    const FORMAT: u8 = 1;
}

impl From<&TaskRow> for TaskRecordV1 {
    fn from(row: &TaskRow) -> Self {
        let t = &row.task;
        let (home, home_id) = match t.home() {
            Home::Inbox => (0, None),
            Home::List(id) => (1, Some(id)),
            Home::Person(id) => (2, Some(id)),
            Home::Project(id) => (3, Some(id)),
        };
        TaskRecordV1 {
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

impl TaskRecordV1 {
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
            remind_at: None,
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
            repeat: None,
            series_id: None,
            next_task_id: None,
            cursor: None,
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
        tx.put_record(TASKS, &key, &TaskRecordV1::from(&row))?;
    }
    super::index::pack_covering_values(tx)
}

/// Migration step (schema 14): rewrites every task of format 1 in format
/// 2 (no repeat, no series); one of format 2 already stays as it is.
pub(crate) fn store_records_with_series(tx: &WriteTx) -> Result<()> {
    let mut rows = Vec::new();
    tx.scan_prefix(TASKS, &[], Dir::Asc, &mut |k, v| {
        if v.first() == Some(&<TaskRecordV1 as Record>::FORMAT) {
            rows.push((k.to_vec(), codec::decode::<TaskRecordV1>(v)?));
        }
        Ok(true)
    })?;
    for (key, base) in rows {
        let record = TaskRecordV2 {
            base,
            repeat: None,
            series_id: None,
            next_task_id: None,
        };
        tx.put_record(TASKS, &key, &record)?;
    }
    Ok(())
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
                remind_at: Some("2026-03-10T08:30:00Z".parse().unwrap()),
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
                repeat: Some(Repeat::rule("FREQ=WEEKLY;BYDAY=MO")),
                series_id: Some(list),
                next_task_id: Some(list),
                cursor: Some(Cursor {
                    first: "2026-03-02".parse().unwrap(),
                    anchor: "2026-03-09".parse().unwrap(),
                    seen: 2,
                }),
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
        let hex = |bytes: Vec<u8>| -> String { bytes.iter().map(|b| format!("{b:02x}")).collect() };
        let v1 = codec::encode(&TaskRecordV1::from(&sample())).unwrap();
        assert_eq!(hex(v1), PINNED, "format 1");
        let v2 = codec::encode(&TaskRecordV2::from(&sample())).unwrap();
        assert_eq!(hex(v2), PINNED_2, "format 2");
        let v3 = codec::encode(&TaskRecord::from(&sample())).unwrap();
        assert_eq!(hex(v3), PINNED_3, "format 3");
    }

    /// Format 3 is format 2 with `remind_at` after it: a stored format 2
    /// task reads back as the task it was, with no reminder.
    #[test]
    fn a_format_2_record_reads_back_in_format_3() {
        let mut row = sample();
        row.task.remind_at = None;
        let v2 = codec::encode(&TaskRecordV2::from(&row)).unwrap();
        let back: TaskRecord = codec::decode(&v2).unwrap();
        assert_eq!(back.into_row(row.task.id).task, row.task);
    }

    /// Format 2 is format 1 with the series fields after it: what the
    /// schema-14 step writes reads back as the task it was.
    #[test]
    fn a_format_1_record_reads_back_in_format_2() {
        let mut row = sample();
        row.task.repeat = None;
        row.task.series_id = None;
        row.task.next_task_id = None;
        row.task.cursor = None;
        row.task.remind_at = None;
        let v1 = codec::encode(&TaskRecordV1::from(&row)).unwrap();
        let base: TaskRecordV1 = codec::decode(&v1).unwrap();
        let v2 = TaskRecordV2 {
            base,
            repeat: None,
            series_id: None,
            next_task_id: None,
        };
        assert_eq!(v2.into_row(row.task.id).task, row.task);
    }

    const PINNED: &str = "010c427579206f6174206d696c6b01010101563e3ab5d3d6764c61efb99302bd5b0501d4c00200010101f6ebcbef9a670001093c703e48693c2f703e024869000080c0e1999a67f6ebcbef9a670190b8ccef9a670101563e3ab5d3d6764c61efb99302bd5b";

    const PINNED_3: &str = "030c427579206f6174206d696c6b01010101563e3ab5d3d6764c61efb99302bd5b0501d4c00200010101f6ebcbef9a670001093c703e48693c2f703e024869000080c0e1999a67f6ebcbef9a670190b8ccef9a670101563e3ab5d3d6764c61efb99302bd5b0114465245513d5745454b4c593b42594441593d4d4f00c4c002d2c002020101563e3ab5d3d6764c61efb99302bd5b0101563e3ab5d3d6764c61efb99302bd5b01808df0ed9a67";

    const PINNED_2: &str = "020c427579206f6174206d696c6b01010101563e3ab5d3d6764c61efb99302bd5b0501d4c00200010101f6ebcbef9a670001093c703e48693c2f703e024869000080c0e1999a67f6ebcbef9a670190b8ccef9a670101563e3ab5d3d6764c61efb99302bd5b0114465245513d5745454b4c593b42594441593d4d4f00c4c002d2c002020101563e3ab5d3d6764c61efb99302bd5b0101563e3ab5d3d6764c61efb99302bd5b";
}
