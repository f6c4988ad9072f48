//! Export and import (EXTENSIONS.md §5) against the targets it sets:
//!
//! - 10,000 vCards (3.0, as Google and Apple write them: names, one to
//!   three e-mail addresses and phone numbers with `TYPE` labels,
//!   birthdays with a year, as `--MMDD` and with `X-APPLE-OMIT-YEAR`,
//!   `ORG`/`TITLE`, `URL`, `UID`s, and one card in twenty with a small
//!   base64 JPEG `PHOTO`) imported into an empty store on disk (target:
//!   under 5 s), then the same file again (it must create and update
//!   nothing);
//! - 100,000 Taskwarrior tasks (`task export` JSON shaped as Taskwarrior
//!   2.6 writes it, as `tests/fixtures/imports/taskwarrior/export.json`:
//!   projects, due and scheduled dates, tags, annotations, priorities,
//!   completed, deleted and waiting tasks, recurring series with their
//!   instances) imported the same way (target: under 10 s), and again;
//! - the tasks bench's store (`cargo bench --bench tasks`), copied, with
//!   what the archive carries beyond tasks added to the copy (200 people
//!   with photos, person links, 20 projects with members and a status
//!   change, 500 notes naming people and `#tags`, 50 small PDFs in
//!   folders, a few tasks and a person deleted; no calendar feed, since
//!   adding one fetches its address): its export, and the archive's import
//!   into an empty store on disk (targets: under 30 s each); that store
//!   exported again, every `records/*.jsonl` entry of the two archives
//!   compared byte for byte; and the archive imported into the store it
//!   came from, which must create and update nothing.
//!
//! ```text
//! cargo bench --bench tasks       # once, to generate the store
//! cargo bench --bench transfer
//! ```
//!
//! Each measured import and the export run in a process of their own (this
//! bench run again with `--part NAME`), which reads the file from disk,
//! opens the store, does the work, and says its timings and its peak
//! memory (`VmHWM` of `/proc/self/status`, read before anything else
//! runs in it) as one line of JSON. After its peak is read, each import
//! process also runs a dry run (the same import into another empty store,
//! `dry_run`: read and applied, then discarded, never committed), so what
//! the commit costs shows as the difference.
//!
//! Environment: `BENCH_STORE_DIR` (default `target/bench-store-100000`),
//! `BENCH_VCARDS` (default 10000), `BENCH_TW_TASKS` (default 100000),
//! `BENCH_DRY_RUNS` (0 leaves the dry runs out; default 1), `BENCH_ONLY`
//! (some of `vcard,taskwarrior,archive`; default all).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use jiff::{SignedDuration, Timestamp};
use organiser::transfer::{ExportFormat, Format, ImportParams, ImportReport};
use organiser::{Auth, Id, Organiser, clock::ManualClock, server::Method, server::Request};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
// The core tests' PDF writer (its other pages unused here).
#[allow(dead_code)]
#[path = "../organiser-core/src/pdf_fixtures.rs"]
mod pdf_fixtures;
use common::{
    Rng, bench_main, copy_store, env_number, get, mib, ms, options, proc_status_kib, target_dir,
    targets_verdict,
};

/// The tasks bench's clock (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";
/// The clock of the archive's export and imports: after every record
/// added to the copy (a second a write from [`NOW`]), as an import comes
/// after the export it reads.
const LATER: &str = "2026-10-15T09:30:00Z";

/// Targets (EXTENSIONS.md §5).
const TARGET_VCARDS: Duration = Duration::from_secs(5);
const TARGET_TASKWARRIOR: Duration = Duration::from_secs(10);
const TARGET_ARCHIVE: Duration = Duration::from_secs(30);

/// The argument that runs one part in a child process.
const PART_ARG: &str = "--part";
/// The line a child says its figures on.
const RESULT_PREFIX: &str = "transfer-part: ";

/// The longer side of a document's thumbnail (its file is
/// `files/uploads/<upload id>.256.webp`).
const THUMBNAIL_SIDE: u32 = 256;

fn main() -> ExitCode {
    bench_main("transfer", |args| {
        match args.iter().position(|a| a == PART_ARG) {
            Some(at) => part(&args[at + 1..]),
            None => run(),
        }
    })
}

fn now() -> Result<Timestamp, String> {
    NOW.parse().map_err(|e| format!("{e}"))
}

fn later() -> Result<Timestamp, String> {
    LATER.parse().map_err(|e| format!("{e}"))
}

