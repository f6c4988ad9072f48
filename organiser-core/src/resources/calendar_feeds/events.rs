//! Occurrences as the store keeps and reads them (document 3,
//! "CalendarEvent", "CalendarAttendee"): each feed's event rows, its
//! occurrences under every UTC day they touch, its long ones beside them,
//! and its repeating events' rules for days outside the window kept at
//! the last sync. Attendees are matched to people when read.

use std::collections::{HashMap, HashSet};
use std::ops::Bound;
use std::sync::{Arc, Mutex, RwLock};

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::build::{Built, FeedEvents, SHOWN_ATTENDEES, StoredEvent, original_part};
use super::meeting::Meeting;
use super::repeat::{self, Occ, day_date, day_of};
use super::tables::{DAYS, EVENTS, FEED_EVENTS};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::people;
use crate::store::codec::Record;
use crate::store::key::{Key, prefix_end};
use crate::store::{Dir, Tables};
use crate::time::Zone;

/// The occurrences under one day.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct DayOccs(Vec<Occ>);

impl Record for DayOccs {
    const NAME: &'static str = "calendar day";
    const FORMAT: u8 = 1;
}

fn event_key(feed: Id, row: u32) -> Key {
    Key::new().id(feed).u64(u64::from(row))
}

fn day_key(feed: Id, day: i64) -> Key {
    Key::new().id(feed).i64(day)
}

/// Removes every event of `feed`.
pub(crate) fn remove(cx: &WriteCx<'_>, feed: Id) -> Result<()> {
    let prefix = Key::new().id(feed).into_vec();
    let end = prefix_end(&prefix).unwrap_or_else(|| vec![0xff; 17]);
    cx.remove_range(EVENTS, &prefix, &end)?;
    cx.remove_range(DAYS, &prefix, &end)?;
    cx.remove(FEED_EVENTS, &feed.to_bytes())?;
    Ok(())
}

/// Replaces `feed`'s events with `built`'s.
pub(crate) fn replace(cx: &WriteCx<'_>, feed: Id, built: &Built) -> Result<()> {
    remove(cx, feed)?;
    for (row, event) in built.events.iter().enumerate() {
        cx.put_record(EVENTS, event_key(feed, row as u32).as_slice(), event)?;
    }
    for (day, occs) in &built.days {
        cx.put_record(DAYS, day_key(feed, *day).as_slice(), &DayOccs(occs.clone()))?;
    }
    // A new version, so rows kept in memory from the last sync are not read.
    let mut meta = built.meta.clone();
    meta.version = u64::from_be_bytes(crate::secrets::random_bytes(8).try_into().unwrap_or([0; 8]));
    cx.put_record(FEED_EVENTS, &feed.to_bytes(), &meta)
}

/// One occurrence of an event, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarEvent {
    /// Opaque; stable for the occurrence across syncs.
    pub key: String,
    /// The feed it came from.
    pub feed_id: Id,
    /// Blank when none.
    pub title: String,
    /// Whether it lasts whole days.
    pub all_day: bool,
    /// Start of a timed event.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub starts_at: Option<Timestamp>,
    /// End of a timed event.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub ends_at: Option<Timestamp>,
    /// First day of an all-day event.
    pub start_on: Option<Date>,
    /// Last day of an all-day event (inclusive).
    pub end_on: Option<Date>,
    /// Where.
    pub location: Option<String>,
    /// Plain text, at most 4,000 characters.
    pub description: Option<String>,
    /// An http(s) link.
    pub url: Option<String>,
    /// The meeting link, if one was found.
    pub meeting: Option<Meeting>,
    /// Every attendee, not counting an organizer who is not one.
    pub attendee_count: u32,
    /// The first ten attendees' names.
    pub attendee_names: Vec<String>,
    /// The first ten attendees, organizer first.
    pub attendees: Vec<CalendarAttendee>,
    /// The RRULE value when it repeats.
    pub rrule: Option<String>,
}

