//! A request's body read as the API reads it (document 3, PersonFields):
//! `{person: ...}` into a [`PersonInput`] with typed rows, and each input
//! type deserialised the same way.
//!
//! Reading a body judges its shape: a field of the wrong type is 422 on it
//! (`avatar`: 400), and a row array must be an array of objects whose `id`
//! is an ID (sent once) and whose `_destroy` is true or false. A row's own
//! field sent with a type it does not take is refused in the transaction,
//! with the row's other mistakes: the [`PersonBody`] read keeps which.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::input::{
    EmailAddressFields, KeyDateFields, PersonInput, PhoneNumberFields, PositionFields, RowInput,
    SocialProfileFields,
};
use super::rows::key;
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, Fields, record};

/// The fields of one array's rows, as a sent row is read.
pub(crate) trait RowFields: Sized {
    /// Reads a row's fields (not `id` or `_destroy`).
    fn read(row: &mut Reader<'_>) -> Self;
}

impl RowFields for KeyDateFields {
    fn read(row: &mut Reader<'_>) -> Self {
        KeyDateFields {
            kind: row.text("kind"),
            label: row.text("label"),
            day: row.number("day"),
            month: row.number("month"),
            year: row.number("year"),
        }
    }
}

impl RowFields for EmailAddressFields {
    fn read(row: &mut Reader<'_>) -> Self {
        EmailAddressFields {
            address: row.text("address"),
            label: row.text("label"),
        }
    }
}

impl RowFields for PhoneNumberFields {
    fn read(row: &mut Reader<'_>) -> Self {
        PhoneNumberFields {
            number: row.text("number"),
            label: row.text("label"),
        }
    }
}

impl RowFields for SocialProfileFields {
    fn read(row: &mut Reader<'_>) -> Self {
        SocialProfileFields {
            url: row.text("url"),
            platform: row.text("platform"),
            label: row.text("label"),
        }
    }
}

impl RowFields for PositionFields {
    fn read(row: &mut Reader<'_>) -> Self {
        PositionFields {
            title: row.text("title"),
            // An ID that does not parse names no company, as one of another type.
            company_id: row.field("company_id", |v| v.as_str().and_then(Id::parse)),
            company_name: row.text("company_name"),
        }
    }
}

/// Reads the fields of one sent row; a field of a type it does not take
/// is left absent and named in `mistyped`.
pub(crate) struct Reader<'a> {
    row: &'a Map<String, Value>,
    pub(crate) mistyped: Vec<&'static str>,
}

impl<'a> Reader<'a> {
    /// A reader of `row`, nothing mistyped yet.
    pub(crate) fn new(row: &'a Map<String, Value>) -> Self {
        Reader {
            row,
            mistyped: Vec::new(),
        }
    }

    /// Field `name`: absent, null, or the value `read` makes of what was
    /// sent (`None`: of a type it does not take).
    fn field<T>(&mut self, name: &'static str, read: impl FnOnce(&Value) -> Option<T>) -> Field<T> {
        match self.row.get(name) {
            None => Field::Absent,
            Some(Value::Null) => Field::Null,
            Some(v) => match read(v) {
                Some(v) => Field::Value(v),
                None => {
                    self.mistyped.push(name);
                    Field::Absent
                }
            },
        }
    }

    /// A string.
    pub(crate) fn text(&mut self, name: &'static str) -> Field<String> {
        self.field(name, |v| v.as_str().map(str::to_owned))
    }

    /// A whole number, or one written as a string; "" is null.
    fn number(&mut self, name: &'static str) -> Field<i64> {
        if matches!(self.row.get(name), Some(Value::String(s)) if s.trim().is_empty()) {
            return Field::Null;
        }
        self.field(name, |v| match v {
            Value::Number(n) => n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 1e9)
                    .map(|f| f as i64)
            }),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
    }
}

/// A field of a sent row that was of a type it does not take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mistyped {
    /// The row array.
    pub(crate) array: &'static str,
    /// The row's place in it.
    pub(crate) index: usize,
    /// The field.
    pub(crate) field: &'static str,
}

