//! The real [`HttpClient`]: reqwest over rustls with the ring provider. It
//! resolves every host itself, refuses non-public addresses unless the
//! request allows them, connects only to the addresses it checked (so a DNS
//! answer that changes between check and connect cannot slip past), and
//! follows redirects by hand, checking every hop the same way.

use std::io::Read as _;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use reqwest::Url;
use reqwest::blocking::{Client, Response};
use reqwest::header::{AUTHORIZATION, COOKIE, PROXY_AUTHORIZATION};

use super::{HttpClient, HttpError, HttpMethod, HttpRequest, HttpResponse, guard};

/// The user agent every request is sent with.
const USER_AGENT: &str = concat!("organiser/", env!("CARGO_PKG_VERSION"));

/// The longest a connection attempt may take, within the request's timeout.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Sends requests over the network with reqwest (rustls, ring), user agent
/// `organiser/<version>`, ignoring proxy settings (the guard checks the
/// address connected to, which a proxy would hide).
#[derive(Debug, Clone, Copy)]
pub struct ReqwestClient {
    /// Which addresses a request that does not allow private ones may not
    /// reach: the guard, or a narrower rule in tests (every server a test
    /// can start is on loopback).
    refuses: fn(IpAddr) -> bool,
}

impl ReqwestClient {
    /// The real network, guarded.
    pub fn new() -> Self {
        ReqwestClient {
            refuses: guard::refuses,
        }
    }
}

impl Default for ReqwestClient {
    fn default() -> Self {
        ReqwestClient::new()
    }
}

impl HttpClient for ReqwestClient {
    /// The request's `timeout` is a deadline for the whole exchange,
    /// counted across slow reads: the exchange runs on a thread of its own
    /// and the caller has its answer, or [`HttpError::Timeout`], when the
    /// deadline comes (the thread stops at its next read).
    fn send(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        let now = Instant::now();
        // A timeout too long to add is as good as none: a year.
        let deadline = now
            .checked_add(request.timeout)
            .unwrap_or(now + Duration::from_secs(365 * 24 * 60 * 60));
        let (tx, rx) = mpsc::channel();
        let (client, owned) = (*self, request.clone());
        std::thread::Builder::new()
            .name("organiser-http".to_owned())
            .spawn(move || {
                let _ = tx.send(client.exchange(&owned, deadline));
            })
            .map_err(|e| HttpError::Other(format!("could not start a request: {e}")))?;
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(answer) => answer,
            Err(mpsc::RecvTimeoutError::Timeout) => Err(HttpError::Timeout),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(HttpError::Other("the request's thread failed".to_owned()))
            }
        }
    }
}

impl ReqwestClient {
    /// The exchange of [`HttpClient::send`], giving up at `deadline`.
    fn exchange(
        &self,
        request: &HttpRequest,
        deadline: Instant,
    ) -> Result<HttpResponse, HttpError> {
        let mut url = parse(&request.url, None)?;
        let mut method = request.method;
        let mut headers = request.headers.clone();
        let mut body = request.body.clone();
        let mut followed = 0;
        loop {
            let addrs = self.checked_addresses(&url, request.allow_private, deadline)?;
            let response = hop(&url, &addrs, method, &headers, body.as_deref(), deadline)?;
            let Some(location) = redirect_location(&response) else {
                return finish(response, url, request.max_body_bytes, deadline);
            };
            if followed == request.max_redirects {
                return Err(HttpError::TooManyRedirects {
                    limit: request.max_redirects,
                });
            }
            followed += 1;
            let next = parse(&location, Some(&url))?;
            let status = response.status().as_u16();
            // As browsers do: 303 always, and 301/302 after a POST, become a
            // GET without a body; 307 and 308 repeat the request.
            if status == 303 || (matches!(status, 301 | 302) && method == HttpMethod::Post) {
                method = HttpMethod::Get;
                body = None;
                headers.retain(|(name, _)| {
                    !name.eq_ignore_ascii_case("content-type")
                        && !name.eq_ignore_ascii_case("content-length")
                });
            }
            // Credentials are for the origin they were given to: none
            // follow a redirect elsewhere, and a redirect's own user and
            // password are never sent (reqwest would make them a Basic
            // `Authorization`).
            let mut next = next;
            if next.origin() != url.origin() {
                headers.retain(|(name, _)| {
                    ![AUTHORIZATION, COOKIE, PROXY_AUTHORIZATION]
                        .iter()
                        .any(|h| name.eq_ignore_ascii_case(h.as_str()))
                });
                let _ = next.set_username("");
                let _ = next.set_password(None);
            } else {
                let _ = next.set_username(url.username());
                let _ = next.set_password(url.password());
            }
            url = next;
        }
    }
}

