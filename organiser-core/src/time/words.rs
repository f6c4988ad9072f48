//! Dates as people type them (the CLI's `--start tomorrow`): `YYYY-MM-DD`,
//! `today`, `tomorrow`, `yesterday`, weekday names (the next such day after
//! today), `+3d`, `+2w`, `-1d`, `in 2 weeks`, `in a month`, `next week`
//! (Monday of next week), `next month` (its first day), and a day of a
//! month by name (`dec 15`, `15 December`, `15 dec 2027`: the next one
//! from today when no year is given), relative to today in the owner's
//! zone. A date written with numbers and slashes or dots is read only when
//! it cannot be taken two ways (`25/12`); `12/11` is refused with the
//! forms that say it plainly. And spans of days (`week`, `next week`,
//! `month`, `next month`) for views such as the calendar; and moments
//! (`--remind "tomorrow 9:00"`): date words with a time of day.

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp, ToSpan};

use super::{add_days, parse_date, parse_timestamp};

const WEEKDAYS: [(Weekday, &[&str]); 7] = [
    (Weekday::Monday, &["monday", "mon"]),
    (Weekday::Tuesday, &["tuesday", "tue", "tues"]),
    (Weekday::Wednesday, &["wednesday", "wed"]),
    (Weekday::Thursday, &["thursday", "thu", "thur", "thurs"]),
    (Weekday::Friday, &["friday", "fri"]),
    (Weekday::Saturday, &["saturday", "sat"]),
    (Weekday::Sunday, &["sunday", "sun"]),
];

const MONTHS: [&[&str]; 12] = [
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sep", "sept"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

/// Why typed words name no date, in words for the person who typed them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateWordsError {
    /// Words that name no date.
    NotADate,
    /// Numbers that could be read as two dates (`12/11`): the two, so the
    /// person can say which.
    Ambiguous(Date, Date),
}

impl std::fmt::Display for DateWordsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DateWordsError::NotADate => f.write_str(
                "is not a date: use YYYY-MM-DD, today, tomorrow, a weekday, dec 15, +3d, in 2 weeks or next week",
            ),
            DateWordsError::Ambiguous(a, b) => write!(
                f,
                "could be {} or {}: write {} or {}",
                a.strftime("%-d %B %Y"),
                b.strftime("%-d %B %Y"),
                a.strftime("%-d %b"),
                b.strftime("%-d %b"),
            ),
        }
    }
}

/// The date `text` names, counting from `today`; `None` when it names none.
pub fn parse_date_words(text: &str, today: Date) -> Option<Date> {
    read_date_words(text, today).ok()
}

/// The date `text` names, counting from `today`, or why it names none.
///
/// # Errors
///
/// [`DateWordsError::NotADate`] for words that name no date,
/// [`DateWordsError::Ambiguous`] for numbers that name two.
pub fn read_date_words(text: &str, today: Date) -> Result<Date, DateWordsError> {
    let text = squished_lower(text);
    if let Some(date) = parse_date(&text) {
        return Ok(date);
    }
    relative(&text, today)
        .or_else(|| day_of_month(&text, today))
        .map_or_else(|| numeric(&text, today), Ok)
}

/// The time of day a moment typed without one is at (`tomorrow`:
/// tomorrow at 09:00).
pub const DEFAULT_TIME_OF_DAY: Time = Time::constant(9, 0, 0, 0);

/// Why typed words name no moment, in words for the person who typed
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MomentWordsError {
    /// Words that name no date and time.
    NotAMoment,
    /// Numbers that could be read as two dates (`12/11 9:00`): the two.
    Ambiguous(Date, Date),
}

impl std::fmt::Display for MomentWordsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MomentWordsError::NotAMoment => f.write_str(
                "is not a date and time: use date words with a time, such as tomorrow 9:00, friday 2:30pm, dec 15 18:00 or 2026-04-01 09:30 (9:00 when no time is given), or an instant such as 2026-04-01T09:00:00Z",
            ),
            MomentWordsError::Ambiguous(a, b) => {
                std::fmt::Display::fmt(&DateWordsError::Ambiguous(*a, *b), f)
            }
        }
    }
}

