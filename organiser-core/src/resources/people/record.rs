//! The person as stored (format 1): the API's [`Person`] whole, rows and
//! all, in the compact encoding (`store::codec`), with when it was deleted
//! and what its delete took.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::{Deleted, Person, PersonRow};
use crate::engine::kinds::Taken;
use crate::ids::Id;
use crate::store::codec::{self, Record};

/// A stored person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PersonRecord {
    person: Person,
    /// When it was deleted, while it can be restored.
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
    /// What its delete took, by kind.
    taken: Vec<(String, Vec<[u8; 16]>)>,
}

impl Record for PersonRecord {
    const NAME: &'static str = "person";
    const FORMAT: u8 = 1;
}

impl PersonRecord {
    pub(crate) fn from_row(row: &PersonRow) -> Self {
        let taken = row.deleted.as_ref().map(|d| &d.taken.0[..]).unwrap_or(&[]);
        PersonRecord {
            person: row.person.clone(),
            deleted_at: row.deleted.as_ref().map(|d| d.at),
            taken: taken
                .iter()
                .map(|(kind, ids)| (kind.clone(), ids.iter().map(|id| id.to_bytes()).collect()))
                .collect(),
        }
    }

    pub(crate) fn into_row(self) -> PersonRow {
        let taken = Taken(
            self.taken
                .into_iter()
                .map(|(kind, ids)| (kind, ids.into_iter().map(Id::from_bytes).collect()))
                .collect(),
        );
        PersonRow {
            person: self.person,
            deleted: self.deleted_at.map(|at| Deleted { at, taken }),
        }
    }
}
