//! The calendar from the terminal (issue 12): `organiser calendar` (today,
//! a week, a range) as an agenda by day, `organiser feeds` (list, add,
//! sync, rm) with each feed's health, and `people show`'s next meetings.
//! The feeds are served by a server in the test process on a loopback
//! address (`ORGANISER_ALLOW_PRIVATE_FEEDS=1`), and every command runs at
//! one instant (`ORGANISER_NOW`): Monday 9 March 2026, 09:00 in Paris.

use crate::completions::{candidates, complete};
use crate::feed_server::{FeedServer, ical};
use crate::util::{Cmd, Dir, Outcome};

/// Monday 9 March 2026, 09:00 in Paris (UTC+1 until 29 March).
const NOW: &str = "2026-03-09T08:00:00Z";

/// The "Work" calendar: a daily standup (Monday to Friday) with a Google
/// Meet link and Ada invited, a two-day offsite, a night shift across
/// midnight, and a review on Friday the 20th with a Zoom link.
fn work_calendar() -> String {
    ical(&[
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Organiser tests//EN",
        "X-WR-CALNAME:Work",
        "BEGIN:VEVENT",
        "UID:standup@test",
        "DTSTAMP:20260301T000000Z",
        "DTSTART;TZID=Europe/Paris:20260309T100000",
        "DTEND;TZID=Europe/Paris:20260309T103000",
        "RRULE:FREQ=DAILY;COUNT=5",
        "SUMMARY:Standup",
        "LOCATION:Room 4",
        "X-GOOGLE-CONFERENCE:https://meet.google.com/abc-defg-hij",
        "ORGANIZER;CN=Grace Hopper:mailto:grace@example.org",
        "ATTENDEE;CN=Ada Lovelace:mailto:ada@example.org",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:offsite@test",
        "DTSTAMP:20260301T000000Z",
        "DTSTART;VALUE=DATE:20260311",
        "DTEND;VALUE=DATE:20260313",
        "SUMMARY:Offsite",
        "LOCATION:Lisbon",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:night@test",
        "DTSTAMP:20260301T000000Z",
        "DTSTART:20260310T210000Z",
        "DTEND:20260311T010000Z",
        "SUMMARY:Night shift",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:review@test",
        "DTSTAMP:20260301T000000Z",
        "DTSTART:20260320T130000Z",
        "DTEND:20260320T140000Z",
        "SUMMARY:Review",
        "URL:https://zoom.us/j/123",
        "ATTENDEE;CN=Ada Lovelace:mailto:ada@example.org",
        "END:VEVENT",
        "END:VCALENDAR",
    ])
}

/// The "Home" calendar: one dinner on Thursday the 12th.
fn home_calendar() -> String {
    ical(&[
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Organiser tests//EN",
        "X-WR-CALNAME:Home",
        "BEGIN:VEVENT",
        "UID:dinner@test",
        "DTSTAMP:20260301T000000Z",
        "DTSTART:20260312T180000Z",
        "DTEND:20260312T200000Z",
        "SUMMARY:Dinner",
        "END:VEVENT",
        "END:VCALENDAR",
    ])
}

/// A store whose owner is in Paris, and a calendar server serving
/// `work.ics` and `home.ics`; every command runs at [`NOW`] with private
/// feed addresses allowed.
struct Setup {
    dir: Dir,
    server: FeedServer,
}

impl Setup {
    fn new() -> Setup {
        let server = FeedServer::start();
        server.answer("work.ics", 200, &work_calendar());
        server.answer("home.ics", 200, &home_calendar());
        let setup = Setup {
            dir: Dir::empty(),
            server,
        };
        setup.ok(&[
            "init",
            "--name",
            "Owner",
            "--username",
            "owner",
            "--time-zone",
            "Europe/Paris",
        ]);
        setup
    }

    fn cmd(&self, args: &[&str]) -> Cmd {
        self.dir
            .cmd(args)
            .env("ORGANISER_NOW", NOW)
            .env("ORGANISER_ALLOW_PRIVATE_FEEDS", "1")
    }

