//! People in the organiser's archive (EXTENSIONS.md §5): each live person
//! as a line of `records/person.jsonl`, as `GET /people/{id}` shows it
//! (rows with their IDs and times, relationships, connections), its photo's
//! addresses written with the archive's path of the upload
//! (`/api/v1/avatars/files/<id>/thumb`), and under `"stored"` the
//! companies its positions name (`companies`: ID, name, times), so that an
//! import can write a company a position names with its ID when the store
//! has none.
//!
//! An import writes the person exactly as the line says with the index
//! entries a create writes, counts the companies its positions name
//! (writing the missing ones as `"stored"` says), and points its photo at
//! the upload of the same ID (imported before, by the uploads' part). Its
//! `connections` are not read back: they are derived from the person
//! links, which come next and show themselves on both people
//! ([`show_connection`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::change::count_companies;
use super::companies::{self, Company};
use super::store::{get, index, load_row, save};
use super::tables::PEOPLE;
use super::{Avatar, Connection, Person, PersonRow, avatars};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::uploads;

/// The deletion type that names the people's lines.
const KIND: &str = "person";

/// The people's part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: KIND,
    table: PEOPLE,
    export,
    import,
};

/// What a person's line holds that `GET /people/{id}` does not show.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    /// The companies the person's positions name, in the order first named.
    #[serde(default)]
    companies: Vec<Company>,
}

/// The line of live person `id`; `None` when it is deleted or was never
/// made.
fn export(cx: &ReadCx<'_>, paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let mut person = match get(cx, id) {
        Ok(person) => person,
        Err(Error::NotFound) => return Ok(None),
        Err(e) => return Err(e),
    };
    if let Some(avatar) = &mut person.avatar {
        for url in [
            &mut avatar.url,
            &mut avatar.thumb_url,
            &mut avatar.large_url,
        ] {
            *url = paths.out_all(url);
        }
    }
    let mut stored = Stored::default();
    for company in person.positions.iter().filter_map(|p| p.company_id) {
        if stored.companies.iter().any(|c| c.id == company) {
            continue;
        }
        if let Some(found) = companies::get(cx, company)? {
            stored.companies.push(found);
        }
    }
    let mut line = portable::to_line(&person)?;
    if !stored.companies.is_empty()
        && let Value::Object(fields) = &mut line
    {
        fields.insert("stored".to_owned(), portable::to_line(&stored)?);
    }
    Ok(Some(line))
}

/// Writes the person of `line` as the module's docs say.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, mut line: Value) -> Result<Imported> {
    let stored = line
        .as_object_mut()
        .and_then(|fields| fields.remove("stored"));
    let mut person: Person = portable::read_line(KIND, line)?;
    let stored: Stored = match stored {
        None => Stored::default(),
        Some(stored) => serde_json::from_value(stored).map_err(|e| {
            Error::invalid(
                "base",
                format!(
                    "records/{KIND}.jsonl: the {KIND} {} cannot be read: stored: {e}",
                    person.id
                ),
            )
        })?,
    };
    person.avatar = person.avatar.map(|avatar| Avatar {
        url: paths.back_all(&avatar.url),
        thumb_url: paths.back_all(&avatar.thumb_url),
        large_url: paths.back_all(&avatar.large_url),
    });
    let here = load_row(cx, person.id)?;
    let did = portable::decide(
        paths,
        here.as_ref().map(|row| row.person.updated_at),
        here.as_ref().is_some_and(|row| row.deleted.is_some()),
        &mut person.updated_at,
    );
    let before = match (did, here) {
        (Imported::Unchanged, _) => return Ok(Imported::Unchanged),
        (_, Some(row)) => Some(row.person),
        (_, None) => None,
    };
    // The companies its positions name, written with their IDs when missing
    // (dated as the import dates what it writes, so that mirrors see them).
    for company in person.positions.iter().filter_map(|p| p.company_id) {
        match stored.companies.iter().find(|c| c.id == company) {
            Some(found) => {
                let dated = Company {
                    updated_at: paths.date(found.updated_at),
                    ..found.clone()
                };
                companies::put_if_missing(cx, &dated)?
            }
            None if companies::get(cx, company)?.is_some() => {}
            None => {
                return Err(Error::invalid(
                    "base",
                    format!(
                        "records/{KIND}.jsonl: the {KIND} {} names the company {company}, which it does not hold under stored.companies",
                        person.id
                    ),
                ));
            }
        }
    }
    match &before {
        None => {
            // Connections come with the person links.
            person.connections = Vec::new();
            count_companies(cx, &[], &person.positions, companies::count_use_quietly)?;
        }
        Some(before) => {
            // Connections are the links' here; they move with the links.
            person.connections = before.connections.clone();
            // A company no position names any more goes with its deletion
            // record, as a change does: a client mirroring the store hears
            // of it.
            count_companies(
                cx,
                &before.positions,
                &person.positions,
                companies::count_use,
            )?;
            // A replaced or removed photo goes, as a change does.
            let old = before
                .avatar
                .as_ref()
                .and_then(|a| avatars::upload_of(&cx.org.secret, a));
            let new = person
                .avatar
                .as_ref()
                .and_then(|a| avatars::upload_of(&cx.org.secret, a));
            if let Some(old) = old
                && new != Some(old)
            {
                uploads::discard(cx, old)?;
            }
            index(cx, before, false)?;
        }
    }
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person,
            deleted: None,
        },
    )?;
    Ok(did)
}

