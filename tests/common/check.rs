//! One table-driven case: a [`Call`] to the core and what must come back
//! ([`Expect`]). A table of cases is a list of rows, each checked by
//! [`check`], which names the row's request when it fails.

use super::{Core, Reply};

pub use super::in_process::Call;

/// What a [`Call`] must answer: a status, and for an error its code (one
/// of `codes`) and a key of its details.
#[derive(Debug, Clone)]
pub struct Expect<'a> {
    pub status: u16,
    /// The codes allowed; empty when the code is not checked.
    pub codes: Vec<&'a str>,
    /// A key `error.details` must have.
    pub detail: Option<&'a str>,
}

impl<'a> Expect<'a> {
    /// Just this status.
    pub fn status(status: u16) -> Expect<'a> {
        Expect {
            status,
            codes: Vec::new(),
            detail: None,
        }
    }

    /// An error with `status`, `code` and (when given) `detail` among the
    /// details' keys: what [`Reply::expect_error`] asserts.
    pub fn error(status: u16, code: &'a str, detail: Option<&'a str>) -> Expect<'a> {
        Expect {
            status,
            codes: vec![code],
            detail,
        }
    }

    /// 422 `validation_failed` with `detail` among the details' keys.
    pub fn invalid(detail: &'a str) -> Expect<'a> {
        Expect::error(422, "validation_failed", Some(detail))
    }

    /// 400 `invalid_parameter`, with `detail` among the details' keys when given.
    pub fn bad_param(detail: Option<&'a str>) -> Expect<'a> {
        Expect::error(400, "invalid_parameter", detail)
    }

    /// An error with `status`, any of `codes`, and `detail` among the
    /// details' keys.
    pub fn any_of(status: u16, codes: &[&'a str], detail: &'a str) -> Expect<'a> {
        Expect {
            status,
            codes: codes.to_vec(),
            detail: Some(detail),
        }
    }
}

/// Sends `call` to `core` and asserts `expected`; the reply, for more.
#[track_caller]
pub fn check(core: &Core, call: Call, expected: Expect<'_>) -> Reply {
    let reply = core.call(&call);
    if expected.codes.is_empty() {
        assert_eq!(reply.status, expected.status, "{call}: {}", reply.body);
    } else {
        assert!(
            reply.status == expected.status && expected.codes.contains(&reply.code()),
            "{call}: wanted {} {:?}, got {}: {}",
            expected.status,
            expected.codes,
            reply.status,
            reply.body
        );
    }
    if let Some(key) = expected.detail {
        assert!(
            reply.detail_keys().iter().any(|k| k == key),
            "{call}: details lack {key}: {}",
            reply.body
        );
    }
    reply
}
