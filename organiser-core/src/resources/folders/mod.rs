//! Folders (document 3, "Folder" and "FolderCount"; DESIGN.md's folder
//! endpoints): nested, names unique among siblings ignoring case, a
//! colour and an icon of the vocabulary, no cycles, deleted only when
//! empty (409 `folder_not_empty`).

mod api;
pub(crate) mod portable;
pub(crate) mod tables;

pub use api::Folders;
pub(crate) use api::OPERATIONS;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Change, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{ConflictKind, Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::resources::vocabulary::palette;
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables, Tbl};
use crate::text::{fold_case, squished_required};
use tables::{FOLDERS, FOLDERS_BY_NAME, FOLDERS_BY_PARENT_NAME, FOLDERS_BY_UPDATED};

/// Folders: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("folder", 11);

/// A folder of documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Folder {
    /// ID.
    pub id: Id,
    /// Squished; unique among its siblings ignoring case.
    pub name: String,
    /// The folder it is in; null at the top.
    pub parent_id: Option<Id>,
    /// A colour key of the vocabulary.
    pub color: String,
    /// An icon, or null for the default folder icon.
    pub icon: Option<String>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

impl Record for Folder {
    const NAME: &'static str = "folder";
    const FORMAT: u8 = 1;
}

/// `{folder: {name, parent_id?, color?, icon?}}`; all optional on change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct FolderInput {
    /// The name; required on create.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The parent, or null for the top.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub parent_id: Field<Id>,
    /// A colour key; blank or null takes the first one no sibling uses.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub color: Field<String>,
    /// An icon, or null.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub icon: Field<String>,
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Folder>> {
    cx.get_record(FOLDERS, &id.to_bytes())
}

/// The folder `id`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Folder> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// Whether `id` names a folder.
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(load(cx, id)?.is_some())
}

/// The key of a parent (the top is the nil ID).
fn parent_key(parent: Option<Id>) -> Key {
    Key::new().id(parent.unwrap_or(Id::from_bytes([0; 16])))
}

fn entries(f: &Folder) -> [(Tbl, Key); 3] {
    let folded = fold_case(&f.name);
    [
        (
            FOLDERS_BY_PARENT_NAME,
            parent_key(f.parent_id).str(&folded).id(f.id),
        ),
        (FOLDERS_BY_NAME, Key::new().str(&folded).id(f.id)),
        (
            FOLDERS_BY_UPDATED,
            Key::new().timestamp(f.updated_at).id(f.id),
        ),
    ]
}

fn save(cx: &WriteCx<'_>, before: Option<&Folder>, f: &Folder) -> Result<()> {
    match before {
        Some(b) => cx.move_indexes(&entries(b), &entries(f))?,
        None => cx.set_indexes(&entries(f), true)?,
    }
    cx.put_record(FOLDERS, &f.id.to_bytes(), f)
}

/// The children of `parent` (the top when `None`).
fn children<T: Tables>(cx: &Cx<'_, T>, parent: Option<Id>) -> Result<Vec<Id>> {
    cx.ids_under(FOLDERS_BY_PARENT_NAME, parent_key(parent).as_slice())
}

