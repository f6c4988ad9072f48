//! The HTTP adapter of Organiser: serves the JSON API (its reference is
//! `docs/openapi.json`, served at `/api/v1/openapi.json`) over axum.
//!
//! It decides transport matters only (DESIGN.md "The core"): authentication
//! headers and cookies, 401, 411, 413, 415, 429, `invalid_json`, the
//! `X-Service-Version` and `X-Request-Id` headers, request logs, which
//! proxies' `X-Forwarded-*` headers to believe, `GET /healthz`, and
//! connections (the header timeout, `Connection: close` after a body left
//! unread, a bounded graceful shutdown). Every API request becomes one
//! [`organiser_core::server::Request`] handed to [`Organiser::handle`].
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
mod jobs;
mod middleware;
mod origin;
mod rate_limit;
mod server_file;
mod session;
mod web;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{any, get, post};
use organiser_core::Organiser;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;

pub use conn::DRAIN_GRACE;
pub use jobs::Jobs;
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
    /// Which of the core's background jobs ([`Organiser::jobs`]: token
    /// uses, update checks, calendar feed syncs, AI tasks) run while the
    /// server serves, each on its own thread at the pace it declares.
    pub jobs: Jobs,
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
            jobs: Jobs::All,
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
    /// (`organiser_core::server::ROUTE_LIMITS`, by name).
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
    let route_limits = organiser_core::server::ROUTE_LIMITS
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
        .merge(web::routes())
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

/// Serves `org` on `listener` until `shutdown` completes, then finishes the
/// requests in flight, waiting for them no longer than
/// [`Config::shutdown_timeout`] (connections with no request in flight are
/// closed within [`DRAIN_GRACE`]). The background jobs [`Config::jobs`]
/// chooses run meanwhile; when serving ends they are asked to stop, and the
/// jobs that keep something in memory run once more.
pub async fn serve(
    listener: tokio::net::TcpListener,
    org: Organiser,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let jobs = jobs::Runner::start(&org, &config.jobs);
    let app = router(org.clone(), config.clone());
    conn::run(listener, app, &config, shutdown).await;
    let _ = tokio::task::spawn_blocking(move || jobs.stop(&org)).await;
    Ok(())
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
