//! A feed's address and its fetch (document 3, "Calendar feeds" write
//! fields and `sync_error`; DESIGN.md: non-public addresses refused unless
//! `ORGANISER_ALLOW_PRIVATE_FEEDS=1`): the address rules, and the fetch
//! through the core's [`HttpClient`](crate::HttpClient) with each failure
//! named by its `sync_error` code.

use std::time::Duration;

use super::SyncErrorCode;
use crate::net::{HttpError, HttpRequest};

/// The most bytes of a feed (`too_big` beyond).
pub(crate) const MOST_BYTES: u64 = 20 * 1024 * 1024;
/// The longest a fetch may take.
pub(crate) const WAIT: Duration = Duration::from_secs(30);
/// The most redirects followed.
pub(crate) const MOST_REDIRECTS: u32 = 5;

/// An address that passed the write rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Address {
    /// As the owner wrote it (trimmed): what is stored, sealed.
    pub(crate) written: String,
    /// What is fetched: `webcal://` read as `https://`.
    pub(crate) fetched: String,
    /// The host, lower case, without a port.
    pub(crate) host: String,
}

/// Why an address is refused on write.
pub(crate) const BAD_SCHEME: &str = "must be an https, http or webcal address";

/// Reads a written address; the phrase for `details.address` when bad.
pub(crate) fn address(text: &str) -> Result<Address, String> {
    let written = text.trim();
    if written.is_empty() {
        return Err("can't be blank".into());
    }
    if written.chars().count() > crate::limits::text::CALENDAR_ADDRESS {
        return Err(format!(
            "is too long (maximum is {} characters)",
            crate::limits::text::CALENDAR_ADDRESS
        ));
    }
    let (scheme, rest) = written.split_once("://").ok_or(BAD_SCHEME)?;
    let fetched_scheme = match scheme.to_ascii_lowercase().as_str() {
        "https" | "webcal" | "webcals" => "https",
        "http" => "http",
        _ => return Err(BAD_SCHEME.into()),
    };
    let fetched = format!("{fetched_scheme}://{rest}");
    let url = reqwest::Url::parse(&fetched).map_err(|_| BAD_SCHEME.to_owned())?;
    let host = url
        .host_str()
        .unwrap_or("")
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    if host.is_empty() || written.chars().any(char::is_control) {
        return Err(BAD_SCHEME.into());
    }
    Ok(Address {
        written: written.to_owned(),
        fetched: url.to_string(),
        host,
    })
}

/// The hosted calendar a host belongs to (the vocabulary's
/// `calendar_sources`).
pub(crate) fn source(host: &str) -> Option<&'static str> {
    let is = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if is("google.com") || is("googleusercontent.com") {
        Some("google")
    } else if is("icloud.com") || is("me.com") {
        Some("icloud")
    } else if is("outlook.com")
        || is("office365.com")
        || is("outlook.office.com")
        || is("live.com")
        || is("hotmail.com")
    {
        Some("outlook")
    } else {
        None
    }
}

/// A failed fetch: its code and the HTTP status, when one came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) code: SyncErrorCode,
    pub(crate) http_status: Option<u16>,
}

impl Failure {
    pub(crate) fn new(code: SyncErrorCode) -> Failure {
        Failure {
            code,
            http_status: None,
        }
    }
}

/// The status and body of the feed at `url`.
pub(crate) fn fetch(
    http: &dyn crate::HttpClient,
    url: &str,
    allow_private: bool,
) -> Result<(u16, Vec<u8>), Failure> {
    let mut request = HttpRequest::get(url)
        .with_header("accept", "text/calendar, */*;q=0.5")
        .with_header("user-agent", "Organiser (calendar feed)");
    request.timeout = WAIT;
    request.max_body_bytes = MOST_BYTES;
    request.max_redirects = MOST_REDIRECTS;
    request.allow_private = allow_private;
    let response = http.send(&request).map_err(|e| {
        Failure::new(match e {
            HttpError::Timeout => SyncErrorCode::TimedOut,
            HttpError::Tls(_) => SyncErrorCode::Tls,
            HttpError::RefusedAddress(_) => SyncErrorCode::RefusedAddress,
            HttpError::BodyTooBig { .. } => SyncErrorCode::TooBig,
            _ => SyncErrorCode::Unreachable,
        })
    })?;
    let status = response.status;
    let code = match status {
        200..=299 => return Ok((status, response.body)),
        404 | 410 => SyncErrorCode::NotFound,
        401 | 403 | 407 => SyncErrorCode::Denied,
        429 | 500..=599 => SyncErrorCode::ServerError,
        _ => SyncErrorCode::NotFound,
    };
    Err(Failure {
        code,
        http_status: Some(status),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let a = address(" webcal://Cal.Example.com:8443/x.ics ").unwrap();
        assert_eq!(a.fetched, "https://cal.example.com:8443/x.ics");
        assert_eq!(a.host, "cal.example.com");
        assert_eq!(a.written, "webcal://Cal.Example.com:8443/x.ics");
        for bad in ["ftp://x/y", "x", "https://", "mailto:a@b"] {
            assert_eq!(address(bad).unwrap_err(), BAD_SCHEME, "{bad}");
        }
        assert_eq!(address(" ").unwrap_err(), "can't be blank");
        assert!(address(&format!("https://a.com/{}", "x".repeat(2048))).is_err());
    }

    #[test]
    fn sources() {
        assert_eq!(source("calendar.google.com"), Some("google"));
        assert_eq!(source("p42-caldav.icloud.com"), Some("icloud"));
        assert_eq!(source("outlook.office365.com"), Some("outlook"));
        assert_eq!(source("example.com"), None);
    }
}
