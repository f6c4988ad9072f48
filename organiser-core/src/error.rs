//! The one error type of the core: every outcome of the spec's Errors table
//! (document 1, "Errors"), with its `code`, HTTP status and `details`.

use std::collections::BTreeMap;

use serde::Serialize;

/// Result with the core's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Phrases keyed by field name (or `base` for the record as a whole), as the
/// `details` object of an error body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Details(BTreeMap<String, Vec<String>>);

impl Details {
    /// No details yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Details with one phrase about one field.
    pub fn one(field: impl Into<String>, phrase: impl Into<String>) -> Self {
        let mut d = Self::new();
        d.add(field, phrase);
        d
    }

    /// Adds a phrase about `field`; a phrase already there is not repeated.
    pub fn add(&mut self, field: impl Into<String>, phrase: impl Into<String>) {
        let phrases = self.0.entry(field.into()).or_default();
        let phrase = phrase.into();
        if !phrases.contains(&phrase) {
            phrases.push(phrase);
        }
    }

    /// Adds every phrase of `other` (another check's mistakes).
    pub fn extend(&mut self, other: &Details) {
        for (field, phrases) in other.iter() {
            for phrase in phrases {
                self.add(field, phrase.clone());
            }
        }
    }

    /// Whether no phrase was added.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `field` has a phrase.
    pub fn has(&self, field: &str) -> bool {
        self.0.contains_key(field)
    }

    /// The phrases about `field`.
    pub fn get(&self, field: &str) -> &[String] {
        self.0.get(field).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every field and its phrases, by field name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// `Err(Error::Validation)` when phrases were added, else `Ok(())`.
    pub fn into_validation(self) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::Validation(self))
        }
    }

    /// `Err(Error::InvalidParameter)` when phrases were added, else `Ok(())`.
    pub fn into_invalid_parameter(self) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::InvalidParameter(self))
        }
    }

    /// "Title can't be blank; Name has already been taken": the phrases as a
    /// sentence for people (a phrase that begins with a capital stands
    /// alone).
    pub fn sentence(&self) -> String {
        let mut parts = Vec::new();
        for (field, phrases) in &self.0 {
            for phrase in phrases {
                // A phrase that is a sentence of its own (a feed's
                // "The calendar server could not be reached; ...") is
                // not put after its field's name.
                if field == "base" || phrase.starts_with(char::is_uppercase) {
                    parts.push(capitalise(phrase));
                } else {
                    parts.push(format!("{} {phrase}", capitalise(&field.replace('_', " "))));
                }
            }
        }
        parts.join("; ")
    }
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Which 409 the spec names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConflictKind {
    /// `conflict`: a clash with the record's state.
    Conflict,
    /// `folder_not_empty`.
    FolderNotEmpty,
    /// `in_use`.
    InUse,
}

/// Every outcome of the spec's Errors table. `code()`, `status()` and
/// `details()` give the error body; `to_string()` gives the `message`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// 400 `invalid_parameter`: a query parameter (or header) is malformed.
    #[error("Invalid parameter: {}", .0.sentence())]
    InvalidParameter(Details),
    /// 400 `invalid_json`: the body is not the JSON the endpoint takes.
    #[error("{0}")]
    InvalidJson(String),
    /// 401 `unauthorized`.
    #[error("A valid API token is required")]
    Unauthorized,
    /// 403 `session_required`: only the web UI may do this.
    #[error("Only a signed-in session (the web UI) may do this")]
    SessionRequired,
    /// 403 `read_only`: the licence state is read-only.
    #[error("The service is read-only: the trial has ended and no licence covers this version")]
    ReadOnly,
    /// 404 `not_found`.
    #[error("Not found")]
    NotFound,
    /// 409 `conflict`, `folder_not_empty` or `in_use`.
    #[error("{message}")]
    Conflict {
        /// Which of the spec's 409 codes.
        kind: ConflictKind,
        /// For people.
        message: String,
    },
    /// 409 `idempotency_key_in_use`: a request with this key is still running.
    #[error("A request with this Idempotency-Key is still running; retry when it has finished")]
    IdempotencyKeyInUse,
    /// 411 `length_required`.
    #[error("Content-Length is required")]
    LengthRequired,
    /// 413 `payload_too_large`.
    #[error("The body is too large (at most {})", crate::limits::size(*limit))]
    PayloadTooLarge {
        /// The largest body accepted, in bytes.
        limit: u64,
    },
    /// 415 `unsupported_media_type`.
    #[error("The body must be application/json")]
    UnsupportedMediaType,
    /// 422 `validation_failed`, with `details`.
    #[error("Validation failed: {}", .0.sentence())]
    Validation(Details),
    /// 422 `idempotency_key_reused`: the key was used for another request.
    #[error("This Idempotency-Key was used for a different request")]
    IdempotencyKeyReused,
    /// 422 `provider_error`.
    #[error("{0}")]
    ProviderError(String),
    /// 422 `key_required`.
    #[error("{0}")]
    KeyRequired(String),
    /// 422 `delivery_failed`: a notification channel's test message did
    /// not arrive (EXTENSIONS.md §3); why, in the message.
    #[error("{0}")]
    DeliveryFailed(String),
    /// 422 `already_added`.
    #[error("{0}")]
    AlreadyAdded(String),
    /// 429 `rate_limited`; `retry_after` in whole seconds.
    #[error("Too many requests; retry in {retry_after} s")]
    RateLimited {
        /// Seconds until the next request will be admitted.
        retry_after: u64,
    },
    /// 500 `internal_error`: the store failed; its source says how (for
    /// logs only: the body says nothing of it).
    #[error("storage: {0}")]
    Storage(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// 500 `internal_error` for any other failure; for logs only.
    #[error("internal: {0}")]
    Internal(String),
    /// A remote door could not reach its server, or could not read its
    /// answer (never answered by the API: code `unreachable`, status 502).
    #[error("{0}")]
    Unreachable(String),
}

