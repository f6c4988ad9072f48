//! The task list as stored (format 1): its own type, apart from the API's
//! [`TaskList`], encoded compactly (`store::codec`); and the migration of
//! the JSON rows stores of schema 2 and earlier kept.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::{ListDeleted, ListRow, TaskList};
use crate::engine::kinds::Taken;
use crate::error::Result;
use crate::ids::Id;
use crate::resources::task_lists::tables::TASK_LISTS;
use crate::store::codec::{self, Record};
use crate::store::{Dir, Tables, WriteTx};

/// A stored task list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ListRecord {
    name: String,
    color: String,
    icon: Option<String>,
    position: i64,
    #[serde(with = "codec::instant")]
    created_at: Timestamp,
    #[serde(with = "codec::instant")]
    updated_at: Timestamp,
    /// When it was deleted, while it can be restored.
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
    /// What its delete took, by kind.
    taken: Vec<(String, Vec<[u8; 16]>)>,
}

impl Record for ListRecord {
    const NAME: &'static str = "task list";
    const FORMAT: u8 = 1;
}

impl From<&ListRow> for ListRecord {
    fn from(row: &ListRow) -> Self {
        let l = &row.list;
        let taken = row.deleted.as_ref().map(|d| &d.taken.0[..]).unwrap_or(&[]);
        ListRecord {
            name: l.name.clone(),
            color: l.color.clone(),
            icon: l.icon.clone(),
            position: l.position,
            created_at: l.created_at,
            updated_at: l.updated_at,
            deleted_at: row.deleted.as_ref().map(|d| d.at),
            taken: taken
                .iter()
                .map(|(kind, ids)| (kind.clone(), ids.iter().map(|id| id.to_bytes()).collect()))
                .collect(),
        }
    }
}

impl ListRecord {
    /// The row of the list stored under `id`.
    pub(crate) fn into_row(self, id: Id) -> ListRow {
        let taken = Taken(
            self.taken
                .into_iter()
                .map(|(kind, ids)| (kind, ids.into_iter().map(Id::from_bytes).collect()))
                .collect(),
        );
        ListRow {
            list: TaskList {
                id,
                name: self.name,
                color: self.color,
                icon: self.icon,
                position: self.position,
                created_at: self.created_at,
                updated_at: self.updated_at,
            },
            deleted: self.deleted_at.map(|at| ListDeleted { at, taken }),
        }
    }
}

/// A list row as stores of schema 2 and earlier wrote it (JSON).
#[derive(Deserialize)]
struct JsonRow {
    list: TaskList,
    #[serde(default)]
    deleted: Option<JsonDeleted>,
}

#[derive(Deserialize)]
struct JsonDeleted {
    #[serde(with = "crate::time::serde_timestamp")]
    at: Timestamp,
    /// The tasks the delete took.
    #[serde(default)]
    tasks: Vec<Id>,
}

impl JsonRow {
    fn into_row(self) -> ListRow {
        let deleted = self.deleted.map(|d| ListDeleted {
            at: d.at,
            taken: Taken(vec![("task".to_owned(), d.tasks)]),
        });
        ListRow {
            list: self.list,
            deleted,
        }
    }
}

/// Migration step (schema 3): rewrites every list stored as JSON in its
/// compact record.
pub(crate) fn store_records_compactly(tx: &WriteTx) -> Result<()> {
    let mut rows = Vec::new();
    tx.scan_prefix(TASK_LISTS, &[], Dir::Asc, &mut |k, v| {
        rows.push((k.to_vec(), serde_json::from_slice::<JsonRow>(v)?));
        Ok(true)
    })?;
    for (key, row) in rows {
        tx.put_record(TASK_LISTS, &key, &ListRecord::from(&row.into_row()))?;
    }
    Ok(())
}

/// The JSON row of schema 2 for the record `bytes` stored under `id`
/// (to test the migration).
#[cfg(test)]
pub(crate) fn json_row_of_schema_2(id: Id, bytes: &[u8]) -> Vec<u8> {
    let row = codec::decode::<ListRecord>(bytes).unwrap().into_row(id);
    let deleted = row.deleted.map(|d| {
        let tasks: Vec<Id> = d.taken.0.into_iter().flat_map(|(_, ids)| ids).collect();
        serde_json::json!({"at": crate::time::format_timestamp(d.at), "tasks": tasks})
    });
    serde_json::to_vec(&serde_json::json!({"list": row.list, "deleted": deleted})).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ListRow {
        ListRow {
            list: TaskList {
                id: Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
                name: "Groceries".into(),
                color: "green".into(),
                icon: None,
                position: 2,
                created_at: "2026-03-09T08:00:00Z".parse().unwrap(),
                updated_at: "2026-03-10T09:00:00.123Z".parse().unwrap(),
            },
            deleted: Some(ListDeleted {
                at: "2026-03-10T09:00:05Z".parse().unwrap(),
                taken: Taken(vec![(
                    "task".into(),
                    vec![Id::parse("01KKBFJYM0NWR4T1B8VF3V3Q16").unwrap()],
                )]),
            }),
        }
    }

    #[test]
    fn a_row_round_trips_through_its_record() {
        let row = sample();
        let bytes = codec::encode(&ListRecord::from(&row)).unwrap();
        let back: ListRecord = codec::decode(&bytes).unwrap();
        assert_eq!(back.into_row(row.list.id), row);
    }

    /// The stored bytes are a format: changing them needs a new format and
    /// a migration step, not an edit of this test.
    #[test]
    fn the_stored_bytes_are_pinned() {
        let bytes = codec::encode(&ListRecord::from(&sample())).unwrap();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, PINNED, "{} bytes", bytes.len());
    }

    const PINNED: &str = "010947726f63657269657305677265656e000480c0e1999a67f6ebcbef9a670190b8ccef9a6701047461736b01019cd6f97a80af304d0568dbc7b1dc26";

    #[test]
    fn a_json_row_of_schema_2_keeps_the_tasks_its_delete_took() {
        let task = Id::parse("01KKBFJYM0NWR4T1B8VF3V3Q16").unwrap();
        let old = serde_json::json!({
            "list": {"id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "name": "Groceries", "color": "green",
                     "icon": null, "position": 2, "created_at": "2026-03-09T08:00:00.000Z",
                     "updated_at": "2026-03-10T09:00:00.123Z"},
            "deleted": {"at": "2026-03-10T09:00:05.000Z", "tasks": [task]},
        });
        let row = serde_json::from_value::<JsonRow>(old).unwrap().into_row();
        assert_eq!(row, sample());
    }
}
