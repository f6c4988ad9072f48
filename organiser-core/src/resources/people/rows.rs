//! The row arrays of a person (document 3, "Row rules for every array"),
//! in one place for all five: a row with `id` changes that row, a row
//! without adds one, `_destroy: true` removes one, rows not sent are kept.
//! An `id` that is not this person's is 422 on that row (removing one
//! already gone is fine); an `id` sent twice is 422 on the later row (when
//! the body is read, `input.rs`).
//!
//! A row's mistakes are keyed `FIELD[INDEX].NAME`, the index counting the
//! rows of the request from 0 (`key_dates[2].day`), or `FIELD[INDEX]` for
//! the row as a whole (docs/api.md, "People"). A field the spec names the
//! key of (a position's `title`, `company_id` and `company_name`) is keyed
//! by that name alone, and its phrase says which row it was.
//!
//! [`RowRecord`] is what the five arrays share: a stored row is its ID,
//! its values and its times; the table at the end (`row_records!`) names
//! each array's record, values, fields, array and deletion type.

use jiff::Timestamp;

use super::checks::{ContactValues, PositionValues, SocialValues};
use super::input::{
    EmailAddressFields, KeyDateFields, PersonInput, PhoneNumberFields, PositionFields, RowInput,
    SocialProfileFields,
};
use super::key_dates::KeyDateValues;
use super::parse::{Mistyped, PersonBody, RowFields};
use super::{EmailAddress, KeyDate, Person, PhoneNumber, Position, SocialProfile};
use crate::engine::WriteCx;
use crate::error::Details;
use crate::ids::Id;
use crate::input::Field;

/// A field's mistake: the field's name in the row and a phrase.
pub(crate) type Mistake = (&'static str, String);

/// A row's mistakes.
pub(crate) type Mistakes = Vec<Mistake>;

/// What a sent row says of one field, as a check reads it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Got<'a, T> {
    /// Not sent: the stored value stays.
    Absent,
    /// Sent as null.
    Null,
    /// Sent with a value.
    Value(&'a T),
    /// Sent with a type the field does not take.
    Mistyped,
}

impl<T> Clone for Got<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Got<'_, T> {}

impl<T> Got<'_, T> {
    /// Sent, and not as null.
    pub(crate) fn is_given(&self) -> bool {
        matches!(self, Got::Value(_) | Got::Mistyped)
    }
}

/// One sent row, as a check reads it.
#[derive(Debug)]
pub(crate) struct SentRow<'a, F> {
    /// What it says.
    pub(crate) fields: &'a F,
    /// Its fields sent with a type they do not take.
    pub(crate) mistyped: Vec<&'static str>,
}

impl<'a, F> SentRow<'a, F> {
    /// What the row says of its field `name`, whose value is `field`.
    pub(crate) fn get<T>(&self, name: &'static str, field: &'a Field<T>) -> Got<'a, T> {
        if self.mistyped.contains(&name) {
            return Got::Mistyped;
        }
        match field {
            Field::Absent => Got::Absent,
            Field::Null => Got::Null,
            Field::Value(v) => Got::Value(v),
        }
    }
}

/// The key of a row's field in `details`: `key_dates[2].day`.
pub(crate) fn key(field: &str, index: usize, name: &str) -> String {
    if name.is_empty() {
        format!("{field}[{index}]")
    } else {
        format!("{field}[{index}].{name}")
    }
}

/// A row after the change: a stored one (with its ID) or a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Merged<T> {
    /// The stored row's ID; `None` for a row the request adds.
    pub(crate) id: Option<Id>,
    /// Its values.
    pub(crate) values: T,
    /// Whether the request changed or added it.
    pub(crate) changed: bool,
    /// The place in the request's array of the row that sent it, if one did.
    pub(crate) index: Option<usize>,
}

