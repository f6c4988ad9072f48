//! Tasks on a store of 100,000 tasks: the first page of the smart views,
//! one list's tasks, the counts, creating a task and closing one (plain,
//! and repeating: the close that makes the next occurrence), in-process through the
//! typed API and through `Organiser::handle` (the JSON path the server and
//! the CLI use), and `organiser tasks`, `tasks today` and `tasks add` from a
//! cold process.
//!
//! ```text
//! cargo bench --bench tasks
//! BENCH_REGENERATE=1 cargo bench --bench tasks     # build the store again
//! ```
//!
//! The store is generated once through the public API (one transaction per
//! record, as an app would write it), replaying three years of history on a
//! `ManualClock` that ends at the fixed instant [`NOW`], and kept in
//! `target/bench-store-100000` (with `bench-store.json` beside the store
//! describing it); it is made again when missing or when
//! `BENCH_REGENERATE=1`, by a child process (this bench run with
//! `--generate-store`), so that generating leaves no memory behind in the
//! measuring process. The listings run against that directory; creating
//! tasks runs against a copy of it (on the same disk, removed afterwards),
//! so the cached store stays as generated. The CLI runs with
//! `ORGANISER_NOW` set to [`NOW`], so it sees the same "today".
//!
//! Environment: `BENCH_TASKS` (default 100000), `BENCH_LISTS` (200),
//! `BENCH_RUNS` (runs per listing, default 500), `BENCH_CREATE_RUNS` (200),
//! `BENCH_CLI_RUNS` (30), `BENCH_STORE_DIR` (where the store is kept),
//! `BENCH_GEN_DIR` (generate there, then copy to the store directory: for
//! example `/dev/shm/x`, where a commit's sync costs nothing),
//! `BENCH_REGENERATE=1`. The bench reads `/proc` for memory figures and uses
//! `/usr/bin/time -v`, when installed, for the CLI's peak memory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::civil::Date;
use organiser::{
    Auth, Field, Id, Organiser, account::AppearanceChange, clock::ManualClock, server::Method,
    server::Request, task_lists::TaskListInput, tasks::Home, tasks::Repeat, tasks::TaskCountsQuery,
    tasks::TaskInput, tasks::TaskQuery, tasks::TaskStatus, tasks::View,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    Stats, bench_main, cli_command, copy_store, date_of, env_number, get, mib, ms, options,
    organiser_binary, proc_status_kib, run_cli, stats, target_dir, targets_verdict, time,
    time_between,
};

/// The instant the store's history ends at, and the clock of every
/// measurement (owner zone UTC, so today is 2026-10-14).
const NOW: &str = "2026-10-14T09:30:00Z";
/// How far back the history goes.
const HISTORY_DAYS: i64 = 3 * 365;
/// The share of tasks in the Inbox.
const INBOX_SHARE: f64 = 0.05;
/// The size of list whose tasks are listed.
const LIST_SIZE: usize = 500;
/// A page.
const PAGE: usize = 50;

const MS_PER_DAY: i64 = 86_400_000;

/// Run as a child with this argument, the bench only generates the store:
/// the generating process's memory then stays out of the measuring one's.
const GENERATE_ARG: &str = "--generate-store";

fn main() -> ExitCode {
    bench_main("tasks", |args| {
        if args.iter().any(|arg| arg == GENERATE_ARG) {
            Settings::read().and_then(|settings| build_store(&settings))
        } else {
            run()
        }
    })
}

// ---------------------------------------------------------------- settings

struct Settings {
    tasks: usize,
    lists: usize,
    runs: usize,
    create_runs: usize,
    cli_runs: usize,
    store_dir: PathBuf,
    gen_dir: Option<PathBuf>,
    regenerate: bool,
    target_dir: PathBuf,
}

impl Settings {
    fn read() -> Result<Settings, String> {
        let tasks = env_number("BENCH_TASKS", 100_000)?;
        let target_dir = target_dir()?;
        let store_dir = match std::env::var_os("BENCH_STORE_DIR") {
            Some(d) if !d.is_empty() => PathBuf::from(d),
            _ => target_dir.join(format!("bench-store-{tasks}")),
        };
        Ok(Settings {
            tasks,
            lists: env_number("BENCH_LISTS", 200)?.max(1),
            runs: env_number("BENCH_RUNS", 500)?.max(1),
            create_runs: env_number("BENCH_CREATE_RUNS", 200)?.max(1),
            cli_runs: env_number("BENCH_CLI_RUNS", 30)?.max(1),
            store_dir,
            gen_dir: std::env::var_os("BENCH_GEN_DIR")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
            target_dir,
        })
    }
}

// ---------------------------------------------------------------- the run

fn run() -> Result<(), String> {
    let settings = Settings::read()?;
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    println!(
        "tasks: {} tasks in {} lists plus the Inbox, now = {NOW}, store in {}",
        settings.tasks,
        settings.lists,
        settings.store_dir.display()
    );

    let meta = ensure_store(&settings)?;
    let size = dir_size(&settings.store_dir);
    println!(
        "store: {} on disk ({} allocated) in {}",
        mib(size.bytes),
        mib(size.allocated),
        settings.store_dir.display()
    );
    println!("{}", meta.summary());

    // The copy that creating tasks writes to, made before the original is opened.
    let scratch = tempfile::Builder::new()
        .prefix("bench-store-scratch-")
        .tempdir_in(&settings.target_dir)
        .map_err(|e| format!("scratch directory: {e}"))?;
    copy_store(&settings.store_dir, scratch.path(), META_FILE)?;

    let compaction = measure_compaction(&settings)?;

    let mut rows = Vec::new();
    let cli_requests = {
        let org = open(&settings.store_dir, now)?;
        measure_reads(&org, &settings, &meta, &mut rows)?;
        measure_cli_in_process(&org, &settings, &mut rows)?
    };
    measure_open(
        &settings.store_dir,
        now,
        &settings,
        &cli_requests,
        &mut rows,
    )?;
    {
        let org = open(scratch.path(), now)?;
        measure_creates(&org, &settings, &meta, &mut rows)?;
    }
    let bench_peak = proc_status_kib("VmHWM");

    let cli = measure_cli(&settings, scratch.path(), &mut rows)?;
    drop(scratch);

    print_report(&settings, &meta, size, &rows, bench_peak, &cli);
    println!("{}", compaction.summary());
    Ok(())
}

