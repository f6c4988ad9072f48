//! The AI note-titles worker (`Organiser::run_ai_tasks`, document 2, "AI
//! tasks"): how many titles it writes a minute when the model answers at
//! once, and what a long queue costs. It measures, in process:
//!
//! - the worker against a fake model that answers in process (an
//!   `HttpClient` closure in `Options::http` answering an `api_compatible`
//!   chat completion at once): its own cost per title, that is reading the
//!   queue and the note, the title's write transaction (the note, its
//!   search index entries, the queue) and its commit;
//! - the same against a model server on loopback (axum on `127.0.0.1:0`,
//!   answering the same JSON) through the real `ReqwestClient`: the cost
//!   with HTTP;
//! - saving an untitled note with the task on (which queues it in the
//!   save's transaction), for reference;
//! - a backlog: 10,000 untitled notes saved with the task off (by a child
//!   process, so that making them leaves no memory behind in the measuring
//!   one), then the task turned on and `backfill_ai_task` queueing them
//!   all in one transaction: its time, the process's memory (VmRSS, and
//!   VmHWM reset just before) and the store file's size before and after,
//!   and reading the queue's length with 10,000 queued.
//!
//! Each worker run works a fresh store of `BENCH_NOTES` untitled notes of
//! 30 to 80 words (in `target/`, removed afterwards) until the queue is
//! empty, one `run_ai_tasks` call (more if one returns early); every
//! model call is timed where the `HttpClient` is called, so a title's
//! cycle is the time from one call to the next, and the worker's own part
//! is that cycle less the call. Every title written is checked.
//!
//! ```text
//! cargo bench --bench ai
//! BENCH_NOTES=500 BENCH_ONLY=fake cargo bench --bench ai
//! ```
//!
//! Environment: `BENCH_NOTES` (notes titled by each worker run, default
//! 2000), `BENCH_BACKLOG` (notes queued by the backfill, default 10000),
//! `BENCH_RUNS` (runs of each queue read, default 200), `BENCH_ONLY`
//! (some of `fake,http,backlog`; default all).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use organiser::{
    Field, Id, Options, Organiser, ai::AiModelInput, ai::AiProviderInput, ai::AiTaskInput,
    net::HttpClient, net::HttpError, net::HttpMethod, net::HttpRequest, net::HttpResponse,
    net::ReqwestClient, notes::NoteInput,
};

#[path = "common/mod.rs"]
mod common;
use common::{
    Rng, Row, Stats, bench_main, env_number, mib, ms, proc_status_kib, row, rows_table, stats,
    store_size, target_dir, time, written,
};

/// The task measured.
const TASK: &str = "note_titles";
/// What the model answers to every chat completion.
const REPLY: &str = r#"{"choices":[{"message":{"role":"assistant","content":"A short title"},"finish_reason":"stop"}]}"#;
/// The title [`REPLY`] makes.
const TITLE: &str = "A short title";
/// What the model server lists.
const MODELS: &str = r#"{"data":[{"id":"m"}]}"#;
/// The fake model's address (nothing is sent there: the closure answers).
const FAKE_BASE_URL: &str = "http://127.0.0.1:9/v1";

/// Run as a child with this argument and a directory, the bench only makes
/// the backlog's store there (task off, `BENCH_BACKLOG` untitled notes).
const GENERATE_ARG: &str = "--generate-backlog";

fn main() -> ExitCode {
    bench_main("ai", |args| {
        match args.iter().position(|arg| arg == GENERATE_ARG) {
            Some(at) => match args.get(at + 1) {
                Some(dir) => {
                    Settings::read().and_then(|s| generate_backlog(Path::new(dir), s.backlog))
                }
                None => Err(format!("{GENERATE_ARG} needs a directory")),
            },
            None => run(),
        }
    })
}

// ---------------------------------------------------------------- settings

struct Settings {
    /// The parts to measure (`BENCH_ONLY`): fake, http, backlog.
    only: Vec<String>,
    notes: usize,
    backlog: usize,
    runs: usize,
    target_dir: PathBuf,
}

