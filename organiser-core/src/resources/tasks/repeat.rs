//! How a task repeats (EXTENSIONS.md §1, "Recurring tasks", rule 1): the
//! `repeat` value, its RRULE read, checked and normalised, and the dates a
//! series gives, counted by the `rrule` crate from the series' first date.
//!
//! A series' dates are walked from a [`Cursor`]: the date the rule gave
//! the current occurrence and how many of the series' dates came before
//! it. Each occurrence the series makes starts its walk at its own date,
//! so closing an occurrence walks only the dates since the last one, and
//! `COUNT` still counts from the series' first date.

use std::panic::{AssertUnwindSafe, catch_unwind};

use chrono::TimeZone as _;
use jiff::civil::{Date, Weekday};
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use crate::input::words;
use crate::time::add_days;

words! {
    /// What a series counts its next date from (`due` by default).
    #[derive(Default)]
    pub enum RepeatFrom {
        /// A fixed schedule: the rule's dates.
        #[default]
        Due = "due",
        /// The day an occurrence closed, plus the rule's interval.
        Completion = "completion",
    }
}

/// How a task repeats: an RFC 5545 RRULE value and what it counts from.
///
/// A task's `repeat` as the API shows it is normalised (upper case, the
/// parts in a fixed order, `INTERVAL=1` and `WKST=MO` left out); one sent
/// in a change may be written any way RFC 5545 allows.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Repeat {
    /// The RRULE value, such as `FREQ=MONTHLY;BYMONTHDAY=-1`.
    pub rule: String,
    /// `due` (omitted) or `completion`.
    #[serde(default)]
    pub from: RepeatFrom,
}

impl Repeat {
    /// A fixed schedule by `rule`.
    pub fn rule(rule: impl Into<String>) -> Repeat {
        Repeat {
            rule: rule.into(),
            from: RepeatFrom::Due,
        }
    }

    /// Counted from each completion by `rule` (`FREQ`, `INTERVAL`,
    /// `COUNT` and `UNTIL` only).
    pub fn from_completion(rule: impl Into<String>) -> Repeat {
        Repeat {
            rule: rule.into(),
            from: RepeatFrom::Completion,
        }
    }

    /// This repeat with its rule read and normalised; the message says
    /// what is wrong with it. `UNTIL` given as a date-time is taken as its
    /// date in `zone`.
    pub(crate) fn normalised(&self, zone: &TimeZone) -> Result<(Repeat, Rule), String> {
        let rule = Rule::parse(&self.rule, self.from, zone)?;
        Ok((
            Repeat {
                rule: rule.to_string(),
                from: self.from,
            },
            rule,
        ))
    }

    /// The rule of a stored (normalised) repeat.
    pub(crate) fn stored_rule(&self) -> Option<Rule> {
        Rule::parse(&self.rule, self.from, &TimeZone::UTC).ok()
    }
}

/// Where a series' walk of dates starts: the series' first date, the
/// date the rule gave the current occurrence (`anchor`, the first date for
/// the first occurrence) and how many dates of the series came before
/// that one. Walking from the anchor gives the dates the series' own walk
/// gives from there on (an anchor is one of the rule's dates), without
/// walking the ones before it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Cursor {
    pub(crate) first: Date,
    pub(crate) anchor: Date,
    pub(crate) seen: u16,
}

impl Cursor {
    /// The cursor of a series that starts on `date`.
    pub(crate) fn start(date: Date) -> Cursor {
        Cursor {
            first: date,
            anchor: date,
            seen: 0,
        }
    }

    /// Where to walk from to see the dates after `after`: this cursor, or
    /// the series' start when `after` is before its anchor (an occurrence
    /// moved earlier than the date the rule gave it).
    fn for_dates_after(self, after: Date) -> Cursor {
        if after < self.anchor {
            Cursor::start(self.first)
        } else {
            self
        }
    }
}

/// A rule's frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Freq {
    Daily,
    Weekly,
    Monthly,
    Yearly,
}

impl Freq {
    fn as_str(self) -> &'static str {
        match self {
            Freq::Daily => "DAILY",
            Freq::Weekly => "WEEKLY",
            Freq::Monthly => "MONTHLY",
            Freq::Yearly => "YEARLY",
        }
    }
}

