//! Projects on two stores that differ only in the tasks outside projects:
//! 2,000 projects with 20,000 project events, 300 people as members, 200
//! of the projects holding 20 tasks each (4,000 tasks), and the rest of
//! 10,000 or of 100,000 tasks in the Inbox and 20 task lists. It measures
//! the first page of `GET /projects/{id}/activity`, `GET
//! /upcoming_deadlines` and `GET /project_task_counts` (each at most 2 ms
//! median, and not growing with the tasks outside the projects they answer
//! for), and `GET /projects` for reference, through `Organiser::handle`
//! (the JSON the server answers), in process.
//!
//! ```text
//! cargo bench --bench projects
//! BENCH_REGENERATE=1 cargo bench --bench projects     # build the stores again
//! BENCH_TASKS=100000 cargo bench --bench projects     # one size only
//! ```
//!
//! Each store is generated once through the public API (one transaction
//! per write, as an app would make them), replaying about two years of
//! history on a `ManualClock` that ends at [`NOW`], and kept in
//! `target/bench-projects-<tasks>` (with `bench-projects.json` beside the
//! store describing it); it is made again when missing, when made by
//! another generator, or with `BENCH_REGENERATE=1`. The projects, their
//! events, members and tasks come from one seeded generator and the tasks
//! outside projects from another, so both stores hold the same projects.
//! Every event is made by the core's own rules (status and deadline
//! changes, members added and removed), each more than 10 minutes after
//! the project's last one, so the 10-minute rule merges none.
//!
//! Every measured read is timed as the first read after a commit (an
//! untimed `change_appearance` before each call), so no answer kept for a
//! commit generation serves it; the listings the core keeps per
//! generation are timed again as kept answers, for reference. The sizes
//! are measured interleaved, one call on each in turn, so whatever else
//! the machine does falls on both alike. The run fails (exit code 1) when
//! a target is missed: a median over 2 ms, or a median at the largest size
//! more than 1.5 times the one at the smallest.
//!
//! Environment: `BENCH_TASKS` (the sizes, comma-separated; default
//! `10000,100000`), `BENCH_RUNS` (runs per measurement and size, default
//! 500), `BENCH_REGENERATE=1`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::civil::Date;
use organiser::{
    Field, Id, ListParams, Organiser, account::AppearanceChange, clock::ManualClock,
    people::PersonInput, projects::ProjectEventQuery, projects::ProjectInput,
    projects::ProjectMemberInput, projects::ProjectQuery, projects::ProjectStatus,
    projects::UpcomingDeadlinesQuery, server::Request, task_lists::TaskListInput, tasks::Home,
    tasks::TaskInput, tasks::TaskQuery, tasks::TaskStatus,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    Stats, bench_main, date_of, env_number, get, mib, ms, options, stats, target_dir,
    targets_verdict,
};

/// The instant the stores' history ends at, and the clock of every
/// measurement (owner zone UTC, so today is 2026-10-14).
const NOW: &str = "2026-10-14T09:30:00Z";
/// How far back the history goes.
const HISTORY_DAYS: i64 = 800;
const PROJECTS: usize = 2000;
const PEOPLE: usize = 300;
/// Events each project gets (status, deadline and member changes).
const EVENTS_PER_PROJECT: usize = 10;
/// The newest this many projects hold tasks.
const TASK_PROJECTS: usize = 200;
const TASKS_PER_PROJECT: usize = 20;
const PROJECT_TASKS: usize = TASK_PROJECTS * TASKS_PER_PROJECT;
/// Task lists of the tasks outside projects.
const LISTS: usize = 20;
/// The share of the tasks outside projects in the Inbox.
const INBOX_SHARE: f64 = 0.05;
/// The target of each named read (median).
const TARGET: Duration = Duration::from_millis(2);
/// A named read's median at the largest size may be at most this many
/// times its median at the smallest.
const GROWTH_LIMIT: f64 = 1.5;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// The file beside the store that describes it (and says it is complete).
const META_FILE: &str = "bench-projects.json";
/// Bumped when the generator changes, so older stores are made again.
const META_FORMAT: u64 = 1;

fn main() -> ExitCode {
    bench_main("projects", |_| run())
}

// ---------------------------------------------------------------- settings

struct Settings {
    sizes: Vec<usize>,
    runs: usize,
    regenerate: bool,
    target_dir: PathBuf,
}