/// An attendee of an event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarAttendee {
    /// As the feed gives it, else the email.
    pub name: String,
    /// Lower case.
    pub email: Option<String>,
    /// Whether they organise it.
    pub organizer: bool,
    /// The person they are, matched when read.
    pub person_id: Option<Id>,
}

/// An occurrence found for a range, with its event's details, its key
/// and the day it starts on in the owner's zone.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) feed: Id,
    pub(crate) occ: Occ,
    pub(crate) event: Arc<Row>,
    pub(crate) key: String,
    pub(crate) day: Date,
}

impl Found {
    fn new(feed: Id, feed_tail: &str, occ: Occ, event: Arc<Row>, zone: &TimeZone) -> Found {
        let day = if occ.all_day {
            day_date(occ.start)
        } else {
            let at = Timestamp::from_second(occ.start).unwrap_or(Timestamp::UNIX_EPOCH);
            zone.to_datetime(at).date()
        };
        let key = format!("{}{}-{}", &event.key, feed_tail, original_part(&occ));
        Found {
            feed,
            occ,
            event,
            key,
            day,
        }
    }

    /// The calendar's order: by the day it starts on, all day first on a
    /// day, then start, title ignoring case, key.
    pub(crate) fn order(a: &Found, b: &Found) -> std::cmp::Ordering {
        a.day
            .cmp(&b.day)
            .then(b.occ.all_day.cmp(&a.occ.all_day))
            .then(a.occ.start.cmp(&b.occ.start))
            .then_with(|| {
                if a.event.title == b.event.title {
                    std::cmp::Ordering::Equal
                } else {
                    // Ignoring case, without copying either title.
                    let (x, y) = (&a.event.title, &b.event.title);
                    x.chars()
                        .flat_map(char::to_lowercase)
                        .cmp(y.chars().flat_map(char::to_lowercase))
                }
            })
            .then_with(|| a.key.cmp(&b.key))
    }

    /// Whether it has ended by `now` (`today` in the owner's zone).
    pub(crate) fn ended(&self, now: Timestamp, today: Date) -> bool {
        if self.occ.all_day {
            day_date(self.occ.end.max(self.occ.start)) < today
        } else if self.occ.end > self.occ.start {
            self.occ.end <= now.as_second()
        } else {
            self.occ.start < now.as_second()
        }
    }
}

/// An event row as kept in memory: the event, and its text as JSON
/// (escaped once, not at every answer).
pub(crate) struct Row {
    event: StoredEvent,
    json: RowJson,
}

/// The JSON of an event's fields that do not depend on the occurrence or
/// the people.
struct RowJson {
    title: Box<RawValue>,
    location: Box<RawValue>,
    description: Box<RawValue>,
    url: Box<RawValue>,
    meeting: Box<RawValue>,
    rrule: Box<RawValue>,
    /// Each shown attendee's `name` and `email`.
    attendees: Vec<(Box<RawValue>, Box<RawValue>)>,
}

impl Row {
    fn new(event: StoredEvent) -> Row {
        fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
            serde_json::value::to_raw_value(value)
                .unwrap_or_else(|_| RawValue::from_string("null".to_owned()).expect("JSON"))
        }
        let json = RowJson {
            title: raw(&event.title),
            location: raw(&event.location),
            description: raw(&event.description),
            url: raw(&event.url),
            meeting: raw(&event.meeting),
            rrule: raw(&event.rrule),
            attendees: event
                .attendees
                .iter()
                .take(SHOWN_ATTENDEES)
                .map(|a| (raw(&a.name), raw(&a.email)))
                .collect(),
        };
        Row { event, json }
    }
}

impl std::ops::Deref for Row {
    type Target = StoredEvent;

    fn deref(&self) -> &StoredEvent {
        &self.event
    }
}

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.event.fmt(f)
    }
}

/// Event rows decoded once per sync of their feed, kept between requests:
/// by feed, the rows of the version of its events last read.
#[derive(Default)]
struct RowCache(Mutex<HashMap<Id, Arc<FeedRows>>>);

