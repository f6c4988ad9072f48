//! Stand-ins for where reminders go (EXTENSIONS.md §3), started inside
//! the test process on loopback ports:
//!
//! - [`HttpReceiver`]: an HTTP server that records every request (method,
//!   path, headers, body) and answers what the test set ([`Reply`]: a
//!   status, after an optional delay; 200 at once until set), either for
//!   every request or for the next ones in order ([`HttpReceiver::then`]).
//!   It stands in for an ntfy topic and for a webhook.
//! - [`SmtpReceiver`]: a small SMTP server (no TLS, no login) that records
//!   each message's envelope and raw data, and can refuse messages. It
//!   speaks what lettre sends (`EHLO`, `MAIL`, `RCPT`, `DATA`, `RSET`,
//!   `NOOP`, `QUIT`); [`Mail`] reads back the plain text and HTML parts of
//!   a `multipart/alternative` message (7bit, quoted-printable or base64).
//!
//! Both count what arrived and let a test block until enough did
//! (`wait_for`); a request or message is recorded as it arrives, before
//! it is answered, so a test that drives the scheduler itself
//! (`send_due_reminders`) sees it as soon as the call returns.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::loopback::Loopback;

// ------------------------------------------------------------------ HTTP

/// How the HTTP receiver answers a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    /// Waits this long before answering.
    pub delay: Option<Duration>,
}

impl Reply {
    /// `status` at once.
    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            delay: None,
        }
    }

    /// 200 at once.
    pub fn ok() -> Reply {
        Reply::status(200)
    }

    /// The same, only after `delay`.
    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = Some(delay);
        self
    }
}

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    /// Its place in the order of arrival, from 0.
    pub index: usize,
    pub method: String,
    /// The path with its query.
    pub path: String,
    /// Header names in lower case, in the order sent.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The status it was answered with, once the answer went out (`None`
    /// while the receiver waits before answering).
    pub answered: Option<u16>,
}

impl Received {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics when it is not.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the body is not JSON ({e}): {}", self.text()))
    }

    /// `X-Organiser-Delivery`: the notification's ID.
    pub fn delivery(&self) -> String {
        self.header("x-organiser-delivery")
            .unwrap_or_else(|| panic!("no X-Organiser-Delivery: {self:?}"))
            .to_owned()
    }
}

/// What the receiver shares with its handler.
#[derive(Default)]
struct HttpState {
    received: Mutex<Vec<Received>>,
    /// Notified each time a request arrives or is answered.
    changed: Condvar,
    /// The answer to every request not scripted.
    reply: Mutex<Option<Reply>>,
    /// The answers to the next requests, in order.
    script: Mutex<VecDeque<Reply>>,
}

/// A loopback HTTP server recording every request; see the module's
/// documentation.
pub struct HttpReceiver {
    addr: SocketAddr,
    state: Arc<HttpState>,
    _server: Loopback,
}

impl HttpReceiver {
    /// Starts one answering 200 at once.
    pub fn start() -> HttpReceiver {
        let state = Arc::new(HttpState::default());
        let app = axum::Router::new()
            .fallback(receive)
            .with_state(state.clone());
        let server = Loopback::serve(app);
        HttpReceiver {
            addr: server.addr,
            state,
            _server: server,
        }
    }

    /// `http://127.0.0.1:PORT/path` (`path` with or without its slash).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }

    /// Answers every request (not scripted by [`HttpReceiver::then`])
    /// with `reply` from now on.
    pub fn answer(&self, reply: Reply) {
        *self.state.reply.lock().unwrap() = Some(reply);
    }

    /// Answers every request with `status` at once from now on.
    pub fn answer_status(&self, status: u16) {
        self.answer(Reply::status(status));
    }

    /// Answers the next requests with `replies`, one each, in order; then
    /// as [`HttpReceiver::answer`] says.
    pub fn then(&self, replies: impl IntoIterator<Item = Reply>) {
        self.state.script.lock().unwrap().extend(replies);
    }

    /// Every request so far, in order of arrival.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.state.received.lock().unwrap().len()
    }

    /// The last request; panics when none arrived.
    #[track_caller]
    pub fn last(&self) -> Received {
        self.received().pop().expect("the receiver got no request")
    }

    /// Blocks until at least `n` requests arrived (recorded as they
    /// arrive, before any delay) or `timeout` passes: every request so
    /// far; panics on the timeout.
    #[track_caller]
    pub fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        self.wait_until(timeout, |r| r.len() >= n)
            .unwrap_or_else(|got| panic!("{} requests arrived in {timeout:?}, not {n}", got.len()))
    }

    /// Blocks until `done` holds of the requests so far or `timeout`
    /// passes: `Ok` with the requests, or `Err` with them on the timeout.
    pub fn wait_until(
        &self,
        timeout: Duration,
        mut done: impl FnMut(&[Received]) -> bool,
    ) -> Result<Vec<Received>, Vec<Received>> {
        let deadline = Instant::now() + timeout;
        let mut received = self.state.received.lock().unwrap();
        loop {
            if done(&received) {
                return Ok(received.clone());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(received.clone());
            }
            received = self.state.changed.wait_timeout(received, left).unwrap().0;
        }
    }
}

