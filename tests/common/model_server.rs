//! A stand-in for the AI providers' model servers (document 2, "AIProvider"
//! kinds and "Connection calls"): a loopback HTTP server in the test
//! process that speaks both wire protocols under `/v1` at once, so a
//! provider of either kind points its `base_url` at [`ModelServer::url`]:
//!
//! - `api_compatible`: `GET /v1/models`, `POST /v1/chat/completions`;
//! - `vendor_b`: `GET /v1/models?limit=1000` (told apart by its `limit`
//!   query or its `anthropic-version` header), `POST /v1/messages`.
//!
//! It records every request before answering (a test can block until a
//! request arrives: [`ModelServer::wait_for_request`]), and the test can
//! make it fail, redirect, send a huge listing, answer late or ask for a
//! key.

use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::loopback::Loopback;

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// The path only (`/v1/models`).
    pub path: String,
    /// The raw query (`limit=1000`), if any.
    pub query: Option<String>,
    /// Every header, names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (a string when it was not JSON), `None` when empty.
    pub body: Option<Value>,
}

impl Recorded {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// How the server answers now: what the test set.
#[derive(Debug, Clone, Default)]
struct Modes {
    /// Every reply's text; `None`: the last user message's first words.
    reply: Option<String>,
    /// A status and JSON body every request gets.
    failure: Option<(u16, String)>,
    /// The key every request must carry.
    key: Option<String>,
    /// A `Location` every request is sent to with a 302.
    redirect: Option<String>,
    /// The size the models listing is padded past.
    huge: Option<usize>,
    /// How long every answer waits first.
    delay: Option<Duration>,
}

#[derive(Debug)]
struct State {
    models: Vec<String>,
    modes: Modes,
    requests: Vec<Recorded>,
    chat_calls: usize,
}

/// The state, and a signal for the requests that arrive.
#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Notified each time a request is recorded.
    arrived: Condvar,
}

/// A loopback model server speaking both provider protocols; stops when
/// dropped.
pub struct ModelServer {
    /// `http://127.0.0.1:PORT/v1`: the `base_url` to configure.
    pub url: String,
    addr: SocketAddr,
    shared: Arc<Shared>,
    _server: Loopback,
}

impl ModelServer {
    /// Serves the models `model-a` and `model-b`, replying with the first
    /// five words of the last user message.
    pub fn start() -> ModelServer {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                models: vec!["model-a".to_owned(), "model-b".to_owned()],
                modes: Modes::default(),
                requests: Vec::new(),
                chat_calls: 0,
            }),
            arrived: Condvar::new(),
        });
        let app = axum::Router::new()
            .fallback(answer)
            .with_state(shared.clone());
        let server = Loopback::serve(app);
        ModelServer {
            url: format!("http://{}/v1", server.addr),
            addr: server.addr,
            shared,
            _server: server,
        }
    }

    /// `http://127.0.0.1:PORT`, without the version path.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.state.lock().expect("the model server's state")
    }

    /// Lists these model identifiers from now on.
    pub fn set_models(&self, ids: &[&str]) {
        self.lock().models = ids.iter().map(|id| (*id).to_owned()).collect();
    }

    /// Every chat or messages call replies `text` from now on.
    pub fn set_reply(&self, text: &str) {
        self.lock().modes.reply = Some(text.to_owned());
    }

    /// Every request gets `status` with `body` (as JSON) until [`heal`].
    ///
    /// [`heal`]: ModelServer::heal
    pub fn fail_with(&self, status: u16, body: &str) {
        self.lock().modes.failure = Some((status, body.to_owned()));
    }

    /// Every request without `key` (`Authorization: Bearer <key>` or
    /// `x-api-key: <key>`) gets a 401 from now on ([`heal`] keeps this).
    ///
    /// [`heal`]: ModelServer::heal
    pub fn require_key(&self, key: &str) {
        self.lock().modes.key = Some(key.to_owned());
    }

    /// Every request gets a 302 to `location` until [`heal`].
    ///
    /// [`heal`]: ModelServer::heal
    pub fn redirect_to(&self, location: &str) {
        self.lock().modes.redirect = Some(location.to_owned());
    }

    /// The models listing is valid JSON padded past `bytes` (sent without a
    /// `Content-Length`) until [`heal`].
    ///
    /// [`heal`]: ModelServer::heal
    pub fn huge_body(&self, bytes: usize) {
        self.lock().modes.huge = Some(bytes);
    }

    /// Every answer waits `d` first until [`heal`].
    ///
    /// [`heal`]: ModelServer::heal
    pub fn delay(&self, d: Duration) {
        self.lock().modes.delay = Some(d);
    }

    /// Ends [`fail_with`], [`redirect_to`], [`huge_body`] and [`delay`];
    /// the models, the reply and the key stay as set.
    ///
    /// [`fail_with`]: ModelServer::fail_with
    /// [`redirect_to`]: ModelServer::redirect_to
    /// [`huge_body`]: ModelServer::huge_body
    /// [`delay`]: ModelServer::delay
    pub fn heal(&self) {
        let mut state = self.lock();
        state.modes.failure = None;
        state.modes.redirect = None;
        state.modes.huge = None;
        state.modes.delay = None;
    }

    /// Every request received (whatever it was answered), in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock().requests.clone()
    }

    /// Forgets the requests received, and the chat calls counted.
    pub fn clear_requests(&self) {
        let mut state = self.lock();
        state.requests.clear();
        state.chat_calls = 0;
    }

    /// How many chat or messages POSTs arrived (whatever they were
    /// answered).
    pub fn chat_calls(&self) -> usize {
        self.lock().chat_calls
    }

    /// Blocks until `until` holds of the state (checked now and again each
    /// time a request is recorded) or `timeout` passes; whether it held.
    fn wait(&self, timeout: Duration, mut until: impl FnMut(&State) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        while !until(&state) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .shared
                .arrived
                .wait_timeout(state, left)
                .expect("the model server's state")
                .0;
        }
        true
    }

    /// Blocks until [`chat_calls`] is at least `n` or `timeout` passes;
    /// whether it is.
    ///
    /// [`chat_calls`]: ModelServer::chat_calls
    pub fn wait_for_chat_calls(&self, n: usize, timeout: Duration) -> bool {
        self.wait(timeout, |state| state.chat_calls >= n)
    }

    /// Blocks until a request that `matches` has arrived (one received
    /// before counts) or `timeout` passes: the first such request.
    pub fn wait_for_request(
        &self,
        timeout: Duration,
        mut matches: impl FnMut(&Recorded) -> bool,
    ) -> Option<Recorded> {
        let mut found = None;
        self.wait(timeout, |state| {
            found = state.requests.iter().find(|r| matches(r)).cloned();
            found.is_some()
        });
        found
    }
}