/// `organiser compact` on a copy of the store: its size before and after,
/// and how long it took.
struct CompactionFigures {
    before: DirSize,
    after: DirSize,
    took: Duration,
}

impl CompactionFigures {
    fn summary(&self) -> String {
        format!(
            "organiser compact: {} -> {} on disk ({} -> {} allocated) in {:.2} s",
            mib(self.before.bytes),
            mib(self.after.bytes),
            mib(self.before.allocated),
            mib(self.after.allocated),
            self.took.as_secs_f64()
        )
    }
}

fn measure_compaction(settings: &Settings) -> Result<CompactionFigures, String> {
    let copy = tempfile::Builder::new()
        .prefix("bench-store-compact-")
        .tempdir_in(&settings.target_dir)
        .map_err(|e| format!("compaction directory: {e}"))?;
    copy_store(&settings.store_dir, copy.path(), META_FILE)?;
    let before = dir_size(copy.path());
    let started = Instant::now();
    Organiser::compact(copy.path()).map_err(|e| format!("compacting: {e}"))?;
    let took = started.elapsed();
    let after = dir_size(copy.path());
    let figures = CompactionFigures {
        before,
        after,
        took,
    };
    println!("{}", figures.summary());
    Ok(figures)
}

fn open(dir: &Path, now: Timestamp) -> Result<Organiser, String> {
    let options = options(ManualClock::new(now));
    Organiser::open_with(dir, options).map_err(|e| format!("open {}: {e}", dir.display()))
}

// ---------------------------------------------------------------- timing

/// `handle(request)` timed as the first read after a commit: a commit,
/// untimed, before each call starts a new generation, so nothing kept for
/// the last one serves it.
fn time_first_read(org: &Organiser, warmup: usize, runs: usize, request: &Request) -> Stats {
    time_between(
        warmup,
        runs,
        || {
            org.account()
                .change_appearance(AppearanceChange::default())
                .expect("a commit");
        },
        || {
            std::hint::black_box(org.handle(request));
        },
    )
}

/// A line of the report.
struct Row {
    group: &'static str,
    name: String,
    stats: Stats,
    target: Option<Duration>,
    note: String,
}

fn row(
    group: &'static str,
    name: impl Into<String>,
    stats: Stats,
    target: Option<Duration>,
    note: impl Into<String>,
) -> Row {
    let row = Row {
        group,
        name: name.into(),
        stats,
        target,
        note: note.into(),
    };
    println!(
        "  {:<58} median {:>9}  p90 {:>9}",
        row.name,
        ms(row.stats.median),
        ms(row.stats.p90)
    );
    row
}

// ---------------------------------------------------------------- in-process

fn measure_reads(
    org: &Organiser,
    settings: &Settings,
    meta: &Meta,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let ms1 = Some(Duration::from_millis(1));
    let runs = settings.runs;
    let warmup = (runs / 10).max(20);
    let list = Id::parse(&meta.list_id).ok_or("bench-store.json: a bad list id")?;

    let view = |v: View| TaskQuery {
        view: Some(v),
        ..TaskQuery::default()
    };
    let typed: Vec<(&str, TaskQuery)> = vec![
        ("view=today", view(View::Today)),
        ("view=due_soon", view(View::DueSoon)),
        ("view=logbook", view(View::Logbook)),
        (
            "task_list_id=<list>",
            TaskQuery {
                home: Some(Home::List(list)),
                ..TaskQuery::default()
            },
        ),
    ];
    println!("\nin-process, typed API (first page of {PAGE}), {runs} runs each:");
    for (name, q) in &typed {
        let page = org.tasks().list(q).map_err(|e| format!("{name}: {e}"))?;
        if page.items.is_empty() {
            return Err(format!("{name}: an empty first page"));
        }
        let s = time(warmup, runs, || {
            std::hint::black_box(org.tasks().list(q).expect("tasks"));
        });
        let note = format!("{} items", page.items.len());
        rows.push(row("typed", format!("tasks({name})"), s, ms1, note));
    }
    let counts = [
        ("task_counts()", TaskCountsQuery::default()),
        (
            "task_counts(view=today)",
            TaskCountsQuery {
                view: Some(View::Today),
                home: None,
            },
        ),
    ];
    for (name, q) in &counts {
        org.tasks().counts(q).map_err(|e| format!("{name}: {e}"))?;
        let s = time(warmup, runs, || {
            std::hint::black_box(org.tasks().counts(q).expect("counts"));
        });
        rows.push(row("typed", *name, s, ms1, ""));
    }

    println!("\nin-process, handle(&Request) with the JSON body, {runs} runs each:");
    let json_rows: Vec<(String, &str, String, Option<Duration>)> = vec![
        (
            "view=today".into(),
            "/tasks",
            "view=today&limit=50".into(),
            ms1,
        ),
        (
            "view=due_soon".into(),
            "/tasks",
            "view=due_soon&limit=50".into(),
            ms1,
        ),
        (
            "view=logbook".into(),
            "/tasks",
            "view=logbook&limit=50".into(),
            ms1,
        ),
        (
            "task_list_id=<list>".into(),
            "/tasks",
            format!("task_list_id={}&limit=50", meta.list_id),
            ms1,
        ),
        ("task_counts".into(), "/task_counts", String::new(), ms1),
        (
            "task_counts?view=today".into(),
            "/task_counts",
            "view=today".into(),
            ms1,
        ),
    ];
    for (name, path, query, target) in json_rows {
        let request = get(path, &query)?;
        let bytes = checked(org, &request, &name)?;
        let label = if path == "/tasks" {
            format!("GET /tasks?{name}")
        } else {
            format!("GET /{name}")
        };
        // The first read after a commit: the page rendered afresh.
        let s = time_first_read(org, warmup, runs, &request);
        let note = format!("{bytes} B body, first read after a commit");
        rows.push(row("json", label.clone(), s, target, note));
        // Again in the same generation: the answer kept for it.
        let s = time(warmup, runs, || {
            std::hint::black_box(org.handle(&request));
        });
        let note = format!("{bytes} B body, kept answer");
        rows.push(row("kept", label, s, None, note));
    }

    println!("\nother listings (no target), handle(&Request), {runs} runs each:");
    let extra: Vec<(&str, &str, String)> = vec![
        (
            "/tasks",
            "view=today&count=true",
            "view=today&limit=50&count=true".into(),
        ),
        (
            "/tasks",
            "task_list_id=<list>&status=open",
            format!("task_list_id={}&status=open&limit=50", meta.list_id),
        ),
        (
            "/tasks",
            "inbox=true&status=open",
            "inbox=true&status=open&limit=50".into(),
        ),
        ("/tasks", "view=overview", "view=overview&limit=50".into()),
        ("/tasks", "view=planned", "view=planned&limit=50".into()),
        ("/tasks", "view=one_day", "view=one_day&limit=50".into()),
        (
            "/tasks",
            "view=today_queue",
            "view=today_queue&limit=50".into(),
        ),
        (
            "/tasks",
            "view=due_not_today",
            "view=due_not_today&limit=50".into(),
        ),
        ("/tasks", "view=logbook&cursor=<page 2>", String::new()),
        (
            "/tasks",
            "status=completed&order=completed_at",
            "status=completed&order=completed_at&limit=50".into(),
        ),
        ("/task_counts", "view=overview", "view=overview".into()),
        ("/task_counts", "view=logbook", "view=logbook".into()),
        (
            "/task_counts",
            "task_list_id=<list>",
            format!("task_list_id={}", meta.list_id),
        ),
        ("/task_lists", "limit=100", "limit=100".into()),
    ];
    for (path, name, mut query) in extra {
        if query.is_empty() {
            // The logbook's second page.
            let first = org
                .handle(&get("/tasks", "view=logbook&limit=50")?)
                .json_value();
            let cursor = first["meta"]["next_cursor"]
                .as_str()
                .ok_or("the logbook has no second page")?;
            query = format!("view=logbook&limit=50&cursor={cursor}");
        }
        let request = get(path, &query)?;
        let bytes = checked(org, &request, name)?;
        let s = time_first_read(org, warmup, runs, &request);
        rows.push(row(
            "other",
            format!("GET {path}?{name}"),
            s,
            None,
            format!("{bytes} B body, first read after a commit"),
        ));
    }
    Ok(())
}