/// The rows after the request: the stored rows in their order, changed or
/// removed as sent, then the new rows in the request's order. `sent` are
/// the request's rows with their places, `mistyped` the fields of the
/// wrong type of the array's rows. `apply` turns a sent row (and the
/// stored values it changes) into the row's values, `None` for a new row
/// that is ignored, or its mistakes keyed by field name.
pub(crate) fn merge<'a, F: 'a, T: Clone + PartialEq>(
    field: &str,
    bare: &[&str],
    stored: &[(Id, T)],
    sent: impl IntoIterator<Item = (usize, &'a RowInput<F>)>,
    mistyped: &[Mistyped],
    details: &mut Details,
    mut apply: impl FnMut(Option<&T>, &SentRow<'_, F>) -> Result<Option<T>, Mistakes>,
) -> Vec<Merged<T>> {
    let mut rows: Vec<Option<Merged<T>>> = stored
        .iter()
        .map(|(id, values)| {
            Some(Merged {
                id: Some(*id),
                values: values.clone(),
                changed: false,
                index: None,
            })
        })
        .collect();
    let mut added = Vec::new();
    let mut refuse = |index: usize, mistakes: Mistakes| {
        for (name, phrase) in mistakes {
            if bare.contains(&name) {
                details.add(name, format!("{phrase} ({})", key(field, index, "")));
            } else {
                details.add(key(field, index, name), phrase);
            }
        }
    };
    let read = |index: usize, row: &'a RowInput<F>| SentRow {
        fields: &row.fields,
        mistyped: mistyped
            .iter()
            .filter(|m| m.array == field && m.index == index)
            .map(|m| m.field)
            .collect(),
    };
    for (index, row) in sent {
        match row.id {
            Some(id) => {
                let Some(at) = stored.iter().position(|(stored_id, _)| *stored_id == id) else {
                    // Removing a row already gone is fine; naming another's is not.
                    if !row.destroy {
                        refuse(
                            index,
                            vec![("id", "is not a row of this person".to_owned())],
                        );
                    }
                    continue;
                };
                if row.destroy {
                    rows[at] = None;
                    continue;
                }
                match apply(Some(&stored[at].1), &read(index, row)) {
                    Ok(Some(values)) => {
                        let changed = values != stored[at].1;
                        rows[at] = Some(Merged {
                            id: Some(id),
                            values,
                            changed,
                            index: Some(index),
                        });
                    }
                    Ok(None) => {}
                    Err(mistakes) => refuse(index, mistakes),
                }
            }
            None if row.destroy => {}
            None => match apply(None, &read(index, row)) {
                Ok(Some(values)) => added.push(Merged {
                    id: None,
                    values,
                    changed: true,
                    index: Some(index),
                }),
                Ok(None) => {}
                Err(mistakes) => refuse(index, mistakes),
            },
        }
    }
    rows.into_iter().flatten().chain(added).collect()
}

/// A row of a person as the API shows it (a key date, a contact detail,
/// a position): its values apart from its ID and times, the fields a
/// request sends of it, and the array and deletion type that name it.
pub(crate) trait RowRecord: Clone + Sized + 'static {
    /// What a request may change.
    type Values: Clone + PartialEq;
    /// What a request sends of a row.
    type Fields: RowFields;
    /// Its array in PersonFields.
    const ARRAY: &'static str;
    /// Its deletion type in `/deletions`.
    const KIND: &'static str;
    /// The fields whose mistakes the spec keys by the field's name alone
    /// (the row is then named in the phrase).
    const SPEC_KEYS: &'static [&'static str] = &[];
    /// The row's ID.
    fn id(&self) -> Id;
    /// When it was added.
    fn created_at(&self) -> Timestamp;
    /// What a request may change, as stored.
    fn values(&self) -> Self::Values;
    /// The row of these values, ID and times.
    fn make(id: Id, values: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self;
    /// The person's rows of this array.
    fn of(person: &Person) -> &[Self];
    /// The rows of this array a request sends, if it sends the array.
    fn sent(input: &PersonInput) -> Option<&[RowInput<Self::Fields>]>;
}

