//! What wraps every response: `X-Request-Id` and `X-Service-Version`
//! (errors and 404s included), a structured log line, and the general rate
//! limit.

use std::net::SocketAddr;
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

/// A client's `X-Request-Id` is kept when it is sane; otherwise one is made.
fn request_id(request: &Request) -> HeaderValue {
    request
        .headers()
        .get(&REQUEST_ID)
        .filter(|v| {
            !v.is_empty() && v.len() <= 128 && v.as_bytes().iter().all(u8::is_ascii_graphic)
        })
        .cloned()
        .unwrap_or_else(|| {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes).expect("random source");
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            HeaderValue::from_str(&hex).expect("hex is a header value")
        })
}

pub(crate) async fn envelope(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let id = request_id(&request);
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_default();

    let mut response = next.run(request).await;

    let headers = response.headers_mut();
    headers.insert(REQUEST_ID.clone(), id.clone());
    if let Ok(version) = HeaderValue::from_str(&state.org.options().build.version) {
        headers.insert(SERVICE_VERSION.clone(), version);
    }
    tracing::info!(
        target: "organiser::request",
        request_id = id.to_str().unwrap_or_default(),
        method = %method,
        path = %path,
        status = response.status().as_u16(),
        duration_us = started.elapsed().as_micros() as u64,
        peer = %peer,
    );
    response
}

/// The general limit per address, and the update-check limit on top of it.
pub(crate) async fn rate_limit(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ip) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
    else {
        return next.run(request).await;
    };
    let now = state.org.now();
    if let Err(retry_after) = state.general.admit(ip, now) {
        return ApiError(Error::RateLimited { retry_after }).into_response();
    }
    let update_check = request.method() == axum::http::Method::POST
        && request.uri().path() == "/api/v1/system/update_check";
    if update_check && let Err(retry_after) = state.update_checks.admit(ip, now) {
        return ApiError(Error::RateLimited { retry_after }).into_response();
    }
    next.run(request).await
}
