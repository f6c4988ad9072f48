//! The calendar's pages as a browser without script uses them
//! (EXTENSIONS.md §6: the calendar, week and month, and its feeds): a week
//! and a month with each kind of item on its day (a feed's events at their
//! time in the owner's zone with the attendees who are people linked, a
//! task due, a repeating task's dates to come, a project's start and
//! deadline, a birthday), the navigation between weeks and months, a feed
//! added from a loopback server by its address and its events shown, its
//! health, sync now and delete; hostile titles escaped; 303 to sign-in
//! without a session and 403 for a form without the session's CSRF token.

use organiser::account::OwnerChange;
use organiser::calendar::CalendarFeedQuery;
use serde_json::json;

use super::{Answer, Page};
use crate::common::feed_server::{Answer as Served, FeedServer, Vcal};
use crate::common::{Setup, TestServer};

/// A server whose core may read feeds on loopback; it is Tuesday
/// 2026-03-10, 09:00 UTC, and the owner lives in Paris (UTC+1 in March).
fn server() -> TestServer {
    let mut setup = Setup::default();
    setup.options.allow_private_feeds = true;
    let s = TestServer::with(setup);
    s.org
        .account()
        .change_me(OwnerChange {
            time_zone: Some("Europe/Paris".into()),
            ..OwnerChange::default()
        })
        .unwrap();
    s
}

/// The team's calendar: a weekly stand-up on Mondays at 09:00 UTC with Ada
/// (a person of the organiser) and Bob (not one), and an all-day offsite
/// on Thursday 12 March.
fn team() -> String {
    Vcal::new()
        .name("Team")
        .event(
            "UID:standup
             SUMMARY:Stand-up
             DTSTART:20260309T090000Z
             DTEND:20260309T091500Z
             RRULE:FREQ=WEEKLY;COUNT=8
             ORGANIZER;CN=Bob Builder:mailto:bob@example.com
             ATTENDEE;CN=Ada Lovelace:mailto:ada@example.com
             ATTENDEE;CN=Bob Builder:mailto:bob@example.com",
        )
        .event(
            "UID:offsite
             SUMMARY:Offsite
             DTSTART;VALUE=DATE:20260312
             DTEND;VALUE=DATE:20260313",
        )
        .build()
}

/// The id in a created record's answer.
fn id(reply: &crate::common::Reply) -> String {
    reply.data()["id"].as_str().unwrap().to_owned()
}

/// What the calendar holds besides feeds: Ada with a birthday on Saturday
/// 14 March, a task due Wednesday, a weekly task from today, a project
/// starting Monday 9 March with its deadline on Friday 13.
struct Records {
    ada: String,
    task: String,
    weekly: String,
    project: String,
}

fn records(s: &TestServer) -> Records {
    let ada = s
        .post(
            "/people",
            json!({"person": {"name": "Ada Lovelace",
                              "email_addresses": [{"address": "ada@example.com"}],
                              "key_dates": [{"kind": "birthday", "day": 14, "month": 3, "year": 1990}]}}),
        )
        .expect(201);
    let task = s
        .post(
            "/tasks",
            json!({"task": {"title": "Pay rent", "deadline_on": "2026-03-11"}}),
        )
        .expect(201);
    let weekly = s
        .post(
            "/tasks",
            json!({"task": {"title": "Water the plants", "deadline_on": "2026-03-10",
                            "repeat": {"rule": "FREQ=WEEKLY;COUNT=6"}}}),
        )
        .expect(201);
    let project = s
        .post(
            "/projects",
            json!({"project": {"name": "Kitchen", "status": "active",
                               "start_date": "2026-03-09", "deadline": "2026-03-13"}}),
        )
        .expect(201);
    Records {
        ada: id(&ada),
        task: id(&task),
        weekly: id(&weekly),
        project: id(&project),
    }
}

/// Subscribes to `path` of `feeds` through the feeds page's form.
fn add_feed(page: &mut Page<'_>, feeds: &FeedServer, path: &str) -> Answer {
    page.submit(
        "/calendar/feeds",
        "/calendar/feeds",
        &[
            ("address", feeds.url(path).as_str()),
            ("name", ""),
            ("color", "blue"),
        ],
    )
}

/// The part of the page about the day `iso` (up to the next day).
fn day<'a>(answer: &'a Answer, iso: &str) -> &'a str {
    let marker = format!("id=\"d-{iso}\"");
    let start = answer
        .body
        .find(&marker)
        .unwrap_or_else(|| panic!("no day {iso}: {}", answer.body));
    let rest = &answer.body[start..];
    let end = rest[marker.len()..]
        .find("id=\"d-")
        .map_or(rest.len(), |e| e + marker.len());
    &rest[..end]
}

