//! The task lists' tables: the records and their live indexes.

use crate::store::Tbl;
use crate::store::schema::table;

/// Task lists by id.
pub(crate) const TASK_LISTS: Tbl = table("task_lists");
/// Live lists: (position, id).
pub(crate) const TASK_LISTS_BY_POSITION: Tbl = table("task_lists_by_position");
/// Live lists: (folded name, id), for order `name` and uniqueness.
pub(crate) const TASK_LISTS_BY_NAME: Tbl = table("task_lists_by_name");
/// Live lists: (updated_at, id).
pub(crate) const TASK_LISTS_BY_UPDATED: Tbl = table("task_lists_by_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    TASK_LISTS,
    TASK_LISTS_BY_POSITION,
    TASK_LISTS_BY_NAME,
    TASK_LISTS_BY_UPDATED,
];
