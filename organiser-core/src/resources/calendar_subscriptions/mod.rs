//! Calendar subscriptions (EXTENSIONS.md §2, "A calendar to subscribe
//! to"): the owner's own organiser as a calendar a phone or a desktop
//! program subscribes to at a secret address, read without a token.
//!
//! A subscription names what its feed holds (`include`, and the lists and
//! projects it is limited to) and an alarm. Its address is
//! `/ics/{secret}.ics` at the server's root: the secret is 32 random
//! bytes, shown once (in the answers of create and rotation) and stored
//! only as its SHA-256, keyed for the feed's lookup; a rotation or a
//! delete removes the old hash in the same transaction, so the old
//! address stops at once. `last_read_at` moves in memory at most once a
//! minute as the feed is read, and is written down by a registered job
//! (as API tokens' `last_used_at` is), so reading a feed never writes.
//!
//! The feed itself is `feed.rs`; what it holds, item by item, is said
//! there.

mod api;
mod feed;
mod reads;
pub(crate) mod tables;

pub use api::CalendarSubscriptions;
pub(crate) use api::{OPERATIONS, SUBSCRIPTION_READS};
pub use feed::{Feed, FeedRequest};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, Fields, words};
use crate::secrets::{random_bytes, sha256, to_hex};
use crate::store::{Dir, Tables};
use crate::text::squished_required;
use tables::{SUBSCRIPTIONS, SUBSCRIPTIONS_BY_SECRET};

/// The name of a subscription made without one.
pub const DEFAULT_NAME: &str = "Organiser";
/// The longest name, in characters.
const MOST_NAME: usize = 100;
/// The most minutes an alarm may come before its item (a week).
pub const MOST_ALARM_MINUTES: u16 = 10_080;

words! {
    /// What a subscription's feed holds.
    pub enum Include {
        /// Open tasks with a deadline.
        Tasks = "tasks",
        /// Planned, active and on-hold projects' start dates and deadlines.
        Projects = "projects",
        /// Live people's key dates, every year.
        KeyDates = "key_dates",
    }
}

/// A calendar subscription as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarSubscription {
    /// ID.
    pub id: Id,
    /// The calendar's name in the owner's calendar program
    /// (`X-WR-CALNAME`).
    pub name: String,
    /// What the feed holds, in the order `tasks`, `projects`, `key_dates`.
    pub include: Vec<Include>,
    /// The task lists whose tasks the feed holds (with `project_ids`);
    /// null for no limit.
    pub task_list_ids: Option<Vec<Id>>,
    /// The projects whose tasks and dates the feed holds; null for no
    /// limit.
    pub project_ids: Option<Vec<Id>>,
    /// Minutes before each item's start to alert; null for no alarm.
    pub alarm_minutes: Option<u16>,
    /// The feed's absolute address, `{base_url}/ics/{secret}.ics`: only in
    /// the answers of create and rotation, the one time it is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// When the feed was last read (to the minute).
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_read_at: Option<Timestamp>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (a rotation changes it).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// What a create or a change sends (`{calendar_subscription: {...}}`):
/// a field left out is left as it is (on create, its default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CalendarSubscriptionInput {
    /// 1 to 100 characters, squished; default `Organiser`.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// At least one of `tasks`, `projects`, `key_dates`; default all
    /// three.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub include: Field<Vec<Include>>,
    /// Live task lists' ids, or null.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub task_list_ids: Field<Vec<Id>>,
    /// Live projects' ids, or null.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub project_ids: Field<Vec<Id>>,
    /// 0 to 10,080, or null.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub alarm_minutes: Field<i64>,
}

/// The stored record: the API's fields and the secret's SHA-256 (hex).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    #[serde(flatten)]
    subscription: CalendarSubscription,
    hash: String,
}

/// Reads `{calendar_subscription: {...}}`: each field's type; the rules
/// that need the store are the write's.
pub(crate) fn parse(body: Option<&Value>) -> Result<CalendarSubscriptionInput> {
    crate::input::parse_record(body, "calendar_subscription", read)
}