fn open(dir: &Path, clock: ManualClock) -> Result<Organiser, String> {
    Organiser::open_with(dir, options(clock)).map_err(|e| format!("open {}: {e}", dir.display()))
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn duration(v: &Value) -> Duration {
    Duration::from_secs_f64(v.as_f64().unwrap_or(0.0))
}

/// `{kind: n}` in words: `task 100, task_list 50`, or `nothing`.
fn counts(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "nothing".to_owned();
    }
    map.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

// ---------------------------------------------------------------- the parts, each in a process of its own

/// A part, in this (child) process: `vcard|taskwarrior FILE DIR DRY_DIR`,
/// `export STORE ARCHIVE`, `import ARCHIVE DIR DRY_DIR`.
fn part(args: &[String]) -> Result<(), String> {
    let path = |n: usize| {
        args.get(n)
            .map(PathBuf::from)
            .ok_or_else(|| format!("{PART_ARG}: argument {n} is missing"))
    };
    let dry = std::env::var("BENCH_DRY_RUNS").map_or(true, |v| v.trim() != "0");
    let result = match args.first().map(String::as_str) {
        Some("vcard") => import_part(Format::Vcard, &path(1)?, &path(2)?, &path(3)?, dry)?,
        Some("taskwarrior") => {
            import_part(Format::Taskwarrior, &path(1)?, &path(2)?, &path(3)?, dry)?
        }
        Some("import") => import_part(Format::Organiser, &path(1)?, &path(2)?, &path(3)?, dry)?,
        Some("export") => export_part(&path(1)?, &path(2)?)?,
        other => return Err(format!("{PART_ARG}: no part {other:?}")),
    };
    println!("{RESULT_PREFIX}{result}");
    Ok(())
}

/// Reads `file`, imports it into an empty store in `dir` and again; the
/// peak memory; then a dry run into an empty store in `dry_dir`.
fn import_part(
    from: Format,
    file: &Path,
    dir: &Path,
    dry_dir: &Path,
    dry: bool,
) -> Result<Value, String> {
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let params = ImportParams {
        from: Some(from),
        dry_run: false,
        name,
    };
    let started = Instant::now();
    let bytes = read(file)?;
    let reading = started.elapsed();
    let size = bytes.len();

    // The archive at [`LATER`], and imported once here: the parent exports
    // the store again, then imports it a second time.
    let archive = from == Format::Organiser;
    let at = if archive { later()? } else { now()? };
    let clock = ManualClock::new(at);
    let started = Instant::now();
    let org = open(dir, clock.clone())?;
    let opening = started.elapsed();
    let started = Instant::now();
    let first = org
        .transfer()
        .import(params.clone(), bytes)
        .map_err(|e| format!("the import: {e}"))?;
    let importing = started.elapsed();

    // The same file again (read again, so that no copy of it is kept
    // through the first import).
    let mut second = None;
    if !archive {
        clock.advance(SignedDuration::from_secs(60));
        let bytes = read(file)?;
        let started = Instant::now();
        let report = org
            .transfer()
            .import(params.clone(), bytes)
            .map_err(|e| format!("the second import: {e}"))?;
        second = Some((report, started.elapsed()));
    }
    let peak = proc_status_kib("VmHWM");
    drop(org);

    let dry_run = if dry {
        let org = open(dry_dir, ManualClock::new(at))?;
        let bytes = read(file)?;
        let started = Instant::now();
        let report = org
            .transfer()
            .import(
                ImportParams {
                    dry_run: true,
                    ..params
                },
                bytes,
            )
            .map_err(|e| format!("the dry run: {e}"))?;
        let took = started.elapsed();
        if report.created != first.created {
            return Err(format!(
                "the dry run's report is not the import's: {:?} against {:?}",
                report.created, first.created
            ));
        }
        Some(secs(took))
    } else {
        None
    };
    Ok(json!({
        "bytes": size,
        "read": secs(reading),
        "open": secs(opening),
        "first": secs(importing),
        "second": second.as_ref().map(|(_, took)| secs(*took)),
        "dry": dry_run,
        "peak_kib": peak,
        "report": first,
        "report_again": second.map(|(report, _)| report),
    }))
}

/// Opens `store`, exports it, writes the archive to `archive`; the peak
/// memory.
fn export_part(store: &Path, archive: &Path) -> Result<Value, String> {
    let started = Instant::now();
    let org = open(store, ManualClock::new(later()?))?;
    let opening = started.elapsed();
    let started = Instant::now();
    let file = org
        .transfer()
        .export(ExportFormat::Organiser)
        .map_err(|e| format!("the export: {e}"))?;
    let exporting = started.elapsed();
    let started = Instant::now();
    std::fs::write(archive, &file.bytes).map_err(|e| format!("{}: {e}", archive.display()))?;
    let writing = started.elapsed();
    let peak = proc_status_kib("VmHWM");
    Ok(json!({
        "bytes": file.bytes.len(),
        "open": secs(opening),
        "export": secs(exporting),
        "write": secs(writing),
        "peak_kib": peak,
        "filename": file.filename,
    }))
}

/// Runs this bench again as `--part ARGS...`; the figures it said.
fn child(args: &[&Path], name: &str) -> Result<Value, String> {
    let exe = std::env::current_exe().map_err(|e| format!("where am I: {e}"))?;
    let started = Instant::now();
    let out = Command::new(exe)
        .args(["--bench", PART_ARG, name])
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("the {name} process: {e}"))?;
    if !out.status.success() {
        return Err(format!("the {name} process failed ({})", out.status));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(RESULT_PREFIX))
        .ok_or_else(|| format!("the {name} process said no figures: {stdout}"))?;
    let mut figures: Value =
        serde_json::from_str(line).map_err(|e| format!("the {name} process's figures: {e}"))?;
    figures["process"] = json!(secs(started.elapsed()));
    Ok(figures)
}

fn report_of(v: &Value) -> Result<ImportReport, String> {
    serde_json::from_value(v.clone()).map_err(|e| format!("a report: {e}"))
}

// ---------------------------------------------------------------- the run

/// A line of the table.
struct Line {
    name: String,
    took: Duration,
    target: Option<Duration>,
    peak_kib: Option<u64>,
    note: String,
}

