//! What the core refused of a settings form (EXTENSIONS.md §6: every
//! settings form a plain form): a refusal (422) shown again on the page
//! beside the fields it is about, with what was sent in them. The form
//! itself is read as every page's forms are ([`Posted`]).

use organiser_core::{Details, Error};

use crate::web::Refusal;

pub(crate) use crate::web::forms::Posted;

/// What the core refused of the form a page was answered to (422): which
/// of the page's forms (`form`), what it sent (shown again in its
/// fields; never a password or a secret), the phrases by field, and a
/// message that is no field's.
#[derive(Debug, Default)]
pub(crate) struct Refused {
    form: String,
    sent: Vec<(String, String)>,
    details: Details,
    message: Option<String>,
}

impl Refused {
    /// Nothing refused.
    pub(crate) fn none() -> Self {
        Refused::default()
    }

    /// `error` (a 422 of the core) of `form`, which sent `posted`.
    pub(crate) fn of(form: impl Into<String>, posted: &Posted, error: Error) -> Self {
        let (details, message) = match error {
            Error::Validation(details) | Error::InvalidParameter(details) => (details, None),
            other => (Details::new(), Some(other.public_message())),
        };
        // Never a password or a secret (`typed` leaves out the token).
        let sent = posted
            .typed()
            .into_iter()
            .filter(|(name, _)| !(name.contains("password") || name.contains("secret")))
            .collect();
        Refused {
            form: form.into(),
            sent,
            details,
            message,
        }
    }

    /// Whether anything was refused.
    pub(crate) fn is_refused(&self) -> bool {
        !self.form.is_empty()
    }

    /// Whether `form` is the one refused.
    pub(crate) fn sent(&self, form: &str) -> bool {
        self.is_refused() && self.form == form
    }

    /// The phrases on `field` of `form`, as a sentence.
    pub(crate) fn error(&self, form: &str, field: &str) -> Option<String> {
        if !self.sent(form) || !self.details.has(field) {
            return None;
        }
        Some(phrases(field, self.details.get(field)))
    }

    /// What `form` says as a whole: the core's message, or its phrases on
    /// `base`.
    pub(crate) fn general(&self, form: &str) -> Option<String> {
        if !self.sent(form) {
            return None;
        }
        if let Some(message) = &self.message {
            return Some(message.clone());
        }
        self.details
            .has("base")
            .then(|| phrases("base", self.details.get("base")))
    }

    /// Every phrase of the refusal, for the alert at the top of the page.
    pub(crate) fn summary(&self) -> Option<String> {
        if !self.is_refused() {
            return None;
        }
        Some(match &self.message {
            Some(message) => message.clone(),
            None => self
                .details
                .iter()
                .map(|(field, said)| phrases(field, said))
                .collect::<Vec<_>>()
                .join("; "),
        })
    }

    /// What field `field` of `form` shows: what was sent when `form` was
    /// refused, else `current`.
    pub(crate) fn value<'a>(&'a self, form: &str, field: &str, current: &'a str) -> &'a str {
        if self.sent(form) {
            self.sent
                .iter()
                .find(|(n, _)| n == field)
                .map_or("", |(_, v)| v.as_str())
        } else {
            current
        }
    }

    /// Whether box (or choice) `value` of `field` of `form` is ticked:
    /// as sent when `form` was refused, else `current`.
    pub(crate) fn ticked(
        &self,
        form: &str,
        field: &str,
        value: &str,
        current: impl std::borrow::Borrow<bool>,
    ) -> bool {
        if self.sent(form) {
            self.sent.iter().any(|(n, v)| n == field && v == value)
        } else {
            *current.borrow()
        }
    }
}

/// The phrases on `field` as a sentence: each after the field's name
/// ("Time zone is not a zone"), unless it is a sentence of its own or the
/// field is the record's as a whole (`base`).
fn phrases(field: &str, said: &[String]) -> String {
    let label = capitalise(&field.replace(['_', '.'], " "));
    said.iter()
        .map(|p| {
            if field == "base" || p.starts_with(char::is_uppercase) {
                capitalise(p)
            } else {
                format!("{label} {p}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `s` with its first letter a capital.
pub(super) fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The outcome of a form's call: a 422 of the core is for the page to
/// show beside the form; any other refusal is the page's.
pub(crate) fn refused<T>(result: Result<T, Refusal>) -> Result<Result<T, Error>, Refusal> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(Refusal::Core(e)) if e.status() == 422 => Ok(Err(e)),
        Err(other) => Err(other),
    }
}
