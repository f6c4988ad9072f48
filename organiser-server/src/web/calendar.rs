//! The calendar's pages (EXTENSIONS.md §6, "Pages": the calendar, week and
//! month, and its feeds): `/calendar` shows a week (Monday first, the week
//! of today in the owner's zone unless `date` names another day) or a
//! month (`?view=month&date=YYYY-MM-DD`: the weeks from the Monday on or
//! before its first day to the Sunday on or after its last, at most the
//! core's 42 days), each day with what the core's calendar range puts on
//! it: feed events (times in the owner's zone, all-day ones first, the
//! attendees who are people linked to them), tasks due, repeating tasks'
//! dates to come, projects' starts and deadlines, and people's key dates.
//! `/calendar/feeds` lists the feeds with their health (last sync, the
//! error of the last try) and adds one by its address (the core fetches it
//! first), syncs one or all now, and deletes one. Each a plain form.

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing::{get, post};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp};
use organiser_core::calendar::{
    CalendarEvent, CalendarFeed, CalendarFeedInput, CalendarFeedQuery, CalendarQuery, CalendarRange,
};
use organiser_core::tasks::TaskStatus;
use organiser_core::vocabulary::{IconChoice, vocabulary};
use organiser_core::{Error, Field, Id};
use serde::Deserialize;

use super::forms::{
    FieldErrors, PlainForm, SignedForm, SignedIn, Token, answer, every, invalid, record_id,
};
use super::{Chrome, Refusal, blocking, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/calendar", get(calendar))
        .route("/calendar/feeds", get(feeds).post(add_feed))
        .route("/calendar/feeds/sync", post(sync_all))
        .route("/calendar/feeds/{id}/sync", post(sync_feed))
        .route("/calendar/feeds/{id}/delete", post(delete_feed))
}

// ---------------------------------------------------------------------
// The week and the month.

/// `GET /calendar?view=&date=`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct CalendarParams {
    view: Option<String>,
    date: Option<String>,
}

/// Someone at an event.
struct Attendee {
    name: String,
    /// Their page, when they are a person of the organiser.
    href: Option<String>,
    organizer: bool,
}

/// One thing on a day.
struct Item {
    /// `event`, `task`, `repeat`, `project` or `key-date` (a class).
    kind: &'static str,
    /// The time of an event, else empty.
    time: String,
    /// What it is called on the page.
    title: String,
    /// Its page, when it has one of ours.
    href: Option<String>,
    /// Said after the title: "repeats", "deadline", "turns 40", "done".
    note: String,
    /// Where an event is.
    location: Option<String>,
    /// The link to join an event's meeting.
    join: Option<String>,
    attendees: Vec<Attendee>,
    /// Whether it is done (a completed task).
    done: bool,
}

/// A day with what falls on it.
struct Day {
    date: Date,
    /// `YYYY-MM-DD`.
    iso: String,
    /// "Monday 9 March".
    name: String,
    /// Its weekday ("Monday"), its day of the month and its month
    /// ("March"), for the month's table.
    weekday: &'static str,
    number: i8,
    month: &'static str,
    today: bool,
    /// In the month's table, a day of the month before or after.
    outside: bool,
    items: Vec<Item>,
}

/// A link of the page's navigation.
struct Link {
    label: String,
    href: String,
}

/// `/calendar`.
#[derive(Template)]
#[template(path = "calendar.html", whitespace = "minimize")]
struct CalendarPage<'a> {
    chrome: Chrome<'a>,
    /// `week` or `month`.
    view: &'static str,
    /// "9 – 15 March 2026" or "March 2026".
    title: String,
    previous: Link,
    next: Link,
    today_href: String,
    week_href: String,
    month_href: String,
    /// The week's days, or the month's weeks.
    days: Vec<Day>,
    weeks: Vec<Vec<Day>>,
    /// The owner's zone (the times are in it).
    zone: String,
    /// Whether there are no feeds yet.
    no_feeds: bool,
}

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn weekday_name(d: Date) -> &'static str {
    WEEKDAYS[usize::try_from(d.weekday().to_monday_zero_offset()).unwrap_or(0)]
}

