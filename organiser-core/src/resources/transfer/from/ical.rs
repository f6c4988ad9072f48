//! iCalendar files of tasks (EXTENSIONS.md §5, "Formats", `ical`): each
//! `VTODO` of each `VCALENDAR` in the file becomes a task, as Thunderbird,
//! Nextcloud Tasks, Apple Reminders and the organiser's own export write
//! them.
//!
//! What maps to what:
//! - `UID`: the task's identity in the import map, and where it is named
//!   in the report; a `VTODO` without one is named by its line and its
//!   summary (`line 12: Sort the post`), so it is found again only while
//!   the file keeps that shape.
//! - `SUMMARY`: the title (its line breaks made spaces); a `VTODO` without
//!   one is skipped.
//! - `DESCRIPTION`: the description's first paragraph.
//! - `DUE`: `deadline_on`; `DTSTART`: `start_on`. A date is taken as
//!   written; a date-time is read in its `TZID` zone (the owner's zone
//!   when the `TZID` is not a zone the organiser knows by name, or when
//!   the time is floating), or in UTC when it ends in `Z`, and its date
//!   taken in the owner's zone.
//! - `RRULE`: the repeat, as written (the import checks it), on an open
//!   task with a date; on one without `DUE` or `DTSTART` it is kept in
//!   words (`Recurrence: <rule>`) and the report names the task with why.
//! - `STATUS`: `COMPLETED` (or, without a `STATUS`, a `COMPLETED` time) is
//!   completed, closed at `COMPLETED`; `CANCELLED` is won't do; anything
//!   else (`NEEDS-ACTION`, `IN-PROCESS`, none) is open.
//! - `CREATED`: `created_at`.
//! - Kept in words in the description, one paragraph each after the
//!   `DESCRIPTION`: `Categories: a, b`, `Priority: 1 (high)` (RFC 5545's
//!   1-4 high, 5 medium, 6-9 low; 0 is no priority), and each
//!   `RELATED-TO` as `Subtask of: <its summary>` (the related task's
//!   summary when the file holds it, else its UID; `Parent of:` for
//!   `RELTYPE=CHILD`, `Related to:` for `SIBLING`).
//! - Not kept: alarms, `PERCENT-COMPLETE`, `LOCATION`, `URL`,
//!   `SEQUENCE`, `X-` properties.
//! - Skipped, each named by its line: a `VEVENT` ("subscribe to it as a
//!   calendar feed"), a `VJOURNAL` and a `VFREEBUSY` (no place among
//!   tasks).
//!
//! A file that is not an iCalendar file (it does not start with
//! `BEGIN:VCALENDAR`, a line is not a property, a component is not one
//! iCalendar allows there, or one is never ended) is refused with the
//! line.

use std::collections::HashMap;

use ical::IcalParser;
use ical::parser::ParserError;
use ical::property::{Property, PropertyError};
use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;

use super::Refused;
use crate::resources::tasks::{Repeat, TaskStatus};
use crate::resources::transfer::draft::{DraftTask, Parsed, Skipped};
use crate::text::unescape_text as unescape;

/// Whether `bytes` start as an iCalendar file does (`BEGIN:VCALENDAR`).
pub(crate) fn looks_like(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes
        .get(start..start + 15)
        .is_some_and(|head| head.eq_ignore_ascii_case(b"BEGIN:VCALENDAR"))
}