/// The rows of `R`'s array after the request `body` (the stored ones of
/// `before` when it sent none), each sent row read by `apply`.
pub(crate) fn merged<R: RowRecord>(
    body: &PersonBody,
    before: Option<&Person>,
    details: &mut Details,
    apply: impl FnMut(
        Option<&R::Values>,
        &SentRow<'_, R::Fields>,
    ) -> Result<Option<R::Values>, Mistakes>,
) -> Vec<Merged<R::Values>> {
    let stored: Vec<(Id, R::Values)> = before
        .map_or(&[][..], R::of)
        .iter()
        .map(|r| (r.id(), r.values()))
        .collect();
    // Nothing sent keeps every stored row as it is.
    let sent = R::sent(&body.input).unwrap_or_default();
    merge(
        R::ARRAY,
        R::SPEC_KEYS,
        &stored,
        sent.iter().enumerate(),
        &body.mistyped,
        details,
        apply,
    )
}

/// Rows with their IDs and times: a kept row as it was (in `before`), a
/// changed one with a new `updated_at`, a new one with a new ID.
pub(crate) fn stamp<R: RowRecord>(
    cx: &WriteCx<'_>,
    rows: Vec<Merged<R::Values>>,
    before: Option<&Person>,
) -> Vec<R> {
    let before = before.map_or(&[][..], R::of);
    let now = cx.now();
    rows.into_iter()
        .map(|row| {
            let old = row.id.and_then(|id| before.iter().find(|r| r.id() == id));
            match (row.id, old) {
                (Some(_), Some(old)) if !row.changed => old.clone(),
                (Some(id), Some(old)) => R::make(id, row.values, old.created_at(), now),
                (Some(id), None) => R::make(id, row.values, now, now),
                (None, _) => R::make(cx.new_id(), row.values, now, now),
            }
        })
        .collect()
}

/// Declares the row arrays: for each, its record, values and fields, its
/// array (the field of [`Person`] and [`PersonInput`]), its deletion type,
/// the fields the spec keys by name, and which record field each value is.
macro_rules! row_records {
    ($(
        $record:ident($values:ident, $fields:ident) in $array:ident as $kind:literal
            $([$($spec:literal),*])? { $($value:ident: $stored:ident),+ $(,)? }
    )+) => {$(
        impl RowRecord for $record {
            type Values = $values;
            type Fields = $fields;
            const ARRAY: &'static str = stringify!($array);
            const KIND: &'static str = $kind;
            $(const SPEC_KEYS: &'static [&'static str] = &[$($spec),*];)?
            fn id(&self) -> Id {
                self.id
            }
            fn created_at(&self) -> Timestamp {
                self.created_at
            }
            fn values(&self) -> $values {
                $values {
                    $($value: Clone::clone(&self.$stored)),+
                }
            }
            fn make(id: Id, v: $values, created_at: Timestamp, updated_at: Timestamp) -> Self {
                $record {
                    id,
                    $($stored: v.$value,)+
                    created_at,
                    updated_at,
                }
            }
            fn of(person: &Person) -> &[Self] {
                &person.$array
            }
            fn sent(input: &PersonInput) -> Option<&[RowInput<$fields>]> {
                input.$array.as_deref()
            }
        }
    )+};
}

