//! Task lists (document 2, "TaskList" and "Task lists"): unique names
//! ignoring case, the first unused colour for a blank one, 1-based
//! positions among live lists, delete with all their tasks, and restore
//! within 20 seconds under `Name (2)` when the name was taken meanwhile.

mod api;
mod positions;

pub(crate) use api::routes;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::deletions;
use crate::engine::kinds::{RecordKind, Taken};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::Query;
use crate::list::{Cursor, Direction, ListParams, Page, Scan, count, walk};
use crate::restore;
use crate::store::key::{Key, tail_id};
use crate::store::schema::{
    TASK_LISTS, TASK_LISTS_BY_NAME, TASK_LISTS_BY_POSITION, TASK_LISTS_BY_UPDATED,
};
use crate::store::{Dir, Tables};
use crate::text::{char_len, fold_case, squished_required};
use crate::vocabulary::{COLORS, PICKER_ICONS};

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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
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

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ListDeleted {
    #[serde(with = "crate::time::serde_timestamp")]
    at: Timestamp,
    /// What the delete took with it (its tasks).
    #[serde(default)]
    taken: Taken,
    /// The tasks the delete took, as stores of schema 1 before the registry
    /// of record kinds kept them; read into `taken`.
    #[serde(default, rename = "tasks", skip_serializing)]
    legacy_tasks: Vec<Id>,
}

