//! `GET /upcoming_key_dates` (DESIGN.md): the key dates of live people
//! that fall from today through `days` days from today in the owner's
//! zone, soonest first, shaped as the calendar's `key_dates`. 29 February
//! falls on 1 March in a year without one.

use std::collections::{HashMap, HashSet};
use std::ops::Bound;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::key_dates::{next_occurrence, years_on};
use super::tables::KEY_DATES_BY_DAY;
use super::{Avatar, KeyDate, Person, load_live};
use crate::engine::Cx;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Query;
use crate::store::key::{Key, Reader};
use crate::store::{Dir, Tables};
use crate::text::fold_case;
use crate::time::add_days;

/// Days ahead when `days` is not sent.
const DEFAULT_DAYS: u64 = 30;
/// The most days ahead (a year and a day: every date once).
const MOST_DAYS: u64 = 366;
/// Items when `limit` is not sent, and the most.
const DEFAULT_LIMIT: u64 = 50;
const MOST_LIMIT: u64 = 100;

/// One key date on the day it next falls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpcomingKeyDate {
    /// The day it falls on.
    pub date: Date,
    /// How many years it has on that day, when its year is known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub years: Option<i16>,
    /// The key date.
    pub key_date: KeyDate,
    /// Whose it is.
    pub person: PersonBrief,
}

/// A person as a key date names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonBrief {
    /// ID.
    pub id: Id,
    /// Name.
    pub name: String,
    /// Photo.
    pub avatar: Option<Avatar>,
    /// Relationships to the owner.
    pub relationships: Vec<String>,
}

/// `{data: [UpcomingKeyDate], meta: {limit, has_more}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpcomingKeyDates {
    /// The key dates, soonest first.
    pub data: Vec<UpcomingKeyDate>,
    /// The limit and whether more fall in the window.
    pub meta: UpcomingMeta,
}

/// The meta of [`UpcomingKeyDates`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpcomingMeta {
    /// The most items a page holds.
    pub limit: u64,
    /// Whether more key dates fall in the window.
    pub has_more: bool,
}

/// `GET /upcoming_key_dates` parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpcomingQuery {
    /// Days ahead (0 to 366; default 30).
    pub days: u64,
    /// Most items (1 to 100; default 50).
    pub limit: u64,
    /// Only this person's key dates (ours: the spec names no filter).
    pub person_id: Option<Id>,
}

impl Default for UpcomingQuery {
    fn default() -> Self {
        UpcomingQuery {
            days: DEFAULT_DAYS,
            limit: DEFAULT_LIMIT,
            person_id: None,
        }
    }
}

impl UpcomingQuery {
    /// The query's parameters, as [`UpcomingQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("days", self.days.to_string()),
            ("limit", self.limit.to_string()),
        ];
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<UpcomingQuery> {
        let days = query.whole("days", 0)?.unwrap_or(DEFAULT_DAYS);
        if days > MOST_DAYS {
            return Err(Error::bad_param(
                "days",
                format!("must be a whole number from 0 to {MOST_DAYS}"),
            ));
        }
        let limit = query
            .whole("limit", 1)?
            .unwrap_or(DEFAULT_LIMIT)
            .min(MOST_LIMIT);
        Ok(UpcomingQuery {
            days,
            limit,
            person_id: query.id("person_id")?,
        })
    }
}

/// The index key of a key date.
pub(crate) fn day_key(date: &KeyDate, person: Id) -> Key {
    Key::new()
        .tag(date.month as u8)
        .tag(date.day as u8)
        .id(person)
        .id(date.id)
}

/// The live people's key dates on `day` `month` (no 29 February moved):
/// (person, key date), in key order.
pub(crate) fn key_dates_on<T: Tables>(cx: &Cx<'_, T>, month: i8, day: i8) -> Result<Vec<(Id, Id)>> {
    let prefix = Key::new().tag(month as u8).tag(day as u8).into_vec();
    key_dates_under(cx, &prefix)
}

/// Every live person's key dates, as (person, key date), by month and
/// day (the calendar subscriptions' feed).
pub(crate) fn all_key_dates<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<(Id, Id)>> {
    key_dates_under(cx, &[])
}

