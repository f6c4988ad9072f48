//! EXTENSIONS.md §2, "A calendar to subscribe to", in process: the
//! subscriptions' fields and every refusal (each under its field, and
//! changing nothing), the address shown only when made or rotated,
//! `last_read_at`, and the feed read back by two independent parsers
//! (`ical` and `calcard`) item by item against the records: UIDs, dates,
//! summaries, stamps, rules and alarms; 29 February; the filters and
//! `include`; folding and escaping; `ETag` and `If-None-Match`; rotation
//! and deletion stopping the address at once; and read-only mode still
//! serving the feed.
//!
//! The feed is read through the store's typed door
//! (`org.calendar_subscriptions().feed(..)`), and through
//! `Organiser::handle` as the server hands it a request at its root; what
//! only the server adds (the content type, 304 over the wire, the absolute
//! address, logs, rate limits) is tested over HTTP in `tests/http`.
//!
//! Today is Tuesday 2026-03-10 (UTC) unless a test moves the clock.

use std::collections::BTreeSet;

use jiff::SignedDuration;
use organiser::calendar_subscriptions::Feed;
use organiser::server::{Method, Request};
use organiser::{Auth, Error};
use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, id, new_list, new_task, patch_task, set_zone};
use crate::common::{Call, Core, Expect, Setup, check, licence_key, licence_signer, send};

const PATH: &str = "/calendar_subscriptions";

// ---------------------------------------------------------------- helpers

/// A licensed in-memory organiser (some tests move the clock past the
/// 14-day trial), at 2026-03-10T09:00:00Z, owner zone UTC.
fn start() -> Core {
    start_at(Setup::default().now)
}

/// [`start`] at `now`.
fn start_at(now: &'static str) -> Core {
    let mut setup = Setup {
        now,
        ..Setup::default()
    };
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = Core::with(setup);
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2099-01-01")})),
    )
    .expect(200);
    s
}

fn create(fields: Value) -> Call {
    Call::post(PATH, json!({ "calendar_subscription": fields }))
}

fn change(sub: &str, fields: Value) -> Call {
    Call::patch(
        format!("{PATH}/{sub}"),
        json!({ "calendar_subscription": fields }),
    )
}

/// Makes a subscription of `fields`; the record, with its `url`.
#[track_caller]
fn subscribe(s: &Core, fields: Value) -> Value {
    check(s, create(fields), Expect::status(201)).data().clone()
}

/// The last segment of a subscription's address, `<secret>.ics`.
fn file_of(sub: &Value) -> String {
    let url = sub["url"].as_str().expect("a url");
    url.rsplit('/').next().unwrap().to_owned()
}

/// The secret of a subscription's address.
fn secret_of(sub: &Value) -> String {
    file_of(sub).trim_end_matches(".ics").to_owned()
}

/// The feed at `file`, through the store's typed door.
fn fetch(s: &Core, file: &str, if_none_match: Option<&str>) -> organiser::Result<Feed> {
    s.org.calendar_subscriptions().feed(file, if_none_match)
}

/// The feed of `sub` (which must answer 200): its entity tag and text.
#[track_caller]
fn feed(s: &Core, sub: &Value) -> (String, String) {
    match fetch(s, &file_of(sub), None) {
        Ok(Feed::Calendar { etag, body }) => (etag, body),
        other => panic!("the feed of {}: {other:?}", sub["id"]),
    }
}

/// The text of `sub`'s feed.
#[track_caller]
fn body(s: &Core, sub: &Value) -> String {
    feed(s, sub).1
}

/// The feed at `/ics/{file}` as the server hands it to the core: a GET at
/// its root, without credentials.
fn at_root(s: &Core, file: &str) -> organiser::server::Response {
    let mut request = Request::new(Method::Get, format!("/ics/{file}"), Auth::Anonymous);
    request.at_root = true;
    s.org.handle(&request)
}

/// Makes a person of `fields`; the record.
#[track_caller]
fn new_person(s: &Core, fields: Value) -> Value {
    s.post("/people", json!({ "person": fields }))
        .expect(201)
        .data()
        .clone()
}

/// Makes a project of `fields`; the record.
#[track_caller]
fn new_project(s: &Core, fields: Value) -> Value {
    s.post("/projects", json!({ "project": fields }))
        .expect(201)
        .data()
        .clone()
}

/// Moves the clock on by `millis` milliseconds (so that records' times
/// have fractions of a second the feed must drop).
fn tick(s: &Core, millis: i64) {
    s.clock.advance(SignedDuration::from_millis(millis));
}

// ------------------------------------------------- the feed, as read back

/// One property of a component as a parser read it: its name, its `VALUE`
/// parameter, and its value as text (a TEXT value unescaped).
#[derive(Debug, Clone)]
struct Prop {
    name: String,
    value_type: Option<String>,
    value: String,
}

/// A component as a parser read it: its properties and its alarms.
#[derive(Debug, Clone, Default)]
struct Component {
    props: Vec<Prop>,
    alarms: Vec<Component>,
}

impl Component {
    /// The properties named `name`.
    fn all(&self, name: &str) -> Vec<&Prop> {
        self.props.iter().filter(|p| p.name == name).collect()
    }

    /// The value of the one property `name`, if there is one.
    #[track_caller]
    fn get(&self, name: &str) -> Option<String> {
        let found = self.all(name);
        assert!(found.len() <= 1, "{name} more than once: {self:?}");
        found.first().map(|p| p.value.clone())
    }

    /// The value of the one property `name`, which must be there.
    #[track_caller]
    fn one(&self, name: &str) -> String {
        self.get(name)
            .unwrap_or_else(|| panic!("no {name} in {self:?}"))
    }

