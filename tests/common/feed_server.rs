//! A stand-in for the calendar servers the core fetches feeds from
//! (document 3, "Calendar feeds"): a loopback HTTP server in the test
//! process that answers each path as the test set it ([`Answer`]: a
//! status, body bytes, a content type, an optional delay and an optional
//! redirect), and counts the requests each path got (a test can block
//! until a path got some: [`FeedServer::wait_for_hits`]). The core refuses
//! loopback addresses unless `Options::allow_private_feeds` is on, so the
//! tests that fetch from it turn that on.
//!
//! [`Vcal`] writes the iCalendar text a feed serves (CRLF line ends), so a
//! test reads as the events it serves.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;

use super::loopback::Loopback;

/// What the server answers one path with.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Bytes,
    pub content_type: String,
    /// Waits this long before answering.
    pub delay: Option<Duration>,
    /// A `Location` header: another path of this server (`/x.ics`) or any
    /// address.
    pub location: Option<String>,
}

impl Answer {
    /// 200 with `text` as `text/calendar`.
    pub fn calendar(text: impl Into<String>) -> Answer {
        Answer {
            status: 200,
            body: Bytes::from(text.into()),
            content_type: "text/calendar; charset=utf-8".to_owned(),
            delay: None,
            location: None,
        }
    }

    /// `status` with an empty `text/plain` body.
    pub fn status(status: u16) -> Answer {
        Answer {
            status,
            body: Bytes::new(),
            content_type: "text/plain".to_owned(),
            delay: None,
            location: None,
        }
    }

    /// `status` (a 3xx) sending the client to `location`: a path of this
    /// server or any address.
    pub fn redirect(status: u16, location: impl Into<String>) -> Answer {
        Answer {
            location: Some(location.into()),
            ..Answer::status(status)
        }
    }

    /// 200 with `html` as `text/html`.
    pub fn html(html: impl Into<String>) -> Answer {
        Answer {
            content_type: "text/html; charset=utf-8".to_owned(),
            ..Answer::calendar(html)
        }
    }

    /// With this status.
    pub fn with_status(mut self, status: u16) -> Answer {
        self.status = status;
        self
    }

    /// With these bytes as the body.
    pub fn body(mut self, bytes: impl Into<Bytes>) -> Answer {
        self.body = bytes.into();
        self
    }

    /// With this `Content-Type`.
    pub fn content_type(mut self, content_type: &str) -> Answer {
        self.content_type = content_type.to_owned();
        self
    }

    /// Answering only after `delay`.
    pub fn delay(mut self, delay: Duration) -> Answer {
        self.delay = Some(delay);
        self
    }
}

type Answers = Arc<Mutex<HashMap<String, Answer>>>;
type Hits = Arc<Counts>;

/// Each path's count of requests, and a signal for each one counted.
#[derive(Debug, Default)]
struct Counts {
    by_path: Mutex<HashMap<String, usize>>,
    /// Notified each time a request is counted.
    counted: Condvar,
}
/// Requests being answered now, and the most at once.
type InFlight = Arc<Mutex<(usize, usize)>>;

/// A loopback calendar server: each path answers what the test [`set`]
/// (404 with no body until then) and counts its requests, and it keeps
/// the most requests it answered at once.
///
/// [`set`]: FeedServer::set
pub struct FeedServer {
    addr: SocketAddr,
    answers: Answers,
    hits: Hits,
    in_flight: InFlight,
    _server: Loopback,
}

impl FeedServer {
    pub fn start() -> FeedServer {
        let answers: Answers = Arc::default();
        let hits: Hits = Arc::default();
        let in_flight: InFlight = Arc::default();
        let state = (answers.clone(), hits.clone(), in_flight.clone());
        let server = Loopback::serve(axum::Router::new().fallback(answer).with_state(state));
        FeedServer {
            addr: server.addr,
            answers,
            hits,
            in_flight,
            _server: server,
        }
    }

    /// `http://127.0.0.1:PORT/path` (`path` with or without its leading slash).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, slashed(path))
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Answers `path` with `answer` from now on.
    pub fn set(&self, path: &str, answer: Answer) {
        self.answers.lock().unwrap().insert(slashed(path), answer);
    }

    /// Answers `path` with the calendar `text` (200, `text/calendar`).
    pub fn serve(&self, path: &str, text: impl Into<String>) {
        self.set(path, Answer::calendar(text));
    }

    /// How many requests `path` got (whatever it answered).
    pub fn hits(&self, path: &str) -> usize {
        self.hits
            .by_path
            .lock()
            .unwrap()
            .get(&slashed(path))
            .copied()
            .unwrap_or(0)
    }