    fn run(&self, args: &[&str]) -> Outcome {
        self.cmd(args).run()
    }

    #[track_caller]
    fn ok(&self, args: &[&str]) -> Outcome {
        self.run(args).success()
    }

    #[track_caller]
    fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut args = args.to_vec();
        args.push("--json");
        self.ok(&args).json()
    }

    /// `feeds add` of `file` on the server; returns what it said.
    #[track_caller]
    fn add_feed(&self, file: &str, extra: &[&str]) -> Outcome {
        let address = self.server.address(file);
        let mut args = vec!["feeds", "add", address.as_str()];
        args.extend_from_slice(extra);
        self.ok(&args)
    }

    /// A store with the Work feed, Ada (invited to the standups, born on
    /// 11 March 1990), a project starting today and due tomorrow, and a
    /// task due today.
    fn with_a_week(self) -> Setup {
        self.add_feed("work.ics", &[]);
        self.ok(&[
            "people",
            "add",
            "Ada",
            "Lovelace",
            "--email",
            "ada@example.org",
            "--birthday",
            "1990-03-11",
        ]);
        self.ok(&[
            "projects",
            "add",
            "Website",
            "--start",
            "today",
            "--deadline",
            "tomorrow",
        ]);
        self.ok(&["tasks", "add", "Pay", "rent", "--deadline", "today"]);
        self
    }
}

/// The agenda `calendar` printed: each day's heading with its lines as
/// (when, what).
fn agenda(out: &Outcome) -> Vec<(String, Vec<(String, String)>)> {
    out.assert_no_ansi();
    let mut days: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for line in out.stdout.lines() {
        if line.is_empty() {
            continue;
        }
        match line.strip_prefix("  ") {
            None => days.push((line.to_owned(), Vec::new())),
            Some(row) => {
                let (when, what) = row.split_once("  ").unwrap_or((row, ""));
                let day = days.last_mut().unwrap_or_else(|| panic!("{out:?}"));
                day.1.push((when.trim().to_owned(), what.trim().to_owned()));
            }
        }
    }
    days
}

fn rows(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(w, t)| ((*w).to_owned(), (*t).to_owned()))
        .collect()
}

const STANDUP: &str = "Standup · Room 4 · Google Meet: https://meet.google.com/abc-defg-hij";

