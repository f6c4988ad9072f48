//! The writes of a person (document 3, "Person", PersonFields and its
//! row rules): a person made or changed from a request, checked whole
//! (every row of every array, the birthday rule, the name, the photo and
//! the relationships), with its companies counted; the connections person
//! links change; and a person made from a name alone.

use super::checks::{check_relationships, contact_row, position_row, social_row};
use super::input::PersonInput;
use super::parse::PersonBody;
use super::rows::{self, Merged, merged, stamp};
use super::store::{index, load_live, load_row, save};
use super::{
    Connection, EmailAddress, KIND, KeyDate, Person, PersonRow, PhoneNumber, Position,
    SocialProfile, avatars, companies, key_dates, lifecycle, limit,
};
use crate::engine::WriteCx;
use crate::engine::kinds::Change;
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::text::squished_required;

/// The person `before` (none for a new one) changed by `body`, checked
/// whole; companies a position names by a new name are made on the way
/// (the transaction is dropped when the request fails).
fn apply(cx: &WriteCx<'_>, before: Option<&Person>, body: &PersonBody) -> Result<Person> {
    let input = &body.input;
    let mut details = Details::new();
    let today = cx.today();
    let name = match (&input.name, before) {
        (Some(name), _) => squished_required(&mut details, "name", name, limit::NAME),
        (None, Some(b)) => b.name.clone(),
        (None, None) => {
            details.add("name", "can't be blank");
            String::new()
        }
    };
    // A photo: an unused avatar upload the person takes, or none.
    let avatar = match &input.avatar {
        Field::Absent => before.and_then(|b| b.avatar.clone()),
        Field::Null => None,
        Field::Value(signed) => {
            match crate::resources::uploads::take(
                cx,
                signed,
                crate::resources::uploads::Kind::Avatar,
                "avatar",
            ) {
                Ok(upload) => Some(avatars::avatar_of(&cx.org.secret, upload.id)),
                Err(e) => match e.details() {
                    Some(refused) => {
                        details.extend(refused);
                        None
                    }
                    None => return Err(e),
                },
            }
        }
    };
    let relationships = match &input.relationships {
        Some(keys) => check_relationships(&mut details, keys),
        None => before.map(|b| b.relationships.clone()).unwrap_or_default(),
    };
    let dates = merged::<KeyDate>(body, before, &mut details, |base, row| {
        let mistakes = key_dates::type_mistakes(&row.mistyped);
        if !mistakes.is_empty() {
            return Err(mistakes);
        }
        row.fields.clone().apply(base, today)
    });
    // At most one birthday: a kept one stands, else the request's first;
    // each later one of the request is refused.
    let birthdays: Vec<&Merged<_>> = dates
        .iter()
        .filter(|d| d.values.kind == "birthday")
        .collect();
    if birthdays.len() > 1 {
        let kept = birthdays.iter().any(|d| d.index.is_none());
        let mut sent: Vec<usize> = birthdays.iter().filter_map(|d| d.index).collect();
        sent.sort_unstable();
        for (n, index) in sent.into_iter().enumerate() {
            if kept || n > 0 {
                details.add(
                    rows::key("key_dates", index, "kind"),
                    "a person has one birthday",
                );
            }
        }
    }
    let emails = merged::<EmailAddress>(body, before, &mut details, contact_row);
    let phones = merged::<PhoneNumber>(body, before, &mut details, contact_row);
    let socials = merged::<SocialProfile>(body, before, &mut details, social_row);
    let mut failure = None;
    let positions =
        merged::<Position>(body, before, &mut details, |base, row| {
            match position_row(cx, base, row) {
                Ok(outcome) => outcome,
                Err(e) => {
                    failure.get_or_insert(e);
                    Ok(base.cloned())
                }
            }
        });
    if let Some(e) = failure {
        return Err(e);
    }
    details.into_validation()?;

    let now = cx.now();
    let mut person = Person {
        id: before.map_or_else(|| cx.new_id(), |b| b.id),
        name,
        avatar,
        key_dates: stamp(cx, dates, before),
        email_addresses: stamp(cx, emails, before),
        phone_numbers: stamp(cx, phones, before),
        social_profiles: stamp(cx, socials, before),
        positions: stamp(cx, positions, before),
        relationships,
        connections: before.map_or_else(Vec::new, |b| b.connections.clone()),
        created_at: before.map_or(now, |b| b.created_at),
        updated_at: before.map_or(now, |b| b.updated_at),
    };
    if before != Some(&person) {
        person.updated_at = now;
    }
    Ok(person)
}