fn read(f: &mut Fields<'_>) -> CalendarSubscriptionInput {
    CalendarSubscriptionInput {
        name: f.string("name"),
        include: read_include(f),
        task_list_ids: read_ids(f, "task_list_ids"),
        project_ids: read_ids(f, "project_ids"),
        alarm_minutes: f.integer("alarm_minutes"),
    }
}

const INCLUDE_SHAPE: &str = "must be an array of tasks, projects and key_dates";

fn read_include(f: &mut Fields<'_>) -> Field<Vec<Include>> {
    match f.raw("include") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::Array(items)) => {
            let mut words = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str().map(Include::parse) {
                    Some(Some(word)) => words.push(word),
                    Some(None) => {
                        let item = item.as_str().unwrap_or_default();
                        f.add(
                            "include",
                            format!(
                                "has \"{item}\", which is not one of tasks, projects, key_dates"
                            ),
                        );
                        return Field::Absent;
                    }
                    None => {
                        f.add("include", INCLUDE_SHAPE);
                        return Field::Absent;
                    }
                }
            }
            Field::Value(words)
        }
        Field::Value(_) => {
            f.add("include", INCLUDE_SHAPE);
            Field::Absent
        }
    }
}

fn read_ids(f: &mut Fields<'_>, name: &str) -> Field<Vec<Id>> {
    let shape = "must be an array of IDs, or null";
    match f.raw(name) {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::Array(items)) => {
            let mut ids = Vec::with_capacity(items.len());
            for item in items {
                match item.as_str().and_then(Id::parse) {
                    Some(id) => ids.push(id),
                    None => {
                        f.add(name, shape);
                        return Field::Absent;
                    }
                }
            }
            Field::Value(ids)
        }
        Field::Value(_) => {
            f.add(name, shape);
            Field::Absent
        }
    }
}

/// `input` applied to `base` (a new subscription's defaults on create):
/// every rule, every mistake under its field in one 422.
fn apply<T: Tables>(
    cx: &Cx<'_, T>,
    mut sub: CalendarSubscription,
    input: &CalendarSubscriptionInput,
) -> Result<CalendarSubscription> {
    let mut details = Details::new();
    match &input.name {
        Field::Absent => {}
        Field::Null => details.add("name", "can't be blank"),
        Field::Value(name) => sub.name = squished_required(&mut details, "name", name, MOST_NAME),
    }
    match &input.include {
        Field::Absent => {}
        Field::Null => details.add("include", INCLUDE_SHAPE),
        Field::Value(words) => {
            // Each once, in the vocabulary's order.
            let include: Vec<Include> = Include::ALL
                .iter()
                .copied()
                .filter(|w| words.contains(w))
                .collect();
            if include.is_empty() {
                details.add(
                    "include",
                    "must name at least one of tasks, projects, key_dates",
                );
            }
            sub.include = include;
        }
    }
    if let Some(ids) = input.task_list_ids.clone().sent() {
        sub.task_list_ids = checked_ids(&mut details, "task_list_ids", ids, |id| {
            Ok(crate::resources::task_lists::get(cx, id).is_ok())
        })?;
    }
    if let Some(ids) = input.project_ids.clone().sent() {
        sub.project_ids = checked_ids(&mut details, "project_ids", ids, |id| {
            crate::resources::projects::exists(cx, id)
        })?;
    }
    match input.alarm_minutes {
        Field::Absent => {}
        Field::Null => sub.alarm_minutes = None,
        Field::Value(n) => match u16::try_from(n) {
            Ok(n) if n <= MOST_ALARM_MINUTES => sub.alarm_minutes = Some(n),
            _ => details.add(
                "alarm_minutes",
                format!("must be a whole number from 0 to {MOST_ALARM_MINUTES}"),
            ),
        },
    }
    details.into_validation()?;
    Ok(sub)
}

