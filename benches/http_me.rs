//! `GET /api/v1/me` through the real Organiser server next to a bare axum
//! handler, both measured by `wrk` in the same run on the same machine.
//!
//! ```text
//! cargo bench --bench http_me
//! BENCH_SECS=3 BENCH_CONNS=16 BENCH_THREADS=1 cargo bench --bench http_me
//! ```
//!
//! Both servers run in this process on 127.0.0.1:<free port>, each on its
//! own multi-thread tokio runtime with the same worker count. The bare
//! server answers `GET /api/v1/me` with the very bytes the real one
//! returned for the bench's token, so the two send bodies of the same size
//! and shape. `wrk` (a separate process) loads each in turn after a short
//! warm-up, alternating bare, real, bare, real, so that drift in the
//! machine's speed touches both; the table gives the median over rounds.
//!
//! Environment: `BENCH_SECS` (seconds per round, default 10), `BENCH_CONNS`
//! (connections, default 32), `BENCH_THREADS` (wrk threads, default 1),
//! `BENCH_ROUNDS` (rounds per server, default 2), `BENCH_WARMUP_SECS`
//! (default 2), `BENCH_WORKERS` (tokio worker threads of each server,
//! default the machine's core count).
//!
//! No `tracing` subscriber is installed here on purpose: the server's
//! request log line (`organiser::request`) is then disabled at the call
//! site and costs next to nothing, as when an embedder installs none. A
//! deployment that logs every request pays for formatting and writing the
//! line on top of these figures.

use std::net::SocketAddr;
use std::process::{Command, ExitCode};
use std::sync::mpsc;
use std::thread::JoinHandle;

use organiser::{Auth, Options, Organiser};

/// The share of the bare figure the real server should reach.
const TARGET_PERCENT: f64 = 70.0;
const PATH: &str = "/api/v1/me";

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

impl Settings {
    fn from_env(cores: usize) -> Result<Settings, String> {
        let settings = Settings {
            secs: env_number("BENCH_SECS", 10)?,
            conns: env_number("BENCH_CONNS", 32)?,
            threads: env_number("BENCH_THREADS", 1)?,
            rounds: env_number("BENCH_ROUNDS", 2)?,
            warmup_secs: env_number("BENCH_WARMUP_SECS", 2)?,
            workers: env_number("BENCH_WORKERS", cores)?,
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

/// A server running on its own runtime in its own thread.
struct Running {
    url: String,
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
            url: format!("http://{addr}{PATH}"),
            stop: Some(stop_tx),
            thread: Some(thread),
        }
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
        update_tick: None,
    };
    Running::start("real", workers, move |listener, stop| async move {
        organiser_server::serve(listener, org, config, async {
            let _ = stop.await;
        })
        .await
        .expect("the real server runs");
    })
}

/// The bare server: one axum route answering a fixed JSON body.
fn start_bare(body: Vec<u8>, workers: usize) -> Running {
    Running::start("bare", workers, move |listener, stop| async move {
        let body = axum::body::Bytes::from(body);
        let app = axum::Router::new().route(
            PATH,
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
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stop.await;
            })
            .await
            .expect("the bare server runs");
    })
}

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

fn run() -> Result<(), String> {
    if !wrk_on_path() {
        return Err("`wrk` is not on PATH; this bench drives the servers with it. \
             Install it (Debian/Ubuntu: `apt-get install -y wrk`; macOS: `brew install wrk`) and run again."
            .into());
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let settings = Settings::from_env(cores)?;

    // The store and its API token, as a client of the API would hold one.
    let org = Organiser::in_memory_with(Options::default());
    let token = org
        .create_token(&Auth::Local, "bench", None)
        .map_err(|e| format!("could not make the bench's token: {e}"))?
        .secret;

    let real = start_real(org, settings.workers);

    // One request first: the real server must answer 200, and its body is
    // what the bare server will send.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let response = client
        .get(&real.url)
        .bearer_auth(&token)
        .send()
        .map_err(|e| format!("GET {PATH} failed: {e}"))?;
    let status = response.status();
    let body = response
        .bytes()
        .map_err(|e| format!("GET {PATH}: could not read the body: {e}"))?
        .to_vec();
    if status != reqwest::StatusCode::OK {
        return Err(format!(
            "GET {PATH} answered {status}, not 200: {}",
            String::from_utf8_lossy(&body)
        ));
    }
    serde_json::from_slice::<serde_json::Value>(&body)
        .map_err(|e| format!("GET {PATH} did not answer JSON: {e}"))?;
    let body_len = body.len();

    let bare = start_bare(body, settings.workers);
    let check = client
        .get(&bare.url)
        .send()
        .map_err(|e| format!("bare GET {PATH} failed: {e}"))?;
    if check.status() != reqwest::StatusCode::OK {
        return Err(format!("bare GET {PATH} answered {}", check.status()));
    }

    println!("GET {PATH}: real Organiser server vs bare axum handler ({body_len}-byte JSON body)");
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

    if settings.warmup_secs > 0 {
        for server in [&bare, &real] {
            wrk(&server.url, &token, &settings, settings.warmup_secs)?;
        }
    }

    let mut bare_runs = Vec::new();
    let mut real_runs = Vec::new();
    for round in 1..=settings.rounds {
        for (name, server, runs) in [
            ("bare", &bare, &mut bare_runs),
            ("real", &real, &mut real_runs),
        ] {
            let measured = wrk(&server.url, &token, &settings, settings.secs)?;
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
    let (bare_rps, bare_p99, bare_bad) = summary(&bare_runs);
    let (real_rps, real_p99, real_bad) = summary(&real_runs);
    let ratio = 100.0 * real_rps / bare_rps;

    println!();
    println!(
        "{:<6} {:>14} {:>12} {:>10}",
        "server", "median req/s", "p99 (ms)", "non-2xx"
    );
    println!(
        "{:<6} {:>14.0} {:>12.2} {:>10}",
        "bare", bare_rps, bare_p99, bare_bad
    );
    println!(
        "{:<6} {:>14.0} {:>12.2} {:>10}",
        "real", real_rps, real_p99, real_bad
    );
    println!(
        "real/bare: {ratio:.1}% of requests per second (target at least {TARGET_PERCENT:.0}%: {}); \
         p99 {:.2}x; {cores} cores",
        if ratio >= TARGET_PERCENT {
            "met"
        } else {
            "NOT met"
        },
        real_p99 / bare_p99
    );
    if real_bad > 0 {
        return Err(format!(
            "the real server gave {real_bad} non-2xx/3xx answers; its figures do not count"
        ));
    }

    drop(bare);
    drop(real);
    Ok(())
}
