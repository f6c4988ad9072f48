//! Reading a feed's body (RFC 5545) with the `ical` crate: the text is
//! first cut down to the components a calendar shows (the calendar, its
//! events and its time zones), so an unknown or malformed component
//! elsewhere (a to-do, an availability block, vendor extensions) cannot
//! make the whole feed unreadable, nesting stays shallow, and events are
//! counted before anything is parsed.
//!
//! A line that is no content line (no name of letters, digits and `-`
//! before its colon, or one the crate cannot read) does not make the feed
//! unreadable either: when it follows a text property (a description the
//! producer did not fold), it is joined to it as the next line of its
//! text, as common clients do; else it is left out. Either way it is
//! counted ([`Feed::skipped_lines`], shown on the feed's health).

use ical::parser::ical::IcalParser;
use ical::parser::ical::component::{IcalCalendar, IcalTimeZoneTransitionType};
use ical::property::Property;

use super::SyncErrorCode;
pub(crate) use crate::text::unescape_text as unescape;

/// The most events a feed may hold (`too_many_events` beyond).
pub(crate) const MOST_EVENTS: usize = 20_000;

/// One component's properties, looked up by name ignoring case.
#[derive(Debug, Default, Clone)]
pub(crate) struct Props(pub(crate) Vec<Property>);

impl Props {
    /// The first property called `name`.
    pub(crate) fn first(&self, name: &str) -> Option<&Property> {
        self.0.iter().find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// Every property called `name`.
    pub(crate) fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Property> + 'a {
        self.0
            .iter()
            .filter(move |p| p.name.eq_ignore_ascii_case(name))
    }

    /// The raw value of the first property called `name`.
    pub(crate) fn value(&self, name: &str) -> Option<&str> {
        self.first(name).and_then(|p| p.value.as_deref())
    }
}

/// The first value of parameter `name` of `p`, unquoted.
pub(crate) fn param<'a>(p: &'a Property, name: &str) -> Option<&'a str> {
    let params = p.params.as_ref()?;
    let (_, values) = params.iter().find(|(k, _)| k.eq_ignore_ascii_case(name))?;
    values.first().map(|v| v.trim_matches('"'))
}

/// A time zone the feed defines: its ID and its observances.
#[derive(Debug, Clone)]
pub(crate) struct FeedZone {
    pub(crate) tzid: String,
    /// `(is_daylight, properties)` of each STANDARD and DAYLIGHT part.
    pub(crate) parts: Vec<(bool, Props)>,
}

/// What a feed body holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Feed {
    /// `X-WR-CALNAME`, unescaped.
    pub(crate) name: Option<String>,
    pub(crate) events: Vec<Props>,
    pub(crate) zones: Vec<FeedZone>,
    /// Lines that could not be read as written (left out, or joined to
    /// the text property before them).
    pub(crate) skipped_lines: u32,
}

/// Where a kept line sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Calendar,
    Event,
    Zone,
    Observance,
}

/// Parses `body`: `not_calendar` unless it is an iCalendar object,
/// `too_many_events` past [`MOST_EVENTS`].
pub(crate) fn read(body: &[u8]) -> Result<Feed, SyncErrorCode> {
    let text = String::from_utf8_lossy(body);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let starts = text
        .get(..15)
        .is_some_and(|s| s.eq_ignore_ascii_case("BEGIN:VCALENDAR"));
    if !starts {
        return Err(SyncErrorCode::NotCalendar);
    }
    let (kept, skipped_lines) = keep_shown_parts(text)?;
    let mut feed = Feed {
        skipped_lines,
        ..Feed::default()
    };
    for calendar in IcalParser::new(kept.as_bytes()) {
        let calendar = calendar.map_err(|_| SyncErrorCode::NotCalendar)?;
        take(&mut feed, calendar);
    }
    Ok(feed)
}

fn take(feed: &mut Feed, calendar: IcalCalendar) {
    let props = Props(calendar.properties);
    if feed.name.is_none() {
        feed.name = props
            .value("X-WR-CALNAME")
            .map(unescape)
            .filter(|n| !n.trim().is_empty());
    }
    feed.events
        .extend(calendar.events.into_iter().map(|e| Props(e.properties)));
    for zone in calendar.timezones {
        let props = Props(zone.properties);
        let Some(tzid) = props.value("TZID") else {
            continue;
        };
        feed.zones.push(FeedZone {
            tzid: tzid.trim().to_owned(),
            parts: zone
                .transitions
                .into_iter()
                .map(|t| {
                    (
                        matches!(t.transition, IcalTimeZoneTransitionType::DAYLIGHT),
                        Props(t.properties),
                    )
                })
                .collect(),
        });
    }
}