/// A [`PersonInput`] as read from a body, with the row fields that were
/// sent with a type they do not take (refused in the transaction, with
/// their rows' other mistakes). A typed input has none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PersonBody {
    pub(crate) input: PersonInput,
    pub(crate) mistyped: Vec<Mistyped>,
}

impl From<PersonInput> for PersonBody {
    fn from(input: PersonInput) -> Self {
        PersonBody {
            input,
            mistyped: Vec::new(),
        }
    }
}

/// Written as its input (what a remote door sends).
impl Serialize for PersonBody {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.input.serialize(s)
    }
}

impl PersonBody {
    /// The input, or a 422 naming the fields of the wrong type.
    fn into_input(self) -> Result<PersonInput> {
        let mut details = Details::new();
        for m in &self.mistyped {
            details.add(key(m.array, m.index, m.field), "has the wrong type");
        }
        details.into_validation()?;
        Ok(self.input)
    }
}

/// Reads `{person: ...}`: a field of the wrong type is 422 on it, except
/// `avatar`, which is 400 when it is neither a string nor null.
pub(crate) fn parse(body: Option<&Value>) -> Result<PersonBody> {
    let mut f = record(body, "person")?;
    let mut read = PersonBody::default();
    let input = &mut read.input;
    match f.raw("avatar") {
        Field::Value(Value::String(s)) => input.avatar = Field::Value(s.clone()),
        Field::Value(_) => {
            return Err(Error::bad_param(
                "avatar",
                "must be an upload's signed_id or null",
            ));
        }
        Field::Null => input.avatar = Field::Null,
        Field::Absent => {}
    }
    match f.string("name") {
        Field::Value(n) => input.name = Some(n),
        Field::Null => input.name = Some(String::new()),
        Field::Absent => {}
    }
    match f.raw("relationships") {
        Field::Absent => {}
        Field::Null => input.relationships = Some(Vec::new()),
        Field::Value(Value::Array(keys)) => {
            let keys: Option<Vec<String>> =
                keys.iter().map(|k| k.as_str().map(str::to_owned)).collect();
            match keys {
                Some(keys) => input.relationships = Some(keys),
                None => f.add("relationships", "must be an array of relationship keys"),
            }
        }
        Field::Value(_) => f.add("relationships", "must be an array of relationship keys"),
    }
    // The shape of the rows, here; their meaning in the transaction.
    let mistyped = &mut read.mistyped;
    input.key_dates = rows(&mut f, "key_dates", mistyped);
    input.email_addresses = rows(&mut f, "email_addresses", mistyped);
    input.phone_numbers = rows(&mut f, "phone_numbers", mistyped);
    input.social_profiles = rows(&mut f, "social_profiles", mistyped);
    input.positions = rows(&mut f, "positions", mistyped);
    f.finish()?;
    Ok(read)
}

/// The rows of `array`, if sent (null is not sent). Every row has its
/// place in the array when the body is taken: a row left out is a mistake
/// of the body.
fn rows<F: RowFields>(
    f: &mut Fields<'_>,
    array: &'static str,
    mistyped: &mut Vec<Mistyped>,
) -> Option<Vec<RowInput<F>>> {
    match f.raw(array) {
        Field::Absent | Field::Null => None,
        Field::Value(value) => Some(
            read_rows(array, value, &mut f.details, mistyped)
                .into_iter()
                .map(|(_, row)| row)
                .collect(),
        ),
    }
}

