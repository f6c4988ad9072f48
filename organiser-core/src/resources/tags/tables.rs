//! The tags' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Tags by id.
pub(crate) const TAGS: Tbl = table("tags");
/// Tags: (folded name, id): order `name` and uniqueness.
pub(crate) const TAGS_BY_NAME: Tbl = table("tags_by_name");
/// Tags: (updated_at, id).
pub(crate) const TAGS_BY_UPDATED: Tbl = table("tags_by_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[TAGS, TAGS_BY_NAME, TAGS_BY_UPDATED];
