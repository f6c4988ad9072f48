//! People (document 3, "Person", "KeyDate", "EmailAddress", "PhoneNumber",
//! "SocialProfile", "Position", "Company", PersonFields with its row rules,
//! "Person delete and restore", the avatar endpoint), and DESIGN.md's
//! `/companies` and `/upcoming_key_dates`: a person and its rows in one
//! record, companies made and deleted as positions name them, photos
//! (`avatars.rs`), delete and restore (`lifecycle.rs`), and the listing by
//! name, creation or change, filtered by relationship.
//!
//! This file holds the records as the API shows them; the rest is by
//! concern: what a request sends (`input.rs`) and how a body is read
//! (`parse.rs`), the row arrays' shared rules (`rows.rs`) and each array's
//! checks (`checks.rs`, `key_dates.rs`, `social.rs`), the writes
//! (`change.rs`), the person in the store with its index entries
//! (`store.rs`), and the listing (`list.rs`).

mod api;
mod avatars;
mod change;
mod checks;
pub(crate) mod companies;
mod input;
pub(crate) mod key_dates;
mod lifecycle;
mod list;
mod parse;
pub(crate) mod portable;
mod record;
pub(crate) mod rows;
pub(crate) mod social;
mod store;
pub(crate) mod tables;
mod upcoming;

pub(crate) use api::OPERATIONS;
pub use api::People;
pub(crate) use avatars::{absolute_avatar, upload_of};
pub(crate) use change::{
    change as change_person, checked_name, create as create_person, create_named, touch_connections,
};
pub use companies::{Company, CompanyQuery};
pub use input::{
    EmailAddressFields, KeyDateFields, PersonInput, PhoneNumberFields, PositionFields, RowInput,
    SocialProfileFields,
};
pub use list::PersonQuery;
pub(crate) use store::{
    by_email, exists, get, index_for_matching, load_live, lookup, only_one_named,
};
pub use upcoming::{PersonBrief, UpcomingKeyDate, UpcomingKeyDates, UpcomingMeta, UpcomingQuery};
pub(crate) use upcoming::{all_key_dates, key_dates_on, upcoming as upcoming_key_dates};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::WriteCx;
use crate::engine::kinds::RecordKind;
use crate::error::Result;
use crate::ids::Id;

/// People: restorable for 20 seconds, and homes of tasks.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(lifecycle::purge),
    is_live: Some(is_live),
    ..RecordKind::new("person", 3)
};

/// Whether `id` names a live person.
fn is_live(cx: &WriteCx<'_>, id: Id) -> Result<bool> {
    exists(cx, id)
}

/// The longest name, label, email address, phone number and link.
mod limit {
    pub(super) const NAME: usize = 100;
    pub(super) const LABEL: usize = 100;
    pub(super) const ADDRESS: usize = 254;
    pub(super) const NUMBER: usize = 50;
    pub(super) const URL: usize = 2048;
}

/// A person as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// ID.
    pub id: Id,
    /// Squished, not blank.
    pub name: String,
    /// The photo (`url`, `thumb_url`, `large_url`), or null.
    pub avatar: Option<Avatar>,
    /// Birthdays, anniversaries, ...
    pub key_dates: Vec<KeyDate>,
    /// Email addresses, in the order added.
    pub email_addresses: Vec<EmailAddress>,
    /// Phone numbers, in the order added.
    pub phone_numbers: Vec<PhoneNumber>,
    /// Social profiles and websites, in the order added.
    pub social_profiles: Vec<SocialProfile>,
    /// Jobs, in the order added.
    pub positions: Vec<Position>,
    /// Relationships to the owner (vocabulary keys), in the vocabulary's order.
    pub relationships: Vec<String>,
    /// Links to other people (read only; changed through `/person_links`).
    pub connections: Vec<Connection>,
    /// When the person was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When the person or any of its rows last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A person's photo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Avatar {
    /// The photo as uploaded (a redirect).
    pub url: String,
    /// 128 px square, WebP.
    pub thumb_url: String,
    /// 256 px square, WebP.
    pub large_url: String,
}

/// A key date of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyDate {
    /// ID.
    pub id: Id,
    /// A key of the vocabulary's `key_date_kinds`.
    pub kind: String,
    /// Names an `other` date or adds to any other kind.
    pub label: Option<String>,
    /// 1 to 31.
    pub day: i8,
    /// 1 to 12.
    pub month: i8,
    /// The year, when known.
    pub year: Option<i16>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// An email address of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailAddress {
    /// ID.
    pub id: Id,
    /// The address.
    pub address: String,
    /// "home", "work", ...
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A phone number of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhoneNumber {
    /// ID.
    pub id: Id,
    /// The number as written.
    pub number: String,
    /// "mobile", "home", ...
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A social profile or website of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocialProfile {
    /// ID.
    pub id: Id,
    /// The link (`https://` added when it had no scheme).
    pub url: String,
    /// A key of the vocabulary's `social_platforms`.
    pub platform: String,
    /// Whether `platform` was read from the link.
    pub platform_detected: bool,
    /// A label.
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A job of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// ID.
    pub id: Id,
    /// The title, or null.
    pub title: Option<String>,
    /// The company, or null.
    pub company_id: Option<Id>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A link from a person to another one, as the person shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    /// The person link's ID.
    pub id: Id,
    /// The other person.
    pub person_id: Id,
    /// The role, as this person sees it.
    pub kind: String,
    /// The link's note.
    pub note: Option<String>,
}

/// A person and, while it can be restored, its delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersonRow {
    pub(crate) person: Person,
    pub(crate) deleted: Option<Deleted>,
}

/// When a person was deleted, and what the delete took with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deleted {
    pub(crate) at: Timestamp,
    pub(crate) taken: crate::engine::kinds::Taken,
}
