//! The nested rows of PersonFields (document 3, "Row rules for every
//! array"): a row with `id` changes that row, a row without adds one,
//! `_destroy: true` removes one, rows not sent are kept. An `id` that is
//! not this person's is 422 on that row (removing one already gone is
//! fine); an `id` sent twice is 422 on the later row.
//!
//! A row's mistakes are keyed `FIELD[INDEX].NAME`, the index counting the
//! rows of the request from 0 (`key_dates[2].day`), or `FIELD[INDEX]` for
//! the row as a whole (docs/api.md, "People"). A field the spec names the
//! key of (a position's `title`, `company_id` and `company_name`) is keyed
//! by that name alone, and its phrase says which row it was.

use serde_json::{Map, Value};

use crate::error::Details;
use crate::ids::Id;

/// One row of a request.
#[derive(Debug)]
pub(crate) struct SentRow<'a> {
    /// Its place in the request's array, from 0.
    pub(crate) index: usize,
    /// The stored row it changes or removes.
    pub(crate) id: Option<Id>,
    /// `_destroy: true`.
    pub(crate) destroy: bool,
    /// Its other fields.
    pub(crate) fields: &'a Map<String, Value>,
}

/// The key of a row's field in `details`: `key_dates[2].day`.
pub(crate) fn key(field: &str, index: usize, name: &str) -> String {
    if name.is_empty() {
        format!("{field}[{index}]")
    } else {
        format!("{field}[{index}].{name}")
    }
}

/// Reads the array of rows `value` sent as `field`, with the mistakes of
/// its shape in `details` (rows with mistakes are left out).
pub(crate) fn read<'a>(field: &str, value: &'a Value, details: &mut Details) -> Vec<SentRow<'a>> {
    let Value::Array(rows) = value else {
        details.add(field, "must be an array of rows");
        return Vec::new();
    };
    let mut seen: Vec<Id> = Vec::new();
    let mut out = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let Value::Object(fields) = row else {
            details.add(key(field, index, ""), "must be an object");
            continue;
        };
        let id = match fields.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => match Id::parse(s) {
                Some(id) => Some(id),
                None => {
                    details.add(key(field, index, "id"), "is not an ID");
                    continue;
                }
            },
            Some(_) => {
                details.add(key(field, index, "id"), "is not an ID");
                continue;
            }
        };
        let destroy = match fields.get("_destroy") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                details.add(key(field, index, "_destroy"), "must be true or false");
                continue;
            }
        };
        if let Some(id) = id {
            if seen.contains(&id) {
                details.add(key(field, index, "id"), "is sent twice");
                continue;
            }
            seen.push(id);
        }
        out.push(SentRow {
            index,
            id,
            destroy,
            fields,
        });
    }
    out
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
/// removed as sent, then the new rows in the request's order. `apply`
/// turns a sent row (and the stored values it changes) into the row's
/// values, `None` for a new row that is ignored, or its mistakes keyed by
/// field name.
pub(crate) fn merge<T: Clone + PartialEq>(
    field: &str,
    bare: &[&str],
    stored: &[(Id, T)],
    sent: &[SentRow<'_>],
    details: &mut Details,
    mut apply: impl FnMut(Option<&T>, &SentRow<'_>) -> Result<Option<T>, Vec<(&'static str, String)>>,
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
    let mut refuse = |row: &SentRow<'_>, mistakes: Vec<(&'static str, String)>| {
        for (name, phrase) in mistakes {
            if bare.contains(&name) {
                details.add(name, format!("{phrase} ({})", key(field, row.index, "")));
            } else {
                details.add(key(field, row.index, name), phrase);
            }
        }
    };
    for row in sent {
        match row.id {
            Some(id) => {
                let Some(at) = stored.iter().position(|(stored_id, _)| *stored_id == id) else {
                    // Removing a row already gone is fine; naming another's is not.
                    if !row.destroy {
                        refuse(row, vec![("id", "is not a row of this person".to_owned())]);
                    }
                    continue;
                };
                if row.destroy {
                    rows[at] = None;
                    continue;
                }
                match apply(Some(&stored[at].1), row) {
                    Ok(Some(values)) => {
                        let changed = values != stored[at].1;
                        rows[at] = Some(Merged {
                            id: Some(id),
                            values,
                            changed,
                            index: Some(row.index),
                        });
                    }
                    Ok(None) => {}
                    Err(mistakes) => refuse(row, mistakes),
                }
            }
            None if row.destroy => {}
            None => match apply(None, row) {
                Ok(Some(values)) => added.push(Merged {
                    id: None,
                    values,
                    changed: true,
                    index: Some(row.index),
                }),
                Ok(None) => {}
                Err(mistakes) => refuse(row, mistakes),
            },
        }
    }
    rows.into_iter().flatten().chain(added).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Rows of a label alone: "" is refused, "skip" is ignored.
    fn apply(
        base: Option<&String>,
        row: &SentRow<'_>,
    ) -> Result<Option<String>, Vec<(&'static str, String)>> {
        match row.fields.get("label").and_then(Value::as_str) {
            Some("") => Err(vec![("label", "can't be blank".to_owned())]),
            Some("skip") if base.is_none() => Ok(None),
            Some(label) => Ok(Some(label.to_owned())),
            None => Ok(base.cloned()),
        }
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
        let sent = read("phone_numbers", &body, &mut details);
        let merged = merge("phone_numbers", &[], &stored, &sent, &mut details, apply);
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
        let sent = read("phone_numbers", &body, &mut details);
        let merged = merge("phone_numbers", &[], &stored, &sent, &mut details, apply);
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
        let sent = read("email_addresses", &body, &mut details);
        merge("email_addresses", &[], &stored, &sent, &mut details, apply);
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
        read("email_addresses", &json!({"label": "x"}), &mut details);
        assert!(details.has("email_addresses"));
    }

    #[test]
    fn a_field_the_spec_keys_is_keyed_by_name_and_names_its_row_in_the_phrase() {
        let body = json!([{"label": "ok"}, {"label": ""}]);
        let mut details = Details::new();
        let sent = read("positions", &body, &mut details);
        merge("positions", &["label"], &[], &sent, &mut details, apply);
        let said: Vec<(&str, &str)> = details
            .iter()
            .flat_map(|(k, phrases)| phrases.iter().map(move |p| (k, p.as_str())))
            .collect();
        assert_eq!(said, [("label", "can't be blank (positions[1])")]);
    }
}
