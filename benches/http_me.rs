//! Two `GET`s through the real Organiser server, each next to a bare axum
//! handler sending the same bytes, all measured by `wrk` in one run on the
//! same machine:
//!
//! - `me`: `GET /api/v1/me` (a few hundred bytes);
//! - `tasks`: `GET /api/v1/tasks?view=today&limit=50`, the first page of
//!   the today view, 50 full tasks (about 23 kB of JSON).
//!
//! ```text
//! cargo bench --bench http_me
//! BENCH_SECS=3 BENCH_CONNS=16 BENCH_THREADS=1 cargo bench --bench http_me
//! BENCH_PAIRS=tasks cargo bench --bench http_me
//! ```
//!
//! Before the servers start, the bench fills an in-memory store through the
//! public API (task lists, then tasks with titles, dates and some
//! descriptions, a few of them completed), on a clock that starts at the
//! fixed instant [`NOW`] and runs in real time (`StartingAt`: "today" is
//! the same day on every run, and reading it takes no lock, as with the
//! system clock and unlike `ManualClock`). Both servers run in this process on 127.0.0.1:<free port>,
//! each on its own multi-thread tokio runtime with the same worker count.
//! The bare server answers each path with the very bytes the real one
//! returned for it and the bench's token, so the two send bodies of the
//! same size and shape. For each pair in turn `wrk` (a separate process)
//! loads each server after a short warm-up, alternating bare, real, bare,
//! real, so that drift in the machine's speed touches both; the table gives
//! the median over rounds.
//!
//! Environment: `BENCH_SECS` (seconds per round, default 10), `BENCH_CONNS`
//! (connections, default 32), `BENCH_THREADS` (wrk threads, default 1),
//! `BENCH_ROUNDS` (rounds per server, default 2), `BENCH_WARMUP_SECS`
//! (default 2), `BENCH_WORKERS` (tokio worker threads of each server,
//! default the machine's core count), `BENCH_PAIRS` (which pairs, by name
//! and comma-separated: `me`, `tasks`; default both).
//!
//! No `tracing` subscriber is installed here on purpose: the server's
//! request log line (`organiser::request`) is then disabled at the call
//! site and costs next to nothing, as when an embedder installs none. A
//! deployment that logs every request pays for formatting and writing the
//! line on top of these figures.

use std::net::SocketAddr;
use std::process::{Command, ExitCode};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;

use jiff::Timestamp;
use jiff::civil::Date;
use organiser::{
    Field, ListParams, Options, Organiser, clock::StartingAt, task_lists::TaskListInput,
    tasks::TaskInput, tasks::TaskQuery, tasks::TaskStatus, tasks::View,
};

/// Where the store's clock starts (owner zone UTC, so today is 2026-10-14
/// for the next fourteen and a half hours of the run).
const NOW: &str = "2026-10-14T09:30:00Z";

/// One path measured through both servers.
struct Pair {
    /// Its name in `BENCH_PAIRS` and the report.
    name: &'static str,
    /// The path and query wrk asks for.
    path: &'static str,
    /// The share of the bare figure the real server should reach.
    target_percent: f64,
}

const PAIRS: [Pair; 2] = [
    Pair {
        name: "me",
        path: "/api/v1/me",
        target_percent: 70.0,
    },
    Pair {
        name: "tasks",
        path: "/api/v1/tasks?view=today&limit=50",
        target_percent: 60.0,
    },
];