impl Error {
    /// A 422 with one phrase on one field.
    pub fn invalid(field: impl Into<String>, phrase: impl Into<String>) -> Self {
        Error::Validation(Details::one(field, phrase))
    }

    /// A 400 with one phrase on one query parameter.
    pub fn bad_param(param: impl Into<String>, phrase: impl Into<String>) -> Self {
        Error::InvalidParameter(Details::one(param, phrase))
    }

    /// A 409 `conflict`.
    pub fn conflict(message: impl Into<String>) -> Self {
        Error::Conflict {
            kind: ConflictKind::Conflict,
            message: message.into(),
        }
    }

    /// The spec's `code`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidParameter(_) => "invalid_parameter",
            Error::InvalidJson(_) => "invalid_json",
            Error::Unauthorized => "unauthorized",
            Error::SessionRequired => "session_required",
            Error::ReadOnly => "read_only",
            Error::NotFound => "not_found",
            Error::Conflict { kind, .. } => match kind {
                ConflictKind::Conflict => "conflict",
                ConflictKind::FolderNotEmpty => "folder_not_empty",
                ConflictKind::InUse => "in_use",
            },
            Error::IdempotencyKeyInUse => "idempotency_key_in_use",
            Error::LengthRequired => "length_required",
            Error::PayloadTooLarge { .. } => "payload_too_large",
            Error::UnsupportedMediaType => "unsupported_media_type",
            Error::Validation(_) => "validation_failed",
            Error::IdempotencyKeyReused => "idempotency_key_reused",
            Error::ProviderError(_) => "provider_error",
            Error::KeyRequired(_) => "key_required",
            Error::DeliveryFailed(_) => "delivery_failed",
            Error::AlreadyAdded(_) => "already_added",
            Error::RateLimited { .. } => "rate_limited",
            Error::Storage(_) | Error::Internal(_) => "internal_error",
            Error::Unreachable(_) => "unreachable",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Error::InvalidParameter(_) | Error::InvalidJson(_) => 400,
            Error::Unauthorized => 401,
            Error::SessionRequired | Error::ReadOnly => 403,
            Error::NotFound => 404,
            Error::Conflict { .. } | Error::IdempotencyKeyInUse => 409,
            Error::LengthRequired => 411,
            Error::PayloadTooLarge { .. } => 413,
            Error::UnsupportedMediaType => 415,
            Error::Validation(_)
            | Error::IdempotencyKeyReused
            | Error::ProviderError(_)
            | Error::KeyRequired(_)
            | Error::DeliveryFailed(_)
            | Error::AlreadyAdded(_) => 422,
            Error::RateLimited { .. } => 429,
            Error::Storage(_) | Error::Internal(_) => 500,
            Error::Unreachable(_) => 502,
        }
    }

    /// The `details` object, for errors that carry one.
    pub fn details(&self) -> Option<&Details> {
        match self {
            Error::InvalidParameter(d) | Error::Validation(d) => Some(d),
            _ => None,
        }
    }

    /// The `message` of the error body: for people, and never a leak of
    /// internals (a 500 says only that the server failed).
    pub fn public_message(&self) -> String {
        match self {
            Error::Storage(_) | Error::Internal(_) => {
                "The server failed to answer this request".to_owned()
            }
            other => other.to_string(),
        }
    }

    /// The error an answer of `status` with `body` (`{"error": {code,
    /// message, details?}}`) stands for: what a remote door gives back.
    /// A code this build does not know, or a body that is no error body,
    /// is [`Error::Internal`] with what could be read.
    pub fn from_answer(status: u16, body: &serde_json::Value) -> Error {
        let error = &body["error"];
        let message = error["message"].as_str().unwrap_or_default().to_owned();
        let details = || {
            let mut d = Details::new();
            if let Some(fields) = error["details"].as_object() {
                for (field, phrases) in fields {
                    for phrase in phrases.as_array().into_iter().flatten() {
                        d.add(field.as_str(), phrase.as_str().unwrap_or_default());
                    }
                }
            }
            d
        };
        let conflict = |kind| Error::Conflict {
            kind,
            message: message.clone(),
        };
        match error["code"].as_str().unwrap_or_default() {
            "invalid_parameter" => Error::InvalidParameter(details()),
            "invalid_json" => Error::InvalidJson(message),
            "unauthorized" => Error::Unauthorized,
            "session_required" => Error::SessionRequired,
            "read_only" => Error::ReadOnly,
            "not_found" => Error::NotFound,
            "conflict" => conflict(ConflictKind::Conflict),
            "folder_not_empty" => conflict(ConflictKind::FolderNotEmpty),
            "in_use" => conflict(ConflictKind::InUse),
            "idempotency_key_in_use" => Error::IdempotencyKeyInUse,
            "length_required" => Error::LengthRequired,
            "payload_too_large" => Error::PayloadTooLarge { limit: 0 },
            "unsupported_media_type" => Error::UnsupportedMediaType,
            "validation_failed" => Error::Validation(details()),
            "idempotency_key_reused" => Error::IdempotencyKeyReused,
            "provider_error" => Error::ProviderError(message),
            "key_required" => Error::KeyRequired(message),
            "delivery_failed" => Error::DeliveryFailed(message),
            "already_added" => Error::AlreadyAdded(message),
            "rate_limited" => Error::RateLimited { retry_after: 0 },
            code => Error::Internal(format!("{status} {code}: {message}")),
        }
    }

    /// The error body `{"error": {code, message, details?}}`.
    pub fn to_body(&self) -> serde_json::Value {
        let mut error = serde_json::json!({
            "code": self.code(),
            "message": self.public_message(),
        });
        if let Some(details) = self.details() {
            error["details"] = serde_json::to_value(details).unwrap_or_default();
        }
        serde_json::json!({ "error": error })
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Storage(format!("record encoding: {e}").into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_has_the_spec_code_and_status() {
        let cases: Vec<(Error, &str, u16)> = vec![
            (
                Error::bad_param("limit", "is not a number"),
                "invalid_parameter",
                400,
            ),
            (Error::InvalidJson("x".into()), "invalid_json", 400),
            (Error::Unauthorized, "unauthorized", 401),
            (Error::SessionRequired, "session_required", 403),
            (Error::ReadOnly, "read_only", 403),
            (Error::NotFound, "not_found", 404),
            (Error::conflict("x"), "conflict", 409),
            (
                Error::Conflict {
                    kind: ConflictKind::FolderNotEmpty,
                    message: "x".into(),
                },
                "folder_not_empty",
                409,
            ),
            (
                Error::Conflict {
                    kind: ConflictKind::InUse,
                    message: "x".into(),
                },
                "in_use",
                409,
            ),
            (Error::IdempotencyKeyInUse, "idempotency_key_in_use", 409),
            (Error::LengthRequired, "length_required", 411),
            (
                Error::PayloadTooLarge { limit: 1 },
                "payload_too_large",
                413,
            ),
            (Error::UnsupportedMediaType, "unsupported_media_type", 415),
            (
                Error::invalid("name", "can't be blank"),
                "validation_failed",
                422,
            ),
            (Error::IdempotencyKeyReused, "idempotency_key_reused", 422),
            (Error::ProviderError("x".into()), "provider_error", 422),
            (Error::KeyRequired("x".into()), "key_required", 422),
            (Error::DeliveryFailed("x".into()), "delivery_failed", 422),
            (Error::AlreadyAdded("x".into()), "already_added", 422),
            (Error::RateLimited { retry_after: 3 }, "rate_limited", 429),
            (Error::Storage("disk on fire".into()), "internal_error", 500),
        ];
        for (error, code, status) in cases {
            assert_eq!((error.code(), error.status()), (code, status), "{error:?}");
        }
    }

    #[test]
    fn a_500_leaks_nothing() {
        let body = Error::Storage("table tasks: page 7 corrupt".into()).to_body();
        assert!(!body.to_string().contains("corrupt"));
        assert!(body["error"].get("details").is_none());
    }

    #[test]
    fn details_are_keyed_arrays_of_phrases() {
        let mut d = Details::new();
        d.add("name", "can't be blank");
        d.add("name", "can't be blank");
        d.add("base", "only one home may be set");
        let body = Error::Validation(d).to_body();
        assert_eq!(
            body["error"]["details"],
            serde_json::json!({"base": ["only one home may be set"], "name": ["can't be blank"]})
        );
        assert_eq!(
            body["error"]["message"],
            "Validation failed: Only one home may be set; Name can't be blank"
        );
    }
}