/// The requests `organiser tasks today` makes, answered in this process
/// (what the CLI's wall time holds besides starting, opening the store and
/// printing).
fn measure_cli_in_process(
    org: &Organiser,
    settings: &Settings,
    rows: &mut Vec<Row>,
) -> Result<Vec<Request>, String> {
    let runs = settings.runs;
    let requests = [
        get("/tasks", "view=today&limit=50&count=true")?,
        get("/task_counts", "view=today")?,
        get("/task_lists", "limit=100")?,
        get("/me", "")?,
    ];
    for r in &requests {
        checked(org, r, &r.path)?;
    }
    // The lists come in pages of 100: the later pages by cursor.
    let mut pages = vec![get("/task_lists", "limit=100")?];
    loop {
        let last = org.handle(pages.last().expect("a page")).json_value();
        match last["meta"]["next_cursor"].as_str() {
            Some(c) => pages.push(get("/task_lists", &format!("limit=100&cursor={c}"))?),
            None => break,
        }
    }
    let all: Vec<Request> = requests[..2]
        .iter()
        .chain(&pages)
        .chain(&requests[3..])
        .cloned()
        .collect();
    let s = time((runs / 10).max(10), runs, || {
        for r in &all {
            std::hint::black_box(org.handle(r));
        }
    });
    let note = format!(
        "{} requests: tasks (count=true), counts, {} list pages, me",
        all.len(),
        pages.len()
    );
    rows.push(row(
        "other",
        "the CLI's requests for `tasks today` (warm handle)",
        s,
        None,
        note,
    ));
    Ok(all)
}