fn month_name(d: Date) -> &'static str {
    MONTHS[usize::try_from(d.month() - 1).unwrap_or(0)]
}

/// `d` plus `n` days (or months), clamped to jiff's range.
fn days(d: Date, n: i64) -> Date {
    d.checked_add(Span::new().days(n)).unwrap_or(d)
}

fn months(d: Date, n: i64) -> Date {
    d.checked_add(Span::new().months(n)).unwrap_or(d)
}

/// The Monday on or before `d`.
fn monday(d: Date) -> Date {
    days(d, -i64::from(d.weekday().to_monday_zero_offset()))
}

/// The Sunday on or after `d`.
fn sunday(d: Date) -> Date {
    days(d, i64::from(6 - d.weekday().to_monday_zero_offset()))
}

/// The days an event is on: an all-day one its days, a timed one the
/// days in `zone` from its start to its end (an end at midnight not
/// counting the day it begins).
fn event_days(e: &CalendarEvent, zone: &TimeZone) -> Option<(Date, Date)> {
    if e.all_day {
        let first = e.start_on?;
        return Some((first, e.end_on.unwrap_or(first).max(first)));
    }
    let start = e.starts_at?.to_zoned(zone.clone());
    let first = start.date();
    let last = match e.ends_at {
        Some(end) if end > start.timestamp() => {
            let end = end.to_zoned(zone.clone());
            if end.time() == jiff::civil::Time::midnight() {
                days(end.date(), -1).max(first)
            } else {
                end.date()
            }
        }
        _ => first,
    };
    Some((first, last))
}

fn clock(at: Timestamp, zone: &TimeZone) -> String {
    at.to_zoned(zone.clone()).strftime("%H:%M").to_string()
}

/// What an event says of its time on `day`.
fn event_time(e: &CalendarEvent, day: Date, zone: &TimeZone) -> String {
    if e.all_day {
        return "All day".to_owned();
    }
    let (Some(start), end) = (e.starts_at, e.ends_at) else {
        return String::new();
    };
    let start_day = start.to_zoned(zone.clone()).date();
    let end_day = end.map(|t| t.to_zoned(zone.clone()).date());
    match (start_day == day, end) {
        (true, Some(end)) if end_day == Some(day) => {
            format!("{}–{}", clock(start, zone), clock(end, zone))
        }
        (true, Some(_)) | (true, None) => clock(start, zone),
        (false, Some(end)) if end_day == Some(day) => format!("until {}", clock(end, zone)),
        _ => "All day".to_owned(),
    }
}

/// The label of a key date's kind.
fn kind_label(kinds: &[IconChoice], kind: &str) -> String {
    kinds
        .iter()
        .find(|k| k.key == kind)
        .map_or_else(|| kind.replace('_', " "), |k| k.label.to_owned())
}

