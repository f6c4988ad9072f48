//! Task lists (document 2, "TaskList" and "Task lists"): unique names
//! ignoring case, the first unused colour for a blank one, 1-based
//! positions among live lists, delete with all their tasks, and restore
//! within 20 seconds under `Name (2)` when the name was taken meanwhile.

mod api;
pub(crate) mod portable;
mod positions;
mod record;
pub(crate) mod tables;

pub(crate) use api::OPERATIONS;
pub use api::TaskLists;
#[cfg(test)]
pub(crate) use record::json_row_of_schema_2;
pub(crate) use record::store_records_compactly;

use record::ListRecord;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{RecordKind, Taken};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::Query;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page};
use crate::resources::deletions;
use crate::resources::task_lists::tables::{
    TASK_LISTS, TASK_LISTS_BY_NAME, TASK_LISTS_BY_POSITION, TASK_LISTS_BY_UPDATED,
};
use crate::resources::vocabulary::palette;
use crate::restore;
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables};
use crate::text::{fold_case, squished_required};

/// Task lists: restorable for 20 seconds, and homes of tasks.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    is_live: Some(is_live),
    ..RecordKind::new("task_list", 1)
};

/// A task list as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskList {
    /// ID.
    pub id: Id,
    /// Squished; unique ignoring case among task lists.
    pub name: String,
    /// A colour key of the vocabulary.
    pub color: String,
    /// A picker icon; null gives the default list icon.
    pub icon: Option<String>,
    /// 1-based order among live lists.
    pub position: i64,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// `{task_list: {name, color?, icon?, position?}}`; all optional on change.
///
/// It serialises to the body it is read from (without the wrapper):
/// absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TaskListInput {
    /// The name; required on create.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A colour key; blank or null takes the first colour no other list uses.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub color: Field<String>,
    /// A picker icon, or null for the default.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub icon: Field<String>,
    /// 1-based place among live lists; clamped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
}

/// How a list was deleted, while it can be restored.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ListDeleted {
    at: Timestamp,
    /// What the delete took with it (its tasks).
    taken: Taken,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct ListRow {
    list: TaskList,
    deleted: Option<ListDeleted>,
}

fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<ListRow>> {
    let record: Option<ListRecord> = cx.get_record(TASK_LISTS, &id.to_bytes())?;
    Ok(record.map(|r| r.into_row(id)))
}

fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<TaskList> {
    match load_row(cx, id)? {
        Some(ListRow {
            list,
            deleted: None,
        }) => Ok(list),
        _ => Err(Error::NotFound),
    }
}

fn save(cx: &WriteCx<'_>, row: &ListRow) -> Result<()> {
    cx.put_record(TASK_LISTS, &row.list.id.to_bytes(), &ListRecord::from(row))
}

/// Whether `id` names a live list.
fn is_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(matches!(
        load_row(cx, id)?,
        Some(ListRow { deleted: None, .. })
    ))
}

fn name_key(list: &TaskList) -> Key {
    Key::new().str(&fold_case(&list.name)).id(list.id)
}

/// Adds (or removes) a live list's index entries.
fn index(cx: &WriteCx<'_>, list: &TaskList, add: bool) -> Result<()> {
    let entries = [
        (
            TASK_LISTS_BY_POSITION,
            Key::new().i64(list.position).id(list.id),
        ),
        (TASK_LISTS_BY_NAME, name_key(list)),
        (
            TASK_LISTS_BY_UPDATED,
            Key::new().timestamp(list.updated_at).id(list.id),
        ),
    ];
    cx.set_indexes(&entries, add)
}

/// Saves a list that becomes live (made or restored) with its index entries.
fn insert_live(cx: &WriteCx<'_>, list: &TaskList) -> Result<()> {
    index(cx, list, true)?;
    save(
        cx,
        &ListRow {
            list: list.clone(),
            deleted: None,
        },
    )
}

/// Saves a live list whose fields changed, moving its index entries.
fn update(cx: &WriteCx<'_>, before: &TaskList, after: &TaskList) -> Result<()> {
    index(cx, before, false)?;
    index(cx, after, true)?;
    save(
        cx,
        &ListRow {
            list: after.clone(),
            deleted: None,
        },
    )
}

/// The live record named `name` ignoring case, other than `except`.
fn named<T: Tables>(cx: &Cx<'_, T>, name: &str, except: Option<Id>) -> Result<Option<Id>> {
    cx.named(TASK_LISTS_BY_NAME, name, except)
}

/// Every live list in position order.
/// The live list named `name` (matched as a create would refuse it), if
/// any.
pub(crate) fn named_live(cx: &WriteCx<'_>, name: &str) -> Result<Option<Id>> {
    named(cx, &crate::text::squish(name), None)
}

