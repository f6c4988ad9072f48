//! The zone an event's times are in (document 3, "CalendarEvent": repeat
//! rules expand in the event's own zone): a `TZID` names an IANA zone, or
//! a zone the feed defines itself in a VTIMEZONE (its observances' onsets
//! made into TZif, the offset in force being that of the latest onset of
//! any observance, RFC 5545 3.6.5), or a Windows zone name as Outlook
//! writes them (`Pacific Standard Time`, mapped to IANA by CLDR's table,
//! noted as a guess); a time with none is UTC (`Z`) or floating, which is
//! the owner's zone. A `TZID` nothing names is read as UTC, and noted.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use serde::{Deserialize, Serialize};

use super::icalendar::{FeedZone, Props, param};

/// A zone by what it is called in the store: an IANA name, or a zone the
/// feed defined.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum ZoneRef {
    /// UTC.
    Utc,
    /// An IANA zone (`Europe/London`).
    Iana(String),
    /// A POSIX TZ rule read from the feed's own VTIMEZONE (stores synced
    /// before its observances were read whole; no longer made).
    Posix(String),
    /// The feed's own VTIMEZONE as TZif ([`defined_zone`]).
    Tzif(Vec<u8>),
}

impl ZoneRef {
    /// The zone itself; UTC when it can no longer be read.
    pub(crate) fn zone(&self) -> TimeZone {
        match self {
            ZoneRef::Utc => TimeZone::UTC,
            ZoneRef::Iana(name) => TimeZone::get(name).unwrap_or(TimeZone::UTC),
            ZoneRef::Posix(rule) => TimeZone::posix(rule).unwrap_or(TimeZone::UTC),
            ZoneRef::Tzif(bytes) => TimeZone::tzif("feed", bytes).unwrap_or(TimeZone::UTC),
        }
    }
}

/// The zones a feed's `TZID`s name, each found once, and what had to be
/// guessed on the way.
pub(crate) struct Zones {
    defined: HashMap<String, ZoneRef>,
    found: HashMap<String, ZoneRef>,
    made: HashMap<ZoneRef, TimeZone>,
    /// The owner's zone, for floating times.
    pub(crate) owner: ZoneRef,
    /// Windows zone names read as the IANA zone CLDR maps them to.
    pub(crate) guessed: BTreeMap<String, String>,
    /// `TZID`s that name no zone (read as UTC).
    pub(crate) unknown: BTreeSet<String>,
}

impl Zones {
    /// The zones of a feed defining `defined`, for an owner in `owner` (IANA).
    pub(crate) fn new(defined: &[FeedZone], owner: &str) -> Zones {
        let defined = defined
            .iter()
            .filter_map(|z| Some((z.tzid.clone(), defined_zone(&z.tzid, &z.parts)?)))
            .collect();
        Zones {
            defined,
            found: HashMap::new(),
            made: HashMap::new(),
            owner: ZoneRef::Iana(owner.to_owned()),
            guessed: BTreeMap::new(),
            unknown: BTreeSet::new(),
        }
    }

    /// The zone `tzid` names.
    pub(crate) fn named(&mut self, tzid: &str) -> ZoneRef {
        if let Some(found) = self.found.get(tzid) {
            return found.clone();
        }
        let found = self.find(tzid);
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

    /// An IANA name (or a prefixed form of one), else the feed's own
    /// definition, else a Windows name by CLDR's table (a guess), else
    /// UTC (unknown).
    fn find(&mut self, tzid: &str) -> ZoneRef {
        let tzid = tzid.trim().trim_matches('"');
        if tzid.eq_ignore_ascii_case("UTC") || tzid.eq_ignore_ascii_case("GMT") || tzid == "Z" {
            return ZoneRef::Utc;
        }
        if let Some(iana) = iana(tzid) {
            return ZoneRef::Iana(iana);
        }
        if let Some(defined) = self.defined.get(tzid) {
            return defined.clone();
        }
        if let Some(iana) = windows(tzid) {
            self.guessed.insert(tzid.to_owned(), iana.clone());
            return ZoneRef::Iana(iana);
        }
        self.unknown.insert(tzid.to_owned());
        ZoneRef::Utc
    }
}

/// `Europe/London`, or a prefixed form such as
/// `/mozilla.org/20050126_1/Europe/London`: the shortest known tail.
fn iana(tzid: &str) -> Option<String> {
    let parts: Vec<&str> = tzid.split('/').filter(|s| !s.is_empty()).collect();
    (0..parts.len()).find_map(|start| {
        let zone = TimeZone::get(&parts[start..].join("/")).ok()?;
        zone.iana_name().map(str::to_owned)
    })
}

/// The IANA zone CLDR maps a Windows zone name to (its world-wide
/// default, territory `001`).
fn windows(tzid: &str) -> Option<String> {
    let iana = localzone::win_zone_to_iana(tzid, Some("001"))?;
    TimeZone::get(iana)
        .ok()
        .and_then(|z| z.iana_name().map(str::to_owned))
}

/// The most onsets one observance's rule is expanded to.
const MOST_ONSETS: u16 = 2_000;

/// One change of a defined zone: from `at` (Unix seconds) the offset is
/// `offset` seconds east of UTC, daylight or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Onset {
    at: i64,
    offset: i32,
    dst: bool,
}