/// The tasks of an iCalendar file, date-times taken as dates in `zone`;
/// refused when it is not an iCalendar file.
pub(crate) fn read(bytes: &[u8], zone: &TimeZone) -> Result<Parsed, Refused> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes
            .get(..e.valid_up_to())
            .unwrap_or(bytes)
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        Refused::new(format!("line {line}: not UTF-8 text"))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let unfolded = Unfolded::new(text);
    let layout = layout(&unfolded)?;

    // Every component, with the line it begins on, read in file order.
    let mut items: Vec<(usize, Item)> = Vec::new();
    let mut todo_lines = layout.todos.iter().copied();
    let mut event_lines = layout.events.iter().copied();
    let mut journal_lines = layout.journals.iter().copied();
    let mut busy_lines = layout.free_busys.iter().copied();
    for calendar in IcalParser::new(unfolded.text.as_bytes()) {
        let calendar = calendar.map_err(|e| refused(e, &unfolded))?;
        for todo in calendar.todos {
            let line = todo_lines.next().unwrap_or_default();
            items.push((line, Item::Todo(todo.properties)));
        }
        for _ in calendar.events {
            let why = "a VEVENT: subscribe to it as a calendar feed";
            items.push((event_lines.next().unwrap_or_default(), Item::Skipped(why)));
        }
        for _ in calendar.journals {
            let why = "a VJOURNAL: journal entries have no place among tasks";
            items.push((journal_lines.next().unwrap_or_default(), Item::Skipped(why)));
        }
        for _ in calendar.free_busys {
            let why = "a VFREEBUSY: free and busy times have no place among tasks";
            items.push((busy_lines.next().unwrap_or_default(), Item::Skipped(why)));
        }
    }
    items.sort_by_key(|(line, _)| *line);

    let summaries: HashMap<&str, String> = items
        .iter()
        .filter_map(|(_, item)| match item {
            Item::Todo(p) => Some((value(p, "UID")?, unescape(value(p, "SUMMARY")?))),
            Item::Skipped(_) => None,
        })
        .collect();
    let mut parsed = Parsed::default();
    for (line, item) in &items {
        match item {
            Item::Todo(properties) => match todo(properties, *line, zone, &summaries) {
                Ok((task, skipped)) => {
                    parsed.tasks.push(task);
                    parsed.skipped.extend(skipped);
                }
                Err(skipped) => parsed.skipped.push(skipped),
            },
            Item::Skipped(why) => parsed
                .skipped
                .push(Skipped::new(format!("line {line}"), *why)),
        }
    }
    Ok(parsed)
}

/// A component of the file: a `VTODO`'s properties, or why another is
/// skipped.
enum Item {
    Todo(Vec<Property>),
    Skipped(&'static str),
}

/// The file with its folded lines joined (done here rather than by the
/// parser, which drops a space that ends a folded piece), and the line of
/// the file each joined line starts on.
struct Unfolded {
    text: String,
    lines: Vec<usize>,
}

impl Unfolded {
    fn new(text: &str) -> Unfolded {
        let mut out = String::with_capacity(text.len());
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.strip_prefix([' ', '\t'])
                && !lines.is_empty()
            {
                out.push_str(rest);
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            if !lines.is_empty() {
                out.push('\n');
            }
            out.push_str(line);
            lines.push(i + 1);
        }
        out.push('\n');
        Unfolded { text: out, lines }
    }

