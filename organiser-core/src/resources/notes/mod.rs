//! Notes (document 3, "Note" and NoteSummary; DESIGN.md's note endpoints
//! and body format): a title or a name made from the body, a sanitised
//! body whose references follow their records (`body.rs`), a category,
//! edits counted by `edit_version` (409 `conflict` when a change was made
//! elsewhere), pins, delete with restoration within 20 seconds, the
//! listing with its filters and orders, and search by word prefixes
//! ignoring case and accents. What other records do to notes comes in
//! through their followers (`follow.rs`: people, projects, tags and
//! categories).
//!
//! This file holds the records as the API shows them and as they are
//! stored; the rest is by concern: reading a body (`input.rs`), rendering
//! a body and what follows from it (`render.rs`), the writes
//! (`change.rs`), the note in the store and the reads other resources make
//! (`store.rs`), the followers (`follow.rs`), and the listing with its
//! counts (`list.rs`).

mod api;
pub(crate) mod body;
mod change;
mod follow;
mod input;
mod list;
pub mod markdown;
pub(crate) mod portable;
mod render;
mod store;
pub(crate) mod tables;
pub mod tree;

pub use api::Notes;
pub(crate) use api::OPERATIONS;
pub(crate) use change::{
    backdate, change as change_note, create as create_note, write_generated_title,
};
pub(crate) use follow::{FOLLOWS_CATEGORIES, FOLLOWS_PEOPLE, FOLLOWS_PROJECTS, FOLLOWS_TAGS};
pub use list::NoteQuery;
pub(crate) use list::{list, referencing};
pub(crate) use store::{TitleView, get, index_pinned, is_live, live_ids, title_view};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::kinds::RecordKind;
use crate::ids::Id;
use crate::input::Field;
use crate::store::Tbl;
use crate::store::codec::{self, Record};
use crate::store::key::Key;
use crate::text::fold_case;
use tables::{
    NOTES_BY_CATEGORY, NOTES_BY_EDITED, NOTES_BY_NAME, NOTES_BY_PERSON, NOTES_BY_PROJECT,
    NOTES_BY_TAG, NOTES_BY_UPDATED, NOTES_LIVE, NOTES_OF_CATEGORY, NOTES_PINNED,
};

/// Notes: restorable for 20 seconds.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(change::purge),
    ..RecordKind::new("note", 10)
};

/// The most characters of a title.
pub(super) const TITLE_MAX: usize = 200;
/// The most bytes of a body as sent.
pub(super) const BODY_MAX_BYTES: usize = 1_000_000;
/// The most characters of a name made from the body.
pub(super) const NAME_FROM_BODY: usize = 60;
/// The most characters of an excerpt, its three dots included.
pub(super) const EXCERPT_MAX: usize = 240;
/// The most characters of a search.
pub(super) const Q_MAX: usize = 200;

/// A note as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// ID.
    pub id: Id,
    /// Squished; blank is null.
    pub title: Option<String>,
    /// The title, else the body's start, else `Untitled note`.
    pub name: String,
    /// Whether the AI `note_titles` task wrote the title.
    pub title_generated: bool,
    /// Its category.
    pub category_id: Option<Id>,
    /// Tags in the body, sorted.
    pub tag_ids: Vec<Id>,
    /// Live people the body mentions, sorted.
    pub person_ids: Vec<Id>,
    /// Live projects the body references, sorted.
    pub project_ids: Vec<Id>,
    /// Sanitised body HTML; empty when empty.
    pub body_html: String,
    /// The body's plain text.
    pub body_text: String,
    /// Whether it is pinned.
    pub pinned: bool,
    /// When it was pinned.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub pinned_at: Option<Timestamp>,
    /// Goes up by one with each `edited_at` change.
    pub edit_version: i64,
    /// The last change of title, body or category through a write.
    #[serde(with = "crate::time::serde_timestamp")]
    pub edited_at: Timestamp,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (references' renames and pins included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A note as lists show it: without its body, with an excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteSummary {
    /// ID.
    pub id: Id,
    /// Squished; blank is null.
    pub title: Option<String>,
    /// The title, else the body's start, else `Untitled note`.
    pub name: String,
    /// Whether the AI wrote the title.
    pub title_generated: bool,
    /// Its category.
    pub category_id: Option<Id>,
    /// Tags in the body.
    pub tag_ids: Vec<Id>,
    /// Live people mentioned.
    pub person_ids: Vec<Id>,
    /// Live projects referenced.
    pub project_ids: Vec<Id>,
    /// Whether it is pinned.
    pub pinned: bool,
    /// When it was pinned.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub pinned_at: Option<Timestamp>,
    /// Edits made.
    pub edit_version: i64,
    /// The last edit.
    #[serde(with = "crate::time::serde_timestamp")]
    pub edited_at: Timestamp,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
    /// The body as one line, at most 240 characters.
    pub excerpt: String,
    /// Images in the body.
    pub image_count: u64,
}

