//! What wraps every response: `X-Request-Id` and `X-Service-Version`
//! (errors and 404s included), a structured log line, and the general rate
//! limit.

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use organiser_core::Error;

use crate::AppState;
use crate::error::ApiError;

pub(crate) static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
static SERVICE_VERSION: HeaderName = HeaderName::from_static("x-service-version");

/// A client's `X-Request-Id` is kept when it is sane; otherwise one is made
/// from a per-process random prefix and a counter (unique, and cheap).
fn request_id(request: &Request) -> HeaderValue {
    static PREFIX: OnceLock<String> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let sane = |v: &&HeaderValue| {
        !v.is_empty() && v.len() <= 128 && v.as_bytes().iter().all(u8::is_ascii_graphic)
    };
    if let Some(given) = request.headers().get(&REQUEST_ID).filter(sane) {
        return given.clone();
    }
    let prefix = PREFIX.get_or_init(|| {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("random source");
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    HeaderValue::from_str(&format!("{prefix}{n:016x}")).expect("hex is a header value")
}

/// What a log line says of a request, captured only when it will be logged.
struct Seen {
    method: axum::http::Method,
    path: String,
    peer: Option<SocketAddr>,
    started: Instant,
}

pub(crate) async fn envelope(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let id = request_id(&request);
    let logged = tracing::enabled!(target: "organiser::request", tracing::Level::INFO);
    let seen = logged.then(|| Seen {
        method: request.method().clone(),
        path: request.uri().path().to_owned(),
        peer: request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0),
        started: Instant::now(),
    });

    let mut response = match refused(&state, &request) {
        Some(refusal) => refusal,
        None => next.run(request).await,
    };

    let headers = response.headers_mut();
    headers.insert(REQUEST_ID.clone(), id.clone());
    headers.insert(SERVICE_VERSION.clone(), state.version.clone());
    if let Some(seen) = seen {
        tracing::info!(
            target: "organiser::request",
            request_id = id.to_str().unwrap_or_default(),
            method = %seen.method,
            path = %seen.path,
            status = response.status().as_u16(),
            duration_us = seen.started.elapsed().as_micros() as u64,
            peer = %seen.peer.map(|p| p.ip().to_string()).unwrap_or_default(),
        );
    }
    response
}

/// The general limit per address, and the update-check limit on top of it:
/// the 429 to answer instead, if any.
fn refused(state: &AppState, request: &Request) -> Option<Response> {
    if state.general.is_off() && state.update_checks.is_off() {
        return None;
    }
    let ip = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())?;
    let now = state.org.now();
    let update_check = request.method() == axum::http::Method::POST
        && request.uri().path() == "/api/v1/system/update_check";
    let admitted = state
        .general
        .admit(ip, now)
        .and_then(|()| if update_check { state.update_checks.admit(ip, now) } else { Ok(()) });
    admitted
        .err()
        .map(|retry_after| ApiError(Error::RateLimited { retry_after }).into_response())
}
