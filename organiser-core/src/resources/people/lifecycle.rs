//! Deleting and restoring a person (document 3, "Person delete and
//! restore"): gone from every endpoint at once with a deletion record for
//! the person and each of its rows, the tasks homed in it taken along
//! (and whatever later kinds cascade from a person: links, memberships),
//! back within 20 seconds, permanent after.

use super::rows::RowRecord;
use super::store::{index, load_row, save};
use super::{
    Deleted, EmailAddress, KIND, KeyDate, Person, PersonRow, PhoneNumber, Position, SocialProfile,
    companies,
};
use crate::engine::WriteCx;
use crate::engine::kinds::Change;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::deletions;
use crate::restore;

/// The deletion types of a person's rows, with their IDs.
pub(crate) fn rows_of(person: &Person) -> Vec<(&'static str, Id)> {
    fn of<R: RowRecord>(person: &Person) -> impl Iterator<Item = (&'static str, Id)> + '_ {
        R::of(person).iter().map(|r| (R::KIND, r.id()))
    }
    of::<KeyDate>(person)
        .chain(of::<EmailAddress>(person))
        .chain(of::<PhoneNumber>(person))
        .chain(of::<SocialProfile>(person))
        .chain(of::<Position>(person))
        .collect()
}

/// Writes a deletion record for each row of `before` that `after` no
/// longer has (rows removed by a PATCH).
pub(crate) fn record_removed_rows(cx: &WriteCx<'_>, before: &Person, after: &Person) -> Result<()> {
    let kept = rows_of(after);
    for (kind, id) in rows_of(before) {
        if !kept.iter().any(|(_, k)| *k == id) {
            deletions::record(cx, kind, id)?;
        }
    }
    Ok(())
}

/// `DELETE /people/{id}`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let row = load_row(cx, id)?.ok_or(Error::NotFound)?;
    if row.deleted.is_some() {
        return Err(Error::NotFound);
    }
    let person = row.person;
    index(cx, &person, false)?;
    let taken = cx.cascade_delete(KIND.name, id)?;
    deletions::record(cx, KIND.name, id)?;
    for (kind, row_id) in rows_of(&person) {
        deletions::record(cx, kind, row_id)?;
    }
    restore::schedule(cx, &KIND, id, cx.now())?;
    save(
        cx,
        &PersonRow {
            person,
            deleted: Some(Deleted {
                at: cx.now(),
                taken,
            }),
        },
    )?;
    cx.tell(KIND.name, id, Change::Deleted)
}

/// `POST /people/{id}/restoration`: within 20 seconds the person returns
/// with its rows and what its delete took; a live person is returned as
/// it is (a safe retry).
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<Person> {
    let row = load_row(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted) = row.deleted else {
        return Ok(row.person);
    };
    if !restore::within_window(deleted.at, cx.now()) {
        return Err(Error::NotFound);
    }
    let mut person = row.person;
    person.updated_at = cx.now();
    restore::cancel(cx, &KIND, id, deleted.at)?;
    deletions::unrecord(cx, KIND.name, id)?;
    for (kind, row_id) in rows_of(&person) {
        deletions::unrecord(cx, kind, row_id)?;
    }
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    cx.cascade_restore(KIND.name, id, &deleted.taken)?;
    cx.tell(KIND.name, id, Change::Restored)?;
    Ok(person)
}

/// Makes a person's delete permanent: the record goes (its deletion
/// records stay), with what the delete took; companies only its positions
/// named are deleted.
pub(crate) fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let Some(PersonRow {
        person,
        deleted: Some(deleted),
    }) = load_row(cx, id)?
    else {
        return Ok(());
    };
    cx.cascade_purge(&deleted.taken)?;
    for position in &person.positions {
        if let Some(company) = position.company_id {
            companies::count_use(cx, company, -1)?;
        }
    }
    if let Some(photo) = person
        .avatar
        .as_ref()
        .and_then(|a| super::avatars::upload_of(&cx.org.secret, a))
    {
        crate::resources::uploads::discard(cx, photo)?;
    }
    cx.remove(super::tables::PEOPLE, &id.to_bytes())?;
    // Its mentions become plain text; its links go.
    cx.tell(KIND.name, id, Change::Purged)
}
