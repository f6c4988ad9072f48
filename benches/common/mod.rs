//! What the benches share: reading their settings, timing a closure,
//! median and p90, the built `organiser` binary, the units of their
//! reports, and a deterministic random generator. Each bench includes it (`#[path = "common/mod.rs"] mod common;`)
//! and uses what it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use std::sync::Arc;

use organiser::{Auth, Options, clock::ManualClock, list::Query, server::Method, server::Request};

/// The whole number in the environment variable `name`, else `default`.
pub(crate) fn env_number(name: &str, default: usize) -> Result<usize, String> {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse()
            .map_err(|_| format!("{name} must be a whole number, not {v:?}")),
        _ => Ok(default),
    }
}

/// `target/` (a bench runs as `target/release/deps/<bench>-<hash>`).
pub(crate) fn target_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().map_err(|e| format!("where am I: {e}"))?;
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("cannot find target/ from {}", exe.display()))
}

/// `GET path?query` as the owner at the machine.
pub(crate) fn get(path: &str, query: &str) -> Result<Request, String> {
    let query = Query::parse(query).map_err(|e| format!("query {query:?}: {e}"))?;
    Ok(Request::new(Method::Get, path, Auth::Local).with_query(query))
}

/// The timings of one measurement.
#[derive(Clone, Copy)]
pub(crate) struct Stats {
    pub(crate) median: Duration,
    pub(crate) p90: Duration,
    pub(crate) runs: usize,
}

pub(crate) fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    Stats {
        median: at(0.5),
        p90: at(0.9),
        runs: samples.len(),
    }
}

/// Runs `f` `warmup` times untimed, then `runs` times timed one by one.
pub(crate) fn time(warmup: usize, runs: usize, mut f: impl FnMut()) -> Stats {
    for _ in 0..warmup {
        f();
    }
    let samples = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    stats(samples)
}

/// As [`time`], with `between` run untimed before every call.
pub(crate) fn time_between(
    warmup: usize,
    runs: usize,
    mut between: impl FnMut(),
    mut f: impl FnMut(),
) -> Stats {
    for _ in 0..warmup {
        between();
        f();
    }
    let samples = (0..runs.max(1))
        .map(|_| {
            between();
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    stats(samples)
}

/// The `organiser` binary `cargo bench` built next to this bench.
pub(crate) fn organiser_binary() -> Result<PathBuf, String> {
    if let Some(path) = option_env!("CARGO_BIN_EXE_organiser").map(PathBuf::from)
        && path.exists()
    {
        return Ok(path);
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let beside = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("organiser"))
        .filter(|p| p.exists());
    beside.ok_or_else(|| {
        "the organiser binary is missing: run `cargo build --release`, then the bench".to_owned()
    })
}

pub(crate) fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

pub(crate) fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// The key the benches sign their stores' licence with (so that writes
/// are allowed whatever the clock says).
pub(crate) fn licence_signing_key() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[7; 32])
}

/// Licenses `org` with a key of the benches', issued on the day of `t0`
/// (milliseconds since the epoch, UTC): a store generated over months of
/// history never falls into read-only mode.
pub(crate) fn license(org: &organiser::Organiser, t0: i64) -> Result<(), String> {
    let key = organiser::licence::sign_licence_key(
        &organiser::licence::LicenceKeyPayload {
            key_id: "bench".into(),
            name: "Bench Owner".into(),
            email: "owner@example.com".into(),
            order_reference: None,
            issued_on: date_of(t0),
            updates_until: "2036-01-01".parse().map_err(|e| format!("{e}"))?,
        },
        &licence_signing_key(),
    );
    org.licence()
        .add_key(&key)
        .map(|_| ())
        .map_err(|e| format!("licence: {e}"))
}

/// The day (UTC) of `ms` milliseconds since the epoch.
pub(crate) fn date_of(ms: i64) -> jiff::civil::Date {
    jiff::Timestamp::from_millisecond(ms)
        .expect("an instant")
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
}

