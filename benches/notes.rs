//! Notes on a store of 10,000 notes of realistic length (a few paragraphs
//! of 500 to 3,000 characters with lists, emphasis and links), 300 people,
//! 100 projects, 200 tags and 8 categories: most notes mention a few
//! people and carry a few tags, one in twenty mentions 20 people and
//! carries 20 tags, one tag is on exactly 1,000 notes and one person is
//! mentioned in exactly 1,000. It measures, through `Organiser::handle`
//! (the JSON the server answers), in process:
//!
//! - saving a note: `POST /notes` and `PATCH /notes/{id}` of a body with 5
//!   mentions and 5 tags (at most 5 ms median);
//! - the first page of `GET /notes` (at most 2 ms);
//! - `GET /notes?q=` for a common word, a rare word, two words, a person's
//!   name prefix and an accented query matching unaccented text (at most
//!   10 ms each);
//! - the first page of a word most notes hold (`GET
//!   /notes?q=garden&limit=50`), alone and with `count=true` (at most 5 ms
//!   each), with the peak memory each adds;
//! - renaming the tag on 1,000 notes (`PATCH /tags/{id}`) and the person
//!   mentioned in 1,000 (`PATCH /people/{id}`): one write each (at most
//!   500 ms median).
//!
//! ```text
//! cargo bench --bench notes
//! BENCH_REGENERATE=1 cargo bench --bench notes     # build the store again
//! ```
//!
//! The store is generated once through the public API (one transaction
//! per write, as an app would make them: people, projects and categories,
//! then the notes over two years of history on a `ManualClock` ending at
//! [`NOW`], a tenth of them edited once later) and kept in
//! `target/bench-notes-10000` (with `bench-notes.json` beside the store
//! describing it); it is made again when missing, when made by another
//! generator, or with `BENCH_REGENERATE=1`. The measurements write (new
//! notes, renames), so they run on a copy, `target/bench-notes-10000-run`,
//! made afresh each run: every run measures the same store.
//!
//! Every read is timed as the first read after a commit (an untimed
//! `change_appearance` before each call), so no answer the core keeps for
//! a commit generation serves it; the first page is timed again as a kept
//! answer, for reference. Writes advance the clock by a second each. The
//! run fails (exit code 1) when a target is missed.
//!
//! Environment: `BENCH_NOTES` (default 10000), `BENCH_RUNS` (runs of each
//! save and read, default 200), `BENCH_RENAME_RUNS` (runs of each rename,
//! default 10), `BENCH_ONLY` (some of `reads,saves,renames`; default all),
//! `BENCH_REGENERATE=1`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use organiser::{
    Auth, Field, Id, ListParams, Organiser, account::AppearanceChange, categories::CategoryInput,
    clock::ManualClock, list::Query, notes::NoteInput, notes::NoteQuery, people::PersonInput,
    projects::ProjectInput, server::Method, server::Request,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    Rng, Row, Stats, bench_main, copy_store, env_number, mib, options, proc_status_kib, row,
    rows_table, stats, target_dir, targets_verdict, written,
};

/// The instant the store's history ends at, and where the measurements'
/// clock starts.
const NOW: &str = "2026-10-14T09:30:00Z";
/// How far back the history goes.
const HISTORY_DAYS: i64 = 730;
const PEOPLE: usize = FIRST.len() * LAST.len();
const PROJECTS: usize = PROJECT_A.len() * PROJECT_B.len();
const TAGS: usize = TAG_TOPICS.len() * TAG_SUFFIXES.len();
/// Categories (each takes the first colour no other uses).
const CATEGORIES: &[&str] = &[
    "Work", "Home", "Journal", "Reading", "Recipes", "Travel", "Health", "Ideas",
];
/// The share of notes with 20 mentions and 20 tags.
const HEAVY_SHARE: f64 = 0.05;
/// Mentions and tags of a heavy note.
const HEAVY_REFS: usize = 20;
/// Notes with the hot tag, and notes mentioning the hot person.
const HOT: usize = 1000;
/// The share of notes edited once after they were made.
const EDITED_SHARE: f64 = 0.1;
/// The share of notes in a category.
const CATEGORISED_SHARE: f64 = 0.6;
/// The share of notes with a title of their own.
const TITLED_SHARE: f64 = 0.4;

/// Targets (medians).
const TARGET_SAVE: Duration = Duration::from_millis(5);
const TARGET_PAGE: Duration = Duration::from_millis(2);
const TARGET_SEARCH: Duration = Duration::from_millis(10);
/// A common word's first page (issue 22: it cost what its matches cost).
const TARGET_COMMON_PAGE: Duration = Duration::from_millis(5);
/// A word most notes hold, as `organiser notes garden` was measured with.
const GARDEN_WORD: &str = "garden";
const TARGET_RENAME: Duration = Duration::from_millis(500);

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// The file beside the store that describes it (and says it is complete).
const META_FILE: &str = "bench-notes.json";
/// Bumped when the generator changes, so older stores are made again.
const META_FORMAT: u64 = 1;

fn main() -> ExitCode {
    bench_main("notes", |_| run())
}

// ---------------------------------------------------------------- the run

struct Settings {
    /// The parts to measure (`BENCH_ONLY`): reads, saves, renames.
    only: Vec<String>,
    notes: usize,
    runs: usize,
    rename_runs: usize,
    regenerate: bool,
    target_dir: PathBuf,
}

impl Settings {
    fn wants(&self, part: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|p| p == part)
    }
}

