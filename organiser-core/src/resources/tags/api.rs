//! The tags' operations (document 2, "Tags"), each declared once, and
//! [`Tags`], the typed door to them. Notes make tags; there is no create.

use super::{
    Tag, TagInput, TagMerge, TagQuery, delete, get, list, merge, parse, parse_merge, rename,
};
use crate::engine::Organiser;
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::error::Result;
use crate::ids::Id;
use crate::input::Field;
use crate::list::Page;

body_part!(TagInput, parse, Some("tag"));
body_part!(TagMerge, parse_merge, None);
query_part!(TagQuery);

/// `GET /tags`.
pub(crate) static LIST: Operation<TagQuery, Page<Tag>> = Operation::new(
    "listTags",
    Get,
    "/tags",
    "Tags\n\nTags are made by notes; there is no create endpoint.",
    Run::Read(ReadOp::SETTLED.kept(), |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// `GET /tags/{id}`.
pub(crate) static GET: Operation<Id, Tag> = Operation::new(
    "getTag",
    Get,
    "/tags/{id}",
    "A tag",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/tags/{id}`.
pub(crate) static RENAME: Operation<(Id, TagInput), Tag> = Operation::new(
    "changeTag",
    Patch,
    "/tags/{id}",
    "Rename a tag\n\nRenames the tag (normalised as TagInput says). Another tag with the name, ignoring case, is 422 on `name` (`already exists`); a change of casing alone is fine. Every note with the tag gets the new name in its body and a new `updated_at` (not `edited_at`).",
    Run::write(WriteOp::LICENSED, |cx, (id, input): (Id, TagInput)| rename(cx, id, &input.name)),
    Answer::data(200),
)
.also(Put, "replaceTag");

/// `DELETE /tags/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteTag",
    Delete,
    "/tags/{id}",
    "Delete a tag\n\nPermanent, with a `tag` deletion record. It is removed from every note: its spans become plain text `name` (without `#`), and those notes get a new `updated_at` (not `edited_at`).",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /tags/{id}/merge`.
pub(crate) static MERGE: Operation<(Id, TagMerge), Tag> = Operation::new(
    "mergeTag",
    Post,
    "/tags/{id}/merge",
    "Merge a tag into another\n\nNotes with this tag get the `into_id` tag instead (their spans take its id and name; the notes get a new `updated_at`), then this tag is deleted with a `tag` deletion record. The surviving tag is unchanged. A missing, unknown or non-ID `into_id`, or this tag's own ID, is 422 on `into_id`.",
    Run::write(WriteOp::LICENSED, |cx, (id, input): (Id, TagMerge)| {
        merge(cx, id, &input.into_id)
    }),
    Answer::data(200),
);

/// The tags' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&LIST, &GET, &RENAME, &DELETE, &MERGE];

/// The tags of a store (document 2, "Tags"), through a [`Door`]: the
/// store itself (`org.tags()`), or a server that holds it. Notes make
/// tags (`#name` in a body).
#[derive(Debug, Clone, Copy)]
pub struct Tags<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Tags<'d, D> {
    /// The tags of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Tags { door }
    }

    /// One page of the tags, by name unless `query` names another order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an
    /// unknown order or a cursor of another listing.
    pub fn list(&self, query: &TagQuery) -> Result<Page<Tag>> {
        self.door.call(&LIST, query.clone())
    }

    /// Tag `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown tag.
    pub fn get(&self, id: Id) -> Result<Tag> {
        self.door.call(&GET, id)
    }

    /// Renames tag `id` to `name` (normalised: lower case, no `#`), in
    /// every note that has it.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `name` for a
    /// blank or malformed name, or one another tag has;
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Tags::get`].
    pub fn rename(&self, id: Id, name: &str) -> Result<Tag> {
        let input = TagInput {
            name: Field::Value(name.to_owned()),
        };
        self.door.call(&RENAME, (id, input))
    }

    /// Deletes tag `id`, permanently: its spans in notes become words.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) as [`Tags::get`].
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Merges tag `id` into tag `into`: notes with it get `into` instead,
    /// and it is deleted; the surviving tag, unchanged.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `into_id` for an
    /// unknown tag or `id` itself; [`Error::NotFound`](crate::Error::NotFound)
    /// as [`Tags::get`].
    pub fn merge(&self, id: Id, into: Id) -> Result<Tag> {
        let input = TagMerge {
            into_id: Field::Value(into),
        };
        self.door.call(&MERGE, (id, input))
    }
}

impl Organiser {
    /// The store's tags.
    pub fn tags(&self) -> Tags<'_> {
        Tags::new(self)
    }
}