/// A task's RRULE, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) freq: Freq,
    pub(crate) interval: u16,
    pub(crate) by_month: Vec<i8>,
    pub(crate) by_month_day: Vec<i8>,
    /// (ordinal, weekday); ordinal 0 is every such weekday.
    pub(crate) by_day: Vec<(i8, Weekday)>,
    pub(crate) by_set_pos: Vec<i16>,
    pub(crate) count: Option<u16>,
    pub(crate) until: Option<Date>,
    pub(crate) wkst: Weekday,
}

/// The longest rule read (every part with every value is far shorter).
const MOST_RULE_BYTES: usize = 500;

/// The most dates one walk visits before it gives up (a daily rule
/// walked across 270 years).
const MOST_STEPS: usize = 100_000;

const WEEKDAYS: [(&str, Weekday); 7] = [
    ("MO", Weekday::Monday),
    ("TU", Weekday::Tuesday),
    ("WE", Weekday::Wednesday),
    ("TH", Weekday::Thursday),
    ("FR", Weekday::Friday),
    ("SA", Weekday::Saturday),
    ("SU", Weekday::Sunday),
];

pub(crate) fn weekday_code(day: Weekday) -> &'static str {
    WEEKDAYS
        .iter()
        .find(|(_, d)| *d == day)
        .map_or("MO", |(code, _)| code)
}

fn weekday(code: &str) -> Option<Weekday> {
    WEEKDAYS.iter().find(|(c, _)| *c == code).map(|(_, d)| *d)
}

/// A comma-separated list of integers each in `range` and not zero.
fn numbers<T: TryFrom<i64> + Copy>(
    value: &str,
    range: std::ops::RangeInclusive<i64>,
    what: &str,
) -> Result<Vec<T>, String> {
    value
        .split(',')
        .map(|v| {
            v.trim()
                .parse::<i64>()
                .ok()
                .filter(|n| *n != 0 && range.contains(&n.abs()))
                .and_then(|n| T::try_from(n).ok())
                .ok_or_else(|| what.to_owned())
        })
        .collect()
}

/// `UNTIL`: a date, or a date-time taken as its date in `zone` (UTC when
/// it ends in `Z`, else as written).
fn until_date(value: &str, zone: &TimeZone) -> Option<Date> {
    let v = value.trim();
    if let Some(d) = crate::time::parse_date(v) {
        return Some(d);
    }
    let date_part = v.get(..8)?;
    if !date_part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let date = Date::new(
        date_part[..4].parse().ok()?,
        date_part[4..6].parse().ok()?,
        date_part[6..8].parse().ok()?,
    )
    .ok()?;
    let rest = &v[8..];
    if rest.is_empty() {
        return Some(date);
    }
    let time = rest.strip_prefix('T')?;
    let (time, utc) = match time.strip_suffix('Z') {
        Some(t) => (t, true),
        None => (time, false),
    };
    if time.len() != 6 || !time.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let at = jiff::civil::DateTime::new(
        date.year(),
        date.month(),
        date.day(),
        time[..2].parse().ok()?,
        time[2..4].parse().ok()?,
        time[4..].parse::<i8>().ok()?.min(59),
        0,
    )
    .ok()?;
    if !utc {
        return Some(at.date());
    }
    let instant = at.to_zoned(TimeZone::UTC).ok()?.timestamp();
    Some(instant.to_zoned(zone.clone()).date())
}