/// The tasks page must be this full.
const PAGE: usize = 50;

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` builds and
    // runs this target without it, and should not spend a minute here.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("http_me: a benchmark; run it with `cargo bench --bench http_me`");
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("http_me: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Settings read from the environment.
struct Settings {
    secs: u32,
    conns: u32,
    threads: u32,
    rounds: u32,
    warmup_secs: u32,
    workers: usize,
    pairs: Vec<&'static Pair>,
}

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match std::env::var(name) {
        Ok(value) => value
            .trim()
            .parse()
            .map_err(|_| format!("{name} must be a whole number, not {value:?}")),
        Err(_) => Ok(default),
    }
}

/// The pairs `BENCH_PAIRS` names (comma-separated), in the bench's order;
/// all of them when it is unset or empty.
fn env_pairs() -> Result<Vec<&'static Pair>, String> {
    let Ok(value) = std::env::var("BENCH_PAIRS") else {
        return Ok(PAIRS.iter().collect());
    };
    let names: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(PAIRS.iter().collect());
    }
    let known = || PAIRS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    if let Some(unknown) = names.iter().find(|n| !PAIRS.iter().any(|p| p.name == **n)) {
        return Err(format!(
            "BENCH_PAIRS: no pair named {unknown:?} (known: {})",
            known()
        ));
    }
    Ok(PAIRS.iter().filter(|p| names.contains(&p.name)).collect())
}

impl Settings {
    fn from_env(cores: usize) -> Result<Settings, String> {
        let settings = Settings {
            secs: env_number("BENCH_SECS", 10)?,
            conns: env_number("BENCH_CONNS", 32)?,
            threads: env_number("BENCH_THREADS", 1)?,
            rounds: env_number("BENCH_ROUNDS", 2)?,
            warmup_secs: env_number("BENCH_WARMUP_SECS", 2)?,
            workers: env_number("BENCH_WORKERS", cores)?,
            pairs: env_pairs()?,
        };
        if settings.secs == 0
            || settings.conns == 0
            || settings.threads == 0
            || settings.rounds == 0
            || settings.workers == 0
        {
            return Err("BENCH_SECS, BENCH_CONNS, BENCH_THREADS, BENCH_ROUNDS and BENCH_WORKERS must be at least 1".into());
        }
        if settings.conns < settings.threads {
            return Err("wrk needs BENCH_CONNS >= BENCH_THREADS".into());
        }
        Ok(settings)
    }
}

// ------------------------------------------------------------- the store

/// A small deterministic generator (SplitMix64): the same store every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability `percent` in 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const LISTS: &[&str] = &["Home", "Work", "Errands", "Family", "Garden", "Finance"];
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
    "Order",
    "Prepare",
    "Schedule",
    "Update",
    "Check",
    "Send",
    "Draft",
    "Sort out",
    "Ask about",
    "Chase",
];
const OBJECTS: &[&str] = &[
    "the dentist",
    "the quarterly report",
    "car insurance",
    "a birthday present for Sam",
    "flights to Lisbon",
    "the kitchen tap",
    "the gas bill",
    "passport photos",
    "team offsite agenda",
    "tax return",
    "the bike's brakes",
    "Grandma's visit",
    "the server backups",
    "onboarding notes for Priya",
    "school forms",
    "the budget spreadsheet",
    "conference talk slides",
    "the vet appointment",
    "invoices for March",
    "Alex's reference letter",
    "the boiler service",
    "the mortgage offer",
    "the release notes",
    "winter tyres",
];
const TAILS: &[&str] = &[
    "",
    "",
    "",
    "",
    "",
    "",
    " before Friday",
    " for the team",
    " this week",
    " with Jo",
    " and file the receipt",
    " before the trip",
];
/// A sentence or two, as an owner would note them.
const DESCRIPTIONS: &[&str] = &[
    "<p>Compare <strong>three</strong> quotes before deciding. The last one came in higher than expected.</p>",
    "<p>Notes from the call: send the contract and confirm the date with everyone.</p>",
    "<p>Details on <a href=\"https://example.com/ticket/42\">the ticket</a>. Ask whether the fix can wait until next month.</p>",
    "<p>Remember the reference number and <em>keep the receipt</em>.</p><p>Ask for a discount.</p>",
    "<p>Two options so far; Jo prefers the second. Decide before the end of the week.</p>",
];

/// The store both pairs read: task lists, then tasks made through the
/// public API. Most start today or earlier (the today view holds well over
/// one page of them), some later or never; a third have a deadline, one in
/// ten a description of a sentence or two; a few are completed.
/// Returns a line describing what it made.
fn fill(org: &Organiser) -> Result<String, String> {
    let today = org.today();
    let days = |d: Date, n: i64| d.checked_add(jiff::Span::new().days(n)).expect("a date");
    let mut lists = Vec::new();
    for name in LISTS {
        let input = TaskListInput {
            name: Some((*name).to_owned()),
            ..TaskListInput::default()
        };
        let list = org
            .task_lists()
            .create(input)
            .map_err(|e| format!("could not make the list {name}: {e}"))?;
        lists.push(list.id);
    }
    let mut rng = Rng(0x5EED_2026);
    let mut made = Vec::new();
    for n in 0..120 {
        let title = format!(
            "{} {}{}",
            rng.pick(VERBS),
            rng.pick(OBJECTS),
            rng.pick(TAILS)
        );
        let start = match rng.below(100) {
            0..75 => Some(days(today, -(rng.below(21) as i64))),
            75..90 => Some(days(today, 1 + rng.below(30) as i64)),
            _ => None,
        };
        let deadline = if rng.chance(35) {
            Some(days(start.unwrap_or(today), rng.below(15) as i64))
        } else {
            None
        };
        let input = TaskInput {
            title: Some(title),
            description_html: if rng.chance(10) {
                Field::Value(rng.pick(DESCRIPTIONS).to_owned())
            } else {
                Field::Absent
            },
            start_on: start.map_or(Field::Absent, Field::Value),
            deadline_on: deadline.map_or(Field::Absent, Field::Value),
            task_list_id: if rng.chance(20) {
                Field::Absent // the Inbox
            } else {
                Field::Value(lists[rng.below(lists.len() as u64) as usize])
            },
            ..TaskInput::default()
        };
        let task = org
            .tasks()
            .create(input)
            .map_err(|e| format!("could not make task {n}: {e}"))?;
        made.push(task.id);
    }
    let mut completed = 0;
    for id in made.iter().step_by(12) {
        let input = TaskInput {
            status: Some(TaskStatus::Completed),
            ..TaskInput::default()
        };
        org.tasks()
            .change(*id, input)
            .map_err(|e| format!("could not complete a task: {e}"))?;
        completed += 1;
    }
    let today_view = TaskQuery {
        view: Some(View::Today),
        params: ListParams {
            limit: 1,
            count: true,
            ..ListParams::default()
        },
        ..TaskQuery::default()
    };
    let on_today = org
        .tasks()
        .list(&today_view)
        .map_err(|e| format!("could not count the today view: {e}"))?
        .total_count
        .unwrap_or_default();
    Ok(format!(
        "store: {} lists and {} tasks ({completed} of them completed), {on_today} on view=today ({today})",
        lists.len(),
        made.len()
    ))
}

// ------------------------------------------------------------ the servers

/// A server running on its own runtime in its own thread.
struct Running {
    /// `http://127.0.0.1:<port>`.
    base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Builds a runtime with `workers` threads and runs `serve` on a fresh
    /// loopback listener until stopped.
    fn start<F, Fut>(name: &str, workers: usize, serve: F) -> Running
    where
        F: FnOnce(tokio::net::TcpListener, tokio::sync::oneshot::Receiver<()>) -> Fut
            + Send
            + 'static,
        Fut: Future<Output = ()>,
    {
        let (addr_tx, addr_rx) = mpsc::channel::<SocketAddr>();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread_name = format!("{name}-server");
        let thread = std::thread::Builder::new()
            .name(thread_name.clone())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(workers)
                    .thread_name(thread_name)
                    .enable_all()
                    .build()
                    .expect("a tokio runtime");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                        .await
                        .expect("a loopback port");
                    addr_tx
                        .send(listener.local_addr().expect("its address"))
                        .expect("the bench waits for the address");
                    serve(listener, stop_rx).await;
                });
            })
            .expect("a server thread");
        let addr = addr_rx.recv().expect("the server starts");
        Running {
            base: format!("http://{addr}"),
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    fn url(&self, pair: &Pair) -> String {
        format!("{}{}", self.base, pair.path)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The real server: `organiser_server::serve` over an in-memory store.
fn start_real(org: Organiser, workers: usize) -> Running {
    let config = organiser_server::Config {
        rate_limit: 0,
        local_token: None,
        jobs: organiser_server::Jobs::AllBut(&["update_check"]),
        ..organiser_server::Config::default()
    };
    Running::start("real", workers, move |listener, stop| async move {
        organiser_server::serve(listener, org, config, async {
            let _ = stop.await;
        })
        .await
        .expect("the real server runs");
    })
}

/// The bare server: one axum route per pair, each answering a fixed JSON
/// body (`routes` holds the path without its query, and the body).
fn start_bare(routes: Vec<(String, Vec<u8>)>, workers: usize) -> Running {
    Running::start("bare", workers, move |listener, stop| async move {
        let mut app = axum::Router::new();
        for (path, body) in routes {
            let body = axum::body::Bytes::from(body);
            app = app.route(
                &path,
                axum::routing::get(move || {
                    let body = body.clone();
                    async move {
                        (
                            [(axum::http::header::CONTENT_TYPE, "application/json")],
                            body,
                        )
                    }
                }),
            );
        }
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stop.await;
            })
            .await
            .expect("the bare server runs");
    })
}

