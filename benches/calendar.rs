//! The calendar over five feeds of 2,000 events each (a quarter of them
//! repeating: weekly on one to three weekdays for four to 26 weeks (one
//! weekly series in ten without an end), daily for 5 to 30 days, monthly
//! on a weekday for 6 to 24 months), spread over two years around
//! [`NOW`], with attendees,
//! locations, meeting links and descriptions; the feeds are answered in
//! process (no network). It measures, through `Organiser::handle` (the
//! JSON the server answers), on a disk store:
//!
//! - `GET /calendar` for 42 days from a week before today (at most 5 ms
//!   median), and, for reference, 42 days ten months back (inside the
//!   window the sync expanded) and two years ahead (outside it, so
//!   repeating events are expanded as read);
//! - syncing a 5 MB feed: `POST /calendar_feeds/{id}/sync` (fetch
//!   answered from memory, read, expand, replace the events in one
//!   transaction): at most 500 ms of CPU (user + system time of the
//!   process, from `/proc/self/stat`), wall time beside it.
//!
//! ```text
//! cargo bench --bench calendar
//! ```
//!
//! Environment: `BENCH_OPEN_SERIES=1` (every series open-ended: about
//! 190 occurrences a day, for reference), `BENCH_RUNS` (runs of each read, default 200),
//! `BENCH_SYNC_RUNS` (default 10), `BENCH_FEED_EVENTS` (events per feed,
//! default 2000), `BENCH_BIG_MIB` (the big feed's size, default 5). The
//! run fails (exit code 1) when a target is missed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use organiser::{
    Auth, Organiser, clock::ManualClock, list::Query, net::HttpError, net::HttpRequest,
    net::HttpResponse, server::Method, server::Request,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{Rng, Stats, bench_main, env_number, ms, options, time};

/// Where the measurements' clock stands.
const NOW: &str = "2026-10-14T09:30:00Z";
const TARGET_RANGE: Duration = Duration::from_millis(5);
const TARGET_SYNC_CPU: Duration = Duration::from_millis(500);

fn main() -> ExitCode {
    bench_main("calendar", |_| run())
}

const DAYS: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const ZONES: [&str; 3] = ["Europe/London", "America/New_York", "Europe/Berlin"];
const WORDS: [&str; 12] = [
    "Planning",
    "Review",
    "Design",
    "Budget",
    "Sync",
    "Interview",
    "Lunch",
    "Retro",
    "Demo",
    "Call",
    "Workshop",
    "Offsite",
];

