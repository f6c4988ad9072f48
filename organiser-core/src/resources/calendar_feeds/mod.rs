//! Calendar feeds (document 3, "CalendarFeed", "Calendar feed health",
//! "Calendar feeds"; DESIGN.md on private addresses): iCal addresses the
//! owner subscribes to, fetched on create and on an address change and
//! then on their `sync_every` in the background, their events kept as of
//! the last successful sync.
//!
//! - `fetch`: the address rules and the fetch, each failure a code;
//! - `icalendar`, `zones`, `repeat`, `meeting`, `build`: reading a body
//!   into events and occurrences;
//! - `events`: the occurrences as the store keeps and reads them (the
//!   calendar range and each person's meetings read them);
//! - `sync`: one attempt, the schedule and its backoff.

mod api;
mod build;
pub(crate) mod events;
mod fetch;
mod icalendar;
mod meeting;
pub(crate) mod portable;
mod repeat;
pub(crate) mod sync;
pub(crate) mod tables;
mod zones;

pub use api::CalendarFeeds;
pub(crate) use api::{OPERATIONS, SCHEDULED_SYNCS};
pub use events::{CalendarAttendee, CalendarEvent};
pub use meeting::Meeting;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::RecordKind;
use crate::engine::{Cx, Inner, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::resources::vocabulary::{CALENDAR_SYNC_ERRORS, CALENDAR_SYNC_FREQUENCIES, palette};
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{fold_case, fold_search, squish, squished_required};
use tables::{FEEDS, FEEDS_BY_CASE_NAME, FEEDS_BY_NAME, FEEDS_BY_UPDATED, FEEDS_DUE};

/// Calendar feeds: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("calendar_feed", 13);

/// The `sync_every` a feed gets when none is sent.
const DEFAULT_SYNC_EVERY: &str = "hourly";

/// Why a sync failed: a key of the vocabulary's `calendar_sync_errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SyncErrorCode {
    NotFound,
    Denied,
    ServerError,
    Unreachable,
    TimedOut,
    Tls,
    TooBig,
    NotCalendar,
    TooManyEvents,
    RefusedAddress,
    AddressUnreadable,
    NotSaved,
}

impl SyncErrorCode {
    /// Its key.
    pub(crate) fn key(self) -> &'static str {
        match self {
            SyncErrorCode::NotFound => "not_found",
            SyncErrorCode::Denied => "denied",
            SyncErrorCode::ServerError => "server_error",
            SyncErrorCode::Unreachable => "unreachable",
            SyncErrorCode::TimedOut => "timed_out",
            SyncErrorCode::Tls => "tls",
            SyncErrorCode::TooBig => "too_big",
            SyncErrorCode::NotCalendar => "not_calendar",
            SyncErrorCode::TooManyEvents => "too_many_events",
            SyncErrorCode::RefusedAddress => "refused_address",
            SyncErrorCode::AddressUnreadable => "address_unreadable",
            SyncErrorCode::NotSaved => "not_saved",
        }
    }

    /// What the vocabulary tells the owner about it.
    pub(crate) fn label(self) -> &'static str {
        CALENDAR_SYNC_ERRORS
            .iter()
            .find(|c| c.key == self.key())
            .map_or("The calendar could not be read", |c| c.label)
    }
}

/// A failing feed's `sync_error`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncError {
    /// A key of the vocabulary's `calendar_sync_errors`.
    pub code: String,
    /// The HTTP status of the last try, when one came back.
    pub http_status: Option<u16>,
    /// Failed tries in a row.
    pub failures: u32,
}

/// What the last successful sync had to leave out or guess: the feed was
/// read, but not all of it as written (docs/api.md, "Reading a feed").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncWarnings {
    /// Lines that were not content lines: left out, or joined to the text
    /// before them as a line the producer did not fold.
    pub skipped_lines: u32,
    /// Windows zone names (as Outlook writes them) read as the IANA zone
    /// CLDR maps them to, the feed defining neither.
    pub guessed_zones: Vec<GuessedZone>,
    /// `TZID`s that name no zone, read as UTC.
    pub unknown_zones: Vec<String>,
}

/// A zone name the feed used and the zone it was read as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuessedZone {
    /// The `TZID` as written.
    pub tzid: String,
    /// The IANA zone it was read as.
    pub zone: String,
}