row_records! {
    KeyDate(KeyDateValues, KeyDateFields) in key_dates as "key_date" {
        kind: kind, label: label, day: day, month: month, year: year,
    }
    EmailAddress(ContactValues, EmailAddressFields) in email_addresses as "email_address" {
        text: address, label: label,
    }
    PhoneNumber(ContactValues, PhoneNumberFields) in phone_numbers as "phone_number" {
        text: number, label: label,
    }
    SocialProfile(SocialValues, SocialProfileFields) in social_profiles as "social_profile" {
        url: url, platform: platform, platform_detected: platform_detected, label: label,
    }
    Position(PositionValues, PositionFields) in positions as "position"
        ["title", "company_id", "company_name"] {
        title: title, company_id: company_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::people::parse::{Reader, read_rows};
    use serde_json::{Value, json};

    /// A row of a label alone.
    #[derive(Debug, Default)]
    struct Label {
        label: Field<String>,
    }

    impl RowFields for Label {
        fn read(row: &mut Reader<'_>) -> Self {
            Label {
                label: row.text("label"),
            }
        }
    }

    /// Rows of a label alone: "" is refused, "skip" is ignored.
    fn apply(base: Option<&String>, row: &SentRow<'_, Label>) -> Result<Option<String>, Mistakes> {
        match row.fields.label.as_deref() {
            Some("") => Err(vec![("label", "can't be blank".to_owned())]),
            Some("skip") if base.is_none() => Ok(None),
            Some(label) => Ok(Some(label.to_owned())),
            None => Ok(base.cloned()),
        }
    }

    /// The rows of `body` sent as `array`, read as a body's are, merged
    /// over `stored` (keyed by name alone: `bare`).
    fn read_and_merge(
        array: &'static str,
        bare: &[&str],
        stored: &[(Id, String)],
        body: &Value,
        details: &mut Details,
    ) -> Vec<Merged<String>> {
        let mut mistyped = Vec::new();
        let sent: Vec<(usize, RowInput<Label>)> = read_rows(array, body, details, &mut mistyped);
        let sent = sent.iter().map(|(index, row)| (*index, row));
        merge(array, bare, stored, sent, &mistyped, details, apply)
    }

    fn ids() -> (Id, Id, Id) {
        (
            Id::from_bytes([1; 16]),
            Id::from_bytes([2; 16]),
            Id::from_bytes([3; 16]),
        )
    }

    #[test]
    fn rows_are_changed_added_removed_and_kept() {
        let (a, b, other) = ids();
        let stored = vec![(a, "home".to_owned()), (b, "work".to_owned())];
        let body = json!([
            {"id": b.to_string(), "label": "office"},
            {"label": "mobile"},
            {"label": "skip"},
            {"id": other.to_string(), "_destroy": true},
            {"_destroy": true, "label": "never"},
        ]);
        let mut details = Details::new();
        let merged = read_and_merge("phone_numbers", &[], &stored, &body, &mut details);
        assert!(details.is_empty(), "{details:?}");
        let said: Vec<(Option<Id>, &str, bool)> = merged
            .iter()
            .map(|m| (m.id, m.values.as_str(), m.changed))
            .collect();
        assert_eq!(
            said,
            [
                (Some(a), "home", false),
                (Some(b), "office", true),
                (None, "mobile", true)
            ]
        );
        // Removing one.
        let body = json!([{"id": a.to_string(), "_destroy": true}]);
        let merged = read_and_merge("phone_numbers", &[], &stored, &body, &mut details);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].id, Some(b));
    }

    #[test]
    fn each_mistake_names_its_row() {
        let (a, _, other) = ids();
        let stored = vec![(a, "home".to_owned())];
        let body = json!([
            {"label": "ok"},
            {"id": other.to_string(), "label": "x"},
            "not a row",
            {"id": "nope"},
            {"_destroy": "yes"},
            {"label": ""},
            {"id": a.to_string(), "label": "first"},
            {"id": a.to_string(), "label": "again"},
        ]);
        let mut details = Details::new();
        read_and_merge("email_addresses", &[], &stored, &body, &mut details);
        let keys: Vec<&str> = details.iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                "email_addresses[1].id",
                "email_addresses[2]",
                "email_addresses[3].id",
                "email_addresses[4]._destroy",
                "email_addresses[5].label",
                "email_addresses[7].id",
            ]
        );
        let mut details = Details::new();
        read_and_merge(
            "email_addresses",
            &[],
            &[],
            &json!({"label": "x"}),
            &mut details,
        );
        assert!(details.has("email_addresses"));
    }

    #[test]
    fn a_field_the_spec_keys_is_keyed_by_name_and_names_its_row_in_the_phrase() {
        let body = json!([{"label": "ok"}, {"label": ""}]);
        let mut details = Details::new();
        read_and_merge("positions", &["label"], &[], &body, &mut details);
        let said: Vec<(&str, &str)> = details
            .iter()
            .flat_map(|(k, phrases)| phrases.iter().map(move |p| (k, p.as_str())))
            .collect();
        assert_eq!(said, [("label", "can't be blank (positions[1])")]);
    }
}