/// The days from `first` to `last` with what `range` puts on them.
fn lay_out(range: &CalendarRange, zone: &TimeZone, first: Date, last: Date) -> Vec<Day> {
    let count = usize::try_from((last - first).get_days() + 1).unwrap_or(0);
    let mut out: Vec<Day> = (0..count)
        .map(|i| {
            let d = days(first, i64::try_from(i).unwrap_or(0));
            Day {
                date: d,
                iso: d.to_string(),
                name: format!("{} {} {}", weekday_name(d), d.day(), month_name(d)),
                weekday: weekday_name(d),
                number: d.day(),
                month: month_name(d),
                today: d == range.today,
                outside: false,
                items: Vec::new(),
            }
        })
        .collect();
    let index = |d: Date| -> Option<usize> {
        if d < first || d > last {
            return None;
        }
        usize::try_from((d - first).get_days()).ok()
    };
    let person_name = |id: Id| range.people.iter().find(|p| p.id == id).map(|p| &p.name);
    // Events: on each of their days; all-day ones first on a day.
    let mut timed: Vec<Vec<Item>> = (0..count).map(|_| Vec::new()).collect();
    for e in &range.events {
        let Some((from, to)) = event_days(e, zone) else {
            continue;
        };
        let mut d = from.max(first);
        while d <= to.min(last) {
            if let Some(i) = index(d) {
                let attendees = e
                    .attendees
                    .iter()
                    .map(|a| Attendee {
                        name: a
                            .person_id
                            .and_then(person_name)
                            .cloned()
                            .unwrap_or_else(|| a.name.clone()),
                        href: a.person_id.map(|id| format!("/people/{id}")),
                        organizer: a.organizer,
                    })
                    .collect();
                let more = e
                    .attendee_count
                    .saturating_sub(u32::try_from(e.attendees.len()).unwrap_or(u32::MAX));
                let item = Item {
                    kind: "event",
                    time: event_time(e, d, zone),
                    title: if e.title.trim().is_empty() {
                        "(No title)".to_owned()
                    } else {
                        e.title.clone()
                    },
                    href: None,
                    note: if more > 0 {
                        format!("and {more} more")
                    } else {
                        String::new()
                    },
                    location: e.location.clone().filter(|l| !l.trim().is_empty()),
                    join: e.meeting.as_ref().map(|m| m.url.clone()),
                    attendees,
                    done: false,
                };
                if e.all_day {
                    out[i].items.push(item);
                } else {
                    timed[i].push(item);
                }
            }
            d = days(d, 1);
        }
    }
    for (day, items) in out.iter_mut().zip(timed) {
        day.items.extend(items);
    }
    let plain = |kind, title: String, href: String, note: String| Item {
        kind,
        time: String::new(),
        title,
        href: Some(href),
        note,
        location: None,
        join: None,
        attendees: Vec::new(),
        done: false,
    };
    for t in &range.tasks {
        let Some(i) = t.deadline_on.and_then(index) else {
            continue;
        };
        let done = t.status == TaskStatus::Completed;
        let mut item = plain(
            "task",
            t.title.clone(),
            format!("/tasks/{}", t.id),
            if done { "done".into() } else { "due".into() },
        );
        item.done = done;
        out[i].items.push(item);
    }
    for r in &range.repeats {
        if let Some(i) = index(r.date) {
            out[i].items.push(plain(
                "repeat",
                r.task.title.clone(),
                format!("/tasks/{}", r.task.id),
                "repeats".into(),
            ));
        }
    }
    for p in &range.project_dates {
        if let Some(i) = index(p.date) {
            let note = if p.kind == "deadline" {
                "deadline"
            } else {
                "starts"
            };
            out[i].items.push(plain(
                "project",
                p.project.name.clone(),
                format!("/projects/{}", p.project.id),
                note.into(),
            ));
        }
    }
    let kinds = vocabulary(false).key_date_kinds;
    for k in &range.key_dates {
        if let Some(i) = index(k.date) {
            let what = match &k.key_date.label {
                Some(label) if !label.trim().is_empty() => label.clone(),
                _ => kind_label(kinds, &k.key_date.kind),
            };
            let note = match k.years {
                Some(years) => format!("{what}, {years} years"),
                None => what,
            };
            out[i].items.push(plain(
                "key-date",
                k.person.name.clone(),
                format!("/people/{}", k.person.id),
                note,
            ));
        }
    }
    out
}

/// The day `text` names (`YYYY-MM-DD`), else 400.
fn parse_day(text: &str) -> Result<Date, Refusal> {
    text.parse::<Date>()
        .map_err(|_| Refusal::Core(Error::bad_param("date", "must be a date (YYYY-MM-DD)")))
}