/// The instant `text` names, in the owner's `zone`, counting from `today`
/// (the owner's today): an RFC 3339 instant (`2026-04-01T09:00:00Z`), or
/// date words ([`read_date_words`]) with a time of day before or after
/// them (`tomorrow 9:00`, `tomorrow at 9am`, `9:30pm friday`, `dec 15
/// 18:00`). Without date words the day is today (`14:30`); without a
/// time, [`DEFAULT_TIME_OF_DAY`]. A time is `H:MM` or `HH:MM` (24 hours),
/// `9am`, `9:30 pm` (12 hours), `noon` or `midnight`. A time that the
/// zone skips (a clock change) is read as the clock shows it after the
/// change; one it repeats, as the first.
///
/// # Errors
///
/// [`MomentWordsError::NotAMoment`] for words that name no moment,
/// [`MomentWordsError::Ambiguous`] for a date that reads two ways.
pub fn read_moment_words(
    text: &str,
    today: Date,
    zone: &TimeZone,
) -> Result<Timestamp, MomentWordsError> {
    if let Some(instant) = parse_timestamp(text) {
        return Ok(instant);
    }
    let text = squished_lower(text);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let (time, rest) = split_time(&words).unwrap_or((DEFAULT_TIME_OF_DAY, &words[..]));
    let day = if rest.is_empty() {
        if words.is_empty() {
            return Err(MomentWordsError::NotAMoment);
        }
        today
    } else {
        read_date_words(&rest.join(" "), today).map_err(|e| match e {
            DateWordsError::NotADate => MomentWordsError::NotAMoment,
            DateWordsError::Ambiguous(a, b) => MomentWordsError::Ambiguous(a, b),
        })?
    };
    zone.to_ambiguous_timestamp(day.to_datetime(time))
        .compatible()
        .map_err(|_| MomentWordsError::NotAMoment)
}

/// The time of day at the end of `words` (or at their start), with the
/// words left for the date: `at` beside the time is dropped.
fn split_time<'w, 'a>(words: &'w [&'a str]) -> Option<(Time, &'w [&'a str])> {
    let n = words.len();
    // At the end: `... 9:30`, `... 9:30 pm`, `... at 9am`.
    for take in [2, 1] {
        if n >= take
            && let Some(time) = time_of_day(&words[n - take..].concat())
        {
            let mut rest = &words[..n - take];
            if rest.last() == Some(&"at") {
                rest = &rest[..rest.len() - 1];
            }
            return Some((time, rest));
        }
    }
    // At the start: `9am tomorrow`, `at 9:30 pm friday`.
    let words = match words.first() {
        Some(&"at") => &words[1..],
        _ => words,
    };
    for take in [2, 1] {
        if words.len() >= take
            && let Some(time) = time_of_day(&words[..take].concat())
        {
            let mut rest = &words[take..];
            if rest.first() == Some(&"on") {
                rest = &rest[1..];
            }
            return Some((time, rest));
        }
    }
    None
}

