//! The folders' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Folders by id.
pub(crate) const FOLDERS: Tbl = table("folders");
/// Folders: (parent or nil, folded name, id): siblings by name.
pub(crate) const FOLDERS_BY_PARENT_NAME: Tbl = table("folders_by_parent_name");
/// Folders: (folded name, id).
pub(crate) const FOLDERS_BY_NAME: Tbl = table("folders_by_name");
/// Folders: (updated_at, id).
pub(crate) const FOLDERS_BY_UPDATED: Tbl = table("folders_by_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    FOLDERS,
    FOLDERS_BY_PARENT_NAME,
    FOLDERS_BY_NAME,
    FOLDERS_BY_UPDATED,
];
