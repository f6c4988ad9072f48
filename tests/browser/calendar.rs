//! The calendar and its feeds (`/calendar`, `/calendar/feeds`;
//! EXTENSIONS.md §6: the calendar, week and month, and feeds), by
//! keyboard alone: a feed served on loopback subscribed to from the feeds
//! page, synced there once it has a weekly meeting, the meeting seen on
//! its day in the week view and in the next week's, and its attendee,
//! matched to a person by their e-mail address, a link to that person.

use organiser::people::{EmailAddressFields, PersonInput, RowInput};
use organiser::{Field, Id};
use serde_json::json;
use thirtyfour::Key;

use crate::common::{FeedServer, Setup, TestServer, Vcal};
use crate::harness::{Browser, VARIANTS, Variant};
use crate::site::{PASSWORD, Site};
use crate::tasks::visit;

/// A site as [`Site::ready`] makes it, whose core may read feeds on
/// loopback (the feed server is there).
fn site_reading_loopback(variant: Variant) -> Site {
    let mut setup = Setup::default();
    setup.options.allow_private_feeds = true;
    let site = Site {
        server: TestServer::with(setup),
    };
    site.org()
        .account()
        .set_password(None, PASSWORD)
        .expect("a password");
    site.theme(variant);
    site
}

/// The team's calendar before the meeting is planned: only its name.
fn empty_team() -> String {
    Vcal::new().name("Team").build()
}

/// The team's calendar with a weekly meeting on Mondays at 10:00 UTC
/// from 9 March 2026, Grace invited by her e-mail address under another
/// spelling of her name (the person is found by the address).
fn team_with_meeting() -> String {
    Vcal::new()
        .name("Team")
        .event(
            "UID:weekly-review@example.com
             SUMMARY:Weekly review
             DTSTART:20260309T100000Z
             DTEND:20260309T103000Z
             RRULE:FREQ=WEEKLY;COUNT=10
             ORGANIZER;CN=Bob Builder:mailto:bob@example.com
             ATTENDEE;CN=G. Hopper:mailto:GRACE@example.com
             ATTENDEE;CN=Bob Builder:mailto:bob@example.com",
        )
        .build()
}

/// The text of day `iso` in the week shown.
fn day_text(b: &Browser, iso: &str) -> String {
    b.js(
        "const h = document.getElementById('d-' + arguments[0]); return h ? h.closest('.cal-day').innerText : null;",
        vec![json!(iso)],
    )
    .as_str()
    .unwrap_or_else(|| panic!("no day {iso} on {}", b.path()))
    .to_owned()
}

/// The addresses of the links named `name` within day `iso`.
fn links_in_day(b: &Browser, iso: &str, name: &str) -> Vec<String> {
    let v = b.js(
        "const h = document.getElementById('d-' + arguments[0]);\
         if (!h) return [];\
         return [...h.closest('.cal-day').querySelectorAll('a')]\
           .filter(a => a.innerText.trim() === arguments[1]).map(a => a.getAttribute('href'));",
        vec![json!(iso), json!(name)],
    );
    serde_json::from_value(v).unwrap_or_default()
}

/// Grace, with her e-mail address, made through the core.
fn grace(site: &Site) -> Id {
    site.org()
        .people()
        .create(PersonInput {
            name: Some("Grace Hopper".into()),
            email_addresses: Some(vec![RowInput::add(EmailAddressFields {
                address: Field::Value("grace@example.com".into()),
                ..EmailAddressFields::default()
            })]),
            ..PersonInput::default()
        })
        .expect("Grace")
        .id
}

