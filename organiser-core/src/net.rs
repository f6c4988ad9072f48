//! Outgoing HTTP for the rules that fetch (update manifests now; calendar
//! feeds and AI providers later): reqwest over rustls with the ring provider.

use std::time::Duration;

use crate::error::{Error, Result};

/// A blocking client that gives up after `timeout`. Call it from a thread
/// that may block (the server runs core calls on its blocking pool).
pub(crate) fn blocking_client(timeout: Duration) -> Result<reqwest::blocking::Client> {
    // Installing twice is harmless: the second call reports the first.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .user_agent(concat!("organiser/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::Internal(format!("HTTP client: {e}")))
}

/// Reads at most `max` bytes of a response body; an error beyond that.
pub(crate) fn read_capped(
    response: reqwest::blocking::Response,
    max: u64,
) -> std::result::Result<Vec<u8>, String> {
    use std::io::Read;
    if response.content_length().is_some_and(|n| n > max) {
        return Err(format!("the answer is larger than {max} bytes"));
    }
    let mut body = Vec::new();
    response
        .take(max + 1)
        .read_to_end(&mut body)
        .map_err(|e| format!("reading the answer failed: {e}"))?;
    if body.len() as u64 > max {
        return Err(format!("the answer is larger than {max} bytes"));
    }
    Ok(body)
}
