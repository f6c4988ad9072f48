//! A calendar subscription's feed (EXTENSIONS.md §2, "A store of 10,000
//! tasks and 5,000 people answers in under 50 ms") on a disk store of
//! 10,000 tasks (in 20 task lists, 200 projects and the Inbox; the older
//! ones mostly closed, as a store that has been used for a year holds
//! them; some open ones with a deadline; some repeating: `from: due` with
//! and without `COUNT`, and `from: completion`, a few occurrences of each
//! series already closed), 200 projects in every status, with start
//! dates and deadlines, and 5,000 people with key dates (birthdays with
//! and without a year, some on 29 February, anniversaries and other
//! kinds). One subscription holds all three kinds of item with a 30-minute
//! alarm. It measures, through `Organiser::handle` (`GET
//! /ics/{secret}.ics` at the root, anonymous, as the server hands it
//! over) and through the real server on a loopback port:
//!
//! - the cold feed: the first read after a commit (an untimed write
//!   before each read), so the bytes kept for the commit generation are
//!   not used and the feed is written again (at most 50 ms median);
//! - the kept feed: the 200 with the bytes kept for the generation (at
//!   most 1 ms median in process; over HTTP the body's megabytes cross
//!   the socket, so it has no target there);
//! - the 304: `If-None-Match` with the feed's `ETag` (at most 1 ms
//!   median, in process and over HTTP);
//!
//! and, for reference, the cold feed of subscriptions that hold only
//! tasks, only projects, only key dates, and all three without the alarm,
//! so the cold time splits by kind of item. The table gives the median
//! and the 95th percentile; a target is on the median, as in the other
//! benches. The run fails (exit code 1) when a target is missed.
//!
//! ```text
//! cargo bench --bench calendar_subscriptions
//! BENCH_REGENERATE=1 cargo bench --bench calendar_subscriptions   # build the store again
//! ```
//!
//! The store is generated once through the typed API (one transaction per
//! write, as an app would make them), replaying a year of history on a
//! `ManualClock` that ends at [`NOW`], and kept in
//! `target/bench-calendar-subscriptions` (with
//! `bench-calendar-subscriptions.json` beside the store describing it);
//! it is made again when missing, when its settings differ, or with
//! `BENCH_REGENERATE=1`. The measurements run at [`NOW`] (owner zone UTC).
//! The subscriptions are made for the run and deleted after it.
//!
//! Environment: `BENCH_TASKS` (default 10000), `BENCH_PEOPLE` (5000),
//! `BENCH_RUNS` (cold reads, default 200), `BENCH_KEPT_RUNS` (kept reads
//! and 304s, default 2000), `BENCH_SPLIT_RUNS` (cold reads of each
//! reference subscription, default 50; 0 leaves them out),
//! `BENCH_HTTP=0` (leaves the server out), `BENCH_REGENERATE=1`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::civil::Date;
use organiser::calendar_subscriptions::{CalendarSubscriptionInput, Include};
use organiser::people::{
    EmailAddressFields, KeyDateFields, PersonInput, PhoneNumberFields, PositionFields, RowInput,
};
use organiser::{
    Auth, Field, Id, Organiser, account::AppearanceChange, clock::ManualClock,
    projects::ProjectInput, server::Method, server::Request, task_lists::TaskListInput,
    tasks::Repeat, tasks::TaskInput, tasks::TaskStatus,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{Rng, bench_main, date_of, env_number, mib, ms, options, target_dir, targets_verdict};

/// The instant the store's history ends at, and the clock of every
/// measurement (owner zone UTC, so today is 2026-10-14).
const NOW: &str = "2026-10-14T09:30:00Z";
/// The contract's target for a feed written afresh (median).
const TARGET_COLD: Duration = Duration::from_millis(50);
/// The target of the kept feed and of the 304 (median).
const TARGET_KEPT: Duration = Duration::from_millis(1);
/// Minutes of the subscription's alarm.
const ALARM_MINUTES: i64 = 30;

const LISTS: usize = 20;
const PROJECTS: usize = 200;
/// How far back the history goes.
const HISTORY_DAYS: i64 = 365;
/// Lists, projects and people are made in the first days of it.
const SETUP_DAYS: i64 = 30;
const MS_PER_DAY: i64 = 86_400_000;

/// The file beside the store that says it is complete, and how it was made.
const META_FILE: &str = "bench-calendar-subscriptions.json";
/// Bumped when the generator changes, so an older store is made again.
const META_FORMAT: u64 = 1;

fn main() -> ExitCode {
    bench_main("calendar_subscriptions", |_| run())
}

struct Settings {
    tasks: usize,
    people: usize,
    runs: usize,
    kept_runs: usize,
    split_runs: usize,
    http: bool,
    regenerate: bool,
}

impl Settings {
    fn read() -> Result<Settings, String> {
        Ok(Settings {
            tasks: env_number("BENCH_TASKS", 10_000)?,
            people: env_number("BENCH_PEOPLE", 5_000)?,
            runs: env_number("BENCH_RUNS", 200)?.max(1),
            kept_runs: env_number("BENCH_KEPT_RUNS", 2_000)?.max(1),
            split_runs: env_number("BENCH_SPLIT_RUNS", 50)?,
            http: std::env::var("BENCH_HTTP").map_or(true, |v| v.trim() != "0"),
            regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
        })
    }
}

fn now() -> Result<Timestamp, String> {
    NOW.parse().map_err(|e| format!("{NOW}: {e}"))
}

fn run() -> Result<(), String> {
    let settings = Settings::read()?;
    let dir = target_dir()?.join("bench-calendar-subscriptions");
    let meta = ensure_store(&dir, &settings)?;
    let store_bytes =
        std::fs::metadata(dir.join(organiser::data::STORE_FILE)).map_or(0, |m| m.len());

    let clock = ManualClock::new(now()?);
    let org = Organiser::open_with(&dir, options(clock))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;

    // The subscription measured, and the reference ones (each kind alone,
    // and all three without the alarm).
    let all = vec![Include::Tasks, Include::Projects, Include::KeyDates];
    let main = subscribe(&org, "Organiser", all.clone(), Some(ALARM_MINUTES))?;
    let mut references = Vec::new();
    if settings.split_runs > 0 {
        for (name, include, alarm) in [
            ("tasks only", vec![Include::Tasks], Some(ALARM_MINUTES)),
            (
                "projects only",
                vec![Include::Projects],
                Some(ALARM_MINUTES),
            ),
            (
                "key dates only",
                vec![Include::KeyDates],
                Some(ALARM_MINUTES),
            ),
            ("all three, no alarm", all.clone(), None),
        ] {
            references.push((name, subscribe(&org, name, include, alarm)?));
        }
    }

    let measured = measure(&org, &settings, &main.1, &references);
    // Leave the store as it was generated, whatever the measurements gave.
    for id in std::iter::once(main.0).chain(references.iter().map(|(_, (id, _))| *id)) {
        org.calendar_subscriptions()
            .delete(id)
            .map_err(|e| format!("delete subscription {id}: {e}"))?;
    }
    let (rows, content, feed_bytes) = measured?;
    let missed = report(&rows, &meta, store_bytes, &content, feed_bytes, &settings);
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

/// The measurements of the feed at `main` (the last segment of its
/// address) and of the `references`: the report's rows, what the feed
/// holds and its size.
fn measure(
    org: &Organiser,
    settings: &Settings,
    main: &str,
    references: &[(&str, (Id, String))],
) -> Result<(Vec<Row>, Content, usize), String> {
    // The feed once: what it holds.
    let first = org.handle(&feed_request(main, None));
    let (etag, body) = calendar(&first)?;
    let content = Content::of(&body);
    println!(
        "feed: {} bytes, {} VEVENTs ({} task deadlines, {} of them with an RRULE; {} project dates; {} key-date events: {} yearly, {} for 29 February), {} VALARMs",
        body.len(),
        content.events,
        content.tasks,
        content.task_rules,
        content.projects,
        content.key_dates_yearly + content.key_dates_leap,
        content.key_dates_yearly,
        content.key_dates_leap,
        content.alarms
    );
    if content.events == 0 || content.alarms != content.events {
        return Err(format!(
            "the feed holds {} events and {} alarms: every event should have one",
            content.events, content.alarms
        ));
    }

    let mut rows = Vec::new();
    println!("\nin process, through Organiser::handle:");
    let cold_request = feed_request(main, None);
    rows.push(row(
        "`GET /ics/{secret}.ics`, first read after a commit (written afresh)",
        time_between(
            3,
            settings.runs,
            || write_something(org),
            || org.handle(&cold_request),
            |r| expect_calendar(r, &etag, body.len()),
        )?,
        Some(TARGET_COLD),
        format!("{} kB, {} events", body.len() / 1000, content.events),
    ));
    rows.push(row(
        "`GET /ics/{secret}.ics`, kept (same commit generation)",
        time_between(
            20,
            settings.kept_runs,
            || {},
            || org.handle(&cold_request),
            |r| expect_calendar(r, &etag, body.len()),
        )?,
        Some(TARGET_KEPT),
        "200 with the kept bytes".to_owned(),
    ));
    let not_modified = feed_request(main, Some(etag.clone()));
    rows.push(row(
        "`GET /ics/{secret}.ics` with `If-None-Match`, kept",
        time_between(
            20,
            settings.kept_runs,
            || {},
            || org.handle(&not_modified),
            |r| expect_not_modified(r, &etag),
        )?,
        Some(TARGET_KEPT),
        "304".to_owned(),
    ));
    rows.push(row(
        "`GET /ics/{secret}.ics` with `If-None-Match`, first read after a commit",
        time_between(
            3,
            settings.runs,
            || write_something(org),
            || org.handle(&not_modified),
            |r| expect_not_modified(r, &etag),
        )?,
        None,
        "304, the feed written afresh to know its tag".to_owned(),
    ));
    for (name, (_, file)) in references {
        let request = feed_request(file, None);
        let probe = org.handle(&request);
        let (_, reference) = calendar(&probe)?;
        let events = Content::of(&reference).events;
        rows.push(row(
            format!("cold, for reference: {name}"),
            time_between(
                2,
                settings.split_runs,
                || write_something(org),
                || org.handle(&request),
                |r| expect_status(r, 200),
            )?,
            None,
            format!("{} kB, {events} events", reference.len() / 1000),
        ));
    }

    if settings.http {
        println!("\nover HTTP, the real server on a loopback port (one kept-alive connection):");
        let _ = rustls::crypto::ring::default_provider().install_default();
        let server = Server::start(org.clone());
        let client = reqwest::blocking::Client::new();
        let url = format!("{}/ics/{main}", server.base);
        let get = |if_none_match: Option<&str>| -> Result<(u16, usize, String), String> {
            let mut request = client.get(&url);
            if let Some(tag) = if_none_match {
                request = request.header("If-None-Match", tag);
            }
            let response = request.send().map_err(|e| format!("GET {url}: {e}"))?;
            let status = response.status().as_u16();
            let tag = response
                .headers()
                .get("etag")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let bytes = response.bytes().map_err(|e| format!("GET {url}: {e}"))?;
            Ok((status, bytes.len(), tag))
        };
        let check = |want: u16, len: usize| {
            let etag = etag.clone();
            move |got: &Result<(u16, usize, String), String>| -> Result<(), String> {
                match got {
                    Ok((status, n, tag)) if *status == want && *n == len && *tag == etag => Ok(()),
                    Ok((status, n, tag)) => Err(format!(
                        "over HTTP: {status} with {n} bytes and ETag {tag}; expected {want} with {len} bytes and {etag}"
                    )),
                    Err(e) => Err(e.clone()),
                }
            }
        };
        rows.push(row(
            "HTTP `GET /ics/{secret}.ics`, first read after a commit",
            time_between(
                3,
                settings.runs,
                || write_something(org),
                || get(None),
                check(200, body.len()),
            )?,
            Some(TARGET_COLD),
            "body read whole".to_owned(),
        ));
        rows.push(row(
            "HTTP `GET /ics/{secret}.ics`, kept",
            time_between(
                20,
                settings.kept_runs,
                || {},
                || get(None),
                check(200, body.len()),
            )?,
            None,
            "the body's bytes over the socket".to_owned(),
        ));
        rows.push(row(
            "HTTP `GET /ics/{secret}.ics` with `If-None-Match`, kept",
            time_between(
                20,
                settings.kept_runs,
                || {},
                || get(Some(&etag)),
                check(304, 0),
            )?,
            Some(TARGET_KEPT),
            "304".to_owned(),
        ));
        drop(server);
    }

    Ok((rows, content, body.len()))
}

// ---------------------------------------------------------------- the feed

/// Makes a subscription; its id and the last segment of its address.
fn subscribe(
    org: &Organiser,
    name: &str,
    include: Vec<Include>,
    alarm: Option<i64>,
) -> Result<(Id, String), String> {
    let sub = org
        .calendar_subscriptions()
        .create(CalendarSubscriptionInput {
            name: Field::Value(name.to_owned()),
            include: Field::Value(include),
            alarm_minutes: alarm.map_or(Field::Null, Field::Value),
            ..CalendarSubscriptionInput::default()
        })
        .map_err(|e| format!("subscribe {name}: {e}"))?;
    let url = sub.url.ok_or("a new subscription without its address")?;
    let file = url
        .rsplit('/')
        .next()
        .filter(|f| f.ends_with(".ics"))
        .ok_or_else(|| format!("a subscription's address is {url:?}"))?;
    Ok((sub.id, file.to_owned()))
}

/// `GET /ics/<file>` at the server's root, without a token, as the server
/// hands it to the core.
fn feed_request(file: &str, if_none_match: Option<String>) -> Request {
    let mut request = Request::new(Method::Get, format!("/ics/{file}"), Auth::Anonymous);
    request.at_root = true;
    request.if_none_match = if_none_match;
    request
}

/// The `ETag` and body of a 200 feed.
fn calendar(response: &organiser::server::Response) -> Result<(String, String), String> {
    expect_status(response, 200)?;
    let content_type = response.header("content-type").unwrap_or_default();
    if content_type != "text/calendar; charset=utf-8" {
        return Err(format!("the feed's content type is {content_type:?}"));
    }
    let etag = response
        .header("etag")
        .filter(|t| !t.is_empty())
        .ok_or("the feed has no ETag")?
        .to_owned();
    let body = String::from_utf8(response.body.clone().unwrap_or_default())
        .map_err(|e| format!("the feed is not UTF-8: {e}"))?;
    if !body.starts_with("BEGIN:VCALENDAR\r\n") || !body.ends_with("END:VCALENDAR\r\n") {
        return Err("the feed is not a VCALENDAR".to_owned());
    }
    Ok((etag, body))
}

fn expect_status(response: &organiser::server::Response, status: u16) -> Result<(), String> {
    if response.status != status {
        return Err(format!(
            "the feed answered {} (expected {status}): {}",
            response.status,
            String::from_utf8_lossy(response.body.as_deref().unwrap_or_default())
        ));
    }
    Ok(())
}

/// A 200 with the same tag and size as the first one (the bench's writes
/// do not change the feed).
fn expect_calendar(
    response: &organiser::server::Response,
    etag: &str,
    len: usize,
) -> Result<(), String> {
    expect_status(response, 200)?;
    let got = response.body.as_ref().map_or(0, Vec::len);
    let tag = response.header("etag").unwrap_or_default();
    if got != len || tag != etag {
        return Err(format!(
            "a feed of {got} bytes tagged {tag}, expected {len} bytes tagged {etag}"
        ));
    }
    Ok(())
}

fn expect_not_modified(response: &organiser::server::Response, etag: &str) -> Result<(), String> {
    expect_status(response, 304)?;
    if response.body.as_ref().is_some_and(|b| !b.is_empty())
        || response.header("etag") != Some(etag)
    {
        return Err("a 304 with a body, or without its ETag".to_owned());
    }
    Ok(())
}

/// A write that leaves the feed as it is but starts a new commit
/// generation, so that the next read writes the feed afresh.
fn write_something(org: &Organiser) {
    org.account()
        .change_appearance(AppearanceChange::default())
        .expect("a commit");
}

/// What a feed holds, counted from its lines.
#[derive(Default)]
struct Content {
    events: usize,
    alarms: usize,
    tasks: usize,
    task_rules: usize,
    projects: usize,
    key_dates_yearly: usize,
    key_dates_leap: usize,
}

impl Content {
    /// Each event is told by its `UID` and `SUMMARY` (a project's date is
    /// "Name: start" or "Name: deadline"; a task's UID ends `-deadline`
    /// too).
    fn of(body: &str) -> Content {
        let mut c = Content::default();
        let (mut uid, mut summary, mut rule) = ("", "", false);
        let mut in_alarm = false;
        for line in body.split("\r\n") {
            match line {
                "BEGIN:VEVENT" => {
                    c.events += 1;
                    (uid, summary, rule) = ("", "", false);
                }
                "BEGIN:VALARM" => {
                    c.alarms += 1;
                    in_alarm = true;
                }
                "END:VALARM" => in_alarm = false,
                "END:VEVENT" => {
                    let uid = uid.trim_end_matches("@organiser");
                    if summary.ends_with(": start") || summary.ends_with(": deadline") {
                        c.projects += 1;
                    } else if uid.ends_with("-deadline") {
                        c.tasks += 1;
                        c.task_rules += usize::from(rule);
                    } else if uid.contains('-') {
                        c.key_dates_leap += 1;
                    } else {
                        c.key_dates_yearly += 1;
                    }
                }
                _ if in_alarm => {}
                _ => {
                    if let Some(v) = line.strip_prefix("UID:") {
                        uid = v;
                    } else if let Some(v) = line.strip_prefix("SUMMARY:") {
                        summary = v;
                    } else if line.starts_with("RRULE:") {
                        rule = true;
                    }
                }
            }
        }
        c
    }
}

// ---------------------------------------------------------------- timing

/// The timings of one measurement.
struct Timing {
    median: Duration,
    p95: Duration,
    runs: usize,
}

/// Runs `between` then `f` (timed) `warmup` times untimed and `runs`
/// times timed; every answer is checked by `check`, outside the timing.
fn time_between<R>(
    warmup: usize,
    runs: usize,
    mut between: impl FnMut(),
    mut f: impl FnMut() -> R,
    check: impl Fn(&R) -> Result<(), String>,
) -> Result<Timing, String> {
    for _ in 0..warmup {
        between();
        check(&f())?;
    }
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        between();
        let start = Instant::now();
        let answer = std::hint::black_box(f());
        samples.push(start.elapsed());
        check(&answer)?;
    }
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    Ok(Timing {
        median: at(0.5),
        p95: at(0.95),
        runs: samples.len(),
    })
}

struct Row {
    name: String,
    timing: Timing,
    target: Option<Duration>,
    note: String,
}

/// A line of the report, said as it is measured.
fn row(name: impl Into<String>, timing: Timing, target: Option<Duration>, note: String) -> Row {
    let name = name.into();
    println!(
        "  {:<76} median {:>10}  p95 {:>10}  {note}",
        name,
        ms(timing.median),
        ms(timing.p95)
    );
    Row {
        name,
        timing,
        target,
        note,
    }
}

/// Prints the table; the number of targets missed.
fn report(
    rows: &[Row],
    meta: &Meta,
    store_bytes: u64,
    content: &Content,
    feed_bytes: usize,
    settings: &Settings,
) -> usize {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n## The calendar feed on {} tasks and {} people\n",
        meta.tasks, meta.people
    );
    let _ = writeln!(
        out,
        "Store: {} ({}), generated in {:.1} s. Feed: {} bytes ({}), {} VEVENTs ({} task deadlines, {} with an RRULE; {} project dates; {} yearly key dates; {} 29 February events), each with a VALARM. Cold reads: {} runs; kept reads and 304s: {} runs.\n",
        mib(store_bytes),
        meta.describe(),
        meta.generation_secs,
        feed_bytes,
        mib(feed_bytes as u64),
        content.events,
        content.tasks,
        content.task_rules,
        content.projects,
        content.key_dates_yearly,
        content.key_dates_leap,
        settings.runs,
        settings.kept_runs
    );
    let _ = writeln!(
        out,
        "| measurement | median | p95 | runs | target | result | |\n|---|---:|---:|---:|---:|---|---|"
    );
    let mut missed = 0;
    for r in rows {
        let (target, result) = match r.target {
            Some(t) if r.timing.median <= t => (format!("≤ {}", ms(t)), "met"),
            Some(t) => {
                missed += 1;
                (format!("≤ {}", ms(t)), "**missed**")
            }
            None => ("–".to_owned(), ""),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {target} | {result} | {} |",
            r.name,
            ms(r.timing.median),
            ms(r.timing.p95),
            r.timing.runs,
            r.note
        );
    }
    let _ = writeln!(out, "\n{}", targets_verdict(missed));
    print!("{out}");
    missed
}

