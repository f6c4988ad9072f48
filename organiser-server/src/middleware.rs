//! What wraps every response: `X-Request-Id` (the client's, or one made
//! from a per-process random prefix and a counter) and `X-Service-Version`,
//! errors and 404s included; a structured log line per request; and the
//! rate limits, which the handlers apply first.
//!
//! The layers are plain tower services (no boxing on the way), and the log
//! layer costs nothing when no subscriber listens.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use futures_util::future::{BoxFuture, Either, FutureExt};
use organiser_core::Error;
use tower::{Layer, Service};
use tower_http::request_id::{MakeRequestId, RequestId};

use crate::AppState;
use crate::error::ApiError;
use crate::origin::Origin;

pub(crate) static SERVICE_VERSION: HeaderName = HeaderName::from_static("x-service-version");

/// Makes request ids: 16 hex digits of a random per-process prefix, then a
/// 16-digit counter; unique, and cheap.
#[derive(Clone, Copy, Default)]
pub(crate) struct CounterId;

impl MakeRequestId for CounterId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        static PREFIX: OnceLock<[u8; 16]> = OnceLock::new();
        static NEXT: AtomicU64 = AtomicU64::new(0);
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let prefix = PREFIX.get_or_init(|| {
            let mut bytes = [0u8; 8];
            getrandom::fill(&mut bytes).expect("random source");
            let mut hex = [0u8; 16];
            for (i, b) in bytes.iter().enumerate() {
                hex[2 * i] = HEX[usize::from(b >> 4)];
                hex[2 * i + 1] = HEX[usize::from(b & 0xf)];
            }
            hex
        });
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut id = [0u8; 32];
        id[..16].copy_from_slice(prefix);
        for (i, shift) in (0..16).rev().enumerate() {
            id[16 + i] = HEX[((n >> (shift * 4)) & 0xf) as usize];
        }
        HeaderValue::from_bytes(&id).ok().map(RequestId::new)
    }
}

/// Logs each request (method, path, status, duration, the client's
/// address, request id) when a subscriber listens to `organiser::request`.
/// The address is the peer's, or behind a trusted proxy the client's it
/// forwarded.
#[derive(Clone)]
pub(crate) struct RequestLogLayer(pub(crate) AppState);

impl<S> Layer<S> for RequestLogLayer {
    type Service = RequestLog<S>;

    fn layer(&self, inner: S) -> RequestLog<S> {
        RequestLog {
            inner,
            state: self.0.clone(),
        }
    }
}

#[derive(Clone)]
pub(crate) struct RequestLog<S> {
    inner: S,
    state: AppState,
}

impl<S, B> Service<Request> for RequestLog<S>
where
    S: Service<Request, Response = axum::http::Response<B>> + Send + 'static,
    S::Future: Send + 'static,
    S::Error: 'static,
    B: 'static,
{
    type Response = axum::http::Response<B>;
    type Error = S::Error;
    type Future = Either<S::Future, BoxFuture<'static, Result<Self::Response, S::Error>>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if !tracing::enabled!(target: "organiser::request", tracing::Level::INFO) {
            return Either::Left(self.inner.call(request));
        }
        let method = request.method().clone();
        // A path that holds a secret (a calendar feed's address) is
        // logged as its route's template.
        let path = loggable_path(request.uri().path());
        let peer = Origin::of(&self.state.config, &request).client();
        let id = request
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let started = Instant::now();
        let answer = self.inner.call(request);
        Either::Right(
            async move {
                let response = answer.await?;
                tracing::info!(
                    target: "organiser::request",
                    request_id = %id,
                    method = %method,
                    path = %path,
                    status = response.status().as_u16(),
                    duration_us = started.elapsed().as_micros() as u64,
                    peer = %peer.map(|ip| ip.to_string()).unwrap_or_default(),
                );
                Ok(response)
            }
            .boxed(),
        )
    }
}

/// `path` as a log line shows it: a calendar feed's address
/// (`/ics/{secret}.ics`) and a one-time sign-in link
/// (`/sign-in/once/{secret}`) as their templates, any other as it is.
pub(crate) fn loggable_path(path: &str) -> String {
    if path.starts_with(crate::web::ONCE_PREFIX) {
        return format!("{}{{secret}}", crate::web::ONCE_PREFIX);
    }
    match path.strip_prefix("/api/v1") {
        Some(rest) => format!("/api/v1{}", organiser_core::server::loggable_path(rest)),
        None => organiser_core::server::loggable_path(path).into_owned(),
    }
}

/// The general limit per address, and the limit of the route on top of
/// it (`organiser_core::server::ROUTE_LIMITS`): the 429 to answer
/// instead, if any.
pub(crate) fn refused(state: &AppState, request: &Request) -> Option<Response> {
    let route = request
        .uri()
        .path()
        .strip_prefix("/api/v1")
        .and_then(|path| organiser_core::server::route_limit(request.method().as_str(), path))
        .and_then(|limit| {
            state
                .route_limits
                .iter()
                .find(|(name, _)| *name == limit.name)
        })
        .filter(|(_, limiter)| !limiter.is_off());
    // The CLI at the machine (the local administrator token) is not
    // counted against the general limit; the routes' own limits hold for
    // everyone.
    let general = !state.general.is_off() && !crate::handler::is_local(state, request.headers());
    if !general && route.is_none() {
        return None;
    }
    let ip = Origin::of(&state.config, request).client()?;
    let now = state.org.now();
    let admitted = if general {
        state.general.admit(ip, now)
    } else {
        Ok(())
    }
    .and_then(|()| match route {
        Some((_, limiter)) => limiter.admit(ip, now),
        None => Ok(()),
    });
    admitted
        .err()
        .map(|retry_after| ApiError(Error::RateLimited { retry_after }).into_response())
}
