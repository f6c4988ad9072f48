//! From a feed's events to what the store keeps (document 3,
//! "CalendarEvent"): one row of details per event, each repeating event's
//! rule, and every occurrence by the days it touches, the repeating ones
//! over a window around the sync (the rest are expanded when read).

use std::collections::{BTreeMap, HashMap, HashSet};

use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use serde::{Deserialize, Serialize};

use super::icalendar::{Feed, Props, param, unescape};
use super::meeting::{Meeting, meeting};
use super::repeat::{self, Occ, Repeat, day_of};
use super::zones::{self, ZoneRef, Zones};
use crate::text::squish;

/// Days before the sync's day the repeating events are kept for.
pub(crate) const WINDOW_BEFORE: i64 = 366;
/// Days after it.
pub(crate) const WINDOW_AFTER: i64 = 400;
/// An occurrence touching more days than this is kept in the feed's list
/// of long ones rather than under each day.
pub(crate) const LONG_DAYS: i64 = 31;
/// The most occurrences a feed keeps over the window (`too_many_events`
/// beyond): 20,000 events of which a quarter repeat weekly without end
/// (about 310,000) fit; thousands of events every hour do not.
pub(crate) const MOST_OCCURRENCES: usize = 1_000_000;
/// The most characters of a description.
pub(crate) const DESCRIPTION_CHARS: usize = 4_000;
/// The most attendees kept per event (matched for meetings; the first
/// [`SHOWN_ATTENDEES`] are shown).
pub(crate) const KEPT_ATTENDEES: usize = 500;
/// The most attendees shown.
pub(crate) const SHOWN_ATTENDEES: usize = 10;

/// An attendee as the feed names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Attendee {
    pub(crate) name: String,
    pub(crate) email: Option<String>,
    pub(crate) organizer: bool,
}

/// One event's details: a single event, a repeating one, or an override
/// of one occurrence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredEvent {
    /// The start of its occurrences' keys (from the feed and the UID).
    pub(crate) key: String,
    pub(crate) title: String,
    pub(crate) all_day: bool,
    pub(crate) location: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) url: Option<String>,
    pub(crate) meeting: Option<Meeting>,
    pub(crate) attendee_count: u32,
    pub(crate) attendees: Vec<Attendee>,
    pub(crate) rrule: Option<String>,
    /// How it repeats (a repeating event's row only).
    pub(crate) repeat: Option<Repeat>,
}

impl crate::store::codec::Record for StoredEvent {
    const NAME: &'static str = "calendar event";
    const FORMAT: u8 = 1;
}

/// A feed's events as the store keeps them.
#[derive(Debug, Default)]
pub(crate) struct Built {
    /// `X-WR-CALNAME`.
    pub(crate) name: Option<String>,
    pub(crate) events: Vec<StoredEvent>,
    /// Occurrences by each UTC day number they touch.
    pub(crate) days: BTreeMap<i64, Vec<Occ>>,
    /// What the store keeps beside the days.
    pub(crate) meta: FeedEvents,
    /// What the sync had to guess or leave out (the feed's health).
    pub(crate) warnings: Option<super::SyncWarnings>,
}

/// A feed's occurrences that are not under a day, and how far the
/// repeating ones were expanded.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct FeedEvents {
    /// Occurrences longer than [`LONG_DAYS`].
    pub(crate) long: Vec<Occ>,
    /// The rows of repeating events.
    pub(crate) repeating: Vec<u32>,
    /// The days (numbers, inclusive) whose repeating occurrences are kept.
    pub(crate) window: (i64, i64),
    /// Changes with every sync (rows kept in memory are of one version).
    pub(crate) version: u64,
}

impl crate::store::codec::Record for FeedEvents {
    const NAME: &'static str = "calendar feed events";
    const FORMAT: u8 = 1;
}

/// A date or date-time value as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Value {
    Date(Date),
    /// In UTC (`Z`).
    Utc(DateTime),
    /// With a TZID, or floating.
    Local(DateTime),
}

/// A DATE or DATE-TIME value (`20250301`, `20250301T090000Z`,
/// `20250301T0900`); `date_only` reads the first 8 characters as a date.
pub(crate) fn parse_value(text: &str, date_only: bool) -> Option<Value> {
    let text = text.trim();
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let date = |s: &str| -> Option<Date> {
        if s.len() != 8 || !digits(s) {
            return None;
        }
        Date::new(
            s[0..4].parse().ok()?,
            s[4..6].parse().ok()?,
            s[6..8].parse().ok()?,
        )
        .ok()
    };
    if date_only || text.len() == 8 {
        return date(text.get(..8)?).map(Value::Date);
    }
    let (d, t) = text.split_once(['T', 't'])?;
    let day = date(d)?;
    let (t, utc) = match t.strip_suffix(['Z', 'z']) {
        Some(t) => (t, true),
        None => (t, false),
    };
    if !(t.len() == 6 || t.len() == 4) || !digits(t) {
        return None;
    }
    let second: i8 = if t.len() == 6 {
        t[4..6].parse().ok()?
    } else {
        0
    };
    let time = jiff::civil::Time::new(
        t[0..2].parse().ok()?,
        t[2..4].parse().ok()?,
        second.min(59),
        0,
    )
    .ok()?;
    let at = day.to_datetime(time);
    Some(if utc {
        Value::Utc(at)
    } else {
        Value::Local(at)
    })
}

/// The values of a date property (EXDATE and RDATE may list several).
fn values(p: &ical::property::Property) -> Vec<Value> {
    periods(p).into_iter().map(|(v, _)| v).collect()
}