// ---------------------------------------------------------------- the server

/// The real server over the store, on its own runtime on a loopback port.
struct Server {
    /// `http://127.0.0.1:<port>`.
    base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(org: Organiser) -> Server {
        let config = organiser_server::Config {
            rate_limit: 0,
            route_limits: false,
            jobs: organiser_server::Jobs::NONE,
            ..organiser_server::Config::default()
        };
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("a loopback port");
                addr_tx
                    .send(listener.local_addr().expect("its address"))
                    .expect("the bench waits for the address");
                organiser_server::serve(listener, org, config, async {
                    let _ = stop_rx.await;
                })
                .await
                .expect("the server runs");
            });
        });
        let addr: std::net::SocketAddr = addr_rx.recv().expect("the server starts");
        Server {
            base: format!("http://{addr}"),
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

// ---------------------------------------------------------------- the store

/// What the store holds (kept beside it).
struct Meta {
    tasks: usize,
    people: usize,
    generation_secs: f64,
    counts: Value,
}

impl Meta {
    fn to_json(&self) -> Value {
        json!({
            "format": META_FORMAT,
            "tasks": self.tasks,
            "people": self.people,
            "generation_secs": self.generation_secs,
            "counts": self.counts,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        (v["format"].as_u64() == Some(META_FORMAT)).then_some(())?;
        Some(Meta {
            tasks: v["tasks"].as_u64()? as usize,
            people: v["people"].as_u64()? as usize,
            generation_secs: v["generation_secs"].as_f64()?,
            counts: v["counts"].clone(),
        })
    }

    fn describe(&self) -> String {
        let c = &self.counts;
        let n = |k: &str| c[k].as_u64().unwrap_or(0);
        format!(
            "{} tasks, {} open ({} with a deadline), {} repeating series ({} `from: due` with COUNT, {} without, {} `from: completion`) with {} occurrences closed ({} series ended); {} in the Inbox, {} in {LISTS} lists, {} in projects; {PROJECTS} projects ({} planned, active or on hold; {} start dates, {} deadlines); {} people with {} key dates ({} birthdays, {} without a year, {} on 29 February)",
            self.tasks,
            n("open"),
            n("open_with_deadline"),
            n("series"),
            n("series_due_count"),
            n("series_due"),
            n("series_completion"),
            n("occurrences_closed"),
            n("series_ended"),
            n("inbox"),
            n("in_lists"),
            n("in_projects"),
            n("projects_open"),
            n("project_starts"),
            n("project_deadlines"),
            self.people,
            n("key_dates"),
            n("birthdays"),
            n("without_year"),
            n("leap_day"),
        )
    }
}

fn ensure_store(dir: &Path, settings: &Settings) -> Result<Meta, String> {
    let cached = std::fs::read_to_string(dir.join(META_FILE))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|v| Meta::from_json(&v))
        .filter(|m| m.tasks == settings.tasks && m.people == settings.people);
    if let Some(meta) = cached
        && !settings.regenerate
    {
        return Ok(meta);
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = generate(dir, settings)?;
    std::fs::write(dir.join(META_FILE), meta.to_json().to_string())
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(meta)
}

const FIRST: &[&str] = &[
    "Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Hedy",
    "Sophie", "Leslie", "Claude", "Annie", "Shafi", "Evelyn", "Jean", "Robin", "Vint", "Lynn",
    "Zoë", "José", "Chloé", "Søren",
];
const LAST: &[&str] = &[
    "Lovelace",
    "Turing",
    "Hopper",
    "Liskov",
    "Knuth",
    "Allen",
    "Perlman",
    "Lamarr",
    "Wilson",
    "Lamport",
    "Shannon",
    "Easley",
    "Goldwasser",
    "Boyd",
    "Sammet",
    "Milner",
    "Cerf",
    "Conway",
    "O'Neil",
    "Núñez",
];
const VERBS: &[&str] = &[
    "Call", "Email", "Book", "Pay", "Renew", "Send", "Review", "Fix", "Order", "Plan", "Write",
    "Check",
];
const OBJECTS: &[&str] = &[
    "the dentist",
    "car insurance",
    "the plumber",
    "passport",
    "quarterly report",
    "gas bill",
    "birthday present",
    "tax return",
    "train tickets",
    "school forms",
    "the landlord",
    "slides for Monday",
];
const DESCRIPTIONS: &[&str] = &[
    "<p>Ask about the invoice from March; reference 2026-114.</p>",
    "<p>Bring the forms, the old card and a photo.</p><p>Opens at 9.</p>",
    "<p>Compare three quotes first, then decide.</p>",
];
const PROJECT_WORDS: &[&str] = &[
    "Kitchen",
    "Website",
    "Garden",
    "Launch",
    "Move",
    "Wedding",
    "Audit",
    "Course",
    "Roof",
    "Migration",
];
const OTHER_LABELS: &[&str] = &["Name day", "Graduation", "Adoption day", "Retirement"];

/// One write of the history, in time order.
enum Write {
    List(usize),
    Project(usize),
    Person(usize),
    Task(usize),
    /// Closes task `.0`'s open occurrence with status `.1`.
    Close(usize, TaskStatus),
}

struct ProjectPlan {
    name: String,
    status: &'static str,
    start: Option<Date>,
    deadline: Option<Date>,
}

struct TaskPlan {
    title: String,
    description: Option<&'static str>,
    /// 0: Inbox; 1: a list; 2: a project.
    home: (u8, usize),
    deadline: Option<Date>,
    start: Option<Date>,
    repeat: Option<Repeat>,
}

fn plus_days(d: Date, days: i64) -> Date {
    d.checked_add(jiff::Span::new().days(days)).expect("a date")
}

/// A person's fields: a name, an e-mail address or two, a phone number,
/// often a position, and their key dates. Counts what it makes.
fn person(rng: &mut Rng, i: usize, counts: &mut Counts) -> PersonInput {
    use Field::Value as Set;
    let first = FIRST[rng.below(FIRST.len())];
    let last = LAST[rng.below(LAST.len())];
    let handle = format!("{}.{}{i}", first.to_lowercase(), last.to_lowercase());
    let mut email_addresses = vec![RowInput::add(EmailAddressFields {
        address: Set(format!("{handle}@home.example")),
        label: Set("home".to_owned()),
    })];
    if rng.chance(0.4) {
        email_addresses.push(RowInput::add(EmailAddressFields {
            address: Set(format!("{handle}@work.example")),
            label: Set("work".to_owned()),
        }));
    }
    let phone_numbers = vec![RowInput::add(PhoneNumberFields {
        number: Set(format!("+44 7700 {:06}", rng.below(1_000_000))),
        label: Set("mobile".to_owned()),
    })];
    let positions = rng.chance(0.5).then(|| {
        vec![RowInput::add(PositionFields {
            title: Set("Engineer".to_owned()),
            company_name: Set(format!("Company {}", rng.below(150))),
            ..PositionFields::default()
        })]
    });
    let mut key_dates = Vec::new();
    let mut key_date = |rng: &mut Rng, kind: &str, label: Option<&str>, year_share: f64| {
        let leap = kind == "birthday" && rng.chance(0.01);
        let (month, day) = if leap {
            (2, 29)
        } else {
            (1 + rng.below(12), 1 + rng.below(28))
        };
        let year = rng.chance(year_share).then(|| {
            let y = 1940 + rng.below(70);
            if leap { y - y % 4 } else { y }
        });
        counts.key_dates += 1;
        counts.birthdays += usize::from(kind == "birthday");
        counts.without_year += usize::from(year.is_none());
        counts.leap_day += usize::from(leap);
        key_dates.push(RowInput::add(KeyDateFields {
            kind: Set(kind.to_owned()),
            label: label.map_or(Field::Absent, |l| Set(l.to_owned())),
            day: Set(day as i64),
            month: Set(month as i64),
            year: year.map_or(Field::Absent, |y| Set(y as i64)),
        }));
    };
    if rng.chance(0.9) {
        key_date(rng, "birthday", None, 0.65);
    }
    if rng.chance(0.25) {
        key_date(rng, "anniversary", None, 0.6);
    }
    if rng.chance(0.05) {
        let label = OTHER_LABELS[rng.below(OTHER_LABELS.len())];
        key_date(rng, "other", Some(label), 0.3);
    }
    PersonInput {
        name: Some(format!("{first} {last} {}", i + 1)),
        email_addresses: Some(email_addresses),
        phone_numbers: Some(phone_numbers),
        positions,
        key_dates: Some(key_dates),
        ..PersonInput::default()
    }
}

#[derive(Default)]
struct Counts {
    key_dates: usize,
    birthdays: usize,
    without_year: usize,
    leap_day: usize,
}

/// A repeating series' rule: `from: due` with `COUNT` (0), without (1),
/// or `from: completion` (2).
fn repeat(rng: &mut Rng, kind: usize) -> Repeat {
    match kind {
        0 => Repeat::rule(match rng.below(4) {
            0 => format!("FREQ=WEEKLY;COUNT={}", 6 + rng.below(20)),
            1 => format!("FREQ=MONTHLY;COUNT={}", 6 + rng.below(18)),
            2 => format!("FREQ=DAILY;INTERVAL=2;COUNT={}", 10 + rng.below(30)),
            _ => format!("FREQ=WEEKLY;BYDAY=MO,TH;COUNT={}", 8 + rng.below(20)),
        }),
        1 => Repeat::rule(
            [
                "FREQ=WEEKLY",
                "FREQ=MONTHLY",
                "FREQ=YEARLY",
                "FREQ=WEEKLY;BYDAY=FR",
            ][rng.below(4)],
        ),
        _ => Repeat::from_completion(
            [
                "FREQ=DAILY;INTERVAL=3",
                "FREQ=WEEKLY;INTERVAL=2",
                "FREQ=MONTHLY",
            ][rng.below(3)],
        ),
    }
}

fn generate(dir: &Path, settings: &Settings) -> Result<Meta, String> {
    let started = Instant::now();
    let mut rng = Rng(0xCA1E_DA25_2026);
    let now_ms = now()?.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * MS_PER_DAY;
    let today = date_of(now_ms);
    let setup_at = |rng: &mut Rng| t0 + (rng.unit() * (SETUP_DAYS * MS_PER_DAY) as f64) as i64;
    let mut writes: Vec<(i64, Write)> = Vec::new();

    for j in 0..LISTS {
        writes.push((setup_at(&mut rng), Write::List(j)));
    }
    let statuses = [
        "planned",
        "active",
        "active",
        "on_hold",
        "done",
        "done",
        "cancelled",
    ];
    let projects: Vec<ProjectPlan> = (0..PROJECTS)
        .map(|i| {
            let status = statuses[rng.below(statuses.len())];
            let start = rng
                .chance(0.7)
                .then(|| plus_days(today, rng.between(0, 300) as i64 - 200));
            let deadline = rng.chance(0.6).then(|| {
                let from = start.unwrap_or(plus_days(today, -100));
                plus_days(from, rng.between(20, 240) as i64)
            });
            ProjectPlan {
                name: format!(
                    "{} {}",
                    PROJECT_WORDS[rng.below(PROJECT_WORDS.len())],
                    i + 1
                ),
                status,
                start,
                deadline,
            }
        })
        .collect();
    for i in 0..PROJECTS {
        writes.push((setup_at(&mut rng), Write::Project(i)));
    }
    let open_projects: Vec<usize> = (0..PROJECTS)
        .filter(|&i| matches!(projects[i].status, "planned" | "active" | "on_hold"))
        .collect();
    for k in 0..settings.people {
        writes.push((setup_at(&mut rng), Write::Person(k)));
    }

    // Tasks over the rest of the year, more of them lately; older ones
    // mostly closed.
    let mut series = [0usize; 3];
    let mut open = 0;
    let mut open_with_deadline = 0;
    let mut homes = [0usize; 3];
    let mut closes = 0;
    let tasks: Vec<TaskPlan> = (0..settings.tasks)
        .map(|i| {
            // A series is recent: a `from: due` series goes on from
            // today's date when an occurrence closes, and one with COUNT
            // made long ago would have ended.
            let repeating = rng.chance(0.06).then(|| {
                let r = rng.unit();
                if r < 0.55 {
                    0
                } else if r < 0.8 {
                    1
                } else {
                    2
                }
            });
            let span = (HISTORY_DAYS - SETUP_DAYS) * MS_PER_DAY;
            let at = match repeating {
                Some(_) => now_ms - (rng.unit() * 90.0 * MS_PER_DAY as f64) as i64,
                None => t0 + SETUP_DAYS * MS_PER_DAY + (rng.unit().sqrt() * span as f64) as i64,
            }
            .min(now_ms - 3_600_000);
            let made = date_of(at);
            let age_days = (now_ms - at) as f64 / MS_PER_DAY as f64;
            let r = rng.unit();
            let home = if r < 0.10 || open_projects.is_empty() {
                (0, 0)
            } else if r < 0.35 {
                (2, open_projects[rng.below(open_projects.len())])
            } else {
                (1, rng.below(LISTS))
            };
            homes[home.0 as usize] += 1;
            let deadline = (repeating.is_some() || rng.chance(0.45))
                .then(|| plus_days(made, rng.between(0, 20) as i64 + rng.below(4) as i64 * 7));
            let start = (deadline.is_none() && rng.chance(0.3)).then_some(made);
            let rule = repeating.map(|kind| repeat(&mut rng, kind));
            match repeating {
                Some(kind) => {
                    series[kind] += 1;
                    // Close up to three occurrences, three days apart.
                    for n in 0..rng.below(4) as i64 {
                        let when = (at + (n + 1) * 3 * MS_PER_DAY).min(now_ms - 60_000);
                        if when > at {
                            writes.push((when, Write::Close(i, TaskStatus::Completed)));
                            closes += 1;
                        }
                    }
                    open += 1;
                    open_with_deadline += 1;
                }
                None => {
                    let p_open = 0.15 + 0.85 * (-age_days / 90.0).exp();
                    if rng.chance(p_open) {
                        open += 1;
                        open_with_deadline += usize::from(deadline.is_some());
                    } else {
                        let delay = (rng.unit() * 20.0 * MS_PER_DAY as f64) as i64;
                        let when = (at + 60_000 + delay).min(now_ms - 60_000);
                        let status = if rng.chance(0.9) {
                            TaskStatus::Completed
                        } else {
                            TaskStatus::WontDo
                        };
                        writes.push((when, Write::Close(i, status)));
                    }
                }
            }
            writes.push((at, Write::Task(i)));
            TaskPlan {
                title: format!(
                    "{} {}",
                    VERBS[rng.below(VERBS.len())],
                    OBJECTS[rng.below(OBJECTS.len())]
                ),
                description: rng
                    .chance(0.15)
                    .then(|| DESCRIPTIONS[rng.below(DESCRIPTIONS.len())]),
                home,
                deadline,
                start,
                repeat: rule,
            }
        })
        .collect();
    // Each write at its instant; a task before its closings.
    writes.sort_by_key(|(at, w)| (*at, matches!(w, Write::Close(..))));
    println!(
        "store: generating in {} ({} writes: {LISTS} lists, {PROJECTS} projects, {} people, {} tasks)...",
        dir.display(),
        writes.len(),
        settings.people,
        settings.tasks
    );

    let clock = ManualClock::new(Timestamp::from_millisecond(t0).map_err(|e| e.to_string())?);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, t0)?;

    let mut list_ids: Vec<Option<Id>> = vec![None; LISTS];
    let mut project_ids: Vec<Option<Id>> = vec![None; PROJECTS];
    // Each task's open occurrence.
    let mut task_ids: Vec<Option<Id>> = vec![None; tasks.len()];
    let mut counts = Counts::default();
    let mut ended = 0;
    let mut people_rng = Rng(0x9E0_91E5);
    let field = |d: Option<Date>| d.map_or(Field::Absent, Field::Value);
    let mut last_report = Instant::now();
    let total = writes.len();
    for (n, (at, write)) in writes.into_iter().enumerate() {
        clock.set(Timestamp::from_millisecond(at).map_err(|e| e.to_string())?);
        match write {
            Write::List(j) => {
                let list = org
                    .task_lists()
                    .create(TaskListInput {
                        name: Some(format!("List {}", j + 1)),
                        ..TaskListInput::default()
                    })
                    .map_err(|e| format!("list {j}: {e}"))?;
                list_ids[j] = Some(list.id);
            }
            Write::Project(i) => {
                let p = &projects[i];
                let project = org
                    .projects()
                    .create(ProjectInput {
                        name: Some(p.name.clone()),
                        status: Field::Value(p.status.to_owned()),
                        start_date: field(p.start),
                        deadline: field(p.deadline),
                        ..ProjectInput::default()
                    })
                    .map_err(|e| format!("project {i}: {e}"))?;
                project_ids[i] = Some(project.id);
            }
            Write::Person(k) => {
                org.people()
                    .create(person(&mut people_rng, k, &mut counts))
                    .map_err(|e| format!("person {k}: {e}"))?;
            }
            Write::Task(i) => {
                let t = &tasks[i];
                let mut input = TaskInput {
                    title: Some(t.title.clone()),
                    description_html: t
                        .description
                        .map_or(Field::Absent, |d| Field::Value(d.to_owned())),
                    start_on: field(t.start),
                    deadline_on: field(t.deadline),
                    repeat: t.repeat.clone().map_or(Field::Absent, Field::Value),
                    ..TaskInput::default()
                };
                match t.home {
                    (1, j) => input.task_list_id = list_ids[j].map_or(Field::Absent, Field::Value),
                    (2, p) => input.project_id = project_ids[p].map_or(Field::Absent, Field::Value),
                    _ => {}
                }
                let task = org
                    .tasks()
                    .create(input)
                    .map_err(|e| format!("task {i}: {e}"))?;
                task_ids[i] = Some(task.id);
            }
            Write::Close(i, status) => {
                let Some(id) = task_ids[i] else {
                    continue;
                };
                let closed = org
                    .tasks()
                    .change(
                        id,
                        TaskInput {
                            status: Some(status),
                            ..TaskInput::default()
                        },
                    )
                    .map_err(|e| format!("close task {i}: {e}"))?;
                if tasks[i].repeat.is_some() {
                    // None when the series has ended: its later closings
                    // are left out.
                    task_ids[i] = closed.next_task_id;
                    ended += usize::from(closed.next_task_id.is_none());
                }
            }
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            println!(
                "  {n}/{total} writes, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    clock.set(now()?);
    drop(org);
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store: generated in {generation_secs:.1} s");
    let project_count = |f: &dyn Fn(&ProjectPlan) -> bool| {
        open_projects.iter().filter(|&&i| f(&projects[i])).count()
    };
    Ok(Meta {
        tasks: settings.tasks,
        people: settings.people,
        generation_secs,
        counts: json!({
            "open": open - ended,
            "open_with_deadline": open_with_deadline - ended,
            "series_ended": ended,
            "series": series.iter().sum::<usize>(),
            "series_due_count": series[0],
            "series_due": series[1],
            "series_completion": series[2],
            "occurrences_closed": closes,
            "inbox": homes[0],
            "in_lists": homes[1],
            "in_projects": homes[2],
            "projects_open": open_projects.len(),
            "project_starts": project_count(&|p| p.start.is_some()),
            "project_deadlines": project_count(&|p| p.deadline.is_some()),
            "key_dates": counts.key_dates,
            "birthdays": counts.birthdays,
            "without_year": counts.without_year,
            "leap_day": counts.leap_day,
        }),
    })
}