fn run() -> Result<(), String> {
    let target = target_dir()?;
    let only: Vec<String> = std::env::var("BENCH_ONLY")
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    let wants = |part: &str| only.is_empty() || only.iter().any(|p| p == part);
    let scratch = tempfile::Builder::new()
        .prefix("bench-transfer-")
        .tempdir_in(&target)
        .map_err(|e| e.to_string())?;
    let dir = scratch.path();
    let mut lines: Vec<Line> = Vec::new();
    let mut notes: Vec<String> = Vec::new();

    if wants("vcard") {
        let n = env_number("BENCH_VCARDS", 10_000)?.max(1);
        let file = dir.join("contacts.vcf");
        let started = Instant::now();
        let (bytes, photos) = vcards(n);
        std::fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        println!(
            "vcard: {n} cards, {photos} with a photo, {} (generated in {:.1} s)",
            mib(bytes.len() as u64),
            started.elapsed().as_secs_f64()
        );
        drop(bytes);
        let f = child(
            &[&file, &dir.join("vcard"), &dir.join("vcard-dry")],
            "vcard",
        )?;
        lines.extend(import_lines(
            &f,
            &format!(
                "{n} vCards ({photos} with a photo, {})",
                mib(file_len(&file))
            ),
            TARGET_VCARDS,
            &mut notes,
        )?);
    }

    if wants("taskwarrior") {
        let n = env_number("BENCH_TW_TASKS", 100_000)?.max(1);
        let file = dir.join("export.json");
        let started = Instant::now();
        let (bytes, shape) = taskwarrior(n)?;
        std::fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        println!(
            "taskwarrior: {n} tasks, {} ({shape}; generated in {:.1} s)",
            mib(bytes.len() as u64),
            started.elapsed().as_secs_f64()
        );
        drop(bytes);
        let f = child(
            &[
                &file,
                &dir.join("taskwarrior"),
                &dir.join("taskwarrior-dry"),
            ],
            "taskwarrior",
        )?;
        lines.extend(import_lines(
            &f,
            &format!("{n} Taskwarrior tasks ({})", mib(file_len(&file))),
            TARGET_TASKWARRIOR,
            &mut notes,
        )?);
    }

    if wants("archive") {
        archive(&target, dir, &mut lines, &mut notes)?;
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "| measurement | time | target | result | peak memory | |\n|---|---:|---:|---|---:|---|"
    );
    let mut missed = 0;
    for l in &lines {
        let (target, result) = match l.target {
            Some(t) if l.took <= t => (format!("< {} s", t.as_secs()), "met"),
            Some(t) => {
                missed += 1;
                (format!("< {} s", t.as_secs()), "**missed**")
            }
            None => ("–".to_owned(), ""),
        };
        let peak = l.peak_kib.map_or_else(|| "–".to_owned(), |k| mib(k * 1024));
        let _ = writeln!(
            out,
            "| {} | {} | {target} | {result} | {peak} | {} |",
            l.name,
            ms(l.took),
            l.note
        );
    }
    println!("\n{out}");
    for n in &notes {
        println!("{n}");
    }
    println!("{}", targets_verdict(missed));
    Ok(())
}

