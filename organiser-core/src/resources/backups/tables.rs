//! The backups' table: what the store keeps of each backup it made.

use crate::store::Tbl;
use crate::store::schema::table;

/// Backups the store made, by file name: the archive's size and SHA-256
/// (so listing them reads only their manifests).
pub(crate) const BACKUPS: Tbl = table("backups");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[BACKUPS];