/// One STANDARD or DAYLIGHT part, read.
struct Observance<'p> {
    dst: bool,
    props: &'p Props,
    start: DateTime,
    from: i32,
    to: i32,
}

impl Observance<'_> {
    /// The onset at wall time `local` (read in the offset before it).
    fn onset(&self, local: DateTime) -> Onset {
        Onset {
            at: super::repeat::wall(local) - i64::from(self.from),
            offset: self.to,
            dst: self.dst,
        }
    }

    /// The wall times its RRULE gives from DTSTART: every one when the
    /// rule ends (UNTIL, COUNT), else up to `horizon`; and whether it ends.
    fn expanded(&self, horizon: DateTime) -> (Vec<DateTime>, bool) {
        let Some(text) = self.props.value("RRULE") else {
            return (Vec::new(), true);
        };
        let (rule, until) = super::build::split_until(text);
        let ends = until.is_some() || rule.to_ascii_uppercase().contains("COUNT=");
        // UNTIL is UTC in a VTIMEZONE: on the wall clock before the onset.
        let until = until.map(|u| match u {
            super::build::Value::Utc(at) => super::repeat::wall(at) + i64::from(self.from),
            super::build::Value::Local(at) => super::repeat::wall(at),
            super::build::Value::Date(d) => super::repeat::wall(d.at(23, 59, 59, 0)),
        });
        let repeat = super::repeat::Repeat {
            zone: ZoneRef::Utc,
            start: super::repeat::wall(self.start),
            all_day: false,
            length: 0,
            rule,
            until,
            exdates: Vec::new(),
            rdates: Vec::new(),
            overrides: Vec::new(),
        };
        let last = if ends {
            None
        } else {
            Some(super::repeat::wall(horizon))
        };
        let starts = super::repeat::wall_starts(&repeat, last, MOST_ONSETS);
        (
            starts.into_iter().map(super::repeat::from_wall).collect(),
            ends,
        )
    }
}

/// A VTIMEZONE as a zone: every onset of its observances (DTSTART, RDATE
/// and RRULE), the offset in force at an instant being that of the latest
/// onset before it (RFC 5545 3.6.5), and before the first onset the
/// offset it changes from. Rules without an end are expanded a year past
/// every other onset and then continue as a POSIX rule (when they are
/// yearly month-and-weekday rules; else they are expanded to 2100).
/// `None` when no part can be read.
pub(crate) fn defined_zone(tzid: &str, parts: &[(bool, Props)]) -> Option<ZoneRef> {
    let observances: Vec<Observance<'_>> = parts
        .iter()
        .filter_map(|(dst, props)| {
            let start = match super::build::parse_value(props.value("DTSTART")?, false)? {
                super::build::Value::Local(at) | super::build::Value::Utc(at) => at,
                super::build::Value::Date(d) => d.at(0, 0, 0, 0),
            };
            Some(Observance {
                dst: *dst,
                props,
                start,
                from: offset_seconds(props.value("TZOFFSETFROM")?)?,
                to: offset_seconds(props.value("TZOFFSETTO")?)?,
            })
        })
        .collect();
    let first = observances.iter().min_by_key(|o| o.start)?;
    let before = first.from;
    let mut onsets: Vec<Onset> = Vec::new();
    let mut open: Vec<&Observance<'_>> = Vec::new();
    let mut last_year = observances.iter().map(|o| o.start.year()).max()?;
    for o in &observances {
        onsets.push(o.onset(o.start));
        for p in o.props.all("RDATE") {
            let period = param(p, "VALUE").is_some_and(|v| v.eq_ignore_ascii_case("PERIOD"));
            for value in p.value.as_deref().unwrap_or("").split(',') {
                let value = if period {
                    value.split('/').next().unwrap_or("")
                } else {
                    value
                };
                let local = match super::build::parse_value(value, false) {
                    Some(super::build::Value::Local(at) | super::build::Value::Utc(at)) => at,
                    Some(super::build::Value::Date(d)) => d.at(0, 0, 0, 0),
                    None => continue,
                };
                last_year = last_year.max(local.year());
                onsets.push(o.onset(local));
            }
        }
        let (bounded, ends) = o.expanded(DateTime::MAX);
        if ends {
            if let Some(last) = bounded.last() {
                last_year = last_year.max(last.year());
            }
            onsets.extend(bounded.into_iter().map(|at| o.onset(at)));
        } else {
            open.push(o);
        }
    }
    let horizon =
        |year: i16| jiff::civil::date(year.saturating_add(1).min(9998), 12, 31).at(23, 59, 59, 0);
    let open_parts: Vec<(bool, Props)> = open.iter().map(|o| (o.dst, o.props.clone())).collect();
    let footer = (!open.is_empty())
        .then(|| posix_rule(&open_parts))
        .flatten()
        .filter(|rule| rule.contains(','));
    let first_until = match (&footer, open.is_empty()) {
        // Rules without an end and no POSIX form: expanded to 2100.
        (None, false) => horizon(2099),
        _ => horizon(last_year),
    };
    let mut tries = vec![(first_until, footer.clone())];
    if footer.is_some() {
        // Should the rule not continue the expanded onsets, expand them
        // to 2100 instead.
        tries.push((horizon(2099), None));
    }
    for (until, footer) in tries {
        let mut all = onsets.clone();
        for o in &open {
            all.extend(o.expanded(until).0.into_iter().map(|at| o.onset(at)));
        }
        let bytes = tzif(before, all, footer.as_deref().unwrap_or(""));
        if TimeZone::tzif(tzid, &bytes).is_ok() {
            return Some(ZoneRef::Tzif(bytes));
        }
    }
    None
}

