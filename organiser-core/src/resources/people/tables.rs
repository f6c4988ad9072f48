//! The people's tables: the records, their live indexes, and companies.

use crate::store::Tbl;
use crate::store::schema::table;

/// People by id (a person's rows live in its record).
pub(crate) const PEOPLE: Tbl = table("people");
/// Live people: (folded name, id), for order `name`.
pub(crate) const PEOPLE_BY_NAME: Tbl = table("people_by_name");
/// Live people: (updated_at, id).
pub(crate) const PEOPLE_BY_UPDATED: Tbl = table("people_by_updated");
/// Live people by relationship: (relationship key or `family`, id).
pub(crate) const PEOPLE_BY_RELATIONSHIP: Tbl = table("people_by_relationship");
/// Live people by relationship: (key or `family`, folded name, id).
pub(crate) const PEOPLE_BY_RELATIONSHIP_NAME: Tbl = table("people_by_relationship_name");
/// Live people by relationship: (key or `family`, updated_at, id).
pub(crate) const PEOPLE_BY_RELATIONSHIP_UPDATED: Tbl = table("people_by_relationship_updated");
/// Live people by email address: (lower-case address, id), to match
/// calendar attendees.
pub(crate) const PEOPLE_BY_EMAIL: Tbl = table("people_by_email");
/// Live people: (name folded for search, id), to match calendar attendees
/// by name ignoring case and accents.
pub(crate) const PEOPLE_BY_MATCH_NAME: Tbl = table("people_by_match_name");
/// Companies by id.
pub(crate) const COMPANIES: Tbl = table("companies");
/// Companies: (folded name, id), to find one ignoring case and list by name.
pub(crate) const COMPANIES_BY_NAME: Tbl = table("companies_by_name");
/// Companies: (updated_at, id).
pub(crate) const COMPANIES_BY_UPDATED: Tbl = table("companies_by_updated");
/// Live people's key dates: (month, day, person, key date), for the
/// upcoming ones.
pub(crate) const KEY_DATES_BY_DAY: Tbl = table("key_dates_by_day");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    PEOPLE,
    PEOPLE_BY_NAME,
    PEOPLE_BY_EMAIL,
    PEOPLE_BY_MATCH_NAME,
    PEOPLE_BY_UPDATED,
    PEOPLE_BY_RELATIONSHIP,
    PEOPLE_BY_RELATIONSHIP_NAME,
    PEOPLE_BY_RELATIONSHIP_UPDATED,
    COMPANIES,
    COMPANIES_BY_NAME,
    COMPANIES_BY_UPDATED,
    KEY_DATES_BY_DAY,
];
