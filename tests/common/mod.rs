//! Shared by the end-to-end tests: a real server on a loopback port over a
//! store whose clock the test moves, and a small blocking HTTP client.
#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::sync::mpsc;

use organiser::{Auth, BuildInfo, ManualClock, Options, Organiser};
use serde_json::Value;

/// A server on 127.0.0.1:<free port> for one test.
pub struct TestServer {
    pub url: String,
    pub org: Organiser,
    pub clock: ManualClock,
    pub token: String,
    pub local_token: String,
    client: reqwest::blocking::Client,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How to start a [`TestServer`].
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

pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
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

impl TestServer {
    pub fn start() -> TestServer {
        TestServer::with(Setup::default())
    }

    pub fn with(setup: Setup) -> TestServer {
        let clock = ManualClock::at(setup.now);
        let mut options = setup.options;
        options.clock = Arc::new(clock.clone());
        let org = Organiser::in_memory_with(options);
        TestServer::serve(org, clock, setup.rate_limit)
    }

    /// Serves an existing store.
    pub fn serve(org: Organiser, clock: ManualClock, rate_limit: u32) -> TestServer {
        let local_token = "local_test_token_0123456789abcdef".to_owned();
        let token = org
            .create_token(&Auth::Local, "tests", None)
            .unwrap()
            .secret;
        let config = organiser_server::Config {
            rate_limit,
            local_token: Some(local_token.clone()),
            update_tick: None,
        };
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let served = org.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                organiser_server::serve(listener, served, config, async {
                    let _ = stop_rx.await;
                })
                .await
                .unwrap();
            });
        });
        let addr = addr_rx.recv().unwrap();
        let _ = rustls::crypto::ring::default_provider().install_default();
        TestServer {
            url: format!("http://{addr}"),
            org,
            clock,
            token,
            local_token,
            client: reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            shutdown: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// A request with the test's API token.
    pub fn req(&self, method: &str, path: &str) -> reqwest::blocking::RequestBuilder {
        self.bare(method, path).bearer_auth(&self.token)
    }

    /// A request with no credentials; `path` is below `/api/v1` unless it starts with `//`.
    pub fn bare(&self, method: &str, path: &str) -> reqwest::blocking::RequestBuilder {
        let url = match path.strip_prefix("//") {
            Some(root) => format!("{}/{root}", self.url),
            None => format!("{}/api/v1{path}", self.url),
        };
        self.client.request(method.parse().unwrap(), url)
    }

    pub fn get(&self, path: &str) -> Reply {
        send(self.req("GET", path))
    }

    pub fn post(&self, path: &str, body: Value) -> Reply {
        send(self.req("POST", path).json(&body))
    }

    pub fn patch(&self, path: &str, body: Value) -> Reply {
        send(self.req("PATCH", path).json(&body))
    }

    pub fn put(&self, path: &str, body: Value) -> Reply {
        send(self.req("PUT", path).json(&body))
    }

    pub fn delete(&self, path: &str) -> Reply {
        send(self.req("DELETE", path))
    }

    /// As the owner at the machine (the local administrator token).
    pub fn local(&self, method: &str, path: &str) -> reqwest::blocking::RequestBuilder {
        self.bare(method, path).bearer_auth(&self.local_token)
    }

    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
    }
}

/// Sends and reads the reply.
pub fn send(request: reqwest::blocking::RequestBuilder) -> Reply {
    let response = request.send().expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().unwrap();
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    Reply {
        status,
        headers,
        body,
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A stand-in for the release team's update server: serves whatever the
/// test put for each channel at `/<channel>.json`.
pub struct ManifestServer {
    pub url: String,
    pub signing_key: ed25519_dalek::SigningKey,
    answers: Arc<std::sync::Mutex<std::collections::HashMap<String, (u16, String)>>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ManifestServer {
    pub fn start() -> ManifestServer {
        use axum::extract::{Path, State};
        type Answers = Arc<std::sync::Mutex<std::collections::HashMap<String, (u16, String)>>>;
        let answers: Answers = Arc::default();
        let (addr_tx, addr_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let state = answers.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let app = axum::Router::new()
                    .route(
                        "/{file}",
                        axum::routing::get(
                            |State(answers): State<Answers>, Path(file): Path<String>| async move {
                                let channel = file.trim_end_matches(".json").to_owned();
                                let (status, body) = answers
                                    .lock()
                                    .unwrap()
                                    .get(&channel)
                                    .cloned()
                                    .unwrap_or((404, String::new()));
                                (axum::http::StatusCode::from_u16(status).unwrap(), body)
                            },
                        ),
                    )
                    .with_state(state);
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stop_rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        let addr = addr_rx.recv().unwrap();
        ManifestServer {
            url: format!("http://{addr}"),
            signing_key: ed25519_dalek::SigningKey::from_bytes(&[9; 32]),
            answers,
            shutdown: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// The manifest address template for [`Options`].
    pub fn template(&self) -> String {
        format!("{}/{{channel}}.json", self.url)
    }

    /// Publishes `releases` (version, released_on) on `channel`, signed.
    pub fn publish(&self, channel: &str, releases: &[(&str, &str)], revoked: &[&str]) {
        let manifest = organiser::Manifest {
            channel: channel.to_owned(),
            releases: releases
                .iter()
                .map(|(v, d)| organiser::ManifestRelease {
                    version: (*v).to_owned(),
                    released_on: d.parse().unwrap(),
                    notes_url: Some(format!("https://organiser.app/releases/{v}")),
                })
                .collect(),
            revoked_keys: revoked.iter().map(|s| (*s).to_owned()).collect(),
        };
        let signed = organiser::SignedManifest::sign(&manifest, &self.signing_key);
        self.answer(channel, 200, serde_json::to_string(&signed).unwrap());
    }

    /// Answers `channel` with a raw status and body.
    pub fn answer(&self, channel: &str, status: u16, body: String) {
        self.answers
            .lock()
            .unwrap()
            .insert(channel.to_owned(), (status, body));
    }

    /// Options that check for updates here, as release `version` of `released_on`.
    pub fn options(&self, version: &str, released_on: &str) -> Options {
        let update = organiser::UpdateConfig {
            manifest_url: self.template(),
            public_key: Some(self.signing_key.verifying_key()),
            managed_by: None,
        };
        Options {
            build: BuildInfo::release(version, released_on.parse().unwrap()),
            update,
            ..Options::default()
        }
    }
}

impl Drop for ManifestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The key tests sign licence keys with.
pub fn licence_signer() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[7; 32])
}

/// A licence key signed by [`licence_signer`].
pub fn licence_key(key_id: &str, updates_until: &str) -> String {
    organiser::sign_licence_key(
        &organiser::LicenceKeyPayload {
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