    /// The one `VALUE=DATE` property `name`, as `YYYYMMDD`.
    #[track_caller]
    fn date(&self, name: &str) -> String {
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
struct Calendar {
    own: Component,
    events: Vec<Component>,
}

/// What the tests compare of an event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Event {
    uid: String,
    /// `DTSTART` and `DTEND`, both `VALUE=DATE`, as `YYYYMMDD`.
    start: String,
    end: String,
    summary: String,
    description: Option<String>,
    /// `DTSTAMP` and `LAST-MODIFIED`, as `YYYYMMDDTHHMMSSZ`.
    stamp: String,
    modified: String,
    /// The `RRULE`'s parts, sorted (the parsers write them in their own
    /// orders).
    rrule: Option<Vec<String>>,
    /// Each `VALARM`'s `ACTION` and `TRIGGER`.
    alarms: Vec<(String, String)>,
}

impl Event {
    #[track_caller]
    fn of(c: &Component) -> Event {
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
fn rule(text: &str) -> Vec<String> {
    let mut parts: Vec<String> = text.split(';').map(str::to_owned).collect();
    parts.sort();
    parts
}

/// An RFC 5545 TEXT value with its escapes undone (`ical` leaves them).
fn unescape(value: &str) -> String {
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
const TEXT: &[&str] = &["UID", "SUMMARY", "DESCRIPTION", "X-WR-CALNAME"];

/// The feed read by the `ical` crate. Its line reader drops the spaces
/// that end a folded piece, so the text is unfolded first, as RFC 5545
/// §3.1 says (the core's own iCalendar import does the same).
#[track_caller]
fn by_ical(text: &str) -> Calendar {
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
fn calcard_text(value: &calcard::icalendar::ICalendarValue) -> String {
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
fn by_calcard(text: &str) -> Calendar {
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
fn events(text: &str) -> Vec<Event> {
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
fn uids(text: &str) -> Vec<String> {
    by_ical(text).events.iter().map(|e| e.one("UID")).collect()
}

/// The UIDs of a feed as a set.
#[track_caller]
fn uid_set(text: &str) -> BTreeSet<String> {
    uids(text).into_iter().collect()
}

// ------------------------------------------------- the feed, as expected

/// `2026-03-31` as `20260331`.
fn day(date: &str) -> String {
    date.replace('-', "")
}

/// The day after `date`, as `YYYYMMDD`.
fn day_after(date: &str) -> String {
    let date: jiff::civil::Date = date.parse().unwrap();
    date.tomorrow().unwrap().strftime("%Y%m%d").to_string()
}

/// A record's `updated_at`, to the second, as `YYYYMMDDTHHMMSSZ`.
fn second(record: &Value) -> String {
    let at: jiff::Timestamp = record["updated_at"].as_str().unwrap().parse().unwrap();
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

fn alarms(minutes: Option<u16>) -> Vec<(String, String)> {
    minutes
        .map(|m| ("DISPLAY".to_owned(), format!("-PT{m}M")))
        .into_iter()
        .collect()
}

fn description(record: &Value) -> Option<String> {
    record["description_text"]
        .as_str()
        .filter(|t| !t.trim().is_empty())
        .map(str::to_owned)
}

/// The event of an open task with a deadline.
fn task_event(task: &Value, rrule: Option<&str>, alarm: Option<u16>) -> Event {
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
fn project_event(project: &Value, kind: &str, alarm: Option<u16>) -> Event {
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
fn key_date_event(
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
fn key_date<'a>(person: &'a Value, kind: &str) -> &'a Value {
    person["key_dates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in {person}"))
}

fn sorted(mut events: Vec<Event>) -> Vec<Event> {
    events.sort();
    events
}

// ------------------------------------------------- fields and refusals

/// Every refusal the contract names, each 422 under its field; a request
/// with several mistakes names each; a body that is not the record is
/// 400; and nothing is made.
#[test]
fn create_refuses_each_mistake_under_its_field_and_changes_nothing() {
    let s = start();
    let list = new_list(&s, "Home");
    let gone_list = new_list(&s, "Gone");
    s.delete(&format!("/task_lists/{gone_list}")).expect(204);
    let project = id(&new_project(&s, json!({"name": "Roof"})));
    let gone_project = id(&new_project(&s, json!({"name": "Gone"})));
    s.delete(&format!("/projects/{gone_project}")).expect(204);
    let cases = [
        // name: blank, too long, not a string.
        (json!({"name": ""}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"name": "\u{200b}"}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "ü".repeat(101)}), "name"),
        (json!({"name": 12}), "name"),
        (json!({"name": true}), "name"),
        (json!({"name": ["Organiser"]}), "name"),
        (json!({"name": "Clear\u{1b}[2J"}), "name"),
        // include: empty, an unknown word, not an array of words.
        (json!({"include": []}), "include"),
        (json!({"include": ["tasks", "birthdays"]}), "include"),
        (json!({"include": ["Tasks"]}), "include"),
        (json!({"include": "tasks"}), "include"),
        (json!({"include": {"tasks": true}}), "include"),
        (json!({"include": [1]}), "include"),
        (json!({"include": [null]}), "include"),
        (json!({"include": null}), "include"),
        // task_list_ids: an unknown or deleted list, not ids.
        (json!({"task_list_ids": [UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": [list, UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": [gone_list]}), "task_list_ids"),
        (json!({"task_list_ids": [project]}), "task_list_ids"),
        (json!({"task_list_ids": ["not-an-id"]}), "task_list_ids"),
        (json!({"task_list_ids": [12]}), "task_list_ids"),
        (json!({"task_list_ids": list}), "task_list_ids"),
        (json!({"task_list_ids": {}}), "task_list_ids"),
        // project_ids: the same.
        (json!({"project_ids": [UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [project, UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [gone_project]}), "project_ids"),
        (json!({"project_ids": [list]}), "project_ids"),
        (json!({"project_ids": ["nope"]}), "project_ids"),
        (json!({"project_ids": [null]}), "project_ids"),
        (json!({"project_ids": 5}), "project_ids"),
        // alarm_minutes: out of 0..=10080, not a whole number.
        (json!({"alarm_minutes": -1}), "alarm_minutes"),
        (json!({"alarm_minutes": 10081}), "alarm_minutes"),
        (json!({"alarm_minutes": 65536}), "alarm_minutes"),
        (
            json!({"alarm_minutes": 100_000_000_000_i64}),
            "alarm_minutes",
        ),
        (json!({"alarm_minutes": 1.5}), "alarm_minutes"),
        (json!({"alarm_minutes": "15"}), "alarm_minutes"),
        (json!({"alarm_minutes": true}), "alarm_minutes"),
        (json!({"alarm_minutes": [15]}), "alarm_minutes"),
        // One mistake among good fields is still refused whole.
        (
            json!({"name": "Phone", "include": ["tasks"], "alarm_minutes": -5}),
            "alarm_minutes",
        ),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    // Every mistake of one request, each under its field: of the types,
    // or (the types right) of the rules.
    for fields in [
        json!({"name": 1, "include": "tasks", "task_list_ids": 2,
               "project_ids": ["x"], "alarm_minutes": "soon"}),
        json!({"name": "", "include": [], "task_list_ids": [UNKNOWN],
               "project_ids": [UNKNOWN], "alarm_minutes": 10081}),
    ] {
        let reply = check(&s, create(fields.clone()), Expect::invalid("name"));
        let mut keys = reply.detail_keys();
        keys.sort();
        assert_eq!(
            keys,
            [
                "alarm_minutes",
                "include",
                "name",
                "project_ids",
                "task_list_ids"
            ],
            "{fields}"
        );
    }
    // A body that is not the record.
    for body in [
        json!({"calendar_subscription": "Phone"}),
        json!({"calendar_subscription": ["tasks"]}),
    ] {
        check(
            &s,
            Call::post(PATH, body),
            Expect::error(400, "invalid_json", None),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing was made");
    assert_eq!(s.get(PATH).expect(200).data(), &json!([]));
}

/// The same refusals of a change, which leave the subscription as it was
/// (and its address serving).
#[test]
fn change_refuses_each_mistake_and_changes_nothing() {
    let s = start();
    let sub = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 15}));
    let path = format!("{PATH}/{}", id(&sub));
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": 3}), "name"),
        (json!({"include": []}), "include"),
        (json!({"include": ["notes"]}), "include"),
        (json!({"include": null}), "include"),
        (json!({"include": "projects"}), "include"),
        (json!({"task_list_ids": [UNKNOWN]}), "task_list_ids"),
        (json!({"task_list_ids": "x"}), "task_list_ids"),
        (json!({"project_ids": [UNKNOWN]}), "project_ids"),
        (json!({"project_ids": [1]}), "project_ids"),
        (json!({"alarm_minutes": -1}), "alarm_minutes"),
        (json!({"alarm_minutes": 10081}), "alarm_minutes"),
        (json!({"alarm_minutes": "soon"}), "alarm_minutes"),
        (
            json!({"name": "Fine", "alarm_minutes": 0.5}),
            "alarm_minutes",
        ),
    ];
    s.advance(10);
    let before = s.org.raw_export().unwrap();
    let feed_before = feed(&s, &sub);
    for (fields, detail) in cases {
        check(
            &s,
            change(&id(&sub), fields.clone()),
            Expect::invalid(detail),
        );
        check(
            &s,
            Call::put(path.clone(), json!({ "calendar_subscription": fields })),
            Expect::invalid(detail),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    assert_eq!(feed(&s, &sub), feed_before, "the feed is as it was");
    // An unknown or malformed id is 404, whatever the body.
    for sub in [UNKNOWN, "nope"] {
        for call in [
            Call::get(format!("{PATH}/{sub}")),
            change(sub, json!({"name": "X"})),
            change(sub, json!({"name": ""})),
            Call::delete(format!("{PATH}/{sub}")),
            Call::post(format!("{PATH}/{sub}/rotation"), json!({})),
        ] {
            check(&s, call, Expect::error(404, "not_found", None));
        }
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
}

/// The defaults (`Organiser`, all three kinds, no limits, no alarm), the
/// values kept as the contract says (squished name, kinds each once in
/// their order, ids each once), and the address: relative in process,
/// shown by create only, never by list or get.
#[test]
fn a_subscription_has_its_defaults_and_its_address_is_shown_once() {
    let s = start();
    let made = subscribe(&s, json!({}));
    let url = made["url"].as_str().unwrap();
    let secret = secret_of(&made);
    assert_eq!(url, format!("/ics/{secret}.ics"));
    assert!(
        secret.len() >= 43
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{secret}: 32 random bytes, URL-safe"
    );
    let mut shown = made.clone();
    shown.as_object_mut().unwrap().remove("url");
    assert_eq!(
        shown,
        json!({
            "id": id(&made),
            "name": "Organiser",
            "include": ["tasks", "projects", "key_dates"],
            "task_list_ids": null,
            "project_ids": null,
            "alarm_minutes": null,
            "last_read_at": null,
            "created_at": "2026-03-10T09:00:00.000Z",
            "updated_at": "2026-03-10T09:00:00.000Z",
        })
    );
    // Get and list show it without its address.
    let got = s.get(&format!("{PATH}/{}", id(&made))).expect(200);
    assert_eq!(got.data(), &shown);
    assert!(got.data().get("url").is_none());
    assert_eq!(s.get(PATH).expect(200).data(), &json!([shown]));
    // No body at all is the defaults too.
    s.advance(1);
    let bare = check(&s, Call::new("POST", PATH), Expect::status(201));
    assert_eq!(bare.data()["name"], "Organiser");
    assert_ne!(bare.data()["url"], made["url"], "each its own address");

    // Every field sent, kept as the contract says.
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    let p = id(&new_project(&s, json!({"name": "P"})));
    s.advance(1);
    let full = subscribe(
        &s,
        json!({
            "name": "  My   phone  ",
            "include": ["key_dates", "tasks", "key_dates"],
            "task_list_ids": [b, a, b],
            "project_ids": [p, p],
            "alarm_minutes": 10080,
        }),
    );
    assert_eq!(full["name"], "My phone");
    assert_eq!(full["include"], json!(["tasks", "key_dates"]));
    assert_eq!(full["task_list_ids"], json!([b, a]));
    assert_eq!(full["project_ids"], json!([p]));
    assert_eq!(full["alarm_minutes"], 10080);
    assert_eq!(full["created_at"], "2026-03-10T09:00:02.000Z");
    // The limits and the longest name are allowed.
    for fields in [
        json!({"alarm_minutes": 0}),
        json!({"name": "n".repeat(100)}),
        json!({"name": "ü".repeat(100)}),
        json!({"task_list_ids": [], "project_ids": []}),
        json!({"task_list_ids": null, "project_ids": null, "alarm_minutes": null}),
        json!({"alarm_minutes": 15.0}),
    ] {
        subscribe(&s, fields);
    }
    // The list is in creation order, and never shows an address.
    let listed = s.get(PATH).expect(200);
    let listed = listed.data().as_array().unwrap();
    assert_eq!(listed.len(), 9);
    assert_eq!(id(&listed[0]), id(&made));
    assert_eq!(id(&listed[2]), id(&full));
    assert!(listed.iter().all(|sub| sub.get("url").is_none()));
}

/// A change changes only the fields sent (PUT is PATCH) and keeps the
/// address; a change that changes nothing keeps `updated_at`; null clears
/// the limits and the alarm.
#[test]
fn a_change_changes_the_fields_sent_and_keeps_the_address() {
    let s = start();
    let list = new_list(&s, "Home");
    let sub = subscribe(
        &s,
        json!({"name": "Phone", "task_list_ids": [list], "alarm_minutes": 15}),
    );
    let (etag, _) = feed(&s, &sub);
    s.advance(60);
    let changed = check(
        &s,
        change(&id(&sub), json!({"name": "Tablet"})),
        Expect::status(200),
    );
    let changed = changed.data();
    assert_eq!(changed["name"], "Tablet");
    assert_eq!(changed["task_list_ids"], json!([list]));
    assert_eq!(changed["alarm_minutes"], 15);
    assert_eq!(changed["updated_at"], "2026-03-10T09:01:00.000Z");
    assert!(
        changed.get("url").is_none(),
        "the address is not shown again"
    );
    // The same address serves the changed calendar.
    let (etag2, text) = feed(&s, &sub);
    assert_ne!(etag2, etag);
    assert_eq!(by_ical(&text).own.one("X-WR-CALNAME"), "Tablet");
    // Nothing to change: updated_at stays.
    s.advance(60);
    let same = s
        .put(
            &format!("{PATH}/{}", id(&sub)),
            json!({"calendar_subscription": {"name": " Tablet ", "alarm_minutes": 15}}),
        )
        .expect(200);
    assert_eq!(same.data()["updated_at"], "2026-03-10T09:01:00.000Z");
    // Null clears.
    let cleared = s
        .patch(
            &format!("{PATH}/{}", id(&sub)),
            json!({"calendar_subscription": {"task_list_ids": null, "alarm_minutes": null}}),
        )
        .expect(200);
    assert_eq!(cleared.data()["task_list_ids"], Value::Null);
    assert_eq!(cleared.data()["alarm_minutes"], Value::Null);
    assert_eq!(cleared.data()["updated_at"], "2026-03-10T09:02:00.000Z");
    assert_eq!(
        s.get(&format!("{PATH}/{}", id(&sub))).expect(200).data(),
        cleared.data()
    );
}

/// `last_read_at`: null until the feed is read; then the time of the
/// read, moving at most once a minute; a refused read (unknown address)
/// moves nothing.
#[test]
fn last_read_at_moves_at_most_once_a_minute() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let other = subscribe(&s, json!({"name": "Other"}));
    let path = format!("{PATH}/{}", id(&sub));
    let last_read = |s: &Core| s.get(&path).expect(200).data()["last_read_at"].clone();
    assert_eq!(last_read(&s), Value::Null);
    s.advance(5);
    feed(&s, &sub);
    assert_eq!(last_read(&s), "2026-03-10T09:00:05.000Z");
    s.advance(30);
    feed(&s, &sub);
    assert_eq!(
        last_read(&s),
        "2026-03-10T09:00:05.000Z",
        "within the minute"
    );
    s.advance(30);
    feed(&s, &sub);
    assert_eq!(last_read(&s), "2026-03-10T09:01:05.000Z");
    // The list says the same; the other subscription was never read.
    let listed = s.get(PATH).expect(200);
    assert_eq!(listed.data()[0]["last_read_at"], "2026-03-10T09:01:05.000Z");
    assert_eq!(listed.data()[1]["last_read_at"], Value::Null);
    assert_eq!(id(&listed.data()[1]), id(&other));
    // A 304 is a read too.
    s.advance(120);
    let (etag, _) = feed(&s, &sub);
    s.advance(120);
    assert!(matches!(
        fetch(&s, &file_of(&sub), Some(&etag)),
        Ok(Feed::NotModified { .. })
    ));
    assert_eq!(last_read(&s), "2026-03-10T09:05:05.000Z");
    // A refused read moves nothing.
    s.advance(120);
    assert!(matches!(
        fetch(&s, &format!("{}x.ics", secret_of(&sub)), None),
        Err(Error::NotFound)
    ));
    assert_eq!(last_read(&s), "2026-03-10T09:05:05.000Z");
}

// ------------------------------------------------- the feed's content

/// The store of the feed tests, with times that have fractions of a
/// second: tasks (a plain deadline, a `from: due` series after a
/// completion, a `from: due` series on its last date, a `from:
/// completion` series, and what must not show), projects in every
/// status, and people with a dated birthday, a year-less birthday and a
/// 29 February date.
struct Store {
    plain: Value,
    weekly: Value,
    last: Value,
    after: Value,
    in_project: Value,
    planned: Value,
    active: Value,
    on_hold: Value,
    ada: Value,
    grace: Value,
    leap: Value,
}

fn store(s: &Core) -> Store {
    let list = new_list(s, "Home");
    tick(s, 250);
    let plain = new_task(
        s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31", "task_list_id": list,
               "description_html": "<p>To the landlord, by transfer</p>"}),
    );
    tick(s, 1250);
    // Weekly from 10 March, five dates: completed once, four remain.
    let first = new_task(
        s,
        json!({"title": "Water the plants", "deadline_on": "2026-03-10",
               "repeat": {"rule": "FREQ=WEEKLY;COUNT=5"}}),
    );
    tick(s, 1500);
    let closed = patch_task(s, &id(&first), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let weekly = s
        .get(&format!(
            "/tasks/{}",
            closed["next_task_id"].as_str().unwrap()
        ))
        .expect(200)
        .data()
        .clone();
    assert_eq!(weekly["deadline_on"], "2026-03-17");
    tick(s, 700);
    // Two dates, one completed: the open one is the last.
    let two = new_task(
        s,
        json!({"title": "Dentist", "deadline_on": "2026-03-09",
               "repeat": {"rule": "FREQ=MONTHLY;COUNT=2"}}),
    );
    let closed = patch_task(s, &id(&two), json!({"status": "completed"}))
        .expect(200)
        .data()
        .clone();
    let last = s
        .get(&format!(
            "/tasks/{}",
            closed["next_task_id"].as_str().unwrap()
        ))
        .expect(200)
        .data()
        .clone();
    assert_eq!(last["deadline_on"], "2026-04-09");
    tick(s, 300);
    let after = new_task(
        s,
        json!({"title": "Descale the kettle", "deadline_on": "2026-03-12",
               "repeat": {"rule": "FREQ=DAILY;INTERVAL=10", "from": "completion"}}),
    );
    tick(s, 1100);
    // Not in the feed: no deadline; closed; won't do.
    new_task(s, json!({"title": "Someday", "start_on": "2026-03-20"}));
    let done = new_task(s, json!({"title": "Done", "deadline_on": "2026-03-11"}));
    patch_task(s, &id(&done), json!({"status": "completed"})).expect(200);
    let dropped = new_task(s, json!({"title": "Dropped", "deadline_on": "2026-03-11"}));
    patch_task(s, &id(&dropped), json!({"status": "wont_do"})).expect(200);

    tick(s, 2400);
    let planned = new_project(
        s,
        json!({"name": "Kitchen", "status": "planned", "start_date": "2026-04-01",
               "deadline": "2026-06-30", "description_html": "<p>New worktops</p>"}),
    );
    tick(s, 10);
    let active = new_project(
        s,
        json!({"name": "Garden", "status": "active", "start_date": "2026-03-01",
               "deadline": "2026-03-20"}),
    );
    tick(s, 990);
    let on_hold = new_project(
        s,
        json!({"name": "Attic", "status": "on_hold", "deadline": "2026-05-05"}),
    );
    let in_project = new_task(
        s,
        json!({"title": "Order seeds", "deadline_on": "2026-03-15", "project_id": id(&active)}),
    );
    // Not in the feed: done, cancelled, and undated.
    new_project(
        s,
        json!({"name": "Old roof", "status": "done", "start_date": "2026-01-01",
               "deadline": "2026-03-30"}),
    );
    new_project(
        s,
        json!({"name": "Boat", "status": "cancelled", "deadline": "2026-04-30"}),
    );
    new_project(s, json!({"name": "Undated", "status": "active"}));

    tick(s, 3333);
    let ada = new_person(
        s,
        json!({"name": "Ada Lovelace",
               "key_dates": [{"kind": "birthday", "day": 10, "month": 12, "year": 1915}]}),
    );
    tick(s, 1001);
    let grace = new_person(
        s,
        json!({"name": "Grace Hopper",
               "key_dates": [{"kind": "birthday", "day": 15, "month": 3}]}),
    );
    tick(s, 999);
    let leap = new_person(
        s,
        json!({"name": "Leap Person",
               "key_dates": [{"kind": "birthday", "day": 29, "month": 2, "year": 2000}]}),
    );
    // A person with no key date gives nothing.
    new_person(s, json!({"name": "Nobody"}));
    tick(s, 1999);
    // As they stand now (a task added to a project may touch it).
    let again = |kind: &str, record: &Value| {
        s.get(&format!("/{kind}/{}", id(record)))
            .expect(200)
            .data()
            .clone()
    };
    let (plain, weekly, last, after, in_project) = (
        again("tasks", &plain),
        again("tasks", &weekly),
        again("tasks", &last),
        again("tasks", &after),
        again("tasks", &in_project),
    );
    let (planned, active, on_hold) = (
        again("projects", &planned),
        again("projects", &active),
        again("projects", &on_hold),
    );
    let (ada, grace, leap) = (
        again("people", &ada),
        again("people", &grace),
        again("people", &leap),
    );
    Store {
        plain,
        weekly,
        last,
        after,
        in_project,
        planned,
        active,
        on_hold,
        ada,
        grace,
        leap,
    }
}

/// Every item of [`store`]'s feed, with `alarm`.
fn expected(st: &Store, alarm: Option<u16>) -> Vec<Event> {
    let leap_date = key_date(&st.leap, "birthday");
    let leap = "Leap Person's birthday";
    sorted(vec![
        task_event(&st.plain, None, alarm),
        task_event(&st.weekly, Some("FREQ=WEEKLY;COUNT=4"), alarm),
        task_event(&st.last, None, alarm),
        task_event(&st.after, None, alarm),
        task_event(&st.in_project, None, alarm),
        project_event(&st.planned, "start", alarm),
        project_event(&st.planned, "deadline", alarm),
        project_event(&st.active, "start", alarm),
        project_event(&st.active, "deadline", alarm),
        project_event(&st.on_hold, "deadline", alarm),
        key_date_event(
            &st.ada,
            key_date(&st.ada, "birthday"),
            "Ada Lovelace's birthday",
            "1915-12-10",
            None,
            alarm,
        ),
        // A year-less date from last year.
        key_date_event(
            &st.grace,
            key_date(&st.grace, "birthday"),
            "Grace Hopper's birthday",
            "2025-03-15",
            None,
            alarm,
        ),
        // 29 February: one a year, last year to three years ahead, on
        // 1 March in a common year.
        key_date_event(&st.leap, leap_date, leap, "2025-03-01", Some(2025), alarm),
        key_date_event(&st.leap, leap_date, leap, "2026-03-01", Some(2026), alarm),
        key_date_event(&st.leap, leap_date, leap, "2027-03-01", Some(2027), alarm),
        key_date_event(&st.leap, leap_date, leap, "2028-02-29", Some(2028), alarm),
        key_date_event(&st.leap, leap_date, leap, "2029-03-01", Some(2029), alarm),
    ])
}

/// The feed read back by `ical` and by `calcard` says what the records
/// say, item by item: UID, all-day DTSTART and DTEND, SUMMARY, DTSTAMP and
/// LAST-MODIFIED (`updated_at` to the second), RRULE (a `from: due`
/// series' rule from its open occurrence with COUNT reduced, none on its
/// last date or for `from: completion`), and a VALARM of `alarm_minutes`;
/// closed tasks, undated ones, and done or cancelled projects are not in
/// it; and the calendar's own properties.
#[test]
fn the_feed_read_back_by_two_parsers_says_what_the_records_say() {
    let s = start();
    let st = store(&s);
    let with_alarm = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 30}));
    let without = subscribe(&s, json!({}));
    let text = body(&s, &with_alarm);
    assert_eq!(events(&text), expected(&st, Some(30)), "{text}");
    assert_eq!(events(&body(&s, &without)), expected(&st, None));
    // The calendar's own properties, as both parsers read them.
    for calendar in [by_ical(&text), by_calcard(&text)] {
        let own = &calendar.own;
        assert_eq!(own.one("VERSION"), "2.0");
        assert!(own.one("PRODID").contains("Organiser"), "{own:?}");
        assert_eq!(own.one("CALSCALE"), "GREGORIAN");
        assert_eq!(own.one("METHOD"), "PUBLISH");
        assert_eq!(own.one("X-WR-CALNAME"), "Phone");
        assert_eq!(own.one("X-WR-TIMEZONE"), "Etc/UTC");
        assert_eq!(own.one("REFRESH-INTERVAL"), "PT1H");
        assert_eq!(own.one("X-PUBLISHED-TTL"), "PT1H");
    }
    // An alarm of 0 minutes is at the start.
    let at_start = subscribe(&s, json!({"alarm_minutes": 0}));
    let text = body(&s, &at_start);
    assert_eq!(text.matches("TRIGGER:-PT0M\r\n").count(), 17, "{text}");
    assert_eq!(text.matches("ACTION:DISPLAY\r\n").count(), 17);
    // The items come in a fixed order: deadlines by date, projects by
    // date, key dates by month and day.
    let order = uids(&body(&s, &without));
    let task_uid = |t: &Value| format!("{}-deadline@organiser", id(t));
    assert_eq!(
        order[..5],
        [
            task_uid(&st.after),
            task_uid(&st.in_project),
            task_uid(&st.weekly),
            task_uid(&st.plain),
            task_uid(&st.last),
        ]
    );
}

/// The feed is in the owner's zone: `X-WR-TIMEZONE`, and "this year" (of
/// the 29 February dates, and of a year-less date's first event) is the
/// owner's.
#[test]
fn the_years_are_the_owners() {
    // New Year's Day in Tokyo, still 2026 in London.
    let s = start_at("2026-12-31T20:00:00Z");
    set_zone(&s, "Tokyo");
    let leap = new_person(
        &s,
        json!({"name": "Leap", "key_dates": [{"kind": "anniversary", "day": 29, "month": 2}]}),
    );
    let grace = new_person(
        &s,
        json!({"name": "Grace", "key_dates": [{"kind": "birthday", "day": 15, "month": 3}]}),
    );
    let sub = subscribe(&s, json!({}));
    let text = body(&s, &sub);
    assert_eq!(by_ical(&text).own.one("X-WR-TIMEZONE"), "Asia/Tokyo");
    assert_eq!(by_calcard(&text).own.one("X-WR-TIMEZONE"), "Asia/Tokyo");
    let date = key_date(&leap, "anniversary");
    let summary = "Leap's anniversary";
    assert_eq!(
        events(&text),
        sorted(vec![
            key_date_event(&leap, date, summary, "2026-03-01", Some(2026), None),
            key_date_event(&leap, date, summary, "2027-03-01", Some(2027), None),
            key_date_event(&leap, date, summary, "2028-02-29", Some(2028), None),
            key_date_event(&leap, date, summary, "2029-03-01", Some(2029), None),
            key_date_event(&leap, date, summary, "2030-03-01", Some(2030), None),
            key_date_event(
                &grace,
                key_date(&grace, "birthday"),
                "Grace's birthday",
                "2026-03-15",
                None,
                None
            ),
        ])
    );
    // Back in London it is 2026 again: the years move back.
    set_zone(&s, "London");
    let text = body(&s, &sub);
    assert!(uid_set(&text).contains(&format!("{}-2025@organiser", id(date))));
    assert!(!uid_set(&text).contains(&format!("{}-2030@organiser", id(date))));
}

/// 29 February in a leap year and around it: on 29 February in 2028
/// and on 1 March in the years around; a date born in a year is shown
/// from that year only.
#[test]
fn the_29th_of_february_is_on_the_1st_of_march_in_common_years() {
    let s = start_at("2024-03-10T09:00:00Z");
    let born = new_person(
        &s,
        json!({"name": "Born", "key_dates": [{"kind": "birthday", "day": 29, "month": 2, "year": 2024}]}),
    );
    let sub = subscribe(&s, json!({"include": ["key_dates"]}));
    let date = key_date(&born, "birthday");
    let summary = "Born's birthday";
    let at = |on: &str, year: i16| key_date_event(&born, date, summary, on, Some(year), None);
    // 2023 is before the birth.
    assert_eq!(
        events(&body(&s, &sub)),
        sorted(vec![
            at("2024-02-29", 2024),
            at("2025-03-01", 2025),
            at("2026-03-01", 2026),
            at("2027-03-01", 2027),
        ])
    );
    // Four years on (the licence runs to 2099): 2027 to 2031.
    s.clock.set("2028-01-15T09:00:00Z".parse().unwrap());
    assert_eq!(
        events(&body(&s, &sub)),
        sorted(vec![
            at("2027-03-01", 2027),
            at("2028-02-29", 2028),
            at("2029-03-01", 2029),
            at("2030-03-01", 2030),
            at("2031-03-01", 2031),
        ])
    );
}

/// Every UID is stable: the same across reads, across edits of other
/// records, and across edits of the record itself (its title, its date,
/// a person's name).
#[test]
fn uids_are_stable_across_reads_and_edits() {
    let s = start();
    let st = store(&s);
    let sub = subscribe(&s, json!({}));
    let first = body(&s, &sub);
    let again = body(&s, &sub);
    assert_eq!(first, again, "the same bytes twice");
    let before = uids(&first);
    assert_eq!(before.len(), 17);
    // An unrelated edit: a task without a deadline, a note.
    s.advance(60);
    new_task(&s, json!({"title": "Unrelated"}));
    s.post("/notes", json!({"note": {"body_html": "<p>Hi</p>"}}))
        .expect(201);
    assert_eq!(body(&s, &sub), first, "nothing in the feed changed");
    // Edits of the records themselves keep their UIDs.
    patch_task(&s, &id(&st.plain), json!({"title": "Pay the rent"})).expect(200);
    // From 12 to 16 March: past the task due on the 15th.
    patch_task(&s, &id(&st.after), json!({"deadline_on": "2026-03-16"})).expect(200);
    s.patch(
        &format!("/people/{}", id(&st.ada)),
        json!({"person": {"name": "Ada King"}}),
    )
    .expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.planned)),
        json!({"project": {"name": "Kitchen and hall"}}),
    )
    .expect(200);
    let edited = body(&s, &sub);
    assert_ne!(edited, first);
    assert_eq!(uids(&edited), {
        // The moved deadline moves its event among the tasks.
        let mut moved = before.clone();
        let uid = format!("{}-deadline@organiser", id(&st.after));
        let at = moved.iter().position(|u| *u == uid).unwrap();
        moved.remove(at);
        moved.insert(at + 1, uid);
        moved
    });
    let read = events(&edited);
    let ada = read
        .iter()
        .find(|e| e.uid.starts_with(&id(key_date(&st.ada, "birthday"))))
        .unwrap();
    assert_eq!(ada.summary, "Ada King's birthday");
    assert_eq!(
        ada.stamp,
        second(&s.get(&format!("/people/{}", id(&st.ada))).data().clone())
    );
}

/// `task_list_ids` and `project_ids`: a task is in the feed when both are
/// null or its home is one they name (so the Inbox's tasks are not, once
/// either is set); a project's dates when `project_ids` is null or names
/// it.
#[test]
fn the_filters_choose_lists_and_projects() {
    let s = start();
    let a = new_list(&s, "A");
    let b = new_list(&s, "B");
    let p = new_project(&s, json!({"name": "P", "deadline": "2026-04-01"}));
    let q = new_project(&s, json!({"name": "Q", "start_date": "2026-04-02"}));
    let task = |title: &str, home: Value| {
        let mut fields = json!({"title": title, "deadline_on": "2026-03-20"});
        fields
            .as_object_mut()
            .unwrap()
            .extend(home.as_object().unwrap().clone());
        format!("{}-deadline@organiser", id(&new_task(&s, fields)))
    };
    let inbox = task("inbox", json!({}));
    let in_a = task("a", json!({"task_list_id": a}));
    let in_b = task("b", json!({"task_list_id": b}));
    let in_p = task("p", json!({"project_id": id(&p)}));
    let in_q = task("q", json!({"project_id": id(&q)}));
    let p_deadline = format!("{}-deadline@organiser", id(&p));
    let q_start = format!("{}-start@organiser", id(&q));
    let set =
        |uids: &[&String]| -> BTreeSet<String> { uids.iter().map(|u| (*u).clone()).collect() };
    let cases = [
        (
            json!({}),
            set(&[&inbox, &in_a, &in_b, &in_p, &in_q, &p_deadline, &q_start]),
        ),
        (
            json!({"task_list_ids": [a]}),
            set(&[&in_a, &p_deadline, &q_start]),
        ),
        (
            json!({"task_list_ids": [a, b]}),
            set(&[&in_a, &in_b, &p_deadline, &q_start]),
        ),
        (json!({"project_ids": [id(&p)]}), set(&[&in_p, &p_deadline])),
        (
            json!({"task_list_ids": [b], "project_ids": [id(&q)]}),
            set(&[&in_b, &in_q, &q_start]),
        ),
        // Empty lists name nothing.
        (json!({"task_list_ids": []}), set(&[&p_deadline, &q_start])),
        (json!({"task_list_ids": [], "project_ids": []}), set(&[])),
    ];
    for (fields, expected) in cases {
        let sub = subscribe(&s, fields.clone());
        assert_eq!(uid_set(&body(&s, &sub)), expected, "{fields}");
    }
    // A change of filter changes the same address's feed.
    let sub = subscribe(&s, json!({"task_list_ids": [a]}));
    s.patch(
        &format!("{PATH}/{}", id(&sub)),
        json!({"calendar_subscription": {"task_list_ids": null, "project_ids": [id(&q)]}}),
    )
    .expect(200);
    assert_eq!(uid_set(&body(&s, &sub)), set(&[&in_q, &q_start]));
    // A task moved into a named list joins the feed.
    patch_task(&s, &inbox[..26], json!({"project_id": id(&q)})).expect(200);
    assert_eq!(uid_set(&body(&s, &sub)), set(&[&inbox, &in_q, &q_start]));
}

/// `include` chooses the kinds of items.
#[test]
fn include_chooses_the_kinds_of_items() {
    let s = start();
    let st = store(&s);
    let all = expected(&st, None);
    let kinds = |e: &Event| {
        let head = &e.uid[..26];
        if [&st.planned, &st.active, &st.on_hold]
            .iter()
            .any(|p| id(p) == head)
        {
            "projects"
        } else if e.uid.ends_with("-deadline@organiser") {
            "tasks"
        } else {
            "key_dates"
        }
    };
    for include in [
        vec!["tasks"],
        vec!["projects"],
        vec!["key_dates"],
        vec!["tasks", "projects"],
        vec!["tasks", "key_dates"],
        vec!["projects", "key_dates"],
        vec!["tasks", "projects", "key_dates"],
    ] {
        let sub = subscribe(&s, json!({ "include": include }));
        let wanted: Vec<Event> = all
            .iter()
            .filter(|e| include.contains(&kinds(e)))
            .cloned()
            .collect();
        assert!(!wanted.is_empty());
        assert_eq!(events(&body(&s, &sub)), wanted, "{include:?}");
    }
}

/// A deleted task or person, a closed task and a finished project leave
/// the feed; restored, they come back with the same UIDs.
#[test]
fn deleted_and_closed_records_leave_the_feed() {
    let s = start();
    let st = store(&s);
    let sub = subscribe(&s, json!({}));
    let all = uid_set(&body(&s, &sub));
    let task_uid = format!("{}-deadline@organiser", id(&st.plain));
    let ada_uid = format!("{}@organiser", id(key_date(&st.ada, "birthday")));
    let leap_uids: BTreeSet<String> = all
        .iter()
        .filter(|u| u.starts_with(&id(key_date(&st.leap, "birthday"))))
        .cloned()
        .collect();
    assert_eq!(leap_uids.len(), 5);
    assert!(all.contains(&task_uid) && all.contains(&ada_uid));

    s.delete(&format!("/tasks/{}", id(&st.plain))).expect(204);
    s.delete(&format!("/people/{}", id(&st.ada))).expect(204);
    s.delete(&format!("/people/{}", id(&st.leap))).expect(204);
    let now = uid_set(&body(&s, &sub));
    assert!(!now.contains(&task_uid), "the deleted task is gone");
    assert!(!now.contains(&ada_uid), "the deleted person's date is gone");
    assert!(now.is_disjoint(&leap_uids));
    assert_eq!(now.len(), all.len() - 7);

    // Restored, they come back as they were.
    s.post(&format!("/tasks/{}/restoration", id(&st.plain)), json!({}))
        .expect(200);
    s.post(&format!("/people/{}/restoration", id(&st.ada)), json!({}))
        .expect(200);
    let back = uid_set(&body(&s, &sub));
    assert!(back.contains(&task_uid) && back.contains(&ada_uid));

    // Completed, won't do, and a project done or cancelled: gone too.
    patch_task(&s, &id(&st.in_project), json!({"status": "completed"})).expect(200);
    patch_task(&s, &id(&st.after), json!({"status": "wont_do"})).expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.planned)),
        json!({"project": {"status": "done"}}),
    )
    .expect(200);
    s.patch(
        &format!("/projects/{}", id(&st.on_hold)),
        json!({"project": {"status": "cancelled"}}),
    )
    .expect(200);
    let left = uid_set(&body(&s, &sub));
    for gone in [
        format!("{}-deadline@organiser", id(&st.in_project)),
        format!("{}-deadline@organiser", id(&st.after)),
        format!("{}-start@organiser", id(&st.planned)),
        format!("{}-deadline@organiser", id(&st.planned)),
        format!("{}-deadline@organiser", id(&st.on_hold)),
    ] {
        assert!(!left.contains(&gone), "{gone}");
    }
    // A deleted project's dates too.
    s.delete(&format!("/projects/{}", id(&st.active)))
        .expect(204);
    let left = uid_set(&body(&s, &sub));
    assert!(!left.iter().any(|u| u.starts_with(&id(&st.active))));
}

/// Folding and escaping: every line at most 75 octets and ended by CRLF;
/// a title with commas, semicolons, backslashes, a colon, a line break
/// and characters of several bytes, long enough to be folded, comes back
/// exactly through both parsers, and so do a description's lines, a
/// person's name and the calendar's name.
#[test]
fn text_is_folded_and_escaped_and_comes_back_exactly() {
    let s = start();
    let title = "Rent, gas; water \\ C:\\Users\\ada — Zürich, Ünïcödé ☃ 日本語の請求書 \
                 🎉🎉🎉; a, b, c; \\n is not a line break; \"quoted\" and so on, and on";
    let task = new_task(
        &s,
        json!({"title": title, "deadline_on": "2026-03-31",
               "description_html": "<p>First line, with; marks \\ here</p><p>Второй — ü 日本</p>"}),
    );
    // Squished (the line break of the title is a space), but otherwise as
    // sent.
    let broken = new_task(
        &s,
        json!({"title": "Line one\nline two", "deadline_on": "2026-03-30"}),
    );
    let person = new_person(
        &s,
        json!({"name": "Zoë Ångström-Ñúñez, Jr.; \\o/",
               "key_dates": [{"kind": "other", "label": "Name day; feast, ☃", "day": 5, "month": 6}]}),
    );
    let name = "Ünïcödé, my; calendar \\ ☃ 日本";
    let sub = subscribe(&s, json!({"name": name}));
    let text = body(&s, &sub);
    assert!(text.ends_with("\r\n"), "{text:?}");
    for line in text.split("\r\n") {
        assert!(!line.contains(['\r', '\n']), "a bare line break: {line:?}");
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
    }
    assert!(
        text.split("\r\n").any(|l| l.starts_with(' ')),
        "something was folded"
    );
    for (parser, calendar) in [("ical", by_ical(&text)), ("calcard", by_calcard(&text))] {
        let event = |uid: String| {
            calendar
                .events
                .iter()
                .find(|e| e.one("UID") == uid)
                .unwrap_or_else(|| panic!("no {uid}"))
                .clone()
        };
        let read = event(format!("{}-deadline@organiser", id(&task)));
        assert_eq!(read.one("SUMMARY"), task["title"].as_str().unwrap());
        assert_eq!(read.one("SUMMARY"), title);
        assert_eq!(
            read.one("DESCRIPTION"),
            task["description_text"].as_str().unwrap()
        );
        assert!(read.one("DESCRIPTION").contains('\n'));
        let read = event(format!("{}-deadline@organiser", id(&broken)));
        assert_eq!(read.one("SUMMARY"), broken["title"].as_str().unwrap());
        let read = event(format!("{}@organiser", id(&person["key_dates"][0])));
        assert_eq!(
            read.one("SUMMARY"),
            "Zoë Ångström-Ñúñez, Jr.; \\o/'s Name day; feast, ☃"
        );
        assert_eq!(
            calendar.own.one("X-WR-CALNAME"),
            name,
            "{parser}: the calendar's name, escaped once"
        );
    }
}

// ------------------------------------------------- ETag, rotation, delete

/// `ETag` and `If-None-Match`: the same tag for the same feed, 304's
/// answer for a request naming it (weak, in a list, or `*`); a change to
/// an item changes the tag, and a write outside the feed does not.
#[test]
fn an_etag_named_by_if_none_match_is_not_modified() {
    let s = start();
    let task = new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31"}),
    );
    let sub = subscribe(&s, json!({}));
    let file = file_of(&sub);
    let (etag, text) = feed(&s, &sub);
    assert!(
        etag.len() > 2 && etag.starts_with('"') && etag.ends_with('"'),
        "{etag}: a quoted entity tag"
    );
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    for named in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
        "*".to_owned(),
    ] {
        assert_eq!(
            fetch(&s, &file, Some(&named)).unwrap(),
            Feed::NotModified { etag: etag.clone() },
            "If-None-Match: {named}"
        );
    }
    for other in ["\"other\"", "", "W/\"x\""] {
        assert_eq!(
            fetch(&s, &file, Some(other)).unwrap(),
            Feed::Calendar {
                etag: etag.clone(),
                body: text.clone()
            },
            "If-None-Match: {other}"
        );
    }
    // A write outside the feed keeps the tag.
    s.advance(60);
    new_task(&s, json!({"title": "No deadline"}));
    assert!(matches!(
        fetch(&s, &file, Some(&etag)),
        Ok(Feed::NotModified { .. })
    ));
    // A change to a task changes it.
    patch_task(&s, &id(&task), json!({"title": "Pay the rent"})).expect(200);
    let Feed::Calendar {
        etag: changed,
        body,
    } = fetch(&s, &file, Some(&etag)).unwrap()
    else {
        panic!("the feed changed")
    };
    assert_ne!(changed, etag);
    assert!(body.contains("SUMMARY:Pay the rent\r\n"), "{body}");
    assert_eq!(
        fetch(&s, &file, Some(&changed)).unwrap(),
        Feed::NotModified {
            etag: changed.clone()
        }
    );
    // A new deadline, and a new task, change it too.
    patch_task(&s, &id(&task), json!({"deadline_on": "2026-04-01"})).expect(200);
    let (moved, _) = feed(&s, &sub);
    assert_ne!(moved, changed);
    new_task(&s, json!({"title": "New", "deadline_on": "2026-04-02"}));
    assert_ne!(feed(&s, &sub).0, moved);
    // Each subscription has its own.
    let other = subscribe(&s, json!({"name": "Other"}));
    assert_ne!(feed(&s, &other).0, feed(&s, &sub).0);
}

