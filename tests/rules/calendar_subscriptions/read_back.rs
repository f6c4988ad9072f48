//! The feed as the two parsers read it back, and as the records expect it.

use super::*;

// ------------------------------------------------- the feed, as read back

/// One property of a component as a parser read it: its name, its `VALUE`
/// parameter, and its value as text (a TEXT value unescaped).
#[derive(Debug, Clone)]
pub(super) struct Prop {
    pub(super) name: String,
    pub(super) value_type: Option<String>,
    pub(super) value: String,
}

/// A component as a parser read it: its properties and its alarms.
#[derive(Debug, Clone, Default)]
pub(super) struct Component {
    pub(super) props: Vec<Prop>,
    pub(super) alarms: Vec<Component>,
}

impl Component {
    /// The properties named `name`.
    pub(super) fn all(&self, name: &str) -> Vec<&Prop> {
        self.props.iter().filter(|p| p.name == name).collect()
    }

    /// The value of the one property `name`, if there is one.
    #[track_caller]
    pub(super) fn get(&self, name: &str) -> Option<String> {
        let found = self.all(name);
        assert!(found.len() <= 1, "{name} more than once: {self:?}");
        found.first().map(|p| p.value.clone())
    }

    /// The value of the one property `name`, which must be there.
    #[track_caller]
    pub(super) fn one(&self, name: &str) -> String {
        self.get(name)
            .unwrap_or_else(|| panic!("no {name} in {self:?}"))
    }

    /// The one `VALUE=DATE` property `name`, as `YYYYMMDD`.
    #[track_caller]
    pub(super) fn date(&self, name: &str) -> String {
        let found = self.all(name);
        assert_eq!(found.len(), 1, "{name} once: {self:?}");
        assert_eq!(
            found[0].value_type.as_deref(),
            Some("DATE"),
            "{name} is VALUE=DATE: {self:?}"
        );
        found[0].value.clone()
    }
}

/// A calendar as a parser read it: its own properties and its events.
#[derive(Debug, Clone)]
pub(super) struct Calendar {
    pub(super) own: Component,
    pub(super) events: Vec<Component>,
}

/// What the tests compare of an event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Event {
    pub(super) uid: String,
    /// `DTSTART` and `DTEND`, both `VALUE=DATE`, as `YYYYMMDD`.
    pub(super) start: String,
    pub(super) end: String,
    pub(super) summary: String,
    pub(super) description: Option<String>,
    /// `DTSTAMP` and `LAST-MODIFIED`, as `YYYYMMDDTHHMMSSZ`.
    pub(super) stamp: String,
    pub(super) modified: String,
    /// The `RRULE`'s parts, sorted (the parsers write them in their own
    /// orders).
    pub(super) rrule: Option<Vec<String>>,
    /// Each `VALARM`'s `ACTION` and `TRIGGER`.
    pub(super) alarms: Vec<(String, String)>,
}

impl Event {
    #[track_caller]
    pub(super) fn of(c: &Component) -> Event {
        Event {
            uid: c.one("UID"),
            start: c.date("DTSTART"),
            end: c.date("DTEND"),
            summary: c.one("SUMMARY"),
            description: c.get("DESCRIPTION"),
            stamp: c.one("DTSTAMP"),
            modified: c.one("LAST-MODIFIED"),
            rrule: c.get("RRULE").map(|r| rule(&r)),
            alarms: c
                .alarms
                .iter()
                .map(|a| (a.one("ACTION"), a.one("TRIGGER")))
                .collect(),
        }
    }
}

/// An RRULE's parts, sorted.
pub(super) fn rule(text: &str) -> Vec<String> {
    let mut parts: Vec<String> = text.split(';').map(str::to_owned).collect();
    parts.sort();
    parts
}

/// An RFC 5545 TEXT value with its escapes undone (`ical` leaves them).
pub(super) fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // RFC 5545 §3.3.11 escapes only these; another backslash is
        // itself.
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(c @ ('\\' | ',' | ';')) => out.push(c),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The properties whose values are TEXT.
pub(super) const TEXT: &[&str] = &["UID", "SUMMARY", "DESCRIPTION", "X-WR-CALNAME"];

