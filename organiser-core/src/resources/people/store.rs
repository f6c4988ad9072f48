//! The person in the store: its record loaded and saved (`record.rs` is
//! its stored form), its index entries (by name, change, relationship,
//! email address, and the name attendees are matched by), and the
//! lookups other resources make of people.

use super::record::PersonRecord;
use super::tables::{
    self, PEOPLE, PEOPLE_BY_NAME, PEOPLE_BY_RELATIONSHIP, PEOPLE_BY_RELATIONSHIP_NAME,
    PEOPLE_BY_RELATIONSHIP_UPDATED, PEOPLE_BY_UPDATED,
};
use super::{Person, PersonRow, upcoming};
use crate::engine::{Cx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::vocabulary::RELATIONSHIPS;
use crate::store::Tables;
use crate::store::key::Key;
use crate::text::fold_case;

/// The stored person `id`, live or deleted (while it can be restored).
pub(crate) fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<PersonRow>> {
    let record: Option<PersonRecord> = cx.get_record(PEOPLE, &id.to_bytes())?;
    Ok(record.map(|r| r.into_row()))
}

/// The live person `id`; not found when deleted or never made.
pub(crate) fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Person> {
    match load_row(cx, id)? {
        Some(PersonRow {
            person,
            deleted: None,
        }) => Ok(person),
        _ => Err(Error::NotFound),
    }
}

/// The tags a person is found under by `relationship`: each key, and
/// `family` once when any is of the family group.
fn relationship_tags(person: &Person) -> Vec<String> {
    let mut tags = person.relationships.clone();
    let family = person.relationships.iter().any(|key| {
        RELATIONSHIPS
            .iter()
            .any(|r| r.key == key && r.group == "family")
    });
    if family && !tags.iter().any(|t| t == "family") {
        tags.push("family".to_owned());
    }
    tags
}

/// Adds (or removes) a live person's index entries.
pub(crate) fn index(cx: &WriteCx<'_>, person: &Person, add: bool) -> Result<()> {
    let name = fold_case(&person.name);
    let mut entries = vec![
        (PEOPLE_BY_NAME, Key::new().str(&name).id(person.id)),
        (
            PEOPLE_BY_UPDATED,
            Key::new().timestamp(person.updated_at).id(person.id),
        ),
    ];
    for date in &person.key_dates {
        entries.push((tables::KEY_DATES_BY_DAY, upcoming::day_key(date, person.id)));
    }
    entries.push((
        tables::PEOPLE_BY_MATCH_NAME,
        Key::new()
            .str(&crate::text::fold_search(&person.name))
            .id(person.id),
    ));
    for email in &person.email_addresses {
        entries.push((
            tables::PEOPLE_BY_EMAIL,
            Key::new().str(&email.address.to_lowercase()).id(person.id),
        ));
    }
    for tag in relationship_tags(person) {
        entries.push((PEOPLE_BY_RELATIONSHIP, Key::new().str(&tag).id(person.id)));
        entries.push((
            PEOPLE_BY_RELATIONSHIP_NAME,
            Key::new().str(&tag).str(&name).id(person.id),
        ));
        entries.push((
            PEOPLE_BY_RELATIONSHIP_UPDATED,
            Key::new()
                .str(&tag)
                .timestamp(person.updated_at)
                .id(person.id),
        ));
    }
    cx.set_indexes(&entries, add)
}

/// The live person with email address `email` (lower case), if any.
pub(crate) fn by_email<T: Tables>(cx: &Cx<'_, T>, email: &str) -> Result<Option<Id>> {
    Ok(cx
        .ids_under(tables::PEOPLE_BY_EMAIL, Key::new().str(email).as_slice())?
        .into_iter()
        .next())
}

/// The one live person whose name, folded for search, is `folded`; none
/// when no one or several are.
pub(crate) fn only_one_named<T: Tables>(cx: &Cx<'_, T>, folded: &str) -> Result<Option<Id>> {
    let ids = cx.ids_under(
        tables::PEOPLE_BY_MATCH_NAME,
        Key::new().str(folded).as_slice(),
    )?;
    Ok(match ids.as_slice() {
        [one] => Some(*one),
        _ => None,
    })
}

/// Migration step: the attendee-matching indexes of every live person.
pub(crate) fn index_for_matching(tx: &crate::store::WriteTx) -> Result<()> {
    let mut people = Vec::new();
    tx.scan(
        PEOPLE_BY_NAME,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        crate::store::Dir::Asc,
        &mut |k, _| {
            people.push(crate::store::key::tail_id(k));
            Ok(true)
        },
    )?;
    for id in people {
        let Some(record) = tx.get_record::<PersonRecord>(PEOPLE, &id.to_bytes())? else {
            continue;
        };
        let person = record.into_row().person;
        tx.index(
            tables::PEOPLE_BY_MATCH_NAME,
            Key::new()
                .str(&crate::text::fold_search(&person.name))
                .id(person.id)
                .as_slice(),
        )?;
        for email in &person.email_addresses {
            tx.index(
                tables::PEOPLE_BY_EMAIL,
                Key::new()
                    .str(&email.address.to_lowercase())
                    .id(person.id)
                    .as_slice(),
            )?;
        }
    }
    Ok(())
}

/// Stores `row` (its index entries apart).
pub(crate) fn save(cx: &WriteCx<'_>, row: &PersonRow) -> Result<()> {
    cx.put_record(
        PEOPLE,
        &row.person.id.to_bytes(),
        &PersonRecord::from_row(row),
    )
}

/// `GET /people/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Person> {
    load_live(cx, id)
}

/// Whether `id` names a live person (for the resources that name people).
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(matches!(
        load_row(cx, id)?,
        Some(PersonRow { deleted: None, .. })
    ))
}

/// A person's name and whether it is live (`false`: deleted and
/// restorable); `None` when there is no such person (any more).
pub(crate) fn lookup<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<(String, bool)>> {
    Ok(load_row(cx, id)?.map(|row| (row.person.name, row.deleted.is_none())))
}