/// `9:00`, `09:30`, `21:15`, `9am`, `9:30pm`, `12am` (midnight), `noon`,
/// `midnight`; `None` for anything else (a bare number is no time: `15`
/// may be a day).
fn time_of_day(word: &str) -> Option<Time> {
    match word {
        "noon" | "midday" => return Some(Time::constant(12, 0, 0, 0)),
        "midnight" => return Some(Time::midnight()),
        _ => {}
    }
    let word = word.replace('.', "");
    let (clock, half) = match word.strip_suffix("am") {
        Some(clock) => (clock, Some(0)),
        None => match word.strip_suffix("pm") {
            Some(clock) => (clock, Some(12)),
            None => (word.as_str(), None),
        },
    };
    let (hour, minute) = match clock.split_once(':') {
        Some((h, m)) if m.len() == 2 => (h, m),
        Some(_) => return None,
        None if half.is_some() => (clock, "00"),
        None => return None,
    };
    if hour.is_empty()
        || hour.len() > 2
        || !hour
            .bytes()
            .chain(minute.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let (hour, minute): (i8, i8) = (hour.parse().ok()?, minute.parse().ok()?);
    let hour = match half {
        // 12am is midnight, 12pm noon.
        Some(offset) if (1..=12).contains(&hour) => hour % 12 + offset,
        Some(_) => return None,
        None => hour,
    };
    Time::new(hour, minute, 0, 0).ok()
}

/// The days a span of words names (`week`: today and the six days after
/// it; `next week`: its Monday to Sunday; `month` and `next month`: the
/// whole month), counting from `today`.
pub fn parse_span_words(text: &str, today: Date) -> Option<(Date, Date)> {
    let text = squished_lower(text);
    match text.as_str() {
        "week" | "this week" => Some((today, add_days(today, 6))),
        "next week" => {
            let monday = today.nth_weekday(1, Weekday::Monday).ok()?;
            Some((monday, add_days(monday, 6)))
        }
        "month" | "this month" => Some((today.first_of_month(), today.last_of_month())),
        "next month" => {
            let next = today.first_of_month().checked_add(1.month()).ok()?;
            Some((next, next.last_of_month()))
        }
        _ => None,
    }
}

fn squished_lower(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Words counted from today: `today`, weekdays, `+3d`, `in 2 weeks`.
fn relative(text: &str, today: Date) -> Option<Date> {
    match text {
        "today" | "tod" => return Some(today),
        "tomorrow" | "tom" | "tmr" => return Some(add_days(today, 1)),
        "yesterday" => return Some(add_days(today, -1)),
        "next week" => return today.nth_weekday(1, Weekday::Monday).ok(),
        "next month" => {
            let next = today.checked_add(1.month()).ok()?;
            return next.first_of_month().into();
        }
        _ => {}
    }
    let name = text.strip_prefix("next ").unwrap_or(text);
    if let Some((weekday, _)) = WEEKDAYS.iter().find(|(_, names)| names.contains(&name)) {
        return today.nth_weekday(1, *weekday).ok();
    }
    if let Some(rest) = text.strip_prefix("in ") {
        // "in 2 weeks", "in a month", "in 3 days".
        let (n, unit) = rest.split_once(' ')?;
        let n: i64 = match n {
            "a" | "an" | "one" => 1,
            n => n.parse().ok()?,
        };
        let unit = match unit.trim_end_matches('s') {
            "day" => 'd',
            "week" | "wk" => 'w',
            "month" | "mo" => 'm',
            "year" | "yr" => 'y',
            _ => return None,
        };
        return offset(today, n, unit);
    }
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let unit = rest.chars().last()?;
    let n: i64 = rest[..rest.len() - unit.len_utf8()].parse().ok()?;
    offset(today, n.checked_mul(sign)?, unit)
}

/// `today` plus `n` days, weeks, months or years; `None` past the
/// calendar jiff knows (years -9999 to 9999), never a panic.
fn offset(today: Date, n: i64, unit: char) -> Option<Date> {
    let span = match unit {
        'd' => Span::new().try_days(n),
        'w' => Span::new().try_weeks(n),
        'm' => Span::new().try_months(n),
        'y' => Span::new().try_years(n),
        _ => return None,
    };
    today.checked_add(span.ok()?).ok()
}

/// The number of the month `word` names.
fn month_named(word: &str) -> Option<i8> {
    let word = word.trim_end_matches('.');
    MONTHS
        .iter()
        .position(|names| names.contains(&word))
        .map(|i| i as i8 + 1)
}

/// `dec 15`, `december 15th`, `15 dec`, `15 december 2027`, `dec 15,
/// 2027`: without a year, the next such day from today.
fn day_of_month(text: &str, today: Date) -> Option<Date> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let day_of = |w: &str| -> Option<i8> {
        let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &w[digits.len()..];
        if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
            return None;
        }
        digits.parse().ok().filter(|d| (1..=31).contains(d))
    };
    let (month, day, year) = match words.as_slice() {
        [a, b] | [a, b, _] if month_named(a).is_some() => {
            (month_named(a)?, day_of(b)?, words.get(2))
        }
        [a, b] | [a, b, _] if month_named(b).is_some() => {
            (month_named(b)?, day_of(a)?, words.get(2))
        }
        _ => return None,
    };
    match year {
        Some(year) => Date::new(year.parse().ok()?, month, day).ok(),
        None => {
            let this = Date::new(today.year(), month, day).ok();
            match this {
                Some(d) if d >= today => Some(d),
                // Passed this year (or 29 February of another year): the
                // next one.
                _ => (1..=8).find_map(|n| Date::new(today.year() + n, month, day).ok()),
            }
        }
    }
}