fn live_lists<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Id>> {
    let mut ids = Vec::new();
    cx.scan(
        TASK_LISTS_BY_POSITION,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    Ok(ids)
}

/// The first colour of the vocabulary that no other live list uses (the
/// least used one when every colour is taken).
fn free_color<T: Tables>(cx: &Cx<'_, T>, except: Option<Id>) -> Result<String> {
    let mut used = Vec::new();
    for id in live_lists(cx)? {
        if Some(id) != except {
            used.push(load_live(cx, id)?.color);
        }
    }
    Ok(palette::first_free_color(used.iter().map(String::as_str)))
}

pub(crate) fn parse(body: Option<&Value>) -> Result<TaskListInput> {
    let mut f = record(body, "task_list")?;
    let mut input = TaskListInput::default();
    match f.string("name") {
        Field::Value(n) => input.name = Some(n),
        Field::Null => input.name = Some(String::new()),
        Field::Absent => {}
    }
    input.color = f.string("color");
    input.icon = f.string("icon");
    match f.integer("position") {
        Field::Value(p) => input.position = Some(p),
        Field::Null => f.add("position", "must be a whole number"),
        Field::Absent => {}
    }
    f.finish()?;
    Ok(input)
}

fn check_name<T: Tables>(
    cx: &Cx<'_, T>,
    details: &mut Details,
    name: &str,
    except: Option<Id>,
) -> Result<String> {
    let name = squished_required(details, "name", name, limits::text::TASK_LIST_NAME);
    if !details.has("name") && named(cx, &name, except)?.is_some() {
        details.add("name", "has already been taken");
    }
    Ok(name)
}

/// The colour to save: a vocabulary key, or the first free one for blank.
fn check_color<T: Tables>(
    cx: &Cx<'_, T>,
    details: &mut Details,
    color: &Field<String>,
    except: Option<Id>,
) -> Result<Option<String>> {
    Ok(match palette::check_color(details, color) {
        Some(Some(c)) => Some(c),
        Some(None) => Some(free_color(cx, except)?),
        None => None,
    })
}

/// `POST /task_lists`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &TaskListInput) -> Result<TaskList> {
    let mut details = Details::new();
    let name = match &input.name {
        Some(n) => check_name(cx, &mut details, n, None)?,
        None => {
            details.add("name", "can't be blank");
            String::new()
        }
    };
    let color = check_color(cx, &mut details, &input.color, None)?;
    let icon = palette::check_icon(&mut details, &input.icon);
    details.into_validation()?;
    let color = match color {
        Some(c) => c,
        None => free_color(cx, None)?,
    };
    let now = cx.now();
    let id = cx.new_id();
    let others = live_lists(cx)?;
    let rank = input.position.unwrap_or(others.len() as i64 + 1);
    let position = positions::place(cx, &others, rank)?;
    let list = TaskList {
        id,
        name,
        color,
        icon: icon.flatten(),
        position,
        created_at: now,
        updated_at: now,
    };
    insert_live(cx, &list)?;
    Ok(list)
}

/// `GET /task_lists/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<TaskList> {
    load_live(cx, id)
}

/// `PATCH /task_lists/{id}`. Renaming or recolouring changes no task.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &TaskListInput) -> Result<TaskList> {
    let before = load_live(cx, id)?;
    let mut details = Details::new();
    let name = match &input.name {
        Some(n) => Some(check_name(cx, &mut details, n, Some(id))?),
        None => None,
    };
    let color = check_color(cx, &mut details, &input.color, Some(id))?;
    let icon = palette::check_icon(&mut details, &input.icon);
    details.into_validation()?;
    let mut list = before.clone();
    if let Some(name) = name {
        list.name = name;
    }
    if let Some(color) = color {
        list.color = color;
    }
    if let Some(icon) = icon {
        list.icon = icon;
    }
    if let Some(rank) = input.position {
        let others: Vec<Id> = live_lists(cx)?.into_iter().filter(|&o| o != id).collect();
        list.position = positions::place(cx, &others, rank)?;
    }
    if list == before {
        return Ok(list);
    }
    list.updated_at = cx.now();
    update(cx, &before, &list)?;
    Ok(list)
}

/// `DELETE /task_lists/{id}`: the list and its tasks at once, each with a
/// deletion record; the name is free at once.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let list = load_live(cx, id)?;
    index(cx, &list, false)?;
    let taken = cx.cascade_delete(KIND.name, id)?;
    deletions::record(cx, KIND.name, id)?;
    restore::schedule(cx, &KIND, id, cx.now())?;
    positions::close_gap(cx, &live_lists(cx)?)?;
    save(
        cx,
        &ListRow {
            list,
            deleted: Some(ListDeleted {
                at: cx.now(),
                taken,
            }),
        },
    )
}

