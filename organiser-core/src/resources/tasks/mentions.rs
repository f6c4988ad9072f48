//! The people a task's description mentions (`<span data-mention>`,
//! document 2: descriptions are note-body HTML): each stored task is
//! indexed by the people its description names, and when a person is
//! written (renamed), the live tasks that mention them show the new name,
//! as notes do. The registry hands the touched people to [`follow`] before
//! every commit, with how to read a person's name: tasks know nothing of
//! people.

use super::tables::TASKS_BY_MENTION;
use super::{TaskRow, load_row, put_live};
use crate::engine::WriteCx;
use crate::error::Result;
use crate::html::tokens::{mentioned, with_mention_names};
use crate::ids::Id;
use crate::store::key::Key;
use crate::store::{Tables, WriteTx};

/// Indexes task `row` by the people its description mentions (an entry
/// the description no longer holds is dropped when it is followed).
pub(crate) fn index(cx: &WriteCx<'_>, row: &TaskRow) -> Result<()> {
    index_in(&cx.tx, row)
}

fn index_in(tx: &WriteTx, row: &TaskRow) -> Result<()> {
    let Some(html) = &row.task.description_html else {
        return Ok(());
    };
    for person in mentioned(html) {
        let key = Key::new().id(person).id(row.task.id);
        tx.insert(TASKS_BY_MENTION, key.as_slice(), &[])?;
    }
    Ok(())
}

/// Drops task `row`'s entries (its record is going for good).
pub(crate) fn unindex(cx: &WriteCx<'_>, row: &TaskRow) -> Result<()> {
    let Some(html) = &row.task.description_html else {
        return Ok(());
    };
    for person in mentioned(html) {
        let key = Key::new().id(person).id(row.task.id);
        cx.remove(TASKS_BY_MENTION, key.as_slice())?;
    }
    Ok(())
}

/// Shows each of `people`'s current name (`name_of`: the live person's
/// name, `None` when not live) in the live tasks mentioning them; a task
/// whose description changes gets a new `updated_at`.
pub(crate) fn follow(
    cx: &WriteCx<'_>,
    people: &[Id],
    name_of: &dyn Fn(&WriteCx<'_>, Id) -> Result<Option<String>>,
) -> Result<()> {
    for &person in people {
        let tasks = cx.ids_under(TASKS_BY_MENTION, Key::new().id(person).as_slice())?;
        for task in tasks {
            let Some(row) = load_row(cx, task)? else {
                cx.remove(TASKS_BY_MENTION, Key::new().id(person).id(task).as_slice())?;
                continue;
            };
            let Some(html) = row.task.description_html.as_deref() else {
                continue;
            };
            if !mentioned(html).contains(&person) {
                cx.remove(TASKS_BY_MENTION, Key::new().id(person).id(task).as_slice())?;
                continue;
            }
            if row.deleted.is_some() {
                continue;
            }
            let mut names = |id: Id| match id == person {
                true => name_of(cx, id),
                false => Ok(None),
            };
            if let Some(html) = with_mention_names(html, &mut names)? {
                let mut task = row.task.clone();
                task.description_text = crate::html::to_text(&html);
                task.description_html = Some(html);
                task.updated_at = cx.now();
                put_live(cx, Some(&row.task), &task)?;
            }
        }
    }
    Ok(())
}

/// Schema 13: every stored task indexed by the people it mentions.
pub(crate) fn index_stored(tx: &WriteTx) -> Result<()> {
    let mut rows = Vec::new();
    tx.scan_prefix(
        super::tables::TASKS,
        &[],
        crate::store::Dir::Asc,
        &mut |k, v| {
            if let Ok(bytes) = <[u8; 16]>::try_from(k) {
                let record: super::record::TaskRecord = crate::store::codec::decode(v)?;
                let row = record.into_row(Id::from_bytes(bytes));
                if row.task.description_html.is_some() {
                    rows.push(row);
                }
            }
            Ok(true)
        },
    )?;
    for row in rows {
        index_in(tx, &row)?;
    }
    Ok(())
}