fn run() -> Result<(), String> {
    let settings = Settings {
        only: std::env::var("BENCH_ONLY")
            .unwrap_or_default()
            .split(',')
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect(),
        notes: env_number("BENCH_NOTES", 10_000)?,
        runs: env_number("BENCH_RUNS", 200)?.max(1),
        rename_runs: env_number("BENCH_RENAME_RUNS", 10)?.max(1),
        regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
        target_dir: target_dir()?,
    };
    if settings.notes < 10 * HOT / 9 {
        return Err(format!(
            "BENCH_NOTES: {} is too few for {HOT} notes with the hot tag and {HOT} with the hot person",
            settings.notes
        ));
    }
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    println!(
        "notes: {} notes, {PEOPLE} people, {PROJECTS} projects, {TAGS} tags, {} categories; now = {NOW}",
        settings.notes,
        CATEGORIES.len()
    );
    let dir = settings
        .target_dir
        .join(format!("bench-notes-{}", settings.notes));
    let meta = ensure_store(&settings, &dir, now)?;
    let bytes = std::fs::metadata(dir.join(organiser::data::STORE_FILE)).map_or(0, |m| m.len());
    println!(
        "store: {} in {}, generated in {:.1} s ({} writes)",
        mib(bytes),
        dir.display(),
        meta.generation_secs,
        meta.writes
    );
    println!("  {}", meta.summary());

    // The measurements write: they run on a copy of the store.
    let run_dir = settings
        .target_dir
        .join(format!("bench-notes-{}-run", settings.notes));
    if run_dir.exists() {
        std::fs::remove_dir_all(&run_dir)
            .map_err(|e| format!("remove {}: {e}", run_dir.display()))?;
    }
    copy_store(&dir, &run_dir, META_FILE)?;
    let clock = ManualClock::new(now);
    let org = Organiser::open_with(&run_dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", run_dir.display()))?;

    let rows = measure(&org, &clock, &meta, &settings)?;
    let missed = report(&rows, &meta, bytes, &settings);
    drop(org);
    let _ = std::fs::remove_dir_all(&run_dir);
    if missed > 0 {
        return Err(format!("{missed} target(s) missed"));
    }
    Ok(())
}

// ---------------------------------------------------------------- measuring

fn request(method: Method, path: &str, body: Value) -> Request {
    Request::new(method, path, Auth::Local).with_body(body)
}

/// `GET /notes` with these parameters.
fn notes_get(pairs: &[(&str, &str)]) -> Request {
    Request::new(Method::Get, "/notes", Auth::Local).with_query(Query::from_pairs(pairs.to_vec()))
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

/// What the store file was sent per call: `bytes` over `calls`.
fn per_call(bytes: u64, calls: usize) -> String {
    format!(
        "{:.0} KiB written a call",
        bytes as f64 / 1024.0 / calls.max(1) as f64
    )
}

/// A row of a write, with what it wrote.
fn timed_row(
    name: impl Into<String>,
    (stats, wrote): (Stats, String),
    target: Option<Duration>,
    note: String,
) -> Row {
    row(name, stats, target, format!("{note}; {wrote}"))
}

/// Times each of `requests` once through `handle` (after `before`,
/// untimed), the first `warmup` untimed; every answer must be `status`.
/// Also what they wrote, a call.
fn time_requests(
    org: &Organiser,
    requests: &[Request],
    warmup: usize,
    status: u16,
    mut before: impl FnMut(),
    mut after: impl FnMut(&Value),
) -> Result<(Stats, String), String> {
    let mut samples = Vec::with_capacity(requests.len());
    let wrote = written();
    for (n, request) in requests.iter().enumerate() {
        before();
        let start = Instant::now();
        let response = org.handle(request);
        let took = start.elapsed();
        if response.status != status {
            return Err(format!(
                "{:?} {} answered {}: {}",
                request.method,
                request.path,
                response.status,
                response.json_value()
            ));
        }
        after(&response.json_value());
        if n >= warmup {
            samples.push(took);
        }
    }
    let wrote = per_call(written() - wrote, requests.len());
    Ok((stats(samples), wrote))
}

/// Times `request` `runs` times, each the first read after a commit.
fn time_read(org: &Organiser, request: &Request, runs: usize, kept: bool) -> Stats {
    let warmup = (runs / 10).max(5);
    let mut samples = Vec::with_capacity(runs);
    for n in 0..warmup + runs {
        if !kept {
            org.account()
                .change_appearance(AppearanceChange::default())
                .expect("a commit");
        }
        let start = Instant::now();
        std::hint::black_box(org.handle(request));
        let took = start.elapsed();
        if n >= warmup {
            samples.push(took);
        }
    }
    stats(samples)
}

fn measure(
    org: &Organiser,
    clock: &ManualClock,
    meta: &Meta,
    settings: &Settings,
) -> Result<Vec<Row>, String> {
    let runs = settings.runs;
    let tick = || clock.advance(SignedDuration::from_secs(1));
    let mut rows = Vec::new();
    let directory = Directory::read(org)?;

    println!("\nin-process, handle(&Request); {runs} runs of each save and read:");

    // Reads first, on the store as generated.
    if settings.wants("reads") {
        let page = notes_get(&[("limit", "50")]);
        let first = call(org, &page, 200)?;
        let size = serde_json::to_vec(&first).map_or(0, |b| b.len());
        rows.push(row(
            "GET /notes?limit=50 (first page), first read after a commit",
            time_read(org, &page, runs, false),
            Some(TARGET_PAGE),
            format!(
                "{} notes, {size} B",
                first["data"].as_array().map_or(0, Vec::len)
            ),
        ));
        rows.push(row(
            "GET /notes?limit=50 (first page), kept answer",
            time_read(org, &page, runs, true),
            None,
            "for reference".to_owned(),
        ));

        let person_prefix = meta.search_person_prefix.clone();
        let searches: Vec<(String, String, bool)> = vec![
            ("a common word".into(), COMMON_WORD.into(), true),
            ("a rare word".into(), RARE_WORD.into(), true),
            ("two words".into(), TWO_WORDS.into(), true),
            ("a person's name prefix".into(), person_prefix, true),
            (
                "accented, matching unaccented text".into(),
                ACCENTED_QUERY.into(),
                true,
            ),
            ("the commonest word".into(), "the".into(), false),
            ("one letter, as typed".into(), "s".into(), false),
        ];
        for (what, q, targeted) in &searches {
            let request = notes_get(&[("q", q), ("limit", "50")]);
            let answer = call(org, &request, 200)?;
            let counted = call(
                org,
                &notes_get(&[("q", q), ("limit", "1"), ("count", "true")]),
                200,
            )?;
            let found = counted["meta"]["total_count"].as_u64().unwrap_or(0);
            if *targeted && found == 0 {
                return Err(format!("q={q:?} ({what}) finds no note"));
            }
            let size = serde_json::to_vec(&answer).map_or(0, |b| b.len());
            rows.push(row(
                format!("GET /notes?q={q}&limit=50 ({what}), first read after a commit"),
                time_read(org, &request, runs, false),
                targeted.then_some(TARGET_SEARCH),
                format!(
                    "{found} notes match, {} on the page, {size} B{}",
                    answer["data"].as_array().map_or(0, Vec::len),
                    if *targeted { "" } else { "; for reference" }
                ),
            ));
        }
    }

    // A common word's first page, alone and with its count as `organiser
    // notes garden` asks for it (issue 22): the page costs what the page
    // costs, and the count one pass over the word's postings, never a
    // load of every match; the peak memory it adds is measured too.
    if settings.wants("reads") {
        for count in [false, true] {
            let mut pairs = vec![("q", GARDEN_WORD), ("limit", "50")];
            if count {
                pairs.push(("count", "true"));
            }
            let request = notes_get(&pairs);
            let before = reset_peak();
            let answer = call(org, &request, 200)?;
            let grew = proc_status_kib("VmHWM").unwrap_or(0).saturating_sub(before);
            let found = answer["meta"]["total_count"].as_u64();
            rows.push(row(
                format!(
                    "GET /notes?q={GARDEN_WORD}&limit=50{} (a common word{}), first read after a commit",
                    if count { "&count=true" } else { "" },
                    if count { ", counted" } else { "" }
                ),
                time_read(org, &request, runs, false),
                Some(TARGET_COMMON_PAGE),
                format!(
                    "{}{} on the page; peak memory +{grew} KiB on the first read",
                    found.map_or(String::new(), |n| format!("{n} notes match, ")),
                    answer["data"].as_array().map_or(0, Vec::len),
                ),
            ));
        }
    }

    // The cost of any write's commit, for reference.
    let wrote = written();
    let commits = common::time(5, runs, || {
        org.account()
            .change_appearance(AppearanceChange::default())
            .expect("a commit");
    });
    rows.push(row(
        "PATCH /appearance (a write that changes nothing), for reference",
        commits,
        None,
        format!(
            "the commit alone; {}",
            per_call(written() - wrote, runs + 5)
        ),
    ));

    // Saving a note.
    if settings.wants("saves") {
        let warmup = (runs / 10).max(5);
        let mut rng = Rng(0x5A7E_0000_0000_0001);
        let bodies: Vec<String> = (0..warmup + runs)
            .map(|_| saved_body(&mut rng, &directory))
            .collect();
        let creates: Vec<Request> = bodies
            .iter()
            .map(|b| request(Method::Post, "/notes", json!({"note": {"body_html": b}})))
            .collect();
        let body_chars = bodies.iter().map(|b| b.chars().count()).sum::<usize>() / bodies.len();
        let mut created: Vec<Id> = Vec::new();
        rows.push(timed_row(
            "POST /notes (5 mentions, 5 tags)",
            time_requests(org, &creates, warmup, 201, tick, |v| {
                if let Some(id) = v["data"]["id"].as_str().and_then(Id::parse) {
                    created.push(id);
                }
            })?,
            Some(TARGET_SAVE),
            format!("bodies of {body_chars} characters on average"),
        ));
        if created.len() != creates.len() {
            return Err("POST /notes did not answer the notes made".to_owned());
        }
        // An autosave while typing: the body as made, one sentence longer.
        let typed: Vec<Request> = created
            .iter()
            .zip(&bodies)
            .map(|(id, body)| {
                let mut html = body.clone();
                html.push_str("<p>");
                render_sentences(&[sentence(&mut rng, 12)], &mut html);
                html.push_str("</p>");
                request(
                    Method::Patch,
                    &format!("/notes/{id}"),
                    json!({"note": {"body_html": html, "edit_version": 1}}),
                )
            })
            .collect();
        rows.push(timed_row(
            "PATCH /notes/{id} (one sentence added to such a body)",
            time_requests(org, &typed, warmup, 200, tick, |_| {})?,
            Some(TARGET_SAVE),
            "each note once, from edit_version 1".to_owned(),
        ));
        let changes: Vec<Request> = created
            .iter()
            .map(|id| {
                let body = saved_body(&mut rng, &directory);
                request(
                    Method::Patch,
                    &format!("/notes/{id}"),
                    json!({"note": {"body_html": body, "edit_version": 2}}),
                )
            })
            .collect();
        rows.push(timed_row(
            "PATCH /notes/{id} (the whole body replaced, 5 mentions, 5 tags)",
            time_requests(org, &changes, warmup, 200, tick, |_| {})?,
            Some(TARGET_SAVE),
            "each note once, from edit_version 2".to_owned(),
        ));
    }

    // Renames of what 1,000 notes name.
    if settings.wants("renames") {
        let rename_runs = settings.rename_runs;
        let tag_names = [meta.hot_tag_name.as_str(), HOT_TAG_OTHER_NAME];
        let tag_path = format!("/tags/{}", meta.hot_tag);
        let tag_renames: Vec<Request> = (0..=rename_runs)
            .map(|n| {
                request(
                    Method::Patch,
                    &tag_path,
                    json!({"tag": {"name": tag_names[(n + 1) % 2]}}),
                )
            })
            .collect();
        let tagged = count(
            org,
            &NoteQuery {
                tag_id: Some(meta.hot_tag),
                ..NoteQuery::default()
            },
        )?;
        rows.push(timed_row(
            format!("PATCH /tags/{{id}} (rename a tag on {tagged} notes)"),
            time_requests(org, &tag_renames, 1, 200, tick, |_| {})?,
            Some(TARGET_RENAME),
            format!("{} ↔ {}", tag_names[0], tag_names[1]),
        ));
        let person_names = [meta.hot_person_name.as_str(), HOT_PERSON_OTHER_NAME];
        let person_path = format!("/people/{}", meta.hot_person);
        let person_renames: Vec<Request> = (0..=rename_runs)
            .map(|n| {
                request(
                    Method::Patch,
                    &person_path,
                    json!({"person": {"name": person_names[(n + 1) % 2]}}),
                )
            })
            .collect();
        let mentioning = count(
            org,
            &NoteQuery {
                person_id: Some(meta.hot_person),
                ..NoteQuery::default()
            },
        )?;
        rows.push(timed_row(
            format!("PATCH /people/{{id}} (rename a person mentioned in {mentioning} notes)"),
            time_requests(org, &person_renames, 1, 200, tick, |_| {})?,
            Some(TARGET_RENAME),
            format!("{} ↔ {}", person_names[0], person_names[1]),
        ));
        // The renames end on the other name, an odd number of them: check the
        // notes followed.
        let found = count(
            org,
            &NoteQuery {
                q: Some(person_names[(rename_runs + 1) % 2].to_owned()),
                person_id: Some(meta.hot_person),
                ..NoteQuery::default()
            },
        )?;
        if found != mentioning {
            return Err(format!(
                "after the renames, {found} of the {mentioning} notes mentioning the person find it by its name"
            ));
        }
    }
    Ok(rows)
}

fn count(org: &Organiser, query: &NoteQuery) -> Result<u64, String> {
    let query = NoteQuery {
        params: ListParams {
            count: true,
            limit: 1,
            ..ListParams::default()
        },
        ..query.clone()
    };
    org.notes()
        .list(&query)
        .map_err(|e| e.to_string())?
        .total_count
        .ok_or_else(|| "no total_count".to_owned())
}

/// Prints the table; the number of targets missed.
fn report(rows: &[Row], meta: &Meta, bytes: u64, settings: &Settings) -> usize {
    let mut out = String::new();
    let _ = writeln!(out, "\n## Notes on {} notes\n", settings.notes);
    let _ = writeln!(
        out,
        "{}. Store: {}, generated in {:.1} s ({} writes). Saves and reads: {} runs each; renames: {} runs each.\n",
        meta.summary(),
        mib(bytes),
        meta.generation_secs,
        meta.writes,
        settings.runs,
        settings.rename_runs
    );
    let missed = rows_table(&mut out, rows);
    let _ = writeln!(out, "\n{}", targets_verdict(missed));
    print!("{out}");
    missed
}

// ---------------------------------------------------------------- the store's description

/// What a generated store holds, kept beside it in [`META_FILE`].
struct Meta {
    notes: usize,
    generation_secs: f64,
    writes: usize,
    hot_tag: Id,
    hot_tag_name: String,
    hot_person: Id,
    hot_person_name: String,
    /// The name prefix searched for.
    search_person_prefix: String,
    figures: Value,
}

impl Meta {
    fn to_json(&self) -> Value {
        json!({
            "format": META_FORMAT,
            "now": NOW,
            "notes": self.notes,
            "generation_secs": self.generation_secs,
            "writes": self.writes,
            "hot_tag": self.hot_tag.to_string(),
            "hot_tag_name": self.hot_tag_name,
            "hot_person": self.hot_person.to_string(),
            "hot_person_name": self.hot_person_name,
            "search_person_prefix": self.search_person_prefix,
            "figures": self.figures,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        if v["format"].as_u64() != Some(META_FORMAT) || v["now"].as_str() != Some(NOW) {
            return None;
        }
        Some(Meta {
            notes: usize::try_from(v["notes"].as_u64()?).ok()?,
            generation_secs: v["generation_secs"].as_f64()?,
            writes: usize::try_from(v["writes"].as_u64()?).ok()?,
            hot_tag: Id::parse(v["hot_tag"].as_str()?)?,
            hot_tag_name: v["hot_tag_name"].as_str()?.to_owned(),
            hot_person: Id::parse(v["hot_person"].as_str()?)?,
            hot_person_name: v["hot_person_name"].as_str()?.to_owned(),
            search_person_prefix: v["search_person_prefix"].as_str()?.to_owned(),
            figures: v["figures"].clone(),
        })
    }

    fn summary(&self) -> String {
        let f = &self.figures;
        format!(
            "{} notes ({} with 20 mentions and 20 tags, {} edited once, {} in a category, {} titled), \
             bodies of {} characters of HTML on average ({} to {}), {} of text; \
             {} mentions, {} tags and {} project references on a note on average; \
             {} tags, {} people, {} projects, {} categories; \
             tag {:?} on {} notes, {:?} mentioned in {} notes",
            f["notes"],
            f["heavy"],
            f["edited"],
            f["categorised"],
            f["titled"],
            f["html_chars_mean"],
            f["html_chars_min"],
            f["html_chars_max"],
            f["text_chars_mean"],
            f["mentions_mean"],
            f["tags_mean"],
            f["projects_mean"],
            f["tags"],
            f["people"],
            f["projects"],
            f["categories"],
            self.hot_tag_name,
            f["hot_tag_notes"],
            self.hot_person_name,
            f["hot_person_notes"],
        )
    }
}

fn cached(notes: usize, dir: &Path) -> Option<Meta> {
    if !dir.join(organiser::data::STORE_FILE).exists() {
        return None;
    }
    std::fs::read_to_string(dir.join(META_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| Meta::from_json(&v))
        .filter(|m| m.notes == notes)
}

/// The store in `dir`, generated first when missing, made by another
/// generator, or `BENCH_REGENERATE=1`.
fn ensure_store(settings: &Settings, dir: &Path, now: Timestamp) -> Result<Meta, String> {
    if !settings.regenerate
        && let Some(meta) = cached(settings.notes, dir)
    {
        println!("store: cached (BENCH_REGENERATE=1 makes it again)");
        return Ok(meta);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = generate(dir, settings.notes, now)?;
    std::fs::write(
        dir.join(META_FILE),
        serde_json::to_string_pretty(&meta.to_json()).unwrap_or_default(),
    )
    .map_err(|e| format!("write {}: {e}", dir.join(META_FILE).display()))?;
    Ok(meta)
}

// ---------------------------------------------------------------- the plan

/// What one note of the history holds (its text comes from its own seed).
struct NotePlan {
    at: i64,
    /// When it is edited once, if it is.
    edit_at: Option<i64>,
    seed: u64,
    title: Option<String>,
    category: Option<usize>,
    people: Vec<usize>,
    tags: Vec<usize>,
    projects: Vec<usize>,
    /// Characters of text to aim for.
    length: usize,
    heavy: bool,
    /// Words planted to be searched for.
    planted: Vec<&'static str>,
}

fn plan_notes(n: usize, now_ms: i64) -> Vec<NotePlan> {
    let mut rng = Rng(0x0000_4E07_E500_0001);
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let mut notes: Vec<NotePlan> = (0..n)
        .map(|i| {
            // More notes lately.
            let at = t0 + HOUR + (rng.unit().sqrt() * (now_ms - t0 - 2 * DAY) as f64) as i64;
            let heavy = rng.chance(HEAVY_SHARE);
            // Exactly HOT notes of each (every tenth, offset), and no other.
            let hot_tag = i % 10 == 3 && i / 10 < HOT;
            let hot_person = i % 10 == 7 && i / 10 < HOT;
            let few = |rng: &mut Rng| match rng.below(10) {
                0 | 1 => 0,
                2..=4 => 1,
                5..=7 => 2,
                8 => 3,
                _ => 4,
            };
            let (n_people, n_tags) = if heavy {
                (HEAVY_REFS, HEAVY_REFS)
            } else {
                (few(&mut rng), few(&mut rng))
            };
            let mut people = rng.distinct(n_people - usize::from(hot_person && heavy), 1, PEOPLE);
            if hot_person {
                people.insert(0, 0);
            }
            let mut tags = rng.distinct(n_tags - usize::from(hot_tag && heavy), 1, TAGS);
            if hot_tag {
                tags.insert(0, 0);
            }
            let n_projects = if heavy {
                3
            } else if rng.chance(0.3) {
                rng.between(1, 2)
            } else {
                0
            };
            let projects = rng.distinct(n_projects, 0, PROJECTS);
            let length = if heavy {
                rng.between(2200, 3000)
            } else {
                // Most notes short to middling, some long.
                let u = rng.unit();
                500 + (u * u * 2500.0) as usize
            };
            let mut planted = Vec::new();
            if i % 1000 == 17 {
                planted.push(RARE_WORD);
            }
            if rng.chance(0.03) {
                planted.push(UNACCENTED_WORD);
            }
            let titled = rng.chance(TITLED_SHARE);
            let title = titled.then(|| {
                let words = rng.between(2, 6);
                capitalised(
                    &(0..words)
                        .map(|_| word(&mut rng))
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            });
            let category = rng
                .chance(CATEGORISED_SHARE)
                .then(|| rng.zipf(CATEGORIES.len()));
            let edit_at = rng
                .chance(EDITED_SHARE)
                .then(|| at + MINUTE + (rng.unit() * (now_ms - at - 2 * MINUTE) as f64) as i64);
            NotePlan {
                at,
                edit_at,
                seed: rng.next(),
                title,
                category,
                people,
                tags,
                projects,
                length,
                heavy,
                planted,
            }
        })
        .collect();
    // A person's name prefix and the hot tag come first in time as well.
    notes.sort_by_key(|p| p.at);
    notes
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn word(rng: &mut Rng) -> &'static str {
    static LIST: LazyLock<Vec<&'static str>> = LazyLock::new(|| WORDS.split_whitespace().collect());
    LIST[rng.zipf(LIST.len())]
}

/// The records a body names, by index.
struct Directory {
    people: Vec<(Id, String)>,
    projects: Vec<(Id, String)>,
    tags: Vec<String>,
}

impl Directory {
    /// The people, projects and tags of a generated store, in the
    /// generator's order (by name as made).
    fn read(org: &Organiser) -> Result<Directory, String> {
        let by_name = |names: Vec<String>, found: Vec<(Id, String)>| {
            names
                .into_iter()
                .map(|name| {
                    found
                        .iter()
                        .find(|(_, n)| *n == name)
                        .map(|(id, n)| (*id, n.clone()))
                        .ok_or_else(|| format!("{name:?} is not in the store"))
                })
                .collect::<Result<Vec<_>, String>>()
        };
        let people = all_named(org, "/people")?;
        let projects = all_named(org, "/projects")?;
        Ok(Directory {
            people: by_name(person_names(), people)?,
            projects: by_name(project_names(), projects)?,
            tags: tag_names(),
        })
    }
}

/// Every record of the listing at `path`: its id and name.
fn all_named(org: &Organiser, path: &str) -> Result<Vec<(Id, String)>, String> {
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut pairs = vec![("limit", "100".to_owned())];
        if let Some(c) = &cursor {
            pairs.push(("cursor", c.clone()));
        }
        let request =
            Request::new(Method::Get, path, Auth::Local).with_query(Query::from_pairs(pairs));
        let page = call(org, &request, 200)?;
        for item in page["data"].as_array().into_iter().flatten() {
            if let (Some(id), Some(name)) = (
                item["id"].as_str().and_then(Id::parse),
                item["name"].as_str(),
            ) {
                all.push((id, name.to_owned()));
            }
        }
        cursor = page["meta"]["next_cursor"].as_str().map(str::to_owned);
        if cursor.is_none() {
            return Ok(all);
        }
    }
}

fn person_names() -> Vec<String> {
    (0..PEOPLE)
        .map(|k| format!("{} {}", FIRST[k % FIRST.len()], LAST[k / FIRST.len()]))
        .collect()
}

fn project_names() -> Vec<String> {
    (0..PROJECTS)
        .map(|j| {
            format!(
                "{} {}",
                PROJECT_A[j % PROJECT_A.len()],
                PROJECT_B[j / PROJECT_A.len()]
            )
        })
        .collect()
}

fn tag_names() -> Vec<String> {
    (0..TAGS)
        .map(|t| {
            format!(
                "{}{}",
                TAG_TOPICS[t % TAG_TOPICS.len()],
                TAG_SUFFIXES[t / TAG_TOPICS.len()]
            )
        })
        .collect()
}

/// One piece of a sentence.
enum Piece {
    Word(&'static str),
    /// Already HTML: a span, a tag, emphasis, a link.
    Html(String),
}

/// A block of a body.
enum Block {
    Paragraph(Vec<Vec<Piece>>),
    List {
        ordered: bool,
        items: Vec<Vec<Piece>>,
    },
    Quote(Vec<Vec<Piece>>),
    Heading(String),
    Code(String),
}

fn sentence(rng: &mut Rng, words: usize) -> Vec<Piece> {
    let mut pieces = Vec::with_capacity(words);
    for k in 0..words {
        let w = word(rng);
        let r = rng.unit();
        pieces.push(if k == 0 {
            Piece::Html(capitalised(w))
        } else if r < 0.03 {
            Piece::Html(format!("<strong>{w}</strong>"))
        } else if r < 0.06 {
            Piece::Html(format!("<em>{w}</em>"))
        } else if r < 0.075 {
            let w2 = word(rng);
            Piece::Html(format!(
                "<a href=\"https://example.com/{w}/{}\">{w} {w2}</a>",
                rng.below(10_000)
            ))
        } else if r < 0.08 {
            Piece::Html(format!("<code>{w}_{}</code>", word(rng)))
        } else {
            Piece::Word(w)
        });
    }
    pieces
}

fn text_len(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Word(w) => w.len() + 1,
            Piece::Html(h) => h.len() / 2 + 1,
        })
        .sum::<usize>()
        + 1
}

fn render_sentences(sentences: &[Vec<Piece>], out: &mut String) {
    for (n, s) in sentences.iter().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        for (k, p) in s.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            match p {
                Piece::Word(w) => out.push_str(w),
                Piece::Html(h) => out.push_str(h),
            }
        }
        out.push(if n % 7 == 6 { '?' } else { '.' });
    }
}

/// A body of about `length` characters of text naming `people`,
/// `projects` and `tags` (indexes into `dir`), with `planted` words.
#[allow(clippy::too_many_arguments)]
fn body(
    seed: u64,
    length: usize,
    people: &[usize],
    projects: &[usize],
    tags: &[usize],
    planted: &[&'static str],
    dir: &Directory,
) -> String {
    let mut rng = Rng(seed);
    let mut blocks: Vec<Block> = Vec::new();
    let mut chars = 0;
    while chars < length {
        let r = rng.unit();
        let block = if r < 0.62 || blocks.is_empty() {
            let n = rng.between(2, 5);
            let sentences: Vec<Vec<Piece>> = (0..n)
                .map(|_| {
                    let words = rng.between(6, 18);
                    sentence(&mut rng, words)
                })
                .collect();
            Block::Paragraph(sentences)
        } else if r < 0.80 {
            let n = rng.between(3, 6);
            let items: Vec<Vec<Piece>> = (0..n)
                .map(|_| {
                    let words = rng.between(3, 9);
                    sentence(&mut rng, words)
                })
                .collect();
            Block::List {
                ordered: rng.chance(0.3),
                items,
            }
        } else if r < 0.88 {
            let words = rng.between(2, 5);
            Block::Heading(capitalised(
                &(0..words)
                    .map(|_| word(&mut rng))
                    .collect::<Vec<_>>()
                    .join(" "),
            ))
        } else if r < 0.95 {
            let words = rng.between(8, 20);
            Block::Quote(vec![sentence(&mut rng, words)])
        } else {
            let lines = rng.between(2, 5);
            Block::Code(
                (0..lines)
                    .map(|_| {
                        format!(
                            "{} = {}({});",
                            word(&mut rng),
                            word(&mut rng),
                            rng.below(100)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        };
        chars += match &block {
            Block::Paragraph(s) | Block::Quote(s) => s.iter().map(|p| text_len(p)).sum(),
            Block::List { items, .. } => items.iter().map(|p| text_len(p)).sum(),
            Block::Heading(h) | Block::Code(h) => h.len() + 1,
        };
        blocks.push(block);
    }

    // The references, each into a sentence of a paragraph, list or quote.
    let mut inline: Vec<String> = Vec::new();
    for &k in people {
        let (id, name) = &dir.people[k];
        inline.push(format!("<span data-mention=\"{id}\">@{name}</span>"));
    }
    for &j in projects {
        let (id, name) = &dir.projects[j];
        inline.push(format!("<span data-project=\"{id}\">^{name}</span>"));
    }
    // Tags inline in most notes, as a closing line in the others.
    let tags_inline = rng.chance(0.6);
    if tags_inline {
        for &t in tags {
            inline.push(format!("#{}", dir.tags[t]));
        }
    }
    for w in planted {
        inline.push((*w).to_owned());
    }
    for piece in inline {
        let slots: Vec<(usize, usize)> = blocks
            .iter()
            .enumerate()
            .flat_map(|(b, block)| {
                let n = match block {
                    Block::Paragraph(s) | Block::Quote(s) => s.len(),
                    Block::List { items, .. } => items.len(),
                    _ => 0,
                };
                (0..n).map(move |s| (b, s))
            })
            .collect();
        let (b, s) = slots[rng.below(slots.len())];
        let sentence = match &mut blocks[b] {
            Block::Paragraph(s2) | Block::Quote(s2) => &mut s2[s],
            Block::List { items, .. } => &mut items[s],
            _ => unreachable!("a slot is a sentence"),
        };
        let at = 1 + rng.below(sentence.len());
        sentence.insert(at, Piece::Html(piece));
    }

    let mut out = String::with_capacity(length * 2);
    for block in &blocks {
        match block {
            Block::Paragraph(s) => {
                out.push_str("<p>");
                render_sentences(s, &mut out);
                out.push_str("</p>");
            }
            Block::Quote(s) => {
                out.push_str("<blockquote><p>");
                render_sentences(s, &mut out);
                out.push_str("</p></blockquote>");
            }
            Block::List { ordered, items } => {
                let tag = if *ordered { "ol" } else { "ul" };
                let _ = write!(out, "<{tag}>");
                for item in items {
                    out.push_str("<li>");
                    render_sentences(std::slice::from_ref(item), &mut out);
                    out.push_str("</li>");
                }
                let _ = write!(out, "</{tag}>");
            }
            Block::Heading(h) => {
                let _ = write!(out, "<h2>{h}</h2>");
            }
            Block::Code(c) => {
                let _ = write!(out, "<pre><code>{c}</code></pre>");
            }
        }
    }
    if !tags_inline && !tags.is_empty() {
        out.push_str("<p>Tags:");
        for &t in tags {
            let _ = write!(out, " #{}", dir.tags[t]);
        }
        out.push_str("</p>");
    }
    out
}

/// A body as measured saves send: 5 mentions and 5 tags (none of the hot
/// ones), a project reference, about 1,500 characters.
fn saved_body(rng: &mut Rng, dir: &Directory) -> String {
    let people = rng.distinct(5, 1, PEOPLE);
    let tags = rng.distinct(5, 1, TAGS);
    let projects = rng.distinct(1, 0, PROJECTS);
    let length = rng.between(1200, 1800);
    body(rng.next(), length, &people, &projects, &tags, &[], dir)
}

// ---------------------------------------------------------------- generating

/// One write of the history, in the order they happen at the same instant.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Write {
    Person(usize),
    Project(usize),
    Category(usize),
    Note(usize),
    Edit(usize),
}

fn generate(dir: &Path, n: usize, now: Timestamp) -> Result<Meta, String> {
    let started = Instant::now();
    let now_ms = now.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * DAY;
    let plans = plan_notes(n, now_ms);

    let mut writes: Vec<(i64, Write)> = Vec::new();
    for k in 0..PEOPLE {
        writes.push((t0 + k as i64 * 1000, Write::Person(k)));
    }
    for j in 0..PROJECTS {
        writes.push((t0 + 10 * MINUTE + j as i64 * 1000, Write::Project(j)));
    }
    for c in 0..CATEGORIES.len() {
        writes.push((t0 + 20 * MINUTE + c as i64 * 1000, Write::Category(c)));
    }
    for (i, p) in plans.iter().enumerate() {
        writes.push((p.at, Write::Note(i)));
        if let Some(at) = p.edit_at {
            writes.push((at, Write::Edit(i)));
        }
    }
    writes.sort_unstable();
    let total = writes.len();
    println!("store: generating in {} ({total} writes)...", dir.display());

    let clock = ManualClock::new(Timestamp::from_millisecond(t0).map_err(|e| e.to_string())?);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, t0)?;

    let people_names = person_names();
    let project_names = project_names();
    let mut dir_ids = Directory {
        people: Vec::with_capacity(PEOPLE),
        projects: Vec::with_capacity(PROJECTS),
        tags: tag_names(),
    };
    let mut categories: Vec<Id> = Vec::new();
    let mut note_ids: Vec<Option<Id>> = vec![None; plans.len()];
    let mut html_chars: Vec<usize> = Vec::with_capacity(plans.len());
    let mut text_chars: Vec<usize> = Vec::with_capacity(plans.len());
    let mut last_report = Instant::now();
    for (done, (at, write)) in writes.into_iter().enumerate() {
        clock.set(Timestamp::from_millisecond(at).map_err(|e| e.to_string())?);
        match write {
            Write::Person(k) => {
                let person = org
                    .people()
                    .create(PersonInput {
                        name: Some(people_names[k].clone()),
                        ..PersonInput::default()
                    })
                    .map_err(|e| format!("person {k}: {e}"))?;
                dir_ids.people.push((person.id, person.name));
            }
            Write::Project(j) => {
                let project = org
                    .projects()
                    .create(ProjectInput {
                        name: Some(project_names[j].clone()),
                        ..ProjectInput::default()
                    })
                    .map_err(|e| format!("project {j}: {e}"))?;
                dir_ids.projects.push((project.id, project.name));
            }
            Write::Category(c) => {
                let name = CATEGORIES[c];
                let category = org
                    .categories()
                    .create(CategoryInput {
                        name: Some(name.to_owned()),
                        ..CategoryInput::default()
                    })
                    .map_err(|e| format!("category {name}: {e}"))?;
                categories.push(category.id);
            }
            Write::Note(i) => {
                let p = &plans[i];
                let html = body(
                    p.seed,
                    p.length,
                    &p.people,
                    &p.projects,
                    &p.tags,
                    &p.planted,
                    &dir_ids,
                );
                let note = org
                    .notes()
                    .create(NoteInput {
                        title: p.title.clone().map_or(Field::Absent, Field::Value),
                        category_id: p
                            .category
                            .map_or(Field::Absent, |c| Field::Value(categories[c])),
                        body_html: Field::Value(html),
                        edit_version: None,
                    })
                    .map_err(|e| format!("note {i}: {e}"))?;
                if note.person_ids.len() != p.people.len() || note.tag_ids.len() != p.tags.len() {
                    return Err(format!(
                        "note {i}: {} people and {} tags, not the {} and {} planned",
                        note.person_ids.len(),
                        note.tag_ids.len(),
                        p.people.len(),
                        p.tags.len()
                    ));
                }
                html_chars.push(note.body_html.chars().count());
                text_chars.push(note.body_text.chars().count());
                note_ids[i] = Some(note.id);
            }
            Write::Edit(i) => {
                let p = &plans[i];
                // The same references; more text.
                let html = body(
                    p.seed,
                    p.length + 200,
                    &p.people,
                    &p.projects,
                    &p.tags,
                    &p.planted,
                    &dir_ids,
                );
                org.notes()
                    .change(
                        note_ids[i].ok_or("an edit before its note")?,
                        NoteInput {
                            body_html: Field::Value(html),
                            edit_version: Some(1),
                            ..NoteInput::default()
                        },
                    )
                    .map_err(|e| format!("edit note {i}: {e}"))?;
            }
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            println!(
                "  {done}/{total} writes, {secs:.0} s, {:.0} writes/s",
                done as f64 / secs
            );
        }
    }
    clock.set(now);
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store: generated in {generation_secs:.1} s");

    let tags = all_named(&org, "/tags")?;
    let hot_tag_name = dir_ids.tags[0].clone();
    let hot_tag = tags
        .iter()
        .find(|(_, name)| *name == hot_tag_name)
        .map(|(id, _)| *id)
        .ok_or("the hot tag is not in the store")?;
    let (hot_person, hot_person_name) = dir_ids.people[0].clone();
    let hot_tag_notes = count(
        &org,
        &NoteQuery {
            tag_id: Some(hot_tag),
            ..NoteQuery::default()
        },
    )?;
    let hot_person_notes = count(
        &org,
        &NoteQuery {
            person_id: Some(hot_person),
            ..NoteQuery::default()
        },
    )?;
    if hot_tag_notes != HOT as u64 || hot_person_notes != HOT as u64 {
        return Err(format!(
            "the hot tag is on {hot_tag_notes} notes and the hot person in {hot_person_notes}, not {HOT}"
        ));
    }
    let mean = |v: &[usize]| v.iter().sum::<usize>() / v.len().max(1);
    let per_note = |f: fn(&NotePlan) -> usize| {
        format!(
            "{:.1}",
            plans.iter().map(f).sum::<usize>() as f64 / plans.len() as f64
        )
    };
    // The surname of a person mentioned now and then (not the hot one).
    let search_person_prefix: String = LAST[5].chars().take(4).collect();
    let figures = json!({
        "notes": count(&org, &NoteQuery::default())?,
        "heavy": plans.iter().filter(|p| p.heavy).count(),
        "edited": plans.iter().filter(|p| p.edit_at.is_some()).count(),
        "categorised": plans.iter().filter(|p| p.category.is_some()).count(),
        "titled": plans.iter().filter(|p| p.title.is_some()).count(),
        "html_chars_mean": mean(&html_chars),
        "html_chars_min": html_chars.iter().min(),
        "html_chars_max": html_chars.iter().max(),
        "text_chars_mean": mean(&text_chars),
        "mentions_mean": per_note(|p| p.people.len()),
        "tags_mean": per_note(|p| p.tags.len()),
        "projects_mean": per_note(|p| p.projects.len()),
        "tags": tags.len(),
        "people": PEOPLE,
        "projects": PROJECTS,
        "categories": CATEGORIES.len(),
        "hot_tag_notes": hot_tag_notes,
        "hot_person_notes": hot_person_notes,
    });
    Ok(Meta {
        notes: n,
        generation_secs,
        writes: total,
        hot_tag,
        hot_tag_name,
        hot_person,
        hot_person_name,
        search_person_prefix,
        figures,
    })
}

// ---------------------------------------------------------------- words

/// Searched for: common, rare (planted in one note in 1,000), two words,
/// an accented query whose unaccented form is planted in one note in 33.
const COMMON_WORD: &str = "meeting";
const RARE_WORD: &str = "xylophone";
const TWO_WORDS: &str = "budget review";
const UNACCENTED_WORD: &str = "cafe";
const ACCENTED_QUERY: &str = "café";
/// The hot tag's and the hot person's other names (renames alternate).
const HOT_TAG_OTHER_NAME: &str = "weekly-planning";
const HOT_PERSON_OTHER_NAME: &str = "Ada King";

const FIRST: &[&str] = &[
    "Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret", "Dennis",
    "Ken", "Niklaus", "Adele", "Radia", "José", "Zoë", "Chloé", "Søren", "Anaïs", "Björn",
];
const LAST: &[&str] = &[
    "Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Hamilton",
    "Ritchie", "Thompson", "Wirth", "Goldberg", "Perlman", "Backus",
];
const PROJECT_A: &[&str] = &[
    "Kitchen", "Garden", "Website", "Podcast", "Wedding", "Office", "Tax", "Novel", "Marathon",
    "Cabin",
];
const PROJECT_B: &[&str] = &[
    "renovation",
    "plan",
    "relaunch",
    "research",
    "budget",
    "move",
    "archive",
    "draft",
    "training",
    "trip",
];
const TAG_TOPICS: &[&str] = &[
    "weekly-plan",
    "books",
    "travel",
    "health",
    "finance",
    "family",
    "work",
    "garden",
    "cooking",
    "music",
    "films",
    "fitness",
    "learning",
    "writing",
    "photography",
    "home",
    "car",
    "shopping",
    "gifts",
    "ideas",
    "quotes",
    "meetings",
    "hiring",
    "design",
    "research",
    "clients",
    "invoices",
    "taxes",
    "school",
    "kids",
    "pets",
    "friends",
    "recipes",
    "running",
    "cycling",
    "podcasts",
    "software",
    "hardware",
    "events",
    "someday",
];
const TAG_SUFFIXES: &[&str] = &["", "-ideas", "-2026", "-followup", "-archive"];

/// Words of the bodies, roughly commonest first (picked Zipf-weighted).
const WORDS: &str = "\
    the and to of a in for is on that with we it this be about from at as our will have are not \
    but next need can should all more some they so if there then what when meeting week time \
    make new plan after before also just one two first last still like into over up out their \
    them list notes idea ideas call email review budget team project today tomorrow monday \
    friday weekend morning evening check follow send ask write read book books draft later soon \
    maybe probably important question questions answer decide decision agreed changes change \
    update updates progress status report numbers costs price order delivery date dates schedule \
    calendar holiday trip train flight hotel booking tickets garden kitchen house room paint \
    window door floor light water energy bill insurance bank account payment invoice receipt tax \
    return doctor appointment dentist exercise run walk swim sleep diet recipe dinner lunch \
    breakfast coffee tea bread soup salad market shop groceries gift birthday party friends \
    family kids school homework teacher class course lesson learn practice piano guitar song \
    album concert film movie series episode podcast article chapter author quote thought \
    thoughts feeling mood happy tired busy quiet long short good better best bad worse easy hard \
    simple clear open closed done started finished waiting blocked urgent together alone \
    remember forget reminder keep try again small large few many every each other another around \
    between during without because although however perhaps instead already almost enough quite \
    rather really design prototype sketch layout colour font screen phone laptop backup password \
    server database release version bug fix test deploy feature feedback customer client \
    contract proposal estimate deadline milestone goal goals priority risk issue agenda minutes \
    summary outline structure research interview survey results analysis chart spreadsheet \
    document folder archive photo photos camera mountain river lake beach forest city village \
    station airport museum gallery library bakery restaurant neighbour parcel post letter \
    postcard stamp bicycle tyre repair tools ladder shelf cupboard curtains plants tomatoes \
    roses seeds compost harvest autumn winter spring summer rain snow wind sunny cloudy warm \
    cold lavender saffron quinoa marmalade origami telescope harpsichord zeppelin kaleidoscope \
    labyrinth nebula archipelago wanderlust";

/// Resets the process's peak memory (`VmHWM`) to what it holds now, and
/// gives that in KiB (Linux: writing 5 to `/proc/self/clear_refs`).
fn reset_peak() -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    proc_status_kib("VmRSS").unwrap_or(0)
}
