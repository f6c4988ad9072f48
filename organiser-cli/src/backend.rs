//! Where a command's requests go: the store in-process, or the server that
//! holds it (its `server.json`), or any server named by `ORGANISER_URL` and
//! `ORGANISER_TOKEN`. The door (`door.rs`) runs each declared operation on
//! the store in this process, or sends the [`Request`] its declaration
//! writes to the server.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a command waits for another command that holds the store,
/// unless `ORGANISER_LOCK_WAIT_MS` says otherwise.
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The wait for a held store: `ORGANISER_LOCK_WAIT_MS` (whole
/// milliseconds) when set, else [`LOCK_WAIT`].
fn lock_wait() -> Result<Duration, CliError> {
    match std::env::var("ORGANISER_LOCK_WAIT_MS") {
        Ok(v) if !v.trim().is_empty() => {
            v.trim().parse().map(Duration::from_millis).map_err(|_| {
                CliError::msg(format!(
                    "ORGANISER_LOCK_WAIT_MS must be a whole number of milliseconds, not {v:?}"
                ))
            })
        }
        _ => Ok(LOCK_WAIT),
    }
}

use organiser_core::{Organiser, data::OpenError, server::Request, server::Response};
use organiser_server::ServerInfo;

use crate::error::CliError;

/// The data directory: `--data-dir`, else `ORGANISER_DATA_DIR` (when not
/// empty), else the configuration file's `data_dir`, else the platform's
/// data directory.
pub fn data_dir(given: Option<&Path>) -> Result<PathBuf, CliError> {
    data_dir_from(given).map(|(dir, _)| dir)
}

/// The data directory and where it came from (`--data-dir`,
/// `ORGANISER_DATA_DIR`, the configuration file, the default).
pub(crate) fn data_dir_from(given: Option<&Path>) -> Result<(PathBuf, &'static str), CliError> {
    if let Some(dir) = given {
        return Ok((dir.to_path_buf(), "--data-dir"));
    }
    if let Some(dir) = std::env::var_os("ORGANISER_DATA_DIR").filter(|v| !v.is_empty()) {
        return Ok((PathBuf::from(dir), "ORGANISER_DATA_DIR"));
    }
    if let Some(dir) = &crate::config::get().data_dir {
        return Ok((dir.clone(), "the configuration file"));
    }
    match dirs::data_dir() {
        Some(dir) => Ok((dir.join("organiser"), "the default")),
        None => Err(CliError::msg(
            "no data directory: pass --data-dir, set ORGANISER_DATA_DIR, or data_dir in the configuration file",
        )),
    }
}

/// Opens the store in `dir` in-process, with errors that say what to do.
/// Documents' thumbnails are rendered by this binary in a child process
/// ([`RENDER_PDF`]), under the budget the core gives it.
pub fn open_store(dir: &Path) -> Result<Organiser, OpenError> {
    let mut options = organiser_core::Options::from_env().map_err(OpenError::Config)?;
    if let Ok(program) = std::env::current_exe() {
        options.pdf_renderer = organiser_core::pdf::PdfRenderer::Command {
            program,
            args: vec![RENDER_PDF.to_owned()],
        };
    }
    Organiser::open_with(dir, options)
}

/// The hidden first argument that makes this binary a PDF renderer
/// (`organiser __render-pdf-thumbnail SIDE`, the PDF on standard input).
pub const RENDER_PDF: &str = "__render-pdf-thumbnail";

/// Phrases an open error for people.
pub fn open_error(dir: &Path, e: OpenError) -> CliError {
    match e {
        OpenError::Locked => match ServerInfo::read(dir).filter(|info| process_alive(info.pid)) {
            Some(info) => CliError::msg(format!(
                "the store in {} is held by the server at {} (pid {}); stop it first",
                dir.display(),
                info.url,
                info.pid
            )),
            None => CliError::msg(format!(
                "the store in {} is held by another process; stop it, or point --data-dir elsewhere",
                dir.display()
            )),
        },
        OpenError::TooNew { .. } => {
            CliError::msg(format!("{} ({}): upgrade Organiser", e, dir.display()))
        }
        // These name the directory, the file or the variable themselves.
        OpenError::Io(m) | OpenError::Config(m) => CliError::msg(m),
        other => CliError::msg(format!(
            "cannot open the data directory {}: {other}",
            dir.display()
        )),
    }
}

/// Whether process `pid` still runs (a `server.json` left by a killed
/// server names a dead one). Where this cannot be told, it is assumed to.
pub(crate) fn process_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

/// An error with its causes: "error sending request: connection refused".
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

/// What a command does to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Only reads.
    Read,
    /// Writes.
    Write,
}

