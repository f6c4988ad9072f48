//! Document 3, "CalendarEvent" (`key`, `rrule`) and "Calendar" rule 1
//! ("expanded from repeat rules"), with the decisions ("Events": zones,
//! repeat rules, overrides, keys): a table of repeat rules, each with its
//! occurrences worked out by hand, and the keys and `rrule` of what they
//! give. The owner is in UTC unless a test moves them; 2026-03-01 is a
//! Sunday.

use serde_json::{Value, json};

use super::{events_of, feed_of, feeds_core, instant, synced, when, whens};
use crate::common::feed_server::vcalendar;
use crate::common::fixtures::{id, set_zone};
use crate::common::{FeedServer, Vcal};

/// One row: a calendar (`zones`, then `events`, each a VEVENT's property
/// lines) and the occurrences `GET /calendar` gives from `from` to `to`,
/// as [`super::when`] writes them: the start instant in UTC when timed,
/// `first..last` day when all day.
struct Case {
    name: &'static str,
    zones: &'static str,
    events: &'static [&'static str],
    from: &'static str,
    to: &'static str,
    want: &'static [&'static str],
}

/// A VTIMEZONE of its own: US-style rules (-05:00, -04:00 from the
/// second Sunday of March to the first Sunday of November) under a name
/// no zone database knows.
const MY_ZONE: &str = "
    BEGIN:VTIMEZONE
    TZID:My Zone
    BEGIN:STANDARD
    DTSTART:19701101T020000
    RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
    TZOFFSETFROM:-0400
    TZOFFSETTO:-0500
    TZNAME:MST
    END:STANDARD
    BEGIN:DAYLIGHT
    DTSTART:19700308T020000
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
    TZOFFSETFROM:-0500
    TZOFFSETTO:-0400
    TZNAME:MDT
    END:DAYLIGHT
    END:VTIMEZONE
";

/// A fixed +05:30 zone under a name of its own.
const FIXED_ZONE: &str = "
    BEGIN:VTIMEZONE
    TZID:Office Time
    BEGIN:STANDARD
    DTSTART:19700101T000000
    TZOFFSETFROM:+0530
    TZOFFSETTO:+0530
    END:STANDARD
    END:VTIMEZONE
";

