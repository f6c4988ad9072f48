//! Shared by the test crates.
//!
//! - [`Core`] (`in_process`): the client of the rule tests (`tests/rules`),
//!   which hands each request to `Organiser::handle` in process;
//! - [`TestServer`] (`server`): a real server on a loopback port and a
//!   blocking HTTP client, for the transport tests (`tests/http`);
//! - both answer with the same [`Reply`] and take the same calls (`get`,
//!   `post`, ..., `req(..)`/`local(..)` with [`send`]), and start from the
//!   same [`Setup`]: a store whose [`ManualClock`](organiser::clock::ManualClock)
//!   the test moves;
//! - [`check`]: one table-driven case, a request and what must come back;
//! - [`openapi`]: every answer either client reads is checked against
//!   `docs/openapi.json` (its status listed for its operation, its body
//!   valid against the schema);
//! - `fixtures`: the lists and tasks the task tests build on;
//! - [`ManifestServer`] and [`licence_key`]: stand-ins for the release
//!   team's update server and licence keys;
//! - [`FeedServer`] and [`Vcal`]: a stand-in calendar server and the
//!   iCalendar text it serves;
//! - [`ModelServer`]: a stand-in AI model server speaking both provider
//!   protocols;
//! - `programs`: the programs people use (khard, khal), run on our output;
//! - `hostile`: images and PDFs of a few kilobytes that claim gigapixels,
//!   thousands of frames or minutes of rendering;
//! - `xss`: the note-body vectors the sanitiser is tested with.
// Each test crate uses its own part of this module.
#![allow(dead_code, unreachable_pub, unused_imports)]

pub mod check;
pub mod feed_server;
pub mod fixtures;
pub mod hostile;
pub mod in_process;
pub mod loopback;
pub mod model_server;
pub mod openapi;
pub mod programs;
pub mod receivers;
pub mod search;
pub mod server;
pub mod update_server;
pub mod xss;

use organiser::{Options, options::BuildInfo};
use serde_json::Value;

pub use check::{Call, Expect, check};
pub use feed_server::{Answer, FeedServer, Vcal};
pub use in_process::Core;
pub use model_server::{ModelServer, Recorded};
pub use server::TestServer;
pub use update_server::ManifestServer;

/// How to start a [`TestServer`] or a [`Core`]: when, with what options, and
/// (over HTTP only) the general rate limit.
pub struct Setup {
    pub now: &'static str,
    pub options: Options,
    pub rate_limit: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            now: "2026-03-10T09:00:00Z",
            options: Options::default(),
            rate_limit: 0,
        }
    }
}

impl Setup {
    /// A released build of `version` made on `released_on`.
    pub fn release(mut self, version: &str, released_on: &str) -> Self {
        self.options.build = BuildInfo::release(version, released_on.parse().unwrap());
        self
    }
}

/// What came back: the status, the headers and the JSON body (`Null` when
/// there was none, a string when it was not JSON).
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// Reads a body as [`TestServer`] and [`Core`] both do.
    pub fn read(status: u16, headers: reqwest::header::HeaderMap, bytes: &[u8]) -> Reply {
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into()))
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// `error.code`.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// The keys of `error.details`.
    pub fn detail_keys(&self) -> Vec<String> {
        self.body["error"]["details"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn data(&self) -> &Value {
        &self.body["data"]
    }

    /// Panics with the body when the status is not `status`.
    #[track_caller]
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(self.status, status, "body: {}", self.body);
        self
    }

    /// Panics unless this is an error with `status`, `code` and (when given) a details key.
    #[track_caller]
    pub fn expect_error(self, status: u16, code: &str, detail: Option<&str>) -> Self {
        assert_eq!(
            (self.status, self.code()),
            (status, code),
            "body: {}",
            self.body
        );
        if let Some(key) = detail {
            assert!(
                self.detail_keys().iter().any(|k| k == key),
                "details lack {key}: {}",
                self.body
            );
        }
        self
    }
}

/// A request either client can send: an HTTP request to a [`TestServer`]
/// or a [`CoreRequest`] to a [`Core`].
pub trait Sendable {
    /// Sends it and reads the reply.
    fn send_now(self) -> Reply;
}

/// Sends and reads the reply.
pub fn send(request: impl Sendable) -> Reply {
    request.send_now()
}

/// The key tests sign licence keys with.
pub fn licence_signer() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[7; 32])
}

/// A licence key signed by [`licence_signer`].
pub fn licence_key(key_id: &str, updates_until: &str) -> String {
    organiser::licence::sign_licence_key(
        &organiser::licence::LicenceKeyPayload {
            key_id: key_id.to_owned(),
            name: "Ada Lovelace".to_owned(),
            email: "ada@example.com".to_owned(),
            order_reference: Some("ORD-1001".to_owned()),
            issued_on: "2026-01-15".parse().unwrap(),
            updates_until: updates_until.parse().unwrap(),
        },
        &licence_signer(),
    )
}