impl SyncWarnings {
    /// The warnings of a read, `None` when it read everything as written.
    pub(crate) fn of(
        skipped_lines: u32,
        guessed: std::collections::BTreeMap<String, String>,
        unknown: std::collections::BTreeSet<String>,
    ) -> Option<SyncWarnings> {
        let warnings = SyncWarnings {
            skipped_lines,
            guessed_zones: guessed
                .into_iter()
                .map(|(tzid, zone)| GuessedZone { tzid, zone })
                .collect(),
            unknown_zones: unknown.into_iter().collect(),
        };
        (warnings != SyncWarnings::default()).then_some(warnings)
    }
}

/// A calendar feed as the API shows it (the address is never shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarFeed {
    /// ID.
    pub id: Id,
    /// Squished, unique ignoring case, at most 100 characters.
    pub name: String,
    /// A colour key of the vocabulary.
    pub color: String,
    /// The host of the address.
    pub address_host: String,
    /// The hosted calendar it lives in (`google`, `icloud`, `outlook`).
    pub source: Option<String>,
    /// How often it is synced.
    pub sync_every: String,
    /// The last successful sync.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_synced_at: Option<Timestamp>,
    /// The last try.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_attempt_at: Option<Timestamp>,
    /// Null while healthy.
    pub sync_error: Option<SyncError>,
    /// What the last successful sync left out or guessed; null when it
    /// read the whole feed as written.
    pub sync_warnings: Option<SyncWarnings>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (every sync attempt is a change).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A feed as stored: what the API shows, the sealed address and the next
/// scheduled sync.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredFeed {
    pub(crate) feed: CalendarFeed,
    /// The address as written, sealed with the store's secret key.
    pub(crate) address: Vec<u8>,
    /// When the schedule next syncs it.
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) next_sync_at: Timestamp,
    /// Whether its address may be on a private network: subscribed (or
    /// its address changed) while `ORGANISER_ALLOW_PRIVATE_FEEDS` allowed
    /// them, so every later sync may reach it, whichever process syncs.
    pub(crate) private_allowed: bool,
}

impl Record for StoredFeed {
    const NAME: &'static str = "calendar feed";
    /// 2: with `sync_warnings`.
    const FORMAT: u8 = 2;
}

/// A feed as schema 11 stored it (format 1, before `sync_warnings`).
#[derive(Deserialize)]
struct StoredFeedV1 {
    feed: CalendarFeedV1,
    address: Vec<u8>,
    #[serde(with = "crate::time::serde_timestamp")]
    next_sync_at: Timestamp,
}

/// [`CalendarFeed`] as format 1 had it.
#[derive(Deserialize)]
struct CalendarFeedV1 {
    id: Id,
    name: String,
    color: String,
    address_host: String,
    source: Option<String>,
    sync_every: String,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_synced_at: Option<Timestamp>,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_attempt_at: Option<Timestamp>,
    sync_error: Option<SyncError>,
    #[serde(with = "crate::time::serde_timestamp")]
    created_at: Timestamp,
    #[serde(with = "crate::time::serde_timestamp")]
    updated_at: Timestamp,
}

/// Schema 12: every stored feed rewritten in format 2 (no warnings yet:
/// the next sync says; private addresses as the syncing process allows
/// them).
pub(crate) fn store_feeds_with_warnings(tx: &crate::store::WriteTx) -> Result<()> {
    let mut rows = Vec::new();
    tx.scan_prefix(FEEDS, &[], crate::store::Dir::Asc, &mut |k, v| {
        if v.first() == Some(&1) {
            let old: StoredFeedV1 = postcard::from_bytes(&v[1..]).map_err(|e| {
                Error::Storage(
                    format!("a stored calendar feed of format 1 is malformed: {e}").into(),
                )
            })?;
            rows.push((k.to_vec(), old));
        }
        Ok(true)
    })?;
    for (key, old) in rows {
        let f = old.feed;
        let feed = StoredFeed {
            feed: CalendarFeed {
                id: f.id,
                name: f.name,
                color: f.color,
                address_host: f.address_host,
                source: f.source,
                sync_every: f.sync_every,
                last_synced_at: f.last_synced_at,
                last_attempt_at: f.last_attempt_at,
                sync_error: f.sync_error,
                sync_warnings: None,
                created_at: f.created_at,
                updated_at: f.updated_at,
            },
            address: old.address,
            next_sync_at: old.next_sync_at,
            private_allowed: false,
        };
        tx.put_record(FEEDS, &key, &feed)?;
    }
    Ok(())
}

