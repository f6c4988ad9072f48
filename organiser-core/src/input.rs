//! Typed reads of request bodies that keep "absent" apart from "null"
//! (DESIGN.md "The core"), collecting every mistake into one 422 `details`.
//!
//! Bodies wrap their record under its singular name (`{task: {...}}`). A
//! body that is not a JSON object is a 400 `invalid_json`; a field of the
//! wrong type is a 422 on that field unless the spec says 400.

use jiff::civil::Date;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::error::{Details, Error, Result};
use crate::ids::Id;

/// A field of a change that may be left out, cleared with null, or set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Field<T> {
    /// Not sent: leave it as it is.
    #[default]
    Absent,
    /// Sent as null: clear it.
    Null,
    /// Sent with a value.
    Value(T),
}

impl<T> Field<T> {
    /// Whether the field was sent (as null or a value).
    pub fn is_sent(&self) -> bool {
        !matches!(self, Field::Absent)
    }

    /// Whether the field was left out: what a field of an input that
    /// serialises names in `#[serde(skip_serializing_if = "Field::is_absent")]`.
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// `None` when absent, `Some(None)` for null, `Some(Some(v))` for a value.
    pub fn sent(self) -> Option<Option<T>> {
        match self {
            Field::Absent => None,
            Field::Null => Some(None),
            Field::Value(v) => Some(Some(v)),
        }
    }

    /// The new value given the current one.
    pub fn apply(self, current: Option<T>) -> Option<T> {
        match self {
            Field::Absent => current,
            Field::Null => None,
            Field::Value(v) => Some(v),
        }
    }

    /// Borrows the value.
    pub fn as_ref(&self) -> Field<&T> {
        match self {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(v) => Field::Value(v),
        }
    }

    /// Changes the value, keeping absent and null.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Field<U> {
        match self {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(v) => Field::Value(f(v)),
        }
    }
}

impl<T> Field<T> {
    /// The value, if one was sent.
    pub fn value(self) -> Option<T> {
        match self {
            Field::Value(v) => Some(v),
            _ => None,
        }
    }
}

impl Field<String> {
    /// The text, if a value was sent.
    pub fn as_deref(&self) -> Option<&str> {
        match self {
            Field::Value(s) => Some(s.as_str()),
            _ => None,
        }
    }
}

impl<T> From<Option<T>> for Field<T> {
    /// `Some(v)` sets, `None` clears.
    fn from(v: Option<T>) -> Self {
        match v {
            Some(v) => Field::Value(v),
            None => Field::Null,
        }
    }
}

/// A value is written as the value and null as `null`; an absent field is
/// left out by `#[serde(skip_serializing_if = "Field::is_absent")]` on the
/// field. Writing an absent field anyway is an error rather than a `null`,
/// which would clear what the sender meant to leave alone.
impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Field::Value(v) => v.serialize(s),
            Field::Null => s.serialize_none(),
            Field::Absent => Err(serde::ser::Error::custom(
                "an absent field is left out: mark it #[serde(skip_serializing_if = \"Field::is_absent\")]",
            )),
        }
    }
}

/// `null` is read as null and a value as the value; a field left out is
/// absent when the struct says `#[serde(default)]` (absent is the default).
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(d)? {
            Some(v) => Field::Value(v),
            None => Field::Null,
        })
    }
}

/// The fields of one wrapped record, with the mistakes found so far.
pub(crate) struct Fields<'a> {
    map: Option<&'a Map<String, Value>>,
    pub(crate) details: Details,
}

/// The object under `wrapper` in `body` (`{task: {...}}`). No body, or no
/// wrapper, gives no fields.
pub(crate) fn record<'a>(body: Option<&'a Value>, wrapper: &str) -> Result<Fields<'a>> {
    let Some(body) = body else {
        return Ok(Fields::empty());
    };
    let Value::Object(outer) = body else {
        return Err(Error::InvalidJson("The body must be a JSON object".into()));
    };
    match outer.get(wrapper) {
        None => Ok(Fields::empty()),
        Some(Value::Object(map)) => Ok(Fields {
            map: Some(map),
            details: Details::new(),
        }),
        Some(_) => Err(Error::InvalidJson(format!(
            "`{wrapper}` must be a JSON object"
        ))),
    }
}

/// Reads the record under `wrapper` with `read`, then finishes: the
/// typed input, or every mistake of the body as one 422.
pub(crate) fn parse_record<T>(
    body: Option<&Value>,
    wrapper: &str,
    read: impl FnOnce(&mut Fields<'_>) -> T,
) -> Result<T> {
    let mut f = record(body, wrapper)?;
    let parsed = read(&mut f);
    f.finish()?;
    Ok(parsed)
}

/// The top-level object of `body`, for bodies that are not wrapped.
pub(crate) fn top<'a>(body: Option<&'a Value>) -> Result<Fields<'a>> {
    match body {
        None => Ok(Fields::empty()),
        Some(Value::Object(map)) => Ok(Fields {
            map: Some(map),
            details: Details::new(),
        }),
        Some(_) => Err(Error::InvalidJson("The body must be a JSON object".into())),
    }
}

