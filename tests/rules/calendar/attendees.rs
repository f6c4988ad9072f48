//! Document 3, "CalendarEvent" (`attendees`, `attendee_names`,
//! `attendee_count`, `meeting`), "CalendarAttendee" and "Calendar" rule 5
//! (`people`), with the decisions ("Events"): who an event's attendees
//! are, which people they name (matched at each read), and the meeting
//! link found in it.

use serde_json::{Value, json};

use super::{events, feed_of, feeds_core, range};
use crate::common::feed_server::vcalendar;
use crate::common::fixtures::id;
use crate::common::{Core, FeedServer};

/// Creates a person from `fields`; its id.
#[track_caller]
fn person(s: &Core, fields: Value) -> String {
    id(s.post("/people", json!({ "person": fields }))
        .expect(201)
        .data())
}

/// The event of 2026-03-10 titled `title`.
#[track_caller]
fn event(s: &Core, title: &str) -> Value {
    events(s, "2026-03-10", "2026-03-10")
        .into_iter()
        .find(|e| e["title"] == json!(title))
        .unwrap_or_else(|| panic!("no event {title}"))
}

/// One attendee as the API writes it.
fn attendee(name: &str, email: Option<&str>, organizer: bool, person: Option<&str>) -> Value {
    json!({"name": name, "email": email, "organizer": organizer, "person_id": person})
}

/// The ids of the range's `people`, in order.
#[track_caller]
fn people(s: &Core) -> Vec<String> {
    range(s, "2026-03-10", "2026-03-10")["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(id)
        .collect()
}

/// "CalendarAttendee": the organizer first, then the attendees; emails in
/// lower case; a name from CN, else the email; matched to a live person by
/// email (ignoring case), else by a name only one live person has
/// (ignoring case and accents); matched when read, never stale. "Calendar"
/// rule 5: those people, whole, once, by name.
#[test]
fn attendees_name_people_by_email_or_a_unique_name() {
    let s = feeds_core();
    let server = FeedServer::start();
    let ada = person(
        &s,
        json!({"name": "Ada Lovelace", "email_addresses": [{"address": "ada@example.com"}]}),
    );
    let zoe = person(&s, json!({"name": "Zoë Smith"}));
    let sam_1 = person(&s, json!({"name": "Sam Jones"}));
    let sam_2 = person(&s, json!({"name": "Sam Jones"}));
    feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            "UID:planning\nSUMMARY:Planning\nDTSTART:20260310T100000Z\nDTEND:20260310T110000Z
             ORGANIZER;CN=The Boss:mailto:Boss@Example.COM
             ATTENDEE;CN=Ada L.:mailto:ADA@Example.com
             ATTENDEE;CN=zoe smith:mailto:zoe@other.org
             ATTENDEE;CN=SAM JONES:mailto:sam@x.org
             ATTENDEE:mailto:Nobody@X.org",
            "UID:review\nSUMMARY:Review\nDTSTART:20260310T140000Z
             ORGANIZER;CN=Ada:mailto:ada@example.com
             ATTENDEE;CN=Ada:mailto:ada@example.com
             ATTENDEE;CN=Bob:mailto:bob@x.org",
            "UID:solo\nSUMMARY:Solo\nDTSTART:20260310T160000Z",
        ]),
    );
    let planning = event(&s, "Planning");
    assert_eq!(
        planning["attendees"],
        json!([
            attendee("The Boss", Some("boss@example.com"), true, None),
            attendee("Ada L.", Some("ada@example.com"), false, Some(ada.as_str())),
            attendee(
                "zoe smith",
                Some("zoe@other.org"),
                false,
                Some(zoe.as_str())
            ),
            attendee("SAM JONES", Some("sam@x.org"), false, None),
            attendee("nobody@x.org", Some("nobody@x.org"), false, None),
        ])
    );
    assert_eq!(
        planning["attendee_names"],
        json!([
            "The Boss",
            "Ada L.",
            "zoe smith",
            "SAM JONES",
            "nobody@x.org"
        ])
    );
    assert_eq!(planning["attendee_count"], 4, "not the organizer");

    let review = event(&s, "Review");
    assert_eq!(
        review["attendees"],
        json!([
            attendee("Ada", Some("ada@example.com"), true, Some(ada.as_str())),
            attendee("Bob", Some("bob@x.org"), false, None),
        ]),
        "an organizer who attends is there once"
    );
    assert_eq!(review["attendee_count"], 2);
    assert_eq!(event(&s, "Solo")["attendees"], json!([]));

    // The people, whole records, once, by name.
    let got = range(&s, "2026-03-10", "2026-03-10")["people"].clone();
    let fresh = |p: &str| s.get(&format!("/people/{p}")).expect(200).data().clone();
    assert_eq!(got, json!([fresh(&ada), fresh(&zoe)]));
    assert_eq!(
        range(&s, "2026-03-11", "2026-03-11")["people"],
        json!([]),
        "only the range's events name people"
    );

    // Matched when read: a new person, a deleted one, a name now unique.
    let nobody = person(
        &s,
        json!({"name": "Nobody Known", "email_addresses": [{"address": "NOBODY@x.org"}]}),
    );
    s.delete(&format!("/people/{zoe}")).expect(204);
    s.delete(&format!("/people/{sam_2}")).expect(204);
    let planning = event(&s, "Planning");
    let matched: Vec<&Value> = planning["attendees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["person_id"])
        .collect();
    assert_eq!(
        matched,
        [
            &Value::Null,
            &json!(ada),
            &Value::Null,
            &json!(sam_1),
            &json!(nobody)
        ]
    );
    assert_eq!(people(&s), [ada, nobody, sam_1]);
}

