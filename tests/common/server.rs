//! A real server on a loopback port, over a store whose clock the test
//! moves, and a blocking HTTP client: for the transport tests of
//! `tests/http`. Every answer it reads is checked against
//! `docs/openapi.json` (`super::openapi`).

use std::sync::Arc;
use std::sync::mpsc;

use organiser::{Auth, Organiser, clock::ManualClock};
use serde_json::Value;

use super::{Reply, Sendable, Setup};

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

impl TestServer {
    pub fn start() -> TestServer {
        TestServer::with(Setup::default())
    }

    pub fn with(setup: Setup) -> TestServer {
        let rate_limit = setup.rate_limit;
        TestServer::with_config(
            setup,
            organiser_server::Config {
                rate_limit,
                // The routes' own limits are on where a test sets a
                // general one.
                route_limits: rate_limit != 0,
                ..TestServer::config()
            },
        )
    }

    /// A fresh store made as `setup` says, served with `config` (the
    /// setup's `rate_limit` is not read).
    pub fn with_config(setup: Setup, config: organiser_server::Config) -> TestServer {
        let clock = ManualClock::at(setup.now);
        let mut options = setup.options;
        options.clock = Arc::new(clock.clone());
        let org = Organiser::in_memory_with(options);
        TestServer::serve_with(org, clock, config)
    }

    /// Serves an existing store.
    pub fn serve(org: Organiser, clock: ManualClock, rate_limit: u32) -> TestServer {
        TestServer::serve_with(
            org,
            clock,
            organiser_server::Config {
                rate_limit,
                // The routes' own limits are on where a test sets a
                // general one.
                route_limits: rate_limit != 0,
                ..TestServer::config()
            },
        )
    }

    /// The configuration [`TestServer::start`] serves with: no rate limits,
    /// no scheduled update checks.
    pub fn config() -> organiser_server::Config {
        organiser_server::Config {
            rate_limit: 0,
            route_limits: false,
            jobs: organiser_server::Jobs::NONE,
            ..organiser_server::Config::default()
        }
    }

    /// A fresh store served with `config` (its `local_token` is the
    /// test's).
    pub fn configured(config: organiser_server::Config) -> TestServer {
        let setup = Setup::default();
        let clock = ManualClock::at(setup.now);
        let mut options = setup.options;
        options.clock = Arc::new(clock.clone());
        TestServer::serve_with(Organiser::in_memory_with(options), clock, config)
    }

    /// Serves an existing store with `config`.
    pub fn serve_with(
        org: Organiser,
        clock: ManualClock,
        mut config: organiser_server::Config,
    ) -> TestServer {
        let local_token = "local_test_token_0123456789abcdef".to_owned();
        let token = org.account().create_token("tests", None).unwrap().secret;
        config.local_token = Some(local_token.clone());
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
        super::send(self.req("GET", path))
    }

    pub fn post(&self, path: &str, body: Value) -> Reply {
        super::send(self.req("POST", path).json(&body))
    }

    pub fn patch(&self, path: &str, body: Value) -> Reply {
        super::send(self.req("PATCH", path).json(&body))
    }

    pub fn put(&self, path: &str, body: Value) -> Reply {
        super::send(self.req("PUT", path).json(&body))
    }

    pub fn delete(&self, path: &str) -> Reply {
        super::send(self.req("DELETE", path))
    }

    /// As the owner at the machine (the local administrator token).
    pub fn local(&self, method: &str, path: &str) -> reqwest::blocking::RequestBuilder {
        self.bare(method, path).bearer_auth(&self.local_token)
    }

    /// The server's address, `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://")
    }

    /// Stops the server as SIGTERM would, and gives how long it took to
    /// stop serving.
    pub fn stop(mut self) -> std::time::Duration {
        let started = std::time::Instant::now();
        if let Some(stop) = self.shutdown.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        started.elapsed()
    }

    pub fn advance(&self, secs: i64) {
        self.clock.advance_secs(secs);
    }
}

impl Sendable for reqwest::blocking::RequestBuilder {
    /// Sends and reads the reply, which must be one `docs/openapi.json`
    /// allows.
    fn send_now(self) -> Reply {
        let (client, request) = self.build_split();
        let request = request.expect("a well-formed request");
        let (method, path) = (request.method().clone(), request.url().path().to_owned());
        let response = client.execute(request).expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response.bytes().unwrap();
        super::openapi::check(&super::openapi::Seen {
            method: method.as_str(),
            path: &path,
            status,
            content_type: headers
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
            body: &bytes,
            in_process: false,
        });
        Reply::read(status, headers, &bytes)
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
