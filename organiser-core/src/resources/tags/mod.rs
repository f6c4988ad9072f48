//! Tags (document 2, "Tag" and "Tags"): made by notes (a bare `#word` or a
//! tag span in a body), named by the normalisation rule, unique ignoring
//! case; renamed, merged and deleted here, each rewriting the bodies of
//! the notes that carry them (`notes::retag`).

mod api;
pub(crate) mod portable;
pub(crate) mod tables;

pub(crate) use api::OPERATIONS;
pub use api::Tags;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Change, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record, top};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::store::Tables;
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::text::{char_len, fold_case};
use tables::{TAGS, TAGS_BY_NAME, TAGS_BY_UPDATED};

/// Tags: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("tag", 8);

/// A tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// ID.
    pub id: Id,
    /// Its normalised name; unique ignoring case.
    pub name: String,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

impl Record for Tag {
    const NAME: &'static str = "tag";
    const FORMAT: u8 = 1;
}

/// Why a tag name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BadName {
    Blank,
    Comma,
    Control,
    TooLong,
}

impl BadName {
    fn phrase(self) -> String {
        match self {
            BadName::Blank => "can't be blank".into(),
            BadName::Comma => "can't contain commas".into(),
            BadName::Control => "can't contain control characters".into(),
            BadName::TooLong => format!(
                "is too long (at most {} characters)",
                limits::text::TAG_NAME
            ),
        }
    }
}

/// A tag name as stored: a leading `#` dropped, runs of spaces or hyphens
/// made one hyphen, leading hyphens and trailing hyphens and `. , ! ? ; :`
/// dropped; inner punctuation kept; a comma is refused.
pub(crate) fn normalise(raw: &str) -> std::result::Result<String, BadName> {
    if raw.contains(',') {
        return Err(BadName::Comma);
    }
    if raw.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        return Err(BadName::Control);
    }
    let raw = raw.trim();
    let raw = raw.strip_prefix('#').unwrap_or(raw);
    let mut out = String::with_capacity(raw.len());
    let mut in_run = false;
    for c in raw.chars() {
        if c.is_whitespace() || c == '-' {
            in_run = true;
            continue;
        }
        if in_run && !out.is_empty() {
            out.push('-');
        }
        in_run = false;
        out.push(c);
    }
    while let Some(last) = out.chars().last() {
        if matches!(last, '-' | '.' | ',' | '!' | '?' | ';' | ':') {
            out.pop();
        } else {
            break;
        }
    }
    if out.is_empty() {
        return Err(BadName::Blank);
    }
    if char_len(&out) > limits::text::TAG_NAME {
        return Err(BadName::TooLong);
    }
    Ok(out)
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Tag>> {
    cx.get_record(TAGS, &id.to_bytes())
}

/// The tag `id`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Tag> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// The tag `id`, if it exists.
pub(crate) fn find<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Tag>> {
    load(cx, id)
}

fn entries(tag: &Tag) -> [(crate::store::Tbl, Key); 2] {
    [
        (
            TAGS_BY_NAME,
            Key::new().str(&fold_case(&tag.name)).id(tag.id),
        ),
        (
            TAGS_BY_UPDATED,
            Key::new().timestamp(tag.updated_at).id(tag.id),
        ),
    ]
}

fn save(cx: &WriteCx<'_>, before: Option<&Tag>, tag: &Tag) -> Result<()> {
    if let Some(before) = before {
        cx.set_indexes(&entries(before), false)?;
    }
    cx.set_indexes(&entries(tag), true)?;
    cx.put_record(TAGS, &tag.id.to_bytes(), tag)
}

/// The tag named `name` (normalised) ignoring case, made when there is
/// none: a note's bare `#word`.
pub(crate) fn find_or_add(cx: &WriteCx<'_>, name: &str) -> Result<Tag> {
    if let Some(id) = cx.named(TAGS_BY_NAME, name, None)? {
        return get(cx, id);
    }
    let now = cx.now();
    let tag = Tag {
        id: cx.new_id(),
        name: name.to_owned(),
        created_at: now,
        updated_at: now,
    };
    save(cx, None, &tag)?;
    Ok(tag)
}

/// A tag's new name: `{tag: {name}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TagInput {
    /// The new name, normalised (see [`Tag::name`]).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
}

/// `{tag: {name}}`.
pub(crate) fn parse(body: Option<&Value>) -> Result<TagInput> {
    let mut f = record(body, "tag")?;
    let name = f.string("name");
    f.finish()?;
    Ok(TagInput { name })
}

