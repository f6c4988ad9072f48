//! Categories (document 2, "Category" and "Categories"): unique names
//! ignoring case, a colour and icon from `/category_choices`, positions
//! ordered by position then id (renumbered 1..n when one is placed, gaps
//! left by a delete), and a permanent delete that leaves its notes
//! uncategorised, or refuses (`if_unused`) while any note has it.

mod api;
pub(crate) mod portable;
pub(crate) mod tables;

pub use api::Categories;
pub(crate) use api::OPERATIONS;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Change, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{ConflictKind, Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};

use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::positions::Placement;
use crate::resources::deletions;
use crate::resources::vocabulary::{COLORS, Choice, PICKER_ICONS, palette};
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{fold_case, squished_required};
use tables::{CATEGORIES, CATEGORIES_BY_NAME, CATEGORIES_BY_POSITION, CATEGORIES_BY_UPDATED};

/// The most characters of a name (the spec names no limit; as lists').
const NAME_MAX: usize = 100;

/// Categories: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("category", 9);

/// A category of notes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Category {
    /// ID.
    pub id: Id,
    /// Squished; unique ignoring case.
    pub name: String,
    /// A colour key of `/category_choices`.
    pub color: String,
    /// An icon of `/category_choices` (or one no longer offered), or null.
    pub icon: Option<String>,
    /// The sort key: by position, then id.
    pub position: i64,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

impl Record for Category {
    const NAME: &'static str = "category";
    const FORMAT: u8 = 1;
}

/// `{category: {name, color?, icon?, position?}}`; all optional on change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct CategoryInput {
    /// The name; required on create.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A colour key; blank or null takes the first colour no other
    /// category uses.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub color: Field<String>,
    /// An icon, or null for none.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub icon: Field<String>,
    /// 1-based place among the categories; clamped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
}

/// `GET /category_choices`.
#[derive(Debug, Clone, Serialize)]
pub struct CategoryChoices {
    /// The palette.
    pub colors: &'static [Choice],
    /// The icons.
    pub icons: &'static [&'static str],
}

/// The choices of colour and icon.
pub(crate) fn choices() -> CategoryChoices {
    CategoryChoices {
        colors: COLORS,
        icons: PICKER_ICONS,
    }
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Category>> {
    cx.get_record(CATEGORIES, &id.to_bytes())
}

/// The category `id`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Category> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// Whether `id` names a category.
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(load(cx, id)?.is_some())
}

fn entries(c: &Category) -> [(Tbl, Key); 3] {
    [
        (CATEGORIES_BY_POSITION, Key::new().i64(c.position).id(c.id)),
        (
            CATEGORIES_BY_NAME,
            Key::new().str(&fold_case(&c.name)).id(c.id),
        ),
        (
            CATEGORIES_BY_UPDATED,
            Key::new().timestamp(c.updated_at).id(c.id),
        ),
    ]
}

fn save(cx: &WriteCx<'_>, before: Option<&Category>, c: &Category) -> Result<()> {
    if let Some(before) = before {
        cx.set_indexes(&entries(before), false)?;
    }
    cx.set_indexes(&entries(c), true)?;
    cx.put_record(CATEGORIES, &c.id.to_bytes(), c)
}

/// Every category in order (position, then id).
fn in_order<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Id>> {
    cx.ids_under(CATEGORIES_BY_POSITION, &[])
}

/// Places a category at `rank` (clamped) among `others` (in order, without
/// it) and renumbers them 1..n, each whose position changed getting a new
/// `updated_at`; the placed one's position.
fn place(cx: &WriteCx<'_>, others: &[Id], rank: i64) -> Result<i64> {
    let placement = Placement::at(rank, others.len());
    for (i, &id) in others.iter().enumerate() {
        let before = get(cx, id)?;
        let position = placement.of_other(i);
        if before.position != position {
            let after = Category {
                position,
                updated_at: cx.now(),
                ..before.clone()
            };
            save(cx, Some(&before), &after)?;
        }
    }
    Ok(placement.position())
}

/// The first colour no other category uses.
fn free_color<T: Tables>(cx: &Cx<'_, T>, except: Option<Id>) -> Result<String> {
    let mut used = Vec::new();
    for id in in_order(cx)? {
        if Some(id) != except {
            used.push(get(cx, id)?.color);
        }
    }
    Ok(palette::first_free_color(used.iter().map(String::as_str)))
}