    /// Blocks until `path` got at least `n` requests (counted as they
    /// arrive, before any [`Answer::delay`]) or `timeout` passes; whether
    /// it did.
    pub fn wait_for_hits(&self, path: &str, n: usize, timeout: Duration) -> bool {
        let path = slashed(path);
        let deadline = Instant::now() + timeout;
        let mut hits = self.hits.by_path.lock().unwrap();
        while hits.get(&path).copied().unwrap_or(0) < n {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            hits = self.hits.counted.wait_timeout(hits, left).unwrap().0;
        }
        true
    }

    /// Every path's count back to 0, and the most at once too.
    pub fn reset_hits(&self) {
        self.hits.by_path.lock().unwrap().clear();
        self.in_flight.lock().unwrap().1 = 0;
    }

    /// The most requests it was answering at once (each counted from its
    /// arrival to the end of its [`Answer::delay`]).
    pub fn most_at_once(&self) -> usize {
        self.in_flight.lock().unwrap().1
    }
}

fn slashed(path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    }
}

/// Counts the request (waking whoever waits for it) and answers what its
/// path was set to.
async fn answer(
    axum::extract::State((answers, hits, in_flight)): axum::extract::State<(
        Answers,
        Hits,
        InFlight,
    )>,
    uri: axum::http::Uri,
) -> axum::response::Response {
    use axum::http::{HeaderValue, StatusCode, header};
    let path = uri.path().to_owned();
    *hits
        .by_path
        .lock()
        .unwrap()
        .entry(path.clone())
        .or_insert(0) += 1;
    hits.counted.notify_all();
    {
        let mut now = in_flight.lock().unwrap();
        now.0 += 1;
        now.1 = now.1.max(now.0);
    }
    let answer = answers
        .lock()
        .unwrap()
        .get(&path)
        .cloned()
        .unwrap_or_else(|| Answer::status(404));
    if let Some(delay) = answer.delay {
        tokio::time::sleep(delay).await;
    }
    in_flight.lock().unwrap().0 -= 1;
    let mut response = axum::response::Response::new(axum::body::Body::from(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&answer.content_type).unwrap(),
    );
    if let Some(location) = answer.location {
        response
            .headers_mut()
            .insert(header::LOCATION, HeaderValue::from_str(&location).unwrap());
    }
    response
}

/// An address nothing listens on: a loopback port bound and let go.
pub fn closed_port_url(path: &str) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}{}", slashed(path))
}

/// iCalendar text: a VCALENDAR with an optional `X-WR-CALNAME`, any
/// VTIMEZONE, and VEVENTs, written with CRLF line ends.
///
/// ```ignore
/// let text = Vcal::new().name("Team").event("
///     UID:standup
///     DTSTART:20260310T100000Z
///     SUMMARY:Standup
/// ").build();
/// ```
#[derive(Debug, Clone, Default)]
pub struct Vcal {
    name: Option<String>,
    /// Every line inside the VCALENDAR after its header, in order.
    lines: Vec<String>,
}

impl Vcal {
    pub fn new() -> Vcal {
        Vcal::default()
    }

    /// The calendar's own name (`X-WR-CALNAME`).
    pub fn name(mut self, name: &str) -> Vcal {
        self.name = Some(name.to_owned());
        self
    }

    /// A VEVENT of these property lines, one a line, each trimmed (blank
    /// ones skipped); `DTSTAMP` is added when not given.
    pub fn event(mut self, properties: &str) -> Vcal {
        self.push_event(properties);
        self
    }

    /// As [`Vcal::event`], in place (for a loop of many events).
    pub fn push_event(&mut self, properties: &str) {
        let props = lines(properties);
        self.lines.push("BEGIN:VEVENT".to_owned());
        if !props.iter().any(|l| l.starts_with("DTSTAMP")) {
            self.lines.push("DTSTAMP:20260101T000000Z".to_owned());
        }
        self.lines.extend(props);
        self.lines.push("END:VEVENT".to_owned());
    }

    /// Any component or property lines as they are (trimmed, one a line):
    /// a VTIMEZONE, say.
    pub fn raw(mut self, text: &str) -> Vcal {
        self.lines.extend(lines(text));
        self
    }

    /// The text, CRLF line ends.
    pub fn build(&self) -> String {
        let mut out =
            String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Organiser tests//EN\r\n");
        if let Some(name) = &self.name {
            out.push_str("X-WR-CALNAME:");
            out.push_str(name);
            out.push_str("\r\n");
        }
        for line in &self.lines {
            out.push_str(line);
            out.push_str("\r\n");
        }
        out.push_str("END:VCALENDAR\r\n");
        out
    }
}

/// The trimmed, non-blank lines of `text`.
fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A VCALENDAR of these VEVENTs (each a text of property lines, as
/// [`Vcal::event`] takes them), CRLF line ends.
pub fn vcalendar(events: &[&str]) -> String {
    let mut cal = Vcal::new();
    for event in events {
        cal.push_event(event);
    }
    cal.build()
}
