//! Person links (document 3, "PersonLink" and "Person links"): two people
//! and a role of the vocabulary's `person_links`, stored one way (an
//! inverse role swaps the people, a symmetric one puts the lower id
//! first), one link of each role per pair, shown on both people as
//! `connections`. A person's delete takes its links with it (deletion
//! records for each), and its restoration brings them back.

mod api;
pub(crate) mod portable;
pub(crate) mod tables;

pub(crate) use api::OPERATIONS;
pub use api::PersonLinks;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Cascade, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::resources::people::{self, Connection};
use crate::resources::vocabulary::{PERSON_LINKS, PersonLinkChoice};
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables};
use crate::text::squish;
use tables::{
    PERSON_LINKS as LINKS, PERSON_LINKS_BY_PAIR, PERSON_LINKS_BY_PERSON,
    PERSON_LINKS_BY_PERSON_UPDATED, PERSON_LINKS_BY_UPDATED,
};

/// Person links: deleted at once, except with a person, whose restoration
/// brings them back.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    ..RecordKind::new("person_link", 4)
};

/// A person's delete takes the links of its live others with it.
pub(crate) static PERSON_CASCADE: Cascade = Cascade {
    from: "person",
    to: "person_link",
    delete: delete_with_person,
    restore: restore_with_person,
};

/// A link between two people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonLink {
    /// ID.
    pub id: Id,
    /// The person who has the role.
    pub person_id: Id,
    /// A role of the vocabulary's `person_links`, as stored (one way).
    pub kind: String,
    /// The person the role is to.
    pub related_person_id: Id,
    /// Squished; blank is null.
    pub note: Option<String>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// `{person_link: {person_id | new_person_name, related_person_id, kind,
/// note?}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PersonLinkInput {
    /// The person who has the role.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub person_id: Field<Id>,
    /// A person to make, instead of `person_id` (create only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_person_name: Option<String>,
    /// The person the role is to.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub related_person_id: Field<Id>,
    /// The role (any role of the vocabulary, either way).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub kind: Field<String>,
    /// A note.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub note: Field<String>,
}

/// A stored link, and whether a person's delete took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct LinkRecord {
    link: PersonLink,
    /// The person whose delete took it, while that person can be restored.
    taken_by: Option<Id>,
}

impl Record for LinkRecord {
    const NAME: &'static str = "person link";
    const FORMAT: u8 = 1;
}

/// Reads the body; `new_person_name` with `person_id`, or not a string, is
/// 400 (and on a change at all: [`change`] refuses it).
pub(crate) fn parse(body: Option<&Value>) -> Result<PersonLinkInput> {
    let mut f = record(body, "person_link")?;
    let mut input = PersonLinkInput {
        person_id: f.id("person_id"),
        related_person_id: f.id("related_person_id"),
        kind: f.string("kind"),
        note: f.string("note"),
        ..PersonLinkInput::default()
    };
    match f.raw("new_person_name") {
        Field::Absent => {}
        Field::Value(Value::String(name)) if input.person_id.is_absent() => {
            input.new_person_name = Some(name.clone());
        }
        Field::Value(Value::String(_)) => {
            return Err(Error::bad_param(
                "new_person_name",
                "send person_id or new_person_name, not both",
            ));
        }
        _ => {
            return Err(Error::bad_param(
                "new_person_name",
                "must be the new person's name",
            ));
        }
    }
    f.finish()?;
    Ok(input)
}

/// The role `key`.
fn role(key: &str) -> Option<&'static PersonLinkChoice> {
    PERSON_LINKS.iter().find(|r| r.key == key)
}

/// Whether `key` is the direction a pair is stored in: the symmetric roles,
/// and of each asymmetric pair the one the vocabulary lists first.
fn is_forward(choice: &PersonLinkChoice) -> bool {
    if choice.symmetric {
        return true;
    }
    let at = |key: &str| PERSON_LINKS.iter().position(|r| r.key == key);
    at(choice.key) <= at(choice.inverse_key)
}

/// `person` is `kind` of `related`, as stored: (person, kind, related).
fn stored_way(person: Id, kind: &'static PersonLinkChoice, related: Id) -> (Id, &'static str, Id) {
    if kind.symmetric {
        (person.min(related), kind.key, person.max(related))
    } else if is_forward(kind) {
        (person, kind.key, related)
    } else {
        (related, kind.inverse_key, person)
    }
}