/// The name a restored record takes: its own, else the first free
/// numbered one.
fn restored_name<T: Tables>(cx: &Cx<'_, T>, name: &str, id: Id) -> Result<Option<String>> {
    restore::free_name(name, limits::text::TASK_LIST_NAME, |n| {
        Ok(named(cx, n, Some(id))?.is_some())
    })
}

/// `POST /task_lists/{id}/restoration`: within 20 seconds the list returns
/// with the tasks its delete took, at its old place.
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<TaskList> {
    let row = load_row(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted) = row.deleted else {
        return Ok(row.list);
    };
    if !restore::within_window(deleted.at, cx.now()) {
        return Err(Error::NotFound);
    }
    let mut list = row.list;
    list.name = restored_name(cx, &list.name, id)?.ok_or_else(|| {
        Error::invalid(
            "name",
            "is taken by another list and no numbered variant is free within 100 characters; rename that list and retry",
        )
    })?;
    let others = live_lists(cx)?;
    list.position = positions::place(cx, &others, list.position)?;
    list.updated_at = cx.now();
    restore::cancel(cx, &KIND, id, deleted.at)?;
    deletions::unrecord(cx, KIND.name, id)?;
    insert_live(cx, &list)?;
    cx.cascade_restore(KIND.name, id, &deleted.taken)?;
    Ok(list)
}

/// Makes a list's delete permanent, with the tasks it took.
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(ListRow {
        deleted: Some(deleted),
        ..
    }) = load_row(cx, id)?
    {
        cx.cascade_purge(&deleted.taken)?;
        cx.remove(TASK_LISTS, &id.to_bytes())?;
    }
    Ok(())
}

/// `GET /task_lists` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskListQuery {
    /// `position` (default), `id`, `name` or `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

/// `GET /task_lists`: live lists by position (default), id, name or
/// updated_at, smallest first.
static LISTING: Listing = Listing {
    name: "task_lists",
    orders: &[
        Order {
            name: "position",
            index: TASK_LISTS_BY_POSITION,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: TASK_LISTS,
            direction: Direction::Asc,
        },
        Order {
            name: "name",
            index: TASK_LISTS_BY_NAME,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: TASK_LISTS_BY_POSITION,
};

const UPDATED: Order = Order {
    name: "updated_at",
    index: TASK_LISTS_BY_UPDATED,
    direction: Direction::Asc,
};

impl TaskListQuery {
    pub(crate) fn parse(query: &Query) -> Result<TaskListQuery> {
        Ok(TaskListQuery {
            params: LISTING.params(query)?,
        })
    }
}

/// `GET /task_lists`. The `id` order walks the records, deleted ones
/// among them (skipped); every other order walks an index of live lists.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &TaskListQuery) -> Result<Page<TaskList>> {
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), |k| {
        Ok(match load_row(cx, tail_id(k))? {
            Some(ListRow {
                list,
                deleted: None,
            }) => Some(list),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_pages_and_counts_live_lists_only() {
        let org = crate::Organiser::in_memory();
        let mut ids = Vec::new();
        for name in ["Cedar", "alder", "Birch"] {
            let input = TaskListInput {
                name: Some(name.into()),
                ..TaskListInput::default()
            };
            ids.push(org.task_lists().create(input).unwrap().id);
        }
        org.task_lists().delete(ids[1]).unwrap();
        for (order, expected) in [
            ("position", ["Cedar", "Birch"]),
            ("id", ["Cedar", "Birch"]),
            ("name", ["Birch", "Cedar"]),
            ("updated_at", ["Cedar", "Birch"]),
        ] {
            let mut names = Vec::new();
            let mut cursor: Option<String> = None;
            loop {
                let mut q = format!("order={order}&limit=1&count=true");
                if let Some(c) = &cursor {
                    q.push_str(&format!("&cursor={c}"));
                }
                let query = TaskListQuery::parse(&Query::parse(&q).unwrap()).unwrap();
                let page = org.task_lists().list(&query).unwrap();
                assert_eq!(page.total_count, Some(2), "{order}");
                names.extend(page.items.into_iter().map(|l| l.name));
                match page.next_cursor {
                    Some(c) => cursor = Some(c),
                    None => break,
                }
            }
            assert_eq!(names, expected, "{order}");
        }
    }

    #[test]
    fn an_input_reads_back_as_itself() {
        let inputs = [
            TaskListInput::default(),
            TaskListInput {
                name: Some("Errands".into()),
                color: Field::Value("blue".into()),
                icon: Field::Value("cart".into()),
                position: Some(2),
            },
            TaskListInput {
                color: Field::Null,
                icon: Field::Null,
                ..TaskListInput::default()
            },
        ];
        for input in inputs {
            let body = serde_json::json!({ "task_list": input });
            assert_eq!(parse(Some(&body)).unwrap(), input);
        }
    }
}
