//! The reminders' scheduler (EXTENSIONS.md §3; issue "Reminders that
//! arrive without cron": "100,000 pending reminders, the next-due lookup
//! and the memory held flat as they grow"). A disk store gets tasks with
//! a `remind_at` ahead (spread over the next year), written one
//! transaction each through the typed API, with the daily agenda, key
//! dates and deadlines turned on and one channel; copies of it are kept
//! at 1,000, 10,000 and 100,000 pending reminders. Each copy is measured
//! in a process of its own (this bench run again with
//! `BENCH_REMINDERS_ONE=<dir>`), so its memory is its own:
//!
//! - the next-due lookup (`Organiser::next_reminder_at`: one key read of
//!   the tasks' queue and one of the pending notifications, and the
//!   settings' daily times), which the scheduler makes every second: at
//!   most 50 µs median at every size;
//! - an idle run of the scheduler (`send_due_reminders` with nothing due),
//!   what the server does every second;
//! - the memory the scheduler holds: the process's resident set
//!   (`VmRSS`) after opening the store, and again after 20,000 lookups and
//!   2,000 idle runs; "flat" is the target: the scheduler's part (the
//!   difference) is at most 1 MiB at every size, since it keeps nothing
//!   per reminder in memory. The resident set after opening is shown too:
//!   what grows with the store there is the store's own (redb's cache of
//!   the pages read at open, the search index's lexicon), not the
//!   scheduler's.
//!
//! The run fails (exit code 1) when a target is missed.
//!
//! ```text
//! cargo bench --bench reminders
//! BENCH_REGENERATE=1 cargo bench --bench reminders   # build the stores again
//! ```
//!
//! The stores are kept in `target/bench-reminders/<count>` and made again
//! when missing or with `BENCH_REGENERATE=1`. Environment:
//! `BENCH_REMINDERS` (the largest count, default 100000).

#[path = "common/mod.rs"]
mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use common::{bench_main, copy_store, env_number, ms, options, target_dir, time};
use jiff::{SignedDuration, Timestamp};
use organiser::Field;
use organiser::Organiser;
use organiser::clock::ManualClock;
use organiser::reminders::{AgendaChange, NotificationChannelInput, ReminderSettingsChange};
use organiser::tasks::TaskInput;

/// The bench's clock (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";
/// The lookup's target, median.
const LOOKUP_TARGET: Duration = Duration::from_micros(50);
/// The most memory the scheduler's work may add, at any size.
const FLAT_KIB: u64 = 1024;
/// The words task titles are made of (titles repeat words, as real ones
/// do).
const WORDS: [&str; 24] = [
    "call", "the", "bank", "pay", "rent", "water", "plants", "book", "dentist", "send", "invoice",
    "review", "draft", "plan", "trip", "buy", "milk", "fix", "bike", "email", "landlord", "renew",
    "passport", "tax",
];
/// The sizes measured.
const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn main() -> ExitCode {
    bench_main("reminders", |_| {
        match std::env::var("BENCH_REMINDERS_ONE") {
            Ok(dir) => measure_one(Path::new(&dir)),
            Err(_) => run(),
        }
    })
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn open(dir: &Path) -> Result<Organiser, String> {
    Organiser::open_with(dir, options(ManualClock::at(NOW))).map_err(err)
}

/// Makes the stores: one grown a task at a time, copied at each size.
fn generate(root: &Path, sizes: &[usize]) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(root);
    let growing = root.join("growing");
    let org = open(&growing)?;
    let start: Timestamp = NOW.parse().map_err(err)?;
    common::license(&org, start.as_millisecond())?;
    let phone = org
        .reminders()
        .create_channel(NotificationChannelInput {
            name: Field::Value("Phone".into()),
            kind: Field::Value("ntfy".into()),
            url: Field::Value("http://127.0.0.1:9/organiser".into()),
            ..NotificationChannelInput::default()
        })
        .map_err(err)?;
    org.reminders()
        .change_settings(ReminderSettingsChange {
            channel_ids: Some(vec![phone.id]),
            daily_agenda: Some(AgendaChange {
                enabled: Some(true),
                at: Some("07:00".into()),
            }),
            ..ReminderSettingsChange::default()
        })
        .map_err(err)?;
    // The scheduler's first look sets where the daily reminders start.
    org.send_due_reminders().map_err(err)?;
    let mut made = 0;
    for &size in sizes {
        while made < size {
            let minutes = 60 + (made as i64 * 7919) % 525_000;
            let at = start
                .checked_add(SignedDuration::from_mins(minutes))
                .map_err(err)?;
            let title: Vec<&str> = (0..3)
                .map(|k| WORDS[(made * 7 + k * 13 + made / 24) % WORDS.len()])
                .collect();
            let input = TaskInput {
                remind_at: Field::Value(at),
                ..TaskInput::titled(title.join(" "))
            };
            org.tasks().create(input).map_err(err)?;
            made += 1;
            if made % 10_000 == 0 {
                eprintln!("reminders: {made} tasks written");
            }
        }
        copy_store(&growing, &root.join(size.to_string()), "")?;
    }
    drop(org);
    std::fs::remove_dir_all(&growing).map_err(err)
}

