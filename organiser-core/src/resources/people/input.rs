//! What a request sends of a person (document 3, PersonFields):
//! [`PersonInput`] with its typed rows, a [`RowInput`] of each array's
//! fields (the row rules are `rows.rs`'s). `parse.rs` reads a body into
//! one, as the API reads it.

use serde::Serialize;

use crate::ids::Id;
use crate::input::Field;

/// `{person: PersonFields}`, read before the transaction: the types
/// checked, the rows' meaning checked against the stored person.
///
/// It serialises to the body it is read from (without the wrapper), and
/// deserialises as the API reads that body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PersonInput {
    /// The name (`Some("")` for null: refused as blank).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// An upload's `signed_id`, or null to remove the photo.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub avatar: Field<String>,
    /// The whole set of relationships.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relationships: Option<Vec<String>>,
    /// Key dates added, changed or removed (`None`: none sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_dates: Option<Vec<RowInput<KeyDateFields>>>,
    /// Email addresses added, changed or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_addresses: Option<Vec<RowInput<EmailAddressFields>>>,
    /// Phone numbers added, changed or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone_numbers: Option<Vec<RowInput<PhoneNumberFields>>>,
    /// Social profiles and websites added, changed or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub social_profiles: Option<Vec<RowInput<SocialProfileFields>>>,
    /// Jobs added, changed or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<RowInput<PositionFields>>>,
}

/// One row of a row array as a request sends it (document 3, "Row rules
/// for every array"): with `id` it changes that stored row (or, with
/// `destroy`, removes it); without, it adds a row. Rows not sent are kept.
///
/// Written as `{id?, _destroy?, ...fields}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RowInput<F> {
    /// The stored row this one changes or removes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Id>,
    /// `_destroy`: remove row `id` (removing one already gone is fine; a
    /// row with no `id` is then ignored).
    #[serde(rename = "_destroy", skip_serializing_if = "is_false")]
    pub destroy: bool,
    /// What the row says; a field left absent keeps the stored value.
    #[serde(flatten)]
    pub fields: F,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl<F> RowInput<F> {
    /// A new row of `fields`.
    pub fn add(fields: F) -> Self {
        RowInput {
            id: None,
            destroy: false,
            fields,
        }
    }

    /// A change of stored row `id`: the fields `fields` sends.
    pub fn change(id: Id, fields: F) -> Self {
        RowInput {
            id: Some(id),
            destroy: false,
            fields,
        }
    }
}

impl<F: Default> RowInput<F> {
    /// The removal of stored row `id`.
    pub fn remove(id: Id) -> Self {
        RowInput {
            id: Some(id),
            destroy: true,
            fields: F::default(),
        }
    }
}

/// A key date row's fields. `day`, `month` and `year` may be sent as
/// whole numbers written as strings, and null or an empty string is none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KeyDateFields {
    /// A key of the vocabulary's `key_date_kinds`.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub kind: Field<String>,
    /// Names an `other` date or adds to any other kind.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub label: Field<String>,
    /// 1 to 31.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub day: Field<i64>,
    /// 1 to 12.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub month: Field<i64>,
    /// The year, when known.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub year: Field<i64>,
}

/// An email address row's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EmailAddressFields {
    /// The address.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub address: Field<String>,
    /// "home", "work", ...
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub label: Field<String>,
}

/// A phone number row's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PhoneNumberFields {
    /// The number as written.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub number: Field<String>,
    /// "mobile", "home", ...
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub label: Field<String>,
}

/// A social profile row's fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SocialProfileFields {
    /// The link (`https://` is added when it has no scheme).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub url: Field<String>,
    /// A key of the vocabulary's `social_platforms`; null or absent reads
    /// it from the link.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub platform: Field<String>,
    /// A label.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub label: Field<String>,
}

/// A position row's fields: a title, a company, or both. The company is
/// named by its ID or by a name (found ignoring case, or made), not both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PositionFields {
    /// The title.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub title: Field<String>,
    /// A company by its ID.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub company_id: Field<Id>,
    /// A company by its name.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub company_name: Field<String>,
}
