//! The categories' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Categories by id.
pub(crate) const CATEGORIES: Tbl = table("categories");
/// Categories: (position, id).
pub(crate) const CATEGORIES_BY_POSITION: Tbl = table("categories_by_position");
/// Categories: (folded name, id).
pub(crate) const CATEGORIES_BY_NAME: Tbl = table("categories_by_name");
/// Categories: (updated_at, id).
pub(crate) const CATEGORIES_BY_UPDATED: Tbl = table("categories_by_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    CATEGORIES,
    CATEGORIES_BY_POSITION,
    CATEGORIES_BY_NAME,
    CATEGORIES_BY_UPDATED,
];