/// Rotation: a new address at once, the old one 404 from that moment,
/// the record otherwise as it was (its `updated_at` moved); through the
/// core's root route too.
#[test]
fn a_rotated_address_stops_at_once() {
    let s = start();
    new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-31"}),
    );
    let sub = subscribe(&s, json!({"name": "Phone", "alarm_minutes": 10}));
    let old = file_of(&sub);
    let (etag, text) = feed(&s, &sub);
    s.advance(60);
    let rotated = check(
        &s,
        Call::post(format!("{PATH}/{}/rotation", id(&sub)), json!({})),
        Expect::status(200),
    )
    .data()
    .clone();
    let new = file_of(&rotated);
    assert_ne!(new, old);
    assert!(rotated["url"].as_str().unwrap().starts_with("/ics/"));
    assert_eq!(rotated["id"], sub["id"]);
    assert_eq!(rotated["name"], "Phone");
    assert_eq!(rotated["created_at"], sub["created_at"]);
    assert_eq!(rotated["updated_at"], "2026-03-10T09:01:00.000Z");
    // The old address is refused at once, whatever it asks.
    assert!(matches!(fetch(&s, &old, None), Err(Error::NotFound)));
    assert!(matches!(fetch(&s, &old, Some(&etag)), Err(Error::NotFound)));
    let refused = at_root(&s, &old);
    assert_eq!(refused.status, 404);
    assert_eq!(refused.json_value()["error"]["code"], "not_found");
    // The new one serves the same calendar.
    assert_eq!(feed(&s, &rotated), (etag, text));
    assert_eq!(at_root(&s, &new).status, 200);
    // Get and list show no address.
    let got = s.get(&format!("{PATH}/{}", id(&sub))).expect(200);
    assert!(got.data().get("url").is_none());
    // Rotated again: the second address stops too.
    let again = s
        .post(&format!("{PATH}/{}/rotation", id(&sub)), json!({}))
        .expect(200)
        .data()
        .clone();
    assert!(matches!(fetch(&s, &new, None), Err(Error::NotFound)));
    assert!(matches!(fetch(&s, &old, None), Err(Error::NotFound)));
    feed(&s, &again);
}