// ------------------------------------------------------------------- wrk

/// Whether `wrk` can be run: an executable file named `wrk` on `PATH`.
fn wrk_on_path() -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join("wrk"))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// What one wrk run reported.
#[derive(Debug, Clone)]
struct Measured {
    rps: f64,
    p99_ms: f64,
    requests: u64,
    non_2xx: u64,
    socket_errors: Option<String>,
}

/// A wrk duration (`512.00us`, `1.23ms`, `2.00s`, `1.00m`) in milliseconds.
fn parse_duration_ms(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.parse().ok()?;
    let factor = match unit {
        "us" => 0.001,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    Some(value * factor)
}

/// Requests/sec, the 99% line of `--latency`, the request count and the
/// non-2xx/3xx count from wrk's report.
fn parse_wrk(output: &str) -> Option<Measured> {
    let mut rps = None;
    let mut p99_ms = None;
    let mut requests = None;
    let mut non_2xx = 0;
    let mut socket_errors = None;
    for line in output.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Requests/sec:") {
            rps = rest.trim().parse().ok();
        } else if let Some(rest) = line.strip_prefix("99%") {
            p99_ms = parse_duration_ms(rest.trim());
        } else if let Some(rest) = line.strip_prefix("Non-2xx or 3xx responses:") {
            non_2xx = rest.trim().parse().ok()?;
        } else if line.starts_with("Socket errors:") {
            socket_errors = Some(line.to_owned());
        } else if let Some((count, rest)) = line.split_once(" requests in ")
            && rest.contains("read")
        {
            requests = count.trim().parse().ok();
        }
    }
    Some(Measured {
        rps: rps?,
        p99_ms: p99_ms?,
        requests: requests?,
        non_2xx,
        socket_errors,
    })
}

