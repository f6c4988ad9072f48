//! From a feed's events to what the store keeps (document 3,
//! "CalendarEvent"): one row of details per event, each repeating event's
//! rule, and every occurrence by the days it touches, the repeating ones
//! over a window around the sync (the rest are expanded when read).

use std::collections::{BTreeMap, HashMap};

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
enum Value {
    Date(Date),
    /// In UTC (`Z`).
    Utc(DateTime),
    /// With a TZID, or floating.
    Local(DateTime),
}

fn parse_value(text: &str, date_only: bool) -> Option<Value> {
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
    let date_only = param(p, "VALUE").is_some_and(|v| v.eq_ignore_ascii_case("DATE"));
    p.value
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter_map(|v| parse_value(v, date_only))
        .collect()
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
    recurrence: Option<Timestamp>,
    recurrence_day: Option<Date>,
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
    let (mut recurrence, mut recurrence_day) = (None, None);
    if let Some(p) = props.first("RECURRENCE-ID")
        && let Some(v) = values(p).first().copied()
    {
        match v {
            Value::Date(d) => recurrence_day = Some(d),
            _ => recurrence = Some(instant_of(zones, p, v)),
        }
    }
    let mut exdates = Vec::new();
    let mut exdays = Vec::new();
    for p in props.all("EXDATE") {
        for v in values(p) {
            match v {
                Value::Date(d) => exdays.push(d),
                _ => exdates.push(instant_of(zones, p, v)),
            }
        }
    }
    let mut rdates = Vec::new();
    let mut rdays = Vec::new();
    for p in props.all("RDATE") {
        for v in values(p) {
            match v {
                Value::Date(d) => rdays.push(d),
                _ => rdates.push(instant_of(zones, p, v)),
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
        recurrence,
        recurrence_day,
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
        details,
    })
}

/// The RRULE value without its UNTIL, and the UNTIL.
fn split_until(rule: &str) -> (String, Option<Value>) {
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
    for p in props.all("ATTENDEE") {
        let a = person(p, false);
        if a.name.is_empty() && a.email.is_none() {
            continue;
        }
        let seen = all.iter().any(|b| match (&a.email, &b.email) {
            (Some(x), Some(y)) => x == y,
            (None, None) => a.name == b.name,
            _ => false,
        });
        if !seen {
            all.push(a);
        }
    }
    let count = all.len() as u32;
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

/// Builds what the store keeps for a feed's body `parsed`, synced on
/// `today` for an owner in `owner_zone` (IANA).
pub(crate) fn build(
    parsed: Feed,
    today: Date,
    owner_zone: &str,
) -> Result<Built, super::SyncErrorCode> {
    let mut zones = Zones::new(&parsed.zones, owner_zone);
    let mut reads: Vec<Read> = parsed
        .events
        .iter()
        .filter_map(|p| read_event(&mut zones, p))
        .collect();
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
    // Masters first, so overrides find them.
    reads.sort_by_key(|r| r.recurrence.is_some() || r.recurrence_day.is_some());
    let mut masters: HashMap<String, usize> = HashMap::new();
    let mut used_keys: HashMap<String, u32> = HashMap::new();
    let mut occs: Vec<Occ> = Vec::new();
    for r in reads {
        let is_override = r.recurrence.is_some() || r.recurrence_day.is_some();
        let master = if is_override {
            masters.get(&r.uid).copied()
        } else {
            None
        };
        if let Some(m) = master {
            add_override(&mut built, &mut zones, m, r);
            continue;
        }
        if r.cancelled {
            continue;
        }
        let mut base = key_base(&r.uid);
        if !is_override {
            let n = used_keys.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                base = format!("{base}~{n}");
            }
        }
        let ix = built.events.len() as u32;
        let mut details = r.details;
        details.key = base;
        let zone = zones.zone(&r.zone);
        let as_repeat = |rule: String, zones: &mut Zones| {
            let z = zones.zone(&r.zone);
            let local = |t: &Timestamp| zones::local(&z, *t);
            // An instant or a day of EXDATE and RDATE as a start of this
            // event: the day at midnight when all day, else its wall time
            // (a day takes DTSTART's time).
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
            Repeat {
                zone: r.zone.clone(),
                start: repeat::wall(r.start),
                all_day: r.all_day,
                length: r.length,
                rule,
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
                rdates: (r.rdates.iter().map(at_instant))
                    .chain(r.rdays.iter().map(on_day))
                    .map(repeat::wall)
                    .collect(),
                overrides: Vec::new(),
            }
        };
        let repeat = r
            .rule
            .clone()
            .map(|rule| as_repeat(rule, &mut zones))
            .filter(repeat::valid);
        match repeat {
            Some(rep) => {
                details.rrule = r.raw_rule.clone();
                details.repeat = Some(rep);
                masters.insert(r.uid.clone(), ix as usize);
                built.meta.repeating.push(ix);
            }
            None => {
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
                occs.push(occ);
            }
        }
        built.events.push(details);
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
    Ok(built)
}

/// Attaches override `r` to the repeating event in row `m`.
fn add_override(built: &mut Built, zones: &mut Zones, m: usize, r: Read) {
    let Some(rep) = built.events[m].repeat.clone() else {
        return;
    };
    let master_zone = zones.zone(&rep.zone);
    let rep_start = repeat::from_wall(rep.start);
    let original_local = match (r.recurrence, r.recurrence_day) {
        (Some(t), _) if !rep.all_day => zones::local(&master_zone, t),
        (Some(t), _) => t.to_zoned(jiff::tz::TimeZone::UTC).date().at(0, 0, 0, 0),
        (None, Some(d)) if rep.all_day => d.at(0, 0, 0, 0),
        (None, Some(d)) => d.at(rep_start.hour(), rep_start.minute(), rep_start.second(), 0),
        (None, None) => return,
    };
    let original_local = repeat::wall(original_local);
    let original = repeat::occurrence(&rep, m as u32, &master_zone, original_local).original;
    let replacement = if r.cancelled {
        None
    } else {
        let ix = built.events.len() as u32;
        let mut details = r.details;
        details.key = built.events[m].key.clone();
        details.rrule = built.events[m].rrule.clone();
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
        rep.overrides.retain(|(o, _)| *o != original_local);
        rep.overrides.push((original_local, replacement));
    }
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