impl<'a> Fields<'a> {
    fn empty() -> Self {
        Fields {
            map: None,
            details: Details::new(),
        }
    }

    /// The raw value of `name`: absent, null or a value.
    pub(crate) fn raw(&self, name: &str) -> Field<&'a Value> {
        match self.map.and_then(|m| m.get(name)) {
            None => Field::Absent,
            Some(Value::Null) => Field::Null,
            Some(v) => Field::Value(v),
        }
    }

    pub(crate) fn add(&mut self, field: &str, phrase: impl Into<String>) {
        self.details.add(field, phrase);
    }

    /// A string that may be null.
    pub(crate) fn string(&mut self, name: &str) -> Field<String> {
        match self.raw(name) {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(Value::String(s)) => Field::Value(s.clone()),
            Field::Value(_) => {
                self.add(name, "must be a string");
                Field::Absent
            }
        }
    }

    /// `true` or `false`, or absent (`None`); null or anything else is
    /// "must be true or false".
    pub(crate) fn boolean(&mut self, name: &str) -> Option<bool> {
        match self.raw(name) {
            Field::Absent => None,
            Field::Value(Value::Bool(b)) => Some(*b),
            Field::Null | Field::Value(_) => {
                self.add(name, "must be true or false");
                None
            }
        }
    }

    /// A flag: absent or null is `false`; anything but `true` or `false`
    /// is "must be true or false".
    pub(crate) fn flag(&mut self, name: &str) -> bool {
        match self.raw(name) {
            Field::Absent | Field::Null => false,
            Field::Value(_) => self.boolean(name).unwrap_or(false),
        }
    }

    /// A whole number that may be null.
    pub(crate) fn integer(&mut self, name: &str) -> Field<i64> {
        match self.raw(name) {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(v) => match v.as_i64() {
                Some(n) => Field::Value(n),
                None => {
                    match v.as_f64() {
                        Some(f) if f.fract() == 0.0 && f.is_finite() => {
                            return Field::Value(f.clamp(i64::MIN as f64, i64::MAX as f64) as i64);
                        }
                        _ => self.add(name, "must be a whole number"),
                    }
                    Field::Absent
                }
            },
        }
    }

    /// A `YYYY-MM-DD` date that may be null; anything else is "is not a date".
    pub(crate) fn date(&mut self, name: &str) -> Field<Date> {
        match self.raw(name) {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(Value::String(s)) if s.is_empty() => Field::Null,
            Field::Value(Value::String(s)) => match crate::time::parse_date(s) {
                Some(d) => Field::Value(d),
                None => {
                    self.add(name, "is not a date (YYYY-MM-DD)");
                    Field::Absent
                }
            },
            Field::Value(_) => {
                self.add(name, "is not a date (YYYY-MM-DD)");
                Field::Absent
            }
        }
    }

    /// An RFC 3339 date-time that may be null (an empty string is null);
    /// anything else is "is not a date-time".
    pub(crate) fn timestamp(&mut self, name: &str) -> Field<jiff::Timestamp> {
        match self.raw(name) {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(Value::String(s)) if s.is_empty() => Field::Null,
            Field::Value(Value::String(s)) => match crate::time::parse_timestamp(s) {
                Some(t) => Field::Value(t),
                None => {
                    self.add(
                        name,
                        "is not a date-time (RFC 3339, such as 2026-03-01T09:00:00Z)",
                    );
                    Field::Absent
                }
            },
            Field::Value(_) => {
                self.add(
                    name,
                    "is not a date-time (RFC 3339, such as 2026-03-01T09:00:00Z)",
                );
                Field::Absent
            }
        }
    }

    /// An ID that may be null; a value that is not an ID is a 422 on the field.
    pub(crate) fn id(&mut self, name: &str) -> Field<Id> {
        match self.raw(name) {
            Field::Absent => Field::Absent,
            Field::Null => Field::Null,
            Field::Value(Value::String(s)) => match Id::parse(s) {
                Some(id) => Field::Value(id),
                None => {
                    self.add(name, "is not an ID");
                    Field::Absent
                }
            },
            Field::Value(_) => {
                self.add(name, "is not an ID");
                Field::Absent
            }
        }
    }

    /// Ends reading: the collected mistakes as one 422, if any.
    pub(crate) fn finish(self) -> Result<()> {
        self.details.into_validation()
    }
}