pub(crate) fn parse(body: Option<&Value>) -> Result<CategoryInput> {
    let mut f = record(body, "category")?;
    let mut input = CategoryInput {
        name: match f.string("name") {
            Field::Value(n) => Some(n),
            Field::Null => Some(String::new()),
            Field::Absent => None,
        },
        color: f.string("color"),
        icon: f.string("icon"),
        position: None,
    };
    match f.integer("position") {
        Field::Value(p) => input.position = Some(p),
        Field::Null => f.add("position", "must be a whole number"),
        Field::Absent => {}
    }
    f.finish()?;
    Ok(input)
}

/// `category` with `input` applied (but its position), checked.
fn apply(
    cx: &WriteCx<'_>,
    mut c: Category,
    input: &CategoryInput,
    creating: bool,
) -> Result<Category> {
    let mut details = Details::new();
    let except = (!creating).then_some(c.id);
    match &input.name {
        Some(name) => {
            let name = squished_required(&mut details, "name", name, NAME_MAX);
            if !details.has("name") && cx.named(CATEGORIES_BY_NAME, &name, except)?.is_some() {
                details.add("name", "has already been taken");
            }
            c.name = name;
        }
        None if creating => details.add("name", "can't be blank"),
        None => {}
    }
    let color = palette::check_color(&mut details, &input.color);
    let icon = palette::check_icon(&mut details, &input.icon);
    details.into_validation()?;
    match color {
        Some(Some(color)) => c.color = color,
        Some(None) => c.color = free_color(cx, except)?,
        None if creating => c.color = free_color(cx, None)?,
        None => {}
    }
    if let Some(icon) = icon {
        c.icon = icon;
    }
    Ok(c)
}

/// `POST /categories`: last unless `position` is sent.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &CategoryInput) -> Result<Category> {
    let now = cx.now();
    let blank = Category {
        id: cx.new_id(),
        name: String::new(),
        color: String::new(),
        icon: None,
        position: 0,
        created_at: now,
        updated_at: now,
    };
    let mut c = apply(cx, blank, input, true)?;
    let others = in_order(cx)?;
    c.position = match input.position {
        Some(rank) => place(cx, &others, rank)?,
        None => match others.last() {
            Some(&last) => get(cx, last)?.position + 1,
            None => 1,
        },
    };
    save(cx, None, &c)?;
    Ok(c)
}

/// `PATCH /categories/{id}`.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &CategoryInput) -> Result<Category> {
    let before = get(cx, id)?;
    let mut c = apply(cx, before.clone(), input, false)?;
    if let Some(rank) = input.position {
        let others: Vec<Id> = in_order(cx)?.into_iter().filter(|&o| o != id).collect();
        c.position = place(cx, &others, rank)?;
    }
    if c == before {
        return Ok(c);
    }
    c.updated_at = cx.now();
    save(cx, Some(&before), &c)?;
    Ok(c)
}

/// `DELETE /categories/{id}?if_unused=…`: permanent; its notes become
/// uncategorised. With `if_unused`, a category any note (live, or deleted
/// and restorable) has is 409 `in_use`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id, if_unused: bool) -> Result<()> {
    let c = get(cx, id)?;
    if if_unused && cx.in_use(KIND.name, id)? {
        return Err(Error::Conflict {
            kind: ConflictKind::InUse,
            message: "notes have this category; move them first, or delete without if_unused"
                .into(),
        });
    }
    cx.tell(KIND.name, id, Change::Deleted)?;
    cx.set_indexes(&entries(&c), false)?;
    cx.remove(CATEGORIES, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)
}

/// `GET /categories` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CategoryQuery {
    /// `position` (default), `id`, `name`, `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl CategoryQuery {
    /// The query's parameters, as [`CategoryQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        self.params.query_pairs()
    }

    pub(crate) fn parse(query: &Query) -> Result<CategoryQuery> {
        Ok(CategoryQuery {
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: CATEGORIES_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "categories",
    orders: &[
        Order {
            name: "position",
            index: CATEGORIES_BY_POSITION,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: CATEGORIES,
            direction: Direction::Asc,
        },
        Order {
            name: "name",
            index: CATEGORIES_BY_NAME,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: CATEGORIES,
};

/// `GET /categories`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &CategoryQuery) -> Result<Page<Category>> {
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), |k| {
        load(cx, tail_id(k))
    })
}
