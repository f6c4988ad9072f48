//! A person's key dates (document 3, "KeyDate" and "Key date rows"): what
//! a row may say, how a sent row changes a stored one, and when a date
//! next falls.
//!
//! A row's `day`, `month` and `year` are whole numbers or whole numbers
//! written as strings; null or an empty string is none. A date needs a
//! kind of the vocabulary, a day and a month that make a real calendar day
//! (29 February with no year is one), a year from 1900 to this year when it
//! has one, and a label when its kind is `other`. A new row that says
//! nothing of day, month, year or label is ignored.

use jiff::civil::Date;

use super::input::KeyDateFields;
use super::rows::Mistake;
use crate::input::Field;
use crate::resources::vocabulary::KEY_DATE_KINDS;
use crate::text::squish;

/// The earliest year a key date may have.
pub(crate) const FIRST_YEAR: i16 = 1900;

/// A key date's values, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyDateValues {
    /// A key of the vocabulary's `key_date_kinds`.
    pub(crate) kind: String,
    /// Names an `other` date or adds to any other kind; squished, never blank.
    pub(crate) label: Option<String>,
    /// 1 to 31.
    pub(crate) day: i8,
    /// 1 to 12.
    pub(crate) month: i8,
    /// From [`FIRST_YEAR`] to this year.
    pub(crate) year: Option<i16>,
}

