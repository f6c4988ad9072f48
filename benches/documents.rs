//! Documents on a disk store of 20,000 small PDFs in 500 folders (50 top
//! level, each with 9 subfolders; most documents in a few busy folders,
//! one in twenty-five in none). It measures, through `Organiser::handle`
//! (the JSON the server answers) and `Organiser::upload`, in process:
//!
//! - uploading and saving a 20 MB PDF: `Organiser::upload` of its bytes
//!   then `POST /documents` taking the upload into a folder (at most 300 ms
//!   median; the thumbnail, rendered on a thread of its own after the
//!   commit, is not counted). Timed twice: back to back, the next upload
//!   starting while the last thumbnail may still render, and with a pause
//!   between runs (until the thumbnail is in place, then
//!   `BENCH_UPLOAD_PAUSE_MS`), so whether the thumbnail disturbs the
//!   timings shows;
//! - the first page of `GET /documents` (at most 2 ms);
//! - `GET /folder_counts` (at most 2 ms).
//!
//! ```text
//! cargo bench --bench documents
//! BENCH_REGENERATE=1 cargo bench --bench documents     # build the store again
//! ```
//!
//! The store is generated once through the public API (an upload and a
//! `POST /documents` per document, one transaction each, as an app would
//! make them, over two years of history on a `ManualClock` ending at
//! [`NOW`]) and kept in `target/bench-documents-20000` (with
//! `bench-documents.json` beside the store describing it); it is made
//! again when missing, when made by another generator, or with
//! `BENCH_REGENERATE=1`. The measurements write, so they run on a copy,
//! `target/bench-documents-20000-run`, made afresh each run (the store
//! file copied, the files under `files/` hard-linked: the core never
//! changes a file in place), so every run measures the same store.
//!
//! Every read is timed as the first read after a commit (an untimed
//! `change_appearance` before each call), so no answer the core keeps for
//! a commit generation serves it; both are timed again as kept answers,
//! for reference. Writes advance the clock by a second each. The run
//! fails (exit code 1) when a target is missed.
//!
//! Environment: `BENCH_DOCUMENTS` (default 20000), `BENCH_FOLDERS`
//! (default 500, a multiple of 10), `BENCH_RUNS` (runs of each read,
//! default 200), `BENCH_UPLOAD_RUNS` (runs of each upload measurement,
//! default 20), `BENCH_UPLOAD_MIB` (the big PDF's size, default 20),
//! `BENCH_UPLOAD_PAUSE_MS` (the pause after the thumbnail, default 250),
//! `BENCH_ONLY` (some of `reads,uploads`; default all),
//! `BENCH_REGENERATE=1`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};
use organiser::{
    Auth, Id, Organiser, account::AppearanceChange, clock::ManualClock, list::Query,
    server::Method, server::Request,
};
use serde_json::{Value, json};

#[path = "common/mod.rs"]
mod common;
use common::{
    AREAS, DOC_KINDS, Rng, Row, SUBFOLDER_NAMES, SUBFOLDERS, Stats, bench_main, copy_store,
    env_number, mib, options, row, rows_table, stats, store_size, target_dir, targets_verdict,
    written,
};

/// The instant the store's history ends at, and where the measurements'
/// clock starts.
const NOW: &str = "2026-10-14T09:30:00Z";
/// How far back the history goes.
const HISTORY_DAYS: i64 = 730;
/// The share of documents in no folder.
const UNFOLDERED_SHARE: f64 = 0.04;

/// Targets (medians).
const TARGET_UPLOAD: Duration = Duration::from_millis(300);
const TARGET_PAGE: Duration = Duration::from_millis(2);
const TARGET_COUNTS: Duration = Duration::from_millis(2);

