//! Repeat rules (RFC 5545 RRULE, EXDATE, RDATE, RECURRENCE-ID) expanded
//! with the `rrule` crate; an event with RDATEs and no RRULE repeats on
//! DTSTART and its RDATEs. Expansion runs on the event's wall clock (the
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
const MOST_PER_EXPANSION: u16 = 20_000;

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

/// The rule set of `r` from its start; `None` when it has no rule or the
/// crate refuses it.
fn rule_set(r: &Repeat, start: i64) -> Option<rrule::RRuleSet> {
    if r.rule.trim().is_empty() {
        return None;
    }
    let start = to_chrono(start)?;
    let mut rule: rrule::RRule<rrule::Unvalidated> = r.rule.parse().ok()?;
    if let Some(until) = r.until {
        rule = rule.until(to_chrono(until)?);
    }
    rule.build(start).ok()
}

/// Whether the `rrule` crate accepts the rule of `r` (an event that only
/// RDATEs repeat has none, and repeats as they say).
pub(crate) fn valid(r: &Repeat) -> bool {
    if r.rule.trim().is_empty() {
        return !r.rdates.is_empty();
    }
    catch_unwind(AssertUnwindSafe(|| rule_set(r, r.start).is_some())).unwrap_or(false)
}

/// The wall-time starts the rule of `r` gives from DTSTART (DTSTART
/// itself only when the rule gives it), up to `last` when given, at most
/// `most` of them; none when the crate refuses the rule.
pub(crate) fn wall_starts(r: &Repeat, last: Option<i64>, most: u16) -> Vec<i64> {
    catch_unwind(AssertUnwindSafe(|| {
        let Some(set) = rule_set(r, r.start) else {
            return Vec::new();
        };
        let set = match last.and_then(to_chrono) {
            Some(last) => set.before(last),
            None => set,
        };
        set.all(most).dates.iter().map(|d| d.timestamp()).collect()
    }))
    .unwrap_or_default()
}

/// The start the rule can be expanded from for occurrences at or after
/// wall time `after`: DTSTART moved forward by whole periods when that
/// leaves the rule's occurrences from there on unchanged (a daily or
/// weekly rule without COUNT: its days and weeks are counted from DTSTART
/// in whole periods, and its BY parts filter absolute dates), so a long
/// series is not iterated from its first occurrence. Else DTSTART.
fn expansion_start(r: &Repeat, after: i64) -> i64 {
    let mut freq = None;
    let mut interval: i64 = 1;
    for part in r.rule.split(';') {
        let Some((k, v)) = part.split_once('=') else {
            continue;
        };
        match k.trim().to_ascii_uppercase().as_str() {
            "FREQ" => freq = Some(v.trim().to_ascii_uppercase()),
            "INTERVAL" => match v.trim().parse::<i64>() {
                Ok(n) if n > 0 => interval = n,
                _ => return r.start,
            },
            "COUNT" => return r.start,
            _ => {}
        }
    }
    let period = match freq.as_deref() {
        Some("DAILY") => 86_400_i64,
        Some("WEEKLY") => 7 * 86_400,
        _ => return r.start,
    }
    .saturating_mul(interval);
    // One period early, so nothing at the edge is lost.
    let periods = (after - r.start).div_euclid(period) - 1;
    if periods <= 0 {
        return r.start;
    }
    r.start.saturating_add(periods.saturating_mul(period))
}

/// The occurrences of event row `event` repeating as `r` that may touch
/// the days `lo..=hi` (a margin either side; callers filter), every
/// override's replacement among them.
pub(crate) fn expand(r: &Repeat, event: u32, zone: &TimeZone, lo: i64, hi: i64) -> Vec<Occ> {
    expand_from(r, event, zone, lo, hi, true)
}

/// [`expand`], its rule iterated from DTSTART itself unless `skip_ahead`.
fn expand_from(
    r: &Repeat,
    event: u32,
    zone: &TimeZone,
    lo: i64,
    hi: i64,
    skip_ahead: bool,
) -> Vec<Occ> {
    let span = if r.all_day {
        r.length
    } else {
        r.length / 86_400 + 1
    };
    let after = (lo - span - 2).saturating_mul(86_400);
    let before = (hi + 2).saturating_mul(86_400);
    let mut starts: Vec<i64> = catch_unwind(AssertUnwindSafe(|| {
        let start = if skip_ahead {
            expansion_start(r, after)
        } else {
            r.start
        };
        let Some(set) = rule_set(r, start) else {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Skipping ahead by whole periods gives the same occurrences as
    /// iterating from DTSTART, for every rule and range tried.
    #[test]
    fn skipping_ahead_changes_no_occurrence() {
        let rules = [
            "FREQ=DAILY",
            "FREQ=DAILY;INTERVAL=3",
            "FREQ=DAILY;BYDAY=MO,WE,FR",
            "FREQ=DAILY;BYMONTH=2,3;BYHOUR=9,17",
            "FREQ=WEEKLY",
            "FREQ=WEEKLY;BYDAY=TU,TH",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU",
            "FREQ=WEEKLY;INTERVAL=3;WKST=SU;BYDAY=SA,SU",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE",
            "FREQ=MONTHLY;BYDAY=2TU",
            "FREQ=DAILY;COUNT=400",
        ];
        let zone = TimeZone::get("Europe/London").unwrap();
        // Starts on different weekdays and times, years before the ranges.
        let starts = [
            jiff::civil::date(2019, 1, 1).at(9, 30, 0, 0),
            jiff::civil::date(2020, 2, 29).at(0, 0, 0, 0),
            jiff::civil::date(2021, 6, 13).at(23, 45, 0, 0),
            jiff::civil::date(2026, 3, 4).at(12, 0, 0, 0),
        ];
        let ranges = [
            (jiff::civil::date(2026, 3, 1), 41),
            (jiff::civil::date(2027, 12, 20), 20),
            (jiff::civil::date(2019, 1, 1), 10),
        ];
        let mut compared = 0;
        for rule in rules {
            for start in starts {
                for until in [None, Some(jiff::civil::date(2027, 1, 5).at(9, 30, 0, 0))] {
                    let r = Repeat {
                        zone: ZoneRef::Iana("Europe/London".into()),
                        start: wall(start),
                        all_day: false,
                        length: 3600,
                        rule: rule.to_owned(),
                        until: until.map(wall),
                        exdates: Vec::new(),
                        rdates: Vec::new(),
                        overrides: Vec::new(),
                    };
                    for (from, days) in ranges {
                        let lo = day_of(from);
                        let hi = lo + days;
                        let fast = expand_from(&r, 0, &zone, lo, hi, true);
                        let slow = expand_from(&r, 0, &zone, lo, hi, false);
                        assert_eq!(
                            fast, slow,
                            "{rule} from {start} until {until:?}, {from} +{days}"
                        );
                        compared += slow.len();
                    }
                }
            }
        }
        assert!(compared > 1_500, "only {compared} occurrences compared");
    }
}