/// Shows `connection` on live person `id` (or, with `None`, takes the
/// connection of link `link` off), without changing its `updated_at`:
/// the person links' import, whose people's lines already carry the
/// times their links gave them. A person that is not live is left alone.
pub(crate) fn show_connection(
    cx: &WriteCx<'_>,
    id: Id,
    link: Id,
    connection: Option<Connection>,
) -> Result<()> {
    let Some(PersonRow {
        mut person,
        deleted: None,
    }) = load_row(cx, id)?
    else {
        return Ok(());
    };
    let before = person.connections.clone();
    person.connections.retain(|c| c.id != link);
    person.connections.extend(connection);
    person.connections.sort_by_key(|c| c.id);
    if person.connections == before {
        return Ok(());
    }
    // The index entries do not depend on connections.
    save(
        cx,
        &PersonRow {
            person,
            deleted: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use super::*;
    use crate::input::Field;
    use crate::list::ListOrder;
    use crate::resources::people::{
        CompanyQuery, EmailAddressFields, KeyDateFields, PersonInput, PersonQuery,
        PhoneNumberFields, PositionFields, RowInput, SocialProfileFields, UpcomingQuery,
    };
    use crate::resources::person_links::portable::PORTABLE as LINKS;
    use crate::resources::person_links::{PersonLinkInput, PersonLinkQuery};
    use crate::{ListParams, ManualClock, Options, Organiser};

    /// A store whose clock stands at `at` until moved.
    fn store(at: &str) -> (Organiser, ManualClock) {
        let clock = ManualClock::at(at);
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        (org, clock)
    }

    /// A field sent with text.
    fn text(s: &str) -> Field<String> {
        Field::Value(s.to_owned())
    }

    /// A new key date row.
    fn key_date(
        kind: &str,
        label: Option<&str>,
        day: i64,
        month: i64,
        year: Option<i64>,
    ) -> RowInput<KeyDateFields> {
        RowInput::add(KeyDateFields {
            kind: text(kind),
            label: label.map_or(Field::Absent, text),
            day: Field::Value(day),
            month: Field::Value(month),
            year: year.map_or(Field::Absent, Field::Value),
        })
    }

    /// A new email address row.
    fn email(address: &str, label: &str) -> RowInput<EmailAddressFields> {
        RowInput::add(EmailAddressFields {
            address: text(address),
            label: text(label),
        })
    }

    /// A new position row at the company named `company` (none when blank).
    fn position(title: Option<&str>, company: &str) -> RowInput<PositionFields> {
        RowInput::add(PositionFields {
            title: title.map_or(Field::Absent, text),
            company_name: text(company),
            ..PositionFields::default()
        })
    }

    /// A link of `person` as `kind` of `related`.
    fn link(person: Id, kind: &str, related: Id, note: Option<&str>) -> PersonLinkInput {
        PersonLinkInput {
            person_id: Field::Value(person),
            related_person_id: Field::Value(related),
            kind: text(kind),
            note: note.map_or(Field::Absent, text),
            ..PersonLinkInput::default()
        }
    }

    /// Every item (up to 100) in `order`.
    fn all(order: Option<ListOrder>) -> ListParams {
        ListParams {
            order,
            limit: 100,
            ..ListParams::default()
        }
    }

    /// The names of the live people `query` lists.
    fn names(org: &Organiser, query: PersonQuery) -> Vec<String> {
        let query = PersonQuery {
            params: all(query.params.order),
            ..query
        };
        let page = org.people().list(&query).unwrap();
        page.items.into_iter().map(|p| p.name).collect()
    }

    /// Each line written out, to compare byte for byte.
    fn as_text(lines: &[Vec<Value>]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|kind| kind.iter().map(Value::to_string).collect())
            .collect()
    }

    /// People with every kind of row, relationships, a company two of
    /// them share, links (one the store keeps one way round, one taken by
    /// a delete, one deleted), changes, and a deleted person.
    struct Made {
        /// The store.
        org: Organiser,
        /// Its clock.
        clock: ManualClock,
        /// Every row, relationships, the family group, Acme and Globex.
        ann: Id,
        /// At Acme too.
        bob: Id,
        /// An anniversary; Ann's child.
        dora: Id,
        /// Deleted, with the link it took.
        carl: Id,
        /// The company Ann and Bob share.
        acme: Id,
        /// Ann and Bob's link.
        sibling: Id,
    }

    /// The store of [`Made`].
    fn made() -> Made {
        let (org, clock) = store("2026-03-10T09:00:00Z");
        let people = org.people();
        let ann = people
            .create(PersonInput {
                name: Some("Ann  Smith".to_owned()),
                relationships: Some(vec!["sibling".to_owned(), "friend".to_owned()]),
                key_dates: Some(vec![
                    key_date("birthday", None, 14, 5, Some(1990)),
                    key_date("other", Some("Met at school"), 2, 9, None),
                ]),
                email_addresses: Some(vec![
                    email("ann@example.com", "home"),
                    email("Ann.Work@Acme.com", "work"),
                ]),
                phone_numbers: Some(vec![
                    RowInput::add(PhoneNumberFields {
                        number: text("+44 20 7946 0000"),
                        label: text("mobile"),
                    }),
                    RowInput::add(PhoneNumberFields {
                        number: text("020 7946 0001"),
                        ..PhoneNumberFields::default()
                    }),
                ]),
                social_profiles: Some(vec![
                    RowInput::add(SocialProfileFields {
                        url: text("linkedin.com/in/ann"),
                        ..SocialProfileFields::default()
                    }),
                    RowInput::add(SocialProfileFields {
                        url: text("https://ann.example"),
                        platform: text("website"),
                        label: text("blog"),
                    }),
                ]),
                positions: Some(vec![
                    position(Some("Engineer"), "Acme"),
                    position(Some("Volunteer"), "Globex"),
                    position(Some("Writer"), ""),
                ]),
                ..PersonInput::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let bob = people
            .create(PersonInput {
                name: Some("bob Jones".to_owned()),
                relationships: Some(vec!["colleague".to_owned()]),
                email_addresses: Some(vec![email("bob@example.com", "home")]),
                positions: Some(vec![position(None, "ACME")]),
                ..PersonInput::default()
            })
            .unwrap();
        let acme = ann.positions[0].company_id.unwrap();
        assert_eq!(bob.positions[0].company_id, Some(acme));
        clock.advance_secs(60);
        let carl = people
            .create(PersonInput {
                name: Some("Carl".to_owned()),
                email_addresses: Some(vec![email("carl@example.com", "home")]),
                positions: Some(vec![position(Some("Boss"), "Initech")]),
                ..PersonInput::default()
            })
            .unwrap();
        let dora = people
            .create(PersonInput {
                name: Some("Dóra".to_owned()),
                key_dates: Some(vec![key_date("anniversary", None, 1, 1, Some(2010))]),
                ..PersonInput::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let links = org.person_links();
        let sibling = links
            .create(link(ann.id, "sibling", bob.id, Some("older")))
            .unwrap()
            .id;
        // Stored the other way round: Ann is Dóra's parent.
        let child = links.create(link(dora.id, "child", ann.id, None)).unwrap();
        assert_eq!(child.person_id, ann.id);
        links.create(link(carl.id, "friend", bob.id, None)).unwrap();
        let gone = links.create(link(bob.id, "friend", dora.id, None)).unwrap();
        clock.advance_secs(60);
        links.delete(gone.id).unwrap();
        // Rows changed, removed and added at a later time.
        clock.advance_secs(60);
        let email_id = ann.email_addresses[0].id;
        let phone_id = ann.phone_numbers[1].id;
        people
            .change(
                ann.id,
                PersonInput {
                    email_addresses: Some(vec![RowInput::change(
                        email_id,
                        EmailAddressFields {
                            label: text("personal"),
                            ..EmailAddressFields::default()
                        },
                    )]),
                    phone_numbers: Some(vec![RowInput::remove(phone_id)]),
                    key_dates: Some(vec![key_date("first_met", None, 29, 2, Some(2004))]),
                    ..PersonInput::default()
                },
            )
            .unwrap();
        clock.advance_secs(60);
        people.delete(carl.id).unwrap();
        Made {
            org,
            clock,
            ann: ann.id,
            bob: bob.id,
            dora: dora.id,
            carl: carl.id,
            acme,
            sibling,
        }
    }

    #[test]
    fn people_and_links_round_trip_exactly() {
        let m = made();
        let (b, _) = store("2027-01-01T00:00:00Z");
        let (first, again, did) = portable::round_trip(&m.org, &b, &[&PORTABLE, &LINKS]);
        assert_eq!(as_text(&first), as_text(&again));
        assert_eq!(first[0].len(), 3, "the deleted person is not exported");
        assert!(!first[0].iter().any(|l| l["id"] == json!(m.carl)));
        assert_eq!(first[1].len(), 2, "neither the taken nor the deleted link");
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Created),
            "{did:?}"
        );
        // Companies travel with the positions that name them.
        let ann = first[0].iter().find(|l| l["id"] == json!(m.ann)).unwrap();
        let companies = ann["stored"]["companies"].as_array().unwrap();
        assert_eq!(companies.len(), 2);
        assert_eq!(companies[0]["name"], "Acme");
        assert_eq!(
            ann.as_object().unwrap().keys().next_back().unwrap(),
            "stored"
        );
        let dora = first[0].iter().find(|l| l["id"] == json!(m.dora)).unwrap();
        assert!(dora.get("stored").is_none());

        // Again into the same store: nothing changes.
        let (first2, again2, did) = portable::round_trip(&m.org, &b, &[&PORTABLE, &LINKS]);
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Unchanged),
            "{did:?}"
        );
        assert_eq!(as_text(&first2), as_text(&again2));
        assert_eq!(as_text(&first), as_text(&again2));
        // And into the store it came from.
        let (_, _, did) = portable::round_trip(&m.org, &m.org, &[&PORTABLE, &LINKS]);
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Unchanged),
            "{did:?}"
        );

        // The imported store's listings and lookups.
        let a = &m.org;
        for org in [a, &b] {
            assert_eq!(
                names(org, PersonQuery::default()),
                ["Ann Smith", "bob Jones", "Dóra"]
            );
            let family = PersonQuery {
                relationship: Some("family".to_owned()),
                ..PersonQuery::default()
            };
            assert_eq!(names(org, family), ["Ann Smith"]);
            let colleagues = PersonQuery {
                relationship: Some("colleague".to_owned()),
                params: all(Some(ListOrder::UpdatedAt)),
                ..PersonQuery::default()
            };
            assert_eq!(names(org, colleagues), ["bob Jones"]);
            let q = PersonQuery {
                q: Some("DÓ".to_owned()),
                ..PersonQuery::default()
            };
            assert_eq!(names(org, q), ["Dóra"]);
        }
        let by_updated = |org: &Organiser| {
            names(
                org,
                PersonQuery {
                    params: all(Some(ListOrder::UpdatedAt)),
                    ..PersonQuery::default()
                },
            )
        };
        assert_eq!(by_updated(a), by_updated(&b));
        let companies = |org: &Organiser| {
            org.people()
                .companies(&CompanyQuery {
                    params: all(None),
                    ..CompanyQuery::default()
                })
                .unwrap()
                .items
        };
        let in_b = companies(&b);
        assert_eq!(
            in_b.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["Acme", "Globex"]
        );
        assert_eq!(
            b.people().company(m.acme).unwrap(),
            a.people().company(m.acme).unwrap()
        );
        let lookups = |org: &Organiser| {
            org.inner
                .read(|cx| {
                    Ok((
                        super::super::by_email(cx, "ann.work@acme.com")?,
                        super::super::only_one_named(cx, &crate::text::fold_search("DORA"))?,
                    ))
                })
                .unwrap()
        };
        assert_eq!(lookups(&b), (Some(m.ann), Some(m.dora)));
        let upcoming = |org: &Organiser| {
            org.people()
                .upcoming_key_dates(UpcomingQuery {
                    days: 366,
                    ..UpcomingQuery::default()
                })
                .unwrap()
                .data
                .len()
        };
        assert_eq!(upcoming(&b), upcoming(a));
        assert_eq!(upcoming(&b), 4);
        let links_of = |org: &Organiser, person: Id| {
            org.person_links()
                .list(&PersonLinkQuery {
                    person_id: Some(person),
                    params: all(Some(ListOrder::UpdatedAt)),
                })
                .unwrap()
                .items
        };
        assert_eq!(links_of(&b, m.bob), links_of(a, m.bob));
        assert_eq!(links_of(&b, m.ann).len(), 2);
        assert_eq!(
            b.people().get(m.ann).unwrap().connections,
            a.people().get(m.ann).unwrap().connections
        );

        // Companies are counted: one position's company stays while the
        // other still names it, then goes; a new position finds it by name.
        let drop_acme = |org: &Organiser, who: Id| {
            let person = org.people().get(who).unwrap();
            let row = person
                .positions
                .iter()
                .find(|p| p.company_id == Some(m.acme))
                .unwrap()
                .id;
            org.people()
                .change(
                    who,
                    PersonInput {
                        positions: Some(vec![RowInput::remove(row)]),
                        ..PersonInput::default()
                    },
                )
                .unwrap();
        };
        let dora = b
            .people()
            .change(
                m.dora,
                PersonInput {
                    positions: Some(vec![position(None, "acme")]),
                    ..PersonInput::default()
                },
            )
            .unwrap();
        assert_eq!(dora.positions[0].company_id, Some(m.acme));
        drop_acme(&b, m.bob);
        drop_acme(&b, m.ann);
        assert!(b.people().company(m.acme).is_ok());
        drop_acme(&b, m.dora);
        assert!(matches!(b.people().company(m.acme), Err(Error::NotFound)));
    }

    #[test]
    fn a_newer_line_replaces_the_person_and_moves_its_indexes_and_companies() {
        let m = made();
        let (b, _) = store("2027-01-01T00:00:00Z");
        portable::round_trip(&m.org, &b, &[&PORTABLE, &LINKS]);
        // Changes here after the export: Bob renamed and moved to a new
        // company (Acme stays: Ann names it), the sibling link's note.
        m.clock.advance_secs(3600);
        let bob = m.org.people().get(m.bob).unwrap();
        m.org
            .people()
            .change(
                m.bob,
                PersonInput {
                    name: Some("Robert Jones".to_owned()),
                    relationships: Some(vec!["sibling".to_owned()]),
                    email_addresses: Some(vec![RowInput::remove(bob.email_addresses[0].id)]),
                    positions: Some(vec![
                        RowInput::remove(bob.positions[0].id),
                        position(Some("Founder"), "Hooli"),
                    ]),
                    ..PersonInput::default()
                },
            )
            .unwrap();
        m.org
            .person_links()
            .change(
                m.sibling,
                PersonLinkInput {
                    note: text("younger"),
                    ..PersonLinkInput::default()
                },
            )
            .unwrap();
        let (first, again, did) = portable::round_trip(&m.org, &b, &[&PORTABLE, &LINKS]);
        assert_eq!(as_text(&first), as_text(&again));
        let updated: Vec<Vec<Imported>> = vec![
            vec![Imported::Updated, Imported::Updated, Imported::Unchanged],
            vec![Imported::Updated, Imported::Unchanged],
        ];
        let order = |lines: &[Value], id: Id| lines.iter().position(|l| l["id"] == json!(id));
        assert!(order(&first[0], m.ann) < order(&first[0], m.bob));
        assert_eq!(did, updated);
        assert_eq!(
            names(&b, PersonQuery::default()),
            ["Ann Smith", "Dóra", "Robert Jones"]
        );
        let family = PersonQuery {
            relationship: Some("family".to_owned()),
            ..PersonQuery::default()
        };
        assert_eq!(names(&b, family), ["Ann Smith", "Robert Jones"]);
        let colleagues = PersonQuery {
            relationship: Some("colleague".to_owned()),
            ..PersonQuery::default()
        };
        assert!(names(&b, colleagues).is_empty());
        let lookup = b
            .inner
            .read(|cx| super::super::by_email(cx, "bob@example.com"))
            .unwrap();
        assert_eq!(lookup, None);
        assert!(b.people().company(m.acme).is_ok());
        let hooli = m.org.people().get(m.bob).unwrap().positions[0]
            .company_id
            .unwrap();
        assert_eq!(
            b.people().company(hooli).unwrap(),
            m.org.people().company(hooli).unwrap()
        );

        // Ann leaves Acme too: gone here and there, without a deletion
        // record written by the import.
        m.clock.advance_secs(60);
        let ann = m.org.people().get(m.ann).unwrap();
        m.org
            .people()
            .change(
                m.ann,
                PersonInput {
                    positions: Some(vec![RowInput::remove(ann.positions[0].id)]),
                    ..PersonInput::default()
                },
            )
            .unwrap();
        let (first, again, _) = portable::round_trip(&m.org, &b, &[&PORTABLE, &LINKS]);
        assert_eq!(as_text(&first), as_text(&again));
        assert!(matches!(b.people().company(m.acme), Err(Error::NotFound)));
        assert!(matches!(
            m.org.people().company(m.acme),
            Err(Error::NotFound)
        ));
        let deletions = b
            .deletions()
            .list(&crate::resources::deletions::DeletionQuery {
                since: None,
                page: all(None),
            })
            .unwrap();
        // The company no position names any more goes with its deletion
        // record, so that a client mirroring the store hears of it.
        let kinds: Vec<(&str, Id)> = deletions
            .items
            .iter()
            .map(|d| (d.kind.as_str(), d.id))
            .collect();
        assert_eq!(kinds, [("company", m.acme)], "{:?}", deletions.items);
    }

    #[test]
    fn a_photo_is_written_as_its_upload_and_signed_again_on_import() {
        let (a, _) = store("2026-03-10T09:00:00Z");
        let ann = a
            .people()
            .create(PersonInput {
                name: Some("Ann".to_owned()),
                ..PersonInput::default()
            })
            .unwrap();
        let image = ::image::RgbImage::from_fn(30, 20, |x, y| ::image::Rgb([x as u8, y as u8, 7]));
        let mut png = std::io::Cursor::new(Vec::new());
        image.write_to(&mut png, ::image::ImageFormat::Png).unwrap();
        let ann = a
            .people()
            .set_photo(ann.id, "image/png", png.into_inner())
            .unwrap();
        let upload = avatars::upload_of(&a.inner.secret, ann.avatar.as_ref().unwrap()).unwrap();
        let (b, _) = store("2027-01-01T00:00:00Z");
        let (first, again, did) = portable::round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(as_text(&first), as_text(&again));
        assert_eq!(did, [vec![Imported::Created]]);
        assert_eq!(
            first[0][0]["avatar"]["thumb_url"],
            json!(format!("/api/v1/avatars/files/{upload}/thumb"))
        );
        let here = b.people().get(ann.id).unwrap().avatar.unwrap();
        assert_eq!(here, avatars::avatar_of(&b.inner.secret, upload));
        assert_ne!(here, ann.avatar.unwrap());
    }
}