/// `25/12`, `25.12.2026`, `12/25`: read when only one reading is a date;
/// refused, with both readings, when either could be the month.
fn numeric(text: &str, today: Date) -> Result<Date, DateWordsError> {
    let parts: Vec<&str> = text.split(['/', '.']).filter(|p| !p.is_empty()).collect();
    if !(2..=3).contains(&parts.len())
        || !parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(DateWordsError::NotADate);
    }
    let number = |p: &str| p.parse::<i16>().map_err(|_| DateWordsError::NotADate);
    let (a, b) = (number(parts[0])?, number(parts[1])?);
    let year = match parts.get(2) {
        Some(y) => Some(match number(y)? {
            y @ 0..=99 => 2000 + y,
            y => y,
        }),
        None => None,
    };
    let on = |month: i16, day: i16| -> Option<Date> {
        let (month, day) = (i8::try_from(month).ok()?, i8::try_from(day).ok()?);
        match year {
            Some(y) => Date::new(y, month, day).ok(),
            None => Date::new(today.year(), month, day)
                .ok()
                .filter(|d| *d >= today)
                .or_else(|| Date::new(today.year() + 1, month, day).ok()),
        }
    };
    match (on(b, a), on(a, b)) {
        (Some(x), Some(y)) if x != y => Err(DateWordsError::Ambiguous(x, y)),
        (Some(x), _) | (None, Some(x)) => Ok(x),
        (None, None) => Err(DateWordsError::NotADate),
    }
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
            // Issue 22: what a newcomer types on day one.
            ("in 2 weeks", Some("2026-03-25")),
            ("in a week", Some("2026-03-18")),
            ("in 3 days", Some("2026-03-14")),
            ("in 1 month", Some("2026-04-11")),
            ("in 2 years", Some("2028-03-11")),
            ("dec 15", Some("2026-12-15")),
            ("Dec 15", Some("2026-12-15")),
            ("15 dec", Some("2026-12-15")),
            ("15 December", Some("2026-12-15")),
            ("december 15th", Some("2026-12-15")),
            ("15 dec 2027", Some("2027-12-15")),
            ("dec 15, 2027", Some("2027-12-15")),
            ("mar 11", Some("2026-03-11")),
            ("mar 10", Some("2027-03-10")),
            ("feb 29", Some("2028-02-29")),
            ("feb 30", None),
            ("25/12", Some("2026-12-25")),
            ("12/25", Some("2026-12-25")),
            ("25.12.2027", Some("2027-12-25")),
            ("12/12", Some("2026-12-12")),
            ("12/11", None),
            ("1/2/2027", None),
            ("in soon", None),
        ];
        for (text, expected) in cases {
            let got = parse_date_words(text, today).map(|d| d.to_string());
            assert_eq!(got.as_deref(), expected, "{text}");
        }
    }

    #[test]
    fn an_ambiguous_date_is_refused_with_both_readings() {
        let today: Date = "2026-03-11".parse().unwrap();
        let said = read_date_words("12/11", today).unwrap_err().to_string();
        assert_eq!(
            said,
            "could be 12 November 2026 or 11 December 2026: write 12 Nov or 11 Dec"
        );
        assert_eq!(
            read_date_words("soon", today),
            Err(DateWordsError::NotADate)
        );
    }

    #[test]
    fn moments_people_type() {
        // 2026-03-11 is a Wednesday; Paris is at +01:00 until 29 March,
        // +02:00 after.
        let today: Date = "2026-03-11".parse().unwrap();
        let paris = TimeZone::get("Europe/Paris").unwrap();
        let cases = [
            ("tomorrow 9:00", Some("2026-03-12T08:00:00Z")),
            ("Tomorrow  at 9am", Some("2026-03-12T08:00:00Z")),
            ("9am tomorrow", Some("2026-03-12T08:00:00Z")),
            ("at 9 AM on friday", Some("2026-03-13T08:00:00Z")),
            ("tomorrow 09:30", Some("2026-03-12T08:30:00Z")),
            ("friday 2:30pm", Some("2026-03-13T13:30:00Z")),
            ("friday 2:30 p.m.", Some("2026-03-13T13:30:00Z")),
            ("14:30", Some("2026-03-11T13:30:00Z")),
            ("noon", Some("2026-03-11T11:00:00Z")),
            ("tomorrow midnight", Some("2026-03-11T23:00:00Z")),
            ("12am tomorrow", Some("2026-03-11T23:00:00Z")),
            ("12pm", Some("2026-03-11T11:00:00Z")),
            ("tomorrow", Some("2026-03-12T08:00:00Z")),
            ("+3d 18:00", Some("2026-03-14T17:00:00Z")),
            ("in 2 weeks 7:15", Some("2026-03-25T06:15:00Z")),
            ("dec 15 6pm", Some("2026-12-15T17:00:00Z")),
            ("15 dec 2027 at 08:00", Some("2027-12-15T07:00:00Z")),
            ("2026-04-01 9:00", Some("2026-04-01T07:00:00Z")),
            ("25/12 10:00", Some("2026-12-25T09:00:00Z")),
            // Skipped by the clock change: read after it (03:30 +02:00).
            ("2026-03-29 2:30", Some("2026-03-29T01:30:00Z")),
            ("2026-04-01T09:00:00Z", Some("2026-04-01T09:00:00Z")),
            ("2026-04-01T09:00:00+02:00", Some("2026-04-01T07:00:00Z")),
            ("", None),
            ("at", None),
            ("soon", None),
            ("tomorrow soon", None),
            ("tomorrow 25:00", None),
            ("tomorrow 9:60", None),
            ("tomorrow 9:5", None),
            ("13pm", None),
            ("0am", None),
            ("9", None),
            ("tomorrow 9", None),
            ("9:00 9:00", None),
            ("2026-02-30 9:00", None),
        ];
        for (text, expected) in cases {
            let got = read_moment_words(text, today, &paris).map(|t| t.to_string());
            assert_eq!(got.ok().as_deref(), expected, "{text}");
        }
    }

    #[test]
    fn a_moment_on_an_ambiguous_date_is_refused_with_both_readings() {
        let today: Date = "2026-03-11".parse().unwrap();
        let said = read_moment_words("12/11 9:00", today, &TimeZone::UTC)
            .unwrap_err()
            .to_string();
        assert_eq!(
            said,
            "could be 12 November 2026 or 11 December 2026: write 12 Nov or 11 Dec"
        );
        let said = read_moment_words("soon", today, &TimeZone::UTC)
            .unwrap_err()
            .to_string();
        assert!(said.starts_with("is not a date and time"), "{said}");
    }

    #[test]
    fn spans_of_days() {
        // 2026-03-11 is a Wednesday.
        let today: Date = "2026-03-11".parse().unwrap();
        let span = |t: &str| parse_span_words(t, today).map(|(a, b)| format!("{a}..{b}"));
        assert_eq!(span("week").as_deref(), Some("2026-03-11..2026-03-17"));
        assert_eq!(span("next week").as_deref(), Some("2026-03-16..2026-03-22"));
        assert_eq!(span("month").as_deref(), Some("2026-03-01..2026-03-31"));
        assert_eq!(
            span("Next  Month").as_deref(),
            Some("2026-04-01..2026-04-30")
        );
        assert_eq!(span("friday"), None);
    }
}
