//! `organiser calendar [today|week|DATE|DATE..DATE]`: `GET /calendar` as an
//! agenda, day by day: the feeds' events (all-day ones first, then by
//! time, in the owner's zone), the key dates, the projects' starts and
//! deadlines, and the tasks due. Today's heading is labelled (and
//! coloured when colour is on). The API judges the range; the CLI only
//! reads the words into dates and lays out the answer. And how an event's
//! time and link are said, which `people show` shares. `calendar
//! subscribe` and `calendar subscriptions` are calendar_subscriptions.rs.

use clap::Args;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp, Zoned};
use organiser_core::{
    calendar::CalendarEvent, calendar::CalendarQuery, calendar::CalendarRange, tasks::TaskStatus,
};

use crate::commands::Global;
use crate::commands::dates::Days;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct Calendar {
    /// `subscribe` and `subscriptions` (calendar_subscriptions.rs).
    #[command(subcommand)]
    action: Option<crate::commands::calendar_subscriptions::CalendarAction>,
    /// Which days: `today` (the default), `week` (today and the six days
    /// after it), `next week` (its Monday to Sunday), `month` or `next
    /// month` (the whole month), one date, or `DATE..DATE` (both
    /// included); dates as `tasks add --deadline` takes them:
    /// `2026-03-09`, `tomorrow`, `friday`, `dec 15`, `+3d`, `today..+2w`.
    #[arg(value_name = "today|week|month|DATE..DATE")]
    days: Vec<String>,
}

/// The days the argument names, before any date is read.
#[derive(Debug, PartialEq, Eq)]
enum Span<'a> {
    Today,
    /// `week`, `next week`, `month`, `next month` (the core reads them).
    Words(&'a str),
    One(&'a str),
    Between(&'a str, &'a str),
}

impl<'a> Span<'a> {
    fn of(text: Option<&'a str>, today: Date) -> Span<'a> {
        let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
            return Span::Today;
        };
        if text.eq_ignore_ascii_case("today") {
            Span::Today
        } else if organiser_core::time::parse_span_words(text, today).is_some() {
            Span::Words(text)
        } else if let Some((from, to)) = text.split_once("..") {
            Span::Between(from.trim(), to.trim())
        } else {
            Span::One(text)
        }
    }
}

impl Calendar {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        if let Some(action) = self.action {
            return action.run(global);
        }
        let client = global.reader()?;
        let me = client.reply(|c| c.account().me())?.data;
        let today = me.today;
        let mut days = Days::knowing(&client, today);
        let days_arg = self.days.join(" ");
        let (from, to) = match Span::of(Some(days_arg.as_str()), today) {
            Span::Today => (today, today),
            Span::Words(text) => organiser_core::time::parse_span_words(text, today)
                .ok_or_else(|| CliError::msg(format!("{text:?} names no days")))?,
            Span::One(text) => {
                let day = days.date("the days", text)?;
                (day, day)
            }
            Span::Between(from, to) => (days.date("the days", from)?, days.date("the days", to)?),
        };
        let reply = client.reply(|c| c.calendar().range(CalendarQuery { from, to }))?;
        if global.json {
            return output::json(&reply.body);
        }
        let zone = TimeZone::get(&me.time_zone_iana).unwrap_or(TimeZone::UTC);
        let vocabulary = Vocabulary::load(&client)?;
        print(&reply.data, &agenda(&reply.data, &zone, &vocabulary))
    }
}

/// One line of a day: when (or what kind of date), and what.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    when: String,
    what: String,
}

/// A day of the agenda and its lines.
#[derive(Debug)]
struct Day {
    date: Date,
    rows: Vec<Row>,
}