/// `{note: {title?, category_id?, body_html?, edit_version?}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct NoteInput {
    /// The title; blank or null clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub title: Field<String>,
    /// The category, or null for none.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub category_id: Field<Id>,
    /// Body HTML; null or empty clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub body_html: Field<String>,
    /// The version the change was made from (changes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit_version: Option<i64>,
}

/// A stored note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct NoteRecord {
    pub(super) note: Note,
    pub(super) excerpt: String,
    pub(super) images: Vec<Id>,
    /// Every person and project a span names (hidden ones too).
    pub(super) named_people: Vec<Id>,
    pub(super) named_projects: Vec<Id>,
    #[serde(with = "codec::opt_instant")]
    pub(super) deleted_at: Option<Timestamp>,
}

impl Record for NoteRecord {
    const NAME: &'static str = "note";
    const FORMAT: u8 = 1;
}

impl NoteRecord {
    pub(super) fn summary(&self) -> NoteSummary {
        let n = &self.note;
        NoteSummary {
            id: n.id,
            title: n.title.clone(),
            name: n.name.clone(),
            title_generated: n.title_generated,
            category_id: n.category_id,
            tag_ids: n.tag_ids.clone(),
            person_ids: n.person_ids.clone(),
            project_ids: n.project_ids.clone(),
            pinned: n.pinned,
            pinned_at: n.pinned_at,
            edit_version: n.edit_version,
            edited_at: n.edited_at,
            created_at: n.created_at,
            updated_at: n.updated_at,
            excerpt: self.excerpt.clone(),
            image_count: self.images.len() as u64,
        }
    }

    /// Index entries kept while the note is stored (deleted or not).
    pub(super) fn stored_entries(&self) -> Vec<(Tbl, Key)> {
        let id = self.note.id;
        let mut entries = Vec::new();
        if let Some(c) = self.note.category_id {
            entries.push((NOTES_BY_CATEGORY, Key::new().id(c).id(id)));
        }
        for &t in &self.note.tag_ids {
            entries.push((NOTES_BY_TAG, Key::new().id(t).id(id)));
        }
        for &p in &self.named_people {
            entries.push((NOTES_BY_PERSON, Key::new().id(p).id(id)));
        }
        for &p in &self.named_projects {
            entries.push((NOTES_BY_PROJECT, Key::new().id(p).id(id)));
        }
        entries
    }

    /// Index entries of a live note, its words apart.
    pub(super) fn live_entries(&self) -> Vec<(Tbl, Key)> {
        let n = &self.note;
        let mut entries = vec![
            (NOTES_LIVE, Key::new().id(n.id)),
            (NOTES_BY_EDITED, Key::new().timestamp(n.edited_at).id(n.id)),
            (
                NOTES_BY_UPDATED,
                Key::new().timestamp(n.updated_at).id(n.id),
            ),
            (NOTES_BY_NAME, Key::new().str(&fold_case(&n.name)).id(n.id)),
        ];
        if let Some(c) = n.category_id {
            entries.push((NOTES_OF_CATEGORY, Key::new().id(c).id(n.id)));
        }
        if n.pinned {
            entries.push((NOTES_PINNED, Key::new().id(n.id)));
        }
        entries
    }
}

/// One entry of `GET /category_note_counts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryNoteCount {
    /// The category.
    pub category_id: Id,
    /// Its live notes.
    pub note_count: u64,
}