/// The values of a date property, each with the length of its period
/// when it is one (`RDATE;VALUE=PERIOD:start/end` or `start/duration`,
/// in seconds).
fn periods(p: &ical::property::Property) -> Vec<(Value, Option<i64>)> {
    let value_type = param(p, "VALUE");
    let date_only = value_type.is_some_and(|v| v.eq_ignore_ascii_case("DATE"));
    p.value
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter_map(|v| match v.split_once('/') {
            Some((start, end)) => {
                let start = parse_value(start, false)?;
                let length = match end.trim().starts_with(['P', 'p', '+', '-']) {
                    true => duration_seconds(end)?,
                    false => seconds_between(start, parse_value(end, false)?)?,
                };
                Some((start, Some(length.max(0))))
            }
            None => Some((parse_value(v, date_only)?, None)),
        })
        .collect()
}

/// The seconds from `start` to `end` of a period, both written alike (UTC,
/// or local in the property's zone).
fn seconds_between(start: Value, end: Value) -> Option<i64> {
    let at = |v: Value| match v {
        Value::Utc(at) | Value::Local(at) => Some(repeat::wall(at)),
        Value::Date(_) => None,
    };
    Some(at(end)? - at(start)?)
}

/// A value's instant, reading a local time in the property's zone.
fn instant_of(zones: &mut Zones, p: &ical::property::Property, v: Value) -> Timestamp {
    match v {
        Value::Date(d) => zones::instant(&jiff::tz::TimeZone::UTC, d.at(0, 0, 0, 0)),
        Value::Utc(at) => zones::instant(&jiff::tz::TimeZone::UTC, at),
        Value::Local(at) => {
            let r = zones.of(param(p, "TZID"));
            let zone = zones.zone(&r);
            zones::instant(&zone, at)
        }
    }
}

/// The day a date value names: a DATE; for an all-day event, a local
/// time (Outlook's midnight with a zone) on the date as written and a
/// UTC one on its date in the owner's zone; else none (an instant).
fn day_written(
    zones: &mut Zones,
    p: &ical::property::Property,
    v: Value,
    all_day: bool,
) -> Option<Date> {
    match v {
        Value::Date(d) => Some(d),
        Value::Local(at) if all_day => Some(at.date()),
        Value::Utc(_) if all_day => {
            let owner = zones.owner.clone();
            let zone = zones.zone(&owner);
            Some(zones::local(&zone, instant_of(zones, p, v)).date())
        }
        _ => None,
    }
}

/// `P1DT2H`, `PT30M`, `-P1W`: seconds.
fn duration_seconds(text: &str) -> Option<i64> {
    let text = text.trim();
    let (sign, rest) = match text.as_bytes().first()? {
        b'-' => (-1, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let rest = rest.strip_prefix(['P', 'p'])?;
    let mut total: i64 = 0;
    let mut number = String::new();
    let mut in_time = false;
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            '0'..='9' => number.push(c),
            'T' => in_time = true,
            unit => {
                let n: i64 = number.parse().ok()?;
                number.clear();
                let scale = match (unit, in_time) {
                    ('W', _) => 7 * 86_400,
                    ('D', _) => 86_400,
                    ('H', true) => 3_600,
                    ('M', true) => 60,
                    ('S', true) => 1,
                    _ => return None,
                };
                total = total.checked_add(n.checked_mul(scale)?)?;
            }
        }
    }
    Some(sign * total)
}

/// One VEVENT, read.
struct Read {
    uid: String,
    /// `SEQUENCE`: of masters (or overrides of one occurrence) sharing a
    /// UID, the highest is the event's latest revision.
    sequence: i64,
    recurrence: Option<Timestamp>,
    recurrence_day: Option<Date>,
    /// The RECURRENCE-ID's date as written in its own zone (a local time
    /// with a TZID, as Outlook writes an all-day series' overrides).
    recurrence_written_day: Option<Date>,
    /// `RANGE=THISANDFUTURE`: the override changes that occurrence and
    /// every later one.
    this_and_future: bool,
    all_day: bool,
    zone: ZoneRef,
    /// Wall time of the start in `zone` (an all-day event's date at midnight).
    start: DateTime,
    /// Seconds, or extra days when all day.
    length: i64,
    cancelled: bool,
    rule: Option<String>,
    /// The RRULE value as written.
    raw_rule: Option<String>,
    until: Option<Value>,
    exdates: Vec<Timestamp>,
    exdays: Vec<Date>,
    rdates: Vec<Timestamp>,
    rdays: Vec<Date>,
    /// `RDATE;VALUE=PERIOD`: a start and the period's own length (seconds).
    rperiods: Vec<(Timestamp, i64)>,
    details: StoredEvent,
}

