//! A calendar server in the test process (as `tests/common/update_server.rs`
//! runs the update server): serves whatever the test put at each path, so
//! the binary under test, started with `ORGANISER_ALLOW_PRIVATE_FEEDS=1`,
//! can fetch feeds from a loopback address.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::loopback::Loopback;

type Answers = Arc<Mutex<HashMap<String, (u16, String)>>>;

/// Serves `GET /{file}` with the status and body put for it (404 for
/// anything else) until dropped.
pub(crate) struct FeedServer {
    /// `http://127.0.0.1:PORT`.
    pub(crate) url: String,
    answers: Answers,
    _server: Loopback,
}

impl FeedServer {
    pub(crate) fn start() -> FeedServer {
        use axum::extract::{Path, State};
        let answers: Answers = Arc::default();
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
            .with_state(answers.clone());
        let server = Loopback::serve(app);
        FeedServer {
            url: format!("http://{}", server.addr),
            answers,
            _server: server,
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

/// An iCalendar body of these lines (CRLF between them, as RFC 5545 says).
pub(crate) fn ical(lines: &[&str]) -> String {
    let mut body = lines.join("\r\n");
    body.push_str("\r\n");
    body
}
