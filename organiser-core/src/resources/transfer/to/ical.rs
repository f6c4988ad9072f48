//! Tasks and key dates as one iCalendar file (EXTENSIONS.md §5, "Foreign
//! exports", `organiser export --format ical`), for calendar and task
//! tools (khal, Thunderbird, Nextcloud Tasks, Apple Reminders) and for the
//! organiser's own `ical` import.
//!
//! One `VCALENDAR` (`VERSION:2.0`, `PRODID:-//Organiser//Organiser//EN`).
//!
//! Each task is a `VTODO`:
//! - `UID`: `<task id>@organiser`; `DTSTAMP`: the moment of the export.
//! - `SUMMARY`: the title; `DESCRIPTION`: the description's plain text,
//!   when it has any.
//! - `DTSTART;VALUE=DATE`: `start_on`; `DUE;VALUE=DATE`: `deadline_on`.
//!   iCalendar does not allow a start after the due date, so a task that
//!   starts after its deadline has no `DTSTART` and says
//!   `Starts on: <date>` in its description instead.
//! - `STATUS`: open `NEEDS-ACTION`, completed `COMPLETED` (with
//!   `COMPLETED` at `completed_at`), won't do and archived both
//!   `CANCELLED`: other tools have no archive, and `CANCELLED` keeps an
//!   archived task out of their lists of things to do as the archive does
//!   (the organiser's import reads it back as won't do).
//! - `RRULE`: the repeat's rule, on an open task whose repeat counts from
//!   the due date. A repeat counted from each completion has no RRULE,
//!   since an RRULE is a fixed schedule and a tool would show dates the
//!   series will not have; it is kept in the description as `Repeats
//!   from completion: <rule>`. A closed occurrence of a series has no
//!   RRULE (the series goes on in its open occurrence).
//! - `CREATED`: `created_at`; `LAST-MODIFIED`: `updated_at`.
//!
//! Each key date is a yearly all-day `VEVENT`:
//! - `UID`: `<key date id>@organiser`; `SUMMARY`: `Ada Lovelace's
//!   birthday` (the kind's name in lower case: `anniversary`, `work
//!   anniversary`, ...; for `other`, its label, or `key date` without
//!   one; a label on another kind is added in brackets).
//! - `DTSTART;VALUE=DATE` on the date in its year, or in 2000 for a date
//!   without a year (a leap year, so 29 February is a date), `DTEND` the
//!   day after, `RRULE:FREQ=YEARLY`, `TRANSP:TRANSPARENT` (it does not
//!   make the owner busy), and `X-ORGANISER-PERSON` the person's id.
//! - 29 February repeats as `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`: the
//!   last day of February, so the event falls on 28 February in common
//!   years instead of appearing only in leap years.
//!
//! Text values are escaped here as RFC 5545 says (`\\`, `\;`, `\,`,
//! `\n`): the `ical` crate's generator escapes parameter values only. The
//! generator writes the lines, folding each at 75 characters (not octets:
//! a line of accented letters may be longer in bytes, which readers
//! accept) with CRLF and a space.

use ical::generator::{Emitter, IcalCalendarBuilder};
use ical::parser::ical::component::{IcalEvent, IcalTodo};
use ical::property::Property;
use jiff::Timestamp;
use jiff::civil::Date;

use crate::ids::Id;
use crate::resources::people::KeyDate;
use crate::resources::people::key_dates::summary as key_date_summary;
use crate::resources::tasks::{RepeatFrom, Task, TaskStatus};
use crate::time::basic_utc;

/// The year a key date without one is written in: a leap year, so that
/// 29 February is a date in it.
const NO_YEAR: i16 = 2000;

/// A person's key date, to be written as a yearly event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyDateEvent {
    /// The person's id.
    pub(crate) person_id: Id,
    /// The person's name, for the event's summary.
    pub(crate) person_name: String,
    /// The date.
    pub(crate) key_date: KeyDate,
}