/// One event's lines.
fn event(rng: &mut Rng, feed: usize, n: usize, repeating: bool, description_len: usize) -> String {
    let mut e = String::new();
    let day0 = jiff::civil::date(2025, 10, 14);
    let offset = rng.below(730) as i64;
    let day = day0 + jiff::Span::new().days(offset);
    let title = format!("{} {} {}", WORDS[rng.below(12)], WORDS[rng.below(12)], n);
    let _ = write!(
        e,
        "BEGIN:VEVENT\r\nUID:{feed}-{n}@bench\r\nSUMMARY:{title}\r\n"
    );
    if rng.below(10) == 0 {
        let end = day + jiff::Span::new().days(1 + rng.below(3) as i64);
        let _ = write!(
            e,
            "DTSTART;VALUE=DATE:{}\r\nDTEND;VALUE=DATE:{}\r\n",
            day.strftime("%Y%m%d"),
            end.strftime("%Y%m%d")
        );
    } else {
        let zone = ZONES[rng.below(3)];
        let hour = 8 + rng.below(10);
        let _ = write!(
            e,
            "DTSTART;TZID={zone}:{}T{hour:02}{:02}00\r\nDTEND;TZID={zone}:{}T{:02}{:02}00\r\n",
            day.strftime("%Y%m%d"),
            rng.below(4) * 15,
            day.strftime("%Y%m%d"),
            hour + 1,
            rng.below(4) * 15,
        );
    }
    if repeating {
        // A series of four to 26 weeks, 5 to 30 days or 6 to 24 months,
        // as feeds mostly hold them; one weekly series in ten has no end
        // (every series is open with `BENCH_OPEN_SERIES=1`).
        let open = open_series() || rng.below(10) == 0;
        let until = (day + jiff::Span::new().weeks(4 + rng.below(22) as i64)).strftime("%Y%m%d");
        let rule = match rng.below(3) {
            0 => {
                let k = 1 + rng.below(3);
                let days: Vec<&str> = (0..k).map(|i| DAYS[(i * 2 + n) % 5]).collect();
                if open {
                    format!("FREQ=WEEKLY;BYDAY={}", days.join(","))
                } else {
                    format!("FREQ=WEEKLY;BYDAY={};UNTIL={until}T235959Z", days.join(","))
                }
            }
            1 => format!("FREQ=DAILY;COUNT={}", 5 + rng.below(25)),
            _ if open_series() => format!(
                "FREQ=MONTHLY;BYDAY={}{}",
                1 + rng.below(4),
                DAYS[rng.below(5)]
            ),
            _ => format!(
                "FREQ=MONTHLY;BYDAY={}{};COUNT={}",
                1 + rng.below(4),
                DAYS[rng.below(5)],
                6 + rng.below(18)
            ),
        };
        let _ = write!(e, "RRULE:{rule}\r\n");
    }
    if rng.below(3) == 0 {
        let _ = write!(
            e,
            "LOCATION:https://acme.zoom.us/j/{}\r\n",
            rng.next() % 1_000_000
        );
    } else {
        let _ = write!(e, "LOCATION:Room {}\r\n", rng.below(40));
    }
    let _ = write!(e, "ORGANIZER;CN=Owner:mailto:owner@example.com\r\n");
    for a in 0..rng.below(8) {
        let _ = write!(
            e,
            "ATTENDEE;CN=Person {a}:mailto:person{}@example.com\r\n",
            rng.below(200)
        );
    }
    if description_len > 0 {
        let mut d = String::new();
        while d.len() < description_len {
            d.push_str(WORDS[rng.below(12)]);
            d.push(' ');
        }
        // Folded at 74 octets, as feeds are.
        let line = format!("DESCRIPTION:{}", d.trim_end());
        let mut first = true;
        for chunk in line.as_bytes().chunks(74) {
            if !first {
                e.push(' ');
            }
            e.push_str(std::str::from_utf8(chunk).unwrap_or(""));
            e.push_str("\r\n");
            first = false;
        }
    }
    e.push_str("END:VEVENT\r\n");
    e
}

/// A feed of `events` events, a quarter repeating.
fn feed(seed: u64, feed: usize, events: usize, description_len: usize) -> String {
    let mut rng = Rng(seed);
    let mut body = format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME:Feed {feed}\r\n");
    for n in 0..events {
        body.push_str(&event(&mut rng, feed, n, n % 4 == 0, description_len));
    }
    body.push_str("END:VCALENDAR\r\n");
    body
}

/// Whether every repeating series is open-ended (`BENCH_OPEN_SERIES=1`):
/// a much denser calendar, for reference.
fn open_series() -> bool {
    std::env::var("BENCH_OPEN_SERIES").is_ok_and(|v| v == "1")
}

/// CPU time (user + system) of this process so far.
fn cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

fn call(org: &Organiser, request: &Request, status: u16) -> Result<Value, String> {
    let response = org.handle(request);
    if response.status != status {
        return Err(format!(
            "{} answered {}: {}",
            request.path,
            response.status,
            response.json_value()
        ));
    }
    Ok(response.json_value())
}