/// An enumeration the API writes as a word: the enum with its words
/// (`as_str`, `parse`, `WORDS`), serialised as the word in every format
/// (a stored record that holds one keeps the bytes of a string).
macro_rules! words {
    ($(#[$meta:meta])* pub enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $word:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let word = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                $name::parse(&word).ok_or_else(|| {
                    serde::de::Error::unknown_variant(&word, $name::WORDS)
                })
            }
        }

        impl $name {
            /// Every value, in the vocabulary's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];
            #[allow(dead_code)]
            pub(crate) const WORDS: &'static [&'static str] = &[$($word,)+];

            /// The word the API writes.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The value `word` names, if any.
            #[must_use]
            pub fn parse(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use words;

#[cfg(test)]
mod tests {

    /// A word enum is its word in JSON and in a stored record (postcard),
    /// byte for byte what the string was, so a stored field may become one
    /// without a migration; an unknown word is refused.
    #[test]
    fn word_enums_are_their_words_in_every_format() {
        use crate::resources::ai::ProviderKind;
        let kind = ProviderKind::VendorB;
        assert_eq!(serde_json::to_string(&kind).unwrap(), "\"vendor_b\"");
        assert_eq!(
            postcard::to_allocvec(&kind).unwrap(),
            postcard::to_allocvec("vendor_b").unwrap()
        );
        let stored = postcard::to_allocvec("mock").unwrap();
        assert_eq!(
            postcard::from_bytes::<ProviderKind>(&stored).unwrap(),
            ProviderKind::Mock
        );
        assert!(serde_json::from_str::<ProviderKind>("\"vendor_c\"").is_err());
    }
    use super::*;
    use serde_json::json;

    #[test]
    fn absent_null_and_values_stay_apart() {
        let body = json!({"task": {"title": "a", "start_on": null, "deadline_on": "2026-01-02"}});
        let mut f = record(Some(&body), "task").unwrap();
        assert_eq!(f.string("title"), Field::Value("a".to_owned()));
        assert_eq!(f.date("start_on"), Field::Null);
        assert_eq!(
            f.date("deadline_on"),
            Field::Value("2026-01-02".parse().unwrap())
        );
        assert_eq!(f.date("expires_on"), Field::Absent);
        assert!(f.finish().is_ok());
    }

    #[test]
    fn wrong_types_are_422_on_the_field() {
        let body = json!({"task": {"title": 5, "start_on": "soon", "task_list_id": "x", "position": "top"}});
        let mut f = record(Some(&body), "task").unwrap();
        f.string("title");
        f.date("start_on");
        f.id("task_list_id");
        f.integer("position");
        let err = f.finish().unwrap_err();
        assert_eq!(err.status(), 422);
        let d = err.details().unwrap();
        for field in ["title", "start_on", "task_list_id", "position"] {
            assert!(d.has(field), "{field}");
        }
    }

    #[test]
    fn fields_write_null_and_values_and_refuse_to_write_absent() {
        #[derive(Serialize)]
        struct Change {
            #[serde(skip_serializing_if = "Field::is_absent")]
            left: Field<String>,
            #[serde(skip_serializing_if = "Field::is_absent")]
            cleared: Field<String>,
            #[serde(skip_serializing_if = "Field::is_absent")]
            set: Field<Date>,
        }
        let change = Change {
            left: Field::Absent,
            cleared: Field::Null,
            set: Field::Value("2026-01-02".parse().unwrap()),
        };
        assert_eq!(
            serde_json::to_value(&change).unwrap(),
            json!({"cleared": null, "set": "2026-01-02"})
        );
        assert!(serde_json::to_value(Field::<String>::Absent).is_err());
    }

    #[test]
    fn booleans_and_flags() {
        let body = json!({"r": {"t": true, "n": null, "s": "yes", "f": false}});
        let mut f = record(Some(&body), "r").unwrap();
        assert_eq!(f.boolean("t"), Some(true));
        assert_eq!(f.boolean("absent"), None);
        assert!(!f.flag("n") && !f.flag("absent") && !f.flag("f"));
        assert!(f.details.is_empty());
        assert_eq!(f.boolean("n"), None);
        assert!(!f.flag("s"));
        let err = f.finish().unwrap_err();
        let d = err.details().unwrap();
        assert!(d.has("n") && d.has("s"));
    }

    #[test]
    fn a_body_that_is_not_an_object_is_400() {
        for body in [json!([1]), json!("x"), json!({"task": [1]})] {
            let err = record(Some(&body), "task").err().unwrap();
            assert_eq!((err.status(), err.code()), (400, "invalid_json"));
        }
        assert!(record(None, "task").is_ok());
    }
}