    /// The file's line of joined line `n` (1-based).
    fn line(&self, n: usize) -> usize {
        n.checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .copied()
            .unwrap_or(n)
    }
}

/// Where the file's components begin, each kind in file order.
#[derive(Default)]
struct Layout {
    todos: Vec<usize>,
    events: Vec<usize>,
    journals: Vec<usize>,
    free_busys: Vec<usize>,
}

/// The components iCalendar allows inside `parent` (`None`: the top of
/// the file), as the parser reads them.
fn allowed(parent: Option<&str>, child: &str) -> bool {
    match parent {
        None => child == "VCALENDAR",
        Some("VCALENDAR") => matches!(
            child,
            "VEVENT" | "VTODO" | "VJOURNAL" | "VFREEBUSY" | "VTIMEZONE" | "VALARM"
        ),
        Some("VEVENT" | "VTODO") => child == "VALARM",
        Some("VTIMEZONE") => matches!(child, "STANDARD" | "DAYLIGHT"),
        Some(_) => false,
    }
}

/// The file's components checked as the parser will read them, so that a
/// file it cannot read is refused with the line; and where each begins.
fn layout(file: &Unfolded) -> Result<Layout, Refused> {
    let mut layout = Layout::default();
    let mut open: Vec<(&str, usize)> = Vec::new();
    for (i, line) in file.text.lines().enumerate() {
        let at = file.line(i + 1);
        let line = line.trim();
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        if name.eq_ignore_ascii_case("BEGIN") {
            let parent = open.last().map(|(name, _)| *name);
            if !allowed(parent, value) {
                return Err(Refused::new(match parent {
                    None => format!(
                        "line {at}: not an iCalendar file (BEGIN:{value} where BEGIN:VCALENDAR should be)"
                    ),
                    Some(parent) => format!(
                        "line {at}: a {value} component, which the organiser cannot read inside a {parent}"
                    ),
                }));
            }
            match value {
                "VTODO" => layout.todos.push(at),
                "VEVENT" => layout.events.push(at),
                "VJOURNAL" => layout.journals.push(at),
                "VFREEBUSY" => layout.free_busys.push(at),
                _ => {}
            }
            open.push((value, at));
        } else if name.eq_ignore_ascii_case("END") {
            if open.pop().is_none() {
                return Err(Refused::new(format!(
                    "line {at}: END:{value} with no BEGIN before it"
                )));
            }
        } else if open.is_empty() {
            let shown: String = line.chars().take(40).collect();
            return Err(Refused::new(format!(
                "line {at}: not an iCalendar file (`{shown}` where BEGIN:VCALENDAR should be)"
            )));
        }
    }
    if let Some((name, at)) = open.last() {
        return Err(Refused::new(format!(
            "line {at}: BEGIN:{name} is never ended (no END:{name})"
        )));
    }
    Ok(layout)
}

/// The parser's error as a refusal, with the file's line.
fn refused(error: ParserError, file: &Unfolded) -> Refused {
    let (line, why) = match &error {
        ParserError::PropertyError(e) => match e {
            PropertyError::MissingName { line } => (*line, "a line that is not `NAME:value`"),
            PropertyError::MissingClosingQuote { line } => {
                (*line, "a parameter's quote is never closed")
            }
            PropertyError::MissingDelimiter { line, .. } => {
                (*line, "a parameter without `=` and a value")
            }
            PropertyError::MissingContentAfter { line, .. } => {
                (*line, "a property without `:` before its value")
            }
            PropertyError::MissingParamKey { line } => (*line, "a parameter without a name"),
        },
        other => return Refused::new(format!("not an iCalendar file: {other}")),
    };
    Refused::new(format!("line {}: {why}", file.line(line)))
}

/// The first property named `name` (any case).
fn property<'a>(properties: &'a [Property], name: &str) -> Option<&'a Property> {
    properties
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
}

/// The non-blank value of the first property named `name`, as written.
fn value<'a>(properties: &'a [Property], name: &str) -> Option<&'a str> {
    property(properties, name)
        .and_then(|p| p.value.as_deref())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The first value of parameter `name` of `property`.
fn param<'a>(property: &'a Property, name: &str) -> Option<&'a str> {
    property
        .params
        .as_ref()?
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .and_then(|(_, values)| values.first())
        .map(String::as_str)
}

/// The parts of a list value (`CATEGORIES:a,b\,c`), each unescaped.
fn list(value: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut part = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                part.push(c);
                if let Some(next) = chars.next() {
                    part.push(next);
                }
            }
            ',' => parts.push(std::mem::take(&mut part)),
            _ => part.push(c),
        }
    }
    parts.push(part);
    parts
        .iter()
        .map(|p| unescape(p.trim()))
        .filter(|p| !p.is_empty())
        .collect()
}

/// A DATE or DATE-TIME property's moment: a date as written, or a
/// date-time's date in `zone`; the message says why it cannot be read.
fn date(property: &Property, zone: &TimeZone) -> Result<Option<Date>, String> {
    let Some(raw) = property.value.as_deref().map(str::trim) else {
        return Ok(None);
    };
    let wrong = || format!("its {} `{raw}` is not an iCalendar date", property.name);
    if raw.len() == 8 {
        return Date::strptime("%Y%m%d", raw).map(Some).map_err(|_| wrong());
    }
    moment(property, zone)
        .map(|at| Some(at.to_zoned(zone.clone()).date()))
        .ok_or_else(wrong)
}

