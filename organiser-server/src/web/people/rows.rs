//! A person's changes, each a plain form: the name and relationships,
//! a row added to or removed from one of their arrays (key dates, email
//! addresses, phone numbers, social profiles, positions), and a link to
//! another person made or removed. Each answered 303 back to the person,
//! or with their page again beside what the core refused (422).

use axum::extract::Path;
use axum::response::Response;
use organiser_core::people::{
    EmailAddressFields, KeyDateFields, PersonInput, PersonLinkInput, PhoneNumberFields,
    PositionFields, RowInput, SocialProfileFields,
};
use organiser_core::{Details, Error, Field};

use super::page::{Draft, draw};
use crate::web::forms::{PlainForm, Posted, SignedForm, invalid, person_named, record_id};
use crate::web::{Refusal, blocking, see_other};

/// `POST /people/{id}`: the name and the relationships to the owner.
pub(super) async fn change(
    Path(id): Path<String>,
    sent: SignedForm<Posted>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let f = &sent.form;
    let input = PersonInput {
        name: Some(f.get("name").to_owned()),
        relationships: Some(
            f.all("relationships")
                .into_iter()
                .map(str::to_owned)
                .collect(),
        ),
        ..PersonInput::default()
    };
    let changed = blocking(&sent.owner.state, move |org| org.people().change(id, input)).await;
    match invalid(changed)? {
        Ok(_) => Ok(see_other(&format!("/people/{id}?saved=1"))),
        Err(details) => {
            let draft = Draft::refused("person", &details, &[], f.typed());
            draw(&sent.owner, id, draft, false).await
        }
    }
}

/// A row array a path names, by its name in the core.
fn array(name: &str) -> Result<&'static str, Refusal> {
    Ok(match name {
        "key_dates" => "key_dates",
        "email_addresses" => "email_addresses",
        "phone_numbers" => "phone_numbers",
        "social_profiles" => "social_profiles",
        "positions" => "positions",
        _ => return Err(Refusal::Core(Error::NotFound)),
    })
}

/// A whole number a form sent, or the core's phrase for one that is not.
fn number(f: &Posted, field: &'static str, array: &str, details: &mut Details) -> Field<i64> {
    let typed = f.get(field).trim();
    if typed.is_empty() {
        return Field::Null;
    }
    match typed.parse() {
        Ok(n) => Field::Value(n),
        Err(_) => {
            // As the core says of a row field of the wrong type.
            details.add(format!("{array}[0].{field}"), "must be a whole number");
            Field::Absent
        }
    }
}

/// `input` with one new row of `array`, from the form's fields.
fn new_row(array: &'static str, f: &Posted, details: &mut Details) -> PersonInput {
    let mut input = PersonInput::default();
    match array {
        "key_dates" => {
            let fields = KeyDateFields {
                kind: f.field("kind"),
                label: f.field("label"),
                day: number(f, "day", array, details),
                month: number(f, "month", array, details),
                year: number(f, "year", array, details),
            };
            input.key_dates = Some(vec![RowInput::add(fields)]);
        }
        "email_addresses" => {
            let fields = EmailAddressFields {
                address: f.field("address"),
                label: f.field("label"),
            };
            input.email_addresses = Some(vec![RowInput::add(fields)]);
        }
        "phone_numbers" => {
            let fields = PhoneNumberFields {
                number: f.field("number"),
                label: f.field("label"),
            };
            input.phone_numbers = Some(vec![RowInput::add(fields)]);
        }
        "social_profiles" => {
            let fields = SocialProfileFields {
                url: f.field("url"),
                platform: f.field("platform"),
                label: f.field("label"),
            };
            input.social_profiles = Some(vec![RowInput::add(fields)]);
        }
        _ => {
            let fields = PositionFields {
                title: f.field("title"),
                company_name: match f.field("company_name") {
                    Field::Null => Field::Absent,
                    named => named,
                },
                ..PositionFields::default()
            };
            input.positions = Some(vec![RowInput::add(fields)]);
        }
    }
    input
}

/// `POST /people/{id}/rows/{array}`: adds a row (a key date, an email
/// address, a phone number, a social profile, a position).
pub(super) async fn add(
    Path((id, name)): Path<(String, String)>,
    sent: SignedForm<Posted>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let array = array(&name)?;
    let mut details = Details::new();
    let input = new_row(array, &sent.form, &mut details);
    let result = if details.is_empty() {
        invalid(blocking(&sent.owner.state, move |org| org.people().change(id, input)).await)?
            .map(|_| ())
    } else {
        Err(details)
    };
    match result {
        Ok(()) => Ok(see_other(&format!("/people/{id}?saved=1"))),
        Err(details) => {
            let draft = Draft::refused(array, &details, &[], sent.form.typed());
            draw(&sent.owner, id, draft, false).await
        }
    }
}

/// `POST /people/{id}/rows/{array}/{row}/delete`: removes a row.
pub(super) async fn remove(
    Path((id, name, row)): Path<(String, String, String)>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let row = record_id(&row)?;
    let array = array(&name)?;
    let mut input = PersonInput::default();
    match array {
        "key_dates" => input.key_dates = Some(vec![RowInput::remove(row)]),
        "email_addresses" => input.email_addresses = Some(vec![RowInput::remove(row)]),
        "phone_numbers" => input.phone_numbers = Some(vec![RowInput::remove(row)]),
        "social_profiles" => input.social_profiles = Some(vec![RowInput::remove(row)]),
        _ => input.positions = Some(vec![RowInput::remove(row)]),
    }
    blocking(&sent.owner.state, move |org| org.people().change(id, input)).await?;
    Ok(see_other(&format!("/people/{id}?saved=1")))
}

/// `POST /people/{id}/links`: links the person to another, named in
/// `other` (found by name, or made when no one has it), whose role to
/// this person is `kind`.
pub(super) async fn link(
    Path(id): Path<String>,
    sent: SignedForm<Posted>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let other = sent.form.get("other").trim().to_owned();
    let kind = sent.form.field("kind");
    let note = sent.form.field("note");
    let made = blocking(&sent.owner.state, move |org| {
        let (person_id, new_person_name) = person_named(
            org,
            other,
            "other",
            "names more than one person: open theirs and link from there",
        )?;
        let input = PersonLinkInput {
            related_person_id: Field::Value(id),
            person_id,
            new_person_name,
            kind,
            note,
        };
        org.person_links().create(input)
    })
    .await;
    match invalid(made)? {
        Ok(_) => Ok(see_other(&format!("/people/{id}?saved=1"))),
        Err(details) => {
            let renames = [
                ("person_id", "other"),
                ("new_person_name", "other"),
                ("related_person_id", "other"),
            ];
            let draft = Draft::refused("link", &details, &renames, sent.form.typed());
            draw(&sent.owner, id, draft, false).await
        }
    }
}

/// `POST /people/{id}/links/{link}/delete`: removes a link.
pub(super) async fn unlink(
    Path((id, link)): Path<(String, String)>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let link = record_id(&link)?;
    blocking(&sent.owner.state, move |org| {
        org.person_links().delete(link)
    })
    .await?;
    Ok(see_other(&format!("/people/{id}?saved=1")))
}