/// The mistakes of a row whose fields `mistyped` were sent with a type
/// they do not take.
pub(crate) fn type_mistakes(mistyped: &[&'static str]) -> Vec<Mistake> {
    mistyped
        .iter()
        .map(|&name| {
            let phrase = match name {
                "day" | "month" | "year" => "must be a whole number",
                _ => "must be a string",
            };
            (name, phrase.to_owned())
        })
        .collect()
}

/// How a sent key date row changes a stored one.
impl KeyDateFields {
    /// Whether a new row says nothing of day, month, year or label (it is
    /// then ignored).
    fn is_empty(&self) -> bool {
        let blank = |f: &Field<String>| match f {
            Field::Value(s) => squish(s).is_empty(),
            _ => true,
        };
        !matches!(self.day, Field::Value(_))
            && !matches!(self.month, Field::Value(_))
            && !matches!(self.year, Field::Value(_))
            && blank(&self.label)
    }

    /// The values of the stored row `base` (none for a new row) changed by
    /// this patch, checked against `today`; `Ok(None)` for a new row that
    /// is ignored.
    pub(crate) fn apply(
        self,
        base: Option<&KeyDateValues>,
        today: Date,
    ) -> Result<Option<KeyDateValues>, Vec<Mistake>> {
        if base.is_none() && self.is_empty() {
            return Ok(None);
        }
        let mut mistakes = Vec::new();
        let kind = self.kind.apply(base.map(|b| b.kind.clone()));
        let label = self
            .label
            .apply(base.and_then(|b| b.label.clone()))
            .map(|l| squish(&l))
            .filter(|l| !l.is_empty());
        let day = self.day.apply(base.map(|b| i64::from(b.day)));
        let month = self.month.apply(base.map(|b| i64::from(b.month)));
        let year = self.year.apply(base.and_then(|b| b.year.map(i64::from)));

        let kind = match kind.map(|k| squish(&k)).filter(|k| !k.is_empty()) {
            None => {
                mistakes.push(("kind", "can't be blank".to_owned()));
                None
            }
            Some(k) if KEY_DATE_KINDS.iter().any(|c| c.key == k) => Some(k),
            Some(_) => {
                let keys: Vec<&str> = KEY_DATE_KINDS.iter().map(|c| c.key).collect();
                mistakes.push(("kind", format!("is not one of {}", keys.join(", "))));
                None
            }
        };
        if kind.as_deref() == Some("other") && label.is_none() {
            mistakes.push(("label", "can't be blank for an other date".to_owned()));
        }
        let month = match month {
            None => {
                mistakes.push(("month", "can't be blank".to_owned()));
                None
            }
            Some(m @ 1..=12) => Some(m as i8),
            Some(_) => {
                mistakes.push(("month", "must be from 1 to 12".to_owned()));
                None
            }
        };
        let this_year = today.year();
        let year = match year {
            None => None,
            Some(y) if (i64::from(FIRST_YEAR)..=i64::from(this_year)).contains(&y) => {
                Some(y as i16)
            }
            Some(_) => {
                mistakes.push(("year", format!("must be from {FIRST_YEAR} to {this_year}")));
                None
            }
        };
        let day = match day {
            None => {
                mistakes.push(("day", "can't be blank".to_owned()));
                None
            }
            Some(d @ 1..=31) => Some(d as i8),
            Some(_) => {
                mistakes.push(("day", "must be from 1 to 31".to_owned()));
                None
            }
        };
        if let (Some(day), Some(month)) = (day, month) {
            // 29 February with no year is a date: a leap year stands in.
            let in_year = year.unwrap_or(2000);
            match Date::new(in_year, month, day) {
                Err(_) => mistakes.push(("day", format!("is not a day of month {month}"))),
                // A date with a year is a day that has happened: not one
                // later this year.
                Ok(date) if year.is_some() && date > today => {
                    mistakes.push(("year", "can't be in the future".to_owned()));
                }
                Ok(_) => {}
            }
        }
        match (kind, day, month, mistakes.is_empty()) {
            (Some(kind), Some(day), Some(month), true) => Ok(Some(KeyDateValues {
                kind,
                label,
                day,
                month,
                year,
            })),
            _ => Err(mistakes),
        }
    }
}

/// What a calendar calls a person's key date (the export's and the
/// calendar subscriptions' events): `Ada Lovelace's birthday`, the
/// kind's name in lower case (`anniversary`, `work anniversary`, ...);
/// for `other`, its label, or `key date` without one; a label on another
/// kind is added in brackets.
pub(crate) fn summary(person_name: &str, date: &super::KeyDate) -> String {
    let label = date
        .label
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let kind = KEY_DATE_KINDS
        .iter()
        .find(|k| k.key == date.kind)
        .map_or_else(|| date.kind.replace('_', " "), |k| k.label.to_lowercase());
    let what = match (date.kind.as_str(), label) {
        ("other", Some(label)) => label.to_owned(),
        ("other", None) => "key date".to_owned(),
        (_, Some(label)) => format!("{kind} ({label})"),
        (_, None) => kind,
    };
    format!("{}'s {what}", person_name.trim())
}

/// The first day on or after `from` that a date of `day`/`month` falls on:
/// 29 February falls on 1 March in a year without one.
pub(crate) fn next_occurrence(day: i8, month: i8, from: Date) -> Date {
    let on = |year: i16| {
        Date::new(year, month, day).unwrap_or_else(|_| {
            // Only 29 February is missing from some years.
            Date::new(year, 3, 1).unwrap_or(from)
        })
    };
    let this_year = on(from.year());
    if this_year >= from {
        this_year
    } else {
        on(from.year().saturating_add(1))
    }
}

/// How many years a date of `year` has on `occurrence` (an anniversary's
/// count, an age on a birthday).
pub(crate) fn years_on(year: Option<i16>, occurrence: Date) -> Option<i16> {
    year.map(|y| occurrence.year() - y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::people::parse::{Reader, RowFields};
    use serde_json::{Value, json};

    fn patch(row: Value) -> (KeyDateFields, Vec<Mistake>) {
        let row = row.as_object().cloned().unwrap_or_default();
        let mut reader = Reader::new(&row);
        let fields = KeyDateFields::read(&mut reader);
        (fields, type_mistakes(&reader.mistyped))
    }

    fn today() -> Date {
        "2026-11-24".parse().unwrap()
    }

    /// A new row's values, or the fields it is refused on.
    type Outcome = Result<Option<KeyDateValues>, Vec<&'static str>>;

    /// A new row: the values, or the fields it is refused on.
    fn new_row(row: Value) -> Outcome {
        let (p, read) = patch(row);
        if !read.is_empty() {
            return Err(read.into_iter().map(|(f, _)| f).collect());
        }
        p.apply(None, today())
            .map_err(|m| m.into_iter().map(|(f, _)| f).collect())
    }

    #[test]
    fn a_new_row_is_checked_field_by_field() {
        let ok = |day, month, year| {
            Ok(Some(KeyDateValues {
                kind: "birthday".into(),
                label: None,
                day,
                month,
                year,
            }))
        };
        let cases: Vec<(Value, Outcome)> = vec![
            (
                json!({"kind": "birthday", "day": 3, "month": 9, "year": 1990}),
                ok(3, 9, Some(1990)),
            ),
            (
                json!({"kind": "birthday", "day": "3", "month": " 09 ", "year": "1990"}),
                ok(3, 9, Some(1990)),
            ),
            (
                json!({"kind": "birthday", "day": 3.0, "month": 9, "year": null}),
                ok(3, 9, None),
            ),
            (
                json!({"kind": "birthday", "day": 3, "month": 9, "year": ""}),
                ok(3, 9, None),
            ),
            (
                json!({"kind": "birthday", "day": 29, "month": 2}),
                ok(29, 2, None),
            ),
            (
                json!({"kind": "birthday", "day": 29, "month": 2, "year": 2024}),
                ok(29, 2, Some(2024)),
            ),
            (
                json!({"kind": "birthday", "day": 29, "month": 2, "year": 2023}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "birthday", "day": 31, "month": 4}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "birthday", "day": 0, "month": 4}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 13}),
                Err(vec!["month"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 1, "year": 1899}),
                Err(vec!["year"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 1, "year": 2027}),
                Err(vec!["year"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 1, "year": 2026}),
                ok(1, 1, Some(2026)),
            ),
            // Today is 24 November 2026: today is fine, tomorrow is not.
            (
                json!({"kind": "first_met", "day": 24, "month": 11, "year": 2026}),
                Ok(Some(KeyDateValues {
                    kind: "first_met".into(),
                    label: None,
                    day: 24,
                    month: 11,
                    year: Some(2026),
                })),
            ),
            (
                json!({"kind": "birthday", "day": 25, "month": 11, "year": 2026}),
                Err(vec!["year"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 12, "year": "2026"}),
                Err(vec!["year"]),
            ),
            (
                json!({"kind": "birthday", "day": 1, "month": 12, "year": 2025}),
                ok(1, 12, Some(2025)),
            ),
            (
                json!({"kind": "birthday", "day": 1.5, "month": 1}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "birthday", "day": "first", "month": 1}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "birthday", "day": true, "month": 1}),
                Err(vec!["day"]),
            ),
            (
                json!({"kind": "wedding", "day": 1, "month": 1}),
                Err(vec!["kind"]),
            ),
            (json!({"day": 1, "month": 1}), Err(vec!["kind"])),
            (json!({"kind": "birthday", "month": 1}), Err(vec!["day"])),
            (json!({"kind": "birthday", "day": 1}), Err(vec!["month"])),
            (
                json!({"kind": "other", "day": 1, "month": 1}),
                Err(vec!["label"]),
            ),
            (
                json!({"kind": "other", "day": 1, "month": 1, "label": "  "}),
                Err(vec!["label"]),
            ),
            // Nothing of day, month, year or label: ignored.
            (json!({"kind": "birthday"}), Ok(None)),
            (json!({"kind": "other", "label": "", "day": null}), Ok(None)),
            (json!({}), Ok(None)),
        ];
        for (row, expected) in cases {
            assert_eq!(new_row(row.clone()), expected, "{row}");
        }
    }

    #[test]
    fn a_label_is_squished_and_an_other_date_keeps_it() {
        let values =
            new_row(json!({"kind": "other", "label": "  Name   day ", "day": 2, "month": 5}))
                .unwrap()
                .unwrap();
        assert_eq!(values.label.as_deref(), Some("Name day"));
    }

    #[test]
    fn a_sent_row_changes_only_what_it_names_and_is_checked_whole() {
        let stored = KeyDateValues {
            kind: "anniversary".into(),
            label: Some("Wedding".into()),
            day: 31,
            month: 3,
            year: Some(2010),
        };
        let (p, _) = patch(json!({"year": 2012}));
        let changed = p.apply(Some(&stored), today()).unwrap().unwrap();
        assert_eq!(
            (changed.day, changed.month, changed.year),
            (31, 3, Some(2012))
        );
        assert_eq!(changed.label.as_deref(), Some("Wedding"));
        // 31 March moved to April is no day.
        let (p, _) = patch(json!({"month": 4}));
        let refused = p.apply(Some(&stored), today()).unwrap_err();
        assert_eq!(refused[0].0, "day");
        // A stored row is never ignored, and null clears the year.
        let (p, _) = patch(json!({"year": null}));
        assert_eq!(p.apply(Some(&stored), today()).unwrap().unwrap().year, None);
    }

    #[test]
    fn the_next_occurrence_and_the_years() {
        let day = |s: &str| s.parse::<Date>().unwrap();
        let cases = [
            ((3, 9), "2026-11-24", "2027-09-03"),
            ((24, 11), "2026-11-24", "2026-11-24"),
            ((25, 11), "2026-11-24", "2026-11-25"),
            ((29, 2), "2026-11-24", "2027-03-01"),
            ((29, 2), "2027-11-24", "2028-02-29"),
            ((29, 2), "2028-02-29", "2028-02-29"),
            ((29, 2), "2026-03-01", "2026-03-01"),
            ((31, 12), "2026-12-31", "2026-12-31"),
        ];
        for ((d, m), from, expected) in cases {
            assert_eq!(
                next_occurrence(d, m, day(from)),
                day(expected),
                "{d}/{m} from {from}"
            );
        }
        assert_eq!(years_on(Some(1990), day("2027-09-03")), Some(37));
        assert_eq!(years_on(None, day("2027-09-03")), None);
    }
}
