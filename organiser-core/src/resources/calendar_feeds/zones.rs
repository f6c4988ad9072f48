//! The zone an event's times are in (document 3, "CalendarEvent": repeat
//! rules expand in the event's own zone): a `TZID` names an IANA zone, or
//! a zone the feed defines itself in a VTIMEZONE (read as the POSIX rule of
//! its latest STANDARD and DAYLIGHT parts); a time with neither is UTC
//! (`Z`) or floating, which is the owner's zone.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use super::icalendar::{FeedZone, Props};

/// A zone by what it is called in the store: an IANA name or a POSIX rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum ZoneRef {
    /// UTC.
    Utc,
    /// An IANA zone (`Europe/London`).
    Iana(String),
    /// A POSIX TZ rule read from the feed's own VTIMEZONE.
    Posix(String),
}

impl ZoneRef {
    /// The zone itself; UTC when it can no longer be read.
    pub(crate) fn zone(&self) -> TimeZone {
        match self {
            ZoneRef::Utc => TimeZone::UTC,
            ZoneRef::Iana(name) => TimeZone::get(name).unwrap_or(TimeZone::UTC),
            ZoneRef::Posix(rule) => TimeZone::posix(rule).unwrap_or(TimeZone::UTC),
        }
    }
}

/// The zones a feed's `TZID`s name, each found once.
pub(crate) struct Zones {
    defined: HashMap<String, String>,
    found: HashMap<String, ZoneRef>,
    made: HashMap<ZoneRef, TimeZone>,
    /// The owner's zone, for floating times.
    pub(crate) owner: ZoneRef,
}

impl Zones {
    /// The zones of a feed defining `defined`, for an owner in `owner` (IANA).
    pub(crate) fn new(defined: &[FeedZone], owner: &str) -> Zones {
        let defined = defined
            .iter()
            .filter_map(|z| Some((z.tzid.clone(), posix_rule(&z.parts)?)))
            .collect();
        Zones {
            defined,
            found: HashMap::new(),
            made: HashMap::new(),
            owner: ZoneRef::Iana(owner.to_owned()),
        }
    }

    /// The zone `tzid` names.
    pub(crate) fn named(&mut self, tzid: &str) -> ZoneRef {
        if let Some(found) = self.found.get(tzid) {
            return found.clone();
        }
        let found = find(tzid, &self.defined);
        self.found.insert(tzid.to_owned(), found.clone());
        found
    }

    /// The zone of a `TZID` parameter, or the owner's for a floating time.
    pub(crate) fn of(&mut self, tzid: Option<&str>) -> ZoneRef {
        match tzid {
            Some(t) => self.named(t),
            None => self.owner.clone(),
        }
    }

    /// The zone of `r`, made once.
    pub(crate) fn zone(&mut self, r: &ZoneRef) -> TimeZone {
        self.made
            .entry(r.clone())
            .or_insert_with(|| r.zone())
            .clone()
    }
}

fn find(tzid: &str, defined: &HashMap<String, String>) -> ZoneRef {
    let tzid = tzid.trim().trim_matches('"');
    if tzid.eq_ignore_ascii_case("UTC") || tzid.eq_ignore_ascii_case("GMT") || tzid == "Z" {
        return ZoneRef::Utc;
    }
    // `Europe/London`, or a prefixed form such as
    // `/mozilla.org/20050126_1/Europe/London`: the shortest known tail.
    let parts: Vec<&str> = tzid.split('/').filter(|s| !s.is_empty()).collect();
    for start in 0..parts.len() {
        let name = parts[start..].join("/");
        if let Ok(zone) = TimeZone::get(&name)
            && let Some(iana) = zone.iana_name()
        {
            return ZoneRef::Iana(iana.to_owned());
        }
    }
    match defined.get(tzid) {
        Some(rule) => ZoneRef::Posix(rule.clone()),
        None => ZoneRef::Utc,
    }
}

/// The POSIX rule of a VTIMEZONE: the latest STANDARD part's offset and,
/// when there is a yearly DAYLIGHT part with a `BYMONTH` and `BYDAY`
/// rule, the daylight offset and its two changes.
pub(crate) fn posix_rule(parts: &[(bool, Props)]) -> Option<String> {
    let latest = |daylight: bool| {
        parts
            .iter()
            .filter(|(d, _)| *d == daylight)
            .max_by_key(|(_, p)| p.value("DTSTART").unwrap_or("").to_owned())
            .map(|(_, p)| p)
    };
    let standard = latest(false).or_else(|| latest(true))?;
    let std_offset = offset_seconds(standard.value("TZOFFSETTO")?)?;
    let mut rule = format!("STD{}", posix_offset(std_offset));
    let daylight = latest(true).filter(|_| latest(false).is_some());
    if let Some(daylight) = daylight {
        let dst_offset = offset_seconds(daylight.value("TZOFFSETTO")?)?;
        let (Some(to_dst), Some(to_std)) = (change_rule(daylight), change_rule(standard)) else {
            return Some(rule);
        };
        rule.push_str(&format!(
            "DST{},{to_dst},{to_std}",
            posix_offset(dst_offset)
        ));
    }
    TimeZone::posix(&rule).ok().map(|_| rule)
}