/// A store's options: the benches' clock, and their licence key trusted.
pub(crate) fn options(clock: ManualClock) -> Options {
    Options {
        clock: Arc::new(clock),
        licence_public_key: licence_signing_key().verifying_key(),
        ..Options::default()
    }
}

/// A small deterministic generator (SplitMix64): the same store every time.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Uniform in [lo, hi].
    pub(crate) fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// An index in `0..n`, low ones likelier (Zipf, exponent 1).
    pub(crate) fn zipf(&mut self, n: usize) -> usize {
        // The inverse of the continuous approximation: H(x) ~ ln(x + 1).
        let x = ((n as f64 + 1.0).ln() * self.unit()).exp() - 1.0;
        (x as usize).min(n - 1)
    }

    /// `k` distinct indexes in `from..n`, Zipf-weighted.
    pub(crate) fn distinct(&mut self, k: usize, from: usize, n: usize) -> Vec<usize> {
        let k = k.min(n - from);
        let mut picked: Vec<usize> = Vec::with_capacity(k);
        while picked.len() < k {
            let i = from + self.zipf(n - from);
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
        picked
    }
}

/// A bench's `main`: under `cargo bench` (which passes `--bench`) it runs
/// `run` with the arguments and says its error as `NAME: message`;
/// `cargo test --all-targets` builds and runs a bench without `--bench`,
/// and then it only says how to run it (it generates no store).
pub(crate) fn bench_main(
    name: &str,
    run: impl FnOnce(&[String]) -> Result<(), String>,
) -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|arg| arg == "--bench") {
        println!("{name}: a benchmark; run it with `cargo bench --bench {name}`");
        return std::process::ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{name}: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The report's last line: "every target met", or how many were missed.
pub(crate) fn targets_verdict(missed: usize) -> String {
    if missed == 0 {
        "every target met".to_owned()
    } else {
        format!("{missed} target(s) missed")
    }
}

/// Copies the store directory `from` to `to`, leaving out the file named
/// `skip` (a bench's description of its store); below `files/` the files
/// are hard-linked (they are written once, under a temporary name, and
/// never changed), copied where a link cannot be made.
pub(crate) fn copy_store(from: &Path, to: &Path, skip: &str) -> Result<(), String> {
    fn copy(from: &Path, to: &Path, link: bool, skip: &str) -> Result<(), String> {
        std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
        let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let path = entry.path();
            let target = to.join(entry.file_name());
            if entry.file_name() == skip {
                continue;
            }
            if path.is_dir() {
                copy(
                    &path,
                    &target,
                    link || entry.file_name() == organiser::data::FILES_DIR,
                    skip,
                )?;
            } else if !(link && std::fs::hard_link(&path, &target).is_ok()) {
                std::fs::copy(&path, &target)
                    .map_err(|e| format!("copy {} to {}: {e}", path.display(), target.display()))?;
            }
        }
        Ok(())
    }
    copy(from, to, false, skip)
}

/// The store file's bytes, the bytes of the files below `files/`, and how
/// many files there are.
pub(crate) fn store_size(dir: &Path) -> (u64, u64, usize) {
    fn walk(dir: &Path, bytes: &mut u64, files: &mut usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                walk(&entry.path(), bytes, files);
            } else {
                *bytes += meta.len();
                *files += 1;
            }
        }
    }
    let store = std::fs::metadata(dir.join(organiser::data::STORE_FILE)).map_or(0, |m| m.len());
    let (mut bytes, mut files) = (0, 0);
    walk(
        &dir.join(organiser::data::FILES_DIR),
        &mut bytes,
        &mut files,
    );
    (store, bytes, files)
}