/// The days of `range` that have something, and today when it is in the
/// range, each with its lines: all-day events, key dates, project dates
/// and tasks due (each in the API's order), then timed events by start.
/// An event lasting several days is on each of its days.
fn agenda(range: &CalendarRange, zone: &TimeZone, vocabulary: &Vocabulary) -> Vec<Day> {
    let mut days = Vec::new();
    let mut date = range.from;
    while date <= range.to {
        let mut rows = Vec::new();
        for event in range.events.iter().filter(|e| e.all_day) {
            if all_day_on(event, date) {
                rows.push(Row {
                    when: "all day".to_owned(),
                    what: event_text(event, vocabulary, true),
                });
            }
        }
        for key_date in range.key_dates.iter().filter(|k| k.date == date) {
            let kind = vocabulary.label("key_date_kinds", &key_date.key_date.kind);
            let mut what = key_date.person.name.clone();
            if let Some(label) = &key_date.key_date.label {
                what.push_str(&format!(" · {label}"));
            }
            if let Some(years) = key_date.years {
                let unit = if years == 1 { "year" } else { "years" };
                what.push_str(&format!(" ({years} {unit})"));
            }
            rows.push(Row {
                when: kind.to_lowercase(),
                what,
            });
        }
        for project_date in range.project_dates.iter().filter(|p| p.date == date) {
            rows.push(Row {
                when: project_date.kind.clone(),
                what: format!("{} (project)", project_date.project.name),
            });
        }
        for task in range.tasks.iter().filter(|t| t.deadline_on == Some(date)) {
            let when = if task.status == TaskStatus::Completed {
                "done"
            } else {
                "due"
            };
            rows.push(Row {
                when: when.to_owned(),
                what: format!("{} ({})", task.title, output::short_id(task.id)),
            });
        }
        for event in range.events.iter().filter(|e| !e.all_day) {
            if let Some(when) = timed_on(event, date, zone) {
                rows.push(Row {
                    when,
                    what: event_text(event, vocabulary, true),
                });
            }
        }
        if !rows.is_empty() || date == range.today {
            days.push(Day { date, rows });
        }
        match date.tomorrow() {
            Ok(next) => date = next,
            Err(_) => break,
        }
    }
    days
}

/// Prints the agenda: each day's heading (today's labelled), its lines
/// indented with their times aligned, a blank line between days.
fn print(range: &CalendarRange, days: &[Day]) -> Result<(), CliError> {
    if days.is_empty() {
        return output::line(if range.from == range.to {
            format!("Nothing on {}.", output::day(range.from))
        } else {
            format!(
                "Nothing from {} to {}.",
                output::day(range.from),
                output::day(range.to)
            )
        });
    }
    let width = days
        .iter()
        .flat_map(|d| &d.rows)
        .map(|r| r.when.chars().count())
        .max()
        .unwrap_or(0);
    for (i, day) in days.iter().enumerate() {
        if i > 0 {
            output::line("")?;
        }
        let today = day.date == range.today;
        let mut heading = output::day(day.date);
        if today {
            heading.push_str(" · today");
        }
        output::heading(heading, today)?;
        if day.rows.is_empty() {
            output::line("  Nothing.")?;
        }
        for row in &day.rows {
            let line = format!("  {:<width$}  {}", row.when, row.what);
            output::line(line.trim_end())?;
        }
    }
    Ok(())
}

/// Whether an all-day event covers `date` (its first to its last day).
fn all_day_on(event: &CalendarEvent, date: Date) -> bool {
    match event.start_on {
        Some(first) => {
            let last = event.end_on.unwrap_or(first).max(first);
            first <= date && date <= last
        }
        None => false,
    }
}

/// A timed event's start and end (never before its start) in `zone`, and
/// the last day it is on: the day before its end when it ends at a
/// midnight after its start.
fn local_span(event: &CalendarEvent, zone: &TimeZone) -> Option<(Zoned, Zoned, Date)> {
    let start: Timestamp = event.starts_at?;
    let end = event.ends_at.unwrap_or(start).max(start);
    let last = if end > start {
        end.checked_sub(SignedDuration::from_nanos(1))
            .unwrap_or(end)
            .to_zoned(zone.clone())
            .date()
    } else {
        start.to_zoned(zone.clone()).date()
    };
    Some((
        start.to_zoned(zone.clone()),
        end.to_zoned(zone.clone()),
        last,
    ))
}

/// "09:00–10:00" for a timed event on `date`; on the days of one that
/// lasts several, "22:00–…" on its first, "…–02:00" on its last and
/// "all day" between; `None` when it is not on `date`.
fn timed_on(event: &CalendarEvent, date: Date, zone: &TimeZone) -> Option<String> {
    let (start, end, last) = local_span(event, zone)?;
    let first = start.date();
    if date < first || date > last {
        return None;
    }
    Some(match (date == first, date == last) {
        (true, true) if end > start => format!("{}–{}", hm(&start), hm(&end)),
        (true, true) => hm(&start),
        (true, false) => format!("{}–…", hm(&start)),
        (false, true) => format!("…–{}", hm(&end)),
        (false, false) => "all day".to_owned(),
    })
}

fn hm(at: &Zoned) -> String {
    at.strftime("%H:%M").to_string()
}