/// Records the request, then answers what the test set.
async fn receive(
    axum::extract::State(state): axum::extract::State<Arc<HttpState>>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    let reply = state
        .script
        .lock()
        .unwrap()
        .pop_front()
        .or(*state.reply.lock().unwrap())
        .unwrap_or_else(Reply::ok);
    let index = {
        let mut received = state.received.lock().unwrap();
        let index = received.len();
        received.push(Received {
            index,
            method: parts.method.to_string(),
            path: parts
                .uri
                .path_and_query()
                .map_or_else(|| parts.uri.path().to_owned(), |p| p.as_str().to_owned()),
            headers: parts
                .headers
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_owned(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body,
            answered: None,
        });
        index
    };
    state.changed.notify_all();
    if let Some(delay) = reply.delay {
        tokio::time::sleep(delay).await;
    }
    state.received.lock().unwrap()[index].answered = Some(reply.status);
    state.changed.notify_all();
    let mut response = axum::response::Response::new(axum::body::Body::from("ok"));
    *response.status_mut() = axum::http::StatusCode::from_u16(reply.status).unwrap();
    response
}

// ------------------------------------------------------------------ SMTP

/// One message the SMTP receiver took.
#[derive(Debug, Clone)]
pub struct Mail {
    /// The `MAIL FROM` address.
    pub from: String,
    /// The `RCPT TO` addresses.
    pub to: Vec<String>,
    /// The message as sent after `DATA`, dot-stuffing undone, CRLF line
    /// ends.
    pub data: String,
}

impl Mail {
    /// The value of the message's header `name` (any case; folded lines
    /// joined).
    pub fn header(&self, name: &str) -> Option<String> {
        let (head, _) = split_head(&self.data);
        header_in(head, name)
    }

    /// The decoded text of the first part whose content type is `essence`
    /// (`text/plain`, `text/html`), looked for in the message and, when
    /// it is multipart, in its parts.
    pub fn part(&self, essence: &str) -> Option<String> {
        find_part(&self.data, essence)
    }

    /// The plain text part; panics when there is none.
    #[track_caller]
    pub fn plain(&self) -> String {
        self.part("text/plain")
            .unwrap_or_else(|| panic!("no text/plain part:\n{}", self.data))
    }

    /// The HTML part; panics when there is none.
    #[track_caller]
    pub fn html(&self) -> String {
        self.part("text/html")
            .unwrap_or_else(|| panic!("no text/html part:\n{}", self.data))
    }
}

/// What the SMTP receiver shares with its connections.
#[derive(Default)]
struct SmtpState {
    mails: Mutex<Vec<Mail>>,
    /// Notified each time a message is taken.
    taken: Condvar,
    /// Refuse messages (`554` after `DATA`).
    refuse: AtomicBool,
    stop: AtomicBool,
}

/// A loopback SMTP server recording every message; see the module's
/// documentation.
pub struct SmtpReceiver {
    addr: SocketAddr,
    state: Arc<SmtpState>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SmtpReceiver {
    /// Starts one taking every message.
    pub fn start() -> SmtpReceiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(SmtpState::default());
        let shared = state.clone();
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if shared.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = shared.clone();
                std::thread::spawn(move || {
                    let _ = session(stream, &shared);
                });
            }
        });
        SmtpReceiver {
            addr,
            state,
            thread: Some(thread),
        }
    }

    /// `127.0.0.1`.
    pub fn host(&self) -> String {
        self.addr.ip().to_string()
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Refuses every message from now on (`554` after its data), or takes
    /// them again.
    pub fn refuse(&self, refuse: bool) {
        self.state.refuse.store(refuse, Ordering::SeqCst);
    }

    /// Every message taken so far.
    pub fn mails(&self) -> Vec<Mail> {
        self.state.mails.lock().unwrap().clone()
    }

    /// How many messages it took.
    pub fn count(&self) -> usize {
        self.state.mails.lock().unwrap().len()
    }

    /// Blocks until at least `n` messages were taken or `timeout` passes:
    /// every message so far; panics on the timeout.
    #[track_caller]
    pub fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Mail> {
        let deadline = Instant::now() + timeout;
        let mut mails = self.state.mails.lock().unwrap();
        while mails.len() < n {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "{} messages arrived in {timeout:?}, not {n}",
                mails.len()
            );
            mails = self.state.taken.wait_timeout(mails, left).unwrap().0;
        }
        mails.clone()
    }
}