/// One iCalendar file of `tasks` as to-dos and `key_dates` as yearly
/// events, stamped `now`.
pub(crate) fn write(tasks: &[Task], key_dates: &[KeyDateEvent], now: Timestamp) -> String {
    let mut calendar = IcalCalendarBuilder::version("2.0")
        .gregorian()
        .prodid("-//Organiser//Organiser//EN")
        .build();
    let stamp = basic_utc(now);
    calendar.todos = tasks.iter().map(|t| todo(t, &stamp)).collect();
    calendar.events = key_dates.iter().map(|k| event(k, &stamp)).collect();
    calendar.generate()
}

/// A property named `name` with `value` as written.
fn prop(name: &str, value: impl Into<String>) -> Property {
    Property {
        name: name.to_owned(),
        params: None,
        value: Some(value.into()),
    }
}

/// A `VALUE=DATE` property of `day`.
fn day_prop(name: &str, day: Date) -> Property {
    Property {
        name: name.to_owned(),
        params: Some(vec![("VALUE".to_owned(), vec!["DATE".to_owned()])]),
        value: Some(crate::time::basic_date(day)),
    }
}

/// `value` as an RFC 5545 TEXT value: `\`, `;` and `,` escaped, line
/// breaks written `\n`, other control characters left out.
fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The `VTODO` of `task`.
fn todo(task: &Task, stamp: &str) -> IcalTodo {
    let mut p = vec![
        prop("UID", format!("{}@organiser", task.id)),
        prop("DTSTAMP", stamp),
        prop("SUMMARY", text(&task.title)),
    ];
    let mut description: Vec<String> = Vec::new();
    if !task.description_text.trim().is_empty() {
        description.push(task.description_text.clone());
    }
    match (task.start_on, task.deadline_on) {
        (Some(start), Some(due)) if start > due => {
            description.push(format!("Starts on: {start}"));
        }
        (Some(start), _) => p.push(day_prop("DTSTART", start)),
        (None, _) => {}
    }
    if let Some(due) = task.deadline_on {
        p.push(day_prop("DUE", due));
    }
    let status = match task.status {
        TaskStatus::Open => "NEEDS-ACTION",
        TaskStatus::Completed => "COMPLETED",
        TaskStatus::WontDo | TaskStatus::Archived => "CANCELLED",
    };
    p.push(prop("STATUS", status));
    if task.status == TaskStatus::Completed
        && let Some(at) = task.completed_at
    {
        p.push(prop("COMPLETED", basic_utc(at)));
    }
    if let Some(repeat) = &task.repeat {
        match repeat.from {
            RepeatFrom::Due if task.status == TaskStatus::Open => {
                p.push(prop("RRULE", repeat.rule.clone()));
            }
            RepeatFrom::Due => {}
            RepeatFrom::Completion => {
                description.push(format!("Repeats from completion: {}", repeat.rule));
            }
        }
    }
    if !description.is_empty() {
        p.push(prop("DESCRIPTION", text(&description.join("\n\n"))));
    }
    p.push(prop("CREATED", basic_utc(task.created_at)));
    p.push(prop("LAST-MODIFIED", basic_utc(task.updated_at)));
    IcalTodo {
        properties: p,
        alarms: Vec::new(),
    }
}