/// One feed's rows read so far, at one version of its events, by row.
struct FeedRows {
    version: u64,
    rows: RwLock<Vec<Option<Arc<Row>>>>,
}

impl RowCache {
    /// The rows of `feed` at `version` (a new version starts empty).
    fn rows(&self, feed: Id, version: u64) -> Arc<FeedRows> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let entry = map.entry(feed).or_insert_with(|| {
            Arc::new(FeedRows {
                version,
                rows: RwLock::default(),
            })
        });
        if entry.version != version {
            *entry = Arc::new(FeedRows {
                version,
                rows: RwLock::default(),
            });
        }
        entry.clone()
    }
}

/// The rows of one feed's events at one version, read through the cache.
struct Rows {
    feed: Id,
    cached: Arc<FeedRows>,
}

impl Rows {
    fn get<T: Tables>(&self, cx: &Cx<'_, T>, row: u32) -> Result<Option<Arc<Row>>> {
        let at = row as usize;
        {
            let rows = self.cached.rows.read().unwrap_or_else(|e| e.into_inner());
            if let Some(Some(e)) = rows.get(at) {
                return Ok(Some(e.clone()));
            }
        }
        let found: Option<StoredEvent> =
            cx.get_record(EVENTS, event_key(self.feed, row).as_slice())?;
        let Some(event) = found.map(|e| Arc::new(Row::new(e))) else {
            return Ok(None);
        };
        let mut rows = self.cached.rows.write().unwrap_or_else(|e| e.into_inner());
        if rows.len() <= at {
            rows.resize(at + 1, None);
        }
        rows[at] = Some(event.clone());
        Ok(Some(event))
    }
}

/// Every occurrence touching `from` to `to` (owner's dates, inclusive;
/// timed ones from the start of `from` to the start of the day after
/// `to` in the owner's `zone`), in no order.
pub(crate) fn touching<T: Tables>(
    cx: &Cx<'_, T>,
    from: Date,
    to: Date,
    zone: &Zone,
) -> Result<Vec<Found>> {
    let start_of = |d: Date| zone.start_of(d).as_second();
    let (a, b) = (start_of(from), start_of(crate::time::add_days(to, 1)));
    let (from_day, to_day) = (day_of(from), day_of(to));
    let lo = from_day.min(a.div_euclid(86_400));
    let hi = to_day.max((b - 1).div_euclid(86_400));
    let touches = |o: &Occ| {
        if o.all_day {
            o.start <= to_day && o.end.max(o.start) >= from_day
        } else if o.end > o.start {
            o.start < b && o.end > a
        } else {
            o.start >= a && o.start < b
        }
    };
    let mut out = Vec::new();
    for feed in super::all_ids(cx)? {
        let meta: FeedEvents = cx
            .get_record(FEED_EVENTS, &feed.to_bytes())?
            .unwrap_or_default();
        let mut occs: Vec<Occ> = meta.long.clone();
        let lo_key = day_key(feed, lo).into_vec();
        let hi_key = day_key(feed, hi).into_vec();
        cx.scan(
            DAYS,
            Bound::Included(lo_key.as_slice()),
            Bound::Included(hi_key.as_slice()),
            Dir::Asc,
            &mut |_, v| {
                if let Ok(DayOccs(day)) = crate::store::codec::decode::<DayOccs>(v) {
                    occs.extend(day);
                }
                Ok(true)
            },
        )?;
        let rows = Rows {
            feed,
            cached: cx.org.ext.get::<RowCache>().rows(feed, meta.version),
        };
        let feed_text = feed.to_string();
        let feed_tail = &feed_text[feed_text.len() - 6..];
        // Days outside the window: expand the repeating events there.
        let (wlo, whi) = meta.window;
        if lo < wlo || hi > whi {
            for &row in &meta.repeating {
                let Some(event) = rows.get(cx, row)? else {
                    continue;
                };
                let Some(rep) = &event.repeat else { continue };
                let z = rep.zone.zone();
                if lo < wlo {
                    occs.extend(repeat::expand(rep, row, &z, lo, hi.min(wlo - 1)));
                }
                if hi > whi {
                    occs.extend(repeat::expand(rep, row, &z, lo.max(whi + 1), hi));
                }
            }
        }
        // An occurrence is under every day it touches, and may come from
        // the window and from an expansion beyond it: once each. (An
        // override keeps its own row for the start it replaces, and the
        // rule's occurrence at that start is never made.)
        let mut seen: HashSet<(u32, i64, bool)> = HashSet::with_capacity(occs.len());
        for occ in occs {
            if !touches(&occ) || !seen.insert((occ.event, occ.original, occ.all_day)) {
                continue;
            }
            let Some(event) = rows.get(cx, occ.event)? else {
                continue;
            };
            out.push(Found::new(feed, feed_tail, occ, event, zone.time_zone()));
        }
    }
    Ok(out)
}