/// One size's figures, as the child prints them.
struct Row {
    pending: usize,
    lookup_median: Duration,
    lookup_p90: Duration,
    idle_median: Duration,
    open_kib: u64,
    after_kib: u64,
}

fn run() -> Result<(), String> {
    let largest = env_number("BENCH_REMINDERS", 100_000)?;
    let sizes: Vec<usize> = SIZES.iter().map(|s| (*s).min(largest)).collect();
    let root = target_dir()?.join("bench-reminders");
    let missing = sizes.iter().any(|s| !root.join(s.to_string()).exists());
    if missing || std::env::var("BENCH_REGENERATE").is_ok_and(|v| v == "1") {
        generate(&root, &sizes)?;
    }
    let exe = std::env::current_exe().map_err(err)?;
    let mut rows = Vec::new();
    for size in &sizes {
        let dir = root.join(size.to_string());
        let scratch = root.join(format!("run-{size}"));
        let _ = std::fs::remove_dir_all(&scratch);
        copy_store(&dir, &scratch, "")?;
        let out = std::process::Command::new(&exe)
            .arg("--bench")
            .env("BENCH_REMINDERS_ONE", &scratch)
            .output()
            .map_err(err)?;
        let _ = std::fs::remove_dir_all(&scratch);
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        rows.push(parse_row(&String::from_utf8_lossy(&out.stdout))?);
    }
    report(&rows)
}

fn parse_row(line: &str) -> Result<Row, String> {
    let n: Vec<u64> = line
        .split_whitespace()
        .map(|w| w.parse().map_err(err))
        .collect::<Result<_, _>>()?;
    let [pending, median, p90, idle, open_kib, after_kib] = n[..] else {
        return Err(format!("a child said {line:?}"));
    };
    Ok(Row {
        pending: usize::try_from(pending).map_err(err)?,
        lookup_median: Duration::from_nanos(median),
        lookup_p90: Duration::from_nanos(p90),
        idle_median: Duration::from_nanos(idle),
        open_kib,
        after_kib,
    })
}

fn report(rows: &[Row]) -> Result<(), String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "reminders: the next-due lookup and an idle scheduler run (disk store, a process per size)\n"
    );
    let _ = writeln!(
        out,
        "| pending | lookup median | lookup p90 | idle run median | resident after open | the scheduler's part |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.1} MiB | {} KiB |",
            r.pending,
            ms(r.lookup_median),
            ms(r.lookup_p90),
            ms(r.idle_median),
            r.open_kib as f64 / 1024.0,
            r.after_kib.saturating_sub(r.open_kib)
        );
    }
    let mut missed = 0;
    for r in rows {
        if r.lookup_median > LOOKUP_TARGET {
            missed += 1;
            let _ = writeln!(out, "missed: the lookup at {} pending", r.pending);
        }
    }
    for r in rows {
        if r.after_kib > r.open_kib + FLAT_KIB {
            missed += 1;
            let _ = writeln!(
                out,
                "missed: the scheduler took {} KiB at {} pending",
                r.after_kib - r.open_kib,
                r.pending
            );
        }
    }
    let _ = writeln!(out, "\n{}", common::targets_verdict(missed));
    print!("{out}");
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

/// Measures the store in `dir` (a child's work): prints the pending count,
/// the lookup's median and 90th percentile and the idle run's median in
/// nanoseconds, and the resident set after opening and after the work, in
/// KiB.
fn measure_one(dir: &Path) -> Result<(), String> {
    let org = open(&PathBuf::from(dir))?;
    // Every task of the store is in the Inbox, open, with a reminder ahead.
    let pending = org
        .tasks()
        .counts(&Default::default())
        .map_or(0, |c| c.inbox);
    if org.next_reminder_at().map_err(err)?.is_none() {
        return Err("no reminder is pending".into());
    }
    let open_kib = common::proc_status_kib("VmRSS").unwrap_or(0);
    let lookup = time(200, 20_000, || {
        let _ = std::hint::black_box(org.next_reminder_at());
    });
    let idle = time(20, 2_000, || {
        let _ = std::hint::black_box(org.send_due_reminders());
    });
    let after_kib = common::proc_status_kib("VmRSS").unwrap_or(0);
    println!(
        "{pending} {} {} {} {open_kib} {after_kib}",
        lookup.median.as_nanos(),
        lookup.p90.as_nanos(),
        idle.median.as_nanos()
    );
    Ok(())
}
