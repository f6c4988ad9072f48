//! The uploads' tables: the records, and the unused ones by when they fall
//! due for removal.

use crate::store::Tbl;
use crate::store::schema::table;

/// Uploads by id.
pub(crate) const UPLOADS: Tbl = table("uploads");
/// Unused uploads: (due, id) -> (), removed by the clock after 24 hours.
pub(crate) const UPLOADS_BY_DUE: Tbl = table("uploads_by_due");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[UPLOADS, UPLOADS_BY_DUE];