/// The connection a link makes on `viewer`: the other person and that
/// person's role to the viewer.
fn connection(link: &PersonLink, viewer: Id) -> Connection {
    let (other, kind) = if viewer == link.related_person_id {
        (link.person_id, link.kind.clone())
    } else {
        let inverse = role(&link.kind).map_or(link.kind.as_str(), |r| r.inverse_key);
        (link.related_person_id, inverse.to_owned())
    };
    Connection {
        id: link.id,
        person_id: other,
        kind,
        note: link.note.clone(),
    }
}

/// The stored way of a link, as the pair index leads with it.
fn pair_prefix((person, kind, related): (Id, &str, Id)) -> Key {
    Key::new().id(person).id(related).str(kind)
}

fn pair_key(link: &PersonLink) -> Key {
    pair_prefix((link.person_id, &link.kind, link.related_person_id)).id(link.id)
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<LinkRecord>> {
    cx.get_record(LINKS, &id.to_bytes())
}

fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<PersonLink> {
    match load(cx, id)? {
        Some(LinkRecord {
            link,
            taken_by: None,
        }) => Ok(link),
        _ => Err(Error::NotFound),
    }
}

/// Adds (or removes) a live link's index entries.
fn index(cx: &WriteCx<'_>, link: &PersonLink, add: bool) -> Result<()> {
    let mut entries = vec![
        (PERSON_LINKS_BY_PAIR, pair_key(link)),
        (
            PERSON_LINKS_BY_UPDATED,
            Key::new().timestamp(link.updated_at).id(link.id),
        ),
    ];
    for person in [link.person_id, link.related_person_id] {
        entries.push((PERSON_LINKS_BY_PERSON, Key::new().id(person).id(link.id)));
        entries.push((
            PERSON_LINKS_BY_PERSON_UPDATED,
            Key::new().id(person).timestamp(link.updated_at).id(link.id),
        ));
    }
    cx.set_indexes(&entries, add)
}

fn save(cx: &WriteCx<'_>, link: &PersonLink, taken_by: Option<Id>) -> Result<()> {
    cx.put_record(
        LINKS,
        &link.id.to_bytes(),
        &LinkRecord {
            link: link.clone(),
            taken_by,
        },
    )
}

/// Shows `link` on both its people (or takes it off), giving each a new
/// `updated_at`.
fn show_on_people(cx: &WriteCx<'_>, link: &PersonLink, shown: bool) -> Result<()> {
    for viewer in [link.person_id, link.related_person_id] {
        let made = connection(link, viewer);
        people::touch_connections(cx, viewer, |connections| {
            connections.retain(|c| c.id != link.id);
            if shown {
                connections.push(made);
            }
        })?;
    }
    Ok(())
}

/// The role `kind` names, or its mistake under `kind`.
fn check_kind(details: &mut Details, kind: Option<&str>) -> Option<&'static PersonLinkChoice> {
    let kind = kind.map(squish).filter(|k| !k.is_empty());
    match kind {
        None => {
            details.add("kind", "can't be blank");
            None
        }
        Some(k) => {
            let found = role(&k);
            if found.is_none() {
                details.add("kind", "is not a role of the vocabulary's person_links");
            }
            found
        }
    }
}

/// Whether `id` (sent as `field`) names a live person, else its mistake.
fn check_person(
    cx: &WriteCx<'_>,
    details: &mut Details,
    field: &str,
    id: Option<Id>,
) -> Result<()> {
    match id {
        None => details.add(field, "can't be blank"),
        Some(id) if !people::exists(cx, id)? => details.add(field, "does not exist"),
        Some(_) => {}
    }
    Ok(())
}

/// The link `person` `kind` `related` as stored, checked: both people
/// live, not the same, no link of that role between them but `except`.
fn check(
    cx: &WriteCx<'_>,
    details: &mut Details,
    person: Option<Id>,
    kind: Option<&str>,
    related: Option<Id>,
    except: Option<Id>,
) -> Result<Option<(Id, &'static str, Id)>> {
    let kind = check_kind(details, kind);
    check_person(cx, details, "person_id", person)?;
    check_person(cx, details, "related_person_id", related)?;
    if let (Some(a), Some(b)) = (person, related)
        && a == b
    {
        details.add("related_person_id", "can't be the same person");
    }
    let (Some(person), Some(kind), Some(related)) = (person, kind, related) else {
        return Ok(None);
    };
    let way = stored_way(person, kind, related);
    let prefix = pair_prefix(way).into_vec();
    let mut duplicate = false;
    cx.scan_prefix(PERSON_LINKS_BY_PAIR, &prefix, Dir::Asc, &mut |k, _| {
        if Some(tail_id(k)) != except {
            duplicate = true;
            return Ok(false);
        }
        Ok(true)
    })?;
    if duplicate {
        details.add("kind", "these two people already have a link of this role");
    }
    Ok(Some(way))
}