#[test]
fn the_week_shows_each_kind_of_item_on_its_day() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", team());
    let s = server();
    let r = records(&s);
    let mut page = Page::signed_in(&s);
    let added = add_feed(&mut page, &feeds, "/team.ics");
    assert_eq!(added.status, 303, "{added:?}");

    let week = page.get("/calendar");
    assert_eq!(week.status, 200, "{week:?}");
    assert!(
        week.body.contains("<h1>9 – 15 March 2026</h1>"),
        "{}",
        week.body
    );
    // Seven days, each a heading naming it, today marked.
    assert_eq!(week.body.matches("<li class=\"cal-day").count(), 7);
    assert!(
        week.body
            .contains("<time datetime=\"2026-03-09\">Monday 9 March</time>")
    );
    assert!(
        week.body
            .contains("<time datetime=\"2026-03-15\">Sunday 15 March</time>")
    );
    assert_eq!(week.body.matches("aria-current=\"date\"").count(), 1);
    assert!(
        week.body.contains(
            "<li class=\"cal-day today\" aria-current=\"date\">\n<h2 id=\"d-2026-03-10\">"
        )
    );

    // Monday: the stand-up at 10:00 in Paris, Ada linked, Bob not; the
    // project's start.
    let monday = day(&week, "2026-03-09");
    assert!(monday.contains("10:00–10:15"), "{monday}");
    assert!(monday.contains("Stand-up"), "{monday}");
    assert!(
        monday.contains(&format!("<a href=\"/people/{}\">Ada Lovelace</a>", r.ada)),
        "{monday}"
    );
    assert!(monday.contains("Bob Builder (organiser)"), "{monday}");
    assert!(monday.contains(&format!("<a href=\"/projects/{}\">Kitchen</a>", r.project)));
    assert!(monday.contains("starts"));
    // Tuesday (today): the weekly task due; Wednesday: the task due.
    let tuesday = day(&week, "2026-03-10");
    assert!(tuesday.contains(&format!(
        "<a href=\"/tasks/{}\">Water the plants</a>",
        r.weekly
    )));
    let wednesday = day(&week, "2026-03-11");
    assert!(wednesday.contains(&format!("<a href=\"/tasks/{}\">Pay rent</a>", r.task)));
    // Thursday: the offsite, all day, before anything timed.
    let thursday = day(&week, "2026-03-12");
    assert!(thursday.contains("All day"), "{thursday}");
    assert!(thursday.contains("Offsite"), "{thursday}");
    // Friday: the project's deadline; Saturday: Ada's birthday.
    let friday = day(&week, "2026-03-13");
    assert!(friday.contains(&format!("<a href=\"/projects/{}\">Kitchen</a>", r.project)));
    assert!(friday.contains("deadline"));
    let saturday = day(&week, "2026-03-14");
    assert!(saturday.contains(&format!("<a href=\"/people/{}\">Ada Lovelace</a>", r.ada)));
    assert!(saturday.contains("Birthday, 36 years"), "{saturday}");
    let sunday = day(&week, "2026-03-15");
    assert!(sunday.contains("Nothing."), "{sunday}");

    // Next week: the stand-up again and the weekly task's next date.
    let next = page.get("/calendar?date=2026-03-16");
    assert!(next.body.contains("<h1>16 – 22 March 2026</h1>"));
    assert!(!next.body.contains("aria-current=\"date\""));
    let monday = day(&next, "2026-03-16");
    assert!(monday.contains("Stand-up"));
    let tuesday = day(&next, "2026-03-17");
    assert!(tuesday.contains(&format!(
        "<a href=\"/tasks/{}\">Water the plants</a>",
        r.weekly
    )));
    assert!(tuesday.contains("repeats"), "{tuesday}");
}