/// The feed read by the `ical` crate. Its line reader drops the spaces
/// that end a folded piece, so the text is unfolded first, as RFC 5545
/// §3.1 says (the core's own iCalendar import does the same).
#[track_caller]
pub(super) fn by_ical(text: &str) -> Calendar {
    let unfolded = text.replace("\r\n ", "").replace("\r\n\t", "");
    let mut calendars = ical::IcalParser::new(unfolded.as_bytes());
    let calendar = calendars
        .next()
        .expect("a calendar")
        .unwrap_or_else(|e| panic!("ical cannot read the feed ({e}):\n{text}"));
    assert!(calendars.next().is_none(), "one calendar");
    let props = |props: &[ical::property::Property]| -> Vec<Prop> {
        props
            .iter()
            .map(|p| {
                let name = p.name.to_ascii_uppercase();
                let value = p.value.clone().unwrap_or_default();
                Prop {
                    value_type: p.params.as_ref().and_then(|params| {
                        params
                            .iter()
                            .find(|(k, _)| k.eq_ignore_ascii_case("VALUE"))
                            .and_then(|(_, v)| v.first().map(|v| v.to_ascii_uppercase()))
                    }),
                    value: if TEXT.contains(&name.as_str()) {
                        unescape(&value)
                    } else {
                        value
                    },
                    name,
                }
            })
            .collect()
    };
    Calendar {
        own: Component {
            props: props(&calendar.properties),
            alarms: Vec::new(),
        },
        events: calendar
            .events
            .iter()
            .map(|e| Component {
                props: props(&e.properties),
                alarms: e
                    .alarms
                    .iter()
                    .map(|a| Component {
                        props: props(&a.properties),
                        alarms: Vec::new(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// A `calcard` value as the feed writes it.
pub(super) fn calcard_text(value: &calcard::icalendar::ICalendarValue) -> String {
    use calcard::common::IanaString;
    use calcard::icalendar::ICalendarValue as V;
    match value {
        V::Text(s) => s.clone(),
        V::Integer(n) => n.to_string(),
        V::PartialDateTime(d) => {
            let mut out = format!(
                "{:04}{:02}{:02}",
                d.year.unwrap_or_default(),
                d.month.unwrap_or_default(),
                d.day.unwrap_or_default()
            );
            if let Some(hour) = d.hour {
                out.push_str(&format!(
                    "T{hour:02}{:02}{:02}",
                    d.minute.unwrap_or_default(),
                    d.second.unwrap_or_default()
                ));
                if (d.tz_hour, d.tz_minute) == (Some(0), Some(0)) {
                    out.push('Z');
                }
            }
            out
        }
        V::RecurrenceRule(r) => r.to_string(),
        V::Duration(d) => d.to_string(),
        V::Action(a) => a.as_str().to_owned(),
        V::Method(m) => m.as_str().to_owned(),
        V::CalendarScale(c) => c.as_str().to_owned(),
        V::Transparency(t) => t.as_str().to_owned(),
        other => format!("{other:?}"),
    }
}

/// The feed read by the `calcard` crate, from the text as served (it
/// unfolds lines itself).
#[track_caller]
pub(super) fn by_calcard(text: &str) -> Calendar {
    use calcard::icalendar::{
        ICalendar, ICalendarComponent, ICalendarComponentType as Kind, ICalendarParameterName,
        ICalendarParameterValue,
    };
    let calendar =
        ICalendar::parse(text).unwrap_or_else(|e| panic!("calcard cannot read the feed: {e:?}"));
    let component = |c: &ICalendarComponent| -> Component {
        Component {
            props: c
                .entries
                .iter()
                .map(|e| {
                    let name = e.name.as_str().to_ascii_uppercase();
                    // One value each: a TEXT value's escaped commas are
                    // not separators.
                    assert_eq!(e.values.len(), 1, "{name}: {e:?}");
                    let mut value = calcard_text(&e.values[0]);
                    // A property calcard does not know keeps its text as
                    // written; RFC 5545 §3.8.8.2 makes it TEXT.
                    if name.starts_with("X-") && TEXT.contains(&name.as_str()) {
                        value = unescape(&value);
                    }
                    Prop {
                        value_type: e.params.iter().find_map(|p| match (&p.name, &p.value) {
                            (ICalendarParameterName::Value, ICalendarParameterValue::Value(t)) => {
                                Some(format!("{t:?}").to_ascii_uppercase())
                            }
                            _ => None,
                        }),
                        value,
                        name,
                    }
                })
                .collect(),
            alarms: Vec::new(),
        }
    };
    let root = &calendar.components[0];
    assert_eq!(root.component_type, Kind::VCalendar);
    let mut events = Vec::new();
    for &i in &root.component_ids {
        let c = &calendar.components[i as usize];
        assert_eq!(c.component_type, Kind::VEvent, "only events: {c:?}");
        let mut event = component(c);
        for &j in &c.component_ids {
            let alarm = &calendar.components[j as usize];
            assert_eq!(alarm.component_type, Kind::VAlarm, "{alarm:?}");
            event.alarms.push(component(alarm));
        }
        events.push(event);
    }
    Calendar {
        own: component(root),
        events,
    }
}

/// The feed's events as each parser read them, which must agree: sorted.
#[track_caller]
pub(super) fn events(text: &str) -> Vec<Event> {
    let read = |calendar: Calendar| -> Vec<Event> {
        let mut events: Vec<Event> = calendar.events.iter().map(Event::of).collect();
        events.sort();
        events
    };
    let by_ical = read(by_ical(text));
    let by_calcard = read(by_calcard(text));
    assert_eq!(by_ical, by_calcard, "the two parsers disagree on:\n{text}");
    by_ical
}

/// The UIDs of the feed's events, in the feed's order.
#[track_caller]
pub(super) fn uids(text: &str) -> Vec<String> {
    by_ical(text).events.iter().map(|e| e.one("UID")).collect()
}

/// The UIDs of a feed as a set.
#[track_caller]
pub(super) fn uid_set(text: &str) -> BTreeSet<String> {
    uids(text).into_iter().collect()
}

// ------------------------------------------------- the feed, as expected

/// `2026-03-31` as `20260331`.
pub(super) fn day(date: &str) -> String {
    date.replace('-', "")
}

/// The day after `date`, as `YYYYMMDD`.
pub(super) fn day_after(date: &str) -> String {
    let date: jiff::civil::Date = date.parse().unwrap();
    date.tomorrow().unwrap().strftime("%Y%m%d").to_string()
}

/// A record's `updated_at`, to the second, as `YYYYMMDDTHHMMSSZ`.
pub(super) fn second(record: &Value) -> String {
    let at: jiff::Timestamp = record["updated_at"].as_str().unwrap().parse().unwrap();
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

pub(super) fn alarms(minutes: Option<u16>) -> Vec<(String, String)> {
    minutes
        .map(|m| ("DISPLAY".to_owned(), format!("-PT{m}M")))
        .into_iter()
        .collect()
}

pub(super) fn description(record: &Value) -> Option<String> {
    record["description_text"]
        .as_str()
        .filter(|t| !t.trim().is_empty())
        .map(str::to_owned)
}

/// The event of an open task with a deadline.
pub(super) fn task_event(task: &Value, rrule: Option<&str>, alarm: Option<u16>) -> Event {
    let deadline = task["deadline_on"].as_str().unwrap();
    Event {
        uid: format!("{}-deadline@organiser", id(task)),
        start: day(deadline),
        end: day_after(deadline),
        summary: task["title"].as_str().unwrap().to_owned(),
        description: description(task),
        stamp: second(task),
        modified: second(task),
        rrule: rrule.map(rule),
        alarms: alarms(alarm),
    }
}

/// The event of a project's `start` or `deadline`.
pub(super) fn project_event(project: &Value, kind: &str, alarm: Option<u16>) -> Event {
    let field = if kind == "start" {
        "start_date"
    } else {
        "deadline"
    };
    let date = project[field].as_str().unwrap();
    Event {
        uid: format!("{}-{kind}@organiser", id(project)),
        start: day(date),
        end: day_after(date),
        summary: format!("{}: {kind}", project["name"].as_str().unwrap()),
        description: description(project),
        stamp: second(project),
        modified: second(project),
        rrule: None,
        alarms: alarms(alarm),
    }
}

/// The event of a person's key date `date` (its id) on `on`: one UID with
/// a yearly rule, or (`year`) one a year.
pub(super) fn key_date_event(
    person: &Value,
    date: &Value,
    summary: &str,
    on: &str,
    year: Option<i16>,
    alarm: Option<u16>,
) -> Event {
    Event {
        uid: match year {
            None => format!("{}@organiser", id(date)),
            Some(year) => format!("{}-{year}@organiser", id(date)),
        },
        start: day(on),
        end: day_after(on),
        summary: summary.to_owned(),
        description: None,
        stamp: second(person),
        modified: second(person),
        rrule: year.is_none().then(|| rule("FREQ=YEARLY")),
        alarms: alarms(alarm),
    }
}

/// The key date of `person` of `kind`.
#[track_caller]
pub(super) fn key_date<'a>(person: &'a Value, kind: &str) -> &'a Value {
    person["key_dates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {person}"))
}

pub(super) fn sorted(mut events: Vec<Event>) -> Vec<Event> {
    events.sort();
    events
}