fn read_event(zones: &mut Zones, props: &Props) -> Option<Read> {
    let dtstart = props.first("DTSTART")?;
    let start_value = *values(dtstart).first()?;
    let (all_day, zone, start) = match start_value {
        Value::Date(d) => (true, ZoneRef::Utc, d.at(0, 0, 0, 0)),
        Value::Utc(at) => (false, ZoneRef::Utc, at),
        Value::Local(at) => {
            let zone = zones.of(param(dtstart, "TZID"));
            (false, zone, at)
        }
    };
    let start_instant = instant_of(zones, dtstart, start_value);
    let end = props
        .first("DTEND")
        .and_then(|p| Some((p, *values(p).first()?)));
    let length = if all_day {
        let days = match (end, props.value("DURATION").and_then(duration_seconds)) {
            (Some((_, Value::Date(d))), _) => crate::time::days_between(start.date(), d) - 1,
            (Some((p, v)), _) => {
                let end = instant_of(zones, p, v);
                (end.as_second() - start_instant.as_second() - 1).div_euclid(86_400)
            }
            (None, Some(secs)) => (secs - 1).div_euclid(86_400),
            (None, None) => 0,
        };
        days.max(0)
    } else {
        let secs = match (end, props.value("DURATION").and_then(duration_seconds)) {
            (Some((p, v)), _) => instant_of(zones, p, v).as_second() - start_instant.as_second(),
            (None, Some(secs)) => secs,
            (None, None) => 0,
        };
        secs.max(0)
    };
    let (mut recurrence, mut recurrence_day, mut recurrence_written_day) = (None, None, None);
    let mut this_and_future = false;
    if let Some(p) = props.first("RECURRENCE-ID")
        && let Some(v) = values(p).first().copied()
    {
        this_and_future =
            param(p, "RANGE").is_some_and(|r| r.eq_ignore_ascii_case("THISANDFUTURE"));
        match v {
            Value::Date(d) => recurrence_day = Some(d),
            Value::Local(at) => {
                recurrence_written_day = Some(at.date());
                recurrence = Some(instant_of(zones, p, v));
            }
            Value::Utc(at) => {
                let instant = instant_of(zones, p, v);
                let owner = zones.owner.clone();
                recurrence_written_day = Some(zones::local(&zones.zone(&owner), instant).date());
                let _ = at;
                recurrence = Some(instant);
            }
        }
    }
    let day_of_value = |zones: &mut Zones, p: &ical::property::Property, v: Value| {
        day_written(zones, p, v, all_day)
    };
    let mut exdates = Vec::new();
    let mut exdays = Vec::new();
    for p in props.all("EXDATE") {
        for v in values(p) {
            match day_of_value(zones, p, v) {
                Some(d) => exdays.push(d),
                None => exdates.push(instant_of(zones, p, v)),
            }
        }
    }
    let mut rdates = Vec::new();
    let mut rdays = Vec::new();
    let mut rperiods = Vec::new();
    for p in props.all("RDATE") {
        for (v, period) in periods(p) {
            match (day_of_value(zones, p, v), period) {
                (Some(d), _) => rdays.push(d),
                (None, Some(length)) => rperiods.push((instant_of(zones, p, v), length)),
                (None, None) => rdates.push(instant_of(zones, p, v)),
            }
        }
    }
    let (rule, until) = match props.value("RRULE") {
        Some(rule) => {
            let (rule, until) = split_until(rule);
            (Some(rule), until)
        }
        None => (None, None),
    };
    let cancelled = props
        .value("STATUS")
        .is_some_and(|s| s.trim().eq_ignore_ascii_case("CANCELLED"));
    let details = details(props, all_day);
    Some(Read {
        uid: props.value("UID").map(str::trim).unwrap_or("").to_owned(),
        sequence: props
            .value("SEQUENCE")
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0),
        recurrence,
        recurrence_day,
        recurrence_written_day,
        this_and_future,
        all_day,
        zone,
        start,
        length,
        cancelled,
        rule,
        raw_rule: props.value("RRULE").map(|r| r.trim().to_owned()),
        until,
        exdates,
        exdays,
        rdates,
        rdays,
        rperiods,
        details,
    })
}

/// The RRULE value without its UNTIL, and the UNTIL.
pub(crate) fn split_until(rule: &str) -> (String, Option<Value>) {
    let mut until = None;
    let kept: Vec<&str> = rule
        .trim()
        .split(';')
        .filter(|part| match part.split_once('=') {
            Some((k, v)) if k.trim().eq_ignore_ascii_case("UNTIL") => {
                until = parse_value(v, false);
                false
            }
            _ => !part.trim().is_empty(),
        })
        .collect();
    (kept.join(";"), until)
}

fn details(props: &Props, all_day: bool) -> StoredEvent {
    let text = |name: &str| props.value(name).map(unescape);
    let title = squish(&text("SUMMARY").unwrap_or_default());
    let location = text("LOCATION")
        .map(|l| squish(&l))
        .filter(|l| !l.is_empty());
    let description = text("DESCRIPTION")
        .map(|d| plain_description(&d))
        .filter(|d| !d.is_empty());
    let url = props
        .value("URL")
        .map(str::trim)
        .filter(|u| {
            let lower = u.to_ascii_lowercase();
            (lower.starts_with("https://") || lower.starts_with("http://")) && u.len() > 8
        })
        .map(str::to_owned);
    let (attendee_count, attendees) = attendees(props);
    StoredEvent {
        key: String::new(),
        title,
        all_day,
        location,
        meeting: meeting(props, url.as_deref()),
        description,
        url,
        attendee_count,
        attendees,
        rrule: None,
        repeat: None,
    }
}

/// Plain text of a description (tags stripped when the feed sent HTML),
/// trimmed and cut at [`DESCRIPTION_CHARS`].
fn plain_description(text: &str) -> String {
    let looks_html = text.contains('<')
        && text.contains('>')
        && [
            "<br", "<p", "<a ", "<div", "<b>", "<i>", "<ul", "<li", "<span", "</",
        ]
        .iter()
        .any(|t| text.to_ascii_lowercase().contains(t));
    let text = if looks_html {
        crate::html::to_text(&crate::html::sanitise_without_images(text))
    } else {
        text.replace("\r\n", "\n")
    };
    let text = text.trim();
    match text.char_indices().nth(DESCRIPTION_CHARS) {
        Some((at, _)) => text[..at].trim_end().to_owned(),
        None => text.to_owned(),
    }
}

fn mailto(value: &str) -> Option<String> {
    let v = value.trim();
    let address = v
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("mailto:"))
        .map(|_| &v[7..])?;
    let address = address.trim();
    (!address.is_empty()).then(|| address.to_lowercase())
}

fn person(p: &ical::property::Property, organizer: bool) -> Attendee {
    let email = p.value.as_deref().and_then(mailto);
    let name = param(p, "CN")
        .map(|n| squish(&unescape(n)))
        .filter(|n| !n.is_empty())
        .or_else(|| email.clone())
        .unwrap_or_else(|| squish(p.value.as_deref().unwrap_or("")));
    Attendee {
        name,
        email,
        organizer,
    }
}

