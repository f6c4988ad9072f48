//! Backups on the 100,000-task store of `cargo bench --bench tasks`
//! (EXTENSIONS.md §4): how long a backup takes against `cp -r` of the
//! data directory, the archive's size, and the p50 and p99 of
//! `GET /tasks?view=today` (through `Organiser::handle`, as the server
//! answers it, each the first read after a commit) while a backup runs,
//! against without one (target: the p99 within twice).
//!
//! ```text
//! cargo bench --bench tasks       # once, to generate the store
//! cargo bench --bench backup
//! ```
//!
//! The store is copied to a scratch directory first (the backups go
//! there, and the cached store stays as generated). Environment:
//! `BENCH_STORE_DIR` (default `target/bench-store-100000`),
//! `BENCH_BACKUP_RUNS` (backups timed, default 3), `BENCH_READ_QUERY`
//! (the query of the `GET /tasks` timed, default `view=today`; the search
//! bench's store, `BENCH_STORE_DIR=target/bench-search-100000`, has an
//! empty today view: `status=open&limit=50` reads a page there).

use std::path::Path;
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use organiser::{Organiser, account::AppearanceChange, clock::ManualClock};

#[path = "common/mod.rs"]
mod common;
use common::{bench_main, copy_store, env_number, get, mib, ms, options, target_dir};

/// The tasks bench's clock (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";

fn main() -> ExitCode {
    bench_main("backup", |_| run())
}

fn percentile(mut samples: Vec<Duration>, q: f64) -> Duration {
    samples.sort_unstable();
    samples[((samples.len() - 1) as f64 * q).round() as usize]
}

fn dir_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            total += dir_bytes(&path);
        } else if let Ok(m) = entry.metadata() {
            total += m.len();
        }
    }
    total
}

/// Reads the today view over and over until `stop`, each read timed.
fn read_while(org: &Organiser, stop: &AtomicBool, at_least: usize) -> Vec<Duration> {
    let query = std::env::var("BENCH_READ_QUERY").unwrap_or_else(|_| "view=today".to_owned());
    let request = get("/tasks", &query).expect("a request");
    let mut samples = Vec::new();
    while !stop.load(Ordering::Relaxed) || samples.len() < at_least {
        // A commit, untimed, before each read: the read is the first of
        // its generation, so nothing kept from the last one answers it.
        org.account()
            .change_appearance(AppearanceChange::default())
            .expect("a commit");
        let started = Instant::now();
        let response = org.handle(&request);
        samples.push(started.elapsed());
        assert_eq!(response.status, 200);
    }
    samples
}

fn run() -> Result<(), String> {
    let target = target_dir()?;
    let store = match std::env::var_os("BENCH_STORE_DIR") {
        Some(d) if !d.is_empty() => d.into(),
        _ => target.join("bench-store-100000"),
    };
    if !store.join(organiser::data::STORE_FILE).is_file() {
        return Err(format!(
            "no store in {}: run `cargo bench --bench tasks` first, which generates it",
            store.display()
        ));
    }
    let runs = env_number("BENCH_BACKUP_RUNS", 3)?.max(1);
    let scratch = tempfile::Builder::new()
        .prefix("bench-backup-")
        .tempdir_in(&target)
        .map_err(|e| e.to_string())?;
    let data = scratch.path().join("data");
    copy_store(&store, &data, "bench-store.json")?;
    let size = dir_bytes(&data);

    // `cp -r` of the data directory, as the baseline.
    let mut cp = Vec::new();
    for n in 0..runs {
        let to = scratch.path().join(format!("cp-{n}"));
        let started = Instant::now();
        let status = Command::new("cp")
            .arg("-r")
            .arg(&data)
            .arg(&to)
            .status()
            .map_err(|e| format!("cp: {e}"))?;
        let took = started.elapsed();
        if !status.success() {
            return Err("cp failed".into());
        }
        let _ = Command::new("sync").status();
        cp.push(took);
        let _ = std::fs::remove_dir_all(&to);
    }

    let now: jiff::Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    let org = Arc::new(
        Organiser::open_with(&data, options(ManualClock::new(now))).map_err(|e| e.to_string())?,
    );
    org.backups()
        .change_settings(organiser::backups::BackupSettingsChange {
            keep: Some(365),
            ..Default::default()
        })
        .map_err(|e| e.to_string())?;

    // The reads alone.
    let stop = AtomicBool::new(true);
    for _ in 0..50 {
        read_while(&org, &stop, 1);
    }
    let quiet = read_while(&org, &stop, 2000);

    // Backups, each with readers running beside it.
    let mut took = Vec::new();
    let mut busy = Vec::new();
    let mut archive = 0;
    for _ in 0..runs {
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (org, stop) = (org.clone(), stop.clone());
            std::thread::spawn(move || read_while(&org, &stop, 1))
        };
        let started = Instant::now();
        let backup = org.backups().create().map_err(|e| e.to_string())?;
        took.push(started.elapsed());
        stop.store(true, Ordering::Relaxed);
        busy.extend(reader.join().map_err(|_| "the reader panicked")?);
        archive = backup.bytes;
    }

    let median = |mut v: Vec<Duration>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (q50, q99) = (
        percentile(quiet.clone(), 0.5),
        percentile(quiet.clone(), 0.99),
    );
    let (b50, b99) = (
        percentile(busy.clone(), 0.5),
        percentile(busy.clone(), 0.99),
    );
    let ratio = b99.as_secs_f64() / q99.as_secs_f64();
    println!(
        "backup: the 100,000-task store, {} on disk, {runs} runs",
        mib(size)
    );
    println!("| measurement | value |\n|---|---:|");
    println!(
        "| backup (write, check, record), median | {} |",
        ms(median(took))
    );
    println!(
        "| `cp -r` of the data directory, median | {} |",
        ms(median(cp))
    );
    println!("| archive size | {} |", mib(archive));
    println!(
        "| `GET /tasks` alone: p50 / p99 ({} reads) | {} / {} |",
        quiet.len(),
        ms(q50),
        ms(q99)
    );
    println!(
        "| the same while a backup runs: p50 / p99 ({} reads) | {} / {} |",
        busy.len(),
        ms(b50),
        ms(b99)
    );
    let verdict = if ratio <= 2.0 { "met" } else { "missed" };
    println!("p99 while backing up: {ratio:.2} times the p99 alone (target at most 2: {verdict})");
    Ok(())
}