/// A DATE-TIME property's moment: UTC when it ends in `Z`, else in its
/// `TZID` zone, else (floating, or a zone not known by name) in `zone`.
fn moment(property: &Property, zone: &TimeZone) -> Option<Timestamp> {
    let raw = property.value.as_deref()?.trim();
    if let Some(utc) = raw.strip_suffix(['Z', 'z']) {
        let at = DateTime::strptime("%Y%m%dT%H%M%S", utc).ok()?;
        return at.to_zoned(TimeZone::UTC).ok().map(|z| z.timestamp());
    }
    if raw.len() == 8 {
        let day = Date::strptime("%Y%m%d", raw).ok()?;
        return day.to_zoned(zone.clone()).ok().map(|z| z.timestamp());
    }
    let at = DateTime::strptime("%Y%m%dT%H%M%S", raw).ok()?;
    let named = param(property, "TZID")
        .map(|id| id.trim_start_matches('/'))
        .and_then(|id| TimeZone::get(id).ok());
    at.to_zoned(named.unwrap_or_else(|| zone.clone()))
        .ok()
        .map(|z| z.timestamp())
}

/// RFC 5545's words for a `PRIORITY`; `None` for 0 (no priority) or a
/// value it does not define.
fn priority(value: &str) -> Option<String> {
    let n: u8 = value.parse().ok()?;
    let words = match n {
        1..=4 => "high",
        5 => "medium",
        6..=9 => "low",
        _ => return None,
    };
    Some(format!("Priority: {n} ({words})"))
}

/// The draft of one `VTODO` beginning at `line`, and what the report says
/// about it beside it; or why it is skipped.
fn todo(
    properties: &[Property],
    line: usize,
    zone: &TimeZone,
    summaries: &HashMap<&str, String>,
) -> Result<(DraftTask, Vec<Skipped>), Skipped> {
    let uid = value(properties, "UID");
    let title = value(properties, "SUMMARY")
        .map(unescape)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty());
    let at = uid.map_or_else(|| format!("line {line}"), str::to_owned);
    let Some(title) = title else {
        return Err(Skipped::new(at, "a VTODO without a SUMMARY"));
    };
    let source = uid.map_or_else(|| format!("line {line}: {title}"), str::to_owned);
    let mut task = DraftTask::new(source, &at, title);

    let dated = |name: &str| match property(properties, name) {
        Some(p) => date(p, zone).map_err(|why| Skipped::new(&at, why)),
        None => Ok(None),
    };
    task.deadline_on = dated("DUE")?;
    task.start_on = dated("DTSTART")?;
    task.created_at = property(properties, "CREATED").and_then(|p| moment(p, zone));
    let completed = property(properties, "COMPLETED").and_then(|p| moment(p, zone));
    match value(properties, "STATUS")
        .map(str::to_ascii_uppercase)
        .as_deref()
    {
        Some("COMPLETED") => {
            task.status = TaskStatus::Completed;
            task.closed_at = completed;
        }
        Some("CANCELLED") => task.status = TaskStatus::WontDo,
        None if completed.is_some() => {
            task.status = TaskStatus::Completed;
            task.closed_at = completed;
        }
        _ => {}
    }

    if let Some(description) = value(properties, "DESCRIPTION").map(unescape) {
        task.description.push(description);
    }
    let categories: Vec<String> = properties
        .iter()
        .filter(|p| p.name.eq_ignore_ascii_case("CATEGORIES"))
        .filter_map(|p| p.value.as_deref())
        .flat_map(list)
        .collect();
    if !categories.is_empty() {
        task.description
            .push(format!("Categories: {}", categories.join(", ")));
    }
    if let Some(words) = value(properties, "PRIORITY").and_then(priority) {
        task.description.push(words);
    }
    for related in properties
        .iter()
        .filter(|p| p.name.eq_ignore_ascii_case("RELATED-TO"))
    {
        let Some(other) = related
            .value
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        else {
            continue;
        };
        let name = summaries
            .get(other)
            .cloned()
            .unwrap_or_else(|| unescape(other));
        let how = match param(related, "RELTYPE")
            .map(str::to_ascii_uppercase)
            .as_deref()
        {
            None | Some("PARENT") => "Subtask of",
            Some("CHILD") => "Parent of",
            Some(_) => "Related to",
        };
        task.description.push(format!("{how}: {name}"));
    }

    let mut skipped = Vec::new();
    if let Some(rule) = value(properties, "RRULE") {
        if task.deadline_on.or(task.start_on).is_none() {
            task.description.push(format!("Recurrence: {rule}"));
            skipped.push(Skipped::new(
                &at,
                format!(
                    "an RRULE without a DUE or DTSTART: imported without a repeat, \
                     `Recurrence: {rule}` kept in its description"
                ),
            ));
        } else if task.status == TaskStatus::Open {
            task.repeat = Some(Repeat::rule(rule));
        }
    }
    Ok((task, skipped))
}