/// Parses `text` (against `base`, for a redirect's `Location`) as an
/// `http` or `https` URL with a host.
fn parse(text: &str, base: Option<&Url>) -> Result<Url, HttpError> {
    let url = match base {
        Some(base) => base.join(text),
        None => Url::parse(text),
    }
    .map_err(|e| HttpError::InvalidUrl(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(HttpError::InvalidUrl(format!(
            "the scheme {} is not http or https",
            url.scheme()
        )));
    }
    if url.host().is_none() {
        return Err(HttpError::InvalidUrl("no host".to_owned()));
    }
    Ok(url)
}

/// The time left before `deadline`, or a timeout when none is.
fn remaining(deadline: Instant) -> Result<Duration, HttpError> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|left| !left.is_zero())
        .ok_or(HttpError::Timeout)
}

impl ReqwestClient {
    /// The addresses `url`'s host resolves to, each one checked by the
    /// guard unless private addresses are allowed.
    fn checked_addresses(
        &self,
        url: &Url,
        allow_private: bool,
        deadline: Instant,
    ) -> Result<Vec<SocketAddr>, HttpError> {
        let port = url
            .port_or_known_default()
            .ok_or_else(|| HttpError::InvalidUrl("no port".to_owned()))?;
        let addrs = match literal(url) {
            Some(ip) => vec![SocketAddr::new(ip, port)],
            None => resolve(host(url)?, port, deadline)?,
        };
        if !allow_private && let Some(refused) = addrs.iter().find(|a| (self.refuses)(a.ip())) {
            return Err(HttpError::RefusedAddress(refused.ip()));
        }
        Ok(addrs)
    }
}

/// The host of `url` as written (lower case; an IPv6 address in brackets).
fn host(url: &Url) -> Result<&str, HttpError> {
    url.host_str()
        .ok_or_else(|| HttpError::InvalidUrl("no host".to_owned()))
}

/// The host of `url` when it is an IP address rather than a name.
fn literal(url: &Url) -> Option<IpAddr> {
    let host = url.host_str()?;
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse().ok()
}

/// Resolves `name` with the system resolver, giving up at `deadline` (the
/// lookup runs on its own thread, which finishes on its own if abandoned).
fn resolve(name: &str, port: u16, deadline: Instant) -> Result<Vec<SocketAddr>, HttpError> {
    let wait = remaining(deadline)?;
    let dns = |reason: String| HttpError::Dns {
        host: name.to_owned(),
        reason,
    };
    let (tx, rx) = mpsc::channel();
    let target = (name.to_owned(), port);
    std::thread::Builder::new()
        .name("organiser-dns".to_owned())
        .spawn(move || {
            let found = target
                .to_socket_addrs()
                .map(|found| found.collect::<Vec<_>>());
            let _ = tx.send(found);
        })
        .map_err(|e| HttpError::Other(format!("could not start a DNS lookup: {e}")))?;
    match rx.recv_timeout(wait) {
        Ok(Ok(addrs)) if addrs.is_empty() => Err(dns("no addresses".to_owned())),
        Ok(Ok(addrs)) => Ok(addrs),
        Ok(Err(e)) => Err(dns(e.to_string())),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(HttpError::Timeout),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(dns("the lookup failed".to_owned())),
    }
}

