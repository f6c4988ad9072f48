//! Person links in the organiser's archive (EXTENSIONS.md §5): each live
//! link as a line of `records/person_link.jsonl`, as `GET
//! /person_links/{id}` shows it (stored one way); the store keeps nothing
//! more of a live link.
//!
//! An import (after the people's) writes the link exactly as the line
//! says with the index entries a create writes, and shows it on both its
//! people as a connection without changing their `updated_at` (their own
//! lines carry the times the link gave them). A link whose person is
//! deleted here, or that would be a second link of its role between the
//! same two people, is left out; one naming a person the store has never
//! had is refused.

use serde_json::Value;

use super::{
    LinkRecord, PersonLink, connection, get, index, load, pair_prefix, role, save, stored_way,
};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::people;
use crate::store::key::tail_id;
use crate::store::{Dir, Tables};

/// The deletion type that names the links' lines.
const KIND: &str = "person_link";

/// The person links' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: KIND,
    table: super::tables::PERSON_LINKS,
    export,
    import,
};

/// The line of live link `id`; `None` when a person's delete took it or
/// there is none.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    match get(cx, id) {
        Ok(link) => portable::to_line(&link).map(Some),
        Err(Error::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A line that names what no link can: 422 on `base`.
fn refused(link: &PersonLink, why: &str) -> Error {
    Error::invalid(
        "base",
        format!("records/{KIND}.jsonl: the {KIND} {} {why}", link.id),
    )
}

/// Writes the link of `line` as the module's docs say.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut link: PersonLink = portable::read_line(KIND, line)?;
    let Some(kind) = role(&link.kind) else {
        return Err(refused(&link, "has a role the vocabulary does not have"));
    };
    if link.person_id == link.related_person_id {
        return Err(refused(&link, "links a person to itself"));
    }
    // Stored one way, as a create stores it.
    let way = (link.person_id, link.kind.as_str(), link.related_person_id);
    if stored_way(link.person_id, kind, link.related_person_id) != way {
        return Err(refused(&link, "is not written the way links are stored"));
    }
    let here = load(cx, link.id)?;
    let did = portable::decide(
        paths,
        here.as_ref().map(|r| r.link.updated_at),
        here.as_ref().is_some_and(|r| r.taken_by.is_some()),
        &mut link.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    for person in [link.person_id, link.related_person_id] {
        match people::lookup(cx, person)? {
            None => {
                return Err(refused(
                    &link,
                    &format!("names the person {person}, who is not in the store"),
                ));
            }
            // A person deleted here keeps its links away.
            Some((_, false)) => return Ok(Imported::Unchanged),
            Some((_, true)) => {}
        }
    }
    // One link of a role per pair: another one here stands.
    let prefix = pair_prefix(way).into_vec();
    let mut other = false;
    cx.scan_prefix(
        super::PERSON_LINKS_BY_PAIR,
        &prefix,
        Dir::Asc,
        &mut |k, _| {
            other = tail_id(k) != link.id;
            Ok(!other)
        },
    )?;
    if other {
        return Ok(Imported::Unchanged);
    }
    if let Some(LinkRecord { link: before, .. }) = &here {
        for viewer in [before.person_id, before.related_person_id] {
            people::portable::show_connection(cx, viewer, before.id, None)?;
        }
        index(cx, before, false)?;
    }
    index(cx, &link, true)?;
    save(cx, &link, None)?;
    for viewer in [link.person_id, link.related_person_id] {
        people::portable::show_connection(cx, viewer, link.id, Some(connection(&link, viewer)))?;
    }
    Ok(did)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Organiser;
    use crate::input::Field;
    use crate::resources::people::{PersonInput, portable::PORTABLE as PEOPLE};
    use crate::resources::person_links::PersonLinkInput;

    /// A person named `name`.
    fn person(org: &Organiser, name: &str) -> Id {
        org.people()
            .create(PersonInput {
                name: Some(name.to_owned()),
                ..PersonInput::default()
            })
            .unwrap()
            .id
    }

    /// Imports one line into `org`.
    fn import_into(org: &Organiser, line: Value) -> Result<Imported> {
        org.inner
            .write(|cx| import(cx, &Paths::new(&cx.org.secret), line))
    }

    #[test]
    fn a_link_shows_on_both_people_without_changing_them() {
        let a = Organiser::in_memory();
        let (ann, bob) = (person(&a, "Ann"), person(&a, "Bob"));
        let link = a
            .person_links()
            .create(PersonLinkInput {
                person_id: Field::Value(bob),
                related_person_id: Field::Value(ann),
                kind: Field::Value("child".to_owned()),
                note: Field::Value("eldest".to_owned()),
                ..PersonLinkInput::default()
            })
            .unwrap();
        let b = Organiser::in_memory();
        let (first, again, did) = portable::round_trip(&a, &b, &[&PEOPLE, &PORTABLE]);
        assert_eq!(first, again);
        assert_eq!(
            did,
            [
                vec![Imported::Created, Imported::Created],
                vec![Imported::Created]
            ]
        );
        assert_eq!(b.person_links().get(link.id).unwrap(), link);
        for id in [ann, bob] {
            assert_eq!(b.people().get(id).unwrap(), a.people().get(id).unwrap());
        }
        // A person deleted here keeps the link away; the link is not refused.
        let c = Organiser::in_memory();
        portable::round_trip(&a, &c, &[&PEOPLE]);
        c.people().delete(bob).unwrap();
        let line = first[1][0].clone();
        assert_eq!(import_into(&c, line).unwrap(), Imported::Unchanged);
        assert!(c.person_links().get(link.id).is_err());
        assert!(c.people().get(ann).unwrap().connections.is_empty());
    }

    #[test]
    fn a_line_no_link_can_be_is_refused() {
        let a = Organiser::in_memory();
        let (ann, bob) = (person(&a, "Ann"), person(&a, "Bob"));
        let line = |person: Id, kind: &str, related: Id| {
            json!({
                "id": Id::from_bytes([7; 16]),
                "person_id": person,
                "kind": kind,
                "related_person_id": related,
                "note": null,
                "created_at": "2026-01-01T00:00:00.000Z",
                "updated_at": "2026-01-01T00:00:00.000Z",
            })
        };
        let nobody = Id::from_bytes([9; 16]);
        let (low, high) = (ann.min(bob), ann.max(bob));
        for bad in [
            line(ann, "nemesis", bob),
            line(ann, "friend", ann),
            line(ann, "friend", nobody),
            line(high, "friend", low),
            line(ann, "child", bob),
            json!({"id": "x", "kind": 3}),
        ] {
            let refused = import_into(&a, bad.clone());
            assert!(
                matches!(&refused, Err(Error::Validation(_))),
                "{bad}: {refused:?}"
            );
        }
        assert_eq!(
            import_into(&a, line(low, "friend", high)).unwrap(),
            Imported::Created
        );
        assert_eq!(a.people().get(ann).unwrap().connections.len(), 1);
        // A second link of that role between them stands aside for the first.
        let mut twin = line(low, "friend", high);
        twin["id"] = json!(Id::from_bytes([8; 16]));
        assert_eq!(import_into(&a, twin).unwrap(), Imported::Unchanged);
    }
}