/// "CalendarEvent": the first 10 attendees (organizer first) are listed;
/// `attendee_count` counts them all; an attendee with no email address
/// has a null `email`.
#[test]
fn the_first_ten_attendees_are_listed_and_all_counted() {
    let s = feeds_core();
    let server = FeedServer::start();
    let mut lines = String::from(
        "UID:big\nSUMMARY:Big\nDTSTART:20260310T100000Z\nORGANIZER;CN=Host:mailto:host@x.org\n",
    );
    for n in 1..=12 {
        lines.push_str(&format!(
            "ATTENDEE;CN=Guest {n:02}:mailto:guest{n:02}@x.org\n"
        ));
    }
    feed_of(
        &s,
        &server,
        "/cal.ics",
        &vcalendar(&[
            &lines,
            "UID:room\nSUMMARY:Room\nDTSTART:20260310T120000Z\nATTENDEE;CN=Room 1:urn:uuid:room-1",
        ]),
    );
    let big = event(&s, "Big");
    assert_eq!(big["attendee_count"], 12);
    let mut names = vec!["Host".to_owned()];
    names.extend((1..=9).map(|n| format!("Guest {n:02}")));
    assert_eq!(big["attendee_names"], json!(names));
    let attendees = big["attendees"].as_array().unwrap();
    assert_eq!(attendees.len(), 10);
    assert_eq!(
        attendees[0],
        attendee("Host", Some("host@x.org"), true, None)
    );
    assert_eq!(
        attendees[9],
        attendee("Guest 09", Some("guest09@x.org"), false, None)
    );
    assert_eq!(
        event(&s, "Room")["attendees"],
        json!([attendee("Room 1", None, false, None)])
    );
}

/// "CalendarEvent" `meeting` and the decisions: a link found in the
/// conference properties, URL, LOCATION, then DESCRIPTION whose host is a
/// known service names it; a conference property's link of any other host
/// is `other`; an unknown link elsewhere is no meeting.
#[test]
fn meeting_links_name_their_provider() {
    let s = feeds_core();
    let server = FeedServer::start();
    let cases: &[(&str, Option<(&str, &str)>)] = &[
        (
            "LOCATION:https://us02web.zoom.us/j/123456",
            Some(("zoom", "https://us02web.zoom.us/j/123456")),
        ),
        (
            "LOCATION:http://zoom.us/j/99",
            Some(("zoom", "http://zoom.us/j/99")),
        ),
        (
            "DESCRIPTION:Join at https://meet.google.com/abc-defg-hij please",
            Some(("google_meet", "https://meet.google.com/abc-defg-hij")),
        ),
        (
            "DESCRIPTION:Teams: https://teams.microsoft.com/l/meetup-join/19abc",
            Some((
                "microsoft_teams",
                "https://teams.microsoft.com/l/meetup-join/19abc",
            )),
        ),
        (
            "LOCATION:https://teams.live.com/meet/9988",
            Some(("microsoft_teams", "https://teams.live.com/meet/9988")),
        ),
        (
            "LOCATION:https://acme.webex.com/meet/ada",
            Some(("webex", "https://acme.webex.com/meet/ada")),
        ),
        (
            "URL:https://whereby.com/ada",
            Some(("whereby", "https://whereby.com/ada")),
        ),
        (
            "LOCATION:https://meet.jit.si/OrganiserStandup",
            Some(("jitsi", "https://meet.jit.si/OrganiserStandup")),
        ),
        (
            "LOCATION:https://8x8.vc/acme/room",
            Some(("jitsi", "https://8x8.vc/acme/room")),
        ),
        (
            "DESCRIPTION:https://meet.goto.com/123456789",
            Some(("gotomeeting", "https://meet.goto.com/123456789")),
        ),
        (
            "LOCATION:https://global.gotomeeting.com/join/123",
            Some(("gotomeeting", "https://global.gotomeeting.com/join/123")),
        ),
        (
            "CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://video.example.org/room/7",
            Some(("other", "https://video.example.org/room/7")),
        ),
        (
            "X-GOOGLE-CONFERENCE:https://meet.google.com/xyz-abcd-efg",
            Some(("google_meet", "https://meet.google.com/xyz-abcd-efg")),
        ),
        (
            "X-MICROSOFT-SKYPETEAMSMEETINGURL:https://teams.microsoft.com/l/meetup-join/77",
            Some((
                "microsoft_teams",
                "https://teams.microsoft.com/l/meetup-join/77",
            )),
        ),
        (
            "URL:https://zoom.us/j/1\nDESCRIPTION:https://meet.google.com/aaa-bbbb-ccc",
            Some(("zoom", "https://zoom.us/j/1")),
        ),
        (
            "LOCATION:https://example.com/page\nDESCRIPTION:Call https://zoom.us/j/2",
            Some(("zoom", "https://zoom.us/j/2")),
        ),
        ("LOCATION:https://example.com/page", None),
        (
            "DESCRIPTION:Agenda at https://docs.example.com/agenda",
            None,
        ),
        ("URL:https://example.com/event/1", None),
        ("LOCATION:Room 4", None),
        ("DESCRIPTION:zoom.us without a scheme", None),
    ];
    let texts: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(n, (lines, _))| {
            format!(
                "UID:m{n}\nSUMMARY:M{n}\nDTSTART:20260310T{:02}0000Z\n{lines}",
                n
            )
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    feed_of(&s, &server, "/cal.ics", &vcalendar(&refs));
    for (n, (lines, want)) in cases.iter().enumerate() {
        let want = match want {
            Some((provider, url)) => json!({"provider": provider, "url": url}),
            None => Value::Null,
        };
        assert_eq!(event(&s, &format!("M{n}"))["meeting"], want, "{lines}");
    }
}