/// Every attendee counted, and the first [`KEPT_ATTENDEES`] with the
/// organizer first.
fn attendees(props: &Props) -> (u32, Vec<Attendee>) {
    let organizer = props.first("ORGANIZER").map(|p| person(p, true));
    let mut all: Vec<Attendee> = Vec::new();
    // An attendee is one address, or one name without an address.
    let mut seen: HashSet<(bool, String)> = HashSet::new();
    let mut count: u32 = 0;
    for p in props.all("ATTENDEE") {
        let a = person(p, false);
        if a.name.is_empty() && a.email.is_none() {
            continue;
        }
        let who = match &a.email {
            Some(email) => (true, email.clone()),
            None => (false, a.name.clone()),
        };
        if seen.insert(who) {
            count = count.saturating_add(1);
            if all.len() <= KEPT_ATTENDEES {
                all.push(a);
            }
        }
    }
    if let Some(org) = organizer {
        let at = all
            .iter()
            .position(|a| a.email.is_some() && a.email == org.email);
        match at {
            Some(i) => {
                let mut a = all.remove(i);
                a.organizer = true;
                all.insert(0, a);
            }
            // An attendee past those kept: first, as organizer.
            None if org
                .email
                .as_ref()
                .is_some_and(|e| seen.contains(&(true, e.clone()))) =>
            {
                all.insert(0, org)
            }
            None if !org.name.is_empty() => all.insert(0, org),
            None => {}
        }
    }
    all.truncate(KEPT_ATTENDEES);
    (count, all)
}

/// The start of every key of the events with `uid` (the feed's ID is
/// added when read).
fn key_base(uid: &str) -> String {
    crate::secrets::to_hex(&crate::secrets::sha256(uid.as_bytes())[..8])
}

/// A key's occurrence part: `20250301` or `20250301T090000Z`.
pub(crate) fn original_part(o: &Occ) -> String {
    let (day, seconds) = if o.all_day {
        (o.original, None)
    } else {
        (
            o.original.div_euclid(86_400),
            Some(o.original.rem_euclid(86_400)),
        )
    };
    let d = repeat::day_date(day);
    let mut out = format!("{:04}{:02}{:02}", d.year(), d.month(), d.day());
    if let Some(s) = seconds {
        use std::fmt::Write as _;
        let _ = write!(out, "T{:02}{:02}{:02}Z", s / 3600, s % 3600 / 60, s % 60);
    }
    out
}

/// The reads that count: of masters sharing a UID, those of the highest
/// `SEQUENCE` (revisions of one event, RFC 5545 3.8.7.4; equal ones are
/// all kept), and likewise of overrides of one occurrence.
fn latest_revisions(reads: Vec<Read>) -> Vec<Read> {
    let mut highest: HashMap<(String, Option<i64>), i64> = HashMap::new();
    let which = |r: &Read| {
        let occurrence = r
            .recurrence
            .map(Timestamp::as_second)
            .or(r.recurrence_day.map(day_of));
        (r.uid.clone(), occurrence)
    };
    for r in &reads {
        let n = highest.entry(which(r)).or_insert(r.sequence);
        *n = (*n).max(r.sequence);
    }
    reads
        .into_iter()
        .filter(|r| highest.get(&which(r)).is_none_or(|n| r.sequence >= *n))
        .collect()
}

/// A repeating event's rows: its master's, and after each override of
/// `RANGE=THISANDFUTURE` the row of the series going on from there.
#[derive(Debug, Clone, Copy)]
struct Series {
    /// The event row.
    row: usize,
    /// Where it takes over, as a start of the master's rule (wall time in
    /// the master's zone); `None` for the master.
    from: Option<i64>,
    /// What it adds to the master rule's starts it takes over (seconds).
    shift: i64,
}

