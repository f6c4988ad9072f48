//! The CLI's errors: each says what went wrong and what to do, on one line
//! (or, with `--json`, as one JSON object on standard error).

use std::fmt;

use serde_json::{Value, json};

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The API refused the request: its message (and the status).
    Api {
        /// HTTP status.
        status: u16,
        /// The error `code`.
        code: String,
        /// The error `message`.
        message: String,
        /// The error `details` (field → phrases), when it has any.
        details: Option<Value>,
    },
    /// Anything else, already phrased for people.
    Message(String),
    /// The command line asks for something it cannot (exit status 2, as
    /// clap's own usage errors).
    Usage(String),
    /// Standard output was closed (`organiser tasks | head`): not an error.
    BrokenPipe,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Api { message, .. } => f.write_str(message),
            CliError::Message(m) | CliError::Usage(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Message(e.to_string())
        }
    }
}

impl From<organiser_core::Error> for CliError {
    /// The core's refusal, as the API would send it.
    fn from(e: organiser_core::Error) -> Self {
        let body = e.to_body();
        CliError::Api {
            status: e.status(),
            code: e.code().to_owned(),
            message: e.public_message(),
            details: body["error"]
                .get("details")
                .filter(|d| d.as_object().is_some_and(|o| !o.is_empty()))
                .cloned(),
        }
    }
}

impl CliError {
    /// An error phrased for people.
    pub fn msg(m: impl Into<String>) -> Self {
        CliError::Message(m.into())
    }

    /// A usage mistake phrased for people (exit status 2).
    pub fn usage(m: impl Into<String>) -> Self {
        CliError::Usage(m.into())
    }

    /// The process's exit status for this error: 2 for a usage mistake,
    /// else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }

    /// The error as `--json` prints it on standard error: the API's error
    /// body (`{error: {code, message, details}}`) for a refused request;
    /// code `usage` for a usage mistake and `error` for any other failure.
    pub fn to_json(&self) -> Value {
        let (code, details) = match self {
            CliError::Api { code, details, .. } => (code.as_str(), details.clone()),
            CliError::Usage(_) => ("usage", None),
            _ => ("error", None),
        };
        let mut error = json!({"code": code, "message": self.to_string()});
        if let (Some(details), Some(fields)) = (details, error.as_object_mut()) {
            fields.insert("details".to_owned(), details);
        }
        json!({ "error": error })
    }

    /// The API's refusal said in the command's terms: each field of its
    /// `details` named by the flag or argument that set it (`deadline_on`
    /// as `--deadline`), so people read what they typed; a phrase that is
    /// a sentence (it begins with a capital) is said alone. Other errors
    /// are unchanged; `details` in `--json` keep the API's field names.
    pub(crate) fn naming(self, flags: &[(&str, &str)]) -> Self {
        let CliError::Api {
            status,
            code,
            message,
            details: Some(details),
        } = self
        else {
            return self;
        };
        let Some(fields) = details.as_object() else {
            return CliError::Api {
                status,
                code,
                message,
                details: Some(details),
            };
        };
        let mut parts = Vec::new();
        for (field, phrases) in fields {
            let name = flags
                .iter()
                .find(|(api, _)| api == field)
                .map(|(_, flag)| (*flag).to_owned());
            for phrase in phrases.as_array().into_iter().flatten() {
                let phrase = phrase.as_str().unwrap_or_default();
                parts.push(match (&name, field.as_str()) {
                    (_, "base") => phrase.to_owned(),
                    // A sentence of its own (a calendar feed's unreadable
                    // address is said with the vocabulary's label of its
                    // sync error): said as it is.
                    _ if phrase.starts_with(|c: char| c.is_uppercase()) => phrase.to_owned(),
                    (Some(flag), _) => format!("{flag} {phrase}"),
                    (None, _) => format!("{} {phrase}", field.replace('_', " ")),
                });
            }
        }
        let message = if parts.is_empty() {
            message
        } else {
            parts.join("; ")
        };
        CliError::Api {
            status,
            code,
            message,
            details: Some(details),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_flags_people_typed() {
        let refused = CliError::Api {
            status: 422,
            code: "validation_failed".into(),
            message: "Validation failed: Deadline on is not a date".into(),
            details: Some(json!({"deadline_on": ["is not a date"], "base": ["Nope"]})),
        };
        let said = refused.naming(&[("deadline_on", "--deadline")]);
        assert_eq!(said.to_string(), "--deadline is not a date; Nope");
        let body = said.to_json();
        assert_eq!(body["error"]["code"], "validation_failed");
        assert_eq!(body["error"]["details"]["deadline_on"][0], "is not a date");
        assert_eq!(CliError::usage("x").to_json()["error"]["code"], "usage");
        let unreadable = CliError::Api {
            status: 422,
            code: "validation_failed".into(),
            message: "Validation failed: Address The address points elsewhere".into(),
            details: Some(json!({"address": ["The address points elsewhere"]})),
        };
        assert_eq!(
            unreadable.naming(&[("address", "the address")]).to_string(),
            "The address points elsewhere"
        );
    }
}
