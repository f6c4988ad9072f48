//! The calendar servers the properties' feeds are read from, offline: the
//! address's path says what comes back, so operations can make feeds that
//! read, fail, or serve a malformed body.

use std::sync::Mutex;

use organiser::{net::HttpError, net::HttpRequest, net::HttpResponse, server::Method};
use proptest::prelude::*;
use serde_json::json;

use crate::fixture::{Call, Store};

/// The body the address ending in `fuzz` answers (set by the property).
static FUZZ_BODY: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// A small calendar: one weekly event and one all-day event.
pub(crate) const CALENDAR: &str = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Props\r\nBEGIN:VEVENT\r\nUID:weekly\r\nSUMMARY:Weekly\r\nDTSTART;TZID=Europe/London:20260302T090000\r\nDTEND;TZID=Europe/London:20260302T100000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\nATTENDEE;CN=Ann:mailto:ann@example.com\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:day\r\nSUMMARY:Day off\r\nDTSTART;VALUE=DATE:20260312\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

/// Answers a fetch by the address's last path segment: `404`, `500`,
/// `html`, `refused`, `timeout`, or (anything else) [`CALENDAR`].
pub(crate) fn answer(request: &HttpRequest) -> Result<HttpResponse, HttpError> {
    if request.url.contains("/ai/") {
        return Ok(ai_answer(request));
    }
    let last = request.url.rsplit('/').next().unwrap_or("");
    let body = |status: u16, text: &str| {
        Ok(HttpResponse::new(
            status,
            request.url.clone(),
            text.as_bytes().to_vec(),
        ))
    };
    match last {
        "404" => body(404, ""),
        "500" => body(500, ""),
        "html" => body(200, "<html><body>hello</body></html>"),
        "refused" => Err(HttpError::RefusedAddress(
            "127.0.0.1".parse().expect("an address"),
        )),
        "timeout" => Err(HttpError::Timeout),
        "fuzz" => Ok(HttpResponse::new(
            200,
            request.url.clone(),
            FUZZ_BODY.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        )),
        _ => body(200, CALENDAR),
    }
}

/// What a model server at an `/ai/` address answers: two models, and a
/// reply to every question.
fn ai_answer(request: &HttpRequest) -> HttpResponse {
    let body = if request.url.ends_with("/chat/completions") {
        r#"{"choices":[{"message":{"role":"assistant","content":"A title"},"finish_reason":"stop"}]}"#
    } else if request.url.ends_with("/messages") {
        r#"{"content":[{"type":"text","text":"A title"}],"stop_reason":"end_turn"}"#
    } else {
        r#"{"data":[{"id":"m1"},{"id":"m2"}]}"#
    };
    HttpResponse::new(200, request.url.clone(), body.as_bytes().to_vec())
}