impl Settings {
    fn read() -> Result<Settings, String> {
        Ok(Settings {
            only: std::env::var("BENCH_ONLY")
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
            notes: env_number("BENCH_NOTES", 2_000)?.max(2),
            backlog: env_number("BENCH_BACKLOG", 10_000)?.max(1),
            runs: env_number("BENCH_RUNS", 200)?.max(1),
            target_dir: target_dir()?,
        })
    }

    fn wants(&self, part: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|p| p == part)
    }
}

// ---------------------------------------------------------------- the run

/// One worker run's throughput.
struct Throughput {
    label: &'static str,
    titles: usize,
    total: Duration,
}

impl Throughput {
    fn per_minute(&self) -> f64 {
        self.titles as f64 / self.total.as_secs_f64() * 60.0
    }

    fn micros_each(&self) -> f64 {
        self.total.as_secs_f64() * 1e6 / self.titles.max(1) as f64
    }
}

/// What the backlog part found.
struct Backlog {
    notes: usize,
    generation_secs: f64,
    rss_open_kib: u64,
    rss_before_kib: u64,
    rss_after_kib: u64,
    hwm_backfill_kib: Option<u64>,
    store_before: u64,
    store_after: u64,
    queued: u64,
}

fn run() -> Result<(), String> {
    let settings = Settings::read()?;
    println!(
        "ai: worker runs of {} notes, a backlog of {} notes",
        settings.notes, settings.backlog
    );
    let mut rows = Vec::new();
    let mut throughputs = Vec::new();
    if settings.wants("fake") {
        let calls = Calls::default();
        let http = recorded(fake_model, &calls);
        let (mut r, t) = measure_worker(
            "in-process fake model",
            http,
            FAKE_BASE_URL,
            &calls,
            &settings,
            true,
        )?;
        rows.append(&mut r);
        throughputs.push(t);
    }
    if settings.wants("http") {
        let url = start_model_server()?;
        let calls = Calls::default();
        let http = recorded(ReqwestClient::new(), &calls);
        let (mut r, t) = measure_worker(
            "loopback HTTP model (ReqwestClient)",
            http,
            &url,
            &calls,
            &settings,
            false,
        )?;
        rows.append(&mut r);
        throughputs.push(t);
    }
    let backlog = if settings.wants("backlog") {
        let (mut r, b) = measure_backlog(&settings)?;
        rows.append(&mut r);
        Some(b)
    } else {
        None
    };
    report(&rows, &throughputs, backlog.as_ref(), &settings);
    Ok(())
}

// ---------------------------------------------------------------- the model

/// The model calls made: when each began and how long it took.
#[derive(Clone, Default)]
struct Calls(Arc<Mutex<Vec<(Instant, Duration)>>>);

impl Calls {
    fn take(&self) -> Vec<(Instant, Duration)> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// `client`, with every chat completion it sends timed into `calls`.
fn recorded(client: impl HttpClient + 'static, calls: &Calls) -> Arc<dyn HttpClient> {
    let calls = calls.clone();
    Arc::new(
        move |request: &HttpRequest| -> Result<HttpResponse, HttpError> {
            let start = Instant::now();
            let answer = client.send(request);
            if request.url.ends_with("/chat/completions") {
                let took = start.elapsed();
                calls
                    .0
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((start, took));
            }
            answer
        },
    )
}

/// A model that answers at once, in process.
fn fake_model(request: &HttpRequest) -> Result<HttpResponse, HttpError> {
    let (status, body) = match request.method {
        HttpMethod::Post if request.url.ends_with("/chat/completions") => (200, REPLY),
        HttpMethod::Get if request.url.ends_with("/models") => (200, MODELS),
        _ => (404, r#"{"error":{"message":"not found"}}"#),
    };
    Ok(HttpResponse::new(
        status,
        request.url.clone(),
        body.as_bytes().to_vec(),
    ))
}

/// A model server on loopback answering as [`fake_model`] does, on a
/// thread of its own for the rest of the process; its `base_url`.
fn start_model_server() -> Result<String, String> {
    use axum::http::header::CONTENT_TYPE;
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("model server: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("model server: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("model server: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("model server: {e}"))?;
    std::thread::Builder::new()
        .name("model-server".into())
        .spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                    return;
                };
                let app = axum::Router::new()
                    .route(
                        "/v1/chat/completions",
                        axum::routing::post(|_body: axum::body::Bytes| async {
                            ([(CONTENT_TYPE, "application/json")], REPLY)
                        }),
                    )
                    .route(
                        "/v1/models",
                        axum::routing::get(|| async {
                            ([(CONTENT_TYPE, "application/json")], MODELS)
                        }),
                    );
                let _ = axum::serve(listener, app).await;
            });
        })
        .map_err(|e| format!("model server: {e}"))?;
    Ok(format!("http://{addr}/v1"))
}