/// `{calendar_feed: {name?, address, color, sync_every?}}`; all optional
/// on change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct CalendarFeedInput {
    /// The name; blank on create takes the calendar's own.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// The iCal address (`https`, `http` or `webcal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// A colour key.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub color: Field<String>,
    /// A key of the vocabulary's `calendar_sync_frequencies`.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub sync_every: Field<String>,
}

pub(crate) fn parse(body: Option<&Value>) -> Result<CalendarFeedInput> {
    let mut f = record(body, "calendar_feed")?;
    let input = CalendarFeedInput {
        name: f.string("name"),
        address: match f.string("address") {
            Field::Value(a) => Some(a),
            Field::Null => Some(String::new()),
            Field::Absent => None,
        },
        color: f.string("color"),
        sync_every: f.string("sync_every"),
    };
    f.finish()?;
    Ok(input)
}

/// The minutes of a `sync_every` key.
fn minutes(key: &str) -> Option<u32> {
    CALENDAR_SYNC_FREQUENCIES
        .iter()
        .find(|f| f.key == key)
        .map(|f| f.minutes)
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<StoredFeed>> {
    cx.get_record(FEEDS, &id.to_bytes())
}

/// The feed `id` as stored.
pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<StoredFeed> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// `GET /calendar_feeds/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<CalendarFeed> {
    Ok(stored(cx, id)?.feed)
}

fn entries(s: &StoredFeed) -> [(Tbl, Key); 4] {
    let f = &s.feed;
    [
        (
            FEEDS_BY_NAME,
            Key::new().str(&fold_search(&f.name)).id(f.id),
        ),
        (
            FEEDS_BY_CASE_NAME,
            Key::new().str(&fold_case(&f.name)).id(f.id),
        ),
        (
            FEEDS_BY_UPDATED,
            Key::new().timestamp(f.updated_at).id(f.id),
        ),
        (FEEDS_DUE, Key::new().timestamp(s.next_sync_at).id(f.id)),
    ]
}

pub(crate) fn save(cx: &WriteCx<'_>, before: Option<&StoredFeed>, s: &StoredFeed) -> Result<()> {
    match before {
        Some(b) => cx.move_indexes(&entries(b), &entries(s))?,
        None => cx.set_indexes(&entries(s), true)?,
    }
    cx.put_record(FEEDS, &s.feed.id.to_bytes(), s)
}

/// The fields of a write checked before any fetch: everything but a name
/// already taken.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// A name sent (squished, not blank).
    name: Option<String>,
    address: Option<fetch::Address>,
    color: Option<String>,
    sync_every: Option<String>,
}

/// Checks `input` (on create when `creating`): 422 with every field's
/// problem.
fn check(input: &CalendarFeedInput, creating: bool) -> Result<Checked> {
    let mut details = Details::new();
    let name = match &input.name {
        Field::Value(n) if !squish(n).is_empty() => Some(squished_required(
            &mut details,
            "name",
            n,
            limits::text::CALENDAR_FEED_NAME,
        )),
        Field::Value(_) | Field::Null if !creating => {
            details.add("name", "can't be blank");
            None
        }
        _ => None,
    };
    let address = match &input.address {
        Some(a) => match fetch::address(a) {
            Ok(a) => Some(a),
            Err(phrase) => {
                details.add("address", phrase);
                None
            }
        },
        None if creating => {
            details.add("address", "can't be blank");
            None
        }
        None => None,
    };
    let color = match palette::check_color(&mut details, &input.color) {
        Some(Some(c)) => Some(c),
        Some(None) => {
            details.add("color", "can't be blank");
            None
        }
        None if creating => {
            details.add("color", "can't be blank");
            None
        }
        None => None,
    };
    let sync_every = match &input.sync_every {
        Field::Value(k) if minutes(k).is_some() => Some(k.clone()),
        Field::Absent => None,
        _ => {
            let keys: Vec<&str> = CALENDAR_SYNC_FREQUENCIES.iter().map(|f| f.key).collect();
            details.add("sync_every", format!("must be one of {}", keys.join(", ")));
            None
        }
    };
    details.into_validation()?;
    Ok(Checked {
        name,
        address,
        color,
        sync_every,
    })
}