/// Sends one request to `url`, connecting only to `addrs`, without
/// following redirects.
fn hop(
    url: &Url,
    addrs: &[SocketAddr],
    method: HttpMethod,
    headers: &[(String, String)],
    body: Option<&[u8]>,
    deadline: Instant,
) -> Result<Response, HttpError> {
    let wait = remaining(deadline)?;
    // Installing twice is harmless: the second call reports the first.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(wait)
        .connect_timeout(wait.min(CONNECT_TIMEOUT))
        .user_agent(USER_AGENT);
    if literal(url).is_none() {
        // Pins the name to the checked addresses: reqwest resolves nothing.
        builder = builder.resolve_to_addrs(host(url)?, addrs);
    }
    let client = builder.build().map_err(|e| classify(&e))?;
    let mut outgoing = match method {
        HttpMethod::Get => client.get(url.clone()),
        HttpMethod::Post => client.post(url.clone()),
    };
    for (name, value) in headers {
        outgoing = outgoing.header(name.as_str(), value.as_str());
    }
    if let Some(body) = body {
        outgoing = outgoing.body(body.to_vec());
    }
    outgoing.send().map_err(|e| classify(&e))
}

/// Where a redirect points, when `response` is one with a `Location`.
fn redirect_location(response: &Response) -> Option<String> {
    if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = response.headers().get(reqwest::header::LOCATION)?;
    Some(String::from_utf8_lossy(location.as_bytes()).into_owned())
}

/// Reads at most `max` bytes of the body by `deadline`: a declared length
/// beyond that is refused before reading, the read stops one byte past
/// it, and a body still coming at the deadline is a timeout.
fn finish(
    response: Response,
    url: Url,
    max: u64,
    deadline: Instant,
) -> Result<HttpResponse, HttpError> {
    if response.content_length().is_some_and(|n| n > max) {
        return Err(HttpError::BodyTooBig { limit: max });
    }
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    let mut body = Vec::new();
    let mut reader = response.take(max.saturating_add(1));
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if Instant::now() >= deadline {
            return Err(HttpError::Timeout);
        }
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Err(HttpError::Timeout),
            Err(e) => return Err(HttpError::Read(e.to_string())),
        }
    }
    if body.len() as u64 > max {
        return Err(HttpError::BodyTooBig { limit: max });
    }
    Ok(HttpResponse {
        status,
        headers,
        body,
        final_url: url.into(),
    })
}

/// The cause of a reqwest failure.
fn classify(error: &reqwest::Error) -> HttpError {
    if error.is_timeout() {
        return HttpError::Timeout;
    }
    if let Some(tls) = find::<rustls::Error>(error) {
        return HttpError::Tls(tls.to_string());
    }
    let reason = causes(error);
    if error.is_connect() || error.is_request() {
        HttpError::Connect(reason)
    } else {
        HttpError::Other(reason)
    }
}

/// Whether a body read failed for want of time.
fn is_timeout(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::TimedOut
        || find::<reqwest::Error>(error).is_some_and(reqwest::Error::is_timeout)
}

/// The first error of type `E` in `error`'s chain, looking inside I/O
/// errors (whose `source` skips the error they wrap).
fn find<'e, E: std::error::Error + 'static>(
    error: &'e (dyn std::error::Error + 'static),
) -> Option<&'e E> {
    let mut next = Some(error);
    while let Some(current) = next {
        if let Some(found) = current.downcast_ref::<E>() {
            return Some(found);
        }
        if let Some(inner) = current
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            && let Some(found) = find::<E>(inner)
        {
            return Some(found);
        }
        next = current.source();
    }
    None
}

/// What went wrong, from the causes under reqwest's own message (which
/// names the URL, and a URL may carry a secret).
fn causes(error: &reqwest::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = std::error::Error::source(error);
    while let Some(cause) = next {
        let text = cause.to_string();
        if !parts.last().is_some_and(|last| last.contains(&text)) {
            parts.push(text);
        }
        next = cause.source();
    }
    if parts.is_empty() {
        let mut bare = error.to_string();
        if let Some(url) = error.url() {
            bare = bare.replace(&format!(" ({url})"), "");
        }
        parts.push(bare);
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests;