/// Records the request (waking whoever waits for one), then answers as
/// the modes and its path say.
async fn answer(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    request: axum::extract::Request,
) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let body = (!bytes.is_empty()).then(|| {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
    });
    let recorded = Recorded {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
                (n.as_str().to_owned(), value)
            })
            .collect(),
        body,
    };
    let get = parts.method == Method::GET;
    let post = parts.method == Method::POST;
    let path = recorded.path.as_str();
    let chat = post && (path == "/v1/chat/completions" || path == "/v1/messages");
    let (modes, models) = {
        let mut state = shared.state.lock().expect("the model server's state");
        state.requests.push(recorded.clone());
        if chat {
            state.chat_calls += 1;
        }
        shared.arrived.notify_all();
        (state.modes.clone(), state.models.clone())
    };
    if let Some(delay) = modes.delay {
        tokio::time::sleep(delay).await;
    }
    if let Some(location) = modes.redirect {
        let mut response = json_response(302, Body::empty());
        let location = HeaderValue::from_str(&location).expect("a valid Location");
        response.headers_mut().insert(header::LOCATION, location);
        return response;
    }
    if let Some((status, body)) = modes.failure {
        return json_response(status, Body::from(body));
    }
    if let Some(key) = &modes.key {
        let bearer = format!("Bearer {key}");
        if recorded.header("authorization") != Some(bearer.as_str())
            && recorded.header("x-api-key") != Some(key.as_str())
        {
            let error = json!({"error": {
                "message": "Incorrect API key provided",
                "type": "invalid_request_error",
            }});
            return json_response(401, Body::from(error.to_string()));
        }
    }
    let vendor_b = recorded.header("anthropic-version").is_some()
        || recorded
            .query
            .as_deref()
            .is_some_and(|q| q.contains("limit="));
    let text = || {
        modes
            .reply
            .clone()
            .unwrap_or_else(|| first_words(&recorded))
    };
    let model = recorded
        .body
        .as_ref()
        .and_then(|b| b.get("model"))
        .cloned()
        .unwrap_or(Value::Null);
    let body = match path {
        "/v1/models" if get => {
            let listing = listing(&models, vendor_b).to_string();
            match modes.huge {
                // Whitespace before the closing brace keeps it valid JSON.
                Some(bytes) => {
                    let open = &listing[..listing.len() - 1];
                    let pad = " ".repeat(bytes.saturating_sub(listing.len()) + 1);
                    let text = format!("{open}{pad}}}");
                    let stream = Body::from(text).into_data_stream();
                    return json_response(200, Body::from_stream(stream));
                }
                None => listing,
            }
        }
        "/v1/chat/completions" if post => json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": model,
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": text()},
                "finish_reason": "stop",
            }],
        })
        .to_string(),
        "/v1/messages" if post => json!({
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text()}],
            "stop_reason": "end_turn",
        })
        .to_string(),
        _ => {
            let error = json!({"error": {"message": "not found"}});
            return json_response(404, Body::from(error.to_string()));
        }
    };
    json_response(200, Body::from(body))
}

/// The models listing, in the shape of either protocol.
fn listing(models: &[String], vendor_b: bool) -> Value {
    if vendor_b {
        let data: Vec<Value> = models
            .iter()
            .map(|id| {
                json!({"id": id, "type": "model", "display_name": id,
                    "created_at": "2025-01-01T00:00:00Z"})
            })
            .collect();
        json!({"data": data, "has_more": false,
            "first_id": models.first(), "last_id": models.last()})
    } else {
        let data: Vec<Value> = models
            .iter()
            .map(|id| json!({"id": id, "object": "model", "owned_by": "test"}))
            .collect();
        json!({"object": "list", "data": data})
    }
}

/// The first five words of the request's last user message (its text
/// parts, when its content is a list), or `Model reply` when it has none.
fn first_words(request: &Recorded) -> String {
    let messages = request
        .body
        .as_ref()
        .and_then(|b| b.get("messages"))
        .and_then(Value::as_array);
    let last_user = messages
        .into_iter()
        .flatten()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"));
    let content = match last_user.and_then(|m| m.get("content")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    let words: Vec<&str> = content.split_whitespace().take(5).collect();
    if words.is_empty() {
        "Model reply".to_owned()
    } else {
        words.join(" ")
    }
}

/// `status` with `body` as `application/json`.
fn json_response(status: u16, body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::from_u16(status).expect("a valid status");
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}
