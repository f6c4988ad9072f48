//! Connections: the accept loop, HTTP/1.1 on each connection, and a
//! shutdown that cannot hang.
//!
//! - A client has [`Config::header_read_timeout`] to send a request's head
//!   (the first one, and each next one on a kept-alive connection): a
//!   connection that sends nothing, or half a head, is closed then.
//! - An answer given without reading the whole request body (401, 404,
//!   413, 429, ... decided before the body) says `Connection: close`, and
//!   the connection closes after it: the unread bytes would otherwise be
//!   taken for the next request.
//! - On shutdown the listener closes at once; requests in flight finish
//!   (their connections close after the answer); a connection with no
//!   request in flight (idle, or half a head) is closed after
//!   [`DRAIN_GRACE`]; after [`Config::shutdown_timeout`] whatever is left
//!   is dropped.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Response, header};
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tower::ServiceExt;

use crate::Config;

/// How long a connection with no request in flight is given, once
/// shutdown begins, to finish writing what it has answered.
pub const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Serves `router` on `listener` until `shutdown` completes, then closes
/// the connections as the module says.
pub(crate) async fn run(
    listener: TcpListener,
    router: Router,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    let http = Arc::new(http);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    connections.spawn(connection(
                        stream,
                        peer,
                        router.clone(),
                        http.clone(),
                        stop_rx.clone(),
                    ));
                }
                Err(error) => accept_failed(error).await,
            },
            // Reaps finished connections so the set holds live ones only.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(config.shutdown_timeout, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            connections = connections.len(),
            "shutdown: dropping connections whose requests did not finish in time"
        );
    }
    connections.shutdown().await;
}

/// A failed accept: a connection reset before we took it is nothing; any
/// other error (too many open files, ...) is logged, and the loop waits a
/// moment rather than spin.
async fn accept_failed(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accepting a connection failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// What a connection's task knows of its requests.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    /// Requests begun, ever.
    begun: AtomicUsize,
    /// Told whenever a request finishes.
    finished: Notify,
}

/// Counts a request in flight until dropped.
struct InFlightGuard(Arc<InFlight>);

impl InFlightGuard {
    fn new(in_flight: &Arc<InFlight>) -> Self {
        in_flight.count.fetch_add(1, Ordering::AcqRel);
        in_flight.begun.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(in_flight.clone())
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        self.0.count.fetch_sub(1, Ordering::AcqRel);
        self.0.finished.notify_one();
    }
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    http: Arc<http1::Builder>,
    mut stop: watch::Receiver<bool>,
) {
    // Answers are small and written whole: no reason to wait for more.
    let _ = stream.set_nodelay(true);
    let in_flight = Arc::new(InFlight::default());
    let counted = in_flight.clone();
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let guard = InFlightGuard::new(&counted);
        answer(router.clone(), peer, request, guard)
    });
    let conn = http.serve_connection(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = stop.wait_for(|stopping| *stopping) => {}
    }
    // Closes the connection after the request in flight, if any, or at
    // once if it is idle between requests.
    conn.as_mut().graceful_shutdown();
    loop {
        if in_flight.count.load(Ordering::Acquire) == 0 {
            // Nothing in flight: an answer still being written, a client
            // that has sent nothing or half a head. A moment, then it goes
            // (unless a request began meanwhile).
            let begun = in_flight.begun.load(Ordering::Acquire);
            tokio::select! {
                _ = conn.as_mut() => return,
                () = tokio::time::sleep(DRAIN_GRACE) => {
                    if in_flight.count.load(Ordering::Acquire) == 0
                        && in_flight.begun.load(Ordering::Acquire) == begun
                    {
                        return;
                    }
                }
            }
        } else {
            // A request in flight: its answer, then hyper closes the
            // connection (the shutdown's timeout bounds the wait).
            tokio::select! {
                _ = conn.as_mut() => return,
                () = in_flight.finished.notified() => {}
            }
        }
    }
}

/// One request through the router, with its peer; the answer says
/// `Connection: close` when the request's body was not read to its end.
async fn answer(
    router: Router,
    peer: SocketAddr,
    request: Request<Incoming>,
    _guard: InFlightGuard,
) -> Result<Response<Body>, Infallible> {
    let (mut parts, body) = request.into_parts();
    parts.extensions.insert(ConnectInfo(peer));
    let read = Arc::new(AtomicBool::new(body.is_end_stream()));
    let body = Body::new(Watched {
        inner: body,
        read: read.clone(),
    });
    let mut response = match router.oneshot(Request::from_parts(parts, body)).await {
        Ok(response) => response,
        Err(never) => match never {},
    };
    if !read.load(Ordering::Acquire) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    Ok(response)
}

/// A request body that says when it has been read to its end.
struct Watched {
    inner: Incoming,
    read: Arc<AtomicBool>,
}

impl HttpBody for Watched {
    type Data = <Incoming as HttpBody>::Data;
    type Error = <Incoming as HttpBody>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || self.inner.is_end_stream() {
            self.read.store(true, Ordering::Release);
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