/// Runs wrk against `url` for `secs` seconds.
fn wrk(url: &str, token: &str, settings: &Settings, secs: u32) -> Result<Measured, String> {
    let output = Command::new("wrk")
        .arg(format!("-t{}", settings.threads))
        .arg(format!("-c{}", settings.conns))
        .arg(format!("-d{secs}s"))
        .arg("--latency")
        .arg("-H")
        .arg(format!("Authorization: Bearer {token}"))
        .arg(url)
        .output()
        .map_err(|e| format!("could not run wrk: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "wrk failed ({}):\n{stdout}{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    parse_wrk(&stdout).ok_or_else(|| format!("could not read wrk's report:\n{stdout}"))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

// ------------------------------------------------------------------- run

/// `GET url` with the token: the body of a 200 that is JSON, else why not.
fn fetch_body(
    client: &reqwest::blocking::Client,
    url: &str,
    token: &str,
    what: &str,
) -> Result<Vec<u8>, String> {
    let response = client
        .get(url)
        .bearer_auth(token)
        .send()
        .map_err(|e| format!("{what} failed: {e}"))?;
    let status = response.status();
    let body = response
        .bytes()
        .map_err(|e| format!("{what}: could not read the body: {e}"))?
        .to_vec();
    if status != reqwest::StatusCode::OK {
        return Err(format!(
            "{what} answered {status}, not 200: {}",
            String::from_utf8_lossy(&body)
        ));
    }
    serde_json::from_slice::<serde_json::Value>(&body)
        .map_err(|e| format!("{what} did not answer JSON: {e}"))?;
    Ok(body)
}

/// The tasks page must be a full first page with more after it, so that the
/// pair measures 50 tasks.
fn check_tasks_page(body: &[u8]) -> Result<(), String> {
    let page: serde_json::Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let items = page["data"].as_array().map_or(0, Vec::len);
    if items != PAGE || page["meta"]["next_cursor"].is_null() {
        return Err(format!(
            "the today view's first page holds {items} tasks and next_cursor {}; \
             the bench needs {PAGE} and more after them",
            page["meta"]["next_cursor"]
        ));
    }
    Ok(())
}

/// One pair's figures.
struct Outcome {
    pair: &'static Pair,
    bytes: usize,
    bare: (f64, f64, u64),
    real: (f64, f64, u64),
}

impl Outcome {
    fn ratio(&self) -> f64 {
        100.0 * self.real.0 / self.bare.0
    }
}

/// Warm-up, then bare and real alternately for `settings.rounds` rounds.
fn measure(
    pair: &'static Pair,
    bytes: usize,
    bare: &Running,
    real: &Running,
    token: &str,
    settings: &Settings,
) -> Result<Outcome, String> {
    println!();
    println!(
        "GET {}: real Organiser server vs bare axum handler ({bytes}-byte JSON body)",
        pair.path
    );
    if settings.warmup_secs > 0 {
        for server in [bare, real] {
            wrk(&server.url(pair), token, settings, settings.warmup_secs)?;
        }
    }
    let mut bare_runs = Vec::new();
    let mut real_runs = Vec::new();
    for round in 1..=settings.rounds {
        for (name, server, runs) in [
            ("bare", bare, &mut bare_runs),
            ("real", real, &mut real_runs),
        ] {
            let measured = wrk(&server.url(pair), token, settings, settings.secs)?;
            println!(
                "  round {round} {name}: {:>10.0} req/s  p99 {:>7.2} ms  ({} requests{})",
                measured.rps,
                measured.p99_ms,
                measured.requests,
                if measured.non_2xx > 0 {
                    format!(", {} non-2xx/3xx", measured.non_2xx)
                } else {
                    String::new()
                }
            );
            if let Some(errors) = &measured.socket_errors {
                println!("    {errors}");
            }
            runs.push(measured);
        }
    }
    let summary = |runs: &[Measured]| {
        let mut rps: Vec<f64> = runs.iter().map(|m| m.rps).collect();
        let mut p99: Vec<f64> = runs.iter().map(|m| m.p99_ms).collect();
        let non_2xx: u64 = runs.iter().map(|m| m.non_2xx).sum();
        (median(&mut rps), median(&mut p99), non_2xx)
    };
    Ok(Outcome {
        pair,
        bytes,
        bare: summary(&bare_runs),
        real: summary(&real_runs),
    })
}

fn run() -> Result<(), String> {
    if !wrk_on_path() {
        return Err("`wrk` is not on PATH; this bench drives the servers with it. \
             Install it (Debian/Ubuntu: `apt-get install -y wrk`; macOS: `brew install wrk`) and run again."
            .into());
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let settings = Settings::from_env(cores)?;

    // The store and its API token, as a client of the API would hold one.
    let now: Timestamp = NOW.parse().map_err(|e| format!("{NOW}: {e}"))?;
    let org = Organiser::in_memory_with(Options {
        clock: Arc::new(StartingAt::new(now)),
        ..Options::default()
    });
    let store = fill(&org)?;
    let token = org
        .account()
        .create_token("bench", None)
        .map_err(|e| format!("could not make the bench's token: {e}"))?
        .secret;

    let real = start_real(org, settings.workers);

    // One request per pair first: the real server must answer 200 with
    // JSON, and its body is what the bare server will send.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let mut bodies = Vec::new();
    for pair in &settings.pairs {
        let body = fetch_body(
            &client,
            &real.url(pair),
            &token,
            &format!("GET {}", pair.path),
        )?;
        if pair.name == "tasks" {
            check_tasks_page(&body)?;
        }
        bodies.push(body);
    }

    let routes = settings
        .pairs
        .iter()
        .zip(&bodies)
        .map(|(pair, body)| {
            let path = pair.path.split('?').next().unwrap_or(pair.path);
            (path.to_owned(), body.clone())
        })
        .collect();
    let bare = start_bare(routes, settings.workers);
    for (pair, body) in settings.pairs.iter().zip(&bodies) {
        let what = format!("bare GET {}", pair.path);
        let bare_body = fetch_body(&client, &bare.url(pair), &token, &what)?;
        if bare_body != *body {
            return Err(format!(
                "{what} sent {} bytes, not the real server's {}",
                bare_body.len(),
                body.len()
            ));
        }
        println!(
            "GET {}: {} bytes from the real server, the same {} from the bare one",
            pair.path,
            body.len(),
            bare_body.len()
        );
    }

    println!("{store}");
    println!(
        "machine: {cores} cores; servers: {} tokio workers each; wrk -t{} -c{} -d{}s --latency, \
         {} rounds each, alternating bare/real, after {}s warm-up each",
        settings.workers,
        settings.threads,
        settings.conns,
        settings.secs,
        settings.rounds,
        settings.warmup_secs
    );

    let mut outcomes = Vec::new();
    for (pair, body) in settings.pairs.iter().zip(&bodies) {
        outcomes.push(measure(pair, body.len(), &bare, &real, &token, &settings)?);
    }

    println!();
    println!(
        "{:<6} {:>7} {:>11} {:>9} {:>11} {:>9} {:>10} {:>7}  non-2xx (bare/real)",
        "pair", "bytes", "bare req/s", "bare p99", "real req/s", "real p99", "real/bare", "target",
    );
    for o in &outcomes {
        println!(
            "{:<6} {:>7} {:>11.0} {:>6.2} ms {:>11.0} {:>6.2} ms {:>9.1}% {:>6.0}%  {}/{}",
            o.pair.name,
            o.bytes,
            o.bare.0,
            o.bare.1,
            o.real.0,
            o.real.1,
            o.ratio(),
            o.pair.target_percent,
            o.bare.2,
            o.real.2
        );
    }
    println!();
    for o in &outcomes {
        println!(
            "{} (GET {}): real/bare {:.1}% of requests per second (target at least {:.0}%: {}); \
             p99 {:.2}x; {cores} cores",
            o.pair.name,
            o.pair.path,
            o.ratio(),
            o.pair.target_percent,
            if o.ratio() >= o.pair.target_percent {
                "met"
            } else {
                "NOT met"
            },
            o.real.1 / o.bare.1
        );
    }
    let bad: Vec<String> = outcomes
        .iter()
        .filter(|o| o.real.2 > 0)
        .map(|o| format!("{} on {}", o.real.2, o.pair.name))
        .collect();
    if !bad.is_empty() {
        return Err(format!(
            "the real server gave non-2xx/3xx answers ({}); its figures do not count",
            bad.join(", ")
        ));
    }

    drop(bare);
    drop(real);
    Ok(())
}