/// `GET /calendar`.
async fn calendar(Query(q): Query<CalendarParams>, owner: SignedIn) -> Result<Response, Refusal> {
    let month = match q.view.as_deref() {
        None | Some("" | "week") => false,
        Some("month") => true,
        Some(_) => {
            return Err(Refusal::Core(Error::bad_param(
                "view",
                "must be week or month",
            )));
        }
    };
    let asked = match q.date.as_deref() {
        None | Some("") => None,
        Some(text) => Some(parse_day(text)?),
    };
    let (range, zone, today, no_feeds) = blocking(&owner.state, move |org| {
        let zone = org.zone();
        let today = org.today();
        let day = asked.unwrap_or(today);
        let (from, to) = if month {
            let first = day.first_of_month();
            (monday(first), sunday(first.last_of_month()))
        } else {
            (monday(day), sunday(day))
        };
        let range = org.calendar().range(CalendarQuery::new(from, to)?)?;
        let no_feeds = org
            .calendar_feeds()
            .list(&CalendarFeedQuery::default())?
            .items
            .is_empty();
        Ok((range, zone, today, no_feeds))
    })
    .await?;
    let tz = zone.time_zone().clone();
    let day = asked.unwrap_or(today);
    let page = if month {
        let first = day.first_of_month();
        let mut all = lay_out(&range, &tz, range.from, range.to);
        for d in &mut all {
            d.outside = d.date.year() != first.year() || d.date.month() != first.month();
        }
        let mut weeks = Vec::new();
        let mut rest = all.into_iter().peekable();
        while rest.peek().is_some() {
            weeks.push(rest.by_ref().take(7).collect());
        }
        let previous = months(first, -1);
        let next = months(first, 1);
        CalendarPage {
            chrome: owner.session.chrome("calendar"),
            view: "month",
            title: format!("{} {}", month_name(first), first.year()),
            previous: Link {
                label: format!("{} {}", month_name(previous), previous.year()),
                href: format!("/calendar?view=month&date={previous}"),
            },
            next: Link {
                label: format!("{} {}", month_name(next), next.year()),
                href: format!("/calendar?view=month&date={next}"),
            },
            today_href: "/calendar?view=month".to_owned(),
            week_href: format!(
                "/calendar?date={}",
                if first.year() == today.year() && first.month() == today.month() {
                    today
                } else {
                    first
                }
            ),
            month_href: format!("/calendar?view=month&date={first}"),
            days: Vec::new(),
            weeks,
            zone: zone.iana().to_owned(),
            no_feeds,
        }
    } else {
        let first = range.from;
        let previous = days(first, -7);
        let next = days(first, 7);
        CalendarPage {
            chrome: owner.session.chrome("calendar"),
            view: "week",
            title: week_title(first, range.to),
            previous: Link {
                label: "Previous week".to_owned(),
                href: format!("/calendar?date={previous}"),
            },
            next: Link {
                label: "Next week".to_owned(),
                href: format!("/calendar?date={next}"),
            },
            today_href: "/calendar".to_owned(),
            week_href: format!("/calendar?date={first}"),
            month_href: format!("/calendar?view=month&date={}", day.first_of_month()),
            days: lay_out(&range, &tz, range.from, range.to),
            weeks: Vec::new(),
            zone: zone.iana().to_owned(),
            no_feeds,
        }
    };
    Ok(answer(&page, false))
}

/// "9 – 15 March 2026", "30 March – 5 April 2026", "29 December 2025 – 4
/// January 2026".
fn week_title(from: Date, to: Date) -> String {
    if from.year() != to.year() {
        format!(
            "{} {} {} – {} {} {}",
            from.day(),
            month_name(from),
            from.year(),
            to.day(),
            month_name(to),
            to.year()
        )
    } else if from.month() != to.month() {
        format!(
            "{} {} – {} {} {}",
            from.day(),
            month_name(from),
            to.day(),
            month_name(to),
            to.year()
        )
    } else {
        format!(
            "{} – {} {} {}",
            from.day(),
            to.day(),
            month_name(to),
            to.year()
        )
    }
}

// ---------------------------------------------------------------------
// The feeds.

/// A feed as `/calendar/feeds` shows it.
struct FeedRow {
    id: Id,
    name: String,
    color: String,
    host: String,
    every: String,
    last_synced: String,
    /// "Working", or what went wrong at the last try.
    health: String,
    failing: bool,
    /// What the last sync left out or guessed.
    warnings: Option<String>,
}

