//! `organiser notify ...` (notification channels), `organiser reminders`
//! (settings and the log) and `tasks add --remind` (EXTENSIONS.md §3)
//! through the real binary: channels added, listed without their
//! secrets, tested against a receiver in the test process (and against a
//! closed port: a clear failure, exit 1), turned off and on, deleted;
//! settings shown and set; the log newest first; a task's reminder read
//! from words in the owner's zone; mistakes said with the flags typed.
//!
//! This file holds the helpers the reminder tests share, and the
//! completions and manual pages; the tests are in `channels`, `settings`
//! and `tasks`.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::completions::{candidates, complete};
use crate::loopback::Loopback;
use crate::util::Dir;

mod channels;
mod settings;
mod tasks;

/// One request a receiver took: its path, its headers (names in lower
/// case) and its body.
#[derive(Debug, Clone)]
pub(super) struct Taken {
    pub(super) path: String,
    pub(super) headers: Vec<(String, String)>,
    pub(super) body: String,
}

impl Taken {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An ntfy server and a webhook at once: takes every `POST` on a
/// loopback port, answers 200, and keeps what it took.
pub(super) struct Receiver {
    /// `http://127.0.0.1:PORT`.
    pub(super) url: String,
    taken: Arc<Mutex<Vec<Taken>>>,
    _server: Loopback,
}

impl Receiver {
    pub(super) fn start() -> Receiver {
        let taken: Arc<Mutex<Vec<Taken>>> = Arc::default();
        let app = axum::Router::new().route(
            "/{*path}",
            axum::routing::post({
                let taken = taken.clone();
                move |uri: axum::http::Uri, headers: axum::http::HeaderMap, body: String| {
                    let taken = taken.clone();
                    async move {
                        let headers = headers
                            .iter()
                            .map(|(n, v)| {
                                (n.as_str().to_owned(), v.to_str().unwrap_or("").to_owned())
                            })
                            .collect();
                        taken.lock().expect("what was taken").push(Taken {
                            path: uri.path().to_owned(),
                            headers,
                            body,
                        });
                        "ok"
                    }
                }
            }),
        );
        let server = Loopback::serve(app);
        Receiver {
            url: format!("http://{}", server.addr),
            taken,
            _server: server,
        }
    }

    pub(super) fn taken(&self) -> Vec<Taken> {
        self.taken.lock().expect("what was taken").clone()
    }
}

/// An address on the loopback where nothing listens.
pub(super) fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("its address").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// The channels' listing as JSON: `data`.
pub(super) fn channels(dir: &Dir) -> Vec<Value> {
    dir.json(&["notify"])["data"]
        .as_array()
        .expect("an array")
        .clone()
}

#[test]
fn the_channels_names_are_completed() {
    let dir = Dir::new();
    dir.ok(&["notify", "add", "Phone", "--ntfy", "https://ntfy.sh/a"]);
    dir.ok(&["notify", "add", "Pager", "--ntfy", "https://ntfy.sh/b"]);
    dir.ok(&[
        "notify",
        "add",
        "Mail",
        "--email",
        "me@example.com",
        "--smtp",
        "h",
    ]);
    let data = dir.data().to_str().unwrap();
    for words in [
        &["--data-dir", data, "notify", "test", "P"][..],
        &["--data-dir", data, "notify", "rm", "P"],
        &["--data-dir", data, "notify", "on", "P"],
        &["--data-dir", data, "notify", "off", "P"],
        &["--data-dir", data, "reminders", "set", "--channels", "P"],
    ] {
        let mut offered = candidates(complete("fish", words.len() - 1, words).run());
        offered.sort();
        assert_eq!(offered, ["Pager", "Phone"], "{words:?}");
    }
}

#[test]
fn completions_and_man_pages_name_the_commands() {
    let dir = Dir::empty();
    let script = dir.ok(&["completions", "bash"]).stdout;
    for word in [
        "notify",
        "reminders",
        "--ntfy",
        "--webhook",
        "--smtp",
        "--key-dates-at",
        "--remind",
        "starttls",
    ] {
        assert!(script.contains(word), "no {word} in the bash script");
    }
    let page = dir.ok(&["man", "notify", "add"]).stdout;
    assert!(page.contains("organiser\\-notify\\-add"), "{page}");
    assert!(page.contains("\\-\\-password\\-stdin"), "{page}");
    let pages = dir.root().join("man1");
    dir.ok(&["man", "--dir", pages.to_str().unwrap()]);
    for page in [
        "organiser-notify.1",
        "organiser-notify-add.1",
        "organiser-notify-test.1",
        "organiser-notify-rm.1",
        "organiser-notify-on.1",
        "organiser-notify-off.1",
        "organiser-reminders.1",
        "organiser-reminders-set.1",
        "organiser-reminders-log.1",
    ] {
        assert!(pages.join(page).is_file(), "no {page}");
    }
    assert!(!dir.data().exists(), "completions and man touch no store");
}