impl ListDeleted {
    /// What the delete took, however the row was written.
    fn taken(&self) -> Taken {
        let mut taken = self.taken.clone();
        if !self.legacy_tasks.is_empty() {
            taken.0.push(("task".to_owned(), self.legacy_tasks.clone()));
        }
        taken
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ListRow {
    list: TaskList,
    #[serde(default)]
    deleted: Option<ListDeleted>,
}

fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<ListRow>> {
    cx.get_json(TASK_LISTS, &id.to_bytes())
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
    cx.put_json(TASK_LISTS, &row.list.id.to_bytes(), row)
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
    for (table, key) in entries {
        if add {
            cx.index(table, key.as_slice())?;
        } else {
            cx.remove(table, key.as_slice())?;
        }
    }
    Ok(())
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

/// The live list named `name` ignoring case, other than `except`.
fn named<T: Tables>(cx: &Cx<'_, T>, name: &str, except: Option<Id>) -> Result<Option<Id>> {
    let prefix = Key::new().str(&fold_case(name)).into_vec();
    let mut found = None;
    cx.scan_prefix(TASK_LISTS_BY_NAME, &prefix, Dir::Asc, &mut |k, _| {
        let id = tail_id(k);
        if Some(id) != except && k.len() == prefix.len() + 16 {
            found = Some(id);
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(found)
}

/// Every live list in position order.
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
    let mut uses = vec![0usize; COLORS.len()];
    for id in live_lists(cx)? {
        if Some(id) == except {
            continue;
        }
        let list = load_live(cx, id)?;
        if let Some(i) = COLORS.iter().position(|c| c.key == list.color) {
            uses[i] += 1;
        }
    }
    let least = uses.iter().copied().min().unwrap_or(0);
    let i = uses.iter().position(|&n| n == least).unwrap_or(0);
    Ok(COLORS[i].key.to_owned())
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
    Ok(match color {
        Field::Absent => None,
        Field::Null => Some(free_color(cx, except)?),
        Field::Value(c) if c.trim().is_empty() => Some(free_color(cx, except)?),
        Field::Value(c) if COLORS.iter().any(|k| k.key == c) => Some(c.clone()),
        Field::Value(_) => {
            details.add("color", "is not a colour of the vocabulary");
            None
        }
    })
}

fn check_icon(details: &mut Details, icon: &Field<String>) -> Option<Option<String>> {
    match icon {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(i) if i.trim().is_empty() => Some(None),
        Field::Value(i) if PICKER_ICONS.contains(&i.as_str()) => Some(Some(i.clone())),
        Field::Value(_) => {
            details.add("icon", "is not an icon of the vocabulary");
            None
        }
    }
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
    let icon = check_icon(&mut details, &input.icon);
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
    let icon = check_icon(&mut details, &input.icon);
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
                legacy_tasks: Vec::new(),
            }),
        },
    )
}

/// The name a restored list takes: its own, else `Name (2)`, `Name (3)`,
/// ... the first that is free and fits; `None` when none does.
fn restored_name<T: Tables>(cx: &Cx<'_, T>, name: &str, id: Id) -> Result<Option<String>> {
    if named(cx, name, Some(id))?.is_none() {
        return Ok(Some(name.to_owned()));
    }
    for n in 2..1000 {
        let candidate = format!("{name} ({n})");
        if char_len(&candidate) > limits::text::TASK_LIST_NAME {
            return Ok(None);
        }
        if named(cx, &candidate, Some(id))?.is_none() {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
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
    cx.cascade_restore(KIND.name, id, &deleted.taken())?;
    Ok(list)
}

/// Makes a list's delete permanent, with the tasks it took.
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(ListRow {
        deleted: Some(deleted),
        ..
    }) = load_row(cx, id)?
    {
        cx.cascade_purge(&deleted.taken())?;
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

impl TaskListQuery {
    pub(crate) fn parse(query: &Query) -> Result<TaskListQuery> {
        Ok(TaskListQuery {
            params: ListParams::parse(query, &["position", "id", "name", "updated_at"])?,
        })
    }
}

/// `GET /task_lists`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &TaskListQuery) -> Result<Page<TaskList>> {
    let p = &q.params;
    let direction = p.direction_or(Direction::Asc);
    let order = match (&p.updated_since, p.order.as_deref()) {
        (Some(_), _) => "updated_at",
        (None, Some(o)) => o,
        (None, None) => "position",
    };
    let dir = direction.dir();
    let scan = match order {
        "id" => Scan::range(TASK_LISTS, Vec::new(), None, dir),
        "name" => Scan::range(TASK_LISTS_BY_NAME, Vec::new(), None, dir),
        "updated_at" => {
            let lo = p
                .updated_since
                .map(|t| Key::new().timestamp(t).into_vec())
                .unwrap_or_default();
            Scan::range(TASK_LISTS_BY_UPDATED, lo, None, dir)
        }
        _ => Scan::range(TASK_LISTS_BY_POSITION, Vec::new(), None, dir),
    };
    let scope = format!(
        "task_lists|{order}|{}|{}",
        direction.as_str(),
        p.updated_since
            .map(|t| t.as_millisecond())
            .unwrap_or(i64::MIN)
    );
    let cursor = Cursor::new(&cx.org.secret, scope);
    let after = p.cursor.as_deref().map(|c| cursor.decode(c)).transpose()?;
    let load = |k: &[u8]| -> Result<Option<TaskList>> {
        let id = if order == "id" {
            Id::from_bytes(k.try_into().unwrap_or([0; 16]))
        } else {
            tail_id(k)
        };
        Ok(match load_row(cx, id)? {
            Some(ListRow {
                list,
                deleted: None,
            }) => Some(list),
            _ => None,
        })
    };
    let (items, last) = walk(&cx.tx, &scan, after.as_deref(), p.limit, load)?;
    let total_count = if p.count {
        Some(count(&cx.tx, &scan, |k| Ok(load(k)?.is_some()))?)
    } else {
        None
    };
    Ok(Page {
        items,
        next_cursor: last.map(|k| cursor.encode(&k)),
        limit: p.limit,
        total_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delete_written_before_the_registry_still_names_its_tasks() {
        let task = Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        let old = serde_json::json!({"at": "2026-03-10T09:00:00.000Z", "tasks": [task]});
        let deleted: ListDeleted = serde_json::from_value(old).unwrap();
        assert_eq!(deleted.taken(), Taken(vec![("task".into(), vec![task])]));
        let again = serde_json::to_value(&deleted).unwrap();
        assert!(again.get("tasks").is_none(), "{again}");
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
