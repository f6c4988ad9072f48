//! Calendar feeds in the organiser's archive (EXTENSIONS.md §5): a feed's
//! line is the feed as the API shows it (its schedule and health among
//! it), and under `stored` its address, which the API never shows,
//! without the credentials it may carry (`https://user:pass@host/…` is
//! written `https://host/…`). Events are not written: an imported feed is
//! due at once and its sync reads them again.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tables::{FEEDS, FEEDS_BY_CASE_NAME};
use super::{CalendarFeed, KIND, StoredFeed, fetch, load, save};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::limits;
use crate::portable::{self, Imported, Paths, Portable};
use crate::store::Tables;

/// The calendar feeds' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "calendar_feed",
    table: FEEDS,
    export,
    import,
};

/// What a feed's line holds beyond its API view.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    /// The address as written, without credentials; null when this
    /// store cannot open its own.
    address: Option<String>,
}

/// `address` without the user name and password of its authority.
fn without_credentials(address: &str) -> String {
    let Some((scheme, rest)) = address.split_once("://") else {
        return address.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    match authority.rfind('@') {
        Some(at) => format!("{scheme}://{}{tail}", &authority[at + 1..]),
        None => address.to_owned(),
    }
}

/// The line of feed `id`.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let Some(s) = load(cx, id)? else {
        return Ok(None);
    };
    let address = cx
        .org
        .secret
        .open(&s.address)
        .ok()
        .map(|bytes| without_credentials(&String::from_utf8_lossy(&bytes)));
    let mut line = portable::to_line(s.feed)?;
    if let Value::Object(fields) = &mut line {
        fields.insert("stored".to_owned(), portable::to_line(Stored { address })?);
    }
    Ok(Some(line))
}

/// 422 on `base` for the feed `id`'s line.
fn refused(id: Id, problem: &str) -> Error {
    Error::invalid(
        "base",
        format!("records/calendar_feed.jsonl: the calendar_feed {id} cannot be read: {problem}"),
    )
}