fn run() -> Result<(), String> {
    let runs = env_number("BENCH_RUNS", 200)?;
    let sync_runs = env_number("BENCH_SYNC_RUNS", 10)?;
    let events = env_number("BENCH_FEED_EVENTS", 2000)?;
    let big_mib = env_number("BENCH_BIG_MIB", 5)?;
    let bodies: Arc<Mutex<HashMap<String, Arc<Vec<u8>>>>> = Arc::default();
    let served = bodies.clone();
    let http = move |r: &HttpRequest| -> Result<HttpResponse, HttpError> {
        let body = served
            .lock()
            .unwrap()
            .get(&r.url)
            .cloned()
            .unwrap_or_default();
        Ok(HttpResponse::new(200, r.url.clone(), body.as_ref().clone()))
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let clock = ManualClock::at(NOW);
    let org = Organiser::open_with(
        dir.path(),
        organiser::Options {
            http: Arc::new(http),
            ..options(clock.clone())
        },
    )
    .map_err(|e| e.to_string())?;
    // People the attendees are.
    for i in 0..200 {
        call(
            &org,
            &Request::new(Method::Post, "/people", Auth::Local).with_body(json!({"person": {
                "name": format!("Person {i}"),
                "email_addresses": [{"address": format!("person{i}@example.com")}],
            }})),
            201,
        )?;
    }
    for f in 0..5 {
        let url = format!("https://calendar.example.com/feed{f}.ics");
        let body = feed(0x9E37_79B9_7F4A_7C15 ^ f as u64, f, events, 120);
        bodies
            .lock()
            .unwrap()
            .insert(url.clone(), Arc::new(body.into_bytes()));
        call(
            &org,
            &Request::new(Method::Post, "/calendar_feeds", Auth::Local).with_body(json!({
                "calendar_feed": {"address": url, "color": "blue"}
            })),
            201,
        )?;
    }
    let range = |from: &str, to: &str| {
        Request::new(Method::Get, "/calendar", Auth::Local)
            .with_query(Query::from_pairs([("from", from), ("to", to)]))
    };
    let near = range("2026-10-07", "2026-11-17");
    let shown = call(&org, &near, 200)?;
    let counted = shown["data"]["events"].as_array().map_or(0, Vec::len);
    let answer_bytes = org.handle(&near).body.map_or(0, |b| b.len());
    let near_stats = time(10, runs, || {
        std::hint::black_box(org.handle(&near));
    });
    let past = range("2025-12-01", "2026-01-11");
    let past_stats = time(5, runs, || {
        std::hint::black_box(org.handle(&past));
    });
    let far = range("2028-10-07", "2028-11-17");
    let far_stats = time(2, runs.min(50), || {
        std::hint::black_box(org.handle(&far));
    });
    // The big feed.
    let mut big_events = 0;
    let mut big = String::new();
    while big.len() < big_mib * 1024 * 1024 {
        big_events += 1000;
        big = feed(42, 9, big_events, 300);
    }
    let big_len = big.len();
    let url = "https://calendar.example.com/big.ics".to_owned();
    bodies
        .lock()
        .unwrap()
        .insert(url.clone(), Arc::new(big.into_bytes()));
    let created = call(
        &org,
        &Request::new(Method::Post, "/calendar_feeds", Auth::Local).with_body(json!({
            "calendar_feed": {"address": url, "color": "green"}
        })),
        201,
    )?;
    let id = created["data"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let sync = Request::new(
        Method::Post,
        format!("/calendar_feeds/{id}/sync"),
        Auth::Local,
    );
    let mut cpu_samples = Vec::new();
    let mut wall_samples = Vec::new();
    for _ in 0..sync_runs {
        let (c0, w0) = (cpu(), Instant::now());
        let answer = call(&org, &sync, 200)?;
        wall_samples.push(w0.elapsed());
        cpu_samples.push(cpu().saturating_sub(c0));
        if !answer["data"]["sync_error"].is_null() {
            return Err(format!(
                "the big feed failed: {}",
                answer["data"]["sync_error"]
            ));
        }
    }
    let cpu_stats = common::stats(cpu_samples);
    let wall_stats = common::stats(wall_samples);
    let line = |what: &str, s: &Stats| {
        println!(
            "{what:<58} median {:>10}  p90 {:>10}  ({} runs)",
            ms(s.median),
            ms(s.p90),
            s.runs
        )
    };
    println!(
        "calendar: 5 feeds x {events} events (a quarter repeating), {counted} occurrences in the 42 days ({:.2} MiB of JSON)",
        answer_bytes as f64 / (1024.0 * 1024.0)
    );
    line("GET /calendar, 42 days around today", &near_stats);
    line("GET /calendar, 42 days ten months back", &past_stats);
    line(
        "GET /calendar, 42 days two years ahead (expanded as read)",
        &far_stats,
    );
    println!(
        "sync of a {:.1} MiB feed ({big_events} events):",
        big_len as f64 / (1024.0 * 1024.0)
    );
    line("  CPU (user + system)", &cpu_stats);
    line("  wall", &wall_stats);
    let mut missed = Vec::new();
    if near_stats.median > TARGET_RANGE {
        missed.push(format!(
            "GET /calendar {} > {}",
            ms(near_stats.median),
            ms(TARGET_RANGE)
        ));
    }
    if cpu_stats.median > TARGET_SYNC_CPU {
        missed.push(format!(
            "sync CPU {} > {}",
            ms(cpu_stats.median),
            ms(TARGET_SYNC_CPU)
        ));
    }
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("targets missed: {}", missed.join("; ")))
    }
}