// ---------------------------------------------------------------- stores

/// A fresh directory under `target/` for a store, removed when dropped.
fn store_dir(settings: &Settings, prefix: &str) -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&settings.target_dir)
        .map_err(|e| {
            format!(
                "a store directory in {}: {e}",
                settings.target_dir.display()
            )
        })
}

/// A provider of kind `api_compatible` at `base_url` and its model `m`,
/// the default.
fn add_model(org: &Organiser, base_url: &str) -> Result<Id, String> {
    let provider = org
        .ai()
        .create_provider(AiProviderInput {
            name: Field::Value("Bench model server".into()),
            kind: Field::Value("api_compatible".into()),
            base_url: Field::Value(base_url.into()),
            ..AiProviderInput::default()
        })
        .map_err(|e| format!("create_ai_provider: {e}"))?;
    let model = org
        .ai()
        .create_model(AiModelInput {
            ai_provider_id: Field::Value(provider.id),
            identifier: Field::Value("m".into()),
            is_default: Some(true),
            ..AiModelInput::default()
        })
        .map_err(|e| format!("create_ai_model: {e}"))?;
    Ok(model.id)
}

fn turn_on(org: &Organiser) -> Result<(), String> {
    org.ai()
        .change_task(
            TASK,
            AiTaskInput {
                enabled: Some(true),
                ..AiTaskInput::default()
            },
        )
        .map_err(|e| format!("change_ai_task: {e}"))?;
    Ok(())
}

fn queued(org: &Organiser) -> Result<u64, String> {
    Ok(org
        .ai()
        .queue(TASK)
        .map_err(|e| format!("ai_task_queue: {e}"))?
        .queued)
}

/// Saves `n` untitled notes (bodies from seed `seed`); their IDs and each
/// save's time.
fn save_notes(org: &Organiser, n: usize, seed: u64) -> Result<(Vec<Id>, Vec<Duration>), String> {
    let mut rng = Rng(seed);
    let mut ids = Vec::with_capacity(n);
    let mut took = Vec::with_capacity(n);
    for _ in 0..n {
        let input = NoteInput {
            body_html: Field::Value(body(&mut rng)),
            ..NoteInput::default()
        };
        let start = Instant::now();
        let note = org
            .notes()
            .create(input)
            .map_err(|e| format!("create_note: {e}"))?;
        took.push(start.elapsed());
        ids.push(note.id);
    }
    Ok((ids, took))
}

// ---------------------------------------------------------------- the worker