#[test]
fn a_feed_on_loopback_shows_a_weekly_meeting_with_its_attendee_linked_to_the_person() {
    let mut b = Browser::start();
    let feeds = FeedServer::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = site_reading_loopback(variant);
        let grace = grace(&site);
        // A calendar of its own for each variant (its hits counted apart).
        let path = format!("/team-{}.ics", variant.name());
        feeds.serve(&path, empty_team());
        site.sign_in(&b);

        // The calendar says there is no feed and leads to the feeds page.
        visit(&b, &site, "/calendar", "calendar (week)");
        assert!(
            b.text("main").contains("No calendar feeds yet"),
            "{}",
            b.text("main")
        );
        b.tab_to("Feeds", |f| f.tag == "a" && f.name == "Feeds");
        b.press(Key::Enter);
        b.wait_for_path("/calendar/feeds");
        b.check("calendar feeds");
        assert!(b.text("main").contains("No calendar feeds yet."));

        // Subscribed by its address; the name left for the calendar's own.
        let before = b.navigation();
        b.type_in("Address (iCal, https or webcal)", &feeds.url(&path));
        b.tab_to("Add the feed", |f| {
            f.tag == "button" && f.name == "Add the feed"
        });
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the feed added");
        b.wait(
            "the feed listed",
            "return [...document.querySelectorAll('th[scope=row]')].some(t => t.innerText.trim() === 'Team')",
            vec![],
        );
        b.check("calendar feeds (added)");
        assert!(b.text("main").contains("Working"), "{}", b.text("main"));
        assert_eq!(feeds.hits(&path), 1, "read once as it was added");

        // The meeting is planned; Sync now reads it.
        feeds.serve(&path, team_with_meeting());
        let before = b.navigation();
        b.tab_to("Team's Sync now", |f| {
            f.tag == "button" && f.name.starts_with("Sync") && f.name.contains("Team")
        });
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the feed synced");
        b.check("calendar feeds (synced)");
        assert_eq!(feeds.hits(&path), 2, "read again by Sync now");
        assert!(b.text("main").contains("Working"), "{}", b.text("main"));

        // The week: the meeting on Monday, Grace linked to her page, Bob
        // (no person of the organiser) named only.
        b.tab_to("Calendar", |f| f.tag == "a" && f.name == "Calendar");
        b.press(Key::Enter);
        b.wait_for_path("/calendar");
        b.check("calendar (week, with the feed)");
        assert_eq!(b.heading(), "9 – 15 March 2026");
        let monday = day_text(&b, "2026-03-09");
        assert!(monday.contains("Weekly review"), "{monday}");
        assert!(monday.contains("10:00"), "{monday}");
        assert!(monday.contains("Bob Builder (organiser)"), "{monday}");
        let person = format!("/people/{grace}");
        assert_eq!(
            links_in_day(&b, "2026-03-09", "Grace Hopper"),
            [person.as_str()]
        );
        assert!(links_in_day(&b, "2026-03-09", "Bob Builder").is_empty());
        for other in ["2026-03-10", "2026-03-12", "2026-03-15"] {
            assert!(!day_text(&b, other).contains("Weekly review"), "{other}");
        }

        // The next week: the meeting again on its Monday.
        b.tab_to("the next week", |f| f.tag == "a" && f.name == "Next week →");
        b.press(Key::Enter);
        b.wait_for_path("/calendar?date=2026-03-16");
        b.check("calendar (next week)");
        assert_eq!(b.heading(), "16 – 22 March 2026");
        let monday = day_text(&b, "2026-03-16");
        assert!(monday.contains("Weekly review"), "{monday}");
        assert_eq!(
            links_in_day(&b, "2026-03-16", "Grace Hopper"),
            [person.as_str()]
        );

        // Grace's name leads to her page.
        b.tab_to("Grace Hopper", |f| f.tag == "a" && f.name == "Grace Hopper");
        b.press(Key::Enter);
        b.wait_for_path(&person);
        b.check("person (from the calendar)");
        assert_eq!(b.heading(), "Grace Hopper");

        // The month: every Monday from the first holds the meeting.
        b.tab_to("Calendar", |f| f.tag == "a" && f.name == "Calendar");
        b.press(Key::Enter);
        b.wait_for_path("/calendar");
        b.tab_to("the month", |f| f.tag == "a" && f.name == "Month");
        b.press(Key::Enter);
        b.wait(
            "the month view",
            "return location.search.includes('view=month')",
            vec![],
        );
        b.check("calendar (month)");
        for monday in ["2026-03-09", "2026-03-16", "2026-03-23", "2026-03-30"] {
            assert!(day_text(&b, monday).contains("Weekly review"), "{monday}");
        }
        assert!(!day_text(&b, "2026-03-02").contains("Weekly review"));
    }
    b.finish();
}
