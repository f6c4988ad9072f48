//! The feed at `/ics/{secret}.ics` (EXTENSIONS.md §2): RFC 5545 that
//! Apple Calendar, Google Calendar, Thunderbird and Outlook read, written
//! with the `icalendar` crate (which folds lines at 75 octets and escapes
//! text values).
//!
//! The calendar: `VERSION:2.0`, `PRODID`, `CALSCALE:GREGORIAN`,
//! `METHOD:PUBLISH`, `X-WR-CALNAME` (the subscription's name),
//! `X-WR-TIMEZONE` (the owner's zone), and `REFRESH-INTERVAL` and
//! `X-PUBLISHED-TTL` of one hour. Every item is an all-day `VEVENT`
//! (`DTSTART;VALUE=DATE`, `DTEND` the next day, `TRANSP:TRANSPARENT`: it
//! does not make the owner busy), with `DTSTAMP` and `LAST-MODIFIED` its
//! record's `updated_at` to the second, and a `UID` that never changes:
//!
//! - an open task with a deadline (`include` `tasks`; its home one the
//!   subscription names when it names any): `<task id>-deadline@organiser`
//!   on `deadline_on`, the title as `SUMMARY`, the description's text as
//!   `DESCRIPTION`. The open occurrence of a `from: due` series carries
//!   the series' rule from its own date, `COUNT` reduced to the dates that
//!   remain; a `from: completion` series shows its open occurrence only.
//! - a planned, active or on-hold project (`projects`):
//!   `<project id>-start@organiser` on `start_date` ("Name: start") and
//!   `<project id>-deadline@organiser` on `deadline` ("Name: deadline").
//! - a live person's key date (`key_dates`), "Ada Lovelace's birthday":
//!   one event, `<key date id>@organiser`, with `RRULE:FREQ=YEARLY` from
//!   the date in its year (last year for a date without one); a date on
//!   29 February is instead one event a year from last year to three
//!   years ahead, `<key date id>-<year>@organiser`, on 1 March in a year
//!   without a 29 February (a yearly rule would skip those years).
//!
//! With `alarm_minutes`, each event has a `VALARM` (`ACTION:DISPLAY`,
//! `TRIGGER:-PT<n>M`, its summary as `DESCRIPTION`, and a `UID` and
//! `DTSTAMP` of its own, which the crate writes on every component).
//!
//! The items come in a fixed order, so a store that has not changed gives
//! the same bytes: the `ETag` is a digest of them, and a request whose
//! `If-None-Match` names it is answered 304 without a body. The bytes are
//! kept in memory for the commit generation and day they were made for,
//! so asking again costs the lookup of the address and nothing more.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use icalendar::{Calendar, Component, Event, EventLike, Property};
use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::{CalendarSubscription, Include};
use crate::engine::ReadCx;
use crate::engine::operation::{Args, Outgoing, Part};
use crate::engine::request::{Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::people::{self, KeyDate};
use crate::resources::projects::{self, Project};
use crate::resources::tasks::{self, Home, Task};
use crate::store::Tables;
use crate::time::{add_days, basic_date, basic_utc};

/// A request for a feed: the last segment of its address
/// (`<secret>.ics`) and its `If-None-Match`.
#[derive(Clone, PartialEq, Eq)]
pub struct FeedRequest {
    /// The address's last segment, `<secret>.ics`.
    pub file: String,
    /// The `If-None-Match` header, when sent.
    pub if_none_match: Option<String>,
}

impl std::fmt::Debug for FeedRequest {
    /// Never shows the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FeedRequest")
            .field("file", &"…")
            .field("if_none_match", &self.if_none_match)
            .finish()
    }
}

impl Part for FeedRequest {
    const EARLY: bool = true;

    fn read(req: &Request, args: &mut Args<'_>) -> Result<FeedRequest> {
        Ok(FeedRequest {
            file: String::read(req, args)?,
            if_none_match: req.if_none_match.clone(),
        })
    }