impl Settings {
    fn read() -> Result<Settings, String> {
        let sizes = match std::env::var("BENCH_TASKS") {
            Ok(v) if !v.trim().is_empty() => v
                .split(',')
                .map(|s| {
                    s.trim().parse::<usize>().map_err(|_| {
                        format!("BENCH_TASKS must be whole numbers separated by commas, not {v:?}")
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => vec![10_000, 100_000],
        };
        if let Some(small) = sizes.iter().find(|&&n| n < PROJECT_TASKS) {
            return Err(format!(
                "BENCH_TASKS: {small} is fewer than the {PROJECT_TASKS} tasks in projects"
            ));
        }
        Ok(Settings {
            sizes,
            runs: env_number("BENCH_RUNS", 500)?.max(1),
            regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
            target_dir: target_dir()?,
        })
    }

    fn store_dir(&self, tasks: usize) -> PathBuf {
        self.target_dir.join(format!("bench-projects-{tasks}"))
    }
}

// ---------------------------------------------------------------- the run

/// One size's store, open at [`NOW`].
struct Store {
    tasks: usize,
    org: Organiser,
    meta: Meta,
    bytes: u64,
}

fn run() -> Result<(), String> {
    let settings = Settings::read()?;
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    println!(
        "projects: {PROJECTS} projects, {} events, {PEOPLE} people, {PROJECT_TASKS} tasks in {TASK_PROJECTS} projects; \
         stores of {} tasks; now = {NOW}",
        PROJECTS * EVENTS_PER_PROJECT,
        settings
            .sizes
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" and ")
    );

    let mut stores = Vec::new();
    for &tasks in &settings.sizes {
        let dir = settings.store_dir(tasks);
        let meta = ensure_store(&settings, tasks, &dir, now)?;
        let bytes = std::fs::metadata(dir.join(organiser::data::STORE_FILE)).map_or(0, |m| m.len());
        println!(
            "store {tasks}: {} in {}, generated in {:.1} s",
            mib(bytes),
            dir.display(),
            meta.generation_secs
        );
        stores.push(Store {
            tasks,
            org: open(&dir, now)?,
            meta,
            bytes,
        });
    }
    for store in &stores {
        println!("  {} tasks: {}", store.tasks, store.meta.summary());
    }

    let rows = measure(&stores, settings.runs)?;
    let missed = report(&stores, &rows, settings.runs);
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

fn open(dir: &Path, now: Timestamp) -> Result<Organiser, String> {
    Organiser::open_with(dir, options(ManualClock::new(now)))
        .map_err(|e| format!("open {}: {e}", dir.display()))
}

// ---------------------------------------------------------------- measuring

/// One measured read: its request on each store.
struct Measured {
    name: String,
    requests: Vec<Request>,
    /// Whether it has the 2 ms target and the growth limit.
    named: bool,
    /// Whether the core keeps its answer per commit generation.
    kept: bool,
}

/// A line of the report: one figure per store.
struct Row {
    name: String,
    stats: Vec<Stats>,
    bytes: Vec<usize>,
    named: bool,
    note: &'static str,
}

fn measure(stores: &[Store], runs: usize) -> Result<Vec<Row>, String> {
    let each =
        |name: &str, named: bool, kept: bool, path: &dyn Fn(&Meta) -> String, query: &str| {
            let requests = stores
                .iter()
                .map(|s| get(&path(&s.meta), query))
                .collect::<Result<Vec<_>, _>>()?;
            Ok::<_, String>(Measured {
                name: name.to_owned(),
                requests,
                named,
                kept,
            })
        };
    let activity = |m: &Meta| format!("/projects/{}/activity", m.activity_project);
    let fixed = |p: &'static str| move |_: &Meta| p.to_owned();
    let measured = vec![
        each(
            "GET /projects/{id}/activity (first page)",
            true,
            true,
            &activity,
            "",
        )?,
        each(
            "GET /upcoming_deadlines",
            true,
            false,
            &fixed("/upcoming_deadlines"),
            "",
        )?,
        each(
            "GET /upcoming_deadlines?limit=10",
            true,
            false,
            &fixed("/upcoming_deadlines"),
            "limit=10",
        )?,
        each(
            "GET /project_task_counts",
            true,
            true,
            &fixed("/project_task_counts"),
            "",
        )?,
        each(
            "GET /projects?limit=50",
            false,
            true,
            &fixed("/projects"),
            "limit=50",
        )?,
        each(
            "GET /projects?status=planned,active,on_hold&limit=50",
            false,
            true,
            &fixed("/projects"),
            "status=planned,active,on_hold&limit=50",
        )?,
    ];

    let warmup = (runs / 10).max(20);
    println!("\nin-process, handle(&Request), {runs} runs each per store, the stores interleaved:");
    let mut rows = Vec::new();
    for m in &measured {
        let mut bytes = Vec::new();
        for (store, request) in stores.iter().zip(&m.requests) {
            bytes.push(checked(&store.org, request)?);
        }
        let first = interleaved(stores, &m.requests, warmup, runs, true);
        rows.push(row(
            m.name.clone(),
            first,
            bytes.clone(),
            m.named,
            "first read after a commit",
        ));
        if m.kept {
            let again = interleaved(stores, &m.requests, warmup, runs, false);
            rows.push(row(
                m.name.clone(),
                again,
                bytes,
                false,
                "kept answer, same generation",
            ));
        }
    }
    Ok(rows)
}

/// Fails unless `request` is answered 200; the body's size.
fn checked(org: &Organiser, request: &Request) -> Result<usize, String> {
    let response = org.handle(request);
    if response.status != 200 {
        return Err(format!(
            "{} answered {}: {}",
            request.path,
            response.status,
            response.json_value()
        ));
    }
    Ok(response.body.as_ref().map_or(0, Vec::len))
}

/// Times `requests[i]` on `stores[i]`, one call on each store in turn,
/// with a commit (untimed) before each call when `after_commit`.
fn interleaved(
    stores: &[Store],
    requests: &[Request],
    warmup: usize,
    runs: usize,
    after_commit: bool,
) -> Vec<Stats> {
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); stores.len()];
    for n in 0..warmup + runs {
        for (i, (store, request)) in stores.iter().zip(requests).enumerate() {
            if after_commit {
                store
                    .org
                    .account()
                    .change_appearance(AppearanceChange::default())
                    .expect("a commit");
            }
            let start = Instant::now();
            std::hint::black_box(store.org.handle(request));
            let took = start.elapsed();
            if n >= warmup {
                samples[i].push(took);
            }
        }
    }
    samples.into_iter().map(stats).collect()
}

fn row(name: String, stats: Vec<Stats>, bytes: Vec<usize>, named: bool, note: &'static str) -> Row {
    let figures: Vec<String> = stats
        .iter()
        .map(|s| format!("{:>9} / {:>9}", ms(s.median), ms(s.p90)))
        .collect();
    println!("  {:<55} {:<30} {}", name, note, figures.join("   "));
    Row {
        name,
        stats,
        bytes,
        named,
        note,
    }
}

/// Prints the report; the number of targets missed.
fn report(stores: &[Store], rows: &[Row], runs: usize) -> usize {
    let mut out = String::new();
    let thousands = |n: usize| {
        let s = n.to_string();
        let mut t = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                t.push(',');
            }
            t.push(c);
        }
        t
    };
    let _ = writeln!(
        out,
        "\n## Projects on {} projects and {} events, with {} tasks\n",
        thousands(PROJECTS),
        thousands(PROJECTS * EVENTS_PER_PROJECT),
        stores
            .iter()
            .map(|s| thousands(s.tasks))
            .collect::<Vec<_>>()
            .join(" and ")
    );
    for s in stores {
        let _ = writeln!(
            out,
            "- {} tasks: store {}, generated in {:.1} s ({} writes). {}",
            thousands(s.tasks),
            mib(s.bytes),
            s.meta.generation_secs,
            thousands(s.meta.writes),
            s.meta.summary()
        );
    }
    let _ = writeln!(
        out,
        "\nMedian / p90 of {runs} runs per store, in process through `Organiser::handle`; target: median ≤ {} at every size, and at most {GROWTH_LIMIT}× from the smallest size to the largest.\n",
        ms(TARGET)
    );
    let mut header = "| measurement | timed as |".to_owned();
    let mut rule = "|---|---|".to_owned();
    for s in stores {
        let _ = write!(header, " {} tasks |", thousands(s.tasks));
        rule.push_str("---:|");
    }
    header.push_str(" growth | body | target | result |");
    rule.push_str("---:|---:|---:|---|");
    let _ = writeln!(out, "{header}\n{rule}");

