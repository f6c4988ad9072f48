//! Search (`GET /search`, document 1 "Search") on a store of every type
//! at once: 100,000 tasks in the Inbox, 50 task lists, projects and
//! people (open and closed), 10,000 notes of a few paragraphs, 5,000
//! people with an email address and a phone number each (accented names
//! among them), 2,000 projects (some with an external reference such as
//! `OPS-1234`) and 20,000 small PDF documents in 500 folders. Titles,
//! names and bodies are drawn from a vocabulary of about 3,000 English
//! words (a few accented: café, Zoë, Müller...) with a Zipf-like skew.
//! It measures, through `Organiser::handle` (the JSON the server answers),
//! in process, across all seven types (no `types`, the default limit of 5):
//!
//! - a one-word query, a common-ish whole word (at most 5 ms median);
//! - three-word queries (at most 5 ms each): three less common words of
//!   one task title, as someone who remembers it would type them, and
//!   the three common words that most task titles share (each of them in
//!   thousands of titles, all three in a few);
//! - misspelled queries, a word of 11 letters with a transposition and
//!   with two edits (at most 5 ms each);
//! - for reference (no target): a one-letter query (`a`), a two-letter
//!   prefix (`co`), phone digits (`555 01`) and an email-ish query;
//!
//! and, from a cold process, `organiser search QUERY` with the release
//! binary (at most 20 ms median; skipped when the binary has no `search`
//! command). It also reports the index's size on disk (the store file
//! compacted with the index, less the same file compacted without its six
//! tables), the time to rebuild the index from scratch when the store
//! opens (an open after `search_meta` was deleted, less a plain open of
//! the same store, median of `BENCH_REBUILD_RUNS`), the store's size and
//! the bench's peak memory (VmHWM).
//!
//! ```text
//! cargo bench --bench search
//! BENCH_REGENERATE=1 cargo bench --bench search     # build the store again
//! ```
//!
//! The store is generated once through the public API (typed calls, one
//! transaction per write, as an app would make them: the lists, folders,
//! people and projects in its first days, then three years of tasks,
//! closings, notes and documents on a `ManualClock` ending at [`NOW`]) by a
//! child process (this bench run with `--generate-store`, so that
//! generating leaves no memory behind in the measuring process), and kept
//! in `target/bench-search-100000` (with `bench-search.json` beside the
//! store describing it and the queries chosen from it); it is made again
//! when missing, when made by another generator or for other sizes, or
//! with `BENCH_REGENERATE=1`. The measurements run on a copy,
//! `target/bench-search-100000-run` (the store file copied, the files
//! under `files/` hard-linked), made afresh each run and removed once
//! the queries and the CLI are measured; the size and the rebuild then
//! work on a copy of their own (the disk holds the store and one copy at
//! a time), removed when done.
//!
//! Every read is timed as the first read after a commit (an untimed
//! `change_appearance` before each call), so no answer the core keeps for
//! a commit generation serves it. The run fails (exit code 1) when a
//! target is missed.
//!
//! Environment: `BENCH_TASKS` (default 100000), `BENCH_NOTES` (10000),
//! `BENCH_PEOPLE` (5000), `BENCH_PROJECTS` (2000), `BENCH_DOCUMENTS`
//! (20000), `BENCH_LISTS` (50), `BENCH_FOLDERS` (500, a multiple of 10),
//! `BENCH_RUNS` (runs of each query, default 200), `BENCH_CLI_RUNS` (30),
//! `BENCH_REBUILD_RUNS` (3), `BENCH_ONLY` (some of
//! `reads,cli,size,rebuild`; default all), `BENCH_QUERY` (only the
//! in-process queries holding this text, to profile one), `BENCH_GEN_DIR`
//! (generate there, then copy: for example `/dev/shm/x`, where a commit's
//! sync costs nothing), `BENCH_REGENERATE=1`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use jiff::civil::Date;
use organiser::{
    Auth, Field, Id, Organiser, account::AppearanceChange, clock::ManualClock,
    documents::DocumentInput, folders::FolderInput, list::Query, notes::NoteInput,
    people::PersonInput, projects::ProjectInput, search::SearchQuery, server::Method,
    server::Request, task_lists::TaskListInput, tasks::TaskInput, tasks::TaskQuery,
    tasks::TaskStatus,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    AREAS, DOC_KINDS, Rng, Row, SUBFOLDER_NAMES, SUBFOLDERS, Stats, bench_main, cli_command,
    copy_store, date_of, env_number, mib, options, organiser_binary, proc_status_kib, row,
    rows_table, run_cli, stats, store_size, target_dir, targets_verdict,
};

/// The instant the store's history ends at, and the clock of every
/// measurement (owner zone UTC).
const NOW: &str = "2026-10-14T09:30:00Z";
/// How far back the history goes.
const HISTORY_DAYS: i64 = 3 * 365;
/// The first days, when the lists, folders, people and projects are made.
const SETUP_DAYS: i64 = 20;
/// Targets (medians).
const TARGET_QUERY: Duration = Duration::from_millis(5);
const TARGET_CLI: Duration = Duration::from_millis(20);

/// The one-word query: a common-ish whole word of the vocabulary.
const ONE_WORD: &str = "garden";
/// The misspelled queries: a word of the vocabulary (11 letters) with a
/// transposition, and with two edits (a letter dropped, two swapped).
const MISSPELT_OF: &str = "appointment";
const MISSPELT: &str = "appiontment";
const MISSPELT_TWO: &str = "apointmnet";
/// The phone-digits query (most people have a number with these digits
/// somewhere in it: `+1 (212) 555-01xx`).
const PHONE_QUERY: &str = "555 01";

/// The index's tables in the store (`organiser-core/src/search/tables.rs`).
const SEARCH_TABLES: [&str; 6] = [
    "search_terms",
    "search_docs",
    "search_order",
    "search_counts",
    "search_fresh",
    "search_meta",
];

const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;

/// The file beside the store that describes it (and says it is complete).
const META_FILE: &str = "bench-search.json";
/// Bumped when the generator changes, so older stores are made again.
const META_FORMAT: u64 = 2;

/// Run as a child with this argument, the bench only generates the store:
/// the generating process's memory then stays out of the measuring one's.
const GENERATE_ARG: &str = "--generate-store";

fn main() -> ExitCode {
    bench_main("search", |args| {
        if args.iter().any(|arg| arg == GENERATE_ARG) {
            Settings::read().and_then(|settings| build_store(&settings))
        } else {
            run()
        }
    })
}

// ---------------------------------------------------------------- settings

struct Settings {
    /// The parts to measure (`BENCH_ONLY`): reads, cli, size, rebuild.
    only: Vec<String>,
    /// Only the queries holding this (`BENCH_QUERY`), to profile one.
    query: Option<String>,
    sizes: Sizes,
    runs: usize,
    cli_runs: usize,
    rebuild_runs: usize,
    store_dir: PathBuf,
    gen_dir: Option<PathBuf>,
    regenerate: bool,
    target_dir: PathBuf,
}

/// How many records of each type the store holds.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sizes {
    tasks: usize,
    notes: usize,
    people: usize,
    projects: usize,
    documents: usize,
    lists: usize,
    folders: usize,
}

impl Sizes {
    fn to_json(self) -> Value {
        json!({
            "tasks": self.tasks,
            "notes": self.notes,
            "people": self.people,
            "projects": self.projects,
            "documents": self.documents,
            "lists": self.lists,
            "folders": self.folders,
        })
    }

    fn from_json(v: &Value) -> Option<Sizes> {
        let n = |k: &str| v[k].as_u64().and_then(|n| usize::try_from(n).ok());
        Some(Sizes {
            tasks: n("tasks")?,
            notes: n("notes")?,
            people: n("people")?,
            projects: n("projects")?,
            documents: n("documents")?,
            lists: n("lists")?,
            folders: n("folders")?,
        })
    }

    fn summary(self) -> String {
        format!(
            "{} tasks, {} task lists, {} notes, {} people, {} projects, {} documents, {} folders",
            self.tasks,
            self.lists,
            self.notes,
            self.people,
            self.projects,
            self.documents,
            self.folders
        )
    }
}

impl Settings {
    fn read() -> Result<Settings, String> {
        let sizes = Sizes {
            tasks: env_number("BENCH_TASKS", 100_000)?.max(1),
            notes: env_number("BENCH_NOTES", 10_000)?.max(1),
            people: env_number("BENCH_PEOPLE", 5_000)?.max(1),
            projects: env_number("BENCH_PROJECTS", 2_000)?.max(1),
            documents: env_number("BENCH_DOCUMENTS", 20_000)?.max(1),
            lists: env_number("BENCH_LISTS", 50)?.max(1),
            folders: env_number("BENCH_FOLDERS", 500)?,
        };
        if sizes.folders == 0 || !sizes.folders.is_multiple_of(SUBFOLDERS + 1) {
            return Err(format!(
                "BENCH_FOLDERS: {} is not a positive multiple of {}",
                sizes.folders,
                SUBFOLDERS + 1
            ));
        }
        let target_dir = target_dir()?;
        Ok(Settings {
            only: std::env::var("BENCH_ONLY")
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
            query: std::env::var("BENCH_QUERY").ok().filter(|q| !q.is_empty()),
            sizes,
            runs: env_number("BENCH_RUNS", 200)?.max(1),
            cli_runs: env_number("BENCH_CLI_RUNS", 30)?.max(1),
            rebuild_runs: env_number("BENCH_REBUILD_RUNS", 3)?.max(1),
            store_dir: target_dir.join(format!("bench-search-{}", sizes.tasks)),
            gen_dir: std::env::var_os("BENCH_GEN_DIR")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
            target_dir,
        })
    }

    fn wants(&self, part: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|p| p == part)
    }

    /// A directory beside the store, `bench-search-<tasks>-<what>`.
    fn beside(&self, what: &str) -> PathBuf {
        self.target_dir
            .join(format!("bench-search-{}-{what}", self.sizes.tasks))
    }
}

// ---------------------------------------------------------------- the run