    fn write(&self, out: &mut Outgoing) {
        self.file.write(out);
        if let Some(tag) = &self.if_none_match {
            out.if_none_match(tag);
        }
    }
}

/// A feed's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Feed {
    /// 200: the calendar.
    Calendar {
        /// Its entity tag (quoted).
        etag: String,
        /// The iCalendar text.
        body: String,
    },
    /// 304: the client's copy, named by `If-None-Match`, is current.
    NotModified {
        /// Its entity tag (quoted).
        etag: String,
    },
}

/// The feed's content type.
const CONTENT_TYPE: &str = "text/calendar; charset=utf-8";

/// The HTTP answer of a feed: the calendar with its `ETag`, or a 304.
pub(crate) fn respond(feed: Feed, _: &Request) -> Response {
    let (status, etag, body) = match feed {
        Feed::Calendar { etag, body } => (200, etag, Some(body.into_bytes())),
        Feed::NotModified { etag } => (304, etag, None),
    };
    Response {
        status,
        body,
        replayed: false,
        headers: vec![
            ("content-type", CONTENT_TYPE.to_owned()),
            ("etag", etag),
            // Calendar programs ask again every hour; every ask is checked
            // against the entity tag, and nothing shared keeps a copy.
            ("cache-control", "private, no-cache".to_owned()),
            ("x-content-type-options", "nosniff".to_owned()),
            ("referrer-policy", "no-referrer".to_owned()),
        ],
    }
}

/// A feed read back from its HTTP answer (a remote door).
pub(crate) fn read_back(response: &Response) -> Result<Feed> {
    let etag = response.header("etag").unwrap_or_default().to_owned();
    Ok(match response.status {
        304 => Feed::NotModified { etag },
        _ => Feed::Calendar {
            etag,
            body: String::from_utf8_lossy(response.body.as_deref().unwrap_or_default())
                .into_owned(),
        },
    })
}

/// `GET /ics/{secret}.ics`: the feed of the subscription whose secret the
/// address holds; 404 for an unknown or stopped one.
pub(crate) fn feed(cx: &ReadCx<'_>, req: FeedRequest) -> Result<Feed> {
    // The lookup runs whatever the segment is, so that no address is
    // refused sooner than another.
    let secret = req.file.strip_suffix(".ics");
    let sub = super::by_secret(cx, secret.unwrap_or(&req.file));
    let sub = match (secret, sub) {
        (Some(_), Ok(sub)) => sub,
        (_, Err(e)) if e.status() != 404 => return Err(e),
        _ => return Err(Error::NotFound),
    };
    super::reads::note(cx.org, sub.id, sub.last_read_at, cx.now());
    let (etag, body) = made(cx, &sub)?;
    if matches(req.if_none_match.as_deref(), &etag) {
        return Ok(Feed::NotModified { etag });
    }
    Ok(Feed::Calendar {
        etag,
        body: body.as_ref().to_owned(),
    })
}

/// Whether `If-None-Match` names `etag` (weak or strong, in a list, or
/// `*`).
fn matches(if_none_match: Option<&str>, etag: &str) -> bool {
    let Some(header) = if_none_match else {
        return false;
    };
    header
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag)
}

/// The feeds made for one commit generation and day, by subscription.
#[derive(Default)]
pub(crate) struct Made(Mutex<HashMap<Id, Kept>>);

struct Kept {
    generation: u64,
    day: Date,
    etag: String,
    body: Arc<str>,
}

/// At most this many subscriptions' feeds are kept.
const MOST_KEPT: usize = 8;

