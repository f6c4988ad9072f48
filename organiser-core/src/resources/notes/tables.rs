//! The notes' tables: the records; the indexes of live notes (what the
//! lists walk and search reads); and the indexes of every stored note by
//! what its body names (what a rename, delete or restore of that record
//! walks), kept while a note is deleted.

use crate::store::Tbl;
use crate::store::schema::table;

/// Notes by id (live, and deleted ones until their window ends).
pub(crate) const NOTES: Tbl = table("notes");
/// Live notes: (id), orders `id` and `created_at`.
pub(crate) const NOTES_LIVE: Tbl = table("notes_live");
/// Live notes: (edited_at, id).
pub(crate) const NOTES_BY_EDITED: Tbl = table("notes_by_edited");
/// Live notes: (updated_at, id).
pub(crate) const NOTES_BY_UPDATED: Tbl = table("notes_by_updated");
/// Live notes: (folded name, id).
pub(crate) const NOTES_BY_NAME: Tbl = table("notes_by_name");
/// Live pinned notes: (id): the `pinned` filter without loading notes.
pub(crate) const NOTES_PINNED: Tbl = table("notes_pinned");
/// Live notes: (category, id): counts and the filter.
pub(crate) const NOTES_OF_CATEGORY: Tbl = table("notes_of_category");
/// Stored notes: (category, id).
pub(crate) const NOTES_BY_CATEGORY: Tbl = table("notes_by_category");
/// Stored notes: (tag, id).
pub(crate) const NOTES_BY_TAG: Tbl = table("notes_by_tag");
/// Stored notes: (person a span names, id).
pub(crate) const NOTES_BY_PERSON: Tbl = table("notes_by_person");
/// Stored notes: (project a span names, id).
pub(crate) const NOTES_BY_PROJECT: Tbl = table("notes_by_project");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    NOTES,
    NOTES_LIVE,
    NOTES_BY_EDITED,
    NOTES_BY_UPDATED,
    NOTES_BY_NAME,
    NOTES_PINNED,
    NOTES_OF_CATEGORY,
    NOTES_BY_CATEGORY,
    NOTES_BY_TAG,
    NOTES_BY_PERSON,
    NOTES_BY_PROJECT,
];