/// Where the operations run.
pub enum Backend {
    /// The store, opened in this process; operations run on it as the
    /// owner at the machine, through its typed door.
    Local(Organiser),
    /// A server over HTTP.
    Remote(Remote),
}

/// A server over HTTP: where a remote door sends each operation's request.
pub struct Remote {
    /// Its base address.
    url: String,
    /// The bearer token to send.
    token: String,
    /// The HTTP client.
    client: reqwest::blocking::Client,
}

impl Backend {
    /// `ORGANISER_URL` + `ORGANISER_TOKEN` when set (else the
    /// configuration file's `url` and `token`); else the store in `dir`, or
    /// the server holding it. A command that only reads opens the store
    /// read-only when it can, so it writes nothing to the disk.
    pub fn open(dir: Option<&Path>, access: Access) -> Result<Backend, CliError> {
        if let Some(remote) = crate::config::remote()? {
            return Backend::remote(&remote.url, &remote.token);
        }
        let dir = data_dir(dir)?;
        // A command that only reads makes nothing: a mistyped --data-dir
        // says so instead of showing a new, empty store.
        if access == Access::Read
            && !dir.join(organiser_core::data::STORE_FILE).exists()
            && ServerInfo::read(&dir).is_none()
        {
            return Err(CliError::msg(format!(
                "there is no store in {} (is the data directory right?); `organiser init` sets one up, and any command that changes something makes one with the default owner",
                dir.display()
            )));
        }
        let wait = lock_wait()?;
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            let opened = match access {
                Access::Read => Organiser::open_for_reading(&dir),
                Access::Write => open_store(&dir),
            };
            match opened {
                Ok(org) => return Ok(Backend::Local(org)),
                Err(OpenError::Locked) => {
                    if let Some(info) = ServerInfo::read(&dir).filter(|i| process_alive(i.pid)) {
                        return Backend::remote(&info.url, &info.token);
                    }
                    // Another command holds the store: commands take
                    // milliseconds, so wait for it (a little longer each
                    // time), up to a bound.
                    if started.elapsed() + pause > wait {
                        return Err(open_error(&dir, OpenError::Locked));
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(e) => return Err(open_error(&dir, e)),
            }
        }
    }

    fn remote(url: &str, token: &str) -> Result<Backend, CliError> {
        Backend::remote_within(url, token, Duration::from_secs(120))
    }

    fn remote_within(url: &str, token: &str, timeout: Duration) -> Result<Backend, CliError> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::blocking::Client::builder()
            .timeout(timeout)
            .build()
            .map_err(|e| {
                // Most often: no CA certificates on the machine.
                CliError::msg(format!(
                    "cannot set up the HTTP client ({}); are CA certificates installed (ca-certificates)?",
                    chain(&e)
                ))
            })?;
        Ok(Backend::Remote(Remote {
            url: url.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            client,
        }))
    }
}

impl Remote {
    /// Sends one request and returns the response, whatever its status; a
    /// raw body (an upload's bytes) moves `progress` on as it goes. A POST
    /// goes with an `Idempotency-Key`, so that it is safe to send again; a
    /// request that is safe to send again (a read, or such a POST) and is
    /// refused with 429 is sent again when the server's `Retry-After`
    /// says, a few times.
    pub(crate) fn call_with_progress(
        &self,
        mut request: Request,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<Response, CliError> {
        if request.method == organiser_core::server::Method::Post
            && request.idempotency_key.is_none()
        {
            request.idempotency_key = Some(idempotency_key());
        }
        let repeatable = request.raw.is_none()
            && (request.method == organiser_core::server::Method::Get
                || request.idempotency_key.is_some());
        let mut waited = Duration::ZERO;
        loop {
            let again = repeatable.then(|| request.clone());
            let response = self.send(request, progress)?;
            let wait = retry_after(&response);
            match (again, wait) {
                (Some(again), Some(wait)) if waited + wait <= MOST_RATE_WAIT => {
                    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                        eprintln!(
                            "The server asks to wait {} s before the next request; waiting.",
                            wait.as_secs()
                        );
                    }
                    std::thread::sleep(wait);
                    waited += wait;
                    request = again;
                }
                _ => return Ok(response),
            }
        }
    }