/// `+0530` as seconds east of UTC.
fn offset_seconds(text: &str) -> Option<i32> {
    let text = text.trim();
    let (sign, digits) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => (1, text),
    };
    if !(digits.len() == 4 || digits.len() == 6) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hours: i32 = digits[0..2].parse().ok()?;
    let minutes: i32 = digits[2..4].parse().ok()?;
    if hours > 23 || minutes > 59 {
        return None;
    }
    Some(sign * (hours * 3600 + minutes * 60))
}

/// A POSIX offset: hours west of UTC, `5` for UTC-5, `-5:30` for UTC+5:30.
fn posix_offset(east: i32) -> String {
    let west = -east;
    let sign = if west < 0 { "-" } else { "" };
    let (h, m) = (west.abs() / 3600, (west.abs() % 3600) / 60);
    if m == 0 {
        format!("{sign}{h}")
    } else {
        format!("{sign}{h}:{m:02}")
    }
}

/// `M3.2.0/2:00:00`: the month, week and weekday of a yearly change and
/// its local time (from the part's DTSTART).
fn change_rule(part: &Props) -> Option<String> {
    let rrule = part.value("RRULE")?;
    let mut month = None;
    let mut byday = None;
    for piece in rrule.split(';') {
        let (k, v) = piece.split_once('=')?;
        match k.to_ascii_uppercase().as_str() {
            "BYMONTH" => month = v.parse::<u8>().ok().filter(|m| (1..=12).contains(m)),
            "BYDAY" => byday = Some(v.to_ascii_uppercase()),
            _ => {}
        }
    }
    let (month, byday) = (month?, byday?);
    let day_at = byday.len().checked_sub(2)?;
    let (week, weekday) = byday.split_at(day_at);
    let weekday = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        .iter()
        .position(|d| *d == weekday)?;
    let week: i32 = if week.is_empty() {
        1
    } else {
        week.parse().ok()?
    };
    let week = match week {
        1..=4 => week,
        -1 | 5 => 5,
        _ => return None,
    };
    let start = part.value("DTSTART")?;
    let time = start.split_once('T').map_or("000000", |(_, t)| t);
    let time = time.trim_end_matches('Z');
    if time.len() < 6 || !time.bytes().take(6).all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(format!(
        "M{month}.{week}.{weekday}/{}:{}:{}",
        &time[0..2],
        &time[2..4],
        &time[4..6]
    ))
}

/// The instant of wall time `local` in `zone` (RFC 5545: a time skipped by
/// a change means the same time after it; a repeated one the first).
pub(crate) fn instant(zone: &TimeZone, local: DateTime) -> Timestamp {
    zone.to_ambiguous_timestamp(local)
        .compatible()
        .unwrap_or_else(|_| {
            // Out of range: clamp to the UTC reading.
            local
                .to_zoned(TimeZone::UTC)
                .map(|z| z.timestamp())
                .unwrap_or(Timestamp::UNIX_EPOCH)
        })
}

/// The wall time of `at` in `zone`.
pub(crate) fn local(zone: &TimeZone, at: Timestamp) -> DateTime {
    zone.to_datetime(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ical::property::Property;

    fn part(props: &[(&str, &str)]) -> Props {
        Props(
            props
                .iter()
                .map(|(n, v)| Property {
                    name: (*n).to_owned(),
                    params: None,
                    value: Some((*v).to_owned()),
                })
                .collect(),
        )
    }

    #[test]
    fn a_feed_zone_becomes_a_posix_rule() {
        let parts = vec![
            (
                false,
                part(&[
                    ("DTSTART", "19701101T020000"),
                    ("TZOFFSETFROM", "-0400"),
                    ("TZOFFSETTO", "-0500"),
                    ("RRULE", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"),
                ]),
            ),
            (
                true,
                part(&[
                    ("DTSTART", "19700308T020000"),
                    ("TZOFFSETFROM", "-0500"),
                    ("TZOFFSETTO", "-0400"),
                    ("RRULE", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"),
                ]),
            ),
        ];
        assert_eq!(
            posix_rule(&parts).as_deref(),
            Some("STD5DST4,M3.2.0/02:00:00,M11.1.0/02:00:00")
        );
        let fixed = vec![(false, part(&[("TZOFFSETTO", "+0530")]))];
        assert_eq!(posix_rule(&fixed).as_deref(), Some("STD-5:30"));
    }

    #[test]
    fn tzids_find_iana_zones() {
        let none = HashMap::new();
        assert_eq!(
            find("/mozilla.org/20050126_1/Europe/London", &none),
            ZoneRef::Iana("Europe/London".into())
        );
        assert_eq!(find("Nowhere/Special", &none), ZoneRef::Utc);
    }
}