/// Finds the people attendees are, once per address or name (`by_name`
/// is keyed by the name as written).
#[derive(Default)]
pub(crate) struct Matcher {
    by_email: HashMap<String, Option<Id>>,
    by_name: HashMap<String, Option<Id>>,
    /// The shown attendees' people of each event row (by the address of
    /// its decoded row, alive as long as the request's occurrences).
    by_row: HashMap<usize, Arc<[Option<Id>]>>,
}

impl Matcher {
    /// The people the shown attendees of the events matched so far are
    /// (one event's occurrences share them; repeats possible).
    pub(crate) fn shown_people(&self) -> impl Iterator<Item = Id> + '_ {
        self.by_row
            .values()
            .flat_map(|p| p.iter().flatten().copied())
    }

    /// The live person an attendee is: by email ignoring case, else the
    /// one live person with that name ignoring case and accents.
    pub(crate) fn person<T: Tables>(
        &mut self,
        cx: &Cx<'_, T>,
        name: &str,
        email: Option<&str>,
    ) -> Result<Option<Id>> {
        if let Some(email) = email {
            // Stored in lower case.
            let found = match self.by_email.get(email) {
                Some(found) => *found,
                None => {
                    let found = people::by_email(cx, email)?;
                    self.by_email.insert(email.to_owned(), found);
                    found
                }
            };
            if found.is_some() {
                return Ok(found);
            }
        }
        if let Some(found) = self.by_name.get(name) {
            return Ok(*found);
        }
        let folded = crate::text::fold_search(&crate::text::squish(name));
        let found = if folded.is_empty() {
            None
        } else {
            people::only_one_named(cx, &folded)?
        };
        self.by_name.insert(name.to_owned(), found);
        Ok(found)
    }
}

/// An occurrence as the API shows it, borrowed from what was read, with
/// its shown attendees' people: the HTTP answer serialises it without
/// copying; [`CalendarEvent`] is its owned form (the same JSON).
pub(crate) struct Shown<'a> {
    pub(crate) found: &'a Found,
    pub(crate) people: Arc<[Option<Id>]>,
}

