//! Time as the API writes it (document 1, convention 4): timestamps in UTC
//! shaped `YYYY-MM-DDTHH:MM:SS.mmmZ`, dates `YYYY-MM-DD`, and "today" in the
//! owner's zone.

mod words;
mod zones;

pub use words::{
    DEFAULT_TIME_OF_DAY, DateWordsError, MomentWordsError, parse_date_words, parse_span_words,
    read_date_words, read_moment_words,
};
pub use zones::{Zone, ZoneInfo, zones};

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::fmt::temporal::DateTimePrinter;

/// Formats an instant as the API writes it: `2026-01-01T00:00:00.000Z`.
pub fn format_timestamp(t: Timestamp) -> String {
    const PRINTER: DateTimePrinter = DateTimePrinter::new().precision(Some(3));
    PRINTER.timestamp_to_string(&to_millis(t))
}

/// A date in the basic form iCalendar and vCard write (`20260331`).
pub(crate) fn basic_date(date: Date) -> String {
    format!("{:04}{:02}{:02}", date.year(), date.month(), date.day())
}

/// An instant in UTC, to the second, in the basic form iCalendar and
/// vCard write (`20260331T093000Z`).
pub(crate) fn basic_utc(t: Timestamp) -> String {
    let t = jiff::tz::TimeZone::UTC.to_datetime(t);
    format!(
        "{}T{:02}{:02}{:02}Z",
        basic_date(t.date()),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// An instant cut to whole milliseconds, as the store keeps them.
pub fn to_millis(t: Timestamp) -> Timestamp {
    Timestamp::from_millisecond(t.as_millisecond()).unwrap_or(t)
}

/// Parses an ISO 8601 instant with `Z` or a UTC offset; `None` for anything
/// else (a date alone, a local time without an offset).
pub fn parse_timestamp(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    // jiff accepts a lower-case `z` and a space as separator too; the API
    // takes the RFC 3339 shape.
    if s.len() < 20 || s.as_bytes().get(10) != Some(&b'T') {
        return None;
    }
    s.parse::<Timestamp>().ok()
}

/// Parses a `YYYY-MM-DD` date; `None` for anything else.
pub fn parse_date(s: &str) -> Option<Date> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    if !b
        .iter()
        .enumerate()
        .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
    {
        return None;
    }
    s.parse::<Date>().ok()
}

/// The number of whole days from `a` to `b` (negative when `b` is earlier).
pub fn days_between(a: Date, b: Date) -> i64 {
    a.duration_until(b).as_secs() / 86_400
}

/// `date` plus `days` (which may be negative), clamped to jiff's range.
pub fn add_days(date: Date, days: i64) -> Date {
    jiff::Span::new()
        .try_days(days)
        .ok()
        .and_then(|span| date.checked_add(span).ok())
        .unwrap_or(if days < 0 { Date::MIN } else { Date::MAX })
}

/// Serde for instants in the API's shape.
pub mod serde_timestamp {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    pub fn serialize<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::format_timestamp(*t))
    }

    /// Reads any RFC 3339 instant.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }

    /// The same for `Option<Timestamp>`, null for `None`.
    pub mod option {
        use jiff::Timestamp;
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes the instant or null.
        pub fn serialize<S: Serializer>(t: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
            match t {
                // `serialize_some`: JSON writes the string alone; a compact
                // (postcard) record marks it present, as reading expects.
                Some(t) => s.serialize_some(&super::super::format_timestamp(*t)),
                None => s.serialize_none(),
            }
        }

        /// Reads an RFC 3339 instant or null.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
            let s = Option::<std::borrow::Cow<'de, str>>::deserialize(d)?;
            s.map(|s| s.parse().map_err(serde::de::Error::custom))
                .transpose()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_any_number_of_days_clamps_and_never_panics() {
        let d: Date = "2026-03-11".parse().unwrap();
        assert_eq!(add_days(d, 1), "2026-03-12".parse::<Date>().unwrap());
        for (days, edge) in [
            (i64::MAX, Date::MAX),
            (100_000_000, Date::MAX),
            (i64::MIN, Date::MIN),
            (-100_000_000, Date::MIN),
        ] {
            assert_eq!(add_days(d, days), edge, "{days}");
        }
    }

    #[test]
    fn timestamps_are_written_with_milliseconds_and_z() {
        let t: Timestamp = "2026-01-01T01:02:03.4567+01:00".parse().unwrap();
        assert_eq!(format_timestamp(t), "2026-01-01T00:02:03.456Z");
        assert_eq!(format_timestamp(to_millis(t)), "2026-01-01T00:02:03.456Z");
    }

    #[test]
    fn instants_need_z_or_an_offset() {
        for (text, ok) in [
            ("2026-01-01T00:00:00Z", true),
            ("2026-01-01T00:00:00.123Z", true),
            ("2026-01-01T00:00:00+05:30", true),
            ("2026-01-01T00:00:00-08:00", true),
            ("2026-01-01T00:00:00", false),
            ("2026-01-01", false),
            ("yesterday", false),
            ("", false),
        ] {
            assert_eq!(parse_timestamp(text).is_some(), ok, "{text}");
        }
    }

    #[test]
    fn dates_are_exactly_yyyy_mm_dd() {
        for (text, ok) in [
            ("2026-02-28", true),
            ("2024-02-29", true),
            ("2026-02-29", false),
            ("2026-2-28", false),
            ("2026-02-28T00:00:00Z", false),
            ("+02026-02-28", false),
            ("20260228", false),
        ] {
            assert_eq!(parse_date(text).is_some(), ok, "{text}");
        }
    }
}
