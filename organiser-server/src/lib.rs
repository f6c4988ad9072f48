//! The HTTP adapter of Organiser: serves the JSON API (its reference is
//! `docs/openapi.json`, served at `/api/v1/openapi.json`) over axum.
//!
//! It decides transport matters only (DESIGN.md "The core"): authentication
//! headers and cookies, 401, 411, 413, 415, 429, `invalid_json`, the
//! `X-Service-Version` and `X-Request-Id` headers, request logs, which
//! proxies' `X-Forwarded-*` headers to believe, `GET /healthz`, and
//! connections (the header timeout, `Connection: close` after a body left
//! unread, a bounded graceful shutdown). Every API request becomes one
//! [`organiser_core::Request`] handed to [`Organiser::handle`].
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let org = organiser_core::Organiser::in_memory();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! organiser_server::serve(listener, org, organiser_server::Config::default(), std::future::pending()).await
//! # }
//! ```
#![forbid(unsafe_code)]

mod conn;
mod error;
mod handler;
mod middleware;
mod origin;
mod rate_limit;
mod server_file;
mod session;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{any, get, post};
use organiser_core::Organiser;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;

pub use conn::DRAIN_GRACE;
pub use origin::{TrustedProxies, parse_public_url};
pub use rate_limit::RateLimiter;
pub use server_file::{SERVER_FILE, ServerFile, ServerInfo};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// General rate limit in requests per minute per address; 0 turns it
    /// off (`ORGANISER_RATE_LIMIT`). The local administrator token is not
    /// counted against it.
    pub rate_limit: u32,
    /// Whether the limits of document 1 that some routes have on top of
    /// the general one (provider calls, trials, backfills, update checks)
    /// apply. They are rules of the API and hold whatever the general
    /// limit is; only test suites turn them off, in process.
    pub route_limits: bool,
    /// A token that authenticates as the owner at the machine (the local
    /// administrator token of `server.json`).
    pub local_token: Option<String>,
    /// How often to see whether a scheduled update check is due; `None`
    /// never runs scheduled checks.
    pub update_tick: Option<Duration>,
    /// How often to sync the calendar feeds whose scheduled sync is due
    /// (in the background, at most four at once); `None` never syncs on
    /// a schedule.
    pub feed_tick: Option<Duration>,
    /// Whether a background thread works the AI tasks' queues (one model
    /// call at a time, woken when a write queues work).
    pub ai_worker: bool,
    /// How long a client may take to send a request's head, on a new
    /// connection or between requests on a kept-alive one; the connection
    /// is closed after it.
    pub header_read_timeout: Duration,
    /// How long shutdown waits for the requests in flight before it drops
    /// their connections.
    pub shutdown_timeout: Duration,
    /// The proxies whose `X-Forwarded-For`, `X-Forwarded-Host` and
    /// `X-Forwarded-Proto` are believed (`ORGANISER_TRUSTED_PROXIES`).
    pub trusted_proxies: TrustedProxies,
    /// The address clients reach the server at, for discovery's
    /// `base_url` (`ORGANISER_PUBLIC_URL`); `None` takes it from the
    /// request.
    pub public_url: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rate_limit: organiser_core::limits::GENERAL_RATE_PER_MINUTE,
            route_limits: true,
            local_token: None,
            update_tick: Some(Duration::from_secs(60)),
            feed_tick: Some(Duration::from_secs(15)),
            ai_worker: true,
            header_read_timeout: Duration::from_secs(10),
            shutdown_timeout: Duration::from_secs(5),
            trusted_proxies: TrustedProxies::none(),
            public_url: None,
        }
    }
}