/// Reads the array of rows `value` sent as `array`, each with its place in
/// the array, with the mistakes of its shape in `details` (rows with
/// mistakes are left out) and the fields of the wrong type in `mistyped`.
pub(crate) fn read_rows<F: RowFields>(
    array: &'static str,
    value: &Value,
    details: &mut Details,
    mistyped: &mut Vec<Mistyped>,
) -> Vec<(usize, RowInput<F>)> {
    let Value::Array(rows) = value else {
        details.add(array, "must be an array of rows");
        return Vec::new();
    };
    let mut seen: Vec<Id> = Vec::new();
    let mut out = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let Value::Object(fields) = row else {
            details.add(key(array, index, ""), "must be an object");
            continue;
        };
        let id = match fields.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => match Id::parse(s) {
                Some(id) => Some(id),
                None => {
                    details.add(key(array, index, "id"), "is not an ID");
                    continue;
                }
            },
            Some(_) => {
                details.add(key(array, index, "id"), "is not an ID");
                continue;
            }
        };
        let destroy = match fields.get("_destroy") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                details.add(key(array, index, "_destroy"), "must be true or false");
                continue;
            }
        };
        if let Some(id) = id {
            if seen.contains(&id) {
                details.add(key(array, index, "id"), "is sent twice");
                continue;
            }
            seen.push(id);
        }
        let mut reader = Reader::new(fields);
        let fields = F::read(&mut reader);
        mistyped.extend(reader.mistyped.into_iter().map(|field| Mistyped {
            array,
            index,
            field,
        }));
        out.push((
            index,
            RowInput {
                id,
                destroy,
                fields,
            },
        ));
    }
    out
}

/// Read as the API reads a body's `person`.
impl<'de> Deserialize<'de> for PersonInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let fields = Value::deserialize(d)?;
        parse(Some(&serde_json::json!({ "person": fields })))
            .and_then(PersonBody::into_input)
            .map_err(D::Error::custom)
    }
}

/// Each array's fields, and a row of them, read as the API reads a row.
macro_rules! read_as_the_api {
    ($($fields:ty: $array:literal),+ $(,)?) => {$(
        impl<'de> Deserialize<'de> for $fields {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let row = Map::<String, Value>::deserialize(d)?;
                let mut reader = Reader::new(&row);
                let fields = <$fields as RowFields>::read(&mut reader);
                match reader.mistyped.first() {
                    Some(field) => Err(D::Error::custom(format!("`{field}` has the wrong type"))),
                    None => Ok(fields),
                }
            }
        }

        impl<'de> Deserialize<'de> for RowInput<$fields> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let row = Value::deserialize(d)?;
                let mut details = Details::new();
                let mut mistyped = Vec::new();
                let read = read_rows($array, &Value::Array(vec![row]), &mut details, &mut mistyped);
                for m in mistyped {
                    details.add(key(m.array, m.index, m.field), "has the wrong type");
                }
                details.into_validation().map_err(D::Error::custom)?;
                read.into_iter()
                    .next()
                    .map(|(_, row)| row)
                    .ok_or_else(|| D::Error::custom("a row must be an object"))
            }
        }
    )+};
}