/// Builds what the store keeps for a feed's body `parsed`, synced on
/// `today` for an owner in `owner_zone` (IANA).
pub(crate) fn build(
    parsed: Feed,
    today: Date,
    owner_zone: &str,
) -> Result<Built, super::SyncErrorCode> {
    let mut zones = Zones::new(&parsed.zones, owner_zone);
    let reads: Vec<Read> = parsed
        .events
        .iter()
        .filter_map(|p| read_event(&mut zones, p))
        .collect();
    let (masters, mut overrides): (Vec<Read>, Vec<Read>) = latest_revisions(reads)
        .into_iter()
        .partition(|r| r.recurrence.is_none() && r.recurrence_day.is_none());
    let today = day_of(today);
    let window = (today - WINDOW_BEFORE, today + WINDOW_AFTER);
    let mut built = Built {
        name: parsed.name,
        meta: FeedEvents {
            window,
            ..FeedEvents::default()
        },
        ..Built::default()
    };
    let mut series: HashMap<String, Vec<Series>> = HashMap::new();
    let mut used_keys: HashMap<String, u32> = HashMap::new();
    let mut occs: Vec<Occ> = Vec::new();
    for r in masters {
        if r.cancelled {
            continue;
        }
        let mut base = key_base(&r.uid);
        let n = used_keys.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            base = format!("{base}~{n}");
        }
        let ix = built.events.len() as u32;
        let mut details = r.details.clone();
        details.key = base;
        let repeats = r.rule.is_some()
            || !r.rdates.is_empty()
            || !r.rdays.is_empty()
            || !r.rperiods.is_empty();
        let repeat = match repeats {
            true => Some(as_repeat(&r, ix, &mut zones)).filter(repeat::valid),
            false => None,
        };
        match repeat {
            Some(rep) => {
                details.rrule = r.raw_rule.clone();
                details.repeat = Some(rep);
                series.entry(r.uid.clone()).or_default().push(Series {
                    row: ix as usize,
                    from: None,
                    shift: 0,
                });
                built.meta.repeating.push(ix);
                built.events.push(details);
            }
            None => {
                built.events.push(details);
                occs.push(single(&r, ix, &mut zones));
            }
        }
    }
    // Overrides of an occurrence and every later one first, in their
    // order, so the others find the series they fall in.
    overrides.sort_by_key(|r| {
        (
            !r.this_and_future,
            r.recurrence.map(Timestamp::as_second),
            r.recurrence_day,
        )
    });
    for r in overrides {
        match series.get_mut(&r.uid) {
            Some(list) => add_override(&mut built, &mut zones, list, r),
            // An override without its repeating event: shown as itself.
            None if !r.cancelled => {
                let ix = built.events.len() as u32;
                let mut details = r.details.clone();
                details.key = key_base(&r.uid);
                built.events.push(details);
                occs.push(single(&r, ix, &mut zones));
            }
            None => {}
        }
    }
    // Expand the repeating events over the window.
    for &ix in &built.meta.repeating {
        let event = &built.events[ix as usize];
        if let Some(rep) = &event.repeat {
            let zone = zones.zone(&rep.zone);
            occs.extend(repeat::expand(rep, ix, &zone, window.0, window.1));
            if occs.len() > MOST_OCCURRENCES {
                return Err(super::SyncErrorCode::TooManyEvents);
            }
        }
    }
    for o in occs {
        let (first, last) = o.days();
        if last - first > LONG_DAYS {
            built.meta.long.push(o);
            continue;
        }
        for day in first..=last {
            built.days.entry(day).or_default().push(o);
        }
    }
    built.warnings = super::SyncWarnings::of(
        parsed.skipped_lines,
        std::mem::take(&mut zones.guessed),
        std::mem::take(&mut zones.unknown),
    );
    Ok(built)
}

/// The one occurrence of an event that does not repeat (or of an
/// override without its repeating event, keeping the start it replaces).
fn single(r: &Read, ix: u32, zones: &mut Zones) -> Occ {
    let zone = zones.zone(&r.zone);
    let single = Repeat {
        zone: r.zone.clone(),
        start: repeat::wall(r.start),
        all_day: r.all_day,
        length: r.length,
        rule: String::new(),
        until: None,
        exdates: Vec::new(),
        rdates: Vec::new(),
        overrides: Vec::new(),
    };
    let mut occ = repeat::occurrence(&single, ix, &zone, repeat::wall(r.start));
    if let Some(t) = r.recurrence {
        occ.original = t.as_second();
    } else if let Some(d) = r.recurrence_day {
        occ.original = day_of(d);
    }
    occ
}

/// How master `r` (in event row `ix`) repeats: its rule (none when only
/// RDATEs repeat it), UNTIL, EXDATEs and RDATEs on its own wall clock; a
/// period of `RDATE;VALUE=PERIOD` is an occurrence of that period's
/// length.
fn as_repeat(r: &Read, ix: u32, zones: &mut Zones) -> Repeat {
    let z = zones.zone(&r.zone);
    let local = |t: &Timestamp| zones::local(&z, *t);
    // An instant or a day of EXDATE and RDATE as a start of this event:
    // the day at midnight when all day, else its wall time (a day takes
    // DTSTART's time).
    let at_instant = |t: &Timestamp| {
        if r.all_day {
            t.to_zoned(jiff::tz::TimeZone::UTC).date().at(0, 0, 0, 0)
        } else {
            local(t)
        }
    };
    let on_day = |d: &Date| {
        if r.all_day {
            d.at(0, 0, 0, 0)
        } else {
            d.at(r.start.hour(), r.start.minute(), r.start.second(), 0)
        }
    };
    let mut rdates: Vec<i64> = (r.rdates.iter().map(at_instant))
        .chain(r.rdays.iter().map(on_day))
        .map(repeat::wall)
        .collect();
    let mut overrides = Vec::new();
    for (t, length) in &r.rperiods {
        let start = repeat::wall(at_instant(t));
        rdates.push(start);
        if !r.all_day {
            let at = t.as_second();
            overrides.push((
                start,
                Some(Occ {
                    event: ix,
                    all_day: false,
                    start: at,
                    end: at.saturating_add(*length),
                    original: at,
                }),
            ));
        }
    }
    Repeat {
        zone: r.zone.clone(),
        start: repeat::wall(r.start),
        all_day: r.all_day,
        length: r.length,
        rule: r.rule.clone().unwrap_or_default(),
        until: r.until.map(|u| {
            repeat::wall(match u {
                Value::Date(d) => d.at(23, 59, 59, 0),
                Value::Utc(at) => local(&zones::instant(&jiff::tz::TimeZone::UTC, at)),
                Value::Local(at) => at,
            })
        }),
        exdates: (r.exdates.iter().map(at_instant))
            .chain(r.exdays.iter().map(on_day))
            .map(repeat::wall)
            .collect(),
        rdates,
        overrides,
    }
}