/// The reasons items were skipped for, the commonest first, with how
/// many each.
fn skip_reasons(report: &ImportReport) -> String {
    let mut by: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &report.skipped {
        *by.entry(s.reason.as_str()).or_default() += 1;
    }
    let mut by: Vec<(&str, usize)> = by.into_iter().collect();
    by.sort_by_key(|b| std::cmp::Reverse(b.1));
    by.iter()
        .take(5)
        .map(|(reason, n)| format!("{n}: {reason:?}"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The table's lines for an import part's figures: the first import
/// (against `target`), the second, and the phases.
fn import_lines(
    f: &Value,
    what: &str,
    target: Duration,
    notes: &mut Vec<String>,
) -> Result<Vec<Line>, String> {
    let first = report_of(&f["report"])?;
    let again = report_of(&f["report_again"])?;
    let unchanged = again.created.is_empty() && again.updated.is_empty();
    if !unchanged {
        notes.push(format!(
            "{what}: the second import created {} and updated {} (it must change nothing)",
            counts(&again.created),
            counts(&again.updated)
        ));
    }
    let peak = f["peak_kib"].as_u64();
    let took = duration(&f["first"]);
    let mut phases = format!(
        "file read in {}, store opened in {}",
        ms(duration(&f["read"])),
        ms(duration(&f["open"]))
    );
    if let Some(dry) = f["dry"].as_f64() {
        let dry = Duration::from_secs_f64(dry);
        let _ = write!(
            phases,
            "; a dry run (read and applied, not committed) {}, so the commit about {}",
            ms(dry),
            ms(took.saturating_sub(dry))
        );
    }
    notes.push(format!("{what}: {phases}"));
    if !first.skipped.is_empty() {
        notes.push(format!("{what}: skipped {}", skip_reasons(&first)));
    }
    Ok(vec![
        Line {
            name: format!("{what}: import into an empty store"),
            took,
            target: Some(target),
            peak_kib: peak,
            note: format!(
                "created {}; {} skipped",
                counts(&first.created),
                first.skipped.len()
            ),
        },
        Line {
            name: "the same file again".to_owned(),
            took: duration(&f["second"]),
            target: None,
            peak_kib: None,
            note: format!(
                "created {}, updated {}{}",
                counts(&again.created),
                counts(&again.updated),
                if unchanged {
                    ""
                } else {
                    " (**should be nothing**)"
                }
            ),
        },
    ])
}

// ---------------------------------------------------------------- the archive of the benchmark store

fn archive(
    target: &Path,
    dir: &Path,
    lines: &mut Vec<Line>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
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
    let source = dir.join("source");
    let started = Instant::now();
    copy_store(&store, &source, "bench-store.json")?;
    println!(
        "archive: {} copied in {:.1} s",
        store.display(),
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let added = {
        let clock = ManualClock::new(now()?);
        let org = open(&source, clock.clone())?;
        add_records(&org, &clock, &source)?
    };
    println!(
        "archive: added {added} in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let archive = dir.join("archive.zip");
    let e = child(&[&source, &archive], "export")?;
    let size = e["bytes"].as_u64().unwrap_or(0);
    lines.push(Line {
        name: "the benchmark store's export".to_owned(),
        took: duration(&e["export"]),
        target: Some(TARGET_ARCHIVE),
        peak_kib: e["peak_kib"].as_u64(),
        note: format!(
            "archive {}; store opened in {}, archive written in {}",
            mib(size),
            ms(duration(&e["open"])),
            ms(duration(&e["write"]))
        ),
    });

    let imported = dir.join("imported");
    let i = child(&[&archive, &imported, &dir.join("imported-dry")], "import")?;
    let report = report_of(&i["report"])?;
    let took = duration(&i["first"]);
    let mut phases = format!(
        "archive read in {}, store opened in {}",
        ms(duration(&i["read"])),
        ms(duration(&i["open"]))
    );
    if let Some(dry) = i["dry"].as_f64() {
        let dry = Duration::from_secs_f64(dry);
        let _ = write!(
            phases,
            "; a dry run {}, so the commit about {}",
            ms(dry),
            ms(took.saturating_sub(dry))
        );
    }
    notes.push(format!("the archive's import: {phases}"));
    lines.push(Line {
        name: "its import into an empty store".to_owned(),
        took,
        target: Some(TARGET_ARCHIVE),
        peak_kib: i["peak_kib"].as_u64(),
        note: format!(
            "created {}; updated {}; {} skipped",
            counts(&report.created),
            counts(&report.updated),
            report.skipped.len()
        ),
    });

    // The imported store exported again: `records/` the same byte for byte.
    let first = read(&archive)?;
    let (second, took) = {
        let org = open(&imported, ManualClock::new(later()?))?;
        let started = Instant::now();
        let file = org
            .transfer()
            .export(ExportFormat::Organiser)
            .map_err(|e| format!("the second export: {e}"))?;
        (file.bytes, started.elapsed())
    };
    let (a, b) = (unzip(&first)?, unzip(&second)?);
    let records = |m: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        m.keys()
            .filter(|n| n.starts_with("records/") && n.ends_with(".jsonl"))
            .cloned()
            .collect()
    };
    let names = records(&a);
    let mut differ: Vec<String> = names
        .iter()
        .filter(|n| b.get(*n) != a.get(*n))
        .cloned()
        .collect();
    differ.extend(records(&b).into_iter().filter(|n| !a.contains_key(n)));
    let rows: usize = names
        .iter()
        .map(|n| a[n].iter().filter(|&&c| c == b'\n').count())
        .sum();
    let same = differ.is_empty();
    let verdict = if same {
        format!(
            "byte for byte the same: all {} `records/*.jsonl` entries ({rows} records)",
            names.len()
        )
    } else {
        format!(
            "**not the same**: {} of {} `records/*.jsonl` entries differ ({})",
            differ.len(),
            names.len(),
            differ.join(", ")
        )
    };
    let deletions = a.get("deletions.jsonl") == b.get("deletions.jsonl");
    println!(
        "round trip: {verdict}; deletions.jsonl {}",
        if deletions { "the same" } else { "differs" }
    );
    for n in &differ {
        if let (Some(x), Some(y)) = (a.get(n), b.get(n)) {
            let at = x.iter().zip(y.iter()).position(|(p, q)| p != q);
            let at = at.unwrap_or(x.len().min(y.len()));
            let from = at.saturating_sub(200);
            println!(
                "  {n}: {} against {} bytes, first difference at byte {at}:\n    {}\n    {}",
                x.len(),
                y.len(),
                String::from_utf8_lossy(&x[from..(at + 200).min(x.len())]),
                String::from_utf8_lossy(&y[from..(at + 200).min(y.len())])
            );
        }
    }
    lines.push(Line {
        name: "the imported store exported again".to_owned(),
        took,
        target: None,
        peak_kib: None,
        note: format!(
            "archive {}; `records/` {}",
            mib(second.len() as u64),
            if same {
                "the same byte for byte"
            } else {
                "**differs**"
            }
        ),
    });
    notes.push(format!("round trip: {verdict}"));
    drop((a, b, second));

    // The same archive again into the store it made: nothing.
    let (report, took) = {
        let clock = ManualClock::new(later()?);
        clock.advance(SignedDuration::from_secs(60));
        let org = open(&imported, clock)?;
        let started = Instant::now();
        let report = org
            .transfer()
            .import(
                ImportParams {
                    from: Some(Format::Organiser),
                    ..ImportParams::default()
                },
                first.clone(),
            )
            .map_err(|e| format!("the archive again: {e}"))?;
        (report, started.elapsed())
    };
    let unchanged = report.created.is_empty() && report.updated.is_empty();
    lines.push(Line {
        name: "the same archive again into that store".to_owned(),
        took,
        target: None,
        peak_kib: None,
        note: format!(
            "created {}, updated {}{}",
            counts(&report.created),
            counts(&report.updated),
            if unchanged {
                ""
            } else {
                " (**should be nothing**)"
            }
        ),
    });

    // The archive into the store it came from: nothing.
    let (report, took) = {
        let org = open(&source, ManualClock::new(later()?))?;
        let started = Instant::now();
        let report = org
            .transfer()
            .import(
                ImportParams {
                    from: Some(Format::Organiser),
                    ..ImportParams::default()
                },
                first,
            )
            .map_err(|e| format!("the archive into its store: {e}"))?;
        (report, started.elapsed())
    };
    let unchanged = report.created.is_empty() && report.updated.is_empty();
    lines.push(Line {
        name: "the archive into the store it came from".to_owned(),
        took,
        target: None,
        peak_kib: None,
        note: format!(
            "created {}, updated {}{}",
            counts(&report.created),
            counts(&report.updated),
            if unchanged {
                ""
            } else {
                " (**should be nothing**)"
            }
        ),
    });
    notes.push(format!(
        "the archive into the store it came from: {}",
        if unchanged {
            "no created, no updated".to_owned()
        } else {
            format!(
                "created {}, updated {} (it must change nothing)",
                counts(&report.created),
                counts(&report.updated)
            )
        }
    ));
    Ok(())
}

/// The entries of a zip, by name.
fn unzip(bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| format!("a zip: {e}"))?;
    let mut out = BTreeMap::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).map_err(|e| format!("entry {i}: {e}"))?;
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut data).map_err(|e| format!("entry {i}: {e}"))?;
        let name = file.name().map_err(|e| format!("entry {i}: {e}"))?;
        out.insert(name.into_owned(), data);
    }
    Ok(out)
}

fn request(method: Method, path: &str, body: Value) -> Request {
    Request::new(method, path, Auth::Local).with_body(body)
}

/// Calls `request`, which must answer `status`; the answer as JSON.
fn call(org: &Organiser, request: &Request, status: u16) -> Result<Value, String> {
    let response = org.handle(request);
    if response.status != status {
        return Err(format!(
            "{:?} {} answered {}: {}",
            request.method,
            request.path,
            response.status,
            response.json_value()
        ));
    }
    Ok(response.json_value())
}