impl<'a> Shown<'a> {
    /// `f` with its shown attendees matched to people.
    pub(crate) fn new<T: Tables>(
        cx: &Cx<'_, T>,
        f: &'a Found,
        matcher: &mut Matcher,
    ) -> Result<Shown<'a>> {
        // The occurrences of one event share its row: matched once.
        let row = Arc::as_ptr(&f.event) as usize;
        if let Some(people) = matcher.by_row.get(&row) {
            return Ok(Shown {
                found: f,
                people: people.clone(),
            });
        }
        let mut people = Vec::with_capacity(f.event.attendees.len().min(SHOWN_ATTENDEES));
        for a in f.event.attendees.iter().take(SHOWN_ATTENDEES) {
            people.push(matcher.person(cx, &a.name, a.email.as_deref())?);
        }
        let people: Arc<[Option<Id>]> = people.into();
        matcher.by_row.insert(row, people.clone());
        Ok(Shown { found: f, people })
    }

    fn attendees(&self) -> impl Iterator<Item = (&'a super::build::Attendee, Option<Id>)> + '_ {
        self.found
            .event
            .attendees
            .iter()
            .zip(self.people.iter().copied())
    }

    /// `starts_at`, `ends_at`, `start_on`, `end_on`.
    fn times(
        &self,
    ) -> (
        Option<Timestamp>,
        Option<Timestamp>,
        Option<Date>,
        Option<Date>,
    ) {
        let o = &self.found.occ;
        if o.all_day {
            (
                None,
                None,
                Some(day_date(o.start)),
                Some(day_date(o.end.max(o.start))),
            )
        } else {
            let at = |s: i64| Timestamp::from_second(s).ok();
            (at(o.start), at(o.end.max(o.start)), None, None)
        }
    }

    /// The owned form.
    pub(crate) fn to_event(&self) -> CalendarEvent {
        let f = self.found;
        let e = &f.event;
        let (starts_at, ends_at, start_on, end_on) = self.times();
        let attendees: Vec<CalendarAttendee> = self
            .attendees()
            .map(|(a, person_id)| CalendarAttendee {
                name: a.name.clone(),
                email: a.email.clone(),
                organizer: a.organizer,
                person_id,
            })
            .collect();
        CalendarEvent {
            key: f.key.clone(),
            feed_id: f.feed,
            title: e.title.clone(),
            all_day: f.occ.all_day,
            starts_at,
            ends_at,
            start_on,
            end_on,
            location: e.location.clone(),
            description: e.description.clone(),
            url: e.url.clone(),
            meeting: e.meeting.clone(),
            attendee_count: e.attendee_count,
            attendee_names: attendees.iter().map(|a| a.name.clone()).collect(),
            attendees,
            rrule: e.rrule.clone(),
        }
    }
}

impl Serialize for Shown<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Names<'a, 'b>(&'b Shown<'a>);
        impl Serialize for Names<'_, '_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(
                    self.0
                        .found
                        .event
                        .json
                        .attendees
                        .iter()
                        .map(|(name, _)| name),
                )
            }
        }
        struct People<'a, 'b>(&'b Shown<'a>);
        impl Serialize for People<'_, '_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                let json = &self.0.found.event.json.attendees;
                s.collect_seq(self.0.attendees().zip(json).map(
                    |((a, person_id), (name, email))| Attendee {
                        name,
                        email,
                        organizer: a.organizer,
                        person_id,
                    },
                ))
            }
        }
        #[derive(Serialize)]
        struct Attendee<'a> {
            name: &'a RawValue,
            email: &'a RawValue,
            organizer: bool,
            person_id: Option<Id>,
        }
        let f = self.found;
        let e = &f.event;
        let json = &e.json;
        let (starts_at, ends_at, start_on, end_on) = self.times();
        let stamp = |t: Option<Timestamp>| t.map(crate::time::format_timestamp);
        let mut out = s.serialize_struct("CalendarEvent", 16)?;
        out.serialize_field("key", &f.key)?;
        out.serialize_field("feed_id", &f.feed)?;
        out.serialize_field("title", &json.title)?;
        out.serialize_field("all_day", &f.occ.all_day)?;
        out.serialize_field("starts_at", &stamp(starts_at))?;
        out.serialize_field("ends_at", &stamp(ends_at))?;
        out.serialize_field("start_on", &start_on)?;
        out.serialize_field("end_on", &end_on)?;
        out.serialize_field("location", &json.location)?;
        out.serialize_field("description", &json.description)?;
        out.serialize_field("url", &json.url)?;
        out.serialize_field("meeting", &json.meeting)?;
        out.serialize_field("attendee_count", &e.attendee_count)?;
        out.serialize_field("attendee_names", &Names(self))?;
        out.serialize_field("attendees", &People(self))?;
        out.serialize_field("rrule", &json.rrule)?;
        out.end()
    }
}