/// The entity tag and bytes of `sub`'s feed on `cx`: kept, or made (and
/// kept when `cx` names its generation).
fn made(cx: &ReadCx<'_>, sub: &CalendarSubscription) -> Result<(String, Arc<str>)> {
    let kept = cx.org.ext.get::<Made>();
    let day = cx.today();
    if let Some(generation) = cx.generation() {
        let kept = kept.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = kept.get(&sub.id)
            && k.generation == generation
            && k.day == day
        {
            return Ok((k.etag.clone(), k.body.clone()));
        }
    }
    let body: Arc<str> = Arc::from(write(cx, sub)?);
    let digest = crate::secrets::sha256(body.as_bytes());
    let etag = format!("\"{}\"", crate::secrets::to_hex(&digest[..16]));
    if let Some(generation) = cx.generation() {
        let mut kept = kept.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|_, k| k.generation >= generation && k.day == day);
        if kept.len() < MOST_KEPT || kept.contains_key(&sub.id) {
            kept.insert(
                sub.id,
                Kept {
                    generation,
                    day,
                    etag: etag.clone(),
                    body: body.clone(),
                },
            );
        }
    }
    Ok((etag, body))
}

/// The feed of `sub` as the store stands in `cx`.
pub(crate) fn write<T: Tables>(
    cx: &crate::engine::Cx<'_, T>,
    sub: &CalendarSubscription,
) -> Result<String> {
    let mut calendar = Calendar::empty();
    calendar
        .append_property(Property::new("VERSION", "2.0"))
        .append_property(Property::new(
            "PRODID",
            "-//Organiser//Calendar subscription//EN",
        ))
        .append_property(Property::new("CALSCALE", "GREGORIAN"))
        .append_property(Property::new("METHOD", "PUBLISH"))
        // The crate writes an X- property as text, escaped.
        .append_property(Property::new("X-WR-CALNAME", plain(&sub.name)))
        .append_property(Property::new("X-WR-TIMEZONE", cx.zone().iana()))
        .append_property(
            Property::new("REFRESH-INTERVAL", "PT1H")
                .add_parameter("VALUE", "DURATION")
                .done(),
        )
        .append_property(Property::new("X-PUBLISHED-TTL", "PT1H"));
    // The calendar's head as the crate writes it, its END line kept for
    // last; then each event, written by the crate as soon as it is made
    // and dropped (a tree of thousands of events costs more to free than
    // to write).
    let head = calendar.to_string();
    let mut out = String::with_capacity(FEED_BYTES_HINT);
    out.push_str(head.strip_suffix(END).unwrap_or(&head));
    let alarm = sub.alarm_minutes;
    if sub.include.contains(&Include::Tasks) {
        for task in feed_tasks(cx, sub)? {
            put(&mut out, task_event(&task, alarm));
        }
    }
    if sub.include.contains(&Include::Projects) {
        for (project, kind, date) in feed_projects(cx, sub)? {
            put(&mut out, project_event(&project, kind, date, alarm));
        }
    }
    if sub.include.contains(&Include::KeyDates) {
        let this_year = cx.today().year();
        for (person, date) in feed_key_dates(cx)? {
            for event in key_date_events(&person, &date, this_year, alarm) {
                put(&mut out, event);
            }
        }
    }
    out.push_str(END);
    Ok(out)
}

/// The calendar's last line.
const END: &str = "END:VCALENDAR\r\n";

/// What a feed's text is first given room for (a store of 10,000 tasks
/// and 5,000 people writes about 4 MB).
const FEED_BYTES_HINT: usize = 64 * 1024;

/// Writes `event` at the end of `out`.
fn put(out: &mut String, event: Event) {
    // Writing to a String cannot fail.
    let _ = Component::fmt_write(&event, out);
}

/// The open tasks with a deadline that `sub` holds, by deadline then id.
fn feed_tasks<T: Tables>(
    cx: &crate::engine::Cx<'_, T>,
    sub: &CalendarSubscription,
) -> Result<Vec<Task>> {
    let limited = sub.task_list_ids.is_some() || sub.project_ids.is_some();
    let named = |home: Home| match home {
        Home::List(id) => sub.task_list_ids.as_ref().is_some_and(|l| l.contains(&id)),
        Home::Project(id) => sub.project_ids.as_ref().is_some_and(|p| p.contains(&id)),
        Home::Inbox | Home::Person(_) => false,
    };
    let mut out = Vec::new();
    for id in tasks::open_with_deadline(cx)? {
        let Ok(task) = tasks::get(cx, id) else {
            continue;
        };
        if !limited || named(task.home()) {
            out.push(task);
        }
    }
    Ok(out)
}