fn id_of(v: &Value) -> Result<String, String> {
    v["data"]["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("no id in {v}"))
}

/// A small JPEG of `side` pixels, its colours from `seed`.
fn jpeg(side: u32, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let (r, g, b) = (
        rng.below(256) as u32,
        rng.below(256) as u32,
        rng.below(256) as u32,
    );
    let image = image::RgbImage::from_fn(side, side, |x, y| {
        image::Rgb([
            ((r + x * 2) % 256) as u8,
            ((g + y * 2) % 256) as u8,
            ((b + (x + y)) % 256) as u8,
        ])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 80)
        .encode_image(&image)
        .expect("encodes");
    out
}

/// A well-formed one-page PDF, different for each `label`, written by
/// the core tests' PDF writer.
fn pdf(label: &str) -> Vec<u8> {
    let stream = format!("0 0 1 rg 20 20 160 60 re f BT /F1 12 Tf 30 50 Td ({label}) Tj ET");
    pdf_fixtures::pdf_with_pages(200, 100, &[&stream])
}

/// The thumbnail file of the upload a `signed_id` names (its first 16
/// bytes are the upload's ID).
fn thumbnail_path(data_dir: &Path, signed: &str) -> Result<PathBuf, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(signed)
        .map_err(|e| format!("signed_id {signed:?}: {e}"))?;
    let id: [u8; 16] = bytes
        .get(..16)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("signed_id {signed:?} is too short"))?;
    Ok(data_dir
        .join(organiser::data::FILES_DIR)
        .join("uploads")
        .join(format!("{}.{THUMBNAIL_SIDE}.webp", Id::from_bytes(id))))
}