/// `ids` each once, in the order sent, when each is a live record
/// (`live`); an unknown one is a mistake under `field`.
fn checked_ids(
    details: &mut Details,
    field: &str,
    ids: Option<Vec<Id>>,
    live: impl Fn(Id) -> Result<bool>,
) -> Result<Option<Vec<Id>>> {
    let Some(ids) = ids else {
        return Ok(None);
    };
    let mut kept: Vec<Id> = Vec::with_capacity(ids.len());
    for id in ids {
        if kept.contains(&id) {
            continue;
        }
        if !live(id)? {
            details.add(field, format!("names {id}, which does not exist"));
        }
        kept.push(id);
    }
    Ok(Some(kept))
}

/// A new secret, and the address it makes (below the server's root).
fn new_secret() -> (String, [u8; 32]) {
    let secret = URL_SAFE_NO_PAD.encode(random_bytes(32));
    let hash = sha256(secret.as_bytes());
    (secret, hash)
}

/// The address of `secret`, below the server's root; made absolute with
/// the request's base URL (`Answer::absolute`).
fn address(secret: &str) -> String {
    format!("/ics/{secret}.ics")
}

/// `url` made absolute with `base` (the server's address as the client
/// reached it, or `ORGANISER_PUBLIC_URL`); left as it is without one.
pub(crate) fn absolute(mut sub: CalendarSubscription, base: &str) -> CalendarSubscription {
    let base = base.trim_end_matches('/');
    if let Some(url) = &mut sub.url
        && url.starts_with('/')
        && !base.is_empty()
    {
        *url = format!("{base}{url}");
    }
    sub
}

fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Stored> {
    cx.get_json(SUBSCRIPTIONS, &id.to_bytes())?
        .ok_or(Error::NotFound)
}

/// The record as the API shows it: `last_read_at` as read in memory when
/// that is newer than the store's.
fn shown<T>(cx: &Cx<'_, T>, mut sub: CalendarSubscription) -> CalendarSubscription {
    if let Some(read) = reads::last_read(cx.org, sub.id) {
        sub.last_read_at = Some(sub.last_read_at.map_or(read, |t| t.max(read)));
    }
    sub.url = None;
    sub
}

/// `POST /calendar_subscriptions`.
pub(crate) fn create(
    cx: &mut WriteCx<'_>,
    input: &CalendarSubscriptionInput,
) -> Result<CalendarSubscription> {
    let now = cx.now();
    let base = CalendarSubscription {
        id: cx.new_id(),
        name: DEFAULT_NAME.to_owned(),
        include: Include::ALL.to_vec(),
        task_list_ids: None,
        project_ids: None,
        alarm_minutes: None,
        url: None,
        last_read_at: None,
        created_at: now,
        updated_at: now,
    };
    let sub = apply(cx, base, input)?;
    store_with_new_address(cx, sub)
}

/// Stores `sub` with a new secret, its hash indexed; `sub` with its
/// address, the one time it is shown.
fn store_with_new_address(
    cx: &mut WriteCx<'_>,
    sub: CalendarSubscription,
) -> Result<CalendarSubscription> {
    let (secret, hash) = new_secret();
    cx.insert(SUBSCRIPTIONS_BY_SECRET, &hash, &sub.id.to_bytes())?;
    cx.put_json(
        SUBSCRIPTIONS,
        &sub.id.to_bytes(),
        &Stored {
            subscription: sub.clone(),
            hash: to_hex(&hash),
        },
    )?;
    Ok(CalendarSubscription {
        url: Some(address(&secret)),
        ..sub
    })
}

/// `GET /calendar_subscriptions`: every subscription, oldest first.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<CalendarSubscription>> {
    let mut out = Vec::new();
    cx.scan(
        SUBSCRIPTIONS,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
        &mut |_, v| {
            let stored: Stored = serde_json::from_slice(v)?;
            out.push(shown(cx, stored.subscription));
            Ok(true)
        },
    )?;
    Ok(out)
}