/// Counts the companies positions name: one more for each company a
/// position of `after` names, one less for each of `before` (a company no
/// position names any more is deleted), each count made by `count`
/// ([`companies::count_use`] or its quiet form).
pub(super) fn count_companies(
    cx: &WriteCx<'_>,
    before: &[Position],
    after: &[Position],
    count: fn(&WriteCx<'_>, Id, i64) -> Result<()>,
) -> Result<()> {
    let mut delta: Vec<(Id, i64)> = Vec::new();
    let mut add = |id: Id, by: i64| match delta.iter_mut().find(|(d, _)| *d == id) {
        Some((_, n)) => *n += by,
        None => delta.push((id, by)),
    };
    for p in after {
        if let Some(id) = p.company_id {
            add(id, 1);
        }
    }
    for p in before {
        if let Some(id) = p.company_id {
            add(id, -1);
        }
    }
    // Additions first, so a company moved between rows is never at zero.
    delta.sort_by_key(|(_, by)| std::cmp::Reverse(*by));
    for (id, by) in delta {
        if by != 0 {
            count(cx, id, by)?;
        }
    }
    Ok(())
}

/// `POST /people`.
pub(crate) fn create(cx: &mut WriteCx<'_>, body: &PersonBody) -> Result<Person> {
    let person = apply(cx, None, body)?;
    count_companies(cx, &[], &person.positions, companies::count_use)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    Ok(person)
}

/// `PATCH /people/{id}`: only what is sent changes; rows as the row rules
/// say.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, body: &PersonBody) -> Result<Person> {
    let before = load_live(cx, id)?;
    let person = apply(cx, Some(&before), body)?;
    if person == before {
        return Ok(person);
    }
    count_companies(
        cx,
        &before.positions,
        &person.positions,
        companies::count_use,
    )?;
    lifecycle::record_removed_rows(cx, &before, &person)?;
    // A replaced or removed photo goes, files and all.
    if before.avatar != person.avatar
        && let Some(old) = before
            .avatar
            .as_ref()
            .and_then(|a| avatars::upload_of(&cx.org.secret, a))
    {
        crate::resources::uploads::discard(cx, old)?;
    }
    index(cx, &before, false)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    if person.name != before.name {
        cx.tell(KIND.name, id, Change::Renamed)?;
    }
    Ok(person)
}

/// Changes the connections of live person `id` (person links), giving it
/// a new `updated_at`; a person that is not live is left alone.
pub(crate) fn touch_connections(
    cx: &WriteCx<'_>,
    id: Id,
    change: impl FnOnce(&mut Vec<Connection>),
) -> Result<()> {
    let Some(PersonRow {
        person: before,
        deleted: None,
    }) = load_row(cx, id)?
    else {
        return Ok(());
    };
    let mut person = before.clone();
    change(&mut person.connections);
    person.connections.sort_by_key(|c| c.id);
    person.updated_at = cx.now();
    index(cx, &before, false)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person,
            deleted: None,
        },
    )
}

/// A person's name as stored (squished), its mistakes under `field`.
pub(crate) fn checked_name(details: &mut Details, name: &str, field: &str) -> String {
    squished_required(details, field, name, limit::NAME)
}

/// Makes a person with a name alone (checked by [`checked_name`]): the
/// `new_person_name` of a person link.
pub(crate) fn create_named(cx: &WriteCx<'_>, name: String) -> Result<Person> {
    let now = cx.now();
    let person = Person {
        id: cx.new_id(),
        name,
        avatar: None,
        key_dates: Vec::new(),
        email_addresses: Vec::new(),
        phone_numbers: Vec::new(),
        social_profiles: Vec::new(),
        positions: Vec::new(),
        relationships: Vec::new(),
        connections: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    Ok(person)
}

/// `PUT|PATCH /people/{id}/avatar`: the photo `signed` (an avatar upload
/// just made from the request's bytes) replaces the person's.
pub(crate) fn set_avatar(cx: &mut WriteCx<'_>, id: Id, signed: &str) -> Result<Person> {
    let input = PersonInput {
        avatar: Field::Value(signed.to_owned()),
        ..PersonInput::default()
    };
    change(cx, id, &input.into())
}