read_as_the_api!(
    KeyDateFields: "key_dates",
    EmailAddressFields: "email_addresses",
    PhoneNumberFields: "phone_numbers",
    SocialProfileFields: "social_profiles",
    PositionFields: "positions",
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Organiser;
    use serde_json::json;

    fn email(address: &str) -> RowInput<EmailAddressFields> {
        RowInput::add(EmailAddressFields {
            address: Field::Value(address.to_owned()),
            ..EmailAddressFields::default()
        })
    }

    #[test]
    fn an_input_is_written_as_its_body_and_read_back() {
        let id = Id::from_bytes([7; 16]);
        let input = PersonInput {
            name: Some("Ada".to_owned()),
            avatar: Field::Null,
            key_dates: Some(vec![RowInput::change(
                id,
                KeyDateFields {
                    day: Field::Value(3),
                    year: Field::Null,
                    ..KeyDateFields::default()
                },
            )]),
            email_addresses: Some(vec![email("a@b.org"), RowInput::remove(id)]),
            positions: Some(Vec::new()),
            ..PersonInput::default()
        };
        let body = serde_json::to_value(&input).unwrap();
        assert_eq!(
            body,
            json!({
                "name": "Ada",
                "avatar": null,
                "key_dates": [{"id": id, "day": 3, "year": null}],
                "email_addresses": [{"address": "a@b.org"}, {"id": id, "_destroy": true}],
                "positions": [],
            })
        );
        assert_eq!(serde_json::from_value::<PersonInput>(body).unwrap(), input);
        let read = parse(Some(
            &json!({ "person": serde_json::to_value(&input).unwrap() }),
        ));
        assert_eq!(read.unwrap(), PersonBody::from(input));
    }

    #[test]
    fn a_body_is_read_into_typed_rows() {
        let body = json!({"person": {
            "name": null,
            "relationships": null,
            "key_dates": [{"kind": "birthday", "day": " 3 ", "month": 4.0, "year": ""}],
            "phone_numbers": null,
            "social_profiles": [{"url": "a.org", "platform": null, "label": 5, "other": 1}],
            "positions": [{"company_id": "nope", "_destroy": false, "id": null}],
        }});
        let read = parse(Some(&body)).unwrap();
        let birthday = KeyDateFields {
            kind: Field::Value("birthday".to_owned()),
            day: Field::Value(3),
            month: Field::Value(4),
            year: Field::Null,
            ..KeyDateFields::default()
        };
        let social = SocialProfileFields {
            url: Field::Value("a.org".to_owned()),
            platform: Field::Null,
            label: Field::Absent,
        };
        let expected = PersonInput {
            name: Some(String::new()),
            relationships: Some(Vec::new()),
            key_dates: Some(vec![RowInput::add(birthday)]),
            social_profiles: Some(vec![RowInput::add(social)]),
            positions: Some(vec![RowInput::add(PositionFields::default())]),
            ..PersonInput::default()
        };
        assert_eq!(read.input, expected);
        // Fields of the wrong type are kept for the transaction's 422.
        let mistyped: Vec<(&str, usize, &str)> = read
            .mistyped
            .iter()
            .map(|m| (m.array, m.index, m.field))
            .collect();
        assert_eq!(
            mistyped,
            [
                ("social_profiles", 0, "label"),
                ("positions", 0, "company_id")
            ]
        );
        // Deserialising takes none.
        let err = serde_json::from_value::<PersonInput>(body["person"].clone()).unwrap_err();
        assert!(
            err.to_string().contains("[0].label has the wrong type"),
            "{err}"
        );
        assert!(serde_json::from_value::<RowInput<PositionFields>>(json!({"title": 5})).is_err());
        assert!(serde_json::from_value::<PhoneNumberFields>(json!({"number": []})).is_err());
        let row: RowInput<PhoneNumberFields> =
            serde_json::from_value(json!({"number": "1", "_destroy": true})).unwrap();
        assert!(row.destroy && row.fields.number == Field::Value("1".to_owned()));
    }

    #[test]
    fn the_typed_door_takes_typed_rows() {
        let org = Organiser::in_memory();
        let ada = org
            .people()
            .create(PersonInput {
                name: Some("Ada".to_owned()),
                email_addresses: Some(vec![email("a@b.org"), email("c@d.org")]),
                ..PersonInput::default()
            })
            .unwrap();
        assert_eq!(ada.email_addresses.len(), 2);
        let first = ada.email_addresses[0].id;
        let changed = org
            .people()
            .change(
                ada.id,
                PersonInput {
                    email_addresses: Some(vec![RowInput::remove(first), email("nobody")]),
                    ..PersonInput::default()
                },
            )
            .unwrap_err();
        let details = changed.details().unwrap();
        assert!(details.has("email_addresses[1].address"), "{details:?}");
        let changed = org
            .people()
            .change(
                ada.id,
                PersonInput {
                    email_addresses: Some(vec![RowInput::remove(first)]),
                    ..PersonInput::default()
                },
            )
            .unwrap();
        let left: Vec<&str> = changed
            .email_addresses
            .iter()
            .map(|e| e.address.as_str())
            .collect();
        assert_eq!(left, ["c@d.org"]);
    }
}