fn run() -> Result<(), String> {
    let settings = Settings::read()?;
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    println!(
        "search: {}; now = {NOW}, store in {}",
        settings.sizes.summary(),
        settings.store_dir.display()
    );
    let meta = ensure_store(&settings)?;
    let (store_bytes, files_bytes, files) = store_size(&settings.store_dir);
    println!(
        "store: {} store file and {} in {files} files, generated in {:.1} s ({} writes)",
        mib(store_bytes),
        mib(files_bytes),
        meta.generation_secs,
        meta.writes
    );
    println!("  {}", meta.summary());

    // The measurements run on a copy of the store.
    let run_dir = settings.beside("run");
    remove_dir(&run_dir)?;
    copy_store(&settings.store_dir, &run_dir, META_FILE)?;

    let mut rows = Vec::new();
    let mut figures = Figures::default();
    if settings.wants("reads") {
        let org = Organiser::open_with(&run_dir, options(ManualClock::new(now)))
            .map_err(|e| format!("open {}: {e}", run_dir.display()))?;
        measure_queries(&org, &settings, &meta, &mut rows)?;
    }
    figures.reads_peak_kib = proc_status_kib("VmHWM");
    if settings.wants("cli") {
        figures.cli = measure_cli(&settings, &run_dir, &meta, &mut rows)?;
    }
    // The disk holds the store and one copy at a time.
    remove_dir(&run_dir)?;
    if settings.wants("size") {
        figures.size = Some(index_size(&settings)?);
    }
    if settings.wants("rebuild") {
        figures.rebuild = Some(measure_rebuild(&settings, &meta, now)?);
    }
    figures.peak_kib = proc_status_kib("VmHWM");
    let missed = report(
        &settings,
        &meta,
        (store_bytes, files_bytes, files),
        &rows,
        &figures,
    );
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

fn remove_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
    }
    Ok(())
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

// ---------------------------------------------------------------- the queries

/// `GET /search?q=QUERY` (every type, the default limit).
fn search_get(q: &str) -> Request {
    Request::new(Method::Get, "/search", Auth::Local).with_query(Query::from_pairs(vec![("q", q)]))
}

/// Times `request` `runs` times, each the first read after a commit.
fn time_read(org: &Organiser, request: &Request, runs: usize) -> Stats {
    let warmup = (runs / 10).max(5);
    let mut samples = Vec::with_capacity(runs);
    for n in 0..warmup + runs {
        org.account()
            .change_appearance(AppearanceChange::default())
            .expect("a commit");
        let start = Instant::now();
        std::hint::black_box(org.handle(request));
        let took = start.elapsed();
        if n >= warmup {
            samples.push(took);
        }
    }
    stats(samples)
}