/// Pieces of iCalendar, right and wrong, that bodies are made of.
const PIECES: &[&str] = &[
    "BEGIN:VCALENDAR",
    "END:VCALENDAR",
    "BEGIN:VEVENT",
    "END:VEVENT",
    "BEGIN:VTIMEZONE",
    "END:VTIMEZONE",
    "BEGIN:STANDARD",
    "END:STANDARD",
    "BEGIN:DAYLIGHT",
    "END:DAYLIGHT",
    "BEGIN:VALARM",
    "END:VALARM",
    "BEGIN:X-ODD",
    "END:X-ODD",
    "UID:a",
    "UID:b",
    "SUMMARY:Meeting",
    "SUMMARY;LANGUAGE=en:Caf\\u00e9 \\, \\; \\n",
    "DTSTART:20260310T090000Z",
    "DTSTART;VALUE=DATE:20260310",
    "DTSTART;TZID=Europe/London:20260329T013000",
    "DTSTART;TZID=Nowhere:20260310T090000",
    "DTSTART:99999999T999999",
    "DTSTART:",
    "DTSTART:2026",
    "DTEND:20260310T100000Z",
    "DTEND;VALUE=DATE:20260301",
    "DURATION:PT1H",
    "DURATION:P-1D",
    "DURATION:PXYZ",
    "RRULE:FREQ=DAILY;COUNT=5",
    "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260501T000000Z",
    "RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1",
    "RRULE:FREQ=YEARLY;INTERVAL=0",
    "RRULE:FREQ=SECONDLY",
    "RRULE:FREQ=MINUTELY;BYSECOND=1,2,3",
    "RRULE:FREQ=DAILY;COUNT=3;UNTIL=20260101",
    "RRULE:BYDAY=XX",
    "RRULE:",
    "RRULE:FREQ=MONTHLY;BYMONTHDAY=31,-31;BYMONTH=2",
    "EXDATE:20260311T090000Z,garbage",
    "RDATE;VALUE=PERIOD:20260320T090000Z/PT1H",
    "RDATE:20260321T090000Z",
    "RECURRENCE-ID:20260312T090000Z",
    "RECURRENCE-ID;VALUE=DATE:20260312",
    "STATUS:CANCELLED",
    "ATTENDEE;CN=\"Ann, Lee\":mailto:ANN@EXAMPLE.COM",
    "ATTENDEE:mailto:",
    "ATTENDEE;CN=:x",
    "ORGANIZER;CN=Bob:mailto:bob@example.com",
    "LOCATION:https://zoom.us/j/1 https://",
    "DESCRIPTION:<p>hi <a href=x>https://meet.google.com/x</a></p>",
    "URL:javascript:alert(1)",
    "CONFERENCE;VALUE=URI:https://",
    "TZID:Custom",
    "TZOFFSETTO:+2500",
    "TZOFFSETTO:-0500",
    "TZOFFSETFROM:-0400",
    "RRULE:FREQ=YEARLY;BYMONTH=13;BYDAY=9SU",
    "X-WR-CALNAME:\u{0}Name",
    " folded continuation",
    "\tfolded",
    ":",
    ";;;",
    "NAME;PARAM=\"unclosed:value",
    "",
];

fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|lines| {
            let mut text = String::from("BEGIN:VCALENDAR\r\n");
            for line in lines {
                text.push_str(line);
                text.push_str("\r\n");
            }
            text.into_bytes()
        }),
        1 => prop::collection::vec(any::<u8>(), 0..400).prop_map(|mut bytes| {
            let mut body = b"BEGIN:VCALENDAR\n".to_vec();
            body.append(&mut bytes);
            body
        }),
    ]
}

/// No feed body, however malformed, makes a create, a sync or a read of
/// the calendar panic or fail with a 500: a create is 201 or 422, a sync
/// 200, and the calendar and meetings 200.
#[test]
fn no_feed_body_fails_badly() {
    let regressions = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/props/proptest-regressions/feeds.txt"
    );
    let mut runner = proptest::test_runner::TestRunner::new(crate::config(64, regressions));
    let outcome = runner.run(&(body(), body()), |(first, second)| {
        let store = Store::new(
            "2026-03-10T09:00:00Z".parse().expect("an instant"),
            "London",
        );
        let person = store
            .call(&Call::new(Method::Post, "/people").body(json!({"person": {
                "name": "Ann Lee",
                "email_addresses": [{"address": "ann@example.com"}],
            }})))
            .expect(201);
        *FUZZ_BODY.lock().unwrap_or_else(|e| e.into_inner()) = first;
        let created = store.call(&Call::new(Method::Post, "/calendar_feeds").body(json!({
            "calendar_feed": {"address": "https://calendar.example.com/fuzz", "color": "blue"}
        })));
        prop_assert!(
            created.status == 201 || created.status == 422,
            "create: {} {}",
            created.status,
            created.body
        );
        if created.status == 201 {
            *FUZZ_BODY.lock().unwrap_or_else(|e| e.into_inner()) = second;
            let id = created.data()["id"].as_str().unwrap_or_default().to_owned();
            let synced = store.call(&Call::new(
                Method::Post,
                format!("/calendar_feeds/{id}/sync"),
            ));
            prop_assert_eq!(synced.status, 200, "sync: {}", synced.body);
        }
        let meetings = format!(
            "/people/{}/meetings",
            person.data()["id"].as_str().unwrap_or_default()
        );
        for call in [
            Call::get("/calendar")
                .param("from", "2026-03-01")
                .param("to", "2026-04-11"),
            Call::get("/calendar")
                .param("from", "2024-01-01")
                .param("to", "2024-02-11"),
            Call::get(meetings),
        ] {
            let read = store.call(&call);
            prop_assert_eq!(read.status, 200, "{}: {}", call.path, read.body);
        }
        Ok(())
    });
    crate::expect_passed(outcome);
}
