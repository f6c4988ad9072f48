//! Outbound HTTP for the rules that fetch (update manifests, calendar
//! feeds, AI providers), behind the injected [`HttpClient`] as the
//! clock is behind [`Clock`](crate::Clock): `Options::http` carries it, so
//! core tests fake the network in process. The real client,
//! [`ReqwestClient`], holds the address guard (DESIGN.md "Running it":
//! feeds refuse loopback, private, link-local and unspecified addresses).

mod guard;
mod reqwest;

use std::net::IpAddr;
use std::time::Duration;

pub use self::reqwest::ReqwestClient;

/// Sends one HTTP request and waits for the whole answer.
///
/// Blocking: call it from a thread that may block (the server runs core
/// calls that fetch on its blocking pool). Any
/// `Fn(&HttpRequest) -> Result<HttpResponse, HttpError>` closure is one, which
/// is how tests answer without a network:
///
/// ```
/// use organiser_core::net::{HttpClient, HttpError, HttpRequest, HttpResponse};
///
/// let offline = |request: &HttpRequest| -> Result<HttpResponse, HttpError> {
///     Ok(HttpResponse::new(200, request.url.clone(), b"hello".to_vec()))
/// };
/// let answer = offline.send(&HttpRequest::get("https://example.com/")).unwrap();
/// assert_eq!(answer.body, b"hello");
/// ```
pub trait HttpClient: Send + Sync {
    /// Sends `request`, follows at most `request.max_redirects` redirects
    /// and reads at most `request.max_body_bytes` of the final body. Any
    /// status is an answer; only a failure to get one is an error.
    fn send(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError>;
}

impl<F> HttpClient for F
where
    F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError> + Send + Sync,
{
    fn send(&self, request: &HttpRequest) -> Result<HttpResponse, HttpError> {
        self(request)
    }
}

/// The methods the core sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    /// `GET`.
    Get,
    /// `POST`.
    Post,
}

/// One outbound request and the limits it is sent under.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpRequest {
    /// `GET` or `POST`.
    pub method: HttpMethod,
    /// An absolute `http` or `https` URL.
    pub url: String,
    /// Headers to send, as name and value; the client adds its user agent.
    pub headers: Vec<(String, String)>,
    /// The body to send, if any.
    pub body: Option<Vec<u8>>,
    /// The most the whole exchange may take: resolving, connecting, every
    /// redirect and reading the body.
    pub timeout: Duration,
    /// The largest body read; a longer one is [`HttpError::BodyTooBig`].
    pub max_body_bytes: u64,
    /// How many redirects are followed; one more is
    /// [`HttpError::TooManyRedirects`] (0 follows none).
    pub max_redirects: u32,
    /// Whether loopback, private and other non-public addresses may be
    /// reached (configured by the operator, such as an update server or a
    /// local AI provider); otherwise they are [`HttpError::RefusedAddress`].
    pub allow_private: bool,
}

impl HttpRequest {
    /// The timeout [`HttpRequest::get`] and [`HttpRequest::post`] start with.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The body limit they start with.
    pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;
    /// The redirect limit they start with.
    pub const DEFAULT_MAX_REDIRECTS: u32 = 5;

    /// A `GET` of `url` with the default limits, refusing non-public
    /// addresses.
    pub fn get(url: impl Into<String>) -> Self {
        HttpRequest {
            method: HttpMethod::Get,
            url: url.into(),
            headers: Vec::new(),
            body: None,
            timeout: Self::DEFAULT_TIMEOUT,
            max_body_bytes: Self::DEFAULT_MAX_BODY_BYTES,
            max_redirects: Self::DEFAULT_MAX_REDIRECTS,
            allow_private: false,
        }
    }

    /// A `POST` of `body` to `url` with the default limits, refusing
    /// non-public addresses.
    pub fn post(url: impl Into<String>, body: Vec<u8>) -> Self {
        HttpRequest {
            method: HttpMethod::Post,
            body: Some(body),
            ..HttpRequest::get(url)
        }
    }

    /// This request with one more header.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// The answer to a request, after any redirects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code, such as 200.
    pub status: u16,
    /// The headers, as name (lower case) and value, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body, at most the request's `max_body_bytes`.
    pub body: Vec<u8>,
    /// The URL that answered, after redirects.
    pub final_url: String,
}

impl HttpResponse {
    /// An answer with `status` and `body` from `final_url`, without headers.
    pub fn new(status: u16, final_url: impl Into<String>, body: Vec<u8>) -> Self {
        HttpResponse {
            status,
            headers: Vec::new(),
            body,
            final_url: final_url.into(),
        }
    }

    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The status with its standard reason phrase: `503 Service Unavailable`.
    pub fn status_line(&self) -> String {
        match ::reqwest::StatusCode::from_u16(self.status) {
            Ok(status) => status.to_string(),
            Err(_) => self.status.to_string(),
        }
    }
}

/// Why no answer came back. Each variant is a cause a feature can report
/// in its own words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The exchange took longer than the request's `timeout`.
    #[error("no answer within the time allowed")]
    Timeout,
    /// The host name could not be resolved to an address.
    #[error("could not resolve {host}: {reason}")]
    Dns {
        /// The host name.
        host: String,
        /// What the resolver said.
        reason: String,
    },
    /// No connection could be made, or it broke before an answer.
    #[error("could not connect: {0}")]
    Connect(String),
    /// The TLS handshake failed (a bad or untrusted certificate, say).
    #[error("TLS failed: {0}")]
    Tls(String),
    /// The host resolved to a loopback, private, link-local, multicast or
    /// otherwise non-public address and the request does not allow those.
    #[error("refused to connect to {0}: not a public address")]
    RefusedAddress(IpAddr),
    /// The body is larger than the request's `max_body_bytes`.
    #[error("the answer is larger than {limit} bytes")]
    BodyTooBig {
        /// The limit it passed.
        limit: u64,
    },
    /// The body broke off while it was read.
    #[error("reading the answer failed: {0}")]
    Read(String),
    /// More redirects than the request's `max_redirects`.
    #[error("more than {limit} redirects")]
    TooManyRedirects {
        /// The limit it passed.
        limit: u32,
    },
    /// The URL (or a redirect's `Location`) is malformed, has no host, or
    /// is not `http` or `https`.
    #[error("invalid URL: {0}")]
    InvalidUrl(String),
    /// Anything else, such as a header that cannot be sent.
    #[error("{0}")]
    Other(String),
}