    let mut missed = 0;
    let mut growth_lines = Vec::new();
    for r in rows {
        let first = r.stats.first().map_or(Duration::ZERO, |s| s.median);
        let last = r.stats.last().map_or(Duration::ZERO, |s| s.median);
        let ratio = last.as_secs_f64() / first.as_secs_f64().max(1e-9);
        let (target, result) = if r.named {
            let slow = r.stats.iter().any(|s| s.median > TARGET);
            let grows = stores.len() > 1 && ratio > GROWTH_LIMIT;
            if slow || grows {
                missed += 1;
            }
            let result = match (slow, grows) {
                (false, false) => "met",
                (true, false) => "**missed** (time)",
                (false, true) => "**missed** (grows)",
                (true, true) => "**missed** (time, grows)",
            };
            (format!("≤ {}", ms(TARGET)), result)
        } else {
            ("–".to_owned(), "")
        };
        let mut line = format!("| {} | {} |", r.name, r.note);
        for s in &r.stats {
            let _ = write!(line, " {} / {} |", ms(s.median), ms(s.p90));
        }
        let bytes = if r.bytes.windows(2).all(|w| w[0] == w[1]) {
            format!("{} B", r.bytes.first().copied().unwrap_or(0))
        } else {
            r.bytes
                .iter()
                .map(|b| format!("{b} B"))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let _ = writeln!(line, " ×{ratio:.2} | {bytes} | {target} | {result} |");
        out.push_str(&line);
        if stores.len() > 1 && r.note.starts_with("first") {
            growth_lines.push(format!(
                "- {}: {} at {} tasks, {} at {} tasks: ×{ratio:.2}, {}",
                r.name,
                ms(first),
                thousands(stores[0].tasks),
                ms(last),
                thousands(stores[stores.len() - 1].tasks),
                if ratio <= 1.15 {
                    "flat"
                } else if ratio <= GROWTH_LIMIT {
                    "slightly higher, within the limit"
                } else {
                    "GROWS"
                }
            ));
        }
    }
    if !growth_lines.is_empty() {
        let _ = writeln!(
            out,
            "\nFrom {} to {} tasks (the same projects, events and project tasks; only the tasks outside projects differ):",
            thousands(stores[0].tasks),
            thousands(stores[stores.len() - 1].tasks)
        );
        for l in growth_lines {
            let _ = writeln!(out, "{l}");
        }
    }
    let _ = writeln!(out, "\n{}", targets_verdict(missed));
    print!("{out}");
    missed
}

// ---------------------------------------------------------------- the store's description

/// What a generated store holds, kept beside it in [`META_FILE`].
struct Meta {
    tasks: usize,
    generation_secs: f64,
    writes: usize,
    /// The project whose activity is measured.
    activity_project: Id,
    figures: Value,
}

impl Meta {
    fn to_json(&self) -> Value {
        json!({
            "format": META_FORMAT,
            "now": NOW,
            "tasks": self.tasks,
            "generation_secs": self.generation_secs,
            "writes": self.writes,
            "activity_project": self.activity_project.to_string(),
            "figures": self.figures,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        if v["format"].as_u64() != Some(META_FORMAT) || v["now"].as_str() != Some(NOW) {
            return None;
        }
        Some(Meta {
            tasks: usize::try_from(v["tasks"].as_u64()?).ok()?,
            generation_secs: v["generation_secs"].as_f64()?,
            writes: usize::try_from(v["writes"].as_u64()?).ok()?,
            activity_project: Id::parse(v["activity_project"].as_str()?)?,
            figures: v["figures"].clone(),
        })
    }

    fn summary(&self) -> String {
        let f = &self.figures;
        format!(
            "{} projects ({} open, {} with a deadline, {} open with one), {} events, {} members; \
             {} tasks in projects ({} open, {} completed), {} outside ({} open, {} completed, Inbox {}); \
             upcoming_deadlines: {} by default, {} overdue; project_task_counts: {} entries; \
             activity of {:?}: {} entries on the first page",
            f["projects"],
            f["projects_open"],
            f["projects_with_deadline"],
            f["projects_open_with_deadline"],
            f["events"],
            f["members"],
            f["tasks_in_projects"],
            f["tasks_in_projects_open"],
            f["tasks_in_projects_completed"],
            f["tasks_outside"],
            f["tasks_outside_open"],
            f["tasks_outside_completed"],
            f["tasks_inbox"],
            f["upcoming_default"],
            f["upcoming_overdue"],
            f["project_task_counts"],
            f["activity_project_name"].as_str().unwrap_or(""),
            f["activity_first_page"],
        )
    }
}

fn cached(tasks: usize, dir: &Path) -> Option<Meta> {
    if !dir.join(organiser::data::STORE_FILE).exists() {
        return None;
    }
    std::fs::read_to_string(dir.join(META_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| Meta::from_json(&v))
        .filter(|m| m.tasks == tasks)
}

/// The store of `tasks` tasks in `dir`, generated first when missing, made
/// by another generator, or `BENCH_REGENERATE=1`.
fn ensure_store(
    settings: &Settings,
    tasks: usize,
    dir: &Path,
    now: Timestamp,
) -> Result<Meta, String> {
    if !settings.regenerate
        && let Some(meta) = cached(tasks, dir)
    {
        println!("store {tasks}: cached (BENCH_REGENERATE=1 makes it again)");
        return Ok(meta);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = generate(dir, tasks, now)?;
    std::fs::write(
        dir.join(META_FILE),
        serde_json::to_string_pretty(&meta.to_json()).unwrap_or_default(),
    )
    .map_err(|e| format!("write {}: {e}", dir.join(META_FILE).display()))?;
    Ok(meta)
}

// ---------------------------------------------------------------- the plan

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

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Uniform in [lo, hi).
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.unit() * (hi - lo).max(1) as f64) as i64
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Exponential with this mean.
    fn exp(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.unit()).ln()
    }
}

fn plus_days(d: Date, days: i64) -> Date {
    d.checked_add(jiff::Span::new().days(days)).expect("a date")
}

const OPEN: [ProjectStatus; 3] = [
    ProjectStatus::Planned,
    ProjectStatus::Active,
    ProjectStatus::OnHold,
];
const ROLES: &[Option<&str>] = &[
    None,
    None,
    Some("lead"),
    Some("designer"),
    Some("reviewer"),
    Some("client contact"),
    Some("sponsor"),
];
const PROJECT_WORDS: &[&str] = &[
    "Kitchen renovation",
    "Website relaunch",
    "Garden redesign",
    "Quarterly report",
    "Conference talk",
    "House move",
    "Tax return",
    "Client onboarding",
    "Wedding planning",
    "Book draft",
    "Office move",
    "Product launch",
    "Data migration",
    "Fundraiser",
    "Summer trip",
    "Hiring round",
    "Security audit",
    "Newsletter",
    "Podcast season",
    "Car purchase",
];
const FIRST: &[&str] = &[
    "Ada",
    "Alan",
    "Grace",
    "Edsger",
    "Barbara",
    "Donald",
    "Frances",
    "John",
    "Margaret",
    "Ken",
    "Dennis",
    "Radia",
    "Tim",
    "Hedy",
    "Niklaus",
    "Sophie",
    "Leslie",
    "Katherine",
    "Claude",
    "Annie",
];
const LAST: &[&str] = &[
    "Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Hamilton",
    "Thompson", "Ritchie", "Perlman", "Lamarr", "Wirth", "Wilson",
];
const VERBS: &[&str] = &[
    "Call", "Email", "Buy", "Book", "Fix", "Review", "Write", "Plan", "Pay", "Order", "Prepare",
    "Schedule", "Update", "Check", "Send", "Draft", "Research", "Print", "Chase", "Finish",
];
const OBJECTS: &[&str] = &[
    "the quote",
    "the contract",
    "the floor plan",
    "the slides",
    "the invoice",
    "the supplier",
    "the budget",
    "the agenda",
    "the photos",
    "the permit",
    "the release notes",
    "the venue",
    "the checklist",
    "the minutes",
    "the estimate",
];

/// A change of a project, made through `change_project` or the members.
#[derive(Clone, Copy)]
enum Step {
    Status(ProjectStatus),
    Deadline(Option<Date>),
    Add(usize, Option<&'static str>),
    Remove(usize),
}

struct ProjectPlan {
    at: i64,
    name: String,
    status: ProjectStatus,
    deadline: Option<Date>,
    steps: Vec<(i64, Step)>,
    final_status: ProjectStatus,
    final_deadline: Option<Date>,
}

enum HomePlan {
    Inbox,
    List(usize),
    Project(usize),
}

struct TaskPlan {
    at: i64,
    home: HomePlan,
    title: String,
    start: Option<Date>,
    deadline: Option<Date>,
    close: Option<(i64, TaskStatus)>,
}

/// The projects, their changes and their tasks: the same for every size.
fn plan_projects(now_ms: i64) -> (Vec<ProjectPlan>, Vec<TaskPlan>) {
    let mut rng = Rng(0x0050_2013_C75E_ED00);
    let today = date_of(now_ms);
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let mut created: Vec<i64> = (0..PROJECTS)
        .map(|_| rng.between(t0 + DAY, now_ms - 25 * DAY))
        .collect();
    created.sort_unstable();

    let mut projects = Vec::with_capacity(PROJECTS);
    for (i, &at) in created.iter().enumerate() {
        // Older projects are closed; the newest are open about half the time.
        let x = i as f64 / PROJECTS as f64;
        let final_status = if rng.chance(0.02 + 0.6 * x.powi(3)) {
            rng.pick(&[
                ProjectStatus::Planned,
                ProjectStatus::Active,
                ProjectStatus::Active,
                ProjectStatus::OnHold,
            ])
        } else if rng.chance(0.8) {
            ProjectStatus::Done
        } else {
            ProjectStatus::Cancelled
        };
        let final_deadline = rng
            .chance(0.5)
            .then(|| plus_days(today, rng.between(-60, 301)));

        // The deadlines it had, oldest first, each differing from the next.
        let d = if final_deadline.is_some() {
            1 + rng.below(3)
        } else {
            rng.below(2)
        };
        let mut deadlines = vec![final_deadline];
        for _ in 0..d {
            let next = *deadlines.last().expect("one");
            deadlines.push(match next {
                Some(_) if rng.chance(0.3) => None,
                Some(date) => Some(plus_days(date, -rng.between(7, 61))),
                None => Some(plus_days(date_of(at), rng.between(14, 135))),
            });
        }
        deadlines.reverse();

        // The statuses it had: open ones before the last.
        let s = 1 + rng.below(4);
        let mut statuses = vec![final_status];
        for _ in 0..s {
            let next = *statuses.last().expect("one");
            let others: Vec<ProjectStatus> = OPEN.into_iter().filter(|o| *o != next).collect();
            statuses.push(rng.pick(&others));
        }
        statuses.reverse();

        // Members: the rest of its ten events, a few of them removals.
        let m = EVENTS_PER_PROJECT - s - d;
        let removes = rng.below(m / 3 + 1);
        let adds = m - removes;
        let mut people: Vec<usize> = Vec::with_capacity(adds);
        while people.len() < adds {
            let p = rng.below(PEOPLE);
            if !people.contains(&p) {
                people.push(p);
            }
        }

        // The events in a random order, removals after an add.
        #[derive(Clone, Copy, PartialEq)]
        enum T {
            S,
            D,
            A,
            R,
        }
        let mut order: Vec<T> = std::iter::repeat_n(T::S, s)
            .chain(std::iter::repeat_n(T::D, d))
            .chain(std::iter::repeat_n(T::A, adds))
            .chain(std::iter::repeat_n(T::R, removes))
            .collect();
        for k in (1..order.len()).rev() {
            let j = rng.below(k + 1);
            order.swap(k, j);
        }
        let mut present = 0usize;
        for k in 0..order.len() {
            if order[k] == T::R && present == 0 {
                let a = (k + 1..order.len())
                    .find(|&j| order[j] == T::A)
                    .expect("an add after");
                order.swap(k, a);
            }
            match order[k] {
                T::A => present += 1,
                T::R => present -= 1,
                _ => {}
            }
        }

        // Their times: at least 15 minutes apart, within half a year.
        let n = order.len() as i64;
        let span = (180 * DAY).min(now_ms - HOUR - at) - n * 15 * MINUTE;
        let mut offsets: Vec<i64> = (0..n).map(|_| rng.between(0, span)).collect();
        offsets.sort_unstable();
        let (mut si, mut di, mut ai) = (1, 1, 0);
        let mut members: Vec<usize> = Vec::new();
        let mut steps = Vec::with_capacity(order.len());
        for (k, t) in order.into_iter().enumerate() {
            let when = at + offsets[k] + (k as i64 + 1) * 15 * MINUTE;
            let step = match t {
                T::S => {
                    si += 1;
                    Step::Status(statuses[si - 1])
                }
                T::D => {
                    di += 1;
                    Step::Deadline(deadlines[di - 1])
                }
                T::A => {
                    ai += 1;
                    members.push(people[ai - 1]);
                    Step::Add(people[ai - 1], rng.pick(ROLES))
                }
                T::R => Step::Remove(members.remove(rng.below(members.len()))),
            };
            steps.push((when, step));
        }

        projects.push(ProjectPlan {
            at,
            name: format!("{} {}", PROJECT_WORDS[i % PROJECT_WORDS.len()], i + 1),
            status: statuses[0],
            deadline: deadlines[0],
            steps,
            final_status,
            final_deadline,
        });
    }

    // Tasks in the newest projects: mostly completed in closed ones, some
    // completed in open ones; dates around today.
    let mut tasks = Vec::with_capacity(PROJECT_TASKS);
    for (i, p) in projects.iter().enumerate().skip(PROJECTS - TASK_PROJECTS) {
        let p_done = if p.final_status.is_open() { 0.3 } else { 0.9 };
        for _ in 0..TASKS_PER_PROJECT {
            let at = rng.between(p.at + HOUR, now_ms - HOUR);
            let start = rng
                .chance(0.3)
                .then(|| plus_days(today, rng.between(-30, 31)));
            let deadline = rng.chance(0.4).then(|| {
                let d = plus_days(today, rng.between(-10, 61));
                start.map_or(d, |s| d.max(s))
            });
            let close = rng.chance(p_done).then(|| {
                (
                    rng.between(at + MINUTE, now_ms - MINUTE),
                    TaskStatus::Completed,
                )
            });
            tasks.push(TaskPlan {
                at,
                home: HomePlan::Project(i),
                title: format!("{} {}", rng.pick(VERBS), rng.pick(OBJECTS)),
                start,
                deadline,
                close,
            });
        }
    }
    (projects, tasks)
}

/// `n` tasks in the Inbox and the task lists, over the whole history,
/// more of them lately; recent ones mostly open.
fn plan_outside(n: usize, now_ms: i64) -> Vec<TaskPlan> {
    let mut rng = Rng(0x0075_1DE0_0000_7A5C);
    let t0 = now_ms - HISTORY_DAYS * DAY;
    (0..n)
        .map(|_| {
            let at = t0 + HOUR + (rng.unit().sqrt() * (now_ms - t0 - 2 * HOUR) as f64) as i64;
            let made = date_of(at);
            let home = if rng.chance(INBOX_SHARE) {
                HomePlan::Inbox
            } else {
                HomePlan::List(rng.below(LISTS))
            };
            let start = rng.chance(0.4).then(|| plus_days(made, rng.between(0, 15)));
            let deadline = rng.chance(0.25).then(|| {
                let base = start.unwrap_or(made);
                plus_days(base, rng.exp(10.0) as i64)
            });
            let age_days = (now_ms - at) as f64 / DAY as f64;
            let p_open = 0.12 + 0.9 * (-age_days / 120.0).exp();
            let close = (!rng.chance(p_open.min(0.97))).then(|| {
                let when = (at + MINUTE + rng.exp(12.0 * DAY as f64) as i64).min(now_ms - MINUTE);
                let r = rng.unit();
                let status = if r < 0.84 {
                    TaskStatus::Completed
                } else if r < 0.92 {
                    TaskStatus::WontDo
                } else {
                    TaskStatus::Archived
                };
                (when, status)
            });
            TaskPlan {
                at,
                home,
                title: format!("{} {}", rng.pick(VERBS), rng.pick(OBJECTS)),
                start,
                deadline,
                close: close.filter(|(when, _)| *when > at),
            }
        })
        .collect()
}

// ---------------------------------------------------------------- generating

/// One write of the history, in the order they happen at the same instant.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Write {
    Person(usize),
    List(usize),
    Project(usize),
    Step(usize, usize),
    Task(usize),
    Close(usize),
}

fn generate(dir: &Path, total_tasks: usize, now: Timestamp) -> Result<Meta, String> {
    let started = Instant::now();
    let now_ms = now.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let (projects, mut tasks) = plan_projects(now_ms);
    tasks.extend(plan_outside(total_tasks - PROJECT_TASKS, now_ms));

    let mut writes: Vec<(i64, Write)> = Vec::new();
    for k in 0..PEOPLE {
        writes.push((t0 + k as i64 * 1000, Write::Person(k)));
    }
    for j in 0..LISTS {
        writes.push((t0 + 10 * MINUTE + j as i64 * 1000, Write::List(j)));
    }
    for (i, p) in projects.iter().enumerate() {
        writes.push((p.at, Write::Project(i)));
        for (k, (at, _)) in p.steps.iter().enumerate() {
            writes.push((*at, Write::Step(i, k)));
        }
    }
    for (i, t) in tasks.iter().enumerate() {
        writes.push((t.at, Write::Task(i)));
        if let Some((at, _)) = t.close {
            writes.push((at, Write::Close(i)));
        }
    }
    writes.sort_unstable();
    let total = writes.len();
    println!(
        "store {total_tasks}: generating in {} ({total} writes)...",
        dir.display()
    );

    let clock = ManualClock::new(Timestamp::from_millisecond(t0).map_err(|e| e.to_string())?);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, t0)?;