/// `PATCH /tags/{id}`: a new name, unique ignoring case (its own casing
/// may change); every note with the tag shows the new name.
pub(crate) fn rename(cx: &mut WriteCx<'_>, id: Id, name: &Field<String>) -> Result<Tag> {
    let before = get(cx, id)?;
    let name = match name {
        Field::Absent => return Ok(before),
        Field::Null => Err(BadName::Blank),
        Field::Value(n) => normalise(n),
    }
    .map_err(|bad| Error::invalid("name", bad.phrase()))?;
    if cx.named(TAGS_BY_NAME, &name, Some(id))?.is_some() {
        return Err(Error::invalid("name", "already exists"));
    }
    if name == before.name {
        return Ok(before);
    }
    let tag = Tag {
        name,
        updated_at: cx.now(),
        ..before.clone()
    };
    save(cx, Some(&before), &tag)?;
    cx.tell(KIND.name, id, Change::Renamed)?;
    Ok(tag)
}

/// `DELETE /tags/{id}`: permanent, with its deletion record; gone from
/// every note.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let tag = get(cx, id)?;
    cx.tell(KIND.name, id, Change::Deleted)?;
    remove(cx, &tag)
}

fn remove(cx: &WriteCx<'_>, tag: &Tag) -> Result<()> {
    cx.set_indexes(&entries(tag), false)?;
    cx.remove(TAGS, &tag.id.to_bytes())?;
    deletions::record(cx, KIND.name, tag.id)
}

/// The tag another is merged into: `{into_id}` (not wrapped).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TagMerge {
    /// The surviving tag; a missing, unknown or non-ID value, or the
    /// merged tag's own ID, is 422 on `into_id`.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub into_id: Field<Id>,
}

/// `{into_id}`.
pub(crate) fn parse_merge(body: Option<&Value>) -> Result<TagMerge> {
    let mut f = top(body)?;
    let into_id = f.id("into_id");
    f.finish()?;
    Ok(TagMerge { into_id })
}

/// `POST /tags/{id}/merge`: notes with this tag get `into` instead; this
/// tag is deleted (with its deletion record); `into` is unchanged.
pub(crate) fn merge(cx: &mut WriteCx<'_>, id: Id, into: &Field<Id>) -> Result<Tag> {
    let tag = get(cx, id)?;
    let mut details = Details::new();
    let into = match into {
        Field::Value(into) if *into == id => {
            details.add("into_id", "can't be the tag itself");
            None
        }
        Field::Value(into) => match load(cx, *into)? {
            Some(t) => Some(t),
            None => {
                details.add("into_id", "does not exist");
                None
            }
        },
        _ => {
            details.add("into_id", "can't be blank");
            None
        }
    };
    details.into_validation()?;
    let into = into.ok_or_else(|| Error::invalid("into_id", "can't be blank"))?;
    cx.tell(KIND.name, id, Change::MergedInto(into.id))?;
    remove(cx, &tag)?;
    Ok(into)
}

/// `GET /tags` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagQuery {
    /// `name` (default; ignoring case), `id`, `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl TagQuery {
    /// The query's parameters, as [`TagQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        self.params.query_pairs()
    }

    pub(crate) fn parse(query: &Query) -> Result<TagQuery> {
        Ok(TagQuery {
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: TAGS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "tags",
    orders: &[
        Order {
            name: "name",
            index: TAGS_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: TAGS,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: TAGS,
};

/// `GET /tags`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &TagQuery) -> Result<Page<Tag>> {
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), |k| {
        load(cx, tail_id(k))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_as_the_spec_says() {
        let cases: &[(&str, std::result::Result<&str, BadName>)] = &[
            ("#rust", Ok("rust")),
            ("  Rust  ", Ok("Rust")),
            ("big  idea", Ok("big-idea")),
            ("big - - idea", Ok("big-idea")),
            ("--lead", Ok("lead")),
            ("trail--", Ok("trail")),
            ("done.", Ok("done")),
            ("what?!", Ok("what")),
            ("a;b:c.", Ok("a;b:c")),
            ("v1.2", Ok("v1.2")),
            ("c++", Ok("c++")),
            ("a,b", Err(BadName::Comma)),
            ("#", Err(BadName::Blank)),
            ("  - ", Err(BadName::Blank)),
            ("...", Err(BadName::Blank)),
        ];
        for (raw, want) in cases {
            assert_eq!(normalise(raw).as_deref(), want.as_deref(), "{raw:?}");
        }
        assert_eq!(normalise(&"x".repeat(51)), Err(BadName::TooLong));
    }
}