#[cfg(test)]
mod tests {
    //! `tasks.ics` is written by hand from the shapes Thunderbird
    //! (`X-MOZ-GENERATION`, `TZID` date-times with a `VTIMEZONE`, a
    //! `VALARM`), Nextcloud Tasks (`VALUE=DATE` dates, `PERCENT-COMPLETE`,
    //! `RELATED-TO` subtasks, comma-separated `CATEGORIES`) and Apple
    //! Reminders (upper-case UIDs, `X-APPLE-SORT-ORDER`, an absolute
    //! alarm) document and write, with a `VEVENT` and a `VJOURNAL`: none of
    //! them could be run here.

    use super::*;

    const TASKS: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/imports/ical/tasks.ics"
    ));

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    fn berlin() -> TimeZone {
        TimeZone::get("Europe/Berlin").unwrap()
    }

    #[test]
    fn looks_like_a_calendar() {
        let cases: &[(&[u8], bool)] = &[
            (TASKS, true),
            (b"\xEF\xBB\xBF\r\nbegin:vcalendar\r\n", true),
            (b"BEGIN:VCARD\r\n", false),
            (b"BEGIN:VCAL", false),
            (b"[{\"uuid\":1}]", false),
            (b"", false),
        ];
        for (bytes, want) in cases {
            assert_eq!(
                looks_like(bytes),
                *want,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn the_fixture_maps_field_by_field() {
        let parsed = read(TASKS, &berlin()).unwrap();
        // (source, title, start, deadline, repeat, status, description)
        type Row<'a> = (
            &'a str,
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            TaskStatus,
            &'a [&'a str],
        );
        let rows: &[Row] = &[
            (
                "3a1c5e0e-9b0f-4f3a-8d5e-0f1b2c3d4e5f",
                "Put the bins out",
                Some("2024-01-08"),
                Some("2024-01-08"),
                Some("FREQ=WEEKLY;BYDAY=MO"),
                TaskStatus::Open,
                &[
                    "Green bin on odd weeks, black bin on even ones.\nLid shut; no bags on top. Path: C:\\bins",
                    "Categories: Home",
                    "Priority: 5 (medium)",
                ],
            ),
            (
                "7d2f0a44-1c2b-4e8e-9f10-2b3c4d5e6f70",
                "Old plan",
                None,
                Some("2024-02-01"),
                None,
                TaskStatus::WontDo,
                &[],
            ),
            (
                "a6b7c8d9-e0f1-4a2b-9c3d-4e5f6a7b8c9d",
                "Water the plants",
                Some("2024-01-09"),
                Some("2024-01-10"),
                Some("FREQ=DAILY;INTERVAL=3"),
                TaskStatus::Open,
                &["Categories: Home, Garden", "Priority: 1 (high)"],
            ),
            (
                "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e",
                "Buy soil",
                None,
                None,
                None,
                TaskStatus::Completed,
                &["Subtask of: Water the plants"],
            ),
            (
                "9F6B2C8E-1D3A-4C5B-8E7F-0A1B2C3D4E5F",
                "Call Mum",
                None,
                Some("2024-01-05"),
                None,
                TaskStatus::Completed,
                &["Priority: 9 (low)"],
            ),
            // 22:00 in New York is 04:00 the next day in Berlin.
            (
                "2C4E6A8B-0D1F-4A3C-9E5B-7D9F1B3D5F7A",
                "Pay the rent",
                Some("2024-01-13"),
                Some("2024-01-13"),
                Some("FREQ=MONTHLY;BYMONTHDAY=12"),
                TaskStatus::Open,
                &[],
            ),
            (
                "line 110: Sort the post",
                "Sort the post",
                None,
                Some("2024-01-08"),
                None,
                TaskStatus::Open,
                &[],
            ),
        ];
        let got: Vec<_> = parsed.tasks.iter().map(|t| t.source.as_str()).collect();
        let want: Vec<_> = rows.iter().map(|r| r.0).collect();
        assert_eq!(got, want);
        for ((source, title, start, deadline, repeat, status, description), t) in
            rows.iter().zip(&parsed.tasks)
        {
            assert_eq!(t.title, *title, "{source}");
            assert_eq!(t.list, None, "{source}");
            assert_eq!(t.start_on, start.map(d), "{source}");
            assert_eq!(t.deadline_on, deadline.map(d), "{source}");
            assert_eq!(t.repeat, repeat.map(Repeat::rule), "{source}");
            assert_eq!(t.status, *status, "{source}");
            assert_eq!(t.description, *description, "{source}");
        }
        let soil = &parsed.tasks[3];
        assert_eq!(
            soil.created_at,
            Some("2024-01-03T10:20:00Z".parse().unwrap())
        );
        assert_eq!(
            soil.closed_at,
            Some("2024-01-04T12:00:00Z".parse().unwrap())
        );
        assert_eq!(parsed.tasks[6].at, "line 110");
        assert_eq!(parsed.tasks[6].created_at, None);

        let skipped: Vec<_> = parsed
            .skipped
            .iter()
            .map(|s| (s.at.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(
            skipped,
            [
                (
                    "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b",
                    "a VTODO without a SUMMARY"
                ),
                ("line 120", "a VEVENT: subscribe to it as a calendar feed"),
                (
                    "line 128",
                    "a VJOURNAL: journal entries have no place among tasks"
                ),
            ]
        );
    }

    #[test]
    fn date_times_are_dates_in_the_owners_zone() {
        // (zone, the bins' start: 00:30 in Berlin; the rent's due: 22:00 in
        // New York)
        let cases = [
            ("Europe/Berlin", "2024-01-08", "2024-01-13"),
            ("UTC", "2024-01-07", "2024-01-13"),
            ("America/New_York", "2024-01-07", "2024-01-12"),
        ];
        for (zone, bins, rent) in cases {
            let parsed = read(TASKS, &TimeZone::get(zone).unwrap()).unwrap();
            assert_eq!(parsed.tasks[0].start_on, Some(d(bins)), "{zone}");
            assert_eq!(parsed.tasks[5].deadline_on, Some(d(rent)), "{zone}");
        }
    }

    #[test]
    fn values_and_dates_read_as_written() {
        let z = berlin();
        let p = |value: &str, params: Option<Vec<(String, Vec<String>)>>| Property {
            name: "DUE".into(),
            params,
            value: Some(value.into()),
        };
        let tz = |id: &str| Some(vec![("TZID".to_owned(), vec![id.to_owned()])]);
        let cases: &[(Property, Result<Option<&str>, ()>)] = &[
            (p("20240105", None), Ok(Some("2024-01-05"))),
            (p("20240105T230000Z", None), Ok(Some("2024-01-06"))),
            (p("20240105T230000", None), Ok(Some("2024-01-05"))),
            (
                p("20240105T230000", tz("America/New_York")),
                Ok(Some("2024-01-06")),
            ),
            (
                p("20240105T230000", tz("/Europe/London")),
                Ok(Some("2024-01-06")),
            ),
            (
                p("20240105T230000", tz("W. Europe Standard Time")),
                Ok(Some("2024-01-05")),
            ),
            (p("20241305", None), Err(())),
            (p("tomorrow", None), Err(())),
            (p("20240105T250000Z", None), Err(())),
        ];
        for (property, want) in cases {
            let got = date(property, &z).map_err(|_| ());
            assert_eq!(got, want.map(|o| o.map(d)), "{property:?}");
        }

        let texts = [
            ("a\\, b\\; c\\\\d\\ne\\Nf", "a, b; c\\d\ne\nf"),
            ("trailing \\", "trailing \\"),
            ("C:\\\\bins", "C:\\bins"),
        ];
        for (raw, want) in texts {
            assert_eq!(unescape(raw), want, "{raw}");
        }
        assert_eq!(list("Home, Garden\\, back,,"), ["Home", "Garden, back"]);
    }

    #[test]
    fn refused_files_name_the_line() {
        let cases: &[(&str, &str)] = &[
            ("hello\r\n", "line 1: not an iCalendar file"),
            (
                "\r\n\r\nBEGIN:VCARD\r\nEND:VCARD\r\n",
                "line 3: not an iCalendar file",
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\n",
                "line 2: BEGIN:VTODO is never ended",
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:X-THING\r\nEND:X-THING\r\nEND:VCALENDAR\r\n",
                "line 2: a X-THING component",
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "line 3: a line that is not `NAME:value`",
            ),
            (
                "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:a\r\n b\r\nDUE;VALUE=DATE\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
                "line 5: a property without `:` before its value",
            ),
            (
                "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nstray\r\n",
                "line 3: not an iCalendar file",
            ),
            (
                "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nEND:VCALENDAR\r\n",
                "line 3: END:VCALENDAR with no BEGIN",
            ),
        ];
        for (file, want) in cases {
            let err = read(file.as_bytes(), &berlin()).unwrap_err();
            assert!(err.0.starts_with(want), "{file:?}: {}", err.0);
        }
        let err = read(b"BEGIN:VCALENDAR\r\nSUMMARY:\xff\r\n", &berlin()).unwrap_err();
        assert_eq!(err.0, "line 2: not UTF-8 text");
    }

    #[test]
    fn odd_todos_are_skipped_or_kept_in_words() {
        let file = "BEGIN:VCALENDAR\r\n\
            BEGIN:VTODO\r\nUID:a\r\nSUMMARY:Bad date\r\nDUE:someday\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:b\r\nSUMMARY:No date\r\nRRULE:FREQ=DAILY\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:c\r\nSUMMARY:Done by time\r\nCOMPLETED:20240101T100000Z\r\n\
            DUE;VALUE=DATE:20240101\r\nRRULE:FREQ=DAILY\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:d\r\nSUMMARY:Two\r\n lines\\nhere\r\nPRIORITY:0\r\n\
            RELATED-TO;RELTYPE=SIBLING:zzz\r\nRELATED-TO;RELTYPE=CHILD:a\r\nEND:VTODO\r\n\
            END:VCALENDAR\r\n\
            BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Second calendar\r\nEND:VTODO\r\n\
            BEGIN:VFREEBUSY\r\nEND:VFREEBUSY\r\nEND:VCALENDAR\r\n";
        let parsed = read(file.as_bytes(), &TimeZone::UTC).unwrap();
        let skipped: Vec<_> = parsed
            .skipped
            .iter()
            .map(|s| (s.at.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(
            skipped,
            [
                ("a", "its DUE `someday` is not an iCalendar date"),
                (
                    "b",
                    "an RRULE without a DUE or DTSTART: imported without a repeat, `Recurrence: FREQ=DAILY` kept in its description"
                ),
                (
                    "line 32",
                    "a VFREEBUSY: free and busy times have no place among tasks"
                ),
            ]
        );
        let tasks: Vec<_> = parsed
            .tasks
            .iter()
            .map(|t| {
                (
                    t.source.as_str(),
                    t.title.as_str(),
                    t.status,
                    t.repeat.is_some(),
                )
            })
            .collect();
        assert_eq!(
            tasks,
            [
                ("b", "No date", TaskStatus::Open, false),
                ("c", "Done by time", TaskStatus::Completed, false),
                ("d", "Twolines here", TaskStatus::Open, false),
                (
                    "line 29: Second calendar",
                    "Second calendar",
                    TaskStatus::Open,
                    false
                ),
            ]
        );
        assert_eq!(parsed.tasks[0].description, ["Recurrence: FREQ=DAILY"]);
        assert_eq!(
            parsed.tasks[2].description,
            ["Related to: zzz", "Parent of: Bad date"]
        );
    }

    #[test]
    fn no_prefix_of_a_file_panics() {
        for end in 0..=TASKS.len() {
            let _ = read(TASKS.get(..end).unwrap(), &TimeZone::UTC);
        }
    }
}
