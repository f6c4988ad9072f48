//! A calendar server in the test process (as `tests/common/update_server.rs`
//! runs the update server): serves whatever the test put at each path, so
//! the binary under test, started with `ORGANISER_ALLOW_PRIVATE_FEEDS=1`,
//! can fetch feeds from a loopback address.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, mpsc};

type Answers = Arc<Mutex<HashMap<String, (u16, String)>>>;

/// Serves `GET /{file}` with the status and body put for it (404 for
/// anything else) until dropped.
pub(crate) struct FeedServer {
    /// `http://127.0.0.1:PORT`.
    pub(crate) url: String,
    answers: Answers,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FeedServer {
    pub(crate) fn start() -> FeedServer {
        use axum::extract::{Path, State};
        let answers: Answers = Arc::default();
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let state = answers.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let app = axum::Router::new()
                    .route(
                        "/{file}",
                        axum::routing::get(
                            |State(answers): State<Answers>, Path(file): Path<String>| async move {
                                let (status, body) = answers
                                    .lock()
                                    .expect("the answers")
                                    .get(&file)
                                    .cloned()
                                    .unwrap_or((404, String::new()));
                                (
                                    axum::http::StatusCode::from_u16(status).expect("a status"),
                                    [(axum::http::header::CONTENT_TYPE, "text/calendar")],
                                    body,
                                )
                            },
                        ),
                    )
                    .with_state(state);
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("a port");
                addr_tx
                    .send(listener.local_addr().expect("an address"))
                    .expect("the address sent");
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stop_rx.await;
                    })
                    .await
                    .expect("the server runs");
            });
        });
        let addr = addr_rx.recv().expect("the server's address");
        FeedServer {
            url: format!("http://{addr}"),
            answers,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// Answers `GET /{file}` with `status` and `body` from now on.
    pub(crate) fn answer(&self, file: &str, status: u16, body: &str) {
        self.answers
            .lock()
            .expect("the answers")
            .insert(file.to_owned(), (status, body.to_owned()));
    }

    /// The address of `file` on this server.
    pub(crate) fn address(&self, file: &str) -> String {
        format!("{}/{file}", self.url)
    }
}

impl Drop for FeedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// An iCalendar body of these lines (CRLF between them, as RFC 5545 says).
pub(crate) fn ical(lines: &[&str]) -> String {
    let mut body = lines.join("\r\n");
    body.push_str("\r\n");
    body
}