#[test]
fn the_month_shows_whole_weeks_with_the_items() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", team());
    let s = server();
    let r = records(&s);
    let mut page = Page::signed_in(&s);
    assert_eq!(add_feed(&mut page, &feeds, "/team.ics").status, 303);

    let month = page.get("/calendar?view=month&date=2026-03-20");
    assert_eq!(month.status, 200, "{month:?}");
    assert!(month.body.contains("<h1>March 2026</h1>"));
    // 1 March 2026 is a Sunday: from Monday 23 February to Sunday 5 April,
    // six weeks, the core's 42 days.
    assert_eq!(month.body.matches("<td class=\"cal-day").count(), 42);
    assert!(month.body.contains("id=\"d-2026-02-23\""));
    assert!(month.body.contains("id=\"d-2026-04-05\""));
    assert_eq!(month.body.matches("cal-day outside").count(), 6 + 5);
    assert_eq!(month.body.matches("aria-current=\"date\"").count(), 1);
    assert!(
        month
            .body
            .contains("<th scope=\"col\"><abbr title=\"Monday\">Mon</abbr></th>")
    );
    // Every Monday from the 9th has the stand-up; the rest on their days.
    for monday in ["2026-03-09", "2026-03-16", "2026-03-23", "2026-03-30"] {
        assert!(day(&month, monday).contains("Stand-up"), "{monday}");
    }
    assert!(!day(&month, "2026-03-02").contains("Stand-up"));
    assert!(day(&month, "2026-03-11").contains(&format!("/tasks/{}", r.task)));
    assert!(day(&month, "2026-03-24").contains(&format!("/tasks/{}", r.weekly)));
    assert!(day(&month, "2026-03-13").contains(&format!("/projects/{}", r.project)));
    assert!(day(&month, "2026-03-14").contains(&format!("/people/{}", r.ada)));
    assert!(day(&month, "2026-03-12").contains("Offsite"));

    // Navigation: months before and after, today, the week.
    assert!(
        month
            .body
            .contains("href=\"/calendar?view=month&#38;date=2026-02-01\"")
    );
    assert!(
        month
            .body
            .contains("href=\"/calendar?view=month&#38;date=2026-04-01\"")
    );
    assert!(month.body.contains("February 2026"));
    assert!(month.body.contains("April 2026"));
    let february = page.get("/calendar?view=month&date=2026-02-01");
    assert!(february.body.contains("<h1>February 2026</h1>"));
    // February 2026 begins on a Sunday too and ends on a Saturday.
    assert_eq!(february.body.matches("<td class=\"cal-day").count(), 35);
    assert!(!february.body.contains("aria-current=\"date\""));

    let week = page.get("/calendar?date=2026-03-10");
    assert!(week.body.contains("href=\"/calendar?date=2026-03-02\""));
    assert!(week.body.contains("href=\"/calendar?date=2026-03-16\""));
    assert!(
        week.body
            .contains("href=\"/calendar?view=month&#38;date=2026-03-01\"")
    );
    assert!(week.body.contains("href=\"/calendar\">Today</a>"));
    // A week across years names both.
    let new_year = page.get("/calendar?date=2026-01-01");
    assert!(
        new_year
            .body
            .contains("<h1>29 December 2025 – 4 January 2026</h1>")
    );

    // Nonsense is refused plainly.
    assert_eq!(page.get("/calendar?date=2026-13-01").status, 400);
    assert_eq!(page.get("/calendar?view=year").status, 400);
}

#[test]
fn feeds_are_added_synced_and_deleted_with_their_health() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", team());
    let s = server();
    let mut page = Page::signed_in(&s);

    let empty = page.get("/calendar/feeds");
    assert_eq!(empty.status, 200);
    assert!(empty.body.contains("No calendar feeds yet."));
    assert!(page.get("/calendar").body.contains("No calendar feeds yet"));

    // An address that is not one is refused beside its field, kept as typed.
    let refused = page.submit(
        "/calendar/feeds",
        "/calendar/feeds",
        &[("address", "not an address"), ("name", "Mine")],
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"feed-address-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"not an address\""));
    assert!(refused.body.contains("value=\"Mine\""));

    let added = add_feed(&mut page, &feeds, "/team.ics");
    assert_eq!(added.status, 303, "{added:?}");
    assert_eq!(added.location(), Some("/calendar/feeds"));
    assert_eq!(feeds.hits("/team.ics"), 1);
    let feed = s
        .org
        .calendar_feeds()
        .list(&CalendarFeedQuery::default())
        .unwrap()
        .items;
    assert_eq!(feed.len(), 1);
    let feed = &feed[0];
    let list = page.get("/calendar/feeds");
    assert!(
        list.body.contains("<th scope=\"row\">Team</th>"),
        "{}",
        list.body
    );
    assert!(list.body.contains("127.0.0.1"));
    assert!(list.body.contains("Working"));
    assert!(list.body.contains("Tue 10 Mar 2026 10:00"), "{}", list.body);

    // Sync now reads it again; a failing server shows in its health.
    feeds.set("/team.ics", Served::status(500));
    let synced = page.submit(
        "/calendar/feeds",
        &format!("/calendar/feeds/{}/sync", feed.id),
        &[],
    );
    assert_eq!(synced.status, 303, "{synced:?}");
    assert_eq!(feeds.hits("/team.ics"), 2);
    let failing = page.get("/calendar/feeds");
    assert!(failing.body.contains("class=\"error\""), "{}", failing.body);
    assert!(failing.body.contains("(HTTP 500)"), "{}", failing.body);
    // Its events stay until it is deleted.
    assert!(page.get("/calendar").body.contains("Stand-up"));

    let deleted = page.submit(
        "/calendar/feeds",
        &format!("/calendar/feeds/{}/delete", feed.id),
        &[],
    );
    assert_eq!(deleted.status, 303, "{deleted:?}");
    assert!(
        s.org
            .calendar_feeds()
            .list(&CalendarFeedQuery::default())
            .unwrap()
            .items
            .is_empty()
    );
    assert!(!page.get("/calendar").body.contains("Stand-up"));
    assert!(
        page.get("/calendar/feeds")
            .body
            .contains("No calendar feeds yet.")
    );
}