impl Config {
    /// The defaults with `ORGANISER_RATE_LIMIT`,
    /// `ORGANISER_TRUSTED_PROXIES` and `ORGANISER_PUBLIC_URL` applied; an
    /// error names a malformed value.
    pub fn from_env() -> Result<Config, String> {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Config::from_env`] over any source of variables (tests).
    fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Config, String> {
        let mut config = Config::default();
        if let Some(value) = var("ORGANISER_RATE_LIMIT") {
            config.rate_limit = value
                .trim()
                .parse()
                .map_err(|_| format!("ORGANISER_RATE_LIMIT must be a whole number of requests per minute (0 turns it off), not {value:?}"))?;
        }
        if let Some(value) = var("ORGANISER_TRUSTED_PROXIES") {
            config.trusted_proxies = value
                .parse()
                .map_err(|e| format!("ORGANISER_TRUSTED_PROXIES: {e}"))?;
        }
        if let Some(value) = var("ORGANISER_PUBLIC_URL").filter(|v| !v.trim().is_empty()) {
            config.public_url = Some(parse_public_url(&value)?);
        }
        Ok(config)
    }
}

/// Shared by every request; cloning it (as every layer does) is one
/// reference count.
#[derive(Clone)]
pub(crate) struct AppState(Arc<Shared>);

pub(crate) struct Shared {
    pub(crate) org: Organiser,
    pub(crate) config: Config,
    pub(crate) general: RateLimiter,
    /// The limits some routes have on top of the general one
    /// (`organiser_core::limits::ROUTE_LIMITS`, by name).
    pub(crate) route_limits: Vec<(&'static str, RateLimiter)>,
    /// `X-Service-Version`, made once.
    pub(crate) version: axum::http::HeaderValue,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The router: every API route under `/api/v1`, discovery at the root.
pub fn router(org: Organiser, config: Config) -> Router {
    let general = RateLimiter::per_minute(config.rate_limit);
    let route_limits = organiser_core::limits::ROUTE_LIMITS
        .iter()
        .map(|l| {
            let per_minute = if config.route_limits { l.per_minute } else { 0 };
            (l.name, RateLimiter::per_minute(per_minute))
        })
        .collect();
    let version = axum::http::HeaderValue::from_str(&org.options().build.version)
        .unwrap_or_else(|_| axum::http::HeaderValue::from_static("unknown"));
    let state = AppState(Arc::new(Shared {
        version,
        org,
        config,
        general,
        route_limits,
    }));
    let version = state.version.clone();
    Router::new()
        .route(
            "/api/v1/session",
            // Other methods on this path are the API's (a JSON 404), not 405.
            post(session::sign_in)
                .delete(session::sign_out)
                .fallback(handler::api),
        )
        .route("/healthz", get(handler::health).fallback(handler::api))
        .fallback(any(handler::api))
        .layer(
            tower::ServiceBuilder::new()
                .layer(SetRequestIdLayer::x_request_id(middleware::CounterId))
                .layer(PropagateRequestIdLayer::x_request_id())
                .layer(SetResponseHeaderLayer::overriding(
                    middleware::SERVICE_VERSION.clone(),
                    version,
                ))
                .layer(middleware::RequestLogLayer(state.clone()))
                .layer(tower_http::catch_panic::CatchPanicLayer::custom(
                    error::panic_response,
                )),
        )
        .with_state(state)
}

/// Says at start-up whether the daily update check runs, and how to turn
/// it off.
fn log_update_checks(org: &Organiser) {
    match org.system().get(false) {
        Ok(system) if system.update_checks && system.update.can_check => tracing::info!(
            "update checks: daily (turn off with `organiser system updates off` or PATCH /system)"
        ),
        Ok(system) if system.update_checks_managed => tracing::info!(
            managed_by = system.update_checks_managed_by.as_deref().unwrap_or("-"),
            "update checks: managed elsewhere"
        ),
        Ok(system) if !system.update.can_check => {
            tracing::info!("update checks: off (this build cannot check)")
        }
        Ok(_) => tracing::info!("update checks: off"),
        Err(error) => tracing::warn!(%error, "cannot read the update settings"),
    }
}

/// Logs one scheduled update check and its outcome.
fn log_update_check(system: &organiser_core::System) {
    let update = &system.update;
    match &update.error {
        Some(error) => tracing::warn!(%error, "update check failed"),
        None => tracing::info!(
            status = ?update.status,
            latest_version = update.latest_version.as_deref().unwrap_or("-"),
            "update check done"
        ),
    }
}

/// Serves `org` on `listener` until `shutdown` completes, then finishes the
/// requests in flight, waiting for them no longer than
/// [`Config::shutdown_timeout`] (connections with no request in flight are
/// closed within [`DRAIN_GRACE`]). Every minute (`update_tick`) it writes
/// down token uses and runs a scheduled update check when one is due;
/// every 15 seconds (`feed_tick`) it syncs the calendar feeds that are due.
pub async fn serve(
    listener: tokio::net::TcpListener,
    org: Organiser,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let ticker = config.update_tick.map(|every| {
        let org = org.clone();
        tokio::spawn(async move {
            log_update_checks(&org);
            let mut interval = tokio::time::interval(every);
            loop {
                interval.tick().await;
                let org = org.clone();
                let ran = tokio::task::spawn_blocking(move || {
                    if let Err(error) = org.flush_token_uses() {
                        tracing::warn!(%error, "recording token use failed");
                    }
                    org.run_scheduled_update_check()
                        .map(|ran| ran.then(|| org.system().get(false)))
                })
                .await;
                match ran {
                    Ok(Ok(Some(Ok(system)))) => log_update_check(&system),
                    Ok(Err(error)) | Ok(Ok(Some(Err(error)))) => {
                        tracing::warn!(%error, "scheduled update check failed");
                    }
                    _ => {}
                }
            }
        })
    });
    let feeds = config.feed_tick.map(|every| {
        let org = org.clone();
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                interval.tick().await;
                let org = org.clone();
                // One round at a time: the next tick waits for this one.
                let ran = tokio::task::spawn_blocking(move || org.sync_due_feeds()).await;
                match ran {
                    Ok(Ok(0)) => {}
                    Ok(Ok(synced)) => tracing::info!(synced, "scheduled calendar feed syncs done"),
                    Ok(Err(error)) => {
                        tracing::warn!(%error, "scheduled calendar feed syncs failed")
                    }
                    Err(error) => tracing::warn!(%error, "scheduled calendar feed syncs stopped"),
                }
            }
        })
    });
    let ai_worker = config.ai_worker.then(|| AiWorker::start(org.clone()));
    let app = router(org.clone(), config.clone());
    conn::run(listener, app, &config, shutdown).await;
    if let Some(worker) = ai_worker {
        worker.stop();
    }
    if let Some(ticker) = ticker {
        ticker.abort();
    }
    if let Some(feeds) = feeds {
        feeds.abort();
    }
    // Token uses since the last tick are written before the store closes.
    let flushed = tokio::task::spawn_blocking(move || org.flush_token_uses()).await;
    if let Ok(Err(error)) = flushed {
        tracing::warn!(%error, "recording token use failed");
    }
    Ok(())
}

/// The thread that works the AI tasks' queues: it runs them, then sleeps
/// until a write queues work (or a second passes, for backoffs that end).
struct AiWorker {
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl AiWorker {
    fn start(org: Organiser) -> AiWorker {
        use std::sync::atomic::Ordering;
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("organiser-ai".to_owned())
            .spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    match org.run_ai_tasks() {
                        Ok(0) => {}
                        Ok(written) => tracing::info!(written, "AI note titles written"),
                        Err(error) => tracing::warn!(%error, "AI tasks failed"),
                    }
                    org.wait_for_ai_work(Duration::from_secs(1));
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(%error, "cannot start the AI worker");
        }
        AiWorker { stop }
    }

    /// Asks the thread to stop after its current call (a model call may
    /// take up to 90 seconds: it is not waited for).
    fn stop(self) {
        self.stop.store(true, std::sync::atomic::Ordering::Release);
    }
}

/// A future that completes on SIGINT (Ctrl-C) or SIGTERM. The handlers are
/// installed when this is called, not when the future is first polled, so
/// a signal that arrives while the server is still starting is not lost.
/// Call it inside a Tokio runtime.
#[cfg(unix)]
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
        tracing::info!("shutting down: finishing requests in flight");
    })
}

/// A future that completes on Ctrl-C.
#[cfg(not(unix))]
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down: finishing requests in flight");
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(vars: &[(&str, &str)]) -> Result<Config, String> {
        Config::from_vars(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn the_environment_sets_the_limit_the_proxies_and_the_public_url() {
        let config = from(&[]).unwrap();
        assert_eq!(config.rate_limit, 300);
        assert!(config.trusted_proxies.is_empty());
        assert_eq!(config.public_url, None);

        let config = from(&[
            ("ORGANISER_RATE_LIMIT", " 0 "),
            ("ORGANISER_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8"),
            ("ORGANISER_PUBLIC_URL", "https://organiser.example.com/"),
        ])
        .unwrap();
        assert_eq!(config.rate_limit, 0);
        assert!(config.trusted_proxies.contains("10.2.3.4".parse().unwrap()));
        assert_eq!(
            config.public_url.as_deref(),
            Some("https://organiser.example.com")
        );
        // Blank is unset.
        assert_eq!(
            from(&[("ORGANISER_PUBLIC_URL", " ")]).unwrap().public_url,
            None
        );
    }

    #[test]
    fn a_malformed_setting_is_named() {
        for (name, value) in [
            ("ORGANISER_RATE_LIMIT", "lots"),
            ("ORGANISER_TRUSTED_PROXIES", "my-proxy"),
            ("ORGANISER_PUBLIC_URL", "organiser.example.com"),
        ] {
            let error = from(&[(name, value)]).unwrap_err();
            assert!(error.contains(name), "{error}");
        }
    }
}