/// The sibling of a folder in `parent` named `name`, other than `except`.
fn sibling_named<T: Tables>(
    cx: &Cx<'_, T>,
    parent: Option<Id>,
    name: &str,
    except: Option<Id>,
) -> Result<Option<Id>> {
    let prefix = parent_key(parent).str(&fold_case(name)).into_vec();
    let mut found = None;
    cx.scan_prefix(FOLDERS_BY_PARENT_NAME, &prefix, Dir::Asc, &mut |k, _| {
        let id = tail_id(k);
        if Some(id) != except && k.len() == prefix.len() + 16 {
            found = Some(id);
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(found)
}

/// Whether `folder` is `ancestor` or lies below it.
fn is_within<T: Tables>(cx: &Cx<'_, T>, folder: Id, ancestor: Id) -> Result<bool> {
    let mut at = Some(folder);
    let mut steps = 0;
    while let Some(id) = at {
        if id == ancestor {
            return Ok(true);
        }
        steps += 1;
        if steps > 10_000 {
            break;
        }
        at = load(cx, id)?.and_then(|f| f.parent_id);
    }
    Ok(false)
}

pub(crate) fn parse(body: Option<&Value>) -> Result<FolderInput> {
    let mut f = record(body, "folder")?;
    let input = FolderInput {
        name: match f.string("name") {
            Field::Value(n) => Some(n),
            Field::Null => Some(String::new()),
            Field::Absent => None,
        },
        parent_id: f.id("parent_id"),
        color: f.string("color"),
        icon: f.string("icon"),
    };
    f.finish()?;
    Ok(input)
}

fn apply(
    cx: &WriteCx<'_>,
    mut folder: Folder,
    input: &FolderInput,
    creating: bool,
) -> Result<Folder> {
    let mut details = Details::new();
    let except = (!creating).then_some(folder.id);
    match &input.parent_id {
        Field::Absent => {}
        Field::Null => folder.parent_id = None,
        Field::Value(p) if !exists(cx, *p)? => details.add("parent_id", "does not exist"),
        Field::Value(p) if !creating && is_within(cx, *p, folder.id)? => details.add(
            "parent_id",
            "can't be the folder itself or a folder inside it",
        ),
        Field::Value(p) => folder.parent_id = Some(*p),
    }
    match &input.name {
        Some(name) => {
            folder.name = squished_required(&mut details, "name", name, limits::text::FOLDER_NAME);
        }
        None if creating => details.add("name", "can't be blank"),
        None => {}
    }
    if !details.has("name")
        && !details.has("parent_id")
        && sibling_named(cx, folder.parent_id, &folder.name, except)?.is_some()
    {
        details.add("name", "has already been taken by another folder here");
    }
    let color = palette::check_color(&mut details, &input.color);
    let icon = palette::check_icon(&mut details, &input.icon);
    details.into_validation()?;
    let free = |cx: &WriteCx<'_>, parent| -> Result<String> {
        let mut used = Vec::new();
        for id in children(cx, parent)? {
            if Some(id) != except {
                used.push(get(cx, id)?.color);
            }
        }
        Ok(palette::first_free_color(used.iter().map(String::as_str)))
    };
    match color {
        Some(Some(c)) => folder.color = c,
        Some(None) => folder.color = free(cx, folder.parent_id)?,
        None if creating => folder.color = free(cx, folder.parent_id)?,
        None => {}
    }
    if let Some(icon) = icon {
        folder.icon = icon;
    }
    Ok(folder)
}

/// `POST /folders`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &FolderInput) -> Result<Folder> {
    let now = cx.now();
    let blank = Folder {
        id: cx.new_id(),
        name: String::new(),
        parent_id: None,
        color: String::new(),
        icon: None,
        created_at: now,
        updated_at: now,
    };
    let folder = apply(cx, blank, input, true)?;
    save(cx, None, &folder)?;
    Ok(folder)
}

/// `PATCH /folders/{id}`.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &FolderInput) -> Result<Folder> {
    let before = get(cx, id)?;
    let mut folder = apply(cx, before.clone(), input, false)?;
    if folder == before {
        return Ok(folder);
    }
    folder.updated_at = cx.now();
    save(cx, Some(&before), &folder)?;
    Ok(folder)
}

/// `DELETE /folders/{id}`: only a folder with no subfolder and no live
/// document; deleted documents still in it are left in no folder.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let folder = get(cx, id)?;
    if !children(cx, Some(id))?.is_empty() || cx.in_use(KIND.name, id)? {
        return Err(Error::Conflict {
            kind: ConflictKind::FolderNotEmpty,
            message: "the folder holds folders or documents; move or delete them first".into(),
        });
    }
    cx.tell(KIND.name, id, Change::Deleted)?;
    cx.set_indexes(&entries(&folder), false)?;
    cx.remove(FOLDERS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)
}

/// `GET /folders` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderQuery {
    /// Only the children of this folder (`Some(None)`: the top level).
    pub parent_id: Option<Option<Id>>,
    /// `name` (default; ignoring case), `created_at`, `updated_at`, `id`;
    /// direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl FolderQuery {
    /// The query's parameters, as [`FolderQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        match self.parent_id {
            None => {}
            Some(None) => pairs.push(("parent_id", "none".to_owned())),
            Some(Some(id)) => pairs.push(("parent_id", id.to_string())),
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<FolderQuery> {
        let parent_id = match query.get("parent_id") {
            None => None,
            Some("none") => Some(None),
            Some(_) => Some(query.id("parent_id")?),
        };
        Ok(FolderQuery {
            parent_id,
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: FOLDERS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "folders",
    orders: &[
        Order {
            name: "name",
            index: FOLDERS_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: FOLDERS,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "id",
            index: FOLDERS,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: FOLDERS,
};

/// `GET /folders`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &FolderQuery) -> Result<Page<Folder>> {
    let parent = q.parent_id;
    let load =
        |k: &[u8]| Ok(load(cx, tail_id(k))?.filter(|f| parent.is_none_or(|p| f.parent_id == p)));
    let filter = match parent {
        None => Filter::default(),
        Some(p) => Filter::default().skipping(&format!("parent={p:?}")),
    };
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
}