fn note(field: &Field<String>, current: Option<String>) -> Option<String> {
    match field {
        Field::Absent => current,
        Field::Null => None,
        Field::Value(n) => Some(squish(n)).filter(|n| !n.is_empty()),
    }
}

/// `POST /person_links`: with `new_person_name`, the person is made in
/// the same transaction, so a refused link makes neither.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &PersonLinkInput) -> Result<PersonLink> {
    let mut details = Details::new();
    let related = input.related_person_id.clone().value();
    let kind = input.kind.as_deref();
    let way = match &input.new_person_name {
        Some(name) => {
            // A new person has no link yet, and is nobody else.
            let name = people::checked_name(&mut details, name, "new_person_name");
            let kind = check_kind(&mut details, kind);
            check_person(cx, &mut details, "related_person_id", related)?;
            details.into_validation()?;
            let (Some(kind), Some(related)) = (kind, related) else {
                return Err(Error::invalid("kind", "can't be blank"));
            };
            let person = people::create_named(cx, name)?.id;
            stored_way(person, kind, related)
        }
        None => {
            let person = input.person_id.clone().value();
            let way = check(cx, &mut details, person, kind, related, None)?;
            details.into_validation()?;
            way.ok_or_else(|| Error::invalid("kind", "can't be blank"))?
        }
    };
    let now = cx.now();
    let link = PersonLink {
        id: cx.new_id(),
        person_id: way.0,
        kind: way.1.to_owned(),
        related_person_id: way.2,
        note: note(&input.note, None),
        created_at: now,
        updated_at: now,
    };
    index(cx, &link, true)?;
    save(cx, &link, None)?;
    show_on_people(cx, &link, true)?;
    Ok(link)
}

/// `GET /person_links/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<PersonLink> {
    load_live(cx, id)
}

/// `PATCH /person_links/{id}`: stored one way as on create, so the people
/// may swap.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &PersonLinkInput) -> Result<PersonLink> {
    if input.new_person_name.is_some() {
        return Err(Error::bad_param(
            "new_person_name",
            "is taken only when a link is made",
        ));
    }
    let before = load_live(cx, id)?;
    let mut details = Details::new();
    let person = match &input.person_id {
        Field::Absent => Some(before.person_id),
        f => f.clone().value(),
    };
    let related = match &input.related_person_id {
        Field::Absent => Some(before.related_person_id),
        f => f.clone().value(),
    };
    let kind = match &input.kind {
        Field::Absent => Some(before.kind.clone()),
        f => f.clone().value(),
    };
    let way = check(cx, &mut details, person, kind.as_deref(), related, Some(id))?;
    details.into_validation()?;
    let Some((a, k, b)) = way else {
        return Err(Error::invalid("kind", "can't be blank"));
    };
    let mut link = before.clone();
    link.person_id = a;
    link.kind = k.to_owned();
    link.related_person_id = b;
    link.note = note(&input.note, before.note.clone());
    if link == before {
        return Ok(link);
    }
    link.updated_at = cx.now();
    show_on_people(cx, &before, false)?;
    index(cx, &before, false)?;
    index(cx, &link, true)?;
    save(cx, &link, None)?;
    show_on_people(cx, &link, true)?;
    Ok(link)
}

/// `DELETE /person_links/{id}`: permanent, with its deletion record; both
/// people get a new `updated_at`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let link = load_live(cx, id)?;
    index(cx, &link, false)?;
    cx.remove(LINKS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)?;
    show_on_people(cx, &link, false)
}