/// The dated planned, active and on-hold projects `sub` holds: each date
/// with its kind, by date, then id, start first.
fn feed_projects<T: Tables>(
    cx: &crate::engine::Cx<'_, T>,
    sub: &CalendarSubscription,
) -> Result<Vec<(Project, &'static str, Date)>> {
    let (first, last) = (Date::MIN, add_days(Date::MAX, -1));
    let mut out = Vec::new();
    for (deadline, kind) in [(false, "start"), (true, "deadline")] {
        for id in projects::open_dated_between(cx, deadline, first, last)? {
            if sub.project_ids.as_ref().is_some_and(|p| !p.contains(&id)) {
                continue;
            }
            let Ok(project) = projects::get(cx, id) else {
                continue;
            };
            let date = if deadline {
                project.deadline
            } else {
                project.start_date
            };
            if let Some(date) = date {
                out.push((project, kind, date));
            }
        }
    }
    out.sort_by_key(|(p, kind, date)| (*date, p.id, *kind != "start"));
    Ok(out)
}

/// A person as a key date's event names them.
struct Named {
    id: Id,
    name: String,
    updated_at: Timestamp,
}

/// Live people's key dates, by month, day, then person and key date.
fn feed_key_dates<T: Tables>(cx: &crate::engine::Cx<'_, T>) -> Result<Vec<(Named, KeyDate)>> {
    // Each person once: the index holds a key for each of their dates.
    let mut people_ids: Vec<Id> = people::all_key_dates(cx)?
        .into_iter()
        .map(|(person, _)| person)
        .collect();
    people_ids.sort_unstable();
    people_ids.dedup();
    let mut out = Vec::new();
    for id in people_ids {
        let Ok(p) = people::load_live(cx, id) else {
            continue;
        };
        for date in &p.key_dates {
            out.push((
                Named {
                    name: p.name.clone(),
                    updated_at: p.updated_at,
                    id,
                },
                date.clone(),
            ));
        }
    }
    out.sort_by_key(|(p, d)| (d.month, d.day, p.id, d.id));
    Ok(out)
}

/// `value` with its line breaks as `\n` and other control characters
/// (but tabs) left out: what a TEXT value may hold before escaping.
fn plain(value: &str) -> String {
    if !value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return value.to_owned();
    }
    value
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect()
}

/// A `VALUE=DATE` property of `day`.
fn day(name: &str, day: Date) -> Property {
    Property::new(name, basic_date(day))
        .add_parameter("VALUE", "DATE")
        .done()
}

/// An all-day event: its UID, stamp, day and summary, and the alarm.
fn all_day(uid: String, stamp: Timestamp, on: Date, summary: &str, alarm: Option<u16>) -> Event {
    let stamp = basic_utc(stamp);
    let summary = plain(summary);
    let mut event = Event::new();
    event
        .append_property(Property::new("UID", &uid))
        .append_property(Property::new("DTSTAMP", &stamp))
        .append_property(Property::new("LAST-MODIFIED", &stamp))
        .append_property(day("DTSTART", on))
        .append_property(day("DTEND", add_days(on, 1)))
        .append_property(Property::new("TRANSP", "TRANSPARENT"));
    if let Some(minutes) = alarm {
        event.alarm(display_alarm(&uid, &stamp, &summary, minutes));
    }
    event.append_property(Property::new("SUMMARY", summary));
    event.done()
}

/// A display alarm `minutes` before the start of the event `uid`, saying
/// `summary` (plain text).
fn display_alarm(uid: &str, stamp: &str, summary: &str, minutes: u16) -> icalendar::Alarm {
    let mut alarm = icalendar::Alarm::display(summary, chrono::Duration::zero());
    alarm
        // The crate's own trigger is written in seconds: the contract
        // writes minutes.
        .append_property(Property::new("TRIGGER", format!("-PT{minutes}M")))
        .append_property(Property::new("UID", format!("{uid}-alarm")))
        .append_property(Property::new("DTSTAMP", stamp));
    alarm.done()
}

