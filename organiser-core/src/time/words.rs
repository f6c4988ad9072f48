//! Dates as people type them (the CLI's `--start tomorrow`): `YYYY-MM-DD`,
//! `today`, `tomorrow`, `yesterday`, weekday names (the next such day after
//! today), `+3d`, `+2w`, `-1d`, `next week` (Monday of next week) and `next
//! month` (its first day), relative to today in the owner's zone.

use jiff::civil::{Date, Weekday};
use jiff::{Span, ToSpan};

use super::{add_days, parse_date};

const WEEKDAYS: [(Weekday, &[&str]); 7] = [
    (Weekday::Monday, &["monday", "mon"]),
    (Weekday::Tuesday, &["tuesday", "tue", "tues"]),
    (Weekday::Wednesday, &["wednesday", "wed"]),
    (Weekday::Thursday, &["thursday", "thu", "thur", "thurs"]),
    (Weekday::Friday, &["friday", "fri"]),
    (Weekday::Saturday, &["saturday", "sat"]),
    (Weekday::Sunday, &["sunday", "sun"]),
];

/// The date `text` names, counting from `today`; `None` when it names none.
pub fn parse_date_words(text: &str, today: Date) -> Option<Date> {
    let text = text.trim().to_lowercase();
    if let Some(date) = parse_date(&text) {
        return Some(date);
    }
    match text.as_str() {
        "today" | "tod" => return Some(today),
        "tomorrow" | "tom" | "tmr" => return Some(add_days(today, 1)),
        "yesterday" => return Some(add_days(today, -1)),
        "next week" => {
            let monday = today.nth_weekday(1, Weekday::Monday).ok()?;
            return Some(monday);
        }
        "next month" => {
            let next = today.checked_add(1.month()).ok()?;
            return next.first_of_month().into();
        }
        _ => {}
    }
    let name = text.strip_prefix("next ").unwrap_or(&text);
    if let Some((weekday, _)) = WEEKDAYS.iter().find(|(_, names)| names.contains(&name)) {
        return today.nth_weekday(1, *weekday).ok();
    }
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let unit = rest.chars().last()?;
    let n: i64 = rest[..rest.len() - unit.len_utf8()].parse().ok()?;
    let n = n.checked_mul(sign)?;
    // An offset past the calendar jiff knows (years -9999 to 9999) is no
    // date: `None`, never a panic.
    let span = match unit {
        'd' => Span::new().try_days(n),
        'w' => Span::new().try_weeks(n),
        'm' => Span::new().try_months(n),
        _ => return None,
    };
    today.checked_add(span.ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_people_type() {
        // 2026-03-11 is a Wednesday.
        let today: Date = "2026-03-11".parse().unwrap();
        let cases = [
            ("2026-04-01", Some("2026-04-01")),
            ("today", Some("2026-03-11")),
            ("Tomorrow", Some("2026-03-12")),
            ("yesterday", Some("2026-03-10")),
            ("friday", Some("2026-03-13")),
            ("fri", Some("2026-03-13")),
            ("wednesday", Some("2026-03-18")),
            ("next monday", Some("2026-03-16")),
            ("next week", Some("2026-03-16")),
            ("next month", Some("2026-04-01")),
            ("+3d", Some("2026-03-14")),
            ("+2w", Some("2026-03-25")),
            ("-1d", Some("2026-03-10")),
            ("+1m", Some("2026-04-11")),
            ("+100000000d", None),
            ("+100000000w", None),
            ("+100000000m", None),
            ("-100000000d", None),
            ("+9223372036854775807d", None),
            ("-9223372036854775808w", None),
            ("+3000000d", None),
            ("soon", None),
            ("+d", None),
            ("2026-02-30", None),
            ("", None),
        ];
        for (text, expected) in cases {
            let got = parse_date_words(text, today).map(|d| d.to_string());
            assert_eq!(got.as_deref(), expected, "{text}");
        }
    }
}