impl Drop for SmtpReceiver {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The address between `<` and `>` of a `MAIL FROM:` or `RCPT TO:` line.
fn angle_address(line: &str) -> String {
    match (line.find('<'), line.find('>')) {
        (Some(a), Some(b)) if a < b => line[a + 1..b].to_owned(),
        _ => line
            .split_once(':')
            .map_or("", |(_, rest)| rest.trim())
            .to_owned(),
    }
}

/// One SMTP session, until `QUIT` or the client goes.
fn session(stream: TcpStream, state: &SmtpState) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut out = stream.try_clone()?;
    let mut lines = BufReader::new(stream);
    out.write_all(b"220 localhost ESMTP test receiver\r\n")?;
    let (mut from, mut to) = (String::new(), Vec::new());
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-localhost\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
            "HELO" => b"250 localhost\r\n",
            "MAIL" => {
                from = angle_address(&command);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(angle_address(&command));
                b"250 OK\r\n"
            }
            "DATA" => {
                out.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line)? == 0 {
                        return Ok(());
                    }
                    let text = line.trim_end_matches(['\r', '\n']);
                    if text == "." {
                        break;
                    }
                    data.push_str(text.strip_prefix('.').unwrap_or(text));
                    data.push_str("\r\n");
                }
                if state.refuse.load(Ordering::SeqCst) {
                    b"554 Transaction failed: refused by the test\r\n"
                } else {
                    state.mails.lock().unwrap().push(Mail {
                        from: std::mem::take(&mut from),
                        to: std::mem::take(&mut to),
                        data,
                    });
                    state.taken.notify_all();
                    b"250 OK: queued\r\n"
                }
            }
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "NOOP" => b"250 OK\r\n",
            "QUIT" => {
                out.write_all(b"221 Bye\r\n")?;
                return Ok(());
            }
            _ => b"502 Command not implemented\r\n",
        };
        out.write_all(reply)?;
    }
}

/// A message's (or part's) head and body, split at the first blank line.
fn split_head(text: &str) -> (&str, &str) {
    text.split_once("\r\n\r\n")
        .or_else(|| text.split_once("\n\n"))
        .unwrap_or((text, ""))
}

/// Header `name` in `head`, its folded lines joined.
fn header_in(head: &str, name: &str) -> Option<String> {
    let mut fields: Vec<String> = Vec::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = fields.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else {
            fields.push(line.to_owned());
        }
    }
    fields.iter().find_map(|f| {
        let (n, v) = f.split_once(':')?;
        n.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().to_owned())
    })
}

/// A parameter of a header value (`boundary="x"`).
fn parameter(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (n, v) = p.split_once('=')?;
        n.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().trim_matches('"').to_owned())
    })
}

/// The decoded body of the first part of `entity` whose type is `essence`.
fn find_part(entity: &str, essence: &str) -> Option<String> {
    let (head, body) = split_head(entity);
    let content_type = header_in(head, "content-type").unwrap_or_else(|| "text/plain".into());
    let own = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if own.starts_with("multipart/") {
        let boundary = parameter(&content_type, "boundary")?;
        let delimiter = format!("--{boundary}");
        return body
            .split(delimiter.as_str())
            .skip(1)
            .take_while(|p| !p.starts_with("--"))
            .find_map(|part| find_part(part.trim_start_matches(['\r', '\n']), essence));
    }
    if own != essence {
        return None;
    }
    let encoding = header_in(head, "content-transfer-encoding")
        .unwrap_or_default()
        .to_ascii_lowercase();
    let bytes = match encoding.as_str() {
        "base64" => {
            use base64::Engine as _;
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            base64::engine::general_purpose::STANDARD
                .decode(compact)
                .ok()?
        }
        "quoted-printable" => quoted_printable(body),
        _ => body.as_bytes().to_vec(),
    };
    Some(
        String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\r', '\n'])
            .replace("\r\n", "\n"),
    )
}

/// Quoted-printable decoded: `=XX` bytes, soft line breaks dropped.
fn quoted_printable(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.split("\r\n").collect();
    for (i, line) in lines.iter().enumerate() {
        let bytes = line.as_bytes();
        let mut j = 0;
        let mut soft = false;
        while j < bytes.len() {
            if bytes[j] == b'=' {
                if j + 1 == bytes.len() {
                    soft = true;
                    break;
                }
                let hex =
                    std::str::from_utf8(&bytes[j + 1..(j + 3).min(bytes.len())]).unwrap_or("");
                if let Ok(b) = u8::from_str_radix(hex, 16) {
                    out.push(b);
                    j += 3;
                    continue;
                }
            }
            out.push(bytes[j]);
            j += 1;
        }
        if !soft && i + 1 < lines.len() {
            out.extend_from_slice(b"\r\n");
        }
    }
    out
}

/// Counts of each value: how many times each delivery ID arrived, say.
pub fn tally<'a>(values: impl IntoIterator<Item = &'a str>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for v in values {
        *counts.entry(v.to_owned()).or_insert(0) += 1;
    }
    counts
}