/// What the groups of an answer hold: `5+` for a full group with more.
fn groups_summary(answer: &Value) -> String {
    let groups = answer["data"].as_array().cloned().unwrap_or_default();
    groups
        .iter()
        .map(|g| {
            let n = g["results"].as_array().map_or(0, Vec::len);
            let more = if g["has_more"].as_bool() == Some(true) {
                "+"
            } else {
                ""
            };
            let kind = g["type"]
                .as_str()
                .unwrap_or("?")
                .replace("task_list", "list");
            format!("{kind} {n}{more}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The results of the `kind` group of an answer.
fn group_len(answer: &Value, kind: &str) -> usize {
    answer["data"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|g| g["type"] == kind)
        .and_then(|g| g["results"].as_array())
        .map_or(0, Vec::len)
}

/// The queries measured: what, the query, the group that must not be
/// empty, and whether it has a target.
fn queries(meta: &Meta) -> Vec<(String, String, Option<&'static str>, bool)> {
    vec![
        ("one word".into(), meta.one_word.clone(), Some("task"), true),
        (
            "three less common words of a task title".into(),
            meta.three_words.clone(),
            Some("task"),
            true,
        ),
        (
            "the three common words most task titles share".into(),
            meta.common_three_words.clone(),
            Some("task"),
            true,
        ),
        (
            format!("{MISSPELT_OF} misspelled, a transposition"),
            MISSPELT.into(),
            Some("task"),
            true,
        ),
        (
            format!("{MISSPELT_OF} misspelled, two edits"),
            MISSPELT_TWO.into(),
            Some("task"),
            true,
        ),
        ("one letter".into(), "a".into(), Some("task"), false),
        ("two-letter prefix".into(), "co".into(), Some("task"), false),
        (
            "phone digits".into(),
            PHONE_QUERY.into(),
            Some("person"),
            false,
        ),
        (
            "email-ish".into(),
            meta.email_query.clone(),
            Some("person"),
            false,
        ),
    ]
}

fn measure_queries(
    org: &Organiser,
    settings: &Settings,
    meta: &Meta,
    rows: &mut Vec<Row>,
) -> Result<(), String> {
    let runs = settings.runs;
    println!(
        "\nin-process, handle(&Request), every type, limit 5; {runs} runs each, median / p90:"
    );
    for (what, q, must_find, targeted) in queries(meta) {
        if !settings
            .query
            .as_ref()
            .is_none_or(|only| q.contains(only.as_str()))
        {
            continue;
        }
        let request = search_get(&q);
        let response = org.handle(&request);
        if response.status != 200 {
            return Err(format!(
                "GET /search?q={q} answered {}: {}",
                response.status,
                response.json_value()
            ));
        }
        let answer = response.json_value();
        if let Some(kind) = must_find
            && group_len(&answer, kind) == 0
        {
            return Err(format!(
                "q={q:?} ({what}) finds no {kind}: {}",
                groups_summary(&answer)
            ));
        }
        let bytes = response.body.as_ref().map_or(0, Vec::len);
        rows.push(row(
            format!("GET /search?q={q}: {what}"),
            time_read(org, &request, runs),
            targeted.then_some(TARGET_QUERY),
            format!("{}; {bytes} B", groups_summary(&answer)),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- the CLI

#[derive(Default)]
struct Figures {
    /// Why the CLI was not measured, if it was not.
    cli: Option<String>,
    size: Option<SizeFigures>,
    rebuild: Option<RebuildFigures>,
    reads_peak_kib: Option<u64>,
    peak_kib: Option<u64>,
}

/// `organiser search QUERY` from a cold process, on the run copy; `Some`
/// (why) when it was skipped.
fn measure_cli(
    settings: &Settings,
    dir: &Path,
    meta: &Meta,
    rows: &mut Vec<Row>,
) -> Result<Option<String>, String> {
    let binary = organiser_binary()?;
    let runs = settings.cli_runs;
    let help = cli_command(&binary, dir, Some(NOW), &["search", "--help"])
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    if !help.status.success() {
        let why = format!(
            "skipped: `{} search --help` failed (no `organiser search` command in this build)",
            binary.display()
        );
        println!("\nthe CLI: {why}");
        return Ok(Some(why));
    }
    println!(
        "\nthe CLI, a new process per run ({}), {runs} runs each:",
        binary.display()
    );
    let cases: [(String, Vec<&str>, Option<Duration>); 5] = [
        (
            format!("organiser search {}", meta.one_word),
            vec!["search", &meta.one_word],
            Some(TARGET_CLI),
        ),
        (
            format!("organiser search {MISSPELT}"),
            vec!["search", MISSPELT],
            None,
        ),
        (
            format!("organiser search {}", meta.three_words),
            std::iter::once("search")
                .chain(meta.three_words.split_whitespace())
                .collect(),
            None,
        ),
        (
            format!("organiser search {}", meta.common_three_words),
            std::iter::once("search")
                .chain(meta.common_three_words.split_whitespace())
                .collect(),
            None,
        ),
        (
            "organiser --version (process start, no store)".to_owned(),
            vec!["--version"],
            None,
        ),
    ];
    for (name, args, target) in cases {
        run_cli(&binary, dir, Some(NOW), &args)?;
        let mut samples = Vec::with_capacity(runs);
        for _ in 0..runs {
            samples.push(run_cli(&binary, dir, Some(NOW), &args)?);
        }
        rows.push(row(
            name,
            stats(samples),
            target,
            "a cold process, wall time, stdout to /dev/null".to_owned(),
        ));
    }
    Ok(None)
}

// ---------------------------------------------------------------- the index's size

struct SizeFigures {
    /// The store file as kept.
    file: u64,
    /// Compacted, with the index.
    with: u64,
    /// Compacted, without the index's tables.
    without: u64,
}

type RawTable = redb::TableDefinition<'static, &'static [u8], &'static [u8]>;

/// Deletes the tables named `names` of the store file `file`, in one
/// write transaction.
fn delete_tables(file: &Path, names: &[&'static str]) -> Result<(), String> {
    let db = redb::Database::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let tx = db.begin_write().map_err(|e| e.to_string())?;
    for name in names {
        tx.delete_table(RawTable::new(name))
            .map_err(|e| format!("delete {name}: {e}"))?;
    }
    tx.commit().map_err(|e| e.to_string())
}

/// Compacts the store file `file` (as `organiser compact` does); its size.
fn compact(file: &Path) -> Result<u64, String> {
    let mut db = redb::Database::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    while db
        .compact()
        .map_err(|e| format!("compact {}: {e}", file.display()))?
    {}
    drop(db);
    Ok(file_size(file))
}

fn index_size(settings: &Settings) -> Result<SizeFigures, String> {
    let dir = settings.beside("size");
    remove_dir(&dir)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let kept = settings.store_dir.join(organiser::data::STORE_FILE);
    // One copy: compacted, then compacted again without the index.
    let copy = dir.join(organiser::data::STORE_FILE);
    std::fs::copy(&kept, &copy).map_err(|e| format!("copy to {}: {e}", copy.display()))?;
    let started = Instant::now();
    let with = compact(&copy)?;
    delete_tables(&copy, &SEARCH_TABLES)?;
    let figures = SizeFigures {
        file: file_size(&kept),
        with,
        without: compact(&copy)?,
    };
    println!(
        "\nindex size: {} ({} compacted with the index, {} without; {:.1} s)",
        mib(figures.with.saturating_sub(figures.without)),
        mib(figures.with),
        mib(figures.without),
        started.elapsed().as_secs_f64()
    );
    remove_dir(&dir)?;
    Ok(figures)
}

// ---------------------------------------------------------------- the rebuild

struct RebuildFigures {
    /// Opens that rebuilt the index.
    rebuild: Vec<Duration>,
    /// Plain opens of the same store.
    plain: Vec<Duration>,
}

impl RebuildFigures {
    fn median(v: &[Duration]) -> Duration {
        stats(v.to_vec()).median
    }

    /// Each run's rebuild less its plain open: the median.
    fn difference(&self) -> Duration {
        let diffs: Vec<Duration> = self
            .rebuild
            .iter()
            .zip(&self.plain)
            .map(|(r, p)| r.saturating_sub(*p))
            .collect();
        Self::median(&diffs)
    }
}

/// The result titles of the typed search for `q`.
fn titles(org: &Organiser, q: &str) -> Result<Vec<String>, String> {
    Ok(org
        .search()
        .find(&SearchQuery::new(q))
        .map_err(|e| format!("search {q:?}: {e}"))?
        .into_iter()
        .flat_map(|g| g.results)
        .map(|r| r.title)
        .collect())
}

fn measure_rebuild(
    settings: &Settings,
    meta: &Meta,
    now: Timestamp,
) -> Result<RebuildFigures, String> {
    let dir = settings.beside("rebuild");
    let file = dir.join(organiser::data::STORE_FILE);
    let open = |what: &str| -> Result<(Organiser, Duration), String> {
        let start = Instant::now();
        let org = Organiser::open_with(&dir, options(ManualClock::new(now)))
            .map_err(|e| format!("open {} ({what}): {e}", dir.display()))?;
        Ok((org, start.elapsed()))
    };
    println!(
        "\nthe index rebuilt when the store opens, {} runs:",
        settings.rebuild_runs
    );
    let mut figures = RebuildFigures {
        rebuild: Vec::new(),
        plain: Vec::new(),
    };
    for n in 0..settings.rebuild_runs {
        remove_dir(&dir)?;
        copy_store(&settings.store_dir, &dir, META_FILE)?;
        let (org, plain) = open("intact")?;
        let before = titles(&org, &meta.one_word)?;
        drop(org);
        delete_tables(&file, &["search_meta"])?;
        let (org, rebuilt) = open("search_meta deleted")?;
        let after = titles(&org, &meta.one_word)?;
        drop(org);
        if before != after {
            return Err(format!(
                "after the rebuild, {:?} finds {after:?}, not {before:?}",
                meta.one_word
            ));
        }
        println!(
            "  run {}: open with the rebuild {:.2} s, plain open {:.3} s",
            n + 1,
            rebuilt.as_secs_f64(),
            plain.as_secs_f64()
        );
        figures.rebuild.push(rebuilt);
        figures.plain.push(plain);
    }
    remove_dir(&dir)?;
    Ok(figures)
}

// ---------------------------------------------------------------- report

/// Prints the table; the number of targets missed.
fn report(
    settings: &Settings,
    meta: &Meta,
    (store_bytes, files_bytes, files): (u64, u64, usize),
    rows: &[Row],
    figures: &Figures,
) -> usize {
    let mut out = String::new();
    let _ = writeln!(out, "\n## Search on {}\n", settings.sizes.summary());
    let _ = writeln!(
        out,
        "{}. Store: {} store file and {} in {files} files (PDFs and thumbnails), generated in {:.1} s ({} writes). Queries: {} runs each; the CLI: {} runs each.\n",
        meta.summary(),
        mib(store_bytes),
        mib(files_bytes),
        meta.generation_secs,
        meta.writes,
        settings.runs,
        settings.cli_runs
    );
    let missed = rows_table(&mut out, rows);
    let _ = writeln!(out);
    if let Some(why) = &figures.cli {
        let _ = writeln!(out, "- `organiser search`: {why}");
    }
    if let Some(s) = &figures.size {
        let _ = writeln!(
            out,
            "- the index on disk: **{}** (the store file compacted: {} with the index, {} without its six tables; the store file as kept {})",
            mib(s.with.saturating_sub(s.without)),
            mib(s.with),
            mib(s.without),
            mib(s.file)
        );
    }
    if let Some(r) = &figures.rebuild {
        let _ = writeln!(
            out,
            "- rebuilding the index when the store opens (`search_meta` deleted): **{:.2} s** (median of {} runs of the open with the rebuild, less a plain open of the same store: {:.2} s and {:.3} s)",
            r.difference().as_secs_f64(),
            r.rebuild.len(),
            RebuildFigures::median(&r.rebuild).as_secs_f64(),
            RebuildFigures::median(&r.plain).as_secs_f64()
        );
    }
    let kib = |k: Option<u64>| {
        k.map_or("unknown".to_owned(), |k| {
            format!("{:.1} MiB", k as f64 / 1024.0)
        })
    };
    let _ = writeln!(
        out,
        "- peak memory of the bench process (VmHWM; generation runs in a child): {} after the queries, {} at the end (compactions and rebuilds included); the generating child: {}",
        kib(figures.reads_peak_kib),
        kib(figures.peak_kib),
        kib(meta.generation_peak_kib)
    );
    let _ = writeln!(out, "\n{}", targets_verdict(missed));
    print!("{out}");
    missed
}

// ---------------------------------------------------------------- the store's description

/// What a generated store holds, kept beside it in [`META_FILE`].
struct Meta {
    sizes: Sizes,
    generation_secs: f64,
    generation_peak_kib: Option<u64>,
    writes: usize,
    /// The queries chosen from the generated text.
    one_word: String,
    three_words: String,
    common_three_words: String,
    email_query: String,
    figures: Value,
}

impl Meta {
    fn to_json(&self) -> Value {
        json!({
            "format": META_FORMAT,
            "now": NOW,
            "sizes": self.sizes.to_json(),
            "generation_secs": self.generation_secs,
            "generation_peak_kib": self.generation_peak_kib,
            "writes": self.writes,
            "one_word": self.one_word,
            "three_words": self.three_words,
            "common_three_words": self.common_three_words,
            "email_query": self.email_query,
            "figures": self.figures,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        if v["format"].as_u64() != Some(META_FORMAT) || v["now"].as_str() != Some(NOW) {
            return None;
        }
        Some(Meta {
            sizes: Sizes::from_json(&v["sizes"])?,
            generation_secs: v["generation_secs"].as_f64()?,
            generation_peak_kib: v["generation_peak_kib"].as_u64(),
            writes: usize::try_from(v["writes"].as_u64()?).ok()?,
            one_word: v["one_word"].as_str()?.to_owned(),
            three_words: v["three_words"].as_str()?.to_owned(),
            common_three_words: v["common_three_words"].as_str()?.to_owned(),
            email_query: v["email_query"].as_str()?.to_owned(),
            figures: v["figures"].clone(),
        })
    }

    fn summary(&self) -> String {
        let f = &self.figures;
        format!(
            "{} open and {} closed tasks ({} in the Inbox, {} in lists, {} in projects, {} with people), \
             task titles of {} words on average; {} open and {} closed projects ({} with an external reference); \
             notes of {} characters of text on average; a vocabulary of {} words; \
             {:?} in {} task titles, {:?} all in {}, {:?} all in {}, {:?} in {}; {} people with the digits {:?}",
            f["tasks_open"],
            f["tasks_closed"],
            f["homes"]["inbox"],
            f["homes"]["list"],
            f["homes"]["project"],
            f["homes"]["person"],
            f["title_words_mean"],
            f["projects_open"],
            f["projects_closed"],
            f["projects_referenced"],
            f["note_text_chars_mean"],
            f["vocabulary"],
            self.one_word,
            f["one_word_titles"],
            self.three_words,
            f["three_words_titles"],
            self.common_three_words,
            f["common_three_words_titles"],
            MISSPELT_OF,
            f["misspelt_of_titles"],
            f["phone_query_people"],
            PHONE_QUERY,
        )
    }
}

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
        .filter(|m| m.sizes == settings.sizes)
}

/// The store's description, generating the store first (in a child process
/// running this bench with [`GENERATE_ARG`]) when it is missing, was made
/// for other settings or by another generator, or `BENCH_REGENERATE=1`.
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
    cached(settings).ok_or_else(|| format!("the generated store has no {META_FILE}"))
}

/// Generates the store (in `BENCH_GEN_DIR` when set, then copied) and
/// writes its description.
fn build_store(settings: &Settings) -> Result<(), String> {
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    remove_dir(&settings.store_dir)?;
    let gen_dir = settings
        .gen_dir
        .clone()
        .unwrap_or_else(|| settings.store_dir.clone());
    remove_dir(&gen_dir)?;
    let mut meta = generate(&gen_dir, settings.sizes, now)?;
    if gen_dir != settings.store_dir {
        let start = Instant::now();
        copy_store(&gen_dir, &settings.store_dir, META_FILE)?;
        remove_dir(&gen_dir)?;
        println!(
            "store: copied to {} in {:.1} s",
            settings.store_dir.display(),
            start.elapsed().as_secs_f64()
        );
    }
    meta.generation_peak_kib = proc_status_kib("VmHWM");
    let path = settings.store_dir.join(META_FILE);
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&meta.to_json()).unwrap_or_default(),
    )
    .map_err(|e| format!("write {}: {e}", path.display()))
}

// ---------------------------------------------------------------- the plan

/// Where a task lives.
#[derive(Clone, Copy)]
enum Home {
    Inbox,
    List(usize),
    Project(usize),
    Person(usize),
}

struct TaskPlan {
    at: i64,
    title: String,
    home: Home,
    deadline: Option<Date>,
    close: Option<(i64, TaskStatus)>,
}

struct PersonPlan {
    name: String,
    email: String,
    phones: Vec<String>,
}

struct ProjectPlan {
    name: String,
    status: &'static str,
    reference: Option<String>,
}

struct NotePlan {
    at: i64,
    title: Option<String>,
    /// Its body comes from its own seed.
    seed: u64,
}

struct DocumentPlan {
    at: i64,
    name: String,
    filename: String,
    folder: Option<usize>,
    bytes: usize,
    seed: u64,
}

/// Everything the store holds, before it is written.
struct Plan {
    lists: Vec<String>,
    /// Each folder's name and parent (an index of an earlier one).
    folders: Vec<(String, Option<usize>)>,
    people: Vec<PersonPlan>,
    projects: Vec<ProjectPlan>,
    tasks: Vec<TaskPlan>,
    notes: Vec<NotePlan>,
    documents: Vec<DocumentPlan>,
}

fn plus_days(d: Date, days: i64) -> Date {
    d.checked_add(jiff::Span::new().days(days)).expect("a date")
}

/// Exponential with this mean.
fn exp(rng: &mut Rng, mean: f64) -> f64 {
    -mean * (1.0 - rng.unit()).ln()
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The vocabulary, commonest first.
fn vocabulary() -> &'static [&'static str] {
    static LIST: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut seen = HashSet::new();
        VOCABULARY
            .split_whitespace()
            .filter(|w| seen.insert(*w))
            .collect()
    });
    &LIST
}

/// A word of the vocabulary, Zipf-weighted.
fn word(rng: &mut Rng) -> &'static str {
    let words = vocabulary();
    words[rng.zipf(words.len())]
}

/// `n` words of the vocabulary, none the same as the one before it.
fn words(rng: &mut Rng, n: usize) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::with_capacity(n);
    while out.len() < n {
        let w = word(rng);
        if out.last() != Some(&w) {
            out.push(w);
        }
    }
    out
}

/// `text`'s words as search would see them, near enough (lower case, split
/// at what is not a letter or digit).
fn title_words(text: &str) -> HashSet<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// `name` in ASCII, as an email address spells it.
fn ascii(name: &str) -> String {
    name.chars()
        .flat_map(|c| {
            let s: &str = match c {
                'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ą' => "a",
                'ç' | 'ć' | 'č' => "c",
                'é' | 'è' | 'ê' | 'ë' | 'ę' | 'ě' => "e",
                'í' | 'ì' | 'î' | 'ï' => "i",
                'ñ' | 'ń' => "n",
                'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' => "o",
                'ú' | 'ù' | 'û' | 'ü' | 'ů' => "u",
                'ý' | 'ÿ' => "y",
                'ł' => "l",
                'ś' | 'š' => "s",
                'ž' | 'ź' | 'ż' => "z",
                'ř' => "r",
                'ğ' => "g",
                'ß' => "ss",
                'æ' => "ae",
                '\'' | ' ' | '-' => "",
                _ => "",
            };
            if s.is_empty() && c.is_ascii_alphanumeric() {
                vec![c.to_ascii_lowercase()]
            } else {
                s.chars().collect()
            }
        })
        .collect()
}

fn plan(sizes: Sizes, now: Timestamp) -> Plan {
    let mut rng = Rng(0x5EA2_C400_0000_0001);
    let now_ms = now.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let work_start = t0 + SETUP_DAYS * DAY;
    // More lately than three years ago (density grows linearly).
    let when = |rng: &mut Rng| {
        work_start + (rng.unit().sqrt() * (now_ms - work_start - 2 * MINUTE) as f64) as i64
    };

    let lists: Vec<String> = (0..sizes.lists)
        .map(|i| {
            let base = LIST_WORDS[i % LIST_WORDS.len()];
            match i / LIST_WORDS.len() {
                0 => base.to_owned(),
                round => format!(
                    "{base} {}",
                    LIST_SUFFIXES[(round - 1) % LIST_SUFFIXES.len()]
                ),
            }
        })
        .collect();

    let mut folders = Vec::with_capacity(sizes.folders);
    for t in 0..sizes.folders / (SUBFOLDERS + 1) {
        let parent = folders.len();
        folders.push((
            format!("{} {}", AREAS[t % AREAS.len()], 2020 + t / AREAS.len()),
            None,
        ));
        for sub in SUBFOLDER_NAMES {
            folders.push((sub.to_owned(), Some(parent)));
        }
    }

    let people: Vec<PersonPlan> = (0..sizes.people)
        .map(|i| {
            let first = FIRST[rng.zipf(FIRST.len())];
            let last = LAST[rng.below(LAST.len())];
            let name = if rng.chance(0.1) {
                let initial = (b'A' + rng.below(26) as u8) as char;
                format!("{first} {initial}. {last}")
            } else {
                format!("{first} {last}")
            };
            let (f, l) = (ascii(first), ascii(last));
            let local = match rng.below(20) {
                0..=11 => format!("{f}.{l}"),
                12..=16 => format!("{f}.{l}{}", 1 + rng.below(99)),
                _ => format!("{}{l}", f.chars().next().unwrap_or('x')),
            };
            let domain = DOMAINS[(i + rng.below(DOMAINS.len())) % DOMAINS.len()];
            let phone = |rng: &mut Rng| match rng.below(20) {
                0..=6 => format!("+44 7700 900{:03}", rng.below(1000)),
                7..=11 => format!("+1 (212) 555-01{:02}", rng.below(100)),
                12..=15 => format!("020 7946 0{:03}", rng.below(1000)),
                _ => format!(
                    "+33 6 {:02} {:02} {:02} {:02}",
                    rng.below(100),
                    rng.below(100),
                    rng.below(100),
                    rng.below(100)
                ),
            };
            let mut phones = vec![phone(&mut rng)];
            if rng.chance(0.3) {
                phones.push(phone(&mut rng));
            }
            PersonPlan {
                name,
                email: format!("{local}@{domain}"),
                phones,
            }
        })
        .collect();

    // Project names are unique (ignoring case).
    let mut project_names: HashSet<String> = HashSet::new();
    let projects: Vec<ProjectPlan> = (0..sizes.projects)
        .map(|_| {
            let name = loop {
                let n = rng.between(2, 4);
                let name = capitalised(&words(&mut rng, n).join(" "));
                if project_names.insert(name.to_lowercase()) {
                    break name;
                }
            };
            let status = match rng.below(20) {
                0..=2 => "planned",
                3..=10 => "active",
                11..=12 => "on_hold",
                13..=18 => "done",
                _ => "cancelled",
            };
            let reference = rng.chance(0.35).then(|| {
                format!(
                    "{}-{}",
                    pick(&mut rng, REFERENCE_PREFIXES),
                    100 + rng.below(9900)
                )
            });
            ProjectPlan {
                name,
                status,
                reference,
            }
        })
        .collect();

    let mut tasks: Vec<TaskPlan> = (0..sizes.tasks)
        .map(|_| {
            let at = when(&mut rng);
            let age_days = (now_ms - at) as f64 / DAY as f64;
            // A verb and 1 to 7 words: 2 to 8 words, 3 to 5 most often.
            let n = match rng.below(20) {
                0..=1 => 1,
                2..=6 => 2,
                7..=11 => 3,
                12..=15 => 4,
                16..=17 => 5,
                18 => 6,
                _ => rng.between(6, 7),
            };
            let mut title = format!(
                "{} {}",
                VERBS[rng.zipf(VERBS.len())],
                words(&mut rng, n).join(" ")
            );
            // Sometimes someone to do it with, or a number: still at most 8
            // words.
            if n <= 5 && rng.chance(0.06) {
                let _ = write!(title, " with {}", FIRST[rng.zipf(FIRST.len())]);
            } else if n <= 6 && rng.chance(0.04) {
                let _ = write!(title, " #{}", 100 + rng.below(9900));
            }
            let home = match rng.below(20) {
                0..=1 => Home::Inbox,
                2..=12 => Home::List(rng.zipf(sizes.lists)),
                13..=16 => Home::Project(rng.below(sizes.projects)),
                _ => Home::Person(rng.zipf(sizes.people)),
            };
            let deadline = rng
                .chance(0.3)
                .then(|| plus_days(date_of(at), exp(&mut rng, 10.0) as i64 + 1));
            // Whether it is still open now: recent tasks mostly are.
            let p_open = 0.12 + 0.9 * (-age_days / 120.0).exp();
            let close = if rng.chance(p_open.min(0.97)) {
                None
            } else {
                let delay = exp(&mut rng, 12.0 * DAY as f64) as i64;
                let closed = (at + MINUTE + delay).min(now_ms - MINUTE);
                let status = match rng.below(25) {
                    0..=20 => TaskStatus::Completed,
                    21..=22 => TaskStatus::WontDo,
                    _ => TaskStatus::Archived,
                };
                (closed > at).then_some((closed, status))
            };
            TaskPlan {
                at,
                title,
                home,
                deadline,
                close,
            }
        })
        .collect();
    tasks.sort_by_key(|t| t.at);

    let mut notes: Vec<NotePlan> = (0..sizes.notes)
        .map(|_| {
            let at = when(&mut rng);
            let title = rng.chance(0.8).then(|| {
                let n = rng.between(2, 6);
                capitalised(&words(&mut rng, n).join(" "))
            });
            NotePlan {
                at,
                title,
                seed: rng.next(),
            }
        })
        .collect();
    notes.sort_by_key(|n| n.at);

    let top = sizes.folders / (SUBFOLDERS + 1);
    // Folders picked Zipf-weighted from a shuffled order, so the busy ones
    // are all over the tree.
    let mut order: Vec<usize> = (0..sizes.folders).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    let mut documents: Vec<DocumentPlan> = (0..sizes.documents)
        .map(|_| {
            let at = when(&mut rng);
            let kind = pick(&mut rng, DOC_KINDS);
            // 2 to 5 words, a year among them now and then.
            let kind_words = kind.split_whitespace().count();
            let n = rng.between(2, 5).saturating_sub(kind_words).max(1);
            let mut name = format!("{kind} {}", words(&mut rng, n).join(" "));
            if kind_words + n < 5 && rng.chance(0.3) {
                let _ = write!(name, " {}", 2020 + rng.below(7));
            }
            let filename = format!("{}.pdf", ascii(&name.replace(' ', "-")));
            let folder = (!rng.chance(0.04)).then(|| order[rng.zipf(sizes.folders)]);
            DocumentPlan {
                at,
                name,
                filename,
                folder,
                bytes: rng.between(1024, 4 * 1024),
                seed: rng.next(),
            }
        })
        .collect();
    documents.sort_by_key(|d| d.at);
    debug_assert!(top > 0);

    Plan {
        lists,
        folders,
        people,
        projects,
        tasks,
        notes,
        documents,
    }
}

/// A note's body: 2 to 5 paragraphs of 2 to 5 sentences.
fn note_body(seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut out = String::new();
    for _ in 0..rng.between(2, 5) {
        out.push_str("<p>");
        for s in 0..rng.between(2, 5) {
            if s > 0 {
                out.push(' ');
            }
            let n = rng.between(6, 16);
            let mut sentence = words(&mut rng, n);
            if rng.chance(0.08) {
                let at = rng.below(sentence.len());
                sentence.insert(at, FIRST[rng.zipf(FIRST.len())]);
            }
            let text = capitalised(&sentence.join(" "));
            let emphasised = rng.chance(0.1);
            if emphasised {
                let _ = write!(out, "<strong>{text}</strong>.");
            } else {
                let _ = write!(out, "{text}.");
            }
        }
        out.push_str("</p>");
    }
    out
}

/// The bytes of a PDF of `len` bytes the upload accepts (as
/// benches/documents.rs makes them): a header, a body of `seed`-made
/// filler, and the end-of-file marker.
fn pdf_bytes(len: usize, seed: u64) -> Vec<u8> {
    const HEAD: &[u8] = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Length 0 >>\nstream\n";
    const TAIL: &[u8] = b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
    let len = len.max(HEAD.len() + TAIL.len());
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(HEAD);
    let mut rng = Rng(seed);
    while out.len() + 8 <= len - TAIL.len() {
        out.extend_from_slice(&rng.next().to_le_bytes());
    }
    out.resize(len - TAIL.len(), b' ');
    out.extend_from_slice(TAIL);
    out
}

/// Each word of the vocabulary's rank (0 the commonest).
fn ranks() -> HashMap<&'static str, usize> {
    vocabulary()
        .iter()
        .enumerate()
        .map(|(i, w)| (*w, i))
        .collect()
}

/// Three words of a task title, as someone who remembers it would type
/// them: the first title holding three words of 4 letters or more among
/// the less common ones (ranks 40 to 1,000; neither the one-word query
/// nor a verb that begins titles), those three in the title's order.
fn three_words(plan: &Plan) -> String {
    let rank = ranks();
    let verbs: HashSet<String> = VERBS.iter().map(|v| v.to_lowercase()).collect();
    for t in &plan.tasks {
        let mut picked: Vec<&str> = Vec::new();
        for w in t.title.split_whitespace() {
            let fits = rank.get(w).is_some_and(|r| (40..1000).contains(r))
                && w.chars().count() >= 4
                && w != ONE_WORD
                && !verbs.contains(w)
                && !picked.contains(&w);
            if fits {
                picked.push(w);
            }
        }
        if picked.len() >= 3 {
            return picked[..3].join(" ");
        }
    }
    "garden kitchen house".to_owned()
}

/// Three words many task titles share: the three that most titles hold,
/// among the common-ish words (ranks 25 to 300, some of them also verbs
/// that begin titles) of 4 letters or more. Each is common on its own.
fn common_three_words(plan: &Plan) -> (String, usize) {
    let rank = ranks();
    let mut counts: HashMap<[usize; 3], usize> = HashMap::new();
    for t in &plan.tasks {
        let mut ranks: Vec<usize> = title_words(&t.title)
            .iter()
            .filter_map(|w| rank.get(w.as_str()).copied())
            .filter(|r| (25..300).contains(r) && vocabulary()[*r].chars().count() >= 4)
            .collect();
        ranks.sort_unstable();
        for a in 0..ranks.len() {
            for b in a + 1..ranks.len() {
                for c in b + 1..ranks.len() {
                    *counts.entry([ranks[a], ranks[b], ranks[c]]).or_default() += 1;
                }
            }
        }
    }
    let best = counts
        .into_iter()
        .max_by(|(a, n), (b, m)| n.cmp(m).then(b.cmp(a)));
    match best {
        Some((k, n)) => (
            k.iter()
                .map(|r| vocabulary()[*r])
                .collect::<Vec<_>>()
                .join(" "),
            n,
        ),
        None => ("garden kitchen house".to_owned(), 0),
    }
}

// ---------------------------------------------------------------- generating

/// One write of the history, in the order they happen at the same instant.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Write {
    List(usize),
    Folder(usize),
    Person(usize),
    Project(usize),
    Task(usize),
    Close(usize),
    Note(usize),
    Document(usize),
}

fn generate(dir: &Path, sizes: Sizes, now: Timestamp) -> Result<Meta, String> {
    let started = Instant::now();
    let now_ms = now.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let plan = plan(sizes, now);

    let mut writes: Vec<(i64, Write)> = Vec::new();
    let mut setup = t0;
    let mut next = || {
        setup += 7_000;
        setup
    };
    writes.extend((0..plan.lists.len()).map(|i| (next(), Write::List(i))));
    writes.extend((0..plan.folders.len()).map(|i| (next(), Write::Folder(i))));
    writes.extend((0..plan.people.len()).map(|i| (next(), Write::Person(i))));
    writes.extend((0..plan.projects.len()).map(|i| (next(), Write::Project(i))));
    for (i, t) in plan.tasks.iter().enumerate() {
        writes.push((t.at, Write::Task(i)));
        if let Some((at, _)) = t.close {
            writes.push((at, Write::Close(i)));
        }
    }
    writes.extend(
        plan.notes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.at, Write::Note(i))),
    );
    writes.extend(
        plan.documents
            .iter()
            .enumerate()
            .map(|(i, d)| (d.at, Write::Document(i))),
    );
    writes.sort_unstable();
    // Each document is two writes: its upload and its record.
    let total = writes.len() + plan.documents.len();
    println!(
        "store: generating in {} ({total} writes: {}, {} closings)...",
        dir.display(),
        sizes.summary(),
        plan.tasks.iter().filter(|t| t.close.is_some()).count()
    );

    let clock = ManualClock::new(Timestamp::from_millisecond(t0).map_err(|e| e.to_string())?);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, t0)?;

    let mut list_ids: Vec<Id> = Vec::with_capacity(plan.lists.len());
    let mut folder_ids: Vec<Id> = Vec::with_capacity(plan.folders.len());
    let mut person_ids: Vec<Id> = Vec::with_capacity(plan.people.len());
    let mut project_ids: Vec<Id> = Vec::with_capacity(plan.projects.len());
    let mut task_ids: Vec<Option<Id>> = vec![None; plan.tasks.len()];
    let mut homes = [0usize; 4];
    let mut note_chars: usize = 0;
    let mut last_report = Instant::now();
    let count = writes.len();
    for (done, (at, write)) in writes.into_iter().enumerate() {
        clock.set(Timestamp::from_millisecond(at).map_err(|e| e.to_string())?);
        match write {
            Write::List(i) => {
                let list = org
                    .task_lists()
                    .create(TaskListInput {
                        name: Some(plan.lists[i].clone()),
                        ..TaskListInput::default()
                    })
                    .map_err(|e| format!("list {i}: {e}"))?;
                list_ids.push(list.id);
            }
            Write::Folder(i) => {
                let (name, parent) = &plan.folders[i];
                let folder = org
                    .folders()
                    .create(FolderInput {
                        name: Some(name.clone()),
                        parent_id: parent.map_or(Field::Absent, |p| Field::Value(folder_ids[p])),
                        ..FolderInput::default()
                    })
                    .map_err(|e| format!("folder {i}: {e}"))?;
                folder_ids.push(folder.id);
            }
            Write::Person(i) => {
                use organiser::people::{EmailAddressFields, PhoneNumberFields, RowInput};
                let p = &plan.people[i];
                let email = RowInput::add(EmailAddressFields {
                    address: Field::Value(p.email.clone()),
                    label: Field::Value("home".to_owned()),
                });
                let labels = ["mobile", "work"];
                let phones = p
                    .phones
                    .iter()
                    .zip(labels)
                    .map(|(n, l)| {
                        RowInput::add(PhoneNumberFields {
                            number: Field::Value(n.clone()),
                            label: Field::Value(l.to_owned()),
                        })
                    })
                    .collect();
                let person = org
                    .people()
                    .create(PersonInput {
                        name: Some(p.name.clone()),
                        email_addresses: Some(vec![email]),
                        phone_numbers: Some(phones),
                        ..PersonInput::default()
                    })
                    .map_err(|e| format!("person {i}: {e}"))?;
                person_ids.push(person.id);
            }
            Write::Project(i) => {
                let p = &plan.projects[i];
                let project = org
                    .projects()
                    .create(ProjectInput {
                        name: Some(p.name.clone()),
                        status: Field::Value(p.status.to_owned()),
                        external_reference: p.reference.clone().map_or(Field::Absent, Field::Value),
                        ..ProjectInput::default()
                    })
                    .map_err(|e| format!("project {i}: {e}"))?;
                project_ids.push(project.id);
            }
            Write::Task(i) => {
                let t = &plan.tasks[i];
                let mut input = TaskInput {
                    deadline_on: t.deadline.map_or(Field::Absent, Field::Value),
                    ..TaskInput::titled(t.title.clone())
                };
                match t.home {
                    Home::Inbox => homes[0] += 1,
                    Home::List(l) => {
                        homes[1] += 1;
                        input.task_list_id = Field::Value(list_ids[l]);
                    }
                    Home::Project(p) => {
                        homes[2] += 1;
                        input.project_id = Field::Value(project_ids[p]);
                    }
                    Home::Person(p) => {
                        homes[3] += 1;
                        input.person_id = Field::Value(person_ids[p]);
                    }
                }
                let task = org
                    .tasks()
                    .create(input)
                    .map_err(|e| format!("task {i}: {e}"))?;
                task_ids[i] = Some(task.id);
            }
            Write::Close(i) => {
                let (_, status) = plan.tasks[i].close.ok_or("a closing")?;
                let id = task_ids[i].ok_or("a closing before its task")?;
                org.tasks()
                    .change(
                        id,
                        TaskInput {
                            status: Some(status),
                            ..TaskInput::default()
                        },
                    )
                    .map_err(|e| format!("close task {i}: {e}"))?;
            }
            Write::Note(i) => {
                let n = &plan.notes[i];
                let note = org
                    .notes()
                    .create(NoteInput {
                        title: n.title.clone().map_or(Field::Absent, Field::Value),
                        body_html: Field::Value(note_body(n.seed)),
                        ..NoteInput::default()
                    })
                    .map_err(|e| format!("note {i}: {e}"))?;
                note_chars += note.body_text.chars().count();
            }
            Write::Document(i) => {
                let d = &plan.documents[i];
                let upload = org
                    .uploads()
                    .create(
                        organiser::uploads::UploadKind::Document,
                        &d.filename,
                        "application/pdf",
                        pdf_bytes(d.bytes, d.seed),
                    )
                    .map_err(|e| format!("upload {}: {e}", d.filename))?;
                clock.advance(jiff::SignedDuration::from_millis(500));
                org.documents()
                    .create(DocumentInput {
                        upload: Some(upload.signed_id),
                        name: Field::Value(d.name.clone()),
                        folder_id: d
                            .folder
                            .map_or(Field::Absent, |f| Field::Value(folder_ids[f])),
                        ..DocumentInput::default()
                    })
                    .map_err(|e| format!("document {i}: {e}"))?;
            }
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            println!(
                "  {done}/{count} writes, {secs:.0} s, {:.0} writes/s",
                done as f64 / secs
            );
        }
    }
    clock.set(now);
    // Settle at now with one read.
    org.tasks()
        .list(&TaskQuery::default())
        .map_err(|e| e.to_string())?;
    // The thumbnails render in the background: every one in place before
    // the store is kept.
    let uploads_dir = dir.join(organiser::data::FILES_DIR).join("uploads");
    let waiting = Instant::now();
    loop {
        let thumbnails = std::fs::read_dir(&uploads_dir)
            .map_err(|e| format!("{}: {e}", uploads_dir.display()))?
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".webp"))
            .count();
        if thumbnails >= plan.documents.len() {
            break;
        }
        if waiting.elapsed() > Duration::from_secs(120) {
            return Err(format!(
                "{thumbnails} of {} thumbnails after 120 s",
                plan.documents.len()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(org);
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store: generated in {generation_secs:.1} s");

    // The queries, and what they should find.
    let titled = |word: &str| {
        plan.tasks
            .iter()
            .filter(|t| title_words(&t.title).contains(word))
            .count()
    };
    let three = three_words(&plan);
    let (common_three, common_three_titles) = common_three_words(&plan);
    let three_titles = plan
        .tasks
        .iter()
        .filter(|t| {
            let words = title_words(&t.title);
            three.split(' ').all(|w| words.contains(w))
        })
        .count();
    let emailed = &plan.people[plan.people.len() / 3];
    let (local, domain) = emailed.email.split_once('@').ok_or("an email address")?;
    let email_query = format!("{local}@{}", &domain[..domain.len().min(4)]);
    let digits: String = PHONE_QUERY.chars().filter(char::is_ascii_digit).collect();
    let phone_people = plan
        .people
        .iter()
        .filter(|p| {
            p.phones.iter().any(|n| {
                n.chars()
                    .filter(char::is_ascii_digit)
                    .collect::<String>()
                    .contains(&digits)
            })
        })
        .count();
    let open = plan.tasks.iter().filter(|t| t.close.is_none()).count();
    let projects_open = plan
        .projects
        .iter()
        .filter(|p| !matches!(p.status, "done" | "cancelled"))
        .count();
    let title_words_total: usize = plan
        .tasks
        .iter()
        .map(|t| t.title.split_whitespace().count())
        .sum();
    let figures = json!({
        "tasks_open": open,
        "tasks_closed": plan.tasks.len() - open,
        "homes": {"inbox": homes[0], "list": homes[1], "project": homes[2], "person": homes[3]},
        "title_words_mean": format!("{:.1}", title_words_total as f64 / plan.tasks.len().max(1) as f64),
        "projects_open": projects_open,
        "projects_closed": plan.projects.len() - projects_open,
        "projects_referenced": plan.projects.iter().filter(|p| p.reference.is_some()).count(),
        "note_text_chars_mean": note_chars / plan.notes.len().max(1),
        "vocabulary": vocabulary().len(),
        "one_word_titles": titled(ONE_WORD),
        "three_words_titles": three_titles,
        "common_three_words_titles": common_three_titles,
        "misspelt_of_titles": titled(MISSPELT_OF),
        "phone_query_people": phone_people,
    });
    Ok(Meta {
        sizes,
        generation_secs,
        generation_peak_kib: None,
        writes: total,
        one_word: ONE_WORD.to_owned(),
        three_words: three,
        common_three_words: common_three,
        email_query,
        figures,
    })
}

// ---------------------------------------------------------------- words

const VERBS: &[&str] = &[
    "Call", "Email", "Buy", "Book", "Fix", "Review", "Write", "Plan", "Pay", "Renew", "Clean",
    "Order", "Prepare", "Schedule", "Cancel", "Update", "Read", "Check", "Send", "Draft", "Sort",
    "Ask", "Research", "Return", "Print", "Tidy", "Chase", "Finish", "Start", "Organise",
    "Collect", "Confirm", "Measure", "Replace", "Paint", "Phone", "Text", "Visit", "Pack", "Clear",
];

const LIST_WORDS: &[&str] = &[
    "Home", "Work", "Garden", "Car", "Health", "Finance", "Reading", "Travel", "Family", "Errands",
    "Projects", "Learning", "Music", "Kitchen", "Office", "Clients", "Writing", "Sport", "Friends",
    "Admin",
];
const LIST_SUFFIXES: &[&str] = &["ideas", "someday", "waiting for"];

const REFERENCE_PREFIXES: &[&str] = &["OPS", "WEB", "FIN", "HR", "MKT", "IT", "LEGAL", "PRJ"];
const DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "mail.example.net",
    "post.example",
    "inbox.example.co.uk",
];

/// First names, commonest first (picked Zipf-weighted).
const FIRST: &[&str] = &[
    "Sam",
    "Alex",
    "Jo",
    "Priya",
    "Chris",
    "Maria",
    "James",
    "Emma",
    "Oliver",
    "Sophie",
    "Zoë",
    "José",
    "Chloé",
    "Lucas",
    "Anna",
    "Daniel",
    "Laura",
    "Tom",
    "Sarah",
    "Ben",
    "Hannah",
    "David",
    "Grace",
    "Mohammed",
    "Fatima",
    "Ali",
    "Yuki",
    "Wei",
    "Mei",
    "Raj",
    "Aisha",
    "Noah",
    "Léa",
    "Søren",
    "Anaïs",
    "Björn",
    "Renée",
    "François",
    "Héctor",
    "Inès",
    "Łukasz",
    "Małgorzata",
    "Ömer",
    "Çağla",
    "Jürgen",
    "Noémie",
    "Raúl",
    "Sebastián",
    "Agnès",
    "Zoé",
    "Ada",
    "Alan",
    "Edsger",
    "Barbara",
    "Donald",
    "Frances",
    "Margaret",
    "Dennis",
    "Niklaus",
    "Radia",
];
const LAST: &[&str] = &[
    "Smith",
    "Jones",
    "Taylor",
    "Brown",
    "Williams",
    "Wilson",
    "Johnson",
    "Davies",
    "Patel",
    "Wright",
    "Walker",
    "Thompson",
    "White",
    "Hughes",
    "Edwards",
    "Green",
    "Hall",
    "Wood",
    "Harris",
    "Clarke",
    "Müller",
    "Schmidt",
    "Schäfer",
    "Weiß",
    "García",
    "Martínez",
    "Núñez",
    "López",
    "González",
    "Pérez",
    "Öztürk",
    "Yılmaz",
    "Dvořák",
    "Novák",
    "Ødegaard",
    "Sørensen",
    "Lefèvre",
    "Dubois",
    "Moreau",
    "Bernard",
    "Kowalczyk",
    "Wiśniewski",
    "Nowak",
    "Strauß",
    "Björklund",
    "Åberg",
    "Lindqvist",
    "Rossi",
    "Bianchi",
    "Ricci",
    "Conti",
    "Nakamura",
    "Tanaka",
    "Suzuki",
    "Chen",
    "Wang",
    "Li",
    "Zhang",
    "Kim",
    "Park",
    "Nguyen",
    "Tran",
    "Singh",
    "Kumar",
    "Sharma",
    "O'Brien",
    "O'Connor",
    "Murphy",
    "Kelly",
    "Byrne",
    "MacDonald",
    "Campbell",
    "Stewart",
    "Lovelace",
    "Turing",
    "Hopper",
    "Dijkstra",
    "Liskov",
    "Knuth",
    "Hamilton",
];

/// The vocabulary of titles, names and bodies, roughly commonest first
/// (picked Zipf-weighted); repeated words count once, where first met.
const VOCABULARY: &str = "\
    the a for to and of with on about from at in my our new next before after up out back this all \
    some more meeting report budget plan review list call email order book draft notes team project \
    week today tomorrow garden kitchen house car bank school office trip holiday insurance \
    appointment birthday dinner lunch coffee invoice receipt contract payment tax return bill \
    account passport ticket flight hotel train doctor dentist quarterly monthly weekly annual \
    summer winter spring autumn morning evening weekend friday monday tuesday wednesday thursday \
    saturday sunday january february march april may june july august september october november \
    december client customer supplier landlord plumber electrician builder neighbour friend family \
    kids parents grandma grandpa mum dad sister brother cousin uncle aunt teacher coach manager \
    colleague boss website server backup password laptop phone printer router screen keyboard \
    camera software update release version bug fix test feature design prototype feedback proposal \
    estimate deadline milestone goal agenda minutes summary outline research interview survey \
    results analysis chart spreadsheet document folder archive photos photo album music playlist \
    concert film movie series podcast article chapter library books shopping groceries milk bread \
    eggs cheese butter apples bananas tomatoes potatoes onions garlic rice pasta soup salad recipe \
    cake pizza wine beer tea juice water energy gas electricity heating boiler radiator window door \
    floor roof wall paint ladder shelf cupboard curtains blinds carpet sofa table chair desk lamp \
    bed mattress pillow towels laundry washing machine dishwasher fridge freezer oven microwave \
    kettle toaster bike tyres brakes repair service mot parking fuel licence registration vet dog \
    cat fish plants seeds compost lawn hedge fence shed greenhouse roses lavender herbs vegetables \
    harvest flowers tree leaves quote quotes contractor renovation extension bathroom bedroom \
    living room hallway garage attic basement cleaning tidy sort clean wash iron cook bake fold \
    pack unpack move store donate recycle bin bins rubbish mortgage loan savings pension investment \
    shares fund salary payslip expenses refund deposit rent lease council permit application form \
    forms certificate diploma course class lesson exam homework presentation slides talk conference \
    workshop webinar training onboarding hiring candidate job offer reference letter cover \
    portfolio resume profile linkedin network contacts address postcode delivery parcel package \
    courier post stamp envelope ink paper pens notebook calendar diary reminder schedule routine \
    habit exercise run walk swim yoga gym stretch sleep diet vitamins medicine prescription \
    pharmacy hospital clinic checkup vaccine blood pressure eye optician glasses lenses hearing \
    physio massage haircut barber salon nails shoes jacket coat shirt trousers dress socks gloves \
    scarf hat umbrella suitcase bag backpack wallet keys watch battery charger cable adapter \
    headphones speaker tv remote subscription netflix spotify broadband mobile upgrade provider \
    switch compare cancel renew extend confirm check ask send write read print scan sign file \
    submit pay buy sell prepare organise arrange finish start continue chase follow share upload \
    download install configure migrate deploy monitor debug refactor translate proofread edit \
    approve reject discuss decide agree negotiate investigate explore learn practise study teach \
    mentor help support visit meet host invite thank congratulate celebrate surprise gift present \
    card chocolates wrapping party wedding anniversary christmas easter halloween newyear valentine \
    picnic barbecue camping hiking cycling skiing sailing fishing climbing surfing running marathon \
    race tournament match game football tennis golf cricket rugby basketball hockey swimming chess \
    cards puzzle painting drawing sketch photography pottery knitting sewing woodwork carpentry \
    gardening baking cooking reading writing poetry novel story journal blog newsletter magazine \
    newspaper membership club society committee charity volunteer fundraiser donation sponsorship \
    auction raffle sale fair market festival exhibition museum gallery theatre cinema opera ballet \
    zoo aquarium park beach lake river mountain forest village city town island coast harbour \
    airport station bridge castle cathedral church temple palace tower square street road avenue \
    lane motorway roundabout junction traffic map route directions itinerary visa currency exchange \
    embassy customs luggage boarding gate terminal seat rental booking reservation cancellation \
    confirmation voucher coupon discount deal price cost statement balance transfer direct debit \
    standing overdraft credit pin fraud scam security alarm lock locksmith key spare copy safe \
    claim policy excess premium accident damage leak flood fire smoke detector carbon monoxide \
    inspection valuation surveyor solicitor lawyer accountant advisor broker agent estate viewing \
    completion conveyancing deeds title boundary planning permission architect drawings foundations \
    scaffolding plasterer tiler decorator carpenter joiner roofer glazier gardener cleaner nanny \
    babysitter childminder nursery playgroup uniform lunchbox slip science maths english history \
    geography french spanish german art drama sports day assembly nativity play rehearsal costume \
    choir band orchestra instrument piano guitar violin drums flute trumpet lessons tuition tutor \
    grades university college personal accommodation halls fees student graduation ceremony gown \
    photographs frame portrait printing canvas poster banner flyer leaflet brochure catalogue menu \
    signage logo branding colours fonts typography layout wireframe mockup sprint backlog epic \
    retrospective standup demo roadmap strategy objectives metrics dashboard kpi revenue profit \
    margin forecast headcount recruitment appraisal performance promotion payroll benefits holidays \
    sick leave maternity paternity overtime timesheet rota shift handover procedure compliance \
    audit risk assessment incident outage postmortem alert pager oncall rotation escalation vendor \
    procurement purchase renewal domain dns hosting cloud storage database migration index query \
    cache queue worker cron script pipeline build artifact container cluster node patch \
    vulnerability firewall vpn access permissions accounts roles users groups tokens secrets logs \
    tracing alerts uptime latency throughput capacity scaling load balancer cdn api endpoint schema \
    model export import sync integration webhook plugin theme template component framework \
    dependency changelog documentation readme tutorial guide manual faq complaint replacement \
    warranty proof appliance chimney sweep gutter pest control mice wasps moles weeds mowing \
    pruning planting watering feeding mulching digging raking sweeping snow ice salt grit frost \
    shovel heater thermostat insulation draught excluder double glazing solar panels inverter meter \
    tariff smart charge softener filter cartridge descaler limescale shower head tap washer valve \
    pipe drain blocked sink toilet cistern flush seal grout silicone mould damp dehumidifier \
    ventilation extractor fan loft hatch boxes crates labels inventory declutter shop boot \
    marketplace listing description postage buyer seller rating stars recommendation referral \
    introduction connection catch drinks brunch breakfast supper takeaway restaurant tasting \
    dessert starter main vegetarian vegan gluten allergy intolerance nuts dairy shellfish spicy \
    mild sweet sour bitter salty fresh frozen tinned dried organic local seasonal strawberries \
    raspberries blueberries cherries peaches plums pears oranges lemons limes grapes melon \
    pineapple mango avocado cucumber lettuce spinach kale broccoli cauliflower cabbage carrots peas \
    beans lentils chickpeas quinoa couscous noodles flour sugar honey jam marmalade peanut cereal \
    porridge oats yoghurt cream custard biscuits crisps popcorn snacks sweets chocolate candles \
    matches lighter batteries bulbs fuse plug socket lead torch candle toolbox hammer screwdriver \
    drill bits screws bolts washers glue tape measure spirit level saw sandpaper varnish stain \
    primer undercoat gloss emulsion roller brush tray masking dust sheets wallpaper paste scraper \
    filler caulk sealant adhesive tiles spacers cutter trowel bucket sponge mop broom vacuum hoover \
    duster polish bleach detergent remover tablets rinse aid sponges cloths bags foil clingfilm \
    parchment containers jars bottles lids marker stickers envelopes stamps cafe café naive naïve \
    résumé facade façade jalapeño piñata crème brûlée fiancée soirée entrée protégé \
    déjà zürich münchen köln malmö kraków gdańsk reykjavík são paulo bogotá méxico \
    montréal québec nîmes besançon årsta ærø tromsø göteborg düsseldorf würzburg lübeck \
    sevilla córdoba cádiz málaga açaí crêpe pâté gruyère emmental muesli müsli \
    smörgåsbord jägermeister glühwein fußball straße good better best bad worse easy hard \
    quick slow early late big small large little long short old young high low full empty open \
    closed first last final other another each every few many much most important urgent simple \
    clear ready done waiting pending approved signed sent received paid unpaid overdue due missing \
    broken lost found extra free busy quiet loud warm cold hot wet dry dirty stale light dark heavy \
    soft secure private public shared national international global digital online offline \
    automatic daily hourly yearly again still just also maybe probably soon later never always \
    often sometimes together alone instead around between during without because although however \
    perhaps almost enough quite rather really above across against along among behind below beneath \
    beside beyond inside near outside through toward under until upon within people person man \
    woman child children baby boy girl adult teenager owner partner wife husband son daughter niece \
    nephew grandson granddaughter godmother godfather stepfather stepmother twins home place area \
    world country state region county district neighbourhood community government department \
    ministry agency authority court police ambulance emergency surgery ward nurse midwife surgeon \
    specialist consultant xray ultrasound operation recovery treatment therapy counselling \
    wellbeing mindfulness meditation breathing posture stretching strength cardio weights treadmill \
    rowing spinning pilates dance salsa tango waltz zumba karate judo boxing fencing archery \
    bowling snooker darts billiards time night hour minute second moment period season year decade \
    century date clock timer money value fee rate interest loss income spending saving thing stuff \
    item object piece part bit set pair group number amount total average rest half quarter word \
    name line page text sentence paragraph section volume edition issue idea thought question \
    answer problem solution reason result effect cause matter point case fact way method process \
    system approach technique practice step stage phase degree change growth increase decrease rise \
    fall drop improvement development progress success failure experience knowledge skill ability \
    talent hobby passion dream wish hope target aim work business company firm organisation \
    industry trade economy finance commerce retail production manufacturing factory warehouse \
    outlet branch headquarters site location building structure facility premises property flat \
    apartment cottage bungalow mansion farm barn stable yard patio terrace balcony porch driveway \
    path pond pool fountain furniture wardrobe drawers bookcase cabinet dresser stool bench \
    armchair recliner footstool rug mat mirror picture vase ornament cushion throw blanket duvet \
    quilt bedspread cup mug glass plate bowl dish saucer jug pot pan wok tin jar bottle can box \
    basket knife fork spoon ladle whisk spatula grater peeler sieve colander chopping board rolling \
    scales food meal snack drink portion serving ingredient flavour taste smell texture fruit \
    vegetable meat chicken beef pork lamb turkey duck sausages bacon ham salmon tuna prawns egg \
    toast roll sandwich burger wrap taco burrito curry stew pie tart quiche lasagne risotto paella \
    stirfry roast casserole chowder broth gravy sauce ketchup mustard mayonnaise vinegar oil pepper \
    spice basil oregano thyme rosemary parsley mint coriander cumin paprika cinnamon nutmeg ginger \
    turmeric saffron vanilla cocoa espresso latte cappuccino mocha smoothie lemonade cola soda \
    sparkling tonic gin whisky vodka rum brandy cider animal pet horse pony donkey goat sheep cow \
    pig chickens rabbit hamster guinea mouse rat snake lizard tortoise turtle parrot budgie canary \
    owl eagle hawk robin sparrow blackbird pigeon swan goose heron kingfisher woodpecker squirrel \
    hedgehog fox badger deer otter beaver bear wolf lion tiger elephant giraffe zebra monkey \
    gorilla kangaroo koala panda penguin whale dolphin shark octopus crab lobster jellyfish \
    starfish butterfly moth bee wasp ant spider beetle ladybird dragonfly snail weather rain wind \
    storm thunder lightning fog mist sunshine heatwave drought hail temperature climate sky sun \
    moon star planet earth space rocket satellite telescope physics chemistry biology geology \
    astronomy mathematics statistics economics psychology philosophy sociology politics law \
    engineering architecture literature language culture religion tradition custom ritual \
    celebration vacation journey travel tour cruise voyage expedition adventure excursion outing \
    daytrip getaway break track trail tunnel crossing corner bend hill valley cliff cave rock stone \
    sand soil mud grass moss fern bush shrub oak ash beech birch pine willow maple elm cedar yew \
    holly ivy daisy tulip daffodil lily orchid sunflower poppy bluebell heather thistle clover \
    dandelion nettle bramble blackberry apple pear plum cherry fig olive grape computer tablet \
    device gadget tool engine motor pump generator equipment gear kit internet wifi signal \
    bandwidth speed memory disk drive image video audio recording song lyrics melody rhythm beat \
    tune chord note score sheet synthesizer amplifier microphone headset mixer radio television \
    channel programme episode finale trailer critic audience actor actress director producer writer \
    author poet artist painter sculptor photographer designer musician singer composer conductor \
    dancer choreographer comedian presenter journalist editor publisher assistant secretary \
    receptionist clerk officer inspector detective engineer developer programmer analyst scientist \
    researcher professor lecturer instructor trainer pharmacist carer chef waiter waitress \
    bartender barista driver pilot captain sailor soldier farmer fisherman miner mechanic \
    technician florist baker butcher grocer tailor jeweller hairdresser shopkeeper salesman cashier \
    banker trader investor entrepreneur founder chairman minister mayor councillor judge barrister \
    notary witness jury victim suspect legend myth tale fable rumour secret mystery riddle clue \
    evidence message reply response request enquiry suggestion advice tip warning notice \
    announcement invitation acknowledgement apology thanks congratulations condolences greetings \
    wishes regards love hugs kisses cheers chat conversation discussion debate argument negotiation \
    session event gathering reunion launch opening premiere reception banquet gala competition \
    contest challenge quiz trial audition tryout semifinal league trophy medal prize award badge \
    ribbon honour rank position role duty task chore errand mission assignment campaign initiative \
    scheme rule guideline standard requirement specification criteria condition term clause \
    agreement treaty alliance partnership collaboration cooperation squad crew staff personnel \
    workforce members volunteers participants attendees guests visitors tourists passengers \
    customers clients patients residents tenants neighbours citizens voters supporters fans \
    followers subscribers readers viewers listeners players learners pupils students graduates \
    alumni trainees apprentices interns beginner expert amateur professional veteran novice master \
    champion winner loser leader follower deputy helper rival opponent enemy ally stranger guest \
    accept achieve add adjust admire admit adopt advise afford allow announce apologise appear \
    apply appreciate argue arrive assume attach attempt attend avoid battle beg behave belong bet \
    blame blink boil borrow bother bounce bow breathe bring burn bury calculate carry cheer chew \
    choose climb collect comb combine complain complete concentrate concern connect consider \
    contain correct count crack crash crawl create cross crush cry cure cycle deliver depend \
    describe deserve destroy detect develop disagree disappear discover dislike divide doubt drag \
    earn educate embrace employ encourage end enjoy enter entertain escape examine excite excuse \
    exist expand expect explain express fail fasten fax fear fetch fill fit flap flash float flow \
    force forget forgive frighten fry gather gaze glow grab grate grease greet grin grip groan \
    guarantee guard guess handle hang happen harm hate heat hover hug hum hunt hurry identify \
    ignore imagine impress improve include influence inform inject injure instruct intend interfere \
    interrupt introduce invent irritate itch jog join joke juggle jump kick kill kiss kneel knit \
    knock knot label land laugh lay lean leap lick lie lift lighten like limp listen live look \
    manage mark marry melt memorise mend mine miss mix moan moor mourn multiply murder nail need \
    nest nod obey observe obtain occur offend operate overflow owe own paddle pass pat pause peck \
    pedal peel peep perform pick pinch plant please poke pop possess pour pray preach precede \
    prefer preserve press pretend prevent prick produce program promise protect provide pull punch \
    puncture punish push radiate raise reach realise receive recognise record reduce reflect refuse \
    regret reign rejoice relax rely remain remember remind remove repeat replace reproduce rescue \
    retire rhyme rob rot rub ruin rush sack sail satisfy save scare scatter scold scorch scrape \
    scratch scream screw scribble scrub search separate serve settle shade shave shelter shiver \
    shock shrug sigh sin sip ski skip slap smash smile snatch sneeze sniff snore soak soothe sound \
    spark sparkle spell spill spoil spot spray sprout squash squeak squeal squeeze stare stay steer \
    stir stitch stop strap strengthen strip stroke subtract succeed suck suffer suggest suit supply \
    suppose surround suspend tame tease telephone tempt terrify thaw tick tickle tie tire touch tow \
    trace transport trap treat tremble trick trot trouble trust try tug tumble turn twist type \
    undress unfasten unite unlock untidy use vanish wail wait wander want warn waste wave weigh \
    welcome whine whip whirl whisper whistle wink wipe wobble wonder worry wreck wrestle wriggle \
    yawn yell zip zoom abacus abbey abundance academy accordion acorn acrobat adjective admiral \
    adverb aerial aerobics affidavit afterthought airship alcove algebra allotment almanac alpaca \
    altitude amethyst amphibian anchor anecdote anemone angler ankle antenna anthem antique anvil \
    apparatus appendix apricot apron aquarelle arbour arcade archipelago archway armada armour \
    aroma arpeggio artichoke asparagus asteroid atlas atrium aubergine aurora avalanche aviary \
    awning azalea babble backgammon badminton bagpipes ballad balloon bamboo bandstand banister \
    banjo bannister barometer barrel barricade bassoon battlement bayonet beacon beetroot belfry \
    bellows beret biscuit blizzard blossom bonfire bonnet boomerang botany boulder boulevard \
    bouquet boutique bracelet brambles brass breeze brigade bronze brooch buckle buffet bugle \
    bulletin bumblebee bungee buttercup buttress cactus cadet calligraphy camellia campfire canal \
    candelabra canoe canopy canyon caramel caravan cardigan carnation carnival carousel \
    cartographer cascade cashew castanets catamaran caterpillar cauldron cavalry cello centipede \
    chalet chameleon chandelier chapel chariot chestnut chisel chorus chrysanthemum citadel \
    clarinet clementine cloister cobblestone cockpit coconut cocoon colosseum comet compass \
    concertina condor confetti constellation coral cormorant cornflower corridor courtyard coyote \
    cranberry crayon crescent crocodile crocus crossword crystal cuckoo cupola currant cutlass \
    cymbal cypress daffodils dahlia damson daybreak decanter delta denim derby dewdrop dinghy \
    dinosaur domino dormouse dragon drawbridge driftwood dromedary dulcimer dumpling dune dungeon \
    dusk dynamo easel eclipse eiderdown elderberry elixir embroidery emerald encyclopedia escalator \
    estuary evergreen fairground falcon fanfare farmhouse feather fennel ferret ferry fiddle fiesta \
    figurine filigree firefly firework fjord flamingo flannel flotilla fondue footbridge forge \
    fossil foxglove fresco frigate fritter fuchsia funicular gable galleon gargoyle garland gazebo \
    gazelle geranium geyser gingerbread glacier gladiator glider gondola gooseberry gorge \
    gramophone granary granite grasshopper griffin grotto guava guillemot gymnasium hacienda \
    haddock hammock hamlet harmonica harp harpsichord haystack hazelnut headland heath hemisphere \
    herring hibiscus hieroglyph hippo homestead honeycomb honeysuckle horizon hourglass hurricane \
    hyacinth hydrangea iceberg icicle iguana inkwell isthmus jackdaw jaguar jasmine javelin \
    jellybean jester jetty jigsaw jukebox juniper kaleidoscope kayak kestrel kiln kimono kiosk kite \
    kiwi knapsack labyrinth lacquer lagoon lantern larch lasso lattice lectern lemur lighthouse \
    lilac limerick linden locomotive lodestar loom lozenge lullaby lupin lute macaroon magnolia \
    magpie mandolin mangrove marigold marionette marmoset marquee marzipan mascot meadow medallion \
    menagerie meringue meteor metronome minaret minnow minstrel mistletoe moat monastery monsoon \
    moorland mosaic mosque mulberry mural mustang narwhal nebula nectarine nightingale nomad oasis \
    obelisk observatory ocelot odyssey omelette opal orangery orchard origami ostrich outpost \
    paddock pagoda palette pampas pancake panorama pantomime papyrus parable parachute parapet \
    parsnip partridge pavilion peacock pebble pelican pendulum peninsula peppermint periscope \
    persimmon petticoat pheasant piccolo pinnacle pinwheel pistachio planetarium platypus plover \
    plume pomegranate poncho porcupine portcullis pretzel primrose promenade puffin pumpkin \
    quagmire quail quarry quartz quay quill quince quiver raccoon radish rampart raven rhubarb \
    riverbank rotunda rowan ruby rucksack saddle sapphire sardine sassafras satchel savanna \
    saxophone scarecrow schooner scimitar scone scorpion sextant shamrock sherbet shipwreck \
    silhouette sitar sleigh snapdragon snowdrop snowflake sombrero sonnet souffle sparrowhawk \
    spinnaker spire sprocket stalactite starling steeple stockade strudel submarine sundial swallow \
    sycamore symphony tambourine tangerine tapestry tarantula teapot thimble thunderbolt tiara \
    toboggan toucan trampoline trellis trombone tuba tundra turnip turquoise turret tutu twilight \
    ukulele unicorn velvet veranda vineyard viola violet volcano vulture wagon walnut walrus \
    warbler waterfall weathervane wheelbarrow whirlpool wigwam windmill wisteria wolfhound woodland \
    wren xylophone yacht yodel zeppelin zephyr zinnia";