/// Writes a feed's line as the module's docs say: due to sync at once,
/// private addresses allowed as this process allows them.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, mut line: Value) -> Result<Imported> {
    let stored = line
        .as_object_mut()
        .and_then(|fields| fields.remove("stored"))
        .unwrap_or(Value::Null);
    let mut feed: CalendarFeed = portable::read_line(KIND.name, line)?;
    let stored: Stored =
        serde_json::from_value(stored).map_err(|e| refused(feed.id, &format!("stored: {e}")))?;
    let before = load(cx, feed.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|s| s.feed.updated_at),
        false,
        &mut feed.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    let written = match &stored.address {
        Some(address) => {
            fetch::address(address)
                .map_err(|phrase| refused(feed.id, &format!("its address {phrase}")))?
                .written
        }
        None => String::new(),
    };
    // The same address here (perhaps with its credentials) stays as it is.
    let kept = before.as_ref().filter(|b| {
        cx.org
            .secret
            .open(&b.address)
            .is_ok_and(|here| without_credentials(&String::from_utf8_lossy(&here)) == written)
    });
    let address = match kept {
        Some(b) => b.address.clone(),
        None => cx.org.secret.seal(written.as_bytes()),
    };
    if cx
        .named(FEEDS_BY_CASE_NAME, &feed.name, Some(feed.id))?
        .is_some()
    {
        feed.name = crate::restore::free_name(&feed.name, limits::text::CALENDAR_FEED_NAME, |n| {
            Ok(cx.named(FEEDS_BY_CASE_NAME, n, Some(feed.id))?.is_some())
        })?
        .ok_or_else(|| refused(feed.id, "its name is taken"))?;
    }
    let s = StoredFeed {
        feed,
        address,
        next_sync_at: cx.now(),
        private_allowed: cx.org.options.allow_private_feeds,
    };
    save(cx, before.as_ref(), &s)?;
    Ok(did)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::calendar_feeds::{CalendarFeedInput, CalendarFeedQuery};
    use crate::clock::Clock;
    use crate::input::Field;
    use crate::net::{HttpError, HttpRequest, HttpResponse};
    use crate::portable::round_trip;
    use crate::{ManualClock, Options, Organiser};

    const TEAM: &str = "BEGIN:VCALENDAR\r\nX-WR-CALNAME:Team\r\nBEGIN:VEVENT\r\nUID:standup\r\nSUMMARY:Stand-up\r\nDTSTART:20260302T090000Z\r\nDTEND:20260302T091500Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

    /// A store whose fetches answer as `answer` says now, and the
    /// addresses it was asked for.
    fn org(
        clock: &ManualClock,
        answer: Arc<Mutex<u16>>,
        asked: Arc<Mutex<Vec<String>>>,
    ) -> Organiser {
        let http = move |r: &HttpRequest| -> std::result::Result<HttpResponse, HttpError> {
            asked.lock().unwrap().push(r.url.clone());
            let status = *answer.lock().unwrap();
            Ok(HttpResponse::new(
                status,
                r.url.clone(),
                TEAM.as_bytes().to_vec(),
            ))
        };
        Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            http: Arc::new(http),
            ..Options::default()
        })
    }

    fn input(address: &str, name: Option<&str>) -> CalendarFeedInput {
        CalendarFeedInput {
            address: Some(address.into()),
            name: name.map_or(Field::Absent, |n| Field::Value(n.into())),
            color: Field::Value("blue".into()),
            ..CalendarFeedInput::default()
        }
    }

    #[test]
    fn credentials_are_left_out_of_an_address() {
        for (address, expected) in [
            (
                "https://ann:s3cret@cal.example.com/a.ics",
                "https://cal.example.com/a.ics",
            ),
            ("webcal://ann@cal.example.com", "webcal://cal.example.com"),
            (
                "https://cal.example.com/a.ics?who=a@b",
                "https://cal.example.com/a.ics?who=a@b",
            ),
            (
                "https://cal.example.com:8443/x",
                "https://cal.example.com:8443/x",
            ),
            ("not an address", "not an address"),
        ] {
            assert_eq!(without_credentials(address), expected, "{address}");
        }
    }

    #[test]
    fn feeds_round_trip_exactly_without_credentials_or_events() {
        let clock = ManualClock::at("2026-03-02T09:00:00Z");
        let answer = Arc::new(Mutex::new(200));
        let a = org(&clock, answer.clone(), Arc::default());
        let team = a
            .calendar_feeds()
            .create(input("webcal://ann:s3cret@cal.example.com/team.ics", None))
            .unwrap();
        clock.advance_secs(60);
        let work = a
            .calendar_feeds()
            .create(CalendarFeedInput {
                sync_every: Field::Value("daily".into()),
                ..input("https://calendar.google.com/x/basic.ics", Some("Work"))
            })
            .unwrap();
        clock.advance_secs(60);
        *answer.lock().unwrap() = 503;
        let failing = a.calendar_feeds().sync(work.id).unwrap();
        assert_eq!(failing.sync_error.as_ref().unwrap().failures, 1);
        *answer.lock().unwrap() = 200;
        let gone = a
            .calendar_feeds()
            .create(input("https://cal.example.com/gone.ics", Some("Gone")))
            .unwrap();
        a.calendar_feeds().delete(gone.id).unwrap();
        clock.advance_secs(60);

        let asked = Arc::new(Mutex::new(Vec::new()));
        let b = org(&clock, Arc::new(Mutex::new(200)), asked.clone());
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(first[0].len(), 2);
        assert!(did[0].iter().all(|d| *d == Imported::Created), "{did:?}");
        assert_eq!(first, again);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        let text = serde_json::to_string(&first).unwrap();
        assert!(!text.contains("s3cret") && !text.contains("ann"), "{text}");
        assert_eq!(
            first[0][0]["stored"]["address"],
            "webcal://cal.example.com/team.ics"
        );
        assert_eq!(first[0][1]["sync_error"]["code"], "server_error");

        let (_, again2, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|d| *d == Imported::Unchanged), "{did:?}");
        assert_eq!(first, again2);

        // The new store: by name, by address, due at once; no events
        // until its sync reads them from the address.
        let names: Vec<String> = b
            .calendar_feeds()
            .list(&CalendarFeedQuery::default())
            .unwrap()
            .items
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["Team", "Work"]);
        let by_address = b
            .calendar_feeds()
            .list(&CalendarFeedQuery {
                address: Some("https://cal.example.com/team.ics".into()),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(by_address.items[0].id, team.id);
        assert_eq!(b.next_feed_sync_at().unwrap(), Some(clock.now()));
        let day = jiff::civil::date(2026, 3, 2);
        let range = |org: &Organiser| {
            org.calendar()
                .range(crate::CalendarQuery::new(day, day).unwrap())
                .unwrap()
                .events
                .len()
        };
        assert_eq!(range(&b), 0);
        assert_eq!(b.sync_due_feeds().unwrap(), 2);
        assert_eq!(range(&b), 2, "each feed's stand-up");
        assert!(
            asked
                .lock()
                .unwrap()
                .contains(&"https://cal.example.com/team.ics".to_owned())
        );

        // A newer line replaces the feed; the address here stays.
        clock.advance_secs(60);
        a.calendar_feeds()
            .change(
                work.id,
                CalendarFeedInput {
                    color: Field::Value("red".into()),
                    ..Default::default()
                },
            )
            .unwrap();
        let (_, _, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(did[0], [Imported::Unchanged, Imported::Updated]);
        assert_eq!(b.calendar_feeds().get(work.id).unwrap().color, "red");
    }
}