/// What the archive carries beyond tasks, added to the store through the
/// API, a second a write: people with photos and links, projects with
/// members and a status change, notes naming people and tags, PDFs in
/// folders, and deletions. What was added, in words.
fn add_records(org: &Organiser, clock: &ManualClock, dir: &Path) -> Result<String, String> {
    let tick = || clock.advance(SignedDuration::from_secs(1));
    let mut rng = Rng(0x7EA5_0000_0000_0003);
    const PEOPLE: usize = 200;
    let mut people: Vec<(String, String)> = Vec::with_capacity(PEOPLE);
    for i in 0..PEOPLE {
        tick();
        let (first, last) = (FIRST[rng.below(FIRST.len())], LAST[rng.below(LAST.len())]);
        let name = format!("{first} {last}");
        let photo = org
            .uploads()
            .create(
                organiser::uploads::UploadKind::Avatar,
                &format!("{first}.jpg"),
                "image/jpeg",
                jpeg(128, rng.next()),
            )
            .map_err(|e| format!("avatar {i}: {e}"))?;
        tick();
        let person = call(
            org,
            &request(
                Method::Post,
                "/people",
                json!({"person": {
                    "name": name,
                    "avatar": photo.signed_id,
                    "relationships": [LINK_KINDS[i % 3]],
                    "email_addresses": [{
                        "address": format!("{}.{}@example.com", first.to_lowercase(), last.to_lowercase()),
                        "label": "home",
                    }],
                    "phone_numbers": [{"number": format!("+44 7700 9{:05}", i), "label": "mobile"}],
                    "key_dates": [{"kind": "birthday", "day": 1 + i % 28, "month": 1 + i % 12, "year": 1950 + i % 50}],
                }}),
            ),
            201,
        )
        .map_err(|e| format!("person {i}: {e}"))?;
        people.push((id_of(&person)?, name));
    }
    const LINKS: usize = 150;
    for i in 0..LINKS {
        tick();
        let other = (i + 1 + rng.below(PEOPLE - 1)) % PEOPLE;
        let other = if other == i { (i + 1) % PEOPLE } else { other };
        let response = org.handle(&request(
            Method::Post,
            "/person_links",
            json!({"person_link": {
                "person_id": people[i].0,
                "related_person_id": people[other].0,
                "kind": LINK_KINDS[i % 3],
            }}),
        ));
        if response.status != 201 && response.status != 422 {
            return Err(format!(
                "person link {i}: {} {}",
                response.status,
                response.json_value()
            ));
        }
    }
    const PROJECTS: usize = 20;
    let mut projects = Vec::with_capacity(PROJECTS);
    for p in 0..PROJECTS {
        tick();
        let project = call(
            org,
            &request(
                Method::Post,
                "/projects",
                json!({"project": {
                    "name": format!("{} {}", PROJECT_NAMES[p % PROJECT_NAMES.len()], 2026 + p / PROJECT_NAMES.len()),
                    "deadline_on": format!("2027-{:02}-15", 1 + p % 12),
                }}),
            ),
            201,
        )?;
        let id = id_of(&project)?;
        for k in 0..rng.between(2, 4) {
            tick();
            call(
                org,
                &request(
                    Method::Post,
                    "/project_members",
                    json!({"project_member": {"project_id": id, "person_id": people[(p * 7 + k * 13) % PEOPLE].0}}),
                ),
                201,
            )?;
        }
        tick();
        call(
            org,
            &request(
                Method::Patch,
                &format!("/projects/{id}"),
                json!({"project": {"status": STATUSES[p % 3]}}),
            ),
            200,
        )?;
        projects.push(id);
    }
    const NOTES: usize = 500;
    let mut note_ids = Vec::new();
    for n in 0..NOTES {
        tick();
        let (pid, pname) = &people[rng.zipf(PEOPLE)];
        let (qid, qname) = &people[rng.below(PEOPLE)];
        let tags: Vec<String> = (0..rng.between(1, 3))
            .map(|_| format!("#{}", NOTE_TAGS[rng.zipf(NOTE_TAGS.len())]))
            .collect();
        let body = format!(
            "<p>Talked with <span data-mention=\"{pid}\">@{pname}</span> about {} {}.</p>\
             <p>Next: ask <span data-mention=\"{qid}\">@{qname}</span> before {} {}</p>",
            OBJECTS[rng.below(OBJECTS.len())],
            ["today", "this week", "on the phone", "over lunch"][n % 4],
            ["Friday", "the weekend", "the end of the month"][n % 3],
            tags.join(" ")
        );
        let note = call(
            org,
            &request(
                Method::Post,
                "/notes",
                json!({"note": {"title": format!("Notes {}", n + 1), "body_html": body}}),
            ),
            201,
        )
        .map_err(|e| format!("note {n}: {e}"))?;
        note_ids.push(id_of(&note)?);
    }
    let mut folders = Vec::new();
    for area in ["Home", "Finance", "Health", "Car", "Work"] {
        tick();
        let parent = id_of(&call(
            org,
            &request(Method::Post, "/folders", json!({"folder": {"name": area}})),
            201,
        )?)?;
        folders.push(parent.clone());
        for sub in ["Invoices", "Letters"] {
            tick();
            folders.push(id_of(&call(
                org,
                &request(
                    Method::Post,
                    "/folders",
                    json!({"folder": {"name": sub, "parent_id": parent}}),
                ),
                201,
            )?)?);
        }
    }
    const DOCUMENTS: usize = 50;
    let mut thumbnails = Vec::new();
    for d in 0..DOCUMENTS {
        tick();
        let name = format!("Invoice {}.pdf", 1000 + d);
        let upload = org
            .uploads()
            .create(
                organiser::uploads::UploadKind::Document,
                &name,
                "application/pdf",
                pdf(&name),
            )
            .map_err(|e| format!("document {d}: {e}"))?;
        tick();
        let notes: Vec<&String> = if d % 5 == 0 {
            vec![&note_ids[d]]
        } else {
            Vec::new()
        };
        call(
            org,
            &request(
                Method::Post,
                "/documents",
                json!({"document": {
                    "upload": upload.signed_id,
                    "folder_id": folders[d % folders.len()],
                    "note_ids": notes,
                }}),
            ),
            201,
        )
        .map_err(|e| format!("document {d}: {e}"))?;
        thumbnails.push(thumbnail_path(dir, &upload.signed_id)?);
    }
    // Deletions: a few of the bench store's tasks and a person.
    let page = call(org, &get("/tasks", "limit=5")?, 200)?;
    let tasks: Vec<String> = page["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    for t in &tasks {
        tick();
        call(
            org,
            &request(Method::Delete, &format!("/tasks/{t}"), Value::Null),
            204,
        )?;
    }
    tick();
    call(
        org,
        &request(
            Method::Delete,
            &format!("/people/{}", people[PEOPLE - 1].0),
            Value::Null,
        ),
        204,
    )?;
    // The thumbnails render after the commit: every one in place before
    // the store is closed.
    let waiting = Instant::now();
    while !thumbnails.iter().all(|p| p.exists()) {
        if waiting.elapsed() > Duration::from_secs(60) {
            return Err("the documents' thumbnails are not in place after 60 s".to_owned());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(format!(
        "{PEOPLE} people with photos, up to {LINKS} person links, {PROJECTS} projects with members and a status change, {NOTES} notes, {} folders, {DOCUMENTS} PDFs; {} tasks and a person deleted",
        folders.len(),
        tasks.len()
    ))
}

// ---------------------------------------------------------------- the files to import

const FIRST: &[&str] = &[
    "Ada", "Alan", "Amélie", "Anna", "Ben", "Bob", "Carla", "Chen", "Chloé", "Dan", "David", "Eva",
    "Fatima", "Finn", "Grace", "Hana", "Hugo", "Ines", "Ivan", "Jack", "Jane", "João", "Karl",
    "Lena", "Liam", "Lucía", "Maya", "Mehmet", "Mia", "Noah", "Olga", "Omar", "Paul", "Priya",
    "Rosa", "Sam", "Sara", "Søren", "Tom", "Yuki", "Zoë",
];
const LAST: &[&str] = &[
    "Adams", "Baker", "Becker", "Brown", "Costa", "Dubois", "Evans", "Fischer", "García", "Hansen",
    "Ivanova", "Jensen", "Kowalski", "Lee", "Martin", "Müller", "Nakamura", "Novak", "O'Brien",
    "Patel", "Rossi", "Santos", "Schmidt", "Silva", "Smith", "Tanaka", "Taylor", "Nguyen",
    "Walker", "Wang", "Weber", "Wilson", "Yilmaz", "Zhang",
];
const COMPANIES: &[&str] = &[
    "Acme Inc.",
    "Globex",
    "Initech",
    "Umbrella Ltd",
    "Stark Industries",
    "Wayne Enterprises",
    "Hooli",
    "Vandelay Industries",
    "Cyberdyne",
    "Soylent Corp",
];
const TITLES: &[&str] = &[
    "Engineer",
    "Designer",
    "Product Manager",
    "Accountant",
    "Teacher",
    "Nurse",
    "Sales Director",
    "Consultant",
];
const DOMAINS: &[&str] = &["example.com", "mail.example", "post.example.org"];
/// Relationships and the roles of person links.
const LINK_KINDS: [&str; 3] = ["friend", "colleague", "sibling"];
/// The statuses the projects are changed to.
const STATUSES: [&str; 3] = ["active", "on_hold", "done"];
const PROJECT_NAMES: &[&str] = &[
    "Kitchen renovation",
    "Garden",
    "Wedding",
    "Tax return",
    "Website",
    "Move house",
    "Marathon",
    "Book club",
];
const NOTE_TAGS: &[&str] = &[
    "ideas", "home", "work", "family", "health", "money", "travel", "garden", "books", "later",
];
const VERBS: &[&str] = &[
    "Buy", "Call", "Email", "Fix", "Book", "Pay", "Renew", "Clean", "Write", "Read", "Plan",
    "Check", "Order", "Return", "Send", "Review", "Update", "Cancel", "Schedule", "Water",
];
const OBJECTS: &[&str] = &[
    "the dentist",
    "the car insurance",
    "milk and bread",
    "the boiler",
    "flights to Lisbon",
    "the electricity bill",
    "the passport",
    "the gutters",
    "a birthday card",
    "the quarterly report",
    "the landlord",
    "new running shoes",
    "the plants",
    "the tax form",
    "the bike tyres",
    "the library books",
    "the vet",
    "the team offsite",
    "the school forms",
    "the smoke alarm",
];
const PROJECTS: &[&str] = &[
    "Home",
    "Home.Garden",
    "Home.Groceries",
    "Home.Repairs",
    "Admin",
    "Admin.Taxes",
    "Work",
    "Work.Acme",
    "Work.Acme.Q3",
    "Work.Hiring",
    "Health",
    "Travel",
    "Travel.Lisbon",
    "Family",
    "Learning.Spanish",
    "Side.Website",
];
const TW_TAGS: &[&str] = &[
    "errands", "phone", "computer", "papers", "travel", "someday", "waiting", "next", "quick",
    "money", "kids", "car",
];
const RECURS: &[(&str, i64)] = &[
    ("daily", 1),
    ("weekly", 7),
    ("biweekly", 14),
    ("monthly", 30),
    ("quarterly", 91),
    ("annual", 365),
    ("weekdays", 1),
    ("2d", 2),
];

/// A UUID in its usual shape, from `rng`.
fn uuid(rng: &mut Rng) -> String {
    let (a, b) = (rng.next(), rng.next());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xFFFF,
        a & 0xFFF,
        0x8000 | (b >> 48) & 0x3FFF,
        b & 0xFFFF_FFFF_FFFF
    )
}

/// A vCard content line folded at 75 octets (a character never split).
fn folded(out: &mut String, line: &str) {
    let mut width = 0;
    for c in line.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
}

/// `n` vCard 3.0 cards as Google and Apple write them; how many have a
/// photo.
fn vcards(n: usize) -> (Vec<u8>, usize) {
    let mut rng = Rng(0x7CA2_0000_0000_0001);
    let mut out = String::with_capacity(n * 400);
    let mut photos = 0;
    for i in 0..n {
        let apple = rng.chance(0.4);
        let (first, last) = (FIRST[rng.zipf(FIRST.len())], LAST[rng.below(LAST.len())]);
        let lower = |s: &str| {
            s.to_lowercase()
                .chars()
                .filter(char::is_ascii_alphabetic)
                .collect::<String>()
        };
        let mut lines: Vec<String> = vec!["BEGIN:VCARD".into(), "VERSION:3.0".into()];
        if apple {
            lines.push("PRODID:-//Apple Inc.//macOS 14.4.1//EN".into());
        }
        lines.push(format!("N:{last};{first};;;"));
        lines.push(format!("FN:{first} {last}"));
        let (t, ty) = if apple {
            ("type", "type")
        } else {
            ("TYPE", "TYPE")
        };
        for e in 0..rng.between(1, 3) {
            let label = ["HOME", "WORK", "OTHER"][e];
            let pref = if apple && e == 0 { ";type=pref" } else { "" };
            lines.push(format!(
                "EMAIL;{t}=INTERNET;{ty}={label}{pref}:{}.{}{}@{}",
                lower(first),
                lower(last),
                if i % 7 == 0 {
                    format!("{i}")
                } else {
                    String::new()
                },
                DOMAINS[(i + e) % DOMAINS.len()]
            ));
        }
        for p in 0..rng.between(1, 3) {
            let label = ["CELL", "HOME", "WORK"][p];
            let number = if rng.chance(0.5) {
                format!("+44 7700 {:06}", rng.below(1_000_000))
            } else {
                format!("+1 (555) {:03}-{:04}", rng.below(1000), rng.below(10_000))
            };
            lines.push(format!(
                "TEL;{t}={label}{}:{number}",
                if apple { ";type=VOICE" } else { "" }
            ));
        }
        if rng.chance(0.7) {
            let (month, day) = (1 + rng.below(12), 1 + rng.below(28));
            lines.push(match rng.below(4) {
                0 => format!("BDAY:--{month:02}{day:02}"),
                1 if apple => format!("BDAY;X-APPLE-OMIT-YEAR=1604:1604-{month:02}-{day:02}"),
                1 => format!("BDAY:--{month:02}-{day:02}"),
                _ => format!("BDAY:{}-{month:02}-{day:02}", 1940 + rng.below(65)),
            });
        }
        if rng.chance(0.6) {
            lines.push(format!(
                "ORG:{};{}",
                COMPANIES[rng.zipf(COMPANIES.len())],
                ["Sales", "R&D", "Finance", ""][rng.below(4)]
            ));
            lines.push(format!("TITLE:{}", TITLES[rng.below(TITLES.len())]));
        }
        if rng.chance(0.3) {
            if apple {
                lines.push(format!(
                    "item1.URL;type=pref:https://{}.example.com/",
                    lower(first)
                ));
                lines.push("item1.X-ABLabel:_$!<HomePage>!$_".into());
            } else {
                lines.push(format!(
                    "URL:https://www.example.com/{}-{}",
                    lower(first),
                    lower(last)
                ));
            }
        }
        if i % 20 == 7 {
            photos += 1;
            let photo = STANDARD.encode(jpeg(64, rng.next()));
            lines.push(if apple {
                format!("PHOTO;ENCODING=b;TYPE=JPEG:{photo}")
            } else {
                format!("PHOTO;ENCODING=BASE64;TYPE=JPEG:{photo}")
            });
        }
        lines.push(format!("UID:{}", uuid(&mut rng).to_uppercase()));
        if apple {
            lines.push(format!(
                "X-ABUID:{}:ABPerson",
                uuid(&mut rng).to_uppercase()
            ));
        } else {
            lines.push("CATEGORIES:myContacts".into());
        }
        lines.push("END:VCARD".into());
        for l in &lines {
            folded(&mut out, l);
        }
    }
    (out.into_bytes(), photos)
}

/// Taskwarrior's way of writing an instant: `20261129T045930Z`.
fn tw_date(at: i64) -> Result<String, String> {
    Ok(Timestamp::from_second(at)
        .map_err(|e| e.to_string())?
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string())
}

/// `n` tasks as `task export` writes them (one JSON object a line inside
/// an array); what they are, in words.
fn taskwarrior(n: usize) -> Result<(Vec<u8>, String), String> {
    const DAY: i64 = 86_400;
    let now = now()?.as_second();
    let start = now - 3 * 365 * DAY;
    let mut rng = Rng(0x7A5C_0000_0000_0002);
    let mut tasks: Vec<Value> = Vec::with_capacity(n);
    let mut next_id = 1;
    let (mut series, mut tagged, mut annotated) = (0, 0, 0);
    let words = |rng: &mut Rng| {
        format!(
            "{} {}",
            VERBS[rng.zipf(VERBS.len())],
            OBJECTS[rng.below(OBJECTS.len())]
        )
    };
    while tasks.len() < n {
        let entry = start + rng.below((3 * 365 * DAY) as usize) as i64;
        let mut t = serde_json::Map::new();
        t.insert("uuid".into(), json!(uuid(&mut rng)));
        t.insert("entry".into(), json!(tw_date(entry)?));
        t.insert("description".into(), json!(words(&mut rng)));
        if rng.chance(0.85) {
            t.insert("project".into(), json!(PROJECTS[rng.zipf(PROJECTS.len())]));
        }
        // A recurring series: its template and up to three instances.
        if rng.chance(0.01) && tasks.len() + 4 <= n {
            series += 1;
            let (recur, days) = RECURS[rng.below(RECURS.len())];
            let due = now - rng.below(20) as i64 * DAY;
            let due = due - due % DAY;
            let instances = rng.between(1, 3);
            let parent = t["uuid"].as_str().unwrap_or_default().to_owned();
            t.insert("status".into(), json!("recurring"));
            t.insert("recur".into(), json!(recur));
            t.insert("rtype".into(), json!("periodic"));
            t.insert("due".into(), json!(tw_date(due)?));
            t.insert(
                "mask".into(),
                json!(
                    (0..instances)
                        .map(|k| if k + 1 < instances { '+' } else { '-' })
                        .collect::<String>()
                ),
            );
            t.insert("modified".into(), json!(tw_date(entry + DAY)?));
            t.insert("id".into(), json!(next_id));
            next_id += 1;
            t.insert("urgency".into(), json!(2.4 + rng.unit() * 10.0));
            let template = Value::Object(t.clone());
            tasks.push(template);
            for k in 0..instances {
                let mut c = t.clone();
                c.remove("mask");
                c.insert("uuid".into(), json!(uuid(&mut rng)));
                c.insert("parent".into(), json!(parent));
                c.insert("imask".into(), json!(k));
                c.insert("due".into(), json!(tw_date(due + k as i64 * days * DAY)?));
                if k + 1 < instances {
                    c.insert("status".into(), json!("completed"));
                    c.insert(
                        "end".into(),
                        json!(tw_date(due + k as i64 * days * DAY + 3600)?),
                    );
                    c.insert("id".into(), json!(0));
                } else {
                    c.insert("status".into(), json!("pending"));
                    c.insert("id".into(), json!(next_id));
                    next_id += 1;
                }
                tasks.push(Value::Object(c));
            }
            continue;
        }
        let roll = rng.unit();
        let status = if roll < 0.55 {
            "pending"
        } else if roll < 0.93 {
            "completed"
        } else if roll < 0.97 {
            "deleted"
        } else {
            "waiting"
        };
        t.insert("status".into(), json!(status));
        let modified = entry + rng.below((30 * DAY) as usize) as i64;
        t.insert("modified".into(), json!(tw_date(modified.min(now))?));
        if matches!(status, "completed" | "deleted") {
            t.insert("end".into(), json!(tw_date(modified.min(now))?));
            t.insert("id".into(), json!(0));
        } else {
            t.insert("id".into(), json!(next_id));
            next_id += 1;
        }
        if status == "waiting" {
            t.insert(
                "wait".into(),
                json!(tw_date(now + rng.between(1, 60) as i64 * DAY)?),
            );
        }
        if rng.chance(0.45) {
            let due = entry + rng.between(1, 120) as i64 * DAY;
            let due = if rng.chance(0.7) {
                due - due % DAY
            } else {
                due
            };
            t.insert("due".into(), json!(tw_date(due)?));
            if rng.chance(0.03) {
                // Taskwarrior deletes an open task once its `until`
                // passes: an open one's is still ahead.
                let until = if matches!(status, "pending" | "waiting") {
                    (due + 14 * DAY).max(now + rng.between(1, 90) as i64 * DAY)
                } else {
                    due + 14 * DAY
                };
                t.insert("until".into(), json!(tw_date(until)?));
            }
        }
        if rng.chance(0.15) {
            let at = entry + rng.between(1, 30) as i64 * DAY;
            t.insert("scheduled".into(), json!(tw_date(at - at % DAY)?));
        }
        if rng.chance(0.3) {
            t.insert("priority".into(), json!(["H", "M", "L"][rng.below(3)]));
        }
        if rng.chance(0.3) {
            tagged += 1;
            let tags: Vec<&str> = (0..rng.between(1, 3))
                .map(|_| TW_TAGS[rng.zipf(TW_TAGS.len())])
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            t.insert("tags".into(), json!(tags));
        }
        if rng.chance(0.1) {
            annotated += 1;
            let notes: Vec<Value> = (0..rng.between(1, 2))
                .map(|k| {
                    Ok(json!({
                        "entry": tw_date(entry + 60 * (k as i64 + 1))?,
                        "description": format!("{} first", words(&mut rng).to_lowercase()),
                    }))
                })
                .collect::<Result<_, String>>()?;
            t.insert("annotations".into(), Value::Array(notes));
        }
        t.insert(
            "urgency".into(),
            json!((rng.unit() * 15.0 * 1e4).round() / 1e4),
        );
        tasks.push(Value::Object(t));
    }
    let mut out = String::with_capacity(n * 330);
    out.push_str("[\n");
    for (i, t) in tasks.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str(&t.to_string());
    }
    out.push_str("\n]\n");
    Ok((
        out.into_bytes(),
        format!("{series} recurring series, {tagged} tagged, {annotated} annotated"),
    ))
}