/// `/calendar/feeds`.
#[derive(Template)]
#[template(path = "calendar_feeds.html", whitespace = "minimize")]
struct FeedsPage<'a> {
    chrome: Chrome<'a>,
    feeds: Vec<FeedRow>,
    /// The new feed's fields as typed, and what the core refused.
    address: String,
    name: String,
    address_error: Option<String>,
    name_error: Option<String>,
    /// The colours to choose from (key, label), and the one chosen.
    colors: Vec<(&'static str, &'static str)>,
    color: String,
    color_error: Option<String>,
    general: Vec<String>,
}

fn when(at: Option<Timestamp>, zone: &TimeZone) -> String {
    at.map_or_else(
        || "Never".to_owned(),
        |at| {
            at.to_zoned(zone.clone())
                .strftime("%a %-d %b %Y %H:%M")
                .to_string()
        },
    )
}

fn feed_row(f: CalendarFeed, zone: &TimeZone) -> FeedRow {
    let vocab = vocabulary(false);
    let (health, failing) = match &f.sync_error {
        None if f.last_synced_at.is_none() => ("Not read yet".to_owned(), false),
        None => ("Working".to_owned(), false),
        Some(e) => {
            let label = vocab
                .calendar_sync_errors
                .iter()
                .find(|c| c.key == e.code)
                .map_or("The calendar could not be read", |c| c.label);
            let mut said = label.to_owned();
            if let Some(status) = e.http_status {
                said.push_str(&format!(" (HTTP {status})"));
            }
            if e.failures > 1 {
                said.push_str(&format!("; {} tries in a row failed", e.failures));
            }
            said.push_str(&format!(". Last try: {}.", when(f.last_attempt_at, zone)));
            (said, true)
        }
    };
    let warnings = f.sync_warnings.as_ref().map(|w| {
        let mut parts = Vec::new();
        if w.skipped_lines > 0 {
            parts.push(format!("{} lines could not be read", w.skipped_lines));
        }
        for g in &w.guessed_zones {
            parts.push(format!("“{}” read as {}", g.tzid, g.zone));
        }
        for z in &w.unknown_zones {
            parts.push(format!("unknown zone “{z}” read as UTC"));
        }
        parts.join("; ")
    });
    let every = vocab
        .calendar_sync_frequencies
        .iter()
        .find(|c| c.key == f.sync_every)
        .map_or_else(|| f.sync_every.clone(), |c| c.label.to_owned());
    let color = vocab
        .colors
        .iter()
        .find(|c| c.key == f.color)
        .map_or_else(|| f.color.clone(), |c| c.label.to_owned());
    FeedRow {
        id: f.id,
        name: f.name,
        color,
        host: f.address_host,
        every,
        last_synced: when(f.last_synced_at, zone),
        health,
        failing,
        warnings: warnings.filter(|w| !w.is_empty()),
    }
}

/// Draws `/calendar/feeds`: `typed` the add form as sent, `refused` what
/// the core said of it (422).
async fn draw_feeds(
    owner: &SignedIn,
    typed: Option<FeedForm>,
    refused: Option<FieldErrors>,
) -> Result<Response, Refusal> {
    let (feeds, zone) = blocking(&owner.state, |org| {
        let feeds = every(|params| {
            org.calendar_feeds().list(&CalendarFeedQuery {
                address: None,
                params,
            })
        })?;
        Ok((feeds, org.zone()))
    })
    .await?;
    let tz = zone.time_zone();
    let typed = typed.unwrap_or_default();
    let errors = refused.unwrap_or_default();
    let is_refused = !errors.is_empty();
    let palette = vocabulary(false).colors;
    // The colour offered first: the first no feed has yet.
    let color = if typed.color.is_empty() {
        palette
            .iter()
            .find(|c| !feeds.iter().any(|f| f.color == c.key))
            .or(palette.first())
            .map_or_else(String::new, |c| c.key.to_owned())
    } else {
        typed.color
    };
    let page = FeedsPage {
        chrome: owner.session.chrome("calendar"),
        feeds: feeds.into_iter().map(|f| feed_row(f, tz)).collect(),
        address: typed.address,
        name: typed.name,
        address_error: errors.of("address"),
        name_error: errors.of("name"),
        colors: palette.iter().map(|c| (c.key, c.label)).collect(),
        color,
        color_error: errors.of("color"),
        general: errors.others(&["address", "name", "color"]),
    };
    Ok(answer(&page, is_refused))
}

