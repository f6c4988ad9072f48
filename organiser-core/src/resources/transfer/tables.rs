//! The import map (EXTENSIONS.md §5, "Import"): for each item an import
//! wrote, its identity in its source (a Taskwarrior uuid, a vCard UID, a
//! note's path), the record it became, and a digest of what the source
//! said, so that importing the same file again changes nothing and a
//! changed item changes its record.

use serde::{Deserialize, Serialize};

use crate::store::Tbl;
use crate::store::codec::Record;
use crate::store::schema::table;

/// The import map: the format's byte and the source's identity to a
/// [`Mapped`].
pub(crate) const IMPORTED: Tbl = table("imported");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[IMPORTED];

/// What an imported item became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Mapped {
    /// The record's kind, as in `/deletions`.
    pub(crate) kind: String,
    /// The record.
    pub(crate) id: [u8; 16],
    /// A digest of each field of the item as last imported (SHA-256,
    /// first 8 bytes), in the kind's order: an import changes only the
    /// fields its source changed since, so what the owner changed here in
    /// the others stays.
    pub(crate) fields: Vec<[u8; 8]>,
}

impl Record for Mapped {
    const NAME: &'static str = "import map entry";
    const FORMAT: u8 = 1;
}
