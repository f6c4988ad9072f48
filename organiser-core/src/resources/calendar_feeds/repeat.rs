//! Repeat rules (RFC 5545 RRULE, EXDATE, RDATE, RECURRENCE-ID) expanded
//! with the `rrule` crate. Expansion runs on the event's wall clock (the
//! crate is handed wall times as if they were UTC), and each occurrence's
//! wall time then becomes an instant in the event's own zone: a 09:00
//! meeting stays at 09:00 across a daylight-saving change, as the RFC
//! asks.

use std::panic::{AssertUnwindSafe, catch_unwind};

use chrono::TimeZone as _;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use super::zones::{self, ZoneRef};
use crate::store::key::date_number;

/// The most occurrences one expansion yields.
const MOST_PER_EXPANSION: u16 = 2_000;

/// One occurrence as stored: the event row it shows, when it starts and
/// ends, and the start it had in the rule (for its key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Occ {
    /// The row of the event's details.
    pub(crate) event: u32,
    /// All day: `start` and `end` are day numbers (the last day
    /// inclusive); else Unix seconds, `end` at or after `start`.
    pub(crate) all_day: bool,
    pub(crate) start: i64,
    pub(crate) end: i64,
    /// The start the rule gave it (day number or Unix seconds), which an
    /// override keeps when it moves the occurrence.
    pub(crate) original: i64,
}

impl Occ {
    /// The UTC day numbers it touches, first and last.
    pub(crate) fn days(&self) -> (i64, i64) {
        if self.all_day {
            (self.start, self.end.max(self.start))
        } else {
            let last = if self.end > self.start {
                self.end - 1
            } else {
                self.start
            };
            (self.start.div_euclid(86_400), last.div_euclid(86_400))
        }
    }
}

/// What makes an event repeat, in its own zone's wall time. Wall times
/// are stored as seconds from 1970-01-01T00:00 on that clock ([`wall`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Repeat {
    pub(crate) zone: ZoneRef,
    /// DTSTART's wall time (an all-day event's date at midnight).
    pub(crate) start: i64,
    pub(crate) all_day: bool,
    /// Seconds (timed) or extra days after the first (all day).
    pub(crate) length: i64,
    /// The RRULE value without UNTIL.
    pub(crate) rule: String,
    /// UNTIL as wall time in the event's zone.
    pub(crate) until: Option<i64>,
    pub(crate) exdates: Vec<i64>,
    pub(crate) rdates: Vec<i64>,
    /// Occurrences an override replaces (by their wall-time start): the
    /// replacement, or none when it is cancelled.
    pub(crate) overrides: Vec<(i64, Option<Occ>)>,
}

/// A wall time as stored: seconds from 1970-01-01T00:00 on that clock.
pub(crate) fn wall(dt: DateTime) -> i64 {
    zones::instant(&TimeZone::UTC, dt).as_second()
}

/// The wall time of stored seconds.
pub(crate) fn from_wall(seconds: i64) -> DateTime {
    jiff::Timestamp::from_second(seconds)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_zoned(TimeZone::UTC)
        .datetime()
}

/// A day number's date.
pub(crate) fn day_date(day: i64) -> Date {
    crate::store::key::date_from_number(day.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// A date's day number.
pub(crate) fn day_of(date: Date) -> i64 {
    date_number(date) as i64
}

fn to_chrono(wall: i64) -> Option<chrono::DateTime<rrule::Tz>> {
    rrule::Tz::UTC.timestamp_opt(wall, 0).single()
}

/// The rule set of `r` from its start, or why the crate refuses it.
fn rule_set(r: &Repeat) -> Option<rrule::RRuleSet> {
    let start = to_chrono(r.start)?;
    let mut rule: rrule::RRule<rrule::Unvalidated> = r.rule.parse().ok()?;
    if let Some(until) = r.until {
        rule = rule.until(to_chrono(until)?);
    }
    rule.build(start).ok()
}

/// Whether the `rrule` crate accepts the rule of `r`.
pub(crate) fn valid(r: &Repeat) -> bool {
    catch_unwind(AssertUnwindSafe(|| rule_set(r).is_some())).unwrap_or(false)
}

/// The occurrences of event row `event` repeating as `r` that may touch
/// the days `lo..=hi` (a margin either side; callers filter), every
/// override's replacement among them.
pub(crate) fn expand(r: &Repeat, event: u32, zone: &TimeZone, lo: i64, hi: i64) -> Vec<Occ> {
    let span = if r.all_day {
        r.length
    } else {
        r.length / 86_400 + 1
    };
    let after = (lo - span - 2).saturating_mul(86_400);
    let before = (hi + 2).saturating_mul(86_400);
    let mut starts: Vec<i64> = catch_unwind(AssertUnwindSafe(|| {
        let Some(set) = rule_set(r) else {
            return Vec::new();
        };
        let (Some(a), Some(b)) = (to_chrono(after), to_chrono(before)) else {
            return Vec::new();
        };
        set.after(a)
            .before(b)
            .all(MOST_PER_EXPANSION)
            .dates
            .iter()
            .map(|d| d.timestamp())
            .collect()
    }))
    .unwrap_or_default();
    // DTSTART is the first occurrence whether or not the rule gives it.
    if r.start >= after && r.start <= before && !starts.contains(&r.start) {
        starts.push(r.start);
    }
    starts.extend(
        r.rdates
            .iter()
            .filter(|d| **d >= after && **d <= before && !starts.contains(d))
            .copied()
            .collect::<Vec<_>>(),
    );
    starts.retain(|s| !r.exdates.contains(s));
    starts.sort();
    let mut out = Vec::with_capacity(starts.len() + r.overrides.len());
    for local in starts {
        if r.overrides.iter().any(|(o, _)| *o == local) {
            continue;
        }
        out.push(occurrence(r, event, zone, local));
    }
    out.extend(r.overrides.iter().filter_map(|(_, o)| *o));
    out
}

/// The occurrence of `r` starting at wall time `local`.
pub(crate) fn occurrence(r: &Repeat, event: u32, zone: &TimeZone, local: i64) -> Occ {
    let local = from_wall(local);
    if r.all_day {
        let day = day_of(local.date());
        Occ {
            event,
            all_day: true,
            start: day,
            end: day + r.length.max(0),
            original: day,
        }
    } else {
        let start = zones::instant(zone, local).as_second();
        Occ {
            event,
            all_day: false,
            start,
            end: start.saturating_add(r.length.max(0)),
            original: start,
        }
    }
}