/// Delete: permanent, the address 404 at once, and everything about the
/// subscription 404 after.
#[test]
fn a_deleted_subscription_stops_at_once() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let kept = subscribe(&s, json!({"name": "Kept"}));
    let file = file_of(&sub);
    feed(&s, &sub);
    check(
        &s,
        Call::delete(format!("{PATH}/{}", id(&sub))),
        Expect::status(204),
    );
    assert!(matches!(fetch(&s, &file, None), Err(Error::NotFound)));
    assert_eq!(at_root(&s, &file).status, 404);
    for call in [
        Call::get(format!("{PATH}/{}", id(&sub))),
        change(&id(&sub), json!({"name": "Back"})),
        Call::delete(format!("{PATH}/{}", id(&sub))),
        Call::post(format!("{PATH}/{}/rotation", id(&sub)), json!({})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    // The other subscription is untouched.
    let listed = s.get(PATH).expect(200);
    assert_eq!(listed.data().as_array().unwrap().len(), 1);
    assert_eq!(id(&listed.data()[0]), id(&kept));
    feed(&s, &kept);
}

/// What is not an address of a live subscription is 404: an unknown
/// secret, the secret without `.ics`, with another suffix, a prefix of
/// it, or empty; at the root route, 404 `not_found` without credentials.
#[test]
fn anything_but_a_live_address_is_not_found() {
    let s = start();
    let sub = subscribe(&s, json!({}));
    let secret = secret_of(&sub);
    for file in [
        format!("{UNKNOWN}.ics"),
        "x".repeat(43) + ".ics",
        secret.clone(),
        format!("{secret}.ICS"),
        format!("{secret}.ics.ics"),
        format!("{secret}.json"),
        format!("{}.ics", &secret[..42]),
        format!("{secret}x.ics"),
        ".ics".to_owned(),
        String::new(),
    ] {
        assert!(
            matches!(fetch(&s, &file, None), Err(Error::NotFound)),
            "{file}"
        );
        if !file.is_empty() {
            let answer = at_root(&s, &file);
            assert_eq!(answer.status, 404, "{file}");
            let error = answer.json_value();
            assert_eq!(error["error"]["code"], "not_found", "{file}");
            assert!(!error.to_string().contains(&secret), "{error}");
        }
    }
    // Below /api/v1 there is no feed.
    check(
        &s,
        Call::get(format!("/ics/{secret}.ics")),
        Expect::error(404, "not_found", None),
    );
    let answer = at_root(&s, &file_of(&sub));
    assert_eq!(answer.status, 200);
}

// ------------------------------------------------- read-only mode

/// Read-only licence mode (the trial over, no key): every write of a
/// subscription is 403 `read_only` and changes nothing; the feed, and
/// the reads of the subscriptions, still answer.
#[test]
fn read_only_mode_still_serves_the_feed() {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = Core::with(setup);
    let task = new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-04-30"}),
    );
    let sub = subscribe(&s, json!({"name": "Phone"}));
    let (etag, text) = feed(&s, &sub);
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    // The feed is served as it was (its first read of the day settles
    // the day, which the store notes even now).
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    let before = s.org.raw_export().unwrap();
    let path = format!("{PATH}/{}", id(&sub));
    for call in [
        create(json!({})),
        create(json!({"name": ""})),
        change(&id(&sub), json!({"name": "Tablet"})),
        Call::put(
            path.clone(),
            json!({"calendar_subscription": {"alarm_minutes": 5}}),
        ),
        Call::delete(path.clone()),
        Call::post(format!("{path}/rotation"), json!({})),
    ] {
        check(&s, call, Expect::error(403, "read_only", None));
    }
    // The feed is served as it was, 304 too.
    assert_eq!(feed(&s, &sub), (etag.clone(), text.clone()));
    assert_eq!(
        fetch(&s, &file_of(&sub), Some(&etag)).unwrap(),
        Feed::NotModified { etag }
    );
    assert_eq!(at_root(&s, &file_of(&sub)).status, 200);
    assert!(uid_set(&text).contains(&format!("{}-deadline@organiser", id(&task))));
    // Reads answer.
    check(&s, Call::get(PATH), Expect::status(200));
    check(&s, Call::get(path.clone()), Expect::status(200));
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    // An unknown address is still 404.
    assert!(matches!(
        fetch(&s, &format!("{UNKNOWN}.ics"), None),
        Err(Error::NotFound)
    ));
}