const CASES: &[Case] = &[
    Case {
        name: "weekly on Monday and Wednesday",
        zones: "",
        events: &[
            "UID:w\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-04T09:00:00Z",
            "2026-03-09T09:00:00Z",
            "2026-03-11T09:00:00Z",
        ],
    },
    Case {
        name: "weekly, the range starting weeks after DTSTART",
        zones: "",
        events: &[
            "UID:w\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE",
        ],
        from: "2026-04-20",
        to: "2026-04-26",
        want: &["2026-04-20T09:00:00Z", "2026-04-22T09:00:00Z"],
    },
    Case {
        name: "weekly, two years after the sync",
        zones: "",
        events: &[
            "UID:w\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE",
        ],
        from: "2028-06-01",
        to: "2028-06-14",
        want: &[
            "2028-06-05T09:00:00Z",
            "2028-06-07T09:00:00Z",
            "2028-06-12T09:00:00Z",
            "2028-06-14T09:00:00Z",
        ],
    },
    Case {
        name: "COUNT, long after the last",
        zones: "",
        events: &["UID:c\nDTSTART:20260303T070000Z\nRRULE:FREQ=DAILY;COUNT=3"],
        from: "2028-03-01",
        to: "2028-03-10",
        want: &[],
    },
    Case {
        name: "every other Monday",
        zones: "",
        events: &["UID:w2\nDTSTART:20260302T090000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"],
        from: "2026-03-01",
        to: "2026-04-11",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-16T09:00:00Z",
            "2026-03-30T09:00:00Z",
        ],
    },
    Case {
        name: "monthly on the 31st: in March",
        zones: "",
        events: &[
            "UID:m31\nDTSTART:20260131T120000Z\nDTEND:20260131T130000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31",
        ],
        from: "2026-03-20",
        to: "2026-04-30",
        want: &["2026-03-31T12:00:00Z"],
    },
    Case {
        name: "monthly on the 31st: none in February",
        zones: "",
        events: &[
            "UID:m31\nDTSTART:20260131T120000Z\nDTEND:20260131T130000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31",
        ],
        from: "2026-01-20",
        to: "2026-03-02",
        want: &["2026-01-31T12:00:00Z"],
    },
    Case {
        name: "the last Monday of the month",
        zones: "",
        events: &[
            "UID:lm\nDTSTART:20260126T100000Z\nDTEND:20260126T110000Z\nRRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1",
        ],
        from: "2026-02-20",
        to: "2026-04-02",
        want: &["2026-02-23T10:00:00Z", "2026-03-30T10:00:00Z"],
    },
    Case {
        name: "yearly",
        zones: "",
        events: &["UID:y\nDTSTART:20200315T080000Z\nDTEND:20200315T090000Z\nRRULE:FREQ=YEARLY"],
        from: "2026-03-01",
        to: "2026-03-31",
        want: &["2026-03-15T08:00:00Z"],
    },
    Case {
        name: "yearly, in a year before the sync",
        zones: "",
        events: &["UID:y\nDTSTART:20200315T080000Z\nDTEND:20200315T090000Z\nRRULE:FREQ=YEARLY"],
        from: "2025-03-01",
        to: "2025-03-31",
        want: &["2025-03-15T08:00:00Z"],
    },
    Case {
        name: "yearly on 29 February: not in 2026",
        zones: "",
        events: &["UID:leap\nDTSTART:20240229T080000Z\nRRULE:FREQ=YEARLY"],
        from: "2026-02-20",
        to: "2026-03-05",
        want: &[],
    },
    Case {
        name: "daily in New York until an instant in UTC",
        zones: "",
        events: &[
            "UID:ny\nDTSTART;TZID=America/New_York:20260302T090000\nDTEND;TZID=America/New_York:20260302T100000\nRRULE:FREQ=DAILY;UNTIL=20260305T130000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        // 09:00 EST is 14:00 UTC; 5 March 14:00 UTC is after UNTIL.
        want: &[
            "2026-03-02T14:00:00Z",
            "2026-03-03T14:00:00Z",
            "2026-03-04T14:00:00Z",
        ],
    },
    Case {
        name: "daily in New York across the change to summer time (8 March)",
        zones: "",
        events: &[
            "UID:nydst\nDTSTART;TZID=America/New_York:20260306T090000\nRRULE:FREQ=DAILY;UNTIL=20260309T140000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-06T14:00:00Z",
            "2026-03-07T14:00:00Z",
            "2026-03-08T13:00:00Z",
            "2026-03-09T13:00:00Z",
        ],
    },
    Case {
        name: "COUNT",
        zones: "",
        events: &[
            "UID:c\nDTSTART:20260303T070000Z\nDTEND:20260303T080000Z\nRRULE:FREQ=DAILY;COUNT=3",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-03T07:00:00Z",
            "2026-03-04T07:00:00Z",
            "2026-03-05T07:00:00Z",
        ],
    },
    Case {
        name: "EXDATE removes one",
        zones: "",
        events: &[
            "UID:x\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=DAILY;COUNT=5\nEXDATE:20260304T090000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-03T09:00:00Z",
            "2026-03-05T09:00:00Z",
            "2026-03-06T09:00:00Z",
        ],
    },
    Case {
        name: "EXDATE with two values",
        zones: "",
        events: &[
            "UID:x2\nDTSTART:20260302T090000Z\nRRULE:FREQ=DAILY;COUNT=5\nEXDATE:20260303T090000Z,20260305T090000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-04T09:00:00Z",
            "2026-03-06T09:00:00Z",
        ],
    },
    Case {
        name: "EXDATE in the event's zone",
        zones: "",
        events: &[
            "UID:xb\nDTSTART;TZID=Europe/Berlin:20260302T100000\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE;TZID=Europe/Berlin:20260303T100000",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-02T09:00:00Z", "2026-03-04T09:00:00Z"],
    },
    Case {
        name: "an override moves one occurrence",
        zones: "",
        events: &[
            "UID:o\nSUMMARY:Daily\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=DAILY;COUNT=3",
            "UID:o\nRECURRENCE-ID:20260303T090000Z\nSUMMARY:Moved\nDTSTART:20260303T150000Z\nDTEND:20260303T153000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-03T15:00:00Z",
            "2026-03-04T09:00:00Z",
        ],
    },
    Case {
        name: "an override before its series in the file",
        zones: "",
        events: &[
            "UID:o2\nRECURRENCE-ID:20260303T090000Z\nSUMMARY:Moved\nDTSTART:20260303T150000Z\nDTEND:20260303T153000Z",
            "UID:o2\nSUMMARY:Daily\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=DAILY;COUNT=3",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-03T15:00:00Z",
            "2026-03-04T09:00:00Z",
        ],
    },
    Case {
        name: "a cancelled override removes one occurrence",
        zones: "",
        events: &[
            "UID:oc\nSUMMARY:Daily\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=DAILY;COUNT=3",
            "UID:oc\nRECURRENCE-ID:20260303T090000Z\nSUMMARY:Daily\nSTATUS:CANCELLED\nDTSTART:20260303T090000Z\nDTEND:20260303T093000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-02T09:00:00Z", "2026-03-04T09:00:00Z"],
    },
    Case {
        name: "a cancelled series shows nothing",
        zones: "",
        events: &["UID:cs\nSTATUS:CANCELLED\nDTSTART:20260302T090000Z\nRRULE:FREQ=DAILY;COUNT=3"],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[],
    },
    Case {
        name: "RDATE adds one",
        zones: "",
        events: &[
            "UID:r\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=WEEKLY;COUNT=2\nRDATE:20260305T110000Z",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-02T09:00:00Z",
            "2026-03-05T11:00:00Z",
            "2026-03-09T09:00:00Z",
        ],
    },
    Case {
        name: "weekly 09:00 in London across the last Sunday of March",
        zones: "",
        events: &[
            "UID:l\nDTSTART;TZID=Europe/London:20260323T090000\nDTEND;TZID=Europe/London:20260323T100000\nRRULE:FREQ=WEEKLY",
        ],
        from: "2026-03-20",
        to: "2026-04-10",
        want: &[
            "2026-03-23T09:00:00Z",
            "2026-03-30T08:00:00Z",
            "2026-04-06T08:00:00Z",
        ],
    },
    Case {
        name: "weekly 09:00 in London five years on, across that March's change",
        zones: "",
        events: &["UID:l5\nDTSTART;TZID=Europe/London:20260323T090000\nRRULE:FREQ=WEEKLY"],
        from: "2031-03-01",
        to: "2031-03-31",
        // Summer time begins on 30 March 2031.
        want: &[
            "2031-03-03T09:00:00Z",
            "2031-03-10T09:00:00Z",
            "2031-03-17T09:00:00Z",
            "2031-03-24T09:00:00Z",
            "2031-03-31T08:00:00Z",
        ],
    },
    Case {
        name: "a zone defined only by the feed's VTIMEZONE, across its change",
        zones: MY_ZONE,
        events: &[
            "UID:z\nDTSTART;TZID=My Zone:20260305T090000\nDTEND;TZID=My Zone:20260305T093000\nRRULE:FREQ=DAILY;COUNT=6",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &[
            "2026-03-05T14:00:00Z",
            "2026-03-06T14:00:00Z",
            "2026-03-07T14:00:00Z",
            "2026-03-08T13:00:00Z",
            "2026-03-09T13:00:00Z",
            "2026-03-10T13:00:00Z",
        ],
    },
    Case {
        name: "the feed's VTIMEZONE named in quotes",
        zones: MY_ZONE,
        events: &["UID:zq\nDTSTART;TZID=\"My Zone\":20260307T090000\nRRULE:FREQ=DAILY;COUNT=2"],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-07T14:00:00Z", "2026-03-08T13:00:00Z"],
    },
    Case {
        name: "a fixed-offset VTIMEZONE",
        zones: FIXED_ZONE,
        events: &[
            "UID:f\nDTSTART;TZID=Office Time:20260305T090000\nDTEND;TZID=Office Time:20260305T100000",
        ],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-05T03:30:00Z"],
    },
    Case {
        name: "a zone with a /mozilla.org/ prefix",
        zones: "",
        events: &["UID:moz\nDTSTART;TZID=/mozilla.org/20070129_1/America/New_York:20260305T090000"],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-05T14:00:00Z"],
    },
    Case {
        name: "an unknown zone is UTC",
        zones: "",
        events: &["UID:mars\nDTSTART;TZID=Mars/Olympus_Mons:20260305T090000"],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-05T09:00:00Z"],
    },
    Case {
        name: "all day, weekly",
        zones: "",
        events: &[
            "UID:ad\nDTSTART;VALUE=DATE:20260302\nDTEND;VALUE=DATE:20260303\nRRULE:FREQ=WEEKLY;COUNT=3",
        ],
        from: "2026-03-01",
        to: "2026-03-31",
        want: &[
            "2026-03-02..2026-03-02",
            "2026-03-09..2026-03-09",
            "2026-03-16..2026-03-16",
        ],
    },
    Case {
        name: "two days all day, weekly, one left out",
        zones: "",
        events: &[
            "UID:ad2\nDTSTART;VALUE=DATE:20260302\nDTEND;VALUE=DATE:20260304\nRRULE:FREQ=WEEKLY;COUNT=3\nEXDATE;VALUE=DATE:20260309",
        ],
        from: "2026-03-01",
        to: "2026-03-31",
        want: &["2026-03-02..2026-03-03", "2026-03-16..2026-03-17"],
    },
    Case {
        name: "an occurrence that began before the range and is still on",
        zones: "",
        events: &[
            "UID:n\nDTSTART:20260301T230000Z\nDTEND:20260302T010000Z\nRRULE:FREQ=DAILY;COUNT=5",
        ],
        from: "2026-03-03",
        to: "2026-03-03",
        want: &["2026-03-02T23:00:00Z", "2026-03-03T23:00:00Z"],
    },
    Case {
        name: "a rule the rules crate refuses: once, at DTSTART",
        zones: "",
        events: &["UID:bad\nDTSTART:20260305T090000Z\nRRULE:FREQ=SOMETIMES"],
        from: "2026-03-01",
        to: "2026-03-14",
        want: &["2026-03-05T09:00:00Z"],
    },
];

/// The table: each case its own feed, its occurrences in the range.
#[test]
fn repeat_rules_expand_to_the_occurrences_worked_out_by_hand() {
    let s = feeds_core();
    let server = FeedServer::start();
    let mut failures = Vec::new();
    for (n, case) in CASES.iter().enumerate() {
        let mut cal = Vcal::new().raw(case.zones);
        for event in case.events {
            cal.push_event(event);
        }
        let feed = feed_of(&s, &server, &format!("/case-{n}.ics"), &cal.build());
        let got = whens(&events_of(&s, &id(&feed), case.from, case.to));
        if got != case.want {
            failures.push(format!(
                "{}: wanted {:?}, got {got:?}",
                case.name, case.want
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// "CalendarEvent" `rrule`: the RRULE as the feed gave it on every
/// occurrence of a repeating event (a moved one too), null on a single
/// event and on a rule that could not be read.
#[test]
fn every_occurrence_carries_its_rrule() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            "UID:w\nSUMMARY:Weekly\nDTSTART:20260302T090000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE",
            "UID:w\nRECURRENCE-ID:20260304T090000Z\nSUMMARY:Weekly moved\nDTSTART:20260304T160000Z",
            "UID:once\nSUMMARY:Once\nDTSTART:20260303T090000Z",
            "UID:bad\nSUMMARY:Bad\nDTSTART:20260305T090000Z\nRRULE:FREQ=SOMETIMES",
        ]),
    );
    let listed = events_of(&s, &id(&feed), "2026-03-01", "2026-03-07");
    let got: Vec<(String, Value)> = listed
        .iter()
        .map(|e| (e["title"].as_str().unwrap().to_owned(), e["rrule"].clone()))
        .collect();
    let weekly = json!("FREQ=WEEKLY;BYDAY=MO,WE");
    assert_eq!(
        got,
        [
            ("Weekly".to_owned(), weekly.clone()),
            ("Once".to_owned(), Value::Null),
            ("Weekly moved".to_owned(), weekly),
            ("Bad".to_owned(), Value::Null),
        ]
    );
}

/// "CalendarEvent" `key`: stable for an occurrence across syncs (also
/// when the calendar around it changes), distinct per occurrence and per
/// feed; an override keeps its occurrence's key.
#[test]
fn keys_are_stable_across_syncs_and_kept_by_an_override() {
    let s = feeds_core();
    let server = FeedServer::start();
    let series = "UID:daily\nSUMMARY:Daily\nDTSTART:20260302T090000Z\nDTEND:20260302T093000Z\nRRULE:FREQ=DAILY;COUNT=3";
    let single = "UID:single\nSUMMARY:Single\nDTSTART:20260302T120000Z";
    let text = vcalendar(&[series, single]);
    let feed = feed_of(&s, &server, "/cal.ics", &text);
    let twin = feed_of(&s, &server, "/twin.ics", &text);
    let f = id(&feed);
    let keyed = |feed: &str| -> Vec<(String, String)> {
        events_of(&s, feed, "2026-03-01", "2026-03-07")
            .iter()
            .map(|e| (when(e), e["key"].as_str().unwrap().to_owned()))
            .collect()
    };
    let before = keyed(&f);
    assert_eq!(before.len(), 4);
    let mut keys: Vec<&String> = before.iter().map(|(_, k)| k).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 4, "one key per occurrence: {before:?}");
    let twin_keys: Vec<String> = keyed(&id(&twin)).into_iter().map(|(_, k)| k).collect();
    for (_, key) in &before {
        assert!(!twin_keys.contains(key), "another feed's occurrence: {key}");
    }

    // Synced again, and again with another event and new stamps.
    s.advance(60);
    synced(&s, &f);
    assert_eq!(keyed(&f), before);
    server.serve(
        "/cal.ics",
        vcalendar(&[
            &format!("DTSTAMP:20260310T090000Z\n{series}"),
            &format!("DTSTAMP:20260310T090000Z\n{single}"),
            "UID:extra\nSUMMARY:Extra\nDTSTART:20260306T090000Z",
        ]),
    );
    s.advance(60);
    synced(&s, &f);
    let with_extra = keyed(&f);
    assert_eq!(with_extra.len(), 5);
    for pair in &before {
        assert!(with_extra.contains(pair), "{pair:?} kept: {with_extra:?}");
    }

    // The 3 March occurrence moved to 15:00 keeps its key.
    let moved_key = before
        .iter()
        .find(|(w, _)| w == "2026-03-03T09:00:00Z")
        .unwrap()
        .1
        .clone();
    server.serve(
        "/cal.ics",
        vcalendar(&[
            series,
            single,
            "UID:daily\nRECURRENCE-ID:20260303T090000Z\nSUMMARY:Moved\nDTSTART:20260303T150000Z\nDTEND:20260303T160000Z",
        ]),
    );
    s.advance(60);
    synced(&s, &f);
    let listed = events_of(&s, &f, "2026-03-01", "2026-03-07");
    let moved = listed
        .iter()
        .find(|e| e["title"] == "Moved")
        .expect("the moved occurrence");
    assert_eq!(instant(&moved["starts_at"]), "2026-03-03T15:00:00Z");
    assert_eq!(instant(&moved["ends_at"]), "2026-03-03T16:00:00Z");
    assert_eq!(moved["key"], json!(moved_key));
    assert_eq!(listed.len(), 4, "moved, not added: {listed:?}");
}

/// The decisions, "Zones": a floating time is in the owner's zone as at
/// the sync: the events move with the owner's zone on the next sync.
/// All-day events are dates, in no zone.
#[test]
fn floating_times_are_in_the_owners_zone_at_the_sync() {
    let s = feeds_core();
    let server = FeedServer::start();
    set_zone(&s, "Tokyo");
    let feed = feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            "UID:float\nSUMMARY:Floating\nDTSTART:20260312T090000\nDTEND:20260312T100000\nRRULE:FREQ=DAILY;COUNT=2",
            "UID:day\nSUMMARY:Day\nDTSTART;VALUE=DATE:20260312",
        ]),
    );
    let f = id(&feed);
    // 09:00 in Tokyo is 00:00 UTC.
    assert_eq!(
        whens(&events_of(&s, &f, "2026-03-12", "2026-03-13")),
        [
            "2026-03-12..2026-03-12",
            "2026-03-12T00:00:00Z",
            "2026-03-13T00:00:00Z"
        ]
    );
    set_zone(&s, "UTC");
    assert_eq!(
        whens(&events_of(&s, &f, "2026-03-12", "2026-03-13")),
        [
            "2026-03-12..2026-03-12",
            "2026-03-12T00:00:00Z",
            "2026-03-13T00:00:00Z"
        ],
        "until the next sync"
    );
    s.advance(60);
    synced(&s, &f);
    assert_eq!(
        whens(&events_of(&s, &f, "2026-03-12", "2026-03-13")),
        [
            "2026-03-12..2026-03-12",
            "2026-03-12T09:00:00Z",
            "2026-03-13T09:00:00Z"
        ]
    );
}