/// Attaches override `r` to its repeating event (`list`: its series):
/// one occurrence replaced or cancelled, or, for `RANGE=THISANDFUTURE`,
/// that occurrence and every later one (the series ends before it and a
/// new one, with the override's details and times, goes on from it).
fn add_override(built: &mut Built, zones: &mut Zones, list: &mut Vec<Series>, r: Read) {
    let master = list[0].row;
    let Some(rep) = built.events[master].repeat.clone() else {
        return;
    };
    let master_zone = zones.zone(&rep.zone);
    let rep_start = repeat::from_wall(rep.start);
    // The start the override replaces, on the master's wall clock; an
    // all-day series' by the date as written in its own zone.
    let original_local = match (r.recurrence, r.recurrence_day) {
        (Some(t), _) if !rep.all_day => zones::local(&master_zone, t),
        (Some(t), _) => r
            .recurrence_written_day
            .unwrap_or_else(|| t.to_zoned(jiff::tz::TimeZone::UTC).date())
            .at(0, 0, 0, 0),
        (None, Some(d)) if rep.all_day => d.at(0, 0, 0, 0),
        (None, Some(d)) => d.at(rep_start.hour(), rep_start.minute(), rep_start.second(), 0),
        (None, None) => return,
    };
    let original_local = repeat::wall(original_local);
    let Some(&target) = list
        .iter()
        .rev()
        .find(|s| s.from.is_none_or(|f| original_local >= f))
    else {
        return;
    };
    let m = target.row;
    let Some(rep) = built.events[m].repeat.clone() else {
        return;
    };
    let local = original_local + target.shift;
    if r.this_and_future {
        split(built, list, target, original_local, local, r);
        return;
    }
    let series_zone = zones.zone(&rep.zone);
    let original = repeat::occurrence(&rep, m as u32, &series_zone, local).original;
    let replacement = if r.cancelled {
        None
    } else {
        let ix = built.events.len() as u32;
        let mut details = r.details;
        details.key = built.events[master].key.clone();
        details.rrule = built.events[master].rrule.clone();
        built.events.push(details);
        let own = Repeat {
            zone: r.zone.clone(),
            start: repeat::wall(r.start),
            all_day: r.all_day,
            length: r.length,
            ..rep.clone()
        };
        let zone = zones.zone(&r.zone);
        let mut occ = repeat::occurrence(&own, ix, &zone, repeat::wall(r.start));
        occ.original = original;
        Some(occ)
    };
    if let Some(rep) = built.events[m].repeat.as_mut() {
        rep.overrides.retain(|(o, _)| *o != local);
        rep.overrides.push((local, replacement));
    }
}

/// Ends series `target` before its start `local` (the master rule's
/// `original_local`), and, unless `r` cancels them, goes on from there
/// with a series of `r`'s details and times.
fn split(
    built: &mut Built,
    list: &mut Vec<Series>,
    target: Series,
    original_local: i64,
    local: i64,
    r: Read,
) {
    let master = list[0].row;
    let Some(before) = built.events[target.row].repeat.clone() else {
        return;
    };
    // The occurrences before the split keep their number under COUNT.
    let count = rule_count(&before.rule);
    let kept = count.map(|_| {
        repeat::wall_starts(&before, Some(local - 1), u16::MAX)
            .into_iter()
            .filter(|s| *s < local)
            .count() as u64
    });
    let mut ended = before.clone();
    match (count, kept) {
        (Some(_), Some(kept)) => ended.rule = with_count(&ended.rule, kept),
        _ => ended.until = Some(ended.until.map_or(local - 1, |u| u.min(local - 1))),
    }
    ended.rdates.retain(|d| *d < local);
    ended.exdates.retain(|d| *d < local);
    ended.overrides.retain(|(o, _)| *o < local);
    if let Some(rep) = built.events[target.row].repeat.as_mut() {
        *rep = ended;
    }
    if r.cancelled {
        return;
    }
    let start = repeat::wall(r.start);
    let shift = start - local;
    let moved = |d: &i64| (*d >= local).then_some(d + shift);
    let rule = match (count, kept) {
        (Some(count), Some(kept)) => with_count(&before.rule, count.saturating_sub(kept)),
        _ => before.rule.clone(),
    };
    let goes_on = Repeat {
        zone: r.zone.clone(),
        start,
        all_day: r.all_day,
        length: r.length,
        rule,
        until: before.until.map(|u| u + shift),
        exdates: before.exdates.iter().filter_map(moved).collect(),
        rdates: before.rdates.iter().filter_map(moved).collect(),
        overrides: Vec::new(),
    };
    let ix = built.events.len();
    let mut details = r.details;
    details.key = built.events[master].key.clone();
    details.rrule = built.events[master].rrule.clone();
    details.repeat = Some(goes_on).filter(repeat::valid);
    if details.repeat.is_none() {
        return;
    }
    built.events.push(details);
    built.meta.repeating.push(ix as u32);
    list.push(Series {
        row: ix,
        from: Some(original_local),
        shift: target.shift + shift,
    });
    list.sort_by_key(|s| s.from);
}

/// A rule's `COUNT`.
fn rule_count(rule: &str) -> Option<u64> {
    rule.split(';').find_map(|part| {
        let (k, v) = part.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("COUNT")
            .then(|| v.trim().parse().ok())
            .flatten()
    })
}