/// The live links of `person`.
fn links_of<T: Tables>(cx: &Cx<'_, T>, person: Id) -> Result<Vec<PersonLink>> {
    let mut ids = Vec::new();
    cx.scan_prefix(
        PERSON_LINKS_BY_PERSON,
        Key::new().id(person).as_slice(),
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    ids.into_iter().map(|id| load_live(cx, id)).collect()
}

/// A person's delete: each of its links goes (with a deletion record), off
/// the other person's connections; the person keeps its own.
fn delete_with_person(cx: &mut WriteCx<'_>, person: Id) -> Result<Vec<Id>> {
    let mut taken = Vec::new();
    for link in links_of(cx, person)? {
        index(cx, &link, false)?;
        save(cx, &link, Some(person))?;
        deletions::record(cx, KIND.name, link.id)?;
        let other = if link.person_id == person {
            link.related_person_id
        } else {
            link.person_id
        };
        people::touch_connections(cx, other, |connections| {
            connections.retain(|c| c.id != link.id);
        })?;
        taken.push(link.id);
    }
    Ok(taken)
}

/// A person's restoration: the links its delete took return, on both
/// people, when the other person is live.
fn restore_with_person(cx: &mut WriteCx<'_>, person: Id, ids: &[Id]) -> Result<()> {
    for &id in ids {
        let Some(LinkRecord {
            mut link,
            taken_by: Some(by),
        }) = load(cx, id)?
        else {
            continue;
        };
        let other = if link.person_id == person {
            link.related_person_id
        } else {
            link.person_id
        };
        if by != person || !people::exists(cx, other)? {
            continue;
        }
        link.updated_at = cx.now();
        index(cx, &link, true)?;
        save(cx, &link, None)?;
        deletions::unrecord(cx, KIND.name, id)?;
        show_on_people(cx, &link, true)?;
    }
    Ok(())
}

/// Makes the delete of a link its person's delete took permanent.
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(LinkRecord {
        taken_by: Some(_), ..
    }) = load(cx, id)?
    {
        cx.remove(LINKS, &id.to_bytes())?;
    }
    Ok(())
}

/// `GET /person_links` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonLinkQuery {
    /// Links involving this person on either side.
    pub person_id: Option<Id>,
    /// `id` (default), `created_at`, `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: PERSON_LINKS_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /person_links`: live links by id (default), creation or change.
static LISTING: Listing = Listing {
    name: "person_links",
    orders: &[
        Order {
            name: "id",
            index: LINKS,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: LINKS,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: PERSON_LINKS_BY_UPDATED,
};

const OF_PERSON_UPDATED: Order = Order {
    name: "updated_at",
    index: PERSON_LINKS_BY_PERSON_UPDATED,
    direction: Direction::Asc,
};

/// `GET /person_links?person_id=…`: the same orders on the indexes led by
/// the person.
static OF_PERSON: Listing = Listing {
    name: "person_links",
    orders: &[
        Order {
            name: "id",
            index: PERSON_LINKS_BY_PERSON,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PERSON_LINKS_BY_PERSON,
            direction: Direction::Asc,
        },
        OF_PERSON_UPDATED,
    ],
    updated: Some(&OF_PERSON_UPDATED),
    every: PERSON_LINKS_BY_PERSON,
};

impl PersonLinkQuery {
    /// The query's parameters, as [`PersonLinkQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<PersonLinkQuery> {
        let params = LISTING.params(query)?;
        Ok(PersonLinkQuery {
            person_id: query.id("person_id")?,
            params,
        })
    }
}

/// `GET /person_links`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &PersonLinkQuery) -> Result<Page<PersonLink>> {
    let load = |k: &[u8]| {
        Ok(match load(cx, tail_id(k))? {
            Some(LinkRecord {
                link,
                taken_by: None,
            }) => Some(link),
            _ => None,
        })
    };
    match q.person_id {
        None => LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), load),
        Some(person) => {
            let filter = Filter::prefix(Key::new().id(person), format!("person_id={person}"));
            OF_PERSON.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_is_stored_one_way_and_seen_from_both_sides() {
        let (low, high) = (Id::from_bytes([1; 16]), Id::from_bytes([2; 16]));
        for choice in PERSON_LINKS {
            // Either person first, the same link.
            let one = stored_way(low, choice, high);
            let inverse = role(choice.inverse_key).expect("an inverse of the vocabulary");
            let other = stored_way(high, inverse, low);
            assert_eq!(one, other, "{} and its inverse", choice.key);
            assert!(is_forward(role(one.1).unwrap()), "{}", choice.key);
            if choice.symmetric {
                assert_eq!((one.0, one.2), (low, high), "{}", choice.key);
            }
            // Each side sees the other in its role to it.
            let link = PersonLink {
                id: Id::from_bytes([9; 16]),
                person_id: one.0,
                kind: one.1.to_owned(),
                related_person_id: one.2,
                note: None,
                created_at: Timestamp::UNIX_EPOCH,
                updated_at: Timestamp::UNIX_EPOCH,
            };
            // `low` is `choice` of `high`: on high's page, low has the role.
            assert_eq!(connection(&link, high).person_id, low);
            assert_eq!(connection(&link, high).kind, choice.key, "{}", choice.key);
            assert_eq!(
                connection(&link, low).kind,
                choice.inverse_key,
                "{}",
                choice.key
            );
        }
    }
}