/// Titles `settings.notes` notes with `http` as the model at `base_url`;
/// the rows (the save's too when `saves`) and the throughput.
fn measure_worker(
    label: &'static str,
    http: Arc<dyn HttpClient>,
    base_url: &str,
    calls: &Calls,
    settings: &Settings,
    saves: bool,
) -> Result<(Vec<Row>, Throughput), String> {
    let n = settings.notes;
    println!("\nworker, {label}: saving {n} untitled notes with the task on...");
    let dir = store_dir(settings, "bench-ai-worker-")?;
    let org = Organiser::open_with(
        dir.path(),
        Options {
            http,
            ..Options::default()
        },
    )
    .map_err(|e| format!("open {}: {e}", dir.path().display()))?;
    add_model(&org, base_url)?;
    turn_on(&org)?;
    let before = written();
    let (ids, saved) = save_notes(&org, n, 0xA1)?;
    let save_bytes = written() - before;
    let waiting = queued(&org)?;
    if waiting != n as u64 {
        return Err(format!("{waiting} notes queued after saving {n}"));
    }
    let mut rows = Vec::new();
    if saves {
        rows.push(row(
            "save an untitled note, task on (queues it)",
            stats(saved),
            None,
            format!(
                "typed `create_note`, bodies of 30 to 80 words; {:.0} KiB written a save",
                save_bytes as f64 / 1024.0 / n as f64
            ),
        ));
    }

    println!("worker, {label}: working the queue of {waiting}...");
    calls.take();
    let before = written();
    let start = Instant::now();
    let mut titles = 0;
    let mut passes = 0;
    loop {
        let wrote = org
            .run_ai_tasks()
            .map_err(|e| format!("run_ai_tasks: {e}"))?;
        passes += 1;
        titles += wrote;
        let left = queued(&org)?;
        if left == 0 {
            break;
        }
        if wrote == 0 {
            let provider = org
                .ai()
                .providers(&Default::default())
                .ok()
                .and_then(|p| p.items.into_iter().next());
            return Err(format!(
                "the worker stopped with {left} queued: {:?}",
                provider.and_then(|p| p.last_error)
            ));
        }
    }
    let total = start.elapsed();
    let title_bytes = written() - before;
    if titles != n {
        return Err(format!("{titles} titles written for {n} notes"));
    }
    for &id in &ids {
        let note = org.notes().get(id).map_err(|e| format!("note {id}: {e}"))?;
        if note.title.as_deref() != Some(TITLE) || !note.title_generated {
            return Err(format!("note {id} has title {:?}", note.title));
        }
    }
    let made = calls.take();
    if made.len() != n {
        return Err(format!("{} model calls for {n} titles", made.len()));
    }
    let cycles: Vec<Duration> = made.windows(2).map(|w| w[1].0 - w[0].0).collect();
    let own: Vec<Duration> = made
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).saturating_sub(w[0].1))
        .collect();
    let call_times: Vec<Duration> = made.iter().map(|c| c.1).collect();
    let t = Throughput {
        label,
        titles,
        total,
    };
    rows.push(row(
        format!("worker, {label}: a title, call to call"),
        stats(cycles),
        None,
        format!(
            "{titles} titles in {:.2} s ({passes} run_ai_tasks call(s)): {:.0} titles a minute, {:.0} µs a title; {:.1} KiB written a title",
            total.as_secs_f64(),
            t.per_minute(),
            t.micros_each(),
            title_bytes as f64 / 1024.0 / n as f64
        ),
    ));
    rows.push(row(
        format!("worker, {label}: of which the model call"),
        stats(call_times),
        None,
        "timed around `HttpClient::send`".to_owned(),
    ));
    rows.push(row(
        format!("worker, {label}: of which the worker's own part"),
        stats(own),
        None,
        "the title's write and commit, the next queue and note read".to_owned(),
    ));
    drop(org);
    drop(dir);
    Ok((rows, t))
}

// ---------------------------------------------------------------- the backlog

/// The child's part: a store in `dir` with the model, the task off and
/// `n` untitled notes.
fn generate_backlog(dir: &Path, n: usize) -> Result<(), String> {
    let org = Organiser::open_with(
        dir,
        Options {
            http: Arc::new(fake_model),
            ..Options::default()
        },
    )
    .map_err(|e| format!("open {}: {e}", dir.display()))?;
    add_model(&org, FAKE_BASE_URL)?;
    let (_, took) = save_notes(&org, n, 0xB2)?;
    let s = stats(took);
    println!(
        "backlog: saved {n} untitled notes with the task off, median {} / p90 {} a save",
        ms(s.median),
        ms(s.p90)
    );
    Ok(())
}