/// `GET /calendar_subscriptions/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<CalendarSubscription> {
    Ok(shown(cx, load(cx, id)?.subscription))
}

/// `PATCH /calendar_subscriptions/{id}`: the fields sent; the address
/// stays.
pub(crate) fn change(
    cx: &mut WriteCx<'_>,
    id: Id,
    input: &CalendarSubscriptionInput,
) -> Result<CalendarSubscription> {
    let stored = load(cx, id)?;
    let mut sub = apply(cx, stored.subscription.clone(), input)?;
    if sub != stored.subscription {
        sub.updated_at = cx.now();
        cx.put_json(
            SUBSCRIPTIONS,
            &id.to_bytes(),
            &Stored {
                subscription: sub.clone(),
                hash: stored.hash,
            },
        )?;
    }
    Ok(shown(cx, sub))
}

/// The stored hash of a record, as bytes.
fn hash_of(stored: &Stored) -> Result<[u8; 32]> {
    crate::secrets::parse_key_bytes(&stored.hash)
        .ok_or_else(|| Error::Storage("a calendar subscription's hash is malformed".into()))
}

/// `DELETE /calendar_subscriptions/{id}`: permanent; the address stops
/// with the transaction.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let stored = load(cx, id)?;
    cx.remove(SUBSCRIPTIONS_BY_SECRET, &hash_of(&stored)?)?;
    cx.remove(SUBSCRIPTIONS, &id.to_bytes())?;
    cx.on_commit(move |inner| reads::forget(inner, id));
    Ok(())
}

/// `POST /calendar_subscriptions/{id}/rotation`: a new address; the old
/// one stops with the transaction.
pub(crate) fn rotate(cx: &mut WriteCx<'_>, id: Id) -> Result<CalendarSubscription> {
    let stored = load(cx, id)?;
    cx.remove(SUBSCRIPTIONS_BY_SECRET, &hash_of(&stored)?)?;
    let mut sub = stored.subscription;
    sub.updated_at = cx.now();
    let sub = store_with_new_address(cx, sub)?;
    // The last read remembered in memory, as a get shows it.
    let url = sub.url.clone();
    Ok(CalendarSubscription {
        url,
        ..shown(cx, sub)
    })
}

/// The subscription whose secret is `secret`; 404 for an unknown or
/// stopped one. Every secret costs the same: its hash, then one lookup
/// of the hash (the store compares hashes, never secrets), so a stopped
/// address is refused in the time an unknown one is.
pub(crate) fn by_secret<T: Tables>(cx: &Cx<'_, T>, secret: &str) -> Result<CalendarSubscription> {
    use subtle::ConstantTimeEq;
    let hash = sha256(secret.as_bytes());
    let id = cx
        .get(SUBSCRIPTIONS_BY_SECRET, &hash)?
        .and_then(|v| <[u8; 16]>::try_from(v.as_slice()).ok())
        .map(Id::from_bytes)
        .ok_or(Error::NotFound)?;
    let stored = load(cx, id)?;
    // The index and the record agree, or the address is not this one's.
    if !bool::from(hash.ct_eq(&hash_of(&stored)?)) {
        return Err(Error::NotFound);
    }
    Ok(stored.subscription)
}

/// Writes `last_read_at` of the subscriptions whose feeds were read
/// since it was last written (the memory's times); whether anything was
/// written.
pub(crate) fn write_reads(cx: &mut WriteCx<'_>, reads: &[(Id, Timestamp)]) -> Result<bool> {
    let mut wrote = false;
    for &(id, at) in reads {
        let Ok(mut stored) = load(cx, id) else {
            continue;
        };
        if stored.subscription.last_read_at.is_some_and(|t| t >= at) {
            continue;
        }
        stored.subscription.last_read_at = Some(at);
        cx.put_json(SUBSCRIPTIONS, &id.to_bytes(), &stored)?;
        wrote = true;
    }
    Ok(wrote)
}