/// 422 on `name` when another feed has it.
fn check_name_free<T: Tables>(cx: &Cx<'_, T>, name: &str, except: Option<Id>) -> Result<()> {
    if cx.named(FEEDS_BY_CASE_NAME, name, except)?.is_some() {
        return Err(Error::invalid("name", "has already been taken"));
    }
    Ok(())
}

/// A write prepared outside the transaction: its checked fields and, when
/// the address is new, what its fetch found.
pub(crate) struct Prepared {
    checked: Checked,
    fetched: Option<build::Built>,
}

/// Checks `input` and fetches a new address (waits up to 30 s): 422 on
/// `address` with the reason when it cannot be read.
pub(crate) fn prepare(
    inner: &Inner,
    id: Option<Id>,
    input: &CalendarFeedInput,
) -> Result<Prepared> {
    let checked = check(input, id.is_none())?;
    let current = match id {
        Some(id) => Some(inner.read(|cx| stored(cx, id))?),
        None => None,
    };
    if let Some(name) = &checked.name {
        inner.read(|cx| check_name_free(cx, name, id))?;
    }
    let new_address = checked.address.as_ref().filter(|a| {
        current.as_ref().is_none_or(|c| {
            inner
                .secret
                .open(&c.address)
                .map_or(true, |old| old != a.written.as_bytes())
        })
    });
    let allow_private = inner.options.allow_private_feeds;
    let fetched = match new_address {
        Some(a) => match sync::read_address(inner, &a.fetched, allow_private) {
            Ok(built) => Some(built),
            Err(failure) if failure.code == SyncErrorCode::RefusedAddress => {
                return Err(Error::invalid(
                    "address",
                    format!(
                        "{}: to allow addresses on your own network, run the server and the organiser commands with ORGANISER_ALLOW_PRIVATE_FEEDS=1",
                        failure.code.label()
                    ),
                ));
            }
            Err(failure) => {
                return Err(Error::invalid("address", failure.code.label()));
            }
        },
        None => None,
    };
    Ok(Prepared { checked, fetched })
}

/// When a feed last tried (or was made) plus its interval, with the
/// backoff of its failures: `sync_every` x 2^failures, at most a day.
pub(crate) fn next_sync(feed: &CalendarFeed) -> Timestamp {
    let every = i64::from(minutes(&feed.sync_every).unwrap_or(60)) * 60;
    let failures = feed.sync_error.as_ref().map_or(0, |e| e.failures).min(20);
    let wait = every.saturating_mul(1i64 << failures).min(24 * 3600);
    let from = feed.last_attempt_at.unwrap_or(feed.created_at);
    from.checked_add(SignedDuration::from_secs(wait))
        .unwrap_or(Timestamp::MAX)
}

/// `POST /calendar_feeds`: the feed and its events, in one transaction.
pub(crate) fn create(cx: &mut WriteCx<'_>, prepared: Prepared) -> Result<CalendarFeed> {
    let Prepared { checked, fetched } = prepared;
    let (Some(address), Some(color), Some(built)) = (checked.address, checked.color, fetched)
    else {
        return Err(Error::invalid("address", "can't be blank"));
    };
    let name = match checked.name {
        Some(name) => {
            check_name_free(cx, &name, None)?;
            name
        }
        None => {
            let own = built
                .name
                .as_deref()
                .map(squish)
                .filter(|n| !n.is_empty() && !n.chars().any(char::is_control))
                .unwrap_or_else(|| address.host.clone());
            let own: String = own
                .chars()
                .take(limits::text::CALENDAR_FEED_NAME)
                .collect::<String>()
                .trim()
                .to_owned();
            crate::restore::free_name(&own, limits::text::CALENDAR_FEED_NAME, |n| {
                Ok(cx.named(FEEDS_BY_CASE_NAME, n, None)?.is_some())
            })?
            .ok_or_else(|| Error::invalid("name", "has already been taken"))?
        }
    };
    let now = cx.now();
    let id = cx.new_id();
    let feed = CalendarFeed {
        id,
        name,
        color,
        source: fetch::source(&address.host).map(str::to_owned),
        address_host: address.host.clone(),
        sync_every: checked
            .sync_every
            .unwrap_or_else(|| DEFAULT_SYNC_EVERY.to_owned()),
        last_synced_at: Some(now),
        last_attempt_at: Some(now),
        sync_error: None,
        sync_warnings: built.warnings.clone(),
        created_at: now,
        updated_at: now,
    };
    let s = StoredFeed {
        next_sync_at: next_sync(&feed),
        address: cx.org.secret.seal(address.written.as_bytes()),
        private_allowed: cx.org.options.allow_private_feeds,
        feed,
    };
    events::replace(cx, id, &built)?;
    save(cx, None, &s)?;
    Ok(s.feed)
}