    let mut people: Vec<Option<Id>> = vec![None; PEOPLE];
    let mut lists: Vec<Option<Id>> = vec![None; LISTS];
    let mut project_ids: Vec<Option<Id>> = vec![None; PROJECTS];
    let mut task_ids: Vec<Option<Id>> = vec![None; tasks.len()];
    let mut members: HashMap<(usize, usize), Id> = HashMap::new();
    let mut last_report = Instant::now();
    let field = |d: Option<Date>| d.map_or(Field::Absent, Field::Value);
    for (n, (at, write)) in writes.into_iter().enumerate() {
        clock.set(Timestamp::from_millisecond(at).map_err(|e| e.to_string())?);
        match write {
            Write::Person(k) => {
                let input = PersonInput {
                    name: Some(format!(
                        "{} {} {}",
                        FIRST[k % FIRST.len()],
                        LAST[(k / FIRST.len()) % LAST.len()],
                        k + 1
                    )),
                    ..PersonInput::default()
                };
                let person = org
                    .people()
                    .create(input)
                    .map_err(|e| format!("person {k}: {e}"))?;
                people[k] = Some(person.id);
            }
            Write::List(j) => {
                let input = TaskListInput {
                    name: Some(format!("List {}", j + 1)),
                    ..TaskListInput::default()
                };
                let list = org
                    .task_lists()
                    .create(input)
                    .map_err(|e| format!("list {j}: {e}"))?;
                lists[j] = Some(list.id);
            }
            Write::Project(i) => {
                let p = &projects[i];
                let input = ProjectInput {
                    name: Some(p.name.clone()),
                    status: Field::Value(p.status.key().to_owned()),
                    deadline: field(p.deadline),
                    ..ProjectInput::default()
                };
                let project = org
                    .projects()
                    .create(input)
                    .map_err(|e| format!("project {i}: {e}"))?;
                project_ids[i] = Some(project.id);
            }
            Write::Step(i, k) => {
                let id = project_ids[i].ok_or("a step before its project")?;
                let result = match projects[i].steps[k].1 {
                    Step::Status(s) => org
                        .projects()
                        .change(
                            id,
                            ProjectInput {
                                status: Field::Value(s.key().to_owned()),
                                ..ProjectInput::default()
                            },
                        )
                        .map(drop),
                    Step::Deadline(d) => org
                        .projects()
                        .change(
                            id,
                            ProjectInput {
                                deadline: d.map_or(Field::Null, Field::Value),
                                ..ProjectInput::default()
                            },
                        )
                        .map(drop),
                    Step::Add(person, role) => {
                        let input = ProjectMemberInput {
                            project_id: Field::Value(id),
                            person_id: Field::Value(people[person].ok_or("a person")?),
                            new_person_name: None,
                            role: role.map_or(Field::Absent, |r| Field::Value(r.to_owned())),
                        };
                        org.projects().add_member(input).map(|m| {
                            members.insert((i, person), m.id);
                        })
                    }
                    Step::Remove(person) => {
                        let member = members.remove(&(i, person)).ok_or("a member")?;
                        org.projects().remove_member(member)
                    }
                };
                result.map_err(|e| format!("project {i}, change {k}: {e}"))?;
            }
            Write::Task(t) => {
                let plan = &tasks[t];
                let (task_list_id, project_id) = match plan.home {
                    HomePlan::Inbox => (Field::Absent, Field::Absent),
                    HomePlan::List(j) => (Field::Value(lists[j].ok_or("a list")?), Field::Absent),
                    HomePlan::Project(i) => (
                        Field::Absent,
                        Field::Value(project_ids[i].ok_or("a project")?),
                    ),
                };
                let input = TaskInput {
                    title: Some(plan.title.clone()),
                    start_on: field(plan.start),
                    deadline_on: field(plan.deadline),
                    task_list_id,
                    project_id,
                    ..TaskInput::default()
                };
                let task = org
                    .tasks()
                    .create(input)
                    .map_err(|e| format!("task {t}: {e}"))?;
                task_ids[t] = Some(task.id);
            }
            Write::Close(t) => {
                let (_, status) = tasks[t].close.ok_or("a closing")?;
                let input = TaskInput {
                    status: Some(status),
                    ..TaskInput::default()
                };
                org.tasks()
                    .change(task_ids[t].ok_or("a task")?, input)
                    .map_err(|e| format!("close task {t}: {e}"))?;
            }
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            println!(
                "  {n}/{total} writes, {secs:.0} s, {:.0} writes/s",
                n as f64 / secs
            );
        }
    }
    clock.set(now);
    // Settle at now (expiries, today's set) with one read.
    org.tasks()
        .list(&TaskQuery::default())
        .map_err(|e| e.to_string())?;
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store {total_tasks}: generated in {generation_secs:.1} s");