/// Forgets the process's peak memory (`VmHWM` becomes `VmRSS`); whether
/// it could.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn measure_backlog(settings: &Settings) -> Result<(Vec<Row>, Backlog), String> {
    let n = settings.backlog;
    let dir = store_dir(settings, "bench-ai-backlog-")?;
    println!("\nbacklog: saving {n} untitled notes in a child process...");
    let start = Instant::now();
    let exe = std::env::current_exe().map_err(|e| format!("where am I: {e}"))?;
    let status = Command::new(exe)
        .arg("--bench")
        .arg(GENERATE_ARG)
        .arg(dir.path())
        .status()
        .map_err(|e| format!("making the backlog: {e}"))?;
    if !status.success() {
        return Err(format!("making the backlog failed ({status})"));
    }
    let generation_secs = start.elapsed().as_secs_f64();
    let kib = |field: &str| proc_status_kib(field).unwrap_or(0);

    let org = Organiser::open_with(
        dir.path(),
        Options {
            http: Arc::new(fake_model),
            ..Options::default()
        },
    )
    .map_err(|e| format!("open {}: {e}", dir.path().display()))?;
    let rss_open_kib = kib("VmRSS");
    turn_on(&org)?;
    let pending = org
        .ai()
        .task(TASK)
        .map_err(|e| format!("ai_task: {e}"))?
        .backfill_pending;
    if pending != Some(n as u64) {
        return Err(format!("backfill_pending is {pending:?}, not {n}"));
    }
    let store_before = store_size(dir.path()).0;
    let rss_before_kib = kib("VmRSS");
    let hwm_reset = reset_peak();
    let start = Instant::now();
    let queued_now = org
        .ai()
        .backfill(TASK)
        .map_err(|e| format!("backfill_ai_task: {e}"))?
        .queued;
    let took = start.elapsed();
    let rss_after_kib = kib("VmRSS");
    let hwm_backfill_kib = hwm_reset.then(|| kib("VmHWM"));
    let store_after = store_size(dir.path()).0;
    if queued_now != n as u64 || queued(&org)? != n as u64 {
        return Err(format!("the backfill queued {queued_now} of {n}"));
    }
    let mut rows = vec![row(
        format!("backfill_ai_task(\"{TASK}\"), {n} untitled notes"),
        stats(vec![took]),
        None,
        format!(
            "one transaction; queued {queued_now}; VmRSS {} → {}",
            mib(rss_before_kib * 1024),
            mib(rss_after_kib * 1024)
        ),
    )];
    let queue_read: Stats = time(10, settings.runs, || {
        let _ = org.ai().queue(TASK);
    });
    rows.push(row(
        format!("ai_task_queue(\"{TASK}\"), {n} queued"),
        queue_read,
        None,
        "the queue's length (GET /ai_tasks/note_titles/queue)".to_owned(),
    ));
    let task_read: Stats = time(10, settings.runs, || {
        let _ = org.ai().task(TASK);
    });
    rows.push(row(
        format!("ai_task(\"{TASK}\"), {n} queued"),
        task_read,
        None,
        "the task with backfill_pending (GET /ai_tasks/note_titles)".to_owned(),
    ));
    drop(org);
    drop(dir);
    Ok((
        rows,
        Backlog {
            notes: n,
            generation_secs,
            rss_open_kib,
            rss_before_kib,
            rss_after_kib,
            hwm_backfill_kib,
            store_before,
            store_after,
            queued: queued_now,
        },
    ))
}

// ---------------------------------------------------------------- the report

fn report(rows: &[Row], throughputs: &[Throughput], backlog: Option<&Backlog>, s: &Settings) {
    let mut out = String::new();
    let _ = writeln!(out, "\n## AI note titles\n");
    if !throughputs.is_empty() {
        let _ = writeln!(
            out,
            "| worker against | titles | total | titles a minute | µs a title |\n|---|---:|---:|---:|---:|"
        );
        for t in throughputs {
            let _ = writeln!(
                out,
                "| {} | {} | {:.2} s | {:.0} | {:.0} |",
                t.label,
                t.titles,
                t.total.as_secs_f64(),
                t.per_minute(),
                t.micros_each()
            );
        }
        let _ = writeln!(out);
    }
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "Worker runs of {} notes; queue reads {} runs each.\n",
            s.notes, s.runs
        );
        rows_table(&mut out, rows);
    }
    if let Some(b) = backlog {
        let kib = |k: u64| mib(k * 1024);
        let _ = writeln!(
            out,
            "\nBacklog of {} untitled notes (made by a child process in {:.1} s):\n",
            b.notes, b.generation_secs
        );
        let _ = writeln!(out, "| | before the backfill | after |\n|---|---:|---:|");
        let _ = writeln!(
            out,
            "| queued | 0 | {} |\n| VmRSS | {} | {} |\n| VmHWM during the backfill | – | {} |\n| store file | {} | {} |",
            b.queued,
            kib(b.rss_before_kib),
            kib(b.rss_after_kib),
            b.hwm_backfill_kib
                .map_or_else(|| "(could not reset)".to_owned(), kib),
            mib(b.store_before),
            mib(b.store_after),
        );
        let _ = writeln!(
            out,
            "\nVmRSS just after opening the store: {}; store file grew by {} ({:.0} bytes a queued note).",
            kib(b.rss_open_kib),
            mib(b.store_after.saturating_sub(b.store_before)),
            b.store_after.saturating_sub(b.store_before) as f64 / b.notes.max(1) as f64
        );
    }
    print!("{out}");
}

