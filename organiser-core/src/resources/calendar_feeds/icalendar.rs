//! Reading a feed's body (RFC 5545) with the `ical` crate: the text is
//! first cut down to the components a calendar shows (the calendar, its
//! events and its time zones), so an unknown or malformed component
//! elsewhere (a to-do, an availability block, vendor extensions) cannot
//! make the whole feed unreadable, nesting stays shallow, and events are
//! counted before anything is parsed.

use ical::parser::ical::IcalParser;
use ical::parser::ical::component::{IcalCalendar, IcalTimeZoneTransitionType};
use ical::property::Property;

use super::SyncErrorCode;

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
    let kept = keep_shown_parts(text)?;
    let mut feed = Feed::default();
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

/// The lines of the calendars, their events and their time zones (with
/// each one's continuation lines), component names in upper case;
/// everything else is left out. Unbalanced components end where the
/// text does (the parser then calls the body incomplete).
fn keep_shown_parts(text: &str) -> Result<String, SyncErrorCode> {
    let mut out = String::with_capacity(text.len());
    let mut stack: Vec<Option<Part>> = Vec::new();
    // Whether the last logical line was kept (for its continuations).
    let mut keeping = false;
    let mut events = 0usize;
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
            if let Some(part) = stack.pop()
                && part.is_some()
                && shown
            {
                let value = line.split_once(':').map_or("", |(_, v)| v.trim());
                out.push_str("END:");
                out.push_str(&value.to_ascii_uppercase());
                out.push('\n');
            }
        } else {
            keeping = shown && !stack.is_empty() && !line.trim().is_empty();
            if keeping {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// A TEXT value with its escapes (`\n`, `\,`, `\;`, `\\`) undone.
pub(crate) fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
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
