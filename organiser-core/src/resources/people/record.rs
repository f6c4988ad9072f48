//! The person as stored (format 1): the API's [`Person`] whole, rows and
//! all, in the compact encoding (`store::codec`), with when it was deleted.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::{Person, PersonRow};
use crate::store::codec::{self, Record};

/// A stored person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PersonRecord {
    person: Person,
    /// When it was deleted, while it can be restored.
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
}

impl Record for PersonRecord {
    const NAME: &'static str = "person";
    const FORMAT: u8 = 1;
}

impl PersonRecord {
    pub(crate) fn from_row(row: &PersonRow) -> Self {
        PersonRecord {
            person: row.person.clone(),
            deleted_at: row.deleted_at,
        }
    }

    pub(crate) fn into_row(self) -> PersonRow {
        PersonRow {
            person: self.person,
            deleted_at: self.deleted_at,
        }
    }
}