#[test]
fn hostile_titles_and_names_are_escaped() {
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    let feeds = FeedServer::start();
    feeds.serve(
        "/evil.ics",
        Vcal::new()
            .name(hostile)
            .event(&format!(
                "UID:evil
                 SUMMARY:{hostile}
                 LOCATION:{hostile}
                 DTSTART:20260310T120000Z
                 DTEND:20260310T130000Z
                 ATTENDEE;CN=\"{hostile}\":mailto:evil@example.com"
            ))
            .build(),
    );
    let s = server();
    s.post(
        "/tasks",
        json!({"task": {"title": hostile, "deadline_on": "2026-03-10"}}),
    )
    .expect(201);
    s.post(
        "/projects",
        json!({"project": {"name": hostile, "deadline": "2026-03-10"}}),
    )
    .expect(201);
    s.post(
        "/people",
        json!({"person": {"name": hostile, "email_addresses": [{"address": "evil@example.com"}],
                          "key_dates": [{"kind": "other", "label": hostile, "day": 10, "month": 3}]}}),
    )
    .expect(201);
    let mut page = Page::signed_in(&s);
    assert_eq!(add_feed(&mut page, &feeds, "/evil.ics").status, 303);
    for path in ["/calendar", "/calendar?view=month", "/calendar/feeds"] {
        let answer = page.get(path);
        assert_eq!(answer.status, 200, "{path}: {answer:?}");
        assert!(
            !answer.body.contains("<script>alert"),
            "{path}: {}",
            answer.body
        );
        assert!(!answer.body.contains("<img src=x"), "{path}");
        assert!(
            answer
                .body
                .contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{path}: {}",
            answer.body
        );
    }
    // Every kind is on today's page, escaped.
    let week = page.get("/calendar");
    assert!(day(&week, "2026-03-10").matches("&#60;script&#62;").count() >= 5);
}

#[test]
fn no_page_without_a_session_and_no_form_without_its_token() {
    let feeds = FeedServer::start();
    feeds.serve("/team.ics", team());
    let s = server();
    super::assert_signed_only(
        &s,
        &["/calendar", "/calendar?view=month", "/calendar/feeds"].map(String::from),
    );
    let mut anonymous = Page::anonymous(&s);
    let address = feeds.url("/team.ics");
    let answer = anonymous.form("/calendar/feeds", &[("address", address.as_str())]);
    assert_eq!(answer.status, 303);
    assert_eq!(answer.location(), Some("/sign-in"));

    let mut page = Page::signed_in(&s);
    // Without the token, or with another, nothing is fetched or made.
    for token in [None, Some("forged")] {
        let mut fields = vec![("address", address.as_str())];
        if let Some(t) = token {
            fields.push(("csrf_token", t));
        }
        let answer = page.form("/calendar/feeds", &fields);
        assert_eq!(answer.status, 403, "{answer:?}");
    }
    assert_eq!(feeds.hits("/team.ics"), 0);
    assert!(
        s.org
            .calendar_feeds()
            .list(&CalendarFeedQuery::default())
            .unwrap()
            .items
            .is_empty()
    );

    assert_eq!(add_feed(&mut page, &feeds, "/team.ics").status, 303);
    let feed = s
        .org
        .calendar_feeds()
        .list(&CalendarFeedQuery::default())
        .unwrap()
        .items;
    let id = feed[0].id;
    for action in ["sync", "delete"] {
        let answer = page.form(
            &format!("/calendar/feeds/{id}/{action}"),
            &[("csrf_token", "forged")],
        );
        assert_eq!(answer.status, 403, "{action}");
    }
    let answer = page.form("/calendar/feeds/sync", &[]);
    assert_eq!(answer.status, 403);
    assert_eq!(feeds.hits("/team.ics"), 1);
    assert_eq!(
        s.org
            .calendar_feeds()
            .list(&CalendarFeedQuery::default())
            .unwrap()
            .items
            .len(),
        1
    );
}