fn task_event(task: &Task, alarm: Option<u16>) -> Event {
    let on = task.deadline_on.unwrap_or(Date::MIN);
    let mut event = all_day(
        format!("{}-deadline@organiser", task.id),
        task.updated_at,
        on,
        &task.title,
        alarm,
    );
    if !task.description_text.trim().is_empty() {
        event.append_property(Property::new("DESCRIPTION", plain(&task.description_text)));
    }
    if let Some(rule) = tasks::remaining_rule(task) {
        event.append_property(Property::new("RRULE", rule));
    }
    event.done()
}

fn project_event(project: &Project, kind: &str, on: Date, alarm: Option<u16>) -> Event {
    let summary = format!("{}: {kind}", project.name);
    let mut event = all_day(
        format!("{}-{kind}@organiser", project.id),
        project.updated_at,
        on,
        &summary,
        alarm,
    );
    if !project.description_text.trim().is_empty() {
        event.append_property(Property::new(
            "DESCRIPTION",
            plain(&project.description_text),
        ));
    }
    event.done()
}

/// The events of one key date: one yearly event, or one a year from last
/// year to three years ahead for 29 February.
fn key_date_events(
    person: &Named,
    date: &KeyDate,
    this_year: i16,
    alarm: Option<u16>,
) -> Vec<Event> {
    let summary = people::key_dates::summary(&person.name, date);
    let stamp = person.updated_at.max(date.updated_at);
    let first_year = this_year - 1;
    if (date.month, date.day) == (2, 29) {
        return (first_year..=this_year + 3)
            .filter(|year| date.year.is_none_or(|y| y <= *year))
            .map(|year| {
                let on = Date::new(year, 2, 29)
                    .unwrap_or_else(|_| Date::new(year, 3, 1).unwrap_or(Date::MIN));
                all_day(
                    format!("{}-{year}@organiser", date.id),
                    stamp,
                    on,
                    &summary,
                    alarm,
                )
            })
            .collect();
    }
    let year = date.year.unwrap_or(first_year);
    let Ok(on) = Date::new(year, date.month, date.day) else {
        return Vec::new();
    };
    let mut event = all_day(format!("{}@organiser", date.id), stamp, on, &summary, alarm);
    event.append_property(Property::new("RRULE", "FREQ=YEARLY"));
    vec![event.done()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_names_the_tag_weak_or_strong_or_in_a_list() {
        let tag = "\"abc\"";
        for (header, expected) in [
            (None, false),
            (Some("\"abc\""), true),
            (Some("W/\"abc\""), true),
            (Some("\"x\", \"abc\""), true),
            (Some("*"), true),
            (Some("\"abd\""), false),
            (Some("abc"), false),
        ] {
            assert_eq!(matches(header, tag), expected, "{header:?}");
        }
    }

    #[test]
    fn control_characters_are_left_out_of_text() {
        assert_eq!(
            plain("one\r\ntwo\rthree\u{0}\tfour"),
            "one\ntwo\nthree\tfour"
        );
    }
}

#[cfg(test)]
mod feed_tests {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use crate::engine::request::{Method, Request};
    use crate::{Auth, ManualClock, Options, Organiser};

    fn call(org: &Organiser, method: Method, path: &str, body: Value) -> Value {
        let response = org.handle(&Request::new(method, path, Auth::Local).with_body(body));
        assert!(
            response.status < 300,
            "{path}: {} {}",
            response.status,
            response.json_value()
        );
        response.json_value()
    }

    /// The lines of `feed` unfolded.
    fn lines(feed: &str) -> Vec<String> {
        feed.replace("\r\n ", "")
            .split("\r\n")
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn a_store_of_one_of_each_item_gives_these_events() {
        let clock = ManualClock::at("2026-03-10T09:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        let task = call(
            &org,
            Method::Post,
            "/tasks",
            json!({"task": {"title": "Pay rent, now; really", "deadline_on": "2026-03-31",
                "repeat": {"rule": "FREQ=MONTHLY;COUNT=3"}}}),
        );
        let project = call(
            &org,
            Method::Post,
            "/projects",
            json!({"project": {"name": "Roof", "status": "active",
                "start_date": "2026-04-01", "deadline": "2026-05-01"}}),
        );
        let person = call(
            &org,
            Method::Post,
            "/people",
            json!({"person": {"name": "Ada Lovelace", "key_dates": [
                {"kind": "birthday", "day": 10, "month": 12, "year": 1915},
                {"kind": "anniversary", "day": 29, "month": 2}]}}),
        );
        let sub = org
            .calendar_subscriptions()
            .create(super::super::CalendarSubscriptionInput {
                alarm_minutes: crate::input::Field::Value(15),
                ..Default::default()
            })
            .unwrap();
        let url = sub.url.unwrap();
        let file = url.rsplit('/').next().unwrap();
        let super::Feed::Calendar { body, .. } =
            org.calendar_subscriptions().feed(file, None).unwrap()
        else {
            panic!("a calendar");
        };
        assert!(body.split("\r\n").all(|l| l.len() <= 75), "{body}");
        let lines = lines(&body);
        let has = |line: &str| lines.iter().any(|l| l == line);
        let task_id = task["data"]["id"].as_str().unwrap();
        for line in [
            "BEGIN:VCALENDAR",
            "X-WR-CALNAME:Organiser",
            "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
            "X-PUBLISHED-TTL:PT1H",
            &format!("UID:{task_id}-deadline@organiser"),
            "SUMMARY:Pay rent\\, now\\; really",
            "DTSTART;VALUE=DATE:20260331",
            "DTEND;VALUE=DATE:20260401",
            "RRULE:FREQ=MONTHLY;COUNT=3",
            "TRIGGER:-PT15M",
            "ACTION:DISPLAY",
            &format!(
                "UID:{}-start@organiser",
                project["data"]["id"].as_str().unwrap()
            ),
            "SUMMARY:Roof: deadline",
            "SUMMARY:Ada Lovelace's birthday",
            "DTSTART;VALUE=DATE:19151210",
            "RRULE:FREQ=YEARLY",
            "SUMMARY:Ada Lovelace's anniversary",
            // 29 February: 1 March in 2025, 2026, 2027; 29 February in 2028.
            "DTSTART;VALUE=DATE:20250301",
            "DTSTART;VALUE=DATE:20270301",
            "DTSTART;VALUE=DATE:20280229",
            "DTSTART;VALUE=DATE:20290301",
        ] {
            assert!(has(line), "{line} is missing from:\n{body}");
        }
        assert!(!has("DTSTART;VALUE=DATE:20300301"), "{body}");
        let _ = person;
        // A remote door sends the address at the root, with the tag.
        let through = crate::engine::operation::ThroughRequests(&org);
        let remote = super::super::CalendarSubscriptions::new(&through);
        let super::Feed::Calendar { etag, body: again } = remote.feed(file, None).unwrap() else {
            panic!("a calendar");
        };
        assert_eq!(again.len(), body.len());
        assert_eq!(
            remote.feed(file, Some(&etag)).unwrap(),
            super::Feed::NotModified { etag }
        );
        // Completing the task moves the series on: its open occurrence
        // carries what remains of COUNT.
        call(
            &org,
            Method::Patch,
            &format!("/tasks/{task_id}"),
            json!({"task": {"status": "completed"}}),
        );
        let super::Feed::Calendar { body, .. } =
            org.calendar_subscriptions().feed(file, None).unwrap()
        else {
            panic!("a calendar");
        };
        let lines = self::lines(&body);
        assert!(
            lines.iter().any(|l| l == "RRULE:FREQ=MONTHLY;COUNT=2"),
            "{body}"
        );
        assert!(!lines.iter().any(|l| l.contains(task_id)), "{body}");
    }
}