/// Properties whose value is text, to which a line the producer did not
/// fold is joined.
const TEXT_PROPERTIES: &[&str] = &["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT"];

/// The properties of RFC 5545, 7986, 9073 and 9253: after a text
/// property, a line named otherwise (and not `X-`) is taken for text the
/// producer did not fold (`Agenda: budget`).
const KNOWN_PROPERTIES: &[&str] = &[
    "ACTION",
    "ATTACH",
    "ATTENDEE",
    "CALSCALE",
    "CATEGORIES",
    "CLASS",
    "COLOR",
    "COMMENT",
    "COMPLETED",
    "CONCEPT",
    "CONFERENCE",
    "CONTACT",
    "CREATED",
    "DESCRIPTION",
    "DTEND",
    "DTSTAMP",
    "DTSTART",
    "DUE",
    "DURATION",
    "EXDATE",
    "FREEBUSY",
    "GEO",
    "IMAGE",
    "LAST-MODIFIED",
    "LINK",
    "LOCATION",
    "LOCATION-TYPE",
    "METHOD",
    "NAME",
    "ORGANIZER",
    "PARTICIPANT-TYPE",
    "PERCENT-COMPLETE",
    "PRIORITY",
    "PRODID",
    "RDATE",
    "RECURRENCE-ID",
    "REFID",
    "REFRESH-INTERVAL",
    "RELATED-TO",
    "REPEAT",
    "REQUEST-STATUS",
    "RESOURCE-TYPE",
    "RESOURCES",
    "RRULE",
    "SEQUENCE",
    "SOURCE",
    "STATUS",
    "STRUCTURED-DATA",
    "STYLED-DESCRIPTION",
    "SUMMARY",
    "TRANSP",
    "TRIGGER",
    "TZID",
    "TZID-ALIAS-OF",
    "TZNAME",
    "TZOFFSETFROM",
    "TZOFFSETTO",
    "TZUNTIL",
    "TZURL",
    "UID",
    "URL",
    "VERSION",
];

/// Whether a property name is one of [`KNOWN_PROPERTIES`] or an `X-` one.
fn known_name(name: &str) -> bool {
    name.get(..2).is_some_and(|x| x.eq_ignore_ascii_case("X-"))
        || KNOWN_PROPERTIES
            .iter()
            .any(|k| name.eq_ignore_ascii_case(k))
}

/// Whether `line` is a content line the `ical` crate reads: a name of
/// letters, digits and `-`, then parameters and a value after a colon.
fn readable(line: &str) -> bool {
    let name_end = line.find([':', ';']).unwrap_or(line.len());
    let name = &line[..name_end];
    if name.is_empty()
        || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        || !line[name_end..].contains(':')
    {
        return false;
    }
    matches!(
        ical::PropertyParser::from_reader(line.as_bytes()).next(),
        Some(Ok(_))
    )
}