    /// Sends one request as it is.
    fn send(
        &self,
        mut request: Request,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<Response, CliError> {
        let Remote { url, token, client } = self;
        let method =
            reqwest::Method::from_bytes(request.method.as_str().as_bytes()).expect("a method");
        // A route at the server's root (a calendar feed) is not below
        // `/api/v1`.
        let prefix = if request.at_root { "" } else { "/api/v1" };
        let mut builder = client
            .request(method, format!("{url}{prefix}{}", request.path))
            .bearer_auth(token);
        if let Some(tag) = &request.if_none_match {
            builder = builder.header("if-none-match", tag);
        }
        let pairs: Vec<(&str, &str)> = request.query.pairs().collect();
        if !pairs.is_empty() {
            builder = builder.query(&pairs);
        }
        if let Some(body) = &request.body {
            builder = builder.json(body);
        }
        if let Some(key) = &request.idempotency_key {
            builder = builder.header("idempotency-key", key);
        }
        if let Some(raw) = request.raw.take() {
            // Sized, so that it goes with a Content-Length (the
            // API refuses an upload without one).
            let length = raw.bytes.len() as u64;
            let bytes = std::io::Cursor::new(raw.bytes);
            let body = match progress {
                Some(bar) => reqwest::blocking::Body::sized(bar.wrap_read(bytes), length),
                None => reqwest::blocking::Body::sized(bytes, length),
            };
            builder = builder
                .header(reqwest::header::CONTENT_TYPE, raw.content_type)
                .body(body);
        }
        let response = builder.send().map_err(|e| {
            CliError::msg(format!("cannot reach the server at {url}: {}", chain(&e)))
        })?;
        let status = response.status().as_u16();
        // What the answers the CLI reads say in headers: a wait,
        // a file's type and name, a redirect's target.
        let headers: Vec<(&'static str, String)> = [
            "retry-after",
            "content-type",
            "content-disposition",
            "location",
        ]
        .into_iter()
        .filter_map(|name| {
            let value = response.headers().get(name)?.to_str().ok()?;
            Some((name, value.to_owned()))
        })
        .collect();
        let body = response
            .bytes()
            .map_err(|e| CliError::msg(format!("the server at {url} broke off its answer: {e}")))?;
        Ok(Response {
            status,
            body: if body.is_empty() {
                None
            } else {
                Some(body.to_vec())
            },
            replayed: false,
            headers,
        })
    }
}

/// The most a command waits in all on a server's `Retry-After`.
const MOST_RATE_WAIT: Duration = Duration::from_secs(120);

/// How long a 429's `Retry-After` asks to wait; `None` for any other answer.
fn retry_after(response: &Response) -> Option<Duration> {
    if response.status != 429 {
        return None;
    }
    let seconds = response
        .headers
        .iter()
        .find(|(name, _)| *name == "retry-after")
        .and_then(|(_, v)| v.trim().parse::<u64>().ok())
        .unwrap_or(1);
    Some(Duration::from_secs(seconds.clamp(1, 60)))
}

/// A key no other request of this machine has: the process, the time and
/// a count.
fn idempotency_key() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "cli-{}-{nanos}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

/// For completing words in a shell, which must be quick and change
/// nothing: the backend a reading command would use, without waiting for a
/// held store, with a short timeout for a server, and never where there is
/// no store yet (`None` then, and on any error).
pub(crate) fn open_for_completion(dir: Option<&Path>) -> Option<Backend> {
    const QUICK: Duration = Duration::from_secs(2);
    if let Some(remote) = crate::config::remote().ok()? {
        return Backend::remote_within(&remote.url, &remote.token, QUICK).ok();
    }
    let dir = data_dir(dir).ok()?;
    if !dir.join(organiser_core::data::STORE_FILE).is_file() {
        return None;
    }
    match Organiser::open_for_reading(&dir) {
        Ok(org) => Some(Backend::Local(org)),
        Err(OpenError::Locked) => {
            let info = ServerInfo::read(&dir).filter(|i| process_alive(i.pid))?;
            Backend::remote_within(&info.url, &info.token, QUICK).ok()
        }
        Err(_) => None,
    }
}
