//! Idempotency (document 1, "Idempotency"): the first successful response
//! of a creating or restoring POST is stored, in the same transaction as
//! its work, for 24 hours and replayed for the same key and request; the
//! same key with a different request is 422 `idempotency_key_reused`; a
//! retry while the first still runs is 409 `idempotency_key_in_use`.
//!
//! Only successes are stored: a refused request changes nothing, so its key
//! is not used up and a retry runs again. A stored body is sealed with the
//! store's key: some answers hold a secret shown once (an API token, a
//! calendar subscription's address), which the store must not keep in the
//! clear.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use crate::engine::{Inner, WriteCx};
use crate::error::{Error, Result};
use crate::limits::IDEMPOTENCY_WINDOW_SECS;
use crate::secrets::{sha256, to_hex};
use crate::store::key::Key;
use crate::store::schema::{IDEMPOTENCY, IDEMPOTENCY_BY_TIME};
use crate::store::{Dir, Tables};

/// Keys of requests that are running now.
#[derive(Debug, Default)]
pub(crate) struct InFlight(Mutex<HashSet<[u8; 32]>>);

/// A running request's hold on its key; dropping it lets retries in.
pub(crate) struct Claim {
    in_flight: Arc<InFlight>,
    pub(crate) key: [u8; 32],
    pub(crate) fingerprint: [u8; 32],
}

impl Drop for Claim {
    fn drop(&mut self) {
        self.in_flight
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.key);
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Stored {
    fingerprint: String,
    status: u16,
    /// The body in the clear: only in what an older build stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    /// The body sealed with the store's key, in base64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sealed: Option<String>,
    #[serde(with = "crate::time::serde_timestamp")]
    stored_at: Timestamp,
}

impl Stored {
    /// The body to answer again.
    fn body(&self, inner: &Inner) -> Result<Option<String>> {
        use base64::Engine;
        let Some(sealed) = &self.sealed else {
            return Ok(self.body.clone());
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(sealed)
            .map_err(|e| Error::Internal(format!("a stored response is malformed: {e}")))?;
        let opened = inner.secret.open(&bytes)?;
        String::from_utf8(opened)
            .map(Some)
            .map_err(|e| Error::Internal(format!("a stored response is malformed: {e}")))
    }
}

/// What to do with a request that carries a key.
pub(crate) enum Begin {
    /// Run it, then store its response with the claim.
    Run(Claim),
    /// It ran before: answer this again.
    Replay { status: u16, body: Option<String> },
}

fn window() -> SignedDuration {
    SignedDuration::from_secs(IDEMPOTENCY_WINDOW_SECS)
}

/// A key must be 1 to 255 visible ASCII characters.
pub(crate) fn check_key(key: &str) -> Result<()> {
    if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::bad_param(
            "Idempotency-Key",
            "must be 1 to 255 visible ASCII characters",
        ));
    }
    Ok(())
}

/// The fingerprint of a request: method, path and body, the body's object
/// keys sorted so that key order does not make two requests differ.
pub(crate) fn fingerprint(method: &str, path: &str, body: Option<&serde_json::Value>) -> [u8; 32] {
    fn canonical(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String(k.clone()).to_string());
                    out.push(':');
                    canonical(&map[k], out);
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canonical(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = format!("{method}\n{path}\n");
    if let Some(body) = body {
        canonical(body, &mut text);
    }
    sha256(text.as_bytes())
}

pub(crate) fn begin(inner: &Inner, key: &str, fingerprint: [u8; 32]) -> Result<Begin> {
    let key = sha256(key.as_bytes());
    let in_flight = inner.ext.get::<InFlight>();
    if !in_flight
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key)
    {
        return Err(Error::IdempotencyKeyInUse);
    }
    let claim = Claim {
        in_flight,
        key,
        fingerprint,
    };
    let stored: Option<Stored> = inner.read(|cx| {
        let stored: Option<Stored> = cx.get_json(IDEMPOTENCY, &key)?;
        Ok(stored.filter(|s| cx.now().duration_since(s.stored_at) < window()))
    })?;
    match stored {
        None => Ok(Begin::Run(claim)),
        Some(s) if s.fingerprint == to_hex(&fingerprint) => Ok(Begin::Replay {
            status: s.status,
            body: s.body(inner)?,
        }),
        Some(_) => Err(Error::IdempotencyKeyReused),
    }
}

/// Stores a success under its claim, inside the request's own transaction.
pub(crate) fn save(cx: &WriteCx<'_>, claim: &Claim, status: u16, body: Option<&str>) -> Result<()> {
    if let Some(old) = cx.get_json::<Stored>(IDEMPOTENCY, &claim.key)? {
        cx.remove(
            IDEMPOTENCY_BY_TIME,
            Key::new()
                .timestamp(old.stored_at)
                .bytes(&claim.key)
                .as_slice(),
        )?;
    }
    use base64::Engine;
    let stored = Stored {
        fingerprint: to_hex(&claim.fingerprint),
        status,
        body: None,
        sealed: body.map(|b| {
            base64::engine::general_purpose::STANDARD.encode(cx.org.secret.seal(b.as_bytes()))
        }),
        stored_at: cx.now(),
    };
    cx.put_json(IDEMPOTENCY, &claim.key, &stored)?;
    cx.index(
        IDEMPOTENCY_BY_TIME,
        Key::new().timestamp(cx.now()).bytes(&claim.key).as_slice(),
    )
}