    // The project whose activity is measured: of those with tasks, the one
    // with the most completed tasks (the longest first page).
    let completed_in = |i: usize| {
        tasks
            .iter()
            .filter(|t| matches!(t.home, HomePlan::Project(p) if p == i) && t.close.is_some())
            .count()
    };
    let chosen = (PROJECTS - TASK_PROJECTS..PROJECTS)
        .max_by_key(|&i| (completed_in(i), std::cmp::Reverse(i)))
        .ok_or("no projects")?;
    let activity_project = project_ids[chosen].ok_or("the chosen project")?;

    let figures = describe(&org, &projects, &tasks, chosen, activity_project)?;
    let meta = Meta {
        tasks: total_tasks,
        generation_secs,
        writes: total,
        activity_project,
        figures,
    };
    let expected = PROJECTS * EVENTS_PER_PROJECT;
    if meta.figures["events"].as_u64() != Some(expected as u64) {
        return Err(format!(
            "the store holds {} project events, not the {expected} planned: the 10-minute rule merged some",
            meta.figures["events"]
        ));
    }
    Ok(meta)
}

/// The figures of a generated store, read back through the API.
fn describe(
    org: &Organiser,
    projects: &[ProjectPlan],
    tasks: &[TaskPlan],
    chosen: usize,
    chosen_id: Id,
) -> Result<Value, String> {
    let e = |e: organiser::Error| e.to_string();
    let counted = ListParams {
        count: true,
        limit: 1,
        ..ListParams::default()
    };
    let events = org
        .projects()
        .events(&ProjectEventQuery {
            project_id: None,
            params: counted.clone(),
        })
        .map_err(e)?
        .total_count;
    let open_projects = org
        .projects()
        .list(&ProjectQuery {
            statuses: OPEN.to_vec(),
            person_id: None,
            params: counted.clone(),
        })
        .map_err(e)?
        .total_count;
    let all_projects = org
        .projects()
        .list(&ProjectQuery {
            statuses: Vec::new(),
            person_id: None,
            params: counted.clone(),
        })
        .map_err(e)?
        .total_count;
    let members = org
        .projects()
        .members(&organiser::projects::ProjectMemberQuery {
            project_id: None,
            person_id: None,
            params: counted.clone(),
        })
        .map_err(e)?
        .total_count;
    let upcoming = org
        .projects()
        .upcoming_deadlines(UpcomingDeadlinesQuery::default())
        .map_err(e)?;
    let counts = org.tasks().project_counts().map_err(e)?;
    let activity = org
        .project_activity()
        .list(
            chosen_id,
            &organiser::projects::ActivityQuery {
                cursor: None,
                limit: 50,
            },
        )
        .map_err(e)?;

    let in_project = |t: &&TaskPlan| matches!(t.home, HomePlan::Project(_));
    let outside = |t: &&TaskPlan| !matches!(t.home, HomePlan::Project(_));
    let completed = |t: &&TaskPlan| matches!(t.close, Some((_, TaskStatus::Completed)));
    let mut by_status = serde_json::Map::new();
    for status in TaskStatus::ALL {
        let page = org
            .tasks()
            .list(&TaskQuery {
                statuses: Some(vec![status]),
                params: counted.clone(),
                ..TaskQuery::default()
            })
            .map_err(e)?;
        by_status.insert(status.as_str().to_owned(), json!(page.total_count));
    }
    let inbox = org
        .tasks()
        .list(&TaskQuery {
            home: Some(Home::Inbox),
            statuses: Some(TaskStatus::ALL.to_vec()),
            params: counted.clone(),
            ..TaskQuery::default()
        })
        .map_err(e)?
        .total_count;
    Ok(json!({
        "projects": all_projects,
        "projects_open": open_projects,
        "projects_with_deadline": projects.iter().filter(|p| p.final_deadline.is_some()).count(),
        "projects_open_with_deadline": projects
            .iter()
            .filter(|p| p.final_deadline.is_some() && p.final_status.is_open())
            .count(),
        "events": events,
        "members": members,
        "tasks_in_projects": tasks.iter().filter(in_project).count(),
        "tasks_in_projects_open": tasks.iter().filter(in_project).filter(|t| t.close.is_none()).count(),
        "tasks_in_projects_completed": tasks.iter().filter(in_project).filter(completed).count(),
        "tasks_outside": tasks.iter().filter(outside).count(),
        "tasks_outside_open": tasks.iter().filter(outside).filter(|t| t.close.is_none()).count(),
        "tasks_outside_completed": tasks.iter().filter(outside).filter(completed).count(),
        "tasks_inbox": inbox,
        "tasks_by_status": by_status,
        "upcoming_default": upcoming.len(),
        "upcoming_overdue": upcoming.iter().filter(|u| u.overdue).count(),
        "project_task_counts": counts.len(),
        "activity_project_name": projects[chosen].name,
        "activity_first_page": activity.items.len(),
    }))
}