/// The yearly `VEVENT` of a key date.
fn event(event: &KeyDateEvent, stamp: &str) -> IcalEvent {
    let date = &event.key_date;
    let (month, day) = (date.month, date.day);
    let on = |year: i16| Date::new(year, month, day).ok();
    // A date that is not one (29 February of a common year) is written in
    // the year without one.
    let start = date
        .year
        .and_then(on)
        .or_else(|| on(NO_YEAR))
        .unwrap_or(Date::constant(NO_YEAR, 1, 1));
    let rule = if (month, day) == (2, 29) {
        "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"
    } else {
        "FREQ=YEARLY"
    };
    let mut p = vec![
        prop("UID", format!("{}@organiser", date.id)),
        prop("DTSTAMP", stamp),
        prop(
            "SUMMARY",
            text(&key_date_summary(&event.person_name, &event.key_date)),
        ),
        day_prop("DTSTART", start),
    ];
    if let Ok(end) = start.tomorrow() {
        p.push(day_prop("DTEND", end));
    }
    p.push(prop("RRULE", rule));
    p.push(prop("TRANSP", "TRANSPARENT"));
    p.push(prop("X-ORGANISER-PERSON", event.person_id.to_string()));
    p.push(prop("CREATED", basic_utc(date.created_at)));
    p.push(prop("LAST-MODIFIED", basic_utc(date.updated_at)));
    IcalEvent {
        properties: p,
        alarms: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use ical::IcalParser;
    use jiff::tz::TimeZone;

    use super::*;
    use crate::resources::tasks::Repeat;
    use crate::resources::transfer::from;

    const NOW: &str = "2024-03-01T12:00:00Z";

    fn id(n: u8) -> Id {
        Id::from_bytes([n; 16])
    }

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    fn task(n: u8, title: &str) -> Task {
        Task {
            id: id(n),
            title: title.to_owned(),
            status: TaskStatus::Open,
            start_on: None,
            deadline_on: None,
            expires_on: None,
            remind_at: None,
            completed_at: None,
            archived_at: None,
            task_list_id: None,
            person_id: None,
            project_id: None,
            position: 0,
            description_html: None,
            description_text: String::new(),
            has_documents: false,
            expired: false,
            repeat: None,
            series_id: None,
            next_task_id: None,
            cursor: None,
            created_at: ts("2024-01-01T08:00:00Z"),
            updated_at: ts("2024-01-02T09:30:00Z"),
        }
    }

    fn key_date(
        n: u8,
        name: &str,
        kind: &str,
        label: Option<&str>,
        ymd: (Option<i16>, i8, i8),
    ) -> KeyDateEvent {
        KeyDateEvent {
            person_id: id(100 + n),
            person_name: name.to_owned(),
            key_date: KeyDate {
                id: id(200 + n),
                kind: kind.to_owned(),
                label: label.map(str::to_owned),
                day: ymd.2,
                month: ymd.1,
                year: ymd.0,
                created_at: ts("2023-05-01T10:00:00Z"),
                updated_at: ts("2023-05-02T10:00:00Z"),
            },
        }
    }

    /// Tasks of every shape the writer handles.
    fn tasks() -> Vec<Task> {
        let mut plain = task(1, "Plain; with, commas \\ and a backslash");
        plain.description_text = "Line one\nLine two, with; marks \\ here\r\nLine three".into();
        plain.start_on = Some(d("2024-03-04"));
        plain.deadline_on = Some(d("2024-03-08"));

        let mut weekly = task(2, "Water the plants");
        weekly.deadline_on = Some(d("2024-03-05"));
        weekly.repeat = Some(Repeat::rule("FREQ=WEEKLY;BYDAY=TU"));

        let mut done = task(3, "Call Mum");
        done.status = TaskStatus::Completed;
        done.completed_at = Some(ts("2024-02-28T17:45:10Z"));
        done.repeat = Some(Repeat::rule("FREQ=MONTHLY"));
        done.deadline_on = Some(d("2024-02-28"));

        let mut dropped = task(4, "Old plan");
        dropped.status = TaskStatus::WontDo;
        dropped.completed_at = Some(ts("2024-02-01T10:00:00Z"));

        let mut archived = task(5, "Expired offer");
        archived.status = TaskStatus::Archived;
        archived.archived_at = Some(ts("2024-02-10T00:00:00Z"));
        archived.expires_on = Some(d("2024-02-09"));

        let mut haircut = task(6, "Haircut");
        haircut.start_on = Some(d("2024-03-10"));
        haircut.repeat = Some(Repeat::from_completion("FREQ=WEEKLY;INTERVAL=6"));

        let mut late = task(7, "Starts after its deadline");
        late.start_on = Some(d("2024-03-20"));
        late.deadline_on = Some(d("2024-03-15"));

        let long = "Ünïcödé words that go on and on, past the seventy-five characters a line may hold; \
                    then more words again, so that the line is folded twice at least.";
        let mut folded = task(8, long);
        folded.description_text = long.repeat(3);
        vec![
            plain, weekly, done, dropped, archived, haircut, late, folded,
        ]
    }

    fn key_dates() -> Vec<KeyDateEvent> {
        vec![
            key_date(1, "Ada Lovelace", "birthday", None, (Some(1815), 12, 10)),
            key_date(2, "Ada Lovelace", "anniversary", None, (None, 7, 8)),
            key_date(
                3,
                "Sam O'Neil",
                "other",
                Some("Graduation, BSc"),
                (Some(2019), 6, 30),
            ),
            key_date(4, "Leap Day", "birthday", None, (Some(1996), 2, 29)),
            key_date(
                5,
                "Leap Day",
                "name_day",
                Some("Saint Oswald"),
                (None, 2, 29),
            ),
            key_date(6, "No Label", "other", None, (None, 1, 1)),
        ]
    }

    fn written() -> String {
        write(&tasks(), &key_dates(), ts(NOW))
    }

    /// The one calendar of `ics`, parsed by the `ical` crate.
    fn parse(ics: &str) -> ical::parser::ical::component::IcalCalendar {
        let mut calendars: Vec<_> = IcalParser::new(ics.as_bytes()).collect();
        assert_eq!(calendars.len(), 1);
        calendars.pop().unwrap().unwrap()
    }

    fn get<'a>(properties: &'a [Property], name: &str) -> Option<&'a str> {
        properties
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.value.as_deref())
    }

    fn params<'a>(
        properties: &'a [Property],
        name: &str,
    ) -> Option<&'a Vec<(String, Vec<String>)>> {
        properties
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.params.as_ref())
    }

    #[test]
    fn the_calendar_has_its_header_and_crlf_lines() {
        let ics = written();
        assert!(ics.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nPRODID:-//Organiser//Organiser//EN\r\n"));
        assert!(ics.ends_with("END:VCALENDAR\r\n"));
        assert!(!ics.replace("\r\n", "").contains('\n'));
        let calendar = parse(&ics);
        assert_eq!(calendar.todos.len(), 8);
        assert_eq!(calendar.events.len(), 6);
        let empty = write(&[], &[], ts(NOW));
        assert_eq!(parse(&empty).todos.len(), 0);
    }

    #[test]
    fn tasks_are_todos_read_back_by_the_ical_crate() {
        let calendar = parse(&written());
        // (uid, status, dtstart, due, rrule, completed)
        type Row<'a> = (
            u8,
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
        );
        let rows: &[Row] = &[
            (
                1,
                "NEEDS-ACTION",
                Some("20240304"),
                Some("20240308"),
                None,
                None,
            ),
            (
                2,
                "NEEDS-ACTION",
                None,
                Some("20240305"),
                Some("FREQ=WEEKLY;BYDAY=TU"),
                None,
            ),
            (
                3,
                "COMPLETED",
                None,
                Some("20240228"),
                None,
                Some("20240228T174510Z"),
            ),
            (4, "CANCELLED", None, None, None, None),
            (5, "CANCELLED", None, None, None, None),
            (6, "NEEDS-ACTION", Some("20240310"), None, None, None),
            (7, "NEEDS-ACTION", None, Some("20240315"), None, None),
            (8, "NEEDS-ACTION", None, None, None, None),
        ];
        for ((n, status, start, due, rule, completed), todo) in rows.iter().zip(&calendar.todos) {
            let p = &todo.properties;
            assert_eq!(
                get(p, "UID"),
                Some(format!("{}@organiser", id(*n)).as_str())
            );
            assert_eq!(get(p, "DTSTAMP"), Some("20240301T120000Z"), "{n}");
            assert_eq!(get(p, "STATUS"), Some(*status), "{n}");
            assert_eq!(get(p, "DTSTART"), *start, "{n}");
            assert_eq!(get(p, "DUE"), *due, "{n}");
            assert_eq!(get(p, "RRULE"), *rule, "{n}");
            assert_eq!(get(p, "COMPLETED"), *completed, "{n}");
            assert_eq!(get(p, "CREATED"), Some("20240101T080000Z"), "{n}");
            assert_eq!(get(p, "LAST-MODIFIED"), Some("20240102T093000Z"), "{n}");
            for name in ["DTSTART", "DUE"] {
                if get(p, name).is_some() {
                    let want = vec![("VALUE".to_owned(), vec!["DATE".to_owned()])];
                    assert_eq!(params(p, name), Some(&want), "{n} {name}");
                }
            }
        }
        let first = &calendar.todos[0].properties;
        assert_eq!(
            get(first, "SUMMARY"),
            Some("Plain\\; with\\, commas \\\\ and a backslash")
        );
        assert_eq!(
            get(first, "DESCRIPTION"),
            Some("Line one\\nLine two\\, with\\; marks \\\\ here\\nLine three")
        );
        assert_eq!(
            get(&calendar.todos[5].properties, "DESCRIPTION"),
            Some("Repeats from completion: FREQ=WEEKLY\\;INTERVAL=6")
        );
        assert_eq!(
            get(&calendar.todos[6].properties, "DESCRIPTION"),
            Some("Starts on: 2024-03-20")
        );
        assert_eq!(get(&calendar.todos[1].properties, "DESCRIPTION"), None);
    }

    #[test]
    fn long_lines_are_folded_and_unfold_to_the_value() {
        let ics = written();
        for line in ics.split("\r\n") {
            assert!(line.chars().count() <= 75, "{line:?}");
        }
        let folded = ics.lines().filter(|l| l.starts_with(' ')).count();
        assert!(folded >= 6, "{folded} folded lines");
        // The crate's reader joins the folded pieces (it drops a space
        // that ends a piece: compare without spaces); the organiser's own
        // reader keeps them (below).
        let calendar = parse(&ics);
        let long = &tasks()[7];
        let summary = get(&calendar.todos[7].properties, "SUMMARY").unwrap();
        let want = text(&long.title);
        assert_eq!(summary.replace(' ', ""), want.replace(' ', ""));
    }

    #[test]
    fn the_organisers_own_import_reads_the_tasks_back() {
        let parsed = from::ical::read(written().as_bytes(), &TimeZone::UTC).unwrap();
        assert_eq!(parsed.skipped.len(), 6, "{:?}", parsed.skipped);
        assert!(
            parsed
                .skipped
                .iter()
                .all(|s| s.reason.starts_with("a VEVENT"))
        );
        let tasks = tasks();
        assert_eq!(parsed.tasks.len(), tasks.len());
        // (status read back, start read back)
        let statuses = [
            TaskStatus::Open,
            TaskStatus::Open,
            TaskStatus::Completed,
            TaskStatus::WontDo,
            TaskStatus::WontDo,
            TaskStatus::Open,
            TaskStatus::Open,
            TaskStatus::Open,
        ];
        for ((draft, task), status) in parsed.tasks.iter().zip(&tasks).zip(statuses) {
            assert_eq!(draft.source, format!("{}@organiser", task.id));
            assert_eq!(draft.title, task.title);
            assert_eq!(draft.status, status, "{}", task.title);
            assert_eq!(draft.deadline_on, task.deadline_on, "{}", task.title);
            assert_eq!(draft.created_at, Some(task.created_at));
        }
        assert_eq!(
            parsed.tasks[0].description,
            ["Line one\nLine two, with; marks \\ here\nLine three"]
        );
        assert_eq!(parsed.tasks[0].start_on, Some(d("2024-03-04")));
        assert_eq!(
            parsed.tasks[1].repeat,
            Some(Repeat::rule("FREQ=WEEKLY;BYDAY=TU"))
        );
        assert_eq!(parsed.tasks[2].closed_at, Some(ts("2024-02-28T17:45:10Z")));
        assert_eq!(parsed.tasks[2].repeat, None);
        assert_eq!(parsed.tasks[5].repeat, None);
        assert_eq!(parsed.tasks[6].start_on, None);
        assert_eq!(
            parsed.tasks[7].description,
            [tasks[7].description_text.clone()]
        );
    }

    #[test]
    fn key_dates_are_yearly_all_day_events() {
        let calendar = parse(&written());
        // (n, summary as written, dtstart, dtend, rrule)
        let rows: &[(u8, &str, &str, &str, &str)] = &[
            (
                1,
                "Ada Lovelace's birthday",
                "18151210",
                "18151211",
                "FREQ=YEARLY",
            ),
            (
                2,
                "Ada Lovelace's anniversary",
                "20000708",
                "20000709",
                "FREQ=YEARLY",
            ),
            (
                3,
                "Sam O'Neil's Graduation\\, BSc",
                "20190630",
                "20190701",
                "FREQ=YEARLY",
            ),
            (
                4,
                "Leap Day's birthday",
                "19960229",
                "19960301",
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1",
            ),
            (
                5,
                "Leap Day's name day (Saint Oswald)",
                "20000229",
                "20000301",
                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1",
            ),
            (
                6,
                "No Label's key date",
                "20000101",
                "20000102",
                "FREQ=YEARLY",
            ),
        ];
        assert_eq!(calendar.events.len(), rows.len());
        for ((n, summary, start, end, rule), event) in rows.iter().zip(&calendar.events) {
            let p = &event.properties;
            assert_eq!(
                get(p, "UID"),
                Some(format!("{}@organiser", id(200 + n)).as_str())
            );
            assert_eq!(get(p, "SUMMARY"), Some(*summary), "{n}");
            assert_eq!(get(p, "DTSTART"), Some(*start), "{n}");
            assert_eq!(get(p, "DTEND"), Some(*end), "{n}");
            assert_eq!(get(p, "RRULE"), Some(*rule), "{n}");
            assert_eq!(get(p, "TRANSP"), Some("TRANSPARENT"), "{n}");
            assert_eq!(get(p, "DTSTAMP"), Some("20240301T120000Z"), "{n}");
            assert_eq!(
                get(p, "X-ORGANISER-PERSON"),
                Some(id(100 + n).to_string().as_str())
            );
            let want = vec![("VALUE".to_owned(), vec!["DATE".to_owned()])];
            assert_eq!(params(p, "DTSTART"), Some(&want), "{n}");
        }
    }

    #[test]
    fn a_date_that_is_not_one_falls_back_without_panicking() {
        let odd = [
            key_date(7, "Odd", "birthday", None, (Some(1999), 2, 29)),
            key_date(8, "Odder", "birthday", None, (None, 13, 40)),
        ];
        let calendar = parse(&write(&[], &odd, ts(NOW)));
        let starts: Vec<_> = calendar
            .events
            .iter()
            .map(|e| get(&e.properties, "DTSTART"))
            .collect();
        assert_eq!(starts, [Some("20000229"), Some("20000101")]);
    }

    #[test]
    fn text_escapes_as_rfc_5545_says() {
        let cases = [
            ("plain", "plain"),
            ("a,b;c\\d", "a\\,b\\;c\\\\d"),
            ("one\ntwo\r\nthree\rfour", "one\\ntwo\\nthree\\nfour"),
            ("tab\there\u{7}bell", "tab\therebell"),
            ("colon: kept", "colon: kept"),
        ];
        for (raw, want) in cases {
            assert_eq!(text(raw), want, "{raw:?}");
        }
    }
}