/// Forgets responses older than 24 hours.
pub(crate) fn forget_expired(cx: &WriteCx<'_>) -> Result<()> {
    // Alive while younger than the window (see `begin`), so everything stored
    // at or before `now - window` goes.
    let cutoff = Key::new()
        .timestamp(cx.now() - window() + SignedDuration::from_millis(1))
        .into_vec();
    let mut old = Vec::new();
    cx.scan(
        IDEMPOTENCY_BY_TIME,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Excluded(cutoff.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            old.push(k.to_vec());
            Ok(old.len() < 1000)
        },
    )?;
    for k in old {
        cx.remove(IDEMPOTENCY_BY_TIME, &k)?;
        cx.remove(IDEMPOTENCY, &k[8..])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Organiser;
    use crate::clock::ManualClock;
    use crate::config::Options;
    use std::sync::Arc;

    fn org() -> (Organiser, ManualClock) {
        let clock = ManualClock::at("2026-05-01T12:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        (org, clock)
    }

    fn run_and_save(org: &Organiser, key: &str, fp: [u8; 32]) {
        let Begin::Run(claim) = begin(&org.inner, key, fp).unwrap() else {
            panic!("replayed")
        };
        org.inner
            .write(|cx| save(cx, &claim, 201, Some("{\"data\":1}")))
            .unwrap();
    }

    #[test]
    fn a_second_request_with_a_running_key_is_409() {
        let (org, _) = org();
        let fp = fingerprint("POST", "/task_lists", None);
        let first = begin(&org.inner, "k1", fp).unwrap();
        assert!(matches!(
            begin(&org.inner, "k1", fp),
            Err(Error::IdempotencyKeyInUse)
        ));
        drop(first);
        assert!(matches!(begin(&org.inner, "k1", fp), Ok(Begin::Run(_))));
    }

    #[test]
    fn the_same_request_replays_and_another_is_422() {
        let (org, _) = org();
        let fp = fingerprint("POST", "/task_lists", Some(&serde_json::json!({"a": 1})));
        run_and_save(&org, "k1", fp);
        match begin(&org.inner, "k1", fp).unwrap() {
            Begin::Replay { status, body } => {
                assert_eq!((status, body.as_deref()), (201, Some("{\"data\":1}")))
            }
            Begin::Run(_) => panic!("ran twice"),
        }
        let other = fingerprint("POST", "/task_lists", Some(&serde_json::json!({"a": 2})));
        assert!(matches!(
            begin(&org.inner, "k1", other),
            Err(Error::IdempotencyKeyReused)
        ));
    }

    #[test]
    fn responses_are_forgotten_after_24_hours() {
        let (org, clock) = org();
        let fp = fingerprint("POST", "/tasks", None);
        run_and_save(&org, "k1", fp);
        clock.advance_secs(IDEMPOTENCY_WINDOW_SECS - 1);
        assert!(matches!(
            begin(&org.inner, "k1", fp),
            Ok(Begin::Replay { .. })
        ));
        clock.advance_secs(1);
        assert!(matches!(begin(&org.inner, "k1", fp), Ok(Begin::Run(_))));
        // The next write sweeps it out of the store.
        org.inner.write(|_| Ok(())).unwrap();
        let left = org.inner.read(|cx| cx.len(IDEMPOTENCY)).unwrap();
        assert_eq!(left, 0);
    }

    #[test]
    fn key_order_does_not_change_the_fingerprint() {
        let a = serde_json::json!({"task": {"title": "a", "start_on": null}});
        let b: serde_json::Value =
            serde_json::from_str(r#"{"task":{"start_on":null,"title":"a"}}"#).unwrap();
        assert_eq!(
            fingerprint("POST", "/tasks", Some(&a)),
            fingerprint("POST", "/tasks", Some(&b))
        );
        let c = serde_json::json!({"task": {"title": "b"}});
        assert_ne!(
            fingerprint("POST", "/tasks", Some(&a)),
            fingerprint("POST", "/tasks", Some(&c))
        );
        assert_ne!(
            fingerprint("POST", "/tasks", None),
            fingerprint("POST", "/task_lists", None)
        );
    }

    #[test]
    fn keys_must_be_visible_ascii() {
        assert!(check_key("abc-123").is_ok());
        for bad in ["", "has space", "tab\t", "é", &"x".repeat(256)] {
            assert_eq!(check_key(bad).unwrap_err().status(), 400, "{bad:?}");
        }
    }
}