/// The (person, key date) of the day index's keys under `prefix`.
fn key_dates_under<T: Tables>(cx: &Cx<'_, T>, prefix: &[u8]) -> Result<Vec<(Id, Id)>> {
    let mut found = Vec::new();
    cx.scan_prefix(KEY_DATES_BY_DAY, prefix, Dir::Asc, &mut |k, _| {
        let mut r = Reader::new(k);
        let _ = (r.tag(), r.tag());
        found.push((r.id(), r.id()));
        Ok(true)
    })?;
    Ok(found)
}

/// `GET /upcoming_key_dates`.
pub(crate) fn upcoming<T: Tables>(cx: &Cx<'_, T>, q: UpcomingQuery) -> Result<UpcomingKeyDates> {
    let today = cx.today();
    let last = add_days(today, q.days as i64);
    let at = |d: Date| {
        Key::new()
            .tag(d.month() as u8)
            .tag(d.day() as u8)
            .into_vec()
    };
    let after = |d: Date| {
        Key::new()
            .tag(d.month() as u8)
            .tag(d.day() as u8 + 1)
            .into_vec()
    };
    // The (month, day) keys of the window, in one range or two across
    // the year's end; 29 February is read too, for a year without one.
    let mut ranges = Vec::new();
    if q.days >= 365 {
        ranges.push((Vec::new(), None));
    } else if (last.month(), last.day()) >= (today.month(), today.day()) {
        ranges.push((at(today), Some(after(last))));
    } else {
        ranges.push((at(today), None));
        ranges.push((Vec::new(), Some(after(last))));
    }
    ranges.push((
        Key::new().tag(2).tag(29).into_vec(),
        Some(Key::new().tag(2).tag(30).into_vec()),
    ));
    // The keys in the order read, once each (29 February may be read
    // twice); sets and maps keep a year's window linear. One person's are
    // read from the person.
    let mut found: Vec<(Id, Id)> = Vec::new();
    let mut seen: HashSet<(Id, Id)> = HashSet::new();
    if let Some(person) = q.person_id {
        let person = load_live(cx, person)?;
        found.extend(person.key_dates.iter().map(|d| (person.id, d.id)));
        ranges.clear();
    }
    for (lo, hi) in &ranges {
        let hi = match hi {
            Some(hi) => Bound::Excluded(hi.as_slice()),
            None => Bound::Unbounded,
        };
        cx.scan(
            KEY_DATES_BY_DAY,
            Bound::Included(lo.as_slice()),
            hi,
            Dir::Asc,
            &mut |k, _| {
                let mut r = Reader::new(k);
                let _month = r.tag();
                let _day = r.tag();
                let person = r.id();
                let date = r.id();
                if seen.insert((person, date)) {
                    found.push((person, date));
                }
                Ok(true)
            },
        )?;
    }
    let mut items = Vec::new();
    let mut people: HashMap<Id, Person> = HashMap::new();
    for (person_id, date_id) in found {
        let person = match people.get(&person_id) {
            Some(p) => p,
            None => {
                let p = load_live(cx, person_id)?;
                people.entry(person_id).or_insert(p)
            }
        };
        let Some(key_date) = person.key_dates.iter().find(|d| d.id == date_id) else {
            continue;
        };
        let date = next_occurrence(key_date.day, key_date.month, today);
        if date > last {
            continue;
        }
        items.push(UpcomingKeyDate {
            date,
            years: years_on(key_date.year, date),
            key_date: key_date.clone(),
            person: PersonBrief {
                id: person.id,
                name: person.name.clone(),
                avatar: person.avatar.clone(),
                relationships: person.relationships.clone(),
            },
        });
    }
    items.sort_by_cached_key(|item| {
        (
            item.date,
            fold_case(&item.person.name),
            item.person.id,
            item.key_date.id,
        )
    });
    let has_more = items.len() as u64 > q.limit;
    items.truncate(q.limit as usize);
    Ok(UpcomingKeyDates {
        data: items,
        meta: UpcomingMeta {
            limit: q.limit,
            has_more,
        },
    })
}