/// TZif (RFC 8536, version 2) of a zone whose offset is `before` until the
/// first of `onsets`, then each onset's, then `footer`'s (a POSIX rule;
/// empty: the last onset's for ever). Designations are `STD` and `DST`,
/// as the POSIX rules here name them.
fn tzif(before: i32, mut onsets: Vec<Onset>, footer: &str) -> Vec<u8> {
    onsets.sort_by_key(|o| o.at);
    onsets.dedup_by_key(|o| o.at);
    let mut types: Vec<(i32, bool)> = vec![(before, false)];
    let mut transitions: Vec<(i64, u8)> = Vec::new();
    let mut current = 0u8;
    for o in onsets {
        let index = match types.iter().position(|t| *t == (o.offset, o.dst)) {
            Some(i) => i,
            None => {
                types.push((o.offset, o.dst));
                types.len() - 1
            }
        };
        let index = u8::try_from(index).unwrap_or(0);
        if index != current {
            transitions.push((o.at, index));
            current = index;
        }
    }
    let designations = b"STD\0DST\0";
    let header = |out: &mut Vec<u8>, times: usize, types: usize| {
        out.extend_from_slice(b"TZif2");
        out.extend_from_slice(&[0; 15]);
        for count in [0, 0, 0, times, types, designations.len()] {
            out.extend_from_slice(&(count as u32).to_be_bytes());
        }
    };
    let ttinfo = |out: &mut Vec<u8>, (offset, dst): (i32, bool)| {
        out.extend_from_slice(&offset.to_be_bytes());
        out.push(u8::from(dst));
        out.push(if dst { 4 } else { 0 });
    };
    let mut out = Vec::with_capacity(120 + transitions.len() * 9 + types.len() * 6);
    // Version 1 data: only the zone before any change (readers of
    // version 2 skip it).
    header(&mut out, 0, 1);
    ttinfo(&mut out, types[0]);
    out.extend_from_slice(designations);
    header(&mut out, transitions.len(), types.len());
    for (at, _) in &transitions {
        out.extend_from_slice(&at.to_be_bytes());
    }
    out.extend(transitions.iter().map(|(_, index)| *index));
    for t in &types {
        ttinfo(&mut out, *t);
    }
    out.extend_from_slice(designations);
    out.push(b'\n');
    out.extend_from_slice(footer.as_bytes());
    out.push(b'\n');
    out
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
    fn tzids_find_iana_zones_then_the_feeds_then_windows_names() {
        let mut zones = Zones::new(&[], "Europe/London");
        assert_eq!(
            zones.named("/mozilla.org/20050126_1/Europe/London"),
            ZoneRef::Iana("Europe/London".into())
        );
        assert_eq!(
            zones.named("Pacific Standard Time"),
            ZoneRef::Iana("America/Los_Angeles".into())
        );
        assert_eq!(
            zones.named("W. Europe Standard Time"),
            ZoneRef::Iana("Europe/Berlin".into())
        );
        assert_eq!(zones.named("Nowhere/Special"), ZoneRef::Utc);
        assert_eq!(
            zones
                .guessed
                .get("Pacific Standard Time")
                .map(String::as_str),
            Some("America/Los_Angeles")
        );
        assert!(zones.unknown.contains("Nowhere/Special"));
    }

    fn at(zone: &ZoneRef, utc: &str) -> i32 {
        let t: Timestamp = utc.parse().unwrap();
        zone.zone().to_offset(t).seconds()
    }

    #[test]
    fn a_defined_zone_is_every_onset_of_its_observances() {
        // Yearly rules: the US Eastern zone as Outlook writes it.
        let eastern = defined_zone(
            "Eastern",
            &[
                (
                    false,
                    part(&[
                        ("DTSTART", "16011104T020000"),
                        ("TZOFFSETFROM", "-0400"),
                        ("TZOFFSETTO", "-0500"),
                        ("RRULE", "FREQ=YEARLY;BYDAY=1SU;BYMONTH=11"),
                    ]),
                ),
                (
                    true,
                    part(&[
                        ("DTSTART", "16010311T020000"),
                        ("TZOFFSETFROM", "-0500"),
                        ("TZOFFSETTO", "-0400"),
                        ("RRULE", "FREQ=YEARLY;BYDAY=2SU;BYMONTH=3"),
                    ]),
                ),
            ],
        )
        .unwrap();
        assert_eq!(at(&eastern, "2024-09-20T12:00:00Z"), -4 * 3600);
        assert_eq!(at(&eastern, "2024-12-20T12:00:00Z"), -5 * 3600);
        // 3 November 2024, 02:00 EDT (06:00 UTC): standard from then on.
        assert_eq!(at(&eastern, "2024-11-03T05:59:59Z"), -4 * 3600);
        assert_eq!(at(&eastern, "2024-11-03T06:00:00Z"), -5 * 3600);
        assert_eq!(at(&eastern, "2031-07-01T00:00:00Z"), -4 * 3600);

        // A zone that kept summer time for good in 2016 (Turkey's way):
        // the yearly rules end, and a single onset says what follows.
        let ended = defined_zone(
            "Ended",
            &[
                (
                    false,
                    part(&[
                        ("DTSTART", "19961027T040000"),
                        ("TZOFFSETFROM", "+0300"),
                        ("TZOFFSETTO", "+0200"),
                        (
                            "RRULE",
                            "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20151108T010000Z",
                        ),
                    ]),
                ),
                (
                    true,
                    part(&[
                        ("DTSTART", "19970330T030000"),
                        ("TZOFFSETFROM", "+0200"),
                        ("TZOFFSETTO", "+0300"),
                        (
                            "RRULE",
                            "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20160327T010000Z",
                        ),
                    ]),
                ),
                (
                    false,
                    part(&[
                        ("DTSTART", "20160907T000000"),
                        ("TZOFFSETFROM", "+0300"),
                        ("TZOFFSETTO", "+0300"),
                    ]),
                ),
            ],
        )
        .unwrap();
        assert_eq!(at(&ended, "2015-07-01T00:00:00Z"), 3 * 3600);
        assert_eq!(at(&ended, "2015-12-01T00:00:00Z"), 2 * 3600);
        // After the last yearly change back, summer time for good.
        assert_eq!(at(&ended, "2024-12-20T12:00:00Z"), 3 * 3600);
        assert_eq!(at(&ended, "2024-06-20T12:00:00Z"), 3 * 3600);

        // Changes listed by RDATE, as some producers write history.
        let listed = defined_zone(
            "Listed",
            &[
                (
                    true,
                    part(&[
                        ("DTSTART", "20240331T010000"),
                        ("TZOFFSETFROM", "+0000"),
                        ("TZOFFSETTO", "+0100"),
                        ("RDATE", "20250330T010000"),
                    ]),
                ),
                (
                    false,
                    part(&[
                        ("DTSTART", "20241027T020000"),
                        ("TZOFFSETFROM", "+0100"),
                        ("TZOFFSETTO", "+0000"),
                        ("RDATE", "20251026T020000"),
                    ]),
                ),
            ],
        )
        .unwrap();
        assert_eq!(at(&listed, "2024-03-01T00:00:00Z"), 0);
        assert_eq!(at(&listed, "2024-09-20T12:00:00Z"), 3600);
        assert_eq!(at(&listed, "2024-11-20T12:00:00Z"), 0);
        assert_eq!(at(&listed, "2025-04-20T12:00:00Z"), 3600);
        assert_eq!(at(&listed, "2025-10-26T00:59:59Z"), 3600);
        assert_eq!(at(&listed, "2025-10-26T01:00:00Z"), 0);
        assert_eq!(at(&listed, "2026-07-01T00:00:00Z"), 0);
    }
}