/// The lines of the calendars, their events and their time zones (with
/// each one's continuation lines), component names in upper case;
/// everything else is left out. Unbalanced components end where the
/// text does (the parser then calls the body incomplete). Also gives how
/// many lines of those parts could not be read as written (see the
/// module's docs).
fn keep_shown_parts(text: &str) -> Result<(String, u32), SyncErrorCode> {
    let mut out = String::with_capacity(text.len());
    let mut stack: Vec<Option<Part>> = Vec::new();
    // Whether the last logical line was kept (for its continuations).
    let mut keeping = false;
    // Whether that line is a text property (for lines it was not folded
    // into).
    let mut in_text = false;
    let mut events = 0usize;
    let mut skipped = 0u32;
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.starts_with([' ', '\t']) {
            if keeping {
                out.push_str(line);
                out.push('\n');
            }
            continue;
        }
        let upper_name = line.split([':', ';']).next().unwrap_or("");
        let inside = stack.last().copied().flatten();
        let shown = stack.iter().all(Option::is_some);
        if upper_name.eq_ignore_ascii_case("BEGIN") {
            in_text = false;
            let value = line.split_once(':').map_or("", |(_, v)| v.trim());
            let part = match (
                stack.is_empty(),
                inside,
                value.to_ascii_uppercase().as_str(),
            ) {
                (true, _, "VCALENDAR") => Some(Part::Calendar),
                (_, Some(Part::Calendar), "VEVENT") if shown => Some(Part::Event),
                (_, Some(Part::Calendar), "VTIMEZONE") if shown => Some(Part::Zone),
                (_, Some(Part::Zone), "STANDARD" | "DAYLIGHT") if shown => Some(Part::Observance),
                _ => None,
            };
            if part == Some(Part::Event) {
                events += 1;
                if events > MOST_EVENTS {
                    return Err(SyncErrorCode::TooManyEvents);
                }
            }
            keeping = part.is_some() && shown;
            if keeping {
                out.push_str("BEGIN:");
                out.push_str(&value.to_ascii_uppercase());
                out.push('\n');
            }
            stack.push(part);
        } else if upper_name.eq_ignore_ascii_case("END") {
            keeping = false;
            in_text = false;
            if let Some(part) = stack.pop()
                && part.is_some()
                && shown
            {
                let value = line.split_once(':').map_or("", |(_, v)| v.trim());
                out.push_str("END:");
                out.push_str(&value.to_ascii_uppercase());
                out.push('\n');
            }
        } else if !shown || stack.is_empty() || line.trim().is_empty() {
            keeping = false;
            in_text = false;
        } else if readable(line) && !(keeping && in_text && !known_name(upper_name)) {
            keeping = true;
            in_text = TEXT_PROPERTIES
                .iter()
                .any(|p| upper_name.eq_ignore_ascii_case(p));
            out.push_str(line);
            out.push('\n');
        } else {
            skipped = skipped.saturating_add(1);
            // A property's name alone (`X-MOZ-LASTACK`) is a broken line of
            // its own, not text.
            let lone_name = !line.contains(':') && known_name(line.trim());
            if keeping && in_text && !lone_name {
                // The next line of the text before: joined as one.
                out.pop();
                out.push_str("\\n");
                out.push_str(line);
                out.push('\n');
            } else {
                keeping = false;
            }
        }
    }
    Ok((out, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_components_are_left_out() {
        let body = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Work\\, home\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Long\r\n  line\r\nBEGIN:X-THING\r\nA:b\r\nEND:X-THING\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let feed = read(body.as_bytes()).unwrap();
        assert_eq!(feed.name.as_deref(), Some("Work, home"));
        assert_eq!(feed.events.len(), 1);
        assert_eq!(feed.events[0].value("summary"), Some("Long line"));
    }

    #[test]
    fn an_unreadable_line_is_left_out_or_joined_to_the_text_before() {
        let body = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20240912T120000Z\r\nthis line has no colon\r\nSUMMARY:Kept\r\nDESCRIPTION:First line\r\nAgenda: budget\r\nand more\r\n  folded\r\nLOCATION:Room 1\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:2\r\n;no name:x\r\nDTSTART:20240913T120000Z\r\nSUMMARY;CN=\"unclosed:Second\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        let feed = read(body.as_bytes()).unwrap();
        assert_eq!(feed.events.len(), 2);
        assert_eq!(feed.skipped_lines, 5);
        let first = &feed.events[0];
        assert_eq!(first.value("SUMMARY"), Some("Kept"));
        assert_eq!(
            unescape(first.value("DESCRIPTION").unwrap()),
            "First line\nAgenda: budget\nand more folded"
        );
        assert_eq!(first.value("LOCATION"), Some("Room 1"));
        assert_eq!(feed.events[1].value("DTSTART"), Some("20240913T120000Z"));
        assert_eq!(feed.events[1].value("SUMMARY"), None);
    }

    #[test]
    fn not_a_calendar() {
        for body in ["<html></html>", "", "BEGIN:VCARD\nEND:VCARD"] {
            assert_eq!(
                read(body.as_bytes()).unwrap_err(),
                SyncErrorCode::NotCalendar
            );
        }
    }

    #[test]
    fn too_many_events_is_counted_before_parsing() {
        let mut body = String::from("BEGIN:VCALENDAR\n");
        for _ in 0..=MOST_EVENTS {
            body.push_str("BEGIN:VEVENT\nEND:VEVENT\n");
        }
        body.push_str("END:VCALENDAR\n");
        assert_eq!(
            read(body.as_bytes()).unwrap_err(),
            SyncErrorCode::TooManyEvents
        );
    }
}