#[test]
fn calendar_today_is_an_agenda_of_the_day() {
    let setup = Setup::new().with_a_week();
    let task = setup.json(&["tasks", "today"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let due = format!("Pay rent ({})", &task[task.len() - 6..]);
    for args in [&["calendar"][..], &["calendar", "today"]] {
        let out = setup.ok(args);
        assert_eq!(out.stderr, "", "{out:?}");
        assert_eq!(
            agenda(&out),
            [(
                "Mon 2026-03-09 · today".to_owned(),
                rows(&[
                    ("start", "Website (project)"),
                    ("due", &due),
                    ("10:00–10:30", STANDUP)
                ])
            )],
            "{out:?}"
        );
        // The times line up: two spaces after the widest.
        assert!(
            out.stdout.contains("\n  start        Website (project)\n"),
            "{out:?}"
        );
    }
}

/// Open and completed tasks due in the range are on the calendar (the
/// spec's `tasks`).
#[test]
fn tasks_due_are_on_the_calendar() {
    let setup = Setup::new().with_a_week();
    let task = setup.json(&["tasks", "today"])["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let short = &task[task.len() - 6..];
    let due = format!("Pay rent ({short})");
    let out = setup.ok(&["calendar"]);
    assert_eq!(
        agenda(&out)[0].1,
        rows(&[
            ("start", "Website (project)"),
            ("due", &due),
            ("10:00–10:30", STANDUP),
        ]),
        "{out:?}"
    );
    assert_eq!(
        setup.json(&["calendar", "week"])["data"]["tasks"][0]["title"],
        "Pay rent"
    );
    // A completed task due today is still on the calendar, as done.
    setup.ok(&["tasks", "done", &task]);
    let out = setup.ok(&["calendar"]);
    assert!(
        agenda(&out)[0].1.contains(&("done".to_owned(), due)),
        "{out:?}"
    );
}

#[test]
fn calendar_week_merges_events_tasks_project_dates_and_key_dates_by_day() {
    let setup = Setup::new().with_a_week();
    let out = setup.ok(&["calendar", "week"]);
    let days = agenda(&out);
    let headings: Vec<&str> = days.iter().map(|(h, _)| h.as_str()).collect();
    // The weekend has nothing: it is left out.
    assert_eq!(
        headings,
        [
            "Mon 2026-03-09 · today",
            "Tue 2026-03-10",
            "Wed 2026-03-11",
            "Thu 2026-03-12",
            "Fri 2026-03-13",
        ],
        "{out:?}"
    );
    assert_eq!(
        days[1].1,
        rows(&[
            ("deadline", "Website (project)"),
            ("10:00–10:30", STANDUP),
            ("22:00–…", "Night shift"),
        ]),
        "{out:?}"
    );
    // All-day events first, then key dates, then timed events by start:
    // the night shift (from the day before) before the standup.
    assert_eq!(
        days[2].1,
        rows(&[
            ("all day", "Offsite · Lisbon"),
            ("birthday", "Ada Lovelace (36 years)"),
            ("…–02:00", "Night shift"),
            ("10:00–10:30", STANDUP),
        ]),
        "{out:?}"
    );
    assert_eq!(
        days[3].1,
        rows(&[("all day", "Offsite · Lisbon"), ("10:00–10:30", STANDUP)]),
        "{out:?}"
    );
    assert_eq!(days[4].1, rows(&[("10:00–10:30", STANDUP)]), "{out:?}");

    // With colour, today's heading stands out.
    let coloured = setup.ok(&["--color", "always", "calendar", "week"]);
    assert!(
        coloured
            .stdout
            .starts_with("\x1b[1;36mMon 2026-03-09 · today\x1b[22;39m\n"),
        "{coloured:?}"
    );
    assert!(
        coloured.stdout.contains("\x1b[1mTue 2026-03-10\x1b[22m\n"),
        "{coloured:?}"
    );

    // --json is the API's range.
    let json = setup.json(&["calendar", "week"]);
    let range = &json["data"];
    assert_eq!(
        (&range["from"], &range["to"], &range["today"]),
        (
            &"2026-03-09".into(),
            &"2026-03-15".into(),
            &"2026-03-09".into()
        )
    );
    // The standup five times, the offsite, the night shift.
    assert_eq!(range["events"].as_array().unwrap().len(), 7, "{json}");
    assert_eq!(range["project_dates"].as_array().unwrap().len(), 2);
    assert_eq!(range["key_dates"][0]["person"]["name"], "Ada Lovelace");
    assert_eq!(range["people"][0]["name"], "Ada Lovelace");
}

#[test]
fn calendar_takes_a_range_of_dates_as_other_commands_take_them() {
    let setup = Setup::new().with_a_week();
    let out = setup.ok(&["calendar", "2026-03-16..2026-03-22"]);
    assert_eq!(
        agenda(&out),
        [(
            "Fri 2026-03-20".to_owned(),
            rows(&[("14:00–15:00", "Review · Zoom: https://zoom.us/j/123")])
        )],
        "{out:?}"
    );
    // Date words, and one date alone.
    let words = setup.ok(&["calendar", "+11d..+12d"]);
    assert_eq!(words.stdout, out.stdout);
    let friday = setup.ok(&["calendar", "2026-03-20"]);
    assert_eq!(friday.stdout, out.stdout);
    let tomorrow = setup.ok(&["calendar", "tomorrow"]);
    assert_eq!(agenda(&tomorrow)[0].0, "Tue 2026-03-10");
    // Nothing in the range.
    let out = setup.ok(&["calendar", "2026-04-01..2026-04-02"]);
    assert_eq!(
        out.stdout,
        "Nothing from Wed 2026-04-01 to Thu 2026-04-02.\n"
    );
    let out = setup.ok(&["calendar", "2026-04-01"]);
    assert_eq!(out.stdout, "Nothing on Wed 2026-04-01.\n");
    // Today with nothing on it is still shown, labelled.
    let empty = Setup::new();
    let out = empty.ok(&["calendar"]);
    assert_eq!(out.stdout, "Mon 2026-03-09 · today\n  Nothing.\n");
    // A word that is not a date.
    let out = setup.run(&["calendar", "soon..later"]);
    assert!(out.error().contains("\"soon\" is not a date"), "{out:?}");
}

#[test]
fn a_range_longer_than_the_api_allows_is_its_refusal() {
    let setup = Setup::new();
    // 42 days, both included: the most.
    setup.ok(&["calendar", "2026-03-01..2026-04-11"]);
    let out = setup.run(&["calendar", "2026-03-01..2026-04-12"]);
    let said = out.error();
    assert!(said.contains("42 days"), "{out:?}");
    let out = setup.run(&["calendar", "2026-03-01..2026-04-12", "--json"]);
    let error = out.json_error();
    assert_eq!(error["code"], "invalid_parameter", "{out:?}");
    assert_eq!(error["message"], said);
    // The end before the start: the API's refusal too.
    let out = setup.run(&["calendar", "2026-03-10..2026-03-09"]);
    assert!(out.error().contains("on or after"), "{out:?}");
}

#[test]
fn feeds_add_list_sync_and_rm() {
    let setup = Setup::new();
    let out = setup.ok(&["feeds"]);
    assert_eq!(
        out.stdout,
        format!(
            "Feeds · 0 feeds\nNo feeds yet: add one with `organiser --data-dir {} feeds add ADDRESS`.\n",
            std::path::absolute(setup.dir.data()).unwrap().display()
        )
    );
    // The calendar's own name, the vocabulary's first colour, hourly.
    let out = setup.add_feed("work.ics", &[]);
    assert!(
        out.stdout.starts_with("Added feed Work (")
            && out.stdout.ends_with(") from 127.0.0.1 · syncs hourly\n"),
        "{out:?}"
    );
    let made = setup.json(&[
        "feeds",
        "add",
        &setup.server.address("home.ics"),
        "--name",
        "Family",
        "--color",
        "green",
        "--every",
        "daily",
    ]);
    let feed = &made["data"];
    assert_eq!(
        (&feed["name"], &feed["color"], &feed["sync_every"]),
        (&"Family".into(), &"green".into(), &"daily".into()),
        "{made}"
    );
    assert!(feed["sync_error"].is_null());
    let listed = setup.json(&["feeds"]);
    let work = &listed["data"][1];
    assert_eq!(work["name"], "Work");
    assert_eq!(work["color"], "blue");
    assert_eq!(work["address_host"], "127.0.0.1");

    let out = setup.ok(&["feeds"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "Feeds · 2 feeds", "{out:?}");
    let header: Vec<&str> = lines[1]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        header,
        ["#", "ID", "NAME", "HOST", "EVERY", "LAST SYNCED", "HEALTH"]
    );
    for (line, name, every) in [(lines[2], "Family", "daily"), (lines[3], "Work", "hourly")] {
        let cells: Vec<&str> = line
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(
            cells[2..],
            [name, "127.0.0.1", every, "2026-03-09 09:00", "ok"],
            "{out:?}"
        );
    }

    // Every feed, one line each as it finishes, by name.
    let out = setup.ok(&["feeds", "sync"]);
    assert_eq!(
        out.stdout, "Family: ok\nWork: ok\nSynced 2 feeds\n",
        "{out:?}"
    );
    // One, by name ignoring case, by row number, by ID.
    assert_eq!(setup.ok(&["feeds", "sync", "work"]).stdout, "Work: ok\n");
    setup.ok(&["feeds"]);
    assert_eq!(setup.ok(&["feeds", "sync", "1"]).stdout, "Family: ok\n");
    let id = work["id"].as_str().unwrap();
    let synced = setup.json(&["feeds", "sync", id]);
    assert_eq!(synced["data"]["id"], id);
    let all = setup.json(&["feeds", "sync"]);
    assert_eq!(all["data"].as_array().unwrap().len(), 2, "{all}");
    assert_eq!(all["data"][1]["name"], "Work");

    // Deleted for good, with its events.
    assert!(!agenda(&setup.ok(&["calendar"]))[0].1.is_empty());
    let out = setup.ok(&["feeds", "rm", "WORK"]);
    assert_eq!(
        out.stdout,
        "Deleted feed Work and its events (this cannot be undone)\n"
    );
    assert_eq!(
        setup.ok(&["calendar"]).stdout,
        "Mon 2026-03-09 · today\n  Nothing.\n"
    );
    let gone = setup.json(&["feeds", "rm", "Family"]);
    assert_eq!(gone["data"]["deleted"], made["data"]["id"]);
    assert_eq!(
        setup.ok(&["feeds"]).stdout.lines().next(),
        Some("Feeds · 0 feeds")
    );
    let out = setup.run(&["feeds", "rm", "Work"]);
    assert!(
        out.error().contains("there is no feed named \"Work\""),
        "{out:?}"
    );
    let out = setup.ok(&["feeds", "sync"]);
    assert!(out.stdout.starts_with("No feeds yet"), "{out:?}");
}

#[test]
fn a_failing_feed_shows_its_health() {
    let setup = Setup::new();
    setup.add_feed("work.ics", &[]);
    setup.add_feed("home.ics", &[]);
    // The home calendar is gone from its server.
    setup.server.answer("home.ics", 404, "");
    let out = setup.ok(&["feeds", "sync"]);
    assert_eq!(
        out.stdout,
        "Home: not_found (HTTP 404), 1 failure · No calendar was found at this address; it may have been moved or deleted\n\
         Work: ok\n\
         Synced 2 feeds · 1 failing\n",
        "{out:?}"
    );
    let out = setup.ok(&["feeds", "sync", "home"]);
    assert!(
        out.stdout
            .starts_with("Home: not_found (HTTP 404), 2 failures · No calendar"),
        "{out:?}"
    );
    let out = setup.ok(&["feeds"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "Feeds · 2 feeds · 1 failing", "{out:?}");
    assert!(
        lines[2].contains("Home") && lines[2].ends_with("not_found (HTTP 404), 2 failures"),
        "{out:?}"
    );
    assert!(lines[3].ends_with("ok"), "{out:?}");
    let json = setup.json(&["feeds"]);
    assert_eq!(
        json["data"][0]["sync_error"],
        serde_json::json!({"code": "not_found", "http_status": 404, "failures": 2})
    );
    // The events of the last success are still shown.
    let out = setup.ok(&["calendar", "2026-03-12"]);
    assert!(out.stdout.contains("Dinner"), "{out:?}");
    // Back, and healthy again.
    setup.server.answer("home.ics", 200, &home_calendar());
    assert_eq!(setup.ok(&["feeds", "sync", "Home"]).stdout, "Home: ok\n");
}

#[test]
fn feeds_add_refuses_an_address_it_cannot_read() {
    let setup = Setup::new();
    let out = setup.run(&["feeds", "add", &setup.server.address("missing.ics")]);
    assert_eq!(
        out.error(),
        "No calendar was found at this address; it may have been moved or deleted"
    );
    let out = setup.run(&[
        "feeds",
        "add",
        &setup.server.address("missing.ics"),
        "--json",
    ]);
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed");
    assert!(error["details"]["address"].is_array(), "{out:?}");
    // Without ORGANISER_ALLOW_PRIVATE_FEEDS, a loopback address is refused.
    let out = setup
        .cmd(&["feeds", "add", &setup.server.address("work.ics")])
        .env_remove("ORGANISER_ALLOW_PRIVATE_FEEDS")
        .run();
    assert_eq!(
        out.error(),
        "The address points to a private or local network, which calendar feeds may not use: to allow addresses on your own network, run the server and the organiser commands with ORGANISER_ALLOW_PRIVATE_FEEDS=1"
    );
    // The flags' mistakes: clap's for --every, the API's for --color.
    let address = setup.server.address("work.ics");
    let out = setup.run(&["feeds", "add", &address, "--every", "weekly"]);
    out.failure(2);
    let out = setup.run(&["feeds", "add", &address, "--color", "tartan"]);
    assert!(
        out.error().starts_with("--color is not a colour"),
        "{out:?}"
    );
    setup.add_feed("work.ics", &[]);
    let out = setup.run(&["feeds", "add", &address, "--name", "work", "--again"]);
    assert_eq!(out.error(), "--name has already been taken");
    assert_eq!(
        setup.json(&["feeds"])["data"].as_array().unwrap().len(),
        1,
        "nothing more was saved"
    );
}

#[test]
fn people_show_lists_the_next_meetings() {
    let setup = Setup::new().with_a_week();
    let out = setup.ok(&["people", "show", "ada"]);
    out.assert_no_ansi();
    let meetings: Vec<&str> = out
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Next meetings"))
        .collect();
    let values: Vec<&str> = meetings
        .iter()
        .map(|l| l.trim_start_matches("Next meetings").trim())
        .collect();
    assert_eq!(
        values,
        [
            "Mon 2026-03-09 10:00–10:30 · Standup · Google Meet: https://meet.google.com/abc-defg-hij",
            "Tue 2026-03-10 10:00–10:30 · Standup · Google Meet: https://meet.google.com/abc-defg-hij",
            "Wed 2026-03-11 10:00–10:30 · Standup · Google Meet: https://meet.google.com/abc-defg-hij",
            "Thu 2026-03-12 10:00–10:30 · Standup · Google Meet: https://meet.google.com/abc-defg-hij",
            "Fri 2026-03-13 10:00–10:30 · Standup · Google Meet: https://meet.google.com/abc-defg-hij",
            "… and more",
        ],
        "{out:?}"
    );
    // Someone invited to nothing has no such section.
    setup.ok(&["people", "add", "Grace"]);
    let out = setup.ok(&["people", "show", "grace"]);
    assert!(!out.stdout.contains("Next meetings"), "{out:?}");
}

#[test]
fn the_feeds_names_are_completed_and_the_commands_documented() {
    let setup = Setup::new();
    setup.add_feed("work.ics", &[]);
    setup.add_feed("home.ics", &["--name", "Weekend"]);
    let data = setup.dir.data().to_str().unwrap();
    for words in [
        &["--data-dir", data, "feeds", "rm", "W"][..],
        &["--data-dir", data, "feeds", "sync", "W"][..],
    ] {
        let mut offered = candidates(complete("fish", words.len() - 1, words).run());
        offered.sort();
        assert_eq!(offered, ["Weekend", "Work"], "{words:?}");
    }
    // --every offers the frequencies.
    let words = ["feeds", "add", "x", "--every", ""];
    let offered = candidates(complete("fish", words.len() - 1, &words).run());
    let keys: Vec<&str> = offered
        .iter()
        .map(|o| o.split('\t').next().unwrap_or_default())
        .collect();
    assert_eq!(
        keys,
        ["15_minutes", "30_minutes", "hourly", "6_hours", "daily"]
    );
}

/// `calendar month`, `calendar next week` (the words unquoted) and `next
/// month` name their days (issue 22).
#[test]
fn calendar_takes_month_and_next_week() {
    let setup = Setup::new();
    for (words, from, to) in [
        (&["month"][..], "2026-03-01", "2026-03-31"),
        (&["next", "week"], "2026-03-16", "2026-03-22"),
        (&["next", "month"], "2026-04-01", "2026-04-30"),
    ] {
        let mut args = vec!["calendar"];
        args.extend_from_slice(words);
        let json = setup.json(&args);
        assert_eq!(
            (json["data"]["from"].as_str(), json["data"]["to"].as_str()),
            (Some(from), Some(to)),
            "{words:?}"
        );
    }
}