// ---------------------------------------------------------------- note bodies

/// Sentences notes are made of (about 8 to 16 words each).
const SENTENCES: &[&str] = &[
    "Call the plumber about the leak under the kitchen sink before Friday.",
    "The quarterly budget review moved to Tuesday afternoon in the small meeting room.",
    "Remember to bring the signed lease and two forms of identification.",
    "Maria suggested we try the new Italian place near the station for the team lunch.",
    "Ordered replacement filters for the air purifier; they should arrive next week.",
    "The kids need new football boots before the season starts in September.",
    "Draft agenda: welcome, last month's numbers, hiring plan, open questions.",
    "Check whether the car insurance renewal includes breakdown cover this year.",
    "Booked flights to Lisbon for the conference, returning on the Sunday evening flight.",
    "The library book on Roman history is due back on the twelfth.",
    "Ideas for the garden: raised beds along the fence, a small herb patch, more tulips.",
    "Dentist said to come back in six months and to floss more often.",
    "Our landlord agreed to repaint the hallway once the damp has been treated.",
    "Sketched the onboarding flow again; the second screen still asks for too much.",
    "Pay the electricity bill and send the meter reading by the end of the month.",
    "Grandma's birthday is on the fourth, so order flowers and a card by Wednesday.",
    "The recipe needs two cups of flour, three eggs, butter and a pinch of salt.",
    "Notes from the call with the supplier: prices rise by five percent in spring.",
    "Try running three times a week, starting with twenty minutes at an easy pace.",
    "The printer on the second floor jams whenever it prints on both sides.",
    "Ask Tom whether he can cover my shift on Saturday morning.",
    "Compare the two quotes for the roof repair and check their references.",
    "Reading list: a history of maps, a novel set in Tokyo, and the biography of a chemist.",
    "The server migration is planned for the weekend, with a rollback ready just in case.",
    "Renew the passport at least three months before the summer trip.",
    "Meeting notes: the launch slips by two weeks while legal reviews the contract.",
    "Buy oat milk, bread, apples, coffee beans and washing-up liquid.",
    "The museum is free on the first Sunday of the month, so go early to avoid queues.",
    "Follow up with the accountant about the missing receipts from March.",
    "Consider moving the weekly review to Friday mornings when the office is quieter.",
    "The bike needs new brake pads and the chain should be cleaned and oiled.",
    "Write thank-you notes to everyone who helped with the move last weekend.",
];

/// A note body of 30 to 80 words in one or two paragraphs.
fn body(rng: &mut Rng) -> String {
    let want = rng.between(30, 80);
    let mut sentences: Vec<&str> = Vec::new();
    let mut words = 0;
    while words < want {
        let s = SENTENCES[rng.below(SENTENCES.len())];
        let count = s.split_whitespace().count();
        if words + count > 80 && words >= 30 {
            break;
        }
        words += count;
        sentences.push(s);
    }
    let split = if sentences.len() > 2 && rng.chance(0.5) {
        sentences.len() / 2
    } else {
        sentences.len()
    };
    let mut html = format!("<p>{}</p>", sentences[..split].join(" "));
    if split < sentences.len() {
        let _ = write!(html, "<p>{}</p>", sentences[split..].join(" "));
    }
    html
}