const DAY: i64 = 24 * 60 * 60 * 1000;
/// The longer side of a document's thumbnail (the core's `THUMBNAIL_SIDE`):
/// its file is `files/uploads/<upload id>.256.webp`.
const THUMBNAIL_SIDE: u32 = 256;
/// How long to wait for a thumbnail before giving up.
const THUMBNAIL_WAIT: Duration = Duration::from_secs(30);

/// The file beside the store that describes it (and says it is complete).
const META_FILE: &str = "bench-documents.json";
/// Bumped when the generator changes, so older stores are made again.
const META_FORMAT: u64 = 1;

fn main() -> ExitCode {
    bench_main("documents", |_| run())
}

// ---------------------------------------------------------------- the run

struct Settings {
    /// The parts to measure (`BENCH_ONLY`): reads, uploads.
    only: Vec<String>,
    documents: usize,
    folders: usize,
    runs: usize,
    upload_runs: usize,
    upload_mib: usize,
    pause: Duration,
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
        documents: env_number("BENCH_DOCUMENTS", 20_000)?.max(1),
        folders: env_number("BENCH_FOLDERS", 500)?,
        runs: env_number("BENCH_RUNS", 200)?.max(1),
        upload_runs: env_number("BENCH_UPLOAD_RUNS", 20)?.max(1),
        upload_mib: env_number("BENCH_UPLOAD_MIB", 20)?.max(1),
        pause: Duration::from_millis(env_number("BENCH_UPLOAD_PAUSE_MS", 250)? as u64),
        regenerate: std::env::var("BENCH_REGENERATE").is_ok_and(|v| v.trim() == "1"),
        target_dir: target_dir()?,
    };
    if settings.folders == 0 || !settings.folders.is_multiple_of(SUBFOLDERS + 1) {
        return Err(format!(
            "BENCH_FOLDERS: {} is not a positive multiple of {}",
            settings.folders,
            SUBFOLDERS + 1
        ));
    }
    let now: Timestamp = NOW.parse().map_err(|e| format!("{e}"))?;
    println!(
        "documents: {} documents in {} folders; now = {NOW}",
        settings.documents, settings.folders
    );
    let dir = settings
        .target_dir
        .join(format!("bench-documents-{}", settings.documents));
    let meta = ensure_store(&settings, &dir, now)?;
    let (store_bytes, files_bytes, files) = store_size(&dir);
    println!(
        "store: {} store file and {} in {files} files in {}, generated in {:.1} s ({} writes)",
        mib(store_bytes),
        mib(files_bytes),
        dir.display(),
        meta.generation_secs,
        meta.writes
    );
    println!("  {}", meta.summary());

    // The measurements write: they run on a copy of the store.
    let run_dir = settings
        .target_dir
        .join(format!("bench-documents-{}-run", settings.documents));
    if run_dir.exists() {
        std::fs::remove_dir_all(&run_dir)
            .map_err(|e| format!("remove {}: {e}", run_dir.display()))?;
    }
    let copying = Instant::now();
    copy_store(&dir, &run_dir, META_FILE)?;
    println!(
        "run copy: {} in {:.1} s",
        run_dir.display(),
        copying.elapsed().as_secs_f64()
    );
    let clock = ManualClock::new(now);
    let org = Organiser::open_with(&run_dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", run_dir.display()))?;

    let rows = measure(&org, &clock, &meta, &settings, &run_dir)?;
    let missed = report(&rows, &meta, (store_bytes, files_bytes, files), &settings);
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

fn get(path: &str, pairs: &[(&str, &str)]) -> Request {
    Request::new(Method::Get, path, Auth::Local).with_query(Query::from_pairs(pairs.to_vec()))
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

/// Uploads `bytes` as a document named `filename`; its signed ID.
fn upload(org: &Organiser, filename: &str, bytes: Vec<u8>) -> Result<String, String> {
    org.uploads()
        .create(
            organiser::uploads::UploadKind::Document,
            filename,
            "application/pdf",
            bytes,
        )
        .map(|u| u.signed_id)
        .map_err(|e| format!("upload {filename}: {e}"))
}

/// `POST /documents` taking upload `signed` into `folder`.
fn document_post(signed: &str, folder: Option<Id>) -> Request {
    request(
        Method::Post,
        "/documents",
        json!({"document": {
            "upload": signed,
            "folder_id": folder.map(|f| f.to_string()),
        }}),
    )
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

/// Waits until `path` exists; how long that took.
fn wait_for(path: &Path) -> Result<Duration, String> {
    let start = Instant::now();
    while !path.exists() {
        if start.elapsed() > THUMBNAIL_WAIT {
            return Err(format!("no thumbnail at {} after 30 s", path.display()));
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    Ok(start.elapsed())
}

/// Times `request` `runs` times, each the first read after a commit
/// (unless `kept`).
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

/// The bytes of a PDF of `len` bytes the upload accepts: a header, a body
/// of `seed`-made filler (incompressible, as a scan's images are), and
/// the end-of-file marker.
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

/// What the upload measurements gathered in one mode.
struct UploadRun {
    total: Vec<Duration>,
    upload: Vec<Duration>,
    post: Vec<Duration>,
    /// From the `POST` answered to the thumbnail in place (paused mode).
    thumbnail: Vec<Duration>,
    written: u64,
    calls: usize,
}

/// Uploads and saves the big PDF `runs` times (after `warmup` untimed),
/// each into one of `folders` in turn; with `pause`, waits for each
/// thumbnail and then the pause before the next run.
fn time_uploads(
    org: &Organiser,
    clock: &ManualClock,
    data_dir: &Path,
    (pdf, name): (&[u8], &str),
    folders: &[Id],
    (warmup, runs): (usize, usize),
    pause: Option<Duration>,
) -> Result<UploadRun, String> {
    let mut out = UploadRun {
        total: Vec::new(),
        upload: Vec::new(),
        post: Vec::new(),
        thumbnail: Vec::new(),
        written: 0,
        calls: 0,
    };
    let wrote = written();
    for n in 0..warmup + runs {
        clock.advance(SignedDuration::from_secs(1));
        // The bytes as the server would hold them: a body read into memory.
        let bytes = pdf.to_vec();
        let filename = format!("{name} {n}.pdf");
        let folder = folders[n % folders.len()];
        let start = Instant::now();
        let signed = upload(org, &filename, bytes)?;
        let uploaded = start.elapsed();
        let response = org.handle(&document_post(&signed, Some(folder)));
        let total = start.elapsed();
        if response.status != 201 {
            return Err(format!(
                "POST /documents answered {}: {}",
                response.status,
                response.json_value()
            ));
        }
        let doc = response.json_value();
        if doc["data"]["file"]["byte_size"].as_u64() != Some(pdf.len() as u64) {
            return Err(format!("the document made is not the PDF sent: {doc}"));
        }
        let thumbnail = match pause {
            Some(pause) => {
                let waited = wait_for(&thumbnail_path(data_dir, &signed)?)?;
                std::thread::sleep(pause);
                Some(waited)
            }
            None => None,
        };
        if n >= warmup {
            out.total.push(total);
            out.upload.push(uploaded);
            out.post.push(total - uploaded);
            out.thumbnail.extend(thumbnail);
        }
    }
    out.written = written() - wrote;
    out.calls = warmup + runs;
    Ok(out)
}

fn measure(
    org: &Organiser,
    clock: &ManualClock,
    meta: &Meta,
    settings: &Settings,
    data_dir: &Path,
) -> Result<Vec<Row>, String> {
    let runs = settings.runs;
    let mut rows = Vec::new();

    println!("\nin-process, handle(&Request); {runs} runs of each read:");

    // Reads first, on the store as generated.
    if settings.wants("reads") {
        let page = get("/documents", &[]);
        let first = call(org, &page, 200)?;
        let size = serde_json::to_vec(&first).map_or(0, |b| b.len());
        let counted = call(org, &get("/documents", &[("count", "true")]), 200)?;
        let total = counted["meta"]["total_count"].as_u64().unwrap_or(0);
        if total != meta.documents as u64 {
            return Err(format!(
                "GET /documents counts {total} documents, not {}",
                meta.documents
            ));
        }
        rows.push(row(
            "GET /documents (first page), first read after a commit",
            time_read(org, &page, runs, false),
            Some(TARGET_PAGE),
            format!(
                "{} of {total} documents by name, {size} B",
                first["data"].as_array().map_or(0, Vec::len)
            ),
        ));
        rows.push(row(
            "GET /documents (first page), kept answer",
            time_read(org, &page, runs, true),
            None,
            "for reference".to_owned(),
        ));
        let busiest = meta.busiest_folder.to_string();
        let in_folder = get("/documents", &[("folder_id", &busiest)]);
        let answer = call(org, &in_folder, 200)?;
        rows.push(row(
            "GET /documents?folder_id= (the busiest folder's first page)",
            time_read(org, &in_folder, runs, false),
            None,
            format!(
                "{} of the folder's {} documents; for reference",
                answer["data"].as_array().map_or(0, Vec::len),
                meta.busiest_folder_documents
            ),
        ));
        let middling = meta.sample_folders[0].to_string();
        let in_folder = get("/documents", &[("folder_id", &middling)]);
        let answer = call(org, &in_folder, 200)?;
        rows.push(row(
            "GET /documents?folder_id= (a middling folder's first page)",
            time_read(org, &in_folder, runs, false),
            None,
            format!(
                "{} documents; for reference",
                answer["data"].as_array().map_or(0, Vec::len)
            ),
        ));
        let search = get("/documents", &[("q", "invoice")]);
        let answer = call(org, &search, 200)?;
        rows.push(row(
            "GET /documents?q=invoice (first page)",
            time_read(org, &search, runs, false),
            None,
            format!(
                "{} on the page; for reference",
                answer["data"].as_array().map_or(0, Vec::len)
            ),
        ));

        let counts = get("/folder_counts", &[]);
        let answer = call(org, &counts, 200)?;
        let rows_answered = answer["data"].as_array().map_or(0, Vec::len);
        let counted: u64 = answer["data"].as_array().map_or(0, |a| {
            a.iter().filter_map(|r| r["document_count"].as_u64()).sum()
        });
        if counted != meta.documents as u64 {
            return Err(format!(
                "GET /folder_counts counts {counted} documents, not {}",
                meta.documents
            ));
        }
        let size = serde_json::to_vec(&answer).map_or(0, |b| b.len());
        rows.push(row(
            "GET /folder_counts, first read after a commit",
            time_read(org, &counts, runs, false),
            Some(TARGET_COUNTS),
            format!("{rows_answered} rows, {counted} documents, {size} B"),
        ));
        rows.push(row(
            "GET /folder_counts, kept answer",
            time_read(org, &counts, runs, true),
            None,
            "for reference".to_owned(),
        ));
    }

    // The cost of any write's commit, for reference.
    let commits = common::time(5, runs, || {
        org.account()
            .change_appearance(AppearanceChange::default())
            .expect("a commit");
    });
    rows.push(row(
        "PATCH /appearance (a write that changes nothing), for reference",
        commits,
        None,
        "the commit alone".to_owned(),
    ));

    if settings.wants("uploads") {
        let bytes = settings.upload_mib * 1024 * 1024;
        let pdf = pdf_bytes(bytes, 0xB16_0000_0000_0001);
        let runs = settings.upload_runs;
        let warmup = (runs / 10).max(2);
        println!(
            "\n{} MiB PDF; {runs} runs of each upload measurement ({warmup} untimed first):",
            settings.upload_mib
        );
        let folders = &meta.sample_folders;
        let label = format!("{} MiB", settings.upload_mib);
        for (mode, pause) in [
            ("back to back".to_owned(), None),
            (
                format!(
                    "thumbnail waited for, then {} ms pause",
                    settings.pause.as_millis()
                ),
                Some(settings.pause),
            ),
        ] {
            let measured = time_uploads(
                org,
                clock,
                data_dir,
                (&pdf, "Scanned contract"),
                folders,
                (warmup, runs),
                pause,
            )?;
            let written = format!(
                "{:.1} MiB written a run",
                measured.written as f64 / (1024.0 * 1024.0) / measured.calls as f64
            );
            rows.push(row(
                format!("upload + POST /documents ({label} PDF), {mode}"),
                stats(measured.total.clone()),
                Some(TARGET_UPLOAD),
                format!("into a folder; {written} (thumbnails included)"),
            ));
            rows.push(row(
                format!("  of which the upload ({mode})"),
                stats(measured.upload.clone()),
                None,
                "checked, written to a temporary name, synced, renamed, committed".to_owned(),
            ));
            rows.push(row(
                format!("  of which POST /documents ({mode})"),
                stats(measured.post.clone()),
                None,
                "the upload taken, the document committed".to_owned(),
            ));
            if !measured.thumbnail.is_empty() {
                rows.push(row(
                    "  the thumbnail in place, after POST /documents answered",
                    stats(measured.thumbnail.clone()),
                    None,
                    "the background thread (the core's placeholder icon); not counted".to_owned(),
                ));
            }
        }
    }
    Ok(rows)
}

/// Prints the table; the number of targets missed.
fn report(
    rows: &[Row],
    meta: &Meta,
    (store_bytes, files_bytes, files): (u64, u64, usize),
    settings: &Settings,
) -> usize {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n## Documents on {} documents in {} folders\n",
        settings.documents, settings.folders
    );
    let _ = writeln!(
        out,
        "{}. Store: {} store file and {} in {files} files (PDFs and thumbnails), generated in {:.1} s ({} writes). Reads: {} runs each; uploads: {} runs each.\n",
        meta.summary(),
        mib(store_bytes),
        mib(files_bytes),
        meta.generation_secs,
        meta.writes,
        settings.runs,
        settings.upload_runs
    );
    let missed = rows_table(&mut out, rows);
    let _ = writeln!(out, "\n{}", targets_verdict(missed));
    print!("{out}");
    missed
}

// ---------------------------------------------------------------- the store's description

/// What a generated store holds, kept beside it in [`META_FILE`].
struct Meta {
    documents: usize,
    folders: usize,
    generation_secs: f64,
    writes: usize,
    busiest_folder: Id,
    busiest_folder_documents: usize,
    /// Folders the measured uploads go to, in turn.
    sample_folders: Vec<Id>,
    figures: Value,
}

impl Meta {
    fn to_json(&self) -> Value {
        json!({
            "format": META_FORMAT,
            "now": NOW,
            "documents": self.documents,
            "folders": self.folders,
            "generation_secs": self.generation_secs,
            "writes": self.writes,
            "busiest_folder": self.busiest_folder.to_string(),
            "busiest_folder_documents": self.busiest_folder_documents,
            "sample_folders": self.sample_folders.iter().map(Id::to_string).collect::<Vec<_>>(),
            "figures": self.figures,
        })
    }

    fn from_json(v: &Value) -> Option<Meta> {
        if v["format"].as_u64() != Some(META_FORMAT) || v["now"].as_str() != Some(NOW) {
            return None;
        }
        Some(Meta {
            documents: usize::try_from(v["documents"].as_u64()?).ok()?,
            folders: usize::try_from(v["folders"].as_u64()?).ok()?,
            generation_secs: v["generation_secs"].as_f64()?,
            writes: usize::try_from(v["writes"].as_u64()?).ok()?,
            busiest_folder: Id::parse(v["busiest_folder"].as_str()?)?,
            busiest_folder_documents: usize::try_from(v["busiest_folder_documents"].as_u64()?)
                .ok()?,
            sample_folders: v["sample_folders"]
                .as_array()?
                .iter()
                .map(|f| f.as_str().and_then(Id::parse))
                .collect::<Option<Vec<Id>>>()?,
            figures: v["figures"].clone(),
        })
    }

    fn summary(&self) -> String {
        let f = &self.figures;
        format!(
            "{} documents ({} in no folder) in {} folders ({} top level, {} subfolders; {} holding documents), \
             the busiest folder holding {}, the median one {}; PDFs of {} to {} bytes ({} on average)",
            self.documents,
            f["unfoldered"],
            self.folders,
            f["top_folders"],
            f["subfolders"],
            f["folders_used"],
            self.busiest_folder_documents,
            f["median_folder_documents"],
            f["pdf_bytes_min"],
            f["pdf_bytes_max"],
            f["pdf_bytes_mean"],
        )
    }
}

fn cached(settings: &Settings, dir: &Path) -> Option<Meta> {
    if !dir.join(organiser::data::STORE_FILE).exists() {
        return None;
    }
    std::fs::read_to_string(dir.join(META_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| Meta::from_json(&v))
        .filter(|m| m.documents == settings.documents && m.folders == settings.folders)
}

/// The store in `dir`, generated first when missing, made by another
/// generator, or `BENCH_REGENERATE=1`.
fn ensure_store(settings: &Settings, dir: &Path, now: Timestamp) -> Result<Meta, String> {
    if !settings.regenerate
        && let Some(meta) = cached(settings, dir)
    {
        println!("store: cached (BENCH_REGENERATE=1 makes it again)");
        return Ok(meta);
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let meta = generate(dir, settings, now)?;
    std::fs::write(
        dir.join(META_FILE),
        serde_json::to_string_pretty(&meta.to_json()).unwrap_or_default(),
    )
    .map_err(|e| format!("write {}: {e}", dir.join(META_FILE).display()))?;
    Ok(meta)
}

// ---------------------------------------------------------------- generating

fn generate(dir: &Path, settings: &Settings, now: Timestamp) -> Result<Meta, String> {
    let started = Instant::now();
    let n = settings.documents;
    let top = settings.folders / (SUBFOLDERS + 1);
    let now_ms = now.as_millisecond();
    let t0 = now_ms - HISTORY_DAYS * DAY;
    println!(
        "store: generating in {} ({} folders, then {n} documents: an upload and a POST each)...",
        dir.display(),
        settings.folders
    );
    let clock = ManualClock::new(Timestamp::from_millisecond(t0).map_err(|e| e.to_string())?);
    let org = Organiser::open_with(dir, options(clock.clone()))
        .map_err(|e| format!("open {}: {e}", dir.display()))?;
    common::license(&org, t0)?;
    let tick = |ms: i64| clock.advance(SignedDuration::from_millis(ms));

    // Folders: each top-level one, then its subfolders.
    let mut folders: Vec<Id> = Vec::with_capacity(settings.folders);
    let folder_id = |v: &Value| {
        v["data"]["id"]
            .as_str()
            .and_then(Id::parse)
            .ok_or_else(|| format!("no folder id in {v}"))
    };
    for t in 0..top {
        tick(1000);
        let name = format!("{} {}", AREAS[t % AREAS.len()], 2020 + t / AREAS.len());
        let parent = folder_id(&call(
            &org,
            &request(Method::Post, "/folders", json!({"folder": {"name": name}})),
            201,
        )?)?;
        folders.push(parent);
        for sub in SUBFOLDER_NAMES {
            tick(1000);
            let child = folder_id(&call(
                &org,
                &request(
                    Method::Post,
                    "/folders",
                    json!({"folder": {"name": sub, "parent_id": parent.to_string()}}),
                ),
                201,
            )?)?;
            folders.push(child);
        }
    }

    // Documents, spread over the history; folders picked Zipf-weighted
    // from a shuffled order, so the busy ones are all over the tree.
    let mut rng = Rng(0x0D0C_0000_0000_0001);
    let mut order: Vec<usize> = (0..folders.len()).collect();
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
    let step = ((now_ms - t0 - 2 * DAY) / n as i64).max(1);
    let mut per_folder = vec![0usize; folders.len()];
    let mut unfoldered = 0usize;
    let mut sizes: Vec<usize> = Vec::with_capacity(n);
    let mut last_signed = String::new();
    let mut last_report = Instant::now();
    for i in 0..n {
        tick(step);
        let folder = if rng.chance(UNFOLDERED_SHARE) {
            unfoldered += 1;
            None
        } else {
            let f = order[rng.zipf(folders.len())];
            per_folder[f] += 1;
            Some(folders[f])
        };
        let kind = DOC_KINDS[rng.below(DOC_KINDS.len())];
        let filename = format!("{kind} {}.pdf", 1000 + rng.below(9000));
        // Small PDFs, 1 to 16 KiB.
        let len = rng.between(1024, 16 * 1024);
        sizes.push(len);
        let signed = upload(&org, &filename, pdf_bytes(len, rng.next()))?;
        tick(1000);
        call(&org, &document_post(&signed, folder), 201)
            .map_err(|e| format!("document {i}: {e}"))?;
        last_signed = signed;
        if last_report.elapsed() > Duration::from_secs(15) {
            last_report = Instant::now();
            let secs = started.elapsed().as_secs_f64();
            println!(
                "  {i}/{n} documents, {secs:.0} s, {:.0} documents/s",
                i as f64 / secs
            );
        }
    }
    // The thumbnails render in the background: every one in place before
    // the store is kept.
    wait_for(&thumbnail_path(dir, &last_signed)?)?;
    let uploads_dir = dir.join(organiser::data::FILES_DIR).join("uploads");
    let waiting = Instant::now();
    loop {
        let thumbnails = std::fs::read_dir(&uploads_dir)
            .map_err(|e| format!("{}: {e}", uploads_dir.display()))?
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".webp"))
            .count();
        if thumbnails >= n {
            break;
        }
        if waiting.elapsed() > THUMBNAIL_WAIT {
            return Err(format!("{thumbnails} of {n} thumbnails after 30 s"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(org);
    let generation_secs = started.elapsed().as_secs_f64();
    println!("store: generated in {generation_secs:.1} s");

    let busiest = (0..folders.len())
        .max_by_key(|&f| per_folder[f])
        .ok_or("no folders")?;
    let mut used: Vec<usize> = per_folder.iter().copied().filter(|&c| c > 0).collect();
    used.sort_unstable();
    // The measured uploads go to a few folders of middling use.
    let mut by_use: Vec<usize> = (0..folders.len()).collect();
    by_use.sort_by_key(|&f| per_folder[f]);
    let sample_folders: Vec<Id> = by_use[by_use.len() / 2..]
        .iter()
        .take(10)
        .map(|&f| folders[f])
        .collect();
    let figures = json!({
        "unfoldered": unfoldered,
        "top_folders": top,
        "subfolders": top * SUBFOLDERS,
        "folders_used": used.len(),
        "median_folder_documents": used.get(used.len() / 2).copied().unwrap_or(0),
        "pdf_bytes_min": sizes.iter().min(),
        "pdf_bytes_max": sizes.iter().max(),
        "pdf_bytes_mean": sizes.iter().sum::<usize>() / sizes.len().max(1),
    });
    Ok(Meta {
        documents: n,
        folders: folders.len(),
        generation_secs,
        writes: 1 + folders.len() + 2 * n,
        busiest_folder: folders[busiest],
        busiest_folder_documents: per_folder[busiest],
        sample_folders,
        figures,
    })
}