impl Rule {
    /// Reads an RRULE value: the parts rule 1 allows, each once, checked.
    pub(crate) fn parse(text: &str, from: RepeatFrom, zone: &TimeZone) -> Result<Rule, String> {
        let text = text.trim();
        let text = match text.get(..6) {
            Some(head) if head.eq_ignore_ascii_case("RRULE:") => &text[6..],
            _ => text,
        };
        if text.is_empty() {
            return Err("must be an RRULE value, such as FREQ=WEEKLY;BYDAY=MO".into());
        }
        if text.len() > MOST_RULE_BYTES {
            return Err(format!("must be at most {MOST_RULE_BYTES} characters"));
        }
        let mut seen: Vec<String> = Vec::new();
        let mut freq = None;
        let mut rule = Rule {
            freq: Freq::Daily,
            interval: 1,
            by_month: Vec::new(),
            by_month_day: Vec::new(),
            by_day: Vec::new(),
            by_set_pos: Vec::new(),
            count: None,
            until: None,
            wkst: Weekday::Monday,
        };
        let mut by_day_raw: Option<String> = None;
        for part in text.split(';').filter(|p| !p.trim().is_empty()) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!("has a part that is not NAME=VALUE: {part}"));
            };
            let name = name.trim().to_ascii_uppercase();
            let value = value.trim().to_ascii_uppercase();
            if seen.contains(&name) {
                return Err(format!("has {name} twice"));
            }
            seen.push(name.clone());
            if from == RepeatFrom::Completion
                && !matches!(name.as_str(), "FREQ" | "INTERVAL" | "COUNT" | "UNTIL")
            {
                return Err(format!(
                    "can't use {name} when repeating from completion (only FREQ, INTERVAL, COUNT and UNTIL)"
                ));
            }
            match name.as_str() {
                "FREQ" => {
                    freq = Some(match value.as_str() {
                        "DAILY" => Freq::Daily,
                        "WEEKLY" => Freq::Weekly,
                        "MONTHLY" => Freq::Monthly,
                        "YEARLY" => Freq::Yearly,
                        _ => return Err("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY".into()),
                    })
                }
                "INTERVAL" => {
                    rule.interval = value
                        .parse::<u16>()
                        .ok()
                        .filter(|n| (1..=999).contains(n))
                        .ok_or("INTERVAL must be a whole number from 1 to 999")?
                }
                "BYMONTH" => {
                    rule.by_month = numbers(&value, 1..=12, "BYMONTH must be months from 1 to 12")?;
                    if rule.by_month.iter().any(|m| *m < 0) {
                        return Err("BYMONTH must be months from 1 to 12".into());
                    }
                }
                "BYMONTHDAY" => {
                    rule.by_month_day = numbers(
                        &value,
                        1..=31,
                        "BYMONTHDAY must be days from 1 to 31 or -31 to -1",
                    )?
                }
                "BYDAY" => by_day_raw = Some(value),
                "BYSETPOS" => {
                    rule.by_set_pos = numbers(
                        &value,
                        1..=366,
                        "BYSETPOS must be positions from 1 to 366 or -366 to -1",
                    )?
                }
                "COUNT" => {
                    rule.count = Some(
                        value
                            .parse::<u16>()
                            .ok()
                            .filter(|n| (1..=1000).contains(n))
                            .ok_or("COUNT must be a whole number from 1 to 1000")?,
                    )
                }
                "UNTIL" => {
                    rule.until = Some(
                        until_date(&value, zone).ok_or("UNTIL must be a date, such as 20261231")?,
                    )
                }
                "WKST" => rule.wkst = weekday(&value).ok_or("WKST must be a weekday, MO to SU")?,
                _ => return Err(format!("can't use {name} in a task's rule")),
            }
        }
        rule.freq = freq.ok_or("needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY)")?;
        if let Some(raw) = by_day_raw {
            rule.by_day = rule.read_by_day(&raw)?;
        }
        if rule.count.is_some() && rule.until.is_some() {
            return Err("can't have both COUNT and UNTIL".into());
        }
        if rule.freq == Freq::Weekly && !rule.by_month_day.is_empty() {
            return Err("can't use BYMONTHDAY with FREQ=WEEKLY".into());
        }
        if !rule.by_set_pos.is_empty()
            && rule.by_month.is_empty()
            && rule.by_month_day.is_empty()
            && rule.by_day.is_empty()
        {
            return Err("BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH beside it".into());
        }
        Ok(rule)
    }

    fn read_by_day(&self, raw: &str) -> Result<Vec<(i8, Weekday)>, String> {
        // An ordinal counts within the month, or within the year when a
        // yearly rule names no months.
        let most: i64 = match self.freq {
            Freq::Monthly => 5,
            Freq::Yearly if self.by_month.is_empty() => 53,
            Freq::Yearly => 5,
            Freq::Daily | Freq::Weekly => 0,
        };
        raw.split(',')
            .map(|item| {
                let item = item.trim();
                let bad = || {
                    if most == 0 {
                        "BYDAY must be weekdays (MO to SU); ordinals such as 1MO or -1FR only go with FREQ=MONTHLY or YEARLY".to_owned()
                    } else {
                        format!(
                            "BYDAY must be weekdays (MO to SU), each with an optional ordinal from 1 to {most} or -{most} to -1, such as 1MO or -1FR"
                        )
                    }
                };
                let split = item.len().checked_sub(2).ok_or_else(bad)?;
                let (ordinal, code) = (item.get(..split).ok_or_else(bad)?, &item[split..]);
                let day = weekday(code).ok_or_else(bad)?;
                if ordinal.is_empty() {
                    return Ok((0, day));
                }
                let n: i64 = ordinal.parse().map_err(|_| bad())?;
                if n == 0 || n.abs() > most {
                    return Err(bad());
                }
                Ok((n as i8, day))
            })
            .collect()
    }

    /// The value the `rrule` crate is handed: the rule without `COUNT`
    /// (counted by the walk), `UNTIL` as the last second of its day.
    fn crate_text(&self) -> String {
        let mut out = self.to_string_with(false);
        if let Some(until) = self.until {
            out.push_str(&format!(
                ";UNTIL={}T235959Z",
                crate::time::basic_date(until)
            ));
        }
        out
    }

    /// The rule as a calendar shows what is left of a series whose
    /// current occurrence comes after `seen` of its dates (EXTENSIONS.md
    /// §2): its normalised value with `COUNT` reduced to the dates that
    /// remain, the current one first; `None` when only that one remains.
    pub(crate) fn remaining(&self, seen: u16) -> Option<String> {
        let mut rest = self.clone();
        if let Some(count) = self.count {
            let left = count.saturating_sub(seen);
            if left <= 1 {
                return None;
            }
            rest.count = Some(left);
        }
        Some(rest.to_string_with(true))
    }

    fn to_string_with(&self, count_and_until: bool) -> String {
        let join = |v: Vec<String>| v.join(",");
        let mut parts = vec![format!("FREQ={}", self.freq.as_str())];
        if self.interval != 1 {
            parts.push(format!("INTERVAL={}", self.interval));
        }
        if !self.by_month.is_empty() {
            parts.push(format!(
                "BYMONTH={}",
                join(self.by_month.iter().map(i8::to_string).collect())
            ));
        }
        if !self.by_month_day.is_empty() {
            parts.push(format!(
                "BYMONTHDAY={}",
                join(self.by_month_day.iter().map(i8::to_string).collect())
            ));
        }
        if !self.by_day.is_empty() {
            parts.push(format!(
                "BYDAY={}",
                join(
                    self.by_day
                        .iter()
                        .map(|(n, d)| match n {
                            0 => weekday_code(*d).to_owned(),
                            n => format!("{n}{}", weekday_code(*d)),
                        })
                        .collect()
                )
            ));
        }
        if !self.by_set_pos.is_empty() {
            parts.push(format!(
                "BYSETPOS={}",
                join(self.by_set_pos.iter().map(i16::to_string).collect())
            ));
        }
        if count_and_until {
            if let Some(count) = self.count {
                parts.push(format!("COUNT={count}"));
            }
            if let Some(until) = self.until {
                parts.push(format!("UNTIL={}", crate::time::basic_date(until)));
            }
        }
        if self.wkst != Weekday::Monday {
            parts.push(format!("WKST={}", weekday_code(self.wkst)));
        }
        parts.join(";")
    }

    /// The rule's interval in its own unit, as a span.
    fn step(&self, times: i64) -> jiff::Span {
        let n = i64::from(self.interval) * times;
        let span = jiff::Span::new();
        match self.freq {
            Freq::Daily => span.try_days(n),
            Freq::Weekly => span.try_weeks(n),
            Freq::Monthly => span.try_months(n),
            Freq::Yearly => span.try_years(n),
        }
        .unwrap_or(span)
    }

    /// Walks the series' dates from `cursor`: its anchor first (as DTSTART
    /// counts first whether or not the rule gives it), then the rule's
    /// dates after it, until `COUNT` or `UNTIL` ends the series. `visit`
    /// gets each date and the number of the series' dates before it, and
    /// says whether to go on. Stops after [`MOST_STEPS`] dates, or when the
    /// crate refuses the rule.
    pub(crate) fn walk(&self, cursor: Cursor, mut visit: impl FnMut(Date, u16) -> bool) {
        let left = |seen: u16| self.count.is_none_or(|c| seen < c);
        let mut seen = cursor.seen;
        if !left(seen) {
            return;
        }
        if !visit(cursor.anchor, seen) {
            return;
        }
        seen = seen.saturating_add(1);
        let Some(set) = self.rule_set(cursor.anchor) else {
            return;
        };
        let _ = catch_unwind(AssertUnwindSafe(|| {
            for (step, date) in set.limit().into_iter().enumerate() {
                if step >= MOST_STEPS || !left(seen) {
                    return;
                }
                let date = date.date_naive();
                let Some(date) = to_jiff(date) else { return };
                if date <= cursor.anchor {
                    continue;
                }
                if !visit(date, seen) {
                    return;
                }
                seen = seen.saturating_add(1);
            }
        }));
    }

    fn rule_set(&self, anchor: Date) -> Option<rrule::RRuleSet> {
        catch_unwind(AssertUnwindSafe(|| {
            let start = rrule::Tz::UTC
                .with_ymd_and_hms(
                    i32::from(anchor.year()),
                    u32::try_from(anchor.month()).ok()?,
                    u32::try_from(anchor.day()).ok()?,
                    0,
                    0,
                    0,
                )
                .single()?;
            let rule: rrule::RRule<rrule::Unvalidated> = self.crate_text().parse().ok()?;
            rule.build(start).ok()
        }))
        .ok()
        .flatten()
    }

    /// The date after `after`, today or later, that a series at `cursor`
    /// goes on to, with its cursor; `None` when the series has ended.
    /// `from: due` takes the rule's first such date; `from: completion`
    /// the day it closed (`today`) plus the interval.
    pub(crate) fn next(
        &self,
        from: RepeatFrom,
        cursor: Cursor,
        after: Date,
        today: Date,
    ) -> Option<(Date, Cursor)> {
        match from {
            RepeatFrom::Due => {
                let mut found = None;
                self.walk(cursor.for_dates_after(after), |date, seen| {
                    if date > after && date >= today {
                        let first = cursor.first;
                        found = Some((
                            date,
                            Cursor {
                                first,
                                anchor: date,
                                seen,
                            },
                        ));
                        return false;
                    }
                    true
                });
                found
            }
            RepeatFrom::Completion => {
                let seen = cursor.seen.saturating_add(1);
                if self.count.is_some_and(|c| seen >= c) {
                    return None;
                }
                let date = today.checked_add(self.step(1)).ok()?;
                if self.until.is_some_and(|u| date > u) {
                    return None;
                }
                Some((
                    date,
                    Cursor {
                        first: cursor.first,
                        anchor: date,
                        seen,
                    },
                ))
            }
        }
    }

    /// Whether a series starting on `date` has a date after it (rule 1: a
    /// rule with none is refused).
    pub(crate) fn has_date_after(&self, from: RepeatFrom, date: Date) -> bool {
        self.next(from, Cursor::start(date), date, date).is_some()
    }

    /// A cursor to walk from for the dates on or after `lo`: `cursor`'s
    /// anchor moved forward by whole periods, a period short of `lo`, when
    /// that leaves the rule's dates from there on as they were (a daily or
    /// weekly rule without `COUNT`: its periods are counted from the
    /// anchor and its other parts pick weekdays), so an old series is not
    /// walked from its first occurrence. The moved anchor need not be one
    /// of the rule's dates: it comes before `lo`, so no caller shows it.
    fn skip_ahead(&self, cursor: Cursor, lo: Date) -> Cursor {
        let period = match self.freq {
            Freq::Daily => 1,
            Freq::Weekly => 7,
            Freq::Monthly | Freq::Yearly => return cursor,
        } * i64::from(self.interval);
        if self.count.is_some() || !self.by_set_pos.is_empty() {
            return cursor;
        }
        let periods = crate::time::days_between(cursor.anchor, lo) / period - 1;
        if periods <= 0 {
            return cursor;
        }
        Cursor {
            anchor: add_days(cursor.anchor, periods * period),
            ..cursor
        }
    }

    /// The dates of a `from: due` series at `cursor` after `after` and in
    /// `lo..=hi`, at most `most`.
    pub(crate) fn dates_in(
        &self,
        cursor: Cursor,
        after: Date,
        lo: Date,
        hi: Date,
        most: usize,
    ) -> Vec<Date> {
        let mut out = Vec::new();
        let from = self.skip_ahead(cursor.for_dates_after(after), lo);
        self.walk(from, |date, _| {
            if date > hi || out.len() >= most {
                return false;
            }
            if date > after && date >= lo {
                out.push(date);
            }
            true
        });
        out
    }
}

impl std::fmt::Display for Rule {
    /// The normalised value (rule 1).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_string_with(true))
    }
}

fn to_jiff(d: chrono::NaiveDate) -> Option<Date> {
    use chrono::Datelike as _;
    Date::new(
        i16::try_from(d.year()).ok()?,
        i8::try_from(d.month()).ok()?,
        i8::try_from(d.day()).ok()?,
    )
    .ok()
}

/// `date` moved by as many days as `from` is to `to`.
pub(crate) fn keep_distance(date: Date, from: Date, to: Date) -> Date {
    add_days(date, crate::time::days_between(from, to))
}