/// Opening the store (a new handle, as each CLI run makes) and closing it,
/// then the same with the CLI's requests answered by the fresh handle,
/// whose page cache is empty (the file is in the OS's cache).
fn measure_open(
    dir: &Path,
    now: Timestamp,
    settings: &Settings,
    requests: &[Request],
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let runs = settings.cli_runs.max(30);
    let s = time(2, runs, || {
        drop(std::hint::black_box(open(dir, now).expect("open")));
    });
    let note = "opening a current store writes nothing; closing syncs";
    rows.push(row("other", "Organiser::open_with + drop", s, None, note));
    // Each run: a fresh handle, each request timed alone, then the drop.
    let mut total = Vec::with_capacity(runs);
    let mut each: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); requests.len()];
    for run in 0..runs + 2 {
        let start = Instant::now();
        let org = open(dir, now)?;
        for (i, r) in requests.iter().enumerate() {
            let t = Instant::now();
            std::hint::black_box(org.handle(r));
            if run >= 2 {
                each[i].push(t.elapsed());
            }
        }
        drop(org);
        if run >= 2 {
            total.push(start.elapsed());
        }
    }
    for (r, samples) in requests.iter().zip(each) {
        let query: Vec<String> = r
            .query
            .pairs()
            .map(|(k, v)| {
                if k == "cursor" {
                    "cursor=…".to_owned()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect();
        let name = if query.is_empty() {
            format!("  cold handle: GET {}", r.path)
        } else {
            format!("  cold handle: GET {}?{}", r.path, query.join("&"))
        };
        rows.push(row(
            "other",
            name,
            stats(samples),
            None,
            "first requests of a fresh handle",
        ));
    }
    let note = "a fresh handle each run: redb's cache starts empty";
    rows.push(row(
        "other",
        "open_with + the CLI's requests + drop",
        stats(total),
        None,
        note,
    ));
    Ok(())
}

/// Answers `request` once and checks it is a 200; its body's size.
fn checked(org: &Organiser, request: &Request, name: &str) -> Result<usize, String> {
    let response = org.handle(request);
    if response.status != 200 {
        return Err(format!(
            "{name}: status {} {}",
            response.status,
            response.json_value()
        ));
    }
    Ok(response.body.as_ref().map_or(0, Vec::len))
}

fn measure_creates(
    org: &Organiser,
    settings: &Settings,
    meta: &Meta,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let ms5 = Some(Duration::from_millis(5));
    let runs = settings.create_runs;
    let warmup = (runs / 20).max(5);
    let list = Id::parse(&meta.list_id).ok_or("bench-store.json: a bad list id")?;
    let today = org.today();
    let in_a_week = today
        .checked_add(jiff::Span::new().days(7))
        .map_err(|e| e.to_string())?;
    println!(
        "\ncreating a task (one write transaction, committed) on a copy of the store, {runs} runs each:"
    );

    let mut n = 0u32;
    let s = time(warmup, runs, || {
        n += 1;
        let input = TaskInput {
            title: Some(format!("Call the plumber about the boiler ({n})")),
            task_list_id: Field::Value(list),
            start_on: Field::Value(today),
            deadline_on: Field::Value(in_a_week),
            ..TaskInput::default()
        };
        std::hint::black_box(org.tasks().create(input).expect("create_task"));
    });
    rows.push(row(
        "create",
        "create_task (list, start today, deadline +7d)",
        s,
        ms5,
        "",
    ));

    let s = time(warmup, runs, || {
        n += 1;
        std::hint::black_box(
            org.tasks()
                .create(TaskInput::titled(format!("Buy milk ({n})")))
                .expect("create_task"),
        );
    });
    rows.push(row("create", "create_task (Inbox, title only)", s, ms5, ""));

    let body = |n: u32| {
        json!({"task": {
            "title": format!("Renew the car insurance ({n})"),
            "task_list_id": meta.list_id,
            "start_on": today.to_string(),
            "deadline_on": in_a_week.to_string(),
            "description_html": "<p>Compare <strong>three</strong> quotes first.</p>",
        }})
    };
    let first = org.handle(&Request::new(Method::Post, "/tasks", Auth::Local).with_body(body(0)));
    if first.status != 201 {
        return Err(format!(
            "POST /tasks: status {} {}",
            first.status,
            first.json_value()
        ));
    }
    let s = time(warmup, runs, || {
        n += 1;
        let request = Request::new(Method::Post, "/tasks", Auth::Local).with_body(body(n));
        std::hint::black_box(org.handle(&request));
    });
    rows.push(row(
        "create",
        "POST /tasks (list, dates, description)",
        s,
        ms5,
        "handle, JSON in and out",
    ));
    measure_closes(org, list, warmup, runs, rows)
}

/// Closing a task through the typed API, plain and repeating (EXTENSIONS.md
/// §1: the repeating close also makes the next occurrence, in the same
/// write); the target is at most 1.5 times the plain close.
fn measure_closes(
    org: &Organiser,
    list: Id,
    warmup: usize,
    runs: usize,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let today = org.today();
    let due = today
        .checked_add(jiff::Span::new().days(3))
        .map_err(|e| e.to_string())?;
    let make = |n: usize, repeat: Option<Repeat>| -> Result<Id, String> {
        let input = TaskInput {
            title: Some(format!("Water the plants ({n})")),
            task_list_id: Field::Value(list),
            deadline_on: Field::Value(due),
            repeat: repeat.map_or(Field::Absent, Field::Value),
            ..TaskInput::default()
        };
        Ok(org.tasks().create(input).map_err(|e| e.to_string())?.id)
    };
    let plain = (0..warmup + runs)
        .map(|n| make(n, None))
        .collect::<Result<Vec<_>, _>>()?;
    let repeating = (0..warmup + runs)
        .map(|n| make(n, Some(Repeat::rule("FREQ=WEEKLY;BYDAY=MO,TH"))))
        .collect::<Result<Vec<_>, _>>()?;
    let close = |id: Id| {
        let input = TaskInput {
            status: Some(TaskStatus::Completed),
            ..TaskInput::default()
        };
        std::hint::black_box(org.tasks().change(id, input).expect("close a task"))
    };
    println!("\nclosing a task (one write transaction, committed), {runs} runs each:");
    let mut next = plain.iter();
    let s_plain = time(warmup, runs, || {
        close(*next.next().expect("a task"));
    });
    let mut next = repeating.iter();
    let s_repeat = time(warmup, runs, || {
        let closed = close(*next.next().expect("a task"));
        assert!(closed.next_task_id.is_some(), "no next occurrence");
    });
    let ratio = s_repeat.median.as_secs_f64() / s_plain.median.as_secs_f64();
    let target = s_plain.median.mul_f64(1.5);
    rows.push(row(
        "close",
        "close a task (completed)",
        s_plain,
        Some(Duration::from_millis(5)),
        "",
    ));
    rows.push(row(
        "close",
        "close a repeating task (makes the next occurrence)",
        s_repeat,
        Some(target),
        format!("{ratio:.2} times the plain close; target at most 1.5"),
    ));
    Ok(())
}

// ---------------------------------------------------------------- the CLI

struct CliFigures {
    binary: PathBuf,
    header: String,
    peak_kib: Option<u64>,
    peak_note: String,
}

/// The CLI from a cold process: the reads on the store, `tasks add` on the
/// copy `scratch` (so the store stays as generated).
fn measure_cli(
    settings: &Settings,
    scratch: &Path,
    rows: &mut Vec<Row>,
) -> Result<CliFigures, String> {
    let binary = organiser_binary()?;
    let dir = &settings.store_dir;
    let runs = settings.cli_runs;
    println!(
        "\nthe CLI, a new process per run ({}), {runs} runs each:",
        binary.display()
    );

    // One run to see that it works and what it prints.
    let out = cli_command(&binary, dir, Some(NOW), &["tasks", "today"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "organiser tasks today: {} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let header = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();

    let cases: [(&str, &[&str], Option<Duration>); 5] = [
        (
            "organiser tasks (the today queue)",
            &["tasks"],
            Some(Duration::from_millis(10)),
        ),
        (
            "organiser tasks today",
            &["tasks", "today"],
            Some(Duration::from_millis(10)),
        ),
        (
            "organiser tasks add (a copy of the store)",
            &[
                "tasks",
                "add",
                "Call",
                "the",
                "plumber",
                "--deadline",
                "+3d",
            ],
            Some(Duration::from_millis(10)),
        ),
        (
            "organiser tasks today --json",
            &["tasks", "today", "--json"],
            None,
        ),
        (
            "organiser --version (process start, no store)",
            &["--version"],
            None,
        ),
    ];
    for (name, args, target) in cases {
        let dir = if args.get(1) == Some(&"add") {
            scratch
        } else {
            dir
        };
        run_cli(&binary, dir, Some(NOW), args)?;
        let mut samples = Vec::with_capacity(runs);
        for _ in 0..runs {
            samples.push(run_cli(&binary, dir, Some(NOW), args)?);
        }
        let group = if target.is_some() { "cli" } else { "other" };
        rows.push(row(
            group,
            name,
            stats(samples),
            target,
            "wall, stdout to /dev/null",
        ));
    }

    // Peak memory of the CLI process, from GNU time.
    let (peak_kib, peak_note) = match Path::new("/usr/bin/time").exists() {
        false => (
            None,
            "unknown: /usr/bin/time is not installed (apt-get install -y time)".to_owned(),
        ),
        true => {
            let mut peak = None;
            for _ in 0..5 {
                let mut cmd = Command::new("/usr/bin/time");
                cmd.arg("-v").arg(&binary);
                let inner = cli_command(&binary, dir, Some(NOW), &["tasks", "today"]);
                cmd.args(inner.get_args())
                    .envs(inner.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
                    .env_remove("ORGANISER_URL")
                    .env_remove("ORGANISER_TOKEN")
                    .env_remove("ORGANISER_DATA_DIR")
                    .env_remove("ORGANISER_DEV")
                    .stdout(Stdio::null());
                let out = cmd.output().map_err(|e| e.to_string())?;
                let text = String::from_utf8_lossy(&out.stderr);
                let kib = text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
                    .and_then(|v| v.trim().parse::<u64>().ok());
                peak = peak.max(kib);
            }
            (peak, "max RSS over 5 runs, /usr/bin/time -v".to_owned())
        }
    };
    Ok(CliFigures {
        binary,
        header,
        peak_kib,
        peak_note,
    })
}

// ---------------------------------------------------------------- report

fn print_report(
    settings: &Settings,
    meta: &Meta,
    size: DirSize,
    rows: &[Row],
    bench_peak: Option<u64>,
    cli: &CliFigures,
) {
    let mut out = String::new();
    let _ = writeln!(out, "\n## Tasks on {} tasks\n", settings.tasks);
    let _ = writeln!(out, "{}", meta.summary());
    let _ = writeln!(
        out,
        "store on disk: {} ({} allocated); generated in {:.1} s",
        mib(size.bytes),
        mib(size.allocated),
        meta.generation_secs
    );
    let _ = writeln!(out, "CLI prints: {}", cli.header);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| measurement | median | p90 | runs | target | result | note |\n|---|---:|---:|---:|---:|---|---|"
    );
    let mut missed = 0;
    for r in rows {
        let (target, result) = match r.target {
            Some(t) => {
                let ok = r.stats.median <= t;
                if !ok {
                    missed += 1;
                }
                (
                    format!("≤ {} ms", t.as_millis()),
                    if ok { "pass" } else { "**FAIL**" },
                )
            }
            None => ("–".to_owned(), ""),
        };
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} | {target} | {result} | {} |",
            r.group,
            r.name.trim(),
            ms(r.stats.median),
            ms(r.stats.p90),
            r.stats.runs,
            r.note,
        );
    }
    let _ = writeln!(out);
    let kib = |k: Option<u64>| {
        k.map_or("unknown".to_owned(), |k| {
            format!("{:.1} MiB", k as f64 / 1024.0)
        })
    };
    let _ = writeln!(
        out,
        "peak memory, bench process while measuring (VmHWM; generation runs in a child): {}",
        kib(bench_peak)
    );
    if let Some(g) = meta.generation_peak_kib {
        let _ = writeln!(
            out,
            "peak memory, bench process while generating (VmHWM): {}",
            kib(Some(g))
        );
    }
    let _ = writeln!(
        out,
        "peak memory, `organiser tasks today` ({}): {}",
        cli.peak_note,
        kib(cli.peak_kib)
    );
    let _ = writeln!(out, "binary: {}", cli.binary.display());
    let _ = writeln!(out, "{}", targets_verdict(missed));
    print!("{out}");
}

// ---------------------------------------------------------------- memory, disk

#[derive(Clone, Copy, Default)]
struct DirSize {
    bytes: u64,
    allocated: u64,
}

fn dir_size(dir: &Path) -> DirSize {
    use std::os::unix::fs::MetadataExt;
    let mut size = DirSize::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return size;
    };
    for entry in entries.flatten() {
        let Ok(md) = entry.metadata() else { continue };
        if md.is_dir() {
            let inner = dir_size(&entry.path());
            size.bytes += inner.bytes;
            size.allocated += inner.allocated;
        } else {
            size.bytes += md.len();
            size.allocated += md.blocks() * 512;
        }
    }
    size
}

// ---------------------------------------------------------------- the store

/// What `bench-store.json` records about a generated store.
struct Meta {
    tasks: usize,
    lists: usize,
    list_id: String,
    list_name: String,
    list_tasks: usize,
    generation_secs: f64,
    generation_peak_kib: Option<u64>,
    statuses: Value,
}

const META_FILE: &str = "bench-store.json";
/// Bumped when the generator changes, so that an older store is made again.
const META_FORMAT: u64 = 2;

impl Meta {
    fn summary(&self) -> String {
        format!(
            "store: {} tasks, {} lists; statuses at now {}; listed list {:?} ({}) holds {} tasks",
            self.tasks, self.lists, self.statuses, self.list_name, self.list_id, self.list_tasks
        )
    }

    fn to_json(&self) -> Value {
        json!({
            "now": NOW,
            "format": META_FORMAT,
            "tasks": self.tasks,
            "lists": self.lists,
            "list_id": self.list_id,
            "list_name": self.list_name,
            "list_tasks": self.list_tasks,
            "generation_secs": self.generation_secs,
            "generation_peak_kib": self.generation_peak_kib,
            "statuses": self.statuses,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        Some(Meta {
            tasks: usize::try_from(v["tasks"].as_u64()?).ok()?,
            lists: usize::try_from(v["lists"].as_u64()?).ok()?,
            list_id: v["list_id"].as_str()?.to_owned(),
            list_name: v["list_name"].as_str()?.to_owned(),
            list_tasks: usize::try_from(v["list_tasks"].as_u64()?).ok()?,
            generation_secs: v["generation_secs"].as_f64()?,
            generation_peak_kib: v["generation_peak_kib"].as_u64(),
            statuses: v["statuses"].clone(),
        })
        .filter(|_| v["now"].as_str() == Some(NOW) && v["format"].as_u64() == Some(META_FORMAT))
    }
}

/// The cached store's description, when it was made for these settings.
fn cached(settings: &Settings) -> Option<Meta> {
    if !settings
        .store_dir
        .join(organiser::data::STORE_FILE)
        .exists()
    {
        return None;
    }
    std::fs::read_to_string(settings.store_dir.join(META_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| Meta::from_json(&v))
        .filter(|m| m.tasks == settings.tasks && m.lists == settings.lists)
}

/// The store's description, generating the store first (in a child process
/// running this bench with [`GENERATE_ARG`]) when it is missing, was made
/// for other settings, or `BENCH_REGENERATE=1`.
fn ensure_store(settings: &Settings) -> Result<Meta, String> {
    if !settings.regenerate
        && let Some(meta) = cached(settings)
    {
        println!(
            "store: cached (generated in {:.1} s; BENCH_REGENERATE=1 makes it again)",
            meta.generation_secs
        );
        return Ok(meta);
    }
    let exe = std::env::current_exe().map_err(|e| format!("where am I: {e}"))?;
    let status = Command::new(exe)
        .args(["--bench", GENERATE_ARG])
        .status()
        .map_err(|e| format!("generating the store: {e}"))?;
    if !status.success() {
        return Err(format!("generating the store failed ({status})"));
    }
    cached(settings).ok_or_else(|| "the generated store has no bench-store.json".to_owned())
}

/// Generates the store (in [`Settings::gen_dir`] when set, then copied)
/// and writes its description.
fn build_store(settings: &Settings) -> Result<(), String> {
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    if settings.store_dir.exists() {
        std::fs::remove_dir_all(&settings.store_dir)
            .map_err(|e| format!("remove {}: {e}", settings.store_dir.display()))?;
    }
    let gen_dir = settings
        .gen_dir
        .clone()
        .unwrap_or_else(|| settings.store_dir.clone());
    if gen_dir != settings.store_dir && gen_dir.exists() {
        std::fs::remove_dir_all(&gen_dir)
            .map_err(|e| format!("remove {}: {e}", gen_dir.display()))?;
    }
    let mut meta = generate(&gen_dir, settings, now)?;
    if gen_dir != settings.store_dir {
        let start = Instant::now();
        copy_store(&gen_dir, &settings.store_dir, META_FILE)?;
        std::fs::remove_dir_all(&gen_dir)
            .map_err(|e| format!("remove {}: {e}", gen_dir.display()))?;
        println!(
            "store: copied to {} in {:.1} s",
            settings.store_dir.display(),
            start.elapsed().as_secs_f64()
        );
    }
    meta.generation_peak_kib = proc_status_kib("VmHWM");
    let meta_path = settings.store_dir.join(META_FILE);
    std::fs::write(
        &meta_path,
        serde_json::to_string_pretty(&meta.to_json()).unwrap_or_default(),
    )
    .map_err(|e| format!("write {}: {e}", meta_path.display()))
}

/// A small deterministic generator (SplitMix64): the same store every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// Exponential with this mean.
    fn exp(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.unit()).ln()
    }
}

const VERBS: &[&str] = &[
    "Call",
    "Email",
    "Buy",
    "Book",
    "Fix",
    "Review",
    "Write",
    "Plan",
    "Pay",
    "Renew",
    "Clean",
    "Order",
    "Prepare",
    "Schedule",
    "Cancel",
    "Update",
    "Read",
    "Check",
    "Send",
    "Draft",
    "Sort out",
    "Ask about",
    "Research",
    "Return",
    "Print",
    "Back up",
    "Tidy",
    "Chase",
    "Finish",
    "Start",
];
const OBJECTS: &[&str] = &[
    "the dentist",
    "the quarterly report",
    "car insurance",
    "a birthday present for Sam",
    "flights to Lisbon",
    "the kitchen tap",
    "pull request 1234",
    "the gas bill",
    "passport photos",
    "the garden shed",
    "team offsite agenda",
    "tax return",
    "library books",
    "the bike's brakes",
    "Grandma's visit",
    "the server backups",
    "onboarding notes for Priya",
    "school forms",
    "the landlord",
    "running shoes",
    "the budget spreadsheet",
    "conference talk slides",
    "the vet appointment",
    "photos from the holiday",
    "the broken blind",
    "a new laptop bag",
    "the project retrospective",
    "invoices for March",
    "the recycling bins",
    "Alex's reference letter",
    "the water filter",
    "the boiler service",
    "a thank-you card",
    "the mortgage offer",
    "the release notes",
    "the piano tuner",
    "domain renewal",
    "the CI pipeline",
    "winter tyres",
    "the book club pick",
];
const TAILS: &[&str] = &[
    "",
    "",
    "",
    "",
    "",
    " before Friday",
    " (again)",
    " for the team",
    " this week",
    " with Jo",
    " and file the receipt",
    " – see email",
    " before the trip",
];
const DESCRIPTIONS: &[&str] = &[
    "<p>Compare <strong>three</strong> quotes before deciding.</p>",
    "<p>Notes from the call:</p><ul><li>send the contract</li><li>confirm the date</li></ul>",
    "<p>Details on <a href=\"https://example.com/ticket/42\">the ticket</a>.</p>",
    "<p>Remember the reference number and <em>keep the receipt</em>.</p><p>Ask for a discount.</p>",
    "<ol><li>Draft</li><li>Review with the team</li><li>Send</li></ol>",
];
const LIST_WORDS: &[&str] = &[
    "Home", "Work", "Garden", "Car", "Health", "Finance", "Reading", "Travel", "Family", "Errands",
    "Projects", "Learning", "Music", "Kitchen", "Office", "Clients", "Writing", "Sport", "Friends",
    "Admin",
];

struct TaskPlan {
    at: i64,
    list: Option<usize>,
    title: String,
    description: Option<&'static str>,
    start: Option<Date>,
    deadline: Option<Date>,
    expires: Option<Date>,
    close: Option<(i64, TaskStatus)>,
}

enum Event {
    List(usize),
    Create(usize),
    Close(usize),
}

fn plus_days(d: Date, days: i64) -> Date {
    d.checked_add(jiff::Span::new().days(days)).expect("a date")
}

/// Three years of history: when each list and task is made, its dates
/// (relative to the day it was made), and when and how it closes.
fn plan(settings: &Settings, now: Timestamp) -> (Vec<(i64, String)>, Vec<TaskPlan>) {
    let mut rng = Rng(0x5EED_2026);
    let now_ms = now.as_millisecond();
    let start_ms = now_ms - HISTORY_DAYS * MS_PER_DAY;
    let hour =
        |rng: &mut Rng| (7 * 60 + rng.below(15 * 60) as i64) * 60_000 + rng.below(60_000) as i64;

    // Lists: a third in the first weeks, the rest over the first two years.
    let lists: Vec<(i64, String)> = (0..settings.lists)
        .map(|i| {
            let day = if i < settings.lists / 3 {
                rng.below(21) as i64
            } else {
                (rng.unit() * (HISTORY_DAYS as f64 * 0.66)) as i64
            };
            let name = format!(
                "{} {} {}",
                LIST_WORDS[i % LIST_WORDS.len()],
                rng.pick(&["plans", "stuff", "to do", "ideas", "jobs", "notes"]),
                i + 1
            );
            (start_ms + day * MS_PER_DAY + hour(&mut rng), name)
        })
        .collect();
    let mut list_order: Vec<usize> = (0..lists.len()).collect();
    list_order.sort_by_key(|&i| lists[i].0);

    let mut tasks: Vec<TaskPlan> = (0..settings.tasks)
        .map(|_| {
            // More tasks lately than three years ago (density grows linearly).
            let day = ((rng.unit().sqrt()) * HISTORY_DAYS as f64) as i64;
            let at = (start_ms + day * MS_PER_DAY + hour(&mut rng)).min(now_ms - 60_000);
            let made = date_of(at);
            let age_days = (now_ms - at) as f64 / MS_PER_DAY as f64;

            // Home: the Inbox, or one of the lists that exist by then,
            // older ones a little more often.
            let existing = list_order.partition_point(|&i| lists[i].0 < at);
            let list = if existing == 0 || rng.chance(INBOX_SHARE) {
                None
            } else {
                Some(list_order[(rng.unit().powf(1.3) * existing as f64) as usize])
            };

            let title = format!(
                "{} {}{}",
                rng.pick(VERBS),
                rng.pick(OBJECTS),
                rng.pick(TAILS)
            );
            let description = rng
                .chance(0.15)
                .then(|| DESCRIPTIONS[rng.below(DESCRIPTIONS.len() as u64) as usize]);

            // Dates, relative to the day it was made. Inbox tasks are mostly bare.
            let dated = if list.is_none() { 0.25 } else { 1.0 };
            let start = if rng.chance(0.5 * dated) {
                let r = rng.unit();
                Some(if r < 0.6 {
                    made
                } else if r < 0.9 {
                    plus_days(made, 1 + rng.below(14) as i64)
                } else {
                    plus_days(made, 15 + rng.below(60) as i64)
                })
            } else {
                None
            };
            let deadline = rng.chance(0.32 * dated).then(|| {
                let base = start.unwrap_or(made).max(made);
                plus_days(base, rng.exp(10.0) as i64 + rng.below(3) as i64)
            });
            let expires = rng.chance(0.02).then(|| {
                let base = deadline.or(start).unwrap_or(made).max(made);
                plus_days(base, 7 + rng.below(120) as i64)
            });

            // Whether it is still open now: recent tasks mostly are.
            let p_open = 0.12 + 0.9 * (-age_days / 120.0).exp();
            let close = if rng.chance(p_open.min(0.97)) {
                None
            } else {
                let delay = rng.exp(12.0 * MS_PER_DAY as f64) as i64;
                let when = (at + 60_000 + delay).min(now_ms - 60_000);
                let r = rng.unit();
                let status = if r < 0.84 {
                    TaskStatus::Completed
                } else if r < 0.92 {
                    TaskStatus::WontDo
                } else {
                    TaskStatus::Archived
                };
                // A task that would expire first expires instead.
                match expires {
                    Some(e) if date_of(when) > e => None,
                    _ => (when > at).then_some((when, status)),
                }
            };
            TaskPlan {
                at,
                list,
                title,
                description,
                start,
                deadline,
                expires,
                close,
            }
        })
        .collect();
    tasks.sort_by_key(|t| t.at);
    (lists, tasks)
}

fn generate(dir: &Path, settings: &Settings, now: Timestamp) -> Result<Meta, String> {
    let started = Instant::now();
    let (lists, tasks) = plan(settings, now);
    let mut events: Vec<(i64, u8, Event)> = Vec::with_capacity(lists.len() + tasks.len() * 2);
    for (i, (at, _)) in lists.iter().enumerate() {
        events.push((*at, 0, Event::List(i)));
    }
    for (i, t) in tasks.iter().enumerate() {
        events.push((t.at, 1, Event::Create(i)));
        if let Some((at, _)) = t.close {
            events.push((at, 2, Event::Close(i)));
        }
    }
    events.sort_by_key(|(at, kind, _)| (*at, *kind));
    println!(
        "store: generating in {} ({} writes: {} lists, {} tasks, {} closings)...",
        dir.display(),
        events.len(),
        lists.len(),
        tasks.len(),
        tasks.iter().filter(|t| t.close.is_some()).count()
    );

    let first = Timestamp::from_millisecond(events.first().map_or(now.as_millisecond(), |e| e.0))
        .map_err(|e| e.to_string())?;
    let clock = ManualClock::new(first);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, first.as_millisecond())?;
    let mut list_ids: Vec<Option<Id>> = vec![None; lists.len()];
    let mut task_ids: Vec<Option<Id>> = vec![None; tasks.len()];
    let mut last_report = Instant::now();
    let total = events.len();
    for (n, (at, _, event)) in events.into_iter().enumerate() {
        clock.set(Timestamp::from_millisecond(at).map_err(|e| e.to_string())?);
        match event {
            Event::List(i) => {
                let input = TaskListInput {
                    name: Some(lists[i].1.clone()),
                    ..TaskListInput::default()
                };
                let list = org
                    .task_lists()
                    .create(input)
                    .map_err(|e| format!("list {i}: {e}"))?;
                list_ids[i] = Some(list.id);
            }
            Event::Create(i) => {
                let t = &tasks[i];
                let field = |d: Option<Date>| d.map_or(Field::Absent, Field::Value);
                let input = TaskInput {
                    title: Some(t.title.clone()),
                    description_html: t
                        .description
                        .map_or(Field::Absent, |d| Field::Value(d.to_owned())),
                    start_on: field(t.start),
                    deadline_on: field(t.deadline),
                    expires_on: field(t.expires),
                    task_list_id: t
                        .list
                        .and_then(|l| list_ids[l])
                        .map_or(Field::Absent, Field::Value),
                    ..TaskInput::default()
                };
                let task = org
                    .tasks()
                    .create(input)
                    .map_err(|e| format!("task {i}: {e}"))?;
                task_ids[i] = Some(task.id);
            }
            Event::Close(i) => {
                let (_, status) = tasks[i].close.expect("a closing");
                let id = task_ids[i].expect("made before it closes");
                let input = TaskInput {
                    status: Some(status),
                    ..TaskInput::default()
                };
                org.tasks()
                    .change(id, input)
                    .map_err(|e| format!("close task {i}: {e}"))?;
            }
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            println!(
                "  {n}/{total} writes, {:.0} s, {:.0} writes/s",
                started.elapsed().as_secs_f64(),
                n as f64 / started.elapsed().as_secs_f64()
            );
        }
    }
    clock.set(now);
    // Settle at now (expiries, today's set) with one write.
    org.tasks()
        .list(&TaskQuery::default())
        .map_err(|e| e.to_string())?;
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store: generated in {generation_secs:.1} s");

    // The list whose size is closest to LIST_SIZE.
    let mut per_list = vec![0usize; lists.len()];
    for t in &tasks {
        if let Some(l) = t.list {
            per_list[l] += 1;
        }
    }
    let chosen = (0..lists.len())
        .min_by_key(|&i| per_list[i].abs_diff(LIST_SIZE))
        .ok_or("no lists")?;
    let mut sorted = per_list.clone();
    sorted.sort_unstable();
    println!(
        "store: tasks per list: min {}, median {}, max {}; Inbox {}",
        sorted[0],
        sorted[sorted.len() / 2],
        sorted[sorted.len() - 1],
        tasks.iter().filter(|t| t.list.is_none()).count()
    );

    let mut statuses = serde_json::Map::new();
    for status in TaskStatus::ALL {
        let q = TaskQuery {
            statuses: Some(vec![status]),
            params: organiser::ListParams {
                count: true,
                limit: 1,
                ..organiser::ListParams::default()
            },
            ..TaskQuery::default()
        };
        let page = org.tasks().list(&q).map_err(|e| e.to_string())?;
        statuses.insert(
            status.as_str().to_owned(),
            json!(page.total_count.unwrap_or(0)),
        );
    }
    let counts = org
        .tasks()
        .counts(&TaskCountsQuery::default())
        .map_err(|e| e.to_string())?;
    statuses.insert("today".into(), json!(counts.today));
    statuses.insert("due_soon".into(), json!(counts.due_soon));
    statuses.insert("overdue".into(), json!(counts.overdue));
    statuses.insert("inbox_open".into(), json!(counts.inbox));

    Ok(Meta {
        tasks: settings.tasks,
        lists: settings.lists,
        list_id: list_ids[chosen]
            .ok_or("the chosen list was not made")?
            .to_string(),
        list_name: lists[chosen].1.clone(),
        list_tasks: per_list[chosen],
        generation_secs,
        generation_peak_kib: None,
        statuses: Value::Object(statuses),
    })
}