/// `PATCH /calendar_feeds/{id}`.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, prepared: Prepared) -> Result<CalendarFeed> {
    let before = stored(cx, id)?;
    let mut s = before.clone();
    let Prepared { checked, fetched } = prepared;
    if let Some(name) = checked.name {
        check_name_free(cx, &name, Some(id))?;
        s.feed.name = name;
    }
    if let Some(color) = checked.color {
        s.feed.color = color;
    }
    if let Some(every) = checked.sync_every {
        s.feed.sync_every = every;
    }
    let now = cx.now();
    if let (Some(address), Some(built)) = (checked.address, fetched) {
        s.address = cx.org.secret.seal(address.written.as_bytes());
        s.private_allowed = cx.org.options.allow_private_feeds;
        s.feed.address_host = address.host.clone();
        s.feed.source = fetch::source(&address.host).map(str::to_owned);
        s.feed.last_synced_at = Some(now);
        s.feed.last_attempt_at = Some(now);
        s.feed.sync_error = None;
        s.feed.sync_warnings = built.warnings.clone();
        events::replace(cx, id, &built)?;
    }
    if s == before {
        return Ok(s.feed);
    }
    s.feed.updated_at = now;
    s.next_sync_at = next_sync(&s.feed);
    save(cx, Some(&before), &s)?;
    Ok(s.feed)
}

/// `DELETE /calendar_feeds/{id}`: the feed and its events, for good.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let s = stored(cx, id)?;
    events::remove(cx, id)?;
    cx.set_indexes(&entries(&s), false)?;
    cx.remove(FEEDS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)
}

/// Every feed's ID, by name.
pub(crate) fn all_ids<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Id>> {
    cx.ids_under(FEEDS_BY_NAME, &[])
}

/// Every feed, by name.
pub(crate) fn all<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<CalendarFeed>> {
    all_ids(cx)?.into_iter().map(|id| get(cx, id)).collect()
}

/// `GET /calendar_feeds` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CalendarFeedQuery {
    /// Only the feeds of this address (as written on create; `webcal://`
    /// and `https://` are the same): to learn whether it is subscribed
    /// already, though addresses are never shown.
    pub address: Option<String>,
    /// `name` (default; ignoring case and accents), `id`, `updated_at`;
    /// direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl CalendarFeedQuery {
    /// The query's parameters, as [`CalendarFeedQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(address) = &self.address {
            pairs.push(("address", address.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<CalendarFeedQuery> {
        let address = match query.get("address") {
            Some(text) => Some(
                fetch::address(text)
                    .map_err(|phrase| Error::bad_param("address", phrase))?
                    .fetched,
            ),
            None => None,
        };
        Ok(CalendarFeedQuery {
            address,
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: FEEDS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "calendar_feeds",
    orders: &[
        Order {
            name: "name",
            index: FEEDS_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: FEEDS,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: FEEDS,
};

/// `GET /calendar_feeds`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &CalendarFeedQuery) -> Result<Page<CalendarFeed>> {
    // An address is compared with each feed's, opened (feeds are few).
    let of_address = |s: &StoredFeed| match &q.address {
        None => true,
        Some(address) => cx
            .org
            .secret
            .open(&s.address)
            .ok()
            .and_then(|written| fetch::address(&String::from_utf8_lossy(&written)).ok())
            .is_some_and(|theirs| theirs.fetched == *address),
    };
    let load = |k: &[u8]| Ok(load(cx, tail_id(k))?.filter(of_address).map(|s| s.feed));
    let filter = match &q.address {
        Some(address) => {
            let digest = crate::secrets::to_hex(&crate::secrets::sha256(address.as_bytes()));
            Filter::default().skipping(&format!("address={digest}"))
        }
        None => Filter::default(),
    };
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
}

#[cfg(test)]
mod tests;