/// When an event is, whole, in the owner's zone: "Mon 2026-03-09
/// 10:00–11:00", "Mon 2026-03-09 22:00 – Tue 2026-03-10 02:00", "Tue
/// 2026-03-10 · all day", "Tue 2026-03-10 – Thu 2026-03-12 · all day".
pub(crate) fn event_when(event: &CalendarEvent, zone: &TimeZone) -> String {
    if event.all_day {
        return match event.start_on {
            Some(first) => match event.end_on.filter(|last| *last > first) {
                Some(last) => format!("{} – {} · all day", output::day(first), output::day(last)),
                None => format!("{} · all day", output::day(first)),
            },
            None => "all day".to_owned(),
        };
    }
    let Some((start, end, last)) = local_span(event, zone) else {
        return String::new();
    };
    let day = output::day(start.date());
    if end == start {
        format!("{day} {}", hm(&start))
    } else if last == start.date() {
        format!("{day} {}–{}", hm(&start), hm(&end))
    } else {
        format!(
            "{day} {} – {} {}",
            hm(&start),
            output::day(end.date()),
            hm(&end)
        )
    }
}

/// "Standup · Room 4 · Zoom: https://zoom.us/j/1": the title ("(no
/// title)" when blank), the location when `location` (unless it is the
/// meeting's link itself), and the meeting link after its service's name.
pub(crate) fn event_text(event: &CalendarEvent, vocabulary: &Vocabulary, location: bool) -> String {
    let mut parts = vec![if event.title.is_empty() {
        "(no title)".to_owned()
    } else {
        event.title.clone()
    }];
    if location
        && let Some(place) = &event.location
        && event.meeting.as_ref().is_none_or(|m| m.url != *place)
    {
        parts.push(place.clone());
    }
    if let Some(meeting) = &event.meeting {
        let provider = vocabulary.label("meeting_providers", &meeting.provider);
        parts.push(format!("{provider}: {}", meeting.url));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_names_days() {
        let today = jiff::civil::date(2026, 3, 11);
        assert_eq!(Span::of(None, today), Span::Today);
        assert_eq!(Span::of(Some(" Today "), today), Span::Today);
        assert_eq!(Span::of(Some("WEEK"), today), Span::Words("WEEK"));
        assert_eq!(Span::of(Some("next week"), today), Span::Words("next week"));
        assert_eq!(Span::of(Some("month"), today), Span::Words("month"));
        assert_eq!(Span::of(Some("friday"), today), Span::One("friday"));
        assert_eq!(
            Span::of(Some("2026-03-01..2026-03-31"), today),
            Span::Between("2026-03-01", "2026-03-31")
        );
        assert_eq!(
            Span::of(Some("today .. +2w"), today),
            Span::Between("today", "+2w")
        );
    }

    fn event(starts: &str, ends: &str) -> CalendarEvent {
        CalendarEvent {
            key: "k".into(),
            feed_id: organiser_core::Id::parse("01KM0000000000000000000000").unwrap(),
            title: "Late".into(),
            all_day: false,
            starts_at: Some(starts.parse().unwrap()),
            ends_at: Some(ends.parse().unwrap()),
            start_on: None,
            end_on: None,
            location: None,
            description: None,
            url: None,
            meeting: None,
            attendee_count: 0,
            attendee_names: Vec::new(),
            attendees: Vec::new(),
            rrule: None,
        }
    }

    #[test]
    fn a_timed_event_is_on_each_of_its_days_in_the_owner_s_zone() {
        let paris = TimeZone::get("Europe/Paris").unwrap();
        let on = |e: &CalendarEvent, day: &str| timed_on(e, day.parse().unwrap(), &paris);
        let short = event("2026-03-09T09:00:00Z", "2026-03-09T10:00:00Z");
        assert_eq!(on(&short, "2026-03-09").as_deref(), Some("10:00–11:00"));
        assert_eq!(on(&short, "2026-03-10"), None);
        let long = event("2026-03-09T21:00:00Z", "2026-03-11T01:00:00Z");
        assert_eq!(on(&long, "2026-03-09").as_deref(), Some("22:00–…"));
        assert_eq!(on(&long, "2026-03-10").as_deref(), Some("all day"));
        assert_eq!(on(&long, "2026-03-11").as_deref(), Some("…–02:00"));
        // Ending at midnight: not on the next day.
        let to_midnight = event("2026-03-09T21:00:00Z", "2026-03-09T23:00:00Z");
        assert_eq!(
            on(&to_midnight, "2026-03-09").as_deref(),
            Some("22:00–00:00")
        );
        assert_eq!(on(&to_midnight, "2026-03-10"), None);
        let instant = event("2026-03-09T09:00:00Z", "2026-03-09T09:00:00Z");
        assert_eq!(on(&instant, "2026-03-09").as_deref(), Some("10:00"));
    }
}
