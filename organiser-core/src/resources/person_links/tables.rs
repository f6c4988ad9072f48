//! The person links' tables.

use crate::store::Tbl;
use crate::store::schema::table;

/// Links by id (links a person's delete took are kept until it is
/// permanent).
pub(crate) const PERSON_LINKS: Tbl = table("person_links");
/// Live links: (person, related person, role, id): one link of a role per pair.
pub(crate) const PERSON_LINKS_BY_PAIR: Tbl = table("person_links_by_pair");
/// Live links: (updated_at, id).
pub(crate) const PERSON_LINKS_BY_UPDATED: Tbl = table("person_links_by_updated");
/// Live links by each of their two people: (person, id).
pub(crate) const PERSON_LINKS_BY_PERSON: Tbl = table("person_links_by_person");
/// Live links by each of their two people: (person, updated_at, id).
pub(crate) const PERSON_LINKS_BY_PERSON_UPDATED: Tbl = table("person_links_by_person_updated");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    PERSON_LINKS,
    PERSON_LINKS_BY_PAIR,
    PERSON_LINKS_BY_UPDATED,
    PERSON_LINKS_BY_PERSON,
    PERSON_LINKS_BY_PERSON_UPDATED,
];