/// `GET /calendar/feeds`.
async fn feeds(owner: SignedIn) -> Result<Response, Refusal> {
    draw_feeds(&owner, None, None).await
}

/// The form adding a feed.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct FeedForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    address: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    color: String,
}

impl Token for FeedForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// `POST /calendar/feeds`: subscribes (the core reads the address
/// first); 303 to the feeds, or the page again with why (422).
async fn add_feed(sent: SignedForm<FeedForm>) -> Result<Response, Refusal> {
    let name = sent.form.name.trim().to_owned();
    let input = CalendarFeedInput {
        name: if name.is_empty() {
            Field::Absent
        } else {
            Field::Value(name)
        },
        address: Some(sent.form.address.trim().to_owned()),
        color: Field::Value(sent.form.color.clone()),
        ..CalendarFeedInput::default()
    };
    let made = blocking(&sent.owner.state, move |org| {
        org.calendar_feeds().create(input)
    })
    .await;
    match invalid(made)? {
        Ok(_) => Ok(see_other("/calendar/feeds")),
        Err(details) => {
            let errors = FieldErrors::from_details(&details, &[]);
            draw_feeds(&sent.owner, Some(sent.form), Some(errors)).await
        }
    }
}

/// `POST /calendar/feeds/{id}/sync`: reads it now (a failure is in its
/// health); 303 to the feeds.
async fn sync_feed(
    Path(id): Path<String>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.calendar_feeds().sync(id)).await?;
    Ok(see_other("/calendar/feeds"))
}

/// `POST /calendar/feeds/sync`: reads every feed now; 303 to the feeds.
async fn sync_all(sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    blocking(&sent.owner.state, |org| org.calendar_feeds().sync_all()).await?;
    Ok(see_other("/calendar/feeds"))
}

/// `POST /calendar/feeds/{id}/delete`: deletes it (its events leave the
/// calendar); 303 to the feeds.
async fn delete_feed(
    Path(id): Path<String>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| {
        org.calendar_feeds().delete(id)
    })
    .await?;
    Ok(see_other("/calendar/feeds"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::Weekday;

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn weeks_begin_on_monday_and_months_fill_whole_weeks() {
        // 2026-03-10 is a Tuesday.
        assert_eq!(monday(d("2026-03-10")), d("2026-03-09"));
        assert_eq!(monday(d("2026-03-09")), d("2026-03-09"));
        assert_eq!(sunday(d("2026-03-15")), d("2026-03-15"));
        assert_eq!(monday(d("2026-03-01")), d("2026-02-23"));
        assert_eq!(sunday(d("2026-03-31")), d("2026-04-05"));
        // The longest month grid is six weeks: the core's 42 days.
        let first = d("2026-08-01");
        let span = sunday(first.last_of_month()) - monday(first);
        assert_eq!(span.get_days() + 1, 42);
    }

    #[test]
    fn week_titles_name_their_months_and_years() {
        assert_eq!(
            week_title(d("2026-03-09"), d("2026-03-15")),
            "9 – 15 March 2026"
        );
        assert_eq!(
            week_title(d("2026-03-30"), d("2026-04-05")),
            "30 March – 5 April 2026"
        );
        assert_eq!(
            week_title(d("2025-12-29"), d("2026-01-04")),
            "29 December 2025 – 4 January 2026"
        );
    }

    #[test]
    fn a_weekday_is_named() {
        assert_eq!(weekday_name(d("2026-03-10")), "Tuesday");
        assert_eq!(Weekday::Monday.to_monday_zero_offset(), 0);
    }
}