// ------------------------------------------------------------ idempotency

/// Whether `needle` is anywhere in the store's bytes.
fn stored_anywhere(s: &Core, needle: &str) -> bool {
    s.org
        .raw_export()
        .unwrap()
        .iter()
        .flat_map(|(_, entries)| entries)
        .any(|(k, v)| {
            [k, v]
                .iter()
                .any(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
}

/// A creating POST honours `Idempotency-Key` (document 1, which EXTENSIONS.md
/// holds to): the retry answers the same address, and makes nothing more.
/// The answer kept for it is sealed, so the address is in the store in the
/// clear nowhere, nor an API token's secret kept for its replay.
#[test]
fn a_retried_subscription_answers_the_same_address_and_keeps_no_secret() {
    let s = start();
    let body = json!({"calendar_subscription": {"name": "Phone"}});
    let first = send(
        s.req("POST", PATH)
            .json(&body)
            .header("Idempotency-Key", "sub-1"),
    );
    assert_eq!(first.status, 201, "{}", first.body);
    let again = send(
        s.req("POST", PATH)
            .json(&body)
            .header("Idempotency-Key", "sub-1"),
    );
    assert_eq!(again.status, 201);
    assert_eq!(again.data()["url"], first.data()["url"]);
    assert_eq!(again.data()["id"], first.data()["id"]);
    assert_eq!(s.get(PATH).expect(200).data().as_array().unwrap().len(), 1);
    let url = first.data()["url"].as_str().unwrap().to_owned();
    let secret = url
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".ics"))
        .unwrap();
    assert!(
        !stored_anywhere(&s, secret),
        "the address is kept in the clear"
    );
    let token = send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "phone"}}))
            .header("Idempotency-Key", "token-1"),
    );
    assert_eq!(token.status, 201, "{}", token.body);
    let bearer = token.data()["secret"].as_str().unwrap().to_owned();
    let secret_part = bearer.rsplit('_').next().unwrap();
    assert!(
        !stored_anywhere(&s, secret_part),
        "the token is kept in the clear"
    );
    let replay = send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "phone"}}))
            .header("Idempotency-Key", "token-1"),
    );
    assert_eq!(replay.data()["secret"], bearer.as_str());
}