/// The bytes this process has written so far (`wchar` of
/// `/proc/self/io`; 0 where there is none).
pub(crate) fn written() -> u64 {
    std::fs::read_to_string("/proc/self/io")
        .ok()
        .and_then(|io| {
            io.lines()
                .find_map(|l| l.strip_prefix("wchar:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// A `/proc/self/status` field in KiB (`VmHWM`, the peak memory).
pub(crate) fn proc_status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        l.strip_prefix(field)?
            .trim_start_matches(':')
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    })
}

// ---------------------------------------------------------------- names of folders and documents

/// Subfolders of each top-level folder.
pub(crate) const SUBFOLDERS: usize = 9;

/// Top-level folder names: an area and a year.
pub(crate) const AREAS: &[&str] = &[
    "Finance",
    "Home",
    "Health",
    "Work",
    "Car",
    "Travel",
    "School",
    "Legal",
    "Insurance",
    "Taxes",
];
pub(crate) const SUBFOLDER_NAMES: [&str; SUBFOLDERS] = [
    "Invoices",
    "Receipts",
    "Contracts",
    "Statements",
    "Letters",
    "Manuals",
    "Forms",
    "Reports",
    "Scans",
];
/// What documents are called (a word or two and a number or date).
pub(crate) const DOC_KINDS: &[&str] = &[
    "Invoice",
    "Receipt",
    "Bank statement",
    "Payslip",
    "Contract",
    "Letter",
    "Policy",
    "Manual",
    "Tax return",
    "Report",
    "Scan",
    "Warranty",
    "Ticket",
    "Prescription",
    "Certificate",
    "Lease",
];

// ---------------------------------------------------------------- the CLI from a cold process

/// `organiser --data-dir DIR ARGS...` with nothing of the environment
/// reaching it (no colour, no server, no configuration file), at `now`
/// (`ORGANISER_NOW`) when given.
pub(crate) fn cli_command(
    binary: &Path,
    dir: &Path,
    now: Option<&str>,
    args: &[&str],
) -> std::process::Command {
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(binary);
    cmd.arg("--data-dir")
        .arg(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("ORGANISER_URL")
        .env_remove("ORGANISER_TOKEN")
        .env_remove("ORGANISER_DATA_DIR")
        .env_remove("ORGANISER_CONFIG")
        .env_remove("ORGANISER_DEV")
        .stdin(Stdio::null());
    if let Some(now) = now {
        cmd.env("ORGANISER_NOW", now);
    }
    cmd
}

/// Wall time of one run of [`cli_command`] with stdout to /dev/null;
/// fails on a failed run.
pub(crate) fn run_cli(
    binary: &Path,
    dir: &Path,
    now: Option<&str>,
    args: &[&str],
) -> Result<Duration, String> {
    use std::process::Stdio;
    let mut cmd = cli_command(binary, dir, now, args);
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let took = start.elapsed();
    if !out.status.success() {
        return Err(format!(
            "organiser {}: {} {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(took)
}

// ---------------------------------------------------------------- the report

/// A line of a report: what was measured, its timings, its target, and
/// what it answered or wrote.
pub(crate) struct Row {
    pub(crate) name: String,
    pub(crate) stats: Stats,
    pub(crate) target: Option<Duration>,
    pub(crate) note: String,
}

/// A line of the report, said on stdout as it is measured.
pub(crate) fn row(
    name: impl Into<String>,
    stats: Stats,
    target: Option<Duration>,
    note: String,
) -> Row {
    let name = name.into();
    println!(
        "  {:<62} {:>11} / {:>11}  {note}",
        name,
        ms(stats.median),
        ms(stats.p90)
    );
    Row {
        name,
        stats,
        target,
        note,
    }
}

/// `rows` as a Markdown table (measurement, median, p90, runs, target,
/// result, note) on `out`; how many targets were missed.
pub(crate) fn rows_table(out: &mut String, rows: &[Row]) -> usize {
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "| measurement | median | p90 | runs | target | result | |\n|---|---:|---:|---:|---:|---|---|"
    );
    let mut missed = 0;
    for r in rows {
        let (target, result) = match r.target {
            Some(t) if r.stats.median <= t => (format!("≤ {}", ms(t)), "met"),
            Some(t) => {
                missed += 1;
                (format!("≤ {}", ms(t)), "**missed**")
            }
            None => ("–".to_owned(), ""),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {target} | {result} | {} |",
            r.name.trim(),
            ms(r.stats.median),
            ms(r.stats.p90),
            r.stats.runs,
            r.note
        );
    }
    missed
}