/// `rule` with its `COUNT` set to `count`.
fn with_count(rule: &str, count: u64) -> String {
    rule.split(';')
        .map(|part| match part.split_once('=') {
            Some((k, _)) if k.trim().eq_ignore_ascii_case("COUNT") => format!("COUNT={count}"),
            _ => part.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_of_too_many_occurrences_is_refused() {
        let mut text = String::from("BEGIN:VCALENDAR\r\n");
        for n in 0..600 {
            text.push_str(&format!(
                "BEGIN:VEVENT\r\nUID:{n}\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=HOURLY\r\nEND:VEVENT\r\n"
            ));
        }
        text.push_str("END:VCALENDAR\r\n");
        let feed = super::super::icalendar::read(text.as_bytes()).unwrap();
        let built = build(feed, jiff::civil::date(2026, 3, 1), "UTC");
        assert_eq!(
            built.err(),
            Some(super::super::SyncErrorCode::TooManyEvents)
        );
    }

    /// The occurrences of a feed of `events` (VEVENT bodies, VTIMEZONEs
    /// allowed) from 12 to 30 September 2024 for an owner in London, as
    /// `start..end` in UTC (`2024-09-12T12:00Z`) or dates for all-day
    /// ones (`2024-09-20` when one day), by start.
    fn september(events: &str) -> Vec<String> {
        let text = format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{events}END:VCALENDAR\r\n");
        let feed = super::super::icalendar::read(text.as_bytes()).unwrap();
        let built = build(feed, jiff::civil::date(2024, 9, 20), "Europe/London").unwrap();
        let (lo, hi) = (
            day_of(jiff::civil::date(2024, 9, 12)),
            day_of(jiff::civil::date(2024, 9, 30)),
        );
        let mut seen: Vec<Occ> = built
            .days
            .range(lo..=hi)
            .flat_map(|(_, o)| o.iter().copied())
            .chain(built.meta.long.iter().copied())
            .collect();
        seen.sort_by_key(|o| (o.start, o.event));
        seen.dedup();
        seen.iter()
            .map(|o| {
                if o.all_day {
                    let (a, b) = (repeat::day_date(o.start), repeat::day_date(o.end));
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}..{b}")
                    }
                } else {
                    let t = |s: i64| {
                        Timestamp::from_second(s)
                            .unwrap()
                            .strftime("%Y-%m-%dT%H:%MZ")
                            .to_string()
                    };
                    let title = &built.events[o.event as usize].title;
                    let title = if title.is_empty() {
                        String::new()
                    } else {
                        format!(" {title}")
                    };
                    format!("{}..{}{title}", t(o.start), t(o.end))
                }
            })
            .collect()
    }

    #[test]
    fn rdate_without_rrule_repeats_the_event() {
        assert_eq!(
            september(
                "BEGIN:VEVENT\r\nUID:r1\r\nDTSTART:20240912T120000Z\r\nDTEND:20240912T130000Z\r\nRDATE:20240919T120000Z,20240926T120000Z\r\nEND:VEVENT\r\n"
            ),
            [
                "2024-09-12T12:00Z..2024-09-12T13:00Z",
                "2024-09-19T12:00Z..2024-09-19T13:00Z",
                "2024-09-26T12:00Z..2024-09-26T13:00Z",
            ]
        );
        // All day, and in a zone.
        assert_eq!(
            september(
                "BEGIN:VEVENT\r\nUID:r2\r\nDTSTART;VALUE=DATE:20240913\r\nRDATE;VALUE=DATE:20240920,20240927\r\nEND:VEVENT\r\n"
            ),
            ["2024-09-13", "2024-09-20", "2024-09-27"]
        );
        assert_eq!(
            september(
                "BEGIN:VEVENT\r\nUID:r3\r\nDTSTART;TZID=Europe/Paris:20240912T140000\r\nDURATION:PT30M\r\nRDATE;TZID=Europe/Paris:20240918T090000\r\nRDATE;TZID=Europe/Paris:20240925T090000\r\nEND:VEVENT\r\n"
            ),
            [
                "2024-09-12T12:00Z..2024-09-12T12:30Z",
                "2024-09-18T07:00Z..2024-09-18T07:30Z",
                "2024-09-25T07:00Z..2024-09-25T07:30Z",
            ]
        );
    }

    #[test]
    fn an_rdate_period_is_an_occurrence_of_its_own_length() {
        assert_eq!(
            september(
                "BEGIN:VEVENT\r\nUID:p1\r\nDTSTART:20240913T090000Z\r\nDTEND:20240913T100000Z\r\nRDATE;VALUE=PERIOD:20240920T090000Z/20240920T120000Z,20240927T090000Z/PT2H\r\nEND:VEVENT\r\n"
            ),
            [
                "2024-09-13T09:00Z..2024-09-13T10:00Z",
                "2024-09-20T09:00Z..2024-09-20T12:00Z",
                "2024-09-27T09:00Z..2024-09-27T11:00Z",
            ]
        );
    }

    #[test]
    fn an_all_day_override_is_matched_by_the_date_written_in_its_zone() {
        // Outlook: local midnight with a zone.
        assert_eq!(
            september(
                "BEGIN:VEVENT\r\nUID:o1\r\nDTSTART;VALUE=DATE:20240912\r\nDTEND;VALUE=DATE:20240913\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:o1\r\nRECURRENCE-ID;TZID=Europe/London:20240919T000000\r\nDTSTART;VALUE=DATE:20240920\r\nDTEND;VALUE=DATE:20240921\r\nEND:VEVENT\r\n"
            ),
            ["2024-09-12", "2024-09-20", "2024-09-26"]
        );
    }

    #[test]
    fn this_and_future_changes_every_later_occurrence() {
        let master = "BEGIN:VEVENT\r\nUID:f1\r\nSUMMARY:Standup\r\nDTSTART:20240912T090000Z\r\nDTEND:20240912T091500Z\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n";
        let moved = "BEGIN:VEVENT\r\nUID:f1\r\nSUMMARY:Later standup\r\nRECURRENCE-ID;RANGE=THISANDFUTURE:20240919T090000Z\r\nDTSTART:20240919T100000Z\r\nDTEND:20240919T101500Z\r\nEND:VEVENT\r\n";
        assert_eq!(
            september(&format!("{master}{moved}")),
            [
                "2024-09-12T09:00Z..2024-09-12T09:15Z Standup",
                "2024-09-19T10:00Z..2024-09-19T10:15Z Later standup",
                "2024-09-26T10:00Z..2024-09-26T10:15Z Later standup",
            ]
        );
        // With COUNT: the five occurrences stay five.
        let counted = master.replace("FREQ=WEEKLY", "FREQ=WEEKLY;COUNT=3");
        assert_eq!(
            september(&format!("{counted}{moved}")),
            [
                "2024-09-12T09:00Z..2024-09-12T09:15Z Standup",
                "2024-09-19T10:00Z..2024-09-19T10:15Z Later standup",
                "2024-09-26T10:00Z..2024-09-26T10:15Z Later standup",
            ]
        );
        let two = master.replace("FREQ=WEEKLY", "FREQ=WEEKLY;COUNT=2");
        assert_eq!(
            september(&format!("{two}{moved}")),
            [
                "2024-09-12T09:00Z..2024-09-12T09:15Z Standup",
                "2024-09-19T10:00Z..2024-09-19T10:15Z Later standup",
            ]
        );
        // A later single override of the moved series is found by its
        // original start.
        let single = "BEGIN:VEVENT\r\nUID:f1\r\nSUMMARY:Cancelled\r\nSTATUS:CANCELLED\r\nRECURRENCE-ID:20240926T090000Z\r\nDTSTART:20240926T100000Z\r\nEND:VEVENT\r\n";
        assert_eq!(
            september(&format!("{master}{moved}{single}")),
            [
                "2024-09-12T09:00Z..2024-09-12T09:15Z Standup",
                "2024-09-19T10:00Z..2024-09-19T10:15Z Later standup",
            ]
        );
    }

    #[test]
    fn masters_sharing_a_uid_are_revisions_by_sequence() {
        let event = |seq: u32, hour: u32| {
            format!(
                "BEGIN:VEVENT\r\nUID:s1\r\nSEQUENCE:{seq}\r\nDTSTART:20240913T{hour:02}0000Z\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
            )
        };
        assert_eq!(
            september(&format!("{}{}{}", event(1, 9), event(3, 11), event(2, 10))),
            ["2024-09-13T11:00Z..2024-09-13T12:00Z"]
        );
        // Equal ones are both kept.
        assert_eq!(
            september(&format!("{}{}", event(2, 9), event(2, 11))),
            [
                "2024-09-13T09:00Z..2024-09-13T10:00Z",
                "2024-09-13T11:00Z..2024-09-13T12:00Z"
            ]
        );
    }

    #[test]
    fn a_windows_zone_name_is_read_by_cldr_and_noted() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:w1\r\nDTSTART;TZID=Pacific Standard Time:20240912T090000\r\nDURATION:PT1H\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:w2\r\nDTSTART;TZID=Atlantis/Lost:20240912T090000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let feed = super::super::icalendar::read(text.as_bytes()).unwrap();
        let built = build(feed, jiff::civil::date(2024, 9, 20), "Europe/London").unwrap();
        let starts: Vec<i64> = built.days.values().flatten().map(|o| o.start).collect();
        let at = |s: &str| s.parse::<Timestamp>().unwrap().as_second();
        assert!(starts.contains(&at("2024-09-12T16:00:00Z")), "{starts:?}");
        assert!(starts.contains(&at("2024-09-12T09:00:00Z")), "{starts:?}");
        let warnings = built.warnings.unwrap();
        assert_eq!(warnings.guessed_zones[0].zone, "America/Los_Angeles");
        assert_eq!(warnings.unknown_zones, ["Atlantis/Lost"]);
    }

    #[test]
    fn attendees_are_counted_once_each_in_linear_time() {
        let mut text = String::from(
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a1\r\nDTSTART:20240912T090000Z\r\nORGANIZER;CN=Boss:mailto:a49999@example.org\r\n",
        );
        for n in 0..50_000 {
            text.push_str(&format!(
                "ATTENDEE;CN=Person {n}:mailto:a{n}@example.org\r\n"
            ));
        }
        text.push_str("ATTENDEE:mailto:a7@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");
        let started = std::time::Instant::now();
        let feed = super::super::icalendar::read(text.as_bytes()).unwrap();
        let built = build(feed, jiff::civil::date(2024, 9, 20), "Europe/London").unwrap();
        let event = &built.events[0];
        assert_eq!(event.attendee_count, 50_000);
        assert_eq!(event.attendees.len(), KEPT_ATTENDEES);
        assert!(event.attendees[0].organizer);
        assert_eq!(event.attendees[0].name, "Boss");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn key_parts() {
        let timed = Occ {
            event: 0,
            all_day: false,
            start: 0,
            end: 0,
            original: "2025-03-01T09:05:07Z"
                .parse::<Timestamp>()
                .unwrap()
                .as_second(),
        };
        assert_eq!(original_part(&timed), "20250301T090507Z");
        let day = Occ {
            all_day: true,
            original: day_of(jiff::civil::date(1969, 12, 31)),
            ..timed
        };
        assert_eq!(original_part(&day), "19691231");
    }

    #[test]
    fn durations() {
        assert_eq!(duration_seconds("PT1H30M"), Some(5400));
        assert_eq!(duration_seconds("P1D"), Some(86_400));
        assert_eq!(duration_seconds("P2W"), Some(14 * 86_400));
        assert_eq!(duration_seconds("-PT15M"), Some(-900));
        assert_eq!(duration_seconds("P1H"), None);
    }

    #[test]
    fn values_read() {
        assert_eq!(
            parse_value("20250301", false),
            Some(Value::Date(jiff::civil::date(2025, 3, 1)))
        );
        assert_eq!(
            parse_value("20250301T090000Z", false),
            Some(Value::Utc(jiff::civil::date(2025, 3, 1).at(9, 0, 0, 0)))
        );
        assert_eq!(parse_value("2025030", false), None);
        assert_eq!(parse_value("20250301T250000", false), None);
    }

    #[test]
    fn until_is_split_off() {
        let (rule, until) = split_until("FREQ=WEEKLY;UNTIL=20250301T000000Z;BYDAY=MO");
        assert_eq!(rule, "FREQ=WEEKLY;BYDAY=MO");
        assert!(matches!(until, Some(Value::Utc(_))));
    }
}
